//! The experiment window's Mäntysalo 2024 preset: one scenario of the thesis, its variants, its
//! table beside the thesis's.

use crate::common;

use common::*;
use egui_kittest::kittest::Queryable;
use pathlab::app::{Command, ExperimentCommand};
use pathlab::experiment::mantysalo2024;

#[test]
fn a_thesis_scenario_runs_its_variants_beside_the_thesis_table() {
    let mut app = default_app();
    app.apply(Command::OpenPart("experiment"));
    let room_128_2 = mantysalo2024::all()[0];
    app.apply(Command::Experiment(ExperimentCommand::Scenario(room_128_2)));
    app.apply(Command::Experiment(ExperimentCommand::Runs(2)));
    let mut h = harness(app);
    h.run();
    assert_eq!(h.state().experiment().scenario(), Some(room_128_2));
    run_experiment_window(&mut h);
    let (setup, rows, _) = h.state().experiment().result.clone().expect("a result");
    let names: Vec<String> = setup.algos.iter().map(|a| a.name()).collect();
    assert_eq!(names, mantysalo2024::ALGOS, "the thesis's 11 variants");
    assert_eq!(rows.len(), 22);
    h.get_by_label_contains("Table A.1");
    // A*'s travelled length and expansions beside the thesis's (301 cells, 62,910 nodes).
    assert!(h.query_all_by_label_contains(" / 301").count() >= 1);
    h.get_by_label_contains(" / 62910");
}

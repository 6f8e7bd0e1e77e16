//! A hierarchy that cannot be built is said in the app, not shown as an empty view: the view's
//! run reports why, and the status line says "not run:" and the reason rather than "no path".
//! METIS is made to fail here (`PATHLAB_FAIL_METIS`, as tests/hier_build.rs does on the command
//! line); the web build, which has no METIS, ends every hierarchy build this way.

mod common;
mod support;

use common::{default_app, harness};
use egui_kittest::kittest::{NodeT, Queryable};
use pathlab::app::Command;

#[test]
fn a_hierarchy_that_cannot_be_built_says_why_in_the_app() {
    // Set before the app starts: this test binary holds this one test, so no other test sees
    // METIS fail.
    std::env::set_var(pathlab::hier::partition::FAIL_METIS_VAR, "1");
    let mut h = harness(default_app());
    // Lesson 8: A* (view 1) and HNA* (view 2) on the maze's navmesh.
    h.state_mut().start_lesson(7, 0);
    let mut why = None;
    for _ in 0..600 {
        h.run();
        why = h.state().views()[1].run.failure().map(str::to_string);
        if why.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let why = why.expect("HNA*'s failed build is reported by its run");
    assert!(
        why.starts_with("hna: partitioning L1: METIS could not split a component of "),
        "{why}"
    );
    // A* beside it ran as ever.
    assert_eq!(h.state().views()[0].run.failure(), None);
    h.state_mut().apply(Command::SetActive(1));
    h.run();
    let summary = h.state().summary();
    assert!(summary.ends_with(&format!(": not run: {why}")), "{summary}");
    // The statistics say the hierarchy was not built, and why (not "0 KiB, built").
    h.run();
    let line = h
        .query_by_label_contains("prepared: hna hierarchy")
        .expect("the statistics list HNA*'s hierarchy")
        .accesskit_node()
        .value()
        .unwrap_or_default();
    let cause = why
        .strip_prefix("hna: ")
        .expect("the run names its algorithm");
    assert_eq!(
        line,
        format!("prepared: hna hierarchy: not built ({cause})")
    );
}

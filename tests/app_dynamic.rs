//! The app over changing maps, driven headless through egui_kittest: an edit repaired by D* Lite
//! while A* starts again, stepping back across a repaired change, agents walking a flipping map,
//! the dynamic experiment's window, and ARA*'s solutions one by one.
#![cfg(feature = "gui")]

use crate::common;

use common::*;
use eframe::egui;
use egui_kittest::kittest::Queryable;
use pathlab::app::{AgentCommand, Command, ExperimentCommand};
use pathlab::map::{Cell, Edit};
use pathlab::search::{AStar, Query, Search, SearchState};
use pathlab::space::Heuristic;
use pathlab::trace::NullTracer;

#[test]
fn an_edit_is_repaired_by_dstar_lite_and_restarts_astar() {
    let mut app = default_app();
    app.set_algorithm(0, pathlab::app::AlgoChoice::named("dstar-lite"));
    app.add_view(pathlab::app::AlgoChoice::named("astar"));
    app.to_end();
    let path = app.views()[0].run.path().unwrap().to_vec();
    let before = app.views()[0].run.rec.len();
    // A wall on the middle of D* Lite's path.
    let (x, y) = app.space().xy(path[path.len() / 2]);
    app.edit(Edit::SetCell {
        x,
        y,
        cell: Cell::WALL,
    });
    app.to_end();
    let d = &app.views()[0].run;
    assert!(d.repaired, "D* Lite repairs");
    assert!(
        d.rec.len() > before,
        "its timeline grew instead of restarting"
    );
    assert!(d
        .rec
        .iter()
        .skip(before)
        .any(|e| e.kind == pathlab::trace::EventKind::WorldChange));
    assert!(!app.views()[1].run.repaired, "A* restarts");
    // The oracle: the repaired cost equals A* from scratch on the edited map.
    let q = Query {
        start: app
            .space()
            .node(app.doc().start.0, app.doc().start.1)
            .unwrap(),
        goal: app
            .space()
            .node(app.doc().goal.0, app.doc().goal.1)
            .unwrap(),
    };
    let sp = app.space().as_square().expect("a square world");
    let mut a = AStar::new(sp, q, Heuristic::Octile);
    a.run(sp, &mut NullTracer);
    let (dc, ac) = (d.cost().unwrap(), a.cost().unwrap());
    assert!((dc - ac).abs() < 1e-9, "D* Lite {dc} vs A* {ac}");
    assert_eq!(app.views()[1].run.cost(), Some(ac));
    assert!(!d.path().unwrap().contains(&path[path.len() / 2]));
    // The app's own oracle ran after the repair and shows agreement.
    let o = d
        .oracle
        .as_ref()
        .expect("the repair was checked against A*");
    assert!(o.agrees(), "{}", o.text());
    assert_eq!((o.repaired, o.scratch), (Some(dc), Some(ac)));
    assert!(
        app.views()[1].run.oracle.is_none(),
        "A* restarted: nothing to check"
    );
}

#[test]
fn the_experiment_window_runs_the_harness_and_tabulates_it() {
    use pathlab::experiment::dynamic::{run_experiment, summarise};
    let mut app = default_app();
    app.apply(Command::OpenPart("experiment"));
    app.apply(Command::Experiment(ExperimentCommand::Size(32)));
    app.apply(Command::Experiment(ExperimentCommand::Runs(3)));
    let mut h = harness(app);
    h.run();
    run_experiment_window(&mut h);
    let (setup, rows, sum) = h.state().experiment().result.clone().expect("a result");
    assert_eq!(rows.len(), 9, "3 runs × A*, D* Lite, RTD* 32");
    // The same experiment straight from the core: everything but the times agrees.
    let want = run_experiment(&setup, &|_| {}, &Default::default());
    let want = summarise(&setup.algos, &want);
    for (a, b) in sum.iter().zip(&want) {
        assert_eq!(
            (a.algo, a.success, a.path_length, a.replans, a.expanded),
            (b.algo, b.success, b.path_length, b.replans, b.expanded)
        );
    }
    h.get_by_label("× first");
    assert!(h.state().experiment().csv().unwrap().starts_with(
        "algo,map_kind,size,magnitude,run,success,path_length,replans,expanded,recompute_ms_avg,total_ms,settled\n"
    ));
}

#[test]
fn stepping_back_across_a_repaired_change_shows_the_map_as_it_was() {
    let mut app = default_app();
    app.set_algorithm(0, pathlab::app::AlgoChoice::named("dstar-lite"));
    app.to_end();
    let path = app.views()[0].run.path().unwrap().to_vec();
    let (x, y) = app.space().xy(path[path.len() / 3]);
    let before_tile = app.doc().grid.get(x, y).unwrap().tile;
    app.edit(Edit::SetCell {
        x,
        y,
        cell: Cell::WALL,
    });
    app.to_end();
    let run = &app.views()[0].run;
    assert_eq!(run.changes.len(), 1);
    let change = run.changes[0].clone();
    let w = app.doc().grid.width() as usize;
    assert_eq!(
        change.cells,
        vec![(y as usize * w + x as usize, before_tile, b'@')]
    );
    let mut h = harness(app);
    h.run();
    let wall = h.state().views()[0].pixel(x, y).unwrap();
    // Back, one step at a time, until the cursor is before the change's events.
    let mut steps = 0;
    loop {
        let run = h.state_mut().run_mut(0);
        let at = run.event_cursor();
        if run.world_at(at) == 0 {
            break;
        }
        h.key_press(egui::Key::ArrowLeft);
        h.run();
        steps += 1;
        assert!(steps < 100_000, "never got back before the change");
    }
    let then = h.state().views()[0].pixel(x, y).unwrap();
    assert_ne!(then, wall, "the cell is drawn as it was before the wall");
    // And forward again to the end: the wall is back.
    h.key_press(egui::Key::End);
    h.run();
    assert_eq!(h.state().views()[0].pixel(x, y).unwrap(), wall);
}

#[test]
fn sent_agents_walk_and_stopping_restores_the_map() {
    let mut app = default_app();
    let before = app.doc().grid.clone();
    app.apply(Command::Agents(AgentCommand::Settings {
        ticks_per_sec: 200.0,
        every: 2,
        percent: 30.0,
    }));
    let mut h = harness(app);
    h.run();
    h.get_by_label("Send agents").click();
    for _ in 0..400 {
        h.step();
        if h.state().sim().agents.iter().all(|a| a.arrived) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let sim = &h.state().sim();
    assert!(sim.agents[0].trail.len() > 10, "{}", sim.summary());
    assert!(!sim.agents[0].recompute_ms.is_empty(), "it replanned");
    h.get_by_label("recompute time per replan (ms)");
    h.get_by_label("Stop").click();
    settle(&mut h);
    assert_eq!(h.state().doc().grid, before);
    assert!(h.state().sim().agents.is_empty());
    h.get_by_label("Replay last tape");
}

#[test]
fn ara_star_shows_each_solution_and_its_epsilon() {
    let mut app = default_app();
    app.set_algorithm(0, pathlab::app::AlgoChoice::named("ara-star"));
    app.to_end();
    let sols = app.views()[0].run.series.solutions.clone();
    assert!(sols.len() >= 2, "{sols:?}");
    let (best, _) = core_astar();
    let last = *sols.last().unwrap();
    assert_eq!(last.2, 1.0, "the last solution is at ε = 1");
    assert!(
        (last.1 as f64 - best).abs() < 1e-3,
        "and optimal: {} vs {best}",
        last.1
    );
    assert!(sols.windows(2).all(|w| w[1].1 <= w[0].1 && w[1].2 < w[0].2));
    let mut h = harness(app);
    h.run();
    h.get_by_label("Anytime solutions (later ones greyed)");
    // The view's title shows the solution published by the step shown: the last at the end,
    // none at the start.
    assert_eq!(
        h.state().views()[0].run.solution_shown(),
        Some((last.1, 1.0))
    );
    h.key_press(egui::Key::Home);
    h.run();
    assert_eq!(h.state().views()[0].run.solution_shown(), None);
}

//! The app's parts own the work they start: closing a part's window ends its job, so nothing
//! the user can no longer see goes on computing, and the app then rests.

use crate::common;

use common::*;
use egui_kittest::kittest::Queryable;
use pathlab::app::{Command, CrowdCommand, ExperimentCommand, VehicleCommand};

/// Closes part `name`'s window and checks that no work of the app is left running.
fn close_and_check(h: &mut AppHarness, name: &'static str) {
    h.state_mut().apply(Command::ClosePart(name));
    assert_eq!(
        h.state().outstanding_work(),
        Vec::<&str>::new(),
        "closing {name}'s window ends its work"
    );
    // Nothing left to do: the app settles without any more work.
    h.run();
}

#[test]
fn closing_a_window_ends_the_job_it_started() {
    // The vehicle planner, planning.
    let mut app = default_app();
    app.apply(Command::OpenPart("vehicle"));
    app.apply(Command::Vehicle(VehicleCommand::Plan));
    let mut h = harness(app);
    assert!(h.state().vehicle().running());
    close_and_check(&mut h, "vehicle");
    assert!(!h.state().vehicle().open && !h.state().vehicle().running());
    assert!(h.state().vehicle().result.is_none());

    // A crowd of a million agents, planning.
    h.state_mut().apply(Command::Crowd(CrowdCommand::Run(
        vec!["astar".into()],
        1_000_000,
    )));
    h.step();
    assert!(h.state().crowd().running());
    close_and_check(&mut h, "crowd");
    assert_eq!(h.state().crowd().error.as_deref(), Some("Cancelled."));
    assert!(h.state().crowd().result.is_none());

    // The dynamic experiment, running.
    h.state_mut().apply(Command::OpenPart("experiment"));
    h.state_mut()
        .apply(Command::Experiment(ExperimentCommand::Runs(50)));
    h.run();
    h.get_by_label("Run experiment").click();
    h.step();
    assert!(h.state().experiment().running());
    close_and_check(&mut h, "experiment");
    assert!(h.state().experiment().result.is_none());
}

#[test]
fn every_window_in_the_menus_opens_and_closes_by_name() {
    let mut h = harness(default_app());
    for name in ["experiment", "crowd", "vehicle", "map-stats"] {
        h.state_mut().apply(Command::OpenPart(name));
        h.run();
        close_and_check(&mut h, name);
    }
}

//! Theta* in the app: chosen from the menu's registry, stepped, its line-of-sight checks of
//! the step shown (what the views draw as green or red segments) equal to the space's own
//! answer for each segment, and its cost and check count at the end the core's.

use crate::common;

use common::{default_app, harness};
use egui_kittest::kittest::Queryable;
use pathlab::algorithms;
use pathlab::app::AlgoChoice;
use pathlab::app::Command;
use pathlab::search::Query;
use pathlab::space::{GridSpace, Space};

#[test]
fn theta_star_steps_and_shows_its_sight_checks() {
    let mut h = harness(default_app());
    h.run();
    h.state_mut()
        .set_algorithm(0, AlgoChoice::named("theta-star"));
    h.run();
    let mut seen = (0, 0);
    for _ in 0..12 {
        h.get_by_label(">").click();
        h.run();
        let checks = h.state_mut().run_mut(0).sight_checks();
        let space = h.state().space().as_square().expect("squares").clone();
        for &(a, b, clear) in &checks {
            assert_eq!(space.line_of_sight(a, b), Some(clear), "{a} -> {b}");
            if clear {
                seen.0 += 1;
            } else {
                seen.1 += 1;
            }
        }
    }
    assert!(seen.0 > 0, "clear segments drawn: {seen:?}");
    assert_eq!(h.state().cursor(), 12);
    h.get_by_label(">|").click();
    h.run();
    let (g, s, t) = pathlab::builtin::default_world();
    let sp = GridSpace::octile(&g);
    let q = Query {
        start: sp.node(s.0, s.1).unwrap(),
        goal: sp.node(t.0, t.1).unwrap(),
    };
    let mut core = algorithms::build("theta-star", &sp, q).unwrap();
    core.run_null(&sp);
    let cost = core.cost().unwrap();
    h.get_by_label_contains(&format!("cost {cost:.3}"));
    h.get_by_label("los_checks");
    h.get_by_label(&core.stats().los_checks.to_string());
    let mut astar = algorithms::build("astar", &sp, q).unwrap();
    astar.run_null(&sp);
    assert!(cost < astar.cost().unwrap(), "any-angle is shorter here");

    // View ▸ Rubber-banded paths on A*: the path drawn dashed is the core's rubber band, no
    // longer than A*'s path.
    h.state_mut().set_algorithm(0, AlgoChoice::named("astar"));
    h.state_mut().apply(Command::SetSmoothed(true));
    h.get_by_label(">|").click();
    h.run();
    let (band, _) = pathlab::search::rubber_band(&sp, astar.path().unwrap());
    let shown = {
        let app = h.state_mut();
        let space = app.space().clone();
        app.run_mut(0).smoothed_path(&space).unwrap().to_vec()
    };
    assert_eq!(shown, band);
    let len: f64 = band
        .windows(2)
        .map(|w| pathlab::search::distance(&sp, w[0], w[1]))
        .sum();
    assert!(len < astar.cost().unwrap() && band.len() < astar.path().unwrap().len());
}

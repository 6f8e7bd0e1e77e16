//! Krafft 2019's moving 3D scene in the app, driven as a user would: File ▸ Moving 3D scene,
//! D* Lite chosen, Fly pressed, the scene clock dragged back and forth and played. What the app
//! flies is checked against the experiment's own flight from the core, and at every moment
//! visited the document must hold the graph of the replan in force, with its start and goal,
//! and the view's search must cost what A* from scratch costs on that graph.

use crate::common;

use common::{app_for, harness};
use egui_kittest::kittest::Queryable;
use pathlab::app::AlgoChoice;
use pathlab::experiment::scene3d::Scene;
use pathlab::experiment::scene3d_run::{fly, FlightEnd, Setup};
use pathlab::map::voxel::VoxelGrid;
use pathlab::search::Query;
use pathlab::space::{VoxelMoves, VoxelSpace};
use pathlab::world::Family;

/// A* from scratch on `v` between two cells (6-connected, as the scene flies).
fn astar_cost(v: &VoxelGrid, s: [u32; 3], g: [u32; 3]) -> Option<f64> {
    let sp = VoxelSpace::new(v.clone(), VoxelMoves::Six);
    let q = Query {
        start: sp.node(s[0], s[1], s[2])?,
        goal: sp.node(g[0], g[1], g[2])?,
    };
    let mut a = pathlab::algorithms::build("astar", &sp, q).ok()?;
    a.run_null(&sp);
    a.cost()
}

#[test]
fn the_moving_scene_flies_replays_and_checks_every_repair() {
    let mut h = harness(app_for("scene3d"));
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Moving 3D scene (Krafft 2019)").click();
    h.run();
    assert!(h.state().flight().is_some(), "the scene opened");
    assert_eq!(
        h.state().doc().world,
        Family::Voxel {
            moves: VoxelMoves::Six
        }
    );
    let scene = Scene::krafft2019_like(true);
    let setup = Setup::default();
    let mut at_start = VoxelGrid::new(1, 1, 1).unwrap();
    scene.rasterise(
        0.0,
        setup.safety,
        scene.timed_on_schedule(0.0),
        &mut at_start,
    );
    assert_eq!(h.state().doc().volume().unwrap().voxels, at_start);

    h.state_mut()
        .set_algorithm(0, AlgoChoice::named("dstar-lite"));
    h.run();
    h.get_by_label("Fly with the active view's algorithm")
        .click();
    // The replay starts playing at once; pause it to look around.
    h.step();
    h.step();
    h.get_by_label("Pause flight").click();
    h.run();

    // The app's flight is the experiment's, tick for tick and replan for replan.
    let (want, want_log) = fly(&scene, "dstar-lite", setup, 0.0, 0).unwrap();
    let (got, got_log) = {
        let f = h.state().flight().unwrap();
        let flown = f.flown.as_ref().expect("flown");
        (flown.result.clone(), flown.log.clone())
    };
    assert_eq!(got_log, want_log);
    assert_eq!(
        (got.success, got.replans, got.expanded, got.distance),
        (want.success, want.replans, want.expanded, want.distance)
    );
    assert_eq!(
        got_log.end,
        FlightEnd::Arrived,
        "D* Lite reaches the destination"
    );
    let repairs = got_log.replans.iter().filter(|r| r.repaired).count();
    assert!(repairs > 10, "D* Lite repaired {repairs} times");
    // Every replan that found a path was checked (a patrol can close every way for a moment).
    let n = got_log
        .replans
        .iter()
        .filter(|r| r.agrees.is_some())
        .count();
    assert!(n > 10 && n + 5 > got_log.replans.len(), "{n} checked");
    h.get_by_label(&format!("{n} of {n} repairs agreed with A* from scratch"));

    // Back and forth over the flight: the graph, the endpoints and the search follow the clock.
    let last = got_log.frames.len() - 1;
    for k in [last / 2, 3, last, 1, last / 3, 0] {
        h.state_mut().seek_flight(k);
        h.run();
        let t = got_log.frames[k].t;
        let r = got_log.replan_at(t).expect("a replan in force");
        let rp = &got_log.replans[r];
        let mut graph = VoxelGrid::new(1, 1, 1).unwrap();
        // With the timed blocks as they were then (held while the agent was near them).
        let timed = got_log
            .frames
            .iter()
            .rev()
            .find(|f| f.t <= rp.t)
            .unwrap()
            .timed;
        scene.rasterise(got_log.t0 + rp.t, setup.safety, timed, &mut graph);
        let app = h.state();
        assert_eq!(app.flight().as_ref().unwrap().frame, k);
        let vol = app.doc().volume().unwrap();
        assert!(vol.voxels == graph, "frame {k}: the graph of replan {r}");
        if rp.start != rp.goal {
            let (s, g) = (app.doc().start_at(), app.doc().goal_at());
            assert_eq!([s.0, s.1, s.2], rp.start, "frame {k}");
            assert_eq!([g.0, g.1, g.2], rp.goal, "frame {k}");
            let shown = app.views()[0].run.cost();
            let oracle = astar_cost(&graph, rp.start, rp.goal);
            assert_eq!(shown.is_some(), oracle.is_some(), "frame {k}");
            if let (Some(a), Some(b)) = (shown, oracle) {
                assert!((a - b).abs() < 1e-6, "frame {k}: D* Lite {a}, A* {b}");
            }
        }
        let total = got_log.replans.len();
        h.get_by_label_contains(&format!("Replan {} of {total} at", r + 1));
    }

    // Play moves the clock on.
    h.get_by_label("Play flight").click();
    for _ in 0..30 {
        h.step();
    }
    let f = h.state().flight().unwrap();
    assert!(f.frame > 0, "playing advanced the scene clock");
}

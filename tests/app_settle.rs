//! The harness waits on the work the app started, not on a count of frames: a search that
//! takes hundreds of frames (a slice of each) finishes before `run` returns, however loaded
//! the machine, and the timing job it starts afterwards is taken too.

use crate::common;

use common::*;
use pathlab::app::{AlgoChoice, Command};
use pathlab::search::{AStar, Search, SearchState};
use pathlab::space::{GridSpace, Heuristic};
use pathlab::trace::NullTracer;

#[test]
fn run_returns_once_a_search_of_many_frames_has_finished() {
    let Some(dir) = movingai() else {
        eprintln!("skipped: ../shared/benchmarks/movingai-grid is missing");
        return;
    };
    let map = dir.join("street/Berlin_0_1024.map");
    let mut h = harness(app_for("settle-many-frames"));
    h.run();
    h.state_mut().open_now(&map).expect("Berlin_0_1024 opens");
    // Endpoints at opposite corners: Dijkstra floods most of the map before it ends.
    let (w, hgt) = (h.state().doc().grid.width(), h.state().doc().grid.height());
    let a = h.state().doc().nearest_free((0, 0), None);
    let b = h.state().doc().nearest_free((w - 1, hgt - 1), None);
    h.state_mut().apply(Command::MoveEndpoint(true, a));
    h.state_mut().apply(Command::MoveEndpoint(false, b));
    h.state_mut()
        .apply(Command::SetAlgorithm(0, AlgoChoice::named("dijkstra")));
    let frames = h.run();
    // Dijkstra floods Berlin_0_1024 corner to corner a frame's slice (≤ 8 ms) at a time: far more
    // frames than kittest's count of 12 would allow.
    assert!(frames > 12, "the search took only {frames} frames");
    let run = &h.state().views()[0].run;
    assert!(run.finished(), "run returned while the search was going");
    assert!(
        h.state().outstanding_work().is_empty(),
        "run returned with work outstanding: {:?}",
        h.state().outstanding_work()
    );
    // What the view found is the core's answer to the same query, found by A*.
    let space = GridSpace::octile(&h.state().doc().grid);
    let mut astar = AStar::new(&space, run.query, Heuristic::Octile);
    astar.run(&space, &mut NullTracer);
    let want = astar.cost().expect("the endpoints are joined");
    assert!((run.cost().unwrap() - want).abs() < 1e-9);
    assert!(run.stats().expanded > astar.stats().expanded);
}

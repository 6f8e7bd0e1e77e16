//! The recorder on real runs: seeking anywhere equals replaying from the start, recording does not
//! change what the search does, and storage stays within 16 bytes per event plus checkpoints.

use pathlab::builtin::default_world;
use pathlab::map::{io::parse_map, Grid};
use pathlab::search::{AStar, Dijkstra, Query, Search, SearchState};
use pathlab::space::{GridSpace, Heuristic, Space};
use pathlab::trace::{
    state_after, CountingTracer, EventKind, NodeState, NodeStates, NullTracer, Recorder,
};
use rand::{Rng, SeedableRng};
use std::path::Path;

fn replay(rec: &Recorder, k: usize) -> NodeStates {
    let mut s = NodeStates::new(rec.num_nodes());
    for e in rec.iter().take(k) {
        if let Some(st) = state_after(e.kind, e.a) {
            s.set(e.node as usize, st);
        }
    }
    s
}

fn world() -> (GridSpace, Query) {
    let (g, s, t) = default_world();
    let sp = GridSpace::octile(&g);
    let q = Query {
        start: sp.node(s.0, s.1).unwrap(),
        goal: sp.node(t.0, t.1).unwrap(),
    };
    (sp, q)
}

#[test]
fn seek_equals_replay_for_random_steps_of_a_real_run() {
    let (sp, q) = world();
    let mut d = Dijkstra::new(&sp, q);
    // A small interval so that seeks cross many checkpoints.
    let mut rec = Recorder::with_interval(sp.num_nodes(), 97);
    d.run(&sp, &mut rec);
    assert!(rec.len() > 1000, "{} events", rec.len());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    for _ in 0..300 {
        let k = rng.random_range(0..=rec.len());
        let expect = replay(&rec, k);
        assert_eq!(*rec.seek(k), expect, "k = {k}");
    }
    // The end of the run: every expanded node is closed.
    let end = rec.seek(rec.len()).clone();
    assert_eq!(
        end.counts()[NodeState::Closed as usize] as u64,
        d.stats().expanded
    );
}

#[test]
fn recording_does_not_change_the_search() {
    let (sp, q) = world();
    let mut a = AStar::new(&sp, q, Heuristic::Octile);
    a.run(&sp, &mut NullTracer);
    let (cost, stats, path) = (a.cost(), a.stats(), a.path().unwrap().to_vec());
    let mut rec = Recorder::new(sp.num_nodes());
    a.reset(&sp, q);
    a.run(&sp, &mut rec);
    assert_eq!(
        (a.cost(), a.stats(), a.path().unwrap()),
        (cost, stats, &path[..])
    );
    let mut count = CountingTracer::default();
    a.reset(&sp, q);
    a.run(&sp, &mut count);
    assert_eq!(count.counts[EventKind::Expand as usize], stats.expanded);
    assert_eq!(
        count.counts[EventKind::PathNode as usize],
        path.len() as u64
    );
    assert_eq!(rec.steps() as u64, stats.expanded);
    // Event order: the first expansion is the start, the last the goal.
    let first = rec.step_start(0);
    assert_eq!(rec.get(first).unwrap().node, q.start);
    let steps = rec.steps();
    let last = rec.step_start(steps - 1);
    assert_eq!(rec.get(last).unwrap().node, q.goal);
}

#[test]
fn storage_is_16_bytes_per_event_plus_small_checkpoints() {
    let text =
        "type octile\nheight 64\nwidth 64\nmap\n".to_string() + &(".".repeat(64) + "\n").repeat(64);
    let g: Grid = parse_map(&text, Path::new("open.map")).unwrap();
    let sp = GridSpace::octile(&g);
    let q = Query {
        start: sp.node(0, 0).unwrap(),
        goal: sp.node(63, 63).unwrap(),
    };
    let mut rec = Recorder::new(sp.num_nodes());
    for _ in 0..20 {
        let mut d = Dijkstra::new(&sp, q);
        d.run(&sp, &mut rec);
    }
    rec.build_checkpoints();
    let per_event = rec.bytes() as f64 / rec.len() as f64;
    assert!(per_event <= 16.25, "{per_event} bytes per event");
}

//! The recorder's tests: seeking against a replay from scratch, layers, phases, chains.

use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_trace(rng: &mut ChaCha8Rng, nodes: u32, len: usize, interval: usize) -> Recorder {
    let mut r = Recorder::with_interval(nodes as usize, interval);
    for _ in 0..len {
        let kind = EventKind::ALL[rng.random_range(0..EventKind::ALL.len())];
        let n = rng.random_range(0..nodes);
        r.event(Event::new(kind, n, NONE, 1.0, 2.0));
    }
    r
}

fn replay(r: &Recorder, k: usize) -> NodeStates {
    let mut s = NodeStates::new(r.num_nodes());
    for e in &r.events[..k] {
        Recorder::apply(&mut s, e);
    }
    s
}

#[test]
fn layers_name_id_ranges_and_phases_index_by_step() {
    let mut r = Recorder::with_layers(10, &[("abstract graph", 4)]);
    assert_eq!(r.num_nodes(), 14);
    assert_eq!(
        r.layer_of(3).map(|(l, i)| (l.name.as_str(), i)),
        Some(("cells", 3))
    );
    assert_eq!(
        r.layer_of(12).map(|(l, i)| (l.name.as_str(), i)),
        Some(("abstract graph", 2))
    );
    assert_eq!(r.layer_of(14), None);
    let ev = |k, n| Event::new(k, n, NONE, 0.0, 0.0);
    r.event(Event::marker(EventKind::Phase, 0));
    r.event(ev(EventKind::Expand, 11));
    r.event(ev(EventKind::Expand, 12));
    r.event(Event::marker(EventKind::Phase, 1));
    r.event(ev(EventKind::Generate, 3));
    r.event(ev(EventKind::Expand, 3));
    assert_eq!(r.steps(), 3);
    assert_eq!(r.phase_changes(), vec![(0, 0), (2, 1)]);
    assert_eq!((r.phase_of_step(1), r.phase_of_step(2)), (0, 1));
    assert_eq!(r.seek(6).get(12), NodeState::Closed);
    r.truncate(3);
    assert_eq!(r.phase_changes(), vec![(0, 0)]);
}

#[test]
fn seek_equals_replay_from_start() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for interval in [1, 3, 64, 1000] {
        let mut r = random_trace(&mut rng, 50, 2000, interval);
        for _ in 0..200 {
            let k = rng.random_range(0..=r.len());
            let expect = replay(&r, k);
            assert_eq!(*r.seek(k), expect, "interval {interval} k {k}");
        }
    }
}

#[test]
fn truncate_then_append_keeps_seek_exact() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut r = random_trace(&mut rng, 30, 500, 16);
    r.build_checkpoints();
    r.seek(450);
    r.truncate(100);
    for _ in 0..300 {
        r.event(Event::new(
            EventKind::Expand,
            rng.random_range(0..30),
            NONE,
            0.0,
            0.0,
        ));
    }
    for k in [0, 50, 99, 100, 101, 250, 400] {
        let expect = replay(&r, k);
        assert_eq!(*r.seek(k), expect);
    }
}

/// Past the event limit events are counted, not kept, and truncating forgets the count of
/// those it cuts.
#[test]
fn events_past_the_limit_are_counted() {
    let mut r = Recorder::with_max_events(10, 3);
    for n in 0..5 {
        r.event(Event::marker(EventKind::Generate, n));
    }
    assert_eq!((r.len(), r.dropped()), (3, 2));
    r.truncate(4);
    assert_eq!((r.len(), r.dropped()), (3, 1));
    r.truncate(2);
    assert_eq!((r.len(), r.dropped()), (2, 0));
}

#[test]
fn steps_and_node_info() {
    let mut r = Recorder::new(10);
    r.event(Event::new(EventKind::Source, 1, NONE, 0.0, 5.0));
    r.event(Event::new(EventKind::Expand, 1, NONE, 0.0, 5.0));
    r.event(Event::new(EventKind::Generate, 2, 1, 1.0, 5.5));
    r.event(Event::new(EventKind::Expand, 2, 1, 1.0, 5.5));
    assert_eq!(r.steps(), 2);
    assert_eq!(r.step_start(0), 1);
    assert_eq!(r.step_start(1), 3);
    assert_eq!(r.step_start(2), 4);
    let i = r.node_info(2, 3);
    assert_eq!(
        (i.state, i.g, i.parent, i.expanded_at),
        (NodeState::Open, 1.0, 1, None)
    );
    let i = r.node_info(2, 4);
    assert_eq!((i.state, i.expanded_at), (NodeState::Closed, Some(1)));
    assert_eq!(r.node_info(7, 4).state, NodeState::Unseen);
}

#[test]
fn node_info_while_recording_matches_a_full_index() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut growing = random_trace(&mut rng, 50, 1000, 64);
    let mut all = growing.clone();
    // Index the first part, then keep recording: queries must see the new tail too.
    growing.node_info(0, 10);
    for _ in 0..3000 {
        let kind = EventKind::ALL[rng.random_range(0..EventKind::ALL.len())];
        let e = Event::new(kind, rng.random_range(0..50), 3, 1.0, 2.0);
        growing.event(e);
        all.event(e);
    }
    for _ in 0..300 {
        let (n, k) = (rng.random_range(0..50), rng.random_range(0..=4000));
        let (a, b) = (growing.node_info(n, k), all.node_info(n, k));
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "node {n} at {k}");
    }
}

#[test]
fn node_info_carries_rhs_of_inconsistent_nodes() {
    let mut r = Recorder::new(4);
    r.event(Event::new(
        EventKind::Inconsistent,
        3,
        NONE,
        f64::INFINITY,
        2.5,
    ));
    let i = r.node_info(3, 1);
    assert_eq!((i.state, i.rhs), (NodeState::Inconsistent, 2.5));
    assert!(i.g.is_infinite());
    assert!(r.node_info(2, 1).rhs.is_nan());
}

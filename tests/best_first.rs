//! Seeded starts and goal regions against searches from one start to one goal.

use pathlab::map::{Cell, Grid};
use pathlab::search::{path_cost, AStar, Dijkstra, Query, Search, SearchState};
use pathlab::space::{GridSpace, Heuristic, NodeId, Space};
use pathlab::trace::{NullTracer, Recorder, NONE};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_space(rng: &mut ChaCha8Rng) -> GridSpace {
    let (w, h) = (rng.random_range(2..40), rng.random_range(2..40));
    let mut g = Grid::new(w, h, Cell::FREE);
    for y in 0..h {
        for x in 0..w {
            if rng.random_bool(0.25) {
                g.set(x, y, Cell::WALL);
            }
        }
    }
    GridSpace::octile(&g)
}

fn dijkstra(space: &GridSpace, a: NodeId, b: NodeId) -> Option<f64> {
    let mut d = Dijkstra::new(space, Query { start: a, goal: b });
    d.run(space, &mut NullTracer);
    d.cost()
}

fn free_node(rng: &mut ChaCha8Rng, space: &GridSpace) -> Option<NodeId> {
    (0..50)
        .map(|_| rng.random_range(0..space.num_nodes() as NodeId))
        .find(|&n| space.is_passable(n))
}

/// Several starts with their own g: the cost is the best of g plus the way from each.
#[test]
fn seeded_starts_give_the_best_of_their_ways() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut checked = 0;
    for _ in 0..300 {
        let space = random_space(&mut rng);
        let Some(goal) = free_node(&mut rng, &space) else {
            continue;
        };
        let mut seeds: Vec<(NodeId, f64, NodeId)> = vec![];
        for _ in 0..rng.random_range(1..5) {
            if let Some(n) = free_node(&mut rng, &space) {
                // Half the seeds carry a parent from the search they continue: any node, even
                // one this search reaches, and the path must still end at the seed.
                let parent = if rng.random_bool(0.5) {
                    rng.random_range(0..space.num_nodes() as NodeId)
                } else {
                    NONE
                };
                seeds.push((n, rng.random_range(0..10) as f64 * 0.5, parent));
            }
        }
        if seeds.is_empty() {
            continue;
        }
        let want = seeds
            .iter()
            .filter_map(|&(n, g, _)| dijkstra(&space, n, goal).map(|d| g + d))
            .fold(None, |a: Option<f64>, c| Some(a.map_or(c, |a| a.min(c))));
        let q = Query {
            start: seeds[0].0,
            goal,
        };
        let mut a = AStar::new(&space, q, Heuristic::Octile);
        a.0.seed(&space, &seeds);
        let mut rec = Recorder::new(space.num_nodes());
        a.run(&space, &mut rec);
        match (want, a.cost()) {
            (None, None) => {}
            (Some(w), Some(c)) => {
                assert!((w - c).abs() < 1e-9, "{c} vs {w}");
                let path = a.path().unwrap();
                // The seed's lowest g (a node may be seeded twice).
                let g0 = seeds
                    .iter()
                    .filter(|s| s.0 == path[0])
                    .map(|s| s.1)
                    .fold(f64::INFINITY, f64::min);
                let along = path_cost(&space, path).unwrap();
                assert!(
                    (g0 + along - c).abs() < 1e-9,
                    "path from a seed costs its g plus the way"
                );
                checked += 1;
            }
            other => panic!("{other:?}"),
        }
        let sources = rec
            .iter()
            .filter(|e| e.kind == pathlab::trace::EventKind::Source)
            .count();
        assert!(sources >= 1 && sources <= seeds.len());
    }
    assert!(checked > 100, "only {checked}");
}

/// A goal region: A* ends at the nearest member, at the cost Dijkstra gives to the nearest.
#[test]
fn a_goal_region_ends_at_its_nearest_member() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut checked = 0;
    for _ in 0..300 {
        let space = random_space(&mut rng);
        let (Some(start), Some(target)) =
            (free_node(&mut rng, &space), free_node(&mut rng, &space))
        else {
            continue;
        };
        let mut members: Vec<NodeId> = (0..rng.random_range(0..6))
            .filter_map(|_| free_node(&mut rng, &space))
            .collect();
        members.push(target);
        let want = members
            .iter()
            .filter_map(|&m| dijkstra(&space, start, m))
            .fold(None, |a: Option<f64>, c| Some(a.map_or(c, |a| a.min(c))));
        let q = Query {
            start,
            goal: target,
        };
        let mut a = AStar::new(&space, q, Heuristic::Octile);
        a.0.set_goal_region(&space, &members);
        a.run(&space, &mut NullTracer);
        match (want, a.cost()) {
            (None, None) => {}
            (Some(w), Some(c)) => {
                assert!((w - c).abs() < 1e-9, "{c} vs {w}");
                let end = a.0.reached().unwrap();
                assert!(members.contains(&end));
                assert_eq!(a.path().unwrap().last(), Some(&end));
                checked += 1;
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(checked > 100, "only {checked}");
}

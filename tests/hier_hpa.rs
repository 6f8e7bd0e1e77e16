//! HPA* (Botea et al. 2004) against grid A*: on 1,000 seeded random maps with clusters of 2 to
//! 12 cells, a path exactly when grid A* finds one; every path a chain of legal moves from start
//! to goal costing no less than the optimum; smoothing keeps it legal and never longer; and
//! every 20th problem of the 29 MovingAI maps answered.

use crate::support;
use pathlab::hier::hpa::{smooth, Hpa};
use pathlab::search::{path_cost, Query, Status};
use pathlab::space::{Connectivity, GridSpace, NodeId, Space, TerrainRule};
use pathlab::trace::NullTracer;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::{movingai_maps, random_map};

fn check(space: &GridSpace, path: &[NodeId], s: NodeId, t: NodeId, optimum: f64, what: &str) {
    assert_eq!((path.first(), path.last()), (Some(&s), Some(&t)), "{what}");
    let cost = path_cost(space, path).unwrap_or_else(|| panic!("{what}: an illegal move"));
    assert!(cost >= optimum - 1e-9, "{what}: {cost} below {optimum}");
}

#[test]
fn hpa_finds_what_grid_astar_finds_on_1000_random_maps() {
    let mut rng = ChaCha8Rng::seed_from_u64(2004);
    let (mut found, mut queries) = (0, 0);
    for map in 0..1000 {
        let g = random_map(&mut rng, 6..40, |r| r.random_range(1.0..4.0));
        let space = GridSpace::new(&g, Connectivity::Eight, TerrainRule::Class);
        let cluster = rng.random_range(2..13);
        let hpa = Hpa::build(&space, cluster);
        let mut q = hpa.query(&space);
        for _ in 0..4 {
            let pick = |rng: &mut ChaCha8Rng| {
                (0..50)
                    .map(|_| rng.random_range(0..space.num_nodes()) as NodeId)
                    .find(|&n| space.is_passable(n))
            };
            let (Some(s), Some(t)) = (pick(&mut rng), pick(&mut rng)) else {
                continue;
            };
            let mut astar =
                pathlab::algorithms::build("astar", &space, Query { start: s, goal: t }).unwrap();
            let reachable = astar.run_null(&space) == Status::Found;
            queries += 1;
            found += usize::from(reachable);
            let what = format!("map {map} cluster {cluster} {s}→{t}");
            q.reset(&space, s, t, [None, None]);
            assert_eq!(
                q.run(&space, &mut NullTracer) == Status::Found,
                reachable,
                "{what}"
            );
            if !reachable {
                continue;
            }
            let optimum = astar.cost().unwrap();
            let path = q.path().unwrap().to_vec();
            check(&space, &path, s, t, optimum, &what);
            let cost = q.cost().unwrap();
            let along = path_cost(&space, &path).unwrap();
            assert!((cost - along).abs() < 1e-9 * (1.0 + cost), "{what}");
            let smoothed = smooth(&space, &path, cluster);
            check(&space, &smoothed, s, t, optimum, &what);
            assert!(
                path_cost(&space, &smoothed).unwrap() <= along + 1e-9,
                "{what}"
            );
        }
    }
    assert!(found > 2000 && queries - found > 50, "{found} of {queries}");
}

#[test]
fn hpa_answers_every_sampled_problem_of_the_benchmark_maps() {
    let Some((_, maps)) = movingai_maps() else {
        return;
    };
    for m in maps {
        let g = pathlab::map::io::read_map(&m).unwrap();
        let problems = pathlab::map::io::read_scen(&m.with_extension("map.scen")).unwrap();
        let space = GridSpace::octile(&g);
        let hpa = Hpa::build(&space, 10);
        let mut q = hpa.query(&space);
        for p in problems.iter().step_by(20) {
            let s = space.node(p.start.0, p.start.1).unwrap();
            let t = space.node(p.goal.0, p.goal.1).unwrap();
            let what = format!("{}:{}", m.display(), p.line);
            q.reset(&space, s, t, [None, None]);
            assert_eq!(q.run(&space, &mut NullTracer), Status::Found, "{what}");
            let path = smooth(&space, q.path().unwrap(), 10);
            check(&space, &path, s, t, p.optimal - p.tolerance - 1e-6, &what);
        }
    }
}

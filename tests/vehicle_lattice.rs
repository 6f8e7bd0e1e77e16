//! The vehicle lattice as a world family: the registry's generic searches run on it, those
//! that walk edges backwards are refused (its edges are directed), its Dijkstra agrees with the
//! vehicle planner's own lattice Dijkstra (two implementations of one graph), and a recording
//! of it is projected onto cells without dropping an event.

use crate::cli_support;

use cli_support::*;
use pathlab::algorithms;
use pathlab::map::Generator;
use pathlab::search::{registry, Query, Status};
use pathlab::space::{Space, SpaceKind, VehicleSpace};
use pathlab::trace::{EventKind, Recorder};
use pathlab::vehicle::{Goal, Heuristic, Planner, Vehicle};

use rand::{Rng, SeedableRng};

/// The small robot on a 16 × 16 map: 10° headings, 0.5 m/s speeds (36 × 7 states a cell),
/// as `--world vehicle` builds it.
fn lattice(seed: u64) -> VehicleSpace {
    let map = Generator::RandomBlocks { density: 0.05 }.generate(16, 16, seed);
    VehicleSpace::new(&map, Vehicle::ROBOT, 10.0, 0.5)
}

#[test]
fn the_registry_refuses_searches_that_walk_edges_backwards_and_runs_the_rest() {
    let space = lattice(1);
    assert_eq!(space.kind(), SpaceKind::Vehicle);
    assert!(space.directed());
    let free: Vec<u32> = (0..space.cells())
        .filter(|&c| space.is_passable(c))
        .collect();
    let q = Query {
        start: free[0],
        goal: free[free.len() / 2],
    };
    let mut ran = 0;
    for info in algorithms::all() {
        if !info.spaces().contains(&SpaceKind::Vehicle) {
            continue;
        }
        match registry::build_with(info, &Default::default(), &space, q) {
            Ok(_) => ran += 1,
            Err(why) => {
                if info.needs.undirected {
                    assert!(why.contains("directed"), "{}: {why}", info.name);
                }
            }
        }
    }
    for name in ["dstar-lite", "ad-star", "rtd-star"] {
        let why = algorithms::build(name, &space, q).err().unwrap();
        assert!(why.contains("directed"), "{name}: {why}");
    }
    for name in ["astar", "dijkstra", "weighted-astar", "greedy", "ara-star"] {
        assert!(algorithms::build(name, &space, q).is_ok(), "{name}");
    }
    assert!(ran >= 5, "only {ran} algorithms ran");
    // Ids and states round-trip; a cell's own node (at rest, facing +x) has the cell's id,
    // which is what a recording projected onto cells names.
    let (headings, speeds) = space.bins();
    for n in (0..space.num_nodes() as u32).step_by(97) {
        let (x, y, h, v) = space.parts(n);
        assert!(h < headings && v < speeds);
        assert_eq!(space.node(x, y, h, v), Some(n));
    }
    use pathlab::world::WorldFamily;
    assert_eq!(WorldFamily::node(&space, 5, 3), Some(3 * 16 + 5));
    assert_eq!(space.parts(3 * 16 + 5), (5, 3, 0, 0));
}

#[test]
fn registry_dijkstra_on_the_lattice_costs_what_the_planners_lattice_dijkstra_costs() {
    use rayon::prelude::*;
    // The problems drawn in order from one seed, then solved on every core (the planner's
    // lattice Dijkstra takes over a second a problem).
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let problems: Vec<_> = (0..60u64)
        .map(|k| {
            let space = lattice(200 + k);
            let (headings, speeds) = space.bins();
            let mut node = || loop {
                let n = space
                    .node(
                        rng.random_range(0..16),
                        rng.random_range(0..16),
                        rng.random_range(0..headings),
                        rng.random_range(0..speeds),
                    )
                    .unwrap();
                if space.is_passable(n) {
                    return n;
                }
            };
            let q = Query {
                start: node(),
                goal: node(),
            };
            (space, q)
        })
        .collect();
    let outcomes: Vec<_> = problems
        .par_iter()
        .enumerate()
        .map(|(k, (space, q))| {
            let q = *q;
            let mut s = algorithms::build("dijkstra", space, q).unwrap();
            s.run_null(space);
            // The planner's lattice: every action's end snapped to its state; the goal test
            // met by the goal state alone.
            let goal = Goal {
                pose: space.pose(q.goal),
                within: 0.01,
                heading: 1e-6,
                speed: 1e-6,
            };
            let mut p = Planner::new(
                space.model().clone(),
                Heuristic::ZERO,
                space.pose(q.start),
                goal,
                false,
            )
            .lattice();
            p.set_cap(10_000_000);
            p.run(&mut pathlab::trace::NullTracer);
            match (s.cost(), p.cost()) {
                (Some(a), Some(b)) => {
                    assert!(
                        (a - b).abs() <= 1e-9 * b.max(1.0),
                        "problem {k}: {a} against {b}"
                    );
                    // The path's edges are the lattice's: each step one of its successors.
                    let path = s.path().unwrap();
                    let mut sum = 0.0;
                    for w in path.windows(2) {
                        let c = space
                            .neighbours(w[0])
                            .find(|&(m, _)| m == w[1])
                            .map(|(_, c)| c);
                        sum += c.unwrap_or_else(|| {
                            panic!("problem {k}: {} → {} is no edge", w[0], w[1])
                        });
                    }
                    assert!((sum - a).abs() <= 1e-9 * a.max(1.0), "problem {k}");
                    true
                }
                (None, None) => false,
                (a, b) => panic!("problem {k}: registry {a:?}, planner {b:?}"),
            }
        })
        .collect();
    let found = outcomes.iter().filter(|&&f| f).count();
    let none = outcomes.len() - found;
    eprintln!("{found} found, {none} without a path");
    assert!(found >= 25, "only {found} problems found a path");
}

#[test]
fn a_recording_of_the_lattice_is_projected_onto_cells_and_keeps_every_event() {
    let space = lattice(9);
    let free: Vec<u32> = (0..space.cells())
        .filter(|&c| space.is_passable(c))
        .collect();
    let q = Query {
        start: free[0],
        goal: *free.last().unwrap(),
    };
    let mut s = algorithms::build("astar", &space, q).unwrap();
    let mut rec = Recorder::for_space(&space, &[]);
    assert_eq!(rec.num_nodes(), space.cells() as usize);
    assert!(space.num_nodes() > 100 * rec.num_nodes());
    let status = s.run_record(&space, &mut rec);
    assert_eq!(status, Status::Found);
    assert_eq!(rec.dropped(), 0);
    let expands = rec.iter().filter(|e| e.kind == EventKind::Expand).count() as u64;
    assert_eq!(expands, s.stats().expanded);
    for e in rec.iter().filter(|e| e.kind != EventKind::Phase) {
        assert!(
            e.node == pathlab::trace::NONE || e.node < space.cells(),
            "{e:?} not on a cell"
        );
    }
    // The path's last event names the goal's cell.
    let path: Vec<u32> = rec
        .iter()
        .filter(|e| e.kind == EventKind::PathNode)
        .map(|e| e.node)
        .collect();
    assert_eq!(path.last(), Some(&(q.goal % space.cells())));
}

#[test]
fn solve_on_a_vehicle_world_runs_and_refuses_dstar_lite_in_one_line() {
    let map = tmp("vehicle-room.map");
    std::fs::write(
        &map,
        "type octile\nheight 8\nwidth 12\nmap\n............\n............\n....@@......\n....@@......\n............\n............\n............\n............\n",
    )
    .unwrap();
    let scen = tmp("vehicle-room.map.scen");
    std::fs::write(
        &scen,
        format!(
            "version 1\n0\t{}\t12\t8\t1\t1\t10\t6\t10.0\n",
            map.file_name().unwrap().to_str().unwrap()
        ),
    )
    .unwrap();
    let args = |algo: &str| {
        vec![
            "solve".to_string(),
            "--map".into(),
            map.to_str().unwrap().into(),
            "--scen".into(),
            scen.to_str().unwrap().into(),
            "--world".into(),
            "vehicle".into(),
            "--algo".into(),
            algo.into(),
        ]
    };
    let a = args("dijkstra");
    let out = pathlab(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let stdout = succeeded(&out);
    assert!(
        stdout.lines().nth(1).is_some_and(|l| l.ends_with(",true")),
        "{stdout}"
    );
    let a = args("dstar-lite");
    let out = pathlab(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("directed"), "{err}");
}

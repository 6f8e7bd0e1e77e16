//! Crowds on the CPU against oracles: every agent's A* cost equals a plain single-threaded A*
//! (and the flow field's equals it to within its fixed point's rounding), PCCP finds every path and walks no shorter than the
//! optimum, each path's cells are open and adjacent, the traffic counts are the paths' cells,
//! and totals are the same on one thread and on three. MAPF scenario batches and a cancelled
//! batch behave.

use crate::support;
use pathlab::crowd::cpu::{plan, reference_costs};
use pathlab::crowd::twin::SCALE;
use pathlab::crowd::{Batch, Method, World, LEVELS, MU};
use pathlab::map::io::{read_map, read_scen};
use pathlab::map::Generator;
use pathlab::space::{GridSpace, Space};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use support::{movingai_maps, random_map};

fn world(grid: &pathlab::map::Grid) -> World {
    World::new(grid, &Method::ALL, MU, LEVELS, &|_, _| {}).expect("hierarchy builds")
}

/// Each path is a chain of open, 8-adjacent cells from the agent's start to its goal, and the
/// traffic heat is exactly the number of paths on each cell.
fn check_paths(grid: &GridSpace, batch: &Batch, o: &pathlab::crowd::Outcome, what: &str) {
    let paths = o.paths.as_ref().expect("kept");
    let mut traffic = vec![0i32; grid.num_nodes()];
    for (a, p) in batch.agents.iter().zip(paths) {
        assert_eq!(p.first(), Some(&a.start), "{what}");
        assert_eq!(p.last(), Some(&a.goal), "{what}");
        let mut seen = std::collections::HashSet::new();
        for (k, &c) in p.iter().enumerate() {
            assert!(grid.is_passable(c), "{what}: blocked cell {:?}", grid.xy(c));
            if k > 0 {
                let ((x0, y0), (x1, y1)) = (grid.xy(p[k - 1]), grid.xy(c));
                assert!(
                    x0.abs_diff(x1) <= 1 && y0.abs_diff(y1) <= 1,
                    "{what}: a jump"
                );
            }
            if seen.insert(c) {
                traffic[c as usize] += 1;
            }
        }
    }
    assert_eq!(
        o.traffic.values, traffic,
        "{what}: traffic is the paths' cells"
    );
}

#[test]
fn crowds_on_random_maps_match_a_plain_astar_and_count_their_cells() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for seed in 0..40u64 {
        let grid = random_map(&mut rng, 6..40, |r| r.random_range(1.0..4.0));
        let w = world(&grid);
        let Ok(batch) = Batch::random(&w.grid, 60, seed) else {
            continue;
        };
        let want = reference_costs(&w.grid, &batch);
        for m in [Method::Astar, Method::Flow] {
            let o = plan(&w, &batch, m, usize::MAX, None).unwrap().unwrap();
            let paths = o.paths.as_ref().unwrap();
            for (k, (c, r)) in o.costs.iter().zip(&want).enumerate() {
                // Flow fields count in fixed point: half a unit of 2⁻¹⁶ per move at most.
                let slack = match m {
                    Method::Flow => paths[k].len() as f64 * 0.5 / SCALE + 1e-9,
                    _ => 1e-9,
                };
                assert!(
                    (c - r).abs() <= slack,
                    "seed {seed} {m:?} agent {k}: {c} vs {r}"
                );
            }
            check_paths(&w.grid, &batch, &o, &format!("seed {seed} {m:?}"));
        }
        let o = plan(&w, &batch, Method::Pccp, usize::MAX, None)
            .unwrap()
            .unwrap();
        assert_eq!(o.found(), batch.agents.len(), "seed {seed}: PCCP misses");
        for (a, l) in batch.agents.iter().zip(&o.lengths) {
            // The funnelled line is any-angle: never shorter than the straight line.
            let ((x0, y0), (x1, y1)) = (w.grid.xy(a.start), w.grid.xy(a.goal));
            let straight = (x0 as f64 - x1 as f64).hypot(y0 as f64 - y1 as f64);
            assert!(*l >= straight - 1e-9, "seed {seed}: {l} < {straight}");
        }
        check_paths(&w.grid, &batch, &o, &format!("seed {seed} pccp"));
    }
}

#[test]
fn totals_do_not_depend_on_the_thread_count() {
    let grid = Generator::RandomBlocks { density: 0.2 }.generate(48, 40, 3);
    let w = world(&grid);
    let batch = Batch::random(&w.grid, 700, 9).unwrap();
    let shared = Batch::shared_goals(&w.grid, 700, 5, 9).unwrap();
    let on = |threads: usize, m: Method, b: &Batch| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| plan(&w, b, m, 0, None).unwrap().unwrap())
    };
    for m in Method::ALL {
        let b = if m == Method::Flow { &shared } else { &batch };
        let (one, three) = (on(1, m, b), on(3, m, b));
        assert_eq!(one.threads, 1);
        assert_eq!(three.threads, 3);
        assert_eq!(one.traffic, three.traffic, "{m:?}");
        assert_eq!(one.expansions, three.expansions, "{m:?}");
        assert!(one.traffic.total() > 0 && one.expansions.total() > 0);
        assert_eq!(
            one.costs.iter().map(|c| c.to_bits()).collect::<Vec<_>>(),
            three.costs.iter().map(|c| c.to_bits()).collect::<Vec<_>>(),
            "{m:?}"
        );
    }
}

#[test]
fn a_stopped_batch_returns_nothing_and_reports_every_agent_otherwise() {
    let grid = Generator::RandomBlocks { density: 0.2 }.generate(30, 30, 4);
    let w = world(&grid);
    let batch = Batch::random(&w.grid, 500, 1).unwrap();
    let stop = |_: usize| false;
    assert!(plan(&w, &batch, Method::Astar, 0, Some(&stop))
        .unwrap()
        .is_none());
    let done = AtomicUsize::new(0);
    let count = |n: usize| {
        done.fetch_add(n, Ordering::Relaxed);
        true
    };
    let o = plan(&w, &batch, Method::Astar, 10, Some(&count))
        .unwrap()
        .unwrap();
    assert_eq!(done.load(Ordering::Relaxed), 500);
    // Only the first ten agents' paths are kept.
    let paths = o.paths.unwrap();
    assert_eq!(paths.len(), 10);
    assert!(paths.iter().all(|p| p.len() >= 2));
}

#[test]
fn benchmark_maps_and_mapf_scenarios_plan_every_agent_optimally() {
    let Some((dir, _)) = movingai_maps() else {
        return;
    };
    for name in [
        "bg512/AR0011SR.map",
        "dao/brc202d.map",
        "street/Berlin_0_256.map",
    ] {
        let grid = read_map(&dir.join(name)).unwrap();
        let w = world(&grid);
        let batch = Batch::random(&w.grid, 400, 11).unwrap();
        let want = reference_costs(&w.grid, &batch);
        let o = plan(&w, &batch, Method::Astar, 0, None).unwrap().unwrap();
        assert_eq!(o.costs, want, "{name}");
        let p = plan(&w, &batch, Method::Pccp, 0, None).unwrap().unwrap();
        assert_eq!(p.found(), 400, "{name}: PCCP misses");
        // PCCP's walked lengths: any-angle lines through the portals, a few percent over the
        // octile optimum on average (the thesis: 3–5%), never below the straight line.
        let over: f64 = p.lengths.iter().zip(&want).map(|(l, r)| l / r).sum::<f64>() / 400.0;
        assert!(over < 1.10, "{name}: PCCP walks {over:.3}× the optimum");
        for (a, l) in batch.agents.iter().zip(&p.lengths) {
            let ((x0, y0), (x1, y1)) = (w.grid.xy(a.start), w.grid.xy(a.goal));
            let straight = (x0 as f64 - x1 as f64).hypot(y0 as f64 - y1 as f64);
            assert!(*l >= straight - 1e-9, "{name}");
        }
    }
    let mapf = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/mapf");
    let grid = read_map(&mapf.join("maps/den520d.map")).unwrap();
    let scen = mapf.join("scen-random/den520d-random-1.scen");
    let problems = read_scen(&scen).unwrap();
    let w = World::new(&grid, &[Method::Astar], MU, LEVELS, &|_, _| {}).unwrap();
    let batch = Batch::from_problems(&w.grid, &problems, "den520d-random-1.scen").unwrap();
    let o = plan(&w, &batch, Method::Astar, 0, None).unwrap().unwrap();
    assert_eq!(o.costs.len(), problems.len());
    for (p, c) in problems.iter().zip(&o.costs) {
        assert!(p.is_optimal(*c), "line {}: {c} vs {}", p.line, p.optimal);
    }
}

/// Maps one cell wide or tall, and a single open cell: every method's cost equals a plain A*'s
/// (the flow field's to within its fixed point's rounding) and every agent arrives. On a map
/// one cell wide a step down and a step right have the same id offset; the flow field took the
/// offset for the direction and lost every path that walks down.
#[test]
fn degenerate_maps_plan_every_agent_at_the_optimum_with_every_method() {
    use pathlab::crowd::Agent;
    use pathlab::map::{Cell, Grid};
    let mut maps = vec![];
    for (w, h) in [(1, 40), (40, 1), (2, 30), (30, 2)] {
        maps.push(Grid::new(w, h, Cell::FREE));
    }
    let mut one = Grid::new(5, 4, Cell::WALL);
    one.set(2, 1, Cell::FREE);
    maps.push(one);
    for grid in maps {
        let what = format!("{}×{}", grid.width(), grid.height());
        let w = world(&grid);
        let batch = Batch::random(&w.grid, 200, 3).unwrap_or_else(|_| {
            // No two connected cells: the one open cell to itself.
            let c = (0..w.grid.num_nodes() as u32)
                .find(|&c| w.grid.is_passable(c))
                .unwrap();
            Batch {
                agents: vec![Agent { start: c, goal: c }],
                source: "one cell".into(),
            }
        });
        let want = reference_costs(&w.grid, &batch);
        for m in Method::ALL {
            let o = plan(&w, &batch, m, usize::MAX, None).unwrap().unwrap();
            assert_eq!(o.found(), batch.agents.len(), "{what} {}", m.name());
            check_paths(&w.grid, &batch, &o, &format!("{what} {}", m.name()));
            for (k, (a, r)) in batch.agents.iter().zip(&want).enumerate() {
                let got = match m {
                    // PCCP's cost is its graph's; what it walks is the funnelled line, never
                    // shorter than the straight line nor longer than the grid's optimum here.
                    Method::Pccp => {
                        let ((x0, y0), (x1, y1)) = (w.grid.xy(a.start), w.grid.xy(a.goal));
                        let straight = (x0 as f64 - x1 as f64).hypot(y0 as f64 - y1 as f64);
                        let l = o.lengths[k];
                        assert!(
                            l >= straight - 1e-9,
                            "{what} pccp agent {k}: {l} < {straight}"
                        );
                        l.max(*r)
                    }
                    _ => o.costs[k],
                };
                assert!(
                    (got - r).abs() < r * 1e-5 + 1e-3,
                    "{what} {} agent {k}: {got} against {r}",
                    m.name()
                );
            }
        }
    }
}

//! 3D A* on the Warframe voxel maps against the `pathfinding` crate's generic `astar` on the same
//! graph and rule: voxel (x, y, z) nodes, the 26 moves checked in place with the bounding-box
//! rule, integer costs 10000 / 14142 / 17321 and the matching 3D octile heuristic. Median of the
//! per-query best times over rounds, as the 2D bench does (see benches/astar.rs for why).

use pathlab::experiment::voxel_suite::VoxelSuite;
use pathlab::experiment::Selection;
use pathlab::map::voxel::VoxelGrid;
use pathlab::search::{AStar, Search, SearchState};
use pathlab::space::{Heuristic, VoxelMoves, VoxelSpace};
use pathlab::trace::NullTracer;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

const ROUNDS: usize = 7;

/// The crate as its documentation uses it: nodes are (x, y, z), each move checked in place.
fn crate_astar(g: &VoxelGrid, s: [i64; 3], t: [i64; 3]) -> Option<u64> {
    let succ = |&(x, y, z): &(i64, i64, i64)| {
        let mut v = Vec::with_capacity(26);
        for dz in -1..=1i64 {
            for dy in -1..=1i64 {
                for dx in -1..=1i64 {
                    let axes = (dx != 0) as usize + (dy != 0) as usize + (dz != 0) as usize;
                    if axes == 0 {
                        continue;
                    }
                    let mut free = true;
                    for bz in [0, dz] {
                        for by in [0, dy] {
                            for bx in [0, dx] {
                                free &= !g.is_blocked(x + bx, y + by, z + bz);
                            }
                        }
                    }
                    if free {
                        v.push(((x + dx, y + dy, z + dz), [0, 10_000, 14_142, 17_321][axes]));
                    }
                }
            }
        }
        v
    };
    let h = |&(x, y, z): &(i64, i64, i64)| {
        let mut d = [x.abs_diff(t[0]), y.abs_diff(t[1]), z.abs_diff(t[2])];
        d.sort();
        // Consistent in these units: each move's integer cost is at least its octile estimate.
        10_000 * d[2] + 4_142 * d[1] + 3_179 * d[0]
    };
    let goal = (t[0], t[1], t[2]);
    pathfinding::prelude::astar(&(s[0], s[1], s[2]), succ, h, |p| *p == goal).map(|(_, c)| c)
}

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/warframe-3d");
    if !dir.is_dir() {
        eprintln!("skipping: {} is absent", dir.display());
        return;
    }
    // PATHLAB_BENCH_MAPS=A1,DC3 runs only those maps.
    let only = std::env::var("PATHLAB_BENCH_MAPS").ok();
    for name in ["Complex", "A1", "DC3"] {
        if only
            .as_ref()
            .is_some_and(|o| !o.split(',').any(|m| m == name))
        {
            continue;
        }
        let suite = VoxelSuite::load(
            &dir.join(format!("{name}.3dmap")),
            &dir.join(format!("{name}.3dmap.3dscen")),
            Selection {
                every: 250,
                limit: Some(40),
            },
            VoxelMoves::TwentySix,
        )
        .expect("the Warframe files load");
        let sp: &VoxelSpace = &suite.space;
        let mut astar = AStar::new(sp, suite.queries[0], Heuristic::Native);
        let n = suite.queries.len();
        let mut best = vec![[f64::MAX; 2]; n];
        let xyz = |q: u32| sp.xyz(q).map(|v| v as i64);
        for (i, &q) in suite.queries.iter().enumerate() {
            astar.reset(sp, q);
            astar.run(sp, &mut NullTracer);
            let ours = astar.cost().unwrap();
            let theirs = crate_astar(sp.grid(), xyz(q.start), xyz(q.goal)).unwrap() as f64 / 1e4;
            // Rounding √2 and √3 to 4 decimals moves a long path's cost by up to 3e-5 relative.
            assert!(
                (ours - theirs).abs() <= 5e-5 * ours,
                "{name} #{i}: {ours} vs {theirs}"
            );
        }
        for _ in 0..ROUNDS {
            for (k, b) in suite.queries.iter().zip(best.iter_mut()) {
                let t0 = Instant::now();
                astar.reset(sp, *k);
                black_box(astar.run(sp, &mut NullTracer));
                b[0] = b[0].min(t0.elapsed().as_secs_f64());
            }
            for (k, b) in suite.queries.iter().zip(best.iter_mut()) {
                let t0 = Instant::now();
                black_box(crate_astar(sp.grid(), xyz(k.start), xyz(k.goal)));
                b[1] = b[1].min(t0.elapsed().as_secs_f64());
            }
        }
        // PATHLAB_BENCH_PER_QUERY=1 lists every query's best times, fastest (for pathlab) first.
        if std::env::var_os("PATHLAB_BENCH_PER_QUERY").is_some() {
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| best[a][0].total_cmp(&best[b][0]));
            for i in order {
                let [o, c] = best[i];
                println!(
                    "{name} #{i}: pathlab {:.1} µs, crate {:.1} µs ({:.2}×)",
                    o * 1e6,
                    c * 1e6,
                    c / o
                );
            }
        }
        let median = |mut v: Vec<f64>| {
            v.sort_by(|a, b| a.total_cmp(b));
            v[v.len() / 2]
        };
        let o = median(best.iter().map(|b| b[0]).collect());
        let c = median(best.iter().map(|b| b[1]).collect());
        let r = median(best.iter().map(|b| b[1] / b[0]).collect());
        println!(
            "{name}: {n} queries, median µs: pathlab {:.1}, crate {:.1} ({:.2}×; median per-query ratio {:.2}×)",
            o * 1e6,
            c * 1e6,
            c / o,
            r
        );
    }
}

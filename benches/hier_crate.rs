//! pathlab's HPA* beside the `hierarchical_pathfinding` crate (a Rust HPA*) on the same maps
//! and problems: build time, median query time and mean length overhead against the
//! scenario's optimum. Both use 10 × 10 clusters. The crate moves on a Moore neighbourhood
//! where a diagonal costs what a straight move costs and may cut corners; its paths are
//! measured here as pathlab measures paths (√2 diagonals) and its corner cuts counted, since a
//! path that cuts a corner is not valid under the benchmark's rules.
//!
//! `cargo bench --bench hier_crate` (needs ../shared/benchmarks).

use hierarchical_pathfinding::prelude::{MooreNeighborhood, PathCache, PathCacheConfig};
use pathlab::hier::hpa::Hpa;
use pathlab::search::{path_cost, Status};
use pathlab::space::{GridSpace, NodeId, Space};
use pathlab::trace::NullTracer;
use std::time::Instant;

const MAPS: [&str; 3] = ["street/Berlin_0_1024", "dao/brc202d", "bg512/AR0011SR"];
const EVERY: usize = 20;
const CLUSTER: usize = 10;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

/// The octile length of a cell path and how many of its diagonal moves cut a corner.
fn measure(space: &GridSpace, cells: &[(usize, usize)]) -> (f64, usize) {
    let (mut length, mut cuts) = (0.0, 0);
    for w in cells.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if x0 != x1 && y0 != y1 {
            length += std::f64::consts::SQRT_2;
            let open = |x: usize, y: usize| {
                space
                    .node(x as u32, y as u32)
                    .is_some_and(|n| space.is_passable(n))
            };
            if !open(x1, y0) || !open(x0, y1) {
                cuts += 1;
            }
        } else if (x0, y0) != (x1, y1) {
            length += 1.0;
        }
    }
    (length, cuts)
}

fn main() {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/movingai-grid");
    if !root.is_dir() {
        eprintln!("skipped: {} is absent", root.display());
        return;
    }
    println!("map,impl,build_ms,problems,found,median_us,mean_overhead_pct,corner_cuts");
    for name in MAPS {
        let map = root.join(format!("{name}.map"));
        let grid = pathlab::map::io::read_map(&map).unwrap();
        let problems = pathlab::map::io::read_scen(&map.with_extension("map.scen")).unwrap();
        let space = GridSpace::octile(&grid);
        let (w, h) = (grid.width() as usize, grid.height() as usize);
        let cost = |(x, y): (usize, usize)| -> isize {
            let n = space.node(x as u32, y as u32).unwrap();
            if space.is_passable(n) {
                1
            } else {
                -1
            }
        };
        let t = Instant::now();
        let cache = PathCache::new(
            (w, h),
            cost,
            MooreNeighborhood::new(w, h),
            PathCacheConfig::with_chunk_size(CLUSTER),
        );
        let crate_build = t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        let hpa = Hpa::build(&space, CLUSTER as u32);
        let ours_build = t.elapsed().as_secs_f64() * 1e3;
        let mut q = hpa.query(&space);
        let (mut ours, mut theirs) = ((vec![], vec![], 0), (vec![], vec![], 0));
        for p in problems.iter().step_by(EVERY) {
            let (s, g) = (
                (p.start.0 as usize, p.start.1 as usize),
                (p.goal.0 as usize, p.goal.1 as usize),
            );
            let t = Instant::now();
            let found = cache.find_path(s, g, cost).map(|path| {
                let mut cells = vec![s];
                cells.extend(path);
                cells
            });
            let us = t.elapsed().as_secs_f64() * 1e6;
            if let Some(cells) = found {
                let (length, cuts) = measure(&space, &cells);
                theirs.0.push(us);
                theirs.1.push(length / p.optimal - 1.0);
                theirs.2 += cuts;
            }
            let node = |c: (usize, usize)| space.node(c.0 as u32, c.1 as u32).unwrap();
            let t = Instant::now();
            q.reset(&space, node(s), node(g), [None, None]);
            if q.run(&space, &mut NullTracer) == Status::Found {
                let path: Vec<NodeId> = q.path().unwrap().to_vec();
                let us = t.elapsed().as_secs_f64() * 1e6;
                ours.0.push(us);
                ours.1
                    .push(path_cost(&space, &path).unwrap() / p.optimal - 1.0);
            }
        }
        let n = problems.len().div_ceil(EVERY);
        for (who, build, (times, overheads, cuts)) in [
            ("pathlab", ours_build, ours),
            ("hierarchical_pathfinding", crate_build, theirs),
        ] {
            let mean = 100.0 * overheads.iter().sum::<f64>() / overheads.len().max(1) as f64;
            println!(
                "{name},{who},{build:.1},{n},{},{:.1},{mean:.2},{cuts}",
                times.len(),
                median(times)
            );
        }
    }
}

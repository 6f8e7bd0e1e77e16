//! Shared by the benches: where the benchmark maps are and which queries to time.

#![allow(dead_code)]

use pathlab::experiment::{Selection, Suite};
use pathlab::map::Grid;
use pathlab::space::TerrainRule;
use std::path::PathBuf;

/// `../shared/benchmarks/movingai-grid`, if present.
pub fn movingai_dir() -> Option<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/movingai-grid");
    d.is_dir().then_some(d)
}

/// About `n` problems spread evenly over the scenario file of `map` (so every length bucket is
/// represented).
pub fn sample_suite(map: &str, n: usize) -> Option<Suite> {
    let dir = movingai_dir()?;
    let m = dir.join(map);
    let s = dir.join(format!("{map}.scen"));
    let total = pathlab::map::io::read_scen(&s).ok()?.len();
    let every = (total / n).max(1);
    Suite::load(
        &m,
        &s,
        Selection {
            every,
            limit: Some(n),
        },
    )
    .ok()
}

/// The crate as its documentation uses it: nodes are (x, y), each neighbour checked in place
/// (same class rule and no corner cutting as pathlab's GridSpace).
pub fn pathfinding_astar_plain(grid: &Grid, start: (i32, i32), goal: (i32, i32)) -> Option<u64> {
    let class = |x: i32, y: i32| -> u8 {
        if grid.contains(x as i64, y as i64) {
            TerrainRule::Class.class(grid.tiles()[grid.index(x as u32, y as u32)])
        } else {
            0
        }
    };
    let succ = |&(x, y): &(i32, i32)| {
        let c = class(x, y);
        let mut v = Vec::with_capacity(8);
        for (dx, dy) in [
            (0, -1),
            (1, 0),
            (0, 1),
            (-1, 0),
            (1, -1),
            (1, 1),
            (-1, 1),
            (-1, -1),
        ] {
            let diagonal = dx != 0 && dy != 0;
            if class(x + dx, y + dy) == c
                && (!diagonal || (class(x + dx, y) == c && class(x, y + dy) == c))
            {
                v.push(((x + dx, y + dy), if diagonal { 14_142 } else { 10_000 }));
            }
        }
        v
    };
    let h = |&(x, y): &(i32, i32)| {
        let (dx, dy) = (x.abs_diff(goal.0) as u64, y.abs_diff(goal.1) as u64);
        10_000 * dx.max(dy) + 4_142 * dx.min(dy)
    };
    pathfinding::prelude::astar(&start, succ, h, |p| *p == goal).map(|(_, c)| c)
}

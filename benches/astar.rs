//! A* against the `pathfinding` crate's generic `astar` on the same MovingAI queries.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use pathlab::search::{AStar, Query, Search, SearchState};
use pathlab::space::{GridSpace, Heuristic, Space};
use pathlab::trace::NullTracer;
use std::hint::black_box;

/// Fixed-point scale for the crate's integer costs (it needs `Ord` costs).
const SCALE: f64 = 10_000.0;

fn pathfinding_astar(space: &GridSpace, q: Query) -> Option<u64> {
    let (gx, gy) = space.xy(q.goal);
    // Octile distance in the same integer units as the edge costs (1 → 10000, √2 → 14142), so
    // the heuristic stays consistent.
    let h = |n: &u32| {
        let (x, y) = space.xy(*n);
        let (dx, dy) = (x.abs_diff(gx) as u64, y.abs_diff(gy) as u64);
        10_000 * dx.max(dy) + 4_142 * dx.min(dy)
    };
    let succ = |n: &u32| {
        let mut v = Vec::with_capacity(8);
        space.for_each_neighbour(*n, |m, c| v.push((m, (c * SCALE).round() as u64)));
        v
    };
    pathfinding::prelude::astar(&q.start, succ, h, |n| *n == q.goal).map(|(_, c)| c)
}

fn bench(c: &mut Criterion) {
    let maps = [
        ("dao/den520d.map", "Dragon Age den520d"),
        ("maze/maze512-4-0.map", "maze512-4-0"),
        ("street/Berlin_0_256.map", "street Berlin_0_256"),
    ];
    for (map, label) in maps {
        let Some(suite) = common::sample_suite(map, 40) else {
            eprintln!("skipping {label}: ../shared/benchmarks is absent");
            continue;
        };
        let space = &suite.space;
        let mut astar = AStar::new(space, suite.queries[0], Heuristic::Octile);
        // Same answers, or the comparison means nothing.
        for &q in &suite.queries {
            astar.reset(space, q);
            astar.run(space, &mut NullTracer);
            let ours = astar.cost().unwrap_or(f64::NAN);
            let theirs = pathfinding_astar(space, q).map_or(f64::NAN, |c| c as f64 / SCALE);
            // Rounding √2 to 1.4142 changes a long path's cost by up to 1e-5 relative.
            assert!(
                (ours - theirs).abs() <= 2e-5 * ours,
                "{label}: {ours} vs {theirs}"
            );
        }
        let mut g = c.benchmark_group(format!("astar/{label}"));
        g.sample_size(20);
        g.bench_function("pathlab", |b| {
            b.iter(|| {
                for &q in &suite.queries {
                    astar.reset(space, q);
                    black_box(astar.run(space, &mut NullTracer));
                }
            })
        });
        g.bench_function("pathfinding-crate", |b| {
            b.iter(|| {
                for &q in &suite.queries {
                    black_box(pathfinding_astar(space, q));
                }
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);

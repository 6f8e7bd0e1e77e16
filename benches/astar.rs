//! A* against the `pathfinding` crate's generic `astar` on the same MovingAI queries, fed two
//! ways: with a grid successor function as the crate's documentation writes them ((x, y) nodes,
//! bounds and terrain checked per neighbour), and with pathlab's own precomputed neighbour
//! masks, which leaves only the search engines to compare.

mod common;

use common::pathfinding_astar_plain;

use criterion::{criterion_group, criterion_main, Criterion};
use pathlab::search::{AStar, Query, Search, SearchState};
use pathlab::space::{GridSpace, Heuristic, Space};
use pathlab::trace::NullTracer;
use std::hint::black_box;
use std::time::Instant;

/// Fixed-point scale for the crate's integer costs (it needs `Ord` costs).
const SCALE: f64 = 10_000.0;

/// The crate driven by pathlab's neighbour masks.
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

/// Rounds of [`print_median_ratios`].
const ROUNDS: usize = 15;

/// Per-query times (best of 15), the ratio of the median query times, and the median of the
/// per-query ratios. This VM runs in phases: within one process, the time of the same 40
/// problems swings between about 8 and 13 ms from one round to the next, in stretches of a few
/// rounds. So each of the 15 rounds runs every problem with pathlab, then every problem with
/// the crate, then with the crate on pathlab's neighbours: a problem's 15 runs are spread over the
/// whole measurement, and each contestant gets its share of the fast stretches. (Alternating
/// contestants problem by problem also had pathlab always start on node arrays the crate's hash
/// maps had just pushed out of the caches, while the crate's allocator handed it back memory its
/// previous query had just warmed.)
fn print_median_ratios(label: &str, suite: &pathlab::experiment::Suite, astar: &mut AStar) {
    let space = &suite.space;
    let n = suite.queries.len();
    let mut best = vec![[f64::MAX; 3]; n];
    let time = |k: usize, best: &mut Vec<[f64; 3]>, run: &mut dyn FnMut(Query)| {
        for (&q, best) in suite.queries.iter().zip(best) {
            let t0 = Instant::now();
            run(q);
            best[k] = best[k].min(t0.elapsed().as_secs_f64());
        }
    };
    for _ in 0..ROUNDS {
        time(0, &mut best, &mut |q| {
            astar.reset(space, q);
            black_box(astar.run(space, &mut NullTracer));
        });
        time(1, &mut best, &mut |q| {
            let (s, t) = (space.xy(q.start), space.xy(q.goal));
            black_box(pathfinding_astar_plain(
                &suite.grid,
                (s.0 as i32, s.1 as i32),
                (t.0 as i32, t.1 as i32),
            ));
        });
        time(2, &mut best, &mut |q| {
            black_box(pathfinding_astar(space, q));
        });
    }
    let mut ours: Vec<f64> = best.iter().map(|b| b[0]).collect();
    let mut plain: Vec<f64> = best.iter().map(|b| b[1]).collect();
    let mut engine: Vec<f64> = best.iter().map(|b| b[2]).collect();
    let mut per_query: Vec<f64> = best.iter().map(|b| b[1] / b[0]).collect();
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    let (o, p, e) = (median(&mut ours), median(&mut plain), median(&mut engine));
    let r = median(&mut per_query);
    eprintln!(
        "{label}: {n} queries, median µs: pathlab {:.1}, crate {:.1} ({:.2}×; median per-query ratio {:.2}×), crate with pathlab neighbours {:.1} ({:.2}×)",
        o * 1e6,
        p * 1e6,
        p / o,
        r,
        e * 1e6,
        e / o
    );
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
        print_median_ratios(label, &suite, &mut astar);
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
                    let (s, t) = (space.xy(q.start), space.xy(q.goal));
                    black_box(pathfinding_astar_plain(
                        &suite.grid,
                        (s.0 as i32, s.1 as i32),
                        (t.0 as i32, t.1 as i32),
                    ));
                }
            })
        });
        g.bench_function("pathfinding-crate-with-pathlab-neighbours", |b| {
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

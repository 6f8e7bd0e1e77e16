//! JPS and JPS+ against A* and the `pathfinding` crate's `astar` on every 20th problem of three
//! MovingAI maps, as the speed anchor (Warthog's jps2 and jps2+) was measured: the crate as its
//! documentation uses it, the same move rules, every answer checked against the scenario. The
//! prepared data (bit rows, jump table) is built once per map, timed apart from the queries.

mod common;

use common::pathfinding_astar_plain;
use criterion::{criterion_group, criterion_main, Criterion};
use pathlab::experiment::{Selection, Suite};
use pathlab::search::prepared::PreparedCache;
use pathlab::search::registry::build_cached;
use pathlab::search::{DynSearch, Query};
use pathlab::space::GridSpace;
use std::hint::black_box;
use std::time::Instant;

/// Rounds: each query's best time counts (this VM runs in phases of a few seconds), as many
/// as fit in about 20 s of the crate's time, 3 to 30.
fn rounds(crate_round_s: f64) -> usize {
    ((20.0 / crate_round_s) as usize).clamp(3, 30)
}

fn build(name: &str, suite: &Suite, cache: &mut PreparedCache) -> Box<dyn DynSearch<GridSpace>> {
    let (info, params) = pathlab::algorithms::parse_spec(name).expect("registered");
    build_cached(info, &params, &suite.space, suite.queries[0], cache).expect("runs on squares")
}

fn bench(c: &mut Criterion) {
    let maps = [
        ("dao/den520d.map", "den520d"),
        ("maze/maze512-4-0.map", "maze512-4-0"),
        ("street/Berlin_0_256.map", "Berlin_0_256"),
    ];
    let Some(dir) = common::movingai_dir() else {
        panic!("../shared/benchmarks/movingai-grid is absent: the JPS bench needs its maps");
    };
    let names = ["astar", "jps", "jps-plus"];
    // PATHLAB_BENCH_MAPS=den520d,Berlin times only those (the maze's crate runs take a minute).
    let only = std::env::var("PATHLAB_BENCH_MAPS").ok();
    for (map, label) in maps {
        if only
            .as_ref()
            .is_some_and(|o| !o.split(',').any(|k| label.contains(k)))
        {
            continue;
        }
        let m = dir.join(map);
        let s = dir.join(format!("{map}.scen"));
        let sel = Selection {
            every: 20,
            limit: None,
        };
        let suite = Suite::load(&m, &s, sel).expect("benchmark map loads");
        let mut cache = PreparedCache::default();
        let mut searches: Vec<_> = names.iter().map(|n| build(n, &suite, &mut cache)).collect();
        for info in cache.infos() {
            eprintln!(
                "{label}: {} {} built in {:.2} ms, {:.1} KiB",
                info.algo,
                info.what,
                info.ms,
                info.bytes as f64 / 1024.0
            );
        }
        // Every answer optimal, or the times mean nothing.
        let mut expanded = vec![0u64; names.len()];
        for (i, &q) in suite.queries.iter().enumerate() {
            for (k, s) in searches.iter_mut().enumerate() {
                s.reset(&suite.space, q);
                s.run_null(&suite.space);
                let cost = s.cost().unwrap_or(f64::NAN);
                assert!(
                    suite.problems[i].is_optimal(cost),
                    "{label} #{i}: {} gave {cost}, optimal {}",
                    names[k],
                    suite.problems[i].optimal
                );
                expanded[k] += s.stats().expanded;
            }
        }
        let n = suite.queries.len();
        let mut best = vec![vec![f64::MAX; n]; names.len() + 1];
        let t0 = Instant::now();
        for &q in &suite.queries {
            black_box(crate_query(&suite, q));
        }
        let rounds = rounds(t0.elapsed().as_secs_f64());
        for _ in 0..rounds {
            for (k, s) in searches.iter_mut().enumerate() {
                // Each contestant's queries run as a block, after a pass that warms its own
                // state (as when many queries run with one algorithm); the blocks take turns
                // round by round, so each gets its share of the VM's fast phases.
                for &q in &suite.queries {
                    s.reset(&suite.space, q);
                    black_box(s.run_null(&suite.space));
                }
                for (i, &q) in suite.queries.iter().enumerate() {
                    let t0 = Instant::now();
                    s.reset(&suite.space, q);
                    black_box(s.run_null(&suite.space));
                    best[k][i] = best[k][i].min(t0.elapsed().as_secs_f64());
                }
            }
            for (i, &q) in suite.queries.iter().enumerate() {
                let t0 = Instant::now();
                black_box(crate_query(&suite, q));
                let k = names.len();
                best[k][i] = best[k][i].min(t0.elapsed().as_secs_f64());
            }
        }
        let total: Vec<f64> = best.iter().map(|b| b.iter().sum()).collect();
        let crate_total = total[names.len()];
        let cr = names.len();
        for (k, name) in names.iter().enumerate() {
            let mut per: Vec<f64> = (0..n).map(|i| best[cr][i] / best[k][i]).collect();
            per.sort_by(|a, b| a.total_cmp(b));
            eprintln!(
                "{label} ({n} problems, {rounds} rounds): {name:9} {:9.2} µs/query, {:7.0} expanded/query, {:6.1}× the crate (total time; median per-query ratio {:.1}×)",
                total[k] / n as f64 * 1e6,
                expanded[k] as f64 / n as f64,
                crate_total / total[k],
                per[n / 2]
            );
        }
        eprintln!(
            "{label}: crate astar {:.1} µs/query",
            crate_total / n as f64 * 1e6
        );
        let mut g = c.benchmark_group(format!("jps/{label}"));
        g.sample_size(10);
        for (k, name) in names.iter().enumerate() {
            let s = &mut searches[k];
            g.bench_function(*name, |b| {
                b.iter(|| {
                    for &q in &suite.queries {
                        s.reset(&suite.space, q);
                        black_box(s.run_null(&suite.space));
                    }
                })
            });
        }
        g.finish();
    }
}

fn crate_query(suite: &Suite, q: Query) -> Option<u64> {
    let (s, t) = (suite.space.xy(q.start), suite.space.xy(q.goal));
    pathfinding_astar_plain(
        &suite.grid,
        (s.0 as i32, s.1 as i32),
        (t.0 as i32, t.1 as i32),
    )
}

criterion_group!(benches, bench);
criterion_main!(benches);

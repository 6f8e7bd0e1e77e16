//! What recording costs: A* with the recorder against the null tracer, and seeking in a trace of
//! ten million events.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use pathlab::search::{AStar, Dijkstra, Query, Search};
use pathlab::space::{Heuristic, Space};
use pathlab::trace::{NullTracer, Recorder};
use rand::{Rng, SeedableRng};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let Some(suite) = common::sample_suite("street/Berlin_0_256.map", 40) else {
        eprintln!("skipping: ../shared/benchmarks is absent");
        return;
    };
    let space = &suite.space;
    let mut astar = AStar::new(space, suite.queries[0], Heuristic::Octile);
    let mut g = c.benchmark_group("tracer/astar Berlin_0_256");
    g.sample_size(20);
    g.bench_function("null", |b| {
        b.iter(|| {
            for &q in &suite.queries {
                astar.reset(space, q);
                black_box(astar.run(space, &mut NullTracer));
            }
        })
    });
    g.bench_function("recorder", |b| {
        b.iter(|| {
            for &q in &suite.queries {
                let mut rec = Recorder::new(space.num_nodes());
                astar.reset(space, q);
                black_box(astar.run(space, &mut rec));
                black_box(rec.len());
            }
        })
    });
    g.finish();

    // Ten million events from Dijkstra runs on the 1024×1024 Berlin map.
    let Some(big) = common::sample_suite("street/Berlin_0_1024.map", 20) else {
        return;
    };
    let bs = &big.space;
    let mut rec = Recorder::new(bs.num_nodes());
    let mut i = 0;
    while rec.len() < 10_000_000 {
        let q: Query = big.queries[big.queries.len() - 1 - (i % big.queries.len())];
        let mut d = Dijkstra::new(bs, q);
        d.run(bs, &mut rec);
        i += 1;
    }
    rec.truncate(10_000_000);
    rec.build_checkpoints();
    eprintln!(
        "trace: {} events over {} nodes, {:.2} bytes per event with checkpoints",
        rec.len(),
        bs.num_nodes(),
        rec.bytes() as f64 / rec.len() as f64
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let ks: Vec<usize> = (0..1000).map(|_| rng.random_range(0..=rec.len())).collect();
    let mut g = c.benchmark_group("seek/10M events");
    g.sample_size(20);
    let mut j = 0;
    g.bench_function("random step", |b| {
        b.iter(|| {
            j = (j + 1) % ks.len();
            black_box(rec.seek(ks[j]).len())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

use pathlab::experiment::{Selection, Suite};
use pathlab::search::{AStar, Search, SearchState};
use pathlab::space::{Heuristic, Space};
use pathlab::trace::NullTracer;
use std::path::Path;
use std::time::Instant;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let m = Path::new(&a[1]);
    let s = format!("{}.scen", a[1]);
    let suite = Suite::load(
        m,
        Path::new(&s),
        Selection {
            every: 50,
            limit: None,
        },
    )
    .unwrap();
    let space = &suite.space;
    let mut astar = AStar::new(space, suite.queries[0], Heuristic::Octile);
    let (mut e1, mut e2) = (0u64, 0u64);
    let t = Instant::now();
    let mut per = vec![];
    for &q in &suite.queries {
        astar.reset(space, q);
        astar.run(space, &mut NullTracer);
        e1 += astar.stats().expanded;
        per.push(astar.stats().expanded);
    }
    let t1 = t.elapsed();
    let t = Instant::now();
    let mut per2 = vec![];
    for &q in &suite.queries {
        let before = e2;
        let (gx, gy) = space.xy(q.goal);
        let h = |n: &u32| {
            let (x, y) = space.xy(*n);
            {
                let (dx, dy) = (x.abs_diff(gx) as u64, y.abs_diff(gy) as u64);
                10000 * dx.max(dy) + 4142 * dx.min(dy)
            }
        };
        let succ = |n: &u32| {
            e2 += 1;
            let mut v = Vec::with_capacity(8);
            space.for_each_neighbour(*n, |m, c| v.push((m, (c * 10000.0).round() as u64)));
            v
        };
        let r = pathfinding::prelude::astar(&q.start, succ, h, |n| *n == q.goal);
        std::hint::black_box(r);
        per2.push(e2 - before);
    }
    let t2 = t.elapsed();
    if std::env::var("PER").is_ok() {
        for (a, b) in per.iter().zip(&per2) {
            println!("{a} {b}");
        }
    }
    println!(
        "ours: {:?} {} exp ({:.3} us/exp); crate: {:?} {} exp ({:.3} us/exp)",
        t1,
        e1,
        t1.as_secs_f64() * 1e6 / e1 as f64,
        t2,
        e2,
        t2.as_secs_f64() * 1e6 / e2 as f64
    );
}

use pathlab::experiment::{Selection, Suite};
use pathlab::search::{AStar, Search, SearchState};
use pathlab::space::{Heuristic, Space};
use pathlab::trace::NullTracer;
use std::path::Path;
use std::time::Instant;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let s = format!("{}.scen", a[1]);
    let every: usize = a.get(2).map_or(20, |x| x.parse().unwrap());
    let suite = Suite::load(
        Path::new(&a[1]),
        Path::new(&s),
        Selection { every, limit: None },
    )
    .unwrap();
    let space = &suite.space;
    let mut astar = AStar::new(space, suite.queries[0], Heuristic::Octile);
    let mut ours = vec![];
    let mut theirs = vec![];
    for &q in &suite.queries {
        let mut best = (f64::MAX, f64::MAX);
        for _ in 0..3 {
            let t = Instant::now();
            astar.reset(space, q);
            astar.run(space, &mut NullTracer);
            std::hint::black_box(astar.cost());
            best.0 = best.0.min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            let (gx, gy) = space.xy(q.goal);
            let h = |n: &u32| {
                let (x, y) = space.xy(*n);
                let (dx, dy) = (x.abs_diff(gx) as u64, y.abs_diff(gy) as u64);
                10000 * dx.max(dy) + 4142 * dx.min(dy)
            };
            let succ = |n: &u32| {
                let mut v = Vec::with_capacity(8);
                space.for_each_neighbour(*n, |m, c| v.push((m, (c * 10000.0).round() as u64)));
                v
            };
            std::hint::black_box(pathfinding::prelude::astar(&q.start, succ, h, |n| {
                *n == q.goal
            }));
            best.1 = best.1.min(t.elapsed().as_secs_f64());
        }
        ours.push(best.0);
        theirs.push(best.1);
    }
    let mut r: Vec<f64> = ours.iter().zip(&theirs).map(|(a, b)| b / a).collect();
    r.sort_by(|a, b| a.total_cmp(b));
    let med = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    let (mo, mt) = (med(&mut ours), med(&mut theirs));
    println!(
        "{}: n={} median ours {:.1}us crate {:.1}us ratio-of-medians {:.2} median-ratio {:.2}",
        a[1].rsplit('/').next().unwrap(),
        r.len(),
        mo * 1e6,
        mt * 1e6,
        mt / mo,
        r[r.len() / 2]
    );
}

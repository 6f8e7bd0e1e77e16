use pathlab::experiment::{Selection, Suite};
use pathlab::search::{AStar, Search, SearchState};
use pathlab::space::Heuristic;
use pathlab::trace::NullTracer;
use std::path::Path;
use std::time::Instant;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let s = format!("{}.scen", a[1]);
    let suite = Suite::load(
        Path::new(&a[1]),
        Path::new(&s),
        Selection {
            every: a[2].parse().unwrap(),
            limit: None,
        },
    )
    .unwrap();
    let space = &suite.space;
    let mut astar = AStar::new(space, suite.queries[0], Heuristic::Octile);
    let mut e1 = 0;
    let mut up = 0;
    let mut gen = 0;
    let t = Instant::now();
    for &q in &suite.queries {
        astar.reset(space, q);
        astar.run(space, &mut NullTracer);
        e1 += astar.stats().expanded;
        up += astar.stats().updated;
        gen += astar.stats().generated;
    }
    println!("updated {up} generated {gen}");
    let t1 = t.elapsed();
    println!(
        "ours: {:?} {} exp ({:.4} us/exp)",
        t1,
        e1,
        t1.as_secs_f64() * 1e6 / e1 as f64
    );
}

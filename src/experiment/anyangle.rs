//! Yu & Novitch 2020's comparison of A*, Theta* and Lazy Theta*, on any square or voxel
//! scenario: per problem the path's length (and after rubber banding), expansions,
//! line-of-sight checks and time, and their means. The three run on one loop
//! ([`ThetaStar::yu_novitch`]: no reopening, goal test when popped, the Euclidean heuristic), as
//! the thesis wrote them, so the times compare the algorithms rather than two engines; with
//! the segment optimisation every edge and segment counts 1 in g (lengths stay Euclidean).

use crate::search::{
    any_angle_cost, rubber_band, AnyAngleKind, Query, Search, SearchState, SegmentCost, Status,
    ThetaStar,
};
use crate::space::Space;
use crate::trace::NullTracer;
use std::fmt::Write;
use web_time::Instant;

/// One algorithm on one problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub algo: &'static str,
    pub problem: usize,
    /// Length of the path (None: no path).
    pub length: Option<f64>,
    pub expanded: u64,
    pub los_checks: u64,
    /// Search time alone, microseconds.
    pub micros: f64,
    /// Length after rubber banding, and the checks that took.
    pub smoothed: Option<f64>,
    pub smooth_checks: u64,
}

/// The CSV header of [`Row`]s.
pub const CSV_HEADER: &str =
    "algo,problem,length,expanded,los_checks,micros,smoothed_length,smooth_checks";

/// The algorithm names the experiment knows.
pub const ALGOS: [(&str, AnyAngleKind); 3] = [
    ("astar", AnyAngleKind::AStar),
    ("theta-star", AnyAngleKind::Theta),
    ("lazy-theta-star", AnyAngleKind::LazyTheta),
];

/// Reads `astar,theta-star,lazy-theta-star` (any of them, in any order).
pub fn parse_algos(list: &str) -> Result<Vec<(&'static str, AnyAngleKind)>, String> {
    list.split(',')
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .map(|s| {
            ALGOS.iter().copied().find(|(n, _)| *n == s).ok_or_else(|| {
                format!("unknown algorithm `{s}` (known: astar, theta-star, lazy-theta-star)")
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .and_then(|v| {
            if v.is_empty() {
                Err("no algorithm given".into())
            } else {
                Ok(v)
            }
        })
}

/// Runs every algorithm on every query (`(problem id, query)`); rows in query order.
pub fn run<S: Space>(
    space: &S,
    queries: &[(usize, Query)],
    algos: &[(&'static str, AnyAngleKind)],
    cost: SegmentCost,
    smooth: bool,
) -> Vec<Row> {
    run_with_progress(space, queries, algos, (cost, smooth), &mut |_| {}).0
}

/// Each algorithm's time (µs) on the first query run cold, before the warm-up: the first
/// query touches the search's per-node memory for the first time (on DC3 it took 1,350 ms for
/// 212 expansions, and 0.35 ms once warm), so it is reported apart and not in the means.
pub type Cold = Vec<(&'static str, f64)>;

/// [`run`], calling `done` with the number of queries finished after each one.
pub fn run_with_progress<S: Space>(
    space: &S,
    queries: &[(usize, Query)],
    algos: &[(&'static str, AnyAngleKind)],
    (cost, smooth): (SegmentCost, bool),
    done: &mut dyn FnMut(usize),
) -> (Vec<Row>, Cold) {
    let mut rows = vec![];
    let mut cold = vec![];
    // One search per algorithm, reset between queries: its per-node arrays span the world (74M
    // voxels on DC3), allocated once rather than per query.
    let mut searches: Vec<ThetaStar> = match queries.first() {
        Some(&(_, q)) => algos
            .iter()
            .map(|&(_, kind)| ThetaStar::yu_novitch(space, q, kind, cost))
            .collect(),
        None => vec![],
    };
    // The warm-up: the first query once, untimed in the means.
    if let Some(&(_, q)) = queries.first() {
        for (&(name, _), s) in algos.iter().zip(searches.iter_mut()) {
            let t0 = Instant::now();
            s.reset(space, q);
            s.run(space, &mut NullTracer);
            cold.push((name, t0.elapsed().as_secs_f64() * 1e6));
        }
    }
    for (k, &(id, q)) in queries.iter().enumerate() {
        done(k + 1);
        for (&(name, _), s) in algos.iter().zip(searches.iter_mut()) {
            let t0 = Instant::now();
            s.reset(space, q);
            let status = s.run(space, &mut NullTracer);
            let micros = t0.elapsed().as_secs_f64() * 1e6;
            let path = (status == Status::Found).then(|| s.path().unwrap_or(&[]).to_vec());
            let length = path.as_ref().map(|p| any_angle_cost(space, p));
            let (smoothed, smooth_checks) = match (&path, smooth) {
                (Some(p), true) => {
                    let (b, c) = rubber_band(space, p);
                    (Some(any_angle_cost(space, &b)), c)
                }
                _ => (None, 0),
            };
            rows.push(Row {
                algo: name,
                problem: id,
                length,
                expanded: s.stats().expanded,
                los_checks: s.stats().los_checks,
                micros,
                smoothed,
                smooth_checks,
            });
        }
    }
    (rows, cold)
}

/// The rows as CSV.
pub fn csv(rows: &[Row]) -> String {
    let mut s = format!("{CSV_HEADER}\n");
    let f = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.6}"));
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{:.2},{},{}",
            r.algo,
            r.problem,
            f(r.length),
            r.expanded,
            r.los_checks,
            r.micros,
            f(r.smoothed),
            r.smooth_checks
        );
    }
    s
}

/// Means per algorithm over the problems every algorithm solved, as a Markdown table.
pub fn summary(rows: &[Row], algos: &[(&'static str, AnyAngleKind)], cold: &Cold) -> String {
    // Problems some algorithm left unsolved, gathered once: asked per row, the scan over all
    // rows made the table quadratic in problems (40,000 problems took 28 s).
    let unsolved: std::collections::HashSet<usize> = rows
        .iter()
        .filter(|r| r.length.is_none())
        .map(|r| r.problem)
        .collect();
    let solved_by_all = |p: usize| !unsolved.contains(&p);
    let mut out = String::from(
        "| algorithm | problems | length | after rubber banding | expanded | line-of-sight checks | time (ms) |\n|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for &(name, _) in algos {
        let mine: Vec<&Row> = rows
            .iter()
            .filter(|r| r.algo == name && solved_by_all(r.problem))
            .collect();
        let n = mine.len().max(1) as f64;
        let mean = |f: &dyn Fn(&Row) -> f64| mine.iter().map(|r| f(r)).sum::<f64>() / n;
        let smoothed = if mine.iter().all(|r| r.smoothed.is_some()) && !mine.is_empty() {
            format!("{:.3}", mean(&|r| r.smoothed.unwrap_or(0.0)))
        } else {
            "—".into()
        };
        let _ = writeln!(
            out,
            "| {name} | {} | {:.3} | {smoothed} | {:.0} | {:.0} | {:.3} |",
            mine.len(),
            mean(&|r| r.length.unwrap_or(0.0)),
            mean(&|r| r.expanded as f64),
            mean(&|r| (r.los_checks + r.smooth_checks) as f64),
            mean(&|r| r.micros / 1000.0),
        );
    }
    if !cold.is_empty() {
        let each: Vec<String> = cold
            .iter()
            .map(|(name, us)| format!("{name} {:.3} ms", us / 1000.0))
            .collect();
        let _ = writeln!(
            out,
            "\nFirst query cold, before a warm-up run (not in the means above): {}",
            each.join(", ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Grid;
    use crate::space::GridSpace;

    #[test]
    fn the_three_on_an_open_room_with_a_pillar() {
        let g = Grid::from_rows(&[
            "..........",
            "..........",
            "....@@....",
            "....@@....",
            "..........",
        ]);
        let sp = GridSpace::octile(&g);
        let q = Query {
            start: sp.node(0, 3).unwrap(),
            goal: sp.node(9, 1).unwrap(),
        };
        let algos = parse_algos("astar,theta-star,lazy-theta-star").unwrap();
        let rows = run(&sp, &[(0, q)], &algos, SegmentCost::Length, true);
        assert_eq!(rows.len(), 3);
        let len = |a: &str| rows.iter().find(|r| r.algo == a).unwrap().length.unwrap();
        // A*'s octile path against the any-angle ones: never shorter.
        assert!(len("theta-star") <= len("astar") + 1e-9);
        assert!(len("lazy-theta-star") <= len("astar") + 1e-9);
        assert_eq!(rows[0].los_checks, 0, "A* checks no segment");
        assert!(
            rows[1].los_checks > rows[2].los_checks,
            "Lazy Theta* checks fewer"
        );
        // Rubber banding never lengthens a path.
        for r in &rows {
            assert!(r.smoothed.unwrap() <= r.length.unwrap() + 1e-9);
        }
        let table = summary(&rows, &algos, &vec![]);
        assert!(table.contains("| theta-star | 1 |"), "{table}");
        assert!(csv(&rows).starts_with(CSV_HEADER));
        assert!(parse_algos("astar,dijkstra").is_err());
    }
}

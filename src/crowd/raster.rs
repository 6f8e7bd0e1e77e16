//! The cells a straight segment crosses: how a navmesh path, a polyline through portals, lands
//! on the square cells a heatmap counts.
//!
//! A funnelled line hugs the corners of obstacles and runs along their sides, so it often lies
//! exactly on a cell boundary, where either neighbouring cell could claim it. An exact grid
//! traversal would then pick a side by a fixed rule and sometimes count a wall. Instead the
//! segment is sampled every quarter cell, and a sample on a boundary goes to an open cell
//! touching it (the previous cell when that one touches it): consecutive cells are then
//! always 8-adjacent and open wherever the line is walkable.

use super::Agent;
use crate::space::{GridSpace, NavmeshSpace, NodeId, Space};

/// What `agent` walks along the polygon path `polygons`: the funnelled line from its start
/// cell's centre to its goal cell's, as the cells it crosses (its start cell alone when the
/// line has no length), and the line's length.
pub fn walk(
    grid: &GridSpace,
    mesh: &NavmeshSpace,
    polygons: &[NodeId],
    agent: Agent,
) -> (Vec<NodeId>, f64) {
    let centre = |c: NodeId| {
        let (x, y) = grid.xy(c);
        [x as f64 + 0.5, y as f64 + 0.5]
    };
    let line = mesh.funnel(polygons, centre(agent.start), centre(agent.goal));
    let open = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && grid
                .node(x as u32, y as u32)
                .is_some_and(|c| grid.is_passable(c))
    };
    let mut out = vec![];
    for w in line.windows(2) {
        cells(w[0], w[1], open, |x, y| {
            if let Some(c) = grid.node(x as u32, y as u32) {
                if out.last() != Some(&c) {
                    out.push(c);
                }
            }
        });
    }
    if out.is_empty() {
        // Start and goal on one cell: the agent stands there, as on the grid.
        out.push(agent.start);
    }
    let length = line
        .windows(2)
        .map(|w| (w[1][0] - w[0][0]).hypot(w[1][1] - w[0][1]))
        .sum();
    (out, length)
}

/// Calls `f(x, y)` for each cell along the segment from `a` to `b` (cell (x, y) being the
/// square [x, x + 1) × [y, y + 1)), once per run, in order; `open(x, y)` says which cells a
/// sample on a boundary may go to.
pub fn cells(
    a: [f64; 2],
    b: [f64; 2],
    open: impl Fn(i64, i64) -> bool,
    mut f: impl FnMut(i64, i64),
) {
    let len = (b[0] - a[0]).hypot(b[1] - a[1]);
    let steps = (len * 4.0).ceil().max(1.0) as usize;
    let mut last: Option<(i64, i64)> = None;
    for k in 0..=steps {
        let t = k as f64 / steps as f64;
        let p = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
        let c = cell_at(p, last, &open);
        if last != Some(c) {
            f(c.0, c.1);
            last = Some(c);
        }
    }
}

/// Boundaries closer than this count as touched.
const EPS: f64 = 1e-9;

/// The cell for point `p`: among the cells touching it, `last` if open, else the first open
/// one, else the cell below-left of the boundary.
fn cell_at(p: [f64; 2], last: Option<(i64, i64)>, open: &impl Fn(i64, i64) -> bool) -> (i64, i64) {
    let sides = |v: f64| {
        let r = v.round();
        if (v - r).abs() < EPS {
            [r as i64, r as i64 - 1]
        } else {
            let f = v.floor() as i64;
            [f, f]
        }
    };
    let (xs, ys) = (sides(p[0]), sides(p[1]));
    let candidates = [
        (xs[0], ys[0]),
        (xs[1], ys[0]),
        (xs[0], ys[1]),
        (xs[1], ys[1]),
    ];
    if let Some(l) = last.filter(|l| candidates.contains(l) && open(l.0, l.1)) {
        return l;
    }
    candidates
        .into_iter()
        .find(|&(x, y)| open(x, y))
        .unwrap_or(candidates[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(a: [f64; 2], b: [f64; 2], open: impl Fn(i64, i64) -> bool) -> Vec<(i64, i64)> {
        let mut v = vec![];
        cells(a, b, open, |x, y| v.push((x, y)));
        v
    }

    #[test]
    fn segments_cross_the_cells_they_touch_and_keep_off_walls() {
        let any = |_, _| true;
        assert_eq!(all([0.5, 0.5], [0.7, 0.2], any), vec![(0, 0)]);
        assert_eq!(
            all([0.5, 0.5], [3.5, 0.5], any),
            vec![(0, 0), (1, 0), (2, 0), (3, 0)]
        );
        assert_eq!(
            all([3.5, 2.5], [3.5, 0.5], any),
            vec![(3, 2), (3, 1), (3, 0)]
        );
        let v = all([0.5, 0.5], [4.5, 1.5], any);
        assert_eq!((v.first(), v.last()), (Some(&(0, 0)), Some(&(4, 1))));
        for w in v.windows(2) {
            assert!((w[0].0 - w[1].0).abs() <= 1 && (w[0].1 - w[1].1).abs() <= 1);
        }
        // Along the line y = 1 between an open row 0 and a walled row 1: row 0.
        let row0 = |_: i64, y: i64| y == 0;
        assert_eq!(all([0.5, 0.5], [2.0, 1.0], row0).last(), Some(&(1, 0)));
        assert!(all([1.0, 1.0], [3.0, 1.0], row0).iter().all(|c| c.1 == 0));
        // Through a corner between two walls, diagonally.
        let diag = |x: i64, y: i64| x == y;
        assert_eq!(all([0.5, 0.5], [1.5, 1.5], diag), vec![(0, 0), (1, 1)]);
    }
}

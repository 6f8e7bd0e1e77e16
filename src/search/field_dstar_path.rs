//! Field D*'s path: from the start's centre, each point goes to the cheapest point on the
//! border of a cell it touches, by the same interpolation the search used (a point on an edge
//! costs the linear blend of its corners' g), until the goal's cell takes it to the goal's
//! centre. And the geometry of such paths: where a segment crosses cells, what it costs, and
//! whether it stays clear of blocked cells.

use super::field_dstar::{FieldDStar, INF};
use super::NodeId;

/// Below this, two coordinates are one (interpolated points are f64 blends of integers).
const EPS: f64 = 1e-9;

impl FieldDStar {
    /// The cheapest next point from `p` and the total it promises (the piece to it plus the
    /// interpolated cost from there), over the borders of every cell `p` touches.
    pub(super) fn best_step(&self, p: [f64; 2]) -> Option<([f64; 2], f64)> {
        let goal = self.centre(self.query.goal);
        let mut best: Option<([f64; 2], f64)> = None;
        let mut offer = |q: [f64; 2], v: f64| {
            if v < INF && best.is_none_or(|(_, b)| v < b) {
                best = Some((q, v));
            }
        };
        for cx in touching(p[0]) {
            for cy in touching(p[1]) {
                let c = self.cell(cx, cy);
                if c == INF {
                    continue;
                }
                if cy * self.w + cx == self.query.goal as i64 {
                    offer([goal.0, goal.1], c * dist(p, [goal.0, goal.1]));
                }
                let edges = [
                    ((cx, cy), (cx + 1, cy)),
                    ((cx, cy + 1), (cx + 1, cy + 1)),
                    ((cx, cy), (cx, cy + 1)),
                    ((cx + 1, cy), (cx + 1, cy + 1)),
                ];
                for (a, b) in edges {
                    let (Some(ka), Some(kb)) = (self.corner(a.0, a.1), self.corner(b.0, b.1))
                    else {
                        continue;
                    };
                    let (ga, gb) = (self.g_at(ka), self.g_at(kb));
                    if ga == INF && gb == INF {
                        continue;
                    }
                    let a = [a.0 as f64, a.1 as f64];
                    let e = [b.0 as f64 - a[0], b.1 as f64 - a[1]];
                    let rel = [p[0] - a[0], p[1] - a[1]];
                    let along = rel[0] * e[0] + rel[1] * e[1];
                    let across = (rel[0] * e[1] - rel[1] * e[0]).abs();
                    let mut ts = [0.0, 1.0, f64::NAN];
                    let k = gb - ga;
                    // Where c·|p − q(t)| + g(q(t)) is least inside the edge (it is convex in t):
                    // the slope of the distance balances the slope of g.
                    if ga < INF && gb < INF && across > EPS && k.abs() < c {
                        ts[2] = (along - k * across / (c * c - k * k).sqrt()).clamp(0.0, 1.0);
                    }
                    for t in ts.into_iter().filter(|t| !t.is_nan()) {
                        let q = [a[0] + t * e[0], a[1] + t * e[1]];
                        if dist(p, q) < EPS {
                            continue;
                        }
                        let gq = if t == 0.0 {
                            ga
                        } else if t == 1.0 {
                            gb
                        } else {
                            (1.0 - t) * ga + t * gb
                        };
                        offer(q, c * dist(p, q) + gq);
                    }
                }
            }
        }
        best
    }

    /// Draws the path from the start's centre to the goal's, and measures it.
    pub(super) fn extract(&mut self) -> Result<(), String> {
        let (s, g) = (self.centre(self.query.start), self.centre(self.query.goal));
        let (s, goal) = ([s.0, s.1], [g.0, g.1]);
        self.points = vec![s];
        // Every step crosses one cell; a path that crossed every cell twice has gone round.
        let cap = 2 * (self.w * self.h) as usize + 8;
        let mut p = s;
        while self.query.start != self.query.goal && p != goal {
            let (q, _) = self
                .best_step(p)
                .ok_or_else(|| format!("no way on from ({:.3}, {:.3})", p[0], p[1]))?;
            self.points.push(q);
            if self.points.len() > cap {
                return Err(format!("the path went round at ({:.3}, {:.3})", q[0], q[1]));
            }
            p = q;
        }
        let cost = |x: i64, y: i64| self.cell(x, y);
        let (mut cells, mut cell_g, mut total) = (vec![self.query.start], vec![0.0], 0.0);
        for w in self.points.windows(2) {
            for (cell, piece) in pieces(w[0], w[1], &cost) {
                total += piece;
                let Some((x, y)) = cell else {
                    return Err(format!(
                        "the segment ({:.3}, {:.3})–({:.3}, {:.3}) crosses a blocked cell",
                        w[0][0], w[0][1], w[1][0], w[1][1]
                    ));
                };
                let n = (y * self.w + x) as NodeId;
                if cells.last() != Some(&n) {
                    cells.push(n);
                    cell_g.push(total);
                } else {
                    *cell_g.last_mut().expect("one cell") = total;
                }
            }
        }
        if cells.last() != Some(&self.query.goal) {
            cells.push(self.query.goal);
            cell_g.push(total);
        }
        self.cells = cells;
        self.cell_g = cell_g;
        self.length = total;
        Ok(())
    }
}

fn dist(p: [f64; 2], q: [f64; 2]) -> f64 {
    ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt()
}

/// The cells a coordinate lies in: one inside a cell, the two on either side of a grid line.
fn touching(v: f64) -> Vec<i64> {
    let r = v.round();
    if (v - r).abs() < EPS {
        vec![r as i64 - 1, r as i64]
    } else {
        vec![v.floor() as i64]
    }
}

/// The segment from `p` to `q` cut where it crosses grid lines: each piece's cell (on a grid
/// line, the cheaper of the two beside it; `None` when the cell is blocked) and its cost.
pub fn pieces(
    p: [f64; 2],
    q: [f64; 2],
    cost: &dyn Fn(i64, i64) -> f64,
) -> Vec<(Option<(i64, i64)>, f64)> {
    let mut ts = vec![0.0, 1.0];
    for axis in 0..2 {
        let (a, b) = (p[axis], q[axis]);
        if (b - a).abs() < EPS {
            continue;
        }
        let (lo, hi) = (a.min(b), a.max(b));
        let mut line = (lo + EPS).ceil();
        while line < hi - EPS {
            ts.push((line - a) / (b - a));
            line += 1.0;
        }
    }
    ts.sort_by(f64::total_cmp);
    ts.dedup_by(|a, b| (*a - *b).abs() < 1e-12);
    let len = dist(p, q);
    let mut out = vec![];
    for w in ts.windows(2) {
        let t = 0.5 * (w[0] + w[1]);
        let m = [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])];
        let mut best: Option<((i64, i64), f64)> = None;
        for x in touching(m[0]) {
            for y in touching(m[1]) {
                let c = cost(x, y);
                if c < INF && best.is_none_or(|(_, b)| c < b) {
                    best = Some(((x, y), c));
                }
            }
        }
        let piece = (w[1] - w[0]) * len;
        out.push(match best {
            Some((cell, c)) => (Some(cell), c * piece),
            None => (None, INF),
        });
    }
    out
}

/// Whether the segment from `p` to `q` stays clear of blocked cells: no piece inside one, none
/// along a grid line with blocked cells on both sides, and no grid corner passed between two
/// diagonally blocked cells (the squeeze the grid's moves forbid). Touching a blocked cell's
/// side or corner is clear: a shortest path hugs the walls it goes round.
pub fn segment_clear(p: [f64; 2], q: [f64; 2], cost: &dyn Fn(i64, i64) -> f64) -> bool {
    if pieces(p, q, cost).iter().any(|(c, _)| c.is_none()) {
        return false;
    }
    let blocked = |x: i64, y: i64| cost(x, y) == INF;
    // Grid corners the segment passes through (its ends included).
    let mut corners = vec![];
    for axis in 0..2 {
        let (a, b) = (p[axis], q[axis]);
        if (b - a).abs() < EPS {
            continue;
        }
        let (lo, hi) = (a.min(b), a.max(b));
        let mut line = (lo - EPS).ceil();
        while line <= hi + EPS {
            let t = (line - a) / (b - a);
            let o = p[1 - axis] + t * (q[1 - axis] - p[1 - axis]);
            if (o - o.round()).abs() < EPS {
                let mut c = [0i64; 2];
                c[axis] = line as i64;
                c[1 - axis] = o.round() as i64;
                corners.push(c);
            }
            line += 1.0;
        }
    }
    for &[p0, p1] in [p, q].iter() {
        if (p0 - p0.round()).abs() < EPS && (p1 - p1.round()).abs() < EPS {
            corners.push([p0.round() as i64, p1.round() as i64]);
        }
    }
    corners.iter().all(|&[x, y]| {
        let (nw, ne, sw, se) = (
            blocked(x - 1, y - 1),
            blocked(x, y - 1),
            blocked(x - 1, y),
            blocked(x, y),
        );
        !((nw && se && !ne && !sw) || (ne && sw && !nw && !se))
    })
}

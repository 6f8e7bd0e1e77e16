//! Navigation meshes made from square maps: the walkable cells merged into cell-aligned
//! rectangles (convex polygons), portals where two rectangles share a side, and a funnel that
//! pulls a polygon path tight through its portals.
//!
//! The decomposition is greedy and row-major: the first cell not yet covered starts a
//! rectangle, which grows right along its row while the cells match (same terrain class, same
//! cost, not covered), then down while a whole row of that width matches. It is linear in the
//! cells, deterministic, and keeps every polygon of one terrain class and one cost, so a
//! polygon's cost per unit is its cells' cost. It is not the fewest rectangles (a minimum
//! partition of a map with holes is expensive and changes little for searches); the counts on
//! the benchmark maps are in docs/navmesh.md.
//!
//! Costs follow Rahmani 2020 (§3.3: centre to centre), walked through the portal's midpoint so
//! that a path's cost is a length of a walkable polyline: from polygon i's centre to the
//! portal's midpoint at i's cost, then on to j's centre at j's cost. The heuristic is the
//! straight line between centres times the cheapest cost, admissible for that reason.

use super::{Heuristic, NodeId, Space, SpaceKind, TerrainRule};
use crate::map::Grid;

/// No polygon: a blocked cell.
pub const NO_POLYGON: u32 = u32::MAX;

/// A portal: the side two polygons share, from `a` to `b` in cell units. Each polygon's copy
/// runs from its left to its right as seen from its centre (the funnel's order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Portal {
    pub a: [f64; 2],
    pub b: [f64; 2],
}

impl Portal {
    /// Its midpoint.
    pub fn mid(&self) -> [f64; 2] {
        [(self.a[0] + self.b[0]) * 0.5, (self.a[1] + self.b[1]) * 0.5]
    }
}

/// A navmesh of rectangles over a square map.
#[derive(Clone, Debug)]
pub struct NavmeshSpace {
    width: u32,
    height: u32,
    rule: TerrainRule,
    /// Each polygon's cells `[x0, y0, x1, y1)`.
    rects: Vec<[u32; 4]>,
    /// Each polygon's cost per unit of length (its cells' terrain cost).
    costs: Vec<f64>,
    /// The polygon covering each cell, or [`NO_POLYGON`].
    poly_of: Vec<u32>,
    /// Neighbours of polygon n: `edges[first[n]..first[n + 1]]`, by id.
    first: Vec<u32>,
    edges: Vec<(NodeId, f64)>,
    /// The portal of each entry of `edges`.
    portals: Vec<Portal>,
    min_cost: f64,
    max_degree: usize,
    revision: u64,
}

/// Distance between two points. (A square root rather than `hypot`: no overflow is possible
/// at map scales, and libm's `hypot` costs several times more on every heuristic call.)
pub fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
    (dx * dx + dy * dy).sqrt()
}

impl NavmeshSpace {
    /// The estimates admissible on a navmesh.
    pub const HEURISTICS: &'static [Heuristic] =
        &[Heuristic::Native, Heuristic::Euclidean, Heuristic::Zero];

    /// Bytes of its arrays (what a hierarchy built over it weighs it at).
    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<[u32; 4]>() * self.rects.len()
            + 8 * self.costs.len()
            + 4 * (self.poly_of.len() + self.first.len())
            + size_of::<(NodeId, f64)>() * self.edges.len()
            + size_of::<Portal>() * self.portals.len()
    }

    /// The navmesh of `grid`'s walkable cells under `rule`.
    pub fn new(grid: &Grid, rule: TerrainRule) -> NavmeshSpace {
        let (w, h) = (grid.width(), grid.height());
        let tiles = grid.tiles();
        let cell_costs = grid.costs();
        let key = |i: usize| (rule.class(tiles[i]), cell_costs[i].to_bits());
        let mut poly_of = vec![NO_POLYGON; tiles.len()];
        let mut rects = vec![];
        let mut costs = vec![];
        for y in 0..h {
            for x in 0..w {
                let i = (y * w + x) as usize;
                if key(i).0 == 0 || poly_of[i] != NO_POLYGON {
                    continue;
                }
                let k = key(i);
                let free = |poly_of: &[u32], j: usize| poly_of[j] == NO_POLYGON && key(j) == k;
                let mut x1 = x + 1;
                while x1 < w && free(&poly_of, (y * w + x1) as usize) {
                    x1 += 1;
                }
                let mut y1 = y + 1;
                while y1 < h && (x..x1).all(|xx| free(&poly_of, (y1 * w + xx) as usize)) {
                    y1 += 1;
                }
                let id = rects.len() as u32;
                for yy in y..y1 {
                    poly_of[(yy * w + x) as usize..(yy * w + x1) as usize].fill(id);
                }
                rects.push([x, y, x1, y1]);
                costs.push(cell_costs[i] as f64);
            }
        }
        let mut s = NavmeshSpace {
            width: w,
            height: h,
            rule,
            min_cost: costs.iter().copied().fold(f64::INFINITY, f64::min).min(1.0),
            rects,
            costs,
            poly_of,
            first: vec![],
            edges: vec![],
            portals: vec![],
            max_degree: 0,
            revision: super::next_revision(),
        };
        s.link(tiles);
        s
    }

    /// Finds the portals: along each rectangle's right and bottom sides, the runs of cells of
    /// one other polygon of the same terrain class (two rectangles share at most one run).
    fn link(&mut self, tiles: &[u8]) {
        let w = self.width;
        let class = |i: usize| self.rule.class(tiles[i]);
        let mut pairs: Vec<(u32, u32, Portal)> = vec![];
        for (id, &[x0, y0, x1, y1]) in self.rects.iter().enumerate() {
            let id = id as u32;
            let mine = class((y0 * w + x0) as usize);
            // Right side: cells (x1, y) for y in y0..y1; bottom side: (x, y1) for x in x0..x1.
            let sides: [(bool, u32, u32); 2] = [(true, y0, y1), (false, x0, x1)];
            for (vertical, lo, hi) in sides {
                let at = |t: u32| if vertical { (x1, t) } else { (t, y1) };
                let mut t = lo;
                while t < hi {
                    let (cx, cy) = at(t);
                    if cx >= self.width || cy >= self.height {
                        break;
                    }
                    let c = (cy * w + cx) as usize;
                    let other = self.poly_of[c];
                    if other == NO_POLYGON || class(c) != mine {
                        t += 1;
                        continue;
                    }
                    let start = t;
                    while t < hi && {
                        let (cx, cy) = at(t);
                        self.poly_of[(cy * w + cx) as usize] == other
                    } {
                        t += 1;
                    }
                    let portal = if vertical {
                        Portal {
                            a: [x1 as f64, start as f64],
                            b: [x1 as f64, t as f64],
                        }
                    } else {
                        Portal {
                            a: [start as f64, y1 as f64],
                            b: [t as f64, y1 as f64],
                        }
                    };
                    pairs.push((id, other, portal));
                    pairs.push((other, id, portal));
                }
            }
        }
        pairs.sort_by_key(|p| (p.0, p.1));
        let n = self.rects.len();
        self.first = vec![0; n + 1];
        for p in &pairs {
            self.first[p.0 as usize + 1] += 1;
        }
        for i in 0..n {
            self.first[i + 1] += self.first[i];
            let deg = (self.first[i + 1] - self.first[i]) as usize;
            self.max_degree = self.max_degree.max(deg);
        }
        self.edges = pairs
            .iter()
            .map(|&(a, b, portal)| {
                let m = portal.mid();
                let cost = dist(self.centre(a), m) * self.costs[a as usize]
                    + dist(m, self.centre(b)) * self.costs[b as usize];
                (b, cost)
            })
            .collect();
        // Each side's copy in the funnel's order, left then right seen from the polygon's
        // centre, so a crowd's thousands of funnels do not orient every portal they pass
        // (its polygon's centre is another read).
        self.portals = pairs
            .iter()
            .map(|&(a, _, p)| {
                if area2(self.centre(a), p.a, p.b) <= 0.0 {
                    Portal { a: p.b, b: p.a }
                } else {
                    p
                }
            })
            .collect();
    }

    /// Polygons in the mesh.
    pub fn polygons(&self) -> usize {
        self.rects.len()
    }

    /// Portals in the mesh (each shared side once).
    pub fn portal_count(&self) -> usize {
        self.edges.len() / 2
    }

    /// Polygon `n`'s cells `[x0, y0, x1, y1)`.
    pub fn rect(&self, n: NodeId) -> [u32; 4] {
        self.rects[n as usize]
    }

    /// Polygon `n`'s centre, in cell units.
    pub fn centre(&self, n: NodeId) -> [f64; 2] {
        let [x0, y0, x1, y1] = self.rects[n as usize];
        [(x0 + x1) as f64 * 0.5, (y0 + y1) as f64 * 0.5]
    }

    /// Polygon `n`'s cost per unit of length.
    pub fn cost_per_unit(&self, n: NodeId) -> f64 {
        self.costs[n as usize]
    }

    /// The cost from polygon `n`'s centre to portal `p`'s midpoint: the half of an edge on
    /// `n`'s side (an edge's cost is its two halves).
    pub fn half_cost(&self, n: NodeId, p: Portal) -> f64 {
        dist(self.centre(n), p.mid()) * self.costs[n as usize]
    }

    /// The polygon covering cell (x, y), if the cell is walkable.
    pub fn polygon_at(&self, x: u32, y: u32) -> Option<NodeId> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let p = self.poly_of[(y * self.width + x) as usize];
        (p != NO_POLYGON).then_some(p)
    }

    /// The polygon of every cell, row by row ([`NO_POLYGON`] for blocked cells).
    pub fn polygon_of_cells(&self) -> &[u32] {
        &self.poly_of
    }

    /// Polygon `n`'s neighbours with the portal to each.
    pub fn portals_of(&self, n: NodeId) -> impl Iterator<Item = (NodeId, Portal)> + '_ {
        let (a, b) = (
            self.first[n as usize] as usize,
            self.first[n as usize + 1] as usize,
        );
        self.edges[a..b]
            .iter()
            .zip(&self.portals[a..b])
            .map(|(e, p)| (e.0, *p))
    }

    /// The portal from polygon `a` to its neighbour `b`.
    pub fn portal(&self, a: NodeId, b: NodeId) -> Option<Portal> {
        // By index, not through `portals_of`: its (id, portal) pairs went through the stack
        // in pieces whose reloads could not be forwarded from the stores, two fifths of a
        // crowd's funnelling.
        let (lo, hi) = (
            self.first[a as usize] as usize,
            self.first[a as usize + 1] as usize,
        );
        let k = self.edges[lo..hi].iter().position(|e| e.0 == b)?;
        Some(self.portals[lo + k])
    }

    /// Width, height and terrain rule of the map underneath.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    pub fn rule(&self) -> TerrainRule {
        self.rule
    }
}

impl Space for NavmeshSpace {
    fn kind(&self) -> SpaceKind {
        SpaceKind::Navmesh
    }

    /// Polygons are numbered anew whenever the map underneath changes.
    fn stable_ids(&self) -> bool {
        false
    }

    fn revision(&self) -> u64 {
        self.revision
    }

    fn num_nodes(&self) -> usize {
        self.rects.len()
    }

    fn is_passable(&self, n: NodeId) -> bool {
        (n as usize) < self.rects.len()
    }

    fn neighbours(&self, n: NodeId) -> impl Iterator<Item = (NodeId, f64)> + '_ {
        let (a, b) = (
            self.first[n as usize] as usize,
            self.first[n as usize + 1] as usize,
        );
        self.edges[a..b].iter().copied()
    }

    fn native_heuristic(&self) -> Heuristic {
        Heuristic::Euclidean
    }

    fn heuristics(&self) -> &'static [Heuristic] {
        NavmeshSpace::HEURISTICS
    }

    fn heuristic(&self, h: Heuristic, a: NodeId, b: NodeId) -> f64 {
        match h {
            Heuristic::Zero => 0.0,
            // The straight line between centres: no polyline through portals is shorter, and
            // no cell is cheaper than the cheapest.
            _ => dist(self.centre(a), self.centre(b)) * self.min_cost,
        }
    }

    fn position(&self, n: NodeId) -> [f32; 3] {
        let [x, y] = self.centre(n);
        [x as f32, y as f32, 0.0]
    }

    fn max_degree(&self) -> usize {
        self.max_degree
    }
}

/// Signed area (twice) of the triangle a, b, c: the side of line a → b that c is on.
fn area2(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (c[0] - a[0]) * (b[1] - a[1]) - (b[0] - a[0]) * (c[1] - a[1])
}

impl NavmeshSpace {
    /// The polygon path `path` pulled tight from `start` to `goal` (points in cell units inside
    /// the first and last polygons): the shortest polyline through its portals, by the funnel
    /// (string-pulling) algorithm. Its corners are portal ends.
    pub fn funnel(&self, path: &[NodeId], start: [f64; 2], goal: [f64; 2]) -> Vec<[f64; 2]> {
        let mut out = vec![];
        self.funnel_into(path, start, goal, &mut vec![], &mut out);
        out
    }

    /// [`NavmeshSpace::funnel`] into `out`, with `gates` as scratch: a crowd funnels thousands
    /// of paths, and two allocations each were a tenth of a PCCP batch.
    pub fn funnel_into(
        &self,
        path: &[NodeId],
        start: [f64; 2],
        goal: [f64; 2],
        gates: &mut Vec<([f64; 2], [f64; 2])>,
        out: &mut Vec<[f64; 2]>,
    ) {
        // Each portal as (left, right) seen from the polygon it leaves (its copy's order),
        // then the goal.
        gates.clear();
        gates.push((start, start));
        for w in path.windows(2) {
            if let Some(p) = self.portal(w[0], w[1]) {
                gates.push((p.a, p.b));
            }
        }
        gates.push((goal, goal));
        out.clear();
        out.push(start);
        let (mut apex, mut left, mut right) = (start, start, start);
        let (mut left_i, mut right_i) = (0, 0);
        let mut i = 1;
        while i < gates.len() {
            let (l, r) = gates[i];
            // Tighten the right side, or let it cross the left: the left is a corner.
            if area2(apex, right, r) <= 0.0 {
                if apex == right || area2(apex, left, r) > 0.0 {
                    right = r;
                    right_i = i;
                } else {
                    out.push(left);
                    apex = left;
                    (left, right, right_i) = (apex, apex, left_i);
                    i = left_i + 1;
                    continue;
                }
            }
            if area2(apex, left, l) >= 0.0 {
                if apex == left || area2(apex, right, l) < 0.0 {
                    left = l;
                    left_i = i;
                } else {
                    out.push(right);
                    apex = right;
                    (left, right, left_i) = (apex, apex, right_i);
                    i = right_i + 1;
                    continue;
                }
            }
            i += 1;
        }
        if out.last() != Some(&goal) {
            out.push(goal);
        }
    }
}

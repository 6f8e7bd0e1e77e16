//! Hexagonal grids as search graphs: six neighbours, each move the distance between hex centres.
//!
//! A hex world is stored as a [`Grid`] of terrain characters in offset coordinates, so every
//! editing tool, file reader and generator of square maps works on it unchanged: pointy-top
//! hexes shift odd rows half a hex to the right ("odd-r"), flat-top hexes shift odd columns half
//! a hex down ("odd-q"). Node id = y · width + x, as on square grids.

use super::{CellWorld, Heuristic, NodeId, Space, SpaceKind, TerrainRule};
use crate::map::{Grid, HexOrientation};

/// A hex grid as a graph. Each move costs the centre distance (`pitch`) times the mean of the
/// two hexes' terrain costs; two hexes connect when both are passable in the same terrain
/// class, by the rule of square grids.
#[derive(Clone, Debug)]
pub struct HexSpace {
    width: u32,
    height: u32,
    orientation: HexOrientation,
    pitch: f64,
    classes: Vec<u8>,
    costs: Vec<f32>,
    uniform_cost: bool,
    min_cost: f64,
    rule: TerrainRule,
    /// The cognitive map the counter heuristic reads (none: every hex unknown).
    knowledge: Option<std::sync::Arc<super::CognitiveMap>>,
}

impl HexSpace {
    fn centre_of(&self, n: NodeId) -> (f64, f64) {
        let (x, y) = self.xy(n);
        self.orientation.centre(x, y, self.pitch)
    }

    /// Passable at cost 1: a segment over it costs its length.
    fn free_for_sight(&self, n: NodeId) -> bool {
        self.classes[n as usize] != 0 && self.costs[n as usize] == 1.0
    }

    /// Walks the segment `p + t·d` (t from 0 to 1) hex by hex from `a`, leaving each hex by
    /// the neighbour whose bisector it crosses first; false at a hex that is not free for
    /// sight, or when the walk leaves the map or does not end at `b`.
    fn walk_clear(&self, a: NodeId, b: NodeId, p: (f64, f64), d: (f64, f64)) -> bool {
        let (mut h, mut t) = (a, 0.0f64);
        for _ in 0..4 * (self.width + self.height) as usize + 8 {
            if !self.free_for_sight(h) {
                return false;
            }
            if h == b {
                return true;
            }
            let (hx, hy) = self.xy(h);
            let ch = self.centre_of(h);
            let mut exit: Option<(f64, Option<NodeId>)> = None;
            for &(dx, dy) in self.orientation.offsets(hx, hy) {
                let (nx, ny) = (hx as i64 + dx as i64, hy as i64 + dy as i64);
                let inside =
                    nx >= 0 && ny >= 0 && nx < self.width as i64 && ny < self.height as i64;
                // Off the map a neighbour's centre is still where the lattice puts it.
                let cn = lattice_centre(self.orientation, nx, ny, self.pitch);
                let w = (cn.0 - ch.0, cn.1 - ch.1);
                let denom = d.0 * w.0 + d.1 * w.1;
                if denom <= 0.0 {
                    continue;
                }
                // (p + t·d)·w = (|cn|² − |ch|²) / 2: where the segment meets the bisector.
                let rhs = ((cn.0 * cn.0 + cn.1 * cn.1) - (ch.0 * ch.0 + ch.1 * ch.1)) / 2.0;
                let tn = (rhs - (p.0 * w.0 + p.1 * w.1)) / denom;
                let next = inside.then(|| ny as u32 * self.width + nx as u32);
                if tn > t - 1e-12 && exit.is_none_or(|(te, _)| tn < te) {
                    exit = Some((tn, next));
                }
            }
            match exit {
                // The segment ends inside this hex.
                Some((te, _)) if te >= 1.0 => return h == b,
                None => return h == b,
                Some((_, None)) => return false,
                Some((te, Some(next))) => {
                    h = next;
                    t = te;
                }
            }
        }
        false
    }

    /// The heuristics admissible on hexes: the square metrics would overestimate.
    pub const HEURISTICS: &'static [Heuristic] = &[
        Heuristic::Native,
        Heuristic::Hex,
        Heuristic::Euclidean,
        Heuristic::Zero,
        Heuristic::Counter,
    ];

    /// The graph of hex map `grid` with hexes `pitch` apart (centre to centre, in square cells;
    /// 1 for a map drawn as hexes).
    pub fn new(grid: &Grid, orientation: HexOrientation, pitch: f64, rule: TerrainRule) -> Self {
        let mut s = HexSpace {
            width: grid.width(),
            height: grid.height(),
            orientation,
            pitch: if pitch.is_finite() && pitch > 0.0 {
                pitch
            } else {
                1.0
            },
            classes: grid.tiles().iter().map(|&t| rule.class(t)).collect(),
            costs: grid.costs().to_vec(),
            uniform_cost: true,
            min_cost: 1.0,
            rule,
            knowledge: None,
        };
        s.refresh_costs();
        s
    }

    fn refresh_costs(&mut self) {
        self.uniform_cost = self.costs.iter().all(|&c| c == 1.0);
        let min = self.costs.iter().copied().fold(f32::INFINITY, f32::min);
        self.min_cost = if min.is_finite() { min as f64 } else { 1.0 };
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    pub fn orientation(&self) -> HexOrientation {
        self.orientation
    }

    /// Centre-to-centre distance, in square cells.
    pub fn pitch(&self) -> f64 {
        self.pitch
    }

    pub fn rule(&self) -> TerrainRule {
        self.rule
    }

    /// The cognitive map the counter heuristic reads.
    pub fn knowledge(&self) -> Option<&std::sync::Arc<super::CognitiveMap>> {
        self.knowledge.as_ref()
    }

    pub fn set_knowledge(&mut self, k: Option<std::sync::Arc<super::CognitiveMap>>) {
        self.knowledge = k;
    }

    /// Centre of hex `n`, in square cells.
    pub fn centre(&self, n: NodeId) -> (f64, f64) {
        self.centre_of(n)
    }

    /// The neighbour of `n` in direction `d` (0 to 5, the order of
    /// [`HexOrientation::offsets`]: the same direction on every row), when the move is allowed.
    pub fn neighbour_in(&self, n: NodeId, d: usize) -> Option<NodeId> {
        self.step(n, d)
    }

    /// Node of hex (x, y).
    pub fn node(&self, x: u32, y: u32) -> Option<NodeId> {
        (x < self.width && y < self.height).then(|| y * self.width + x)
    }

    /// Hex (x, y) of node `n`.
    #[inline(always)]
    pub fn xy(&self, n: NodeId) -> (u32, u32) {
        (n % self.width, n / self.width)
    }

    #[inline(always)]
    fn step(&self, n: NodeId, d: usize) -> Option<NodeId> {
        let (x, y) = self.xy(n);
        let (dx, dy) = self.orientation.offsets(x, y)[d];
        let (nx, ny) = (x as i64 + dx as i64, y as i64 + dy as i64);
        if nx < 0 || ny < 0 || nx >= self.width as i64 || ny >= self.height as i64 {
            return None;
        }
        let m = ny as u32 * self.width + nx as u32;
        let (a, b) = (self.classes[n as usize], self.classes[m as usize]);
        (a != 0 && a == b).then_some(m)
    }
}

impl Space for HexSpace {
    fn kind(&self) -> SpaceKind {
        SpaceKind::Hex
    }

    fn uniform_costs(&self) -> bool {
        self.uniform_cost
    }

    fn num_nodes(&self) -> usize {
        self.classes.len()
    }

    fn is_passable(&self, n: NodeId) -> bool {
        self.classes.get(n as usize).is_some_and(|&c| c != 0)
    }

    fn neighbours(&self, n: NodeId) -> impl Iterator<Item = (NodeId, f64)> + '_ {
        (0..6).filter_map(move |d| {
            let m = self.step(n, d)?;
            let cost = if self.uniform_cost {
                self.pitch
            } else {
                self.pitch * 0.5 * (self.costs[n as usize] + self.costs[m as usize]) as f64
            };
            Some((m, cost))
        })
    }

    fn heuristic(&self, h: Heuristic, a: NodeId, b: NodeId) -> f64 {
        self.heuristic_to(h, b)(a)
    }

    fn heuristic_to(&self, h: Heuristic, goal: NodeId) -> impl Fn(NodeId) -> f64 + '_ {
        let g = self.xy(goal);
        let (gx, gy) = self.orientation.centre(g.0, g.1, self.pitch);
        let scale = self.min_cost;
        let cmax = self
            .knowledge
            .as_ref()
            .map_or(super::knowledge::DEFAULT_C_MAX, |k| k.c_max);
        move |n| {
            let p = self.xy(n);
            if h == Heuristic::Counter {
                // λ in hex steps, so the penalty does not depend on the hex size.
                let lambda = self
                    .knowledge
                    .as_ref()
                    .map_or(2.0 * cmax as f64, |k| k.lambda(n));
                let (x, y) = self.orientation.centre(p.0, p.1, self.pitch);
                return scale * ((x - gx).powi(2) + (y - gy).powi(2)).sqrt() + lambda * self.pitch;
            }
            scale
                * match h {
                    Heuristic::Zero => 0.0,
                    Heuristic::Euclidean => {
                        let (x, y) = self.orientation.centre(p.0, p.1, self.pitch);
                        ((x - gx).powi(2) + (y - gy).powi(2)).sqrt()
                    }
                    // Every other metric is read as the hex distance: the square metrics would
                    // overestimate on hexes (the registry refuses them, see `heuristics`).
                    _ => self.pitch * self.orientation.distance(p, g) as f64,
                }
        }
    }

    fn native_heuristic(&self) -> Heuristic {
        Heuristic::Hex
    }

    fn heuristics(&self) -> &'static [Heuristic] {
        HexSpace::HEURISTICS
    }

    fn position(&self, n: NodeId) -> [f32; 3] {
        let (x, y) = self.xy(n);
        let (cx, cy) = self.orientation.centre(x, y, self.pitch);
        [cx as f32, cy as f32, 0.0]
    }

    /// Free when every hex the segment between the two centres touches is passable at cost 1.
    /// The segment is walked twice, moved 10⁻⁷ of a hex to each side: each copy is in general
    /// position, and between them they touch both hexes beside a corner or an edge the segment
    /// passes exactly (as a hex path must go round one of them).
    fn has_line_of_sight(&self) -> bool {
        true
    }

    fn line_of_sight(&self, a: NodeId, b: NodeId) -> Option<bool> {
        let (ca, cb) = (self.centre_of(a), self.centre_of(b));
        let d = (cb.0 - ca.0, cb.1 - ca.1);
        let len = (d.0 * d.0 + d.1 * d.1).sqrt();
        if len == 0.0 {
            return Some(self.free_for_sight(a));
        }
        let e = 1e-7 * self.pitch / len;
        let n = (-d.1 * e, d.0 * e);
        Some([1.0, -1.0].into_iter().all(|s| {
            let p = (ca.0 + s * n.0, ca.1 + s * n.1);
            self.walk_clear(a, b, p, d)
        }))
    }

    fn max_degree(&self) -> usize {
        6
    }
}

/// Centre of offset hex (x, y), which may lie off the map (negative coordinates included).
pub fn lattice_centre(o: HexOrientation, x: i64, y: i64, pitch: f64) -> (f64, f64) {
    // From the hex of the same offset parity at (0 or 1, 0 or 1): two columns or two rows
    // apart, centres differ along one axis only.
    let (bx, by) = (x.rem_euclid(2) as u32, y.rem_euclid(2) as u32);
    let (kx, ky) = ((x - bx as i64) / 2, (y - by as i64) / 2);
    let c = o.centre(bx, by, pitch);
    let step = o.centre(bx + 2, by, pitch).0 - c.0;
    let step_y = o.centre(bx, by + 2, pitch).1 - c.1;
    (c.0 + kx as f64 * step, c.1 + ky as f64 * step_y)
}

impl CellWorld for HexSpace {
    fn apply_cells(&mut self, grid: &Grid, cells: &[(u32, u32)]) -> Vec<NodeId> {
        let mut out = vec![];
        for &(x, y) in cells {
            let Some(n) = self.node(x, y) else { continue };
            let i = n as usize;
            self.classes[i] = self.rule.class(grid.tiles()[i]);
            self.costs[i] = grid.costs()[i];
            out.push(n);
            for &(dx, dy) in self.orientation.offsets(x, y) {
                let (nx, ny) = (x as i64 + dx as i64, y as i64 + dy as i64);
                if nx >= 0 && ny >= 0 {
                    out.extend(self.node(nx as u32, ny as u32));
                }
            }
        }
        self.refresh_costs();
        out.sort_unstable();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Neighbourhood is symmetric and each neighbour's centre is exactly `pitch` away.
    #[test]
    fn neighbours_are_symmetric_and_one_pitch_apart() {
        let grid = Grid::new(9, 7, crate::map::Cell::FREE);
        for o in [HexOrientation::Flat, HexOrientation::Pointy] {
            let sp = HexSpace::new(&grid, o, 2.5, TerrainRule::Class);
            for n in 0..sp.num_nodes() as NodeId {
                let (x, y) = sp.xy(n);
                let (cx, cy) = o.centre(x, y, 2.5);
                for (m, c) in sp.neighbours(n) {
                    assert!(sp.neighbours(m).any(|(k, _)| k == n), "{o:?} {n} {m}");
                    let (mx, my) = sp.xy(m);
                    let (ax, ay) = o.centre(mx, my, 2.5);
                    let d = ((ax - cx).powi(2) + (ay - cy).powi(2)).sqrt();
                    assert!((d - 2.5).abs() < 1e-9 && c == 2.5, "{o:?} {n} {m} {d}");
                    assert_eq!(o.distance((x, y), (mx, my)), 1);
                }
                let inner = x > 0 && y > 0 && x + 1 < 9 && y + 1 < 7;
                assert!(!inner || sp.neighbours(n).count() == 6);
                // Each hex contains its own centre.
                assert_eq!(o.hex_at(cx, cy, 2.5, 9, 7), Some((x, y)));
            }
        }
    }

    /// Hex distance equals the BFS step count on an open map.
    #[test]
    fn hex_distance_is_exact_on_an_open_map() {
        let grid = Grid::new(8, 6, crate::map::Cell::FREE);
        for o in [HexOrientation::Flat, HexOrientation::Pointy] {
            let sp = HexSpace::new(&grid, o, 1.0, TerrainRule::Class);
            let mut dist = vec![u64::MAX; sp.num_nodes()];
            let mut queue = std::collections::VecDeque::from([0]);
            dist[0] = 0;
            while let Some(n) = queue.pop_front() {
                for (m, _) in sp.neighbours(n) {
                    if dist[m as usize] == u64::MAX {
                        dist[m as usize] = dist[n as usize] + 1;
                        queue.push_back(m);
                    }
                }
            }
            for n in 0..sp.num_nodes() as NodeId {
                assert_eq!(o.distance(sp.xy(n), (0, 0)), dist[n as usize], "{o:?} {n}");
            }
        }
    }
}

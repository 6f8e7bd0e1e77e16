//! Square grids as search graphs: 4- or 8-connected, octile costs, no corner cutting.

use super::{CellWorld, Heuristic, NodeId, Space, SpaceKind};
use crate::map::{Connectivity, Grid, Rect, TerrainRule};

/// Moves by direction: N, E, S, W, then NE, SE, SW, NW (the order of a cell's move bits).
pub const DIRS: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];
const LENGTH: [f64; 8] = [
    1.0,
    1.0,
    1.0,
    1.0,
    std::f64::consts::SQRT_2,
    std::f64::consts::SQRT_2,
    std::f64::consts::SQRT_2,
    std::f64::consts::SQRT_2,
];

/// A square grid as a graph. Node id = y · width + x.
///
/// Each cell keeps a byte with one bit per allowed move, computed from its 3×3 neighbourhood
/// when the space is built or edited; expanding a node is then a loop over set bits with no
/// bounds or terrain checks (this is where most of A*'s time goes).
#[derive(Clone, Debug)]
pub struct GridSpace {
    width: u32,
    height: u32,
    moves: Vec<u8>,
    classes: Vec<u8>,
    costs: Vec<f32>,
    uniform_cost: bool,
    min_cost: f64,
    offsets: [isize; 8],
    /// ⌊2⁶⁴ / width⌋ + 1: y = (n · this) >> 64 exactly for every node id, without a division
    /// (the heuristic needs x and y of each generated node).
    div_width: u128,
    connectivity: Connectivity,
    rule: TerrainRule,
    /// Changes with every edit, and is never the same for two graphs that differ: what
    /// prepared data built on this graph is checked against.
    revision: u64,
}

impl GridSpace {
    /// The graph of `grid` under the given rules.
    pub fn new(grid: &Grid, connectivity: Connectivity, rule: TerrainRule) -> GridSpace {
        let w = grid.width() as isize;
        let mut offsets = [0isize; 8];
        for (o, (dx, dy)) in offsets.iter_mut().zip(DIRS) {
            *o = dy as isize * w + dx as isize;
        }
        let mut s = GridSpace {
            width: grid.width(),
            height: grid.height(),
            moves: vec![0; grid.tiles().len()],
            classes: grid.tiles().iter().map(|&t| rule.class(t)).collect(),
            costs: grid.costs().to_vec(),
            uniform_cost: true,
            min_cost: 1.0,
            offsets,
            div_width: (1u128 << 64) / grid.width().max(1) as u128 + 1,
            connectivity,
            rule,
            revision: super::next_revision(),
        };
        s.refresh_costs();
        for y in 0..s.height {
            for x in 0..s.width {
                s.compute_moves(x, y);
            }
        }
        s
    }

    /// The default graph: 8-connected, class rule.
    pub fn octile(grid: &Grid) -> GridSpace {
        GridSpace::new(grid, Connectivity::Eight, TerrainRule::Class)
    }

    /// The graph of a map written as rows of MovingAI characters (`.` ground, `@` wall, ...):
    /// small worlds for examples and tests, with these rules.
    pub fn from_rows(rows: &[&str], connectivity: Connectivity, rule: TerrainRule) -> GridSpace {
        GridSpace::new(&Grid::from_rows(rows), connectivity, rule)
    }

    fn refresh_costs(&mut self) {
        self.revision = super::next_revision();
        self.uniform_cost = self.costs.iter().all(|&c| c == 1.0);
        // Every edge costs at least its length times the cheapest cell, so scaling the heuristic
        // by that keeps it admissible.
        let min = self.costs.iter().copied().fold(f32::INFINITY, f32::min);
        self.min_cost = if min.is_finite() { min as f64 } else { 1.0 };
    }

    #[inline]
    fn class_at(&self, x: i64, y: i64) -> u8 {
        if x >= 0 && y >= 0 && x < self.width as i64 && y < self.height as i64 {
            self.classes[y as usize * self.width as usize + x as usize]
        } else {
            0
        }
    }

    fn compute_moves(&mut self, x: u32, y: u32) {
        let (xi, yi) = (x as i64, y as i64);
        let c = self.class_at(xi, yi);
        let mut m = 0u8;
        if c != 0 {
            let ndirs = if self.connectivity == Connectivity::Eight {
                8
            } else {
                4
            };
            for (d, (dx, dy)) in DIRS.iter().enumerate().take(ndirs) {
                let (dx, dy) = (*dx as i64, *dy as i64);
                let ok = self.class_at(xi + dx, yi + dy) == c
                    && (d < 4
                        || (self.class_at(xi + dx, yi) == c && self.class_at(xi, yi + dy) == c));
                if ok {
                    m |= 1 << d;
                }
            }
        }
        let i = y as usize * self.width as usize + x as usize;
        self.moves[i] = m;
    }

    /// Brings the graph up to date after `grid` changed inside `rect` (`None`: anywhere, or the
    /// size changed). Moves depend on the 3×3 neighbourhood, so a one-cell margin is refreshed.
    pub fn update(&mut self, grid: &Grid, rect: Option<Rect>) {
        let Some(r) = rect.filter(|_| grid.width() == self.width && grid.height() == self.height)
        else {
            *self = GridSpace::new(grid, self.connectivity, self.rule);
            return;
        };
        for y in r.y..(r.y + r.h).min(self.height) {
            for x in r.x..(r.x + r.w).min(self.width) {
                let i = grid.index(x, y);
                self.classes[i] = self.rule.class(grid.tiles()[i]);
                self.costs[i] = grid.costs()[i];
            }
        }
        self.refresh_costs();
        let x0 = r.x.saturating_sub(1);
        let y0 = r.y.saturating_sub(1);
        let x1 = (r.x + r.w + 1).min(self.width);
        let y1 = (r.y + r.h + 1).min(self.height);
        for y in y0..y1 {
            for x in x0..x1 {
                self.compute_moves(x, y);
            }
        }
    }

    /// Every node whose edges may change when cells inside `rect` change: the rectangle and a
    /// one-cell margin (what incremental searches are told after an edit). On a 4-connected grid
    /// the margin's corners are left out: no edge of theirs touches the rectangle.
    pub fn around(&self, rect: Rect) -> Vec<NodeId> {
        let mut out = vec![];
        self.around_into(rect, &mut out);
        out
    }

    /// [`GridSpace::around`], appended to `out` (no allocation per changed cell).
    pub fn around_into(&self, rect: Rect, out: &mut Vec<NodeId>) {
        let x0 = rect.x.saturating_sub(1);
        let y0 = rect.y.saturating_sub(1);
        let x1 = (rect.x + rect.w + 1).min(self.width);
        let y1 = (rect.y + rect.h + 1).min(self.height);
        let cross = self.connectivity == Connectivity::Four;
        for y in y0..y1 {
            for x in x0..x1 {
                let outside_x = x < rect.x || x >= rect.x + rect.w;
                let outside_y = y < rect.y || y >= rect.y + rect.h;
                if cross && outside_x && outside_y {
                    continue;
                }
                out.extend(self.node(x, y));
            }
        }
    }

    /// Updates single cells changed in `grid` (scattered changes, where the bounding rectangle
    /// of [`GridSpace::update`] would cover the whole map).
    pub fn update_cells(&mut self, grid: &Grid, cells: &[(u32, u32)]) {
        if grid.width() != self.width || grid.height() != self.height {
            *self = GridSpace::new(grid, self.connectivity, self.rule);
            return;
        }
        for &(x, y) in cells {
            let i = grid.index(x, y);
            self.classes[i] = self.rule.class(grid.tiles()[i]);
            self.costs[i] = grid.costs()[i];
        }
        self.refresh_costs();
        for &(x, y) in cells {
            for yy in y.saturating_sub(1)..(y + 2).min(self.height) {
                for xx in x.saturating_sub(1)..(x + 2).min(self.width) {
                    self.compute_moves(xx, yy);
                }
            }
        }
    }

    /// `Native` as this grid's own metric; hex distance means nothing here, so it reads the same.
    #[inline(always)]
    fn resolve(&self, h: Heuristic) -> Heuristic {
        match h {
            Heuristic::Native | Heuristic::Hex => self.native_heuristic(),
            h => h,
        }
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The rules this graph was built with.
    pub fn rules(&self) -> (Connectivity, TerrainRule) {
        (self.connectivity, self.rule)
    }

    /// The node at (x, y), if inside the grid.
    #[inline]
    pub fn node(&self, x: u32, y: u32) -> Option<NodeId> {
        (x < self.width && y < self.height).then(|| y * self.width + x)
    }

    /// (x, y) of a node.
    #[inline(always)]
    pub fn xy(&self, n: NodeId) -> (u32, u32) {
        let y = ((n as u128 * self.div_width) >> 64) as u32;
        (n - y * self.width, y)
    }

    /// The terrain class of node `n` (0: impassable): moves join cells of one class.
    #[inline(always)]
    pub fn class_of(&self, n: NodeId) -> u8 {
        self.classes[n as usize]
    }

    /// What crossing node `n`'s cell costs per unit length (1 on plain ground).
    #[inline]
    pub fn cell_cost(&self, n: NodeId) -> f32 {
        self.costs[n as usize]
    }

    /// The move bits of node `n` (bit d: direction d of N, E, S, W, NE, SE, SW, NW is allowed).
    pub fn moves(&self, n: NodeId) -> u8 {
        self.moves[n as usize]
    }
}

impl Space for GridSpace {
    fn kind(&self) -> SpaceKind {
        SpaceKind::Square
    }

    fn uniform_costs(&self) -> bool {
        self.uniform_cost
    }

    fn edges_cost_their_length(&self) -> bool {
        self.uniform_cost
    }

    fn revision(&self) -> u64 {
        self.revision
    }

    fn num_nodes(&self) -> usize {
        self.moves.len()
    }

    fn is_passable(&self, n: NodeId) -> bool {
        self.classes.get(n as usize).is_some_and(|&c| c != 0)
    }

    #[inline(always)]
    fn neighbours(&self, n: NodeId) -> impl Iterator<Item = (NodeId, f64)> + '_ {
        Neighbours {
            space: self,
            n,
            moves: self.moves[n as usize],
            // Half of each cell's cost: symmetric, so the graph stays undirected.
            half_cost: (!self.uniform_cost).then(|| 0.5 * self.costs[n as usize] as f64),
        }
    }

    fn native_heuristic(&self) -> Heuristic {
        match self.connectivity {
            Connectivity::Four => Heuristic::Manhattan,
            Connectivity::Eight => Heuristic::Octile,
        }
    }

    fn heuristics(&self) -> &'static [Heuristic] {
        match self.connectivity {
            Connectivity::Four => &[
                Heuristic::Native,
                Heuristic::Manhattan,
                Heuristic::Octile,
                Heuristic::Euclidean,
                Heuristic::Zero,
            ],
            // Manhattan overestimates a diagonal move; it stays selectable, as PathFinding.js
            // offers it, and the registry's guarantee says what it costs.
            Connectivity::Eight => &[
                Heuristic::Native,
                Heuristic::Octile,
                Heuristic::Manhattan,
                Heuristic::Euclidean,
                Heuristic::Zero,
            ],
        }
    }

    #[inline(always)]
    fn heuristic(&self, h: Heuristic, a: NodeId, b: NodeId) -> f64 {
        let h = self.resolve(h);
        let (ax, ay) = self.xy(a);
        let (bx, by) = self.xy(b);
        let dx = (ax as f64 - bx as f64).abs();
        let dy = (ay as f64 - by as f64).abs();
        self.min_cost * h.of_deltas_2d(dx, dy)
    }

    fn heuristic_to(&self, h: Heuristic, goal: NodeId) -> impl Fn(NodeId) -> f64 + '_ {
        let h = self.resolve(h);
        let (gx, gy) = self.xy(goal);
        let (gx, gy, scale) = (gx as f64, gy as f64, self.min_cost);
        move |n| {
            let (x, y) = self.xy(n);
            scale * h.of_deltas_2d((x as f64 - gx).abs(), (y as f64 - gy).abs())
        }
    }

    fn position(&self, n: NodeId) -> [f32; 3] {
        let (x, y) = self.xy(n);
        [x as f32 + 0.5, y as f32 + 0.5, 0.0]
    }

    /// Free when every cell the segment touches is passable at cost 1 (a segment over dearer
    /// terrain would not cost its length), corners and edges it passes exactly included.
    fn has_line_of_sight(&self) -> bool {
        true
    }

    fn line_of_sight(&self, a: NodeId, b: NodeId) -> Option<bool> {
        let ((ax, ay), (bx, by)) = (self.xy(a), self.xy(b));
        let (w, h) = (self.width as i64, self.height as i64);
        Some(super::los::segment_free(
            [ax as i64, ay as i64, 0],
            [bx as i64, by as i64, 0],
            |x, y, _| {
                if x < 0 || y < 0 || x >= w || y >= h {
                    return true;
                }
                let i = (y * w + x) as usize;
                self.classes[i] == 0 || self.costs[i] != 1.0
            },
        ))
    }

    fn max_degree(&self) -> usize {
        match self.connectivity {
            Connectivity::Four => 4,
            Connectivity::Eight => 8,
        }
    }
}

impl CellWorld for GridSpace {
    fn apply_cells(&mut self, grid: &Grid, cells: &[(u32, u32)]) -> Vec<NodeId> {
        self.update_cells(grid, cells);
        let mut out = vec![];
        for &(x, y) in cells {
            self.around_into(Rect { x, y, w: 1, h: 1 }, &mut out);
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The edges out of one cell: its move bitmask, lowest direction first.
struct Neighbours<'a> {
    space: &'a GridSpace,
    n: NodeId,
    moves: u8,
    /// Half the cell's own cost, or `None` on a uniform-cost grid.
    half_cost: Option<f64>,
}

impl Iterator for Neighbours<'_> {
    type Item = (NodeId, f64);

    #[inline(always)]
    fn next(&mut self) -> Option<(NodeId, f64)> {
        if self.moves == 0 {
            return None;
        }
        let d = self.moves.trailing_zeros() as usize;
        self.moves &= self.moves - 1;
        let t = (self.n as isize + self.space.offsets[d]) as NodeId;
        let cost = match self.half_cost {
            None => LENGTH[d],
            Some(h) => LENGTH[d] * (h + 0.5 * self.space.costs[t as usize] as f64),
        };
        Some((t, cost))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbours(s: &GridSpace, x: u32, y: u32) -> Vec<((u32, u32), f64)> {
        let mut v = vec![];
        s.for_each_neighbour(s.node(x, y).unwrap(), |m, c| v.push((s.xy(m), c)));
        v.sort_by_key(|a| a.0);
        v
    }

    #[test]
    fn no_corner_cutting_and_class_rule() {
        let g = Grid::from_rows(&["...", ".@.", "..W", "SWW"]);
        let s = GridSpace::octile(&g);
        let n: Vec<_> = neighbours(&s, 0, 0).into_iter().map(|x| x.0).collect();
        assert_eq!(n, [(0, 1), (1, 0)], "the diagonal past the wall is cut");
        let n: Vec<_> = neighbours(&s, 0, 2).into_iter().map(|x| x.0).collect();
        assert_eq!(
            n,
            [(0, 1), (0, 3), (1, 2)],
            "swamp connects to ground; water does not"
        );
        let n: Vec<_> = neighbours(&s, 2, 3).into_iter().map(|x| x.0).collect();
        assert_eq!(n, [(1, 3), (2, 2)], "water connects only to water");
        let d = neighbours(&s, 1, 2);
        assert!(
            !d.iter().any(|&(p, _)| p == (0, 3)),
            "no diagonal past a water corner"
        );
        let open = GridSpace::octile(&Grid::from_rows(&["..", ".."]));
        let d = neighbours(&open, 0, 0);
        assert!(d
            .iter()
            .any(|&(p, c)| p == (1, 1) && (c - 2f64.sqrt()).abs() < 1e-12));
        let s = GridSpace::new(&g, Connectivity::Eight, TerrainRule::GroundOnly);
        assert!(!s.is_passable(s.node(0, 3).unwrap()));
        let s = GridSpace::new(&g, Connectivity::Four, TerrainRule::Class);
        assert_eq!(neighbours(&s, 1, 2).len(), 1);
    }

    #[test]
    fn xy_without_division_is_exact() {
        for w in [1u32, 2, 3, 7, 64, 255, 1000, 1024, 4093, 32768] {
            let s = GridSpace::octile(&Grid::new(w, 3, crate::map::Cell::FREE));
            let h = (u32::MAX / w).min(1 << 20);
            for y in (0..h).step_by(97).chain([h - 1]) {
                for x in [0, w / 2, w - 1] {
                    assert_eq!(s.xy(y * w + x), (x, y), "w {w}");
                }
            }
        }
    }

    #[test]
    fn update_matches_rebuild() {
        use crate::map::{Cell, Edit};
        let mut g = Grid::from_rows(&["....", "....", "...."]);
        let mut s = GridSpace::octile(&g);
        for (x, y) in [(1, 1), (3, 0), (0, 2)] {
            let a = Edit::SetCell {
                x,
                y,
                cell: Cell::WALL,
            }
            .apply(&mut g)
            .unwrap();
            s.update(&g, a.changed);
            let fresh = GridSpace::octile(&g);
            assert_eq!(s.moves, fresh.moves);
        }
        let a = Edit::SetCell {
            x: 2,
            y: 2,
            cell: Cell {
                tile: b'.',
                cost: 4.0,
            },
        }
        .apply(&mut g)
        .unwrap();
        s.update(&g, a.changed);
        let c: Vec<_> = neighbours(&s, 2, 1)
            .into_iter()
            .filter(|x| x.0 == (2, 2))
            .collect();
        assert!((c[0].1 - 2.5).abs() < 1e-12);
    }

    /// Every free cell of a generated map reachable from the first one (4-connected, so
    /// diagonals cannot help): the generators' rooms and mazes are one component.
    fn connected(g: &Grid) -> bool {
        use crate::search::{Bfs, Query, Search, Status};
        let sp = GridSpace::new(g, Connectivity::Four, TerrainRule::Class);
        let free: Vec<u32> = (0..g.tiles().len() as u32)
            .filter(|&i| g.tiles()[i as usize] == b'.')
            .collect();
        let first = Query {
            start: free[0],
            goal: free[0],
        };
        let mut bfs = Bfs::new(&sp, first);
        free.iter().all(|&t| {
            Search::reset(&mut bfs, &sp, Query { goal: t, ..first });
            bfs.run(&sp, &mut crate::trace::NullTracer) == Status::Found
        }) && sp.is_passable(free[0])
    }

    #[test]
    fn generated_rooms_and_mazes_are_connected() {
        use crate::map::Generator;
        for seed in 0..5 {
            assert!(connected(
                &Generator::Rooms { room: 6 }.generate(33, 27, seed)
            ));
            assert!(connected(
                &Generator::Maze { corridor: 1 }.generate(31, 21, seed)
            ));
            assert!(connected(
                &Generator::Maze { corridor: 3 }.generate(40, 30, seed)
            ));
        }
    }
}

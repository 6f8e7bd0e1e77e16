//! Voxel worlds as search graphs: 6-, 18- or 26-connected, moves costing 1, √2 and √3, a
//! diagonal allowed only when every voxel of its bounding box is free (the Warframe rule: no
//! corner or edge cutting).
//!
//! Terrain: where the world has costs, a move costs its length times the mean of its two
//! voxels' costs, and the heuristics are scaled by the lowest cost.
//!
//! Node state: the world is one bit a voxel; a best-first search keeps 17 bytes and a bit per
//! voxel it reaches (mark, g, parent, heap position, closed), over the whole box on worlds up
//! to 2²⁵ voxels and in segments of 64 voxels handed out as a query reaches them above that
//! (see `search::NodeTable`), so a query on A1 (89M voxels) holds at most about 1.5 GB. Line of
//! sight, once asked in a world of more than 2²⁴ voxels, adds a byte a voxel: each voxel's
//! clearance, which lets a segment's walk jump across open space.
//! Expanding a voxel reads its 3 × 3 × 3 neighbourhood into a 27-bit mask once, and three
//! shifts and ANDs of that mask find every move whose bounding box is free; the same erosion
//! seen from the voxel's parent finds the neighbours the parent offered, which a search may
//! leave out ([`Space::skip_mask`]). Neighbours come in the order of their offsets (z, then
//! y, then x, lowest first).

use super::{Heuristic, NodeId, NodeSet, Space, SpaceKind};
use crate::map::voxel::VoxelGrid;
use crate::map::VoxelMoves;
use crate::trace::NONE;

/// What a search may assume of each voxel world's moves.
impl VoxelMoves {
    /// The heuristics that never overestimate with these moves (Manhattan only without
    /// diagonals).
    pub fn heuristics(self) -> &'static [Heuristic] {
        match self {
            VoxelMoves::Six => &[
                Heuristic::Native,
                Heuristic::Manhattan,
                Heuristic::Octile,
                Heuristic::Euclidean,
                Heuristic::Zero,
            ],
            _ => &[
                Heuristic::Native,
                Heuristic::Octile,
                Heuristic::Euclidean,
                Heuristic::Zero,
            ],
        }
    }
}

/// One move: its offset and its cost.
#[derive(Clone, Copy, Debug)]
struct Move {
    d: [i8; 3],
    cost: f64,
}

/// Bit of neighbourhood voxel (dx, dy, dz) ∈ {-1, 0, 1}³.
const fn bit(dx: i32, dy: i32, dz: i32) -> u32 {
    1 << ((dz + 1) * 9 + (dy + 1) * 3 + (dx + 1))
}

/// The moves of `m`, faces first, then edges, then corners.
fn moves(m: VoxelMoves) -> Vec<Move> {
    let mut out = vec![];
    for axes in 1..=3 {
        if (m == VoxelMoves::Six && axes > 1) || (m == VoxelMoves::Eighteen && axes > 2) {
            break;
        }
        for dz in -1..=1i32 {
            for dy in -1..=1i32 {
                for dx in -1..=1i32 {
                    if (dx != 0) as i32 + (dy != 0) as i32 + (dz != 0) as i32 != axes {
                        continue;
                    }
                    out.push(Move {
                        d: [dx as i8, dy as i8, dz as i8],
                        cost: (axes as f64).sqrt(),
                    });
                }
            }
        }
    }
    out
}

/// A voxel world as a graph. Node id = (z · height + y) · width + x.
#[derive(Clone, Debug)]
pub struct VoxelSpace {
    grid: VoxelGrid,
    moves: Vec<Move>,
    kind: VoxelMoves,
    /// The lowest terrain cost (1 without terrain), which scales the heuristics.
    min_cost: f64,
    /// The move to each neighbourhood bit ([`bit`]), and the bits of the allowed moves.
    cube: Box<CubeMoves>,
    cube_moves: u32,
    /// Each voxel's clearance ([`VoxelGrid::clearance`]), made on the first line-of-sight
    /// question (a world searched without segments never pays for it) and updated by edits.
    clearance: Clearance,
    /// Worlds of more voxels than this make the clearance table ([`CLEARANCE_ABOVE`]).
    clearance_above: usize,
    /// Index offsets of the line-of-sight table's steps in this world (shared by clones).
    steps: std::sync::Arc<super::los_table::Steps>,
}

/// Worlds up to this many voxels walk their segments voxel by voxel: there segments are
/// short and the table does not pay for its making (Warframe's Complex, 7.8M voxels of rooms
/// and corridors: Theta* no faster, the table 30 ms to make; DC3 and A1, 67M and 89M voxels:
/// Theta* a quarter and a tenth faster). Smaller worlds also rebuilt each tick, as the moving
/// 3D scene's are, would pay for the table at every replan.
pub const CLEARANCE_ABOVE: usize = 1 << 24;

/// A lazily made clearance table, shared by clones (the app clones a world for each run and
/// each background build; an edit copies a shared table first); printed as its size only.
#[derive(Clone, Default)]
struct Clearance(std::sync::OnceLock<std::sync::Arc<Vec<u8>>>);

impl std::fmt::Debug for Clearance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.get() {
            Some(c) => write!(f, "Clearance({} voxels)", c.len()),
            None => write!(f, "Clearance(not made)"),
        }
    }
}

/// The blocked voxels of a grid, as a set.
struct Blocked<'g>(&'g VoxelGrid);

impl NodeSet for Blocked<'_> {
    #[inline(always)]
    fn three(&self, i: usize) -> u32 {
        self.0.three_at(i)
    }
    #[inline(always)]
    fn contains(&self, i: usize) -> bool {
        self.0.blocked_at(i)
    }
}

/// Node id offset and cost of the move to each neighbourhood bit (boxed: a space is moved by
/// value inside an enum of every kind of world).
#[derive(Clone, Debug)]
struct CubeMoves {
    offsets: [i64; 27],
    costs: [f64; 27],
}

/// The 27 neighbourhood bits.
const CUBE: u32 = (1 << 27) - 1;

/// Neighbourhood bits at coordinate -1 (`lo`) and +1 (`hi`) along x, y and z.
const fn layer_bits(axis: u32, at: i32) -> u32 {
    let mut out = 0;
    let mut b = 0;
    while b < 27 {
        let c = [b % 3, b / 3 % 3, b / 9][axis as usize] - 1;
        if c == at {
            out |= 1 << b;
        }
        b += 1;
    }
    out
}

/// Each bit of `v` ANDed with its neighbour one step toward the centre along an axis (`step`:
/// 1, 3 or 9); bits at the centre's coordinate stay as they are.
#[inline(always)]
fn toward_centre(v: u32, step: u32, lo: u32, hi: u32) -> u32 {
    v & ((v & !(lo | hi)) | ((v >> step) & lo) | ((v << step) & hi))
}

/// The neighbourhood bits whose whole box with the centre is free, given the free bits: three
/// erosions toward the centre, one per axis, instead of testing each move's box.
#[inline(always)]
fn free_boxes(free: u32) -> u32 {
    const AXES: [(u32, u32, u32); 3] = [
        (1, layer_bits(0, -1), layer_bits(0, 1)),
        (3, layer_bits(1, -1), layer_bits(1, 1)),
        (9, layer_bits(2, -1), layer_bits(2, 1)),
    ];
    let mut v = free;
    for (step, lo, hi) in AXES {
        v = toward_centre(v, step, lo, hi);
    }
    v
}

/// For each neighbourhood bit of an offset d: the positions e whose e + d is still in the
/// neighbourhood.
const SHIFT_KEEPS: [u32; 27] = {
    let mut out = [0; 27];
    let mut b = 0;
    while b < 27 {
        let d = [b as i32 % 3 - 1, b as i32 / 3 % 3 - 1, b as i32 / 9 - 1];
        let mut keep = CUBE;
        let mut axis = 0;
        while axis < 3 {
            // Moving by +1 along an axis pushes its +1 layer out; by -1, its -1 layer.
            if d[axis] != 0 {
                keep &= !layer_bits(axis as u32, d[axis]);
            }
            axis += 1;
        }
        out[b] = keep;
        b += 1;
    }
    out
};

/// The neighbourhood mask `v` seen from the voxel at offset -d, d the offset of bit `b`: bit
/// e + d of the result is bit e of `v` wherever e + d is in the neighbourhood, and the
/// positions no e lands on are 0.
#[inline(always)]
fn shift_by(v: u32, b: usize) -> u32 {
    let s = b as i32 - 13;
    let moved = if s >= 0 { v << s } else { v >> -s };
    moved & SHIFT_KEEPS[26 - b]
}

impl VoxelSpace {
    pub fn new(grid: VoxelGrid, kind: VoxelMoves) -> VoxelSpace {
        let [w, h, _] = grid.dims().map(|v| v as i64);
        let moves = moves(kind);
        let mut cube = Box::new(CubeMoves {
            offsets: [0; 27],
            costs: [0.0; 27],
        });
        let mut cube_moves = 0;
        for m in &moves {
            let [dx, dy, dz] = m.d.map(i64::from);
            let b = bit(dx as i32, dy as i32, dz as i32);
            let i = b.trailing_zeros() as usize;
            (cube.offsets[i], cube.costs[i]) = ((dz * h + dy) * w + dx, m.cost);
            cube_moves |= b;
        }
        let steps = std::sync::Arc::new(super::los_table::Steps::new(grid.dims()));
        VoxelSpace {
            cube,
            cube_moves,
            min_cost: grid.min_cost(),
            grid,
            moves,
            kind,
            clearance: Clearance::default(),
            clearance_above: CLEARANCE_ABOVE,
            steps,
        }
    }

    /// Makes the clearance table for worlds of more than `voxels` voxels (default
    /// [`CLEARANCE_ABOVE`]; 0: always), so tests can hold both walks to the same answers.
    pub fn with_clearance_above(mut self, voxels: usize) -> VoxelSpace {
        self.clearance_above = voxels;
        self
    }

    pub fn grid(&self) -> &VoxelGrid {
        &self.grid
    }

    pub fn moves_kind(&self) -> VoxelMoves {
        self.kind
    }

    /// Node of voxel (x, y, z), if inside.
    pub fn node(&self, x: u32, y: u32, z: u32) -> Option<NodeId> {
        self.grid
            .index(x as i64, y as i64, z as i64)
            .map(|i| i as NodeId)
    }

    /// Writes cells of a square map into layer `z` (blocked where impassable) and returns the
    /// nodes whose edges may have changed: each written voxel and its 26 neighbours.
    pub fn apply_layer_cells(
        &mut self,
        z: u32,
        layer: &crate::map::Grid,
        cells: &[(u32, u32)],
    ) -> Vec<NodeId> {
        let mut out = vec![];
        let (mut lo, mut hi) = ([u32::MAX, u32::MAX, z], [0, 0, z + 1]);
        for &(x, y) in cells {
            let Some(c) = layer.get(x, y) else { continue };
            let blocked = super::TerrainRule::Class.class(c.tile) == 0;
            if self.grid.index(x as i64, y as i64, z as i64).is_none() {
                continue;
            }
            self.grid.set(x, y, z, blocked);
            (lo[0], lo[1]) = (lo[0].min(x), lo[1].min(y));
            (hi[0], hi[1]) = (hi[0].max(x + 1), hi[1].max(y + 1));
            if self.grid.put_cost(x, y, z, c.cost).is_ok() {
                // Only ever lowered here, which keeps the heuristic admissible without a scan
                // of every voxel per edit.
                self.min_cost = self.min_cost.min(c.cost as f64);
            }
            for dz in -1..=1i64 {
                for dy in -1..=1i64 {
                    for dx in -1..=1i64 {
                        let i = self.grid.index(x as i64 + dx, y as i64 + dy, z as i64 + dz);
                        out.extend(i.map(|i| i as NodeId));
                    }
                }
            }
        }
        self.grid.settle_costs();
        // The clearance table, if made, follows the edit in a box around it.
        if let (Some(c), true) = (self.clearance.0.get_mut(), lo[0] < hi[0]) {
            self.grid
                .update_clearance(std::sync::Arc::make_mut(c).as_mut_slice(), lo, hi);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Voxel of node `n`.
    #[inline(always)]
    pub fn xyz(&self, n: NodeId) -> [u32; 3] {
        self.grid.coords(n as usize)
    }

    /// Blocked voxels around `n`, as the 27-bit mask of [`bit`] (outside the box is blocked).
    #[inline(always)]
    fn around(&self, n: NodeId) -> u32 {
        self.rows_around(n, &Blocked(&self.grid), 1)
    }

    /// The 27-bit mask of [`bit`] of the voxels around `n` in `set`, read nine rows of three
    /// at a time; positions outside the box read as `outside` (0 or 1). (A set, not closures:
    /// a closure called from the nine unrolled rows was compiled as a function of its own.)
    #[inline(always)]
    fn rows_around<K: NodeSet>(&self, n: NodeId, set: &K, outside: u32) -> u32 {
        let [x, y, z] = self.xyz(n);
        let [w, h, d] = self.grid.dims();
        let (row, layer) = (w as usize, (w * h) as usize);
        if x >= 1 && y >= 1 && z >= 1 && x + 1 < w && y + 1 < h && z + 1 < d {
            let i = n as usize;
            let mut occ = 0;
            for dz in 0..3 {
                for dy in 0..3 {
                    let c = i + dz * layer + dy * row - layer - row;
                    occ |= set.three(c) << (dz * 9 + dy * 3);
                }
            }
            return occ;
        }
        // On the box's faces: rows outside are all `outside`, and in a row inside, the ends
        // past the box's x range are (what was read there belongs to another row).
        let len = self.grid.len();
        let ends = (x == 0) as u32 | ((x + 1 == w) as u32) << 2;
        let mut occ = 0;
        for dz in 0..3 {
            for dy in 0..3 {
                let (yy, zz) = (y + dy, z + dz);
                let bits = if yy == 0 || zz == 0 || yy > h || zz > d {
                    7 * outside
                } else {
                    let c = (zz as usize - 1) * layer + (yy as usize - 1) * row + x as usize;
                    let read = if c >= 1 && c + 1 < len {
                        set.three(c)
                    } else {
                        // The first or last voxel of the whole box.
                        (0..3)
                            .filter(|&k| c + k >= 1 && c + k <= len)
                            .fold(0, |a, k| a | (set.contains(c + k - 1) as u32) << k)
                    };
                    (read & !ends) | (ends * outside)
                };
                occ |= bits << (dz * 9 + dy * 3);
            }
        }
        occ
    }
}

impl Space for VoxelSpace {
    fn kind(&self) -> SpaceKind {
        SpaceKind::Voxel
    }

    fn ties_deepest(&self) -> bool {
        true
    }

    fn uniform_costs(&self) -> bool {
        self.grid.costs().is_none()
    }

    fn edges_cost_their_length(&self) -> bool {
        self.grid.costs().is_none()
    }

    fn num_nodes(&self) -> usize {
        self.grid.len()
    }

    fn is_passable(&self, n: NodeId) -> bool {
        (n as usize) < self.grid.len() && !self.grid.blocked_at(n as usize)
    }

    #[inline(always)]
    fn neighbours(&self, n: NodeId) -> impl Iterator<Item = (NodeId, f64)> + '_ {
        self.neighbours_masked(n, 0)
    }

    /// Skipped voxels are read nine rows at a time like the blocked ones and left out by the
    /// same test: a best-first search on these worlds finds about 10 of a voxel's 24
    /// neighbours closed, and testing each in the node table cost a load and a branch that
    /// was often mispredicted.
    ///
    /// The low five bits name the offset from `from` to `n` (its bit plus one), and
    /// [`VoxelSpace::neighbours_masked`] leaves out every voxel `from` could move to itself:
    /// a move of 1, √2 or √3 is shorter than any two moves between its ends, by 0.58 at
    /// least, so `n` cannot better what `from` offered. On open ground that is most of the
    /// voxels left after the closed ones (each cost a load of its g and a compare); terrain
    /// breaks the inequality, so with terrain costs nothing more is left out.
    #[inline(always)]
    fn skip_mask<K: NodeSet>(&self, n: NodeId, from: NodeId, skip: &K) -> u64 {
        let closed = (self.rows_around(n, skip, 0) as u64) << 27;
        if from == NONE || self.grid.costs().is_some() {
            return closed;
        }
        let (a, b) = (self.xyz(n), self.xyz(from));
        let d = |k: usize| (a[k] as i64 - b[k] as i64 + 1) as u64;
        debug_assert!((0..3).all(|k| d(k) <= 2), "{from} is not next to {n}");
        closed | (d(2) * 9 + d(1) * 3 + d(0) + 1)
    }

    #[inline(always)]
    fn neighbours_masked(&self, n: NodeId, mask: u64) -> impl Iterator<Item = (NodeId, f64)> + '_ {
        // The centre is free: the search stands on it.
        let free = !self.around(n) & CUBE | bit(0, 0, 0);
        // Every move tested without a branch into one mask, then only the allowed ones are
        // visited: a filter's branch per move was mispredicted often on these maps.
        let mut allowed = free_boxes(free) & self.cube_moves & !(mask >> 27) as u32;
        if mask & 31 != 0 {
            // What `from` could move to, found from its own neighbourhood as seen from here
            // (every bounding box of two voxels next to both lies inside this one).
            let b = (mask & 31) as usize - 1;
            let theirs = free_boxes(shift_by(free, b)) & self.cube_moves;
            allowed &= !shift_by(theirs, 26 - b);
        }
        // Half of each voxel's cost: symmetric, so the graph stays undirected.
        let costs = self.grid.costs().map(|c| (c, 0.5 * c[n as usize] as f64));
        std::iter::from_fn(move || {
            if allowed == 0 {
                return None;
            }
            let i = allowed.trailing_zeros() as usize;
            allowed &= allowed - 1;
            let m = (n as i64 + self.cube.offsets[i]) as NodeId;
            let mut cost = self.cube.costs[i];
            if let Some((c, half)) = costs {
                cost *= half + 0.5 * c[m as usize] as f64;
            }
            Some((m, cost))
        })
    }

    fn skips_by_bits(&self) -> bool {
        true
    }

    fn native_heuristic(&self) -> Heuristic {
        match self.kind {
            VoxelMoves::Six => Heuristic::Manhattan,
            // 3D octile is exact with corner moves and a lower bound without them (a √3 move
            // stands for √2 + 1 at least).
            _ => Heuristic::Octile,
        }
    }

    fn heuristics(&self) -> &'static [Heuristic] {
        self.kind.heuristics()
    }

    fn heuristic(&self, h: Heuristic, a: NodeId, b: NodeId) -> f64 {
        self.heuristic_to(h, b)(a)
    }

    // Inlined, so that a search loop that fixes `h` (octile) gets the formula alone, without a
    // jump on the heuristic's kind for every generated voxel.
    #[inline(always)]
    fn heuristic_to(&self, h: Heuristic, goal: NodeId) -> impl Fn(NodeId) -> f64 + '_ {
        let h = match h {
            Heuristic::Native | Heuristic::Hex => self.native_heuristic(),
            h => h,
        };
        let g = self.xyz(goal);
        let scale = self.min_cost;
        move |n| {
            let p = self.xyz(n);
            let d = [0, 1, 2].map(|k| p[k].abs_diff(g[k]) as f64);
            // Without terrain the scale is exactly 1 and this multiply changes nothing.
            scale * h.of_deltas(d)
        }
    }

    fn position(&self, n: NodeId) -> [f32; 3] {
        self.xyz(n).map(|v| v as f32 + 0.5)
    }

    /// Free when every voxel the segment touches is free at cost 1 (a segment over dearer
    /// terrain would not cost its length), edges and corners it passes exactly included (so a
    /// single diagonal move's segment needs its whole bounding box).
    fn has_line_of_sight(&self) -> bool {
        true
    }

    #[inline]
    fn line_of_sight(&self, a: NodeId, b: NodeId) -> Option<bool> {
        let (p, q) = (self.xyz(a), self.xyz(b));
        let (p, q) = (p.map(|v| v as i64), q.map(|v| v as i64));
        let dims = self.grid.dims();
        // By index, without bounds checks (both ends are voxels of the world): a 3D Theta*
        // spends most of its time here. Walked from `b` (the walk is the same either way):
        // the any-angle searches ask from a far parent `a` to a node `b` next to a node `a`
        // sees, so a blocked segment is mostly blocked near `b`, and found in a few steps.
        // Within the table's reach, the cells are read from it (los_table.rs).
        let steps = &self.steps;
        let tabled = match self.grid.costs() {
            None => super::los_table::segment_free_tabled(q, p, dims, steps, |i| {
                self.grid.blocked_at(i)
            }),
            Some(_) => super::los_table::segment_free_tabled(q, p, dims, steps, |i| {
                self.grid.blocked_at(i) || self.grid.cost_at(i) != 1.0
            }),
        };
        if tabled.is_some() {
            return tabled;
        }
        Some(match self.grid.costs() {
            // Without terrain, in a large world, through the clearance table: across open
            // space a walk jumps.
            None if self.grid.len() > self.clearance_above => {
                let clear = self
                    .clearance
                    .0
                    .get_or_init(|| std::sync::Arc::new(self.grid.clearance()));
                super::los::segment_free_cleared(q, p, dims, clear)
            }
            None => super::los::segment_free_indexed(q, p, dims, |i| self.grid.blocked_at(i)),
            Some(_) => super::los::segment_free_indexed(q, p, dims, |i| {
                self.grid.blocked_at(i) || self.grid.cost_at(i) != 1.0
            }),
        })
    }

    fn max_degree(&self) -> usize {
        self.moves.len()
    }
}

#[cfg(test)]
#[path = "voxel_tests.rs"]
mod tests;

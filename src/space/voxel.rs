//! Voxel worlds as search graphs: 6-, 18- or 26-connected, moves costing 1, √2 and √3, a
//! diagonal allowed only when every voxel of its bounding box is free (the Warframe rule: no
//! corner or edge cutting).
//!
//! Terrain: where the world has costs, a move costs its length times the mean of its two
//! voxels' costs, and the heuristics are scaled by the lowest cost.
//!
//! Node state: the world is one bit a voxel; a best-first search keeps 17 bytes per voxel it
//! reaches (mark, g, parent, heap position), over the whole box on worlds up to 2²⁵ voxels
//! and in segments of 64 voxels handed out as a query reaches them above that (see
//! `search::NodeTable`), so a query on A1 (89M voxels) holds at most about 1.5 GB. Expanding a
//! voxel reads its 3 × 3 × 3 neighbourhood into a 27-bit mask once; each move is then one AND
//! against the mask of its bounding box.

use super::{Heuristic, NodeId, NodeSet, Space, SpaceKind};
use crate::map::voxel::VoxelGrid;
use serde::{Deserialize, Serialize};

/// Which moves a voxel world allows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum VoxelMoves {
    /// Across faces only (cost 1).
    Six,
    /// Across faces and edges (1, √2).
    Eighteen,
    /// Across faces, edges and corners (1, √2, √3): the Warframe benchmark's setting.
    #[default]
    TwentySix,
}

impl VoxelMoves {
    pub const ALL: [VoxelMoves; 3] = [VoxelMoves::Six, VoxelMoves::Eighteen, VoxelMoves::TwentySix];

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

    /// Reads "6", "18" or "26".
    pub fn from_name(s: &str) -> Option<VoxelMoves> {
        VoxelMoves::ALL.into_iter().find(|m| m.name() == s)
    }

    pub fn name(self) -> &'static str {
        match self {
            VoxelMoves::Six => "6",
            VoxelMoves::Eighteen => "18",
            VoxelMoves::TwentySix => "26",
        }
    }
}

/// One move: its offset, its cost, and what it needs: the neighbourhood bits its bounding box
/// covers (free), and 27 places up its target's bit (not skipped). The move is allowed when no
/// bit of `needs` is set in (blocked | skipped << 27) around the voxel.
#[derive(Clone, Copy, Debug)]
struct Move {
    d: [i8; 3],
    cost: f64,
    needs: u64,
}

/// Bit of neighbourhood voxel (dx, dy, dz) ∈ {-1, 0, 1}³.
const fn bit(dx: i32, dy: i32, dz: i32) -> u32 {
    1 << ((dz + 1) * 9 + (dy + 1) * 3 + (dx + 1))
}

/// The moves of `m`, faces first, then edges, then corners, each group in a fixed order.
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
                    // The bounding box: every voxel whose offsets lie between 0 and the move's.
                    let mut needs = 0;
                    for bz in [0, dz] {
                        for by in [0, dy] {
                            for bx in [0, dx] {
                                if (bx, by, bz) != (0, 0, 0) {
                                    needs |= bit(bx, by, bz);
                                }
                            }
                        }
                    }
                    out.push(Move {
                        d: [dx as i8, dy as i8, dz as i8],
                        cost: (axes as f64).sqrt(),
                        needs: needs as u64 | (bit(dx, dy, dz) as u64) << 27,
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
    /// Node id offset of each move.
    offsets: Vec<i64>,
    /// The lowest terrain cost (1 without terrain), which scales the heuristics.
    min_cost: f64,
}

impl VoxelSpace {
    pub fn new(grid: VoxelGrid, kind: VoxelMoves) -> VoxelSpace {
        let [w, h, _] = grid.dims().map(|v| v as i64);
        let moves = moves(kind);
        let offsets = moves
            .iter()
            .map(|m| (m.d[2] as i64 * h + m.d[1] as i64) * w + m.d[0] as i64)
            .collect();
        VoxelSpace {
            min_cost: grid.min_cost(),
            grid,
            moves,
            kind,
            offsets,
        }
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
        for &(x, y) in cells {
            let Some(c) = layer.get(x, y) else { continue };
            let blocked = super::TerrainRule::Class.class(c.tile) == 0;
            if self.grid.index(x as i64, y as i64, z as i64).is_none() {
                continue;
            }
            self.grid.set(x, y, z, blocked);
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
    /// Inside the box each row of three is read at once from the bits (nine reads, not 27).
    #[inline(always)]
    fn around(&self, n: NodeId) -> u32 {
        self.rows_around(
            n,
            |c| self.grid.three_at(c),
            |x, y, z| self.grid.is_blocked(x, y, z),
        )
    }

    /// The 27-bit mask of the voxels around `n` for which `inside` holds: `three(i)` tells it
    /// for voxels i - 1, i and i + 1 when all of the 3 × 3 × 3 lie inside the box, `one(x, y, z)`
    /// for any voxel (also outside) otherwise.
    #[inline(always)]
    fn rows_around(
        &self,
        n: NodeId,
        three: impl Fn(usize) -> u32,
        one: impl Fn(i64, i64, i64) -> bool,
    ) -> u32 {
        let [x, y, z] = self.xyz(n);
        let [w, h, d] = self.grid.dims();
        if x >= 1 && y >= 1 && z >= 1 && x + 1 < w && y + 1 < h && z + 1 < d {
            let (row, layer) = (w as usize, (w * h) as usize);
            let i = n as usize;
            let mut occ = 0;
            for dz in 0..3 {
                for dy in 0..3 {
                    let c = i + dz * layer + dy * row - layer - row;
                    occ |= three(c) << (dz * 9 + dy * 3);
                }
            }
            return occ;
        }
        let [x, y, z] = [x, y, z].map(|v| v as i64);
        let mut occ = 0;
        for dz in -1..=1 {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if one(x + dx, y + dy, z + dz) {
                        occ |= bit(dx as i32, dy as i32, dz as i32);
                    }
                }
            }
        }
        occ
    }
}

impl Space for VoxelSpace {
    fn kind(&self) -> SpaceKind {
        SpaceKind::Voxel
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
    #[inline(always)]
    fn skip_mask<K: NodeSet>(&self, n: NodeId, skip: &K) -> u64 {
        let inside = |x, y, z| self.grid.index(x, y, z).is_some_and(|i| skip.contains(i));
        (self.rows_around(n, |c| skip.three(c), inside) as u64) << 27
    }

    #[inline(always)]
    fn neighbours_masked(&self, n: NodeId, mask: u64) -> impl Iterator<Item = (NodeId, f64)> + '_ {
        let occ = self.around(n) as u64 | mask;
        // Every move tested without a branch into one mask, then only the allowed ones are
        // visited: a filter's branch per move was mispredicted often on these maps.
        let mut allowed = 0u32;
        for (i, m) in self.moves.iter().enumerate() {
            allowed |= ((occ & m.needs == 0) as u32) << i;
        }
        // Half of each voxel's cost: symmetric, so the graph stays undirected.
        let costs = self.grid.costs().map(|c| (c, 0.5 * c[n as usize] as f64));
        std::iter::from_fn(move || {
            if allowed == 0 {
                return None;
            }
            let i = allowed.trailing_zeros() as usize;
            allowed &= allowed - 1;
            let m = (n as i64 + self.offsets[i]) as NodeId;
            let mut cost = self.moves[i].cost;
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

    fn heuristic_to(&self, h: Heuristic, goal: NodeId) -> impl Fn(NodeId) -> f64 + '_ {
        let h = match h {
            Heuristic::Native | Heuristic::Hex => self.native_heuristic(),
            h => h,
        };
        let g = self.xyz(goal).map(|v| v as f64);
        let scale = self.min_cost;
        move |n| {
            let p = self.xyz(n).map(|v| v as f64);
            let d = [
                (p[0] - g[0]).abs(),
                (p[1] - g[1]).abs(),
                (p[2] - g[2]).abs(),
            ];
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
    fn line_of_sight(&self, a: NodeId, b: NodeId) -> Option<bool> {
        let (p, q) = (self.xyz(a), self.xyz(b));
        Some(super::los::segment_free(
            p.map(|v| v as i64),
            q.map(|v| v as i64),
            |x, y, z| {
                self.grid.is_blocked(x, y, z)
                    || self.grid.costs().is_some_and(|_| {
                        let i = self.grid.index(x, y, z).expect("inside: not blocked");
                        self.grid.cost_at(i) != 1.0
                    })
            },
        ))
    }

    fn max_degree(&self) -> usize {
        self.moves.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_the_bounding_box_rule() {
        assert_eq!(moves(VoxelMoves::Six).len(), 6);
        assert_eq!(moves(VoxelMoves::Eighteen).len(), 18);
        assert_eq!(moves(VoxelMoves::TwentySix).len(), 26);
        // A corner move needs all 7 other voxels of its 2×2×2 box free, an edge move 3, and
        // each its target not skipped.
        for m in moves(VoxelMoves::TwentySix) {
            let axes = m.d.iter().filter(|&&v| v != 0).count();
            assert_eq!(m.needs.count_ones(), [0, 1, 3, 7][axes] + 1, "{m:?}");
        }
        let mut g = VoxelGrid::new(3, 3, 3).unwrap();
        let open = VoxelSpace::new(g.clone(), VoxelMoves::TwentySix);
        let centre = open.node(1, 1, 1).unwrap();
        assert_eq!(open.neighbours(centre).count(), 26);
        // One blocked voxel beside the centre removes every move whose box holds it: the face
        // move itself, 4 edge moves and 4 corner moves.
        g.set(2, 1, 1, true);
        let sp = VoxelSpace::new(g, VoxelMoves::TwentySix);
        assert_eq!(sp.neighbours(centre).count(), 26 - 9);
        // A corner voxel of the box has only outward moves blocked by the outside.
        let c = sp.node(0, 0, 0).unwrap();
        assert!(sp
            .neighbours(c)
            .all(|(m, _)| sp.xyz(m).iter().all(|&v| v <= 1)));
    }

    /// A set of voxels as one bool each, read the plain way.
    struct Set(Vec<bool>);

    impl NodeSet for Set {
        fn three(&self, i: usize) -> u32 {
            (0..3).map(|k| (self.0[i + k - 1] as u32) << k).sum()
        }
        fn contains(&self, i: usize) -> bool {
            self.0[i]
        }
    }

    /// Leaving out a set's voxels through the mask gives every neighbour outside the set, with
    /// its cost, in order, for voxels inside the box and on its faces, edges and corners.
    #[test]
    fn skipping_leaves_out_exactly_the_set() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        for round in 0..40 {
            let [w, h, d] = [5, 4, 6];
            let mut g = VoxelGrid::new(w, h, d).unwrap();
            for i in 0..g.len() {
                if rng.random_bool(0.2) {
                    let [x, y, z] = g.coords(i);
                    g.set(x, y, z, true);
                }
            }
            let moves = VoxelMoves::ALL[round % 3];
            let sp = VoxelSpace::new(g, moves);
            let set = Set((0..sp.num_nodes()).map(|_| rng.random_bool(0.4)).collect());
            for n in 0..sp.num_nodes() as NodeId {
                let want: Vec<_> = sp
                    .neighbours(n)
                    .filter(|&(m, _)| !set.0[m as usize])
                    .collect();
                let got: Vec<_> = sp.neighbours_masked(n, sp.skip_mask(n, &set)).collect();
                assert_eq!(got, want, "round {round}, voxel {:?}", sp.xyz(n));
            }
        }
    }
}

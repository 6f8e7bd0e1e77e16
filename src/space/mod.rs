//! How a world becomes a search graph. Algorithms see only this trait, so grids, hexes, voxels,
//! meshes and hierarchy levels all drop in behind it; the rules
//! they apply (moves, terrain, hex orientation) are named in `map/`, with the files that store them.

mod grid;
mod heuristic;
mod hex;
pub mod los;
pub mod los_table;
mod navmesh;
mod vehicle;
mod voxel;

// The rules and the cognitive map live with the map, below the spaces that search by them.
pub use crate::map::knowledge;
pub use crate::map::{CognitiveMap, Connectivity, HexOrientation, TerrainRule, VoxelMoves};
pub use grid::{GridSpace, DIRS};
pub use heuristic::Heuristic;
pub use hex::{lattice_centre as hex_lattice_centre, HexSpace};
pub use navmesh::{dist as plane_distance, NavmeshSpace, Portal, NO_POLYGON};
pub use vehicle::VehicleSpace;
pub use voxel::VoxelSpace;

use serde::{Deserialize, Serialize};

/// A node of a space: a dense index, so per-node search state lives in flat vectors.
pub type NodeId = u32;

/// Generates [`SpaceKind`] from the family list ([`crate::for_each_family`]).
macro_rules! declare_space_kind {
    ( ; $($v:ident $({ $($pf:ident : $pt:ty),* })? / $f:ident : $world:ty => $space:ty, $name:literal, $title:literal;)*) => {
        /// The world families; the registry says which ones each algorithm accepts.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum SpaceKind {
            $($v,)*
        }

        impl SpaceKind {
            /// Every family, in the list's order.
            pub const ALL: &'static [SpaceKind] = &[$(SpaceKind::$v),*];

            /// Name on the command line and in files (`--world`).
            pub fn name(self) -> &'static str {
                match self {
                    $(SpaceKind::$v => $name,)*
                }
            }

            /// Name in messages ("square grids").
            pub fn title(self) -> &'static str {
                match self {
                    $(SpaceKind::$v => $title,)*
                }
            }
        }
    };
}

crate::for_each_family!(declare_space_kind);

/// A set of nodes that a space reads a row at a time (see [`Space::neighbours_except`]).
pub trait NodeSet {
    /// Whether nodes `i - 1`, `i` and `i + 1`, all three of them nodes, are in the set, as
    /// bits 0, 1 and 2.
    fn three(&self, i: usize) -> u32;
    /// Whether node `i` is in the set.
    fn contains(&self, i: usize) -> bool;
}

/// A fresh revision number, never handed out before in this process.
pub fn next_revision() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// A graph to search.
pub trait Space {
    /// The family this space belongs to.
    fn kind(&self) -> SpaceKind;

    /// Whether an edge n → m may exist without m → n at the same cost. Searches that walk
    /// edges backwards or repair around a change (D* Lite, AD*, RTD*) need undirected spaces.
    fn directed(&self) -> bool {
        false
    }

    /// Whether a node keeps its id across edits of the world (cells do; a navmesh rebuilt after
    /// an edit numbers its polygons anew): what searches that repair after a change need.
    fn stable_ids(&self) -> bool {
        true
    }

    /// Whether every move costs its length alone (no terrain costs): what jump point search
    /// needs.
    fn uniform_costs(&self) -> bool {
        false
    }

    /// Whether every edge n → m costs, to the bit, the Euclidean distance between
    /// `position(n)` and `position(m)` (their f32 coordinates' differences, squared and summed
    /// in f64): square and voxel grids without terrain, whose moves cost 1, √2 and √3, the
    /// square roots of the squared offsets. An any-angle search may then take a node's g
    /// through a parent it neighbours as the very sum a segment from that parent gives.
    fn edges_cost_their_length(&self) -> bool {
        false
    }

    /// Changes whenever the graph changes; two graphs with one revision are equal. Prepared
    /// data (a jump table, a hierarchy) is valid for the revision it was built on. 0: the
    /// space does not keep one.
    fn revision(&self) -> u64 {
        0
    }

    /// Number of node ids (some may be impassable); ids run from 0 to this minus one.
    fn num_nodes(&self) -> usize;

    /// The ids a recording of this space uses, where not one per node: its cells, each node
    /// recorded as the cell it lies in (a vehicle's lattice has thousands of nodes a cell,
    /// past what a trace can hold). See [`crate::trace::Recorder::for_space`].
    fn recorded_nodes(&self) -> Option<usize> {
        None
    }

    /// True if a search may start, pass or end at `n`.
    fn is_passable(&self, n: NodeId) -> bool;

    /// Every edge n → m as `(m, cost)`, in a fixed order (this order, and the open list's
    /// tie-breaking, make every search deterministic). Search loops iterate this rather than
    /// passing a closure: a loop body stays inlined, where a large closure was compiled as a
    /// function called per edge (a third of A*'s time went to that call and its spilled captures).
    fn neighbours(&self, n: NodeId) -> impl Iterator<Item = (NodeId, f64)> + '_;

    /// Which of `n`'s neighbours to leave out, as a mask in the space's own terms for
    /// [`Space::neighbours_masked`] (0: none, and always 0 where the space does not skip):
    /// those in `skip`, and may be those `n` shares with `from`, the node whose expansion gave
    /// `n` its g (`NONE` for none). A best-first search that never reopens passes its closed
    /// nodes and `n`'s parent, on a space that does not change while it runs: `from`'s
    /// expansion offered each neighbour it can reach directly at most g(from) + cost, and
    /// where every move is strictly shorter than any detour through a third node, `n` can
    /// never offer it less.
    fn skip_mask<K: NodeSet>(&self, n: NodeId, from: NodeId, skip: &K) -> u64 {
        let _ = (n, from, skip);
        0
    }

    /// [`Space::neighbours`], leaving out those in the mask [`Space::skip_mask`] gave for `n`.
    fn neighbours_masked(&self, n: NodeId, mask: u64) -> impl Iterator<Item = (NodeId, f64)> + '_ {
        let _ = mask;
        self.neighbours(n)
    }

    /// True when [`Space::skip_mask`] can leave nodes out, testing them a row at a time,
    /// cheaper than the caller could one by one.
    fn skips_by_bits(&self) -> bool {
        false
    }

    /// Calls `f(m, cost)` for every edge n → m, in the order of [`Space::neighbours`].
    fn for_each_neighbour(&self, n: NodeId, mut f: impl FnMut(NodeId, f64)) {
        for (m, c) in self.neighbours(n) {
            f(m, c)
        }
    }

    /// Calls `f(m, cost)` for every edge m → n. Undirected spaces need not override this.
    fn for_each_predecessor(&self, n: NodeId, f: impl FnMut(NodeId, f64)) {
        self.for_each_neighbour(n, f)
    }

    /// The estimate a search uses unless told otherwise ([`Heuristic::Native`] resolves to it).
    fn native_heuristic(&self) -> Heuristic;

    /// The estimates that are admissible here, [`Heuristic::Native`] first.
    fn heuristics(&self) -> &'static [Heuristic];

    /// Estimate of the cost from `a` to `b` ([`Heuristic::Native`] is the space's own).
    fn heuristic(&self, h: Heuristic, a: NodeId, b: NodeId) -> f64;

    /// The estimate towards one goal, as a function of the node: search loops call this so that a
    /// space can work out what depends on the goal alone once.
    fn heuristic_to(&self, h: Heuristic, goal: NodeId) -> impl Fn(NodeId) -> f64 + '_ {
        move |n| self.heuristic(h, n, goal)
    }

    /// Whether the open list breaks ties of f towards the deepest node first (voxel worlds,
    /// where diving along one of many equal paths saves most expansions) rather than by its
    /// own default.
    fn ties_deepest(&self) -> bool {
        false
    }

    /// Where `n` is drawn: cell centre in cell units (z = 0 on flat maps).
    fn position(&self, n: NodeId) -> [f32; 3];

    /// Whether [`Space::line_of_sight`] answers: what the any-angle searches need.
    fn has_line_of_sight(&self) -> bool {
        false
    }

    /// Whether a straight segment from `a` to `b` is free, for any-angle algorithms; `None` when
    /// the space has no geometry for it.
    fn line_of_sight(&self, _a: NodeId, _b: NodeId) -> Option<bool> {
        None
    }

    /// Most neighbours a node can have (sizes buffers).
    fn max_degree(&self) -> usize;
}

/// A world of cells (square or hex) whose cells can change while searches run on it: the one
/// way edits, dynamic obstacles and agents' worlds reach a space.
pub trait CellWorld: Space {
    /// Re-reads `cells` (x, y) from `grid` and returns the nodes whose edges changed, sorted
    /// (the cells and their neighbours): what an incremental search repairs around.
    fn apply_cells(&mut self, grid: &crate::map::Grid, cells: &[(u32, u32)]) -> Vec<NodeId>;
}

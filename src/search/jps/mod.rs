//! Jump point search (Harabor & Grastien 2011, with their 2014 improvements) on 8-connected square
//! grids of uniform cost without corner cutting: an expansion policy of the best-first engine
//! (as Warthog plugs `jps_expansion_policy` into its A*). Successors are jump points reached by
//! straight and diagonal scans; a diagonal scan does not stop at its own jump points but
//! generates what their straight scans find (jps2's pruning of intermediate jump points), and a
//! scan that ends at a wall generates nothing. JPS+ reads its scans from a jump table built once
//! per world ([`table::JumpTable`]).

mod bits;
mod grid;
mod policy;
mod table;

pub use bits::{Bits, Scan};
pub use grid::JumpGrid;
pub use policy::Jumps;
pub use table::JumpTable;

use super::best_first::{BestFirst, Priority};
use super::params::{ParamSpec, Params, HEURISTIC};
use super::prepared::PreparedCache;
use super::{Query, Search, SearchState, Stats, Status};
use crate::space::{Connectivity, GridSpace, NodeId};
use crate::trace::Tracer;
use std::sync::Arc;

/// Why jump point search cannot run on `space`, if it cannot.
pub fn refusal(name: &str, space: &GridSpace) -> Option<String> {
    if space.rules().0 != Connectivity::Eight {
        return Some(format!(
            "{name} needs 8-connected moves; this grid is 4-connected (use astar)"
        ));
    }
    // Terrain costs are refused by the registry (the algorithm's `needs`).
    super::registry::Needs::UNIFORM.refusal(name, space)
}

/// Jump point search (`PLUS` false), or JPS+ with a table: A*'s engine with the jump policy.
/// One start and one goal: the scans stop at the query's goal only, and read the start's
/// terrain class, so the engine's seeds and goal regions are not for it.
#[derive(Clone, Debug)]
pub struct Jps<const PLUS: bool>(pub BestFirst<Jumps<PLUS>>);

/// JPS+.
pub type JpsPlus = Jps<true>;

/// Registry parameters of JPS and JPS+.
pub const PARAMS: &[ParamSpec] = &[HEURISTIC];

impl<const PLUS: bool> Jps<PLUS> {
    /// A*'s engine (f = g + h, nothing reopened) with `jumps` for `query` on `space`.
    fn with(space: &GridSpace, query: Query, p: &Params, jumps: Jumps<PLUS>) -> Self {
        let engine = BestFirst::with_policy;
        Jps(engine(
            space,
            query,
            Priority::Weighted(1.0),
            p.heuristic(),
            false,
            jumps,
        ))
    }
}

impl Jps<false> {
    /// JPS for `query` on `space`, scanning the bit rows in `grid`.
    pub fn online(space: &GridSpace, query: Query, p: &Params, grid: Arc<JumpGrid>) -> Self {
        Jps::with(space, query, p, Jumps::online(grid))
    }

    /// JPS from registry parameters, its bit rows from `cache`.
    pub fn from_cache(
        space: &GridSpace,
        query: Query,
        p: &Params,
        cache: &mut PreparedCache,
    ) -> Self {
        let grid = cache.get::<JumpGrid, _>("jps", space, p);
        Jps::online(space, query, p, grid)
    }
}

impl Jps<true> {
    /// JPS+ for `query` on `space`, reading jumps from `table`.
    pub fn plus(space: &GridSpace, query: Query, p: &Params, table: Arc<JumpTable>) -> Self {
        Jps::with(space, query, p, Jumps::table(table))
    }

    /// JPS+ from registry parameters, its table from `cache`.
    pub fn plus_from_cache(
        space: &GridSpace,
        query: Query,
        p: &Params,
        cache: &mut PreparedCache,
    ) -> Self {
        let table = cache.get::<JumpTable, _>("jps-plus", space, p);
        Jps::plus(space, query, p, table)
    }
}

impl<const PLUS: bool> Search<GridSpace> for Jps<PLUS> {
    fn reset(&mut self, space: &GridSpace, query: Query) {
        self.0.reset(space, query)
    }
    #[inline]
    fn step<T: Tracer>(&mut self, space: &GridSpace, tracer: &mut T) -> Status {
        self.0.step(space, tracer)
    }
    fn run<T: Tracer>(&mut self, space: &GridSpace, tracer: &mut T) -> Status {
        self.0.run(space, tracer)
    }
}

impl<const PLUS: bool> SearchState for Jps<PLUS> {
    fn status(&self) -> Status {
        self.0.status()
    }
    fn path(&self) -> Option<&[NodeId]> {
        self.0.path()
    }
    fn cost(&self) -> Option<f64> {
        self.0.cost()
    }
    fn stats(&self) -> Stats {
        self.0.stats()
    }
    fn open_len(&self) -> usize {
        self.0.open_len()
    }
    fn g(&self, n: NodeId) -> Option<f64> {
        self.0.g(n)
    }
    fn prepared_revision(&self) -> Option<u64> {
        Some(self.0.policy.built_on())
    }
}

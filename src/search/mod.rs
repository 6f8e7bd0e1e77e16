//! The search spine: every algorithm is a resumable state machine behind [`Search`], advanced one
//! expansion at a time, emitting events into a [`Tracer`] type parameter.

mod ad_star;
mod algo_traits;
mod ara_star;
mod astar;
mod best_first;
mod best_first_algorithm;
mod bfs;
mod dijkstra;
mod dstar_lite;
mod dyn_search;
mod expansion;
mod field_dstar;
mod field_dstar_grid;
mod field_dstar_heap;
mod field_dstar_path;
pub mod gps;
mod greedy;
mod heap;
mod heap_key;
mod incremental;
pub mod jps;
mod keyed_heap;
mod nodes;
pub mod params;
pub mod prepared;
pub mod prepared_background;
pub mod registry;
pub mod replay;
pub mod rtd;
mod smooth;
mod theta_star;
mod weighted_astar;

pub use ad_star::AdStar;
pub use ara_star::AraStar;
pub use astar::AStar;
pub use best_first::{BestFirst, Edges, Expansion, Priority};
pub use bfs::Bfs;
pub use dijkstra::Dijkstra;
pub use dstar_lite::{DStarLite, EdgeChange, Incremental, KeyRule, StepTies};
pub use dyn_search::DynSearch;
pub use field_dstar::FieldDStar;
pub use field_dstar_path::{pieces as field_pieces, segment_clear};
pub use greedy::Greedy;
pub use heap::{key, key_or_inf, Entry, OpenHeap, Ties};
pub use jps::Jps;
pub use keyed_heap::KeyedHeap;
pub use nodes::{Mark, NodeTable};
pub use smooth::rubber_band;
pub use theta_star::{any_angle_cost, distance, Kind as AnyAngleKind, SegmentCost, ThetaStar};
pub use weighted_astar::WeightedAStar;

use crate::space::{NodeId, Space};
use crate::trace::Tracer;

/// Where a search stands after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// More steps to do.
    Running,
    /// A path was found; see [`Search::path`].
    Found,
    /// The goal cannot be reached.
    NoPath,
    /// The world changed in a way this algorithm cannot repair; start again.
    NeedsReplan,
}

/// One start and one goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query {
    pub start: NodeId,
    pub goal: NodeId,
}

/// Counters every algorithm keeps (names as in the GUI, CLI and CSV headers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes taken off the open list and expanded.
    pub expanded: u64,
    /// Nodes put on the open list: first visits, improvements and reopenings (heap pushes).
    pub generated: u64,
    /// Closed nodes put back on the open list with a better g.
    pub reopened: u64,
    /// Open nodes whose g improved.
    pub updated: u64,
    /// Largest number of nodes on the open list at once.
    pub max_open: u64,
    /// Line-of-sight checks (the any-angle searches).
    pub los_checks: u64,
}

/// What can be asked of a search at any time, whatever its space.
pub trait SearchState {
    /// The current status.
    fn status(&self) -> Status;

    /// The path from start to goal once found.
    fn path(&self) -> Option<&[NodeId]>;

    /// The path's cost once found.
    fn cost(&self) -> Option<f64>;

    /// Counters so far.
    fn stats(&self) -> Stats;

    /// Nodes currently on the open list.
    fn open_len(&self) -> usize;

    /// g of node `n` if this search reached it.
    fn g(&self, n: NodeId) -> Option<f64>;

    /// The two-part key node `n` is queued under now (D* Lite, AD*), if it is queued.
    fn queue_key(&self, _n: NodeId) -> Option<(f64, f64)> {
        None
    }

    /// The world revision the data it prepared once per world was built on, for searches that
    /// have such data (JPS+'s table): a caller that sees another revision builds the search
    /// anew through its cache rather than reset it.
    fn prepared_revision(&self) -> Option<u64> {
        None
    }

    /// Id ranges its events use after the world's nodes, each named with its size (a
    /// hierarchy's abstract graph): a recorder for it is made with these
    /// ([`crate::trace::Recorder::with_layers`]). None for a search on the world alone.
    fn layers(&self) -> Vec<(&'static str, usize)> {
        vec![]
    }

    /// Where node `n` of a layer after the world's nodes ([`SearchState::layers`]) lies, in
    /// cell units (a Field D* corner, a hierarchy's graph vertex): what an exported trace draws
    /// it at. None where it has no place.
    fn layer_point(&self, _n: NodeId) -> Option<[f64; 2]> {
        None
    }

    /// The path as points in cell units (cell (x, y) spans x..x+1 and y..y+1), for a search
    /// whose path runs between points that are not its nodes' centres (Field D*'s crossings
    /// of cell edges); `None` draws the path from node to node.
    fn polyline(&self) -> Option<Vec<[f64; 2]>> {
        None
    }

    /// While the search waits for data it prepares on another thread (a hierarchy being
    /// built): the fraction done. Its steps do nothing until then, and its layers may change.
    fn preparing(&self) -> Option<f32> {
        None
    }

    /// Why the search could not run at all, if it could not: the data it prepares could not
    /// be built (a hierarchy whose partition failed, or one asked for in the web build, which
    /// has no METIS). Its status is then `NoPath`; this says that no search took place.
    fn failure(&self) -> Option<&str> {
        None
    }
}

/// A search for one query on a space `S`, advanced by `step`.
pub trait Search<S: Space>: SearchState {
    /// Starts over on a new query (keeps allocated memory).
    fn reset(&mut self, space: &S, query: Query);

    /// Does one unit of work (one expansion for best-first searches).
    fn step<T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status;

    /// The space changed around `around` (the space is already updated). Incremental searches
    /// repair their state, record the change, and return true (they are running again); the
    /// others return false and must be restarted.
    fn repair<T: Tracer>(&mut self, _space: &S, _around: &[NodeId], _tracer: &mut T) -> bool {
        false
    }

    /// The agent now stands at `start`. Incremental searches keep what they know and return
    /// true (a `repair` follows before they search again); the others return false and must be
    /// restarted from there.
    fn start_moved(&mut self, _space: &S, _start: NodeId) -> bool {
        false
    }

    /// Steps until the search is no longer running.
    fn run<T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status {
        loop {
            let s = self.step(space, tracer);
            if s != Status::Running {
                return s;
            }
        }
    }
}

/// Emits a `PathNode` event for each node of `path`, with g summed along it by the space's edge
/// costs (the searches that build their path by following g or by walking, not by parents).
pub(crate) fn trace_path<S: Space, T: Tracer>(space: &S, path: &[NodeId], tracer: &mut T) {
    let mut g = 0.0;
    let mut prev = crate::trace::NONE;
    for &p in path {
        if prev != crate::trace::NONE {
            g += space
                .neighbours(prev)
                .find(|&(m, _)| m == p)
                .map_or(0.0, |(_, c)| c);
        }
        tracer.event(crate::trace::Event::new(
            crate::trace::EventKind::PathNode,
            p,
            prev,
            g,
            0.0,
        ));
        prev = p;
    }
}

/// Length of a path by the space's edge costs; `None` if two consecutive nodes are not adjacent.
pub fn path_cost<S: Space>(space: &S, path: &[NodeId]) -> Option<f64> {
    let mut total = 0.0;
    for w in path.windows(2) {
        let mut c = None;
        space.for_each_neighbour(w[0], |m, cost| {
            if m == w[1] {
                c = Some(c.map_or(cost, |x: f64| x.min(cost)));
            }
        });
        total += c?;
    }
    Some(total)
}

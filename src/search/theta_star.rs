//! Any-angle searches: Theta* (Nash et al. 2007) and Lazy Theta* (Nash et al. 2010), as Yu &
//! Novitch 2020 write them (their Algorithms 2 and 3): A*'s loop, goal test when popped, closed
//! nodes never reopened, where a generated node may take its parent's parent as its own parent
//! when the straight segment between them is free (path 2), a segment costing its Euclidean
//! length.
//!
//! Theta* checks that segment for every neighbour it relaxes; Lazy Theta* assumes it and checks
//! once, when the node is popped, falling back to its best closed neighbour (path 1) when the
//! segment is blocked. Every check is a `line-of-sight` event (`a` = 1 visible, 0 blocked), so a
//! view can draw it at its step.
//!
//! The segment optimisation of Yu & Novitch (every edge and segment costs one voxel, whatever
//! its length) is the `segment_cost` option; with it the lengths reported are still the paths'
//! true Euclidean lengths.

use super::heap::key;
use super::nodes::Mark;
use super::params::{ParamKind, ParamSpec, Params};
use super::{NodeTable, OpenHeap, Query, Search, SearchState, Stats, Status};
use crate::space::{Heuristic, NodeId, Space};
use crate::trace::{Event, EventKind, Tracer, NONE};

/// What a step costs in g (Yu & Novitch's segment optimisation, §2.6 of their report).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentCost {
    /// Every edge and segment its Euclidean length.
    Length,
    /// Every edge and every segment one voxel, however long (their text read literally: "for
    /// all neighbors", one `c` in the pseudocode).
    Unit,
    /// Edges between neighbours one voxel, longer segments (Theta*'s path 2) their length:
    /// the other reading of their text.
    UnitEdges,
}

/// Which of Yu & Novitch's three searches ([`ThetaStar::yu_novitch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    AStar,
    Theta,
    LazyTheta,
}

/// Theta* or Lazy Theta*.
#[derive(Clone, Debug)]
pub struct ThetaStar {
    /// False: no segments at all, A* as Yu & Novitch write it (their Algorithm 1), for an
    /// experiment that times the three on one loop.
    any_angle: bool,
    lazy: bool,
    heuristic: Heuristic,
    /// Yu & Novitch's segment optimisation: every edge (and, unless `unit_edges_only`, every
    /// segment) costs 1 in g.
    unit_segments: bool,
    unit_edges_only: bool,
    /// Heuristic inflation: f = g + ε·h.
    epsilon: f64,
    nodes: NodeTable,
    heap: OpenHeap,
    query: Query,
    status: Status,
    stats: Stats,
    open_count: u64,
    path: Vec<NodeId>,
    /// What the path found costs in the world (g, but under the segment optimisation).
    length: f64,
    /// Spaces above this many nodes keep state in segments (see `reset`).
    segmented_above: usize,
    blocked: BlockedSegments,
    /// Whether segments found blocked go into `blocked`: Theta*'s, not Lazy Theta*'s, which
    /// never asks one again (nothing is answered from an empty table, so the neighbour loop
    /// needs no test of its own).
    remember_blocked: bool,
    /// How many checks this query answered so.
    recalled: u64,
}

/// Segments found blocked in the current query, in a small direct-mapped table: Theta*
/// asks about the same blocked segment again whenever another node with the same parent
/// reaches the same open neighbour (on Complex, 709,000 of its 1.03 million blocked checks
/// were such repeats; none of the free ones were, as a free segment makes the parent the
/// neighbour's). A pair is answered only when the table holds that very pair, so an answer
/// is always one the walk gave; a pair pushed out is walked again.
#[derive(Clone, Debug)]
struct BlockedSegments(Box<[(NodeId, NodeId); BLOCKED_SLOTS]>);

/// 32 KB: stays in the first-level cache beside the search's own working set.
const BLOCKED_SLOTS: usize = 4096;

impl Default for BlockedSegments {
    fn default() -> Self {
        BlockedSegments(Box::new([(NONE, NONE); BLOCKED_SLOTS]))
    }
}

impl BlockedSegments {
    #[inline(always)]
    fn slot(a: NodeId, b: NodeId) -> usize {
        let h = (a as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (b as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        (h >> (64 - BLOCKED_SLOTS.trailing_zeros())) as usize
    }

    #[inline(always)]
    fn knows(&self, a: NodeId, b: NodeId) -> bool {
        self.0[Self::slot(a, b)] == (a, b)
    }

    #[inline(always)]
    fn insert(&mut self, a: NodeId, b: NodeId) {
        self.0[Self::slot(a, b)] = (a, b);
    }

    /// Forgets every pair (a new query may come with another space).
    fn clear(&mut self) {
        self.0.fill((NONE, NONE));
    }
}

/// Euclidean distance between two nodes' positions.
pub fn distance<S: Space>(space: &S, a: NodeId, b: NodeId) -> f64 {
    let (p, q) = (space.position(a), space.position(b));
    let d = [0, 1, 2].map(|i| (p[i] - q[i]) as f64);
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

/// What an any-angle path costs in the world: an edge of the graph its edge cost (terrain
/// included), a longer segment its length (line of sight holds only over cost-1 cells).
pub fn any_angle_cost<S: Space>(space: &S, path: &[NodeId]) -> f64 {
    path.windows(2)
        .map(|w| {
            let mut edge = None;
            space.for_each_neighbour(w[0], |m, c| {
                if m == w[1] {
                    edge = Some(c);
                }
            });
            edge.unwrap_or_else(|| distance(space, w[0], w[1]))
        })
        .sum()
}

/// Whether `g_parent` plus the length from `a` to `b` is surely at least `g` (so its heap key
/// is too), judged on the squared length: a margin far above the rounding of the sum and the
/// square root (a ten-millionth of a cell, more for huge g) leaves the close calls to the
/// exact sum.
#[inline(always)]
fn surely_no_better(g_parent: f64, a: [f32; 3], b: [f32; 3], g: f64) -> bool {
    let t = g - g_parent + 1e-7 + 1e-12 * g;
    if t <= 0.0 {
        return true;
    }
    let d = [0, 1, 2].map(|i| (a[i] - b[i]) as f64);
    d[0] * d[0] + d[1] * d[1] + d[2] * d[2] >= t * t
}

impl ThetaStar {
    /// Registry parameters.
    pub const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "heuristic",
            help: "distance estimate: euclidean (the straight line: never more than an any-angle path) or zero",
            kind: ParamKind::Choice(&["octile", "manhattan", "euclidean", "zero", "native", "hex"]),
            default: 2.0,
            min: 0.0,
            max: 5.0,
        },
        ParamSpec {
            name: "epsilon",
            help: "heuristic inflation ε ≥ 1 (Krafft 2019 ran Theta* with ε = 2): f = g + ε·h",
            kind: ParamKind::Float,
            default: 1.0,
            min: 1.0,
            max: 100.0,
        },
        ParamSpec {
            name: "segment_cost",
            help: "Yu & Novitch's segment optimisation: unit = every edge and segment costs one cell in g (faster, longer paths); unit-edges = edges one cell, longer segments their length",
            kind: ParamKind::Choice(&["length", "unit", "unit-edges"]),
            default: 0.0,
            min: 0.0,
            max: 2.0,
        },
    ];

    /// Theta* (`lazy` false) or Lazy Theta* with heuristic `h`.
    pub fn new<S: Space>(space: &S, query: Query, lazy: bool, h: Heuristic) -> ThetaStar {
        let mut s = ThetaStar {
            any_angle: true,
            lazy,
            heuristic: h,
            unit_segments: false,
            unit_edges_only: false,
            epsilon: 1.0,
            nodes: NodeTable::default(),
            heap: OpenHeap::default(),
            query,
            status: Status::Running,
            stats: Stats::default(),
            open_count: 0,
            path: vec![],
            length: 0.0,
            segmented_above: super::best_first::SEGMENTED_ABOVE,
            blocked: BlockedSegments::default(),
            remember_blocked: !lazy,
            recalled: 0,
        };
        s.reset(space, query);
        s
    }

    /// Keeps search state segment by segment from the next query on when the space has more
    /// than `nodes` nodes (default 2²⁵; 0: always), so tests can compare both ways.
    pub fn set_segmented_above(&mut self, nodes: usize) {
        self.segmented_above = nodes;
    }

    /// Whether Theta* answers a check of a segment it already found blocked in this query
    /// from memory (default) or walks it again, so tests can compare both ways.
    pub fn set_remember_blocked(&mut self, on: bool) {
        self.remember_blocked = on && !self.lazy;
    }

    /// How many line-of-sight checks this query answered from memory (counted in
    /// `los_checks` all the same).
    pub fn recalled_checks(&self) -> u64 {
        self.recalled
    }

    /// Theta* from registry parameters.
    pub fn theta_from_params<S: Space>(space: &S, query: Query, p: &Params) -> ThetaStar {
        Self::with_params(space, query, p, false)
    }

    /// Lazy Theta* from registry parameters.
    pub fn lazy_from_params<S: Space>(space: &S, query: Query, p: &Params) -> ThetaStar {
        Self::with_params(space, query, p, true)
    }

    fn with_params<S: Space>(space: &S, query: Query, p: &Params, lazy: bool) -> ThetaStar {
        let mut s = ThetaStar::new(space, query, lazy, p.heuristic());
        s.unit_segments = p.get("segment_cost") >= 0.5;
        s.unit_edges_only = p.get("segment_cost") >= 1.5;
        s.epsilon = p.get("epsilon").max(1.0);
        s.reset(space, query);
        s
    }

    /// One of Yu & Novitch's three on one loop: A* (`Kind::AStar`: no segments), Theta* or
    /// Lazy Theta*, with the Euclidean heuristic, and the step costs `cost`.
    pub fn yu_novitch<S: Space>(
        space: &S,
        query: Query,
        kind: Kind,
        cost: SegmentCost,
    ) -> ThetaStar {
        let mut s = ThetaStar::new(space, query, kind == Kind::LazyTheta, Heuristic::Euclidean);
        s.any_angle = kind != Kind::AStar;
        s.unit_segments = cost != SegmentCost::Length;
        s.unit_edges_only = cost == SegmentCost::UnitEdges;
        s.reset(space, query);
        s
    }

    /// The cost in g of a segment (an edge when its ends are neighbours), from its ends'
    /// positions: its length (as [`distance`] computes it, to the bit), or one voxel under the
    /// segment optimisation (an edge is at most √3 long; with `unit_edges_only` a longer
    /// segment keeps its length).
    #[inline(always)]
    fn seg_from(&self, a: [f32; 3], b: [f32; 3]) -> f64 {
        let d = [0, 1, 2].map(|i| (a[i] - b[i]) as f64);
        let d = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        if !self.unit_segments || (self.unit_edges_only && d > 1.8) {
            d
        } else {
            1.0
        }
    }

    /// A line-of-sight check from `a` to `b`, counted and traced.
    fn los<S: Space, T: Tracer>(
        &mut self,
        space: &S,
        a: NodeId,
        b: NodeId,
        tracer: &mut T,
    ) -> bool {
        self.stats.los_checks += 1;
        let free = space.line_of_sight(a, b).unwrap_or(false);
        if !free && self.remember_blocked {
            self.blocked.insert(a, b);
        }
        if T::ENABLED {
            let v = if free { 1.0 } else { 0.0 };
            tracer.event(Event::new(EventKind::LineOfSight, b, a, v, 0.0));
        }
        free
    }

    /// A check of a segment already found blocked in this query ([`BlockedSegments`]):
    /// counted and traced as the check the algorithm makes, so counts and traces are those of
    /// the search that walks every check.
    fn known_blocked<T: Tracer>(&mut self, a: NodeId, b: NodeId, tracer: &mut T) {
        self.stats.los_checks += 1;
        self.recalled += 1;
        if T::ENABLED {
            tracer.event(Event::new(EventKind::LineOfSight, b, a, 0.0, 0.0));
        }
    }

    /// Lazy Theta*'s SETVERTEX: when the assumed segment from `s`'s parent is blocked, `s`
    /// takes its best closed neighbour as parent (one exists: a closed neighbour generated it).
    fn set_vertex<S: Space, T: Tracer>(&mut self, space: &S, s: NodeId, at: u32, tracer: &mut T) {
        let p = self.nodes.parent(at);
        if p == NONE || self.los(space, p, s, tracer) {
            return;
        }
        let unit = self.unit_segments;
        let mut best: Option<(f64, NodeId)> = None;
        let nodes = &self.nodes;
        space.for_each_predecessor(s, |m, c| {
            let Some(am) = nodes.find(m) else {
                return;
            };
            if nodes.mark(am) == Mark::Closed {
                let g = nodes.g(am) + if unit { 1.0 } else { c };
                if best.is_none_or(|b| key(g) < key(b.0)) {
                    best = Some((g, m));
                }
            }
        });
        if let Some((g, m)) = best {
            self.nodes.improve(at, g, m);
            if T::ENABLED {
                tracer.event(Event::new(EventKind::Update, s, m, g, g));
            }
        }
    }

    fn finish<T: Tracer, S: Space>(&mut self, space: &S, tracer: &mut T) {
        self.nodes
            .trace_path(self.query.goal, &mut self.path, tracer);
        self.length = any_angle_cost(space, &self.path);
        self.status = Status::Found;
    }
}

impl<S: Space> Search<S> for ThetaStar {
    fn reset(&mut self, space: &S, query: Query) {
        self.query = query;
        // As A*: above 2^25 nodes the state is kept in segments handed out as the search
        // reaches them (arrays over a 74M-voxel world took 1.3 GB and zeroing them dominated
        // short queries); the open list and the table then speak of slots.
        if space.num_nodes() > self.segmented_above {
            self.nodes.reset_segmented(space.num_nodes());
        } else {
            self.nodes.reset(space.num_nodes());
        }
        self.heap.clear();
        self.blocked.clear();
        self.recalled = 0;
        self.stats = Stats::default();
        self.path.clear();
        self.length = 0.0;
        self.status = Status::Running;
        let h = space.heuristic(self.heuristic, query.start, query.goal);
        let at = self.nodes.slot(query.start);
        self.nodes.open(at, 0.0, NONE);
        self.heap
            .push_new_with(self.epsilon * h, 0.0, at, &mut self.nodes);
        self.open_count = 1;
        self.stats.generated = 1;
        self.stats.max_open = 1;
        if !space.is_passable(query.start) || !space.is_passable(query.goal) {
            self.heap.clear();
            self.open_count = 0;
        }
    }

    fn step<T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status {
        self.expand_up_to(space, tracer, 1)
    }

    fn run<T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status {
        self.expand_up_to(space, tracer, u64::MAX)
    }
}

impl ThetaStar {
    /// Expands up to `limit` nodes: the one body behind `step` (1) and `run` (no limit), so a
    /// run keeps the goal's heuristic and the loop's state in registers across expansions.
    ///
    /// Three things keep it near A*'s speed per expansion without changing a single choice it
    /// makes (so every path stays the same): a segment is checked only when one of the two
    /// candidate costs would better the neighbour's g (a check whose answer cannot change the
    /// outcome is skipped: most of Theta*'s checks, from neighbours that already hold the
    /// same parent); Lazy Theta* skips a neighbour that already holds the same parent (its
    /// candidate g is the same sum, to the bit); closed neighbours are left out by the space a
    /// row at a time, and positions and heuristics are computed once per node, not per use.
    fn expand_up_to<S: Space, T: Tracer>(
        &mut self,
        space: &S,
        tracer: &mut T,
        limit: u64,
    ) -> Status {
        if self.status != Status::Running {
            return self.status;
        }
        let (start, goal) = (self.query.start, self.query.goal);
        if T::ENABLED && self.stats.expanded == 0 {
            let s = start;
            let h = space.heuristic(self.heuristic, s, goal);
            tracer.event(Event::new(EventKind::Source, s, NONE, 0.0, h));
            tracer.event(Event::marker(EventKind::Destination, goal));
        }
        let h_of = space.heuristic_to(self.heuristic, goal);
        let eps = self.epsilon;
        let skip_closed = space.skips_by_bits();
        // Whether an edge from a parent costs what a segment from it does (see below); Lazy
        // Theta* skips such neighbours by the parent alone.
        let same_sum = self.any_angle
            && !self.lazy
            && ((self.unit_segments && !self.unit_edges_only) || space.edges_cost_their_length());
        let mut done = 0;
        loop {
            if done == limit {
                return Status::Running;
            }
            done += 1;
            // The next open node (entries left behind by an improvement are skipped).
            let at = loop {
                let Some(e) = self.heap.pop_with(&mut self.nodes) else {
                    self.status = Status::NoPath;
                    if T::ENABLED {
                        tracer.event(Event::marker(EventKind::NoPath, goal));
                    }
                    return self.status;
                };
                if self.nodes.mark(e.node()) == Mark::Open {
                    break e.node();
                }
            };
            let s = self.nodes.node(at);
            if self.lazy && self.any_angle {
                self.set_vertex(space, s, at, tracer);
            }
            let g = self.nodes.g(at);
            self.nodes.close(at);
            self.open_count -= 1;
            self.stats.expanded += 1;
            if T::ENABLED {
                let f = g + h_of(s);
                tracer.event(Event::new(
                    EventKind::Expand,
                    s,
                    self.nodes.parent(at),
                    g,
                    f,
                ));
            }
            if s == goal {
                self.finish(space, tracer);
                return self.status;
            }
            let parent = self.nodes.parent(at);
            let segments = self.any_angle && parent != NONE;
            // g of the parent, in the table's own slot (a parent was reached, so it has one),
            // and where it lies.
            let g_parent = self
                .nodes
                .find(parent)
                .map_or(f64::INFINITY, |p| self.nodes.g(p));
            let p_at = if segments {
                space.position(parent)
            } else {
                [0.0; 3]
            };
            // Read in place, not through a buffer (a buffer cost Theta* 4%).
            let skip = if skip_closed {
                space.skip_mask(s, NONE, &self.nodes.closed_nodes())
            } else {
                0
            };
            for (m, c) in space.neighbours_masked(s, skip) {
                let am = self.nodes.slot(m);
                let mark = self.nodes.mark(am);
                if mark == Mark::Closed {
                    continue;
                }
                let g_m = if mark == Mark::New {
                    f64::INFINITY
                } else {
                    // Lazy Theta*'s candidate from the same parent is the sum that gave m its
                    // g, to the bit (but for the start's children, whose g is an edge's cost).
                    if self.lazy && segments && parent != start && self.nodes.parent(am) == parent {
                        continue;
                    }
                    self.nodes.g(am)
                };
                let path1 = g + if self.unit_segments { 1.0 } else { c };
                // Theta*'s candidate through s's parent, when m already holds that parent, is
                // the sum that gave m its g, to the bit: either that very segment, or the edge
                // from the parent, which costs its length (`same_sum`). So path 2 cannot
                // better m, and unless path 1 does, nothing changes: no position, no square
                // root. Most of Theta*'s neighbours are such (72% on Complex).
                if same_sum
                    && segments
                    && mark != Mark::New
                    && key(path1) >= key(g_m)
                    && self.nodes.parent(am) == parent
                {
                    continue;
                }
                let (ng, np) = if segments {
                    let at_m = space.position(m);
                    // Most open neighbours are not bettered by path 2, and its squared length
                    // says so without the square root (Lazy Theta* has no path 1; Theta* also
                    // needs path 1 not to better m, else it goes on as below).
                    if mark != Mark::New
                        && !self.unit_segments
                        && surely_no_better(g_parent, p_at, at_m, g_m)
                        && (self.lazy || key(path1) >= key(g_m))
                    {
                        continue;
                    }
                    let path2 = g_parent + self.seg_from(p_at, at_m);
                    if self.lazy {
                        (path2, parent)
                    } else if mark != Mark::New && key(path2) >= key(g_m) && key(path1) >= key(g_m)
                    {
                        // Neither path 2 nor path 1 betters m: whatever the segment, nothing
                        // changes.
                        continue;
                    } else if self.blocked.knows(parent, m) {
                        self.known_blocked(parent, m, tracer);
                        (path1, s)
                    } else if self.los(space, parent, m, tracer) {
                        (path2, parent)
                    } else {
                        (path1, s)
                    }
                } else {
                    (path1, s)
                };
                match mark {
                    Mark::New => {
                        let h = eps * h_of(m);
                        self.nodes.open(am, ng, np);
                        self.open_count += 1;
                        self.stats.generated += 1;
                        self.heap.push_new_with(ng + h, ng, am, &mut self.nodes);
                        if T::ENABLED {
                            tracer.event(Event::new(EventKind::Generate, m, np, ng, ng + h));
                        }
                    }
                    _ if key(ng) < key(g_m) => {
                        let h = eps * h_of(m);
                        self.nodes.improve(am, ng, np);
                        self.stats.updated += 1;
                        self.stats.generated += 1;
                        self.heap.push_with(ng + h, ng, am, &mut self.nodes);
                        if T::ENABLED {
                            tracer.event(Event::new(EventKind::Update, m, np, ng, ng + h));
                        }
                    }
                    _ => {}
                }
            }
            self.stats.max_open = self.stats.max_open.max(self.open_count);
        }
    }
}

impl SearchState for ThetaStar {
    fn status(&self) -> Status {
        self.status
    }

    fn path(&self) -> Option<&[NodeId]> {
        (self.status == Status::Found).then_some(&self.path[..])
    }

    /// What the path costs in the world: edges their costs, longer segments their lengths
    /// (its g, but under the segment optimisation, which counts every piece as 1).
    fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then_some(self.length)
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn open_len(&self) -> usize {
        self.open_count as usize
    }

    fn g(&self, n: NodeId) -> Option<f64> {
        self.nodes.g_if_reached(n)
    }
}

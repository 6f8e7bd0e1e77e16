//! The best-first engine behind Dijkstra, A*, weighted A* and greedy best-first: they differ only
//! in the priority they give a node.

pub use super::expansion::{Edges, Expansion, Refine};
use super::heap::{key, OpenHeap, Ties};
use super::nodes::{Mark, NodeTable};

use super::{Query, Search, SearchState, Stats, Status};
use crate::space::{Heuristic, NodeId, Space};
use crate::trace::{Event, EventKind, NullTracer, Tracer, NONE};

/// Spaces with more nodes than this keep search state segment by segment
/// ([`NodeTable::reset_segmented`]): arrays over all their nodes stay in no cache.
pub(crate) const SEGMENTED_ABOVE: usize = 1 << 25;

/// How a node's priority is computed from g and h.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Priority {
    /// f = g + w·h (w = 1: A*; h = zero: Dijkstra).
    Weighted(f64),
    /// f = h (greedy best-first).
    HeuristicOnly,
}

/// Best-first search on [`OpenHeap`] (a better g moves a node's entry; entries left in its lane
/// are skipped when popped), with reopening of closed nodes whose g improves (never needed with a consistent heuristic; needed for weighted A*'s bound with an
/// inconsistent one).
#[derive(Clone, Debug)]
pub struct BestFirst<P = Edges> {
    /// Where successors come from.
    pub policy: P,
    /// Successors of the node being expanded, for policies other than [`Edges`].
    succ: Vec<(NodeId, f64)>,
    priority: Priority,
    heuristic: Heuristic,
    reopen: bool,
    /// The open list holds the table's slots.
    nodes: NodeTable,
    segmented_above: usize,
    heap: OpenHeap,
    query: Query,
    status: Status,
    stats: Stats,
    open_count: u64,
    /// The path of expanded nodes (the space's steps for [`Edges`]).
    path: Vec<NodeId>,
    /// The path in the space's own steps, for policies whose expanded nodes are further apart
    /// (jump points): made when first asked for, outside the search's time, as a search that
    /// returns jump points (Warthog's) leaves it to its caller.
    cells: std::cell::OnceCell<Vec<NodeId>>,
    /// Starts other than the query's own, each with its g and parent (empty: the query's).
    seeds: Vec<(NodeId, f64, NodeId)>,
    /// Nodes any of which ends the search, beside the query's goal.
    region: Option<Region>,
    /// The node whose expansion ended the search.
    reached: NodeId,
}

/// A goal region: its nodes, sorted, and how far (by the heuristic) the furthest lies from the
/// query's goal, which the heuristic towards that goal subtracts to stay admissible for all.
#[derive(Clone, Debug)]
struct Region {
    members: Vec<NodeId>,
    slack: f64,
}

impl BestFirst {
    /// An engine for `query` on `space`, over the space's own edges.
    pub fn new<S: Space>(
        space: &S,
        query: Query,
        priority: Priority,
        heuristic: Heuristic,
        reopen: bool,
    ) -> BestFirst {
        BestFirst::with_policy(space, query, priority, heuristic, reopen, Edges)
    }
}

impl<P> BestFirst<P> {
    /// An engine for `query` on `space` whose successors come from `policy`.
    pub fn with_policy<S: Space>(
        space: &S,
        query: Query,
        priority: Priority,
        heuristic: Heuristic,
        reopen: bool,
        policy: P,
    ) -> BestFirst<P>
    where
        P: Expansion<S>,
    {
        let mut s = BestFirst {
            policy,
            succ: Vec::new(),
            priority,
            heuristic,
            reopen,
            nodes: NodeTable::default(),
            segmented_above: SEGMENTED_ABOVE,
            heap: OpenHeap::default(),
            query,
            status: Status::Running,
            stats: Stats::default(),
            open_count: 0,
            path: vec![],
            cells: std::cell::OnceCell::new(),
            seeds: vec![],
            region: None,
            reached: NONE,
        };
        s.reset(space, query);
        s
    }

    #[inline(always)]
    fn f(&self, g: f64, h: f64) -> f64 {
        match self.priority {
            Priority::Weighted(w) => g + w * h,
            Priority::HeuristicOnly => h,
        }
    }

    /// Keeps search state segment by segment from the next query on when the space has more
    /// than `nodes` nodes (default 2²⁵; 0: always), so tests can compare both ways.
    pub fn set_segmented_above(&mut self, nodes: usize) {
        self.segmented_above = nodes;
    }

    /// Mark of node `n`.
    pub fn mark(&self, n: NodeId) -> Mark {
        self.nodes.find(n).map_or(Mark::New, |h| self.nodes.mark(h))
    }

    /// The query being solved.
    pub fn query(&self) -> Query {
        self.query
    }

    fn finish<S: Space, T: Tracer>(&mut self, space: &S, tracer: &mut T)
    where
        P: Expansion<S>,
    {
        if P::EDGES {
            self.nodes.trace_path(self.reached, &mut self.path, tracer);
        } else {
            let goal = self.reached;
            self.nodes.trace_path(goal, &mut self.path, &mut NullTracer);
            if T::ENABLED {
                let cells = self.cells.get_or_init(|| {
                    let mut c = vec![];
                    self.policy.refine(&self.path, &mut c);
                    c
                });
                super::trace_path(space, cells, tracer);
                let g = self.nodes.g_if_reached(goal).unwrap_or(0.0);
                tracer.event(Event::new(EventKind::Found, goal, NONE, g, 0.0));
            }
        }
        self.status = Status::Found;
    }
}

impl<S: Space, P: Expansion<S>> Search<S> for BestFirst<P> {
    fn reset(&mut self, space: &S, query: Query) {
        self.seeds.clear();
        self.region = None;
        self.begin(space, query);
    }

    #[inline]
    fn step<T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status {
        self.expand_up_to(space, tracer, 1)
    }

    fn run<T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status {
        self.expand_up_to(space, tracer, u64::MAX)
    }
}

impl<P> BestFirst<P> {
    /// Starts `query` over, from the seeds if any, else from its start.
    fn begin<S: Space>(&mut self, space: &S, query: Query)
    where
        P: Expansion<S>,
    {
        self.policy.reset(space, query);
        self.query = query;
        if space.num_nodes() > self.segmented_above {
            self.nodes.reset_segmented(space.num_nodes());
        } else {
            self.nodes.reset(space.num_nodes());
        }
        self.heap.clear();
        self.heap.set_ties(if space.ties_deepest() {
            Ties::Deepest
        } else {
            Ties::Dive
        });
        self.stats = Stats::default();
        self.path.clear();
        self.cells = std::cell::OnceCell::new();
        self.status = Status::Running;
        self.reached = NONE;
        self.open_count = 0;
        let goal_ok = space.is_passable(query.goal)
            || self
                .region
                .as_ref()
                .is_some_and(|r| r.members.iter().any(|&m| space.is_passable(m)));
        let one = [(query.start, 0.0, NONE)];
        let starts = if self.seeds.is_empty() {
            &one[..]
        } else {
            &self.seeds[..]
        };
        // A seed's own parent lies outside this search (the search it continues): its node is
        // opened without one, so that parents inside this search never loop back through it.
        for &(n, g, _) in starts {
            if !goal_ok || !space.is_passable(n) {
                continue;
            }
            let at = self.nodes.slot(n);
            let h = self.h_region(space.heuristic(self.heuristic, n, query.goal));
            let f = self.f(g, h);
            // A node seeded twice keeps its lower g.
            match self.nodes.mark(at) {
                Mark::New => {
                    self.nodes.open(at, g, NONE);
                    self.open_count += 1;
                }
                _ if g < self.nodes.g(at) => self.nodes.improve(at, g, NONE),
                _ => continue,
            }
            self.heap.push_with(f, g, at, &mut self.nodes);
        }
        self.stats.generated = self.open_count;
        self.stats.max_open = self.open_count;
    }

    /// The heuristic towards the query's goal made admissible for the whole goal region.
    #[inline(always)]
    fn h_region(&self, h: f64) -> f64 {
        match &self.region {
            Some(r) => (h - r.slack).max(0.0),
            None => h,
        }
    }

    /// Starts the search over from several nodes, each with its g and its parent outside this
    /// search (`NONE`: none), instead of the query's start: a search continued from another's
    /// open list, or from every cell of a start area. The path found starts at a seed; that
    /// seed's outside parent is [`BestFirst::seed_parent`]. Call after `reset`.
    pub fn seed<S: Space>(&mut self, space: &S, seeds: &[(NodeId, f64, NodeId)])
    where
        P: Expansion<S>,
    {
        self.seeds = seeds.to_vec();
        self.begin(space, self.query);
    }

    /// Ends the search at the first of `members` it expands (and at the query's goal, which
    /// the heuristic aims at): a goal area, or a vehicle's goal cell at any heading. Call after
    /// `reset`, before `seed`.
    pub fn set_goal_region<S: Space>(&mut self, space: &S, members: &[NodeId])
    where
        P: Expansion<S>,
    {
        let t = self.query.goal;
        let mut members = members.to_vec();
        members.sort_unstable();
        members.dedup();
        // The furthest member by the heuristic: h(n, m) ≥ h(n, t) - h(t, m) for the metric
        // heuristics, so subtracting it keeps the estimate admissible for every member.
        let slack = members
            .iter()
            .map(|&m| space.heuristic(self.heuristic, t, m))
            .fold(0.0, f64::max);
        self.region = Some(Region { members, slack });
        self.begin(space, self.query);
    }

    /// The parent outside this search that seed `n` was given (the lowest-g seeding of it).
    pub fn seed_parent(&self, n: NodeId) -> Option<NodeId> {
        self.seeds
            .iter()
            .filter(|s| s.0 == n && s.2 != NONE)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|s| s.2)
    }

    /// The node whose expansion ended the search (the goal, or a member of the goal region).
    pub fn reached(&self) -> Option<NodeId> {
        (self.status == Status::Found).then_some(self.reached)
    }

    /// Expands up to `limit` nodes: the one body behind `step` (limit 1) and `run` (no limit).
    /// Running many expansions in one call keeps the open list, the node table and the
    /// counters in registers across expansions instead of reloading them through `self`.
    #[inline]
    fn expand_up_to<S: Space, T: Tracer>(&mut self, space: &S, tracer: &mut T, limit: u64) -> Status
    where
        P: Expansion<S>,
    {
        if self.status != Status::Running {
            return self.status;
        }
        if T::ENABLED && self.stats.expanded == 0 {
            let one = [(self.query.start, 0.0, NONE)];
            let starts = if self.seeds.is_empty() {
                &one[..]
            } else {
                &self.seeds[..]
            };
            for &(s, g, parent) in starts {
                // The seeds that were opened, each once (at its g in the table).
                let at = self.nodes.find(s);
                if at.is_none_or(|at| self.nodes.g(at) != g) {
                    continue;
                }
                let h = self.h_region(space.heuristic(self.heuristic, s, self.query.goal));
                tracer.event(Event::new(EventKind::Source, s, parent, g, self.f(g, h)));
            }
            tracer.event(Event::marker(EventKind::Destination, self.query.goal));
            for &m in self.region.iter().flat_map(|r| &r.members) {
                if m != self.query.goal {
                    tracer.event(Event::marker(EventKind::Destination, m));
                }
            }
        }
        // A* and Dijkstra (f = g + h, nothing reopened) get a loop of their own, without the
        // weight's multiply and the reopening test on every edge; with the octile heuristic
        // (the default on 8-connected squares) the loop knows it at compile time, which spares every generated node a
        // choice among four formulas (3% of A*).
        // A goal region takes the general loop (its heuristic and goal test cost the plain one
        // nothing that way).
        match (
            self.priority,
            self.reopen || self.region.is_some(),
            self.heuristic.on(space),
        ) {
            (Priority::Weighted(1.0), false, Heuristic::Octile) => {
                self.expand_loop::<S, T, true, true>(space, tracer, limit)
            }
            (Priority::Weighted(1.0), false, _) => {
                self.expand_loop::<S, T, true, false>(space, tracer, limit)
            }
            _ => self.expand_loop::<S, T, false, false>(space, tracer, limit),
        }
    }

    /// The loop of [`BestFirst::expand_up_to`]; `PLAIN`: f = g + h and no reopening; `OCTILE`:
    /// the heuristic is octile, whatever `self.heuristic` says.
    #[inline]
    fn expand_loop<S: Space, T: Tracer, const PLAIN: bool, const OCTILE: bool>(
        &mut self,
        space: &S,
        tracer: &mut T,
        limit: u64,
    ) -> Status
    where
        P: Expansion<S>,
    {
        let goal = self.query.goal;
        let heuristic = if OCTILE {
            Heuristic::Octile
        } else {
            self.heuristic
        };
        let h_raw = space.heuristic_to(heuristic, goal);
        let slack = self.region.as_ref().map_or(0.0, |r| r.slack);
        let region = self.region.as_ref().map(|r| &r.members[..]);
        // Weighted A* and greedy read it through the same subtraction (0 without a region).
        let h_of = |n: NodeId| {
            let h = h_raw(n);
            if PLAIN {
                h
            } else {
                (h - slack).max(0.0)
            }
        };
        let mut reached = NONE;
        let priority = self.priority;
        let reopen = self.reopen;
        let nodes = &mut self.nodes;
        let heap = &mut self.heap;
        let policy = &mut self.policy;
        let succ = &mut self.succ;
        // Counters in locals, written back at the end: through `self` every push paid a
        // read-modify-write in memory for each.
        let mut stats = self.stats;
        let mut open_count = self.open_count;
        // Closed nodes are final without reopening: the space may leave them out unread.
        let skip_closed = P::EDGES && !reopen && space.skips_by_bits();
        let fcalc = |g: f64, h: f64| {
            if PLAIN {
                g + h
            } else {
                match priority {
                    Priority::Weighted(w) => g + w * h,
                    Priority::HeuristicOnly => h,
                }
            }
        };
        let mut done = 0;
        let status = loop {
            if done == limit {
                break Status::Running;
            }
            let (at, g) = loop {
                let Some(e) = heap.pop_with(nodes) else {
                    break (NONE, 0.0);
                };
                // A node has two entries when one of its pushes went to the heap's lane (the
                // heap moves a node's entry, the lane cannot). Its newest entry has its lowest
                // g, so its lowest f, and comes out first; the older one finds the node closed
                // and is skipped. (Greedy pushes equal f, and then the table's g, the best, is
                // the one used.)
                let at = e.node();
                if nodes.mark(at) == Mark::Open {
                    break (at, nodes.g(at));
                }
            };
            if at == NONE {
                break Status::NoPath;
            }
            let n = nodes.node(at);
            nodes.close(at);
            open_count -= 1;
            stats.expanded += 1;
            done += 1;
            if T::ENABLED {
                let f = fcalc(g, h_of(n));
                tracer.event(Event::new(EventKind::Expand, n, nodes.parent(at), g, f));
            }
            if n == goal || (!PLAIN && region.is_some_and(|r| r.binary_search(&n).is_ok())) {
                reached = n;
                break Status::Found;
            }
            // One body for both sources of successors: the space's edges read in place (a
            // buffer in between cost A* 5%), or a policy's list.
            macro_rules! relax {
                ($m:expr, $cost:expr) => {{
                    let (m, cost): (NodeId, f64) = ($m, $cost);
                    let ng = g + cost;
                    let am = nodes.slot(m);
                    // Improvements are judged on heap keys: sums of the same costs in another order
                    // differ in the last bits, and treating that noise as a better path reopens
                    // closed nodes in cascades (it tripled expansions on some Dragon Age queries).
                    let better = || ng < nodes.g(am) && key(ng) < key(nodes.g(am));
                    // Each arm pushes and counts on its own, with nothing after the match: a shared
                    // tail (the event kind chosen in the match, then one push) cost A* 2–3%.
                    match nodes.mark(am) {
                        Mark::New => {
                            nodes.open(am, ng, n);
                            open_count += 1;
                            stats.generated += 1;
                            let f = fcalc(ng, h_of(m));
                            heap.push_new_with(f, ng, am, nodes);
                            if T::ENABLED {
                                tracer.event(Event::new(EventKind::Generate, m, n, ng, f));
                            }
                        }
                        Mark::Open if better() => {
                            nodes.improve(am, ng, n);
                            stats.updated += 1;
                            stats.generated += 1;
                            let f = fcalc(ng, h_of(m));
                            heap.push_with(f, ng, am, nodes);
                            if T::ENABLED {
                                tracer.event(Event::new(EventKind::Update, m, n, ng, f));
                            }
                        }
                        Mark::Closed if !PLAIN && reopen && better() => {
                            nodes.improve(am, ng, n);
                            stats.reopened += 1;
                            stats.generated += 1;
                            open_count += 1;
                            let f = fcalc(ng, h_of(m));
                            heap.push_with(f, ng, am, nodes);
                            if T::ENABLED {
                                tracer.event(Event::new(EventKind::Reopen, m, n, ng, f));
                            }
                        }
                        _ => {}
                    }
                }};
            }
            if P::EDGES {
                let skip = if skip_closed {
                    space.skip_mask(n, nodes.parent(at), &nodes.closed_nodes())
                } else {
                    0
                };
                for (m, cost) in space.neighbours_masked(n, skip) {
                    relax!(m, cost);
                }
            } else {
                succ.clear();
                policy.successors(space, n, nodes.parent(at), succ, tracer);
                for &(m, cost) in succ.iter() {
                    relax!(m, cost);
                }
            }
            stats.max_open = stats.max_open.max(open_count);
        };
        self.stats = stats;
        self.open_count = open_count;
        if reached != NONE {
            self.reached = reached;
        }
        match status {
            Status::Found => self.finish(space, tracer),
            Status::NoPath => {
                self.status = Status::NoPath;
                if T::ENABLED {
                    tracer.event(Event::marker(EventKind::NoPath, self.query.goal));
                }
            }
            _ => {}
        }
        self.status
    }
}

impl<P: Refine> SearchState for BestFirst<P> {
    fn status(&self) -> Status {
        self.status
    }

    fn path(&self) -> Option<&[NodeId]> {
        if self.status != Status::Found {
            return None;
        }
        Some(if P::IDENTITY {
            &self.path[..]
        } else {
            self.cells.get_or_init(|| {
                let mut c = vec![];
                self.policy.refine(&self.path, &mut c);
                c
            })
        })
    }

    fn cost(&self) -> Option<f64> {
        (self.status == Status::Found)
            .then(|| self.nodes.g_if_reached(self.reached))
            .flatten()
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

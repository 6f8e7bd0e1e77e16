//! RTD* (Bond, Widger, Ruml & Sun 2010) as Mäntysalo 2024 ran it: each agent step gives D* Lite a
//! budget of pops; when the budget runs out before a path is known, an LSS-LRTA* local search
//! with the other half of the budget picks the step. LSS-LRTA* follows Koenig & Sun (2009): a
//! bounded A* towards the goal, then Dijkstra-style learning of h over the expanded nodes, then
//! one step towards the best frontier node.

use super::params::{ParamKind, ParamSpec, Params, HEURISTIC};
use super::{DStarLite, Incremental, Query, Search, SearchState, Stats, Status};
use crate::space::{Heuristic, NodeId, Space};
use crate::trace::{Event, EventKind, NullTracer, Tracer, NONE};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What the global search reached within its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalStatus {
    LimitReached,
    PathFound,
    NoPath,
}

/// Runs at most `limit` pops of D* Lite (every pop counts, stale re-inserts too).
pub fn global_search<S: Space>(d: &mut DStarLite, space: &S, limit: usize) -> (GlobalStatus, u64) {
    let before = d.stats().expanded + d.stats().updated;
    for _ in 0..limit {
        match d.step(space, &mut NullTracer) {
            Status::Running => {}
            Status::Found => {
                return (
                    GlobalStatus::PathFound,
                    d.stats().expanded + d.stats().updated - before,
                )
            }
            _ => {
                return (
                    GlobalStatus::NoPath,
                    d.stats().expanded + d.stats().updated - before,
                )
            }
        }
    }
    let pops = d.stats().expanded + d.stats().updated - before;
    // The budget may end exactly as the search would: one more look settles that for free.
    if d.status() == Status::Found {
        (GlobalStatus::PathFound, pops)
    } else {
        (GlobalStatus::LimitReached, pops)
    }
}

/// The step by the global g-gradient: argmin over neighbours of c + g.
pub fn gradient_step<S: Space>(d: &DStarLite, space: &S, at: NodeId) -> Option<NodeId> {
    let g = d.g_values();
    space
        .neighbours(at)
        .map(|(s, c)| (c + g[s as usize], s))
        .filter(|(v, _)| v.is_finite())
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, s)| s)
}

/// LSS-LRTA*'s learned heuristic: the plain heuristic (Manhattan by default, Mäntysalo 2024's
/// setting) until learned otherwise.
#[derive(Clone, Debug)]
pub struct Learned {
    h: HashMap<NodeId, f64>,
    heuristic: Heuristic,
    /// The local search's working sets, kept between decisions so each one does not allocate
    /// and grow them again (a tenth of a decision's time).
    scratch: Scratch,
    /// Nodes the last local search generated (reached with a g value, the start excepted).
    pub last_generated: u64,
}

#[derive(Clone, Debug, Default)]
struct Scratch {
    g: HashMap<NodeId, f64>,
    parent: HashMap<NodeId, NodeId>,
    closed: HashSet<NodeId>,
    open: BinaryHeap<Reverse<(u64, u64, NodeId)>>,
    seen: HashSet<NodeId>,
    frontier: Vec<NodeId>,
    heap: BinaryHeap<Reverse<(u64, NodeId)>>,
    done: HashSet<NodeId>,
}

impl Scratch {
    fn clear(&mut self) {
        self.g.clear();
        self.parent.clear();
        self.closed.clear();
        self.open.clear();
        self.seen.clear();
        self.frontier.clear();
        self.heap.clear();
        self.done.clear();
    }
}

impl Default for Learned {
    fn default() -> Self {
        Learned::with(Heuristic::Manhattan)
    }
}

impl Learned {
    /// Nothing learned yet; `heuristic` until then.
    pub fn with(heuristic: Heuristic) -> Learned {
        Learned {
            h: HashMap::default(),
            heuristic,
            scratch: Scratch::default(),
            last_generated: 0,
        }
    }

    fn get<S: Space>(&self, space: &S, n: NodeId, goal: NodeId) -> f64 {
        self.h
            .get(&n)
            .copied()
            .unwrap_or_else(|| space.heuristic(self.heuristic, n, goal))
    }

    /// Forgets everything learned (after the world changes, learned values may overestimate).
    pub fn clear(&mut self) {
        self.h.clear();
    }
}

fn key(x: f64) -> u64 {
    if x.is_finite() {
        (x * 1024.0).round() as u64
    } else {
        u64::MAX
    }
}

/// One LSS-LRTA* decision: the next cell from `at` and the nodes expanded.
pub fn local_search<S: Space>(
    space: &S,
    learned: &mut Learned,
    at: NodeId,
    goal: NodeId,
    limit: usize,
) -> (Option<NodeId>, u64) {
    local_search_traced(space, learned, at, goal, limit, &mut NullTracer)
}

/// [`local_search`], each expansion an `Expand` event (parent, g, f = g + learned h).
pub fn local_search_traced<S: Space, T: Tracer>(
    space: &S,
    learned: &mut Learned,
    at: NodeId,
    goal: NodeId,
    limit: usize,
    tracer: &mut T,
) -> (Option<NodeId>, u64) {
    let mut sc = std::mem::take(&mut learned.scratch);
    sc.clear();
    let result = local_search_in(space, learned, &mut sc, at, goal, limit, tracer);
    learned.last_generated = sc.g.len().saturating_sub(1) as u64;
    learned.scratch = sc;
    result
}

fn local_search_in<S: Space, T: Tracer>(
    space: &S,
    learned: &mut Learned,
    sc: &mut Scratch,
    at: NodeId,
    goal: NodeId,
    limit: usize,
    tracer: &mut T,
) -> (Option<NodeId>, u64) {
    let Scratch {
        g,
        parent,
        closed,
        open,
        seen,
        frontier,
        heap,
        done,
    } = sc;
    g.insert(at, 0.0);
    let f = |g: f64, n: NodeId, l: &Learned| g + l.get(space, n, goal);
    open.push(Reverse((key(f(0.0, at, learned)), 0, at)));
    let mut expanded = 0u64;
    while let Some(&Reverse((_, _, n))) = open.peek() {
        if closed.contains(&n) {
            open.pop();
            continue;
        }
        if n == goal || expanded as usize >= limit {
            break;
        }
        open.pop();
        closed.insert(n);
        expanded += 1;
        let gn = g[&n];
        if T::ENABLED {
            let p = parent.get(&n).copied().unwrap_or(NONE);
            tracer.event(Event::new(EventKind::Expand, n, p, gn, f(gn, n, learned)));
        }
        for (m, c) in space.neighbours(n) {
            let ng = gn + c;
            if g.get(&m).is_none_or(|&old| ng < old) && !closed.contains(&m) {
                g.insert(m, ng);
                parent.insert(m, n);
                open.push(Reverse((key(f(ng, m, learned)), key(ng), m)));
            }
        }
    }
    // The frontier: open nodes not expanded, best f first (ties: larger g, deeper).
    frontier.extend(
        open.iter()
            .map(|Reverse((_, _, n))| *n)
            .filter(|n| !closed.contains(n) && seen.insert(*n)),
    );
    let best = frontier.iter().copied().min_by(|&a, &b| {
        let (fa, fb) = (f(g[&a], a, learned), f(g[&b], b, learned));
        fa.total_cmp(&fb).then(g[&b].total_cmp(&g[&a]))
    });
    let Some(target) = best else {
        return (None, expanded);
    };
    // Learning: h of every expanded node becomes its distance to the frontier plus the
    // frontier's h (Dijkstra backwards from the frontier over the expanded nodes).
    for &s in closed.iter() {
        learned.h.insert(s, f64::INFINITY);
    }
    for &s in frontier.iter() {
        heap.push(Reverse((key(learned.get(space, s, goal)), s)));
    }
    while let Some(Reverse((_, s))) = heap.pop() {
        if !done.insert(s) {
            continue;
        }
        let hs = learned.get(space, s, goal);
        for (p, c) in space.neighbours(s) {
            if closed.contains(&p) && learned.get(space, p, goal) > c + hs {
                learned.h.insert(p, c + hs);
                heap.push(Reverse((key(c + hs), p)));
            }
        }
    }
    // One step along the A* tree towards the target.
    let mut n = target;
    let mut prev = NONE;
    while n != at {
        prev = n;
        n = parent[&n];
    }
    (Some(prev).filter(|&p| p != NONE), expanded)
}

/// Shorthand so the harness reads like the thesis's pseudocode.
pub fn choose_step<S: Space>(
    status: GlobalStatus,
    d: &DStarLite,
    space: &S,
    learned: &mut Learned,
    at: NodeId,
    goal: NodeId,
    local_limit: usize,
) -> (Option<NodeId>, u64) {
    match status {
        GlobalStatus::PathFound => (gradient_step(d, space, at), 0),
        GlobalStatus::LimitReached => local_search(space, learned, at, goal, local_limit),
        GlobalStatus::NoPath => (None, 0),
    }
}

/// Passes on the global search's work (expansions, inconsistencies) but not its endings: RTD*
/// ends when the agent arrives, not when D* Lite has a path.
struct GlobalEvents<'a, T>(&'a mut T);

impl<T: Tracer> Tracer for GlobalEvents<'_, T> {
    const ENABLED: bool = T::ENABLED;
    fn event(&mut self, e: Event) {
        use EventKind::*;
        if !matches!(e.kind, Source | Destination | PathNode | Found | NoPath) {
            self.0.event(e);
        }
    }
}

/// The expansion limit per agent step.
pub const LIMIT: ParamSpec = ParamSpec {
    name: "limit",
    help: "expansions per agent step, half global (D* Lite), half local (LSS-LRTA*)",
    kind: ParamKind::Int,
    default: 32.0,
    min: 2.0,
    max: 4096.0,
};

/// RTD* as a single run: an agent at the query's start moves one cell per decision until it
/// reaches the goal. A decision spends up to `limit` expansions: one D* Lite pop per step for
/// the first half; if D* Lite has no path by then, an LSS-LRTA* local search with the other
/// half picks the move. The path is the walk the agent made (cells may repeat), so it is
/// valid but not optimal. Each move is a `Replan` event at the agent's new cell.
#[derive(Clone, Debug)]
pub struct RtdStar {
    d: DStarLite,
    learned: Learned,
    heuristic: Heuristic,
    global: usize,
    local: usize,
    goal: NodeId,
    at: NodeId,
    trail: Vec<NodeId>,
    cost: f64,
    /// D* Lite pops left in this decision.
    pops_left: usize,
    status: Status,
    stats: Stats,
    started: bool,
}

impl RtdStar {
    /// Registry parameters.
    pub const PARAMS: &'static [ParamSpec] = &[LIMIT, HEURISTIC];

    /// RTD* for `query` with `limit` expansions per step.
    pub fn new<S: Space>(space: &S, query: Query, limit: usize, h: Heuristic) -> RtdStar {
        let limit = limit.max(2);
        let mut r = RtdStar {
            d: DStarLite::new(space, query, h),
            learned: Learned::with(h),
            heuristic: h,
            global: limit - limit / 2,
            local: limit / 2,
            goal: query.goal,
            at: query.start,
            trail: vec![],
            cost: 0.0,
            pops_left: 0,
            status: Status::Running,
            stats: Stats::default(),
            started: false,
        };
        Search::reset(&mut r, space, query);
        r
    }

    /// From registry parameters.
    pub fn from_params<S: Space>(space: &S, query: Query, p: &Params) -> RtdStar {
        RtdStar::new(space, query, p.get("limit") as usize, p.heuristic())
    }

    /// Moves the agent to `next` and starts the next decision.
    fn advance<S: Space, T: Tracer>(&mut self, space: &S, next: NodeId, tracer: &mut T) {
        if next != self.at {
            self.cost += space
                .neighbours(self.at)
                .find(|&(m, _)| m == next)
                .map_or(0.0, |(_, c)| c);
            self.at = next;
            self.d.advance(space, next);
        }
        self.trail.push(next);
        self.pops_left = self.global;
        if T::ENABLED {
            tracer.event(Event::new(EventKind::Replan, next, NONE, self.cost, 0.0));
        }
        if next == self.goal {
            self.status = Status::Found;
            if T::ENABLED {
                super::trace_path(space, &self.trail, tracer);
                tracer.event(Event::new(
                    EventKind::Found,
                    self.goal,
                    NONE,
                    self.cost,
                    0.0,
                ));
            }
        } else if self.trail.len() > 20 * space.num_nodes().max(1) {
            // The world may never let the agent through; give up like the harness does.
            self.status = Status::NoPath;
            if T::ENABLED {
                tracer.event(Event::marker(EventKind::NoPath, self.goal));
            }
        }
    }
}

impl<S: Space> Search<S> for RtdStar {
    fn reset(&mut self, space: &S, query: Query) {
        Search::reset(&mut self.d, space, query);
        self.learned = Learned::with(self.heuristic);
        self.goal = query.goal;
        self.at = query.start;
        self.trail = vec![query.start];
        self.cost = 0.0;
        self.pops_left = self.global;
        // D* Lite queues its first node as it resets: that generation counts too.
        self.stats = Stats {
            generated: self.d.stats().generated,
            ..Stats::default()
        };
        self.started = false;
        self.status = if space.is_passable(query.start) && space.is_passable(query.goal) {
            if query.start == query.goal {
                Status::Found
            } else {
                Status::Running
            }
        } else {
            Status::NoPath
        };
    }

    fn step<T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status {
        if self.status != Status::Running {
            return self.status;
        }
        if T::ENABLED && !self.started {
            tracer.event(Event::new(EventKind::Source, self.at, NONE, 0.0, 0.0));
            tracer.event(Event::marker(EventKind::Destination, self.goal));
        }
        self.started = true;
        // One pop of the global search, while this decision's half lasts and it runs.
        if self.pops_left > 0 && self.d.status() == Status::Running {
            let before = self.d.stats();
            self.d.step(space, &mut GlobalEvents(tracer));
            let after = self.d.stats();
            self.stats.expanded += after.expanded - before.expanded;
            self.stats.generated += after.generated - before.generated;
            self.pops_left -= 1;
            return self.status;
        }
        let status = match self.d.status() {
            Status::Found => GlobalStatus::PathFound,
            Status::NoPath => GlobalStatus::NoPath,
            _ => GlobalStatus::LimitReached,
        };
        let next = match status {
            GlobalStatus::PathFound => gradient_step(&self.d, space, self.at),
            GlobalStatus::LimitReached => {
                let (n, e) = local_search_traced(
                    space,
                    &mut self.learned,
                    self.at,
                    self.goal,
                    self.local,
                    tracer,
                );
                self.stats.expanded += e;
                self.stats.generated += self.learned.last_generated;
                n
            }
            GlobalStatus::NoPath => None,
        };
        match next {
            Some(n) => self.advance(space, n, tracer),
            None if status == GlobalStatus::NoPath => {
                self.status = Status::NoPath;
                if T::ENABLED {
                    tracer.event(Event::marker(EventKind::NoPath, self.goal));
                }
            }
            // Nothing to step to yet: wait a tick.
            None => self.advance(space, self.at, tracer),
        }
        self.status
    }

    fn repair<T: Tracer>(&mut self, space: &S, around: &[NodeId], tracer: &mut T) -> bool {
        self.d
            .world_changed(space, around, &mut GlobalEvents(tracer));
        if self.status == Status::Found && self.at != self.goal {
            self.status = Status::Running;
        }
        true
    }

    fn start_moved(&mut self, space: &S, start: NodeId) -> bool {
        // An agent outside (the app's) now stands at `start`: the walk goes on from there.
        self.d.advance(space, start);
        self.at = start;
        self.trail = vec![start];
        self.cost = 0.0;
        self.pops_left = self.global;
        self.status = if start == self.goal {
            Status::Found
        } else {
            Status::Running
        };
        true
    }
}

impl SearchState for RtdStar {
    fn status(&self) -> Status {
        self.status
    }

    fn path(&self) -> Option<&[NodeId]> {
        (self.status == Status::Found).then_some(&self.trail[..])
    }

    fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then_some(self.cost)
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn open_len(&self) -> usize {
        self.d.open_len()
    }

    fn g(&self, n: NodeId) -> Option<f64> {
        self.d.g(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::AStar;
    use crate::space::{Connectivity, GridSpace};
    use crate::trace::Recorder;

    fn world() -> (GridSpace, Query) {
        let rows = [
            "..........",
            ".@@@@@@@@.",
            ".@......@.",
            ".@.@@@@.@.",
            "...@..@...",
        ];
        // From the bottom-left corner to inside the box (entered at x = 2 or x = 7).
        let sp = GridSpace::from_rows(&rows, Connectivity::Four, crate::space::TerrainRule::Class);
        let q = Query {
            start: sp.node(0, 4).unwrap(),
            goal: sp.node(5, 2).unwrap(),
        };
        (sp, q)
    }

    /// With a budget large enough for D* Lite to finish in the first decision, the agent walks
    /// an optimal path; with a small one it walks a valid, longer or equal one, and every move
    /// is one `Replan` event.
    #[test]
    fn the_walk_is_optimal_with_a_large_budget_and_valid_with_a_small_one() {
        let (sp, q) = world();
        let mut a = AStar::new(&sp, q, Heuristic::Manhattan);
        a.run(&sp, &mut NullTracer);
        let best = a.cost().unwrap();
        let mut big = RtdStar::new(&sp, q, 4096, Heuristic::Manhattan);
        assert_eq!(big.run(&sp, &mut NullTracer), Status::Found);
        assert_eq!(big.cost(), Some(best));
        let mut small = RtdStar::new(&sp, q, 4, Heuristic::Manhattan);
        let mut rec = Recorder::new(sp.num_nodes());
        assert_eq!(small.run(&sp, &mut rec), Status::Found);
        let walk = small.path().unwrap().to_vec();
        assert!(small.cost().unwrap() >= best);
        assert_eq!(super::super::path_cost(&sp, &walk), small.cost());
        let moves = rec.iter().filter(|e| e.kind == EventKind::Replan).count();
        assert_eq!(moves, walk.len() - 1);
        assert_eq!(rec.iter().filter(|e| e.kind == EventKind::Found).count(), 1);
    }

    /// The statistics count generated nodes of both halves: D* Lite's own count with a big
    /// budget, and more once local searches run too (each reaches at least one new node).
    #[test]
    fn generated_counts_the_global_and_the_local_search() {
        let (sp, q) = world();
        let mut d = DStarLite::new(&sp, q, Heuristic::Manhattan);
        d.run(&sp, &mut NullTracer);
        let mut big = RtdStar::new(&sp, q, 1 << 20, Heuristic::Manhattan);
        big.run(&sp, &mut NullTracer);
        assert_eq!(big.stats().generated, d.stats().generated);
        let mut small = RtdStar::new(&sp, q, 4, Heuristic::Manhattan);
        small.run(&sp, &mut NullTracer);
        let s = small.stats();
        // On this map the local searches reach more nodes than they expand; without their
        // count, generated (D* Lite's alone) falls below expanded.
        assert!(s.expanded > 0 && s.generated >= s.expanded, "{s:?}");
    }
}

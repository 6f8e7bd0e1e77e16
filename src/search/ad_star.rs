//! AD* (Likhachev, Ferguson, Gordon, Stentz & Thrun 2005), Mäntysalo 2024's Figure 3.8: D* Lite's
//! backward repairs with ARA*'s inflated, falling ε. Overconsistent nodes get inflated keys,
//! underconsistent ones plain keys; each search expands a node at most once (later
//! inconsistencies wait in INCONS), and every search publishes a solution costing at most ε
//! times the optimum. One step is one pop.

use super::incremental::Incremental;
use super::params::{ParamSpec, Params, DECREMENT, EPSILON, HEURISTIC};
use super::{Query, Search, SearchState, Stats, Status};
use crate::space::{Heuristic, NodeId, Space};
use crate::trace::{Event, EventKind, Tracer, NONE};

const INF: f64 = f64::INFINITY;

use super::heap::key_or_inf as q;
use super::keyed_heap::KeyedHeap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Set {
    None,
    Open,
    Closed,
    Incons,
    /// Closed in this search and inconsistent: waits for the next search.
    ClosedIncons,
}

/// AD* search state.
#[derive(Clone, Debug)]
pub struct AdStar {
    heuristic: Heuristic,
    eps: f64,
    eps_start: f64,
    decrement: f64,
    g: Vec<f64>,
    rhs: Vec<f64>,
    set: Vec<Set>,
    /// OPEN under its keys (the nodes whose set is `Open`).
    heap: KeyedHeap,
    /// Nodes closed in this search, and nodes made inconsistent after they closed (INCONS):
    /// the next search visits these and OPEN only, never the whole map.
    closed_nodes: Vec<NodeId>,
    incons_nodes: Vec<NodeId>,
    query: Query,
    status: Status,
    stats: Stats,
    path: Vec<NodeId>,
    solutions: Vec<(f64, f64)>,
    /// Lower ε and search again after each solution (a single anytime search); off in agent
    /// runs, where the harness sets ε.
    anytime: bool,
    started: bool,
    /// The expanded node's predecessors, reused between expansions.
    preds: Vec<NodeId>,
}

impl AdStar {
    /// Registry parameters.
    pub const PARAMS: &'static [ParamSpec] = &[EPSILON, DECREMENT, HEURISTIC];

    /// AD* from ε₀ = `eps`; with `decrement` > 0 it keeps improving until ε = 1.
    pub fn new<S: Space>(space: &S, query: Query, eps: f64, decrement: f64, h: Heuristic) -> Self {
        let mut a = AdStar {
            heuristic: h,
            eps: eps.max(1.0),
            eps_start: eps.max(1.0),
            decrement: decrement.max(0.0),
            g: vec![],
            rhs: vec![],
            set: vec![],
            heap: KeyedHeap::default(),
            closed_nodes: vec![],
            incons_nodes: vec![],
            query,
            status: Status::Running,
            stats: Stats::default(),
            path: vec![],
            solutions: vec![],
            anytime: decrement > 0.0,
            started: false,
            preds: vec![],
        };
        Search::reset(&mut a, space, query);
        a
    }

    /// From registry parameters.
    pub fn from_params<S: Space>(space: &S, query: Query, p: &Params) -> Self {
        AdStar::new(
            space,
            query,
            p.get("epsilon"),
            p.get("decrement"),
            p.heuristic(),
        )
    }

    /// The current ε.
    pub fn epsilon(&self) -> f64 {
        self.eps
    }

    /// Solutions published so far: (ε, cost of the path followed greedily on g).
    pub fn solutions(&self) -> &[(f64, f64)] {
        &self.solutions
    }

    /// Sets ε for the next search (agent runs drive ε themselves) and starts that search,
    /// reusing everything found so far.
    pub fn set_epsilon<S: Space>(&mut self, space: &S, eps: f64) {
        self.eps = eps.max(1.0);
        self.next_search(space);
    }

    fn key(&self, h: &impl Fn(NodeId) -> f64, n: NodeId) -> (u64, u64) {
        let (g, rhs) = (self.g[n as usize], self.rhs[n as usize]);
        if q(g) > q(rhs) {
            (q(rhs + self.eps * h(n)), q(rhs))
        } else {
            (q(g + h(n)), q(g))
        }
    }

    fn best_successor<S: Space>(&self, space: &S, u: NodeId) -> (f64, NodeId) {
        super::incremental::lookahead(space, &self.g, u)
    }

    fn push_open(&mut self, h: &impl Fn(NodeId) -> f64, n: NodeId) {
        let (k1, k2) = self.key(h, n);
        self.set[n as usize] = Set::Open;
        if self.heap.set(n, ((k1 as u128) << 64) | k2 as u128) {
            self.stats.generated += 1;
            self.stats.max_open = self.stats.max_open.max(self.heap.len() as u64);
        }
    }

    fn update_state<S: Space, T: Tracer>(
        &mut self,
        space: &S,
        h: &impl Fn(NodeId) -> f64,
        s: NodeId,
        tracer: &mut T,
    ) {
        if s != self.query.goal {
            self.rhs[s as usize] = self.best_successor(space, s).0;
        }
        let i = s as usize;
        let closed = matches!(self.set[i], Set::Closed | Set::ClosedIncons);
        let was_open = self.set[i] == Set::Open;
        if was_open {
            self.set[i] = Set::None;
            self.heap.remove(s);
        }
        if q(self.g[i]) != q(self.rhs[i]) {
            if closed {
                if self.set[i] != Set::ClosedIncons {
                    self.incons_nodes.push(s);
                }
                self.set[i] = Set::ClosedIncons;
            } else if self.set[i] == Set::Incons {
                // stays in INCONS until the next search
            } else {
                self.push_open(h, s);
            }
            if T::ENABLED {
                tracer.event(Event::new(
                    EventKind::Inconsistent,
                    s,
                    NONE,
                    self.g[i],
                    self.rhs[i],
                ));
            }
        } else {
            let was_inconsistent =
                was_open || self.set[i] == Set::Incons || self.set[i] == Set::ClosedIncons;
            if self.set[i] == Set::Incons || self.set[i] == Set::ClosedIncons {
                self.set[i] = if closed { Set::Closed } else { Set::None };
            }
            if was_inconsistent && T::ENABLED {
                tracer.event(Event::new(
                    EventKind::Consistent,
                    s,
                    NONE,
                    self.g[i],
                    self.rhs[i],
                ));
            }
        }
    }

    /// INCONS joins OPEN, OPEN's keys are remade for the current start and ε, CLOSED empties.
    /// The published algorithm's work: it touches OPEN, INCONS and CLOSED, not every node of
    /// the map (a pass over the map per replan cost AD* as much as A*'s whole search).
    fn next_search<S: Space>(&mut self, space: &S) {
        let h = space.heuristic_to(self.heuristic, self.query.start);
        let mut again: Vec<NodeId> = self.heap.iter().map(|(_, n)| n).collect();
        again.append(&mut self.incons_nodes);
        self.heap.clear();
        for n in self.closed_nodes.drain(..) {
            if self.set[n as usize] == Set::Closed {
                self.set[n as usize] = Set::None;
            }
        }
        // A node listed twice is taken once: its set is `None` after the first.
        let mut reopen = Vec::with_capacity(again.len());
        for n in again {
            let i = n as usize;
            if matches!(self.set[i], Set::Open | Set::Incons | Set::ClosedIncons) {
                self.set[i] = Set::None;
                reopen.push(n);
            }
        }
        for n in reopen {
            if q(self.g[n as usize]) != q(self.rhs[n as usize]) {
                self.push_open(&h, n);
            }
        }
        self.path.clear();
        self.status = if space.is_passable(self.query.start) && space.is_passable(self.query.goal) {
            Status::Running
        } else {
            Status::NoPath
        };
    }

    fn top(&self) -> Option<((u64, u64), NodeId)> {
        self.heap
            .top()
            .map(|(k, n)| (((k >> 64) as u64, k as u64), n))
    }

    fn publish<S: Space, T: Tracer>(&mut self, space: &S, tracer: &mut T) {
        self.path.clear();
        let mut n = self.query.start;
        self.path.push(n);
        let mut cost = 0.0;
        while n != self.query.goal {
            let mut best = (INF, NONE, 0.0);
            for (s, c) in space.neighbours(n) {
                let v = c + self.g[s as usize];
                if v < best.0 {
                    best = (v, s, c);
                }
            }
            if best.1 == NONE || !best.0.is_finite() || self.path.len() > self.g.len() {
                self.path.clear();
                self.status = Status::NoPath;
                return;
            }
            n = best.1;
            cost += best.2;
            self.path.push(n);
        }
        self.solutions.push((self.eps, cost));
        if T::ENABLED {
            tracer.event(Event::new(
                EventKind::Solution,
                self.query.goal,
                NONE,
                cost,
                self.eps,
            ));
        }
        if self.anytime && self.eps > 1.0 {
            self.eps = (self.eps - self.decrement).max(1.0);
            if T::ENABLED {
                tracer.event(Event::marker(
                    EventKind::Phase,
                    self.solutions.len() as NodeId,
                ));
            }
            self.next_search(space);
            return;
        }
        if T::ENABLED {
            super::trace_path(space, &self.path, tracer);
            tracer.event(Event::new(
                EventKind::Found,
                self.query.goal,
                NONE,
                cost,
                0.0,
            ));
        }
        self.status = Status::Found;
    }
}

impl<S: Space> Search<S> for AdStar {
    fn repair<T: Tracer>(&mut self, space: &S, around: &[NodeId], tracer: &mut T) -> bool {
        Incremental::world_changed(self, space, around, tracer);
        true
    }

    fn start_moved(&mut self, space: &S, start: NodeId) -> bool {
        Incremental::move_start(self, space, start);
        true
    }

    fn reset(&mut self, space: &S, query: Query) {
        let n = space.num_nodes();
        self.g.clear();
        self.g.resize(n, INF);
        self.rhs.clear();
        self.rhs.resize(n, INF);
        self.set.clear();
        self.set.resize(n, Set::None);
        self.heap.reset(n);
        self.closed_nodes.clear();
        self.incons_nodes.clear();
        self.query = query;
        self.eps = self.eps_start;
        self.stats = Stats::default();
        self.path.clear();
        self.solutions.clear();
        self.started = false;
        self.status = Status::Running;
        if !space.is_passable(query.start) || !space.is_passable(query.goal) {
            self.status = Status::NoPath;
            return;
        }
        self.rhs[query.goal as usize] = 0.0;
        let h = space.heuristic_to(self.heuristic, query.start);
        self.push_open(&h, query.goal);
    }

    fn step<T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status {
        if self.status != Status::Running {
            return self.status;
        }
        if T::ENABLED && !self.started {
            tracer.event(Event::new(
                EventKind::Source,
                self.query.goal,
                NONE,
                0.0,
                0.0,
            ));
            tracer.event(Event::marker(EventKind::Destination, self.query.start));
        }
        self.started = true;
        let hf = space.heuristic_to(self.heuristic, self.query.start);
        let h = &hf;
        let s = self.query.start;
        let start_key = self.key(h, s);
        let top = self.top();
        let go_on = top.is_some_and(|t| t.0 < start_key)
            || q(self.rhs[s as usize]) != q(self.g[s as usize]);
        let Some((_, u)) = top.filter(|_| go_on) else {
            if self.g[s as usize].is_finite() || self.rhs[s as usize].is_finite() {
                self.publish(space, tracer);
            } else {
                self.status = Status::NoPath;
                if T::ENABLED {
                    tracer.event(Event::marker(EventKind::NoPath, self.query.goal));
                }
            }
            return self.status;
        };
        self.heap.remove(u);
        self.set[u as usize] = Set::None;
        self.stats.expanded += 1;
        let (g, rhs) = (self.g[u as usize], self.rhs[u as usize]);
        if T::ENABLED {
            let parent = self.best_successor(space, u).1;
            // min(g, rhs) + h: finite for a node expanded to raise its g as well.
            tracer.event(Event::new(
                EventKind::Expand,
                u,
                parent,
                rhs,
                g.min(rhs) + h(u),
            ));
        }
        let mut preds = std::mem::take(&mut self.preds);
        preds.clear();
        space.for_each_predecessor(u, |p, _| preds.push(p));
        if q(g) > q(rhs) {
            self.g[u as usize] = rhs;
            self.set[u as usize] = Set::Closed;
            self.closed_nodes.push(u);
            for &p in &preds {
                self.update_state(space, h, p, tracer);
            }
        } else {
            self.g[u as usize] = INF;
            self.stats.reopened += 1;
            for &p in &preds {
                self.update_state(space, h, p, tracer);
            }
            self.update_state(space, h, u, tracer);
        }
        self.preds = preds;
        Status::Running
    }
}

impl<S: Space> Incremental<S> for AdStar {
    fn world_changed<T: Tracer>(&mut self, space: &S, around: &[NodeId], tracer: &mut T) {
        if self.g.len() != space.num_nodes() {
            Search::reset(self, space, self.query);
            return;
        }
        if T::ENABLED {
            tracer.event(Event::marker(EventKind::WorldChange, NONE));
            tracer.event(Event::marker(EventKind::Replan, self.query.start));
        }
        let h = space.heuristic_to(self.heuristic, self.query.start);
        for &u in around {
            if (u as usize) < self.g.len() {
                self.update_state(space, &h, u, tracer);
            }
        }
        self.next_search(space);
    }

    fn move_start(&mut self, space: &S, start: NodeId) {
        self.query.start = start;
        // No k_m in AD*: the next search re-keys everything for the new start.
        self.next_search(space);
    }
}

impl SearchState for AdStar {
    fn status(&self) -> Status {
        self.status
    }

    fn path(&self) -> Option<&[NodeId]> {
        (!self.path.is_empty() && !self.solutions.is_empty()).then_some(&self.path[..])
    }

    fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then(|| self.solutions.last().map_or(0.0, |s| s.1))
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn open_len(&self) -> usize {
        self.heap.len()
    }

    fn g(&self, n: NodeId) -> Option<f64> {
        self.g.get(n as usize).copied().filter(|g| g.is_finite())
    }

    fn queue_key(&self, n: NodeId) -> Option<(f64, f64)> {
        self.heap.key_pair(n)
    }
}

//! D* Lite (Koenig & Likhachev 2002), the basic version of Mäntysalo 2024's Figure 3.3: a backward
//! search from the goal whose g and rhs values are repaired, not recomputed, when edge costs
//! change or the agent moves. One step is one pop of its priority queue.

use super::incremental::lookahead;
pub use super::incremental::{EdgeChange, Incremental, KeyRule, StepTies};
use super::keyed_heap::KeyedHeap;
use super::params::{ParamSpec, Params, DSTAR_EPSILON, DSTAR_KEY, HEURISTIC};
use super::{Query, Search, SearchState, Stats, Status};
use crate::space::{Heuristic, NodeId, Space};
use crate::trace::{Event, EventKind, Tracer, NONE};

const INF: f64 = f64::INFINITY;

/// A queue key, compared on the first component, then the second, in the open list's fixed
/// point (2⁻²⁰ units). The tie-break on the second component decides when D* Lite may stop, so
/// ties must be exact: in f64, sums equal in exact arithmetic (g + h + k_m in different orders)
/// differ in the last bit, and a search stopped one node early left a wrong g at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key(u64, u64);

/// A cost in key units; infinity above every finite cost.
use super::heap::key_or_inf as q;

impl Key {
    fn lt(self, o: Key) -> bool {
        self < o
    }

    /// As one integer for the keyed heap: the first component in the high half.
    fn packed(self) -> u128 {
        ((self.0 as u128) << 64) | self.1 as u128
    }

    fn unpacked(k: u128) -> Key {
        Key((k >> 64) as u64, k as u64)
    }
}

/// D* Lite search state.
#[derive(Clone, Debug)]
pub struct DStarLite {
    step_ties: StepTies,
    /// Stop when the start is consistent and leave the path to [`DStarLite::finish_path`]: the
    /// agent needs only its next step to move, and Mäntysalo 2024 times a recompute up to that.
    path_on_demand: bool,
    heuristic: Heuristic,
    eps: f64,
    rule: KeyRule,
    g: Vec<f64>,
    rhs: Vec<f64>,
    /// The inconsistent nodes under their keys.
    heap: KeyedHeap,
    /// The world change at which each node was last updated (`around` lists a node once per
    /// changed cell next to it; a repeat would redo the same lookahead).
    seen: Vec<u32>,
    change: u32,
    km: f64,
    query: Query,
    last: NodeId,
    status: Status,
    stats: Stats,
    path: Vec<NodeId>,
    started: bool,
    /// The expanded node's predecessors, reused between expansions (any degree, no allocation).
    preds: Vec<(NodeId, f64)>,
}

impl DStarLite {
    /// Registry parameters.
    pub const PARAMS: &'static [ParamSpec] = &[HEURISTIC, DSTAR_EPSILON, DSTAR_KEY];

    /// D* Lite for `query` with heuristic `h`.
    pub fn new<S: Space>(space: &S, query: Query, h: Heuristic) -> DStarLite {
        let mut s = DStarLite {
            heuristic: h,
            eps: 1.0,
            rule: KeyRule::Krafft2019,
            g: vec![],
            rhs: vec![],
            heap: KeyedHeap::default(),
            seen: vec![],
            change: 0,
            km: 0.0,
            query,
            last: query.start,
            status: Status::Running,
            stats: Stats::default(),
            path: vec![],
            started: false,
            step_ties: StepTies::First,
            path_on_demand: false,
            preds: vec![],
        };
        Search::reset(&mut s, space, query);
        s
    }

    /// From registry parameters.
    pub fn from_params<S: Space>(space: &S, query: Query, p: &Params) -> DStarLite {
        let rule = if p.get("key") >= 1.0 {
            KeyRule::Original
        } else {
            KeyRule::Krafft2019
        };
        let eps = if p.values().contains_key("epsilon") {
            p.get("epsilon")
        } else {
            1.0
        };
        DStarLite::inflated(space, query, p.heuristic(), eps, rule)
    }

    /// D* Lite with the heuristic inflated by `eps` (≥ 1), keys made by `rule`.
    pub fn inflated<S: Space>(
        space: &S,
        query: Query,
        h: Heuristic,
        eps: f64,
        rule: KeyRule,
    ) -> DStarLite {
        let mut d = DStarLite::new(space, query, h);
        d.eps = eps.max(1.0);
        d.rule = rule;
        Search::reset(&mut d, space, query);
        d
    }

    /// rhs of node `n` (the one-step lookahead value).
    pub fn rhs(&self, n: NodeId) -> f64 {
        self.rhs.get(n as usize).copied().unwrap_or(INF)
    }

    /// The key modifier k_m.
    pub fn km(&self) -> f64 {
        self.km
    }

    /// Moves the start and raises k_m at once by h(old, new) (RTD*, whose global search goes
    /// on every step): summed per step this is at least what one raise at the next change
    /// would be, which keeps old keys valid lower bounds.
    pub fn advance<S: Space>(&mut self, space: &S, start: NodeId) {
        self.km += self.eps * space.heuristic(self.heuristic, self.query.start, start);
        self.last = start;
        Incremental::move_start(self, space, start);
    }

    /// What every world change starts with: k_m catches up with the agent's moves, and the
    /// change is recorded. False when the space changed size (the search started over).
    fn begin_change<S: Space, T: Tracer>(&mut self, space: &S, tracer: &mut T) -> bool {
        if self.g.len() != space.num_nodes() {
            Search::reset(self, space, self.query);
            return false;
        }
        // Scaled by ε, since keys carry ε·h (Krafft 2019's code does the same).
        self.km += self.eps * space.heuristic(self.heuristic, self.last, self.query.start);
        self.last = self.query.start;
        if T::ENABLED {
            tracer.event(Event::marker(EventKind::WorldChange, NONE));
            tracer.event(Event::marker(EventKind::Replan, self.query.start));
        }
        true
    }

    /// After a change: the old path is gone and the search runs again (if its ends are free).
    fn end_change<S: Space>(&mut self, space: &S) {
        self.path.clear();
        let ends_free = space.is_passable(self.query.start) && space.is_passable(self.query.goal);
        self.status = if ends_free {
            Status::Running
        } else {
            Status::NoPath
        };
    }

    /// g of every node (∞ where unknown), for step choices by argmin c + g.
    pub fn g_values(&self) -> &[f64] {
        &self.g
    }

    /// Checks D* Lite's invariants (rhs is the one-step lookahead of g; exactly the
    /// inconsistent nodes are queued, under their current keys): a test aid, O(nodes).
    pub fn check_invariants<S: Space>(&self, space: &S) -> Result<(), String> {
        for n in 0..self.g.len() as NodeId {
            let want = if n == self.query.goal {
                0.0
            } else {
                self.best_successor(space, n).0
            };
            if self.rhs[n as usize] != want {
                return Err(format!(
                    "rhs({n}) = {} but lookahead is {want}",
                    self.rhs[n as usize]
                ));
            }
            let inconsistent = q(self.g[n as usize]) != q(self.rhs[n as usize]);
            if inconsistent != self.heap.contains(n) {
                return Err(format!(
                    "node {n}: g {} rhs {} queued {:?}",
                    self.g[n as usize],
                    self.rhs[n as usize],
                    self.heap.key_of(n).map(Key::unpacked)
                ));
            }
        }
        Ok(())
    }

    /// The key of `n`; `h` is the heuristic towards the current start (made once per step by
    /// `Space::heuristic_to`, so the start's coordinates are not worked out per key).
    #[inline]
    fn key(&self, h: &impl Fn(NodeId) -> f64, n: NodeId) -> Key {
        let (g, rhs) = (self.g[n as usize], self.rhs[n as usize]);
        if self.eps == 1.0 {
            let m = g.min(rhs);
            return Key(q(m + h(n) + self.km), q(m));
        }
        match self.rule {
            KeyRule::Krafft2019 if q(g) > q(rhs) => Key(q(rhs + self.eps * h(n) + self.km), q(rhs)),
            KeyRule::Krafft2019 => Key(q(g + h(n) + self.km), q(g)),
            KeyRule::Original => {
                let m = g.min(rhs);
                Key(q(m + self.eps * h(n) + self.km), q(m))
            }
        }
    }

    #[inline]
    fn enqueue(&mut self, n: NodeId, k: Key) {
        if self.heap.set(n, k.packed()) {
            self.stats.generated += 1;
            self.stats.max_open = self.stats.max_open.max(self.heap.len() as u64);
        }
    }

    #[inline]
    /// Takes `n` off the queue; false if it was not on it.
    fn dequeue(&mut self, n: NodeId) -> bool {
        self.heap.remove(n)
    }

    /// Best successor value: min over s of c(u, s) + g(s), and the s giving it.
    #[inline]
    fn best_successor<S: Space>(&self, space: &S, u: NodeId) -> (f64, NodeId) {
        lookahead(space, &self.g, u)
    }

    /// Untraced runs end without extracting the path; [`Self::finish_path`] extracts it.
    pub fn set_path_on_demand(&mut self, on: bool) {
        self.path_on_demand = on;
    }

    /// Extracts the path of a run that ended with the path left on demand.
    pub fn finish_path<S: Space>(&mut self, space: &S) {
        if self.status == Status::Found && self.path.is_empty() {
            self.extract_path(space, &mut crate::trace::NullTracer);
        }
    }

    /// Sets how the path breaks ties between successors of equal c + g.
    pub fn set_step_ties(&mut self, t: StepTies) {
        self.step_ties = t;
    }

    /// The path's next node after `u` under the step tie rule.
    fn path_step<S: Space>(&self, space: &S, u: NodeId) -> (f64, NodeId) {
        if self.step_ties == StepTies::First {
            return lookahead(space, &self.g, u);
        }
        let to_goal = space.heuristic_to(Heuristic::Euclidean, self.query.goal);
        let mut best = ((u64::MAX, u64::MAX), INF, NONE);
        for (s, c) in space.neighbours(u) {
            let v = c + self.g[s as usize];
            let k = (q(v), q(to_goal(s)));
            if v.is_finite() && k < best.0 {
                best = (k, v, s);
            }
        }
        (best.1, best.2)
    }

    fn update_vertex<S: Space, T: Tracer>(
        &mut self,
        space: &S,
        h: &impl Fn(NodeId) -> f64,
        u: NodeId,
        tracer: &mut T,
    ) {
        if u != self.query.goal {
            self.rhs[u as usize] = self.best_successor(space, u).0;
        }
        self.requeue(h, u, tracer);
    }

    /// Queues `u` under its current key if it is inconsistent, and takes it off otherwise.
    #[inline]
    fn requeue<T: Tracer>(&mut self, h: &impl Fn(NodeId) -> f64, u: NodeId, tracer: &mut T) {
        let (g, rhs) = (self.g[u as usize], self.rhs[u as usize]);
        if q(g) != q(rhs) {
            let k = self.key(h, u);
            self.enqueue(u, k);
            if T::ENABLED {
                tracer.event(Event::new(EventKind::Inconsistent, u, NONE, g, rhs));
            }
        } else if self.dequeue(u) && T::ENABLED {
            tracer.event(Event::new(EventKind::Consistent, u, NONE, g, rhs));
        }
    }

    /// Follows the lowest c + g from the start to the goal.
    fn extract_path<S: Space, T: Tracer>(&mut self, space: &S, tracer: &mut T) {
        self.path.clear();
        let mut n = self.query.start;
        self.path.push(n);
        let limit = self.g.len();
        while n != self.query.goal {
            let (v, s) = self.path_step(space, n);
            if s == NONE || !v.is_finite() || self.path.len() > limit {
                self.path.clear();
                self.status = Status::NoPath;
                return;
            }
            n = s;
            self.path.push(n);
        }
        if T::ENABLED {
            super::trace_path(space, &self.path, tracer);
            tracer.event(Event::new(
                EventKind::Found,
                self.query.goal,
                NONE,
                self.g[self.query.start as usize],
                0.0,
            ));
        }
        self.status = Status::Found;
    }
}

impl<S: Space> Search<S> for DStarLite {
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
        self.heap.reset(n);
        self.km = 0.0;
        self.query = query;
        self.last = query.start;
        self.stats = Stats::default();
        self.path.clear();
        self.started = false;
        self.status = Status::Running;
        if !space.is_passable(query.start) || !space.is_passable(query.goal) {
            self.status = Status::NoPath;
            return;
        }
        self.rhs[query.goal as usize] = 0.0;
        let k = self.key(&space.heuristic_to(self.heuristic, query.start), query.goal);
        self.enqueue(query.goal, k);
    }

    fn step<T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status {
        if self.status != Status::Running {
            return self.status;
        }
        if T::ENABLED && !self.started {
            // Backward search: it grows from the goal.
            let goal = self.query.goal;
            tracer.event(Event::new(EventKind::Source, goal, NONE, 0.0, 0.0));
            tracer.event(Event::marker(EventKind::Destination, self.query.start));
        }
        self.started = true;
        let s = self.query.start as usize;
        let hf = space.heuristic_to(self.heuristic, self.query.start);
        let h = &hf;
        let start_key = self.key(h, self.query.start);
        let top = self.heap.top().map(|(k, n)| (Key::unpacked(k), n));
        let go_on = top.is_some_and(|t| t.0.lt(start_key)) || q(self.rhs[s]) != q(self.g[s]);
        let Some((top_key, u)) = top.filter(|_| go_on) else {
            if self.g[s].is_finite() && self.path_on_demand && !T::ENABLED {
                self.path.clear();
                self.status = Status::Found;
            } else if self.g[s].is_finite() {
                self.extract_path(space, tracer);
            } else {
                self.status = Status::NoPath;
                if T::ENABLED {
                    tracer.event(Event::marker(EventKind::NoPath, self.query.goal));
                }
            }
            return self.status;
        };
        let k_new = self.key(h, u);
        if top_key.lt(k_new) {
            // k_m grew since this key was made: queue it again with its current key.
            self.enqueue(u, k_new);
            self.stats.updated += 1;
            return Status::Running;
        }
        self.dequeue(u);
        self.stats.expanded += 1;
        let (g, rhs) = (self.g[u as usize], self.rhs[u as usize]);
        if T::ENABLED {
            let parent = self.best_successor(space, u).1;
            // The key's cost part: min(g, rhs) + h. A node expanded to raise its g (its rhs
            // infinite once its way is blocked) has a finite f all the same.
            let f = g.min(rhs) + h(u);
            tracer.event(Event::new(EventKind::Expand, u, parent, rhs, f));
        }
        // The optimised updates of Koenig & Likhachev (2002, Fig. 4): a settled node can only
        // lower its predecessors' rhs, so each takes a min instead of rescanning its successors;
        // after an invalidation only predecessors whose rhs came through u are rescanned.
        let mut preds = std::mem::take(&mut self.preds);
        preds.clear();
        space.for_each_predecessor(u, |p, c| preds.push((p, c)));
        let goal = self.query.goal;
        if q(g) > q(rhs) {
            self.g[u as usize] = rhs;
            for &(p, c) in &preds {
                if p != goal {
                    let via = c + rhs;
                    if via < self.rhs[p as usize] {
                        self.rhs[p as usize] = via;
                    }
                }
                self.requeue(h, p, tracer);
            }
        } else {
            self.g[u as usize] = INF;
            self.stats.reopened += 1;
            for &(p, c) in preds.iter().chain([(u, 0.0)].iter()) {
                let through_u = if p == u {
                    true
                } else {
                    q(self.rhs[p as usize]) == q(c + g)
                };
                if p != goal && through_u {
                    self.rhs[p as usize] = self.best_successor(space, p).0;
                }
                self.requeue(h, p, tracer);
            }
        }
        self.preds = preds;
        Status::Running
    }
}

impl<S: Space> Incremental<S> for DStarLite {
    fn world_changed<T: Tracer>(&mut self, space: &S, around: &[NodeId], tracer: &mut T) {
        if !self.begin_change(space, tracer) {
            return;
        }
        let hf = space.heuristic_to(self.heuristic, self.query.start);
        self.change = self.change.wrapping_add(1);
        if self.change == 0 || self.seen.len() != self.g.len() {
            self.seen.clear();
            self.seen.resize(self.g.len(), 0);
            self.change = 1;
        }
        for &u in around {
            let i = u as usize;
            if i < self.g.len() && self.seen[i] != self.change {
                self.seen[i] = self.change;
                self.update_vertex(space, &hf, u, tracer);
            }
        }
        self.end_change(space);
    }

    /// The optimised edge update of Koenig & Likhachev (2002, Fig. 4): a cheaper edge can only
    /// lower its source's rhs (one min), a dearer one matters only if rhs came through it (a
    /// rescan then). Most changed edges cost no successor scan at all.
    fn edges_changed<T: Tracer>(&mut self, space: &S, edges: &[EdgeChange], tracer: &mut T) {
        if !self.begin_change(space, tracer) {
            return;
        }
        let hf = space.heuristic_to(self.heuristic, self.query.start);
        let goal = self.query.goal;
        for e in edges {
            let (u, v) = (e.from as usize, e.to as usize);
            if u >= self.g.len() || v >= self.g.len() || e.old == e.new {
                continue;
            }
            // Only a node whose rhs moved can change its consistency (g is untouched here).
            if e.from == goal {
                continue;
            }
            let before = self.rhs[u];
            if e.new < e.old {
                let via = e.new + self.g[v];
                if via < before {
                    self.rhs[u] = via;
                }
            } else if q(before) == q(e.old + self.g[v]) {
                self.rhs[u] = self.best_successor(space, e.from).0;
            }
            if self.rhs[u] != before {
                self.requeue(&hf, e.from, tracer);
            }
        }
        self.end_change(space);
    }

    fn move_start(&mut self, space: &S, start: NodeId) {
        self.query.start = start;
        self.path.clear();
        self.status = if space.is_passable(start) && space.is_passable(self.query.goal) {
            Status::Running
        } else {
            Status::NoPath
        };
    }
}

impl SearchState for DStarLite {
    fn status(&self) -> Status {
        self.status
    }

    fn path(&self) -> Option<&[NodeId]> {
        (self.status == Status::Found).then_some(&self.path[..])
    }

    fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then(|| self.g[self.query.start as usize])
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::{Connectivity, GridSpace, TerrainRule};
    use crate::trace::NullTracer;

    /// After a search, every node left on the queue is inconsistent and queued under
    /// [min(g, rhs) + h(start, n) + k_m; min(g, rhs)] (k_m = 0 before any change).
    #[test]
    fn queued_keys_read_back_as_costs() {
        let rows = ["......", ".@@@..", "......", "..@..."];
        let sp = GridSpace::from_rows(&rows, Connectivity::Eight, TerrainRule::Class);
        let q = Query {
            start: sp.node(0, 0).unwrap(),
            goal: sp.node(5, 3).unwrap(),
        };
        let mut d = DStarLite::new(&sp, q, Heuristic::Octile);
        assert_eq!(d.run(&sp, &mut NullTracer), Status::Found);
        let mut queued = 0;
        for n in 0..sp.num_nodes() as NodeId {
            let Some((k1, k2)) = d.queue_key(n) else {
                continue;
            };
            queued += 1;
            let m = d.g[n as usize].min(d.rhs[n as usize]);
            let h = sp.heuristic(Heuristic::Octile, q.start, n);
            assert!((k2 - m).abs() < 1e-5 && (k1 - (m + h)).abs() < 1e-5, "{n}");
        }
        assert!(queued > 0);
    }
}

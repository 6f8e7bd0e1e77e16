//! ARA* (Likhachev, Gordon & Thrun 2003): weighted A* run again and again with a falling
//! weight ε, each run reusing the g-values of the last. Every solution it publishes costs at
//! most ε times the optimum; the last, at ε = 1, is optimal. One step is one expansion; each
//! published solution is a `Solution` event (cost, ε).

use super::params::{ParamSpec, Params, DECREMENT, EPSILON, HEURISTIC};
use super::{Query, Search, SearchState, Stats, Status};
use crate::space::{Heuristic, NodeId, Space};
use crate::trace::{Event, EventKind, Tracer, NONE};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const INF: f64 = f64::INFINITY;

/// Where a node stands in the current improvement pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Set {
    None,
    Open,
    Closed,
    /// Improved while closed: waits for the next pass (the INCONS list).
    Incons,
}

/// ARA* search state.
#[derive(Clone, Debug)]
pub struct AraStar {
    heuristic: Heuristic,
    eps: f64,
    /// ε₀, where every new query starts.
    eps_start: f64,
    decrement: f64,
    g: Vec<f64>,
    parent: Vec<NodeId>,
    set: Vec<Set>,
    /// (f key, g key, node); an entry is live while the node is open and the keys are current.
    heap: BinaryHeap<Reverse<(u64, u64, NodeId)>>,
    query: Query,
    status: Status,
    stats: Stats,
    open_len: usize,
    path: Vec<NodeId>,
    /// Published solutions: (ε, cost).
    solutions: Vec<(f64, f64)>,
    started: bool,
}

use super::heap::key_or_inf as q;

impl AraStar {
    /// Registry parameters.
    pub const PARAMS: &'static [ParamSpec] = &[EPSILON, DECREMENT, HEURISTIC];

    /// ARA* from ε₀ = `eps`, lowering ε by `decrement` after each solution.
    pub fn new<S: Space>(space: &S, query: Query, eps: f64, decrement: f64, h: Heuristic) -> Self {
        let mut a = AraStar {
            heuristic: h,
            eps: eps.max(1.0),
            eps_start: eps.max(1.0),
            decrement: decrement.max(1e-6),
            g: vec![],
            parent: vec![],
            set: vec![],
            heap: BinaryHeap::new(),
            query,
            status: Status::Running,
            stats: Stats::default(),
            open_len: 0,
            path: vec![],
            solutions: vec![],
            started: false,
        };
        Search::reset(&mut a, space, query);
        a
    }

    /// From registry parameters.
    pub fn from_params<S: Space>(space: &S, query: Query, p: &Params) -> Self {
        AraStar::new(
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

    /// Every solution published so far: (ε, cost).
    pub fn solutions(&self) -> &[(f64, f64)] {
        &self.solutions
    }

    fn f(&self, h: &impl Fn(NodeId) -> f64, n: NodeId) -> f64 {
        self.g[n as usize] + self.eps * h(n)
    }

    fn push(&mut self, h: &impl Fn(NodeId) -> f64, n: NodeId) {
        if self.set[n as usize] != Set::Open {
            self.set[n as usize] = Set::Open;
            self.open_len += 1;
        }
        let f = self.f(h, n);
        self.heap.push(Reverse((q(f), q(self.g[n as usize]), n)));
        self.stats.generated += 1;
        self.stats.max_open = self.stats.max_open.max(self.open_len as u64);
    }

    /// The live entry of lowest f, dropping stale ones.
    fn top(&mut self, h: &impl Fn(NodeId) -> f64) -> Option<(u64, NodeId)> {
        while let Some(&Reverse((fk, gk, n))) = self.heap.peek() {
            if self.set[n as usize] == Set::Open
                && gk == q(self.g[n as usize])
                && fk == q(self.f(h, n))
            {
                return Some((fk, n));
            }
            self.heap.pop();
        }
        None
    }

    /// Publishes the path to the goal as a solution; then lowers ε and starts the next pass,
    /// or ends at ε = 1.
    fn publish<S: Space, T: Tracer>(&mut self, space: &S, tracer: &mut T) {
        let goal = self.query.goal;
        self.path.clear();
        let mut n = goal;
        while n != NONE {
            self.path.push(n);
            n = self.parent[n as usize];
        }
        self.path.reverse();
        let cost = self.g[goal as usize];
        self.solutions.push((self.eps, cost));
        if T::ENABLED {
            tracer.event(Event::new(EventKind::Solution, goal, NONE, cost, self.eps));
        }
        if self.eps <= 1.0 {
            if T::ENABLED {
                for (i, &p) in self.path.iter().enumerate() {
                    let prev = if i == 0 { NONE } else { self.path[i - 1] };
                    tracer.event(Event::new(
                        EventKind::PathNode,
                        p,
                        prev,
                        self.g[p as usize],
                        0.0,
                    ));
                }
                tracer.event(Event::new(EventKind::Found, goal, NONE, cost, 0.0));
            }
            self.status = Status::Found;
            return;
        }
        // Next pass: smaller ε, INCONS joins OPEN, CLOSED empties, every key is remade.
        self.eps = (self.eps - self.decrement).max(1.0);
        if T::ENABLED {
            tracer.event(Event::marker(
                EventKind::Phase,
                self.solutions.len() as NodeId,
            ));
        }
        let h = space.heuristic_to(self.heuristic, goal);
        self.heap.clear();
        self.open_len = 0;
        for i in 0..self.set.len() {
            match self.set[i] {
                Set::Open | Set::Incons => {
                    self.set[i] = Set::None;
                    self.push(&h, i as NodeId);
                }
                Set::Closed => self.set[i] = Set::None,
                Set::None => {}
            }
        }
    }
}

impl<S: Space> Search<S> for AraStar {
    fn reset(&mut self, space: &S, query: Query) {
        let n = space.num_nodes();
        self.g.clear();
        self.g.resize(n, INF);
        self.parent.clear();
        self.parent.resize(n, NONE);
        self.set.clear();
        self.set.resize(n, Set::None);
        self.heap.clear();
        self.open_len = 0;
        self.query = query;
        self.stats = Stats::default();
        self.path.clear();
        self.solutions.clear();
        self.started = false;
        self.eps = self.eps_start;
        self.status = Status::Running;
        if !space.is_passable(query.start) || !space.is_passable(query.goal) {
            self.status = Status::NoPath;
            return;
        }
        self.g[query.start as usize] = 0.0;
        let h = space.heuristic_to(self.heuristic, query.goal);
        self.push(&h, query.start);
    }

    fn step<T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status {
        if self.status != Status::Running {
            return self.status;
        }
        let goal = self.query.goal;
        let hf = space.heuristic_to(self.heuristic, goal);
        let h = &hf;
        if T::ENABLED && !self.started {
            let s = self.query.start;
            tracer.event(Event::new(EventKind::Source, s, NONE, 0.0, self.f(h, s)));
            tracer.event(Event::marker(EventKind::Destination, goal));
        }
        self.started = true;
        // The pass ends once no open node could lead to a better goal: f(goal) ≤ min f.
        let fgoal = q(self.f(h, goal));
        let Some((fk, u)) = self.top(h).filter(|&(fk, _)| fk < fgoal) else {
            if self.g[goal as usize].is_finite() {
                self.publish(space, tracer);
            } else {
                self.status = Status::NoPath;
                if T::ENABLED {
                    tracer.event(Event::marker(EventKind::NoPath, goal));
                }
            }
            return self.status;
        };
        let _ = fk;
        self.heap.pop();
        self.set[u as usize] = Set::Closed;
        self.open_len -= 1;
        self.stats.expanded += 1;
        let gu = self.g[u as usize];
        if T::ENABLED {
            tracer.event(Event::new(
                EventKind::Expand,
                u,
                self.parent[u as usize],
                gu,
                self.f(h, u),
            ));
        }
        for (v, c) in space.neighbours(u) {
            let ng = gu + c;
            if q(ng) >= q(self.g[v as usize]) {
                continue;
            }
            let first = !self.g[v as usize].is_finite();
            self.g[v as usize] = ng;
            self.parent[v as usize] = u;
            let kind = match self.set[v as usize] {
                Set::Closed | Set::Incons => {
                    // Improved after expansion: wait for the next pass.
                    self.set[v as usize] = Set::Incons;
                    self.stats.reopened += 1;
                    EventKind::Update
                }
                _ => {
                    if !first {
                        self.stats.updated += 1;
                    }
                    self.push(h, v);
                    if first {
                        EventKind::Generate
                    } else {
                        EventKind::Update
                    }
                }
            };
            if T::ENABLED {
                tracer.event(Event::new(kind, v, u, ng, self.f(h, v)));
            }
        }
        Status::Running
    }
}

impl SearchState for AraStar {
    fn status(&self) -> Status {
        self.status
    }

    /// The latest solution (the optimal one once the search has ended).
    fn path(&self) -> Option<&[NodeId]> {
        (!self.solutions.is_empty()).then_some(&self.path[..])
    }

    fn cost(&self) -> Option<f64> {
        self.solutions.last().map(|s| s.1)
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn open_len(&self) -> usize {
        self.open_len
    }

    fn g(&self, n: NodeId) -> Option<f64> {
        self.g.get(n as usize).copied().filter(|g| g.is_finite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::AStar;
    use crate::space::GridSpace;
    use crate::space::{Connectivity, TerrainRule};
    use crate::trace::{NullTracer, Recorder};
    use rand::{Rng, SeedableRng};

    #[test]
    fn every_solution_is_within_its_bound_and_the_last_is_optimal() {
        for seed in 0..200 {
            // 30 × 24 with 30% of the cells walls.
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let rows: Vec<String> = (0..24)
                .map(|_| {
                    (0..30)
                        .map(|_| if rng.random_bool(0.3) { '@' } else { '.' })
                        .collect()
                })
                .collect();
            let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
            let sp = GridSpace::from_rows(&rows, Connectivity::Eight, TerrainRule::Class);
            let free: Vec<u32> = (0..sp.num_nodes() as u32)
                .filter(|&n| sp.is_passable(n))
                .collect();
            let q = Query {
                start: free[seed as usize % free.len()],
                goal: free[(seed as usize * 7919) % free.len()],
            };
            let mut astar = AStar::new(&sp, q, Heuristic::Octile);
            astar.run(&sp, &mut NullTracer);
            let mut ara = AraStar::new(&sp, q, 3.0, 0.5, Heuristic::Octile);
            let mut rec = Recorder::new(sp.num_nodes());
            ara.run(&sp, &mut rec);
            match astar.cost() {
                None => assert_eq!(ara.status(), Status::NoPath, "seed {seed}"),
                Some(opt) => {
                    assert_eq!(ara.status(), Status::Found);
                    let sols = ara.solutions();
                    assert_eq!(sols.last().unwrap().0, 1.0);
                    assert!((sols.last().unwrap().1 - opt).abs() < 1e-9, "seed {seed}");
                    for w in sols.windows(2) {
                        assert!(w[1].0 < w[0].0 && w[1].1 <= w[0].1 + 1e-9, "{sols:?}");
                    }
                    for &(eps, cost) in sols {
                        assert!(
                            cost <= eps * opt + 1e-9,
                            "seed {seed}: {cost} > {eps}·{opt}"
                        );
                    }
                    let published = rec.iter().filter(|e| e.kind == EventKind::Solution).count();
                    assert_eq!(published, sols.len());
                    let path_cost = crate::search::path_cost(&sp, ara.path().unwrap()).unwrap();
                    assert!((path_cost - opt).abs() < 1e-9);
                }
            }
        }
    }
}

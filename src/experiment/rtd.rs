//! RTD* (Bond, Widger, Ruml & Sun 2010) as seed 003 ran it: each agent step gives D* Lite a
//! budget of pops; when the budget runs out before a path is known, an LSS-LRTA* local search
//! with the other half of the budget picks the step. LSS-LRTA* follows Koenig & Sun (2009): a
//! bounded A* towards the goal, then Dijkstra-style learning of h over the expanded nodes, then
//! one step towards the best frontier node.

use crate::search::{DStarLite, Search, SearchState, Status};
use crate::space::{GridSpace, Heuristic, NodeId, Space};
use crate::trace::{NullTracer, NONE};
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
pub fn global_search(d: &mut DStarLite, space: &GridSpace, limit: usize) -> (GlobalStatus, u64) {
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
pub fn gradient_step(d: &DStarLite, space: &GridSpace, at: NodeId) -> Option<NodeId> {
    let g = d.g_values();
    space
        .neighbours(at)
        .map(|(s, c)| (c + g[s as usize], s))
        .filter(|(v, _)| v.is_finite())
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, s)| s)
}

/// LSS-LRTA*'s learned heuristic: Manhattan distance until learned otherwise.
#[derive(Default)]
pub struct Learned {
    h: HashMap<NodeId, f64>,
}

impl Learned {
    fn get(&self, space: &GridSpace, n: NodeId, goal: NodeId) -> f64 {
        self.h
            .get(&n)
            .copied()
            .unwrap_or_else(|| space.heuristic(Heuristic::Manhattan, n, goal))
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
pub fn local_search(
    space: &GridSpace,
    learned: &mut Learned,
    at: NodeId,
    goal: NodeId,
    limit: usize,
) -> (Option<NodeId>, u64) {
    let mut g: HashMap<NodeId, f64> = HashMap::default();
    let mut parent: HashMap<NodeId, NodeId> = HashMap::default();
    let mut closed: HashSet<NodeId> = HashSet::default();
    let mut open: BinaryHeap<Reverse<(u64, u64, NodeId)>> = BinaryHeap::new();
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
    let frontier: Vec<NodeId> = {
        let mut seen = HashSet::default();
        open.iter()
            .map(|Reverse((_, _, n))| *n)
            .filter(|n| !closed.contains(n) && seen.insert(*n))
            .collect()
    };
    let best = frontier.iter().copied().min_by(|&a, &b| {
        let (fa, fb) = (f(g[&a], a, learned), f(g[&b], b, learned));
        fa.total_cmp(&fb).then(g[&b].total_cmp(&g[&a]))
    });
    let Some(target) = best else {
        return (None, expanded);
    };
    // Learning: h of every expanded node becomes its distance to the frontier plus the
    // frontier's h (Dijkstra backwards from the frontier over the expanded nodes).
    let mut heap: BinaryHeap<Reverse<(u64, NodeId)>> = BinaryHeap::new();
    for &s in &closed {
        learned.h.insert(s, f64::INFINITY);
    }
    for &s in &frontier {
        heap.push(Reverse((key(learned.get(space, s, goal)), s)));
    }
    let mut done: HashSet<NodeId> = HashSet::default();
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
pub fn choose_step(
    status: GlobalStatus,
    d: &DStarLite,
    space: &GridSpace,
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

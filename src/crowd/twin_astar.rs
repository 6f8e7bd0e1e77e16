//! Grid A* for one agent in bounded memory: the CPU twin of `shaders/astar.wgsl`, step for
//! step. A GPU thread has no allocator, so each agent gets a fixed slice of one buffer: a
//! hash table of the nodes it has reached (open addressing, linear probing) and a binary
//! heap of open entries. An agent whose search outgrows them stops with [`Status::Overflow`]
//! and says so; it never falls back to anything else.
//!
//! The twin runs the very same operations in the same order (same hash, same heap, same
//! tie-breaking: lower f, then higher g, then lower node), so GPU and CPU agree on every
//! agent's cost, path and expansions, not only on the optimum. (The kernel also splits each
//! search across dispatches, which changes no operation, and marks empty table slots with 0
//! and keys with node + 1, where the twin uses `INF` and the node.)

use super::twin::{FixedGrid, INF};

/// How an agent's search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Found = 0,
    NoPath = 1,
    /// The hash table or the heap was full.
    Overflow = 2,
}

/// One agent's memory: `slots` (a power of two) nodes in the table, twice that in the heap.
#[derive(Clone, Debug)]
pub struct Scratch {
    pub slots: u32,
    pub(super) key: Vec<u32>,
    pub(super) g: Vec<u32>,
    pub(super) parent: Vec<u32>,
    pub(super) closed: Vec<u32>,
    /// Heap entries: f, g, node.
    heap: Vec<[u32; 3]>,
    used: u32,
}

/// The octile heuristic in fixed point: `straight` per straight step and `diagonal` per
/// diagonal one, no more than any move of the map costs, so it never overestimates and is
/// consistent (each move changes it by at most the move's cost).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Octile {
    pub straight: u32,
    pub diagonal: u32,
}

impl Octile {
    /// The cheapest straight and diagonal moves of `g`, kept within straight ≤ diagonal ≤
    /// 2 · straight, where the octile distance is a lower bound.
    pub fn of(g: &FixedGrid) -> Octile {
        let (mut s, mut d) = (INF, INF);
        for c in 0..g.cells() {
            for k in 0..8 {
                let e = g.edges[c * 8 + k];
                let (dx, dy) = crate::space::DIRS[k];
                if dx != 0 && dy != 0 {
                    d = d.min(e);
                } else {
                    s = s.min(e);
                }
            }
        }
        let s = s.min(d).min(INF / 4);
        let d = d.clamp(s, 2 * s);
        Octile {
            straight: s,
            diagonal: d,
        }
    }

    pub fn between(self, g: &FixedGrid, a: u32, b: u32) -> u32 {
        let (ax, ay) = (a % g.width, a / g.width);
        let (bx, by) = (b % g.width, b / g.width);
        let (dx, dy) = (ax.abs_diff(bx), ay.abs_diff(by));
        let (lo, hi) = (dx.min(dy), dx.max(dy));
        (hi - lo).saturating_mul(self.straight) + lo.saturating_mul(self.diagonal)
    }
}

/// The table's hash of a node (as the shader computes it).
fn hash(n: u32, slots: u32) -> u32 {
    n.wrapping_mul(2_654_435_761) & (slots - 1)
}

/// Heap order: lower f, then higher g, then lower node.
fn before(a: [u32; 3], b: [u32; 3]) -> bool {
    a[0] < b[0] || (a[0] == b[0] && (a[1] > b[1] || (a[1] == b[1] && a[2] < b[2])))
}

impl Scratch {
    pub fn new(slots: u32) -> Scratch {
        let slots = slots.next_power_of_two().max(16);
        Scratch {
            slots,
            key: vec![INF; slots as usize],
            g: vec![INF; slots as usize],
            parent: vec![INF; slots as usize],
            closed: vec![0; slots as usize],
            heap: Vec::with_capacity(2 * slots as usize),
            used: 0,
        }
    }

    /// Empties the table and the heap for a new search.
    pub(super) fn clear(&mut self) {
        self.key.fill(INF);
        self.heap.clear();
        self.used = 0;
    }

    /// The slot of `n`, inserting it if absent; `None` when the table is full.
    pub(super) fn slot(&mut self, n: u32) -> Option<usize> {
        let mut s = hash(n, self.slots);
        loop {
            let k = self.key[s as usize];
            if k == n {
                return Some(s as usize);
            }
            if k == INF {
                // Three quarters full is full: probes grow long beyond.
                if 4 * (self.used + 1) > 3 * self.slots {
                    return None;
                }
                self.key[s as usize] = n;
                self.g[s as usize] = INF;
                self.parent[s as usize] = INF;
                self.closed[s as usize] = 0;
                self.used += 1;
                return Some(s as usize);
            }
            s = (s + 1) & (self.slots - 1);
        }
    }

    pub(super) fn push(&mut self, e: [u32; 3]) -> bool {
        if self.heap.len() >= 2 * self.slots as usize {
            return false;
        }
        self.heap.push(e);
        let mut i = self.heap.len() - 1;
        while i > 0 {
            let p = (i - 1) / 2;
            if !before(self.heap[i], self.heap[p]) {
                break;
            }
            self.heap.swap(i, p);
            i = p;
        }
        true
    }

    pub(super) fn pop(&mut self) -> Option<[u32; 3]> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("not empty");
        if !self.heap.is_empty() {
            self.heap[0] = last;
            let mut i = 0;
            loop {
                let (l, r) = (2 * i + 1, 2 * i + 2);
                let mut m = i;
                if l < self.heap.len() && before(self.heap[l], self.heap[m]) {
                    m = l;
                }
                if r < self.heap.len() && before(self.heap[r], self.heap[m]) {
                    m = r;
                }
                if m == i {
                    break;
                }
                self.heap.swap(i, m);
                i = m;
            }
        }
        Some(top)
    }

    /// A* from `start` to `goal`: its status, cost ([`INF`] unless found) and expansions;
    /// `expanded(n)` is called for each node expanded.
    pub fn astar(
        &mut self,
        g: &FixedGrid,
        h: Octile,
        start: u32,
        goal: u32,
        mut expanded: impl FnMut(u32),
    ) -> (Status, u32) {
        self.clear();
        let s = self.slot(start).expect("an empty table has room");
        self.g[s] = 0;
        self.push([h.between(g, start, goal), 0, start]);
        while let Some([_, gn, n]) = self.pop() {
            let sn = self.slot(n).expect("a popped node is in the table");
            if self.closed[sn] == 1 || gn != self.g[sn] {
                continue;
            }
            self.closed[sn] = 1;
            expanded(n);

            if n == goal {
                return (Status::Found, gn);
            }
            for d in 0..8 {
                let e = g.edges[n as usize * 8 + d];
                if e == INF {
                    continue;
                }
                let m = g.step(n, d);
                let gm = gn.saturating_add(e);
                let Some(sm) = self.slot(m) else {
                    return (Status::Overflow, INF);
                };
                if self.closed[sm] == 1 || gm >= self.g[sm] {
                    continue;
                }
                self.g[sm] = gm;
                self.parent[sm] = n;
                if !self.push([gm.saturating_add(h.between(g, m, goal)), gm, m]) {
                    return (Status::Overflow, INF);
                }
            }
        }
        (Status::NoPath, INF)
    }

    /// The path found by the last search, goal first (call after [`Status::Found`]).
    pub fn path_back(&mut self, start: u32, goal: u32, mut visit: impl FnMut(u32)) {
        let mut c = goal;
        visit(c);
        while c != start {
            let s = self.slot(c).expect("on the path");
            c = self.parent[s];
            visit(c);
        }
    }
}

/// The twin of the GPU A* batch: each agent's status and fixed-point cost, traffic and
/// expansions per cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AstarResult {
    pub status: Vec<u32>,
    pub costs: Vec<u32>,
    pub traffic: Vec<u32>,
    pub expanded: Vec<u32>,
}

/// Every agent of `batch` in turn with `slots` of memory each.
pub fn astar_batch(g: &FixedGrid, batch: &super::Batch, slots: u32) -> AstarResult {
    astar_batch_while(g, batch, slots, &|| true).expect("never stopped")
}

/// [`astar_batch`], asking `go_on` before each agent; `None` when it said stop.
pub fn astar_batch_while(
    g: &FixedGrid,
    batch: &super::Batch,
    slots: u32,
    go_on: &dyn Fn() -> bool,
) -> Option<AstarResult> {
    let h = Octile::of(g);
    let mut s = Scratch::new(slots);
    let n = batch.agents.len();
    let mut r = AstarResult {
        status: vec![0; n],
        costs: vec![INF; n],
        traffic: vec![0; g.cells()],
        expanded: vec![0; g.cells()],
    };
    for (i, a) in batch.agents.iter().enumerate() {
        if !go_on() {
            return None;
        }
        let expanded = &mut r.expanded;
        let (st, cost) = s.astar(g, h, a.start, a.goal, |c| expanded[c as usize] += 1);
        r.status[i] = st as u32;
        r.costs[i] = cost;
        if st == Status::Found {
            let traffic = &mut r.traffic;
            s.path_back(a.start, a.goal, |c| traffic[c as usize] += 1);
        }
    }
    Some(r)
}

/// [`astar_batch`] with memory that follows the problem: an agent that overflows at one of
/// `sizes` is planned again at the next ([`super::grow`]). Also each agent's last size;
/// `None` when `go_on`, asked before each agent, said stop.
pub fn astar_batch_grown(
    g: &FixedGrid,
    batch: &super::Batch,
    sizes: &[u32],
    go_on: &dyn Fn() -> bool,
) -> Option<(AstarResult, Vec<u32>)> {
    let run = |b: &super::Batch, s| astar_batch_while(g, b, s, go_on).ok_or(());
    super::grow::grow(batch, sizes, run).ok()
}

#[cfg(test)]
mod tests {
    use super::super::twin::{FixedGrid, SCALE};
    use super::*;
    use crate::crowd::Batch;
    use crate::map::Generator;
    use crate::space::GridSpace;

    #[test]
    fn bounded_astar_costs_what_the_registry_costs_or_says_it_ran_out() {
        let grid = Generator::RandomBlocks { density: 0.25 }.generate(40, 30, 3);
        let s = GridSpace::octile(&grid);
        let g = FixedGrid::of(&s);
        let batch = Batch::random(&s, 300, 2).unwrap();
        let want = super::super::cpu::reference_costs(&s, &batch);
        let r = astar_batch(&g, &batch, 2048);
        for (k, w) in want.iter().enumerate() {
            assert_eq!(r.status[k], Status::Found as u32, "agent {k}");
            assert!(
                (r.costs[k] as f64 / SCALE - w).abs() < 100.0 * 0.5 / SCALE,
                "agent {k}"
            );
        }
        assert!(r.traffic.iter().sum::<u32>() >= 600);
        // Sixteen slots cannot hold a search across the map: it says so.
        let small = astar_batch(&g, &batch, 16);
        assert!(small.status.contains(&(Status::Overflow as u32)));
        for (k, &st) in small.status.iter().enumerate() {
            if st == Status::Found as u32 {
                assert_eq!(small.costs[k], r.costs[k]);
            } else {
                assert_eq!(small.costs[k], INF);
            }
        }
    }
}

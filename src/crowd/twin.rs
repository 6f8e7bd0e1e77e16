//! The GPU kernels' CPU twins and the integer costs both share.
//!
//! GPU and CPU agree exactly only on integers: a sum of floats depends on the order it is added
//! in, which differs between a wavefront on thousands of threads and a search on one. So each
//! move's cost is fixed point, 2⁻¹⁶ of a unit ([`SCALE`]), and every cost the kernels and their
//! twins compare is a `u32`. A path's fixed-point cost differs from its float cost by at most
//! half a unit of 2⁻¹⁶ per move, which the tests allow against the registry's A*.

use super::Batch;
use crate::space::{GridSpace, NodeId, Space, DIRS};
use std::collections::BinaryHeap;

/// Fixed-point units per cost unit.
pub const SCALE: f64 = 65_536.0;
/// No edge / not reached.
pub const INF: u32 = u32::MAX;

/// The grid as the kernels read it: for each cell, the fixed-point cost of its move in each of
/// the eight directions of [`DIRS`] ([`INF`] where the move is not allowed), cell-major.
pub struct FixedGrid {
    pub width: u32,
    pub height: u32,
    pub edges: Vec<u32>,
}

impl FixedGrid {
    pub fn of(space: &GridSpace) -> FixedGrid {
        let mut edges = vec![INF; space.num_nodes() * 8];
        for c in 0..space.num_nodes() as NodeId {
            let (cx, cy) = space.xy(c);
            space.for_each_neighbour(c, |m, cost| {
                // The move's direction from the two cells' coordinates: on a map one or two
                // cells wide, the id offsets of different directions coincide (on a 1-wide map
                // a step down is +1, as a step right would be), and a direction taken from the
                // offset walks off the map in the field's predecessor scan.
                let (mx, my) = space.xy(m);
                let (dx, dy) = (mx as i64 - cx as i64, my as i64 - cy as i64);
                if let Some(d) = (DIRS.iter()).position(|&(x, y)| (x as i64, y as i64) == (dx, dy))
                {
                    edges[c as usize * 8 + d] = fixed(cost);
                }
            });
        }
        FixedGrid {
            width: space.width(),
            height: space.height(),
            edges,
        }
    }

    pub fn cells(&self) -> usize {
        self.edges.len() / 8
    }

    /// The cell one move in direction `d` from `c` (the move must exist).
    #[inline(always)]
    pub fn step(&self, c: u32, d: usize) -> u32 {
        let (dx, dy) = DIRS[d];
        (c as i64 + dy as i64 * self.width as i64 + dx as i64) as u32
    }
}

/// A cost in fixed point, rounded to nearest.
pub fn fixed(cost: f64) -> u32 {
    (cost * SCALE).round().min((INF - 1) as f64) as u32
}

/// The flow field's fixed point: each cell's integer cost to `goal` (the least, over its
/// moves, of the move plus the cost from where it leads) and the direction it steps in (the
/// first direction, in [`DIRS`] order, that attains that least).
///
/// The GPU reaches it by relaxing every cell in parallel until nothing changes; the twin by
/// Dijkstra on the same integer costs. With positive integer costs the shortest distances are
/// the only fixed point of that relaxation, so both find the same numbers whatever the order
/// of the work, and the direction rule, applied to them, the same steps.
///
/// `expanded(c)` is called as each cell's cost becomes final (Dijkstra's expansions).
pub fn flow_field(
    g: &FixedGrid,
    goal: u32,
    dist: &mut Vec<u32>,
    next: &mut Vec<u32>,
    mut expanded: impl FnMut(u32),
) {
    let n = g.cells();
    dist.clear();
    dist.resize(n, INF);
    dist[goal as usize] = 0;
    let mut heap = BinaryHeap::from([std::cmp::Reverse((0u32, goal))]);
    while let Some(std::cmp::Reverse((d, c))) = heap.pop() {
        if d > dist[c as usize] {
            continue;
        }
        expanded(c);
        // Predecessors of c: the cells m whose move in direction k leads to c.
        for (k, &(dx, dy)) in DIRS.iter().enumerate() {
            let (x, y) = (c % g.width, c / g.width);
            let (mx, my) = (x as i64 - dx as i64, y as i64 - dy as i64);
            if mx < 0 || my < 0 || mx >= g.width as i64 || my >= g.height as i64 {
                continue;
            }
            let m = (my * g.width as i64 + mx) as u32;
            let e = g.edges[m as usize * 8 + k];
            if e == INF {
                continue;
            }
            let t = d.saturating_add(e);
            if t < dist[m as usize] {
                dist[m as usize] = t;
                heap.push(std::cmp::Reverse((t, m)));
            }
        }
    }
    directions(g, goal, dist, next);
}

/// Each cell's step down the field: the first direction attaining the least cost (the rule
/// the GPU's direction kernel applies to the same numbers).
pub fn directions(g: &FixedGrid, goal: u32, dist: &[u32], next: &mut Vec<u32>) {
    next.clear();
    next.resize(g.cells(), INF);
    for c in 0..g.cells() as u32 {
        if c == goal || dist[c as usize] == INF {
            continue;
        }
        let mut best = (INF, INF);
        for d in 0..8 {
            let e = g.edges[c as usize * 8 + d];
            if e == INF {
                continue;
            }
            let m = g.step(c, d);
            let dm = dist[m as usize];
            if dm != INF && dm.saturating_add(e) < best.0 {
                best = (dm + e, m);
            }
        }
        next[c as usize] = best.1;
    }
}

/// What a flow batch gives: each agent's fixed-point cost ([`INF`] without a path) and the
/// agents crossing each cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowResult {
    pub costs: Vec<u32>,
    pub traffic: Vec<u32>,
}

/// The twin of the GPU flow batch: goal by goal, the field, then every agent of that goal down
/// it, counting the cells it walks.
pub fn flow_batch(g: &FixedGrid, batch: &Batch) -> FlowResult {
    flow_batch_while(g, batch, &|| true).expect("never stopped")
}

/// [`flow_batch`], asking `go_on` before each goal's field; `None` when it said stop.
pub fn flow_batch_while(
    g: &FixedGrid,
    batch: &Batch,
    go_on: &dyn Fn() -> bool,
) -> Option<FlowResult> {
    let mut costs = vec![INF; batch.agents.len()];
    let mut traffic = vec![0u32; g.cells()];
    let (mut dist, mut next) = (vec![], vec![]);
    for (goal, agents) in by_goal(batch) {
        if !go_on() {
            return None;
        }
        flow_field(g, goal, &mut dist, &mut next, |_| {});
        for i in agents {
            let start = batch.agents[i as usize].start;
            costs[i as usize] = dist[start as usize];
            if dist[start as usize] == INF {
                continue;
            }
            let mut c = start;
            loop {
                traffic[c as usize] += 1;
                if c == goal {
                    break;
                }
                c = next[c as usize];
            }
        }
    }
    Some(FlowResult { costs, traffic })
}

/// The batch's agents grouped by goal, goals in increasing order, agents in batch order.
pub fn by_goal(batch: &Batch) -> Vec<(u32, Vec<u32>)> {
    let mut order: Vec<u32> = (0..batch.agents.len() as u32).collect();
    order.sort_by_key(|&i| (batch.agents[i as usize].goal, i));
    order
        .chunk_by(|&a, &b| batch.agents[a as usize].goal == batch.agents[b as usize].goal)
        .map(|g| (batch.agents[g[0] as usize].goal, g.to_vec()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Generator;

    #[test]
    fn the_twin_field_costs_what_float_dijkstra_costs_to_within_rounding() {
        let grid = Generator::RandomBlocks { density: 0.25 }.generate(30, 20, 2);
        let s = GridSpace::octile(&grid);
        let g = FixedGrid::of(&s);
        let batch = Batch::shared_goals(&s, 200, 3, 4).unwrap();
        let r = flow_batch(&g, &batch);
        let want = super::super::cpu::reference_costs(&s, &batch);
        for (k, (&c, w)) in r.costs.iter().zip(&want).enumerate() {
            assert_ne!(c, INF, "agent {k}");
            // Half a fixed-point unit per move at most; paths here are under 100 moves.
            assert!(
                (c as f64 / SCALE - w).abs() < 100.0 * 0.5 / SCALE,
                "agent {k}"
            );
        }
        assert!(r.traffic.iter().map(|&t| t as usize).sum::<usize>() >= 200);
    }
}

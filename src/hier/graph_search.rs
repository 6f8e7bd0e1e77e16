//! Phase 1 of a hierarchical query: A* over the abstract graph from the start's temporary
//! vertex to the goal's, one expansion a step. Its arrays live apart from the query so that a
//! step borrows them and the graph side by side (the relaxation loop keeps both in registers).
//!
//! A vertex relaxes only the intra-edges across the region it was not reached through:
//! intra-edges are optimal inside their region, so going on inside the same region is never
//! cheaper than the one edge (or temporary edge) that crosses it directly. Half the
//! relaxations go.

use super::graph::AbstractGraph;
use super::local::Item;
use crate::search::Stats;
use crate::trace::{Event, EventKind, Tracer, NONE};
use std::collections::BinaryHeap;

/// The arc into the goal's vertex from the direct link.
pub(super) const DIRECT: u32 = u32::MAX - 1;

/// Where the temporary edges of a query lead, for the search: the start's (vertex, cost),
/// the cost of each vertex's edge to the goal (`goal_link` indexes them), and the direct edge.
pub(super) struct Temporaries<'a> {
    pub from_start: &'a [(u32, f64)],
    pub to_goal: &'a [f64],
    pub goal_link: &'a [u32],
    pub direct: Option<f64>,
    pub regions: [u32; 2],
}

/// What a step of the graph search did.
pub(super) enum Step {
    Expanded,
    /// The goal's temporary vertex was expanded: the path's cost.
    Reached(f64),
    /// Nothing left on the open list.
    Exhausted,
}

/// The graph search's state: vertices, then the start's (V) and the goal's (V + 1).
pub(super) struct GraphSearch {
    pub g: Vec<f64>,
    pub parent: Vec<u32>,
    /// The edge into each vertex: an intra-edge, a temporary edge's index, or [`DIRECT`].
    pub arc: Vec<u32>,
    /// The region the edge into each vertex crosses.
    through: Vec<u32>,
    closed: Vec<bool>,
    heap: BinaryHeap<Item>,
    pub goal_point: [f64; 2],
    /// Where ids of the abstract layer start in events.
    pub base: u32,
}

impl GraphSearch {
    pub fn new(vertices: usize, base: u32) -> GraphSearch {
        let v = vertices + 2;
        GraphSearch {
            g: vec![f64::INFINITY; v],
            parent: vec![NONE; v],
            arc: vec![NONE; v],
            through: vec![NONE; v],
            closed: vec![false; v],
            heap: BinaryHeap::new(),
            goal_point: [0.0; 2],
            base,
        }
    }

    /// Entries on the open list.
    pub fn open_len(&self) -> usize {
        self.heap.len()
    }

    /// Starts from the start's temporary vertex `s`.
    pub fn start(&mut self, s: u32) {
        self.g.fill(f64::INFINITY);
        self.closed.fill(false);
        self.heap.clear();
        self.g[s as usize] = 0.0;
        self.parent[s as usize] = NONE;
        self.heap.push(Item(0.0, 0.0, s));
    }

    /// The estimate from vertex `v` (the temporaries estimate nothing).
    pub fn h(&self, graph: &AbstractGraph, v: u32) -> f64 {
        match graph.pos.get(v as usize) {
            Some(&p) => graph.metric.between(p, self.goal_point) * graph.min_cost,
            None => 0.0,
        }
    }

    /// Offers `to` a path through `from` over `arc`, an edge across `region`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn relax<T: Tracer>(
        &mut self,
        graph: &AbstractGraph,
        from: u32,
        to: u32,
        cost: f64,
        (arc, region): (u32, u32),
        stats: &mut Stats,
        tracer: &mut T,
    ) {
        let g = self.g[from as usize] + cost;
        let t = to as usize;
        if self.closed[t] || g >= self.g[t] {
            return;
        }
        let kind = if self.g[t].is_infinite() {
            EventKind::Generate
        } else {
            EventKind::Update
        };
        self.g[t] = g;
        self.parent[t] = from;
        self.arc[t] = arc;
        self.through[t] = region;
        let h = self.h(graph, to);
        self.heap.push(Item(g + h, h, to));
        stats.generated += 1;
        if T::ENABLED {
            let (a, b) = (self.base + to, self.base + from);
            tracer.event(Event::new(kind, a, b, g, g + h));
        }
    }

    /// Expands one vertex.
    pub fn step<T: Tracer>(
        &mut self,
        graph: &AbstractGraph,
        temps: &Temporaries,
        stats: &mut Stats,
        tracer: &mut T,
    ) -> Step {
        let vertices = graph.vertices() as u32;
        let (s, goal) = (vertices, vertices + 1);
        let v = loop {
            let Some(Item(_, _, v)) = self.heap.pop() else {
                return Step::Exhausted;
            };
            if !self.closed[v as usize] {
                break v;
            }
        };
        self.closed[v as usize] = true;
        stats.expanded += 1;
        stats.max_open = stats.max_open.max(self.heap.len() as u64 + 1);
        if T::ENABLED {
            let p = self.parent[v as usize];
            let p = if p == NONE { NONE } else { self.base + p };
            let gv = self.g[v as usize];
            let f = gv + self.h(graph, v);
            tracer.event(Event::new(EventKind::Expand, self.base + v, p, gv, f));
        }
        if v == goal {
            return Step::Reached(self.g[v as usize]);
        }
        if v == s {
            for (i, &(to, cost)) in temps.from_start.iter().enumerate() {
                let arc = (i as u32, temps.regions[0]);
                self.relax(graph, s, to, cost, arc, stats, tracer);
            }
            if let Some(d) = temps.direct {
                let arc = (DIRECT, temps.regions[0]);
                self.relax(graph, s, goal, d, arc, stats, tracer);
            }
            return Step::Expanded;
        }
        let through = self.through[v as usize];
        let (a, b) = graph.level.inter[v as usize];
        let other = if graph.region_of(a) == through {
            graph.region_of(b)
        } else {
            graph.region_of(a)
        };
        for k in graph.out_across(v, other) {
            let arc = (graph.out[k], other);
            self.relax(
                graph,
                v,
                graph.out_to[k],
                graph.out_cost[k],
                arc,
                stats,
                tracer,
            );
        }
        let l = temps.goal_link[v as usize];
        if l != NONE {
            let arc = (l, temps.regions[1]);
            self.relax(
                graph,
                v,
                goal,
                temps.to_goal[l as usize],
                arc,
                stats,
                tracer,
            );
        }
        Step::Expanded
    }
}

//! Phase 1 of a hierarchical query: A* over the abstract graph from the start's temporary
//! vertex to the goal's, one expansion a step. Its arrays live apart from the query so that a
//! step borrows them and the graph side by side (the relaxation loop keeps both in registers).
//!
//! A vertex relaxes only the intra-edges across the region it was not reached through:
//! intra-edges are optimal inside their region, so going on inside the same region is never
//! cheaper than the one edge (or temporary edge) that crosses it directly. Half the
//! relaxations go.

use super::graph::AbstractGraph;
use crate::search::{OpenHeap, Stats, Ties};
use crate::trace::{Event, EventKind, Tracer, NONE};

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

/// One vertex's state in a query. Kept together so that a relaxation touches one cache line,
/// and stamped with the query's number so that a query starts without rewriting every vertex
/// (on a 1024² map that was 0.6 MB written per query, a tenth of HPA*'s time).
#[derive(Clone, Copy, Debug)]
struct Rec {
    g: f64,
    parent: u32,
    /// The edge in: an intra-edge, a temporary edge's index, or [`DIRECT`].
    arc: u32,
    /// The region the edge in crosses.
    through: u32,
    /// The query that last wrote this record, times two, plus one once it is closed.
    stamp: u32,
}

/// The graph search's state: vertices, then the start's (V) and the goal's (V + 1).
pub(super) struct GraphSearch {
    recs: Vec<Rec>,
    /// This query's stamp (even).
    now: u32,
    /// The tuned open list of the grid searches (4-ary, moving an entry up on a better g, and
    /// a lane for entries at the current f, which along an octile line is most of them).
    heap: OpenHeap,
    pub goal_point: [f64; 2],
    /// Where ids of the abstract layer start in events.
    pub base: u32,
}

impl GraphSearch {
    pub fn new(vertices: usize, base: u32) -> GraphSearch {
        let rec = Rec {
            g: f64::INFINITY,
            parent: NONE,
            arc: NONE,
            through: NONE,
            stamp: 0,
        };
        GraphSearch {
            recs: vec![rec; vertices + 2],
            now: 0,
            heap: {
                let mut heap = OpenHeap::default();
                heap.set_ties(Ties::Dive);
                heap
            },
            goal_point: [0.0; 2],
            base,
        }
    }

    /// The cost of the best path found to `v` in this query.
    pub fn g(&self, v: u32) -> f64 {
        let r = &self.recs[v as usize];
        if r.stamp & !1 == self.now {
            r.g
        } else {
            f64::INFINITY
        }
    }

    /// The vertex `v` was reached from.
    pub fn parent(&self, v: u32) -> u32 {
        self.recs[v as usize].parent
    }

    /// The edge `v` was reached over.
    pub fn arc(&self, v: u32) -> u32 {
        self.recs[v as usize].arc
    }

    /// Entries on the open list.
    pub fn open_len(&self) -> usize {
        self.heap.len()
    }

    /// Starts from the start's temporary vertex `s`.
    pub fn start(&mut self, s: u32) {
        self.now = self.now.wrapping_add(2);
        if self.now == 0 {
            // Stamps wrapped: old ones could pass for this query's.
            for r in &mut self.recs {
                r.stamp = 1;
            }
            self.now = 2;
        }
        self.heap.clear();
        self.recs[s as usize] = Rec {
            g: 0.0,
            parent: NONE,
            arc: NONE,
            through: NONE,
            stamp: self.now,
        };
        self.heap.push(0.0, 0.0, s);
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
    #[inline(always)]
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
        let g = self.recs[from as usize].g + cost;
        let now = self.now;
        let r = &mut self.recs[to as usize];
        let kind = if r.stamp == now {
            if g >= r.g {
                return;
            }
            EventKind::Update
        } else if r.stamp == now + 1 {
            return;
        } else {
            EventKind::Generate
        };
        *r = Rec {
            g,
            parent: from,
            arc,
            through: region,
            stamp: now,
        };
        let h = self.h(graph, to);
        if kind == EventKind::Generate {
            self.heap.push_new(g + h, g, to);
        } else {
            self.heap.push(g + h, g, to);
        }
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
            let Some(e) = self.heap.pop() else {
                return Step::Exhausted;
            };
            let v = e.node();
            let r = &mut self.recs[v as usize];
            if r.stamp == self.now {
                r.stamp += 1;
                break v;
            }
        };
        stats.expanded += 1;
        stats.max_open = stats.max_open.max(self.heap.len() as u64 + 1);
        if T::ENABLED {
            let r = self.recs[v as usize];
            let p = if r.parent == NONE {
                NONE
            } else {
                self.base + r.parent
            };
            let f = r.g + self.h(graph, v);
            tracer.event(Event::new(EventKind::Expand, self.base + v, p, r.g, f));
        }
        if v == goal {
            return Step::Reached(self.recs[v as usize].g);
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
        let other = graph.other_side(v, self.recs[v as usize].through);
        for o in graph.out_across(v, other) {
            self.relax(graph, v, o.to, o.cost, (o.edge, other), stats, tracer);
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

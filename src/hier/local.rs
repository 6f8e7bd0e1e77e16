//! The searches that stay inside one region of an abstract graph: a query's connecting
//! searches (from its start or goal to each crossing of its region, Rahmani 2020's "n + m A*
//! calls") and the Dijkstras that build PCCP's table. Their arrays are the size of one region
//! (a base node's place in them is [`AbstractGraph::local_of`]), so a search costs what its
//! region holds, not what the world holds, and threads each keep their own cheaply.

use super::graph::AbstractGraph;
use crate::search::OpenHeap;
use crate::space::{NodeId, Space};
use crate::trace::{Event, EventKind, Tracer, NONE};
use std::cmp::Ordering;

/// A space a hierarchy is built over, with what a query needs beyond the graph: the cost of
/// leaving a base node from a point inside it rather than from its centre (a navmesh polygon
/// is large; a grid cell is its own centre, so the defaults keep the centre-based costs).
pub trait HierBase: Space + Sync {
    /// The cost from `point` inside `n` to neighbour `m`; `edge` is the centre-based cost.
    fn leave_from(&self, point: [f64; 2], n: NodeId, m: NodeId, edge: f64) -> f64 {
        let _ = (point, n, m);
        edge
    }

    /// The cost from `point` inside `n` to the crossing between `n` and `other`; `half` is the
    /// centre-based cost.
    fn cross_from(&self, point: [f64; 2], n: NodeId, other: NodeId, half: f64) -> f64 {
        let _ = (point, n, other);
        half
    }

    /// The cost of the edge from `from` into `n` when the walk ends at `point` inside `n`
    /// rather than at its centre; `edge` is the cost paid into `n` as the search counted it.
    fn arrive_at(&self, point: [f64; 2], n: NodeId, from: NodeId, edge: f64) -> f64 {
        let _ = (point, n, from);
        edge
    }

    /// The cost between two points inside one base node.
    fn within(&self, n: NodeId, a: [f64; 2], b: [f64; 2]) -> f64 {
        let _ = (n, a, b);
        0.0
    }

    /// The refined path smoothed, looking at most `reach` nodes ahead (HPA*'s smoothing on
    /// grids); `None` where the space has no smoothing.
    fn smooth(&self, path: &[NodeId], reach: u32) -> Option<Vec<NodeId>> {
        let _ = (path, reach);
        None
    }
}

/// An open-list entry: f, then h, then the id. Among equal f the entry nearer its goal comes
/// first (larger g), which on grids and meshes cuts the ties A* would otherwise expand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Item(pub f64, pub f64, pub u32);
impl Eq for Item {}
impl PartialOrd for Item {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Item {
    fn cmp(&self, o: &Self) -> Ordering {
        // f and h are never negative, and non-negative floats order as their bits do: two
        // integer comparisons instead of two `total_cmp`s, in the heap's innermost loop.
        (o.0.to_bits(), o.1.to_bits(), o.2).cmp(&(self.0.to_bits(), self.1.to_bits(), self.2))
    }
}

/// Where a region search stands after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalStatus {
    Running,
    /// Its target was taken off the open list: its g is final.
    Reached,
    /// Nothing left to expand.
    Exhausted,
}

/// A best-first search restricted to one region: A* to a target, or Dijkstra to all.
#[derive(Clone, Debug, Default)]
pub struct Local {
    g: Vec<f64>,
    parent: Vec<u32>,
    closed: Vec<bool>,
    /// The grid searches' tuned open list (see [`OpenHeap`]).
    heap: OpenHeap,
    region: u32,
    source: NodeId,
    target: Option<NodeId>,
    point: Option<[f64; 2]>,
    /// Expansions of this search so far.
    pub expanded: u64,
    /// Nodes it put on its open list, or improved there, so far (as the graph search counts
    /// `generated`, so the two add up).
    pub generated: u64,
}

impl Local {
    /// Starts a search in region `region` from base node `source` (standing at `point` inside
    /// it, or at its centre), to `target` (A*) or to every node of the region (Dijkstra).
    pub fn begin(
        &mut self,
        graph: &AbstractGraph,
        region: u32,
        source: NodeId,
        point: Option<[f64; 2]>,
        target: Option<NodeId>,
    ) {
        let n = graph.members_of(region).len();
        self.g.clear();
        self.g.resize(n, f64::INFINITY);
        self.parent.clear();
        self.parent.resize(n, NONE);
        self.closed.clear();
        self.closed.resize(n, false);
        self.heap.clear();
        self.region = region;
        self.source = source;
        self.target = target;
        self.point = point;
        self.expanded = 0;
        self.generated = 0;
        let s = graph.local_of[source as usize];
        self.g[s as usize] = 0.0;
        self.heap.push(0.0, 0.0, s);
    }

    /// Expands one node; events name base nodes.
    pub fn step<S: HierBase, T: Tracer>(
        &mut self,
        space: &S,
        graph: &AbstractGraph,
        tracer: &mut T,
    ) -> LocalStatus {
        let members = graph.members_of(self.region);
        let h = |n: NodeId| {
            self.target
                .map_or(0.0, |t| space.heuristic(space.native_heuristic(), n, t))
        };
        loop {
            let Some(e) = self.heap.pop() else {
                return LocalStatus::Exhausted;
            };
            let l = e.node();
            if self.closed[l as usize] {
                continue;
            }
            self.closed[l as usize] = true;
            self.expanded += 1;
            let n = members[l as usize];
            let gn = self.g[l as usize];
            if T::ENABLED {
                let p = self.parent[l as usize];
                let parent = if p == NONE { NONE } else { members[p as usize] };
                tracer.event(Event::new(EventKind::Expand, n, parent, gn, gn + h(n)));
            }
            if self.target == Some(n) {
                return LocalStatus::Reached;
            }
            let from_point = self.point.filter(|_| n == self.source);
            for (m, c) in space.neighbours(n) {
                if graph.region_of(m) != self.region {
                    continue;
                }
                let lm = graph.local_of[m as usize] as usize;
                let c = from_point.map_or(c, |pt| space.leave_from(pt, n, m, c));
                if self.closed[lm] || gn + c >= self.g[lm] {
                    continue;
                }
                self.generated += 1;
                let kind = if self.g[lm].is_infinite() {
                    EventKind::Generate
                } else {
                    EventKind::Update
                };
                self.g[lm] = gn + c;
                self.parent[lm] = l;
                let hm = h(m);
                self.heap.push(gn + c + hm, gn + c, lm as u32);
                if T::ENABLED {
                    tracer.event(Event::new(kind, m, n, gn + c, gn + c + hm));
                }
            }
            return LocalStatus::Running;
        }
    }

    /// Runs to the end (target reached or region exhausted).
    pub fn run<S: HierBase, T: Tracer>(
        &mut self,
        space: &S,
        graph: &AbstractGraph,
        tracer: &mut T,
    ) -> LocalStatus {
        loop {
            let s = self.step(space, graph, tracer);
            if s != LocalStatus::Running {
                return s;
            }
        }
    }

    /// The final g of base node `n` (it must be in the region), if it was reached.
    pub fn g(&self, graph: &AbstractGraph, n: NodeId) -> Option<f64> {
        let l = graph.local_of[n as usize] as usize;
        (self.g[l].is_finite()).then_some(self.g[l])
    }

    /// The base node before `n` on its path from the source, if `n` was reached from another.
    pub fn parent_of(&self, graph: &AbstractGraph, n: NodeId) -> Option<NodeId> {
        let p = self.parent[graph.local_of[n as usize] as usize];
        (p != NONE).then(|| graph.members_of(self.region)[p as usize])
    }

    /// The base nodes from the source to `n`, appended to `out`.
    pub fn path_into(&self, graph: &AbstractGraph, n: NodeId, out: &mut Vec<NodeId>) {
        let members = graph.members_of(self.region);
        let start = out.len();
        let mut l = graph.local_of[n as usize];
        while l != NONE {
            out.push(members[l as usize]);
            l = self.parent[l as usize];
        }
        out[start..].reverse();
    }

    /// The cost from the source to vertex `v`'s crossing through base node `n` (the target),
    /// if `n` was reached.
    pub fn to_crossing<S: HierBase>(
        &self,
        space: &S,
        graph: &AbstractGraph,
        v: u32,
        n: NodeId,
    ) -> Option<f64> {
        let g = self.g(graph, n)?;
        let half = graph.half_at(v, n);
        let (a, b) = graph.level.inter[v as usize];
        let other = if a == n { b } else { a };
        Some(match self.point {
            // Standing in the crossing's own base node: straight from the point.
            Some(pt) if n == self.source => g + space.cross_from(pt, n, other, half),
            _ => g + half,
        })
    }
}

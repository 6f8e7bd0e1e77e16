//! Intra-edges (Rahmani 2020 Definition 3.3.2): for each node of a level and each pair of its
//! inter-edges, the optimal path of navmesh polygons across the node from one to the other.
//! With the inter-edges as vertices they make the hierarchical navigation graph.
//!
//! Costs split each portal at its midpoint: an intra-edge from inter-edge i to inter-edge j of
//! node n costs the half of portal i on n's side, the polygon path inside n, and the half of
//! portal j on n's side. A path through the graph then costs exactly what its polygons cost on
//! the navmesh. The searches stay inside the node (the thesis's "to traverse a node").
//!
//! Stored as flat arrays (records of plain numbers and one array of polygon ids), so a GPU
//! kernel can read them as they are.

use super::levels::Level;
use super::local::Item;
use crate::space::{NavmeshSpace, NodeId, Space};
use std::collections::BinaryHeap;

/// One intra-edge: across a node from inter-edge `from` to inter-edge `to` (indices into the
/// level's inter-edges), its cost, and its polygons `polygons[path..path + len]`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct IntraEdge {
    pub from: u32,
    pub to: u32,
    pub cost: f64,
    pub path: u32,
    pub len: u32,
}

/// The intra-edges of one level, by node: node n's are `edges[first[n]..first[n + 1]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct IntraEdges {
    pub first: Vec<u32>,
    pub edges: Vec<IntraEdge>,
    pub polygons: Vec<NodeId>,
}

impl IntraEdges {
    /// The intra-edges of node `n`.
    pub fn of(&self, n: u32) -> &[IntraEdge] {
        &self.edges[self.first[n as usize] as usize..self.first[n as usize + 1] as usize]
    }

    /// An intra-edge's polygons.
    pub fn path(&self, e: &IntraEdge) -> &[NodeId] {
        &self.polygons[e.path as usize..(e.path + e.len) as usize]
    }

    /// Bytes of its arrays.
    pub fn bytes(&self) -> usize {
        4 * self.first.len()
            + std::mem::size_of::<IntraEdge>() * self.edges.len()
            + 4 * self.polygons.len()
    }
}

/// The polygon of inter-edge `i` inside node `n`.
pub fn inside(level: &Level, i: u32, n: u32) -> NodeId {
    let (a, b) = level.inter[i as usize];
    if level.node_of[a as usize] == n {
        a
    } else {
        b
    }
}

/// Why a bounded build of intra-edges stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// Its arrays outgrew the bytes allowed; they held this many when it stopped.
    Over(usize),
    /// Asked to stop.
    Stopped,
}

/// Every intra-edge of `level` over `mesh`: from each inter-edge of a node, one Dijkstra over
/// the node's polygons reaches all its other inter-edges.
pub fn build(mesh: &NavmeshSpace, level: &Level) -> IntraEdges {
    build_within(mesh, level, usize::MAX, &mut |_| true).expect("unbounded and never stopped")
}

/// The same, stopping once its arrays would hold more than `max_bytes`, and telling
/// `progress` the share of nodes done now and then (false from it stops the build).
pub fn build_within(
    mesh: &NavmeshSpace,
    level: &Level,
    max_bytes: usize,
    progress: &mut dyn FnMut(f64) -> bool,
) -> Result<IntraEdges, Cut> {
    let half = |k: u32, poly: NodeId| {
        let (a, b) = level.inter[k as usize];
        let portal = mesh.portal(a, b).expect("an inter-edge is a portal");
        mesh.half_cost(poly, portal)
    };
    bounded(mesh, level, &half, max_bytes, progress)
}

/// The same over any space whose regions and crossings `level` describes (a navmesh's nodes,
/// a grid's clusters): `half(k, n)` is the part of crossing `k` paid on base node `n`'s side.
pub fn build_with<S: Space>(
    mesh: &S,
    level: &Level,
    half: &dyn Fn(u32, NodeId) -> f64,
) -> IntraEdges {
    bounded(mesh, level, half, usize::MAX, &mut |_| true).expect("unbounded and never stopped")
}

/// Nodes between two progress reports.
const REPORT_EVERY: u32 = 4096;

fn bounded<S: Space>(
    mesh: &S,
    level: &Level,
    half: &dyn Fn(u32, NodeId) -> f64,
    max_bytes: usize,
    progress: &mut dyn FnMut(f64) -> bool,
) -> Result<IntraEdges, Cut> {
    let n_poly = mesh.num_nodes();
    let mut dist = vec![f64::INFINITY; n_poly];
    let mut parent = vec![NodeId::MAX; n_poly];
    let mut touched: Vec<NodeId> = vec![];
    let mut out = IntraEdges {
        first: Vec::with_capacity(level.nodes + 1),
        edges: vec![],
        polygons: vec![],
    };
    out.first.push(0);
    for n in 0..level.nodes as u32 {
        let inter = level.inter_of(n);
        for &i in inter {
            let src = inside(level, i, n);
            for t in touched.drain(..) {
                dist[t as usize] = f64::INFINITY;
                parent[t as usize] = NodeId::MAX;
            }
            dist[src as usize] = 0.0;
            touched.push(src);
            let mut heap = BinaryHeap::from([Item(0.0, 0.0, src)]);
            while let Some(Item(d, _, p)) = heap.pop() {
                if d > dist[p as usize] {
                    continue;
                }
                for (q, c) in mesh.neighbours(p) {
                    if level.node_of[q as usize] != n || d + c >= dist[q as usize] {
                        continue;
                    }
                    if dist[q as usize].is_infinite() {
                        touched.push(q);
                    }
                    dist[q as usize] = d + c;
                    parent[q as usize] = p;
                    heap.push(Item(d + c, 0.0, q));
                }
            }
            for &j in inter.iter().filter(|&&j| j != i) {
                let dst = inside(level, j, n);
                if dist[dst as usize].is_infinite() {
                    continue;
                }
                let start = out.polygons.len();
                let mut p = dst;
                out.polygons.push(p);
                while p != src {
                    p = parent[p as usize];
                    out.polygons.push(p);
                }
                out.polygons[start..].reverse();
                out.edges.push(IntraEdge {
                    from: i,
                    to: j,
                    cost: half(i, src) + dist[dst as usize] + half(j, dst),
                    path: start as u32,
                    len: (out.polygons.len() - start) as u32,
                });
            }
        }
        out.first.push(out.edges.len() as u32);
        // The arrays' bytes are counted as they are (the first array's whole length
        // included), so the check is exact and costs nothing.
        let held = out.bytes() + 4 * (level.nodes - n as usize);
        if held > max_bytes {
            return Err(Cut::Over(held));
        }
        if n % REPORT_EVERY == REPORT_EVERY - 1 && !progress(n as f64 / level.nodes as f64) {
            return Err(Cut::Stopped);
        }
    }
    Ok(out)
}

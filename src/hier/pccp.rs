//! PCCP, pre-calculated connecting paths (Rahmani 2020 §3.5.1, Table 3.1): for every base node
//! (an L0 polygon), the path and cost from its centre to each crossing of its region at the
//! queried level, and the region that crossing leads to. A query then reads its start's and
//! goal's entries instead of running n + m connecting searches; its start and goal count as if
//! they stood at their polygons' centres, which offsets the ends of the path.
//!
//! The thesis's Algorithm 2 runs one A* per (polygon, inter-edge) pair; here one Dijkstra per
//! crossing over its region gives every polygon's optimal path to it at once: the same paths
//! and costs (ties aside), built in far less time. Paths are stored whole, as the thesis does
//! (it names storing only the next polygon as an untried saving).

use super::graph::AbstractGraph;
use super::local::{HierBase, Local};
use crate::space::NodeId;
use crate::trace::NullTracer;

/// One entry of the multimap: from a base node to crossing `vertex`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct PccpEntry {
    pub vertex: u32,
    /// The region on the crossing's other side ("connects to").
    pub connects_to: u32,
    pub cost: f64,
    /// Its base nodes `paths[path..path + len]`, from the base node to the crossing's side.
    pub path: u32,
    pub len: u32,
}

/// The table, by base node: node n's entries are `entries[first[n]..first[n + 1]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pccp {
    pub first: Vec<u32>,
    pub entries: Vec<PccpEntry>,
    pub paths: Vec<NodeId>,
}

impl Pccp {
    /// Builds the table for every base node of `graph`'s regions.
    pub fn build<S: HierBase>(space: &S, graph: &AbstractGraph) -> Pccp {
        let nodes = graph.level.node_of.len();
        // Per region: one Dijkstra per crossing, then each member's entries in order.
        let per_region: Vec<Entries> = {
            use rayon::prelude::*;
            (0..graph.level.nodes as u32)
                .into_par_iter()
                .map_init(Local::default, |local, r| {
                    region_entries(space, graph, r, local)
                })
                .collect()
        };
        let mut by_node: Vec<Vec<(PccpEntry, Vec<NodeId>)>> = vec![vec![]; nodes];
        for region in per_region {
            for (n, entries) in region {
                by_node[n as usize] = entries;
            }
        }
        let mut out = Pccp {
            first: Vec::with_capacity(nodes + 1),
            entries: vec![],
            paths: vec![],
        };
        out.first.push(0);
        for entries in by_node {
            for (mut e, path) in entries {
                e.path = out.paths.len() as u32;
                e.len = path.len() as u32;
                out.paths.extend(path);
                out.entries.push(e);
            }
            out.first.push(out.entries.len() as u32);
        }
        out
    }

    /// Base node `n`'s entries.
    pub fn of(&self, n: NodeId) -> &[PccpEntry] {
        &self.entries[self.first[n as usize] as usize..self.first[n as usize + 1] as usize]
    }

    /// An entry's base nodes.
    pub fn path(&self, e: &PccpEntry) -> &[NodeId] {
        &self.paths[e.path as usize..(e.path + e.len) as usize]
    }

    /// Bytes of its arrays.
    pub fn bytes(&self) -> usize {
        4 * self.first.len()
            + std::mem::size_of::<PccpEntry>() * self.entries.len()
            + 4 * self.paths.len()
    }
}

type Entries = Vec<(NodeId, Vec<(PccpEntry, Vec<NodeId>)>)>;

fn region_entries<S: HierBase>(
    space: &S,
    graph: &AbstractGraph,
    r: u32,
    local: &mut Local,
) -> Entries {
    let members = graph.members_of(r);
    let mut out: Entries = members.iter().map(|&n| (n, vec![])).collect();
    for &v in graph.vertices_of(r) {
        let side = graph.inside(v, r);
        let (a, b) = graph.level.inter[v as usize];
        let connects_to = graph.region_of(if a == side { b } else { a });
        let half = graph.half_at(v, side);
        local.begin(graph, r, side, None, None);
        local.run(space, graph, &mut NullTracer);
        for (i, &n) in members.iter().enumerate() {
            let Some(g) = local.g(graph, n) else {
                continue;
            };
            // Costs are symmetric, so the tree from the crossing read backwards is the path
            // from each member to it.
            let mut path = vec![];
            local.path_into(graph, n, &mut path);
            path.reverse();
            out[i].1.push((
                PccpEntry {
                    vertex: v,
                    connects_to,
                    cost: g + half,
                    path: 0,
                    len: 0,
                },
                path,
            ));
        }
    }
    out
}

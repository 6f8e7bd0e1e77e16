//! Hierarchies over navmeshes (Rahmani 2020's HNA*): the levels built by merging about μ
//! connected nodes at a time: the partitioners (partition.rs), the levels with their
//! inter-edges (levels.rs), the intra-edges across each node (intra.rs), the abstract graph a
//! query searches (graph.rs), the searches inside one region (local.rs), PCCP's table
//! (pccp.rs), the phased query (query.rs), the navmesh hierarchy that ties them (hna.rs) and HPA*'s
//! clusters over square grids on the same parts (hpa.rs).

pub mod graph;
mod graph_search;
pub mod hna;
pub mod hpa;
pub mod intra;
pub mod levels;
pub mod local;
pub mod partition;
pub mod pccp;
pub mod query;
pub mod search;

use crate::space::{NavmeshSpace, NodeId, Space};
use partition::Csr;

/// A navmesh's polygons and portals as a graph for the partitioners.
pub fn navmesh_graph(mesh: &NavmeshSpace) -> Csr {
    let mut xadj = Vec::with_capacity(mesh.num_nodes() + 1);
    let mut adj = vec![];
    xadj.push(0);
    for n in 0..mesh.num_nodes() as NodeId {
        adj.extend(mesh.neighbours(n).map(|(m, _)| m));
        xadj.push(adj.len() as u32);
    }
    Csr { xadj, adj }
}

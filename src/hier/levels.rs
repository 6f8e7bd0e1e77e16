//! The levels of an HNA* hierarchy over a navmesh (Rahmani 2020 §3.3): level 1 merges about μ
//! connected polygons into each node, level x about μ connected nodes of level x − 1. An
//! **inter-edge** of level x is a portal whose two polygons lie in different level-x nodes;
//! every inter-edge of a level is one of the level below, down to the navmesh's portals.
//!
//! Everything is kept as flat arrays indexed by polygon, node or inter-edge, so the query (and
//! a GPU kernel later) reads them unchanged.

use super::partition::{kway, Csr};
use crate::space::{NavmeshSpace, NodeId, Space};

/// One level of the hierarchy.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// The node of this level holding each polygon.
    pub node_of: Vec<u32>,
    /// Nodes in this level.
    pub nodes: usize,
    /// The inter-edges: portals `(a, b)`, `a < b`, between polygons of different nodes, sorted.
    pub inter: Vec<(NodeId, NodeId)>,
    /// Each node's inter-edges (indices into `inter`): `node_inter[first[n]..first[n + 1]]`.
    pub first: Vec<u32>,
    pub node_inter: Vec<u32>,
}

impl Level {
    /// The inter-edges of node `n`, as indices into `inter`.
    pub fn inter_of(&self, n: u32) -> &[u32] {
        &self.node_inter[self.first[n as usize] as usize..self.first[n as usize + 1] as usize]
    }

    /// Inter-edges per node: mean and most.
    pub fn inter_per_node(&self) -> (f64, usize) {
        let most = (0..self.nodes as u32)
            .map(|n| self.inter_of(n).len())
            .max()
            .unwrap_or(0);
        (
            self.node_inter.len() as f64 / self.nodes.max(1) as f64,
            most,
        )
    }

    /// Bytes its arrays take.
    pub fn bytes(&self) -> usize {
        4 * (self.node_of.len() + 2 * self.inter.len() + self.first.len() + self.node_inter.len())
    }
}

/// The levels 1..=L built over a navmesh.
#[derive(Clone, Debug, PartialEq)]
pub struct Levels {
    pub mu: usize,
    pub levels: Vec<Level>,
}

/// The thesis's upper bound on a level-x node's inter-edges with polygons of `s` sides
/// (eq. 3.4): μ^x (s − 2) + 2. It assumes every side is one portal and every node merges
/// exactly μ nodes.
pub fn inter_edge_bound(mu: usize, x: u32, s: usize) -> f64 {
    (mu as f64).powi(x as i32) * (s as f64 - 2.0) + 2.0
}

impl Levels {
    /// Builds `count` levels over `mesh`, merging about `mu` nodes at each; `progress` hears
    /// each level as it is done.
    pub fn build(
        mesh: &NavmeshSpace,
        mu: usize,
        count: usize,
        progress: &dyn Fn(usize),
    ) -> Result<Levels, String> {
        let portals: Vec<(NodeId, NodeId)> = (0..mesh.num_nodes() as NodeId)
            .flat_map(|a| mesh.neighbours(a).map(move |(b, _)| (a, b)))
            .filter(|&(a, b)| a < b)
            .collect();
        let mut levels: Vec<Level> = vec![];
        // Level x partitions the graph of level x − 1's nodes (the polygons for level 1).
        let mut below: Vec<u32> = (0..mesh.num_nodes() as u32).collect();
        let mut below_nodes = mesh.num_nodes();
        for x in 1..=count {
            let graph = contracted(below_nodes, &portals, &below);
            let part = kway(&graph, mu).map_err(|e| format!("partitioning L{x}: {e}"))?;
            let node_of: Vec<u32> = below.iter().map(|&b| part[b as usize]).collect();
            let nodes = part.iter().map(|&p| p as usize + 1).max().unwrap_or(0);
            let level = with_inter_edges(node_of, nodes, &portals);
            below = level.node_of.clone();
            below_nodes = level.nodes;
            levels.push(level);
            progress(levels.len());
        }
        Ok(Levels { mu, levels })
    }

    /// Bytes of every level's arrays.
    pub fn bytes(&self) -> usize {
        self.levels.iter().map(Level::bytes).sum()
    }
}

/// The graph whose nodes are groups of polygons (`group[p]`, `n` groups) and whose edges join
/// groups that share a portal.
fn contracted(n: usize, portals: &[(NodeId, NodeId)], group: &[u32]) -> Csr {
    let mut pairs: Vec<(u32, u32)> = portals
        .iter()
        .map(|&(a, b)| (group[a as usize], group[b as usize]))
        .filter(|(a, b)| a != b)
        .flat_map(|(a, b)| [(a, b), (b, a)])
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let mut xadj = vec![0u32; n + 1];
    for &(a, _) in &pairs {
        xadj[a as usize + 1] += 1;
    }
    for i in 0..n {
        xadj[i + 1] += xadj[i];
    }
    Csr {
        xadj,
        adj: pairs.iter().map(|p| p.1).collect(),
    }
}

/// A level with its inter-edges: the portals between different nodes, each listed under both.
pub(crate) fn with_inter_edges(
    node_of: Vec<u32>,
    nodes: usize,
    portals: &[(NodeId, NodeId)],
) -> Level {
    let inter: Vec<(NodeId, NodeId)> = portals
        .iter()
        .copied()
        .filter(|&(a, b)| node_of[a as usize] != node_of[b as usize])
        .collect();
    let mut first = vec![0u32; nodes + 1];
    for &(a, b) in &inter {
        first[node_of[a as usize] as usize + 1] += 1;
        first[node_of[b as usize] as usize + 1] += 1;
    }
    for i in 0..nodes {
        first[i + 1] += first[i];
    }
    let mut fill = first.clone();
    let mut node_inter = vec![0u32; first[nodes] as usize];
    for (i, &(a, b)) in inter.iter().enumerate() {
        for p in [a, b] {
            let n = node_of[p as usize] as usize;
            node_inter[fill[n] as usize] = i as u32;
            fill[n] += 1;
        }
    }
    Level {
        node_of,
        nodes,
        inter,
        first,
        node_inter,
    }
}

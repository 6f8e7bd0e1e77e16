//! The abstract graph a hierarchical query searches (Rahmani 2020's hierarchical navigation
//! graph; Botea et al. 2004's abstract graph): its vertices are the crossings between regions
//! (a level's inter-edges on a navmesh, the entrances' transitions between a grid's clusters),
//! its edges the intra-edges across a region from one crossing to another. HNA* and HPA* share
//! this shape, so one query serves both.
//!
//! Every array is flat and indexed by base node, region or vertex, as a GPU kernel reads them.

use super::intra::{inside, IntraEdges};
use super::levels::Level;
use crate::space::NodeId;

/// How the heuristic measures between two points of the plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// The straight line (navmeshes: paths through portals are polylines).
    Euclidean,
    /// The octile distance (8-connected grids).
    Octile,
}

impl Metric {
    pub fn between(self, a: [f64; 2], b: [f64; 2]) -> f64 {
        let (dx, dy) = ((a[0] - b[0]).abs(), (a[1] - b[1]).abs());
        match self {
            Metric::Euclidean => (dx * dx + dy * dy).sqrt(),
            Metric::Octile => dx.max(dy) + (std::f64::consts::SQRT_2 - 1.0) * dx.min(dy),
        }
    }
}

/// Regions over a base space, the crossings between them and the intra-edges across them.
#[derive(Clone, Debug, PartialEq)]
pub struct AbstractGraph {
    /// The regions (`node_of`, by base node; `u32::MAX` where a base node is in none) and the
    /// crossings (`inter`, pairs of adjacent base nodes in different regions): the vertices.
    pub level: Level,
    /// What crossing `v` costs on each side: `half[v][0]` on `inter[v].0`'s, `[1]` on the other.
    pub half: Vec<[f64; 2]>,
    /// Where vertex `v` is, for the heuristic (a portal's midpoint, the middle of a transition).
    pub pos: Vec<[f64; 2]>,
    /// The intra-edges, by region.
    pub intra: IntraEdges,
    /// Each vertex's outgoing intra-edges: `out[out_first[v]..]`, those across the region of
    /// `inter[v].0` first, up to `out_split[v]`, then those across the other region. Each
    /// entry holds its far vertex and cost beside the edge's index, so relaxing a vertex reads
    /// one run of memory instead of hopping through the intra-edges.
    pub out_first: Vec<u32>,
    pub out: Vec<Out>,
    pub out_split: Vec<u32>,
    /// Each vertex's two regions (those of `inter[v].0` and `inter[v].1`), so the search
    /// finds them without reading the map-sized `node_of`.
    pub sides: Vec<[u32; 2]>,
    /// Each region's base nodes, `members[members_first[r]..]`, and each base node's place in
    /// its region's list: the connecting searches work on arrays the size of one region.
    pub members_first: Vec<u32>,
    pub members: Vec<NodeId>,
    pub local_of: Vec<u32>,
    pub metric: Metric,
    /// No cost per unit of length is lower (scales the heuristic).
    pub min_cost: f64,
}

/// An outgoing intra-edge of a vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Out {
    /// The far vertex.
    pub to: u32,
    /// Its index in `intra.edges`.
    pub edge: u32,
    pub cost: f64,
}

/// A region index that is no region.
pub const NO_REGION: u32 = u32::MAX;

impl AbstractGraph {
    /// The graph of `level`'s crossings and `intra`'s edges.
    pub fn new(
        level: Level,
        intra: IntraEdges,
        half: Vec<[f64; 2]>,
        pos: Vec<[f64; 2]>,
        metric: Metric,
        min_cost: f64,
    ) -> AbstractGraph {
        let vertices = level.inter.len();
        let mut out_split = vec![];
        let mut out_first = vec![0u32; vertices + 1];
        for e in &intra.edges {
            out_first[e.from as usize + 1] += 1;
        }
        for v in 0..vertices {
            out_first[v + 1] += out_first[v];
        }
        // Edges are stored region by region; each vertex lists its first side's region first.
        let mut fill = out_first.clone();
        let mut out = vec![0u32; intra.edges.len()];
        for pass in 0..2 {
            for r in 0..level.nodes {
                let (a, b) = (intra.first[r] as usize, intra.first[r + 1] as usize);
                for (i, e) in intra.edges[a..b].iter().enumerate() {
                    let first_side = level.node_of[level.inter[e.from as usize].0 as usize];
                    if (first_side == r as u32) == (pass == 0) {
                        out[fill[e.from as usize] as usize] = (a + i) as u32;
                        fill[e.from as usize] += 1;
                    }
                }
            }
            if pass == 0 {
                out_split = fill.clone();
            }
        }
        let out = out
            .iter()
            .map(|&e| {
                let edge = &intra.edges[e as usize];
                Out {
                    to: edge.to,
                    edge: e,
                    cost: edge.cost,
                }
            })
            .collect();
        let sides = level
            .inter
            .iter()
            .map(|&(a, b)| [level.node_of[a as usize], level.node_of[b as usize]])
            .collect();
        let mut members_first = vec![0u32; level.nodes + 1];
        for &r in &level.node_of {
            if r != NO_REGION {
                members_first[r as usize + 1] += 1;
            }
        }
        for r in 0..level.nodes {
            members_first[r + 1] += members_first[r];
        }
        let mut fill = members_first.clone();
        let mut members = vec![0; members_first[level.nodes] as usize];
        let mut local_of = vec![u32::MAX; level.node_of.len()];
        for (n, &r) in level.node_of.iter().enumerate() {
            if r != NO_REGION {
                let at = fill[r as usize];
                members[at as usize] = n as NodeId;
                local_of[n] = at - members_first[r as usize];
                fill[r as usize] += 1;
            }
        }
        AbstractGraph {
            level,
            half,
            pos,
            intra,
            out_first,
            out,
            out_split,
            sides,
            members_first,
            members,
            local_of,
            metric,
            min_cost,
        }
    }

    /// Vertices (crossings).
    pub fn vertices(&self) -> usize {
        self.level.inter.len()
    }

    /// The region of base node `n` ([`NO_REGION`] if none).
    pub fn region_of(&self, n: NodeId) -> u32 {
        self.level
            .node_of
            .get(n as usize)
            .copied()
            .unwrap_or(NO_REGION)
    }

    /// Region `r`'s base nodes.
    pub fn members_of(&self, r: u32) -> &[NodeId] {
        &self.members
            [self.members_first[r as usize] as usize..self.members_first[r as usize + 1] as usize]
    }

    /// The vertices on region `r`'s border.
    pub fn vertices_of(&self, r: u32) -> &[u32] {
        self.level.inter_of(r)
    }

    /// The base node of vertex `v` inside region `r`.
    pub fn inside(&self, v: u32, r: u32) -> NodeId {
        inside(&self.level, v, r)
    }

    /// What crossing `v` costs on base node `n`'s side.
    pub fn half_at(&self, v: u32, n: NodeId) -> f64 {
        self.half[v as usize][usize::from(self.level.inter[v as usize].0 != n)]
    }

    /// The region `v` lies in besides `r` (one of its two).
    #[inline(always)]
    pub fn other_side(&self, v: u32, r: u32) -> u32 {
        let [a, b] = self.sides[v as usize];
        if a == r {
            b
        } else {
            a
        }
    }

    /// Vertex `v`'s outgoing intra-edges across region `r` only (`r` is one of its two).
    #[inline(always)]
    pub fn out_across(&self, v: u32, r: u32) -> &[Out] {
        let (a, m, b) = (
            self.out_first[v as usize] as usize,
            self.out_split[v as usize] as usize,
            self.out_first[v as usize + 1] as usize,
        );
        if self.sides[v as usize][0] == r {
            &self.out[a..m]
        } else {
            &self.out[m..b]
        }
    }

    /// Bytes of its arrays.
    pub fn bytes(&self) -> usize {
        self.level.bytes()
            + self.intra.bytes()
            + 16 * (self.half.len() + self.pos.len())
            + 4 * (self.out_first.len() + self.out_split.len())
            + std::mem::size_of::<Out>() * self.out.len()
            + 8 * self.sides.len()
            + 4 * (self.members_first.len() + self.members.len() + self.local_of.len())
    }
}

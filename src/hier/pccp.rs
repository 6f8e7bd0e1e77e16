//! PCCP, pre-calculated connecting paths (Rahmani 2020 §3.5.1, Table 3.1): for every base node
//! (an L0 polygon), the path and cost from its centre to each crossing of its region at the
//! queried level, and the region that crossing leads to. A query then reads its start's and
//! goal's entries instead of running n + m connecting searches; its start and goal count as if
//! they stood at their polygons' centres, which offsets the ends of the path.
//!
//! The thesis's Algorithm 2 runs one A* per (polygon, inter-edge) pair; here one Dijkstra per
//! crossing over its region gives every polygon's optimal path to it at once: the same paths
//! and costs (ties aside), built in far less time.
//!
//! The thesis stores every path whole and names storing only the next polygon as an untried
//! saving. Whole paths cost polygons × crossings × path length: on a 2048 × 2048 map with a
//! quarter of its cells blocked that was over a gigabyte, and building them as one small
//! vector per entry took several times more. Here each entry holds the entry of the next
//! polygon on its path to the same crossing (the Dijkstra tree from that crossing), so a path
//! is read by following entries, and the table is its entries alone: 24 bytes each, known
//! (and allocated) before a single Dijkstra runs.

use super::graph::AbstractGraph;
use super::local::{HierBase, Local};
use crate::space::{NodeId, Space};
use crate::trace::{NullTracer, NONE};

/// One entry of the multimap: from base node `node` to crossing `vertex`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct PccpEntry {
    pub vertex: u32,
    /// The region on the crossing's other side ("connects to").
    pub connects_to: u32,
    pub cost: f64,
    /// The base node this entry starts from.
    pub node: NodeId,
    /// The entry of the next base node on the path to the same crossing, or [`NONE`] where
    /// `node` is the crossing's own side.
    pub next: u32,
}

/// The table, by base node: node n's entries are `entries[first[n]..first[n + 1]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pccp {
    pub first: Vec<u32>,
    pub entries: Vec<PccpEntry>,
}

/// Regions whose Dijkstras run side by side between two progress reports.
const CHUNK: usize = 256;

impl Pccp {
    /// Builds the table for every base node of `graph`'s regions.
    pub fn build<S: HierBase>(space: &S, graph: &AbstractGraph) -> Pccp {
        Pccp::build_with(space, graph, &mut |_| true).expect("never stopped")
    }

    /// Entries the table of `graph` holds: one per base node and crossing of its region that
    /// it reaches inside the region. Known before any path is searched, so its bytes can be
    /// weighed first ([`Pccp::bytes_for`]).
    pub fn entries_for<S: Space>(space: &S, graph: &AbstractGraph) -> usize {
        let mut layout = Layout::default();
        (0..graph.level.nodes as u32)
            .map(|r| {
                layout.region(space, graph, r);
                layout.entries
            })
            .sum()
    }

    /// The bytes of a table of `entries` entries over `nodes` base nodes.
    pub fn bytes_for(nodes: usize, entries: usize) -> usize {
        4 * (nodes + 1) + std::mem::size_of::<PccpEntry>() * entries
    }

    /// The same, telling `progress` the share of regions done after each batch of them; it
    /// returns false to stop the build (`None` then).
    pub fn build_with<S: HierBase>(
        space: &S,
        graph: &AbstractGraph,
        progress: &mut dyn FnMut(f64) -> bool,
    ) -> Option<Pccp> {
        use rayon::prelude::*;
        let nodes = graph.level.node_of.len();
        let regions = graph.level.nodes;
        // Where every entry goes: a base node's entries follow its region's crossings in
        // order, those it reaches.
        let mut first = vec![0u32; nodes + 1];
        let mut layout = Layout::default();
        for r in 0..regions as u32 {
            layout.region(space, graph, r);
            for (l, &n) in graph.members_of(r).iter().enumerate() {
                first[n as usize + 1] = layout.count[l];
            }
        }
        for n in 0..nodes {
            first[n + 1] += first[n];
        }
        let blank = PccpEntry {
            vertex: NONE,
            connects_to: NONE,
            cost: f64::INFINITY,
            node: NONE,
            next: NONE,
        };
        let mut entries = vec![blank; first[nodes] as usize];
        let mut done = 0;
        while done < regions {
            let batch = done..(done + CHUNK).min(regions);
            let filled: Vec<Vec<(u32, PccpEntry)>> = batch
                .clone()
                .into_par_iter()
                .map_init(
                    || (Local::default(), Layout::default()),
                    |(local, layout), r| {
                        region_entries(space, graph, r as u32, &first, local, layout)
                    },
                )
                .collect();
            for (at, e) in filled.into_iter().flatten() {
                entries[at as usize] = e;
            }
            done = batch.end;
            if !progress(done as f64 / regions as f64) {
                return None;
            }
        }
        Some(Pccp { first, entries })
    }

    /// Base node `n`'s entries.
    pub fn of(&self, n: NodeId) -> &[PccpEntry] {
        &self.entries[self.first[n as usize] as usize..self.first[n as usize + 1] as usize]
    }

    /// An entry's base nodes, from its node to the crossing's side.
    pub fn path_iter<'a>(&'a self, e: &PccpEntry) -> impl Iterator<Item = NodeId> + 'a {
        let mut at = Some(*e);
        std::iter::from_fn(move || {
            let e = at?;
            at = (e.next != NONE).then(|| self.entries[e.next as usize]);
            Some(e.node)
        })
    }

    /// An entry's base nodes, from its node to the crossing's side.
    pub fn path(&self, e: &PccpEntry) -> Vec<NodeId> {
        self.path_iter(e).collect()
    }

    /// Bytes of its arrays.
    pub fn bytes(&self) -> usize {
        4 * self.first.len() + std::mem::size_of::<PccpEntry>() * self.entries.len()
    }
}

/// Which of a region's crossings each of its members reaches inside it, in the table's
/// order. Regions of a hierarchy are connected, so every member reaches every crossing; a
/// region in pieces is counted piece by piece all the same.
#[derive(Default)]
struct Layout {
    /// The piece of the region each member (by its place in the region) lies in.
    piece: Vec<u32>,
    /// Crossings whose side lies in each piece.
    per_piece: Vec<u32>,
    /// Each crossing's place among those of its piece (by its place in the region's list).
    rank: Vec<u32>,
    /// Entries of each member.
    count: Vec<u32>,
    /// Entries of the region.
    entries: usize,
    stack: Vec<u32>,
}

impl Layout {
    fn region<S: Space>(&mut self, space: &S, graph: &AbstractGraph, r: u32) {
        let members = graph.members_of(r);
        self.piece.clear();
        self.piece.resize(members.len(), NONE);
        self.per_piece.clear();
        for s in 0..members.len() {
            if self.piece[s] != NONE {
                continue;
            }
            let id = self.per_piece.len() as u32;
            self.per_piece.push(0);
            self.piece[s] = id;
            self.stack.push(s as u32);
            while let Some(l) = self.stack.pop() {
                for (m, _) in space.neighbours(members[l as usize]) {
                    if graph.region_of(m) != r {
                        continue;
                    }
                    let lm = graph.local_of[m as usize] as usize;
                    if self.piece[lm] == NONE {
                        self.piece[lm] = id;
                        self.stack.push(lm as u32);
                    }
                }
            }
        }
        self.rank.clear();
        for &v in graph.vertices_of(r) {
            let p = self.piece[graph.local_of[graph.inside(v, r) as usize] as usize] as usize;
            self.rank.push(self.per_piece[p]);
            self.per_piece[p] += 1;
        }
        self.count.clear();
        self.count
            .extend(self.piece.iter().map(|&p| self.per_piece[p as usize]));
        self.entries = self.count.iter().map(|&c| c as usize).sum();
    }
}

/// Region `r`'s entries with the places they go: one Dijkstra from each crossing.
fn region_entries<S: HierBase>(
    space: &S,
    graph: &AbstractGraph,
    r: u32,
    first: &[u32],
    local: &mut Local,
    layout: &mut Layout,
) -> Vec<(u32, PccpEntry)> {
    layout.region(space, graph, r);
    let members = graph.members_of(r);
    let mut out = Vec::with_capacity(layout.entries);
    for (i, &v) in graph.vertices_of(r).iter().enumerate() {
        let side = graph.inside(v, r);
        let (a, b) = graph.level.inter[v as usize];
        let connects_to = graph.region_of(if a == side { b } else { a });
        let half = graph.half_at(v, side);
        let rank = layout.rank[i];
        local.begin(graph, r, side, None, None);
        local.run(space, graph, &mut NullTracer);
        for &n in members {
            let Some(g) = local.g(graph, n) else {
                continue;
            };
            // Costs are symmetric, so the tree from the crossing read backwards is the path
            // from each member to it: its next node is its parent in the tree.
            let next = local
                .parent_of(graph, n)
                .map_or(NONE, |p| first[p as usize] + rank);
            out.push((
                first[n as usize] + rank,
                PccpEntry {
                    vertex: v,
                    connects_to,
                    cost: g + half,
                    node: n,
                    next,
                },
            ));
        }
    }
    out
}

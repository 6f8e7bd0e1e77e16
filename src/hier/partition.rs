//! Splitting a graph into parts of about μ connected nodes, the step that builds each level of
//! an HNA* hierarchy from the one below (Rahmani 2020 §3.3: "merging μ connected nodes" by
//! multilevel k-way partitioning).
//!
//! Two partitioners, measured against each other on the benchmark navmeshes (edge cut, the
//! parts' balance, how many parts; docs/hierarchy.md):
//! - [`kway`]: METIS's multilevel k-way partitioning (the `metis` crate, METIS built from its
//!   vendored sources), k = ⌈n / μ⌉ per connected component, asked for contiguous parts;
//! - [`grow`]: breadth-first region growing, μ nodes at a time, written here as the baseline.
//!
//! Both return parts that are connected: a part METIS leaves in pieces is split into its
//! pieces, so every part is a connected subgraph as the thesis's definition needs.

/// A graph as compressed rows: the neighbours of node n are `adj[xadj[n]..xadj[n + 1]]`,
/// every edge listed from both ends.
#[derive(Clone, Debug, PartialEq)]
pub struct Csr {
    pub xadj: Vec<u32>,
    pub adj: Vec<u32>,
}

impl Csr {
    /// Nodes in the graph.
    pub fn len(&self) -> usize {
        self.xadj.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Node n's neighbours.
    pub fn neighbours(&self, n: usize) -> &[u32] {
        &self.adj[self.xadj[n] as usize..self.xadj[n + 1] as usize]
    }
}

/// How good a partition is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quality {
    pub parts: usize,
    /// Edges whose ends lie in different parts (each counted once).
    pub edge_cut: usize,
    /// The largest part's size over the mean size (1: perfectly even).
    pub balance: f64,
    /// Nodes in the largest part.
    pub largest: usize,
}

/// The connected components of `g` (a component id per node, in order of their first node).
pub fn components(g: &Csr) -> Vec<u32> {
    let mut comp = vec![u32::MAX; g.len()];
    let mut next = 0;
    let mut stack = vec![];
    for s in 0..g.len() {
        if comp[s] != u32::MAX {
            continue;
        }
        comp[s] = next;
        stack.push(s as u32);
        while let Some(n) = stack.pop() {
            for &m in g.neighbours(n as usize) {
                if comp[m as usize] == u32::MAX {
                    comp[m as usize] = next;
                    stack.push(m);
                }
            }
        }
        next += 1;
    }
    comp
}

/// Renumbers `part` so that every part is connected (a part in k pieces becomes k parts) and
/// parts are numbered in order of their first node.
pub fn connected_parts(g: &Csr, part: &[u32]) -> Vec<u32> {
    let mut out = vec![u32::MAX; g.len()];
    let mut next = 0;
    let mut stack = vec![];
    for s in 0..g.len() {
        if out[s] != u32::MAX {
            continue;
        }
        out[s] = next;
        stack.push(s as u32);
        while let Some(n) = stack.pop() {
            for &m in g.neighbours(n as usize) {
                if out[m as usize] == u32::MAX && part[m as usize] == part[n as usize] {
                    out[m as usize] = next;
                    stack.push(m);
                }
            }
        }
        next += 1;
    }
    out
}

/// Edge cut, balance and part count of a partition.
pub fn quality(g: &Csr, part: &[u32]) -> Quality {
    let parts = part.iter().map(|&p| p as usize + 1).max().unwrap_or(0);
    let mut sizes = vec![0usize; parts];
    for &p in part {
        sizes[p as usize] += 1;
    }
    let mut cut = 0;
    for n in 0..g.len() {
        cut += g
            .neighbours(n)
            .iter()
            .filter(|&&m| m as usize > n && part[m as usize] != part[n])
            .count();
    }
    let largest = sizes.iter().copied().max().unwrap_or(0);
    let mean = g.len() as f64 / parts.max(1) as f64;
    Quality {
        parts,
        edge_cut: cut,
        balance: if mean > 0.0 {
            largest as f64 / mean
        } else {
            1.0
        },
        largest,
    }
}

/// Breadth-first region growing: from the lowest node not yet taken, the next μ nodes reached
/// (through nodes not yet taken) form a part.
pub fn grow(g: &Csr, mu: usize) -> Vec<u32> {
    let mu = mu.max(1);
    let mut part = vec![u32::MAX; g.len()];
    let mut next = 0;
    let mut queue = std::collections::VecDeque::new();
    for s in 0..g.len() {
        if part[s] != u32::MAX {
            continue;
        }
        let mut size = 0;
        queue.clear();
        queue.push_back(s as u32);
        part[s] = next;
        while let Some(n) = queue.pop_front() {
            size += 1;
            if size >= mu {
                // The nodes queued but not reached are given back.
                for q in queue.drain(..) {
                    part[q as usize] = u32::MAX;
                }
                break;
            }
            for &m in g.neighbours(n as usize) {
                if part[m as usize] == u32::MAX {
                    part[m as usize] = next;
                    queue.push_back(m);
                }
            }
        }
        next += 1;
    }
    part
}

/// Held while METIS partitions.
static METIS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// METIS's multilevel k-way partitioning into parts of about μ nodes: each connected component
/// on its own (METIS keeps parts contiguous only on a connected graph) into ⌈n / μ⌉ parts,
/// with a fixed seed so a map always gives the same hierarchy. Returns connected parts.
pub fn kway(g: &Csr, mu: usize) -> Result<Vec<u32>, String> {
    let mu = mu.max(1);
    let comp = components(g);
    let ncomp = comp.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
    let mut members: Vec<Vec<u32>> = vec![vec![]; ncomp];
    for (n, &c) in comp.iter().enumerate() {
        members[c as usize].push(n as u32);
    }
    let mut part = vec![0u32; g.len()];
    let mut local = vec![0u32; g.len()];
    let mut base = 0u32;
    for nodes in &members {
        let k = nodes.len().div_ceil(mu);
        if k <= 1 {
            for &n in nodes {
                part[n as usize] = base;
            }
            base += 1;
            continue;
        }
        // The component as its own graph, numbered 0..len.
        for (i, &n) in nodes.iter().enumerate() {
            local[n as usize] = i as u32;
        }
        let mut xadj: Vec<metis::Idx> = Vec::with_capacity(nodes.len() + 1);
        let mut adjncy: Vec<metis::Idx> = vec![];
        xadj.push(0);
        for &n in nodes {
            adjncy.extend(
                g.neighbours(n as usize)
                    .iter()
                    .map(|&m| local[m as usize] as metis::Idx),
            );
            xadj.push(adjncy.len() as metis::Idx);
        }
        let mut out = vec![0 as metis::Idx; nodes.len()];
        // METIS draws from the C library's one random generator: two partitions at once (a
        // hierarchy built on a thread beside another) would interleave their draws and give
        // other parts. One at a time keeps every build the same.
        let _one_at_a_time = METIS.lock().unwrap_or_else(|e| e.into_inner());
        metis::Graph::new(1, k as metis::Idx, &xadj, &adjncy)
            .map_err(|e| format!("METIS refused the graph: {e}"))?
            .set_option(metis::option::Contig(true))
            .set_option(metis::option::Seed(1))
            .part_kway(&mut out)
            .map_err(|e| format!("METIS failed: {e}"))?;
        for (i, &n) in nodes.iter().enumerate() {
            part[n as usize] = base + out[i] as u32;
        }
        base += k as u32;
    }
    Ok(connected_parts(g, &part))
}

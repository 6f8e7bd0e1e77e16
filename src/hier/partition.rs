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
#[cfg(not(target_arch = "wasm32"))]
static METIS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Set (to anything) in the environment, every METIS call fails as METIS fails: how the tests
/// reach what a failed partition does on inputs METIS never fails on.
pub const FAIL_METIS_VAR: &str = "PATHLAB_FAIL_METIS";

#[cfg(not(target_arch = "wasm32"))]
fn forced_failure() -> bool {
    std::env::var_os(FAIL_METIS_VAR).is_some()
}

/// METIS's multilevel k-way partitioning into parts of about μ nodes: each connected component
/// on its own (METIS keeps parts contiguous only on a connected graph) into ⌈n / μ⌉ parts,
/// with a fixed seed so a map always gives the same hierarchy. Returns connected parts.
///
/// A component that would need more than [`MAX_PARTS`] parts is first split by METIS into
/// pieces of about [`PIECE_PARTS`] × μ nodes, and each piece is then partitioned on its own.
/// METIS is made for k much smaller than n: asked for n / 10 parts of a 755,000-polygon
/// navmesh (2048² cells, a quarter blocked) it took 79 s, printed "Cannot bisect a graph with
/// 0 vertices" and "You are trying to partition a graph into too many parts", and went on.
/// No component of the 29 benchmark maps needs that many parts, so their hierarchies are as
/// METIS alone makes them.
///
/// In a browser (wasm32) there is no METIS: it is C, and `wasm32-unknown-unknown` has no C
/// library to build it with. Every call there ends with [`NO_METIS_ON_THE_WEB`], even where
/// one part would do without METIS, so that a hierarchy is METIS's on every map or refused.
pub fn kway(g: &Csr, mu: usize) -> Result<Vec<u32>, String> {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = (g, mu);
        Err(NO_METIS_ON_THE_WEB.into())
    }
    #[cfg(not(target_arch = "wasm32"))]
    Ok(connected_parts(g, &split(g, mu.max(1))?))
}

/// Why a hierarchy cannot be built in a browser.
pub const NO_METIS_ON_THE_WEB: &str =
    "hierarchies need the desktop app: METIS is C, and the web build has no C library";

/// Parts in one METIS call at most.
pub const MAX_PARTS: usize = 8192;
/// Parts per piece where a component is cut into pieces first.
pub const PIECE_PARTS: usize = 1024;

/// Parts of about μ nodes of every component of `g` (not yet made connected).
#[cfg(not(target_arch = "wasm32"))]
fn split(g: &Csr, mu: usize) -> Result<Vec<u32>, String> {
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
        let sub = induced(g, nodes, &mut local);
        let out = if k > MAX_PARTS {
            let pieces = metis_kway(&sub, nodes.len().div_ceil(mu * PIECE_PARTS))?;
            let mut out = vec![0u32; sub.len()];
            let mut next = 0u32;
            let mut by_piece: Vec<Vec<u32>> = vec![];
            for (n, &p) in pieces.iter().enumerate() {
                if by_piece.len() <= p as usize {
                    by_piece.resize(p as usize + 1, vec![]);
                }
                by_piece[p as usize].push(n as u32);
            }
            let mut inner = vec![0u32; sub.len()];
            for piece in by_piece.iter().filter(|p| !p.is_empty()) {
                let parts = split(&induced(&sub, piece, &mut inner), mu)?;
                for (i, &n) in piece.iter().enumerate() {
                    out[n as usize] = next + parts[i];
                }
                next += parts.iter().max().map_or(0, |&m| m + 1);
            }
            out
        } else {
            metis_kway(&sub, k)?
        };
        for (i, &n) in nodes.iter().enumerate() {
            part[n as usize] = base + out[i];
        }
        base += out.iter().max().map_or(0, |&m| m + 1);
    }
    Ok(part)
}

/// The subgraph of `g` on `nodes`, numbered by their order there (`local` is scratch the
/// size of `g`).
#[cfg(not(target_arch = "wasm32"))]
fn induced(g: &Csr, nodes: &[u32], local: &mut [u32]) -> Csr {
    for (i, &n) in nodes.iter().enumerate() {
        local[n as usize] = i as u32;
    }
    // `local` may hold places from earlier calls: a node is a member when its place names it.
    let member = |m: u32| nodes.get(local[m as usize] as usize) == Some(&m);
    let mut xadj = Vec::with_capacity(nodes.len() + 1);
    let mut adj = vec![];
    xadj.push(0);
    for &n in nodes {
        adj.extend(
            g.neighbours(n as usize)
                .iter()
                .filter(|&&m| member(m))
                .map(|&m| local[m as usize]),
        );
        xadj.push(adj.len() as u32);
    }
    Csr { xadj, adj }
}

/// METIS's k-way partition of connected `g` into `k` parts (part ids 0..k).
#[cfg(not(target_arch = "wasm32"))]
fn metis_kway(g: &Csr, k: usize) -> Result<Vec<u32>, String> {
    let xadj: Vec<metis::Idx> = g.xadj.iter().map(|&x| x as metis::Idx).collect();
    let adjncy: Vec<metis::Idx> = g.adj.iter().map(|&x| x as metis::Idx).collect();
    let mut out = vec![0 as metis::Idx; g.len()];
    // METIS draws from the C library's one random generator: two partitions at once (a
    // hierarchy built on a thread beside another) would interleave their draws and give
    // other parts. One at a time keeps every build the same.
    let _one_at_a_time = METIS.lock().unwrap_or_else(|e| e.into_inner());
    let graph = metis::Graph::new(1, k as metis::Idx, &xadj, &adjncy)
        .map_err(|e| format!("METIS refused the graph: {e}"))?;
    let split = if forced_failure() {
        Err(metis::Error::Other)
    } else {
        graph
            .set_option(metis::option::Contig(true))
            .set_option(metis::option::Seed(1))
            .part_kway(&mut out)
    };
    // The caller ends with this (no part is guessed): a hierarchy is METIS's partition or
    // none, so that the same map always gives the same hierarchy.
    split.map_err(|e| {
        format!(
            "METIS could not split a component of {} nodes into {k} parts: {e}",
            g.len()
        )
    })?;
    Ok(out.into_iter().map(|p| p as u32).collect())
}

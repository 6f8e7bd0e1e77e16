//! HPA* (Botea, Müller & Schaeffer 2004) on square grids, the classic baseline for HNA*: the
//! map cut into c × c clusters; along each border between two clusters, every maximal run of
//! open cell pairs is an entrance, with one transition in its middle when it is shorter than
//! 6 cells and one at each end otherwise (the paper's rule); a transition is a pair of cells
//! facing each other across the border. The abstract graph has the transitions as vertices
//! and the optimal paths across a cluster between two of its transitions as edges — the same
//! [`AbstractGraph`] HNA* builds, so the same phased query answers both. After refinement the
//! path is smoothed as the paper does: from each cell, a straight line in one of the 8
//! directions that meets the path further on replaces the stretch between.

use super::graph::{AbstractGraph, Metric, NO_REGION};
use super::intra;
use super::levels::with_inter_edges;
use super::local::HierBase;
use super::query::{Connect, HierQuery};
use crate::space::{GridSpace, NodeId, Space, DIRS};
use std::sync::Arc;
use web_time::Instant;

impl HierBase for GridSpace {
    fn smooth(&self, path: &[NodeId], reach: u32) -> Option<Vec<NodeId>> {
        Some(smooth(self, path, reach))
    }
}

/// Entrances this long or longer get a transition at each end (Botea et al.'s constant).
pub const LONG_ENTRANCE: u32 = 6;

/// An HPA* abstraction of one grid.
#[derive(Clone, Debug)]
pub struct Hpa {
    /// Cluster side, in cells.
    pub cluster: u32,
    pub graph: Arc<AbstractGraph>,
    /// The grid revision it describes.
    pub revision: u64,
    pub build_ms: f64,
}

impl Hpa {
    /// Clusters of `cluster` × `cluster` cells over `space`, their entrances and intra-edges.
    pub fn build(space: &GridSpace, cluster: u32) -> Hpa {
        let t0 = Instant::now();
        let c = cluster.max(2);
        let (w, h) = (space.width(), space.height());
        let cw = w.div_ceil(c);
        let clusters = (cw * h.div_ceil(c)) as usize;
        let node_of: Vec<u32> = (0..space.num_nodes() as NodeId)
            .map(|n| {
                let (x, y) = space.xy(n);
                if space.is_passable(n) {
                    (y / c) * cw + x / c
                } else {
                    NO_REGION
                }
            })
            .collect();
        let mut transitions: Vec<(NodeId, NodeId)> = vec![];
        // Vertical borders (east moves, bit 1), then horizontal ones (south moves, bit 2).
        for (bit, across) in [(1u8, true), (2u8, false)] {
            let (lines, along) = if across { (w, h) } else { (h, w) };
            let mut line = c;
            while line < lines {
                let cell = |i: u32| {
                    let (x, y) = if across { (line - 1, i) } else { (i, line - 1) };
                    space.node(x, y).expect("inside the map")
                };
                let open = |i: u32| space.moves(cell(i)) & (1 << bit) != 0;
                let mut start = 0;
                while start < along {
                    // Entrances never run past a cluster's side.
                    let end_of_side = ((start / c) + 1) * c;
                    if !open(start) {
                        start += 1;
                        continue;
                    }
                    let mut end = start + 1;
                    // A run's cells lie side by side along the border in one terrain class,
                    // so any of its crossings is reachable from the others within a cluster.
                    let same = |i: u32| space.class_of(cell(i)) == space.class_of(cell(i - 1));
                    while end < along.min(end_of_side) && open(end) && same(end) {
                        end += 1;
                    }
                    let ends = if end - start < LONG_ENTRANCE {
                        vec![start + (end - start) / 2]
                    } else {
                        vec![start, end - 1]
                    };
                    for i in ends {
                        let a = cell(i);
                        let b = if across { a + 1 } else { a + w };
                        transitions.push((a, b));
                    }
                    start = end;
                }
                line += c;
            }
        }
        transitions.sort_unstable();
        let level = with_inter_edges(node_of, clusters, &transitions);
        let edge = |a: NodeId, b: NodeId| {
            space
                .neighbours(a)
                .find(|&(m, _)| m == b)
                .map_or(1.0, |(_, cost)| cost)
        };
        let half: Vec<[f64; 2]> = level
            .inter
            .iter()
            .map(|&(a, b)| [edge(a, b) / 2.0, edge(b, a) / 2.0])
            .collect();
        let intra = intra::build_with(space, &level, &|k, n| {
            half[k as usize][usize::from(level.inter[k as usize].0 != n)]
        });
        let pos = level
            .inter
            .iter()
            .map(|&(a, b)| {
                let (pa, pb) = (space.position(a), space.position(b));
                [(pa[0] + pb[0]) as f64 * 0.5, (pa[1] + pb[1]) as f64 * 0.5]
            })
            .collect();
        let graph = AbstractGraph::new(
            level,
            intra,
            half,
            pos,
            Metric::Octile,
            min_cost_per_unit(space),
        );
        Hpa {
            cluster: c,
            graph: Arc::new(graph),
            revision: space.revision(),
            build_ms: t0.elapsed().as_secs_f64() * 1000.0,
        }
    }

    /// A query on the abstract graph, inserting its ends with one Dijkstra each over their
    /// clusters (the distances the paper's insertion asks for), its path smoothed with rays
    /// one cluster side long.
    pub fn query(&self, space: &GridSpace) -> HierQuery {
        HierQuery::new(
            self.graph.clone(),
            None,
            Connect::Dijkstra,
            space.num_nodes(),
        )
        .with_smoothing(self.cluster)
    }

    /// Bytes of its arrays.
    pub fn bytes(&self) -> usize {
        self.graph.bytes()
    }
}

/// The lowest cost per unit of length of any move (the octile heuristic's scale).
fn min_cost_per_unit(space: &GridSpace) -> f64 {
    let mut least = f64::INFINITY;
    for n in 0..space.num_nodes() as NodeId {
        let (x, y) = space.xy(n);
        space.for_each_neighbour(n, |m, c| {
            let (mx, my) = space.xy(m);
            let diagonal = mx != x && my != y;
            least = least.min(if diagonal {
                c / std::f64::consts::SQRT_2
            } else {
                c
            });
        });
    }
    if least.is_finite() {
        least
    } else {
        1.0
    }
}

/// Botea et al.'s smoothing: walking the path, from each cell shoot a straight line in each
/// of the 8 directions, at most `reach` cells long; where one meets a later cell of the path
/// for less than the path pays to get there, the farthest such line replaces that stretch.
pub fn smooth(space: &GridSpace, path: &[NodeId], reach: u32) -> Vec<NodeId> {
    if path.len() < 3 {
        return path.to_vec();
    }
    // Cost along the path up to each cell, and each cell's last place on it in a small
    // open-addressing table (every ray step asks it; a map-sized array per query would cost
    // more than the query).
    let mut along = vec![0.0; path.len()];
    for i in 1..path.len() {
        along[i] = along[i - 1] + step_cost(space, path[i - 1], path[i]);
    }
    let bits = (2 * path.len()).next_power_of_two().trailing_zeros();
    let slot = |n: NodeId| (n.wrapping_mul(0x9E37_79B1) >> (32 - bits)) as usize;
    let mask = (1usize << bits) - 1;
    let mut table = vec![(NodeId::MAX, 0u32); 1 << bits];
    for (i, &n) in path.iter().enumerate() {
        let mut k = slot(n);
        while table[k].0 != NodeId::MAX && table[k].0 != n {
            k = (k + 1) & mask;
        }
        table[k] = (n, i as u32);
    }
    let place = |n: NodeId| {
        let mut k = slot(n);
        loop {
            match table[k] {
                (m, i) if m == n => return Some(i as usize),
                (NodeId::MAX, _) => return None,
                _ => k = (k + 1) & mask,
            }
        }
    };
    // The path's cells as bits over its bounding box: a ray step tests one bit, asks the
    // table only on a path cell, and stops where the box ends (no path cell lies beyond).
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for &n in path {
        let (x, y) = space.xy(n);
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let bw = (x1 - x0 + 1) as usize;
    let mut on_path = vec![0u64; (bw * (y1 - y0 + 1) as usize).div_ceil(64)];
    for &n in path {
        let (x, y) = space.xy(n);
        let b = (y - y0) as usize * bw + (x - x0) as usize;
        on_path[b / 64] |= 1 << (b % 64);
    }
    let uniform = space.uniform_costs();
    let w = space.width() as i64;
    let offsets: Vec<i64> = DIRS
        .iter()
        .map(|&(dx, dy)| dy as i64 * w + dx as i64)
        .collect();
    let mut out = vec![path[0]];
    let mut i = 0;
    while i + 1 < path.len() {
        let mut best: Option<(usize, u8)> = None;
        let (px, py) = space.xy(path[i]);
        for d in 0..8u8 {
            let (mut cur, mut cost) = (path[i], 0.0);
            let (dx, dy) = DIRS[d as usize];
            let (mut x, mut y) = (px as i64, py as i64);
            for _ in 0..reach {
                if space.moves(cur) & (1 << d) == 0 {
                    break;
                }
                (x, y) = (x + dx as i64, y + dy as i64);
                if x < x0 as i64 || y < y0 as i64 || x > x1 as i64 || y > y1 as i64 {
                    break;
                }
                let next = (cur as i64 + offsets[d as usize]) as NodeId;
                cost += if uniform {
                    if d < 4 {
                        1.0
                    } else {
                        std::f64::consts::SQRT_2
                    }
                } else {
                    step_cost(space, cur, next)
                };
                cur = next;
                let b = (y - y0 as i64) as usize * bw + (x - x0 as i64) as usize;
                if on_path[b / 64] & (1 << (b % 64)) == 0 {
                    continue;
                }
                if let Some(j) = place(cur) {
                    let better = cost < along[j] - along[i] - 1e-9;
                    if j > i + 1 && better && best.is_none_or(|(k, _)| j > k) {
                        best = Some((j, d));
                    }
                }
            }
        }
        match best {
            Some((j, d)) => {
                let mut cur = path[i];
                while cur != path[j] {
                    cur = (cur as i64 + offsets[d as usize]) as NodeId;
                    out.push(cur);
                }
                i = j;
            }
            None => {
                i += 1;
                out.push(path[i]);
            }
        }
    }
    out
}

/// The cost of the move from `a` to its neighbour `b`.
fn step_cost(space: &GridSpace, a: NodeId, b: NodeId) -> f64 {
    space
        .neighbours(a)
        .find(|&(m, _)| m == b)
        .map_or(f64::INFINITY, |(_, c)| c)
}

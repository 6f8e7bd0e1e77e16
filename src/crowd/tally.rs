//! From the agents' chains to the heatmap, for both PCCP backends: each found path's polygons
//! read off the hierarchy, funnelled, walked over the cells and counted. A wave of agents is
//! tallied on every core, one counting worker per thread ([`super::count`]); the totals do not
//! depend on the order, so the GPU's host side and the CPU twin agree cell by cell.

use super::count::{sum_cells, PerThread, Traffic};
use super::raster;
use super::twin_hna::{HnaGraph, CHAIN};
use super::{Agent, World};
use crate::hier::hna::Hierarchy;
use crate::space::NodeId;
use rayon::prelude::*;

/// The polygons of a chain (goal first), start to goal: PCCP's paths at its ends, the
/// intra-edges' paths between, or the polygons themselves inside one region (the same joins
/// as the CPU query's extraction), into `path`.
pub fn polygons(g: &HnaGraph, h: &Hierarchy, pg: u32, chain: &[[u32; 2]], path: &mut Vec<NodeId>) {
    let pccp = h.pccp.as_ref().expect("checked when the graph was built");
    let graph = &h.graph;
    path.clear();
    let mut push = |nodes: &mut dyn Iterator<Item = NodeId>| {
        for n in nodes {
            if path.last() != Some(&n) {
                path.push(n);
            }
        }
    };
    for w in chain.windows(2).rev() {
        let ([to, arc], from) = (w[0], w[1][0]);
        if from == g.start() && to < g.polygons {
            push(&mut std::iter::once(to));
        } else if from == g.start() {
            push(&mut pccp.path(&pccp.entries[arc as usize]).iter().copied());
        } else if to == g.goal() {
            if from >= g.polygons {
                let e = pccp
                    .of(pg)
                    .iter()
                    .find(|e| e.vertex == from - g.polygons)
                    .expect("the goal's link is its entry");
                push(&mut pccp.path(e).iter().rev().copied());
            }
        } else if from < g.polygons {
            push(&mut std::iter::once(to));
        } else {
            let e = &graph.intra.edges[g.intra[arc as usize] as usize];
            push(&mut graph.intra.path(e).iter().copied());
        }
    }
}

/// Traffic and walked lengths from the agents' chains, as both backends finish a batch.
pub struct Tally {
    lengths: Vec<f64>,
    /// The first `keep` agents' cells.
    paths: Vec<Vec<NodeId>>,
    keep: usize,
    cells: usize,
    workers: PerThread<Worker>,
}

/// What a batch's tally comes to.
pub struct Tallied {
    /// Agents whose walked line crosses each cell.
    pub traffic: Vec<u32>,
    /// Each agent's walked length (NaN where it has no path).
    pub lengths: Vec<f64>,
    /// The first `keep` agents' cells (empty where they have no path).
    pub paths: Vec<Vec<NodeId>>,
}

/// A counting thread's counts and the buffers it reuses from agent to agent.
struct Worker {
    traffic: Traffic,
    scratch: raster::Scratch,
    polygons: Vec<NodeId>,
    pairs: Vec<[u32; 2]>,
}

impl Worker {
    fn new(cells: usize) -> Worker {
        Worker {
            traffic: Traffic::new(cells),
            scratch: raster::Scratch::default(),
            polygons: vec![],
            pairs: vec![],
        }
    }

    /// Walks and counts agent `a`'s path (`self.pairs`, goal first) into the goal polygon
    /// `pg`; its length, and its cells when `keep`.
    fn walk(
        &mut self,
        world: &World,
        g: &HnaGraph,
        a: Agent,
        pg: u32,
        keep: bool,
    ) -> Option<(f64, Option<Vec<NodeId>>)> {
        let (Some(mesh), Some(h)) = (&world.mesh, &world.hierarchy) else {
            return None;
        };
        polygons(g, h, pg, &self.pairs, &mut self.polygons);
        let (grid, path) = (&world.grid, &self.polygons[..]);
        Some(raster::walk_counted(
            grid,
            mesh,
            path,
            a,
            &mut self.scratch,
            &mut self.traffic,
            keep,
        ))
    }
}

impl Tally {
    pub fn new(cells: usize, agents: usize, keep: usize) -> Tally {
        Tally {
            lengths: vec![f64::NAN; agents],
            paths: vec![vec![]; agents.min(keep)],
            keep,
            cells,
            workers: PerThread::default(),
        }
    }

    /// Agent `i` (`a`, its goal in polygon `pg`) found the path `chain`, goal first: the cells
    /// it crosses count once each.
    pub fn add(
        &mut self,
        world: &World,
        g: &HnaGraph,
        i: usize,
        a: Agent,
        pg: u32,
        chain: &[[u32; 2]],
    ) {
        let (cells, keep) = (self.cells, i < self.keep);
        let got = self.workers.with(
            || Worker::new(cells),
            |w| {
                w.pairs.clear();
                w.pairs.extend_from_slice(chain);
                w.walk(world, g, a, pg, keep)
            },
        );
        self.put(i, got);
    }

    /// A wave of agents from `first` of the batch's `agents` on, on every core: `ends` holds
    /// each agent's start and goal polygons ([`HnaGraph::ends`]) and `chains` the wave's
    /// chains as the kernel writes them, an agent's in `2 · CHAIN + 1` words (its length, then
    /// (node, arc) pairs, goal first; length 0 for no path).
    pub fn add_wave(
        &mut self,
        world: &World,
        g: &HnaGraph,
        first: usize,
        agents: &[Agent],
        ends: &[u32],
        chains: &[u32],
    ) {
        let words = 2 * CHAIN + 1;
        let (cells, keep, workers) = (self.cells, self.keep, &self.workers);
        let got: Vec<_> = (0..chains.len() / words)
            .into_par_iter()
            .map(|j| {
                let c = &chains[j * words..(j + 1) * words];
                let len = (c[0] as usize).min(CHAIN);
                if len == 0 {
                    return None;
                }
                let i = first + j;
                workers.with(
                    || Worker::new(cells),
                    |w| {
                        w.pairs.clear();
                        w.pairs
                            .extend(c[1..1 + 2 * len].chunks_exact(2).map(|p| [p[0], p[1]]));
                        w.walk(world, g, agents[i], ends[2 * i + 1], i < keep)
                    },
                )
            })
            .collect();
        for (j, got) in got.into_iter().enumerate() {
            self.put(first + j, got);
        }
    }

    fn put(&mut self, i: usize, got: Option<(f64, Option<Vec<NodeId>>)>) {
        let Some((length, cells)) = got else {
            return;
        };
        self.lengths[i] = length;
        if let (Some(cells), Some(p)) = (cells, self.paths.get_mut(i)) {
            *p = cells;
        }
    }

    /// The counts summed over the workers.
    pub fn finish(self) -> Tallied {
        let workers = self.workers.into_inner().into_iter();
        Tallied {
            traffic: sum_cells(workers.map(|w| w.traffic.into_counts()), self.cells),
            lengths: self.lengths,
            paths: self.paths,
        }
    }
}

/// Where a batch's time went: the GPU's waves and the host's work on their chains, which
/// overlap.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Split {
    /// From the start to the last wave's chains read back: uploads, the searches, readbacks.
    pub search_ms: f64,
    /// The wall time the host spent on the chains (polygons, funnel, rasterise, count, the
    /// workers' counts summed), each wave on every core.
    pub host_ms: f64,
    /// Of that, the wait for the host after the last wave was read back: its part the GPU's
    /// did not hide.
    pub tail_ms: f64,
    /// Waves of agents (the memory of one binding holds a wave's searches).
    pub waves: usize,
}

impl Split {
    /// Adds a rerun's (the agents that outgrew their memory) to this.
    pub fn add(&mut self, o: Split) {
        self.search_ms += o.search_ms;
        self.host_ms += o.host_ms;
        self.tail_ms += o.tail_ms;
        self.waves += o.waves;
    }
}

impl std::fmt::Display for Split {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} wave{} searched and read back in {:.1} ms; beside them the host's polygons, \
             funnel and counts took {:.1} ms on {} threads, {:.1} ms of it after the last wave",
            self.waves,
            if self.waves == 1 { "" } else { "s" },
            self.search_ms,
            self.host_ms,
            rayon::current_num_threads(),
            self.tail_ms
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::twin_astar::Status;
    use crate::crowd::twin_hna::HnaScratch;
    use crate::crowd::{Batch, Method};
    use crate::map::Generator;
    use crate::space::Space;

    /// Waves tallied on four threads count what each agent's walked cells, counted once per
    /// agent one agent at a time, add up to; lengths and kept paths as walked alone.
    #[test]
    fn waves_on_four_threads_count_what_each_agent_walks() {
        let map = Generator::RandomBlocks { density: 0.2 }.generate(64, 48, 3);
        let world = World::new(&map, &[Method::Pccp], 4, 2, &|_, _| ()).unwrap();
        let batch = Batch::random(&world.grid, 700, 5).unwrap();
        let g = HnaGraph::of(&world).unwrap();
        let (mesh, h) = (
            world.mesh.as_ref().unwrap(),
            world.hierarchy.as_ref().unwrap(),
        );
        let ends = HnaGraph::ends(mesh, &world.grid, &batch);
        let words = 2 * CHAIN + 1;
        let mut chains = vec![0; words * batch.agents.len()];
        let mut s = HnaScratch::new(4096);
        let (mut chain, mut path, mut cells) = (vec![], vec![], vec![]);
        let cells_n = world.grid.num_nodes();
        let mut want = vec![0u32; cells_n];
        let mut want_lengths = vec![f64::NAN; batch.agents.len()];
        let mut want_paths = vec![vec![]; 10];
        for (i, &a) in batch.agents.iter().enumerate() {
            let (ps, pg) = (ends[2 * i], ends[2 * i + 1]);
            if s.search(&g, ps, pg, |_| {}).0 != Status::Found || !s.chain(&g, &mut chain) {
                continue;
            }
            let c = &mut chains[i * words..(i + 1) * words];
            c[0] = chain.len() as u32;
            for (k, p) in chain.iter().enumerate() {
                c[1 + 2 * k..3 + 2 * k].copy_from_slice(p);
            }
            polygons(&g, h, pg, &chain, &mut path);
            let mut scratch = raster::Scratch::default();
            want_lengths[i] =
                raster::walk_into(&world.grid, mesh, &path, a, &mut scratch, &mut cells);
            if i < 10 {
                want_paths[i] = cells.clone();
            }
            cells.sort_unstable();
            cells.dedup();
            for &c in &cells {
                want[c as usize] += 1;
            }
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        let got = pool.install(|| {
            let mut tally = Tally::new(cells_n, batch.agents.len(), 10);
            // Uneven waves, as the GPU's last one is.
            for (first, end) in [(0, 300), (300, 600), (600, 700)] {
                let wave = &chains[first * words..end * words];
                tally.add_wave(&world, &g, first, &batch.agents, &ends, wave);
            }
            tally.finish()
        });
        assert!(want.iter().sum::<u32>() > 10_000, "the agents walk far");
        assert_eq!(got.traffic, want);
        for (i, (l, w)) in got.lengths.iter().zip(&want_lengths).enumerate() {
            assert!(
                l == w || (l.is_nan() && w.is_nan()),
                "agent {i}: {l} against {w}"
            );
        }
        assert_eq!(got.paths, want_paths);
    }
}

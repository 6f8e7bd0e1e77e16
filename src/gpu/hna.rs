//! MA-HNA* with PCCP per agent on the GPU (`shaders/hna.wgsl`), in waves of agents sized to the
//! memory each needs. The kernel searches and hands back each path's chain; the host reads the
//! polygons off the hierarchy, funnels and counts them ([`Tally`]), as for the twin
//! [`crate::crowd::twin_hna`], which the tests hold equal to it. The host works on a wave's
//! chains while the GPU searches the next ([`Split`] says how the time divides).

use super::astar::WAVE_BYTES;
use super::context::{GoOn, Gpu};
use crate::crowd::tally::{Split, Tally};
use crate::crowd::twin::INF;
use crate::crowd::twin_hna::{HnaGraph, HnaResult, CHAIN};
use crate::crowd::{Batch, World};
use crate::space::Space;
use web_time::Instant;

const SOURCE: &str = concat!(
    include_str!("../../shaders/bounded.wgsl"),
    include_str!("../../shaders/hna.wgsl")
);

/// Loop rounds per agent per dispatch elsewhere than llvmpipe ([`super::loop_budget`]).
const BUDGET: u32 = 1 << 18;

/// Table slots an agent first gets: the graph searches of a 1024² city map at μ = 10 and two
/// levels reach a few hundred nodes; 4,096 leaves room for the searches inside one large
/// region. An agent that outgrows them is planned again with more ([`sizes_for`]).
pub const SLOTS: u32 = 4096;

/// Words of an agent's memory per table slot, and after the slots (`hna.wgsl`).
pub const WORDS_PER_SLOT: u64 = 12;
const WORDS_AFTER: u64 = 3;

/// The sizes an agent is tried at over `g`, up to `cap` slots.
pub fn sizes_for(g: &HnaGraph, cap: u32) -> Vec<u32> {
    let nodes = g.polygons as usize + g.vertices as usize + 2;
    crate::crowd::grow::sizes(SLOTS, crate::crowd::grow::full_table(nodes), cap)
}

/// The most slots one agent may have on `gpu`.
pub fn max_slots(gpu: &Gpu) -> u32 {
    gpu.max_slots(WORDS_PER_SLOT, WORDS_AFTER)
}

/// The kernel, compiled once per device.
pub struct HnaKernel {
    pipeline: wgpu::ComputePipeline,
}

/// A batch's results on the GPU, with the first `keep` agents' cells.
pub struct HnaRun {
    pub result: HnaResult,
    pub paths: Vec<Vec<u32>>,
    pub ms: f64,
    pub split: Split,
}

impl HnaKernel {
    pub fn new(gpu: &Gpu) -> HnaKernel {
        HnaKernel {
            pipeline: gpu.pipeline(SOURCE, "hna"),
        }
    }

    /// Plans `batch` over `g` (built from `world`) with `slots` table slots per agent; stops
    /// between dispatches when `go_on` says so.
    // Each argument is its own input of a run (the device, the world and its graph, the
    // agents, their memory, the paths kept, the cancel); bundling them would name no concept.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &self,
        gpu: &Gpu,
        world: &World,
        g: &HnaGraph,
        batch: &Batch,
        slots: u32,
        keep: usize,
        go_on: GoOn,
    ) -> Result<HnaRun, String> {
        let t0 = Instant::now();
        let mesh = world.mesh.as_ref().ok_or("PCCP needs the navmesh")?;
        let slots = crate::crowd::twin_astar::Scratch::new(slots).slots;
        let n = batch.agents.len();
        let cells = world.grid.num_nodes();
        let stride = (WORDS_PER_SLOT * slots as u64 + WORDS_AFTER) * 4;
        let chain_words = 2 * CHAIN + 1;
        // Half of grid A*'s: past the budget an expansion may relax all of a polygon's PCCP
        // entries and a found path writes its chain (up to 512 steps), more than one grid
        // expansion's rounds.
        let budget = super::loop_budget(&gpu.adapter).map_or(BUDGET, |b| b / 2);
        let limit = gpu.binding_limit().min(WAVE_BYTES).max(stride);
        let wave = ((limit / stride).max(1) as usize).min(n.max(1));
        let (words, offsets) = pack(g);
        gpu.fits("the hierarchy", words.len() as u64 * 4)?;
        gpu.fits("one agent's search memory", stride)?;
        gpu.fits("the per-cell counts", cells as u64 * 4)?;
        let params = |first: usize, agents: usize| -> Vec<u32> {
            let mut p = vec![
                agents as u32,
                first as u32,
                slots,
                budget,
                g.polygons,
                g.vertices,
                g.hmul,
                CHAIN as u32,
            ];
            p.extend(offsets);
            p.extend([0; 3]);
            p
        };
        let ends = HnaGraph::ends(mesh, &world.grid, batch);
        let uniform = gpu.uniform("params", &params(0, 0));
        let graph = gpu.storage("graph", &words);
        let ends_buf = gpu.storage("ends", &ends);
        let cleared = |label: &str, size: u64| {
            gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                // Cleared before each wave: zero is an empty table and an agent not started.
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_DST
                    | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            })
        };
        let scratch = cleared("scratch", stride * wave as u64);
        let chains = cleared("chains", 4 * (chain_words * wave) as u64);
        let pending = gpu.storage("pending", &[0]);
        let results = gpu.storage("results", &vec![0; 2 * n.max(1)]);
        let expanded = gpu.storage("expanded", &vec![0; cells]);
        let bind = gpu.bind(
            &self.pipeline,
            &[
                &uniform, &graph, &ends_buf, &scratch, &results, &chains, &expanded, &pending,
            ],
        );
        // Every dispatch pops at least once per unfinished agent; pops are at most the
        // pushes, a few per arc of each node expanded (one expansion per slot).
        let degree = g.first.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let max_rounds = slots as u64 * (2 + degree as u64) + 2;
        // The host's part (chains to polygons, funnel, count) runs on its own thread, on every
        // core, while the GPU searches the next wave: the batch then takes about the longer of
        // the two, not their sum. At most one wave waits for the host (4 KiB of chain an
        // agent): where the GPU is faster, it waits rather than piling up every wave's chains.
        // After an error or a cancel the host drops what is left.
        let (send, waves) = std::sync::mpsc::sync_channel::<(usize, Vec<u32>)>(1);
        let failed = std::sync::atomic::AtomicBool::new(false);
        let host = |waves: std::sync::mpsc::Receiver<(usize, Vec<u32>)>| {
            let mut tally = Tally::new(cells, n, keep);
            let mut busy = 0.0;
            for (first, chains) in waves {
                if failed.load(std::sync::atomic::Ordering::Relaxed) {
                    continue;
                }
                let t = Instant::now();
                tally.add_wave(world, g, first, &batch.agents, &ends, &chains);
                busy += t.elapsed().as_secs_f64() * 1000.0;
            }
            let t = Instant::now();
            let tallied = tally.finish();
            (tallied, busy + t.elapsed().as_secs_f64() * 1000.0)
        };
        let (searched, tally, host_ms, tail_ms) = std::thread::scope(|scope| {
            let host = scope.spawn(|| host(waves));
            let searched = (|| {
                let mut first = 0;
                while first < n {
                    let k = wave.min(n - first);
                    gpu.begin_wave(&uniform, &params(first, k), &[&scratch, &chains]);
                    gpu.dispatch_until_done(&self.pipeline, &bind, &pending, k, max_rounds, go_on)
                        .map_err(|e| format!("MA-HNA*: {e}"))?;
                    let got = gpu.read(&chains, chain_words * k)?;
                    // The host thread ends only when this sender is dropped.
                    send.send((first, got))
                        .map_err(|_| "the host's counting stopped".to_string())?;
                    first += k;
                }
                Ok::<_, String>(t0.elapsed().as_secs_f64() * 1000.0)
            })();
            if searched.is_err() {
                failed.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            drop(send);
            let waited = Instant::now();
            let (tally, busy) = match host.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            };
            (
                searched,
                tally,
                busy,
                waited.elapsed().as_secs_f64() * 1000.0,
            )
        });
        let search_ms = searched?;
        let pairs = gpu.read(&results, 2 * n)?;
        let expanded = gpu.read(&expanded, cells)?;
        let result = HnaResult {
            status: pairs.iter().step_by(2).copied().collect(),
            costs: pairs.iter().skip(1).step_by(2).copied().collect(),
            lengths: tally.lengths,
            traffic: tally.traffic,
            expanded,
        };
        Ok(HnaRun {
            result,
            paths: tally.paths,
            ms: t0.elapsed().as_secs_f64() * 1000.0,
            split: Split {
                search_ms,
                host_ms,
                tail_ms,
                waves: n.div_ceil(wave),
            },
        })
    }
}

/// `g`'s arrays in one buffer (fewer storage bindings than the arrays, which some adapters
/// limit to eight), and where each starts: first, to, cost, pos, cell, region, pfirst,
/// pvertex, pcost.
fn pack(g: &HnaGraph) -> (Vec<u32>, [u32; 9]) {
    let pos: Vec<u32> = g.pos.iter().flatten().copied().collect();
    let parts: [&[u32]; 9] = [
        &g.first, &g.to, &g.cost, &pos, &g.cell_of, &g.region, &g.pfirst, &g.pvertex, &g.pcost,
    ];
    let mut words = vec![];
    let mut offsets = [0; 9];
    for (o, part) in offsets.iter_mut().zip(parts) {
        *o = words.len() as u32;
        words.extend_from_slice(part);
    }
    if words.is_empty() {
        words.push(INF);
    }
    (words, offsets)
}

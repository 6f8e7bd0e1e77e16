//! Grid A* per agent on the GPU (`shaders/astar.wgsl`), in waves of agents sized to the memory
//! each needs. Its CPU twin is [`crate::crowd::twin_astar`]; the tests hold the two equal.

use super::context::{GoOn, Gpu};
use crate::crowd::twin::FixedGrid;
use crate::crowd::twin_astar::{AstarResult, Octile, Scratch};
use crate::crowd::Batch;
use crate::space::DIRS;
use web_time::Instant;

const SOURCE: &str = concat!(
    include_str!("../../shaders/bounded.wgsl"),
    include_str!("../../shaders/astar.wgsl")
);

/// Bytes of agent memory one wave may use (less where the adapter binds less): enough that
/// agents planned again with more memory still fill a wave of a few dozen, so a software
/// adapter's threads and SIMD lanes all have work.
pub const WAVE_BYTES: u64 = 1 << 30;

/// Loop rounds per agent per dispatch elsewhere than llvmpipe ([`super::loop_budget`]): few
/// dispatches, each short enough that a cancel is seen within a fraction of a second.
const BUDGET: u32 = 1 << 18;

/// Words of an agent's memory per table slot, and after the slots (`astar.wgsl`).
pub const WORDS_PER_SLOT: u64 = 10;
const WORDS_AFTER: u64 = 4;

/// The table slots an agent first gets on `grid`: room for every cell up to 2¹⁶ (a 256 × 256
/// map), as a power of two. Agents that outgrow it are planned again with more
/// ([`crate::crowd::grow`]).
pub fn slots_for(grid: &FixedGrid) -> u32 {
    Scratch::new((grid.cells() as u32 * 4 / 3 + 1).min(1 << 16)).slots
}

/// The sizes an agent is tried at on `grid`, up to `cap` slots.
pub fn sizes_for(grid: &FixedGrid, cap: u32) -> Vec<u32> {
    crate::crowd::grow::sizes(
        slots_for(grid),
        crate::crowd::grow::full_table(grid.cells()),
        cap,
    )
}

/// The kernel, compiled once per device.
pub struct AstarKernel {
    pipeline: wgpu::ComputePipeline,
    /// Loop rounds per agent per dispatch.
    budget: u32,
}

impl AstarKernel {
    pub fn new(gpu: &Gpu) -> AstarKernel {
        AstarKernel {
            pipeline: gpu.pipeline(SOURCE, "astar"),
            budget: super::loop_budget(&gpu.adapter).unwrap_or(BUDGET),
        }
    }

    /// The kernel with `budget` loop rounds per agent per dispatch: the tests use one past
    /// what llvmpipe allows, to see a cut agent say so.
    pub fn with_budget(self, budget: u32) -> AstarKernel {
        AstarKernel { budget, ..self }
    }

    /// Plans `batch` with `slots` table slots per agent; also the time it took (ms). Stops
    /// between dispatches when `go_on` says so.
    pub fn run(
        &self,
        gpu: &Gpu,
        grid: &FixedGrid,
        batch: &Batch,
        slots: u32,
        go_on: GoOn,
    ) -> Result<(AstarResult, f64), String> {
        let t0 = Instant::now();
        let slots = Scratch::new(slots).slots;
        let n = batch.agents.len();
        let cells = grid.cells();
        let h = Octile::of(grid);
        let stride = (WORDS_PER_SLOT * slots as u64 + WORDS_AFTER) * 4;
        gpu.fits("the map's moves", grid.edges.len() as u64 * 4)?;
        gpu.fits("one agent's search memory", stride)?;
        let budget = self.budget;
        let limit = gpu.binding_limit().min(WAVE_BYTES).max(stride);
        let wave = ((limit / stride).max(1) as usize).min(n.max(1));
        let ends: Vec<u32> = batch
            .agents
            .iter()
            .flat_map(|a| [a.start, a.goal])
            .collect();
        let params = |first: usize, agents: usize| -> Vec<u32> {
            let mut p = vec![
                grid.width,
                cells as u32,
                agents as u32,
                first as u32,
                slots,
                h.straight,
                h.diagonal,
                budget,
            ];
            p.extend(DIRS.iter().map(|d| d.0 as u32));
            p.extend(DIRS.iter().map(|d| d.1 as u32));
            p
        };
        let uniform = gpu.uniform("params", &params(0, 0));
        let edges = gpu.storage("edges", &grid.edges);
        let ends = gpu.storage("ends", &ends);
        let scratch = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("scratch"),
            size: stride * wave as u64,
            // Cleared before each wave: zero is an empty table and an agent not started.
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let pending = gpu.storage("pending", &[0]);
        let results = gpu.storage("results", &vec![0; 2 * n.max(1)]);
        let traffic = gpu.storage("traffic", &vec![0; cells]);
        let expanded = gpu.storage("expanded", &vec![0; cells]);
        let bind = gpu.bind(
            &self.pipeline,
            &[
                &uniform, &edges, &ends, &scratch, &results, &traffic, &expanded, &pending,
            ],
        );
        let mut first = 0;
        while first < n {
            let k = wave.min(n - first);
            gpu.begin_wave(&uniform, &params(first, k), &[&scratch]);
            // Every dispatch pops at least once per unfinished agent or walks a step back:
            // pops are at most the pushes (eight per expansion, one expansion per slot) and
            // the walk at most a slot per step.
            let rounds = 9 * slots as u64 + 2;
            gpu.dispatch_until_done(&self.pipeline, &bind, &pending, k, rounds, go_on)
                .map_err(|e| format!("grid A*: {e}"))?;
            first += k;
        }
        let pairs = gpu.read(&results, 2 * n)?;
        let traffic = gpu.read(&traffic, cells)?;
        let expanded = gpu.read(&expanded, cells)?;
        let result = AstarResult {
            status: pairs.iter().step_by(2).copied().collect(),
            costs: pairs.iter().skip(1).step_by(2).copied().collect(),
            traffic,
            expanded,
        };
        Ok((result, t0.elapsed().as_secs_f64() * 1000.0))
    }
}

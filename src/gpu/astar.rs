//! Grid A* per agent on the GPU (`shaders/astar.wgsl`), in waves of agents sized to the memory
//! each needs. Its CPU twin is [`crate::crowd::twin_astar`]; the tests hold the two equal.

use super::context::{bytes, Gpu};
use crate::crowd::twin::FixedGrid;
use crate::crowd::twin_astar::{AstarResult, Octile, Scratch};
use crate::crowd::Batch;
use crate::space::DIRS;
use std::time::Instant;

const SOURCE: &str = concat!(
    include_str!("../../shaders/bounded.wgsl"),
    include_str!("../../shaders/astar.wgsl")
);

/// Bytes of agent memory one wave may use.
const WAVE_BYTES: u64 = 128 << 20;

/// Expansions per agent per dispatch on Mesa's llvmpipe, which ends an invocation's loops
/// after 65,535 rounds in all (heap sifts, table probes and the eight moves make tens of
/// rounds per expansion: 1,024 expansions overran it on 9 agents in 3,000, 256 on none; 128
/// leaves room for the walk back along the path).
const BUDGET_LLVMPIPE: u32 = 128;
/// Expansions per agent per dispatch elsewhere: fewer dispatches, each waited for.
const BUDGET: u32 = 4096;

/// The table slots an agent gets on `grid`: room for every cell up to 2¹⁶ (a 256 × 256 map),
/// as a power of two.
pub fn slots_for(grid: &FixedGrid) -> u32 {
    Scratch::new((grid.cells() as u32 * 4 / 3 + 1).min(1 << 16)).slots
}

/// The kernel, compiled once per device.
pub struct AstarKernel {
    pipeline: wgpu::ComputePipeline,
}

impl AstarKernel {
    pub fn new(gpu: &Gpu) -> AstarKernel {
        AstarKernel {
            pipeline: gpu.pipeline(SOURCE, "astar"),
        }
    }

    /// Plans `batch` with `slots` table slots per agent; also the time it took (ms).
    pub fn run(
        &self,
        gpu: &Gpu,
        grid: &FixedGrid,
        batch: &Batch,
        slots: u32,
    ) -> Result<(AstarResult, f64), String> {
        let t0 = Instant::now();
        let slots = Scratch::new(slots).slots;
        let n = batch.agents.len();
        let cells = grid.cells();
        let h = Octile::of(grid);
        let stride = (10 * slots as u64 + 3) * 4;
        let budget = if gpu.adapter.kind == "Cpu" {
            BUDGET_LLVMPIPE
        } else {
            BUDGET
        };
        let limit = gpu
            .device
            .limits()
            .max_storage_buffer_binding_size
            .min(WAVE_BYTES);
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
            gpu.queue
                .write_buffer(&uniform, 0, &bytes(&params(first, k)));
            let mut enc = gpu.device.create_command_encoder(&Default::default());
            enc.clear_buffer(&scratch, 0, None);
            gpu.queue.submit([enc.finish()]);
            // Each dispatch expands up to `budget` nodes per agent, and no search expands
            // more than its table holds.
            let rounds = (slots / budget + 2) as u64;
            gpu.dispatch_until_done(&self.pipeline, &bind, &pending, k, rounds)
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

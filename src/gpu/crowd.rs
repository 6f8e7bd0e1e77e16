//! A crowd batch on the GPU as an [`Outcome`] like the CPU backend's, checked against the
//! kernel's CPU twin: what `pathlab agents --backend gpu` and the app's GPU heat view run.
//! Costs are the kernels' fixed point read back as cost units.

use super::astar::{slots_for, AstarKernel};
use super::flow::FlowKernels;
use super::hna::{HnaKernel, SLOTS};
use super::Gpu;
use crate::crowd::cpu::Outcome;
use crate::crowd::twin::{flow_batch, INF, SCALE};
use crate::crowd::twin_astar::{astar_batch, Status};
use crate::crowd::twin_hna::{hna_batch, HnaGraph};
use crate::crowd::{Batch, Heat, Method, World};

/// A batch planned on the GPU.
pub struct Planned {
    pub outcome: Outcome,
    /// The adapter, as `pathlab gpu` names it.
    pub adapter: String,
    /// Every GPU cost equals the CPU twin's, exactly.
    pub equal: bool,
    /// Cells whose traffic differs from the twin's (0 when all agree).
    pub traffic_differs: usize,
    /// Agents whose search outgrew the memory each gets on the GPU (they report no path,
    /// as their twins do).
    pub overflow: usize,
}

/// Why the GPU did not plan a batch.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter: the caller says so and plans on the CPU.
    #[error("{0}")]
    NoAdapter(String),
    #[error("{0}")]
    Failed(String),
}

/// Plans `batch` with `method` on the GPU.
pub fn plan(world: &World, batch: &Batch, method: Method) -> Result<Planned, GpuError> {
    let gpu = Gpu::new().map_err(GpuError::NoAdapter)?;
    let failed = |e: String| GpuError::Failed(format!("{}: {e}", gpu.adapter));
    let mut lengths = None;
    let (costs, traffic, work, ms, equal, traffic_differs, overflow) = match method {
        Method::Pccp => {
            let g = HnaGraph::of(world).map_err(GpuError::Failed)?;
            let got = HnaKernel::new(&gpu)
                .run(&gpu, world, &g, batch, SLOTS, 0)
                .map_err(failed)?;
            let twin = hna_batch(world, &g, batch, SLOTS);
            let r = got.result;
            let differs = count_differing(&r.traffic, &twin.traffic);
            let equal = r.costs == twin.costs && r.status == twin.status;
            let overflow = count_overflow(&r.status);
            lengths = Some(r.lengths);
            (
                r.costs, r.traffic, r.expanded, got.ms, equal, differs, overflow,
            )
        }
        Method::Flow => {
            let got = FlowKernels::new(&gpu)
                .run(&gpu, &world.fixed, batch)
                .map_err(failed)?;
            let twin = flow_batch(&world.fixed, batch);
            let differs = count_differing(&got.result.traffic, &twin.traffic);
            let equal = got.result.costs == twin.costs;
            let (c, t) = (got.result.costs, got.result.traffic);
            (c, t, got.updates, got.ms, equal, differs, 0)
        }
        _ => {
            let slots = slots_for(&world.fixed);
            let (got, ms) = AstarKernel::new(&gpu)
                .run(&gpu, &world.fixed, batch, slots)
                .map_err(failed)?;
            let twin = astar_batch(&world.fixed, batch, slots);
            let differs = count_differing(&got.traffic, &twin.traffic);
            let equal = got.costs == twin.costs && got.status == twin.status;
            let overflow = count_overflow(&got.status);
            (
                got.costs,
                got.traffic,
                got.expanded,
                ms,
                equal,
                differs,
                overflow,
            )
        }
    };
    let costs: Vec<f64> = costs
        .iter()
        .map(|&c| if c == INF { f64::NAN } else { c as f64 / SCALE })
        .collect();
    let heat = |v: &[u32]| {
        let mut h = Heat::zeros(&world.grid);
        h.add(v);
        h
    };
    Ok(Planned {
        equal,
        traffic_differs,
        overflow,
        outcome: Outcome {
            method,
            lengths: lengths.unwrap_or_else(|| costs.clone()),
            costs,
            traffic: heat(&traffic),
            expansions: heat(&work),
            paths: None,
            ms,
            threads: 0,
        },
        adapter: gpu.adapter.to_string(),
    })
}

fn count_overflow(status: &[u32]) -> usize {
    status
        .iter()
        .filter(|&&s| s == Status::Overflow as u32)
        .count()
}

fn count_differing(a: &[u32], b: &[u32]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x != y).count()
}

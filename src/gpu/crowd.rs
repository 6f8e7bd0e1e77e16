//! A crowd batch on the GPU as an [`Outcome`] like the CPU backend's, checked against the
//! kernel's CPU twin: what `pathlab agents --backend gpu` and the app's GPU heat view run.

use super::flow::FlowKernels;
use super::Gpu;
use crate::crowd::cpu::Outcome;
use crate::crowd::twin::{flow_batch, INF, SCALE};
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
}

/// Why the GPU did not plan a batch.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter: the caller says so and plans on the CPU.
    #[error("{0}")]
    NoAdapter(String),
    #[error("pathlab's GPU kernel for {0} is not built yet (flow is)")]
    Unsupported(&'static str),
    #[error("{0}")]
    Failed(String),
}

/// Plans `batch` with `method` on the GPU.
pub fn plan(world: &World, batch: &Batch, method: Method) -> Result<Planned, GpuError> {
    if method != Method::Flow {
        return Err(GpuError::Unsupported(method.name()));
    }
    let gpu = Gpu::new().map_err(GpuError::NoAdapter)?;
    let got = FlowKernels::new(&gpu)
        .run(&gpu, &world.fixed, batch)
        .map_err(|e| GpuError::Failed(format!("{}: {e}", gpu.adapter)))?;
    let twin = flow_batch(&world.fixed, batch);
    let traffic_differs = got
        .result
        .traffic
        .iter()
        .zip(&twin.traffic)
        .filter(|(a, b)| a != b)
        .count();
    let costs: Vec<f64> = got
        .result
        .costs
        .iter()
        .map(|&c| if c == INF { f64::NAN } else { c as f64 / SCALE })
        .collect();
    let heat = |v: &[u32]| {
        let mut h = Heat::zeros(&world.grid);
        h.add(v);
        h
    };
    Ok(Planned {
        equal: got.result.costs == twin.costs,
        traffic_differs,
        outcome: Outcome {
            method,
            lengths: costs.clone(),
            costs,
            traffic: heat(&got.result.traffic),
            expansions: heat(&got.updates),
            paths: None,
            ms: got.ms,
            threads: 0,
        },
        adapter: gpu.adapter.to_string(),
    })
}

//! `pathlab agents --backend gpu|both`: a batch on the GPU, checked against the kernel's CPU
//! twin, as an [`Outcome`] the rest of the command prints and draws like a CPU one.

use anyhow::Result;
use pathlab::crowd::cpu::Outcome;
use pathlab::crowd::{Batch, Method, World};

/// What asking the GPU gave.
#[cfg_attr(not(feature = "gpu"), allow(dead_code))]
pub enum GpuRun {
    Ran {
        outcome: Outcome,
        adapter: String,
        /// Every GPU cost equals the CPU twin's, exactly.
        equal: bool,
    },
    /// No adapter (or no GPU support built in): why.
    NoAdapter(String),
}

#[cfg(feature = "gpu")]
pub fn run(world: &World, batch: &Batch, method: Method) -> Result<GpuRun> {
    use pathlab::crowd::twin::{flow_batch, FixedGrid, INF, SCALE};
    use pathlab::crowd::Heat;
    use pathlab::gpu::flow::FlowKernels;
    use pathlab::gpu::Gpu;
    if method != Method::Flow {
        anyhow::bail!(
            "--backend gpu: pathlab's GPU kernel for {} is not built yet (flow is); run it \
             with --backend cpu",
            method.name()
        );
    }
    let gpu = match Gpu::new() {
        Ok(g) => g,
        Err(e) => return Ok(GpuRun::NoAdapter(e)),
    };
    let grid = FixedGrid::of(&world.grid);
    let got = FlowKernels::new(&gpu)
        .run(&gpu, &grid, batch)
        .map_err(|e| anyhow::anyhow!("{}: {e}", gpu.adapter))?;
    let twin = flow_batch(&grid, batch);
    let equal = got.result.costs == twin.costs;
    if got.result.traffic != twin.traffic {
        eprintln!(
            "pathlab agents: the GPU's traffic differs from its CPU twin's on {} cells",
            got.result
                .traffic
                .iter()
                .zip(&twin.traffic)
                .filter(|(a, b)| a != b)
                .count()
        );
    }
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
    Ok(GpuRun::Ran {
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
        equal,
    })
}

#[cfg(not(feature = "gpu"))]
pub fn run(_world: &World, _batch: &Batch, _method: Method) -> Result<GpuRun> {
    Ok(GpuRun::NoAdapter(
        "this pathlab was built without the gpu feature".into(),
    ))
}

//! `pathlab agents --backend gpu|both`: the library's GPU batch, or why there is none.

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
    use pathlab::gpu::crowd::{plan, GpuError};
    match plan(world, batch, method) {
        Ok(p) => {
            if p.overflow > 0 {
                eprintln!(
                    "pathlab agents: {} agents outgrew the memory each gets on the GPU and \
                     report no path (as their CPU twins do)",
                    p.overflow
                );
            }
            if p.traffic_differs > 0 {
                eprintln!(
                    "pathlab agents: the GPU's traffic differs from its CPU twin's on {} cells",
                    p.traffic_differs
                );
            }
            Ok(GpuRun::Ran {
                outcome: p.outcome,
                adapter: p.adapter,
                equal: p.equal && p.traffic_differs == 0,
            })
        }
        Err(GpuError::NoAdapter(why)) => Ok(GpuRun::NoAdapter(why)),
        Err(e) => anyhow::bail!("{e}"),
    }
}

#[cfg(not(feature = "gpu"))]
pub fn run(_world: &World, _batch: &Batch, _method: Method) -> Result<GpuRun> {
    Ok(GpuRun::NoAdapter(
        "this pathlab was built without the gpu feature".into(),
    ))
}

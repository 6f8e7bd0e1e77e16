//! `pathlab agents --backend gpu|both`: the library's GPU batch, or why there is none.

use anyhow::Result;
use pathlab::crowd::cpu::Outcome;
use pathlab::crowd::tally::Split;
use pathlab::crowd::{Batch, Method, World};

/// What asking the GPU gave.
#[cfg_attr(not(feature = "gpu"), allow(dead_code))]
// One value per batch, moved once: the size of its larger variant costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum GpuRun {
    Ran {
        outcome: Outcome,
        adapter: String,
        /// Every GPU cost equals the CPU twin's, exactly.
        equal: bool,
        /// Agents left without an answer by a named limit (memory, the driver's loop limit),
        /// and one line for each such limit.
        unanswered: usize,
        notes: Vec<String>,
        /// How the time divided between the GPU and the host beside it (PCCP).
        split: Option<Split>,
    },
    /// No adapter (or no GPU support built in): why.
    NoAdapter(String),
}

#[cfg(feature = "gpu")]
pub fn run(world: &World, batch: &Batch, method: Method) -> Result<GpuRun> {
    use pathlab::gpu::crowd::{plan, GpuError};
    match plan(world, batch, method, &|| true) {
        Ok(p) => {
            for note in p.notes() {
                eprintln!("pathlab agents: {} gpu: {note}", method.name());
            }
            if p.traffic_differs > 0 {
                eprintln!(
                    "pathlab agents: the GPU's traffic differs from its CPU twin's on {} cells",
                    p.traffic_differs
                );
            }
            Ok(GpuRun::Ran {
                unanswered: p.overflow,
                notes: p.notes(),
                split: p.split,
                outcome: p.outcome,
                adapter: p.adapter,
                equal: p.equal && p.traffic_differs == 0,
            })
        }
        Err(GpuError::NoAdapter(why)) => Ok(GpuRun::NoAdapter(why)),
        Err(GpuError::Stopped) => unreachable!("nothing stops a command-line batch"),
        Err(e) => anyhow::bail!("{e}"),
    }
}

#[cfg(not(feature = "gpu"))]
pub fn run(_world: &World, _batch: &Batch, _method: Method) -> Result<GpuRun> {
    Ok(GpuRun::NoAdapter(
        "this pathlab was built without the gpu feature".into(),
    ))
}

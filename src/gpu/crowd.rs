//! A crowd batch on the GPU as an [`Outcome`] like the CPU backend's, checked against the
//! kernel's CPU twin: what `pathlab agents --backend gpu` and the app's GPU heat view run.
//! Costs are the kernels' fixed point read back as cost units.
//!
//! Memory follows the problem: grid A* and MA-HNA* give each agent a slice of memory, and an
//! agent that outgrows it is planned again with four times as much ([`crate::crowd::grow`]), up
//! to the most one binding of this adapter holds. The twin takes the same sizes, so the two
//! still agree agent by agent; only an agent that outgrows the last size reports overflow, and
//! is counted apart from agents with no path.

use super::astar::{sizes_for, AstarKernel, WORDS_PER_SLOT};
use super::context::{GoOn, STOPPED};
use super::flow::FlowKernels;
use super::hna::{self, HnaKernel, HnaRun};
use super::Gpu;
use crate::crowd::cpu::Outcome;
use crate::crowd::grow::{grow, Grown};
use crate::crowd::tally::Split;
use crate::crowd::twin::{flow_batch_while, INF, SCALE};
use crate::crowd::twin_astar::{astar_batch_grown, Status};
use crate::crowd::twin_hna::{hna_batch_grown, HnaGraph};
use crate::crowd::{Batch, Heat, Method, World};

/// The status a kernel reports for an agent whose loops the driver cut short (Mesa's llvmpipe
/// ends an invocation's loops after 65,535 rounds): its answer is not used.
pub const CUT: u32 = 4;

/// A batch planned on the GPU.
pub struct Planned {
    pub outcome: Outcome,
    /// The adapter, as `pathlab gpu` names it.
    pub adapter: String,
    /// Every GPU status and cost equals the CPU twin's, exactly.
    pub equal: bool,
    /// Cells whose traffic differs from the twin's (0 when all agree).
    pub traffic_differs: usize,
    /// Agents whose search outgrew the most memory the adapter gives one agent (they have no
    /// cost, as their twins have none).
    pub overflow: usize,
    /// The most memory one agent had, in bytes (the last size tried).
    pub agent_bytes: u64,
    /// How a PCCP batch's time divides between the GPU and the host's work beside it.
    pub split: Option<Split>,
}

impl Planned {
    /// One line for each way some agents came back without an answer, or none.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = vec![];
        if self.overflow > 0 {
            notes.push(format!(
                "{} agents outgrew the most memory this adapter gives one agent ({} MiB) and \
                 have no answer (their CPU twins neither)",
                self.overflow,
                self.agent_bytes.div_ceil(1 << 20)
            ));
        }
        notes
    }
}

/// Why the GPU did not plan a batch.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter: the caller says so and plans on the CPU.
    #[error("{0}")]
    NoAdapter(String),
    #[error("{0}")]
    Failed(String),
    /// `go_on` said stop.
    #[error("stopped")]
    Stopped,
}

impl Grown for HnaRun {
    fn status(&self) -> &[u32] {
        &self.result.status
    }

    fn take(&mut self, part: Self, agents: &[usize]) {
        for (j, &i) in agents.iter().enumerate() {
            if let (Some(to), Some(from)) = (self.paths.get_mut(i), part.paths.get(j)) {
                *to = from.clone();
            }
        }
        self.ms += part.ms;
        self.split.add(part.split);
        self.result.take(part.result, agents);
    }
}

/// Plans `batch` with `method` on the GPU, asking `go_on` between dispatches (and between the
/// twin's agents) whether to go on.
pub fn plan(
    world: &World,
    batch: &Batch,
    method: Method,
    go_on: GoOn,
) -> Result<Planned, GpuError> {
    let gpu = Gpu::new().map_err(GpuError::NoAdapter)?;
    let failed = |e: String| {
        if e.ends_with(STOPPED) || !go_on() {
            GpuError::Stopped
        } else {
            GpuError::Failed(format!("{}: {e}", gpu.adapter))
        }
    };
    let mut lengths = None;
    let mut agent_bytes = 0;
    let mut split = None;
    let (costs, status, traffic, work, ms, equal, traffic_differs) = match method {
        Method::Pccp => {
            let g = HnaGraph::of(world).map_err(GpuError::Failed)?;
            let sizes = hna::sizes_for(&g, hna::max_slots(&gpu));
            agent_bytes =
                *sizes.last().expect("one size at least") as u64 * hna::WORDS_PER_SLOT * 4;
            let kernel = HnaKernel::new(&gpu);
            let (got, _) = grow(batch, &sizes, |b, s| {
                kernel.run(&gpu, world, &g, b, s, 0, go_on)
            })
            .map_err(failed)?;
            if !go_on() {
                return Err(GpuError::Stopped);
            }
            let (twin, _) =
                hna_batch_grown(world, &g, batch, &sizes, go_on).ok_or(GpuError::Stopped)?;
            let r = got.result;
            let differs = count_differing(&r.traffic, &twin.traffic);
            let equal = r.costs == twin.costs && r.status == twin.status;
            lengths = Some(r.lengths);
            split = Some(got.split);
            (
                r.costs, r.status, r.traffic, r.expanded, got.ms, equal, differs,
            )
        }
        Method::Flow => {
            let got = FlowKernels::new(&gpu)
                .run(&gpu, &world.fixed, batch, go_on)
                .map_err(failed)?;
            if !go_on() {
                return Err(GpuError::Stopped);
            }
            let twin = flow_batch_while(&world.fixed, batch, go_on).ok_or(GpuError::Stopped)?;
            let differs = count_differing(&got.result.traffic, &twin.traffic);
            let equal = got.result.costs == twin.costs;
            let (c, t) = (got.result.costs, got.result.traffic);
            let status = c.iter().map(|&c| (c == INF) as u32).collect();
            (c, status, t, got.updates, got.ms, equal, differs)
        }
        _ => {
            let sizes = sizes_for(&world.fixed, gpu.max_slots(WORDS_PER_SLOT, 4));
            agent_bytes = *sizes.last().expect("one size at least") as u64 * WORDS_PER_SLOT * 4;
            let kernel = AstarKernel::new(&gpu);
            let mut ms = 0.0;
            let (got, _) = grow(batch, &sizes, |b, s| {
                let (r, t) = kernel.run(&gpu, &world.fixed, b, s, go_on)?;
                ms += t;
                Ok(r)
            })
            .map_err(failed)?;
            if !go_on() {
                return Err(GpuError::Stopped);
            }
            let (twin, _) =
                astar_batch_grown(&world.fixed, batch, &sizes, go_on).ok_or(GpuError::Stopped)?;
            let differs = count_differing(&got.traffic, &twin.traffic);
            let equal = got.costs == twin.costs && got.status == twin.status;
            (
                got.costs,
                got.status,
                got.traffic,
                got.expanded,
                ms,
                equal,
                differs,
            )
        }
    };
    // A cut agent may have counted part of its path: the batch's counts are not an answer.
    let cut = count(&status, CUT);
    if cut > 0 {
        return Err(GpuError::Failed(format!(
            "{}: the driver cut {cut} agents' searches short (its loop limit), so this adapter \
             gives the batch no answer",
            gpu.adapter
        )));
    }
    let costs: Vec<f64> = costs
        .iter()
        .map(|&c| if c == INF { f64::NAN } else { c as f64 / SCALE })
        .collect();
    let heat = |v: &[u32]| Heat::from_counts(&world.grid, v.to_vec());
    Ok(Planned {
        equal,
        traffic_differs,
        overflow: count(&status, Status::Overflow as u32),
        agent_bytes,
        split,
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

fn count(status: &[u32], s: u32) -> usize {
    status.iter().filter(|&&x| x == s).count()
}

fn count_differing(a: &[u32], b: &[u32]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x != y).count()
}

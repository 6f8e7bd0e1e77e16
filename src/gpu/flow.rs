//! Flow-field batches on the GPU (`shaders/flow.wgsl`): for each goal of the batch, relax the
//! integration field until it stops changing, set each cell's step, walk the goal's agents down
//! it. Its CPU twin is [`crate::crowd::twin::flow_batch`]; the tests hold the two equal.

use super::context::{groups, GoOn, Gpu, STOPPED};
use crate::crowd::twin::{by_goal, FixedGrid, FlowResult, INF};
use crate::crowd::Batch;
use crate::space::DIRS;
use web_time::Instant;

const SOURCE: &str = include_str!("../../shaders/flow.wgsl");

/// Relaxation rounds submitted at a time before asking whether the last one changed anything.
const ROUNDS: usize = 32;

/// A flow batch's GPU results and what it took.
#[derive(Clone, Debug)]
pub struct GpuFlow {
    pub result: FlowResult,
    /// Cost drops per cell, all goals together (the relaxation's work).
    pub updates: Vec<u32>,
    /// Relaxation rounds run, all goals together.
    pub rounds: usize,
    pub ms: f64,
}

/// The three kernels, compiled once per device.
pub struct FlowKernels {
    relax: wgpu::ComputePipeline,
    direct: wgpu::ComputePipeline,
    follow: wgpu::ComputePipeline,
}

impl FlowKernels {
    pub fn new(gpu: &Gpu) -> FlowKernels {
        FlowKernels {
            relax: gpu.pipeline(SOURCE, "relax"),
            direct: gpu.pipeline(SOURCE, "direct"),
            follow: gpu.pipeline(SOURCE, "follow"),
        }
    }

    /// Plans `batch` on `grid`'s fixed-point costs; stops between submissions when `go_on`
    /// says so.
    pub fn run(
        &self,
        gpu: &Gpu,
        grid: &FixedGrid,
        batch: &Batch,
        go_on: GoOn,
    ) -> Result<GpuFlow, String> {
        let t0 = Instant::now();
        let cells = grid.cells();
        gpu.fits("the map's moves", grid.edges.len() as u64 * 4)?;
        let groups_of = by_goal(batch);
        let most = groups_of.iter().map(|(_, a)| a.len()).max().unwrap_or(0);
        let params = |goal: u32, agents: usize| -> Vec<u32> {
            let mut p = vec![grid.width, cells as u32, goal, agents as u32];
            p.extend(DIRS.iter().map(|d| d.0 as u32));
            p.extend(DIRS.iter().map(|d| d.1 as u32));
            p
        };
        let uniform = gpu.uniform("params", &params(0, 0));
        let edges = gpu.storage("edges", &grid.edges);
        let dist = gpu.storage("dist", &vec![INF; cells]);
        let next = gpu.storage("next", &vec![INF; cells]);
        let changed = gpu.storage("changed", &[0]);
        let starts = gpu.storage("starts", &vec![0; most.max(1)]);
        let costs = gpu.storage("costs", &vec![INF; most.max(1)]);
        let traffic = gpu.storage("traffic", &vec![0; cells]);
        let updates = gpu.storage("updates", &vec![0; cells]);
        let bind = |pipeline: &wgpu::ComputePipeline, entries: &[(u32, &wgpu::Buffer)]| {
            let entries: Vec<wgpu::BindGroupEntry> = entries
                .iter()
                .map(|&(binding, b)| wgpu::BindGroupEntry {
                    binding,
                    resource: b.as_entire_binding(),
                })
                .collect();
            gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &pipeline.get_bind_group_layout(0),
                entries: &entries,
            })
        };
        let relax = bind(
            &self.relax,
            &[
                (0, &uniform),
                (1, &edges),
                (2, &dist),
                (4, &changed),
                (8, &updates),
            ],
        );
        let direct = bind(
            &self.direct,
            &[(0, &uniform), (1, &edges), (2, &dist), (3, &next)],
        );
        let follow = bind(
            &self.follow,
            &[
                (0, &uniform),
                (2, &dist),
                (3, &next),
                (5, &starts),
                (6, &costs),
                (7, &traffic),
            ],
        );
        let (cx, cy) = groups(cells);
        let mut out = vec![INF; batch.agents.len()];
        let mut rounds = 0;
        let mut init = vec![INF; cells];
        for (goal, agents) in &groups_of {
            init[*goal as usize] = 0;
            gpu.queue
                .write_buffer(&dist, 0, &super::context::bytes(&init));
            init[*goal as usize] = INF;
            gpu.queue.write_buffer(
                &uniform,
                0,
                &super::context::bytes(&params(*goal, agents.len())),
            );
            // Rounds until one changes nothing: the flag is cleared before the last round of
            // each submission, so reading it says whether that round lowered any cost.
            // Each round settles at least one more cell, so a goal takes at most `cells`.
            let mut goal_rounds = 0;
            loop {
                if !go_on() {
                    return Err(STOPPED.into());
                }
                let mut enc = gpu.device.create_command_encoder(&Default::default());
                for k in 0..ROUNDS {
                    if k == ROUNDS - 1 {
                        enc.clear_buffer(&changed, 0, None);
                    }
                    let mut pass = enc.begin_compute_pass(&Default::default());
                    pass.set_pipeline(&self.relax);
                    pass.set_bind_group(0, &relax, &[]);
                    pass.dispatch_workgroups(cx, cy, 1);
                }
                gpu.queue.submit([enc.finish()]);
                rounds += ROUNDS;
                goal_rounds += ROUNDS;
                if gpu.read(&changed, 1)?[0] == 0 {
                    break;
                }
                if goal_rounds > cells + 2 * ROUNDS {
                    return Err("the GPU flow field did not settle".into());
                }
            }
            let starts_of: Vec<u32> = agents
                .iter()
                .map(|&i| batch.agents[i as usize].start)
                .collect();
            gpu.queue
                .write_buffer(&starts, 0, &super::context::bytes(&starts_of));
            let mut enc = gpu.device.create_command_encoder(&Default::default());
            {
                let mut pass = enc.begin_compute_pass(&Default::default());
                pass.set_pipeline(&self.direct);
                pass.set_bind_group(0, &direct, &[]);
                pass.dispatch_workgroups(cx, cy, 1);
            }
            {
                let (ax, ay) = groups(agents.len());
                let mut pass = enc.begin_compute_pass(&Default::default());
                pass.set_pipeline(&self.follow);
                pass.set_bind_group(0, &follow, &[]);
                pass.dispatch_workgroups(ax, ay, 1);
            }
            gpu.queue.submit([enc.finish()]);
            let got = gpu.read(&costs, agents.len())?;
            for (&i, c) in agents.iter().zip(got) {
                out[i as usize] = c;
            }
        }
        let traffic = gpu.read(&traffic, cells)?;
        let updates = gpu.read(&updates, cells)?;
        Ok(GpuFlow {
            result: FlowResult {
                costs: out,
                traffic,
            },
            updates,
            rounds,
            ms: t0.elapsed().as_secs_f64() * 1000.0,
        })
    }
}

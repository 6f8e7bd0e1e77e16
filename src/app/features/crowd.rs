//! Run ▸ Crowd: a batch of agents on the open square map, planned as a background job by up
//! to four methods or backends, shown as heatmaps side by side on one colour scale (the views
//! are in `crowd_view.rs`).

use crate::app::jobs::{Job, Polled, Progress};
use crate::crowd::cpu::Outcome;
use crate::crowd::tally::Split;
use crate::crowd::{self, Batch, Method, World};
use crate::map::io::Problem;
use crate::map::Grid;
use crate::space::{GridSpace, NodeId};
use eframe::egui;

/// One heat view: a method on a backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panel {
    pub method: Method,
    pub gpu: bool,
}

impl Panel {
    /// Every view offered: each method on each backend.
    pub const ALL: [Panel; 6] = [
        Panel {
            method: Method::Astar,
            gpu: false,
        },
        Panel {
            method: Method::Pccp,
            gpu: false,
        },
        Panel {
            method: Method::Flow,
            gpu: false,
        },
        Panel {
            method: Method::Flow,
            gpu: true,
        },
        Panel {
            method: Method::Astar,
            gpu: true,
        },
        Panel {
            method: Method::Pccp,
            gpu: true,
        },
    ];

    /// The view `--crowd` names: astar, pccp or flow, with `-gpu` for the GPU's.
    pub fn parse(name: &str) -> Result<Panel, String> {
        let (m, gpu) = match name.strip_suffix("-gpu") {
            Some(m) => (m, true),
            None => (name, false),
        };
        Panel::ALL
            .into_iter()
            .find(|p| p.method.name() == m && p.gpu == gpu)
            .ok_or_else(|| {
                format!("no view {name:?} (astar, pccp, flow, flow-gpu, astar-gpu, pccp-gpu)")
            })
    }

    pub fn label(self) -> String {
        format!(
            "{} ({})",
            self.method.name(),
            if self.gpu { "GPU" } else { "CPU" }
        )
    }
}

/// What the views colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    Traffic,
    Expansions,
    /// The second view's traffic minus the first's.
    Difference,
}

/// A finished batch.
pub struct CrowdResult {
    /// Counts a new result, so views know to redraw their textures.
    pub serial: u64,
    pub grid: GridSpace,
    pub source: String,
    /// Each view's panel, title line and outcome.
    pub outcomes: Vec<(Panel, String, Outcome)>,
    /// Things the user must know (no adapter: the CPU planned instead).
    pub notices: Vec<String>,
}

/// Agents whose paths are kept and animated.
pub const ANIMATED: usize = 400;

/// The window's settings, the job in flight and the last result.
pub struct CrowdWindow {
    pub open: bool,
    pub agents: usize,
    pub seed: u64,
    /// Shared goals (0: every agent its own random goal).
    pub goals: usize,
    /// Plan the open scenario's problems as the agents instead (the MAPF benchmark's files).
    pub from_scenario: bool,
    /// The painted start area and goal area (corners, inclusive), and whether the agents go
    /// between them.
    pub areas: [Option<[(u32, u32); 2]>; 2],
    pub between_areas: bool,
    /// The area being painted on the canvas (0: start, 1: goal), if any.
    pub painting: Option<usize>,
    pub chosen: [bool; 6],
    pub show: Show,
    /// The animation's step (cells walked) and whether it plays.
    pub time: f32,
    pub playing: bool,
    pub(super) job: Option<Job<Result<CrowdResult, String>>>,
    pub result: Option<CrowdResult>,
    pub error: Option<String>,
    serial: u64,
    /// The views' textures and what they were drawn from.
    pub(super) textures: Vec<egui::TextureHandle>,
    pub(super) drawn: Option<(u64, Show)>,
}

impl Default for CrowdWindow {
    fn default() -> Self {
        CrowdWindow {
            open: false,
            agents: 10_000,
            seed: 1,
            goals: 0,
            from_scenario: false,
            areas: [None, None],
            between_areas: false,
            painting: None,
            // A page offers no PCCP (no hierarchies without METIS): A* alone there.
            chosen: [
                true,
                !cfg!(target_arch = "wasm32"),
                false,
                false,
                false,
                false,
            ],
            show: Show::Traffic,
            time: 0.0,
            playing: false,
            job: None,
            result: None,
            error: None,
            serial: 0,
            textures: vec![],
            drawn: None,
        }
    }
}

impl CrowdWindow {
    /// Opens with exactly `views` chosen and `agents` agents, and starts the batch on `grid`.
    pub fn open_with(&mut self, views: &[Panel], agents: usize, grid: &Grid) {
        self.open = true;
        self.chosen = Panel::ALL.map(|p| views.contains(&p));
        self.agents = agents;
        self.start(grid, &[]);
    }

    /// The panels chosen, in order.
    pub fn panels(&self) -> Vec<Panel> {
        Panel::ALL
            .iter()
            .zip(self.chosen)
            .filter(|(_, on)| *on)
            .map(|(p, _)| *p)
            .collect()
    }

    /// True while a batch runs.
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// The job's progress (agents planned, of all views' agents).
    pub fn progress(&self) -> Option<(u64, u64)> {
        self.job.as_ref().map(|j| j.progress())
    }

    /// Starts the batch on `grid` (the open square map) as a background job; `problems` are
    /// the open scenario's, the agents when [`CrowdWindow::from_scenario`] says so.
    pub fn start(&mut self, grid: &Grid, problems: &[Problem]) {
        let panels = self.panels();
        if panels.is_empty() || self.running() {
            return;
        }
        let who = if self.from_scenario && !problems.is_empty() {
            Who::Scenario(problems.to_vec())
        } else if let (true, [Some(from), Some(to)]) = (self.between_areas, self.areas) {
            Who::Areas {
                n: self.agents.max(1),
                seed: self.seed,
                from,
                to,
            }
        } else {
            Who::Drawn {
                n: self.agents.max(1),
                seed: self.seed,
                goals: self.goals,
            }
        };
        self.serial += 1;
        let serial = self.serial;
        let grid = grid.clone();
        self.error = None;
        let total = (who.len() * panels.len()) as u64;
        self.job = Some(Job::spawn("crowd", total, move |p| {
            run(&grid, &panels, &who, serial, p)
        }));
    }

    /// Stops the batch in flight.
    pub fn cancel(&mut self) {
        if let Some(j) = &self.job {
            j.cancel();
        }
    }

    /// Takes a finished batch; true when one arrived.
    pub fn poll(&mut self) -> bool {
        let Some(job) = &mut self.job else {
            return false;
        };
        let cancelled = job.cancelled();
        let done = match job.poll() {
            Polled::Running => return false,
            Polled::Done(d) => Some(d),
            Polled::Lost => None,
        };
        self.job = None;
        match done {
            _ if cancelled => self.error = Some("Cancelled.".into()),
            Some(Ok(r)) => {
                self.time = 0.0;
                self.result = Some(r);
            }
            Some(Err(e)) => self.error = Some(e),
            None => self.error = Some("The batch's worker stopped with an error.".into()),
        }
        true
    }

    /// The shown counts of every view as one PNG (the command line's picture), if any.
    pub fn png(&self) -> Option<image::RgbImage> {
        let r = self.result.as_ref()?;
        let heats = super::crowd_view::heats(r, self.show);
        let panels: Vec<(&crowd::Heat, String)> =
            heats.iter().map(|(h, t)| (h, t.to_lowercase())).collect();
        Some(crowd::heat::side_by_side(
            &panels,
            &r.grid,
            super::crowd_view::scale(&heats, self.show),
        ))
    }

    /// Every view's counts per cell as CSV.
    pub fn csv(&self) -> Option<String> {
        let r = self.result.as_ref()?;
        let labelled: Vec<(String, &Outcome)> = r
            .outcomes
            .iter()
            .map(|(p, _, o)| (if p.gpu { "gpu" } else { "cpu" }.to_string(), o))
            .collect();
        Some(crowd::cpu::counts_csv(&labelled, &r.grid))
    }
}

/// Who walks: agents drawn at random (to shared goals when `goals` > 0), or a scenario's.
enum Who {
    Drawn {
        n: usize,
        seed: u64,
        goals: usize,
    },
    Scenario(Vec<Problem>),
    Areas {
        n: usize,
        seed: u64,
        from: [(u32, u32); 2],
        to: [(u32, u32); 2],
    },
}

impl Who {
    fn len(&self) -> usize {
        match self {
            Who::Drawn { n, .. } | Who::Areas { n, .. } => *n,
            Who::Scenario(p) => p.len(),
        }
    }
}

/// The job: the world, the batch, then each view's plan.
fn run(
    grid: &Grid,
    panels: &[Panel],
    who: &Who,
    serial: u64,
    p: &Progress,
) -> Result<CrowdResult, String> {
    let methods: Vec<Method> = panels.iter().map(|p| p.method).collect();
    let world = World::new(grid, &methods, crowd::MU, crowd::LEVELS, &|_, _| {})?;
    let batch = match who {
        Who::Drawn { n, seed, goals: 0 } => Batch::random(&world.grid, *n, *seed),
        Who::Drawn { n, seed, goals } => Batch::shared_goals(&world.grid, *n, *goals, *seed),
        Who::Scenario(problems) => Batch::from_problems(&world.grid, problems, "the scenario"),
        Who::Areas { n, seed, from, to } => Batch::areas(&world.grid, *n, *from, *to, *seed),
    }
    .map_err(|e| e.to_string())?;
    let n = batch.agents.len();
    let mut outcomes = vec![];
    let mut notices = vec![];
    if panels.iter().any(|p| p.method == Method::Flow) {
        notices.extend(crowd::flow_goals_note(&batch).map(|n| format!("{n}.")));
    }
    let report = |k: usize| {
        p.add(k as u64);
        !p.cancelled()
    };
    for &panel in panels {
        let mut on_cpu = !panel.gpu;
        if panel.gpu {
            match gpu_plan(&world, &batch, panel.method, &|| !p.cancelled()) {
                Err(GpuFail::Stopped) => return Err("Cancelled.".into()),
                Ok((mut o, adapter, equal, notes, split)) => {
                    // The kernels keep no paths: the first agents walk their twins' (the
                    // batch was just checked against them, agent by agent), so a GPU view
                    // plays like a CPU one.
                    let walked = twin_paths(&world, &batch, &o.costs, panel.method, ANIMATED, p);
                    o.paths = Some(walked.ok_or("Cancelled.")?);
                    p.add(n as u64);
                    notices.extend(notes.iter().map(|n| format!("{}: {n}.", panel.label())));
                    let check = if equal {
                        "every cost equals the CPU's"
                    } else {
                        "SOME COSTS DIFFER from the CPU's"
                    };
                    // Where a PCCP batch's time went: the GPU's waves, and what of the
                    // host's funnels and counts beside them was left after the last.
                    let split = split.map_or(String::new(), |s| {
                        format!(
                            " (GPU waves {:.0} ms, the host's counting after them {:.0} ms)",
                            s.search_ms, s.tail_ms
                        )
                    });
                    let title = format!(
                        "{} on {adapter}: {:.0} ms{split}; {check}",
                        panel.label(),
                        o.ms
                    );
                    outcomes.push((panel, title, o));
                }
                Err(GpuFail::No(why)) => {
                    notices.push(format!(
                        "{}: {why}; the CPU planned it instead.",
                        panel.label()
                    ));
                    on_cpu = true;
                }
            }
        }
        if on_cpu {
            let Some(o) = crowd::plan(&world, &batch, panel.method, ANIMATED, Some(&report))?
            else {
                return Err("Cancelled.".into());
            };
            let title = format!(
                "{} (CPU, {} threads): {:.0} ms, {:.0} agents/s",
                panel.method.name(),
                o.threads,
                o.ms,
                o.agents_per_s()
            );
            let cpu = Panel {
                method: panel.method,
                gpu: false,
            };
            outcomes.push((cpu, title, o));
        }
    }
    Ok(CrowdResult {
        serial,
        grid: world.grid,
        source: batch.source,
        outcomes,
        notices,
    })
}

/// Why a GPU view was not planned on the GPU.
enum GpuFail {
    /// Cancelled (the job's flag, between dispatches). Only the GPU's planner stops early.
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    Stopped,
    /// No adapter, or the adapter could not: why (the CPU plans it instead).
    No(String),
}

/// A view planned on the GPU: its outcome, the adapter, whether it equals its CPU twin, a
/// line for each limit that left agents without an answer, and how a PCCP batch's time
/// divided between the GPU and the host.
type GpuPlanned = (Outcome, String, bool, Vec<String>, Option<Split>);

#[cfg(feature = "gpu")]
fn gpu_plan(
    world: &World,
    batch: &Batch,
    m: Method,
    go_on: crate::gpu::context::GoOn,
) -> Result<GpuPlanned, GpuFail> {
    use crate::gpu::crowd::GpuError;
    match crate::gpu::crowd::plan(world, batch, m, go_on) {
        Ok(p) => {
            let notes = p.notes();
            Ok((
                p.outcome,
                p.adapter,
                p.equal && p.traffic_differs == 0,
                notes,
                p.split,
            ))
        }
        Err(GpuError::Stopped) => Err(GpuFail::Stopped),
        Err(e) => Err(GpuFail::No(e.to_string())),
    }
}

#[cfg(not(feature = "gpu"))]
fn gpu_plan(
    _: &World,
    _: &Batch,
    _: Method,
    _: &(dyn Fn() -> bool + Sync),
) -> Result<GpuPlanned, GpuFail> {
    Err(GpuFail::No(
        "this pathlab was built without the gpu feature".into(),
    ))
}

/// The first `keep` agents' paths, cells start to goal, as the CPU twins of the GPU kernels
/// ([`crate::crowd::twin`]) find them: the paths the kernels walk when they agree with their
/// twins. Agents without a cost in `costs` get none. `None` when `p` was cancelled.
fn twin_paths(
    world: &World,
    batch: &Batch,
    costs: &[f64],
    method: Method,
    keep: usize,
    p: &Progress,
) -> Option<Vec<Vec<NodeId>>> {
    use crate::crowd::tally::Tally;
    use crate::crowd::twin::flow_field;
    use crate::crowd::twin_astar::{Octile, Scratch, Status};
    use crate::crowd::twin_hna::{HnaGraph, HnaScratch};
    let agents = &batch.agents[..batch.agents.len().min(keep)];
    let mut paths = vec![vec![]; agents.len()];
    let found = |i: usize| costs.get(i).is_some_and(|c| c.is_finite());
    let g = &world.fixed;
    // Memory as the kernels grow it: four times more for an agent that outgrew it, up to a
    // table that holds every cell (or node) four times over.
    let sizes = |nodes: usize| {
        let top = (4 * nodes).next_power_of_two().max(1 << 12) as u32;
        std::iter::successors(Some(1u32 << 12), move |&s| (s < top).then_some(4 * s))
    };
    match method {
        Method::Astar => {
            let h = Octile::of(g);
            let mut scratch = Scratch::new(1 << 12);
            for (i, a) in agents.iter().enumerate().filter(|(i, _)| found(*i)) {
                if p.cancelled() {
                    return None;
                }
                let mut status = Status::Overflow;
                for s in sizes(g.cells()) {
                    if scratch.slots < s {
                        scratch = Scratch::new(s);
                    }
                    status = scratch.astar(g, h, a.start, a.goal, |_| {}).0;
                    if status != Status::Overflow {
                        break;
                    }
                }
                if status == Status::Found {
                    let path = &mut paths[i];
                    scratch.path_back(a.start, a.goal, |c| path.push(c));
                    path.reverse();
                }
            }
        }
        Method::Flow => {
            let (mut dist, mut next) = (vec![], vec![]);
            let mut goals: Vec<u32> = agents.iter().map(|a| a.goal).collect();
            goals.sort_unstable();
            goals.dedup();
            for goal in goals {
                if p.cancelled() {
                    return None;
                }
                flow_field(g, goal, &mut dist, &mut next, |_| {});
                for (i, a) in agents.iter().enumerate() {
                    if a.goal != goal || !found(i) {
                        continue;
                    }
                    // Downhill to the goal: a cell at most once.
                    let mut c = a.start;
                    paths[i].push(c);
                    while c != goal && paths[i].len() <= g.cells() {
                        c = next[c as usize];
                        paths[i].push(c);
                    }
                }
            }
        }
        Method::Pccp => {
            let (Ok(graph), Some(mesh)) = (HnaGraph::of(world), world.mesh.as_ref()) else {
                return Some(paths);
            };
            let first = Batch {
                agents: agents.to_vec(),
                source: String::new(),
            };
            let ends = HnaGraph::ends(mesh, &world.grid, &first);
            let nodes = graph.polygons as usize + graph.vertices as usize + 2;
            let mut tally = Tally::new(world.fixed.cells(), agents.len(), keep);
            let mut scratch = HnaScratch::new(1 << 12);
            let mut chain = vec![];
            for (i, &a) in agents.iter().enumerate().filter(|(i, _)| found(*i)) {
                if p.cancelled() {
                    return None;
                }
                let (ps, pg) = (ends[2 * i], ends[2 * i + 1]);
                let mut status = Status::Overflow;
                for s in sizes(nodes) {
                    if scratch.table.slots < s {
                        scratch = HnaScratch::new(s);
                    }
                    status = scratch.search(&graph, ps, pg, |_| {}).0;
                    if status != Status::Overflow {
                        break;
                    }
                }
                if status == Status::Found && scratch.chain(&graph, &mut chain) {
                    tally.add(world, &graph, i, a, pg, &chain);
                }
            }
            paths = tally.finish().paths;
        }
    }
    Some(paths)
}

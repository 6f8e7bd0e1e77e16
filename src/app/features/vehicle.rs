//! Run ▸ Vehicle planner: AIPATH (Schnieders 2014) on the open square map, one metre a cell,
//! planned as a background job and stepped through afterwards, beside grid A* between the same
//! cells (its drawing is in `vehicle_view.rs`).

use crate::app::jobs::{Job, Polled};
use crate::app::parts::{part_any, Cx, Menu, Part};
use crate::app::Command;
use crate::map::Grid;
use crate::search::{AStar, Query, Search, SearchState, Status};
use crate::space::{GridSpace, Heuristic as GridHeuristic};
use crate::trace::NullTracer;
use crate::vehicle::search::{Arrival, Phase};
use crate::vehicle::{Discretisation, Goal, Heuristic, Model, Planner, Pose, Vehicle};

/// The estimates offered, by name.
pub const HEURISTICS: [(&str, Heuristic); 3] = [
    ("exact time over Dubins (sound)", Heuristic::SOUND),
    ("the thesis's time over CSC", Heuristic::THESIS),
    (
        "distance only",
        Heuristic {
            estimate: crate::vehicle::Estimate::Distance,
            ..Heuristic::SOUND
        },
    ),
];

/// The thesis's goal test (§5.1): 0.3 m (a cell), 1°, 0.1 m/s.
pub const THESIS_TOLERANCE: [f64; 3] = [0.3, 1.0, 0.1];

/// The window's looser test for maps, with the coarser discretisation it opens with there.
pub const MAP_TOLERANCE: [f64; 3] = [0.5, 10.0, 0.5];

/// One iteration as the view draws it: the pose expanded and which phase expanded it.
#[derive(Clone, Copy, Debug)]
pub struct Expanded {
    pub pose: Pose,
    pub phase: Phase,
    /// Arrivals logged once this iteration was done (those before it are on the map).
    pub logged: usize,
}

/// A finished plan.
pub struct VehicleResult {
    pub model: Model,
    pub expanded: Vec<Expanded>,
    pub arrivals: Vec<Arrival>,
    pub path: Option<Vec<Arrival>>,
    pub cost: Option<f64>,
    /// The physics replay's verdict on the path.
    pub drivable: Result<(), String>,
    /// Grid A* between the same cells: its cells and length.
    pub grid_path: Option<Vec<(u32, u32)>>,
    pub grid_length: f64,
    /// Corners of the grid path no car with this turning radius can take in one cell.
    pub grid_corners: usize,
    pub ms: f64,
}

/// The window's settings, the job in flight and the last plan.
pub struct VehicleWindow {
    pub open: bool,
    pub vehicle: Vehicle,
    pub grid: Discretisation,
    pub heuristic: usize,
    pub probe: bool,
    pub start: Pose,
    pub goal: Pose,
    /// Set from the map's endpoints when the window first opens.
    pub placed: bool,
    pub cap: u64,
    /// The goal test: within metres, degrees and m/s.
    pub tolerance: [f64; 3],
    pub(super) job: Option<Job<Result<VehicleResult, String>>>,
    pub result: Option<VehicleResult>,
    pub error: Option<String>,
    /// The iteration shown and the time along the path (s).
    pub step: usize,
    pub time: f32,
    pub playing: bool,
    /// While the car drives: the clock (s, the window's input clock) and the car's time when it
    /// set off, or was last put somewhere on its slider.
    clock: Option<(f64, f32)>,
    /// The pose being dragged on the map: 0 start, 1 goal; and whether it is being aimed.
    pub dragging: Option<(usize, bool)>,
    /// The map's texture and what it was made from (width, height, a hash of its cells).
    pub(super) map_texture: Option<((u32, u32, u64), eframe::egui::TextureHandle)>,
    /// The left view as last drawn: the stretch of the map it shows and where.
    pub(super) left_view: Option<super::vehicle_view::Frame>,
    /// Room around the views, as measured when last drawn: the gap and item spacing beside
    /// them, the titles over them and the rows under them.
    pub(super) chrome: Option<eframe::egui::Vec2>,
}

impl Default for VehicleWindow {
    fn default() -> Self {
        VehicleWindow {
            open: false,
            vehicle: Vehicle::THESIS_CAR,
            grid: Discretisation::THESIS,
            heuristic: 0,
            probe: true,
            start: Pose::new(0.5, 0.5, 0.0, 0.0),
            goal: Pose::new(0.5, 0.5, 0.0, 0.0),
            placed: false,
            cap: 100_000,
            tolerance: THESIS_TOLERANCE,
            job: None,
            result: None,
            error: None,
            step: 0,
            time: 0.0,
            playing: false,
            clock: None,
            dragging: None,
            map_texture: None,
            left_view: None,
            chrome: None,
        }
    }
}

/// What can be asked of the vehicle window.
#[derive(Clone, Debug, PartialEq)]
pub enum VehicleCommand {
    /// Plans the window's problem on the open map.
    Plan,
}

impl Part for VehicleWindow {
    // The car drives by the clock, in its window (`VehicleWindow::drive`): not by frames.
    fn windows(&mut self, cx: &mut Cx, ctx: &eframe::egui::Context) {
        if self.open && self.show(ctx, &cx.work.doc.grid) == super::vehicle_view::Asked::Plan {
            cx.send(Command::Vehicle(VehicleCommand::Plan));
        }
    }
    fn wants_repaint(&self) -> bool {
        // While it plans, the window asks for a frame every 100 ms itself.
        self.playing
    }
    fn menu_entry(&self) -> Option<(Menu, &'static str, &'static str)> {
        Some((
            Menu::Run,
            "Vehicle planner (Schnieders 2014)…",
            "a car's path in its own state space, beside grid A*'s",
        ))
    }
    fn name(&self) -> &'static str {
        "vehicle"
    }
    /// The car stops (it drives by the clock, only while the window shows it) and the plan in
    /// flight ends.
    fn close(&mut self) {
        self.open = false;
        self.playing = false;
        self.job = None;
    }
    /// Opens with start and goal at the map's endpoints the first time.
    fn open(&mut self, cx: &mut Cx) {
        let doc = &cx.work.doc;
        self.open_at(doc.start, doc.goal, &doc.grid);
    }
    part_any!();
}

impl VehicleWindow {
    /// Does what `c` asks, on `map`.
    pub fn apply(&mut self, c: VehicleCommand, map: &Grid) {
        match c {
            VehicleCommand::Plan => self.plan(map),
        }
    }

    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// Opens the window with start and goal at the map's endpoints (once), the start facing
    /// the goal, the goal facing on; on a map under 100 cells a side (one cell a metre, too
    /// tight for a car's 6.5 m turns) with the small robot.
    pub fn open_at(&mut self, start: (u32, u32), goal: (u32, u32), map: &Grid) {
        self.open = true;
        if !self.placed {
            self.placed = true;
            if map.width().min(map.height()) < 100 {
                // The thesis's car and settings were made for open ground: among a small map's
                // walls its search fills every heading and speed of every cell before a wall.
                // A small robot, 5° headings, 10° steering, half acceleration and a looser goal
                // find a path in seconds; every setting shows, and the thesis's are a click away.
                self.vehicle = Vehicle::ROBOT;
                self.grid = Discretisation {
                    heading: 5.0,
                    steer: 10.0,
                    half_accel: true,
                    ..Discretisation::THESIS
                };
                self.tolerance = MAP_TOLERANCE;
            }
            let (sx, sy) = (start.0 as f64 + 0.5, start.1 as f64 + 0.5);
            let (gx, gy) = (goal.0 as f64 + 0.5, goal.1 as f64 + 0.5);
            let aim = (gy - sy).atan2(gx - sx).to_degrees();
            self.start = Pose::new(sx, sy, aim, 0.0);
            self.goal = Pose::new(gx, gy, aim, self.vehicle.max_speed / 3.0);
        }
    }

    /// Plans on `map` in the background.
    pub fn plan(&mut self, map: &Grid) {
        if self.running() {
            return;
        }
        let model = match Model::new(self.vehicle, self.grid, Some(map.clone())) {
            Ok(m) => m,
            Err(e) => {
                self.error = Some(e);
                return;
            }
        };
        let (start, goal, probe, cap) = (self.start, self.goal, self.probe, self.cap);
        let [within, degrees, speed] = self.tolerance;
        let test = Goal {
            pose: goal,
            within,
            heading: degrees.to_radians(),
            speed,
        };
        let heuristic = HEURISTICS[self.heuristic.min(HEURISTICS.len() - 1)].1;
        self.error = None;
        // In slices, so that a page (no threads) plans between frames with the same bar. The
        // planner is made in the first slice: its walls' distances are a Dijkstra over the
        // whole map, which is the job's work, not the click's.
        let setup = Some((model, heuristic, start, test, probe, cap));
        let state: (_, Option<Planning>) = (setup, None);
        self.job = Some(Job::sliced(
            "vehicle",
            cap,
            state,
            |(setup, planning), p| {
                if let Some((model, heuristic, start, test, probe, cap)) = setup.take() {
                    match Planning::new(model, heuristic, start, test, probe, cap) {
                        Ok(made) => *planning = Some(made),
                        Err(e) => return Some(Err(e)),
                    }
                }
                let Some(planning) = planning.as_mut() else {
                    return Some(Err("the planner was not made".into()));
                };
                if p.cancelled() {
                    return Some(Err("Cancelled.".into()));
                }
                let before = planning.planner.iterations();
                let done = planning.slice();
                p.add(planning.planner.iterations() - before);
                done.map(Ok)
            },
        ));
    }

    pub fn cancel(&self) {
        if let Some(j) = &self.job {
            j.cancel();
        }
    }

    /// Takes a finished plan; true when one arrived.
    pub fn poll(&mut self) -> bool {
        let Some(job) = &mut self.job else {
            return false;
        };
        let done = match job.poll() {
            Polled::Running => return false,
            Polled::Done(d) => Some(d),
            Polled::Lost => None,
        };
        self.job = None;
        match done {
            Some(Ok(r)) => {
                self.step = r.expanded.len();
                self.time = 0.0;
                self.result = Some(r);
            }
            Some(Err(e)) => self.error = Some(e),
            None => self.error = Some("The planner stopped with an error.".into()),
        }
        true
    }

    /// Progress of the plan in flight (iterations, cap).
    pub fn progress(&self) -> Option<(u64, u64)> {
        self.job.as_ref().map(|j| j.progress())
    }

    /// Drives the car along the path at clock `now` (s): in real time, however often frames
    /// come; it stops at the path's end.
    pub fn drive(&mut self, now: f64) {
        if !self.playing {
            self.clock = None;
            return;
        }
        let end = self.result.as_ref().and_then(|r| r.cost).unwrap_or(0.0) as f32;
        let from = *self.clock.get_or_insert((now, self.time));
        self.time = car_time(from, now, end);
        if self.time >= end {
            self.playing = false;
            self.clock = None;
        }
    }

    /// Starts or pauses the car at clock `now`; from the start again once it has arrived.
    pub(super) fn toggle_drive(&mut self, now: f64) {
        self.playing = !self.playing;
        let end = self.result.as_ref().and_then(|r| r.cost).unwrap_or(0.0) as f32;
        if self.playing && self.time >= end {
            self.time = 0.0;
        }
        self.clock = self.playing.then_some((now, self.time));
    }

    /// The car was put at another time on its slider at clock `now`: it drives on from there.
    pub(super) fn moved_car(&mut self, now: f64) {
        self.clock = self.playing.then_some((now, self.time));
    }
}

/// The car's time at clock `now` when it set off from `from` = (clock, car time): one second
/// of the car's a second of the clock, up to `end`.
pub fn car_time(from: (f64, f32), now: f64, end: f32) -> f32 {
    (from.1 as f64 + (now - from.0).max(0.0)).min(end as f64) as f32
}

/// The plan: AIPATH step by step, each iteration noted; then grid A* between the same cells.
/// A plan in progress, run in slices of [`SLICE`] iterations (a page runs one or more per
/// frame; the desktop runs them on the job's thread).
struct Planning {
    planner: Planner,
    model: Model,
    start: Pose,
    goal: Pose,
    expanded: Vec<Expanded>,
    /// Time spent planning, summed over the slices (a page's slices have frames between
    /// them, which are not the planner's).
    busy: std::time::Duration,
}

/// Planner iterations per slice, between progress reports and Cancel checks.
const SLICE: u64 = 256;

impl Planning {
    fn new(
        model: Model,
        heuristic: Heuristic,
        start: Pose,
        test: Goal,
        probe: bool,
        cap: u64,
    ) -> Result<Planning, String> {
        let t0 = web_time::Instant::now();
        model.check_pose("start", &start)?;
        model.check_pose("goal", &test.pose)?;
        let mut planner = Planner::new(model.clone(), heuristic, start, test, probe).around_walls();
        planner.set_cap(cap);
        Ok(Planning {
            planner,
            model,
            start,
            goal: test.pose,
            expanded: vec![],
            busy: t0.elapsed(),
        })
    }

    /// Runs up to [`SLICE`] iterations; the result once the planner has ended.
    fn slice(&mut self) -> Option<VehicleResult> {
        let t0 = web_time::Instant::now();
        let p = &mut self.planner;
        for _ in 0..SLICE {
            if p.status() != Status::Running {
                break;
            }
            let phase = p.phase();
            p.step(&mut NullTracer);
            if let Some(a) = p.last_expanded() {
                if self.expanded.len() < p.iterations() as usize {
                    self.expanded.push(Expanded {
                        pose: a.pose,
                        phase,
                        logged: p.arrivals().len(),
                    });
                }
            }
        }
        if p.status() == Status::Running {
            self.busy += t0.elapsed();
            return None;
        }
        let model = &self.model;
        let path = p.path();
        let drivable = path
            .as_ref()
            .map_or(Ok(()), |path| crate::vehicle::check::drivable(model, path));
        let (grid_path, grid_length, grid_corners) = grid_astar(model, self.start, self.goal);
        Some(VehicleResult {
            cost: p.cost(),
            arrivals: p.arrivals().to_vec(),
            expanded: std::mem::take(&mut self.expanded),
            path,
            drivable,
            grid_path,
            grid_length,
            grid_corners,
            model: model.clone(),
            ms: (self.busy + t0.elapsed()).as_secs_f64() * 1000.0,
        })
    }
}

/// Grid A* (octile, the registry's) between the start's and goal's cells: the cells, the
/// length, and its corners no car with this turning radius can take (every change of
/// direction turns 45° or more within a cell).
fn grid_astar(model: &Model, start: Pose, goal: Pose) -> (Option<Vec<(u32, u32)>>, f64, usize) {
    let Some(map) = &model.map else {
        return (None, 0.0, 0);
    };
    let space = GridSpace::octile(map);
    let (Some(s), Some(g)) = (
        space.node(start.x as u32, start.y as u32),
        space.node(goal.x as u32, goal.y as u32),
    ) else {
        return (None, 0.0, 0);
    };
    let mut a = AStar::new(&space, Query { start: s, goal: g }, GridHeuristic::Octile);
    if a.run(&space, &mut NullTracer) != Status::Found {
        return (None, 0.0, 0);
    }
    let cells: Vec<(u32, u32)> = a
        .path()
        .unwrap_or(&[])
        .iter()
        .map(|&n| space.xy(n))
        .collect();
    let corners = cells
        .windows(3)
        .filter(|w| {
            let d1 = (w[1].0 as i64 - w[0].0 as i64, w[1].1 as i64 - w[0].1 as i64);
            let d2 = (w[2].0 as i64 - w[1].0 as i64, w[2].1 as i64 - w[1].1 as i64);
            // A 45° turn within one cell is a radius of about 1.3 cells.
            d1 != d2 && model.vehicle.turning_radius > 1.3
        })
        .count();
    (Some(cells), a.cost().unwrap_or(0.0), corners)
}

/// A pose's glyph and arc points, shared by the view and its tests.
pub fn arc_points(p: Pose, s: f64, turn: f64, n: usize) -> Vec<(f64, f64)> {
    (0..=n)
        .map(|i| {
            let f = i as f64 / n as f64;
            let q = crate::vehicle::model::along(p, s * f, turn * f);
            (q.x, q.y)
        })
        .collect()
}

impl VehicleResult {
    /// The pose along the path at time `t` (s): between the arrivals either side, along the arc.
    pub fn pose_at(&self, t: f64) -> Option<Pose> {
        let path = self.path.as_ref()?;
        let i = path.iter().position(|a| a.g >= t).unwrap_or(path.len() - 1);
        if i == 0 {
            return Some(path[0].pose);
        }
        let (a, b) = (&path[i - 1], &path[i]);
        // Under the step's constant acceleration: the distance covered by time τ into it, not
        // the share of its time (the top-speed cap is ignored within the step).
        let tau = (t - a.g).clamp(0.0, b.g - a.g);
        let acc = b.action.map_or(0.0, |x| x.accel);
        let s = self.model.grid.cell;
        let f = ((a.pose.v * tau + 0.5 * acc * tau * tau) / s).clamp(0.0, 1.0);
        let turn = crate::vehicle::model::turn_between(a.pose.phi, b.pose.phi);
        let mut q = crate::vehicle::model::along(a.pose, s * f, turn * f);
        q.v = (a.pose.v + acc * tau).clamp(a.pose.v.min(b.pose.v), a.pose.v.max(b.pose.v));
        Some(q)
    }

    /// Number of nodes expanded by the probe.
    pub fn probe_iterations(&self) -> usize {
        self.expanded
            .iter()
            .filter(|e| e.phase == Phase::Probe)
            .count()
    }
}

//! Schnieders 2014's experiments (§5.4–§5.6, Tables 5.3–5.8): random goals within 0–8 turning
//! radii of a car at the origin, random start and goal speeds and goal headings, on an open
//! plane; each test runs its variants on the same problems.
//!
//! - `heuristics`: A* with the distance-only heuristic against the time heuristic (Tables 5.3,
//!   5.4; turning radius 5–10 m as §5.4 says);
//! - `probe`: A* alone against the probe alone (Algorithm 6, as Tables 5.7, 5.8 measure it),
//!   with where the probe stopped and AIPATH (the probe, then A*) summarised;
//! - `cells`: the spatial cell size from 0.1 to 5 (Tables 5.5, 5.6);
//! - `headings`: 1°, 2° and 10° heading steps (§5.5.2);
//! - `lattice`: one exact pose per node (§6.2) against the pure lattice (every action's end
//!   snapped to its state), on problems whose start and goal are lattice states, so both can
//!   meet the goal test exactly. Not the thesis's: how the two differ in length and work.
//!
//! Means are over the problems every variant of the test solved (so the variants are compared
//! on the same problems), except for the 14 cell sizes, each over the problems it solved; each
//! variant's success rate is over all. Every path found is replayed through the physics
//! ([`crate::vehicle::check`]).

use crate::search::Status;
use crate::vehicle::check::drivable;
use crate::vehicle::search::Replace;
use crate::vehicle::{
    Discretisation, Estimate, Goal, Heuristic, Model, Phase, Planner, Pose, Vehicle,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use web_time::Instant;

/// Which test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    Heuristics,
    Probe,
    Cells,
    Headings,
    Lattice,
}

impl Test {
    pub fn name(self) -> &'static str {
        match self {
            Test::Heuristics => "heuristics",
            Test::Probe => "probe",
            Test::Cells => "cells",
            Test::Headings => "headings",
            Test::Lattice => "lattice",
        }
    }

    pub fn from_name(s: &str) -> Option<Test> {
        [
            Test::Heuristics,
            Test::Probe,
            Test::Cells,
            Test::Headings,
            Test::Lattice,
        ]
        .into_iter()
        .find(|t| t.name() == s)
    }
}

/// One random problem: the vehicle drawn for it, its start and its goal.
#[derive(Clone, Copy, Debug)]
pub struct Problem {
    pub vehicle: Vehicle,
    pub start: Pose,
    pub goal: Pose,
}

impl Problem {
    /// The straight-line distance start to goal (the thesis's bins).
    pub fn euclid(&self) -> f64 {
        (self.goal.x - self.start.x).hypot(self.goal.y - self.start.y)
    }
}

/// `runs` problems from `seed`, as §5.1 draws them: a = 1.5, d = 5, v_max = 13.8, a turning
/// radius of 5–8 m (5–10 m for the heuristic test, §5.4), a lateral limit of 10–20 m/s²; the
/// start at the origin heading +x at a random speed; the goal 0–8 turning radii away in a
/// random direction, with a random heading and speed.
pub fn problems(test: Test, runs: usize, seed: u64) -> Vec<Problem> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let top = if test == Test::Heuristics { 10.0 } else { 8.0 };
    (0..runs)
        .map(|_| {
            let vehicle = Vehicle {
                turning_radius: rng.random_range(5.0..top),
                lateral: rng.random_range(10.0..20.0),
                ..Vehicle::THESIS_CAR
            };
            let vm = vehicle.max_speed;
            let start = Pose::new(0.0, 0.0, 0.0, rng.random_range(0.0..vm));
            let d = rng.random_range(0.0..8.0) * vehicle.turning_radius;
            let bearing: f64 = rng.random_range(0.0..std::f64::consts::TAU);
            let goal = Pose::new(
                d * bearing.cos(),
                d * bearing.sin(),
                rng.random_range(0.0..360.0),
                rng.random_range(0.0..vm),
            );
            let (start, goal) = if test == Test::Lattice {
                (on_lattice(start), on_lattice(goal))
            } else {
                (start, goal)
            };
            Problem {
                vehicle,
                start,
                goal,
            }
        })
        .collect()
}

/// `p` moved to its lattice state at the thesis's discretisation: its cell's centre, a whole
/// degree, a tenth of a metre a second.
fn on_lattice(p: Pose) -> Pose {
    Pose::new(
        p.x.floor() + 0.5,
        p.y.floor() + 0.5,
        p.degrees().round(),
        (p.v * 10.0).round() / 10.0,
    )
}

/// What every variant of a test shares: the choices the thesis leaves open.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The heuristic the test does not vary.
    pub heuristic: Heuristic,
    /// The discretisation (cell and heading steps are varied by their own tests); with
    /// `half_accel`, every variant also offers half acceleration (the thesis's optional
    /// intermediate step).
    pub grid: Discretisation,
    /// Which arrival a node keeps ([`Replace`]).
    pub replace: Replace,
    /// Whether a closed node is opened again when a better arrival reaches it.
    pub reopen: bool,
}

impl Settings {
    /// pathlab's choices for what the thesis leaves open (docs/schnieders2014.md says why).
    pub const DEFAULT: Settings = Settings {
        heuristic: Heuristic::SOUND,
        grid: Discretisation::THESIS,
        replace: Replace::CostPlusEstimate,
        reopen: true,
    };
}

/// A way of planning that a test compares.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    pub name: &'static str,
    pub heuristic: Heuristic,
    pub grid: Discretisation,
    pub probe: bool,
    /// The pure lattice ([`Planner::lattice`]).
    pub lattice: bool,
    pub replace: Replace,
    pub reopen: bool,
}

/// The variants of `test`, each with `set`'s choices where the test does not vary them.
pub fn variants(test: Test, set: &Settings) -> Vec<Variant> {
    let v = |name, heuristic, grid, probe| Variant {
        name,
        heuristic,
        grid,
        probe,
        lattice: false,
        replace: set.replace,
        reopen: set.reopen,
    };
    let d = set.grid;
    let base = set.heuristic;
    match test {
        Test::Heuristics => vec![
            v(
                "distance",
                Heuristic {
                    estimate: Estimate::Distance,
                    ..base
                },
                d,
                false,
            ),
            v("time", base, d, false),
        ],
        Test::Probe => vec![v("astar", base, d, false), v("probe", base, d, true)],
        Test::Cells => [
            ("0.1", 0.1),
            ("0.2", 0.2),
            ("0.3", 0.3),
            ("0.4", 0.4),
            ("0.5", 0.5),
            ("0.6", 0.6),
            ("0.8", 0.8),
            ("1.0", 1.0),
            ("1.2", 1.2),
            ("1.5", 1.5),
            ("2.0", 2.0),
            ("3.0", 3.0),
            ("4.0", 4.0),
            ("5.0", 5.0),
        ]
        .into_iter()
        .map(|(n, c)| v(n, base, Discretisation { cell: c, ..d }, false))
        .collect(),
        Test::Headings => [("1", 1.0), ("2", 2.0), ("10", 10.0)]
            .into_iter()
            .map(|(n, h)| v(n, base, Discretisation { heading: h, ..d }, false))
            .collect(),
        Test::Lattice => vec![
            v("poses", base, d, false),
            Variant {
                lattice: true,
                ..v("lattice", base, d, false)
            },
        ],
    }
}

/// One search's outcome.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    pub iterations: u64,
    pub ms: f64,
    /// Travel time (s) and path length (m) where found.
    pub travel: Option<f64>,
    pub length: Option<f64>,
    /// Whether the path replays through the physics (true where none was found).
    pub drivable: bool,
    /// For the probe: how far (m) from the goal it stopped, and AIPATH's outcome when A* goes
    /// on from every probed node (iterations, probe and A* together; travel time).
    pub probe_end: Option<f64>,
    pub aipath: Option<(u64, Option<f64>)>,
}

/// Plans `p` with `v`, with at most `cap` iterations. The probe variant is Algorithm 6 alone,
/// as Tables 5.7 and 5.8 measure it (solved where the probe itself met the goal test); the
/// search then goes on as AIPATH (Algorithm 1) for [`Run::aipath`].
pub fn plan(p: &Problem, v: &Variant, cap: u64) -> (Run, Option<String>) {
    let model = Model::new(p.vehicle, v.grid, None).expect("the drawn vehicle is valid");
    let t0 = Instant::now();
    let goal = Goal::thesis(p.goal, v.grid.cell);
    let mut planner = Planner::new(model, v.heuristic, p.start, goal, v.probe);
    planner.replace = v.replace;
    planner.reopen = v.reopen;
    if v.lattice {
        planner = planner.lattice();
    }
    planner.set_cap(cap);
    let null = &mut crate::trace::NullTracer;
    while v.probe && planner.status() == Status::Running && planner.phase() == Phase::Probe {
        planner.step(null);
    }
    let probe_ms = t0.elapsed().as_secs_f64() * 1000.0;
    let probe = v.probe.then(|| {
        let at = planner.last_expanded().map_or(p.start, |a| a.pose);
        let end = (at.x - p.goal.x).hypot(at.y - p.goal.y);
        (
            planner.probe_iterations,
            planner.cost(),
            planner.path(),
            end,
        )
    });
    planner.run(null);
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    let path = planner.path();
    // A lattice path jumps at every action (its ends are snapped): not the car's, so not
    // replayed.
    let mut why = path
        .as_ref()
        .filter(|_| !v.lattice)
        .and_then(|path| drivable(&planner.model, path).err());
    let length = |path: &Option<Vec<_>>| {
        path.as_ref()
            .map(|p: &Vec<_>| (p.len() - 1) as f64 * v.grid.cell)
    };
    let run = match probe {
        None => Run {
            iterations: planner.iterations(),
            ms,
            travel: planner.cost(),
            length: length(&path),
            drivable: why.is_none(),
            probe_end: None,
            aipath: None,
        },
        Some((iterations, travel, probe_path, end)) => {
            if why.is_none() {
                why = probe_path
                    .as_ref()
                    .and_then(|path| drivable(&planner.model, path).err());
            }
            Run {
                iterations,
                ms: probe_ms,
                travel,
                length: length(&probe_path),
                drivable: why.is_none(),
                probe_end: Some(end),
                aipath: Some((planner.iterations(), planner.cost())),
            }
        }
    };
    (run, why)
}

/// A test's results: its problems, variants, and each variant's run on each problem.
pub struct Report {
    pub test: Test,
    pub problems: Vec<Problem>,
    pub variants: Vec<Variant>,
    /// `runs[v][p]`.
    pub runs: Vec<Vec<Run>>,
    /// Paths that failed the physics replay: (variant, problem, why).
    pub undrivable: Vec<(usize, usize, String)>,
}

/// Runs `test` on `runs` problems from `seed`, every variant (or those `keep` keeps),
/// problems in parallel; `done(k)` is told as searches finish.
pub fn run(
    test: Test,
    runs: usize,
    seed: u64,
    (set, keep): (&Settings, &dyn Fn(&Variant) -> bool),
    cap: u64,
    done: &(dyn Fn(usize) + Sync),
) -> Report {
    let problems = problems(test, runs, seed);
    let variants: Vec<Variant> = variants(test, set).into_iter().filter(keep).collect();
    let mut all = vec![];
    let mut undrivable = vec![];
    for (vi, v) in variants.iter().enumerate() {
        let out: Vec<(Run, Option<String>)> = problems
            .par_iter()
            .map(|p| {
                let r = plan(p, v, cap);
                done(1);
                r
            })
            .collect();
        for (pi, (_, why)) in out.iter().enumerate() {
            if let Some(w) = why {
                undrivable.push((vi, pi, w.clone()));
            }
        }
        all.push(out.into_iter().map(|(r, _)| r).collect());
    }
    Report {
        test,
        problems,
        variants,
        runs: all,
        undrivable,
    }
}

/// A variant's means over the problems [`Report::common`] picks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Means {
    /// The problems the iteration and time means are over, and those the travel and length
    /// means are over.
    pub solved_by_all: usize,
    pub travelled_by_all: usize,
    pub iterations: f64,
    pub ms: f64,
    pub travel: f64,
    pub length: f64,
    pub success_rate: f64,
}

impl Report {
    /// The problems variant `v`'s means are over, within straight-line distance `[lo, hi)`:
    /// those every variant solved; for the cell sizes, those `v` solved (as Table 5.5 counts
    /// them, failures left out: among 14 sizes few problems are solved by all). The probe's
    /// iterations and time count wherever A* solved the problem, whether or not the probe
    /// reached the goal (Table 5.7 counts the probe's work); travel only where both did.
    fn common(&self, v: usize, lo: f64, hi: f64, travel: bool) -> Vec<usize> {
        (0..self.problems.len())
            .filter(|&p| {
                let d = self.problems[p].euclid();
                let solved = match self.test {
                    Test::Cells => self.runs[v][p].travel.is_some(),
                    Test::Probe if !travel => self.runs[0][p].travel.is_some(),
                    _ => self.runs.iter().all(|r| r[p].travel.is_some()),
                };
                d >= lo && d < hi && solved
            })
            .collect()
    }

    /// Variant `v`'s means over its problems in `[lo, hi)` ([`Report::common`]).
    pub fn means(&self, v: usize, lo: f64, hi: f64) -> Means {
        let mean = |common: &[usize], f: &dyn Fn(&Run) -> f64| {
            let n = common.len().max(1) as f64;
            // (+ 0.0: an empty sum is −0.0, printed with its sign.)
            common.iter().map(|&p| f(&self.runs[v][p])).sum::<f64>() / n + 0.0
        };
        let work = self.common(v, lo, hi, false);
        let trips = self.common(v, lo, hi, true);
        let solved = self.runs[v].iter().filter(|r| r.travel.is_some()).count();
        Means {
            solved_by_all: work.len(),
            travelled_by_all: trips.len(),
            iterations: mean(&work, &|r| r.iterations as f64),
            ms: mean(&work, &|r| r.ms),
            travel: mean(&trips, &|r| r.travel.unwrap_or(0.0)),
            length: mean(&trips, &|r| r.length.unwrap_or(0.0)),
            success_rate: solved as f64 / self.problems.len().max(1) as f64,
        }
    }

    /// One row per variant: `test,variant,runs,mean_iterations,mean_time_ms,mean_travel_s,
    /// success_rate`.
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "test,variant,runs,mean_iterations,mean_time_ms,mean_travel_s,success_rate\n",
        );
        for (i, v) in self.variants.iter().enumerate() {
            let m = self.means(i, 0.0, f64::INFINITY);
            out.push_str(&format!(
                "{},{},{},{:.1},{:.3},{:.3},{:.4}\n",
                self.test.name(),
                v.name,
                self.problems.len(),
                m.iterations,
                m.ms,
                m.travel,
                m.success_rate
            ));
        }
        out
    }

    /// The thesis's tables: by straight-line distance in 10 m bins, each variant's mean
    /// iterations and travel time, and the test's comparison.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let names: Vec<&str> = self.variants.iter().map(|v| v.name).collect();
        let bins: Vec<(f64, f64, String)> = (0..8)
            .map(|b| {
                (
                    b as f64 * 10.0,
                    b as f64 * 10.0 + 10.0,
                    format!("{} - {}", b * 10, b * 10 + 10),
                )
            })
            .chain([(0.0, f64::INFINITY, "All".to_string())])
            .collect();
        for (what, f, trips) in [
            (
                "mean iterations",
                (|m: &Means| m.iterations) as fn(&Means) -> f64,
                false,
            ),
            ("mean travel time (s)", |m: &Means| m.travel, true),
            ("mean path length (m)", |m: &Means| m.length, true),
            ("mean search time (ms)", |m: &Means| m.ms, false),
        ] {
            let over = match self.test {
                Test::Cells => "problems each variant solved",
                Test::Probe if !trips => {
                    "problems A* solved, the probe's work whether or not it reached the goal"
                }
                _ => "problems every variant solved",
            };
            out.push_str(&format!("\n{what}, {over}:\n"));
            out.push_str(&format!("| distance (m) (n) | {} |", names.join(" | ")));
            let compare = self.variants.len() == 2;
            if compare {
                out.push_str(" change |");
            }
            out.push('\n');
            out.push_str(&"|---".repeat(names.len() + 1 + usize::from(compare)));
            out.push_str("|\n");
            for (lo, hi, label) in &bins {
                let ms: Vec<Means> = (0..self.variants.len())
                    .map(|v| self.means(v, *lo, *hi))
                    .collect();
                // (n): the problems the means are over (the most of any variant's, for cells).
                let n = ms
                    .iter()
                    .map(|m| {
                        if trips {
                            m.travelled_by_all
                        } else {
                            m.solved_by_all
                        }
                    })
                    .max()
                    .unwrap_or(0);
                if n == 0 {
                    continue;
                }
                out.push_str(&format!("| {label} ({n}) |"));
                for m in &ms {
                    out.push_str(&format!(" {:.2} |", f(m)));
                }
                if compare {
                    let (a, b) = (f(&ms[0]), f(&ms[1]));
                    // The probe's overhead is measured against the probe's own time, as the
                    // thesis's Table 5.8 does; reductions against the first variant.
                    let change = if self.test == Test::Probe && what.starts_with("mean travel") {
                        (b - a) / b
                    } else {
                        (a - b) / a
                    };
                    out.push_str(&format!(" {:.2}% |", 100.0 * change));
                }
                out.push('\n');
            }
        }
        out.push_str("\nsuccess rate (of all problems):");
        for (i, v) in self.variants.iter().enumerate() {
            out.push_str(&format!(
                " {} {:.1}%",
                v.name,
                100.0 * self.means(i, 0.0, f64::INFINITY).success_rate
            ));
        }
        out.push('\n');
        if self.test == Test::Probe {
            out.push_str(&self.probe_summary());
        }
        out
    }

    /// Where the probe stopped, and AIPATH (the probe, then A* from every probed node)
    /// against A* alone.
    fn probe_summary(&self) -> String {
        if self.runs.len() < 2 {
            return String::new();
        }
        let runs = &self.runs[1];
        let mut ends: Vec<f64> = runs.iter().filter_map(|r| r.probe_end).collect();
        ends.sort_by(f64::total_cmp);
        let n = ends.len().max(1) as f64;
        let within = |d: f64| 100.0 * ends.iter().filter(|&&e| e <= d).count() as f64 / n;
        let median = ends.get(ends.len() / 2).copied().unwrap_or(0.0);
        let both: Vec<usize> = (0..self.problems.len())
            .filter(|&p| {
                self.runs[0][p].travel.is_some() && runs[p].aipath.is_some_and(|(_, t)| t.is_some())
            })
            .collect();
        let m = both.len().max(1) as f64;
        let astar = both
            .iter()
            .map(|&p| self.runs[0][p].iterations as f64)
            .sum::<f64>()
            / m;
        let aipath = both
            .iter()
            .filter_map(|&p| runs[p].aipath.map(|(i, _)| i as f64))
            .sum::<f64>()
            / m;
        let solved = runs
            .iter()
            .filter(|r| r.aipath.is_some_and(|(_, t)| t.is_some()))
            .count();
        format!(
            "probe's end: median {median:.2} m from the goal; within 0.3 m {:.1}%, 1 m {:.1}%, \
             5 m {:.1}%\n\
             AIPATH (probe, then A* from every probed node), on the {} problems both solved: \
             mean iterations {aipath:.1} against A*'s {astar:.1} ({:.2}% fewer); solved {:.1}%\n",
            within(0.3),
            within(1.0),
            within(5.0),
            both.len(),
            100.0 * (astar - aipath) / astar.max(1e-9),
            100.0 * solved as f64 / self.problems.len().max(1) as f64,
        )
    }
}

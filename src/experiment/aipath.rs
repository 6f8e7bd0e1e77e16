//! Schnieders 2014's experiments (§5.4–§5.6, Tables 5.3–5.8): random goals within 0–8 turning
//! radii of a car at the origin, random start and goal speeds and goal headings, on an open
//! plane; each test runs its variants on the same problems.
//!
//! - `heuristics`: A* with the distance-only heuristic against the time heuristic (Tables 5.3,
//!   5.4; turning radius 5–10 m as §5.4 says);
//! - `probe`: A* alone against the probe followed by A* (Tables 5.7, 5.8);
//! - `cells`: the spatial cell size from 0.1 to 5 (Tables 5.5, 5.6);
//! - `headings`: 1°, 2° and 10° heading steps (§5.5.2).
//!
//! Means are over the problems every variant of the test solved (so the variants are compared
//! on the same problems), except for the 14 cell sizes, each over the problems it solved; each
//! variant's success rate is over all. Every path found is replayed through the physics
//! ([`crate::vehicle::check`]).

use crate::vehicle::check::drivable;
use crate::vehicle::{Discretisation, Estimate, Goal, Heuristic, Model, Planner, Pose, Vehicle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::time::Instant;

/// Which test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    Heuristics,
    Probe,
    Cells,
    Headings,
}

impl Test {
    pub fn name(self) -> &'static str {
        match self {
            Test::Heuristics => "heuristics",
            Test::Probe => "probe",
            Test::Cells => "cells",
            Test::Headings => "headings",
        }
    }

    pub fn from_name(s: &str) -> Option<Test> {
        [Test::Heuristics, Test::Probe, Test::Cells, Test::Headings]
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
            Problem {
                vehicle,
                start,
                goal,
            }
        })
        .collect()
}

/// A way of planning that a test compares.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    pub name: &'static str,
    pub heuristic: Heuristic,
    pub grid: Discretisation,
    pub probe: bool,
}

/// The variants of `test`; `base` is the heuristic the test does not vary.
pub fn variants(test: Test, base: Heuristic) -> Vec<Variant> {
    let v = |name, heuristic, grid, probe| Variant {
        name,
        heuristic,
        grid,
        probe,
    };
    let d = Discretisation::THESIS;
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
}

/// Plans `p` with `v`, with at most `cap` iterations.
pub fn plan(p: &Problem, v: &Variant, cap: u64) -> (Run, Option<String>) {
    let model = Model::new(p.vehicle, v.grid, None).expect("the drawn vehicle is valid");
    let t0 = Instant::now();
    let goal = Goal::thesis(p.goal, v.grid.cell);
    let mut planner = Planner::new(model, v.heuristic, p.start, goal, v.probe);
    planner.set_cap(cap);
    planner.run(&mut crate::trace::NullTracer);
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    let path = planner.path();
    let why = path
        .as_ref()
        .and_then(|path| drivable(&planner.model, path).err());
    let run = Run {
        iterations: planner.iterations(),
        ms,
        travel: planner.cost(),
        length: path.map(|p| (p.len() - 1) as f64 * v.grid.cell),
        drivable: why.is_none(),
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

/// Runs `test` on `runs` problems from `seed`, every variant, problems in parallel; `done(k)`
/// is told as searches finish.
pub fn run(
    test: Test,
    runs: usize,
    seed: u64,
    base: Heuristic,
    cap: u64,
    done: &(dyn Fn(usize) + Sync),
) -> Report {
    let problems = problems(test, runs, seed);
    let variants = variants(test, base);
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

/// A variant's means over the problems every variant solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Means {
    pub solved_by_all: usize,
    pub iterations: f64,
    pub ms: f64,
    pub travel: f64,
    pub length: f64,
    pub success_rate: f64,
}

impl Report {
    /// The problems variant `v`'s means are over, within straight-line distance `[lo, hi)`:
    /// those every variant solved; for the cell sizes, those `v` solved (as Table 5.5 counts
    /// them, failures left out: among 14 sizes few problems are solved by all).
    fn common(&self, v: usize, lo: f64, hi: f64) -> Vec<usize> {
        (0..self.problems.len())
            .filter(|&p| {
                let d = self.problems[p].euclid();
                let solved = if self.test == Test::Cells {
                    self.runs[v][p].travel.is_some()
                } else {
                    self.runs.iter().all(|r| r[p].travel.is_some())
                };
                d >= lo && d < hi && solved
            })
            .collect()
    }

    /// Variant `v`'s means over its problems in `[lo, hi)` ([`Report::common`]).
    pub fn means(&self, v: usize, lo: f64, hi: f64) -> Means {
        let common = self.common(v, lo, hi);
        let n = common.len().max(1) as f64;
        // (+ 0.0: an empty sum is −0.0, printed with its sign.)
        let sum = |f: &dyn Fn(&Run) -> f64| {
            common.iter().map(|&p| f(&self.runs[v][p])).sum::<f64>() / n + 0.0
        };
        let solved = self.runs[v].iter().filter(|r| r.travel.is_some()).count();
        Means {
            solved_by_all: common.len(),
            iterations: sum(&|r| r.iterations as f64),
            ms: sum(&|r| r.ms),
            travel: sum(&|r| r.travel.unwrap_or(0.0)),
            length: sum(&|r| r.length.unwrap_or(0.0)),
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
        for (what, f) in [
            (
                "mean iterations",
                (|m: &Means| m.iterations) as fn(&Means) -> f64,
            ),
            ("mean travel time (s)", |m: &Means| m.travel),
            ("mean path length (m)", |m: &Means| m.length),
            ("mean search time (ms)", |m: &Means| m.ms),
        ] {
            let over = if self.test == Test::Cells {
                "problems each variant solved"
            } else {
                "problems every variant solved"
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
                let n = ms.iter().map(|m| m.solved_by_all).max().unwrap_or(0);
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
        out
    }
}

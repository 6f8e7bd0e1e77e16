//! `pathlab experiment …`: the theses' experiments from the command line.

use super::experiment_csv::{write_csv, write_csv_and_table};
use super::LateProgress;
use anyhow::{bail, Result};
use pathlab::experiment::dynamic::{self, run_experiment, DynAlgo, MapKind, Setup};
use pathlab::experiment::mantysalo2024;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

#[derive(clap::Subcommand, Debug)]
pub enum Experiment {
    /// Mäntysalo 2024: an agent crosses a map whose obstacles change every 10 steps, replanning after
    /// each change; every algorithm faces the same seeded change tape. CSV on stdout or --csv.
    Dynamic {
        /// Run the thesis's whole experiment: `mantysalo2024` (its 24 scenarios, its 11
        /// variants; --scenarios and --shard choose a part).
        #[arg(long, value_parser = ["mantysalo2024"], conflicts_with_all = ["map_kind", "size", "magnitude", "algos"])]
        preset: Option<String>,
        /// With --preset: scenarios by name or pattern, comma-separated (`room-128-2`,
        /// `random-*-20`, `*-256-*`); all 24 when absent.
        #[arg(long, requires = "preset", default_value = "")]
        scenarios: String,
        /// With --preset: run shard I of N (every N-th scenario from the I-th), so a job runner
        /// can spread the work; the CSVs concatenate.
        #[arg(long, requires = "preset", value_parser = parse_shard, default_value = "1/1")]
        shard: (usize, usize),
        /// Map structure: room or random.
        #[arg(long, value_parser = ["room", "random"], required_unless_present = "preset")]
        map_kind: Option<String>,
        /// Side of the square map in cells (the thesis: 128, 256, 512).
        #[arg(long, required_unless_present = "preset")]
        size: Option<u32>,
        /// Percentage of the dynamic obstacles changed per event (the thesis: 2, 5, 10, 20).
        #[arg(long, required_unless_present = "preset")]
        magnitude: Option<f64>,
        /// Runs (each its own map and tape).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
        runs: u32,
        /// Comma-separated: astar (on the incremental searches' heap, as the thesis compared
        /// them; ties to the larger g), astar:f (ties left to the heap), astar:lane (pathlab's
        /// faster A*), dstar-lite (the first of equal steps, as the thesis ran it),
        /// dstar-lite:h (the equal step nearest the goal), rtd:LIMIT, ad:EPS, ad:changing.
        #[arg(long, default_value = "astar,dstar-lite")]
        algos: String,
        /// Seed of run 0 (run r uses seed + r).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write the CSV here (atomically) instead of stdout.
        #[arg(long)]
        csv: Option<PathBuf>,
    },
    /// Yu & Novitch 2020: A*, Theta* and Lazy Theta* on a scenario (square `.map` + `.scen`, or
    /// Warframe `.3dmap` + `.3dscen`), one loop for all three: per problem the length (and
    /// after rubber banding with --smooth), expansions, line-of-sight checks and time; CSV on
    /// stdout or --csv, and a table of means (stderr, or stdout with --csv).
    Anyangle {
        #[arg(long)]
        map: PathBuf,
        #[arg(long)]
        scen: PathBuf,
        #[arg(long, default_value = "astar,theta-star,lazy-theta-star")]
        algos: String,
        /// Their segment optimisation: every edge and segment counts 1 in g (`all`, the
        /// default, their text read literally), or only edges between neighbours, longer
        /// segments their length (`edges`, the other reading).
        #[arg(long, value_name = "WHICH", num_args = 0..=1, default_missing_value = "all", value_parser = ["all", "edges"])]
        segment_cost: Option<String>,
        /// Rubber-band every path afterwards (its length and checks in their own columns).
        #[arg(long)]
        smooth: bool,
        /// Take every K-th problem.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
        every: u64,
        /// Take at most N problems.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        limit: Option<u64>,
        #[arg(long)]
        csv: Option<PathBuf>,
    },
    /// Krafft 2019: an agent crosses a moving 3D scene (64 × 56 × 16 cells, 6-connected; 10
    /// patrolling, 3 turning and 5 timed obstacles), replanning every update; success rate,
    /// distance travelled, nodes expanded and search time per run (CSV on stdout or --csv) and
    /// a table of them (stderr, or stdout with --csv).
    Scene3d {
        /// Comma-separated: astar, theta-star, dstar-lite (inflated by --epsilon; D* Lite with
        /// Krafft's key), ara-star, ad-star (ε₀ 3, decrement 0.2).
        #[arg(long, default_value = "astar,theta-star,dstar-lite")]
        algos: String,
        /// Heuristic inflation of A*, Theta* and D* Lite (the thesis's Table 1: 2).
        #[arg(long, default_value_t = 2.0)]
        epsilon: f64,
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
        runs: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The destination stays (Krafft's scenario 1); by default it patrols (scenario 2).
        #[arg(long)]
        static_destination: bool,
        /// Rasterise the obstacles without the enlarged safety collider.
        #[arg(long)]
        no_safety: bool,
        #[arg(long)]
        csv: Option<PathBuf>,
    },
    /// Rahmani 2020's GPS of the brain: on hexes over a map, cognitive maps at each knowledge
    /// level (prior seeded explorations), then walks between random hexes with the combined
    /// planner against A*; CSV on stdout or --csv, and the mean ratio per level (stderr, or
    /// stdout with --csv).
    Gps {
        /// Square map (.map) to lay the hexes over.
        #[arg(long, required_unless_present = "room", conflicts_with = "room")]
        map: Option<PathBuf>,
        /// Instead of --map: a room map of this side from Mäntysalo 2024's generator, its doors
        /// widened to 3 hex sizes so hexes pass them.
        #[arg(long)]
        room: Option<u32>,
        /// Hex size: centre to centre, in square cells.
        #[arg(long, default_value_t = 2.0)]
        hex_size: f64,
        /// Knowledge levels, % of the walkable hexes known.
        #[arg(long, default_value = "0,25,50,75,100")]
        knowledge: String,
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
        runs: u32,
        /// δ: confidence in the goal direction, from -1 to 0.8.
        #[arg(long, default_value_t = -0.5, allow_negative_numbers = true)]
        delta: f64,
        /// C: hexes walked before the direction is chosen again.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
        c: u32,
        /// C_max: the counters' cap (the thesis gives no value; λ spans 1 to 2·C_max hexes).
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
        cmax: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A walk may take this many times A*'s steps (plus 100) before it stops exploring.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..))]
        limit_factor: u64,
        /// Read whether a hex is known from the map as the walk began, not as it goes.
        #[arg(long)]
        prior_knowledge: bool,
        /// Plan again at every step on known hexes.
        #[arg(long)]
        replan_each_step: bool,
        /// Walk every exploration leg to its C hexes, not ending it on a known hex.
        #[arg(long)]
        full_legs: bool,
        #[arg(long)]
        csv: Option<PathBuf>,
    },
    /// Schnieders 2014 (AIPATH): random goals within 0–8 turning radii of a car, random
    /// headings and speeds; each test's variants on the same problems, binned by distance as
    /// Tables 5.3–5.8 bin them. Every path is replayed through the physics; exit 1 if one fails.
    Aipath {
        /// heuristics (distance vs time, Tables 5.3–5.4), probe (A* vs the probe, Tables
        /// 5.7–5.8), cells (cell size 0.1–5, Tables 5.5–5.6), headings (1°, 2°, 10°), or
        /// lattice (one exact pose per node against the pure lattice; pathlab's own).
        #[arg(long, value_parser = ["heuristics", "probe", "cells", "headings", "lattice"])]
        test: String,
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        runs: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Iterations before a search counts as failed (the thesis: 100,000).
        #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        cap: u64,
        /// The thesis's heuristic (Algorithm 2's time over the CSC words) instead of the
        /// sound one (exact time over all Dubins words).
        #[arg(long)]
        thesis_heuristic: bool,
        /// Offer half acceleration too (the thesis's optional intermediate step, §4.3.4;
        /// whether its experiments used it is not said).
        #[arg(long)]
        half_accel: bool,
        /// Speed step of the discretised states, m/s (the thesis gives none; default: pathlab's
        /// choice, docs/schnieders2014.md).
        #[arg(long)]
        speed_step: Option<f64>,
        /// Heading step of the discretised states, degrees (the heading test varies it itself).
        #[arg(long)]
        heading_step: Option<f64>,
        /// Steering step, degrees of heading change per action (the exact limits are always
        /// offered too).
        #[arg(long)]
        steer_step: Option<f64>,
        /// Which arrival a node keeps: `cost` (§4.5) or `cost-plus-estimate` (§4.3.2).
        #[arg(long, value_parser = ["cost", "cost-plus-estimate"])]
        replace: Option<String>,
        /// Whether a closed node is opened again when a better arrival reaches it (`yes`,
        /// §4.3.2) or stays closed (`no`, §2's closed list).
        #[arg(long, value_parser = ["yes", "no"])]
        reopen: Option<String>,
        /// Run only this variant of the test (e.g. `time` of `heuristics`).
        #[arg(long)]
        variant: Option<String>,
        /// Write one row per variant here (atomically): `test,variant,runs,mean_iterations,
        /// mean_time_ms,mean_travel_s,success_rate`; the tables go to stdout.
        #[arg(long)]
        csv: Option<PathBuf>,
    },
    /// Mäntysalo 2024's tables beside pathlab's: reads `experiment dynamic` CSVs (shards
    /// concatenated or given one by one) and prints Markdown, one table per scenario.
    Summary {
        /// CSV files written by `experiment dynamic`.
        #[arg(required = true)]
        csv: Vec<PathBuf>,
        /// Differences above this percentage are set in bold.
        #[arg(long, default_value_t = 20.0)]
        flag: f64,
    },
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{s}` should be I/N, 1 ≤ I ≤ N");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

pub fn run(e: Experiment) -> Result<i32> {
    match e {
        Experiment::Aipath {
            test,
            runs,
            seed,
            cap,
            thesis_heuristic,
            half_accel,
            speed_step,
            heading_step,
            steer_step,
            replace,
            reopen,
            variant,
            csv,
        } => {
            use pathlab::experiment::aipath;
            use pathlab::vehicle::search::Replace;
            use pathlab::vehicle::Heuristic;
            let test = aipath::Test::from_name(&test).expect("clap checked the name");
            if let Some(p) = &csv {
                // Refused before minutes of searching, not after.
                let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
                if p.is_dir() || parent.is_some_and(|d| !d.is_dir()) {
                    bail!("--csv {}: not a file in an existing folder", p.display());
                }
            }
            let mut set = aipath::Settings::DEFAULT;
            if thesis_heuristic {
                set.heuristic = Heuristic::THESIS;
            }
            set.grid.half_accel |= half_accel;
            set.grid.speed = speed_step.unwrap_or(set.grid.speed);
            set.grid.heading = heading_step.unwrap_or(set.grid.heading);
            set.grid.steer = steer_step.unwrap_or(set.grid.steer);
            if let Err(e) = set.grid.check() {
                bail!("{e}");
            }
            match replace.as_deref() {
                Some("cost") => set.replace = Replace::Cost,
                Some(_) => set.replace = Replace::CostPlusEstimate,
                None => {}
            }
            if let Some(r) = &reopen {
                set.reopen = r == "yes";
            }
            let all = aipath::variants(test, &set);
            if let Some(v) = &variant {
                if !all.iter().any(|a| a.name == v) {
                    let names: Vec<&str> = all.iter().map(|a| a.name).collect();
                    bail!(
                        "--variant {v}: the {} test's variants are {}",
                        test.name(),
                        names.join(", ")
                    );
                }
            }
            let keep = |a: &aipath::Variant| variant.as_deref().is_none_or(|v| v == a.name);
            let n = runs as usize * all.iter().filter(|a| keep(a)).count();
            let bar = Mutex::new(LateProgress::new(n));
            let report = aipath::run(test, runs as usize, seed, (&set, &keep), cap, &|k| {
                if let Ok(mut b) = bar.lock() {
                    b.inc_by(k as u64);
                }
            });
            drop(bar);
            let g = &set.grid;
            let mut table = format!(
                "AIPATH {} test: {runs} problems, seed {seed}, cap {cap}, {} heuristic{}; \
                 speed step {} m/s, heading step {}°, steering step {}°, a node keeps the \
                 lowest {}, closed nodes {}\n",
                test.name(),
                if thesis_heuristic {
                    "the thesis's"
                } else {
                    "the sound"
                },
                if g.half_accel {
                    ", half acceleration offered"
                } else {
                    ""
                },
                g.speed,
                g.heading,
                g.steer,
                match set.replace {
                    Replace::Cost => "cost",
                    Replace::CostPlusEstimate => "cost plus estimate",
                },
                if set.reopen {
                    "reopened"
                } else {
                    "stay closed"
                },
            );
            table.push_str(&report.table());
            for (v, p, why) in &report.undrivable {
                table.push_str(&format!(
                    "NOT DRIVABLE: {} on problem {p}: {why}\n",
                    report.variants[*v].name
                ));
            }
            write_csv_and_table(csv, &report.csv(), &table)?;
            Ok(if report.undrivable.is_empty() { 0 } else { 1 })
        }
        Experiment::Gps {
            map,
            room,
            hex_size,
            knowledge,
            runs,
            delta,
            c,
            cmax,
            seed,
            limit_factor,
            prior_knowledge,
            replan_each_step,
            full_legs,
            csv,
        } => {
            use pathlab::experiment::gps_run;
            use pathlab::search::gps;
            if !(-1.0..=0.8).contains(&delta) {
                bail!("--delta {delta} must be from -1 to 0.8");
            }
            let levels = knowledge
                .split(',')
                .map(|k| match k.trim().parse::<u32>() {
                    Ok(v) if v <= 100 => Ok(v),
                    _ => bail!("--knowledge: `{k}` is not a percentage from 0 to 100"),
                })
                .collect::<Result<Vec<u32>>>()?;
            let grid = match (map, room) {
                (Some(m), _) => pathlab::map::io::read_map(&m)?,
                (None, Some(side)) if (16..=4096).contains(&side) => {
                    gps_run::room_map(side, hex_size, seed)
                }
                (None, Some(side)) => bail!("--room {side} must be from 16 to 4096"),
                (None, None) => bail!("give --map or --room"),
            };
            let world = gps_run::HexWorld::from_square(&grid, hex_size)
                .map_err(|e| anyhow::anyhow!("--hex-size: {e}"))?;
            let setup = gps_run::Setup {
                knowledge: levels.clone(),
                runs,
                params: gps::Exploring { delta, c },
                c_max: cmax,
                seed,
                options: gps::Options {
                    prior_knowledge,
                    replan_each_step,
                    full_legs,
                },
                limit_factor: limit_factor as usize,
            };
            let (rows, _) = gps_run::run(&world, &setup).map_err(anyhow::Error::msg)?;
            let table = gps_run::table(&rows, &levels);
            write_csv_and_table(csv, &gps_run::csv(&rows), &table)?;
            Ok(0)
        }
        Experiment::Scene3d {
            algos,
            epsilon,
            runs,
            seed,
            static_destination,
            no_safety,
            csv,
        } => {
            use pathlab::experiment::{scene3d::Scene, scene3d_run};
            if !(1.0..=100.0).contains(&epsilon) {
                bail!("--epsilon {epsilon} must be between 1 and 100");
            }
            let specs = algos
                .split(',')
                .map(|a| scene3d_run::spec(a.trim(), epsilon).map_err(anyhow::Error::msg))
                .collect::<Result<Vec<_>>>()?;
            let scene = Scene::krafft2019_like(!static_destination);
            let setup = scene3d_run::Setup {
                moving_destination: !static_destination,
                safety: !no_safety,
                ..Default::default()
            };
            let rows = scene3d_run::run_all(&scene, &specs, setup, runs, seed)
                .map_err(anyhow::Error::msg)?;
            let table = scene3d_run::table(&rows, &specs);
            write_csv_and_table(csv, &scene3d_run::csv(&rows), &table)?;
            Ok(0)
        }
        Experiment::Anyangle {
            map,
            scen,
            algos,
            segment_cost,
            smooth,
            every,
            limit,
            csv,
        } => {
            use pathlab::experiment::anyangle;
            use pathlab::experiment::{Selection, Suite};
            let algos = anyangle::parse_algos(&algos).map_err(anyhow::Error::msg)?;
            let sel = Selection {
                every: every as usize,
                limit: limit.map(|l| l as usize),
            };
            use pathlab::search::SegmentCost;
            let cost = match segment_cost.as_deref() {
                None => SegmentCost::Length,
                Some("edges") => SegmentCost::UnitEdges,
                Some(_) => SegmentCost::Unit,
            };
            let how = (cost, smooth);
            // The same progress bar as `solve`: it appears once the work takes a second.
            type Ran = (Vec<anyangle::Row>, anyangle::Cold);
            type Go<'a> = &'a mut dyn FnMut(&mut dyn FnMut(usize)) -> Ran;
            let run = |n: usize, go: Go| {
                let mut bar = LateProgress::new(n);
                let mut last = 0;
                go(&mut |k| {
                    bar.inc_by((k - last) as u64);
                    last = k;
                })
            };
            let (rows, cold) = if pathlab::world::Family::of_map_file(&map)
                == Some(pathlab::space::SpaceKind::Voxel)
            {
                let moves = pathlab::space::VoxelMoves::TwentySix;
                let suite =
                    pathlab::experiment::voxel_suite::VoxelSuite::load(&map, &scen, sel, moves)?;
                let qs: Vec<_> = suite.queries.iter().copied().enumerate().collect();
                run(qs.len(), &mut |done| {
                    anyangle::run_with_progress(&suite.space, &qs, &algos, how, done)
                })
            } else {
                let suite = Suite::load(&map, &scen, sel)?;
                let qs: Vec<_> = suite.queries.iter().copied().enumerate().collect();
                run(qs.len(), &mut |done| {
                    anyangle::run_with_progress(&suite.space, &qs, &algos, how, done)
                })
            };
            let table = anyangle::summary(&rows, &algos, &cold);
            write_csv_and_table(csv, &anyangle::csv(&rows), &table)?;
            Ok(0)
        }
        Experiment::Summary { csv, flag } => {
            if !(flag.is_finite() && flag >= 0.0) {
                bail!("--flag {flag} must be a percentage of 0 or more");
            }
            let mut text = String::new();
            for f in &csv {
                let one = pathlab::map::io::read_text_file(f)?;
                // Each file on its own first, so an error names the file and its line.
                mantysalo2024::means(&one).map_err(|e| anyhow::anyhow!("{}:{e}", f.display()))?;
                text.push_str(&one);
                text.push('\n');
            }
            let means = mantysalo2024::means(&text).map_err(anyhow::Error::msg)?;
            if means.is_empty() {
                let names: Vec<String> = csv.iter().map(|f| f.display().to_string()).collect();
                bail!("{}: no runs to summarise", names.join(", "));
            }
            print!(
                "## Findings\n\n{}\n## Tables\n{}",
                mantysalo2024::findings(&means, flag),
                mantysalo2024::summary(&means, flag)
            );
            Ok(0)
        }
        Experiment::Dynamic {
            preset: Some(_),
            scenarios,
            shard,
            runs,
            seed,
            csv,
            ..
        } => {
            let chosen = mantysalo2024::select(&scenarios, shard).map_err(anyhow::Error::msg)?;
            let progress = Mutex::new(LateProgress::new(chosen.len() * runs as usize * 1000));
            let results = mantysalo2024::run(
                &chosen,
                runs,
                seed,
                &|thousandths| {
                    if let Ok(mut p) = progress.lock() {
                        p.inc_by(thousandths as u64);
                    }
                },
                &AtomicBool::new(false),
            );
            drop(progress);
            let mut text = String::from(dynamic::CSV_HEADER);
            text.push('\n');
            for (setup, rows) in &results {
                let body = dynamic::csv(setup, rows);
                text.push_str(body.split_once('\n').map_or("", |b| b.1));
            }
            write_csv(csv, &text)?;
            Ok(0)
        }
        Experiment::Dynamic {
            map_kind,
            size,
            magnitude,
            runs,
            algos,
            seed,
            csv,
            ..
        } => {
            // clap requires these without --preset.
            let (Some(map_kind), Some(size), Some(magnitude)) = (map_kind, size, magnitude) else {
                bail!("--map-kind, --size and --magnitude are needed without --preset");
            };
            let kind = if map_kind == "room" {
                MapKind::Room
            } else {
                MapKind::Random
            };
            if !(magnitude > 0.0 && magnitude <= 100.0) {
                bail!("--magnitude must be a percentage in (0, 100], not {magnitude}");
            }
            if !(8..=4096).contains(&size) {
                bail!("--size must be between 8 and 4096, not {size}");
            }
            let algos: Vec<DynAlgo> = algos
                .split(',')
                .map(|a| DynAlgo::parse(a.trim()))
                .collect::<Result<_, _>>()
                .map_err(anyhow::Error::msg)?;
            let setup = Setup {
                kind,
                size,
                magnitude,
                runs,
                algos,
                seed,
            };
            // Thousandths of a run: a bar that moves while the agents walk, not only between
            // runs (one run at --size 4096 takes minutes).
            let progress = Mutex::new(LateProgress::new(runs as usize * 1000));
            let rows = run_experiment(
                &setup,
                &|thousandths| {
                    if let Ok(mut p) = progress.lock() {
                        p.inc_by(thousandths as u64);
                    }
                },
                &AtomicBool::new(false),
            );
            drop(progress);
            write_csv(csv, &dynamic::csv(&setup, &rows))?;
            Ok(if rows.iter().all(|r| r.result.success) {
                0
            } else {
                1
            })
        }
    }
}

//! The command line. The output forms of `solve`, `bench` and `trace` are a contract other tools
//! rely on: change them only with care.

mod agents;
mod agents_gpu;
mod convert;
mod experiment;
mod experiment_csv;
mod hier;
mod hier_bench;
mod suites;
mod trace;

use anyhow::{bail, Result};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pathlab::experiment::voxel_suite::{VoxelSolver, VoxelSuite};
use pathlab::experiment::{Selection, Solver, Suite};
use pathlab::map::io::write_map_file;
use pathlab::map::HexFill;
use pathlab::open::open_world;
use pathlab::project::{write_project, Project};
use pathlab::search::params::ParamKind;
use pathlab::search::registry::Family as SpaceFamily;
use pathlab::space::{Connectivity, SpaceKind, TerrainRule, VoxelMoves};
use pathlab::world::Family;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;
use web_time::Instant;

/// pathlab: a desktop lab for pathfinding. With no command it opens the app.
#[derive(Parser, Debug)]
#[command(version, about, args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub app: AppArgs,
}

/// Options of the app (no command).
#[derive(clap::Args, Debug)]
pub struct AppArgs {
    /// Map (.map), scenario (.scen), voxel map (.3dmap, .3dscen), project (.ron) or image
    /// (.png) to open.
    pub file: Option<PathBuf>,
    /// Render the app, write a PNG of the window to this file, and exit.
    #[arg(long, value_name = "OUT.png")]
    pub screenshot: Option<PathBuf>,
    /// With --screenshot: also write the first view as SVG (File ▸ Export view as SVG) from
    /// the same frame.
    #[arg(long, value_name = "OUT.svg", requires = "screenshot")]
    pub svg: Option<PathBuf>,
    /// Frames to render before the screenshot (or the scrub test) ends.
    #[arg(long, default_value_t = 30)]
    pub frames: u32,
    /// With --screenshot: show step N of the runs (mid-search) instead of their ends.
    #[arg(long, value_name = "N", requires = "screenshot")]
    pub at_step: Option<usize>,
    /// The first view's algorithm, as `solve --algo` spells it (default: astar).
    #[arg(long, value_name = "SPEC")]
    pub algo: Option<String>,
    /// Another view beside the first, running this algorithm (repeatable): `--algo jps
    /// --beside astar` compares the two.
    #[arg(long, value_name = "SPEC")]
    pub beside: Vec<String>,
    /// Start lesson N (Help ▸ Lessons, 1-based) at its first step; with --screenshot, the
    /// picture shows that step as set up (the runs are not taken to their end).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=64))]
    pub lesson: Option<u64>,
    /// A search trace (Posthoc's .trace.yaml, .trace.yml or .trace.json) played back in a view
    /// beside the others, on the map opened (repeatable).
    #[arg(long, value_name = "FILE")]
    pub trace: Vec<PathBuf>,
    /// On a hex world: views of GPS of the brain at these knowledge levels (%), e.g. 0,50,100
    /// (Rahmani 2020), each on a cognitive map built to that share.
    #[arg(long, value_name = "LEVELS", value_parser = parse_levels)]
    pub compare_knowledge: Option<Levels>,
    /// Open Krafft 2019's moving 3D scene instead of a file.
    #[arg(long, conflicts_with = "file")]
    pub scene3d: bool,
    /// With --scene3d: fly the agent with the algorithm and show the scene at this time (s).
    // Checked in `AppArgs::refusal`, not with clap's `requires`: clap lets a requirement go
    // when the required flag conflicts with one given (`--scene3d` with a FILE), so
    // `M.map --fly-to 5` would pass and be ignored.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub fly_to: Option<f32>,
    /// Open Run ▸ Crowd and plan a batch with these views at once: astar, pccp, flow, and
    /// astar-gpu, pccp-gpu, flow-gpu (comma-separated; up to four side by side).
    #[arg(long, value_name = "VIEWS", value_delimiter = ',')]
    pub crowd: Vec<String>,
    /// With --crowd: the batch's agents.
    #[arg(long, value_name = "N", default_value_t = 10_000, requires = "crowd")]
    pub crowd_agents: usize,
    /// Open Run ▸ Vehicle planner (Schnieders 2014) and plan a car's path between the map's
    /// endpoints, beside grid A*'s.
    #[arg(long)]
    pub vehicle: bool,
    /// Open a window at start, by name: experiment, crowd, vehicle, map-stats (repeatable;
    /// with --screenshot, to picture it).
    #[arg(long = "window", value_name = "NAME")]
    pub windows: Vec<String>,
    /// Print frame times (update and frame interval, ms) to stderr every 60 frames.
    #[arg(long)]
    pub frame_log: bool,
    /// Scripted timeline scrubbing and painting on the opened map, for frame-time checks.
    #[arg(long, hide = true)]
    pub scrub_test: bool,
}

impl AppArgs {
    /// Why these options cannot open the app, if they cannot: an option that applies only
    /// with another one not given.
    pub fn refusal(&self) -> Option<String> {
        if self.fly_to.is_some() && !self.scene3d {
            return Some(
                "--fly-to applies only with --scene3d (it flies the moving 3D scene's agent)"
                    .into(),
            );
        }
        None
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve a MovingAI scenario file; prints CSV, exits 0 only if every length is optimal.
    Solve {
        #[command(flatten)]
        suite: SuiteArgs,
    },
    /// Time an algorithm on a scenario file: median and mean µs per query, expansions per second.
    Bench {
        #[command(flatten)]
        suite: SuiteArgs,
        /// Runs over the selected problems (the first one warms up and is not counted if > 1).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        repeat: u64,
    },
    /// Record one search and save it as a run file (RON) and optionally a Posthoc trace; or
    /// read Posthoc traces: `--check FILE` says what pathlab reads of one, `--compare A B`
    /// prints where two first differ (exit 0 when they are the same, 1 when they differ).
    Trace {
        #[arg(long, required_unless_present_any = ["compare", "check"])]
        map: Option<PathBuf>,
        /// Start cell as X,Y (X,Y,Z on a .3dmap).
        #[arg(long, value_parser = trace::parse_point, required_unless_present_any = ["compare", "check"])]
        start: Option<trace::Point>,
        /// Goal cell as X,Y (X,Y,Z on a .3dmap).
        #[arg(long, value_parser = trace::parse_point, required_unless_present_any = ["compare", "check"])]
        goal: Option<trace::Point>,
        /// Algorithm, optionally with parameters: `weighted-astar:weight=2,heuristic=octile`.
        #[arg(long, default_value = "astar")]
        algo: String,
        /// Run file to write (RON).
        #[arg(long, required_unless_present_any = ["compare", "check"])]
        out: Option<PathBuf>,
        /// Also write a Posthoc trace (`.trace.yaml`).
        #[arg(long)]
        posthoc: Option<PathBuf>,
        /// Two Posthoc traces (.trace.yaml, .trace.yml, .trace.json): where they first differ.
        #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with_all = ["map", "start", "goal", "out", "posthoc", "check"])]
        compare: Option<Vec<PathBuf>>,
        /// A Posthoc trace: its events by kind and what pathlab does not draw of it (with
        /// --map, placed on that map's cells).
        #[arg(long, conflicts_with_all = ["start", "goal", "out", "posthoc"])]
        check: Option<PathBuf>,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Convert a map between formats by extension: .map, .png (read only), .ron (project),
    /// .3dmap; with --world hex, a square map becomes a hex project; to .3dmap, a square map is
    /// extruded to --height voxels, and a folder of PNGs becomes one z layer each (by name).
    Convert {
        input: PathBuf,
        output: PathBuf,
        #[command(flatten)]
        rules: RuleArgs,
        /// With a square map and a .3dmap output: the height to extrude it to.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
        height: Option<u32>,
    },
    /// List the registered algorithms and their parameters.
    Algos,
    /// Name the GPU adapter pathlab would compute on (wgpu), or say why there is none; exits 1
    /// when there is none.
    Gpu,
    /// Plan a crowd: agents with random, shared or scenario starts and goals, each planning its
    /// own path (Rahmani 2020 ch. 4); prints the batch time and writes heatmaps.
    Agents(agents::AgentsArgs),
    /// Navmesh hierarchies (Rahmani 2020's HNA*): build one and print what it holds.
    Hier {
        #[command(subcommand)]
        which: hier::Hier,
    },
    /// Reproduce an experiment of the source theses.
    Experiment {
        #[command(subcommand)]
        which: experiment::Experiment,
    },
}

#[derive(clap::Args, Debug)]
pub struct SuiteArgs {
    /// MovingAI map file.
    #[arg(long)]
    map: PathBuf,
    /// MovingAI scenario file.
    #[arg(long)]
    scen: PathBuf,
    /// Algorithm, optionally with parameters: `weighted-astar:weight=2`.
    #[arg(long, default_value = "astar")]
    algo: String,
    /// Take at most N problems (1 or more).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,
    /// Take every K-th problem (1 or more).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    #[command(flatten)]
    rules: RuleArgs,
}

/// How the map becomes a graph. No flag has a default in clap: one given where it does not
/// apply (a rule on a voxel map, a hex option without `--world hex`) is refused by name, never
/// ignored; the defaults are applied here.
#[derive(clap::Args, Debug, Clone)]
pub struct RuleArgs {
    /// Moves: 8 (with √2 diagonals, no corner cutting; the default) or 4. Square and hex maps.
    #[arg(long, value_enum)]
    connectivity: Option<Moves>,
    /// Terrain rule: `class` (the default: the benchmark author's . G S connect, W only to W) or
    /// `ground` (only . and G are passable). Square and hex maps.
    #[arg(long, value_enum)]
    terrain: Option<TerrainArg>,
    /// World: `square` cells (the default), `hex`: the map turned into hexagons (problems and
    /// cells given in square cells run from the hex under that cell's centre), `navmesh`: its
    /// walkable cells merged into rectangles joined by portals (problems run from the polygon
    /// under their cells), or `vehicle`: a small robot's lattice of (cell, heading, speed)
    /// states, directed edges costing seconds (problems start and end at rest, facing +x).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(pathlab::world::Family::flag_names()))]
    world: Option<String>,
    /// With --world hex: square cells from one hex centre to the next (from 1 to the map's
    /// shorter side; default 1).
    #[arg(long)]
    hex_size: Option<f64>,
    /// With --world hex: `pointy` (a corner on top; the default) or `flat` (an edge on top).
    #[arg(long, value_parser = ["pointy", "flat"])]
    hex_orientation: Option<String>,
    /// With --world hex: `walls` (the default: a hex is blocked when it overlaps a blocked
    /// cell, so walls stay walls), `centre` (the square cell under its centre; thin walls may
    /// leak, and the count is said) or `any-blocked` (blocked when it covers a blocked cell's
    /// centre).
    #[arg(long, value_parser = ["walls", "centre", "any-blocked"])]
    hex_fill: Option<String>,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy)]
enum Moves {
    #[value(name = "8")]
    Eight,
    #[value(name = "4")]
    Four,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy)]
enum TerrainArg {
    Class,
    Ground,
}

impl RuleArgs {
    /// The world family the flags ask for.
    fn family(&self) -> Result<Family> {
        self.check_hex_options()?;
        Family::parse(
            self.world(),
            self.hex_size.unwrap_or(1.0),
            self.hex_orientation.as_deref().unwrap_or("pointy"),
        )
        .map_err(|e| anyhow::anyhow!("--world/--hex-size/--hex-orientation: {e}"))
    }

    fn world(&self) -> &str {
        self.world.as_deref().unwrap_or("square")
    }

    /// The hex options only with `--world hex`.
    fn check_hex_options(&self) -> Result<()> {
        if self.world() != "hex" {
            let given = [
                ("--hex-size", self.hex_size.is_some()),
                ("--hex-orientation", self.hex_orientation.is_some()),
                ("--hex-fill", self.hex_fill.is_some()),
            ];
            if let Some((name, _)) = given.iter().find(|g| g.1) {
                bail!("{name} applies only with --world hex");
            }
        }
        Ok(())
    }

    /// Refuses every rule flag on a world they do not shape (`what` names it, e.g. the file).
    fn refuse_all(&self, what: &str) -> Result<()> {
        let given = [
            ("--connectivity", self.connectivity.is_some()),
            ("--terrain", self.terrain.is_some()),
            ("--world", self.world.is_some()),
            ("--hex-size", self.hex_size.is_some()),
            ("--hex-orientation", self.hex_orientation.is_some()),
            ("--hex-fill", self.hex_fill.is_some()),
        ];
        if let Some((name, _)) = given.iter().find(|g| g.1) {
            bail!("{what}: {name} does not apply here (voxel worlds have their own moves)");
        }
        Ok(())
    }

    fn hex_fill(&self) -> HexFill {
        self.hex_fill
            .as_deref()
            .and_then(HexFill::from_name)
            .unwrap_or_default()
    }

    fn rules(&self) -> (Connectivity, TerrainRule) {
        let c = match self.connectivity.unwrap_or(Moves::Eight) {
            Moves::Eight => Connectivity::Eight,
            Moves::Four => Connectivity::Four,
        };
        let r = match self.terrain.unwrap_or(TerrainArg::Class) {
            TerrainArg::Class => TerrainRule::Class,
            TerrainArg::Ground => TerrainRule::GroundOnly,
        };
        (c, r)
    }
}

/// Runs a command; returns the exit code.
pub fn run(cmd: Command) -> Result<i32> {
    match cmd {
        Command::Solve { suite } => suites::solve(&suite),
        Command::Bench { suite, repeat } => suites::bench(&suite, repeat as usize),
        Command::Trace {
            map,
            start,
            goal,
            algo,
            out,
            posthoc,
            compare,
            check,
            rules,
        } => match (compare, check) {
            (Some(ab), _) => trace::compare(&ab[0], &ab[1]),
            (_, Some(file)) => trace::check(&file, map.as_deref()),
            _ => match (map, start, goal, out) {
                (Some(map), Some(start), Some(goal), Some(out)) => {
                    trace::trace(&map, (start, goal), &algo, &out, posthoc.as_deref(), rules)
                }
                _ => anyhow::bail!("trace needs --map, --start, --goal and --out"),
            },
        },
        Command::Convert {
            input,
            output,
            height,
            rules,
        } if Family::of_map_file(&output) == Some(SpaceKind::Voxel) => {
            rules.refuse_all(&output.display().to_string())?;
            convert::to_voxels(&input, &output, height)
        }
        Command::Convert {
            input,
            output,
            rules,
            height,
        } => {
            if height.is_some() {
                bail!(
                    "{}: --height applies only when writing a .3dmap",
                    output.display()
                );
            }
            convert::convert(&input, &output, &rules)
        }
        Command::Experiment { which } => experiment::run(which),
        Command::Hier { which } => hier::run(which),
        Command::Agents(args) => agents::run(&args),
        Command::Gpu => gpu(),
        Command::Algos => {
            for a in pathlab::algorithms::all() {
                let worlds: Vec<&str> = a.spaces().iter().map(|k| k.name()).collect();
                println!(
                    "{:<16} {}  [{}; worlds: {}]",
                    a.name,
                    a.summary,
                    a.title,
                    worlds.join(", ")
                );
                for p in a.params {
                    // Choices are written by name, as `--algo` takes them.
                    let (default, range) = match p.kind {
                        ParamKind::Choice(names) => (
                            names
                                .get(p.default as usize)
                                .copied()
                                .unwrap_or("?")
                                .to_string(),
                            names.join(" | "),
                        ),
                        _ => (p.default.to_string(), format!("{}..={}", p.min, p.max)),
                    };
                    println!("    {}={default} ({range})  {}", p.name, p.help);
                }
            }
            Ok(0)
        }
    }
}

#[cfg(feature = "gpu")]
fn gpu() -> Result<i32> {
    match pathlab::gpu::probe() {
        Ok(a) => {
            println!("adapter: {a}");
            Ok(0)
        }
        Err(e) => {
            eprintln!("pathlab: {e}");
            Ok(1)
        }
    }
}

#[cfg(not(feature = "gpu"))]
fn gpu() -> Result<i32> {
    bail!("this build has no GPU support (built without the `gpu` feature)")
}

/// A progress bar on stderr that appears only once the work has taken a second.
pub(crate) struct LateProgress {
    bar: ProgressBar,
    started: Instant,
    shown: bool,
}

impl LateProgress {
    pub(crate) fn new(len: usize) -> LateProgress {
        let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len}, {eta} left")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        LateProgress {
            bar,
            started: Instant::now(),
            shown: false,
        }
    }

    pub(crate) fn inc(&mut self) {
        self.inc_by(1);
    }

    pub(crate) fn inc_by(&mut self, n: u64) {
        self.bar.inc(n);
        if !self.shown && self.started.elapsed() > Duration::from_secs(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
    }
}

impl Drop for LateProgress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

pub(crate) fn ext(p: &Path) -> String {
    p.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// Refuses, before any work, outputs that would overwrite an input named on the command line,
/// or each other (compared as resolved paths, so `./m.map` and `m.map`, or a link to it, are
/// the same file). Inputs reached through another file are refused where they are written.
fn refuse_overwrite(inputs: &[&Path], outputs: &[&Path]) -> Result<()> {
    use pathlab::map::io::resolve;
    for (i, o) in outputs.iter().enumerate() {
        let ro = resolve(o);
        if let Some(input) = inputs.iter().find(|p| resolve(p) == ro) {
            bail!(
                "{}: refusing to overwrite the input {} with an output",
                o.display(),
                input.display()
            );
        }
        if outputs[..i].iter().any(|p| resolve(p) == ro) {
            bail!("{}: named as two outputs", o.display());
        }
    }
    Ok(())
}

/// A time in seconds: finite and not negative.
fn parse_seconds(s: &str) -> Result<f32, String> {
    match s.trim().parse::<f32>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a time in seconds (0 or more)")),
    }
}

/// Knowledge levels (%) of `--compare-knowledge`.
#[derive(Clone, Debug)]
// Read by the app alone: parsed, and so checked, without the `gui` feature too.
#[cfg_attr(not(feature = "gui"), allow(dead_code))]
pub struct Levels(pub Vec<u32>);

/// Knowledge levels: up to five percentages, comma-separated.
fn parse_levels(s: &str) -> Result<Levels, String> {
    let v = s
        .split(',')
        .map(|k| match k.trim().parse::<u32>() {
            Ok(v) if v <= 100 => Ok(v),
            _ => Err(format!("`{k}` is not a percentage from 0 to 100")),
        })
        .collect::<Result<Vec<u32>, String>>()?;
    if v.is_empty() || v.len() > 5 {
        return Err("give one to five levels".into());
    }
    Ok(Levels(v))
}

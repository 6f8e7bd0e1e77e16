//! `pathlab agents`: a batch of agents planned on one map, timed, with its heatmaps; or a sweep
//! over batch sizes.

use super::agents_gpu;
use anyhow::{anyhow, bail, Result};
use pathlab::crowd::cpu::Outcome;
use pathlab::crowd::{self, Batch, Heat, Method, Scale, World};
use pathlab::map::io::{read_map, read_scen};
use std::path::{Path, PathBuf};

/// Where a batch runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    Cpu,
    Gpu,
    Both,
}

/// A method as `--method` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MethodArg {
    /// A* on the square grid.
    Astar,
    /// HNA* with pre-calculated connecting paths on the map's navmesh hierarchy.
    Pccp,
    /// A flow field per distinct goal.
    Flow,
}

impl MethodArg {
    fn method(self) -> Method {
        match self {
            MethodArg::Astar => Method::Astar,
            MethodArg::Pccp => Method::Pccp,
            MethodArg::Flow => Method::Flow,
        }
    }
}

/// Which count a heatmap shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HeatArg {
    /// Agents whose path crosses each cell.
    Traffic,
    /// Expansions on each cell.
    Expansions,
}

#[derive(clap::Args, Debug)]
pub struct AgentsArgs {
    /// The map (.map).
    #[arg(long)]
    pub map: PathBuf,
    /// Agents with random starts and goals (each goal reachable from its start), up to
    /// 10,000,000.
    #[arg(long, conflicts_with = "scen", value_parser = agent_count)]
    pub agents: Option<usize>,
    /// Seed of the random draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The agents share this many goals (the crowd a flow field serves). In a sweep, flow
    /// fields always get shared goals: 16 unless this says otherwise.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub goals: Option<u64>,
    /// A scenario file (.scen, e.g. the MAPF benchmark's): one agent per problem.
    #[arg(long)]
    pub scen: Option<PathBuf>,
    /// Methods, comma-separated: astar, pccp, flow.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "astar")]
    pub method: Vec<MethodArg>,
    /// Where to plan.
    #[arg(long, value_enum, default_value = "cpu")]
    pub backend: Backend,
    /// Write one row per method and backend here (CSV).
    #[arg(long, value_name = "OUT.csv")]
    pub csv: Option<PathBuf>,
    /// Write the heatmaps here (PNG): one panel per method, side by side, one colour scale.
    #[arg(long, value_name = "OUT.png")]
    pub heatmap: Option<PathBuf>,
    /// What the heatmap counts.
    #[arg(long, value_enum, default_value = "traffic")]
    pub heat: HeatArg,
    /// Write the counts per cell of every method here (CSV: x,y,method,backend,traffic,
    /// expansions).
    #[arg(long, value_name = "OUT.csv")]
    pub counts: Option<PathBuf>,
    /// Time random batches of these sizes (e.g. 1000,10000,100000,1000000) for each method,
    /// on the backends --backend names.
    #[arg(long, value_delimiter = ',', value_parser = agent_count,
          conflicts_with_all = ["agents", "scen", "csv", "heatmap", "counts"])]
    pub sweep: Vec<usize>,
    /// The hierarchy's μ (PCCP): nodes merged into each node of the level above, 2 to 1000.
    #[arg(long, default_value_t = crowd::MU as u32, value_parser = clap::value_parser!(u32).range(2..=1000))]
    pub mu: u32,
    /// The hierarchy's levels above the navmesh (PCCP), 1 to 3.
    #[arg(long, default_value_t = crowd::LEVELS as u32, value_parser = clap::value_parser!(u32).range(1..=3))]
    pub levels: u32,
}

/// A batch size: 1 to 10,000,000 agents (checked before anything is allocated).
fn agent_count(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of agents"))?;
    if (1..=10_000_000).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "{n} agents: pathlab plans 1 to 10,000,000 at a time"
        ))
    }
}

/// The output files are writable places, apart from each other (the inputs are guarded when
/// written): checked before any planning, so a bad path costs no time and leaves no half of
/// the outputs behind.
fn check_outputs(args: &AgentsArgs) -> Result<()> {
    let outs: Vec<(&str, &PathBuf)> = [
        ("--csv", &args.csv),
        ("--heatmap", &args.heatmap),
        ("--counts", &args.counts),
    ]
    .into_iter()
    .filter_map(|(f, p)| p.as_ref().map(|p| (f, p)))
    .collect();
    for (i, (flag, p)) in outs.iter().enumerate() {
        if p.is_dir() {
            bail!("{flag} {}: is a directory", p.display());
        }
        let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
        if parent.is_some_and(|d| !d.is_dir()) {
            bail!("{flag} {}: no such directory", p.display());
        }
        for (other, q) in &outs[..i] {
            if pathlab::map::io::resolve(p) == pathlab::map::io::resolve(q) {
                bail!("{flag} and {other} name the same file, {}", p.display());
            }
        }
    }
    Ok(())
}

pub fn run(args: &AgentsArgs) -> Result<i32> {
    check_outputs(args)?;
    // The outputs against the inputs too (the map, the scenario), before any planning.
    let refuse_inputs = || -> Result<()> {
        for p in [&args.csv, &args.heatmap, &args.counts]
            .into_iter()
            .flatten()
        {
            pathlab::map::io::check_output(p).map_err(|e| anyhow!("{e}"))?;
        }
        Ok(())
    };
    if args.agents.is_none() && args.scen.is_none() && args.sweep.is_empty() {
        bail!("say who walks: --agents N (random), --scen FILE, or --sweep SIZES");
    }
    let mut methods: Vec<Method> = vec![];
    for m in args.method.iter().map(|m| m.method()) {
        if !methods.contains(&m) {
            methods.push(m);
        }
    }
    let grid = read_map(&args.map).map_err(|e| anyhow!("{e}"))?;
    let problems = match &args.scen {
        Some(scen) => read_scen(scen).map_err(|e| anyhow!("{e}"))?,
        None => vec![],
    };
    refuse_inputs()?;
    let world = World::new(
        &grid,
        &methods,
        args.mu as usize,
        args.levels as usize,
        &|_, _| {},
    )
    .map_err(|e| anyhow!("{}: {e}", args.map.display()))?;
    if let Some(h) = &world.hierarchy {
        println!(
            "hierarchy: μ = {}, {} levels, {} top-level nodes, PCCP {} bytes; built in {:.0} ms",
            args.mu,
            args.levels,
            h.graph.level.nodes,
            h.pccp.as_ref().map_or(0, |p| p.bytes()),
            h.times.levels + h.times.intra + h.times.pccp
        );
    }
    if !args.sweep.is_empty() {
        return sweep(args, &world, &methods);
    }
    let batch = match (&args.scen, args.agents) {
        (Some(scen), _) => {
            let batch = Batch::from_problems(&world.grid, &problems, &scen.display().to_string())?;
            // A scenario for another map of the same size plans, but says so.
            let name = args
                .map
                .file_name()
                .map(|n| n.to_string_lossy().into_owned());
            if let (Some(p), Some(name)) = (problems.first(), name) {
                if p.map_file_name() != name {
                    eprintln!(
                        "pathlab agents: note: {} names the map {}, planned here on {}",
                        scen.display(),
                        p.map_file_name(),
                        name
                    );
                }
            }
            batch
        }
        (None, Some(n)) => match args.goals {
            Some(k) => Batch::shared_goals(&world.grid, n, k as usize, args.seed)
                .map_err(|e| anyhow!("{}: {e}", args.map.display()))?,
            None => Batch::random(&world.grid, n, args.seed)
                .map_err(|e| anyhow!("{}: {e}", args.map.display()))?,
        },
        (None, None) => unreachable!("checked above"),
    };
    println!("{}: {}", args.map.display(), batch.source);
    if methods.contains(&Method::Flow) {
        if let Some(note) = crowd::flow_goals_note(&batch) {
            eprintln!("pathlab agents: note: {note}");
        }
    }
    warm_up(&world, &methods)?;
    let mut csv = String::from("method,backend,adapter,agents,batch_ms,agents_per_s,equal_costs\n");
    let mut outcomes: Vec<(String, Outcome)> = vec![];
    // What went wrong, by method and backend.
    let mut faults: Vec<String> = vec![];
    for &m in &methods {
        let mut cpu = args.backend != Backend::Gpu;
        let mut rows = vec![];
        // GPU agents a named limit left without an answer: said apart from "no path".
        let mut unanswered_gpu = 0;
        let mut split = None;
        if args.backend != Backend::Cpu {
            match agents_gpu::run(&world, &batch, m)? {
                agents_gpu::GpuRun::Ran {
                    outcome,
                    adapter,
                    equal,
                    unanswered,
                    notes,
                    split: s,
                } => {
                    unanswered_gpu = unanswered;
                    split = s;
                    faults.extend(notes.iter().map(|n| format!("{} gpu: {n}", m.name())));
                    rows.push((
                        "gpu",
                        adapter,
                        outcome,
                        if equal { "true" } else { "false" },
                    ))
                }
                agents_gpu::GpuRun::NoAdapter(why) => {
                    // A visible notice, and the CPU plans instead under its own name.
                    eprintln!("pathlab agents: {why}: planning {} on the CPU", m.name());
                    cpu = true;
                }
            }
        }
        if cpu {
            let o = crowd::plan(&world, &batch, m, 0, None)
                .map_err(|e| anyhow!(e))?
                .expect("nothing cancels it");
            let adapter = format!("cpu ({} threads)", o.threads);
            rows.insert(0, ("cpu", adapter, o, "n/a"));
        }
        for (backend, adapter, o, equal) in rows {
            let (peak, at) = peak_cell(&o.traffic);
            println!(
                "{:<6} {backend} {adapter}: {} agents in {:.1} ms, {:.0} agents/s; {}/{} found; \
                 mean length {:.2}; busiest cell ({}, {}) crossed by {}; {} expansions{}",
                m.name(),
                o.costs.len(),
                o.ms,
                o.agents_per_s(),
                o.found(),
                o.costs.len(),
                mean(&o.lengths),
                at.0,
                at.1,
                peak,
                o.expansions.total(),
                match equal {
                    "true" => "; every cost equals the CPU twin's",
                    "false" => "; SOME COSTS DIFFER from the CPU twin's",
                    _ => "",
                }
            );
            if let (Some(s), "gpu") = (split, backend) {
                println!("{:<6} {backend} time: {s}", m.name());
            }
            let unanswered = if backend == "gpu" { unanswered_gpu } else { 0 };
            let no_path = o.costs.len() - o.found() - unanswered;
            if no_path > 0 {
                faults.push(format!(
                    "{} {backend}: {no_path} of {} agents found no path",
                    m.name(),
                    o.costs.len()
                ));
            }
            if equal == "false" {
                faults.push(format!(
                    "{} gpu: answers differ from the CPU twin's (costs, statuses or traffic)",
                    m.name()
                ));
            }
            // Commas inside the adapter's name would shift the columns.
            csv.push_str(&format!(
                "{},{backend},{},{},{:.3},{:.0},{equal}\n",
                m.name(),
                adapter.replace(',', ";"),
                o.costs.len(),
                o.ms,
                o.agents_per_s()
            ));
            outcomes.push((backend.to_string(), o));
        }
    }
    // Every output at once, all or nothing.
    let mut files: Vec<(&Path, Vec<u8>)> = vec![];
    if let Some(out) = &args.csv {
        files.push((out, csv.into_bytes()));
    }
    if let Some(out) = &args.heatmap {
        files.push((out, heatmap(args, &world, &outcomes)?));
    }
    if let Some(out) = &args.counts {
        let labelled: Vec<(String, &Outcome)> =
            outcomes.iter().map(|(b, o)| (b.clone(), o)).collect();
        files.push((
            out,
            crowd::cpu::counts_csv(&labelled, &world.grid).into_bytes(),
        ));
    }
    let files: Vec<(&Path, &[u8])> = files.iter().map(|(p, b)| (*p, b.as_slice())).collect();
    pathlab::map::io::write_all_atomic(&files).map_err(|e| anyhow!("{e}"))?;
    if !faults.is_empty() {
        eprintln!("pathlab agents: {}", faults.join("; "));
        return Ok(1);
    }
    Ok(0)
}

/// One small batch per method first, so the thread pool and the first allocations are not
/// timed.
fn warm_up(world: &World, methods: &[Method]) -> Result<()> {
    let few = Batch::random(&world.grid, 16, 0)?;
    for &m in methods {
        crowd::plan(world, &few, m, 0, None).map_err(|e| anyhow!(e))?;
    }
    Ok(())
}

/// Shared goals of a sweep's flow-field batches when `--goals` does not say.
const SWEEP_GOALS: usize = 16;

fn sweep(args: &AgentsArgs, world: &World, methods: &[Method]) -> Result<i32> {
    warm_up(world, methods)?;
    println!(
        "method,backend,adapter,batch,agents,batch_ms,agents_per_s,equal_costs,found,peak_rss_mb,\
         search_ms,host_ms,host_tail_ms"
    );
    let mut differ = false;
    for &n in &args.sweep {
        let random = Batch::random(&world.grid, n, args.seed)
            .map_err(|e| anyhow!("{}: {e}", args.map.display()))?;
        // One field per goal: a random batch of a million agents would be a million fields.
        let k = args.goals.map_or(SWEEP_GOALS, |k| k as usize);
        let shared = Batch::shared_goals(&world.grid, n, k, args.seed)
            .map_err(|e| anyhow!("{}: {e}", args.map.display()))?;
        for &m in methods {
            let (batch, what) = match (m, args.goals) {
                (Method::Flow, _) | (_, Some(_)) => (&shared, format!("{k} goals")),
                _ => (&random, "random".to_string()),
            };
            let mut rows = vec![];
            let mut cpu = args.backend != Backend::Gpu;
            if args.backend != Backend::Cpu {
                match agents_gpu::run(world, batch, m)? {
                    agents_gpu::GpuRun::Ran {
                        outcome,
                        adapter,
                        equal,
                        unanswered,
                        split,
                        ..
                    } => {
                        // The notes were printed; an agent left without an answer fails the
                        // sweep as a differing cost would.
                        differ |= !equal || unanswered > 0;
                        let split = split.map_or(",,".into(), |s| {
                            format!("{:.1},{:.1},{:.1}", s.search_ms, s.host_ms, s.tail_ms)
                        });
                        rows.push(("gpu", adapter, outcome, equal.to_string(), split));
                    }
                    agents_gpu::GpuRun::NoAdapter(why) => {
                        eprintln!("pathlab agents: {why}: planning {} on the CPU", m.name());
                        cpu = true;
                    }
                }
            }
            if cpu {
                let o = crowd::plan(world, batch, m, 0, None)
                    .map_err(|e| anyhow!(e))?
                    .expect("nothing cancels it");
                let adapter = format!("cpu ({} threads)", o.threads);
                rows.insert(0, ("cpu", adapter, o, "n/a".to_string(), ",,".into()));
            }
            for (backend, adapter, o, equal, split) in rows {
                println!(
                    "{},{backend},{},{what},{n},{:.1},{:.0},{equal},{},{},{split}",
                    m.name(),
                    adapter.replace(',', ";"),
                    o.ms,
                    o.agents_per_s(),
                    o.found(),
                    peak_rss_mb().map_or("?".into(), |p| format!("{p:.0}"))
                );
            }
        }
    }
    Ok(i32::from(differ))
}

/// The heatmaps as a PNG file.
fn heatmap(args: &AgentsArgs, world: &World, outcomes: &[(String, Outcome)]) -> Result<Vec<u8>> {
    let heats: Vec<&Heat> = outcomes
        .iter()
        .map(|(_, o)| match args.heat {
            HeatArg::Traffic => &o.traffic,
            HeatArg::Expansions => &o.expansions,
        })
        .collect();
    let scale = Scale::counts(&heats);
    let what = match args.heat {
        HeatArg::Traffic => "traffic",
        HeatArg::Expansions => "expansions",
    };
    let panels: Vec<(&Heat, String)> = heats
        .iter()
        .zip(outcomes)
        .map(|(h, (backend, o))| {
            let title = format!(
                "{} {backend}: {what}, {} agents",
                o.method.name(),
                o.costs.len()
            );
            (*h, title)
        })
        .collect();
    let img = pathlab::crowd::heat::side_by_side(&panels, &world.grid, scale);
    pathlab::crowd::heat::png_bytes(&img).map_err(|e| anyhow!(e))
}

fn mean(values: &[f64]) -> f64 {
    let found: Vec<f64> = values.iter().copied().filter(|c| !c.is_nan()).collect();
    found.iter().sum::<f64>() / found.len().max(1) as f64
}

/// The largest count and its cell.
fn peak_cell(h: &Heat) -> (i64, (u32, u32)) {
    let (i, &v) = h
        .values
        .iter()
        .enumerate()
        .max_by_key(|&(i, v)| (*v, std::cmp::Reverse(i)))
        .unwrap_or((0, &0));
    (v.into(), (i as u32 % h.width, i as u32 / h.width))
}

/// The process's peak resident memory so far (Linux), in MB.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

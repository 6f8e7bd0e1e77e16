//! `pathlab hier`: navmesh hierarchies from the command line.

use anyhow::{bail, Context, Result};
use pathlab::hier::hna::{mb, Budget, Estimate, Hierarchy};
use pathlab::hier::levels::inter_edge_bound;
use pathlab::space::{NavmeshSpace, TerrainRule};
use std::path::PathBuf;
use web_time::Instant;

#[derive(clap::Subcommand, Debug)]
pub enum Hier {
    /// Build a hierarchy over a map's navmesh: prints its polygons and portals, the nodes and
    /// inter-edges of each level with inter-edges per node (mean, most) against Rahmani 2020's
    /// bound μ^x(s−2)+2, each level's intra-edges, the bytes and the build time.
    Build {
        /// MovingAI map file.
        #[arg(long)]
        map: PathBuf,
        /// Nodes merged into each node of the level above (2 or more).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(2..=1000))]
        mu: u32,
        /// Levels above the navmesh (1 to 3).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=3))]
        levels: u32,
        /// Also build PCCP's pre-calculated connecting paths and print their size.
        #[arg(long)]
        pccp: bool,
        /// Megabytes (10^6 bytes) the build may hold: refused before it starts when its
        /// estimate is over, stopped when what it holds would pass it.
        #[arg(long, value_name = "MB", default_value_t = DEFAULT_MAX_MB,
              value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        max_memory: u64,
    },
    /// Run a MovingAI scenario with flat and hierarchical methods: one CSV row per problem and
    /// method (`id,method,length,optimal,overhead,expanded,micros`), then each method's
    /// medians and speed-ups. Navmesh lengths are the funnel-smoothed paths' lengths.
    Bench {
        /// MovingAI map file; repeat with `--scen` for several maps in one process (then a
        /// summary over all of them follows each map's).
        #[arg(long, required = true)]
        map: Vec<PathBuf>,
        /// Its scenario file (one per `--map`, in the same order).
        #[arg(long, required = true)]
        scen: Vec<PathBuf>,
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(2..=1000))]
        mu: u32,
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=3))]
        levels: u32,
        /// astar (the L0 navmesh), grid-astar, hna, hna-parallel, pccp or hpa (the square grid);
        /// several with commas.
        #[arg(long, default_value = "astar")]
        method: String,
        /// Run every K-th problem.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        every: u32,
        /// Write the rows here instead of printing them.
        #[arg(long)]
        csv: Option<PathBuf>,
    },
}

/// Runs the subcommand; its exit code.
pub fn run(which: Hier) -> Result<i32> {
    match which {
        Hier::Build {
            map,
            mu,
            levels,
            pccp,
            max_memory,
        } => build(&map, (mu as usize, levels as usize, pccp), max_memory).map(|_| 0),
        Hier::Bench {
            map,
            scen,
            mu,
            levels,
            method,
            every,
            csv,
        } => {
            if map.len() != scen.len() {
                bail!(
                    "{} maps and {} scenarios: give one --scen per --map",
                    map.len(),
                    scen.len()
                );
            }
            super::hier_bench::bench(&super::hier_bench::BenchArgs {
                maps: map.into_iter().zip(scen).collect(),
                mu: mu as usize,
                levels: levels as usize,
                methods: super::hier_bench::methods(&method)?,
                every: every as usize,
                csv,
            })
        }
    }
}

/// What `hier build` may hold unless told otherwise, in MB.
const DEFAULT_MAX_MB: u64 = 4000;

fn build(
    map: &std::path::Path,
    (mu, count, pccp): (usize, usize, bool),
    max_mb: u64,
) -> Result<()> {
    let grid = pathlab::map::io::read_map(map).map_err(|e| anyhow::anyhow!("{e}"))?;
    let t0 = Instant::now();
    let mesh = NavmeshSpace::new(&grid, TerrainRule::Class);
    let mesh_ms = t0.elapsed().as_secs_f64() * 1000.0;
    if mesh.polygons() == 0 {
        bail!("{}: no walkable cell, so no navmesh", map.display());
    }
    // Stated, and refused when over the cap, before anything is partitioned.
    let cap = max_mb as usize * 1_000_000;
    let grid_bytes = 5 * grid.width() as usize * grid.height() as usize;
    let est = Estimate::of(&mesh, mu, count, pccp);
    let peak = grid_bytes + est.peak();
    let estimate = format!(
        "about {} MB at most (map and navmesh {}, partitioning {}, hierarchy {}, PCCP {}; the cap is {max_mb} MB, --max-memory)",
        mb(peak),
        mb(grid_bytes + est.navmesh),
        mb(est.partition),
        mb(est.hierarchy),
        mb(est.pccp),
    );
    if peak > cap {
        bail!(
            "{}: refusing to build: the hierarchy would need {estimate}; raise --max-memory, or lower --levels or --mu",
            map.display()
        );
    }
    println!("map: {}", map.display());
    println!(
        "navmesh: {} polygons, {} portals ({mesh_ms:.1} ms)",
        mesh.polygons(),
        mesh.portal_count()
    );
    println!("mu: {mu}");
    println!("memory: {estimate}");
    // What is printed so far is seen before a long build, not when it ends.
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let bar = Progress::new();
    let budget = Budget {
        max_bytes: cap.saturating_sub(grid_bytes + mesh.bytes()),
        progress: &|what, done| bar.set(what, done),
        stop: &|| false,
    };
    let built = Hierarchy::build_within(&mesh, mu, count, pccp, &budget);
    drop(bar);
    let h = built
        .map_err(|e| anyhow::anyhow!(e))
        .with_context(|| format!("{}: building its hierarchy", map.display()))?;
    for (i, l) in h.levels.levels.iter().enumerate() {
        let x = i as u32 + 1;
        let (mean, most) = l.inter_per_node();
        println!(
            "L{x}: {} nodes, {} inter-edges, per node mean {mean:.2} max {most} (bound {:.0} with s = 4)",
            l.nodes,
            l.inter.len(),
            inter_edge_bound(mu, x, 4)
        );
        let intra = h.intra(i + 1);
        println!(
            "L{x} intra-edges: {}, {} polygons on their paths",
            intra.edges.len(),
            intra.polygons.len()
        );
    }
    println!(
        "graph: {} vertices, {} edges",
        h.graph.vertices(),
        h.graph.intra.edges.len()
    );
    println!("bytes: {}", h.bytes());
    if let Some(p) = &h.pccp {
        println!(
            "pccp: {} entries, {} polygons on their paths, {} bytes, built in {:.1} ms",
            p.entries.len(),
            p.entries
                .iter()
                .map(|e| p.path_iter(e).count())
                .sum::<usize>(),
            p.bytes(),
            h.times.pccp
        );
    }
    println!("build_ms: {:.1}", h.times.levels + h.times.intra);
    println!(
        "partition_ms: {:.1}, intra_ms: {:.1}",
        h.times.levels, h.times.intra
    );
    if let Some(kb) = peak_rss_kb() {
        println!("peak_rss_mb: {}", mb(kb * 1000));
    }
    Ok(())
}

/// The most memory the process has held (`VmHWM`), in kB, where the system says.
fn peak_rss_kb() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The build's progress on stderr: the stage and the share done, with the time it has run
/// (redrawn while METIS, which says nothing until it is done, partitions). Drawn only on a
/// terminal.
struct Progress(indicatif::ProgressBar);

impl Progress {
    fn new() -> Progress {
        let bar = indicatif::ProgressBar::new(1000);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{elapsed:>4} {bar:30} {percent:>3}% {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message("partitioning L1");
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        Progress(bar)
    }

    fn set(&self, what: &str, done: f64) {
        self.0.set_position((done.clamp(0.0, 1.0) * 1000.0) as u64);
        // The stage that follows a finished partition is the next one.
        self.0
            .set_message(what.replace("partitioned", "done partitioning"));
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

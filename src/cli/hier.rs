//! `pathlab hier`: navmesh hierarchies from the command line.

use anyhow::{bail, Context, Result};
use pathlab::hier::hna::Hierarchy;
use pathlab::hier::levels::inter_edge_bound;
use pathlab::space::{NavmeshSpace, TerrainRule};
use std::path::PathBuf;
use std::time::Instant;

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
        } => build(&map, mu as usize, levels as usize, pccp).map(|_| 0),
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

fn build(map: &std::path::Path, mu: usize, count: usize, pccp: bool) -> Result<()> {
    let grid = pathlab::map::io::read_map(map).map_err(|e| anyhow::anyhow!("{e}"))?;
    let t0 = Instant::now();
    let mesh = NavmeshSpace::new(&grid, TerrainRule::Class);
    let mesh_ms = t0.elapsed().as_secs_f64() * 1000.0;
    if mesh.polygons() == 0 {
        bail!("{}: no walkable cell, so no navmesh", map.display());
    }
    let h = Hierarchy::build(&mesh, mu, count, pccp, &|_, _| {})
        .map_err(|e| anyhow::anyhow!(e))
        .with_context(|| format!("{}: partitioning its navmesh", map.display()))?;
    println!("map: {}", map.display());
    println!(
        "navmesh: {} polygons, {} portals ({mesh_ms:.1} ms)",
        mesh.polygons(),
        mesh.portal_count()
    );
    println!("mu: {mu}");
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
            p.paths.len(),
            p.bytes(),
            h.times.pccp
        );
    }
    println!("build_ms: {:.1}", h.times.levels + h.times.intra);
    Ok(())
}

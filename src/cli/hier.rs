//! `pathlab hier`: navmesh hierarchies from the command line.

use anyhow::{bail, Context, Result};
use pathlab::hier::levels::{inter_edge_bound, Levels};
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
    },
}

/// Runs the subcommand; its exit code.
pub fn run(which: Hier) -> Result<i32> {
    match which {
        Hier::Build { map, mu, levels } => build(&map, mu as usize, levels as usize).map(|_| 0),
    }
}

fn build(map: &std::path::Path, mu: usize, count: usize) -> Result<()> {
    let grid = pathlab::map::io::read_map(map).map_err(|e| anyhow::anyhow!("{e}"))?;
    let t0 = Instant::now();
    let mesh = NavmeshSpace::new(&grid, TerrainRule::Class);
    let mesh_ms = t0.elapsed().as_secs_f64() * 1000.0;
    if mesh.polygons() == 0 {
        bail!("{}: no walkable cell, so no navmesh", map.display());
    }
    let t1 = Instant::now();
    let levels = Levels::build(&mesh, mu, count, &|_| {})
        .map_err(|e| anyhow::anyhow!(e))
        .with_context(|| format!("{}: partitioning its navmesh", map.display()))?;
    let intra: Vec<_> = levels
        .levels
        .iter()
        .map(|l| pathlab::hier::intra::build(&mesh, l))
        .collect();
    let build_ms = t1.elapsed().as_secs_f64() * 1000.0;
    println!("map: {}", map.display());
    println!(
        "navmesh: {} polygons, {} portals ({mesh_ms:.1} ms)",
        mesh.polygons(),
        mesh.portal_count()
    );
    println!("mu: {mu}");
    for (i, l) in levels.levels.iter().enumerate() {
        let x = i as u32 + 1;
        let (mean, most) = l.inter_per_node();
        println!(
            "L{x}: {} nodes, {} inter-edges, per node mean {mean:.2} max {most} (bound {:.0} with s = 4)",
            l.nodes,
            l.inter.len(),
            inter_edge_bound(mu, x, 4)
        );
        println!(
            "L{x} intra-edges: {}, {} polygons on their paths",
            intra[i].edges.len(),
            intra[i].polygons.len()
        );
    }
    let intra_bytes: usize = intra.iter().map(|e| e.bytes()).sum();
    println!("bytes: {}", levels.bytes() + intra_bytes);
    println!("build_ms: {build_ms:.1}");
    Ok(())
}

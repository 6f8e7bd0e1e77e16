//! `pathlab experiment …`: the theses' experiments from the command line.

use super::LateProgress;
use anyhow::{bail, Context, Result};
use pathlab::experiment::dynamic::{run_agent, DynAlgo, DynamicMap, MapKind, RunResult, Tape};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

#[derive(clap::Subcommand, Debug)]
pub enum Experiment {
    /// Seed 003: an agent crosses a map whose obstacles change every 10 steps, replanning after
    /// each change; every algorithm faces the same seeded change tape. CSV on stdout or --csv.
    Dynamic {
        /// Map structure: room or random.
        #[arg(long, value_parser = ["room", "random"])]
        map_kind: String,
        /// Side of the square map in cells (the thesis: 128, 256, 512).
        #[arg(long)]
        size: u32,
        /// Percentage of the dynamic obstacles changed per event (the thesis: 2, 5, 10, 20).
        #[arg(long)]
        magnitude: f64,
        /// Runs (each its own map and tape).
        #[arg(long, default_value_t = 100)]
        runs: u32,
        /// Comma-separated: astar, dstar-lite, ad:EPS, ad:changing (rtd:LIMIT is not built yet).
        #[arg(long, default_value = "astar,dstar-lite")]
        algos: String,
        /// Seed of run 0 (run r uses seed + r).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write the CSV here (atomically) instead of stdout.
        #[arg(long)]
        csv: Option<PathBuf>,
    },
}

/// The CSV header (a contract other tools read).
pub const HEADER: &str =
    "algo,map_kind,size,magnitude,run,success,path_length,replans,expanded,recompute_ms_avg,total_ms";

pub fn run(e: Experiment) -> Result<i32> {
    let Experiment::Dynamic {
        map_kind,
        size,
        magnitude,
        runs,
        algos,
        seed,
        csv,
    } = e;
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
    let progress = Mutex::new(LateProgress::new(runs as usize));
    let rows: Vec<(u32, DynAlgo, RunResult)> = (0..runs)
        .into_par_iter()
        .flat_map_iter(|r| {
            let map = DynamicMap::generate(kind, size, seed + r as u64);
            let mut tape = Tape::new(&map, magnitude / 100.0, seed + r as u64);
            let out: Vec<_> = algos
                .iter()
                .map(|&a| (r, a, run_agent(&map, &mut tape, a, false)))
                .collect();
            if let Ok(mut p) = progress.lock() {
                p.inc();
            }
            out
        })
        .collect();
    drop(progress);
    let mut text = String::from(HEADER);
    text.push('\n');
    for (r, a, res) in &rows {
        text.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{:.4},{:.4}\n",
            a.name(),
            kind.name(),
            size,
            magnitude,
            r,
            res.success,
            res.path_length,
            res.replans,
            res.expanded,
            res.recompute_ms_avg,
            res.total_ms
        ));
    }
    match csv {
        Some(p) => pathlab::map::io::write_atomic(&p, text.as_bytes())
            .with_context(|| format!("writing {}", p.display()))?,
        None => std::io::stdout().write_all(text.as_bytes())?,
    }
    Ok(if rows.iter().all(|(_, _, r)| r.success) {
        0
    } else {
        1
    })
}

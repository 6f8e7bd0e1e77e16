//! `pathlab experiment …`: the theses' experiments from the command line.

use super::LateProgress;
use anyhow::{bail, Result};
use pathlab::experiment::dynamic::{self, run_experiment, DynAlgo, MapKind, Setup};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

#[derive(clap::Subcommand, Debug)]
pub enum Experiment {
    /// Mäntysalo 2024: an agent crosses a map whose obstacles change every 10 steps, replanning after
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
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
        runs: u32,
        /// Comma-separated: astar (on the incremental searches' heap, as the thesis compared
        /// them), astar:lane (pathlab's faster A*), dstar-lite, rtd:LIMIT, ad:EPS, ad:changing.
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
    let setup = Setup {
        kind,
        size,
        magnitude,
        runs,
        algos,
        seed,
    };
    // Thousandths of a run: a bar that moves while the agents walk, not only between runs
    // (one run at --size 4096 takes minutes).
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
    let text = dynamic::csv(&setup, &rows);
    match csv {
        Some(p) => pathlab::map::io::write_atomic(&p, text.as_bytes())?,
        None => std::io::stdout().write_all(text.as_bytes())?,
    }
    Ok(if rows.iter().all(|r| r.result.success) {
        0
    } else {
        1
    })
}

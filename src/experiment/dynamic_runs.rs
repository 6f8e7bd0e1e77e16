//! The dynamic-world experiment over many runs: its setup, one row per run and algorithm, the
//! CSV other tools read, and means per algorithm. Runs go in parallel (rayon); every algorithm of
//! a run faces the same map and change tape.

use super::dynamic::{run_agent_reporting, DynAlgo, DynamicMap, MapKind, RunResult, Tape};

/// One CSV row of the experiment: run number, algorithm, measurements.
#[derive(Clone, Debug)]
pub struct Row {
    pub run: u32,
    pub algo: DynAlgo,
    pub result: RunResult,
}

/// The experiment's settings (the command line's and the app window's).
#[derive(Clone, Debug)]
pub struct Setup {
    pub kind: MapKind,
    pub size: u32,
    /// Percent of the obstacles changed per event.
    pub magnitude: f64,
    pub runs: u32,
    pub algos: Vec<DynAlgo>,
    pub seed: u64,
}

/// Runs every algorithm of `setup` on the same maps and tapes, runs in parallel (rayon);
/// `progress` receives thousandths of a run as the agents advance (1000 per finished run), and
/// a true `cancel` stops before the next run.
pub fn run_experiment(
    setup: &Setup,
    progress: &(dyn Fn(u32) + Sync),
    cancel: &std::sync::atomic::AtomicBool,
) -> Vec<Row> {
    use rayon::prelude::*;
    use std::sync::atomic::Ordering;
    (0..setup.runs)
        .into_par_iter()
        .flat_map_iter(|r| {
            if cancel.load(Ordering::Relaxed) {
                return vec![];
            }
            run_one(setup, r, progress)
        })
        .collect()
}

/// Run `r` of `setup`: every algorithm on the run's map and tape; `progress` receives the
/// run's 1000 thousandths as the agents advance.
pub fn run_one(setup: &Setup, r: u32, progress: &(dyn Fn(u32) + Sync)) -> Vec<Row> {
    use std::sync::atomic::Ordering;
    let k = setup.algos.len().max(1) as u32;
    let seed = setup.seed + r as u64;
    let map = DynamicMap::generate(setup.kind, setup.size, seed);
    let mut tape = Tape::new(&map, setup.magnitude / 100.0, seed);
    (setup.algos.iter().enumerate())
        .map(|(i, &algo)| {
            // This algorithm's share of the run's 1000 thousandths (the last takes the
            // remainder), reported as the agent advances.
            let share = if i as u32 == k - 1 {
                1000 - 1000 / k * (k - 1)
            } else {
                1000 / k
            };
            let sent = std::sync::atomic::AtomicU32::new(0);
            let report = |f: f64| {
                let want = (f.clamp(0.0, 1.0) * share as f64) as u32;
                let before = sent.fetch_max(want, Ordering::Relaxed);
                if want > before {
                    progress(want - before);
                }
            };
            let result = run_agent_reporting(&map, &mut tape, algo, false, &report);
            report(1.0);
            Row {
                run: r,
                algo,
                result,
            }
        })
        .collect()
}

/// The CSV header (a contract other tools read).
pub const CSV_HEADER: &str =
    "algo,map_kind,size,magnitude,run,success,path_length,replans,expanded,recompute_ms_avg,total_ms,settled";

/// The rows as CSV, header first.
pub fn csv(setup: &Setup, rows: &[Row]) -> String {
    let mut text = String::from(CSV_HEADER);
    text.push('\n');
    for Row {
        run,
        algo,
        result: res,
    } in rows
    {
        text.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{:.4},{:.4},{}\n",
            algo.name(),
            setup.kind.name(),
            setup.size,
            setup.magnitude,
            run,
            res.success,
            res.path_length,
            res.replans,
            res.expanded,
            res.recompute_ms_avg,
            res.total_ms,
            res.settled
        ));
    }
    text
}

/// Means over the runs of one algorithm.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub algo: DynAlgo,
    pub runs: usize,
    pub success: f64,
    pub path_length: f64,
    pub replans: f64,
    pub expanded: f64,
    pub settled: f64,
    pub recompute_ms: f64,
    pub total_ms: f64,
}

/// Per-algorithm means, in the order of `algos`.
pub fn summarise(algos: &[DynAlgo], rows: &[Row]) -> Vec<Summary> {
    algos
        .iter()
        .map(|&algo| {
            let mine: Vec<&RunResult> = rows
                .iter()
                .filter(|r| r.algo == algo)
                .map(|r| &r.result)
                .collect();
            let n = mine.len().max(1) as f64;
            let mean = |f: &dyn Fn(&RunResult) -> f64| mine.iter().map(|r| f(r)).sum::<f64>() / n;
            Summary {
                algo,
                runs: mine.len(),
                success: mean(&|r| r.success as u8 as f64),
                path_length: mean(&|r| r.path_length as f64),
                replans: mean(&|r| r.replans as f64),
                expanded: mean(&|r| r.expanded as f64),
                settled: mean(&|r| r.settled as f64),
                recompute_ms: mean(&|r| r.recompute_ms_avg),
                total_ms: mean(&|r| r.total_ms),
            }
        })
        .collect()
}

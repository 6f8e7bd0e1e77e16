//! Shared by the benches: where the benchmark maps are and which queries to time.

#![allow(dead_code)]

use pathlab::experiment::{Selection, Suite};
use std::path::PathBuf;

/// `../shared/benchmarks/movingai-grid`, if present.
pub fn movingai_dir() -> Option<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/movingai-grid");
    d.is_dir().then_some(d)
}

/// About `n` problems spread evenly over the scenario file of `map` (so every length bucket is
/// represented).
pub fn sample_suite(map: &str, n: usize) -> Option<Suite> {
    let dir = movingai_dir()?;
    let m = dir.join(map);
    let s = dir.join(format!("{map}.scen"));
    let total = pathlab::map::io::read_scen(&s).ok()?.len();
    let every = (total / n).max(1);
    Suite::load(
        &m,
        &s,
        Selection {
            every,
            limit: Some(n),
        },
    )
    .ok()
}

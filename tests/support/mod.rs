//! Seeded random square maps shared by the oracle suites.
#![allow(dead_code)]

use pathlab::map::{Cell, Grid};
use pathlab::space::NavmeshSpace;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// This test process's scratch folder, `pathlab-tests-<pid>` in the system's temporary
/// folder: made on first use and removed as the process exits, whether its tests passed or
/// failed, so a run of the suites leaves nothing behind (each used to leave some 30 MB of
/// maps and traces in /tmp). Set `PATHLAB_KEEP_TEST_FILES` to keep it and look at what a
/// failing test wrote. Every suite's files go under it.
pub fn scratch_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("pathlab-tests-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        // The test harness has no hook after the last test; exit() runs atexit's functions
        // (where libc is at hand: pathlab takes it on Linux only).
        #[cfg(target_os = "linux")]
        if std::env::var_os("PATHLAB_KEEP_TEST_FILES").is_none() {
            extern "C" fn remove_root() {
                if let Some(d) = ROOT.get() {
                    let _ = std::fs::remove_dir_all(d);
                }
            }
            // SAFETY: registers a function of no arguments, which exit() calls once.
            unsafe {
                libc::atexit(remove_root);
            }
        }
        d
    })
}

/// A map of a side in `sides` each way: walls (and trees, on terrain maps) at a random density,
/// swamp, water and grass on three maps in ten, and on three in ten a cost per cell from
/// `cost`. The draws come in one fixed order, so a seed always gives the same maps.
pub fn random_map(
    rng: &mut ChaCha8Rng,
    sides: std::ops::Range<u32>,
    cost: impl Fn(&mut ChaCha8Rng) -> f32,
) -> Grid {
    let (w, h) = (rng.random_range(sides.clone()), rng.random_range(sides));
    let density = rng.random_range(0.0..0.45);
    let terrain = rng.random_bool(0.3);
    let costs = rng.random_bool(0.3);
    let mut g = Grid::new(w, h, Cell::FREE);
    for y in 0..h {
        for x in 0..w {
            let tile = if rng.random_bool(density) {
                if terrain && rng.random_bool(0.3) {
                    b'T'
                } else {
                    b'@'
                }
            } else if terrain && rng.random_bool(0.15) {
                [b'S', b'W', b'G'][rng.random_range(0..3)]
            } else {
                b'.'
            };
            let c = if costs { cost(rng) } else { 1.0 };
            g.set(x, y, Cell { tile, cost: c });
        }
    }
    g
}

/// The MovingAI benchmark folder; on CI its absence is a failure, on a user's machine a skip
/// (`None`, with the reason printed).
pub fn movingai() -> Option<std::path::PathBuf> {
    let d = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/benchmarks/movingai-grid");
    assert!(
        d.is_dir() || std::env::var_os("CI").is_none(),
        "{} is missing on CI",
        d.display()
    );
    if !d.is_dir() {
        eprintln!("skipped: ../shared/benchmarks is absent");
        return None;
    }
    Some(d)
}

/// The MovingAI benchmark folder and its 29 maps, sorted; on CI their absence is a failure, on
/// a user's machine a skip (`None`, with the reason printed).
pub fn movingai_maps() -> Option<(std::path::PathBuf, Vec<std::path::PathBuf>)> {
    let d = movingai()?;
    let mut maps: Vec<std::path::PathBuf> = std::fs::read_dir(&d)
        .unwrap()
        .flat_map(|sub| std::fs::read_dir(sub.unwrap().path()).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "map"))
        .collect();
    maps.sort();
    assert_eq!(maps.len(), 29, "the 29 MovingAI maps");
    Some((d, maps))
}

/// Every point of the polyline, sampled finely, lies on a walkable cell of the polygons'
/// class (points on a cell boundary may lie on either side).
pub fn check_walkable(g: &Grid, m: &NavmeshSpace, pts: &[[f64; 2]]) {
    let (w, h) = (g.width() as f64, g.height() as f64);
    for seg in pts.windows(2) {
        let (a, b) = (seg[0], seg[1]);
        let len = (b[0] - a[0]).hypot(b[1] - a[1]);
        let k = (len * 20.0).ceil().max(1.0) as usize;
        for i in 0..=k {
            let t = i as f64 / k as f64;
            let p = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
            let ok = [-1e-6, 1e-6].iter().any(|&ex| {
                [-1e-6, 1e-6].iter().any(|&ey| {
                    let (x, y) = (p[0] + ex, p[1] + ey);
                    x >= 0.0
                        && y >= 0.0
                        && x < w
                        && y < h
                        && m.polygon_at(x as u32, y as u32).is_some()
                })
            });
            assert!(ok, "point {p:?} of {pts:?} is off the mesh");
        }
    }
}

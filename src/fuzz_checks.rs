//! Arbitrary bytes through every reader, with the invariants of what comes back: the bodies of
//! the `cargo fuzz` targets (`fuzz/`) and of the byte-level property tests that run in CI
//! (`tests/fuzz_readers.rs`). A reader may refuse any input with an error; it must never panic,
//! and what it accepts must be a world pathlab can hold, save and search.

use crate::experiment::behaviour::ChangeTape;
use crate::map::io::{self, check_problem, write_map};
use crate::map::Grid;
use crate::project::Project;
use crate::space::{Connectivity, GridSpace, Space, TerrainRule};
use crate::trace::run_file::RunFile;
use crate::trace::{posthoc, Event, EventKind, Recorder, Tracer};
use std::path::Path;

/// Worlds up to this many cells are also searched (bigger ones are only checked).
const SEARCH_CELLS: u64 = 4096;

fn text(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes).ok()
}

fn within_limits(g: &Grid) {
    assert!(
        crate::limits::grid_size_error(g.width() as u64, g.height() as u64).is_none(),
        "a reader accepted a {}×{} map",
        g.width(),
        g.height()
    );
    assert_eq!(g.tiles().len(), g.width() as usize * g.height() as usize);
}

/// A* and Dijkstra from the first passable cell to the last agree on the cost (A*'s heuristic
/// is admissible on every world a reader can make), under both move rules.
fn search(g: &Grid) {
    if g.width() as u64 * g.height() as u64 > SEARCH_CELLS {
        return;
    }
    for c in [Connectivity::Eight, Connectivity::Four] {
        let space = GridSpace::new(g, c, TerrainRule::Class);
        let free: Vec<u32> = (0..space.num_nodes() as u32)
            .filter(|&n| space.is_passable(n))
            .collect();
        let (Some(&start), Some(&goal)) = (free.first(), free.last()) else {
            continue;
        };
        let q = crate::search::Query { start, goal };
        let cost = |spec: &str| {
            let mut s = crate::algorithms::build_grid(spec, &space, q).expect("registered");
            s.run_null(&space);
            s.cost()
        };
        let (a, d) = (cost("astar"), cost("dijkstra"));
        match (a, d) {
            (Some(a), Some(d)) => {
                assert!((a - d).abs() <= 1e-9 * d.max(1.0), "A* {a} ≠ Dijkstra {d}")
            }
            (None, None) => {}
            other => panic!("A* and Dijkstra disagree on reachability: {other:?}"),
        }
    }
}

/// `.map` text: an accepted map is within the limits, writes back to the same map and searches.
pub fn map(bytes: &[u8]) {
    let path = Path::new("fuzz.map");
    let Some(t) = text(bytes) else { return };
    if let Ok(g) = io::parse_map(t, path) {
        within_limits(&g);
        let again = io::parse_map(&write_map(&g), path).expect("a written map reads back");
        assert_eq!(again, g);
        search(&g);
    }
}

/// `.scen` text: every accepted problem lies inside its map, with a finite length and
/// tolerance; on a free map of its size it passes the core's problem check.
pub fn scen(bytes: &[u8]) {
    let Some(t) = text(bytes) else { return };
    if let Ok(problems) = io::parse_scen(t, Path::new("fuzz.scen")) {
        for p in &problems {
            assert!(p.start.0 < p.map_width && p.start.1 < p.map_height);
            assert!(p.goal.0 < p.map_width && p.goal.1 < p.map_height);
            assert!(p.optimal.is_finite() && p.optimal >= 0.0);
            assert!(p.tolerance.is_finite() && p.tolerance >= 0.0);
            if (p.map_width as u64) * (p.map_height as u64) <= SEARCH_CELLS {
                let g = Grid::new(p.map_width, p.map_height, crate::map::Cell::FREE);
                check_problem(p, &g, TerrainRule::Class).expect("inside a free map");
            }
        }
    }
}

/// Project text: an accepted project holds a map within the limits, known algorithms and valid
/// problems, saves and reads back the same, and searches.
pub fn project(bytes: &[u8]) {
    let path = Path::new("fuzz.ron");
    let Some(t) = text(bytes) else { return };
    if let Ok(w) = crate::open::project_world(t, path) {
        within_limits(&w.grid);
        let mut p = Project::new(&w.grid);
        p.start = w.start;
        p.goal = w.goal;
        p.scenarios = w.problems.clone();
        p.algorithms = w.algorithms.clone();
        if let Some((c, r)) = w.rules {
            (p.connectivity, p.terrain_rule) = (c, r);
        }
        let saved = p.to_text().expect("a project serialises");
        let back = crate::open::project_world(&saved, path).expect("a saved project reads back");
        assert_eq!(back.grid, w.grid);
        assert_eq!(back.problems, w.problems);
        assert_eq!(back.algorithms, w.algorithms);
        search(&w.grid);
    }
}

/// Change tape text: an accepted tape has increasing ticks and cells inside its map with
/// positive finite costs, and applies to a map of its size.
pub fn tape(bytes: &[u8]) {
    let Some(t) = text(bytes) else { return };
    if let Ok((tape, (w, h))) = ChangeTape::parse(t, Path::new("fuzz.tape.ron")) {
        assert!(tape.events.windows(2).all(|e| e[0].0 < e[1].0));
        let small = (w as u64) * (h as u64) <= SEARCH_CELLS;
        let mut g = small.then(|| Grid::new(w, h, crate::map::Cell::FREE));
        for (_, cells) in &tape.events {
            for &(x, y, c) in cells {
                assert!(x < w && y < h && c.cost.is_finite() && c.cost > 0.0);
                if let Some(g) = g.as_mut() {
                    g.set(x, y, c);
                }
            }
        }
        if let Some(g) = g {
            search(&g);
        }
    }
}

/// PNG bytes: an accepted image is a map within the limits that searches.
pub fn png(bytes: &[u8]) {
    if let Ok(g) = io::decode_png(bytes, Path::new("fuzz.png")) {
        within_limits(&g);
        search(&g);
    }
}

/// Run file text (`pathlab trace` output): read without panicking.
pub fn run_file(bytes: &[u8]) {
    let Some(t) = text(bytes) else { return };
    let _ = RunFile::parse(t, Path::new("fuzz.run.ron"));
}

/// Posthoc export (pathlab writes Posthoc traces; it reads none): any trace, including NaN and
/// infinite values and node ids past the packed range, becomes one YAML line per kept event,
/// with no non-finite number written.
pub fn posthoc(bytes: &[u8]) {
    let mut rec = Recorder::new(64);
    for c in bytes.chunks_exact(13) {
        let kind = EventKind::from_u8(c[0] % 32).unwrap_or(EventKind::Expand);
        let word = |i: usize| u32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
        let num = |i: usize| f32::from_bits(word(i)) as f64;
        let node = word(1) % 80;
        let other = if c[0] & 0x80 != 0 {
            crate::trace::NONE
        } else {
            word(5) % 80
        };
        rec.event(Event::new(kind, node, other, num(9), num(5)));
    }
    let cell = |n: u32| (n % 8, n / 8);
    let layout = posthoc::Layout {
        cell: &cell,
        hex: None,
    };
    let yaml = posthoc::to_yaml(&rec, layout);
    let events = yaml.lines().filter(|l| l.starts_with("  - {")).count();
    assert_eq!(events, rec.len());
    for bad in ["NaN", "inf"] {
        assert!(!yaml.contains(bad), "the trace writes {bad}");
    }
}

//! A*, JPS and JPS+ on all 29 MovingAI maps of `../shared/benchmarks/movingai-grid`: every
//! sampled problem must match its published optimal length. A*: every 10th problem of each file
//! (7,482 problems; the full 74,816 take several minutes on 2 cores); JPS and JPS+: all 74,816.
//! Skips when the folder is absent (fails on CI).

use pathlab::experiment::{Selection, Solver, Suite};
use rayon::prelude::*;
use std::path::PathBuf;

const EVERY: usize = 10;

fn benchmark_maps() -> Option<Vec<PathBuf>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/movingai-grid");
    if !dir.is_dir() {
        // On CI the benchmarks are always beside the checkout: missing means broken.
        assert!(
            std::env::var_os("CI").is_none(),
            "{} is missing on CI",
            dir.display()
        );
        eprintln!("skipping: {} is absent", dir.display());
        return None;
    }
    let mut maps = vec![];
    for family in std::fs::read_dir(&dir).ok()? {
        for f in std::fs::read_dir(family.ok()?.path()).ok()? {
            let p = f.ok()?.path();
            if p.extension().is_some_and(|e| e == "map") {
                maps.push(p);
            }
        }
    }
    maps.sort();
    Some(maps)
}

#[test]
fn astar_matches_every_sampled_optimal_length_on_all_29_maps() {
    check_all("astar", EVERY);
}

#[test]
fn jps_matches_every_optimal_length_on_all_29_maps() {
    check_all("jps", 1);
}

#[test]
fn jps_plus_matches_every_optimal_length_on_all_29_maps() {
    check_all("jps-plus", 1);
}

/// Runs `algo` on every `every`-th problem of each of the 29 maps; fails listing the wrong ones.
fn check_all(algo: &str, every: usize) {
    let Some(maps) = benchmark_maps() else { return };
    assert_eq!(maps.len(), 29, "expected the 29 MovingAI maps");
    let results: Vec<(String, usize, Vec<String>)> = maps
        .par_iter()
        .map(|map| {
            let scen = PathBuf::from(format!("{}.scen", map.display()));
            let suite = Suite::load(map, &scen, Selection { every, limit: None })
                .unwrap_or_else(|e| panic!("{e}"));
            let mut solver = Solver::new(&suite, algo).unwrap();
            let mut wrong = vec![];
            for i in 0..suite.problems.len() {
                let r = solver.solve(&suite, i);
                if !r.ok {
                    let p = &suite.problems[i];
                    wrong.push(format!(
                        "line {}: {:?}->{:?} optimal {} got {:?}",
                        p.line, p.start, p.goal, p.optimal, r.length
                    ));
                }
            }
            let name = map.file_name().unwrap().to_string_lossy().into_owned();
            (name, suite.problems.len(), wrong)
        })
        .collect();
    let total: usize = results.iter().map(|r| r.1).sum();
    let wrong: Vec<String> = results
        .iter()
        .flat_map(|(m, _, w)| w.iter().map(move |x| format!("{m} {x}")))
        .collect();
    eprintln!("{algo}: checked {total} problems on {} maps", results.len());
    assert!(
        wrong.is_empty(),
        "{} of {total} not optimal:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(total > 74_816 / every - 29, "only {total} problems checked");
}

/// Maps JPS was not tuned on: the 33 MAPF maps (`../shared/benchmarks/mapf`), every problem of
/// each map's first random scenario, JPS and JPS+ against the file's optimal lengths.
#[test]
fn jps_and_jps_plus_are_optimal_on_the_33_mapf_maps() {
    let Some(grid_dir) = benchmark_maps() else {
        return;
    };
    let mapf = grid_dir[0]
        .ancestors()
        .nth(3)
        .expect("benchmarks folder")
        .join("mapf");
    let mut maps: Vec<PathBuf> = std::fs::read_dir(mapf.join("maps"))
        .expect("mapf maps")
        .filter_map(|f| f.ok().map(|f| f.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "map"))
        .collect();
    maps.sort();
    assert_eq!(maps.len(), 33, "expected the 33 MAPF maps");
    let checked = std::sync::atomic::AtomicUsize::new(0);
    let wrong: Vec<String> = maps
        .par_iter()
        .flat_map(|map| {
            let stem = map.file_stem().unwrap().to_string_lossy().into_owned();
            let scen = mapf
                .join("scen-random")
                .join(format!("{stem}-random-1.scen"));
            let sel = Selection {
                every: 1,
                limit: None,
            };
            let suite = Suite::load(map, &scen, sel).unwrap_or_else(|e| panic!("{e}"));
            let mut out = vec![];
            for algo in ["jps", "jps-plus"] {
                let mut solver = Solver::new(&suite, algo).unwrap();
                for i in 0..suite.problems.len() {
                    if !solver.solve(&suite, i).ok {
                        out.push(format!("{algo} {stem} line {}", suite.problems[i].line));
                    }
                }
                let n = suite.problems.len();
                checked.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
            }
            out
        })
        .collect();
    assert!(wrong.is_empty(), "not optimal:\n{}", wrong.join("\n"));
    let checked = checked.into_inner();
    assert!(checked > 30_000, "only {checked} runs checked");
}

//! Byte-level property tests of every reader: what the `cargo fuzz` targets in `fuzz/` run for
//! hours, run briefly here on stable Rust in every test run. Inputs are random bytes and random
//! mutations (byte changes, insertions, deletions, cuts, splices) of real files: the bad-input
//! corpus, valid files of each format and, where present, a MovingAI benchmark map. Inputs the
//! fuzzers once found are replayed from `tests/fuzz_regressions/<target>/`.

use pathlab::fuzz_checks;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn dir(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Files of `tests/bad_input` whose names end in one of `endings` (and not in `not`).
fn seeds(endings: &[&str], not: Option<&str>) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = std::fs::read_dir(dir("tests/bad_input"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            endings.iter().any(|e| n.ends_with(e)) && not.is_none_or(|x| !n.ends_with(x))
        })
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no seeds for {endings:?}");
    out
}

#[derive(Clone, Debug)]
enum Op {
    Set(usize, u8),
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    Cut(usize),
    /// Copy a run of the input to another place (duplicated rows, repeated fields).
    Splice(usize, usize, usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Op::Set(p, b)),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(p, b)| Op::Insert(p, b)),
        (any::<usize>(), 1usize..16).prop_map(|(p, n)| Op::Delete(p, n)),
        any::<usize>().prop_map(Op::Cut),
        (any::<usize>(), any::<usize>(), 1usize..64).prop_map(|(a, b, n)| Op::Splice(a, b, n)),
    ]
}

/// Digits and separators are what readers branch on: insertions favour them.
fn mutate(mut bytes: Vec<u8>, ops: &[Op]) -> Vec<u8> {
    for o in ops {
        let n = bytes.len().max(1);
        match o {
            Op::Set(p, b) if !bytes.is_empty() => {
                let i = p % n;
                bytes[i] = *b;
            }
            Op::Insert(p, b) => {
                let at = p % (bytes.len() + 1);
                const FAVOURED: &[u8] = b"0123456789 \n\t.,:()[]-@TSWe\"";
                let b: Vec<u8> = b
                    .iter()
                    .map(|&c| FAVOURED[c as usize % FAVOURED.len()])
                    .collect();
                bytes.splice(at..at, b);
            }
            Op::Delete(p, k) if !bytes.is_empty() => {
                let at = p % n;
                let end = (at + k).min(bytes.len());
                bytes.drain(at..end);
            }
            Op::Cut(p) => bytes.truncate(p % (bytes.len() + 1)),
            Op::Splice(a, b, k) if !bytes.is_empty() => {
                let from = a % n;
                let run: Vec<u8> = bytes[from..(from + k).min(bytes.len())].to_vec();
                let at = b % (bytes.len() + 1);
                bytes.splice(at..at, run);
            }
            _ => {}
        }
    }
    bytes
}

/// Replays the inputs the fuzzers found for `target`, then random and mutated inputs.
fn exercise(target: &str, check: fn(&[u8]), seeds: Vec<Vec<u8>>, cases: u32) {
    let found = dir("tests/fuzz_regressions").join(target);
    if let Ok(entries) = std::fs::read_dir(&found) {
        for e in entries {
            check(&std::fs::read(e.unwrap().path()).unwrap());
        }
    }
    for s in &seeds {
        check(s);
    }
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let n = seeds.len();
    proptest!(config, |(pick in 0..n + 1, ops in prop::collection::vec(op(), 0..12), noise in prop::collection::vec(any::<u8>(), 0..300))| {
        let input = if pick == n { noise } else { mutate(seeds[pick].clone(), &ops) };
        check(&input);
    });
}

#[test]
fn map_reader() {
    let mut s = seeds(&[".map"], None);
    // A real benchmark map, cut to its first rows (the reader must refuse the cut honestly).
    let arena = dir("../shared/benchmarks/movingai-grid/dao/arena.map");
    if let Ok(b) = std::fs::read(arena) {
        s.push(b);
    }
    exercise("map", fuzz_checks::map, s, 400);
}

#[test]
fn scen_reader() {
    exercise("scen", fuzz_checks::scen, seeds(&[".scen"], None), 400);
}

#[test]
fn project_reader() {
    exercise(
        "project",
        fuzz_checks::project,
        seeds(&[".ron"], Some(".tape.ron")),
        400,
    );
}

#[test]
fn tape_reader() {
    exercise("tape", fuzz_checks::tape, seeds(&[".tape.ron"], None), 400);
}

#[test]
fn png_reader() {
    let s: Vec<Vec<u8>> = seeds(&[".png"], None)
        .into_iter()
        .filter(|b| b.len() < 4096)
        .collect();
    exercise("png", fuzz_checks::png, s, 300);
}

#[test]
fn run_file_reader() {
    let run = br#"(version:1,map:"m.map",algorithm:"astar",start:(0,0),goal:(1,1),status:"found",cost:Some(1.4142135623730951),path:[(0,0),(1,1)],stats:(expanded:2,generated:3,reopened:0,updated:0,max_open:3),events:[(kind:Source,node:0,other:4294967295,a:0.0,b:1.4142135),(kind:Expand,node:0,other:4294967295,a:0.0,b:1.4142135)])"#;
    exercise("run_file", fuzz_checks::run_file, vec![run.to_vec()], 300);
}

#[test]
fn posthoc_writer() {
    exercise(
        "posthoc",
        fuzz_checks::posthoc,
        vec![vec![0u8; 13 * 4]],
        300,
    );
}

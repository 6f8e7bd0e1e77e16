//! Mäntysalo 2024's experiment as the thesis ran it: its 24 scenarios (room and random maps,
//! 128/256/512 cells a side, 2/5/10/20% of the dynamic obstacles changed per event), its 11
//! algorithm variants, and its published means (Appendix A, Tables A.1 to A.24) to set beside
//! pathlab's.

use super::dynamic::{run_experiment, DynAlgo, MapKind, Row, Setup};
use std::collections::BTreeMap;

/// The variants the thesis's discussion compares first: A* from scratch, D* Lite, RTD* at its
/// smallest limit.
pub const COMPARED_FIRST: &[&str] = &["astar", "dstar-lite", "rtd:32"];

/// The thesis's variants, in its tables' order.
pub const ALGOS: &[&str] = &[
    "astar",
    "dstar-lite",
    "rtd:32",
    "rtd:64",
    "rtd:128",
    "rtd:256",
    "rtd:512",
    "ad:2",
    "ad:3",
    "ad:5",
    "ad:changing",
];

/// One published mean: map kind, size, magnitude (%), variant, total ms, recompute ms, travelled
/// length, expanded nodes (each the mean of 100 runs).
pub type ThesisRow = (&'static str, u32, u32, &'static str, f64, f64, f64, f64);

pub use super::mantysalo2024_tables::THESIS;

/// One of the 24 scenarios.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scenario {
    pub kind: MapKind,
    pub size: u32,
    /// Percent of the dynamic obstacles changed per event.
    pub magnitude: u32,
}

impl Scenario {
    /// `room-128-2`: how `--scenarios` and the summary name it.
    pub fn name(&self) -> String {
        format!("{}-{}-{}", self.kind.name(), self.size, self.magnitude)
    }

    /// The thesis's table for this scenario (Table A.n), in its row order.
    pub fn thesis(&self) -> Vec<&'static ThesisRow> {
        THESIS
            .iter()
            .filter(|r| (r.0, r.1, r.2) == (self.kind.name(), self.size, self.magnitude))
            .collect()
    }

    /// The thesis's row of its baseline (the first variant, A* from scratch) in this scenario:
    /// the times of the others are read against it.
    pub fn thesis_baseline(&self) -> Option<&'static ThesisRow> {
        self.thesis().into_iter().find(|r| r.3 == ALGOS[0])
    }

    /// The table number in the thesis's appendix.
    pub fn table(&self) -> usize {
        all().iter().position(|s| s == self).map_or(0, |i| i + 1)
    }
}

/// The 24 scenarios in the thesis's order (room then random; 128, 256, 512; 2, 5, 10, 20%).
pub fn all() -> Vec<Scenario> {
    let mut out = vec![];
    for kind in [MapKind::Room, MapKind::Random] {
        for size in [128, 256, 512] {
            for magnitude in [2, 5, 10, 20] {
                out.push(Scenario {
                    kind,
                    size,
                    magnitude,
                });
            }
        }
    }
    out
}

/// True when `name` matches `pattern`, where `*` stands for any run of characters.
fn glob(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, rest)) => {
            name.starts_with(head)
                && (0..=name.len() - head.len()).any(|i| glob(rest, &name[head.len() + i..]))
        }
    }
}

/// The scenarios named by `spec` (comma-separated names or patterns: `room-128-2`,
/// `random-*-20`, `*-256-*`; empty means all), then shard `i` of `n` (1-based: every n-th
/// scenario from the i-th), so a job runner can spread them and concatenate the CSVs.
pub fn select(spec: &str, shard: (usize, usize)) -> Result<Vec<Scenario>, String> {
    let (i, n) = shard;
    if n == 0 || i == 0 || i > n {
        return Err(format!("--shard {i}/{n}: expected I/N with 1 ≤ I ≤ N"));
    }
    let patterns: Vec<&str> = spec
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    for p in &patterns {
        if !all().iter().any(|s| glob(p, &s.name())) {
            return Err(format!(
                "`{p}` names no scenario (they are KIND-SIZE-MAGNITUDE: room-128-2 … random-512-20)"
            ));
        }
    }
    Ok(all()
        .into_iter()
        .filter(|s| patterns.is_empty() || patterns.iter().any(|p| glob(p, &s.name())))
        .enumerate()
        .filter(|(k, _)| k % n == i - 1)
        .map(|(_, s)| s)
        .collect())
}

/// Runs every variant on each scenario, scenarios in parallel (and runs within each);
/// `progress` gets thousandths of a run as in [`run_experiment`].
pub fn run(
    scenarios: &[Scenario],
    runs: u32,
    seed: u64,
    progress: &(dyn Fn(u32) + Sync),
    cancel: &std::sync::atomic::AtomicBool,
) -> Vec<(Setup, Vec<Row>)> {
    use rayon::prelude::*;
    let algos: Vec<DynAlgo> = ALGOS
        .iter()
        .map(|a| DynAlgo::parse(a).expect("the thesis's variants parse"))
        .collect();
    scenarios
        .par_iter()
        .map(|s| {
            let setup = Setup {
                kind: s.kind,
                size: s.size,
                magnitude: s.magnitude as f64,
                runs,
                algos: algos.clone(),
                seed,
            };
            let rows = run_experiment(&setup, progress, cancel);
            (setup, rows)
        })
        .collect()
}

/// Means of one variant on one scenario, from CSV rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Means {
    pub runs: usize,
    pub success: f64,
    pub total_ms: f64,
    pub recompute_ms: f64,
    pub length: f64,
    pub replans: f64,
    pub nodes: f64,
    /// Nodes settled (the `settled` column; CSVs written before it had none: then `nodes`).
    pub settled: f64,
}

/// Reads `experiment dynamic` CSV text (shards concatenated: repeated headers are skipped)
/// into means per (scenario name, variant).
pub fn means(csv: &str) -> Result<BTreeMap<(String, String), Means>, String> {
    let header = super::dynamic::CSV_HEADER;
    // CSVs from before the `settled` column have its first 11 columns.
    let old_header = header.trim_end_matches(",settled");
    let mut sums: BTreeMap<(String, String), Means> = BTreeMap::new();
    for (n, line) in csv.lines().enumerate() {
        if line.trim().is_empty() || line == header || line == old_header {
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        let num = |i: usize| -> Result<f64, String> {
            f.get(i)
                .and_then(|v| v.parse::<f64>().ok())
                .ok_or_else(|| format!("{}: column {} is not a number", n + 1, i + 1))
        };
        if f.len() != 11 && f.len() != 12 {
            return Err(format!(
                "{}: expected 12 columns (or 11 without `settled`), found {}",
                n + 1,
                f.len()
            ));
        }
        let key = (format!("{}-{}-{}", f[1], f[2], f[3]), f[0].to_string());
        let m = sums.entry(key).or_default();
        m.runs += 1;
        m.success += (f[5] == "true") as u8 as f64;
        m.length += num(6)?;
        m.replans += num(7)?;
        m.nodes += num(8)?;
        m.settled += if f.len() == 12 { num(11)? } else { num(8)? };
        m.recompute_ms += num(9)?;
        m.total_ms += num(10)?;
    }
    for m in sums.values_mut() {
        let k = m.runs as f64;
        m.success /= k;
        m.length /= k;
        m.replans /= k;
        m.nodes /= k;
        m.settled /= k;
        m.recompute_ms /= k;
        m.total_ms /= k;
    }
    Ok(sums)
}

/// Searches of a run: the first plan and one per change event (one every 10 steps). The thesis
/// prints no replan count; for its rows this estimate is used on both sides.
fn searches(length: f64) -> f64 {
    (length / 10.0).floor() + 1.0
}

/// Relative difference in percent, signed.
fn delta(ours: f64, theirs: f64) -> f64 {
    if theirs == 0.0 {
        0.0
    } else {
        (ours / theirs - 1.0) * 100.0
    }
}

/// The scenarios in `means` as Markdown tables beside the thesis's, one per scenario: for each
/// variant the share of runs that reached the goal, travelled length, expanded nodes (the run's
/// total, and per search), recompute time and its ratio to A*, total time; pathlab first, the
/// thesis after the slash, then the difference. Differences in length and nodes above `flag`
/// percent are set in bold (times are not: the machines differ).
pub fn summary(means: &BTreeMap<(String, String), Means>, flag: f64) -> String {
    let mut out = String::new();
    for s in all() {
        let name = s.name();
        let ours = |a: &str| means.get(&(name.clone(), a.to_string()));
        let Some(a) = ours("astar") else { continue };
        out.push_str(&format!(
            "\n### Table A.{}: {} {}, {}% ({} runs)\n\n",
            s.table(),
            if s.kind == MapKind::Room {
                "Room"
            } else {
                "Random"
            },
            s.size,
            s.magnitude,
            a.runs
        ));
        out.push_str(
            "| variant | reached | length | nodes | nodes per search | recompute ms | × A* | total ms |\n",
        );
        out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        let thesis = s.thesis();
        let t_astar = thesis.iter().find(|r| r.3 == "astar").map_or(1.0, |r| r.5);
        let cell = |o: f64, t: f64, digits: usize, barred: bool| {
            let d = delta(o, t);
            if barred && d.abs() > flag {
                format!("{o:.digits$} / {t:.digits$} **{d:+.0}%**")
            } else {
                format!("{o:.digits$} / {t:.digits$} {d:+.0}%")
            }
        };
        for r in thesis {
            let Some(m) = ours(r.3) else { continue };
            // RTD* searches at every step, so only its run totals compare.
            let per_search = if r.3.starts_with("rtd:") {
                "–".to_string()
            } else {
                cell(m.nodes / (m.replans + 1.0), r.7 / searches(r.6), 0, true)
            };
            out.push_str(&format!(
                "| {} | {:.0}% | {} | {} | {} | {} | {} | {} |\n",
                r.3,
                m.success * 100.0,
                cell(m.length, r.6, 0, true),
                cell(m.nodes, r.7, 0, true),
                per_search,
                cell(m.recompute_ms, r.5, 3, false),
                cell(m.recompute_ms / a.recompute_ms, r.5 / t_astar, 2, false),
                cell(m.total_ms, r.4, 1, false),
            ));
        }
    }
    out
}

/// The thesis's findings checked on pathlab's means, one line each with the scenarios where they
/// hold and where they do not: D* Lite faster than A* at 2% and slower at 20%; RTD* 32 the
/// fastest recompute; static-ε AD* faster than A* at 2% on random maps; and A*'s and D* Lite's
/// travelled lengths and expansions per search within `within` percent of the thesis's.
pub fn findings(means: &BTreeMap<(String, String), Means>, within: f64) -> String {
    let mut lines = vec![];
    let mut check = |what: &str, cases: Vec<(String, bool)>| {
        let held: Vec<&str> = cases.iter().filter(|c| c.1).map(|c| c.0.as_str()).collect();
        let failed: Vec<&str> = cases
            .iter()
            .filter(|c| !c.1)
            .map(|c| c.0.as_str())
            .collect();
        let tail = if failed.is_empty() {
            String::new()
        } else {
            format!("; not in {}", failed.join(", "))
        };
        lines.push(format!(
            "- {what}: holds in {} of {}{tail}",
            held.len(),
            cases.len()
        ));
    };
    let get = |s: &Scenario, a: &str| means.get(&(s.name(), a.to_string()));
    let ran: Vec<Scenario> = all()
        .into_iter()
        .filter(|s| get(s, "astar").is_some())
        .collect();
    let rec = |s: &Scenario, a: &str| get(s, a).map_or(f64::NAN, |m| m.recompute_ms);
    let mut cases = vec![];
    for s in ran.iter().filter(|s| s.magnitude == 2 || s.magnitude == 20) {
        let faster = rec(s, "dstar-lite") < rec(s, "astar");
        // The thesis names Room 512 at 2% as the exception, where A* is faster (§5.2.2):
        // there the finding is that D* Lite is slower.
        let expected = s.magnitude == 2 && s.name() != "room-512-2";
        cases.push((s.name(), faster == expected));
    }
    check(
        "D* Lite recomputes faster than A* at 2% (except room-512-2, as the thesis says) and slower at 20%",
        cases,
    );
    // D* Lite takes the first of equal steps, with no tie-breaking (as the thesis ran it), and
    // so travels further than A*: in 21 of the thesis's 24 scenarios (its Table D3).
    let len = |s: &Scenario, a: &str| get(s, a).map_or(f64::NAN, |m| m.length);
    let thesis_len = |s: &Scenario, a: &str| {
        s.thesis()
            .into_iter()
            .find(|r| r.3 == a)
            .map_or(f64::NAN, |r| r.6)
    };
    let further: Vec<(String, bool)> = ran
        .iter()
        .map(|s| (s.name(), len(s, "dstar-lite") > len(s, "astar")))
        .collect();
    let theirs = ran
        .iter()
        .filter(|s| thesis_len(s, "dstar-lite") > thesis_len(s, "astar"))
        .count();
    check(
        &format!(
            "D* Lite travels further than A* (the thesis: in {theirs} of these {})",
            ran.len()
        ),
        further,
    );
    let cases = ran
        .iter()
        .map(|s| {
            let r32 = rec(s, "rtd:32");
            let others = ALGOS.iter().filter(|a| **a != "rtd:32");
            (s.name(), others.into_iter().all(|a| rec(s, a) >= r32))
        })
        .collect();
    check("RTD* 32 has the fastest recompute", cases);
    let cases = ran
        .iter()
        .filter(|s| s.kind == MapKind::Random && s.magnitude == 2)
        .map(|s| {
            let a = rec(s, "astar");
            (
                s.name(),
                ["ad:2", "ad:3", "ad:5"].iter().all(|v| rec(s, v) < a),
            )
        })
        .collect();
    check(
        "static-ε AD* recomputes faster than A* at 2% on random maps",
        cases,
    );
    for algo in ["astar", "dstar-lite"] {
        let mut lengths = vec![];
        let mut nodes = vec![];
        let mut settled = vec![];
        for s in ran.iter().filter(|s| s.size <= 256) {
            let (Some(m), Some(t)) = (get(s, algo), s.thesis().into_iter().find(|r| r.3 == algo))
            else {
                continue;
            };
            lengths.push((s.name(), delta(m.length, t.6).abs() <= within));
            let ours = m.nodes / (m.replans + 1.0);
            nodes.push((s.name(), delta(ours, t.7 / searches(t.6)).abs() <= within));
            let ours = m.settled / (m.replans + 1.0);
            settled.push((s.name(), delta(ours, t.7 / searches(t.6)).abs() <= within));
        }
        check(
            &format!("{algo}: travelled length within {within}% (128 and 256)"),
            lengths,
        );
        check(
            &format!("{algo}: expansions per search within {within}% (128 and 256)"),
            nodes,
        );
        if algo == "dstar-lite" {
            check(
                &format!("{algo}: settling expansions per search within {within}% (128 and 256)"),
                settled,
            );
        }
    }
    lines.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thesis_tables_are_whole() {
        assert_eq!(all().len(), 24);
        for s in all() {
            let t = s.thesis();
            let names: Vec<&str> = t.iter().map(|r| r.3).collect();
            assert_eq!(names, ALGOS, "{}", s.name());
        }
        // Spot checks against the printed tables.
        assert_eq!(
            all()[0].thesis()[0],
            &("room", 128, 2, "astar", 71.0, 2.333, 301.0, 62910.0)
        );
        let a24 = all()[23].thesis();
        assert_eq!((a24[0].1, a24[0].2, a24[0].6), (512, 20, 1029.0));
    }

    /// Fed the thesis's own tables, the findings about the thesis hold where the thesis says
    /// they do: D* Lite recomputes faster at 2% but on Room 512 (the exception it names) and
    /// slower at 20%, and travels further than A* in 21 of 24 scenarios.
    #[test]
    fn the_thesis_tables_meet_its_own_findings() {
        let mut means = BTreeMap::new();
        for s in all() {
            for r in s.thesis() {
                let m = Means {
                    runs: 1,
                    success: 1.0,
                    total_ms: r.4,
                    recompute_ms: r.5,
                    length: r.6,
                    replans: searches(r.6) - 1.0,
                    nodes: r.7,
                    settled: r.7,
                };
                means.insert((s.name(), r.3.to_string()), m);
            }
        }
        let text = findings(&means, 20.0);
        assert!(text.contains("at 20%: holds in 12 of 12\n"), "{text}");
        assert!(
            text.contains("D* Lite travels further than A* (the thesis: in 21 of these 24): holds in 21 of 24; not in room-128-2, room-128-5, random-128-2"),
            "{text}"
        );
    }

    #[test]
    fn scenarios_select_by_pattern_and_shard() {
        let names = |v: Vec<Scenario>| v.iter().map(|s| s.name()).collect::<Vec<_>>();
        assert_eq!(names(select("room-128-2", (1, 1)).unwrap()), ["room-128-2"]);
        assert_eq!(select("*-256-*", (1, 1)).unwrap().len(), 8);
        assert_eq!(select("random-*-20", (1, 1)).unwrap().len(), 3);
        assert_eq!(select("", (1, 1)).unwrap().len(), 24);
        // Three shards cover the 24 once.
        let mut all_shards: Vec<String> = (1..=3)
            .flat_map(|i| names(select("", (i, 3)).unwrap()))
            .collect();
        all_shards.sort();
        let mut want = names(all());
        want.sort();
        assert_eq!(all_shards, want);
        assert!(select("room-64-2", (1, 1)).is_err());
        assert!(select("", (0, 2)).is_err() && select("", (3, 2)).is_err());
    }

    /// Concatenated shard CSVs (a header each) read as one, and the summary sets them beside
    /// the thesis.
    #[test]
    fn means_of_concatenated_csvs_and_the_summary() {
        let h = super::super::dynamic::CSV_HEADER;
        let csv = format!(
            "{h}\nastar,room,128,2,0,true,300,30,60000,2.0,70,60000\nastar,room,128,2,1,true,302,30,62000,2.5,72,62000\n{h}\ndstar-lite,room,128,2,0,false,310,31,12000,0.5,25,11000\n"
        );
        let m = means(&csv).unwrap();
        let a = &m[&("room-128-2".to_string(), "astar".to_string())];
        assert_eq!((a.runs, a.length, a.nodes), (2, 301.0, 61000.0));
        let d = &m[&("room-128-2".to_string(), "dstar-lite".to_string())];
        assert_eq!((d.success, d.settled), (0.0, 11000.0));
        // A CSV from before the `settled` column reads with settled = nodes.
        let old = h.trim_end_matches(",settled");
        let m_old = means(&format!(
            "{old}\nastar,room,128,2,0,true,300,30,60000,2.0,70\n"
        ))
        .unwrap();
        assert_eq!(
            m_old[&("room-128-2".to_string(), "astar".to_string())].settled,
            60000.0
        );
        let text = summary(&m, 20.0);
        assert!(
            text.contains("### Table A.1: Room 128, 2% (2 runs)"),
            "{text}"
        );
        assert!(
            text.contains("| astar | 100% | 301 / 301 +0% | 61000 / 62910 -3% |"),
            "{text}"
        );
        assert!(means("astar,room\n").is_err());
        let f = findings(&m, 20.0);
        assert!(
            f.contains("- astar: travelled length within 20% (128 and 256): holds in 1 of 1"),
            "{f}"
        );
        assert!(
            f.contains(
                "D* Lite recomputes faster than A* at 2% (except room-512-2, as the thesis says) and slower at 20%: holds in 1 of 1"
            ),
            "{f}"
        );
    }
}

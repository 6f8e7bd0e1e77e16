//! Posthoc traces read back as Posthoc reads them: a YAML 1.2 parser (Posthoc loads with
//! js-yaml), then the shape of its schema (`version` "1.4.0", `views` of arrays of views, each
//! with a `$`, `events` of maps), then every event against the run pathlab recorded beside it:
//! the same count and order, parents (`pId`) only where pathlab set one and equal to it, phases
//! and line-of-sight checks carrying no `id`/`pId` of a node they are not about.

use pathlab::trace::run_file::RunFile;
use pathlab::trace::{EventKind, NONE};
use std::path::PathBuf;
use std::process::Command;
use yaml_rust2::{Yaml, YamlLoader};

fn tmp(name: &str) -> PathBuf {
    let d = crate::support::scratch_root().join("pathlab-posthoc");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// A 12 × 8 map with a wall that makes every search go round it.
const MAP: &str = "type octile\nheight 8\nwidth 12\nmap\n\
............\n\
............\n\
.....@......\n\
.....@......\n\
.....@......\n\
.....@......\n\
............\n\
............\n";

/// Runs `pathlab trace` and returns its run file and the parsed Posthoc document.
fn trace(name: &str, extra: &[&str]) -> (RunFile, Yaml, String) {
    // A map of its own: the tests run in parallel, and one writing a shared file while another
    // reads it made the reader see half a header.
    let map = tmp(&format!("{name}.map"));
    std::fs::write(&map, MAP).unwrap();
    let run = tmp(&format!("{name}.ron"));
    let ph = tmp(&format!("{name}.trace.yaml"));
    let mut args = vec![
        "trace",
        "--map",
        map.to_str().unwrap(),
        "--start",
        "1,3",
        "--goal",
        "10,4",
        "--out",
        run.to_str().unwrap(),
        "--posthoc",
        ph.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .args(&args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&ph).unwrap();
    let mut docs = YamlLoader::load_from_str(&text)
        .unwrap_or_else(|e| panic!("{name}: not YAML Posthoc can load: {e}"));
    assert_eq!(docs.len(), 1, "{name}: one document");
    (RunFile::read(&run).unwrap(), docs.remove(0), text)
}

/// The shape Posthoc's schema asks for.
fn check_schema(name: &str, doc: &Yaml) {
    assert_eq!(doc["version"].as_str(), Some("1.4.0"), "{name}: version");
    let Yaml::Hash(views) = &doc["views"] else {
        panic!("{name}: views is not a map")
    };
    assert!(!doc["views"]["main"].is_badvalue(), "{name}: no main view");
    for (k, v) in views {
        let Yaml::Array(list) = v else {
            panic!("{name}: view {k:?} is not a list")
        };
        for view in list {
            assert!(view["$"].as_str().is_some(), "{name}: a view without $");
            // Expressions are strings: a ternary left unquoted would have split a key.
            for key in ["x", "y", "fill", "points", "$if"] {
                if let Yaml::String(s) = &view[key] {
                    assert!(
                        !s.contains("${{") || (s.starts_with("${{") && s.ends_with("}}")),
                        "{name}: {key} is a cut expression: {s}"
                    );
                }
            }
        }
    }
    assert!(doc["pivot"]["x"].as_str().is_some(), "{name}: no pivot");
    let Yaml::Array(events) = &doc["events"] else {
        panic!("{name}: events is not a list")
    };
    for e in events {
        assert!(matches!(e, Yaml::Hash(_)), "{name}: an event is not a map");
        assert!(
            e["type"].as_str().is_some(),
            "{name}: an event without type"
        );
    }
}

/// Every event read back against the recorded one.
fn check_events(name: &str, run: &RunFile, doc: &Yaml) {
    let events = doc["events"].as_vec().unwrap();
    assert_eq!(events.len(), run.events.len(), "{name}: event count");
    for (i, (y, e)) in events.iter().zip(&run.events).enumerate() {
        let ty = y["type"].as_str().unwrap();
        let want = match e.kind {
            EventKind::Found => "end",
            k => k.name(),
        };
        assert_eq!(ty, want, "{name}: event {i}");
        let id = y["id"].as_i64();
        let pid = y["pId"].as_i64();
        let parent_sets = matches!(
            e.kind,
            EventKind::Generate | EventKind::Update | EventKind::Reopen | EventKind::Expand
        );
        match e.kind {
            EventKind::Phase | EventKind::Replan | EventKind::NoPath => {
                assert_eq!(id, None, "{name}: event {i} ({ty}) names a node");
            }
            _ if e.node != NONE => assert_eq!(id, Some(e.node as i64), "{name}: event {i} id"),
            _ => {}
        }
        if parent_sets && e.other != NONE {
            assert_eq!(pid, Some(e.other as i64), "{name}: event {i} ({ty}) parent");
        } else {
            assert_eq!(pid, None, "{name}: event {i} ({ty}) is not a parent change");
        }
        let about_a_node = !matches!(
            e.kind,
            EventKind::Phase | EventKind::Replan | EventKind::NoPath
        );
        if e.node != NONE && about_a_node {
            assert!(y["x"].as_i64().is_some(), "{name}: event {i} without x");
        }
        // g and f only where they are g and f.
        let gf = parent_sets || matches!(e.kind, EventKind::Source);
        if !gf {
            assert!(
                y["f"].is_badvalue(),
                "{name}: event {i} ({ty}) writes f for another value"
            );
        }
        if matches!(e.kind, EventKind::Found) {
            assert!(y["g"].is_badvalue());
            num(&y["cost"]);
        }
    }
}

/// A YAML number, written with or without a fraction.
fn num(y: &Yaml) -> f64 {
    y.as_f64()
        .or_else(|| y.as_i64().map(|v| v as f64))
        .unwrap_or_else(|| panic!("{y:?} is not a number"))
}

#[test]
fn astar_theta_and_hex_traces_load_as_posthoc_loads_them() {
    let (run, doc, _) = trace("astar", &["--algo", "astar"]);
    check_schema("astar", &doc);
    check_events("astar", &run, &doc);
    assert_eq!(doc["views"]["main"][0]["$"].as_str(), Some("rect"));
    let events = doc["events"].as_vec().unwrap();
    assert_eq!(events[0]["type"].as_str(), Some("source"));
    assert_eq!(events.last().unwrap()["type"].as_str(), Some("end"));

    let (run, doc, _) = trace("theta", &["--algo", "theta-star"]);
    check_schema("theta", &doc);
    check_events("theta", &run, &doc);
    let sights: Vec<&Yaml> = doc["events"]
        .as_vec()
        .unwrap()
        .iter()
        .filter(|e| e["type"].as_str() == Some("line-of-sight"))
        .collect();
    assert!(!sights.is_empty(), "Theta* checks lines of sight");
    for s in sights {
        assert!(s["visible"].as_bool().is_some() && s["fromX"].as_i64().is_some());
    }

    let (run, doc, _) = trace(
        "hex",
        &["--algo", "astar", "--world", "hex", "--hex-size", "1.5"],
    );
    check_schema("hex", &doc);
    check_events("hex", &run, &doc);
    assert_eq!(doc["views"]["main"][0]["$"].as_str(), Some("polygon"));
    let first = &doc["events"][0];
    let corners = first["points"].as_vec().expect("a hex's corners");
    assert_eq!(corners.len(), 6);
    // The corners surround the centre at the hex's circumradius (pitch / √3).
    let (cx, cy) = (num(&first["cx"]), num(&first["cy"]));
    for c in corners {
        let (x, y) = (num(&c["x"]), num(&c["y"]));
        let r = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt();
        assert!((r - 1.5 / 3f64.sqrt()).abs() < 2e-3, "corner at {r}");
    }
}

#[test]
fn anytime_phases_and_no_path_runs_are_not_nodes_or_ends() {
    let (run, doc, _) = trace("ara", &["--algo", "ara-star"]);
    check_schema("ara", &doc);
    check_events("ara", &run, &doc);
    assert!(
        run.events.iter().any(|e| e.kind == EventKind::Phase),
        "ARA* records its phases"
    );
    // No path: the goal walled in.
    let map = tmp("closed.map");
    std::fs::write(
        &map,
        "type octile\nheight 3\nwidth 5\nmap\n...@.\n...@.\n...@.\n",
    )
    .unwrap();
    let (run_f, ph) = (tmp("closed.ron"), tmp("closed.trace.yaml"));
    let out = Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .args(["trace", "--map", map.to_str().unwrap(), "--start", "0,0"])
        .args(["--goal", "4,2", "--out", run_f.to_str().unwrap()])
        .args(["--posthoc", ph.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "no path exits 1");
    let doc = YamlLoader::load_from_str(&std::fs::read_to_string(&ph).unwrap())
        .unwrap()
        .remove(0);
    check_schema("closed", &doc);
    let last = doc["events"].as_vec().unwrap().last().unwrap().clone();
    assert_eq!(last["type"].as_str(), Some("no-path"));
}

#[test]
fn names_posthoc_would_not_open_are_refused() {
    let map = tmp("n.map");
    std::fs::write(&map, MAP).unwrap();
    for bad in ["run.yaml", "run.trace", "trace.yaml.txt", ".trace.yaml"] {
        let out = Command::new(env!("CARGO_BIN_EXE_pathlab"))
            .args(["trace", "--map", map.to_str().unwrap(), "--start", "1,3"])
            .args(["--goal", "10,4", "--out", tmp("n.ron").to_str().unwrap()])
            .args(["--posthoc", tmp(bad).to_str().unwrap()])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains(".trace.yaml") && err.contains(bad), "{err}");
        assert!(!tmp(bad).exists() && !tmp("n.ron").exists());
    }
}

//! Outputs and arguments the commands must refuse: an output that would replace an input or a
//! file the run read, options that do not apply, vacuous runs, nonsense arguments; and what
//! `bench` notes of unsolved problems and wrong optima.

use crate::refusal;

use refusal::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Outputs never overwrite an input, and `trace` writes its run and Posthoc files both or
/// neither.
#[test]
fn outputs_never_overwrite_inputs_and_come_all_or_nothing() {
    let out = scratch("overwrite");
    let map = out.join("m.map");
    std::fs::copy(corpus("small.map"), &map).unwrap();
    let before = std::fs::read(&map).unwrap();
    let m = map.to_str().unwrap();
    let dotted = out.join(".").join("m.map");
    let trace = |out_file: &str, posthoc: Option<&str>| {
        let mut a = vec![
            "trace", "--map", m, "--start", "0,0", "--goal", "3,3", "--out", out_file,
        ];
        if let Some(p) = posthoc {
            a.extend(["--posthoc", p]);
        }
        pathlab(&a)
    };
    trace(m, None).refused("m.map", None);
    trace(dotted.to_str().unwrap(), None).refused("m.map", None);
    let run = out.join("run.ron");
    let r = run.to_str().unwrap();
    trace(r, Some(m)).refused("m.map", None);
    trace(r, Some(r)).refused("run.ron", None);
    pathlab(&["convert", m, m]).refused("m.map", None);
    assert_eq!(std::fs::read(&map).unwrap(), before, "the map was changed");
    // A Posthoc file that cannot be written: no run file either, and no temporary file left.
    let nowhere = out.join("no_such_dir").join("t.trace.yaml");
    trace(r, Some(nowhere.to_str().unwrap())).refused("t.trace.yaml", None);
    assert!(
        !run.exists(),
        "the run file was written without its Posthoc file"
    );
    let left: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["m.map"], "files left behind");
    // Both, when both can be written.
    let ph = out.join("t.trace.yaml");
    trace(r, Some(ph.to_str().unwrap())).succeeded();
    assert!(run.exists() && ph.exists());
    std::fs::remove_dir_all(&out).unwrap();
}

/// No output of any entry replaces a file the run read: the map, the scenario, a project or a
/// PNG named on the command line, and the map a scenario pulls in.
#[test]
fn no_output_replaces_a_file_the_run_read() {
    let out = scratch("inputs");
    let copy = |name: &str| {
        let p = out.join(name);
        std::fs::copy(corpus(name), &p).unwrap();
        p
    };
    let map = copy("small.map");
    let scen = copy("small.map.scen");
    let png = copy("valid.png");
    let ron = copy("valid.ron");
    let vmap = out.join("v.3dmap");
    std::fs::write(&vmap, "voxel 4 3 2\n1 0 0\n").unwrap();
    let vscen = out.join("v.3dmap.3dscen");
    std::fs::write(&vscen, "version 1\nv.3dmap\n0 0 0 3 0 0 3 3\n").unwrap();
    let trace = out.join("t.trace.yaml");
    std::fs::write(
        &trace,
        "version: 1.4.0\nevents:\n  - { type: source, id: 0 }\n",
    )
    .unwrap();
    let all = [&map, &scen, &png, &ron, &vmap, &vscen, &trace];
    let before: Vec<Vec<u8>> = all.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let s = |p: &PathBuf| p.to_str().unwrap().to_string();
    let (m, sc, v, vs) = (s(&map), s(&scen), s(&vmap), s(&vscen));
    let t = s(&trace);
    let shot = s(&out.join("shot.png"));
    let anyangle = |csv: &str| -> Vec<String> {
        let a = [
            "experiment",
            "anyangle",
            "--map",
            &m,
            "--scen",
            &sc,
            "--every",
            "1",
        ];
        a.iter()
            .chain(&["--csv", csv])
            .map(|v| v.to_string())
            .collect()
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        // The app's screenshot over the file it opened, or the map its scenario names.
        (
            vec![m.clone(), "--screenshot".into(), m.clone()],
            "small.map",
        ),
        (vec![s(&ron), "--screenshot".into(), s(&ron)], "valid.ron"),
        // The app's screenshot or SVG over the trace it plays back.
        (
            [&m, "--trace", &t, "--screenshot", &t]
                .map(String::from)
                .to_vec(),
            "t.trace.yaml",
        ),
        (
            [&m, "--trace", &t, "--screenshot", &shot, "--svg", &t]
                .map(String::from)
                .to_vec(),
            "t.trace.yaml",
        ),
        (vec![s(&png), "--screenshot".into(), s(&png)], "valid.png"),
        (
            vec![sc.clone(), "--screenshot".into(), m.clone()],
            "small.map",
        ),
        // Experiments writing their CSV over their map or scenario.
        (anyangle(&m), "small.map"),
        (anyangle(&sc), "small.map.scen"),
        (
            [
                "experiment",
                "gps",
                "--map",
                &m,
                "--hex-size",
                "1",
                "--runs",
                "1",
                "--csv",
                &m,
            ]
            .map(String::from)
            .to_vec(),
            "small.map",
        ),
        // A conversion over the map its scenario names.
        (["convert", &vs, &v].map(String::from).to_vec(), "v.3dmap"),
    ];
    for (args, file) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = pathlab(&args);
        r.refused(file, None);
        assert!(
            r.stderr.contains("never replaces an input") || r.stderr.contains("overwrite"),
            "{}: {}",
            r.what,
            r.stderr
        );
    }
    let after: Vec<Vec<u8>> = all.iter().map(|p| std::fs::read(p).unwrap()).collect();
    assert!(before == after, "an input was changed");
    std::fs::remove_dir_all(&out).unwrap();
}

/// Options given where they do not apply are refused by name, never ignored; a run that
/// checked nothing is no success; a scenario for another map is refused; error lines carry no
/// raw control bytes.
#[test]
fn options_that_do_not_apply_and_vacuous_runs_are_refused() {
    let out = scratch("options");
    let small = corpus("small.map");
    let (m, s) = (small.to_str().unwrap(), corpus("small.map.scen"));
    let s = s.to_str().unwrap();
    let vmap = out.join("v.3dmap");
    std::fs::write(&vmap, "voxel 4 3 2\n1 0 0\n").unwrap();
    let vscen = out.join("v.3dscen");
    std::fs::write(&vscen, "version 1\nv.3dmap\n0 0 0 3 0 0 3 3\n").unwrap();
    let (v, vs) = (vmap.to_str().unwrap(), vscen.to_str().unwrap());
    let o = |n: &str| out.join(n).to_str().unwrap().to_string();
    let (shot, ron, map_out) = (o("x.png"), o("x.ron"), o("x.map"));
    let named = |args: &[&str], flag: &str| {
        let r = pathlab(args);
        r.refused(flag, None);
    };
    for flag in [
        &["--connectivity", "4"][..],
        &["--terrain", "ground"],
        &["--world", "hex"],
    ] {
        named(
            &[&["solve", "--map", v, "--scen", vs][..], flag].concat(),
            flag[0],
        );
        named(&[&["convert", v, &ron][..], flag].concat(), flag[0]);
    }
    named(
        &["solve", "--map", m, "--scen", s, "--hex-size", "2"],
        "--hex-size",
    );
    named(
        &["solve", "--map", m, "--scen", s, "--hex-fill", "centre"],
        "--hex-fill",
    );
    named(&["convert", m, &map_out, "--height", "3"], "--height");
    named(&[m, "--algo", "gps", "--screenshot", &shot], "gps");
    named(&[v, "--algo", "gps", "--screenshot", &shot], "gps");
    named(
        &[m, "--compare-knowledge", "0,50", "--screenshot", &shot],
        "--compare-knowledge",
    );
    for t in ["NaN", "inf", "-1"] {
        let r = pathlab(&["--scene3d", "--fly-to", t, "--screenshot", &shot]);
        assert_eq!(r.code, 2, "{}: {}", r.what, r.stderr);
    }
    let r = pathlab(&["--fly-to", "3", "--screenshot", &shot]);
    assert_eq!(r.code, 2, "{}: {}", r.what, r.stderr);
    // Nothing checked.
    let only = corpus("version_only.scen");
    pathlab(&["solve", "--map", m, "--scen", only.to_str().unwrap()])
        .refused("version_only.scen", None);
    pathlab(&["bench", "--map", m, "--scen", only.to_str().unwrap()])
        .refused("version_only.scen", None);
    let csv = out.join("empty.csv");
    std::fs::write(&csv, "").unwrap();
    pathlab(&["experiment", "summary", csv.to_str().unwrap()]).refused("empty.csv", None);
    let garbage = out.join("garbage.csv");
    std::fs::write(&garbage, "x\n").unwrap();
    pathlab(&["experiment", "summary", garbage.to_str().unwrap()]).refused("garbage.csv", Some(1));
    let r = pathlab(&[
        "experiment",
        "summary",
        csv.to_str().unwrap(),
        "--flag",
        "NaN",
    ]);
    r.refused("--flag", None);
    // A scenario for another map.
    let other = corpus("other_map.scen");
    pathlab(&["solve", "--map", m, "--scen", other.to_str().unwrap()])
        .refused("other_map.scen", Some(2));
    // Bytes that would drive a terminal are written as escapes.
    let ctl = out.join("ctl.map");
    std::fs::write(&ctl, "type octile\n\x1b[2J\rwidth 4\n").unwrap();
    let r = pathlab(&["solve", "--map", ctl.to_str().unwrap(), "--scen", s]);
    r.refused("ctl.map", Some(2));
    assert!(
        !r.stderr.trim_end().contains(['\x1b', '\r']),
        "{:?}",
        r.stderr
    );
    assert!(!Path::new(&shot).exists() && !Path::new(&ron).exists());
    std::fs::remove_dir_all(&out).unwrap();
}

/// `bench` says when the times it reports include failed searches.
#[test]
fn bench_notes_unsolved_problems_and_wrong_optima() {
    let out = scratch("bench-note");
    let scen = out.join("wrong.scen");
    std::fs::write(&scen, "version 1\n0\tsmall.map\t4\t4\t0\t0\t3\t3\t4.0\n").unwrap();
    let small = corpus("small.map");
    let r = pathlab(&[
        "bench",
        "--map",
        small.to_str().unwrap(),
        "--scen",
        scen.to_str().unwrap(),
    ]);
    r.succeeded();
    assert!(
        r.stderr.contains("note:") && r.stderr.contains("1 a length other"),
        "{}",
        r.stderr
    );
    let good = corpus("small.map.scen");
    let r = pathlab(&[
        "bench",
        "--map",
        small.to_str().unwrap(),
        "--scen",
        good.to_str().unwrap(),
    ]);
    r.succeeded();
    assert!(!r.stderr.contains("note:"), "{}", r.stderr);
    std::fs::remove_dir_all(&out).unwrap();
}

/// Numbers that would make a command do nothing, and parameters given twice, are refused;
/// `algos` lists choices by the names `--algo` takes.
#[test]
fn nonsense_arguments_are_refused() {
    let map = corpus("small.map");
    let scen = corpus("small.map.scen");
    let (m, s) = (map.to_str().unwrap(), scen.to_str().unwrap());
    for extra in [
        &["--every", "0"][..],
        &["--limit", "0"],
        &["--algo", "astar:heuristic=octile,heuristic=zero"],
        &["--algo", "astar:heuristic=0"],
    ] {
        let r = pathlab(&[&["solve", "--map", m, "--scen", s][..], extra].concat());
        assert_eq!(r.code, 2, "{}: {}", r.what, r.stderr);
    }
    let r = pathlab(&["bench", "--map", m, "--scen", s, "--repeat", "0"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = pathlab(&[
        "experiment",
        "dynamic",
        "--map-kind",
        "room",
        "--size",
        "32",
        "--magnitude",
        "2",
        "--runs",
        "0",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let out = Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .arg("algos")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "heuristic=native (octile | manhattan | euclidean | zero | native | hex | counter)"
        ) && text.contains("[A*; worlds: square, hex, voxel, navmesh, vehicle]")
            // Not on navmeshes: their polygons are numbered anew by every edit.
            && text.contains("[D* Lite; worlds: square, hex, voxel]"),
        "{text}"
    );
    // An OS error is said once.
    let r = pathlab(&["solve", "--map", "/no/such.map", "--scen", s]);
    r.refused("/no/such.map", None);
    assert_eq!(r.stderr.matches("os error").count(), 1, "{}", r.stderr);
}

/// What a world cannot hold or run is refused in one line, never dropped or swapped: `--fly-to`
/// beside a file (clap lets its `--scene3d` requirement go there, as `--scene3d` conflicts with
/// a file), voxels in a square project (`convert` and the app), and D* Lite on a navmesh, whose
/// polygons are numbered anew by every edit (the app ran A* in its place).
#[test]
fn what_a_world_cannot_hold_or_run_is_refused_in_one_line() {
    let out = scratch("world-fit");
    let small = corpus("small.map");
    let m = small.to_str().unwrap();
    let o = |n: &str| out.join(n).to_str().unwrap().to_string();
    let shot = o("x.png");
    for args in [
        &[m, "--fly-to", "5", "--screenshot", &shot][..],
        &["--fly-to", "5", "--screenshot", &shot],
    ] {
        pathlab(args).refused("--fly-to", None);
    }
    // A square project carrying a voxel world's fields.
    let square = out.join("square.ron");
    std::fs::write(
        &square,
        "(\n    version: 1,\n    rows: [\"....\", \"....\"],\n    voxels: Some(\"4 2 2 16\"),\n)\n",
    )
    .unwrap();
    let sq = square.to_str().unwrap();
    pathlab(&["convert", sq, &o("y.map")]).refused("square.ron:4: ", None);
    pathlab(&["convert", sq, &o("y.ron")]).refused("square.ron:4: ", None);
    pathlab(&[sq, "--screenshot", &shot]).refused("square.ron:4: ", None);
    let layered = out.join("layered.ron");
    std::fs::write(&layered, "(version: 1, rows: [\"....\"], layer: 1)").unwrap();
    let r = pathlab(&["convert", layered.to_str().unwrap(), &o("z.map")]);
    r.refused("layered.ron", None);
    assert!(r.stderr.contains("`layer`"), "{}", r.stderr);
    // D* Lite on a navmesh: from the command line and from a project's views.
    let nav = out.join("nav.ron");
    std::fs::write(
        &nav,
        "(version: 1, rows: [\"....\", \"....\"], world: Navmesh)",
    )
    .unwrap();
    let n = nav.to_str().unwrap();
    let r = pathlab(&[n, "--algo", "dstar-lite", "--screenshot", &shot]);
    r.refused("dstar-lite", None);
    assert!(r.stderr.contains("navmesh"), "{}", r.stderr);
    let nav_view = out.join("nav_view.ron");
    std::fs::write(
        &nav_view,
        "(\n    version: 1,\n    rows: [\"....\"],\n    world: Navmesh,\n    algorithms: [(name: \"dstar-lite\", params: {})],\n)\n",
    )
    .unwrap();
    pathlab(&[nav_view.to_str().unwrap(), "--screenshot", &shot]).refused("nav_view.ron:5: ", None);
    let r = pathlab(&[
        "solve",
        "--map",
        m,
        "--scen",
        corpus("small.map.scen").to_str().unwrap(),
        "--world",
        "navmesh",
        "--algo",
        "dstar-lite",
    ]);
    r.refused("dstar-lite", None);
    assert!(r.stderr.contains("survive edits"), "{}", r.stderr);
    assert!(!Path::new(&shot).exists());
    std::fs::remove_dir_all(&out).unwrap();
}

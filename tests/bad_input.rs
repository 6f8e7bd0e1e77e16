//! The bad-input corpus (`tests/bad_input/`, plus files too big or too special to keep, made
//! here) against every command and the app's `--screenshot` path. Each run must end with one
//! line naming the file (and line, where there is one) and a non-zero exit, or succeed on a valid
//! world: never a panic, an abort, a hang or a silent success.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bad_input")
        .join(name)
}

fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pathlab-bad-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

struct Outcome {
    code: i32,
    stderr: String,
    what: String,
}

/// Runs pathlab with `args`; a run that takes over 60 s is a hang and fails the test.
fn pathlab(args: &[&str]) -> Outcome {
    let what = format!("pathlab {}", args.join(" "));
    let mut child = Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .args(args)
        // The app must refuse before it needs a display.
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("{what}: still running after 60 s (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    use std::io::Read;
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let code = status
        .code()
        .unwrap_or_else(|| panic!("{what}: killed by a signal ({status})"));
    Outcome { code, stderr, what }
}

impl Outcome {
    /// Refused in one line that names `file` (`file:line:` when `line` is given).
    fn refused(&self, file: &str, line: Option<usize>) {
        let w = &self.what;
        assert_ne!(self.code, 0, "{w}: exit 0 on bad input");
        assert_ne!(self.code, 101, "{w}: a panic: {}", self.stderr);
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{w}: not one line: {:?}", self.stderr);
        assert!(lines[0].starts_with("pathlab: "), "{w}: {}", lines[0]);
        let want = match line {
            Some(n) => format!("{file}:{n}: "),
            None => file.to_string(),
        };
        assert!(
            lines[0].contains(&want),
            "{w}: `{}` does not name {want}",
            lines[0]
        );
        assert!(!lines[0].contains("internal error"), "{w}: {}", lines[0]);
    }

    fn succeeded(&self) {
        assert_eq!(self.code, 0, "{}: {}", self.what, self.stderr);
    }
}

/// `(file, line)`: the bad maps and the line their error names.
const BAD_MAPS: &[(&str, Option<usize>)] = &[
    ("truncated.map", Some(6)),
    ("short_row.map", Some(6)),
    ("not_a_map.map", Some(1)),
    ("empty.map", Some(1)),
    ("zero_width.map", Some(3)),
    ("negative_height.map", Some(2)),
    ("cells_over_limit.map", Some(4)),
    ("side_over_limit.map", Some(3)),
    ("not_utf8.map", Some(5)),
    ("binary.map", Some(2)),
    ("tab_in_row.map", Some(5)),
    ("extra_rows.map", Some(6)),
    ("header_only.map", Some(3)),
    ("repeated_header.map", Some(4)),
];

const BAD_SCENS: &[(&str, Option<usize>)] = &[
    ("blocked_start.scen", Some(2)),
    ("u32_max_start.scen", Some(2)),
    ("outside_start.scen", Some(2)),
    ("size_mismatch.scen", Some(2)),
    ("nan_length.scen", Some(2)),
    ("negative_length.scen", Some(2)),
    ("eight_fields.scen", Some(2)),
    ("no_version.scen", Some(1)),
    ("version_2.scen", Some(1)),
    ("not_utf8.scen", Some(2)),
    ("empty.scen", Some(1)),
];

const BAD_PROJECTS: &[(&str, Option<usize>)] = &[
    ("garbage.ron", Some(1)),
    ("unterminated.ron", Some(2)),
    ("unknown_algorithm.ron", Some(3)),
    ("bad_parameter.ron", Some(3)),
    ("unknown_parameter.ron", Some(3)),
    ("embedded_outside.ron", None),
    ("embedded_negative.ron", None),
    ("embedded_blocked.ron", None),
    ("ragged.ron", None),
    ("no_rows.ron", None),
    ("row_over_limit.ron", None),
    ("newer_version.ron", Some(1)),
    ("start_outside.ron", None),
    ("negative_cost.ron", None),
    ("nan_cost.ron", None),
    ("cost_count.ron", None),
    ("unknown_field.ron", Some(3)),
    ("gps_on_squares.ron", Some(3)),
];

const BAD_PNGS: &[&str] = &[
    "garbage.png",
    "not_a_png.png",
    "truncated.png",
    "huge_dimensions.png",
    "cells_over_limit.png",
    "bad_crc.png",
];

#[test]
fn bad_maps_are_refused_by_every_command_and_the_app() {
    let out = scratch("maps");
    let (o_ron, o_map) = (out.join("o.ron"), out.join("o.map"));
    let (o_ron, o_map) = (o_ron.to_str().unwrap(), o_map.to_str().unwrap());
    let scen = corpus("small.map.scen");
    let scen = scen.to_str().unwrap();
    for &(name, line) in BAD_MAPS {
        let f = corpus(name);
        let f = f.to_str().unwrap();
        pathlab(&[f, "--screenshot", o_map]).refused(name, line);
        pathlab(&["solve", "--map", f, "--scen", scen]).refused(name, line);
        pathlab(&["bench", "--map", f, "--scen", scen]).refused(name, line);
        let trace = [
            "trace", "--map", f, "--start", "0,0", "--goal", "1,1", "--out", o_ron,
        ];
        pathlab(&trace).refused(name, line);
        pathlab(&["convert", f, o_map]).refused(name, line);
    }
    assert!(
        !Path::new(o_ron).exists() && !Path::new(o_map).exists(),
        "an output was written"
    );
    // The valid ones beside them succeed.
    let small = corpus("small.map");
    let small = small.to_str().unwrap();
    pathlab(&["solve", "--map", small, "--scen", scen]).succeeded();
    let crlf = corpus("crlf.map");
    pathlab(&["convert", crlf.to_str().unwrap(), o_map]).succeeded();
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn bad_scenarios_are_refused_by_every_command_and_the_app() {
    let out = scratch("scens");
    let shot = out.join("o.png");
    let small = corpus("small.map");
    let small = small.to_str().unwrap();
    for &(name, line) in BAD_SCENS {
        let f = corpus(name);
        let f = f.to_str().unwrap();
        pathlab(&[f, "--screenshot", shot.to_str().unwrap()]).refused(name, line);
        pathlab(&["solve", "--map", small, "--scen", f]).refused(name, line);
        pathlab(&["bench", "--map", small, "--scen", f]).refused(name, line);
    }
    // A scenario whose map is nowhere: the app has no map to open.
    let f = corpus("missing_map.scen");
    pathlab(&[f.to_str().unwrap(), "--screenshot", shot.to_str().unwrap()])
        .refused("missing_map.scen", None);
    assert!(!shot.exists());
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn bad_projects_and_images_are_refused_by_convert_and_the_app() {
    let out = scratch("projects");
    let o = out.join("o.map");
    let o = o.to_str().unwrap();
    let cases = BAD_PROJECTS
        .iter()
        .copied()
        .chain(BAD_PNGS.iter().map(|&p| (p, None)));
    for (name, line) in cases {
        let f = corpus(name);
        let f = f.to_str().unwrap();
        pathlab(&[f, "--screenshot", o]).refused(name, line);
        pathlab(&["convert", f, o]).refused(name, line);
    }
    assert!(!Path::new(o).exists());
    for valid in ["valid.ron", "valid.png", "wide_20000.png"] {
        pathlab(&["convert", corpus(valid).to_str().unwrap(), o]).succeeded();
    }
    // The 20,000-wide image became a .map pathlab reads back and searches across.
    let trace_out = out.join("wide.ron");
    let t = ["trace", "--map", o, "--start", "0,0", "--goal", "19999,1"];
    pathlab(&[&t[..], &["--out", trace_out.to_str().unwrap()]].concat()).succeeded();
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn bad_change_tapes_are_refused_naming_the_file() {
    use pathlab::experiment::behaviour::ChangeTape;
    for name in [
        "garbage.tape.ron",
        "decreasing_ticks.tape.ron",
        "cell_outside.tape.ron",
        "nan_cost.tape.ron",
        "zero_size.tape.ron",
        "newer.tape.ron",
    ] {
        let e = ChangeTape::load(&corpus(name)).expect_err(name).to_string();
        assert!(e.contains(name) && !e.contains('\n'), "{e}");
    }
    let (tape, size) = ChangeTape::load(&corpus("valid.tape.ron")).unwrap();
    assert_eq!((tape.events.len(), size), (2, (4, 4)));
}

/// A FIFO would block a reader forever and `/dev/zero` never ends: only regular files are read.
#[cfg(unix)]
#[test]
fn pipes_and_devices_are_refused_at_once() {
    let out = scratch("fifo");
    let fifo = out.join("pipe.map");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let fifo = fifo.to_str().unwrap();
    let scen = corpus("small.map.scen");
    let scen = scen.to_str().unwrap();
    let o = out.join("o.ron");
    let o = o.to_str().unwrap();
    for f in [fifo, "/dev/zero"] {
        if f == fifo {
            pathlab(&[f, "--screenshot", o]).refused(f, None);
            pathlab(&["convert", f, o]).refused(f, None);
        }
        pathlab(&["solve", "--map", f, "--scen", scen]).refused(f, None);
        let trace = [
            "trace", "--map", f, "--start", "0,0", "--goal", "1,1", "--out", o,
        ];
        pathlab(&trace).refused(f, None);
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// A 16,385-wide map opens and searches; a 2²⁷-cell map (16,384 × 8,192, 134 MB of rows) is
/// refused in one line by every command and the app, before anything is allocated for it.
#[test]
fn a_16385_wide_map_searches_and_a_2_27_cell_map_is_refused() {
    let out = scratch("big");
    let wide = out.join("wide.map");
    let mut text = String::from("type octile\nheight 2\nwidth 16385\nmap\n");
    for _ in 0..2 {
        text.push_str(&".".repeat(16385));
        text.push('\n');
    }
    std::fs::write(&wide, text).unwrap();
    let o = out.join("o.ron");
    let w = wide.to_str().unwrap();
    let t = [
        "trace", "--map", w, "--start", "0,0", "--goal", "16384,1", "--out",
    ];
    let r = pathlab(&[&t[..], &[o.to_str().unwrap()]].concat());
    r.succeeded();
    // 16,383 straight moves and one diagonal.
    assert!(r.stderr.contains("cost 16384.414214"), "{}", r.stderr);

    let big = out.join("big.map");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&big).unwrap());
        write!(f, "type octile\nheight 8192\nwidth 16384\nmap\n").unwrap();
        let row = format!("{}\n", ".".repeat(16384));
        for _ in 0..8192 {
            f.write_all(row.as_bytes()).unwrap();
        }
    }
    let b = big.to_str().unwrap();
    let scen = corpus("small.map.scen");
    let scen = scen.to_str().unwrap();
    let o = o.to_str().unwrap();
    pathlab(&[b, "--screenshot", o]).refused("big.map", Some(4));
    pathlab(&["solve", "--map", b, "--scen", scen]).refused("big.map", Some(4));
    let trace = [
        "trace", "--map", b, "--start", "0,0", "--goal", "1,1", "--out", o,
    ];
    pathlab(&trace).refused("big.map", Some(4));
    pathlab(&["convert", b, o]).refused("big.map", Some(4));
    std::fs::remove_dir_all(&out).unwrap();
}

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
    let all = [&map, &scen, &png, &ron, &vmap, &vscen];
    let before: Vec<Vec<u8>> = all.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let s = |p: &PathBuf| p.to_str().unwrap().to_string();
    let (m, sc, v, vs) = (s(&map), s(&scen), s(&vmap), s(&vscen));
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
        ) && text.contains("[A*; worlds: square, hex, voxel]"),
        "{text}"
    );
    // An OS error is said once.
    let r = pathlab(&["solve", "--map", "/no/such.map", "--scen", s]);
    r.refused("/no/such.map", None);
    assert_eq!(r.stderr.matches("os error").count(), 1, "{}", r.stderr);
}

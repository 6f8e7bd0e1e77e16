//! `pathlab agents`: the CSV header exactly as agreed, one row per method, heatmaps whose
//! panels and legend land in the PNG, counts that match the library's, and one clear line for
//! what it cannot do.

use crate::cli_support;
use cli_support::*;
use pathlab::crowd::{Batch, Method, World, LEVELS, MU};

const ROWS: [&str; 8] = [
    "..........@.........",
    "..@@@.....@....@@...",
    "..@.......@.........",
    "..@...@@@@@....@....",
    "......@.............",
    "......@....@@@@@....",
    "...........@........",
    "....................",
];

fn map(name: &str) -> String {
    map_file(name, &ROWS)
}

#[test]
fn agents_print_a_row_per_method_and_write_heatmaps_and_counts() {
    let m = map("agents.map");
    let (csv, png, counts) = (tmp("agents.csv"), tmp("agents.png"), tmp("counts.csv"));
    let out = succeeded(&pathlab(&[
        "agents",
        "--map",
        &m,
        "--agents",
        "300",
        "--seed",
        "4",
        "--method",
        "astar,pccp,flow",
        "--mu",
        "3",
        "--csv",
        &csv.display().to_string(),
        "--heatmap",
        &png.display().to_string(),
        "--counts",
        &counts.display().to_string(),
    ]));
    assert!(out.contains("300 random agents, seed 4"), "{out}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "method,backend,adapter,agents,batch_ms,agents_per_s,equal_costs"
    );
    assert_eq!(lines.len(), 4);
    for (line, name) in lines[1..].iter().zip(["astar", "pccp", "flow"]) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 7, "{line}");
        assert_eq!((f[0], f[1], f[3], f[6]), (name, "cpu", "300", "n/a"));
        assert!(f[2].starts_with("cpu ("), "{line}");
        assert!(f[4].parse::<f64>().unwrap() > 0.0);
        assert!(f[5].parse::<f64>().unwrap() > 0.0);
    }
    // Three panels side by side, each 20 cells × 25 pixels wide, with 8 pixels between.
    let img = image::open(&png).unwrap();
    assert_eq!(img.width(), 3 * 500 + 2 * 8);
    // The counts file holds the library's numbers for the same batch.
    let grid = pathlab::map::io::read_map(std::path::Path::new(&m)).unwrap();
    let world = World::new(&grid, &[Method::Astar], MU, LEVELS, &|_, _| {}).unwrap();
    let batch = Batch::random(&world.grid, 300, 4).unwrap();
    let o = pathlab::crowd::plan(&world, &batch, Method::Astar, 0, None)
        .unwrap()
        .unwrap();
    let counted: i64 = std::fs::read_to_string(&counts)
        .unwrap()
        .lines()
        .skip(1)
        .filter(|l| l.split(',').nth(2) == Some("astar"))
        .map(|l| l.split(',').nth(4).unwrap().parse::<i64>().unwrap())
        .sum();
    assert_eq!(counted, o.traffic.total());
    assert!(counted >= 300);
}

#[test]
fn agents_from_a_scenario_and_the_sweep() {
    let m = map("agents_scen.map");
    let scen = write(
        "agents.scen",
        "version 1\n0\tagents_scen.map\t20\t8\t0\t0\t19\t7\t1\n0\tagents_scen.map\t20\t8\t0\t7\t19\t0\t1\n",
    );
    let out = succeeded(&pathlab(&["agents", "--map", &m, "--scen", &scen]));
    assert!(out.contains("2 agents of"), "{out}");
    assert!(out.contains("2/2 found"), "{out}");
    let out = succeeded(&pathlab(&[
        "agents",
        "--map",
        &m,
        "--sweep",
        "10,100",
        "--method",
        "astar,flow",
    ]));
    let rows: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("method,"))
        .collect();
    assert_eq!(
        rows[0],
        "method,backend,adapter,batch,agents,batch_ms,agents_per_s,equal_costs,found,peak_rss_mb,search_ms,host_ms,host_tail_ms"
    );
    assert_eq!(rows.len(), 5, "{out}");
    assert!(rows[3].starts_with("astar,cpu,cpu ("), "{out}");
    assert!(rows[3].contains(",random,100,"), "{out}");
    assert!(rows[4].contains(",16 goals,100,"), "{out}");
}

#[test]
fn agents_refuse_what_they_cannot_do_in_one_line() {
    let m = map("agents_bad.map");
    let scen = write(
        "agents_bad.scen",
        "version 1\n0\tx.map\t20\t8\t0\t0\t19\t7\t1\n0\tx.map\t20\t8\t10\t0\t19\t7\t1\n",
    );
    let err = one_clean_line(&pathlab(&["agents", "--map", &m, "--scen", &scen]));
    assert!(
        err.contains("agents_bad.scen:3: cell (10, 0) is blocked"),
        "{err}"
    );
    let err = one_clean_line(&pathlab(&["agents", "--map", &m]));
    assert!(err.contains("--agents"), "{err}");
    // Out-of-range numbers are refused before anything is built or allocated.
    for bad in [
        &["--agents", "0"][..],
        &["--agents", "4000000000"],
        &["--agents", "5", "--goals", "0"],
        &["--agents", "5", "--method", "pccp", "--levels", "0"],
        &["--agents", "5", "--method", "pccp", "--mu", "1"],
    ] {
        let mut a = vec!["agents", "--map", &m];
        a.extend_from_slice(bad);
        assert!(!pathlab(&a).status.success(), "{bad:?} accepted");
    }
    // Outputs are checked before planning: the same file twice, or a missing folder.
    let same = tmp("same.out").display().to_string();
    let err = one_clean_line(&pathlab(&[
        "agents",
        "--map",
        &m,
        "--agents",
        "5",
        "--csv",
        &same,
        "--heatmap",
        &same,
    ]));
    assert!(err.contains("name the same file"), "{err}");
    assert!(!std::path::Path::new(&same).exists());
    let err = one_clean_line(&pathlab(&[
        "agents",
        "--map",
        &m,
        "--agents",
        "5",
        "--csv",
        "/nonexistent/dir/a.csv",
    ]));
    assert!(err.contains("no such directory"), "{err}");
}

#[test]
fn every_method_on_both_backends_agrees_or_says_why_the_gpu_is_missing() {
    let m = map("agents_gpu.map");
    let csv = tmp("agents_gpu.csv");
    let out = pathlab(&[
        "agents",
        "--map",
        &m,
        "--agents",
        "500",
        // More goals than one field's rounds: each goal settles on its own.
        "--goals",
        "40",
        "--method",
        "astar,pccp,flow",
        "--backend",
        "both",
        "--csv",
        &csv.display().to_string(),
    ]);
    let stdout = succeeded(&out);
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let gpu: Vec<&Vec<&str>> = rows.iter().filter(|f| f[1] == "gpu").collect();
    if gpu.is_empty() {
        // Only where no adapter exists, with a notice; never on CI (lavapipe is there).
        assert!(std::env::var_os("CI").is_none(), "no GPU row on CI: {text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("planning flow on the CPU"), "{err}");
        return;
    }
    let methods: Vec<(&str, &str)> = rows.iter().map(|f| (f[0], f[1])).collect();
    assert_eq!(
        methods,
        [
            ("astar", "cpu"),
            ("astar", "gpu"),
            ("pccp", "cpu"),
            ("pccp", "gpu"),
            ("flow", "cpu"),
            ("flow", "gpu")
        ],
        "{text}"
    );
    for f in gpu {
        assert_eq!((f[3], f[6]), ("500", "true"), "{text}");
    }
    assert_eq!(
        stdout.matches("every cost equals the CPU twin's").count(),
        3,
        "{stdout}"
    );
}

/// Outputs never replace a device, a FIFO or an input, and a refused output leaves no other
/// behind: `/dev/null` stays a character device (written in place), a FIFO nobody reads is
/// refused at once, a link stays a link, and an output naming the map is refused before any
/// planning with no CSV written.
#[test]
fn outputs_are_written_in_place_into_devices_and_never_over_inputs() {
    use std::os::unix::fs::FileTypeExt;
    let m = map("agents_out.map");
    let is_char_device =
        || std::fs::metadata("/dev/null").is_ok_and(|md| md.file_type().is_char_device());
    assert!(is_char_device());
    let png = tmp("agents_out.png");
    let _ = std::fs::remove_file(&png);
    succeeded(&pathlab(&[
        "agents",
        "--map",
        &m,
        "--agents",
        "20",
        "--csv",
        "/dev/null",
        "--heatmap",
        &png.display().to_string(),
    ]));
    assert!(is_char_device(), "/dev/null was replaced");
    assert!(png.exists());
    // A FIFO with no reader: one line, at once, and the FIFO is still a FIFO.
    let fifo = tmp("agents_out.fifo");
    let _ = std::fs::remove_file(&fifo);
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let beside = tmp("agents_out_beside.png");
    let _ = std::fs::remove_file(&beside);
    let err = one_clean_line(&pathlab(&[
        "agents",
        "--map",
        &m,
        "--agents",
        "20",
        "--heatmap",
        &beside.display().to_string(),
        "--csv",
        &fifo.display().to_string(),
    ]));
    assert!(
        !beside.exists(),
        "an output was written beside the refused FIFO"
    );
    assert!(
        err.contains("agents_out.fifo") && err.contains("nobody reads"),
        "{err}"
    );
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // Through a link: the file it names is written, the link stays.
    let target = tmp("agents_out_target.csv");
    let link = tmp("agents_out_link.csv");
    let _ = std::fs::remove_file(&link);
    std::fs::write(&target, "old").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    succeeded(&pathlab(&[
        "agents",
        "--map",
        &m,
        "--agents",
        "20",
        "--csv",
        &link.display().to_string(),
    ]));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .starts_with("method,"));
    // The map as an output: refused before planning, and the CSV beside it not written.
    let before = std::fs::read(&m).unwrap();
    let csv = tmp("agents_out_first.csv");
    let _ = std::fs::remove_file(&csv);
    let err = one_clean_line(&pathlab(&[
        "agents",
        "--map",
        &m,
        "--agents",
        "20",
        "--csv",
        &csv.display().to_string(),
        "--heatmap",
        &m,
    ]));
    assert!(err.contains("agents_out.map"), "{err}");
    assert!(!csv.exists(), "an earlier output was left behind");
    assert_eq!(std::fs::read(&m).unwrap(), before);
}

/// `/dev/stdout` is the process's own output, whatever it leads to: redirected into a file, the
/// CSV follows what was printed before instead of replacing the file.
#[test]
fn a_csv_to_dev_stdout_follows_the_printed_lines() {
    let m = map("agents_stdout.map");
    let log = tmp("agents_stdout.log");
    let file = std::fs::File::create(&log).unwrap();
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .args([
            "agents",
            "--map",
            &m,
            "--agents",
            "10",
            "--csv",
            "/dev/stdout",
        ])
        .stdout(file)
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("10 random agents"), "{text}");
    assert!(text.contains("method,backend,adapter"), "{text}");
    assert!(std::fs::metadata(&log).unwrap().is_file());
}

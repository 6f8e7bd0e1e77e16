//! The bad-input corpus (`tests/bad_input/`, plus files too big or too special to keep, made
//! here) against every command and the app's `--screenshot` path. Each run must end with one
//! line naming the file (and line, where there is one) and a non-zero exit, or succeed on a valid
//! world: never a panic, an abort, a hang or a silent success.

use crate::refusal;

use refusal::*;
use std::path::Path;
use std::process::Command;

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

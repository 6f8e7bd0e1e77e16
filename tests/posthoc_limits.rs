//! Hostile trace files end in one line and a non-zero exit within seconds, or in a correct
//! result: a FIFO and a device are refused before they are opened, a file past the size limit
//! before it is read, a byte-order mark is skipped, views whose expressions would take minutes
//! over their events are cut (naming the expression), a context read by every event and
//! thousands of event types are read quickly, and `--compare` says a file holding `.nan` is
//! the same as itself.

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn tmp(name: &str) -> PathBuf {
    let d = crate::support::scratch_root().join("pathlab-posthoc-limits");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// `pathlab ARGS` and how long it took; a run past a minute fails the test.
fn pathlab(args: &[&std::ffi::OsStr]) -> (Output, Duration) {
    let t = Instant::now();
    let args: Vec<std::ffi::OsString> = args.iter().map(|a| a.to_os_string()).collect();
    let shown = format!("{args:?}");
    let (tx, rx) = std::sync::mpsc::channel();
    // The output is read as it comes (a pipe left unread would stall a long report).
    std::thread::spawn(move || {
        let out = Command::new(env!("CARGO_BIN_EXE_pathlab"))
            .args(&args)
            .output();
        let _ = tx.send(out);
    });
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(out) => (out.unwrap(), t.elapsed()),
        Err(_) => panic!("pathlab {shown} ran for more than a minute"),
    }
}

fn check(file: &Path) -> (Output, Duration) {
    pathlab(&["trace".as_ref(), "--check".as_ref(), file.as_os_str()])
}

/// Refused in one line naming the file, with `what`, exit 2.
fn refused(file: &Path, (out, took): (Output, Duration), what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}: {err}", file.display());
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains(&file.display().to_string()) && err.contains(what),
        "{err}"
    );
    assert!(took < Duration::from_secs(60), "{took:?}");
}

#[cfg(unix)]
#[test]
fn fifos_devices_and_huge_files_are_refused_before_reading() {
    let fifo = tmp("pipe.trace.yaml");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    refused(&fifo, check(&fifo), "not a regular file");
    let zero = tmp("zero.trace.yaml");
    let _ = std::fs::remove_file(&zero);
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    refused(&zero, check(&zero), "not a regular file");
    // 600 MB (sparse: no disk used), past the 512 MiB limit.
    let big = tmp("big.trace.yaml");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(600 << 20)
        .unwrap();
    refused(&big, check(&big), "512 MiB");
    std::fs::remove_file(&big).unwrap();
    // Comparing reads through the same checks.
    let ok = tmp("ok.trace.yaml");
    std::fs::write(&ok, "events: []\n").unwrap();
    let out = pathlab(&[
        "trace".as_ref(),
        "--compare".as_ref(),
        ok.as_os_str(),
        fifo.as_os_str(),
    ]);
    refused(&fifo, out, "not a regular file");
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let f = tmp("bom.trace.yaml");
    std::fs::write(
        &f,
        "\u{feff}version: 1.4.0\nevents:\n  - { type: source, id: 0 }\n",
    )
    .unwrap();
    let (out, _) = check(&f);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("1 events (1.4.0)"), "{text}");
}

/// The rect components of a 1.4.0 view, then `n` events on a 64×64 map.
fn trace(components: &str, n: usize, event: impl Fn(usize) -> String) -> String {
    let mut s = format!("version: 1.4.0\nviews:\n  main:\n{components}events:\n");
    for i in 0..n {
        let _ = writeln!(s, "  - {}", event(i));
    }
    s
}

#[test]
fn views_that_would_take_minutes_are_cut_naming_the_expression() {
    // 3,000 components that never apply × 40,000 events: 120 million conditions.
    let mut comps = String::new();
    for k in 0..3000 {
        let _ = writeln!(
            comps,
            "    - {{ $: rect, $if: \"${{{{ $.type == 'never{k}' }}}}\", x: 0, y: 0 }}"
        );
    }
    let f = tmp("many.trace.yaml");
    std::fs::write(
        &f,
        trace(&comps, 40_000, |i| {
            format!("{{ type: expanding, id: {i}, x: {}, y: 0 }}", i % 64)
        }),
    )
    .unwrap();
    refused(&f, check(&f), "stopped evaluating `$.type == 'never");

    // Text built up: each event concatenates a 64 KiB string 200 times.
    let big = "a".repeat(64 << 10);
    let sum = vec!["$.s"; 200].join(" + ");
    let comps = format!("    - {{ $: rect, x: \"${{{{ ({sum}).length }}}}\", y: 0 }}\n");
    let f = tmp("concat.trace.yaml");
    std::fs::write(
        &f,
        trace(&comps, 200, |i| {
            format!("{{ type: expanding, id: {i}, s: {big} }}")
        }),
    )
    .unwrap();
    refused(&f, check(&f), "stopped evaluating `($.s + $.s");
}

#[test]
fn a_large_context_and_thousands_of_types_are_read_quickly() {
    // The earlier form, a context of 100,000 values that every event's position reads.
    let mut s = String::from("version: 1.0.5\nrender:\n  context:\n    big: [");
    for i in 0..100_000 {
        let _ = write!(s, "{i}, ");
    }
    s.push_str("0]\n  views:\n    main:\n      components:\n        - { $: rect, x: \"{{ ctx.big.length > 5 && $.big.length > 5 ? $.event.x : -1 }}\", y: \"{{ $.event.y }}\" }\nevents:\n");
    for i in 0..20_000 {
        let _ = writeln!(s, "  - {{ type: expanding, id: {i}, x: {}, y: 1 }}", i % 64);
    }
    let f = tmp("context.trace.yaml");
    std::fs::write(&f, &s).unwrap();
    let map = tmp("wide.map");
    std::fs::write(
        &map,
        format!(
            "type octile\nheight 2\nwidth 64\nmap\n{0}\n{0}\n",
            ".".repeat(64)
        ),
    )
    .unwrap();
    let (out, took) = pathlab(&[
        "trace".as_ref(),
        "--check".as_ref(),
        f.as_os_str(),
        "--map".as_ref(),
        map.as_os_str(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("20000 of 20000 events about a node; 0 could not be placed"),
        "{text}"
    );
    assert!(took < Duration::from_secs(20), "{took:?}");

    // 20,000 distinct event types over 60,000 events: each kept, the notes a few lines.
    let f = tmp("types.trace.yaml");
    let mut s = String::from("events:\n");
    for i in 0..60_000 {
        let _ = writeln!(s, "  - {{ type: kind{}, id: {i} }}", i % 20_000);
    }
    std::fs::write(&f, &s).unwrap();
    let (out, took) = check(&f);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("  kind19999: 3\n"),
        "{}",
        text.chars().take(500).collect::<String>()
    );
    let notes = text.lines().filter(|l| l.starts_with("note:")).count();
    assert!(notes < 20, "{notes} notes");
    assert!(text.contains("19992 more event types"), "{text}");
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn compare_holds_a_file_with_nan_the_same_as_itself() {
    let f = tmp("nan.trace.yaml");
    std::fs::write(
        &f,
        "events:\n  - { type: source, id: 1, g: .nan, f: [.nan, 1] }\n  - { type: expanding, id: 1, g: .NaN }\n",
    )
    .unwrap();
    let (out, _) = pathlab(&[
        "trace".as_ref(),
        "--compare".as_ref(),
        f.as_os_str(),
        f.as_os_str(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("hold the same events"), "{text}");
    // NaN against a number still differs.
    let g = tmp("num.trace.yaml");
    std::fs::write(
        &g,
        "events:\n  - { type: source, id: 1, g: .nan, f: [.nan, 1] }\n  - { type: expanding, id: 1, g: 0 }\n",
    )
    .unwrap();
    let (out, _) = pathlab(&[
        "trace".as_ref(),
        "--compare".as_ref(),
        f.as_os_str(),
        g.as_os_str(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("event 2 differs (g differ)"), "{text}");
}

//! What the command-line suites share: running the binary, temporary files, and the one-line
//! error contract.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

pub fn pathlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .args(args)
        .output()
        .expect("runs")
}

/// The stdout of a command that must have succeeded (its stderr in the failure message).
pub fn succeeded(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A path in a folder of the calling suite's own (named for its file), so that suites sharing
/// a test binary never meet in it.
#[track_caller]
pub fn tmp(name: &str) -> PathBuf {
    let suite = std::path::Path::new(std::panic::Location::caller().file())
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("suite");
    let d = crate::support::scratch_root().join(format!("pathlab-cli-{suite}"));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[track_caller]
pub fn write(name: &str, text: &str) -> String {
    let p = tmp(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

pub fn one_clean_line(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "should fail: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("internal error"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    err
}

pub const MAP: &str = "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n";

/// `rows` written as a MovingAI map named `name`; its path.
#[track_caller]
pub fn map_file(name: &str, rows: &[&str]) -> String {
    let text = format!(
        "type octile\nheight {}\nwidth {}\nmap\n{}\n",
        rows.len(),
        rows[0].len(),
        rows.join("\n")
    );
    write(name, &text)
}

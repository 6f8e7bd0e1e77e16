//! What the bad-input suites share: the corpus, a scratch folder per test, and running the
//! binary under a time limit with the one-line refusal checked.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bad_input")
        .join(name)
}

pub fn scratch(test: &str) -> PathBuf {
    let d = crate::support::scratch_root().join(format!("pathlab-bad-{test}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub struct Outcome {
    pub code: i32,
    pub stderr: String,
    pub what: String,
}

/// Runs pathlab with `args`; a run that takes over 60 s is a hang and fails the test.
pub fn pathlab(args: &[&str]) -> Outcome {
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
    pub fn refused(&self, file: &str, line: Option<usize>) {
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

    pub fn succeeded(&self) {
        assert_eq!(self.code, 0, "{}: {}", self.what, self.stderr);
    }
}

//! `trace --compare` of two large traces reads their events a pair at a time: two 50 MB
//! traces take their texts' memory and little more, where trees of every event took about
//! twenty times the text. The peak measured is the child's own (its high-water mark), so other
//! tests running beside it do not count.

#[cfg(target_os = "linux")]
#[test]
fn comparing_two_large_traces_stays_within_a_few_times_their_size() {
    use std::fmt::Write;
    let dir = crate::support::scratch_root().join("pathlab-compare-mem");
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::from("version: 1.4.0\nevents:\n");
    let mut i = 0u64;
    while text.len() < 50 << 20 {
        let _ = writeln!(
            text,
            "  - {{ type: expanding, id: {i}, pId: {}, x: {}, y: {}, g: {}.5, f: {}.25 }}",
            i / 3,
            i % 1000,
            i / 1000,
            i,
            i + 7
        );
        i += 1;
    }
    let (a, b) = (dir.join("a.trace.yaml"), dir.join("b.trace.yaml"));
    std::fs::write(&a, &text).unwrap();
    // The same events but the last, so the whole of both is read.
    let last = text.rfind("  - {").unwrap();
    text.truncate(last);
    text.push_str("  - { type: expanding, id: 0, g: 1 }\n");
    std::fs::write(&b, &text).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .args(["trace", "--compare"])
        .args([&a, &b])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).unwrap();
        s
    });
    // The child's own peak, read from its high-water mark while it runs (the mark only rises,
    // so the last reading before it exits is its peak). Not `getrusage` or `wait4`: a child
    // inherits at exec the peak of the process that spawned it, here a binary of many tests.
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    let status = loop {
        if let Some(kib) = std::fs::read_to_string(&status_file).ok().and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        }) {
            peak_kib = peak_kib.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let stdout = reader.join().unwrap();
    assert_eq!(status.code(), Some(1), "{stdout}");
    assert!(peak_kib > 0, "no reading of the child's memory");
    assert!(stdout.contains(&format!("event {i} differs")), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
    // Two 50 MiB texts, and the events of one pair at a time.
    assert!(
        peak_kib < 400 << 10,
        "comparing two 50 MiB traces peaked at {} MiB",
        peak_kib >> 10
    );
}

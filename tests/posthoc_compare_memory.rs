//! `trace --compare` of two large traces reads their events a pair at a time: two 50 MB
//! traces take their texts' memory and little more, where trees of every event took about
//! twenty times the text. (Alone in its file: the peak memory measured is that of this
//! binary's children.)

#[cfg(target_os = "linux")]
#[test]
fn comparing_two_large_traces_stays_within_a_few_times_their_size() {
    use std::fmt::Write;
    let dir = std::env::temp_dir().join(format!("pathlab-compare-mem-{}", std::process::id()));
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
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .args(["trace", "--compare"])
        .args([&a, &b])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains(&format!("event {i} differs")), "{stdout}");
    let peak_kib = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, &mut u), 0);
        u.ru_maxrss as u64
    };
    std::fs::remove_dir_all(&dir).unwrap();
    // Two 50 MiB texts, and the events of one pair at a time.
    assert!(
        peak_kib < 400 << 10,
        "comparing two 50 MiB traces peaked at {} MiB",
        peak_kib >> 10
    );
}

//! A trace the run read is an input like a map: once the guard is on (every command, and the
//! app's `--screenshot` and `--svg`), no output of the run replaces it — the app's
//! `M.map --trace T.trace.yaml --screenshot T.trace.yaml` used to overwrite the trace and exit
//! 0. (Its own file: the guard stays on for the rest of the process.)

use pathlab::trace::posthoc_in::{read, Target};

#[test]
fn a_trace_read_is_never_replaced_by_an_output() {
    let dir = crate::support::scratch_root().join("pathlab-posthoc-guard");
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("t.trace.yaml");
    let text = "version: 1.4.0\nevents:\n  - { type: source, id: 0 }\n";
    std::fs::write(&trace, text).unwrap();
    pathlab::map::io::guard_inputs();
    let t = read(&trace, &Target::squares(4, 4)).unwrap();
    assert_eq!(t.events.len(), 1);
    // The writer every output goes through (the screenshot's PNG, the SVG, `trace --out`),
    // however the path is spelled.
    for spelled in [trace.clone(), dir.join(".").join("t.trace.yaml")] {
        let e = pathlab::map::io::write_atomic(&spelled, b"\x89PNG")
            .unwrap_err()
            .to_string();
        assert!(e.contains("never replaces an input"), "{e}");
    }
    assert_eq!(std::fs::read_to_string(&trace).unwrap(), text);
    // Another file is written.
    let other = dir.join("shot.png");
    pathlab::map::io::write_atomic(&other, b"\x89PNG").unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

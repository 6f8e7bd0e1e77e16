//! File ▸ Open trace refuses a trace recorded on another world in one line saying why, and
//! adds no view: one whose events are drawn outside the open map (a bigger map's), one that
//! searches the open map's walls, one drawn nowhere on it. A trace of this world still opens.

use crate::common;

use common::{default_app, harness};
use pathlab::app::Command;
use pathlab::space::Space;

#[test]
fn a_trace_of_another_world_is_refused_and_adds_no_view() {
    let dir = crate::support::scratch_root().join("pathlab-app-trace-world");
    std::fs::create_dir_all(&dir).unwrap();
    let (grid, ..) = pathlab::builtin::default_world();
    let space = pathlab::space::GridSpace::octile(&grid);
    let (w, h) = (space.width(), space.height());
    let wall = (0..w * h).find(|&n| !space.is_passable(n)).unwrap();
    let open: Vec<u32> = (0..w * h)
        .filter(|&n| space.is_passable(n))
        .take(3)
        .collect();
    let view = "version: 1.4.0\nviews:\n  main:\n    - { $: rect, x: \"${{ $.x }}\", y: \"${{ $.y }}\" }\nevents:\n";
    let ev = |ty: &str, n: u32| {
        format!(
            "  - {{ type: {ty}, id: {n}, x: {}, y: {} }}\n",
            n % w,
            n / w
        )
    };
    let mut h = harness(default_app());
    h.run();
    let mut open_one = |name: &str, body: String| {
        let f = dir.join(name);
        std::fs::write(&f, format!("{view}{body}")).unwrap();
        h.state_mut().apply(Command::OpenTrace(Some(f)));
        h.run();
        (h.state().views().len(), h.state().status().to_string())
    };
    // A 512-wide map's trace: drawn past this map's edge.
    let far = format!(
        "{}  - {{ type: expanding, id: 9, x: {}, y: 3 }}\n",
        ev("source", open[0]),
        w + 100
    );
    let (views, status) = open_one("far.trace.yaml", far);
    assert_eq!(views, 1, "{status}");
    assert!(
        status.contains("far.trace.yaml: not opened: 1 of its events are drawn outside this")
            && status.contains("recorded on another world"),
        "{status}"
    );
    assert_eq!(status.lines().count(), 1);
    // Expanding a wall of this map.
    let walls = format!("{}{}", ev("source", open[0]), ev("expanding", wall));
    let (views, status) = open_one("walls.trace.yaml", walls);
    assert_eq!(views, 1, "{status}");
    assert!(
        status.contains("it searches 1 nodes that are walls"),
        "{status}"
    );
    // Drawn nowhere: positions in another form than this world's.
    let nowhere = "  - { type: source, id: 1, at: [1, 2] }\n".to_string();
    let (views, status) = open_one("nowhere.trace.yaml", nowhere);
    assert_eq!(views, 1, "{status}");
    assert!(status.contains("none of its 1 events is drawn"), "{status}");
    // A trace of this world opens beside the run.
    let fits = format!("{}{}", ev("source", open[0]), ev("expanding", open[1]));
    let (views, status) = open_one("fits.trace.yaml", fits);
    assert_eq!(views, 2, "{status}");
    std::fs::remove_dir_all(&dir).unwrap();
}

//! Traces written by other tools, in Posthoc's earlier `render:` form: a tutorial-style A*
//! on a 5×5 map with a wall cross (`posthoc_fixtures/`, shaped as Posthoc's own tutorial
//! trace: `{{$.event.x}}` positions, ids numbering the cells of a wider map, a sentinel root
//! parent) is placed event for event on its map and its path rebuilt from the end's parents;
//! ids never place an event unless drawn events show that they name cells; numeric text is a
//! number; a second YAML document is refused; `trace --check` says how many events it placed.

use pathlab::search::{Query, Status};
use pathlab::space::{GridSpace, Space};
use pathlab::trace::posthoc_in::{import, Target};
use pathlab::trace::{EventKind, NONE};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/posthoc_fixtures")
        .join(name)
}

fn tmp(name: &str) -> PathBuf {
    let d = crate::support::scratch_root().join("pathlab-posthoc-foreign");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// Each event's (type, x, y) as the fixture writes them, read line by line (not by the code
/// under test).
fn written_cells(text: &str) -> Vec<(String, u32, u32)> {
    let mut out = vec![];
    let mut cur: Option<(String, Option<u32>, Option<u32>)> = None;
    let flush = |c: Option<(String, Option<u32>, Option<u32>)>, out: &mut Vec<_>| {
        if let Some((t, Some(x), Some(y))) = c {
            out.push((t, x, y));
        }
    };
    for line in text.lines() {
        if let Some(t) = line.strip_prefix("- type: ") {
            flush(cur.take(), &mut out);
            cur = Some((t.trim().to_string(), None, None));
        } else if let (Some(c), Some(v)) = (cur.as_mut(), line.strip_prefix("  x: ")) {
            c.1 = v.trim().parse().ok();
        } else if let (Some(c), Some(v)) = (cur.as_mut(), line.strip_prefix("  y: ")) {
            c.2 = v.trim().parse().ok();
        }
    }
    flush(cur, &mut out);
    out
}

#[test]
fn a_tutorial_trace_in_the_render_form_is_placed_on_its_map() {
    let text = std::fs::read_to_string(fixture("plus-example.trace.yaml")).unwrap();
    let want = written_cells(&text);
    assert_eq!(want.len(), 54, "the fixture's events");
    let t = import(&text, &Target::squares(5, 5)).unwrap_or_else(|(l, w)| panic!("{l}: {w}"));
    // The trace's own events, in order, each on the cell its view draws it on.
    let own: Vec<_> = t
        .events
        .iter()
        .filter(|e| !(e.kind == EventKind::PathNode))
        .collect();
    assert_eq!(own.len(), want.len());
    for (i, (e, (ty, x, y))) in own.iter().zip(&want).enumerate() {
        assert_eq!(e.node, y * 5 + x, "event {i} ({ty}) at ({x}, {y})");
    }
    assert_eq!((t.placed, t.about_nodes, t.off_map), (54, 54, 0));
    // A parent is the cell its id was drawn on (the root's sentinel parent is none).
    let gen = own.iter().find(|e| e.kind == EventKind::Generate).unwrap();
    assert_eq!(gen.other, 0);

    // The path: rebuilt from the end's parents, a chain of moves around the cross from the
    // source to the goal, as long as A* finds on the same map.
    let path: Vec<_> = t
        .events
        .iter()
        .filter(|e| e.kind == EventKind::PathNode)
        .collect();
    assert_eq!(t.rebuilt_path, path.len());
    let grid = pathlab::map::io::read_map(&fixture("plus.grid")).unwrap();
    let space = GridSpace::octile(&grid);
    assert_eq!(path.first().unwrap().node, 0);
    assert_eq!(path.last().unwrap().node, 24);
    let mut cost = 0.0;
    for w in path.windows(2) {
        let (a, b) = (w[0].node, w[1].node);
        assert_eq!(w[1].other, a, "each path event names the one before");
        let step = space
            .neighbours(a)
            .find(|&(m, _)| m == b)
            .unwrap_or_else(|| panic!("{a} → {b} is no move of the map"))
            .1;
        cost += step;
    }
    let mut astar =
        pathlab::algorithms::build("astar", &space, Query { start: 0, goal: 24 }).unwrap();
    assert_eq!(
        astar.run_record(
            &space,
            &mut pathlab::trace::Recorder::for_space(&space, &[])
        ),
        Status::Found
    );
    assert!((cost - astar.cost().unwrap()).abs() < 1e-9, "{cost}");
    let end = t.events.last().unwrap();
    assert_eq!(end.kind, EventKind::Found);
    assert!((end.a as f64 - cost).abs() < 1e-4, "the end's g {}", end.a);

    // What `trace --check` says of it.
    let out = Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .args(["trace", "--check"])
        .arg(fixture("plus-example.trace.yaml"))
        .arg("--map")
        .arg(fixture("plus.grid"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("54 events (1.0.5)")
            && stdout.contains("54 of 54 events about a node; 0 could not be placed"),
        "{stdout}"
    );
}

#[test]
fn an_astar_example_with_optional_chaining_is_placed_by_its_positions() {
    // Shaped as Posthoc's A* example of format 1.0.5: a leading `---`, `?.` and `??`, null
    // parents, ids of a 96-wide map.
    let text = "---\nversion: 1.0.5\nrender:\n  components:\n  views:\n    main:\n      components:\n        - $: rect\n          fill: \"{{ $.color[$.event.type] }}\"\n          width: 1\n          height: 1\n          x: \"{{ $.event?.x ?? 0 }}\"\n          y: \"{{ $.event?.y ?? 0 }}\"\npath:\n  pivot:\n    x: \"{{ $.event.x }}\"\n    y: \"{{ $.event.y }}\"\n  scale: 1\nevents:\n  - { type: source, id: 197, x: 5, y: 2 }\n  - { type: generating, id: 197, g: 0, f: 3, pId:, x: 5, y: 2 }\n  - { type: expanding, id: 197, g: 0, f: 3, pId:, x: 5, y: 2 }\n  - { type: generating, id: 198, g: 1, f: 3, pId: 197, x: 6, y: 2 }\n  - { type: end, id: 198, g: 1, f: 1, pId: 197, x: 6, y: 2 }\n";
    let t = import(text, &Target::squares(8, 4)).unwrap_or_else(|(l, w)| panic!("{l}: {w}"));
    let nodes: Vec<u32> = t.events.iter().map(|e| e.node).collect();
    // Two path events (rebuilt) before the end.
    assert_eq!(nodes, [21, 21, 21, 22, 21, 22, 22]);
    assert_eq!(t.events[3].other, 21);
    assert_eq!((t.placed, t.about_nodes), (5, 5));
}

#[test]
fn ids_never_place_events_the_view_does_not_show_on_their_cells() {
    // The view's positions are beyond what pathlab evaluates (a function call): nothing is
    // drawn, and ids that happen to be in range are not taken for cells.
    let text = "version: 1.4.0\nviews:\n  main:\n    - { $: rect, x: \"${{ Math.floor($.x) }}\", y: \"${{ $.y }}\" }\nevents:\n  - { type: source, id: 3, x: 1, y: 1 }\n  - { type: expanding, id: 3, x: 1, y: 1 }\n  - { type: generating, id: 7, pId: 3, x: 2, y: 1 }\n";
    let t = import(text, &Target::squares(4, 4)).unwrap();
    assert!(t.events.iter().all(|e| e.node == NONE), "{:?}", t.events);
    assert_eq!((t.placed, t.about_nodes), (0, 3));
    assert!(
        t.notes.iter().any(|n| n.contains("Math.floor")),
        "{:?}",
        t.notes
    );
    // Drawn events whose ids are not their cells: an event the view skips is not placed by
    // its id (id 5 is a cell of this map, but ids here are not cells).
    let text = "version: 1.4.0\nviews:\n  main:\n    - { $: rect, $if: \"${{ $.type != 'line' }}\", x: \"${{ $.x }}\", y: \"${{ $.y }}\" }\nevents:\n  - { type: source, id: 9, x: 0, y: 0 }\n  - { type: line-of-sight, id: 5, x: 1, y: 1 }\n  - { type: line, id: 5 }\n";
    let t = import(text, &Target::squares(4, 4)).unwrap();
    assert_eq!(t.events[0].node, 0);
    assert_eq!(t.events[1].node, 5, "drawn on (1, 1)");
    assert_eq!(t.events[2].node, 5, "id 5 was last drawn on (1, 1)");
    let text = "version: 1.4.0\nviews:\n  main:\n    - { $: rect, $if: \"${{ $.type != 'line' }}\", x: \"${{ $.x }}\", y: \"${{ $.y }}\" }\nevents:\n  - { type: source, id: 9, x: 0, y: 0 }\n  - { type: line, id: 6 }\n";
    let t = import(text, &Target::squares(4, 4)).unwrap();
    assert_eq!(t.events[1].node, NONE);
    // Where every drawn id is its cell (pathlab's own exports), undrawn events go by id.
    let text = "version: 1.4.0\nviews:\n  main:\n    - { $: rect, $if: \"${{ $.type != 'line' }}\", x: \"${{ $.x }}\", y: \"${{ $.y }}\" }\nevents:\n  - { type: source, id: 0, x: 0, y: 0 }\n  - { type: line, id: 6 }\n";
    let t = import(text, &Target::squares(4, 4)).unwrap();
    assert_eq!(t.events[1].node, 6);
}

#[test]
fn numeric_text_is_read_as_numbers() {
    let text = "events:\n  - { type: source, id: \"4\", g: \"0.0\", f: \" 2.5 \" }\n  - { type: expanding, id: 4, g: \"1e-3\" }\n";
    let t = import(text, &Target::squares(4, 4)).unwrap();
    assert_eq!((t.events[0].a, t.events[0].b), (0.0, 2.5));
    assert_eq!(t.events[1].a, 1e-3);
    // Text that is no number is still refused, naming its line.
    let (line, why) = import(
        "events:\n  - { type: source, id: 1 }\n  - { type: expanding, id: 1, g: \"0.0.1\" }\n",
        &Target::squares(4, 4),
    )
    .unwrap_err();
    assert_eq!(line, 3);
    assert!(why.contains("not a number"), "{why}");
}

#[test]
fn a_second_yaml_document_is_refused_with_its_line() {
    let path = tmp("two.trace.yaml");
    std::fs::write(
        &path,
        "version: 1.4.0\nevents:\n  - { type: source, id: 1 }\n---\nevents: []\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .args(["trace", "--check"])
        .arg(&path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("{}:4:", path.display())) && err.contains("second YAML document"),
        "{err}"
    );
    // One document that starts with `---` is read.
    std::fs::write(&path, "---\nversion: 1.4.0\nevents: []\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .args(["trace", "--check"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

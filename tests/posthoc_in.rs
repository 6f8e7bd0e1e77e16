//! Posthoc traces read back: every algorithm's run on the built-in map (and on hexes, and a D*
//! Lite repair) exported as pathlab writes it and read again gives the same events, bit for
//! bit, and a recorder fed them steps through the same states; traces in Posthoc's other
//! forms (the `render:` form, JSON, ids that are not cells) are placed by their views; 20
//! malformed files each get one line naming the file and the line; `trace --compare` says
//! where two traces differ.

use pathlab::algorithms;
use pathlab::search::{Query, Status};
use pathlab::space::{GridSpace, HexOrientation, HexSpace, Space};
use pathlab::trace::posthoc::{to_yaml, Layout};
use pathlab::trace::posthoc_in::{import, Place, Target};
use pathlab::trace::{Event, EventKind, Recorder};
use std::path::PathBuf;
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    let d = crate::support::scratch_root().join("pathlab-posthoc-in");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// Events equal bit for bit (NaN equal to NaN).
fn same(a: &Event, b: &Event) -> bool {
    let f = |x: f32, y: f32| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
    a.kind == b.kind && a.node == b.node && a.other == b.other && f(a.a, b.a) && f(a.b, b.b)
}

/// Exports `rec`, reads it back and checks every event and every step's states.
fn round_trip(name: &str, rec: &mut Recorder, layout: Layout, place: Place) {
    let yaml = to_yaml(rec, layout);
    let square = match place {
        Place::Cells { w, h, .. } => Some((w, h)),
        _ => None,
    };
    let target = Target {
        nodes: rec.num_nodes(),
        square,
        place,
    };
    let back = import(&yaml, &target).unwrap_or_else(|(l, why)| panic!("{name}: line {l}: {why}"));
    let original: Vec<Event> = rec.iter().collect();
    assert_eq!(back.events.len(), original.len(), "{name}: event count");
    for (i, (a, b)) in original.iter().zip(&back.events).enumerate() {
        assert!(same(a, b), "{name}: event {i}: {a:?} read back as {b:?}");
    }
    assert!(back.others.is_empty(), "{name}: {:?}", back.others);
    let mut again = Recorder::for_ids(rec.num_nodes(), None, &[]);
    for e in &back.events {
        pathlab::trace::Tracer::event(&mut again, *e);
    }
    assert_eq!(again.steps(), rec.steps(), "{name}: steps");
    for s in 0..=rec.steps() {
        let k = if s == rec.steps() {
            rec.len()
        } else {
            rec.step_start(s)
        };
        let want = rec.seek(k).packed().to_vec();
        assert_eq!(
            again.seek(k).packed(),
            &want[..],
            "{name}: states at step {s}"
        );
    }
}

#[test]
fn every_algorithms_export_reads_back_to_the_same_run() {
    let (grid, s, g) = pathlab::builtin::default_world();
    let space = GridSpace::octile(&grid);
    let q = Query {
        start: space.node(s.0, s.1).unwrap(),
        goal: space.node(g.0, g.1).unwrap(),
    };
    let xy = |n: u32| space.xy(n);
    let mut tried = 0;
    for info in algorithms::all() {
        let Ok(mut search) = algorithms::build(info.name, &space, q) else {
            continue;
        };
        while search.preparing().is_some() {
            search.step_null(&space);
        }
        let mut rec = Recorder::for_space(&space, &search.layers());
        let status = search.run_record(&space, &mut rec);
        assert_eq!(status, Status::Found, "{}", info.name);
        let layout = Layout {
            cell: &xy,
            hex: None,
        };
        round_trip(
            info.name,
            &mut rec,
            layout,
            Place::Cells {
                w: space.width(),
                h: space.height(),
                map: None,
            },
        );
        tried += 1;
    }
    assert!(tried >= 12, "only {tried} algorithms ran on squares");

    // Hexes: events drawn as polygons, placed by their ids.
    let hex = HexSpace::new(
        &grid,
        HexOrientation::Pointy,
        1.5,
        pathlab::space::TerrainRule::Class,
    );
    let open: Vec<u32> = (0..hex.num_nodes() as u32)
        .filter(|&n| hex.is_passable(n))
        .collect();
    let (hs, hg) = (open[0], *open.last().unwrap());
    let mut a = algorithms::build(
        "astar",
        &hex,
        Query {
            start: hs,
            goal: hg,
        },
    )
    .unwrap();
    let mut rec = Recorder::for_space(&hex, &[]);
    assert_eq!(a.run_record(&hex, &mut rec), Status::Found);
    let w = hex.width();
    let hxy = move |n: u32| (n % w, n / w);
    let layout = Layout {
        cell: &hxy,
        hex: Some((HexOrientation::Pointy, 1.5)),
    };
    round_trip(
        "hex astar",
        &mut rec,
        layout,
        Place::Hex {
            orientation: HexOrientation::Pointy,
            pitch: 1.5,
            w: hex.width(),
            h: hex.height(),
        },
    );
}

#[test]
fn a_dstar_lite_repair_reads_back_with_its_world_change() {
    let rows = ["..........", "..........", "..........", ".........."];
    let mut grid = pathlab::map::Grid::from_rows(&rows);
    let mut space = GridSpace::octile(&grid);
    let q = Query { start: 0, goal: 39 };
    let mut d = algorithms::build("dstar-lite", &space, q).unwrap();
    let mut rec = Recorder::for_space(&space, &[]);
    assert_eq!(d.run_record(&space, &mut rec), Status::Found);
    for y in 0..3 {
        grid.set(5, y, pathlab::map::Cell::WALL);
    }
    space.update(&grid, None);
    let changed: Vec<u32> = (0..3).map(|y| space.node(5, y).unwrap()).collect();
    assert!(d.repair_record(&space, &changed, &mut rec));
    assert_eq!(d.run_record(&space, &mut rec), Status::Found);
    assert!(rec.iter().any(|e| e.kind == EventKind::WorldChange));
    assert!(rec.iter().any(|e| e.kind == EventKind::Inconsistent));
    let xy = |n: u32| space.xy(n);
    round_trip(
        "dstar-lite repair",
        &mut rec,
        Layout {
            cell: &xy,
            hex: None,
        },
        Place::Cells {
            w: 10,
            h: 4,
            map: None,
        },
    );
}

#[test]
fn other_tools_traces_are_placed_by_their_views() {
    let target = Target::squares(4, 4);
    // The render: form (where `$` is a context holding the event), ids that are not cells,
    // positions in variables, a type pathlab does not know.
    let old = r#"
version: 1.0.5
render:
  context: { half: 0.5 }
  components:
    tile:
      - { $: rect, x: "{{$.event.variables.x}}", y: "{{$.event.variables.y}}", width: 1, height: 1 }
  views:
    main: { renderer: 2d-pixi, components: [ { $: tile } ] }
eventList:
  - { type: source, id: 100, variables: { x: 0, y: 0 }, g: 0, f: 4 }
  - { type: expanding, id: 100, variables: { x: 0, y: 0 }, g: 0, f: 4 }
  - { type: generating, id: 101, pId: 100, variables: { x: 1, y: 1 }, g: 1.5, f: 4 }
  - { type: surveying, id: 101, variables: { x: 1, y: 1 }, g: 1.5 }
  - { type: closing, id: 101, variables: { x: 1, y: 1 } }
  - { type: end, id: 101, variables: { x: 1, y: 1 }, g: 1.5 }
"#;
    let t = import(old, &target).unwrap();
    let kinds: Vec<EventKind> = t.events.iter().map(|e| e.kind).collect();
    use EventKind as K;
    assert_eq!(
        kinds,
        [
            K::Source,
            K::Expand,
            K::Generate,
            K::Other,
            K::Expand,
            // The path, rebuilt from the end's parents: 100 (drawn on 0), then 101.
            K::PathNode,
            K::PathNode,
            K::Found
        ]
    );
    assert_eq!(
        (t.events[5].node, t.events[5].other),
        (0, pathlab::trace::NONE)
    );
    assert_eq!((t.events[6].node, t.events[6].other), (5, 0));
    assert_eq!(t.events[6].a, 1.5);
    assert_eq!(t.events[2].node, 5);
    assert_eq!(
        t.events[2].other, 0,
        "the parent is the node id 100 was drawn on"
    );
    assert_eq!(t.others, ["surveying"]);
    assert_eq!(t.events[7].a, 1.5, "an end's g is its cost");
    assert!(t.notes.iter().any(|n| n.contains("surveying")));

    // JSON, format 1.4.0, a circle with arithmetic, a component pathlab does not draw.
    let json = r#"{"version": "1.4.0",
  "views": {"main": [
     {"$": "circle", "$if": "${{ $.type !== 'ignored' }}", "x": "${{ $.col * 2 + 0.5 }}", "y": "${{ $.row }}", "radius": 0.5},
     {"$": "marker", "x": 0}]},
  "events": [
     {"type": "source", "id": "a", "col": 0, "row": 3},
     {"type": "generating", "id": "b", "pId": "a", "col": 1, "row": 3.5, "g": 2},
     {"type": "ignored", "id": "c"}]}"#;
    let t = import(json, &target).unwrap();
    assert_eq!(t.events[0].node, 12);
    assert_eq!((t.events[1].node, t.events[1].other), (14, 12));
    assert_eq!(t.events[2].node, pathlab::trace::NONE);
    assert!(
        t.notes.iter().any(|n| n.contains("`marker`")),
        "{:?}",
        t.notes
    );
    assert!(t
        .notes
        .iter()
        .any(|n| n.contains("1 events are not placed on the map")));
}

/// Malformed traces: each file, and a piece of the line pathlab must name.
const BAD: [(&str, &str, &str); 20] = [
    ("empty", "", ":1:"),
    ("not-yaml", "events: [ { type: source\n", ":1:"),
    ("tab-indent", "events:\n\t- {type: source}\n", ":2:"),
    ("a-list", "- 1\n- 2\n", ":1:"),
    ("a-number", "42\n", ":1:"),
    ("no-events", "version: 1.4.0\nviews: {}\n", ":1:"),
    ("events-text", "version: 1.4.0\nevents: lots\n", ":2:"),
    (
        "event-number",
        "events:\n  - { type: source, id: 1 }\n  - 7\n",
        ":3:",
    ),
    ("type-number", "events:\n  - { type: 5, id: 1 }\n", ":2:"),
    (
        "id-list",
        "events:\n  - { type: source, id: [1, 2] }\n",
        ":2:",
    ),
    (
        "pid-map",
        "events:\n  - { type: source, id: 1 }\n  - { type: generating, id: 2, pId: { a: 1 } }\n",
        ":3:",
    ),
    (
        "g-text",
        "events:\n  - { type: source, id: 1 }\n  - { type: expanding, id: 1,\n      g: lots }\n",
        ":4:",
    ),
    (
        "f-list",
        "events:\n  - { type: expanding, id: 1, f: [1] }\n",
        ":2:",
    ),
    (
        "duplicate-key",
        "events:\n  - { type: source, id: 1, id: 2 }\n",
        ":2:",
    ),
    (
        "alias",
        "a: &x 1\nevents:\n  - { type: source, id: *x }\n",
        ":3:",
    ),
    ("view-text", "views: { main: hello }\nevents: []\n", ":1:"),
    (
        "component-no-kind",
        "views:\n  main:\n    - { x: 1 }\nevents: []\n",
        ":3:",
    ),
    ("version-list", "version: [1]\nevents: []\n", ":1:"),
    ("unclosed-quote", "events:\n  - { type: 'source }\n", ":2:"),
    (
        "bad-json",
        "{\"events\": [ {\"type\": \"source\", } ]",
        ":1:",
    ),
];

#[test]
fn malformed_traces_get_one_line_naming_file_and_line() {
    for (name, text, line) in BAD {
        let ext = if name == "bad-json" {
            "trace.json"
        } else {
            "trace.yaml"
        };
        let path = tmp(&format!("{name}.{ext}"));
        std::fs::write(&path, text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_pathlab"))
            .args(["trace", "--check"])
            .arg(&path)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
        assert!(
            err.contains(&format!("{}{line}", path.display())),
            "{name}: {err}"
        );
    }
}

#[test]
fn compare_says_where_two_traces_differ() {
    let write = |name: &str, text: &str| {
        let p = tmp(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let head = "version: 1.4.0\nevents:\n  - { type: source, id: 1, g: 0 }\n";
    let a = write(
        "a.trace.yaml",
        &format!("{head}  - {{ type: expanding, id: 1, g: 0 }}\n"),
    );
    let b = write(
        "b.trace.yml",
        &format!("{head}  - {{ type: expanding, id: 1, g: 0.5 }}\n"),
    );
    let c = write(
        "c.trace.json",
        r#"{"version": "1.4.0", "events": [{"type": "source", "id": 1, "g": 0}, {"type": "expanding", "id": 1, "g": 0}]}"#,
    );
    let run = |x: &PathBuf, y: &PathBuf| {
        let out = Command::new(env!("CARGO_BIN_EXE_pathlab"))
            .args(["trace", "--compare"])
            .args([x, y])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
        )
    };
    let (code, text) = run(&a, &c);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = run(&a, &b);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("event 2 differs (g differ)") && text.contains(":4:"),
        "{text}"
    );
    let short = write("d.trace.yaml", head);
    let (code, text) = run(&a, &short);
    assert_eq!(code, Some(1));
    assert!(text.contains("first 1 events are the same"), "{text}");
}

#[test]
fn hostile_traces_are_refused_or_read_without_exhausting_anything() {
    let target = Target::squares(4, 4);
    // An expression nested 100,000 deep: not evaluated, said so.
    let deep = format!(
        "views: {{ main: [ {{ $: rect, x: \"${{{{ {}1{} }}}}\", y: 0 }} ] }}\nevents:\n  - {{ type: source, id: 1 }}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let t = import(&deep, &target).unwrap();
    assert!(
        t.notes.iter().any(|n| n.contains("nested deeper")),
        "{:?}",
        t.notes
    );
    // Components that name themselves twenty times over: expanded within a budget.
    let mut comps = String::new();
    for _ in 0..20 {
        comps.push_str("{ $: a }, ");
    }
    let selfish = format!(
        "render:\n  components:\n    a: [ {comps} ]\n  views:\n    main: {{ components: [ {{ $: a }} ] }}\nevents: []\n"
    );
    let t = import(&selfish, &target).unwrap();
    assert!(
        t.notes.iter().any(|n| n.contains("10,000")),
        "{:?}",
        t.notes
    );
    assert!(t.notes.len() < 10, "{} notes", t.notes.len());
    // Block nesting 5,000 deep: refused with its line.
    let nested = format!("events:\n  - {}1\n", "- ".repeat(5000));
    let (line, why) = import(&nested, &target).unwrap_err();
    assert_eq!(line, 2);
    assert!(why.contains("nested deeper"), "{why}");
}

#[test]
fn a_replay_ends_as_its_last_plan_ended() {
    use pathlab::search::replay::Replay;
    use pathlab::search::{Search, SearchState};
    use pathlab::trace::NONE;
    let e = |kind, node| Event::new(kind, node, NONE, 1.0, 1.0);
    let events = vec![
        e(EventKind::Source, 0),
        e(EventKind::Expand, 0),
        e(EventKind::PathNode, 0),
        e(EventKind::Found, 0),
        // A later expansion (a repair's) with no end of its own.
        e(EventKind::Expand, 1),
    ];
    let space = GridSpace::from_rows(
        &["...."],
        pathlab::space::Connectivity::Eight,
        pathlab::space::TerrainRule::Class,
    );
    let mut r = Replay::new(std::sync::Arc::new(events));
    let mut rec = Recorder::for_space(&space, &[]);
    assert_eq!(r.run(&space, &mut rec), Status::Found);
    assert_eq!(rec.len(), 5);
    assert_eq!(r.path(), Some(&[0][..]));
    assert_eq!(r.cost(), Some(1.0));
}

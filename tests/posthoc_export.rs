//! Posthoc traces as pathlab exports them, checked with Posthoc's own rules: a vehicle
//! lattice's trace names every state apart, so Posthoc's walk from any event to the root
//! (`makePathIndex`'s `getPath`, simulated here) ends, and from the end it retraces the run's
//! path; Field D*'s corners, navmesh polygons and the hierarchy's graph vertices are placed
//! (a corner at its point, a polygon as its rectangle, a vertex at its point), on a real
//! benchmark map; a `.trace.json` is JSON a strict parser reads, with the events of the YAML
//! trace; and pathlab's own reader still reads the traces back to the recorded events, bit for
//! bit.

use crate::cli_support;

use cli_support::{map_file, pathlab, succeeded, tmp};
use pathlab::map::io::read_map;
use pathlab::space::{NavmeshSpace, TerrainRule};
use pathlab::trace::posthoc_in::{import, Target};
use pathlab::trace::run_file::RunFile;
use pathlab::trace::{Event, EventKind};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use yaml_rust2::{Yaml, YamlLoader};

/// A map of the benchmark set; the test fails when the set is missing.
fn benchmark(rel: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/benchmarks/movingai-grid")
        .join(rel);
    assert!(
        p.is_file(),
        "{} is missing: these tests read the MovingAI benchmark maps",
        p.display()
    );
    p.display().to_string()
}

/// Runs `pathlab trace` writing `name`.ron and the Posthoc trace `name` + `ext`; the run and
/// the trace's text.
fn trace(map: &str, name: &str, ext: &str, args: &[&str]) -> (RunFile, String) {
    let run = tmp(&format!("{name}.ron"));
    let ph = tmp(&format!("{name}{ext}"));
    let mut all = vec![
        "trace",
        "--map",
        map,
        "--out",
        run.to_str().unwrap(),
        "--posthoc",
        ph.to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    succeeded(&pathlab(&all));
    (
        RunFile::read(&run).unwrap(),
        std::fs::read_to_string(&ph).unwrap(),
    )
}

fn yaml(text: &str) -> Yaml {
    let mut docs = YamlLoader::load_from_str(text).expect("YAML Posthoc can load");
    assert_eq!(docs.len(), 1);
    docs.remove(0)
}

/// A number YAML wrote with or without a fraction.
fn num(y: &Yaml) -> Option<f64> {
    y.as_f64().or_else(|| y.as_i64().map(|v| v as f64))
}

/// Posthoc's `makePathIndex` (posthoc-app, `hooks/usePathIndex`), over the events' `id` and
/// `pId`: the parent an id had at a step is the last change of it up to that step; the path
/// from event `step` goes to the last event about that parent up to the current step, and on.
/// `None` where the walk does not end within as many hops as there are events: Posthoc's loop
/// would never return.
struct PathIndex {
    ids: Vec<Option<i64>>,
    /// Every (step, id, pId) where an id's parent changed, in order.
    changes: Vec<(usize, i64, i64)>,
    /// Events about each id, by step.
    by_id: HashMap<i64, Vec<usize>>,
}

impl PathIndex {
    fn new(events: &[Yaml]) -> PathIndex {
        let mut current: HashMap<i64, i64> = HashMap::new();
        let mut p = PathIndex {
            ids: vec![],
            changes: vec![],
            by_id: HashMap::new(),
        };
        for (i, e) in events.iter().enumerate() {
            let id = e["id"].as_i64();
            p.ids.push(id);
            if let Some(id) = id {
                p.by_id.entry(id).or_default().push(i);
                if let Some(pid) = e["pId"].as_i64() {
                    if current.get(&id) != Some(&pid) {
                        p.changes.push((i, id, pid));
                        current.insert(id, pid);
                    }
                }
            }
        }
        p
    }

    fn parent(&self, id: i64, step: usize) -> Option<i64> {
        let upto = self.changes.partition_point(|c| c.0 <= step);
        self.changes[..upto]
            .iter()
            .rev()
            .find(|c| c.1 == id)
            .map(|c| c.2)
    }

    /// The steps of the path from event `step` to its root.
    fn path(&self, step: usize) -> Option<Vec<usize>> {
        let mut path = vec![step];
        let mut at = step;
        while let Some(id) = self.ids[at] {
            // Posthoc stops at a falsy parent (0 too).
            let Some(pid) = self.parent(id, at).filter(|&p| p != 0) else {
                break;
            };
            let list = self.by_id.get(&pid).map_or(&[][..], |v| &v[..]);
            let Some(&next) = list[..list.partition_point(|&s| s <= at)].last() else {
                break;
            };
            path.push(next);
            at = next;
            if path.len() > self.ids.len() {
                return None;
            }
        }
        Some(path)
    }
}

#[test]
fn a_vehicle_trace_names_each_lattice_state_and_its_paths_reach_the_root() {
    // The car must drive round the wall, turning on the way.
    let map = map_file(
        "lattice.map",
        &[
            "................",
            "................",
            "................",
            "......@.........",
            "......@.........",
            "......@.........",
            "......@.........",
            "................",
            "................",
            "................",
        ],
    );
    // A* on the lattice, and AIPATH, whose exact poses reach states from others in the same
    // state: on cells (and even on states) those are their own parents.
    for (algo, ext) in [
        ("astar", ".trace.yaml"),
        ("astar", ".trace.json"),
        ("aipath", ".trace.yaml"),
    ] {
        let (run, text) = trace(
            &map,
            "lattice",
            ext,
            &[
                "--world", "vehicle", "--algo", algo, "--start", "9,5", "--goal", "2,5",
            ],
        );
        assert_eq!(run.status, "found", "{algo}");
        let ext = format!("{algo} {ext}");
        let own_cell = run
            .events
            .iter()
            .filter(|e| e.node == e.other && e.kind == EventKind::Generate)
            .count();
        if algo == "aipath" {
            assert!(
                own_cell > 10,
                "only {own_cell} events are their cell's parent"
            );
        }
        let doc = if ext.ends_with("json") {
            json_as_yaml(&parse_json(&text))
        } else {
            yaml(&text)
        };
        let events = doc["events"].as_vec().unwrap();
        assert_eq!(events.len(), run.events.len());
        // Several states of one cell: ids are states, not cells, so none is its own parent.
        let mut states_of_cell: BTreeMap<(i64, i64), Vec<i64>> = BTreeMap::new();
        for (i, e) in events.iter().enumerate() {
            let (id, pid) = (e["id"].as_i64(), e["pId"].as_i64());
            assert!(
                id.is_none() || id != pid,
                "{ext}: event {i} is its own parent: {e:?}"
            );
            if let (Some(id), Some(x), Some(y)) = (id, e["x"].as_i64(), e["y"].as_i64()) {
                // The cell is the run file's (projected) node, and but for a state renamed
                // past the lattice's ids, the state's id modulo the map's cells (docs of
                // VehicleSpace).
                assert_eq!(run.events[i].node as i64, y * 16 + x, "{ext}: event {i}");
                if id < 160 * 36 * 7 {
                    assert_eq!(id % (16 * 10), y * 16 + x, "{ext}: event {i}");
                }
                let heading = num(&e["heading"]).expect("a state's heading");
                assert!((0.0..360.0).contains(&heading), "event {i}: {heading}");
                states_of_cell.entry((x, y)).or_default().push(id);
            }
        }
        for v in states_of_cell.values_mut() {
            v.sort();
            v.dedup();
        }
        let shared = states_of_cell.values().filter(|v| v.len() > 1).count();
        assert!(
            shared > 10,
            "{ext}: only {shared} cells saw more than one state"
        );
        // Posthoc's walk to the root ends from every event, and from the end it retraces the
        // run's path, cell by cell.
        let index = PathIndex::new(events);
        for (step, e) in events.iter().enumerate() {
            assert!(
                index.path(step).is_some(),
                "{ext}: the walk from event {step} ({e:?}) never reaches a root"
            );
        }
        let end = events.len() - 1;
        assert_eq!(events[end]["type"].as_str(), Some("end"));
        let cells: Vec<(u32, u32)> = index
            .path(end)
            .unwrap()
            .iter()
            .rev()
            .map(|&s| {
                let e = &events[s];
                (
                    e["x"].as_i64().unwrap() as u32,
                    e["y"].as_i64().unwrap() as u32,
                )
            })
            .collect();
        assert_eq!(
            cells, run.path,
            "{ext}: the path to the root is the run's path"
        );
        // The root is the start's state, the one the source event names.
        let root = &events[*index.path(end).unwrap().last().unwrap()];
        // pathlab's reader places every state on its cell: the recorded events, bit for bit.
        let target = Target::squares(16, 10);
        reads_back(&ext, &text, &run, &target);
        let source = events
            .iter()
            .find(|e| e["type"].as_str() == Some("source"))
            .unwrap();
        assert_eq!(root["id"], source["id"], "{ext}");
    }
}

/// Events equal bit for bit (NaN equal to NaN).
fn same(a: &Event, b: &Event) -> bool {
    let f = |x: f32, y: f32| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
    a.kind == b.kind && a.node == b.node && a.other == b.other && f(a.a, b.a) && f(a.b, b.b)
}

fn reads_back(name: &str, text: &str, run: &RunFile, target: &Target) {
    let back = import(text, target).unwrap_or_else(|(l, why)| panic!("{name}: line {l}: {why}"));
    assert_eq!(back.events.len(), run.events.len(), "{name}");
    for (i, (a, b)) in run.events.iter().zip(&back.events).enumerate() {
        assert!(same(a, b), "{name}: event {i}: {a:?} read back as {b:?}");
    }
}

#[test]
fn field_dstar_corners_are_placed_on_den520d_in_yaml_and_json() {
    let map = benchmark("dao/den520d.map");
    let grid = read_map(std::path::Path::new(&map)).unwrap();
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let ends = [
        "--start",
        "74,180",
        "--goal",
        "137,107",
        "--algo",
        "field-dstar",
    ];
    let (run, text) = trace(&map, "fds", ".trace.yaml", &ends);
    assert_eq!(run.status, "found");
    let doc = yaml(&text);
    let events = doc["events"].as_vec().unwrap();
    let corners = events
        .iter()
        .filter(|e| e["layer"].as_str() == Some("corners"))
        .count();
    assert!(corners > 1000, "only {corners} corner events");
    let mut placed = 0;
    for (i, e) in events.iter().enumerate() {
        let (x, y) = (num(&e["x"]), num(&e["y"]));
        if x.is_some() && y.is_some() {
            placed += 1;
        }
        // A corner is where its cells meet: corner k is (k mod (w + 1), k div (w + 1)).
        if e["layer"].as_str() == Some("corners") {
            let k = e["layerIndex"].as_i64().unwrap();
            assert_eq!(
                (x, y),
                (Some((k % (w + 1)) as f64), Some((k / (w + 1)) as f64)),
                "event {i}"
            );
            assert_eq!(run.events[i].node as i64, w * h + k, "event {i}");
        }
    }
    assert!(
        placed * 100 >= events.len() * 95,
        "{placed} of {} events carry x and y",
        events.len()
    );
    // The corners are drawn (as dots), the cells as rects.
    let main = doc["views"]["main"].as_vec().unwrap();
    assert!(main
        .iter()
        .any(|v| v["$if"].as_str().unwrap_or("").contains("$.layer != null")));

    // The same run as JSON: a strict JSON parser reads it, with the YAML trace's events.
    let (run_j, json) = trace(&map, "fds", ".trace.json", &ends);
    let j = parse_json(&json);
    assert_eq!(json_as_yaml(&j)["events"], doc["events"]);
    assert_eq!(json_as_yaml(&j)["views"], doc["views"]);
    assert_eq!(json_as_yaml(&j)["version"].as_str(), Some("1.4.0"));

    // pathlab's reader gives back the recorded events, from either.
    let target = Target {
        nodes: (w * h + (w + 1) * (h + 1)) as usize,
        ..Target::squares(w as u32, h as u32)
    };
    reads_back("field-dstar yaml", &text, &run, &target);
    reads_back("field-dstar json", &json, &run_j, &target);
}

#[test]
fn navmesh_polygons_are_rectangles_and_graph_vertices_points() {
    let map = benchmark("dao/arena.map");
    let grid = read_map(std::path::Path::new(&map)).unwrap();
    let mesh = NavmeshSpace::new(&grid, TerrainRule::Class);
    for algo in ["hna", "pccp:mu=3"] {
        let (run, text) = trace(
            &map,
            "mesh",
            ".trace.yaml",
            &[
                "--world", "navmesh", "--start", "3,3", "--goal", "45,44", "--algo", algo,
            ],
        );
        assert_eq!(run.status, "found", "{algo}");
        let doc = yaml(&text);
        let events = doc["events"].as_vec().unwrap();
        let at = |p: (u32, u32)| mesh.polygon_at(p.0, p.1).unwrap();
        let ends = [mesh.centre(at(run.start)), mesh.centre(at(run.goal))];
        let layer_len = last_layer_len(events);
        let (mut polygons, mut vertices) = (0, 0);
        let mut sizes = std::collections::BTreeSet::new();
        for (i, e) in events.iter().enumerate() {
            let Some(id) = e["id"].as_i64() else {
                continue;
            };
            let (x, y) = (num(&e["x"]), num(&e["y"]));
            assert!(
                x.is_some() && y.is_some(),
                "{algo}: event {i} is not placed: {e:?}"
            );
            let (x, y) = (x.unwrap(), y.unwrap());
            if e["layer"].as_str() == Some("abstract graph") {
                vertices += 1;
                let k = e["layerIndex"].as_i64().unwrap() as usize;
                // The temporaries (the last two) stand at the start's and the goal's centres;
                // a crossing lies on the border between two polygons.
                let [ex, ey] = if k + 2 == layer_len {
                    ends[0]
                } else if k + 1 == layer_len {
                    ends[1]
                } else {
                    let on = (0..mesh.polygons() as u32)
                        .filter(|&p| on_border(mesh.rect(p), x, y))
                        .count();
                    assert!(
                        on >= 2,
                        "{algo}: vertex {k} at ({x}, {y}) is on {on} borders"
                    );
                    [x, y]
                };
                assert!(
                    (x - ex).abs() < 1e-3 && (y - ey).abs() < 1e-3,
                    "{algo}: vertex {k} at ({x}, {y}), not ({ex}, {ey})"
                );
            } else {
                polygons += 1;
                let [x0, y0, x1, y1] = mesh.rect(id as u32);
                let (w, h) = (e["width"].as_i64().unwrap(), e["height"].as_i64().unwrap());
                assert_eq!(
                    (x as u32, y as u32, w as u32, h as u32),
                    (x0, y0, x1 - x0, y1 - y0),
                    "{algo}: event {i}"
                );
                sizes.insert((w, h));
            }
        }
        assert!(
            polygons > 0 && vertices > 0,
            "{algo}: {polygons} {vertices}"
        );
        assert!(
            sizes.iter().any(|&(w, h)| w * h > 1),
            "{algo}: every polygon one cell"
        );
    }
}

/// The size of the abstract graph's layer: its largest index plus one is at most this; the
/// trace's events name both temporaries, so it is exactly that.
fn last_layer_len(events: &[Yaml]) -> usize {
    events
        .iter()
        .filter(|e| e["layer"].as_str() == Some("abstract graph"))
        .filter_map(|e| e["layerIndex"].as_i64())
        .max()
        .map_or(0, |k| k as usize + 1)
}

/// Whether (x, y) lies on the outline of rectangle `[x0, y0, x1, y1]`.
fn on_border([x0, y0, x1, y1]: [u32; 4], x: f64, y: f64) -> bool {
    let (x0, y0, x1, y1) = (x0 as f64, y0 as f64, x1 as f64, y1 as f64);
    let inside = x >= x0 && x <= x1 && y >= y0 && y <= y1;
    inside && (x == x0 || x == x1 || y == y0 || y == y1)
}

#[test]
fn json_traces_hold_infinities_and_every_kind() {
    use pathlab::trace::posthoc::{write, Format, Layout};
    use pathlab::trace::{Recorder, Tracer, NONE};
    let mut rec = Recorder::new(12);
    let inf = f64::INFINITY;
    rec.event(Event::new(EventKind::Source, 0, NONE, 0.0, 2.5));
    rec.event(Event::new(EventKind::Generate, 1, 0, 1.0, 3.5));
    rec.event(Event::new(EventKind::Expand, 1, 0, 1.0, 3.5));
    rec.event(Event::new(EventKind::Inconsistent, 2, NONE, 1.5, inf));
    rec.event(Event::new(EventKind::WorldChange, 3, NONE, inf, f64::NAN));
    rec.event(Event::new(EventKind::LineOfSight, 5, 1, 1.0, f64::NAN));
    rec.event(Event::marker(EventKind::Phase, 2));
    // A found run's path comes before its end, as every search records it (an end without
    // one is another tool's, whose path the reader rebuilds).
    rec.event(Event::new(EventKind::PathNode, 0, NONE, 0.0, 0.0));
    rec.event(Event::new(EventKind::PathNode, 1, 0, 1.0, 0.0));
    rec.event(Event::new(EventKind::Found, 1, NONE, -inf, f64::NAN));
    let cell = |n: u32| (n % 4, n / 4);
    let layout = Layout {
        cell: &cell,
        hex: None,
    };
    let text = write(&rec, layout, None, Format::Json);
    let j = parse_json(&text);
    let doc = json_as_yaml(&j);
    let events = doc["events"].as_vec().unwrap();
    assert_eq!(events.len(), rec.len());
    assert_eq!(num(&events[3]["rhs"]), Some(inf));
    assert_eq!(num(&events[4]["cost"]), Some(inf));
    assert_eq!(num(&events[9]["cost"]), Some(-inf));
    assert_eq!(events[5]["visible"].as_bool(), Some(true));
    assert_eq!(events[5]["fromX"].as_i64(), Some(1));
    // The YAML trace holds the same.
    let y = yaml(&write(&rec, layout, None, Format::Yaml));
    assert_eq!(y["events"], doc["events"]);
    // And pathlab reads either back to the same events.
    let target = Target::squares(4, 3);
    let back = import(&text, &target).unwrap();
    for (a, b) in rec.iter().zip(&back.events) {
        assert!(same(&a, b), "{a:?} read back as {b:?}");
    }
    assert_eq!(
        Format::of(std::path::Path::new("r.TRACE.JSON")),
        Format::Json
    );
    assert_eq!(
        Format::of(std::path::Path::new("r.trace.yaml")),
        Format::Yaml
    );
}

/// A JSON value, as a strict parser of RFC 8259 reads it.
#[derive(Clone, Debug, PartialEq)]
enum J {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    List(Vec<J>),
    Map(Vec<(String, J)>),
}

/// Parses `text` as one JSON value: only JSON's whitespace, no trailing commas, no comments,
/// numbers in JSON's grammar (no `.5`, `+1`, `01`, `NaN` or `.inf`), strings with JSON's
/// escapes and no raw control characters. Panics with the byte where it is not JSON.
fn parse_json(text: &str) -> J {
    struct P<'a> {
        s: &'a [u8],
        i: usize,
    }
    impl P<'_> {
        fn fail(&self, why: &str) -> ! {
            let near = String::from_utf8_lossy(&self.s[self.i..(self.i + 40).min(self.s.len())]);
            panic!("not JSON at byte {}: {why} (near {near:?})", self.i)
        }
        fn ws(&mut self) {
            while self.i < self.s.len() && b" \t\n\r".contains(&self.s[self.i]) {
                self.i += 1;
            }
        }
        fn eat(&mut self, b: u8) {
            if self.s.get(self.i) != Some(&b) {
                self.fail(&format!("expected {:?}", b as char));
            }
            self.i += 1;
        }
        fn lit(&mut self, word: &str, v: J) -> J {
            if !self.s[self.i..].starts_with(word.as_bytes()) {
                self.fail("unknown literal");
            }
            self.i += word.len();
            v
        }
        fn value(&mut self) -> J {
            self.ws();
            let v = match self.s.get(self.i) {
                Some(b'{') => {
                    self.i += 1;
                    let mut m = vec![];
                    self.ws();
                    if self.s.get(self.i) == Some(&b'}') {
                        self.i += 1;
                    } else {
                        loop {
                            self.ws();
                            let k = self.string();
                            self.ws();
                            self.eat(b':');
                            let v = self.value();
                            if m.iter().any(|(q, _)| *q == k) {
                                self.fail(&format!("key {k} twice"));
                            }
                            m.push((k, v));
                            self.ws();
                            match self.s.get(self.i) {
                                Some(b',') => self.i += 1,
                                Some(b'}') => {
                                    self.i += 1;
                                    break;
                                }
                                _ => self.fail("expected , or }"),
                            }
                        }
                    }
                    J::Map(m)
                }
                Some(b'[') => {
                    self.i += 1;
                    let mut v = vec![];
                    self.ws();
                    if self.s.get(self.i) == Some(&b']') {
                        self.i += 1;
                    } else {
                        loop {
                            v.push(self.value());
                            self.ws();
                            match self.s.get(self.i) {
                                Some(b',') => self.i += 1,
                                Some(b']') => {
                                    self.i += 1;
                                    break;
                                }
                                _ => self.fail("expected , or ]"),
                            }
                        }
                    }
                    J::List(v)
                }
                Some(b'"') => J::Str(self.string()),
                Some(b't') => self.lit("true", J::Bool(true)),
                Some(b'f') => self.lit("false", J::Bool(false)),
                Some(b'n') => self.lit("null", J::Null),
                Some(b'-' | b'0'..=b'9') => self.number(),
                _ => self.fail("expected a value"),
            };
            self.ws();
            v
        }
        fn digits(&mut self) -> usize {
            let from = self.i;
            while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
                self.i += 1;
            }
            self.i - from
        }
        fn number(&mut self) -> J {
            let from = self.i;
            if self.s[self.i] == b'-' {
                self.i += 1;
            }
            match self.s.get(self.i) {
                Some(b'0') => self.i += 1,
                Some(b'1'..=b'9') => {
                    self.digits();
                }
                _ => self.fail("a number needs digits"),
            }
            if self.s.get(self.i) == Some(&b'.') {
                self.i += 1;
                if self.digits() == 0 {
                    self.fail("digits after the point");
                }
            }
            if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
                self.i += 1;
                if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                    self.i += 1;
                }
                if self.digits() == 0 {
                    self.fail("digits in the exponent");
                }
            }
            let t = std::str::from_utf8(&self.s[from..self.i]).unwrap();
            J::Num(t.parse().unwrap())
        }
        fn string(&mut self) -> String {
            self.eat(b'"');
            let mut out = vec![];
            loop {
                let Some(&c) = self.s.get(self.i) else {
                    self.fail("unterminated string")
                };
                self.i += 1;
                match c {
                    b'"' => break,
                    b'\\' => {
                        let e = self.s.get(self.i).copied();
                        self.i += 1;
                        match e {
                            Some(b'"') => out.push(b'"'),
                            Some(b'\\') => out.push(b'\\'),
                            Some(b'/') => out.push(b'/'),
                            Some(b'b') => out.push(8),
                            Some(b'f') => out.push(12),
                            Some(b'n') => out.push(b'\n'),
                            Some(b'r') => out.push(b'\r'),
                            Some(b't') => out.push(b'\t'),
                            Some(b'u') => {
                                let hex = std::str::from_utf8(&self.s[self.i..self.i + 4])
                                    .ok()
                                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                                    .unwrap_or_else(|| self.fail("bad \\u escape"));
                                self.i += 4;
                                let c = char::from_u32(hex).unwrap_or('\u{fffd}');
                                out.extend(c.to_string().bytes());
                            }
                            _ => self.fail("bad escape"),
                        }
                    }
                    c if c < 0x20 => self.fail("a control character in a string"),
                    c => out.push(c),
                }
            }
            String::from_utf8(out).unwrap_or_else(|_| self.fail("not UTF-8"))
        }
    }
    let mut p = P {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value();
    if p.i != p.s.len() {
        p.fail("text after the value");
    }
    v
}

/// A JSON value as the YAML tree yaml-rust2 builds, to compare with the YAML trace.
fn json_as_yaml(j: &J) -> Yaml {
    match j {
        J::Null => Yaml::Null,
        J::Bool(b) => Yaml::Boolean(*b),
        J::Num(v) if v.fract() == 0.0 && v.abs() < 1e15 => Yaml::Integer(*v as i64),
        J::Num(v) if v.is_infinite() => Yaml::Real(if *v > 0.0 { ".inf" } else { "-.inf" }.into()),
        J::Num(v) => Yaml::Real(format!("{v}")),
        J::Str(s) => Yaml::String(s.clone()),
        J::List(v) => Yaml::Array(v.iter().map(json_as_yaml).collect()),
        J::Map(m) => Yaml::Hash(
            m.iter()
                .map(|(k, v)| (Yaml::String(k.clone()), json_as_yaml(v)))
                .collect(),
        ),
    }
}

#[test]
fn a_state_entered_from_itself_gets_a_fresh_id_and_the_recorder_keeps_search_ids() {
    use pathlab::trace::posthoc::{write, Format, Layout};
    use pathlab::trace::{Recorder, Tracer, NONE};
    // A lattice of 12 ids over 4 cells (3 states a cell), recorded on its cells.
    let mut rec = Recorder::for_ids(12, Some(4), &[]);
    assert_eq!(rec.search_id_count(), 12);
    let ev = |k, n, p| Event::new(k, n, p, 1.0, 2.0);
    use EventKind::{Expand as X, Found, Generate as G, Source};
    for e in [
        ev(Source, 5, NONE),
        ev(X, 5, NONE),
        ev(G, 6, 5),
        // Another state of the same cell: on cells, its own parent.
        ev(G, 9, 5),
        ev(X, 9, 5),
        // The same state reached from itself (an exact pose within its bins): a new node of
        // the search tree.
        ev(G, 9, 9),
        ev(X, 9, 9),
        ev(G, 2, 9),
        ev(X, 2, 9),
        ev(Found, 2, NONE),
    ] {
        rec.event(e);
    }
    let recorded: Vec<(u32, u32)> = rec.iter().map(|e| (e.node, e.other)).collect();
    assert_eq!(recorded[3], (1, 1), "projected onto cells");
    assert_eq!(rec.search_ids(3), Some([9, 5]));
    assert_eq!(rec.search_ids(10), None);
    let cell = |n: u32| (n % 2, n / 2);
    let layout = Layout {
        cell: &cell,
        hex: None,
    };
    let doc = yaml(&write(&rec, layout, None, Format::Yaml));
    let got: Vec<(Option<i64>, Option<i64>)> = doc["events"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|e| (e["id"].as_i64(), e["pId"].as_i64()))
        .collect();
    assert_eq!(
        got,
        [
            (Some(5), None),
            (Some(5), None),
            (Some(6), Some(5)),
            (Some(9), Some(5)),
            (Some(9), Some(5)),
            // A fresh id past the lattice's 12, its parent the state's id before.
            (Some(12), Some(9)),
            (Some(12), Some(9)),
            (Some(2), Some(12)),
            (Some(2), Some(12)),
            (Some(2), None),
        ]
    );
    // Forgetting events forgets their search ids too.
    rec.truncate(4);
    rec.event(ev(G, 10, 5));
    assert_eq!(rec.search_ids(4), Some([10, 5]));
    assert_eq!(rec.search_ids(5), None);
}

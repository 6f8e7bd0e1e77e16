//! Export of a recorded run as a Posthoc search trace (format 1.4.0), in the YAML that Posthoc's
//! own loader (js-yaml, then its schema) reads, or in JSON for a `.json` name.
//!
//! What Posthoc reads into an event: `type` names it, `id` is the node it is about, `pId` is a
//! parent (Posthoc draws the search tree and checks parents from it, so only events that set a
//! parent carry one), and `g`/`f` are the costs its views and breakpoints compare. Everything
//! else pathlab records goes under its own name (`cost`, `rhs`, `phase`, `from`, `visible`, …).
//!
//! Where an event is drawn: `x`/`y` name its cell (a square or a hex, whose corners and centre
//! come with it), or the top-left cell of its rectangle with `width` and `height` (a navmesh
//! polygon); a lattice state adds its `heading` and `speed`; a node of a layer after the
//! world's (a Field D* corner, a hierarchy's graph vertex) names its `layer` and is drawn as a
//! dot at its point `x`/`y`.

use super::posthoc_text::{round, Fields, V};
use super::{EventKind, Recorder, NONE};
use crate::search::registry::Family;
use crate::search::SearchState;
use crate::space::{HexOrientation, NavmeshSpace, VehicleSpace};
use crate::world::{AnySpace, SpaceFn};
use std::any::Any;
use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

/// The file names Posthoc opens.
pub const EXTENSIONS: [&str; 3] = [".trace.yaml", ".trace.yml", ".trace.json"];

/// Refuses a file name Posthoc would not open, with the names it does.
pub fn check_name(path: &Path) -> Result<(), String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if EXTENSIONS
        .iter()
        .any(|e| name.ends_with(e) && name.len() > e.len())
    {
        return Ok(());
    }
    Err(format!(
        "{}: Posthoc opens only files named *.trace.yaml, *.trace.yml or *.trace.json",
        path.display()
    ))
}

/// How the nodes of a run lie on the map.
#[derive(Clone, Copy)]
pub struct Layout<'a> {
    /// A node's cell: a square (x, y), or a hex's column and row.
    pub cell: &'a dyn Fn(u32) -> (u32, u32),
    /// On hexes: their orientation and pitch (centre to centre, in square cells); each event
    /// then carries its hexagon's corners and centre, drawn as a polygon.
    pub hex: Option<(HexOrientation, f64)>,
}

/// Where a node is drawn, where it is not simply the cell [`Layout::cell`] gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Place {
    /// Its one cell (a square, a hex).
    Cell,
    /// A rectangle of cells `[x0, y0, x1, y1]`, x1 and y1 past its last cell (a navmesh
    /// polygon): drawn as that rectangle.
    Rect([u32; 4]),
    /// Its cell, as a state facing `heading` degrees (clockwise from +x, y down) at `speed`
    /// m/s: a node of a vehicle's lattice.
    Pose { heading: f64, speed: f64 },
    /// A point in cell units (cell (x, y) spans x..x+1): a node of a layer after the world's
    /// (a Field D* corner, a hierarchy's graph vertex), drawn as a dot.
    Point([f64; 2]),
}

/// Where each node, named by the id its search gave it, is drawn; `None` where it has no
/// place.
pub type Places<'a> = &'a dyn Fn(u32) -> Option<Place>;

/// The syntax a trace is written in: Posthoc reads YAML, and JSON from a `.json` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Json,
}

impl Format {
    /// JSON for a name ending in `.json`, YAML otherwise.
    pub fn of(path: &Path) -> Format {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        if name.ends_with(".json") {
            Format::Json
        } else {
            Format::Yaml
        }
    }
}

/// Where the nodes of `space`, and of the layers `search` adds after them, are drawn: a
/// navmesh polygon as its rectangle, a lattice node as its cell with its heading and speed,
/// a layer's node at the point the search gives it, any other node as its cell.
pub fn places<'a, S: Family, Q: SearchState + ?Sized>(
    space: &'a S,
    search: &'a Q,
) -> impl Fn(u32) -> Option<Place> + 'a {
    // The two families whose nodes are not one cell each; every other space draws cells.
    let any = space as &dyn Any;
    let mesh = any.downcast_ref::<NavmeshSpace>();
    let lattice = any.downcast_ref::<VehicleSpace>().map(|v| {
        let (headings, _) = v.bins();
        (v, 360.0 / headings as f64, v.steps().1)
    });
    let nodes = space.num_nodes() as u64;
    move |n| {
        if n as u64 >= nodes {
            return search.layer_point(n).map(Place::Point);
        }
        if let Some(m) = mesh {
            return Some(Place::Rect(m.rect(n)));
        }
        if let Some((v, degrees, speed)) = lattice {
            let (_, _, h, s) = v.parts(n);
            return Some(Place::Pose {
                heading: h as f64 * degrees,
                speed: s as f64 * speed,
            });
        }
        Some(Place::Cell)
    }
}

/// Writes the trace of `search` on `world` in `format`, every node where it lies: what the
/// app exports.
pub fn write_world(
    rec: &Recorder,
    world: &AnySpace,
    search: &dyn SearchState,
    format: Format,
) -> String {
    struct On<'a> {
        rec: &'a Recorder,
        world: &'a AnySpace,
        search: &'a dyn SearchState,
        format: Format,
    }
    impl SpaceFn for On<'_> {
        type Out = String;
        fn call<S: Family>(self, space: &S) -> String {
            let xy = |n: u32| self.world.xy(n);
            let layout = Layout {
                cell: &xy,
                hex: self.world.hex_layout(),
            };
            let places = places(space, self.search);
            write(self.rec, layout, Some(&places), self.format)
        }
    }
    world.with(On {
        rec,
        world,
        search,
        format,
    })
}

/// Colours by event type, pathlab's palette (docs/ui.md): start and goal as their discs,
/// expanded as the closed set, generated and updated as the open set, the path green,
/// line-of-sight checks green when clear and red when blocked.
const FILL: &str = "${{ ({ source: '#28aa46', destination: '#d72d2d', expanding: '#fab878', \
generating: '#96c8f5', updating: '#96c8f5', reopening: '#96c8f5', consistent: '#fab878', \
inconsistent: '#aa78d2', path: '#a0dc28', end: '#a0dc28', 'world-change': '#222226', \
choice: '#dc1ec8', walk: '#dc1ec8' })[$.type] || '#afafaf' }}";

/// Writes the trace as Posthoc YAML, every node as its cell (or hex).
pub fn to_yaml(rec: &Recorder, layout: Layout) -> String {
    write(rec, layout, None, Format::Yaml)
}

/// Writes the trace in `format`, each node drawn where `places` says (as its cell where it
/// gives none).
///
/// Ids are the search's own ([`Recorder::search_ids`]): where the recorder projects a
/// vehicle's lattice onto cells, every state keeps its id, so no state is its own parent and
/// Posthoc's walk from an event to the root ends.
pub fn write(rec: &Recorder, layout: Layout, places: Option<Places>, format: Format) -> String {
    let json = format == Format::Json;
    let mut events = String::with_capacity(rec.len() * 80);
    let mut shapes = Shapes::default();
    let world_nodes = rec.layers()[0].len;
    let mut ids = Ids::new(rec);
    for (i, e) in rec.iter().enumerate() {
        let [node, other] = rec.search_ids(i).unwrap_or([e.node, e.other]);
        let (name, a, b) = fields(e.kind);
        let (id, other_id) = if name == "pId" {
            ids.parent(e.kind, node, other)
        } else {
            (ids.of(node), ids.of(other))
        };
        if json && i > 0 {
            events.push_str(",\n");
        }
        let mut f = Fields::start(&mut events, json);
        f.word("type", e.kind.name());
        let at = Site {
            layout,
            places,
            rec,
            world_nodes,
        };
        let present = e.node != NONE;
        match e.kind {
            // The phase number is not a node: no id, no cell.
            EventKind::Phase => {
                if present {
                    f.int("phase", e.node as u64);
                }
            }
            // The end of a search without a path, or a new plan: the node is no place to draw.
            EventKind::Replan | EventKind::NoPath => {
                if present {
                    f.int("at", e.node as u64);
                }
            }
            _ if !present => {}
            _ => {
                f.int("id", id);
                at.write(&mut f, &mut shapes, "", e.node, node);
            }
        }
        // Every value the event holds, under the names `fields` gives its kind, so a trace
        // read back (posthoc_in) gives the same events.
        if e.kind != EventKind::Phase {
            if e.other != NONE {
                f.int(name, other_id);
                if name == "from" {
                    at.write(&mut f, &mut Shapes::default(), "from", e.other, other);
                }
            }
            f.value(a, e.a);
            f.value(b, e.b);
        }
        f.end();
    }
    let mut out = String::with_capacity(events.len() + 2048);
    let header = header(layout, shapes);
    if json {
        out.push_str("{\n");
        for (k, v) in &header {
            let _ = write!(out, "\"{k}\": ");
            v.json(&mut out);
            out.push_str(",\n");
        }
        out.push_str("\"events\": [\n");
        out.push_str(&events);
        out.push_str("\n]}\n");
    } else {
        V::Map(header).yaml(&mut out, 0);
        out.push_str("events:\n");
        out.push_str(&events);
    }
    out
}

/// Posthoc's ids, one per node of the search tree. A node is named by the id its search gave
/// it until an event makes it its own parent: AIPATH's exact poses, where a pose is reached
/// from another in the same lattice state, are two nodes of its tree in one state. Posthoc's
/// walk to the root would never leave such an event, so from there on the state goes by a
/// fresh id (past every id its search can name) whose parent is the id it had.
struct Ids {
    /// A renamed state's id and its parent's.
    renamed: HashMap<u32, (u64, u64)>,
    next: u64,
}

impl Ids {
    fn new(rec: &Recorder) -> Ids {
        // Past the ids the search can name, so that a fresh id never reads as another node;
        // and past any it did name (a foreign trace's, read back).
        let most = (0..rec.len())
            .filter_map(|i| rec.search_ids(i))
            .flatten()
            .filter(|&n| n != NONE)
            .max();
        Ids {
            renamed: HashMap::new(),
            next: most.map_or(0, |n| n as u64 + 1).max(rec.search_id_count()),
        }
    }

    /// The id node `n` goes by now.
    fn of(&self, n: u32) -> u64 {
        self.renamed.get(&n).map_or(n as u64, |r| r.0)
    }

    /// The ids of an event that gives node `n` the parent `p`.
    fn parent(&mut self, kind: EventKind, n: u32, p: u32) -> (u64, u64) {
        if n != p || n == NONE {
            let (id, parent) = (self.of(n), self.of(p));
            if let (Some(r), true) = (self.renamed.get_mut(&n), p != NONE) {
                r.1 = parent;
            }
            return (id, parent);
        }
        match self.renamed.get(&n) {
            // Its expansion restates the parent it was entered with.
            Some(&r) if kind == EventKind::Expand => r,
            _ => {
                let r = (self.next, self.of(n));
                self.next += 1;
                self.renamed.insert(n, r);
                r
            }
        }
    }
}

/// What the events hold beyond cells, for the views to draw.
#[derive(Clone, Copy, Default)]
struct Shapes {
    /// Rectangles of more than one cell (navmesh polygons).
    rects: bool,
    /// Points (a layer's nodes).
    points: bool,
}

/// Where the nodes of one trace are.
struct Site<'a> {
    layout: Layout<'a>,
    places: Option<Places<'a>>,
    rec: &'a Recorder,
    world_nodes: u32,
}

impl Site<'_> {
    /// Writes where node `n` (recorded id; `given` as its search named it) is, under keys
    /// starting with `prefix` (`from` for a segment's start: `fromX`, `fromY`).
    fn write(&self, f: &mut Fields, shapes: &mut Shapes, prefix: &str, n: u32, given: u32) {
        let key = |k: &str| -> String {
            if prefix.is_empty() {
                k.to_string()
            } else {
                let mut c = k.chars();
                let first = c.next().map(|c| c.to_ascii_uppercase());
                format!("{prefix}{}{}", first.unwrap_or_default(), c.as_str())
            }
        };
        let place = self.places.and_then(|p| p(given));
        // A node of a later layer (a hierarchy's abstract graph, Field D*'s corners) names its
        // layer and its place there, and is drawn at its point where it has one.
        if n >= self.world_nodes {
            if let Some((layer, k)) = self.rec.layer_of(n) {
                f.text(&key("layer"), &layer.name);
                f.int(&key("layerIndex"), k as u64);
            }
            if let Some(Place::Point([x, y])) = place {
                if prefix.is_empty() {
                    f.num("x", round(x));
                    f.num("y", round(y));
                    shapes.points = true;
                }
            }
            return;
        }
        // A segment starts at its node's cell (centre), whatever the node's shape.
        if let (Some(Place::Rect([x0, y0, x1, y1])), true) = (place, prefix.is_empty()) {
            f.int("x", x0 as u64);
            f.int("y", y0 as u64);
            f.int("width", (x1 - x0) as u64);
            f.int("height", (y1 - y0) as u64);
            shapes.rects = true;
            return;
        }
        let (x, y) = (self.layout.cell)(n);
        f.int(&key("x"), x as u64);
        f.int(&key("y"), y as u64);
        if let Some((o, pitch)) = self.layout.hex {
            let (cx, cy) = o.centre(x, y, pitch);
            f.num(&key("cx"), round(cx));
            f.num(&key("cy"), round(cy));
            if prefix.is_empty() {
                f.points("points", &o.corners(x, y, pitch));
            }
        }
        if let (Some(Place::Pose { heading, speed }), true) = (place, prefix.is_empty()) {
            f.num("heading", round(heading));
            f.num("speed", round(speed));
        }
    }
}

/// The trace's views and pivot, for the shapes its events hold.
fn header(layout: Layout, shapes: Shapes) -> Vec<(&'static str, V)> {
    let s = |t: &str| V::Text(t.to_string());
    let drawn = "$.x != null && $.layer == null && $.type != 'line-of-sight' && $.type != 'jump'";
    let mut main = vec![];
    let (cx, cy) = match layout.hex {
        None => {
            let size = |k: &str| {
                if shapes.rects {
                    s(&format!("${{{{ $.{k} != null ? $.{k} : 1 }}}}"))
                } else {
                    V::Int(1)
                }
            };
            main.push(V::Map(vec![
                ("$", V::Word("rect")),
                ("$if", s(&format!("${{{{ {drawn} }}}}"))),
                ("x", s("${{ $.x }}")),
                ("y", s("${{ $.y }}")),
                ("width", size("width")),
                ("height", size("height")),
                ("fill", s(FILL)),
                ("clear", V::Bool(false)),
            ]));
            if shapes.rects {
                (
                    "$.x + ($.width != null ? $.width : 1) / 2",
                    "$.y + ($.height != null ? $.height : 1) / 2",
                )
            } else {
                ("$.x + 0.5", "$.y + 0.5")
            }
        }
        Some(_) => {
            main.push(V::Map(vec![
                ("$", V::Word("polygon")),
                ("$if", s(&format!("${{{{ {drawn} }}}}"))),
                ("points", s("${{ $.points }}")),
                ("fill", s(FILL)),
                ("clear", V::Bool(false)),
            ]));
            ("$.cx", "$.cy")
        }
    };
    // A line-of-sight check or a jump: a segment from the cell it starts at, shown at its step
    // only.
    let (fx, fy) = match layout.hex {
        None => ("$.fromX + 0.5", "$.fromY + 0.5"),
        Some(_) => ("$.fromCx", "$.fromCy"),
    };
    main.push(V::Map(vec![
        ("$", V::Word("path")),
        (
            "$if",
            s("${{ $.type == 'line-of-sight' || $.type == 'jump' }}"),
        ),
        (
            "points",
            s(&format!(
                "${{{{ [{{ x: {fx}, y: {fy} }}, {{ x: {cx}, y: {cy} }}] }}}}"
            )),
        ),
        (
            "fill",
            s("${{ ($.visible || $.found) ? '#00c878' : '#dc2828' }}"),
        ),
        ("line-width", V::Num(0.15)),
        ("clear", V::Bool(true)),
    ]));
    // A layer's node (a corner, a graph vertex) is a point: a short thick stroke centred on it.
    if shapes.points {
        main.push(V::Map(vec![
            ("$", V::Word("path")),
            ("$if", s("${{ $.layer != null && $.x != null }}")),
            (
                "points",
                s("${{ [{ x: $.x - 0.2, y: $.y }, { x: $.x + 0.2, y: $.y }] }}"),
            ),
            ("fill", s(FILL)),
            ("line-width", V::Num(0.4)),
            ("clear", V::Bool(false)),
        ]));
    }
    // The centre of each event, for Posthoc's path to the root and labels.
    let centre = |p: &str, c: &str| {
        if shapes.points {
            format!("${{{{ $.layer != null ? $.{p} : {c} }}}}")
        } else {
            format!("${{{{ {c} }}}}")
        }
    };
    vec![
        ("version", V::Word("1.4.0")),
        ("views", V::Map(vec![("main", V::List(main))])),
        (
            "pivot",
            V::Map(vec![
                ("x", V::Text(centre("x", cx))),
                ("y", V::Text(centre("y", cy))),
                ("scale", V::Int(1)),
            ]),
        ),
    ]
}

/// The names an event kind's `other`, `a` and `b` go under in a trace: Posthoc's `pId`, `g`
/// and `f` where they mean those (only events that set a parent carry `pId`: Posthoc builds
/// its search tree from them), pathlab's own names elsewhere.
pub fn fields(kind: EventKind) -> (&'static str, &'static str, &'static str) {
    use EventKind as K;
    match kind {
        K::Source | K::Generate | K::Update | K::Reopen | K::Expand => ("pId", "g", "f"),
        K::LineOfSight => ("from", "visible", "b"),
        K::Inconsistent => ("other", "g", "rhs"),
        K::WorldChange => ("other", "cost", "b"),
        K::PathNode => ("prev", "g", "b"),
        K::Consistent => ("other", "g", "b"),
        K::Found => ("other", "cost", "b"),
        K::Solution => ("other", "cost", "epsilon"),
        K::Choice => ("toward", "cone", "free"),
        K::Walk => ("from", "walked", "exploring"),
        K::Jump => ("from", "found", "b"),
        K::Destination | K::Phase | K::Replan | K::NoPath => ("other", "a", "b"),
        // Another tool's event: Posthoc's names.
        K::Other => ("pId", "typeIndex", "g"),
    }
}

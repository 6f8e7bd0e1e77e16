//! Export of a recorded run as a Posthoc search trace (format 1.4.0), in the YAML that Posthoc's
//! own loader (js-yaml, then its schema) reads.
//!
//! What Posthoc reads into an event: `type` names it, `id` is the node it is about, `pId` is a
//! parent (Posthoc draws the search tree and checks parents from it, so only events that set a
//! parent carry one), and `g`/`f` are the costs its views and breakpoints compare. Everything
//! else pathlab records goes under its own name (`cost`, `rhs`, `phase`, `from`, `visible`, …).

use super::{EventKind, Recorder, NONE};
use crate::space::HexOrientation;
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

/// Colours by event type, pathlab's palette (docs/ui.md): start and goal as their discs,
/// expanded as the closed set, generated and updated as the open set, the path green,
/// line-of-sight checks green when clear and red when blocked.
const FILL: &str = "${{ ({ source: '#28aa46', destination: '#d72d2d', expanding: '#fab878', \
generating: '#96c8f5', updating: '#96c8f5', reopening: '#96c8f5', consistent: '#fab878', \
inconsistent: '#aa78d2', path: '#a0dc28', end: '#a0dc28', 'world-change': '#222226', \
choice: '#dc1ec8', walk: '#dc1ec8' })[$.type] || '#afafaf' }}";

/// Writes the trace as Posthoc YAML.
pub fn to_yaml(rec: &Recorder, layout: Layout) -> String {
    let mut out = String::with_capacity(1024 + rec.len() * 80);
    out.push_str("version: 1.4.0\nviews:\n  main:\n");
    // Every expression is quoted: unquoted, the ` : ` of a ternary ends a YAML key.
    let only_cells =
        "      $if: \"${{ $.x != null && $.type != 'line-of-sight' && $.type != 'jump' }}\"\n";
    let (cx, cy) = match layout.hex {
        None => {
            let _ = write!(
                out,
                "    - $: rect\n{only_cells}      x: \"${{{{ $.x }}}}\"\n      y: \"${{{{ $.y }}}}\"\n      width: 1\n      height: 1\n"
            );
            ("$.x + 0.5", "$.y + 0.5")
        }
        Some(_) => {
            let _ = write!(
                out,
                "    - $: polygon\n{only_cells}      points: \"${{{{ $.points }}}}\"\n"
            );
            ("$.cx", "$.cy")
        }
    };
    let _ = writeln!(out, "      fill: \"{FILL}\"\n      clear: false");
    // A line-of-sight check or a jump: a segment from the cell it starts at, shown at its step
    // only.
    let (fx, fy) = match layout.hex {
        None => ("$.fromX + 0.5", "$.fromY + 0.5"),
        Some(_) => ("$.fromCx", "$.fromCy"),
    };
    let _ = write!(
        out,
        "    - $: path\n      $if: \"${{{{ $.type == 'line-of-sight' || $.type == 'jump' }}}}\"\n      points: \"${{{{ [{{ x: {fx}, y: {fy} }}, {{ x: {cx}, y: {cy} }}] }}}}\"\n      fill: \"${{{{ ($.visible || $.found) ? '#00c878' : '#dc2828' }}}}\"\n      line-width: 0.15\n      clear: true\n"
    );
    // The centre of each event, for Posthoc's path to the root and labels.
    let _ = writeln!(
        out,
        "pivot:\n  x: \"${{{{ {cx} }}}}\"\n  y: \"${{{{ {cy} }}}}\"\n  scale: 1"
    );
    out.push_str("events:\n");
    let world_nodes = rec.layers()[0].len;
    for e in rec.iter() {
        let kind = e.kind.name();
        let _ = write!(out, "  - {{ type: {kind}");
        let cell = |out: &mut String, prefix: &str, n: u32| {
            // A node of a later layer (a hierarchy's abstract graph) has no cell: it names its
            // layer and its place there, and the views skip it.
            if n >= world_nodes {
                if let Some((layer, k)) = rec.layer_of(n) {
                    let key = if prefix.is_empty() {
                        "layer"
                    } else {
                        "fromLayer"
                    };
                    let _ = write!(out, ", {key}: \"{}\", {key}Index: {k}", layer.name);
                }
                return;
            }
            let (x, y) = (layout.cell)(n);
            let (xk, yk) = if prefix.is_empty() {
                ("x".to_string(), "y".to_string())
            } else {
                (format!("{prefix}X"), format!("{prefix}Y"))
            };
            let _ = write!(out, ", {xk}: {x}, {yk}: {y}");
            if let Some((o, pitch)) = layout.hex {
                let (cx, cy) = o.centre(x, y, pitch);
                let (ck, cyk) = if prefix.is_empty() {
                    ("cx".to_string(), "cy".to_string())
                } else {
                    (format!("{prefix}Cx"), format!("{prefix}Cy"))
                };
                let _ = write!(out, ", {ck}: {}, {cyk}: {}", round(cx), round(cy));
                if prefix.is_empty() {
                    out.push_str(", points: [");
                    for (i, (px, py)) in o.corners(x, y, pitch).iter().enumerate() {
                        let sep = if i == 0 { "" } else { ", " };
                        let _ = write!(out, "{sep}{{ x: {}, y: {} }}", round(*px), round(*py));
                    }
                    out.push(']');
                }
            }
        };
        let node = e.node != NONE;
        match e.kind {
            // The phase number is not a node: no id, no cell.
            EventKind::Phase => {
                if node {
                    let _ = write!(out, ", phase: {}", e.node);
                }
            }
            // The end of a search without a path, or a new plan: the node is no place to draw.
            EventKind::Replan | EventKind::NoPath => {
                if node {
                    let _ = write!(out, ", at: {}", e.node);
                }
            }
            _ if !node => {}
            _ => {
                let _ = write!(out, ", id: {}", e.node);
                cell(&mut out, "", e.node);
            }
        }
        // Every value the event holds, under the names `fields` gives its kind, so a trace
        // read back (posthoc_in) gives the same events.
        if e.kind != EventKind::Phase {
            let (other, a, b) = fields(e.kind);
            if e.other != NONE {
                let _ = write!(out, ", {other}: {}", e.other);
                if other == "from" {
                    cell(&mut out, "from", e.other);
                }
            }
            value(&mut out, a, e.a);
            value(&mut out, b, e.b);
        }
        out.push_str(" }\n");
    }
    out
}

/// Writes a value unless it is NaN (no value); infinities as YAML writes them.
fn value(out: &mut String, name: &str, v: f32) {
    if v.is_nan() {
        return;
    }
    if matches!(name, "visible" | "found" | "exploring") && (v == 0.0 || v == 1.0) {
        let _ = write!(out, ", {name}: {}", v == 1.0);
    } else if v.is_infinite() {
        let _ = write!(out, ", {name}: {}", if v > 0.0 { ".inf" } else { "-.inf" });
    } else {
        let _ = write!(out, ", {name}: {v}");
    }
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

/// Coordinates to a thousandth of a cell: enough to draw, and short.
fn round(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

//! Export of a recorded run as a Posthoc search trace (`*.trace.yaml`, format 1.4.0).

use super::{EventKind, Recorder, NONE};
use std::fmt::Write;

/// Writes the trace as Posthoc YAML. `position` gives a node's (x, y) cell for drawing.
pub fn to_yaml(rec: &Recorder, position: impl Fn(u32) -> (f32, f32)) -> String {
    let mut out = String::with_capacity(64 + rec.len() * 64);
    out.push_str("version: 1.4.0\n");
    // One rectangle per event at the node's cell; Posthoc colours it by event type.
    out.push_str(concat!(
        "views:\n",
        "  main:\n",
        "    - $: rect\n",
        "      width: 1\n",
        "      height: 1\n",
        "      x: ${{ $.x }}\n",
        "      y: ${{ $.y }}\n",
        "      fill: ${{ $.type == 'expanding' ? color.orange : ($.type == 'end' || $.type == 'path' ? color.green : color.blue) }}\n",
        "      clear: false\n",
        "events:\n"
    ));
    for e in rec.iter() {
        let kind = match e.kind {
            EventKind::Source => "source",
            EventKind::Destination => "destination",
            EventKind::Generate => "generating",
            EventKind::Update | EventKind::Reopen => "updating",
            EventKind::Expand => "expanding",
            EventKind::Found | EventKind::NoPath => "end",
            EventKind::PathNode => "path",
            _ => e.kind.name(),
        };
        let _ = write!(out, "  - {{ type: {kind}");
        if e.node != NONE {
            let (x, y) = position(e.node);
            let _ = write!(out, ", id: {}, x: {}, y: {}", e.node, x, y);
        }
        if e.other != NONE {
            let _ = write!(out, ", pId: {}", e.other);
        }
        if e.a.is_finite() {
            let _ = write!(out, ", g: {}", e.a);
        }
        if e.b.is_finite() {
            let _ = write!(out, ", f: {}", e.b);
        }
        out.push_str(" }\n");
    }
    out
}

//! Posthoc search traces read into pathlab's events: format 1.4.0 (`views:` of components,
//! `events:`) and the earlier `render:` form (`render.components`, `render.views.main`,
//! `events:` or `eventList:`), as YAML or JSON.
//!
//! An event's node is where its view draws it: the first of the main view's rect, circle or
//! polygon components whose `$if` holds gives a point, and on a square map the cell under it
//! is the node. When every event's numeric `id` already names the cell it is drawn on (as
//! pathlab's own export writes them) or nothing is drawn, the ids are the nodes. Event types
//! pathlab knows map to its kinds (Posthoc's `closing` to a closed node); others are kept as
//! `other` events with their type's name. What the views hold beyond positions (colours,
//! paths, components pathlab does not draw) is listed in the import's notes.

use super::posthoc::fields;
use super::posthoc_expr::{eval, Value};
use super::posthoc_yaml::{parse, Node};
use super::{Event, EventKind, NONE};
use std::collections::HashMap;
use std::path::Path;

/// The world a trace is read onto.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Node ids the recording holds (the world's and its layers').
    pub nodes: usize,
    /// A square map's width and height: drawn positions name its cells.
    pub square: Option<(u32, u32)>,
}

/// A trace read.
#[derive(Clone, Debug, Default)]
pub struct Imported {
    pub events: Vec<Event>,
    /// Names of the event types pathlab does not know: an `Other` event's `a` indexes them.
    pub others: Vec<String>,
    /// What is not drawn, one line each.
    pub notes: Vec<String>,
    pub version: String,
}

/// Reads a trace file onto `target`; an error is one line naming the file and line.
pub fn read(path: &Path, target: &Target) -> Result<Imported, String> {
    super::posthoc::check_name(path)?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
    import(&text, target).map_err(|(line, why)| format!("{}:{line}: {why}", path.display()))
}

/// A drawing primitive of the main view.
struct Primitive<'a> {
    kind: &'a str,
    node: &'a Node,
}

/// The kind an event type names.
fn kind_of(name: &str) -> Option<EventKind> {
    match name {
        "end" => Some(EventKind::Found),
        "closing" => Some(EventKind::Expand),
        _ => EventKind::ALL
            .into_iter()
            .find(|k| *k != EventKind::Other && k.name() == name),
    }
}

/// The events list and the main view's primitives of a parsed trace.
/// A parsed trace's events, main view's primitives, context and notes.
type Layout<'a> = (&'a Node, Vec<Primitive<'a>>, Value, Vec<String>);

fn layout(root: &Node) -> Result<Layout<'_>, (usize, String)> {
    let Node::Map(..) = root else {
        return Err((
            root.line(),
            format!("a trace is a mapping with `events`, not {}", root.what()),
        ));
    };
    let events = root
        .get("events")
        .or_else(|| root.get("eventList"))
        .ok_or((1, "no `events` (or `eventList`) list".to_string()))?;
    if !matches!(events, Node::List(..)) {
        return Err((
            events.line(),
            format!("`events` is {}, not a list", events.what()),
        ));
    }
    let render = root.get("render");
    let ctx = render
        .and_then(|r| r.get("context"))
        .map_or(Value::Null, Value::of);
    // 1.4.0: views is a mapping of lists; earlier: render.views.main.components, with named
    // components in render.components.
    let (views, library) = match render {
        Some(r) => (r.get("views"), r.get("components")),
        None => (root.get("views"), root.get("views")),
    };
    let main = views.and_then(|v| {
        v.get("main").or(match v {
            Node::Map(m, _) => m.values().next(),
            _ => None,
        })
    });
    let main = match main {
        Some(m @ Node::Map(..)) => m.get("components"),
        other => other,
    };
    let mut notes = vec![];
    let mut prims = vec![];
    let mut queue: Vec<(&Node, usize)> = match main {
        Some(Node::List(v, _)) => v.iter().map(|c| (c, 0)).collect(),
        Some(other) => {
            return Err((
                other.line(),
                format!(
                    "the main view is {}, not a list of components",
                    other.what()
                ),
            ))
        }
        None => {
            notes.push("the trace has no view: its events are placed by their ids".into());
            vec![]
        }
    };
    queue.reverse();
    // Named components may name others (or themselves): at most this many are expanded.
    let mut budget = 10_000usize;
    while let Some((c, depth)) = queue.pop() {
        if budget == 0 {
            notes.push("the views name more than 10,000 components: the rest are not drawn".into());
            break;
        }
        budget -= 1;
        let Some(kind) = c.get("$").and_then(Node::as_str) else {
            return Err((
                c.line(),
                "a view component without a `$` naming what it draws".into(),
            ));
        };
        match kind {
            "rect" | "circle" | "polygon" => prims.push(Primitive { kind, node: c }),
            "path" => {
                let note = format!(
                    "line {}: `path` components (segments) are not drawn",
                    c.line()
                );
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
            _ => match library.and_then(|l| l.get(kind)) {
                Some(Node::List(v, _)) if depth < 8 => {
                    for sub in v.iter().rev() {
                        queue.push((sub, depth + 1));
                    }
                }
                _ => {
                    let note = format!(
                        "line {}: the `{kind}` component is not drawn (pathlab draws rect, circle and polygon)",
                        c.line()
                    );
                    if !notes.contains(&note) {
                        notes.push(note);
                    }
                }
            },
        }
    }
    notes.push(
        "colours come from pathlab's palette by event kind, not from the trace's `fill`".into(),
    );
    Ok((events, prims, ctx, notes))
}

/// Where the first primitive that applies draws event `ev` (`Err`: an expression pathlab
/// does not evaluate, reported once).
fn position(
    prims: &[Primitive],
    ev: &Value,
    ctx: &Value,
    notes: &mut Vec<String>,
) -> Option<[f64; 2]> {
    let mut note = |why: String| {
        if !notes.contains(&why) {
            notes.push(why);
        }
    };
    for p in prims {
        if let Some(cond) = p.node.get("$if") {
            match eval(cond, ev, ctx) {
                Ok(v) if !v.truthy() => continue,
                Ok(_) => {}
                Err(why) => {
                    note(format!(
                        "line {}: {why}; that component is not drawn",
                        cond.line()
                    ));
                    continue;
                }
            }
        }
        let at = |k: &str| p.node.get(k).map(|n| eval(n, ev, ctx));
        let point = match p.kind {
            "polygon" => match at("points") {
                Some(Ok(Value::List(pts))) if !pts.is_empty() => {
                    let xy: Vec<_> = pts
                        .iter()
                        .filter_map(|q| match q {
                            Value::Map(_) => Some([q_num(q, "x")?, q_num(q, "y")?]),
                            Value::List(v) if v.len() >= 2 => Some([v[0].num()?, v[1].num()?]),
                            _ => None,
                        })
                        .collect();
                    (xy.len() == pts.len()).then(|| {
                        let n = xy.len() as f64;
                        [
                            xy.iter().map(|p| p[0]).sum::<f64>() / n,
                            xy.iter().map(|p| p[1]).sum::<f64>() / n,
                        ]
                    })
                }
                Some(Err(why)) => {
                    note(format!(
                        "line {}: {why}; that component is not drawn",
                        p.node.line()
                    ));
                    None
                }
                _ => None,
            },
            _ => match (at("x"), at("y")) {
                (Some(Ok(x)), Some(Ok(y))) => {
                    let (w, h) = if p.kind == "rect" {
                        let size = |k| {
                            at(k)
                                .and_then(Result::ok)
                                .and_then(|v| v.num())
                                .unwrap_or(1.0)
                        };
                        (size("width"), size("height"))
                    } else {
                        (0.0, 0.0)
                    };
                    match (x.num(), y.num()) {
                        (Some(x), Some(y)) if x.is_finite() && y.is_finite() => {
                            Some([x + w * 0.5, y + h * 0.5])
                        }
                        _ => None,
                    }
                }
                (Some(Err(why)), _) | (_, Some(Err(why))) => {
                    note(format!(
                        "line {}: {why}; that component is not drawn",
                        p.node.line()
                    ));
                    None
                }
                _ => None,
            },
        };
        if point.is_some() {
            return point;
        }
    }
    None
}

fn q_num(q: &Value, k: &str) -> Option<f64> {
    match q {
        Value::Map(m) => m.get(k)?.num(),
        _ => None,
    }
}

/// An id as pathlab could use it: a non-negative integer.
fn int_id(n: Option<&Node>) -> Option<u64> {
    match n? {
        Node::Num(v, _) if *v >= 0.0 && v.fract() == 0.0 && *v < 1e15 => Some(*v as u64),
        _ => None,
    }
}

/// A key for an id of any form.
fn id_key(n: &Node) -> Option<String> {
    match n {
        Node::Num(v, _) => Some(v.to_string()),
        Node::Str(s, _) => Some(s.clone()),
        _ => None,
    }
}

/// Reads a trace's text onto `target`: the events, or the line and what is wrong there.
pub fn import(text: &str, target: &Target) -> Result<Imported, (usize, String)> {
    let root = parse(text)?;
    let version = match root.get("version") {
        Some(Node::Str(s, _)) => s.clone(),
        Some(Node::Num(v, _)) => v.to_string(),
        Some(other) => {
            return Err((
                other.line(),
                format!("`version` is {}, not text", other.what()),
            ))
        }
        None => String::new(),
    };
    let (events, prims, ctx, mut notes) = layout(&root)?;
    let Node::List(list, _) = events else {
        unreachable!("checked by layout")
    };
    // Each event's mapping, type, kind and drawn point.
    let mut rows = Vec::with_capacity(list.len());
    for (i, e) in list.iter().enumerate() {
        let Node::Map(..) = e else {
            return Err((
                e.line(),
                format!("event {} is {}, not a mapping", i + 1, e.what()),
            ));
        };
        let ty = match e.get("type") {
            None | Some(Node::Null(_)) => "",
            Some(Node::Str(s, _)) => s.as_str(),
            Some(other) => {
                return Err((
                    other.line(),
                    format!("event {}'s `type` is {}, not text", i + 1, other.what()),
                ))
            }
        };
        for key in ["id", "pId"] {
            if let Some(n @ (Node::List(..) | Node::Map(..) | Node::Bool(..))) = e.get(key) {
                return Err((
                    n.line(),
                    format!(
                        "event {}'s `{key}` is {}, not a number or text",
                        i + 1,
                        n.what()
                    ),
                ));
            }
        }
        let ev = Value::of(e);
        let point = position(&prims, &ev, &ctx, &mut notes);
        rows.push((e, ty, point));
    }
    let cell = |p: [f64; 2]| -> Option<u32> {
        let (w, h) = target.square?;
        let (x, y) = (p[0].floor(), p[1].floor());
        (x >= 0.0 && y >= 0.0 && x < w as f64 && y < h as f64).then(|| y as u32 * w + x as u32)
    };
    // The ids are the nodes when every drawn event with a numeric id is drawn on that node.
    let ids_are_nodes = rows.iter().all(|(e, _, p)| match (int_id(e.get("id")), p) {
        (Some(id), Some(p)) => target.square.is_none() || cell(*p) == Some(id as u32),
        (None, Some(_)) => e.get("id").is_none(),
        (_, None) => true,
    });
    let by_id = |n: Option<&Node>| -> Option<u32> {
        let id = int_id(n)?;
        (id < target.nodes as u64).then_some(id as u32)
    };
    let mut nodes_of: HashMap<String, u32> = HashMap::new();
    let mut out = Imported {
        version,
        ..Imported::default()
    };
    let mut off_map = 0usize;
    for (i, (e, ty, point)) in rows.iter().enumerate() {
        let kind = kind_of(ty);
        let num = |k: &str| -> Result<f64, (usize, String)> {
            match e.get(k) {
                None | Some(Node::Null(_)) => Ok(f64::NAN),
                Some(Node::Num(v, _)) => Ok(*v),
                Some(Node::Bool(b, _)) => Ok(*b as u8 as f64),
                Some(other) => Err((
                    other.line(),
                    format!("event {}'s `{k}` is {}, not a number", i + 1, other.what()),
                )),
            }
        };
        let node = if kind == Some(EventKind::Phase) {
            let p = num("phase")?;
            if p.is_nan() {
                NONE
            } else {
                p as u32
            }
        } else if matches!(kind, Some(EventKind::NoPath | EventKind::Replan)) {
            by_id(e.get("at")).unwrap_or(NONE)
        } else if ids_are_nodes {
            match e.get("id") {
                None => NONE,
                n => by_id(n).unwrap_or_else(|| {
                    off_map += 1;
                    NONE
                }),
            }
        } else {
            match point.and_then(&cell) {
                Some(n) => n,
                None => {
                    off_map += 1;
                    NONE
                }
            }
        };
        if let Some(k) = e.get("id").and_then(id_key) {
            if node != NONE {
                nodes_of.insert(k, node);
            }
        }
        let (other_name, a_name, b_name) = fields(kind.unwrap_or(EventKind::Other));
        let other = match e.get(other_name) {
            None | Some(Node::Null(_)) => NONE,
            n if ids_are_nodes => by_id(n).unwrap_or(NONE),
            Some(n) => id_key(n)
                .and_then(|k| nodes_of.get(&k).copied())
                .unwrap_or(NONE),
        };
        let (mut a, mut b) = (num(a_name)?, num(b_name)?);
        let kind = match kind {
            Some(k) => {
                // A foreign trace's end carries g rather than a cost.
                if k == EventKind::Found && a.is_nan() {
                    a = num("g")?;
                }
                k
            }
            None => {
                let name = if ty.is_empty() { "(no type)" } else { ty };
                let k = match out.others.iter().position(|o| o == name) {
                    Some(k) => k,
                    None => {
                        out.others.push(name.to_string());
                        out.others.len() - 1
                    }
                };
                // An Other event's `a` names its type; its g goes in `b`.
                (a, b) = (k as f64, num("g")?);
                EventKind::Other
            }
        };
        out.events.push(Event {
            kind,
            node,
            other,
            a: a as f32,
            b: b as f32,
        });
    }
    if off_map > 0 {
        notes.push(format!(
            "{off_map} events are not on the map and are not drawn"
        ));
    }
    for o in &out.others {
        notes.push(format!(
            "events of type `{o}` are kept, shown as other events"
        ));
    }
    out.notes = notes;
    Ok(out)
}

/// Where two trace files first differ, event by event (type, id, parent and every other
/// field as written): `None` when they hold the same events.
pub fn compare(a: &Path, b: &Path) -> Result<Option<String>, String> {
    let load = |p: &Path| -> Result<Vec<Node>, String> {
        super::posthoc::check_name(p)?;
        let text = std::fs::read_to_string(p)
            .map_err(|e| format!("{}: cannot read it: {e}", p.display()))?;
        let root = parse(&text).map_err(|(l, why)| format!("{}:{l}: {why}", p.display()))?;
        let (events, ..) =
            layout(&root).map_err(|(l, why)| format!("{}:{l}: {why}", p.display()))?;
        match events {
            Node::List(v, _) => Ok(v.clone()),
            _ => unreachable!("checked by layout"),
        }
    };
    let (ea, eb) = (load(a)?, load(b)?);
    for (i, (x, y)) in ea.iter().zip(&eb).enumerate() {
        let (vx, vy) = (Value::of(x), Value::of(y));
        if vx != vy {
            let show = |v: &Value| match v {
                Value::Map(m) => m
                    .iter()
                    .map(|(k, v)| format!("{k}: {}", short(v)))
                    .collect::<Vec<_>>()
                    .join(", "),
                other => short(other),
            };
            let keys = match (&vx, &vy) {
                (Value::Map(m), Value::Map(n)) => {
                    let mut k: Vec<&String> = m.keys().chain(n.keys()).collect();
                    k.sort();
                    k.dedup();
                    k.retain(|k| m.get(*k) != n.get(*k));
                    format!(
                        " ({} differ)",
                        k.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                    )
                }
                _ => String::new(),
            };
            return Ok(Some(format!(
                "event {} differs{keys}:\n  {}:{}: {}\n  {}:{}: {}",
                i + 1,
                a.display(),
                x.line(),
                show(&vx),
                b.display(),
                y.line(),
                show(&vy)
            )));
        }
    }
    if ea.len() != eb.len() {
        let (longer, n) = if ea.len() > eb.len() {
            (a, ea.len())
        } else {
            (b, eb.len())
        };
        return Ok(Some(format!(
            "the first {} events are the same; {} goes on to {n}",
            ea.len().min(eb.len()),
            longer.display()
        )));
    }
    Ok(None)
}

fn short(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Num(x) => x.to_string(),
        Value::Str(s) => format!("{s:?}"),
        Value::List(l) => format!("[{} items]", l.len()),
        Value::Map(m) => format!("{{{} keys}}", m.len()),
    }
}

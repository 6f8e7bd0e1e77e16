//! Posthoc search traces read into pathlab's events: format 1.4.0 (`views:` of components,
//! `events:`) and the earlier `render:` form (`render.components`, `render.views.main`,
//! `events:` or `eventList:`), as YAML or JSON.
//!
//! **Where an event goes.** An event is placed where its view draws it: the first of the main
//! view's rect, circle or polygon components whose `$if` holds gives a point, and the node of
//! the world under that point is the event's node. An event's `id` is only a name: tools
//! number their nodes their own way (Posthoc's A* examples number the cells of a wider map),
//! so an id is never taken for a node of this world on its own word. Ids stand for nodes only
//! when they were *seen* to: at least one event is drawn, and every drawn event with a
//! numeric id is drawn on the very node that id names (pathlab's own exports are so). Then an
//! event that is not drawn (a line-of-sight check, a jump) is placed by its id as well.
//! Otherwise an event that is not drawn takes the node its id was last drawn on, or none; a
//! parent (`pId`) is likewise the node its id was last drawn on.
//!
//! Event types pathlab knows map to its kinds (Posthoc's `closing` to a closed node); others
//! are kept as `other` events with their type's name. A trace from another tool that ends
//! (`end`) without path events has its path rebuilt from the end's parents, as Posthoc's
//! path-to-root does. What the views hold beyond positions (colours, paths, components
//! pathlab does not draw) is listed in the import's notes.
//!
//! **Limits.** A trace is read through pathlab's input checks (regular files only, at most
//! [`crate::limits::MAX_FILE_BYTES`], and never an output of the same run); its events are read
//! one at a time, and all of its view expressions together get a budget of work
//! ([`expression_budget`]): a view that would take minutes over its events stops the import,
//! naming the expression that was cut.

use super::posthoc::fields;
use super::posthoc_expr::{num_text, Budget, Prop, Scope, Stop, Value};
use super::posthoc_yaml::{read_skipping, Error, Events, FoundList, Node};
use super::{Event, EventKind, NONE};
use crate::space::HexOrientation;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

mod compare;
#[cfg(test)]
mod keys_tests;
mod place;
mod target;

pub use compare::compare;
use place::place;
use target::Loc;
pub use target::{Place, Target};

/// A trace read.
#[derive(Clone, Debug, Default)]
pub struct Imported {
    pub events: Vec<Event>,
    /// Names of the event types pathlab does not know: an `Other` event's `a` indexes them.
    pub others: Vec<String>,
    /// What is not drawn, one line each.
    pub notes: Vec<String>,
    pub version: String,
    /// The trace's own events that are about a node (they carry an `id` or are drawn).
    pub about_nodes: usize,
    /// Of those, the events placed on a node of the world.
    pub placed: usize,
    /// Events drawn outside the map.
    pub off_map: usize,
    /// Events drawn at all.
    pub drawn: usize,
    /// Path events rebuilt from an end's parents (a foreign trace's path).
    pub rebuilt_path: usize,
}

/// Work all of one trace's view expressions may take: a step per token evaluated (about
/// 10–30 ns each), so a trace of `bytes` gets 50 million steps and 8 more per byte of its
/// text, within 10⁹ (tens of seconds at worst). pathlab's own export takes about 25 steps an
/// event, a third of a step per byte.
pub fn expression_budget(bytes: usize) -> u64 {
    (50_000_000 + 8 * bytes as u64).min(1_000_000_000)
}

/// Reads a trace file onto `target`; an error is one line naming the file and line.
pub fn read(path: &Path, target: &Target) -> Result<Imported, String> {
    let text = read_text(path)?;
    import(&text, target).map_err(|(line, why)| format!("{}:{line}: {why}", path.display()))
}

/// A trace file's text, read through pathlab's input checks (a regular file within the size
/// limit, noted as an input so no output of the run replaces it), without a byte-order mark.
fn read_text(path: &Path) -> Result<String, String> {
    super::posthoc::check_name(path)?;
    let mut text = crate::map::io::read_text_file(path).map_err(|e| e.to_string())?;
    if text.starts_with('\u{feff}') {
        text.drain(..3);
    }
    Ok(text)
}

/// Notes, each once.
#[derive(Default)]
struct Notes {
    list: Vec<String>,
    seen: HashSet<String>,
}

impl Notes {
    fn add(&mut self, n: String) {
        if self.seen.insert(n.clone()) {
            self.list.push(n);
        }
    }
}

/// A drawing primitive of the main view, its properties ready to evaluate.
struct Primitive {
    kind: &'static str,
    line: usize,
    cond: Option<(Prop, usize)>,
    x: Option<Prop>,
    y: Option<Prop>,
    width: Option<Prop>,
    height: Option<Prop>,
    points: Option<Prop>,
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

/// What a trace's parts say, but its events: where they are (their key and line), the main
/// view's primitives, the context and whether `$` is the earlier formats' context.
struct Layout {
    events_key: &'static str,
    prims: Vec<Primitive>,
    ctx: Value,
    context_dollar: bool,
    notes: Notes,
    version: String,
}

/// Whether a version is before 1.4.0, where `$` became the event.
fn before_1_4(version: &str) -> Option<bool> {
    let mut parts = version.trim().trim_start_matches('v').split('.');
    let major: u32 = parts.next()?.trim().parse().ok()?;
    let minor: u32 = parts.next().map_or(Some(0), |m| {
        m.chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .ok()
    })?;
    Some((major, minor) < (1, 4))
}

fn layout(root: &Node) -> Result<Layout, Error> {
    let Node::Map(..) = root else {
        return Err((
            root.line(),
            format!("a trace is a mapping with `events`, not {}", root.what()),
        ));
    };
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
    let events_key = if root.get("events").is_some() {
        "events"
    } else if root.get("eventList").is_some() {
        "eventList"
    } else {
        return Err((1, "no `events` (or `eventList`) list".to_string()));
    };
    let events = root.get(events_key).expect("found above");
    if !matches!(events, Node::List(..)) {
        return Err((
            events.line(),
            format!("`events` is {}, not a list", events.what()),
        ));
    }
    let render = root.get("render");
    // Before 1.4.0 (the `render:` form), `$` is a context holding the event; a trace of no
    // version is of that form when it has `render:`.
    let context_dollar = before_1_4(&version).unwrap_or(render.is_some());
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
    let mut notes = Notes::default();
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
            notes.add("the trace has no view: no event is drawn, so none is placed".into());
            vec![]
        }
    };
    queue.reverse();
    // Named components may name others (or themselves): at most this many are expanded.
    let mut budget = 10_000usize;
    while let Some((c, depth)) = queue.pop() {
        if budget == 0 {
            notes.add("the views name more than 10,000 components: the rest are not drawn".into());
            break;
        }
        budget -= 1;
        let Some(kind) = c.get("$").and_then(Node::as_str) else {
            return Err((
                c.line(),
                "a view component without a `$` naming what it draws".into(),
            ));
        };
        let prop = |k: &str| c.get(k).map(Prop::of);
        match kind {
            "rect" | "circle" | "polygon" => prims.push(Primitive {
                kind: match kind {
                    "rect" => "rect",
                    "circle" => "circle",
                    _ => "polygon",
                },
                line: c.line(),
                cond: c.get("$if").map(|n| (Prop::of(n), n.line())),
                x: prop("x"),
                y: prop("y"),
                width: prop("width"),
                height: prop("height"),
                points: prop("points"),
            }),
            "path" => notes.add(format!(
                "line {}: `path` components (segments) are not drawn",
                c.line()
            )),
            _ => match library.and_then(|l| l.get(kind)) {
                Some(Node::List(v, _)) if depth < 8 => {
                    for sub in v.iter().rev() {
                        queue.push((sub, depth + 1));
                    }
                }
                _ => notes.add(format!(
                    "line {}: the `{kind}` component is not drawn (pathlab draws rect, circle and polygon)",
                    c.line()
                )),
            },
        }
    }
    notes.add(
        "colours come from pathlab's palette by event kind, not from the trace's `fill`".into(),
    );
    Ok(Layout {
        events_key,
        prims,
        ctx,
        context_dollar,
        notes,
        version,
    })
}

/// What stops an import: the budget ran out in an expression (its line and text).
fn cut(line: usize, p: &Prop, event: usize) -> Error {
    (
        line,
        format!(
            "stopped evaluating `{}` at event {event}: the trace's view expressions took more than pathlab's budget of work (a component evaluated for every event, or text built up); simplify the view",
            p.src()
        ),
    )
}

/// Where the first primitive that applies draws an event; notes an expression pathlab does
/// not evaluate (once); an error when the budget of work ran out.
fn position(
    prims: &[Primitive],
    scope: Scope,
    budget: &mut Budget,
    notes: &mut Notes,
    event: usize,
) -> Result<Option<[f64; 2]>, Error> {
    let mut eval = |p: &Prop, line: usize, notes: &mut Notes| -> Result<Option<Value>, Error> {
        match p.eval(scope, budget) {
            Ok(v) => Ok(Some(v)),
            Err(Stop::Cut) => Err(cut(line, p, event)),
            Err(Stop::Beyond(why)) => {
                notes.add(format!("line {line}: {why}; that component is not drawn"));
                Ok(None)
            }
        }
    };
    for p in prims {
        if let Some((cond, line)) = &p.cond {
            match eval(cond, *line, notes)? {
                Some(v) if v.truthy() => {}
                _ => continue,
            }
        }
        let point = match p.kind {
            "polygon" => match &p.points {
                Some(pts) => match eval(pts, p.line, notes)? {
                    Some(Value::List(pts)) if !pts.is_empty() => {
                        let xy: Vec<_> = pts
                            .iter()
                            .filter_map(|q| match q {
                                Value::Map(m) => Some([m.get("x")?.num()?, m.get("y")?.num()?]),
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
                    _ => None,
                },
                None => None,
            },
            _ => {
                let (Some(x), Some(y)) = (&p.x, &p.y) else {
                    continue;
                };
                let x = eval(x, p.line, notes)?.and_then(|v| v.num());
                let y = eval(y, p.line, notes)?.and_then(|v| v.num());
                match (x, y) {
                    (Some(x), Some(y)) => {
                        let (w, h) = if p.kind == "rect" {
                            let mut size = |s: &Option<Prop>| -> Result<f64, Error> {
                                Ok(match s {
                                    Some(s) => {
                                        eval(s, p.line, notes)?.and_then(|v| v.num()).unwrap_or(1.0)
                                    }
                                    None => 1.0,
                                })
                            };
                            (size(&p.width)?, size(&p.height)?)
                        } else {
                            (0.0, 0.0)
                        };
                        Some([x + w * 0.5, y + h * 0.5])
                    }
                    _ => None,
                }
            }
        };
        if point.is_some() {
            return Ok(point);
        }
    }
    Ok(None)
}

/// An id as pathlab could use it for a node: a non-negative integer (or text that is one).
fn int_id(n: Option<&Node>) -> Option<u64> {
    let v = match n? {
        Node::Num(v, _) => *v,
        Node::Str(s, _) => num_text(s)?,
        _ => return None,
    };
    (v >= 0.0 && v.fract() == 0.0 && v < 1e15).then_some(v as u64)
}

/// Ids by their text: numbers and text that spell the same id are one.
#[derive(Default)]
struct Keys {
    of: HashMap<String, u32>,
    /// Finite numbers by their bits, which name the same keys as their printed text without
    /// printing it (printing and hashing each id was a sixth of reading a large trace):
    /// distinct finite numbers print differently, and any text that prints as a finite
    /// number reads as that number (`num_text`), so it comes here too. Infinities and NaN
    /// keep their text, which words in the trace may also spell (`inf`).
    nums: HashMap<u64, u32>,
}

impl Keys {
    fn key(&mut self, n: Option<&Node>) -> Option<u32> {
        let v = match n? {
            Node::Num(v, _) => Ok(*v),
            Node::Str(s, _) => num_text(s).ok_or(s),
            _ => return None,
        };
        let next = (self.of.len() + self.nums.len()) as u32;
        Some(match v {
            Ok(v) if v.is_finite() => *self.nums.entry(v.to_bits()).or_insert(next),
            Ok(v) => *self.of.entry(v.to_string()).or_insert(next),
            Err(s) => *self.of.entry(s.clone()).or_insert(next),
        })
    }
}

/// One event as read, before its node is decided.
struct Row {
    kind: EventKind,
    /// A phase's number; a no-path or replan event's `at` id.
    fixed: Option<u64>,
    id: Option<u32>,
    id_int: Option<u64>,
    /// The value under the kind's parent-like field (`pId`, `from`, …): its key and number.
    other: Option<u32>,
    other_int: Option<u64>,
    /// `pId`, whatever the kind (an end's parent, for the path).
    pid: Option<u32>,
    a: f64,
    b: f64,
    drawn: Option<Loc>,
}

/// Reads a trace's text onto `target`: the events, or the line and what is wrong there.
pub fn import(text: &str, target: &Target) -> Result<Imported, Error> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (root, found) = read_skipping(text, &["events", "eventList"])?;
    let Layout {
        events_key,
        prims,
        ctx,
        context_dollar,
        mut notes,
        version,
    } = layout(&root)?;
    drop(root);
    let mut budget = Budget {
        left: expression_budget(text.len()),
    };
    let mut keys = Keys::default();
    let mut others: Vec<String> = vec![];
    let mut other_index: HashMap<String, usize> = HashMap::new();
    let mut rows: Vec<Row> = vec![];
    for (i, e) in Events::of(text, events_key, found.as_ref())?.enumerate() {
        let e = e?;
        rows.push(read_event(
            &e,
            i,
            &mut keys,
            (&mut others, &mut other_index),
            |ev| {
                let scope = Scope {
                    ev,
                    ctx: &ctx,
                    context_dollar,
                };
                let p = position(&prims, scope, &mut budget, &mut notes, i + 1)?;
                Ok(p.and_then(|p| target.locate(p)))
            },
        )?);
    }
    drop(keys);
    let mut out = Imported {
        version,
        others,
        ..Imported::default()
    };
    place(&rows, target, &mut out, &mut notes);
    out.notes = notes.list;
    Ok(out)
}

/// Checks and reads event `i` (0-based); `locate` evaluates where its view draws it.
fn read_event(
    e: &Node,
    i: usize,
    keys: &mut Keys,
    (others, other_index): (&mut Vec<String>, &mut HashMap<String, usize>),
    locate: impl FnOnce(&Value) -> Result<Option<Loc>, Error>,
) -> Result<Row, Error> {
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
    let num = |k: &str| -> Result<f64, Error> {
        match e.get(k) {
            None | Some(Node::Null(_)) => Ok(f64::NAN),
            Some(Node::Num(v, _)) => Ok(*v),
            Some(Node::Bool(b, _)) => Ok(*b as u8 as f64),
            Some(Node::Str(s, l)) => num_text(s).ok_or_else(|| {
                (
                    *l,
                    format!("event {}'s `{k}` is text ({s:?}), not a number", i + 1),
                )
            }),
            Some(other) => Err((
                other.line(),
                format!("event {}'s `{k}` is {}, not a number", i + 1, other.what()),
            )),
        }
    };
    let known = kind_of(ty);
    let (other_name, a_name, b_name) = fields(known.unwrap_or(EventKind::Other));
    let (mut a, mut b) = (num(a_name)?, num(b_name)?);
    let kind = match known {
        Some(k) => {
            // A foreign trace's end carries g rather than a cost.
            if k == EventKind::Found && a.is_nan() {
                a = num("g")?;
            }
            k
        }
        None => {
            let name = if ty.is_empty() { "(no type)" } else { ty };
            let k = match other_index.get(name) {
                Some(&k) => k,
                None => {
                    others.push(name.to_string());
                    other_index.insert(name.to_string(), others.len() - 1);
                    others.len() - 1
                }
            };
            // An Other event's `a` names its type; its g goes in `b`.
            (a, b) = (k as f64, num("g")?);
            EventKind::Other
        }
    };
    let fixed = match kind {
        EventKind::Phase => {
            let p = num("phase")?;
            (p >= 0.0 && p.fract() == 0.0 && p < u32::MAX as f64).then_some(p as u64)
        }
        EventKind::NoPath | EventKind::Replan => int_id(e.get("at")),
        _ => None,
    };
    let other_node = match e.get(other_name) {
        None | Some(Node::Null(_)) => None,
        n => n,
    };
    let ev = super::posthoc_expr::Value::of(e);
    Ok(Row {
        kind,
        fixed,
        id: keys.key(e.get("id")),
        id_int: int_id(e.get("id")),
        other: keys.key(other_node),
        other_int: int_id(other_node),
        pid: keys.key(e.get("pId")),
        a,
        b,
        drawn: locate(&ev)?,
    })
}

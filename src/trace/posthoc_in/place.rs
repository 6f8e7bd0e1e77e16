//! Each read event's node and parent, by the rule in the module's notes (drawn points first,
//! ids only where drawn events show they name nodes), and a foreign trace's path rebuilt from
//! its end's parents.

use super::*;

/// Decides each event's node and parent (see the module's notes), rebuilds a foreign trace's
/// path, and counts what was placed.
pub(super) fn place(rows: &[Row], target: &Target, out: &mut Imported, notes: &mut Notes) {
    let by_id = |id: Option<u64>| -> Option<u32> {
        let id = id?;
        (id < target.nodes as u64 && id < NONE as u64).then_some(id as u32)
    };
    // Ids name nodes only when seen to: some event is drawn, and every drawn event with a
    // numeric id is drawn on the node its id names.
    let mut seen = 0usize;
    let mut agree = true;
    for r in rows {
        if let (Some(id), Some(at)) = (r.id_int, r.drawn) {
            seen += 1;
            agree &= at == Loc::Node(id as u32) && by_id(Some(id)).is_some();
        }
    }
    let ids_are_nodes = seen > 0 && agree;
    // The node each id was last placed on; each id's latest parent and g, for the path.
    let mut node_of: HashMap<u32, u32> = HashMap::new();
    let mut parent_of: HashMap<u32, u32> = HashMap::new();
    let mut g_of: HashMap<u32, f64> = HashMap::new();
    let mut path_since_end = false;
    let mut unplaced_drawn = 0usize;
    for r in rows {
        let node = match r.kind {
            EventKind::Phase => r.fixed.map_or(NONE, |p| p as u32),
            EventKind::NoPath | EventKind::Replan if ids_are_nodes => {
                by_id(r.fixed).unwrap_or(NONE)
            }
            EventKind::NoPath | EventKind::Replan => NONE,
            _ => match r.drawn {
                Some(Loc::Node(n)) if (n as usize) < target.nodes => n,
                Some(_) => NONE,
                None if ids_are_nodes => by_id(r.id_int).unwrap_or(NONE),
                None => r.id.and_then(|k| node_of.get(&k).copied()).unwrap_or(NONE),
            },
        };
        let about = r.id.is_some() || r.drawn.is_some();
        if about
            && !matches!(
                r.kind,
                EventKind::Phase | EventKind::NoPath | EventKind::Replan
            )
        {
            out.about_nodes += 1;
            if node != NONE {
                out.placed += 1;
            }
        }
        match r.drawn {
            Some(Loc::Off) => out.off_map += 1,
            Some(Loc::NoNode) => unplaced_drawn += 1,
            _ => {}
        }
        out.drawn += r.drawn.is_some() as usize;
        if let (Some(k), true) = (r.id, node != NONE) {
            node_of.insert(k, node);
        }
        let other = match (r.other, ids_are_nodes) {
            (None, _) => NONE,
            (Some(_), true) => by_id(r.other_int).unwrap_or(NONE),
            (Some(k), false) => node_of.get(&k).copied().unwrap_or(NONE),
        };
        if let (Some(k), Some(p)) = (r.id, r.pid) {
            parent_of.insert(k, p);
        }
        if let Some(k) = r.id {
            if matches!(
                r.kind,
                EventKind::Source
                    | EventKind::Generate
                    | EventKind::Update
                    | EventKind::Reopen
                    | EventKind::Expand
            ) && r.a.is_finite()
            {
                g_of.insert(k, r.a);
            }
        }
        path_since_end |= r.kind == EventKind::PathNode;
        if r.kind == EventKind::Found && !std::mem::take(&mut path_since_end) {
            // An end without path events: the path is its id's chain of parents, as
            // Posthoc's path-to-root follows them.
            if let Some(path) = r.id.and_then(|end| chain(end, r.pid, &parent_of, &node_of)) {
                let mut prev = NONE;
                for (k, n) in &path {
                    let g = g_of.get(k).copied().unwrap_or(f64::NAN);
                    out.events
                        .push(Event::new(EventKind::PathNode, *n, prev, g, 0.0));
                    prev = *n;
                }
                out.rebuilt_path += path.len();
                notes.add(format!(
                    "the path ({} nodes) is rebuilt from the end event's parents (pId)",
                    path.len()
                ));
            } else if r.id.is_some() {
                notes.add("the end event's parents (pId) lead to no node drawn on the map: no path is shown".into());
            }
        }
        out.events.push(Event {
            kind: r.kind,
            node,
            other,
            a: r.a as f32,
            b: r.b as f32,
        });
    }
    let not_placed = out.about_nodes - out.placed;
    if not_placed > 0 {
        notes.add(format!(
            "{not_placed} events are not placed on the map and are not drawn{}",
            match (out.off_map, unplaced_drawn) {
                (0, 0) => String::new(),
                (o, 0) => format!(" ({o} drawn outside it)"),
                (0, w) => format!(" ({w} drawn on no node)"),
                (o, w) => format!(" ({o} drawn outside it, {w} on no node)"),
            }
        ));
    }
    if matches!(target.place, Place::Nowhere) && !rows.is_empty() {
        notes.add("no map to place the events on".into());
    } else if !ids_are_nodes && out.drawn < rows.len() {
        notes.add(
            "the trace's ids do not name this map's cells (or no drawn event shows that they do): events its view does not draw are not placed by their ids".into(),
        );
    }
    // A line per unknown type for a few; a count beyond (a trace of thousands of types).
    const SHOWN: usize = 8;
    for o in out.others.iter().take(SHOWN) {
        notes.add(format!(
            "events of type `{o}` are kept, shown as other events"
        ));
    }
    if out.others.len() > SHOWN {
        notes.add(format!(
            "{} more event types pathlab does not know are kept, shown as other events",
            out.others.len() - SHOWN
        ));
    }
}

/// The path to the end event `end` from its root, by parents: each id's latest `pId` (the
/// end's own `pId` first), until an id with none, one seen before (a loop) or one not drawn.
fn chain(
    end: u32,
    end_parent: Option<u32>,
    parent_of: &HashMap<u32, u32>,
    node_of: &HashMap<u32, u32>,
) -> Option<Vec<(u32, u32)>> {
    let mut path = vec![(end, *node_of.get(&end)?)];
    let mut seen = HashSet::from([end]);
    let mut next = end_parent.or_else(|| parent_of.get(&end).copied());
    while let Some(k) = next {
        if !seen.insert(k) {
            break;
        }
        // A parent never placed (Posthoc's examples name a root's parent by a sentinel id):
        // the path starts at the last id placed.
        let Some(&n) = node_of.get(&k) else { break };
        path.push((k, n));
        next = parent_of.get(&k).copied();
    }
    path.reverse();
    Some(path)
}

//! `trace --compare`: where two trace files first differ, read a pair of events at a time.

use super::*;

/// Values equal as a trace states them: numbers by value, NaN equal to NaN (a file holding
/// `.nan` is the same as itself).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| kx == ky && same(vx, vy))
        }
        _ => a == b,
    }
}

/// Where two trace files first differ, event by event (type, id, parent and every other
/// field as written): `None` when they hold the same events. The events are read one pair
/// at a time, so two large traces take their texts' memory and one event each.
pub fn compare(a: &Path, b: &Path) -> Result<Option<String>, String> {
    let (ta, tb) = (read_text(a)?, read_text(b)?);
    let events = |p: &Path, text: &str| -> Result<(&'static str, Option<FoundList>), String> {
        let at = |(l, why): Error| format!("{}:{l}: {why}", p.display());
        let (root, found) = read_skipping(text, &["events", "eventList"]).map_err(at)?;
        Ok((layout(&root).map_err(at)?.events_key, found))
    };
    let ((ka, fa), (kb, fb)) = (events(a, &ta)?, events(b, &tb)?);
    let mut ea = Events::of(&ta, ka, fa.as_ref()).map_err(at(a))?;
    let mut eb = Events::of(&tb, kb, fb.as_ref()).map_err(at(b))?;
    let mut i = 0usize;
    loop {
        let (x, y) = (ea.next(), eb.next());
        let (x, y) = match (x, y) {
            (None, None) => return Ok(None),
            (Some(x), Some(y)) => (x.map_err(at(a))?, y.map_err(at(b))?),
            (x, y) => {
                // One ran out: count the other's remaining events.
                let (longer, rest) = match (x, y) {
                    (Some(x), None) => (a, x.map(|_| 1).map_err(at(a))? + count(&mut ea, a)?),
                    (None, Some(y)) => (b, y.map(|_| 1).map_err(at(b))? + count(&mut eb, b)?),
                    _ => unreachable!("both ended above"),
                };
                return Ok(Some(format!(
                    "the first {i} events are the same; {} goes on to {}",
                    longer.display(),
                    i + rest
                )));
            }
        };
        i += 1;
        let (vx, vy) = (Value::of(&x), Value::of(&y));
        if !same(&vx, &vy) {
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
                    k.retain(|k| match (m.get(*k), n.get(*k)) {
                        (Some(p), Some(q)) => !same(p, q),
                        _ => true,
                    });
                    format!(
                        " ({} differ)",
                        k.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                    )
                }
                _ => String::new(),
            };
            return Ok(Some(format!(
                "event {i} differs{keys}:\n  {}:{}: {}\n  {}:{}: {}",
                a.display(),
                x.line(),
                show(&vx),
                b.display(),
                y.line(),
                show(&vy)
            )));
        }
    }
}

/// An error of file `p` as one line.
fn at(p: &Path) -> impl Fn(Error) -> String + '_ {
    move |(l, why)| format!("{}:{l}: {why}", p.display())
}

/// The events left in a stream (each checked).
fn count(e: &mut Events, p: &Path) -> Result<usize, String> {
    let mut n = 0;
    for x in e {
        x.map_err(|(l, why)| format!("{}:{l}: {why}", p.display()))?;
        n += 1;
    }
    Ok(n)
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

//! A trace file as a tree of YAML values that remember their line, so a bad event is named by
//! the line it is on. JSON is read by the same parser (YAML 1.2 holds it). Scalars resolve as
//! js-yaml's default schema does for what traces hold: null, booleans, numbers (`.inf` too),
//! else strings; quoted scalars are strings.
//!
//! A trace's events can be read one at a time ([`Events`]) rather than as one tree: a file of
//! millions of events is then held as its text and one event, not as millions of mappings
//! (a tree costs about ten times the text). One document only, as Posthoc's loader (js-yaml's
//! `load`) requires: a second `---` document is refused with its line.

use std::collections::BTreeMap;
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::TScalarStyle;

/// A value and the line (1-based) it starts on.
#[derive(Clone, Debug)]
pub enum Node {
    Null(usize),
    Bool(bool, usize),
    Num(f64, usize),
    Str(String, usize),
    List(Vec<Node>, usize),
    Map(BTreeMap<String, Node>, usize),
}

impl Node {
    pub fn line(&self) -> usize {
        match self {
            Node::Null(l)
            | Node::Bool(_, l)
            | Node::Num(_, l)
            | Node::Str(_, l)
            | Node::List(_, l)
            | Node::Map(_, l) => *l,
        }
    }

    pub fn get(&self, k: &str) -> Option<&Node> {
        match self {
            Node::Map(m, _) => m.get(k),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::Str(s, _) => Some(s),
            _ => None,
        }
    }

    /// What kind of value this is, for messages.
    pub fn what(&self) -> &'static str {
        match self {
            Node::Null(_) => "null",
            Node::Bool(..) => "a boolean",
            Node::Num(..) => "a number",
            Node::Str(..) => "text",
            Node::List(..) => "a list",
            Node::Map(..) => "a mapping",
        }
    }
}

/// A line and what is wrong there.
pub type Error = (usize, String);

/// Indentation (and compact `- ` nesting) deeper than this is refused.
pub(super) const MAX_NESTING: usize = 2000;

/// A plain scalar as [`scalar`] reads it.
pub(super) fn scalar_plain(v: &str, line: usize) -> Node {
    scalar(v.to_string(), TScalarStyle::Plain, line)
}

fn scalar(v: String, style: TScalarStyle, line: usize) -> Node {
    if style != TScalarStyle::Plain {
        return Node::Str(v, line);
    }
    match v.as_str() {
        "null" | "Null" | "NULL" | "~" | "" => Node::Null(line),
        "true" | "True" | "TRUE" => Node::Bool(true, line),
        "false" | "False" | "FALSE" => Node::Bool(false, line),
        ".inf" | ".Inf" | ".INF" | "+.inf" => Node::Num(f64::INFINITY, line),
        "-.inf" | "-.Inf" | "-.INF" => Node::Num(f64::NEG_INFINITY, line),
        ".nan" | ".NaN" | ".NAN" => Node::Num(f64::NAN, line),
        _ => match v.parse::<f64>() {
            // "1_000", "0x10" and the like stay text; digits and signs parse.
            Ok(x)
                if v.bytes()
                    .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b)) =>
            {
                Node::Num(x, line)
            }
            _ => Node::Str(v, line),
        },
    }
}

/// The parser's events for one document, with their lines.
struct Reader<'a> {
    p: Parser<std::str::Chars<'a>>,
    /// Lines in the text: errors at the end of a file without a last newline are reported on
    /// the line after it.
    lines: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of the document's root value (`None`: the file is empty).
    fn new(text: &'a str) -> Result<Option<Reader<'a>>, Error> {
        // Values are built without recursion, but a tree is dropped recursively: a file nested
        // absurdly deep is refused before it is read (flow nesting is capped by the parser).
        for (i, line) in text.lines().enumerate() {
            let rest = line.trim_start();
            let mut depth = line.len() - rest.len();
            let mut r = rest;
            while let Some(t) = r.strip_prefix("- ").or_else(|| r.strip_prefix("? ")) {
                depth += 2;
                r = t.trim_start();
            }
            if depth > MAX_NESTING {
                return Err((i + 1, format!("nested deeper than {MAX_NESTING} columns")));
            }
        }
        let mut r = Reader {
            p: Parser::new_from_str(text),
            lines: text.lines().count().max(1),
        };
        loop {
            match r.next()? {
                (Event::StreamStart, _) => {}
                (Event::DocumentStart, _) => return Ok(Some(r)),
                (Event::StreamEnd, _) => return Ok(None),
                (_, l) => return Err((l, "no YAML document starts here".into())),
            }
        }
    }

    fn next(&mut self) -> Result<(Event, usize), Error> {
        match self.p.next_token() {
            Ok((Event::Alias(_), m)) => Err((
                m.line().max(1),
                "YAML aliases (*name) are not read: write the value itself".into(),
            )),
            Ok((ev, m)) => Ok((ev, m.line().max(1))),
            Err(e) => Err((e.marker().line().clamp(1, self.lines), e.info().to_string())),
        }
    }

    /// The value that starts with `first`, built without recursion.
    fn value(&mut self, first: (Event, usize)) -> Result<Node, Error> {
        // Open lists and mappings, with a mapping's pending key.
        let mut stack: Vec<(Node, Option<String>)> = vec![];
        let mut ev = first;
        loop {
            let done = match ev {
                (Event::Scalar(v, style, _, _), l) => Some(scalar(v, style, l)),
                (Event::SequenceStart(..), l) => {
                    stack.push((Node::List(vec![], l), None));
                    None
                }
                (Event::MappingStart(..), l) => {
                    stack.push((Node::Map(BTreeMap::new(), l), None));
                    None
                }
                (Event::SequenceEnd | Event::MappingEnd, l) => match stack.pop() {
                    Some((n, _)) => Some(n),
                    None => return Err((l, "a list or mapping ends that never began".into())),
                },
                (_, l) => return Err((l, "the document ends inside a value".into())),
            };
            if let Some(n) = done {
                match stack.last_mut() {
                    None => return Ok(n),
                    Some((parent, key)) => put(parent, key, n)?,
                }
            }
            ev = self.next()?;
        }
    }

    /// Passes over the value that starts with `first`; its line.
    fn skip(&mut self, first: (Event, usize)) -> Result<(), Error> {
        let mut depth = 0usize;
        let mut ev = first;
        loop {
            match ev.0 {
                Event::SequenceStart(..) | Event::MappingStart(..) => depth += 1,
                Event::SequenceEnd | Event::MappingEnd => depth = depth.saturating_sub(1),
                Event::Scalar(..) => {}
                _ => return Err((ev.1, "the document ends inside a value".into())),
            }
            if depth == 0 {
                return Ok(());
            }
            ev = self.next()?;
        }
    }

    /// After the root value: the document ends, and no second one begins.
    fn finish(&mut self) -> Result<(), Error> {
        loop {
            match self.next()? {
                (Event::DocumentEnd, _) => {}
                (Event::StreamEnd, _) => return Ok(()),
                (_, l) => {
                    return Err((
                        l,
                        "a second YAML document begins here (after `---`); a trace is one document, as Posthoc reads it".into(),
                    ))
                }
            }
        }
    }
}

/// Puts `n` into an open list or mapping (a mapping's key first, then its value).
fn put(parent: &mut Node, key: &mut Option<String>, n: Node) -> Result<(), Error> {
    match parent {
        Node::List(v, _) => v.push(n),
        Node::Map(m, _) => match key.take() {
            None => {
                *key = Some(key_text(&n)?);
            }
            Some(k) => {
                if m.contains_key(&k) {
                    return Err((n.line(), format!("the key `{k}` appears twice")));
                }
                m.insert(k, n);
            }
        },
        _ => {}
    }
    Ok(())
}

pub(super) fn key_text(n: &Node) -> Result<String, Error> {
    match n {
        Node::Str(s, _) => Ok(s.clone()),
        Node::Num(x, _) => Ok(x.to_string()),
        Node::Bool(b, _) => Ok(b.to_string()),
        Node::Null(_) => Ok("null".into()),
        other => Err((other.line(), "a key is a list or mapping".into())),
    }
}

/// Parses a trace's text but for the values of the root's `skip` keys, which are checked and
/// stood for by an empty list or mapping on their line (or kept, when a scalar). The whole
/// document is read, so every syntax error is found here.
///
/// A skipped list of one-line events of the simple shape ([`posthoc_fast`]) is checked by
/// that reader, and the parser reads the rest with the list's lines left blank; the list so
/// found comes back too, for [`Events::of`] to read without finding it again.
///
/// [`posthoc_fast`]: super::posthoc_fast
pub fn read_skipping(text: &str, skip: &[&str]) -> Result<(Node, Option<FoundList>), Error> {
    for &key in skip {
        if let Some((root, block)) = fast_root(text, key, skip) {
            return Ok((root, Some(FoundList(key.to_string(), block))));
        }
    }
    Ok((parse_all_skipping(text, skip)?, None))
}

/// The list of simple events under a root key, as [`read_skipping`] found it.
pub struct FoundList(String, super::posthoc_fast::Block);

/// The root as [`parse_all_skipping`] would give it, when `key` holds a list of simple
/// events, and that list: the rest parsed with the list left out, and the list's line put
/// back. `None` where that does not hold, or where the rest has an error (which the whole
/// parse then reports, from the text as it is).
fn fast_root(text: &str, key: &str, skip: &[&str]) -> Option<(Node, super::posthoc_fast::Block)> {
    let block = super::posthoc_fast::block(text, key)?;
    let masked = super::posthoc_fast::masked(text, key, &block);
    let mut root = parse_all_skipping(&masked, skip).ok()?;
    let Node::Map(m, _) = &mut root else {
        return None;
    };
    // The list must be the root's, where the block was found: `key: []` on the key's line.
    match m.get_mut(key) {
        Some(Node::List(v, l)) if v.is_empty() && *l == block.key_line => {
            // A block list's line is its first entry's, the line after the key.
            *l = block.key_line + 1;
            Some((root, block))
        }
        _ => None,
    }
}

/// [`read_skipping`]'s root by the parser alone.
pub(super) fn parse_all_skipping(text: &str, skip: &[&str]) -> Result<Node, Error> {
    let mut r = Reader::new(text)?.ok_or((1, "the file is empty".to_string()))?;
    let first = r.next()?;
    let root = match first {
        (Event::MappingStart(..), line) => {
            let mut m = BTreeMap::new();
            loop {
                let k = match r.next()? {
                    (Event::MappingEnd, _) => break,
                    ev @ (Event::Scalar(..), _) => key_text(&r.value(ev)?)?,
                    (_, l) => return Err((l, "a key is a list or mapping".into())),
                };
                let ev = r.next()?;
                let line = ev.1;
                let v = if skip.contains(&k.as_str()) {
                    match ev.0 {
                        Event::SequenceStart(..) => {
                            r.skip(ev)?;
                            Node::List(vec![], line)
                        }
                        Event::MappingStart(..) => {
                            r.skip(ev)?;
                            Node::Map(BTreeMap::new(), line)
                        }
                        _ => r.value(ev)?,
                    }
                } else {
                    r.value(ev)?
                };
                if m.contains_key(&k) {
                    return Err((line, format!("the key `{k}` appears twice")));
                }
                m.insert(k, v);
            }
            Node::Map(m, line)
        }
        other => r.value(other)?,
    };
    r.finish()?;
    Ok(root)
}

/// The items of the list under the root's key `key`, one at a time. Meant for a text that
/// [`read_skipping`] has read without error.
pub struct Events<'a>(Source<'a>);

enum Source<'a> {
    Parser {
        r: Box<Reader<'a>>,
        done: bool,
    },
    /// A list of simple events ([`super::posthoc_fast`]), read line by line.
    Lines(Box<dyn Iterator<Item = Result<Node, Error>> + 'a>),
}

impl<'a> Events<'a> {
    /// The events under `key` of `text`, which [`read_skipping`] read and where it found
    /// `found` (the list is then read line by line without looking for it again).
    pub fn of(text: &'a str, key: &str, found: Option<&FoundList>) -> Result<Events<'a>, Error> {
        match found {
            Some(FoundList(k, block)) if k == key => Ok(Self::lines(text, block)),
            _ => Self::new(text, key),
        }
    }

    /// The events under `key` of a text [`read_skipping`] has read, the list found anew.
    fn new(text: &'a str, key: &str) -> Result<Events<'a>, Error> {
        match fast_root(text, key, &[key]) {
            Some((_, block)) => Ok(Self::lines(text, &block)),
            None => Self::parsed(text, key),
        }
    }

    /// The events of a list the fast reader took.
    fn lines(text: &'a str, block: &super::posthoc_fast::Block) -> Events<'a> {
        let events = super::posthoc_fast::events(text, block);
        // Nothing after an error, as from the parser.
        let mut failed = false;
        let events = events.take_while(move |e| !std::mem::replace(&mut failed, e.is_err()));
        Events(Source::Lines(Box::new(events)))
    }

    /// [`Events::new`] by the parser alone.
    pub(super) fn parsed(text: &'a str, key: &str) -> Result<Events<'a>, Error> {
        let mut r = Reader::new(text)?.ok_or((1, "the file is empty".to_string()))?;
        let none = |l| Err((l, format!("no `{key}` list")));
        match r.next()? {
            (Event::MappingStart(..), _) => {}
            (_, l) => return none(l),
        }
        loop {
            let k = match r.next()? {
                ev @ (Event::Scalar(..), _) => key_text(&r.value(ev)?)?,
                (_, l) => return none(l),
            };
            let ev = r.next()?;
            if k == key {
                return match ev {
                    (Event::SequenceStart(..), _) => Ok(Events(Source::Parser {
                        r: Box::new(r),
                        done: false,
                    })),
                    (_, l) => Err((l, format!("`{key}` is not a list"))),
                };
            }
            r.skip(ev)?;
        }
    }
}

impl Iterator for Events<'_> {
    type Item = Result<Node, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let (r, done) = match &mut self.0 {
            Source::Lines(events) => return events.next(),
            Source::Parser { r, done } => (r, done),
        };
        if *done {
            return None;
        }
        let item = match r.next() {
            Ok((Event::SequenceEnd, _)) => {
                *done = true;
                return None;
            }
            Ok(ev) => r.value(ev),
            Err(e) => Err(e),
        };
        *done = item.is_err();
        Some(item)
    }
}

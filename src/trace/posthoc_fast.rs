//! The events of a large trace in the shape most writers give them, read without the YAML
//! parser: a root key at column 0 (`events:`) followed by one event a line, each a flow
//! mapping of plain words and numbers (`  - { type: expanding, id: 12, pId: 3, g: 1.5 }`).
//! The YAML parser took about 20 µs an event, twice over (once to check the document, once to
//! read the events); these lines read in a fraction of that.
//!
//! Anything else — a quoted or multi-line value, a comment, a blank line inside the list, a
//! nested value, a key written another way — and the whole list goes to the parser as before.
//! The rest of the document is still checked by the parser, with the list's lines left blank
//! so that every line number stays what it was.

use super::posthoc_yaml::{key_text, scalar_plain, Error, Node, MAX_NESTING};
use std::collections::btree_map::{BTreeMap, Entry};

/// A root key's list of one-line events, found in a text.
pub(super) struct Block {
    /// Line (1-based) of the key.
    pub key_line: usize,
    /// Bytes of the event lines: from the start of the first to the end of the last (its
    /// newline included, where it has one).
    pub bytes: std::ops::Range<usize>,
}

/// The list under root key `key` when every line of it is one event of the simple shape and
/// what follows it plainly ends it (the end of the text, or a new key at column 0).
pub(super) fn block(text: &str, key: &str) -> Option<Block> {
    let mut at = 0;
    let mut line = 1;
    // The key's line: `key:` at column 0, nothing after it but spaces.
    let start = loop {
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
        let l = &text[at..end];
        if let Some(rest) = l.strip_prefix(key).and_then(|r| r.strip_prefix(':')) {
            if rest.trim_end_matches([' ', '\t', '\r', '\n']).is_empty() {
                if !one_line(l) {
                    return None;
                }
                break end;
            }
        }
        if end == text.len() {
            return None;
        }
        (at, line) = (end, line + 1);
    };
    let key_line = line;
    let mut end_of_events = start;
    let mut indent = None;
    let mut count = 0;
    for l in text[start..].split_inclusive('\n') {
        let spaces = l.len() - l.trim_start_matches(' ').len();
        if l[spaces..].starts_with("- ") {
            // Lines nested too deep are the parser's to refuse (with the line).
            if *indent.get_or_insert(spaces) != spaces
                || spaces + 2 > MAX_NESTING
                || !one_line(l)
                || pairs(l, |_, _| {}).is_none()
            {
                return None;
            }
            end_of_events += l.len();
            count += 1;
            continue;
        }
        // What ends the list must be a new key at column 0.
        let first = l.as_bytes()[0];
        if !(first.is_ascii_alphabetic() || first == b'_' || first == b'"' || first == b'\'') {
            return None;
        }
        break;
    }
    (count > 0).then_some(Block {
        key_line,
        bytes: start..end_of_events,
    })
}

/// Whether `l` is one line to the parser too: a carriage return ends a line there, so one
/// that does not stand just before the newline would shift every line number after it.
fn one_line(l: &str) -> bool {
    let body = l.strip_suffix('\n').unwrap_or(l);
    !body.strip_suffix('\r').unwrap_or(body).contains('\r')
}

/// The text with the block's event lines left empty and its key given an empty list on its
/// own line (`key: []`), so the parser checks the rest with every line where it was.
pub(super) fn masked(text: &str, key: &str, b: &Block) -> String {
    // The key's line ends just before the first event; it is replaced whole.
    let key_start = text[..b.bytes.start - 1].rfind('\n').map_or(0, |i| i + 1);
    let mut out = String::from(&text[..key_start]);
    out.push_str(key);
    out.push_str(": []\n");
    let newlines = text[b.bytes.clone()]
        .bytes()
        .filter(|&c| c == b'\n')
        .count();
    out.extend(std::iter::repeat_n('\n', newlines));
    out.push_str(&text[b.bytes.end..]);
    out
}

/// The events of a block, one mapping each, with their lines.
pub(super) fn events<'a>(
    text: &'a str,
    b: &Block,
) -> impl Iterator<Item = Result<Node, Error>> + 'a {
    let first = b.key_line + 1;
    text[b.bytes.clone()]
        .split_inclusive('\n')
        .enumerate()
        .map(move |(i, l)| event(l, first + i).expect("checked when the block was found"))
}

/// One event line as a mapping on `line`: `None` when it is not of the simple shape (then
/// the parser reads the list), an error for what the parser would refuse too (a key twice).
fn event(l: &str, line: usize) -> Option<Result<Node, Error>> {
    let mut map = BTreeMap::new();
    let mut twice = None;
    pairs(l, |k, v| {
        let k = key_text(&scalar_plain(k, line)).expect("a word is a scalar");
        match map.entry(k) {
            Entry::Occupied(o) => {
                twice.get_or_insert(o.key().clone());
            }
            Entry::Vacant(e) => {
                e.insert(scalar_plain(v, line));
            }
        }
    })?;
    Some(match twice {
        Some(k) => Err((line, format!("the key `{k}` appears twice"))),
        None => Ok(Node::Map(map, line)),
    })
}

/// Calls `f(key, value)` for each pair of an event line of the simple shape, in order;
/// `None` (having called it for some) when the line is not of that shape.
fn pairs<'s>(l: &'s str, mut f: impl FnMut(&'s str, &'s str)) -> Option<()> {
    let l = l
        .trim_end_matches(['\n', '\r', ' ', '\t'])
        .trim_start_matches(' ');
    let inner = l.strip_prefix("- ")?.trim_start_matches(' ');
    let inner = inner.strip_prefix('{')?.strip_suffix('}')?;
    let mut rest = inner.trim_start_matches(' ');
    loop {
        let (k, r) = word(rest)?;
        let r = r.strip_prefix(": ")?.trim_start_matches(' ');
        let (v, r) = word(r)?;
        f(k, v);
        let r = r.trim_start_matches(' ');
        if r.is_empty() {
            return Some(());
        }
        rest = r.strip_prefix(',')?.trim_start_matches(' ');
        if rest.is_empty() {
            // `{ a: 1, }`: left to the parser.
            return None;
        }
    }
}

/// A word at the start of `s` (a letter or `_` first, then letters, digits, `_`, `-` and
/// `.`; or a number: digits, signs, `.`, `e`, that parses), and what follows it.
fn word(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    let first = *b.first()?;
    let n = if first.is_ascii_alphabetic() || first == b'_' {
        b.iter()
            .position(|c| !(c.is_ascii_alphanumeric() || b"_-.".contains(c)))
            .unwrap_or(b.len())
    } else {
        let n = b
            .iter()
            .position(|c| !(c.is_ascii_digit() || b"+-.eE".contains(c)))
            .unwrap_or(b.len());
        s[..n].parse::<f64>().ok()?;
        n
    };
    // A word ends where the mapping's punctuation or a space begins.
    match b.get(n) {
        None | Some(b' ' | b',' | b':') => Some((&s[..n], &s[n..])),
        _ => None,
    }
}

#[cfg(test)]
#[path = "posthoc_fast_tests.rs"]
mod tests;

//! The simple-shape reader against the parser: the same root, the same events with the same
//! lines, the same first error, on traces of every shape the reader takes and many it leaves
//! to the parser.

use super::super::posthoc_yaml::{parse_all_skipping, read_skipping, Events};
use super::*;

/// Both readers' roots and events, as text (a `Node` compares by its printed form, lines
/// included).
fn both(text: &str, key: &str) -> [(String, Vec<String>); 2] {
    let skip = ["events", "eventList"];
    let read = |root: Result<Node, Error>, events: Result<Events, Error>| {
        let root = format!("{root:?}");
        let events = match events {
            Ok(e) => e.map(|e| format!("{e:?}")).collect(),
            Err(e) => vec![format!("{e:?}")],
        };
        (root, events)
    };
    [
        match read_skipping(text, &skip) {
            // The list found with the root, as the importer reads it.
            Ok((root, found)) => read(Ok(root), Events::of(text, key, found.as_ref())),
            Err(e) => read(Err(e), Events::of(text, key, None)),
        },
        read(parse_all_skipping(text, &skip), Events::parsed(text, key)),
    ]
}

/// The key of a text's list: `eventList` where it has one.
fn list_key(text: &str) -> &'static str {
    if text.contains("eventList") {
        "eventList"
    } else {
        "events"
    }
}

/// Both readers agree on each text.
fn assert_same(cases: &[String]) {
    for (i, text) in cases.iter().enumerate() {
        let [fast, slow] = both(text, list_key(text));
        assert_eq!(fast, slow, "case {i}:\n{text}");
    }
}

#[test]
fn simple_events_read_as_the_parser_reads_them() {
    let events = "  - { type: source, id: 0, g: 0 }\n  - {type: expanding, id: 12, pId: 3, g: 1.5, f: -2.25e1}\n  - { type: generating,  id: x_1, pId: 0, note: v1.2-b, ok: true, n: null }\n";
    let cases = [
        format!("version: 1.4.0\nevents:\n{events}"),
        format!("version: 1.4.0\nevents:\n{events}render:\n  views: {{}}\n"),
        format!("render: {{ views: {{}} }}\nevents:   \n{events}"),
        format!("events:\n{}", events.replace("  - ", "- ")),
        format!("version: 1\r\nevents:\r\n{}", events.replace('\n', "\r\n")),
        format!("version: 1.4.0\neventList:\n{events}"),
        // A key twice in an event: the same error, on the same line, and nothing after it.
        format!("events:\n{events}  - {{ id: 1, id: 2 }}\n  - {{ id: 3 }}\n"),
        // A syntax error after the list is found either way.
        format!("events:\n{events}render: [\n"),
        // Keys that read as numbers, words the parser takes as null, true and numbers.
        format!(
            "events:\n  - {{ 1: a, 2.5: b, x: 1e3, y: .5, z: +3, t: True, n: NULL }}\n{events}"
        ),
    ];
    assert_same(&cases);
    // The fast reader took each of these (but the last two: an error after the list sends
    // the root to the parser; the events are still read a line at a time).
    for text in &cases[..7] {
        assert!(block(text, list_key(text)).is_some(), "{text}");
    }
}

#[test]
fn other_shapes_are_left_to_the_parser_with_the_same_results() {
    let ok = "  - { type: source, id: 0 }\n";
    let cases = [
        // Quoted values, comments, blank lines, nested values, flow punctuation.
        format!("events:\n{ok}  - {{ type: \"expanding\", id: 1 }}\n"),
        format!("events:\n{ok}  # a comment\n{ok}"),
        format!("events:\n{ok}\n{ok}"),
        format!("events:\n{ok}  - {{ id: 1, at: [1, 2] }}\n"),
        format!("events:\n{ok}  - {{ id: 1, }}\n"),
        format!("events:\n{ok}  - {{ id: 1 }} # done\n"),
        format!("events:\n{ok}  - {{}}\n"),
        format!("events:\n{ok}  - {{ id: -, g: 1 }}\n"),
        format!("events:\n{ok}  - {{ id: 1_000 }}\n"),
        format!("events:\n{ok}  - {{ a:1 }}\n"),
        format!("events:\n{ok}  - {{ g: .inf }}\n"),
        // Entries at two indentations, a block mapping, the key inside a quoted text.
        format!("events:\n{ok}    - {{ id: 1 }}\n"),
        format!("events:\n{ok}  - type: source\n    id: 2\n"),
        format!("note: \"a\nevents:\n{ok}\"\nevents:\n{ok}"),
        // A carriage return alone ends a line for the parser (every line number after it
        // counts it), on the key's line or an event's.
        format!("events:\r\r\n{ok}version: [1]\n"),
        "events:\n  - { type: source, id: 1 }\r\r\n  - { type: 5 }\n".to_string(),
        "events:\n  - { id: 1 }\r \n  - { id: 1, id: 2 }\n".to_string(),
        "events:\n  - { id: 1 }\r".to_string(),
        // Nested deeper than the parser reads: refused with its line.
        format!("events:\n{}- {{ id: 1 }}\n", " ".repeat(1999)),
        // What follows the list is not a new key, a second document, the key twice.
        format!("events:\n{ok}---\nevents: []\n"),
        format!("events:\n{ok}events:\n{ok}"),
        "events: []\n".to_string(),
        String::from("events:\n"),
    ];
    assert_same(&cases);
}

/// Random traces of simple events with now and then a line of another shape, and the lines
/// after the list: both readers agree on everything.
#[test]
fn random_traces_read_the_same_both_ways() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let words = [
        "expanding",
        "source",
        "x",
        "_a",
        "v1.2",
        "a-b",
        "null",
        "true",
        "False",
        "7",
        "-3",
        "1.5",
        "2e3",
        "-0.25",
        ".5",
        "+4",
    ];
    let odd = [
        "\"quoted\"",
        "[1, 2]",
        "{a: 1}",
        "'q'",
        "a b",
        "1_0",
        ".inf",
        "-",
        "#",
        "a:b",
    ];
    let mut fast_taken = 0;
    for round in 0..300 {
        let mut text = String::from(if round % 3 == 0 {
            ""
        } else {
            "version: 1.4.0\n"
        });
        text.push_str("events:\n");
        let indent = if round % 4 == 0 { "" } else { "  " };
        for _ in 0..rng.random_range(1..20) {
            let n = rng.random_range(1..6);
            let mut pairs = vec![];
            for _ in 0..n {
                let k = ["type", "id", "pId", "g", "f", "x", "1"][rng.random_range(0..7)];
                let v = if rng.random_bool(0.01) {
                    odd[rng.random_range(0..odd.len())]
                } else {
                    words[rng.random_range(0..words.len())]
                };
                pairs.push(format!("{k}: {v}"));
            }
            let sep = if rng.random_bool(0.5) { ", " } else { ",  " };
            text.push_str(&format!("{indent}- {{ {} }}\n", pairs.join(sep)));
        }
        if rng.random_bool(0.5) {
            text.push_str("render:\n  views: {}\n");
        }
        let [fast, slow] = both(&text, "events");
        assert_eq!(fast, slow, "round {round}:\n{text}");
        fast_taken += block(&text, "events").is_some() as u32;
    }
    // Most traces take the fast reader, and some do not.
    assert!((100..300).contains(&fast_taken), "{fast_taken}");
}

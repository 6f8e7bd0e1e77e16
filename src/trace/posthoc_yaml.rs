//! A trace file as a tree of YAML values that remember their line, so a bad event is named by
//! the line it is on. JSON is read by the same parser (YAML 1.2 holds it). Scalars resolve as
//! js-yaml's default schema does for what traces hold: null, booleans, numbers (`.inf` too),
//! else strings; quoted scalars are strings.

use std::collections::BTreeMap;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

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

/// Indentation (and compact `- ` nesting) deeper than this is refused.
const MAX_NESTING: usize = 2000;

/// Builds the tree from the parser's events.
#[derive(Default)]
struct Builder {
    /// Open lists and mappings, with a mapping's pending key.
    stack: Vec<(Node, Option<String>)>,
    root: Option<Node>,
    error: Option<(usize, String)>,
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

impl Builder {
    fn put(&mut self, n: Node) {
        match self.stack.last_mut() {
            None => self.root = Some(n),
            Some((Node::List(v, _), _)) => v.push(n),
            Some((Node::Map(m, _), key)) => match key.take() {
                None => match n {
                    Node::Str(s, _) => *key = Some(s),
                    Node::Num(x, _) => *key = Some(x.to_string()),
                    Node::Bool(b, _) => *key = Some(b.to_string()),
                    Node::Null(_) => *key = Some("null".into()),
                    other => {
                        self.error
                            .get_or_insert((other.line(), "a key is a list or mapping".into()));
                    }
                },
                Some(k) => {
                    if m.contains_key(&k) {
                        self.error
                            .get_or_insert((n.line(), format!("the key `{k}` appears twice")));
                    }
                    m.insert(k, n);
                }
            },
            Some(_) => {}
        }
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        let line = mark.line().max(1);
        match ev {
            Event::Scalar(v, style, _, _) => self.put(scalar(v, style, line)),
            Event::SequenceStart(..) => self.stack.push((Node::List(vec![], line), None)),
            Event::MappingStart(..) => self.stack.push((Node::Map(BTreeMap::new(), line), None)),
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((n, _)) = self.stack.pop() {
                    self.put(n);
                }
            }
            Event::Alias(_) => {
                self.error.get_or_insert((
                    line,
                    "YAML aliases (*name) are not read: write the value itself".into(),
                ));
            }
            _ => {}
        }
    }
}

/// Parses a trace's text: the tree, or the line and what is wrong there.
pub fn parse(text: &str) -> Result<Node, (usize, String)> {
    // The parser recurses once per level of nesting: a file nested absurdly deep is refused
    // before it can exhaust the stack (flow nesting is capped by the parser itself).
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
    let mut b = Builder::default();
    let mut p = Parser::new_from_str(text);
    if let Err(e) = p.load(&mut b, false) {
        // The end of a file without a last newline is reported on the line after it.
        let last = text.lines().count().max(1);
        return Err((e.marker().line().clamp(1, last), e.info().to_string()));
    }
    if let Some(e) = b.error {
        return Err(e);
    }
    b.root.ok_or((1, "the file is empty".into()))
}

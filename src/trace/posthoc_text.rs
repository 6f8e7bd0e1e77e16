//! The text of a Posthoc trace: its header as a YAML block or JSON, its events one a line as
//! YAML flow mappings or JSON objects, with the escapes and numbers both read back exactly.

use std::fmt::Write;

/// A value of the trace's header.
pub(super) enum V {
    /// Text YAML writes bare (a name, a version).
    Word(&'static str),
    Text(String),
    Int(u32),
    Num(f64),
    Bool(bool),
    List(Vec<V>),
    Map(Vec<(&'static str, V)>),
}

impl V {
    /// A block mapping's entries at `indent` spaces (a list's items as `- ` mappings).
    pub(super) fn yaml(&self, out: &mut String, indent: usize) {
        let V::Map(entries) = self else {
            return;
        };
        for (i, (k, v)) in entries.iter().enumerate() {
            // A list item's first key follows its `- `.
            let pad = if indent >= 2 && i == 0 && out.ends_with("- ") {
                0
            } else {
                indent
            };
            let _ = write!(out, "{:pad$}{k}:", "");
            match v {
                V::Map(_) => {
                    out.push('\n');
                    v.yaml(out, indent + 2);
                }
                V::List(items) => {
                    out.push('\n');
                    for item in items {
                        let _ = write!(out, "{:w$}- ", "", w = indent + 2);
                        item.yaml(out, indent + 4);
                    }
                }
                scalar => {
                    out.push(' ');
                    scalar.scalar(out, false);
                    out.push('\n');
                }
            }
        }
    }

    pub(super) fn json(&self, out: &mut String) {
        match self {
            V::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.json(out);
                }
                out.push(']');
            }
            V::Map(entries) => {
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    quote(out, k);
                    out.push_str(": ");
                    v.json(out);
                }
                out.push('}');
            }
            scalar => scalar.scalar(out, true),
        }
    }

    fn scalar(&self, out: &mut String, json: bool) {
        match self {
            V::Word(w) if !json => out.push_str(w),
            V::Word(w) => quote(out, w),
            V::Text(t) => quote(out, t),
            V::Int(v) => {
                let _ = write!(out, "{v}");
            }
            V::Num(v) => number(out, *v, json),
            V::Bool(b) => {
                let _ = write!(out, "{b}");
            }
            V::List(_) | V::Map(_) => {}
        }
    }
}

/// One event's fields, written as a YAML flow mapping on its own line or a JSON object.
pub(super) struct Fields<'a> {
    out: &'a mut String,
    json: bool,
    first: bool,
}

impl<'a> Fields<'a> {
    pub(super) fn start(out: &'a mut String, json: bool) -> Fields<'a> {
        out.push_str(if json { "{" } else { "  - { " });
        Fields {
            out,
            json,
            first: true,
        }
    }

    pub(super) fn key(&mut self, k: &str) {
        if !self.first {
            self.out.push_str(", ");
        }
        self.first = false;
        if self.json {
            quote(self.out, k);
        } else {
            self.out.push_str(k);
        }
        self.out.push_str(": ");
    }

    /// A name YAML writes bare (an event type).
    pub(super) fn word(&mut self, k: &str, w: &str) {
        self.key(k);
        if self.json {
            quote(self.out, w);
        } else {
            self.out.push_str(w);
        }
    }

    pub(super) fn text(&mut self, k: &str, t: &str) {
        self.key(k);
        quote(self.out, t);
    }

    pub(super) fn int(&mut self, k: &str, v: u64) {
        self.key(k);
        let _ = write!(self.out, "{v}");
    }

    pub(super) fn num(&mut self, k: &str, v: f64) {
        self.key(k);
        number(self.out, v, self.json);
    }

    pub(super) fn points(&mut self, k: &str, pts: &[(f64, f64)]) {
        self.key(k);
        self.out.push('[');
        for (i, (x, y)) in pts.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            if self.json {
                let _ = write!(self.out, "{{\"x\": {}, \"y\": {}}}", round(*x), round(*y));
            } else {
                let _ = write!(self.out, "{{ x: {}, y: {} }}", round(*x), round(*y));
            }
        }
        self.out.push(']');
    }

    /// A recorded value unless it is NaN (no value); flags as booleans, the rest as the
    /// shortest text that reads back to the same f32.
    pub(super) fn value(&mut self, name: &str, v: f32) {
        if v.is_nan() {
            return;
        }
        self.key(name);
        if matches!(name, "visible" | "found" | "exploring") && (v == 0.0 || v == 1.0) {
            let _ = write!(self.out, "{}", v == 1.0);
        } else if v.is_infinite() {
            infinity(self.out, v > 0.0, self.json);
        } else {
            let _ = write!(self.out, "{v}");
        }
    }

    pub(super) fn end(self) {
        self.out.push_str(if self.json { "}" } else { " }\n" });
    }
}

/// A finite number as Rust writes it (no exponent, so YAML and JSON both read it), infinities
/// as [`infinity`] writes them.
fn number(out: &mut String, v: f64, json: bool) {
    if v.is_infinite() {
        infinity(out, v > 0.0, json);
    } else if v.is_nan() {
        out.push_str("null");
    } else {
        let _ = write!(out, "{v}");
    }
}

/// YAML's `.inf`; JSON has no infinity, so `1e999`: a number in JSON's grammar that Posthoc's
/// loader (js-yaml), `JSON.parse` and pathlab's reader take as infinite.
fn infinity(out: &mut String, positive: bool, json: bool) {
    let sign = if positive { "" } else { "-" };
    let _ = match json {
        true => write!(out, "{sign}1e999"),
        false => write!(out, "{sign}.inf"),
    };
}

/// A double-quoted string, escaped as JSON and YAML both read it.
pub(super) fn quote(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Coordinates to a thousandth of a cell: enough to draw, and short.
pub(super) fn round(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

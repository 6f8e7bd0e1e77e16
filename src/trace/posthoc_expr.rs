//! The values Posthoc views compute from an event: YAML values, with strings of the form
//! `${{ expr }}` (format 1.4.0) or `{{ expr }}` (earlier formats) holding a JavaScript
//! expression over the event (`$`) and the trace's context.
//!
//! pathlab evaluates the expressions positions and conditions use in practice — numbers,
//! strings, `null`, `true`/`false`, `$.a.b` and `ctx.a` lookups, arithmetic, comparisons,
//! `!`, `&&`, `||` and `?:` — and says plainly when an expression is beyond that (a function
//! call, an object literal), so the view that needs it is reported as not drawn rather than
//! drawn wrong.

use super::posthoc_yaml::Node;
use std::collections::BTreeMap;

/// A value an expression computes.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    List(Vec<Value>),
    Map(BTreeMap<String, Value>),
}

impl Value {
    /// The value of a YAML node.
    pub fn of(n: &Node) -> Value {
        match n {
            Node::Null(_) => Value::Null,
            Node::Bool(b, _) => Value::Bool(*b),
            Node::Num(v, _) => Value::Num(*v),
            Node::Str(s, _) => Value::Str(s.clone()),
            Node::List(v, _) => Value::List(v.iter().map(Value::of).collect()),
            Node::Map(m, _) => {
                Value::Map(m.iter().map(|(k, v)| (k.clone(), Value::of(v))).collect())
            }
        }
    }

    /// JavaScript's truthiness.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Num(v) => *v != 0.0 && !v.is_nan(),
            Value::Str(s) => !s.is_empty(),
            Value::List(_) | Value::Map(_) => true,
        }
    }

    pub fn num(&self) -> Option<f64> {
        match self {
            Value::Num(v) => Some(*v),
            Value::Bool(b) => Some(*b as u8 as f64),
            _ => None,
        }
    }

    /// A field of a map (`undefined`, read as null, elsewhere).
    fn field(&self, k: &str) -> Value {
        match self {
            Value::Map(m) => m.get(k).cloned().unwrap_or(Value::Null),
            Value::List(v) if k == "length" => Value::Num(v.len() as f64),
            _ => Value::Null,
        }
    }
}

/// The expression inside a template string, if the string is one whole template.
fn template(s: &str) -> Option<&str> {
    let t = s.trim();
    let inner = t
        .strip_prefix("${{")
        .or_else(|| t.strip_prefix("{{"))?
        .strip_suffix("}}")?;
    (!inner.contains("{{")).then_some(inner)
}

/// Evaluates a view's property for event `ev`: literal values as they are, templates by
/// their expression. `Err` names what pathlab does not evaluate.
pub fn eval(prop: &Node, ev: &Value, ctx: &Value) -> Result<Value, String> {
    match prop {
        Node::Str(s, _) => match template(s) {
            Some(expr) => Expr::new(expr, ev, ctx).run(),
            None if s.contains("{{") => Err(format!("text mixed with an expression: `{s}`")),
            None => Ok(Value::Str(s.clone())),
        },
        other => Ok(Value::of(other)),
    }
}

/// A small Pratt parser that evaluates as it parses.
struct Expr<'a> {
    src: &'a str,
    toks: Vec<Tok>,
    at: usize,
    ev: &'a Value,
    ctx: &'a Value,
    /// Nesting so far: parentheses and unary operators recurse.
    depth: u32,
}

/// Deeper expressions are refused rather than allowed to exhaust the stack.
const MAX_DEPTH: u32 = 200;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(f64),
    Str(String),
    Ident(String),
    Op(&'static str),
}

const OPS: [&str; 22] = [
    "===", "!==", "==", "!=", "<=", ">=", "&&", "||", "<", ">", "+", "-", "*", "/", "%", "!", "(",
    ")", ".", "?", ":", ",",
];

impl<'a> Expr<'a> {
    fn new(src: &'a str, ev: &'a Value, ctx: &'a Value) -> Expr<'a> {
        Expr {
            src,
            toks: vec![],
            at: 0,
            ev,
            ctx,
            depth: 0,
        }
    }

    fn unsupported(&self) -> String {
        format!(
            "`{}` is beyond the expressions pathlab evaluates",
            self.src.trim()
        )
    }

    fn lex(&mut self) -> Result<(), String> {
        let b = self.src.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i] as char;
            if c.is_whitespace() {
                i += 1;
            } else if c.is_ascii_digit() {
                let j = i + self.src[i..]
                    .find(|ch: char| !(ch.is_ascii_digit() || ch == '.' || ch == 'e'))
                    .unwrap_or(b.len() - i);
                let v = self.src[i..j].parse().map_err(|_| self.unsupported())?;
                self.toks.push(Tok::Num(v));
                i = j;
            } else if c == '\'' || c == '"' {
                let end = self.src[i + 1..]
                    .find(c)
                    .ok_or_else(|| self.unsupported())?;
                self.toks
                    .push(Tok::Str(self.src[i + 1..i + 1 + end].to_string()));
                i += end + 2;
            } else if c == '$' || c == '_' || c.is_ascii_alphabetic() {
                let j = i + self.src[i..]
                    .find(|ch: char| !(ch == '$' || ch == '_' || ch.is_ascii_alphanumeric()))
                    .unwrap_or(b.len() - i);
                self.toks.push(Tok::Ident(self.src[i..j].to_string()));
                i = j;
            } else {
                let op = OPS
                    .iter()
                    .find(|op| self.src[i..].starts_with(**op))
                    .ok_or_else(|| self.unsupported())?;
                self.toks.push(Tok::Op(op));
                i += op.len();
            }
        }
        Ok(())
    }

    fn run(mut self) -> Result<Value, String> {
        self.lex()?;
        let v = self.expr(0)?;
        if self.at != self.toks.len() {
            return Err(self.unsupported());
        }
        Ok(v)
    }

    fn peek_op(&self) -> Option<&'static str> {
        match self.toks.get(self.at) {
            Some(Tok::Op(o)) => Some(o),
            _ => None,
        }
    }

    fn expect(&mut self, op: &str) -> Result<(), String> {
        if self.peek_op() == Some(op) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.unsupported())
        }
    }

    fn expr(&mut self, min: u8) -> Result<Value, String> {
        self.depth += 1;
        let v = self.expr_in(min);
        self.depth -= 1;
        v
    }

    fn expr_in(&mut self, min: u8) -> Result<Value, String> {
        let mut lhs = self.unary()?;
        while let Some(op) = self.peek_op() {
            let prec = match op {
                "?" => 1,
                "||" => 2,
                "&&" => 3,
                "==" | "!=" | "===" | "!==" => 4,
                "<" | ">" | "<=" | ">=" => 5,
                "+" | "-" => 6,
                "*" | "/" | "%" => 7,
                _ => break,
            };
            if prec < min {
                break;
            }
            self.at += 1;
            if op == "?" {
                let a = self.expr(0)?;
                self.expect(":")?;
                let b = self.expr(1)?;
                lhs = if lhs.truthy() { a } else { b };
                continue;
            }
            let rhs = self.expr(prec + 1)?;
            lhs = self.binary(op, lhs, rhs)?;
        }
        Ok(lhs)
    }

    fn binary(&self, op: &str, a: Value, b: Value) -> Result<Value, String> {
        // A number and a boolean compare as numbers; everything else by value.
        let loose_eq = |a: &Value, b: &Value| match (a, b) {
            (Value::Num(_), Value::Bool(_)) | (Value::Bool(_), Value::Num(_)) => a.num() == b.num(),
            _ => a == b,
        };
        Ok(match op {
            "||" => {
                if a.truthy() {
                    a
                } else {
                    b
                }
            }
            "&&" => {
                if a.truthy() {
                    b
                } else {
                    a
                }
            }
            "==" | "===" => Value::Bool(loose_eq(&a, &b)),
            "!=" | "!==" => Value::Bool(!loose_eq(&a, &b)),
            "+" => match (&a, &b) {
                (Value::Str(x), _) => Value::Str(format!("{x}{}", text(&b))),
                (_, Value::Str(y)) => Value::Str(format!("{}{y}", text(&a))),
                _ => Value::Num(self.n(&a)? + self.n(&b)?),
            },
            _ => {
                let (x, y) = (self.n(&a)?, self.n(&b)?);
                match op {
                    "-" => Value::Num(x - y),
                    "*" => Value::Num(x * y),
                    "/" => Value::Num(x / y),
                    "%" => Value::Num(x % y),
                    "<" => Value::Bool(x < y),
                    ">" => Value::Bool(x > y),
                    "<=" => Value::Bool(x <= y),
                    _ => Value::Bool(x >= y),
                }
            }
        })
    }

    /// A number for arithmetic: null and missing fields are NaN, as in JavaScript.
    fn n(&self, v: &Value) -> Result<f64, String> {
        match v {
            Value::Null => Ok(f64::NAN),
            Value::Str(s) => Ok(s.trim().parse().unwrap_or(f64::NAN)),
            other => other.num().ok_or_else(|| self.unsupported()),
        }
    }

    fn unary(&mut self) -> Result<Value, String> {
        self.depth += 1;
        let v = self.unary_in();
        self.depth -= 1;
        v
    }

    fn unary_in(&mut self) -> Result<Value, String> {
        if self.depth > MAX_DEPTH {
            return Err(format!(
                "an expression nested deeper than {MAX_DEPTH} levels: `{}…`",
                self.src.trim().chars().take(40).collect::<String>()
            ));
        }
        let tok = self
            .toks
            .get(self.at)
            .cloned()
            .ok_or_else(|| self.unsupported())?;
        self.at += 1;
        let mut v = match tok {
            Tok::Num(v) => Value::Num(v),
            Tok::Str(s) => Value::Str(s),
            Tok::Op("!") => return Ok(Value::Bool(!self.unary()?.truthy())),
            Tok::Op("-") => {
                let v = self.unary()?;
                return Ok(Value::Num(-self.n(&v)?));
            }
            Tok::Op("(") => {
                let v = self.expr(0)?;
                self.expect(")")?;
                v
            }
            Tok::Ident(id) => match id.as_str() {
                "$" => self.ev.clone(),
                "ctx" | "context" => self.ctx.clone(),
                "null" | "undefined" => Value::Null,
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                // An earlier format's context values stand by their own names.
                other => match self.ctx.field(other) {
                    Value::Null => return Err(self.unsupported()),
                    v => v,
                },
            },
            Tok::Op(_) => return Err(self.unsupported()),
        };
        while self.peek_op() == Some(".") {
            self.at += 1;
            let Some(Tok::Ident(k)) = self.toks.get(self.at).cloned() else {
                return Err(self.unsupported());
            };
            self.at += 1;
            v = v.field(&k);
        }
        if self.peek_op() == Some("(") {
            return Err(self.unsupported());
        }
        Ok(v)
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Num(x) => x.to_string(),
        Value::Str(s) => s.clone(),
        Value::List(_) | Value::Map(_) => "[object]".into(),
    }
}

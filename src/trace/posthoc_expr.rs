//! The values Posthoc views compute from an event: YAML values, with strings of the form
//! `${{ expr }}` (format 1.4.0) or `{{ expr }}` (earlier formats) holding a JavaScript
//! expression over the event and the trace's context.
//!
//! What `$` is depends on the format. From 1.4.0 it is the event itself (`$.x`). Before
//! 1.4.0 (the `render:` form) it is a context whose `event` field holds the event, beside
//! the trace's `render.context` values: `$.event.x`, `$.color[$.event.type]`.
//!
//! pathlab evaluates the expressions positions and conditions use in practice — numbers,
//! strings, `null`/`undefined`, `true`/`false`, `$.a.b`, `$.a[k]` and `ctx.a` lookups,
//! optional chaining `?.`, `??`, `'k' in obj`, arithmetic, comparisons, `!`, `&&`, `||` and
//! `?:` — and says plainly when an expression is beyond that (a function call, an object
//! literal), so the view that needs it is reported as not drawn rather than drawn wrong.
//!
//! Every expression is lexed once ([`Prop`]) and evaluated against borrowed values: nothing
//! is copied per event but the result. The work of all evaluations of one trace is counted
//! against a [`Budget`] (a step per token, a unit per byte a string concatenation builds, per
//! value a result copies), so a view that would take minutes over its events is cut, and the
//! expression where it was cut is named.

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

    /// The number a value stands for: numbers, booleans, and text that is a whole number
    /// (`"0.0"`, as some tools write every value).
    pub fn num(&self) -> Option<f64> {
        match self {
            Value::Num(v) => Some(*v),
            Value::Bool(b) => Some(*b as u8 as f64),
            Value::Str(s) => num_text(s),
            _ => None,
        }
    }

    /// Values in this one (a rough cost of copying it).
    fn size(&self) -> u64 {
        match self {
            Value::Str(s) => 1 + s.len() as u64 / 8,
            Value::List(v) => 1 + v.iter().map(Value::size).sum::<u64>(),
            Value::Map(m) => 1 + m.values().map(Value::size).sum::<u64>(),
            _ => 1,
        }
    }
}

/// The number text stands for, when it is one (surrounding spaces allowed, as JavaScript's
/// `Number()`); words such as `inf` or `nan` are not numbers here.
pub fn num_text(s: &str) -> Option<f64> {
    let t = s.trim();
    let numeric = !t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
        && t.bytes().any(|b| b.is_ascii_digit());
    if numeric {
        t.parse().ok()
    } else {
        None
    }
}

/// The values an expression reads: the event, the trace's context, and whether `$` is the
/// earlier formats' context (`$.event` the event) rather than the event.
#[derive(Clone, Copy)]
pub struct Scope<'a> {
    pub ev: &'a Value,
    pub ctx: &'a Value,
    pub context_dollar: bool,
}

/// The work left for one trace's expressions.
#[derive(Clone, Debug)]
pub struct Budget {
    pub left: u64,
}

impl Budget {
    fn charge(&mut self, n: u64) -> Result<(), Stop> {
        if self.left < n {
            self.left = 0;
            return Err(Stop::Cut);
        }
        self.left -= n;
        Ok(())
    }
}

/// Why an expression gave no value.
#[derive(Clone, Debug, PartialEq)]
pub enum Stop {
    /// The expression is beyond what pathlab evaluates (the message says which).
    Beyond(String),
    /// The trace's budget of work ran out here.
    Cut,
}

/// A view's property, ready to evaluate: a literal, an expression lexed once, or one pathlab
/// cannot lex (said when it is needed).
#[derive(Clone, Debug)]
pub enum Prop {
    Lit(Value),
    Expr { src: String, toks: Vec<Tok> },
    Beyond(String),
}

impl Prop {
    pub fn of(n: &Node) -> Prop {
        match n {
            Node::Str(s, _) => match template(s) {
                Some(src) => match lex(src) {
                    Ok(toks) => Prop::Expr {
                        src: src.trim().to_string(),
                        toks,
                    },
                    Err(()) => Prop::Beyond(beyond(src)),
                },
                None if s.contains("{{") => {
                    Prop::Beyond(format!("text mixed with an expression: `{s}`"))
                }
                None => Prop::Lit(Value::Str(s.clone())),
            },
            other => Prop::Lit(Value::of(other)),
        }
    }

    /// The expression's text, for messages.
    pub fn src(&self) -> String {
        match self {
            Prop::Expr { src, .. } => src.chars().take(60).collect(),
            Prop::Lit(_) => "a literal".into(),
            Prop::Beyond(why) => why.clone(),
        }
    }

    /// The property's value for the event in `scope`.
    pub fn eval(&self, scope: Scope, budget: &mut Budget) -> Result<Value, Stop> {
        match self {
            Prop::Lit(v) => {
                budget.charge(v.size())?;
                Ok(v.clone())
            }
            Prop::Beyond(why) => Err(Stop::Beyond(why.clone())),
            Prop::Expr { src, toks } => {
                let mut e = Expr {
                    src,
                    toks,
                    at: 0,
                    scope,
                    budget,
                    depth: 0,
                };
                let v = e.expr(0)?;
                if e.at != toks.len() {
                    return Err(Stop::Beyond(beyond(src)));
                }
                e.owned(v)
            }
        }
    }
}

fn beyond(src: &str) -> String {
    let s: String = src.trim().chars().take(80).collect();
    format!("`{s}` is beyond the expressions pathlab evaluates")
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

mod lex;
use lex::lex;
pub use lex::Tok;

/// A value during evaluation: borrowed from the event or context where it can be, owned
/// where it was computed, or the earlier formats' `$` (the context with the event in it).
#[derive(Debug)]
enum V<'a> {
    R(&'a Value),
    O(Value),
    Dollar,
}

static NULL: Value = Value::Null;

/// A small Pratt parser that evaluates as it parses.
struct Expr<'a, 'b> {
    src: &'b str,
    toks: &'b [Tok],
    at: usize,
    scope: Scope<'a>,
    budget: &'b mut Budget,
    /// Nesting so far: parentheses and unary operators recurse.
    depth: u32,
}

/// Deeper expressions are refused rather than allowed to exhaust the stack.
const MAX_DEPTH: u32 = 200;

impl<'a> Expr<'a, '_> {
    fn beyond(&self) -> Stop {
        Stop::Beyond(beyond(self.src))
    }

    fn peek_op(&self) -> Option<&'static str> {
        match self.toks.get(self.at) {
            Some(Tok::Op(o)) => Some(o),
            Some(Tok::Ident(w)) if w == "in" => Some("in"),
            _ => None,
        }
    }

    fn expect(&mut self, op: &str) -> Result<(), Stop> {
        if self.peek_op() == Some(op) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.beyond())
        }
    }

    /// A value as a plain value (the earlier `$` is read as its context).
    fn get<'v>(&self, v: &'v V<'a>) -> &'v Value
    where
        'a: 'v,
    {
        match v {
            V::R(r) => r,
            V::O(o) => o,
            V::Dollar => self.scope.ctx,
        }
    }

    /// The result of an expression, copied out of the trace where it was borrowed.
    fn owned(&mut self, v: V<'a>) -> Result<Value, Stop> {
        match v {
            V::O(o) => Ok(o),
            V::R(r) => {
                self.budget.charge(r.size())?;
                Ok(r.clone())
            }
            V::Dollar => {
                self.budget
                    .charge(self.scope.ctx.size() + self.scope.ev.size())?;
                let mut m = match self.scope.ctx {
                    Value::Map(m) => m.clone(),
                    _ => BTreeMap::new(),
                };
                m.insert("event".into(), self.scope.ev.clone());
                Ok(Value::Map(m))
            }
        }
    }

    /// Field `k` of `v` (undefined, read as null, where there is none).
    fn field(&self, v: V<'a>, k: &str) -> V<'a> {
        match v {
            V::Dollar if k == "event" => V::R(self.scope.ev),
            V::Dollar => field_ref(self.scope.ctx, k),
            V::R(r) => field_ref(r, k),
            V::O(Value::Map(mut m)) => V::O(m.remove(k).unwrap_or(Value::Null)),
            V::O(Value::List(mut l)) => match k {
                "length" => V::O(Value::Num(l.len() as f64)),
                _ => match k.parse::<usize>() {
                    Ok(i) if i < l.len() => V::O(l.swap_remove(i)),
                    _ => V::O(Value::Null),
                },
            },
            V::O(Value::Str(s)) if k == "length" => V::O(Value::Num(s.chars().count() as f64)),
            V::O(_) => V::O(Value::Null),
        }
    }

    fn has(&self, v: &V<'a>, k: &str) -> bool {
        match v {
            V::Dollar => {
                k == "event" || matches!(self.scope.ctx, Value::Map(m) if m.contains_key(k))
            }
            _ => match self.get(v) {
                Value::Map(m) => m.contains_key(k),
                Value::List(l) => k == "length" || k.parse::<usize>().is_ok_and(|i| i < l.len()),
                _ => false,
            },
        }
    }

    fn expr(&mut self, min: u8) -> Result<V<'a>, Stop> {
        self.depth += 1;
        let v = self.expr_in(min);
        self.depth -= 1;
        v
    }

    fn expr_in(&mut self, min: u8) -> Result<V<'a>, Stop> {
        let mut lhs = self.unary()?;
        while let Some(op) = self.peek_op() {
            let prec = match op {
                "?" => 1,
                "||" | "??" => 2,
                "&&" => 3,
                "==" | "!=" | "===" | "!==" => 4,
                "<" | ">" | "<=" | ">=" | "in" => 5,
                "+" | "-" => 6,
                "*" | "/" | "%" => 7,
                _ => break,
            };
            if prec < min {
                break;
            }
            self.at += 1;
            self.budget.charge(1)?;
            if op == "?" {
                let a = self.expr(0)?;
                self.expect(":")?;
                let b = self.expr(1)?;
                lhs = if self.get(&lhs).truthy() { a } else { b };
                continue;
            }
            let rhs = self.expr(prec + 1)?;
            lhs = match op {
                "||" => {
                    if self.get(&lhs).truthy() {
                        lhs
                    } else {
                        rhs
                    }
                }
                "&&" => {
                    if self.get(&lhs).truthy() {
                        rhs
                    } else {
                        lhs
                    }
                }
                "??" => {
                    if *self.get(&lhs) == Value::Null {
                        rhs
                    } else {
                        lhs
                    }
                }
                "in" => {
                    let k = key_of(self.get(&lhs));
                    V::O(Value::Bool(self.has(&rhs, &k)))
                }
                _ => {
                    let v = self.binary(op, self.get(&lhs), self.get(&rhs))?;
                    V::O(v)
                }
            };
        }
        Ok(lhs)
    }

    fn binary(&mut self, op: &str, a: &Value, b: &Value) -> Result<Value, Stop> {
        // A number and a boolean compare as numbers; everything else by value.
        let loose_eq = |a: &Value, b: &Value| match (a, b) {
            (Value::Num(_), Value::Bool(_)) | (Value::Bool(_), Value::Num(_)) => a.num() == b.num(),
            _ => a == b,
        };
        Ok(match op {
            "==" | "===" => Value::Bool(loose_eq(a, b)),
            "!=" | "!==" => Value::Bool(!loose_eq(a, b)),
            "+" if matches!(a, Value::Str(_)) || matches!(b, Value::Str(_)) => {
                let (x, y) = (text(a), text(b));
                // Every byte built is work: a view that doubles a string per term is cut.
                self.budget.charge((x.len() + y.len()) as u64)?;
                Value::Str(x + &y)
            }
            _ => {
                let (x, y) = (self.n(a)?, self.n(b)?);
                match op {
                    "+" => Value::Num(x + y),
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

    /// A number for arithmetic: null, missing fields and text that is no number are NaN, as
    /// in JavaScript.
    fn n(&self, v: &Value) -> Result<f64, Stop> {
        match v {
            Value::Null => Ok(f64::NAN),
            Value::Str(s) => {
                Ok(num_text(s).unwrap_or(if s.trim().is_empty() { 0.0 } else { f64::NAN }))
            }
            Value::List(_) | Value::Map(_) => Ok(f64::NAN),
            other => other.num().ok_or_else(|| self.beyond()),
        }
    }

    fn unary(&mut self) -> Result<V<'a>, Stop> {
        self.depth += 1;
        let v = self.unary_in();
        self.depth -= 1;
        v
    }

    fn unary_in(&mut self) -> Result<V<'a>, Stop> {
        if self.depth > MAX_DEPTH {
            return Err(Stop::Beyond(format!(
                "an expression nested deeper than {MAX_DEPTH} levels: `{}…`",
                self.src.trim().chars().take(40).collect::<String>()
            )));
        }
        self.budget.charge(1)?;
        let tok = self.toks.get(self.at).ok_or_else(|| self.beyond())?;
        self.at += 1;
        let mut v = match tok {
            Tok::Num(v) => V::O(Value::Num(*v)),
            Tok::Str(s) => {
                self.budget.charge(s.len() as u64 / 8)?;
                V::O(Value::Str(s.clone()))
            }
            Tok::Op("!") => {
                let v = self.unary()?;
                return Ok(V::O(Value::Bool(!self.get(&v).truthy())));
            }
            Tok::Op(op @ ("-" | "+")) => {
                let neg = *op == "-";
                let v = self.unary()?;
                let x = self.n(self.get(&v))?;
                return Ok(V::O(Value::Num(if neg { -x } else { x })));
            }
            Tok::Op("(") => {
                let v = self.expr(0)?;
                self.expect(")")?;
                v
            }
            Tok::Ident(id) => match id.as_str() {
                "$" if self.scope.context_dollar => V::Dollar,
                "$" => V::R(self.scope.ev),
                "ctx" | "context" => V::R(self.scope.ctx),
                "null" | "undefined" => V::O(Value::Null),
                "true" => V::O(Value::Bool(true)),
                "false" => V::O(Value::Bool(false)),
                // The earlier formats' context values stand by their own names.
                other => match field_ref(self.scope.ctx, other) {
                    V::R(r) => V::R(r),
                    _ => return Err(self.beyond()),
                },
            },
            Tok::Op(_) => return Err(self.beyond()),
        };
        // Member access: `.k`, `?.k`, `[expr]`, `?.[expr]`. A chain through null is null
        // (JavaScript would throw where `?.` is missing; no position comes of either).
        loop {
            match self.peek_op() {
                Some(op @ ("." | "?.")) => {
                    self.at += 1;
                    self.budget.charge(1)?;
                    if op == "?." && self.peek_op() == Some("[") {
                        continue;
                    }
                    let Some(Tok::Ident(k)) = self.toks.get(self.at) else {
                        return Err(self.beyond());
                    };
                    self.at += 1;
                    v = self.field(v, k);
                }
                Some("[") => {
                    self.at += 1;
                    let k = self.expr(0)?;
                    self.expect("]")?;
                    let k = key_of(self.get(&k));
                    v = self.field(v, &k);
                }
                Some("(") => return Err(self.beyond()),
                _ => break,
            }
        }
        Ok(v)
    }
}

/// Field `k` of a borrowed value.
fn field_ref<'a>(v: &'a Value, k: &str) -> V<'a> {
    match v {
        Value::Map(m) => m.get(k).map_or(V::R(&NULL), V::R),
        Value::List(l) if k == "length" => V::O(Value::Num(l.len() as f64)),
        Value::List(l) => match k.parse::<usize>() {
            Ok(i) if i < l.len() => V::R(&l[i]),
            _ => V::R(&NULL),
        },
        Value::Str(s) if k == "length" => V::O(Value::Num(s.chars().count() as f64)),
        _ => V::R(&NULL),
    }
}

/// A value used as a property name, as JavaScript spells it.
fn key_of(v: &Value) -> String {
    match v {
        Value::Num(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{}", *x as i64),
        other => text(other),
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

#[cfg(test)]
#[path = "posthoc_expr_tests.rs"]
mod tests;

//! The expression evaluator's unit tests.

use super::*;

fn map(pairs: &[(&str, Value)]) -> Value {
    Value::Map(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

/// Evaluates `src` (a whole template) for `ev`, with `$` the earlier formats' context when
/// `context_dollar`.
fn run(src: &str, ev: &Value, ctx: &Value, context_dollar: bool) -> Result<Value, Stop> {
    let scope = Scope {
        ev,
        ctx,
        context_dollar,
    };
    Prop::of(&Node::Str(src.into(), 1)).eval(scope, &mut Budget { left: 10_000 })
}

#[test]
fn the_earlier_dollar_is_a_context_holding_the_event() {
    let ev = map(&[
        ("x", Value::Num(3.0)),
        ("type", Value::Str("source".into())),
    ]);
    let colours = map(&[("source", Value::Str("#0f0".into()))]);
    let ctx = map(&[("color", colours)]);
    let old = |s: &str| run(s, &ev, &ctx, true);
    assert_eq!(old("{{$.event.x}}"), Ok(Value::Num(3.0)));
    assert_eq!(old("{{ $.event.x + 0.5 }}"), Ok(Value::Num(3.5)));
    // `$.x` is the context's x: there is none.
    assert_eq!(old("{{$.x}}"), Ok(Value::Null));
    assert_eq!(
        old("{{$.color[$.event.type]}}"),
        Ok(Value::Str("#0f0".into()))
    );
    assert_eq!(
        old("{{ 'x' in $.event ? $.event.x : -1 }}"),
        Ok(Value::Num(3.0))
    );
    assert_eq!(
        old("{{ 'y' in $.event ? $.event.y : -1 }}"),
        Ok(Value::Num(-1.0))
    );
    assert_eq!(old("{{ 'event' in $ }}"), Ok(Value::Bool(true)));
    // From 1.4.0, `$` is the event.
    assert_eq!(run("${{ $.x }}", &ev, &ctx, false), Ok(Value::Num(3.0)));
    assert_eq!(run("${{ $.event }}", &ev, &ctx, false), Ok(Value::Null));
}

#[test]
fn optional_chaining_nullish_and_numeric_text() {
    let ev = map(&[
        ("x", Value::Num(0.0)),
        ("g", Value::Str("2.5".into())),
        ("p", map(&[("q", Value::Num(7.0))])),
    ]);
    let ctx = Value::Null;
    let new = |s: &str| run(s, &ev, &ctx, false);
    // `??` keeps 0 (it is not null), where `||` would not.
    assert_eq!(new("${{ $.x ?? 9 }}"), Ok(Value::Num(0.0)));
    assert_eq!(new("${{ $.x || 9 }}"), Ok(Value::Num(9.0)));
    assert_eq!(new("${{ $.y ?? 9 }}"), Ok(Value::Num(9.0)));
    assert_eq!(new("${{ $.p?.q }}"), Ok(Value::Num(7.0)));
    assert_eq!(new("${{ $.none?.q ?? -2 }}"), Ok(Value::Num(-2.0)));
    assert_eq!(new("${{ $.p?.['q'] }}"), Ok(Value::Num(7.0)));
    assert_eq!(new("${{ $.g * 2 }}"), Ok(Value::Num(5.0)));
    assert_eq!(Value::Str(" 0.0 ".into()).num(), Some(0.0));
    assert_eq!(Value::Str("nan".into()).num(), None);
    assert_eq!(new("${{ 1.0e-05 * 2 }}"), Ok(Value::Num(2.0e-05)));
    assert!(matches!(
        new("${{ Math.floor($.x) }}"),
        Err(Stop::Beyond(_))
    ));
}

#[test]
fn work_is_counted_and_cut() {
    let big = Value::Str("a".repeat(1 << 20));
    let ev = map(&[("s", big)]);
    let scope = Scope {
        ev: &ev,
        ctx: &Value::Null,
        context_dollar: false,
    };
    let p = Prop::of(&Node::Str(
        "${{ ($.s + $.s + $.s + $.s).length }}".into(),
        1,
    ));
    // Three concatenations build about 6 MiB: more than a budget of a million.
    let mut b = Budget { left: 1_000_000 };
    assert_eq!(p.eval(scope, &mut b), Err(Stop::Cut));
    let mut b = Budget { left: 10_000_000 };
    assert_eq!(
        p.eval(scope, &mut b),
        Ok(Value::Num(4.0 * (1 << 20) as f64))
    );
    // Reading a large context costs nothing until it is copied out.
    let ctx = Value::List(vec![Value::Num(1.0); 100_000]);
    let scope = Scope {
        ev: &ev,
        ctx: &ctx,
        context_dollar: false,
    };
    let mut b = Budget { left: 100 };
    let len = Prop::of(&Node::Str("${{ ctx.length }}".into(), 1));
    assert_eq!(len.eval(scope, &mut b), Ok(Value::Num(100_000.0)));
    let all = Prop::of(&Node::Str("${{ ctx }}".into(), 1));
    assert_eq!(all.eval(scope, &mut b), Err(Stop::Cut));
}

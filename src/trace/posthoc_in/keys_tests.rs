//! Ids keyed by number or by text name the same ids as keying every id by its printed text.

use super::{num_text, Keys, Node};
use rand::{Rng, SeedableRng};

/// The text an id was keyed by before numbers were keyed by their bits.
fn text_of(n: &Node) -> String {
    match n {
        Node::Num(v, _) => v.to_string(),
        Node::Str(s, _) => num_text(s).map_or_else(|| s.clone(), |v| v.to_string()),
        _ => unreachable!("ids here are numbers or text"),
    }
}

#[test]
fn numbers_and_text_share_ids_exactly_as_their_printed_text_does() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut ids: Vec<Node> = [
        "12",
        " 12 ",
        "12.0",
        "+12",
        "1.2e1",
        "0",
        "-0",
        "0.0",
        "-0.0",
        "1e-7",
        "0.0000001",
        "inf",
        "-inf",
        "NaN",
        "nan",
        "1e999",
        "-1e999",
        "abc",
        "",
        "1_0",
        "0x10",
        ".5",
        "0.5",
    ]
    .iter()
    .map(|s| Node::Str(s.to_string(), 1))
    .collect();
    for v in [
        12.0,
        0.0,
        -0.0,
        1e-7,
        0.5,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        1e300,
        5e-324,
    ] {
        ids.push(Node::Num(v, 1));
    }
    for _ in 0..3000 {
        let v = match rng.random_range(0..3) {
            0 => rng.random_range(0..50) as f64,
            1 => rng.random_range(0..50) as f64 / 8.0,
            _ => f64::from_bits(rng.random()),
        };
        ids.push(if rng.random_bool(0.5) {
            Node::Num(v, 1)
        } else {
            Node::Str(v.to_string(), 1)
        });
        let word: String = (0..rng.random_range(1..5))
            .map(|_| ['1', '2', '.', 'e', '-', '+', ' ', 'n', 'i', 'f'][rng.random_range(0..10)])
            .collect();
        ids.push(Node::Str(word, 1));
    }
    let mut keys = Keys::default();
    let got: Vec<u32> = ids.iter().map(|n| keys.key(Some(n)).unwrap()).collect();
    let texts: Vec<String> = ids.iter().map(text_of).collect();
    // Each id is numbered on first sight, so equal texts must give equal numbers and the
    // numbers must run in order of first sight, as the text keys gave them.
    let mut by_text = std::collections::HashMap::new();
    for (i, t) in texts.iter().enumerate() {
        let next = by_text.len() as u32;
        let want = *by_text.entry(t.clone()).or_insert(next);
        assert_eq!(got[i], want, "{:?} (text {t:?})", ids[i]);
    }
}

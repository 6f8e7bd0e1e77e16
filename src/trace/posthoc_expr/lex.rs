//! Expressions split into tokens: numbers, strings, names and JavaScript's operators.

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Num(f64),
    Str(String),
    Ident(String),
    Op(&'static str),
}

/// Operators, longest first.
const OPS: [&str; 28] = [
    "===", "!==", "?.", "??", "==", "!=", "<=", ">=", "&&", "||", "<", ">", "+", "-", "*", "/",
    "%", "!", "(", ")", "[", "]", ".", "?", ":", ",", "{", "}",
];

pub(super) fn lex(src: &str) -> Result<Vec<Tok>, ()> {
    let b = src.as_bytes();
    let mut toks = vec![];
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
                j += 1;
            }
            if j < b.len() && (b[j] == b'e' || b[j] == b'E') {
                j += 1;
                if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                    j += 1;
                }
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
            }
            toks.push(Tok::Num(src[i..j].parse().map_err(|_| ())?));
            i = j;
        } else if c == b'\'' || c == b'"' {
            let mut s = String::new();
            let mut j = i + 1;
            loop {
                let ch = src[j..].chars().next().ok_or(())?;
                if ch as u32 == c as u32 {
                    break;
                }
                if ch == '\\' {
                    let n = src[j + 1..].chars().next().ok_or(())?;
                    s.push(n);
                    j += 1 + n.len_utf8();
                } else {
                    s.push(ch);
                    j += ch.len_utf8();
                }
            }
            toks.push(Tok::Str(s));
            i = j + 1;
        } else if c == b'$' || c == b'_' || c.is_ascii_alphabetic() {
            let mut j = i;
            while j < b.len() && (b[j] == b'$' || b[j] == b'_' || b[j].is_ascii_alphanumeric()) {
                j += 1;
            }
            toks.push(Tok::Ident(src[i..j].to_string()));
            i = j;
        } else {
            let op = OPS.iter().find(|op| src[i..].starts_with(**op)).ok_or(())?;
            toks.push(Tok::Op(op));
            i += op.len();
        }
    }
    Ok(toks)
}

//! MovingAI `.map` files (ANCHORS §1.1): `type`, `height`, `width`, `map`, then the rows.

use super::{numbered_lines, read_text, write_atomic, IoError};
use crate::map::Grid;
use std::path::Path;

use crate::limits::{grid_size_error, MAX_SIDE};

/// Reads a `.map` file.
pub fn read_map(path: &Path) -> Result<Grid, IoError> {
    parse_map(&read_text(path)?, path)
}

/// Parses `.map` text; `path` is only used in error messages.
pub fn parse_map(text: &str, path: &Path) -> Result<Grid, IoError> {
    let err = |line, msg: String| IoError::parse(path, line, msg);
    let mut lines = numbered_lines(text);
    let (mut width, mut height, mut seen_type) = (None, None, false);
    let mut last = 0;
    // Each header key once: a second `width` would silently win over the first.
    let mut seen: Vec<(&str, usize)> = Vec::new();
    // Header: HOG2 wants type/height/width/map in that order; any order is accepted here.
    loop {
        let Some((n, line)) = lines.next() else {
            return Err(err(
                last.max(1),
                "the header ends before the `map` line".into(),
            ));
        };
        last = n;
        let mut words = line.split_whitespace();
        let Some(key) = words.next() else { continue };
        let value = words.next();
        if let Some(&(_, first)) = seen.iter().find(|(k, _)| *k == key) {
            return Err(err(n, format!("`{key}` again (first on line {first})")));
        }
        seen.push((key, n));
        match key {
            "type" => {
                if value.is_none() {
                    return Err(err(
                        n,
                        "`type` has no value (expected `type octile`)".into(),
                    ));
                }
                seen_type = true;
            }
            "height" | "width" => {
                let v: u32 = value
                    .and_then(|v| v.parse().ok())
                    .filter(|v| (1..=MAX_SIDE).contains(v))
                    .ok_or_else(|| {
                        err(
                            n,
                            format!("`{key}` needs a whole number from 1 to {MAX_SIDE}"),
                        )
                    })?;
                if key == "height" {
                    height = Some(v);
                } else {
                    width = Some(v);
                }
            }
            "map" => break,
            other => {
                let hint = if seen_type {
                    ""
                } else {
                    " (is this a MovingAI .map file?)"
                };
                return Err(err(n, format!("unexpected `{other}` in the header{hint}")));
            }
        }
    }
    let (Some(w), Some(h)) = (width, height) else {
        return Err(err(
            last,
            "the header needs both `height` and `width` before `map`".into(),
        ));
    };
    // Checked before the rows are read, so an absurd header costs nothing.
    if let Some(msg) = grid_size_error(w as u64, h as u64) {
        return Err(err(last, msg));
    }
    let mut tiles = Vec::with_capacity(w as usize * h as usize);
    let mut rows = 0;
    for (n, line) in lines.by_ref() {
        if rows == h {
            if !line.trim().is_empty() {
                return Err(err(
                    n,
                    format!("more than the {h} rows the header declares"),
                ));
            }
            continue;
        }
        if line.len() != w as usize {
            if line.is_empty() {
                return Err(err(
                    n,
                    format!("row {} is empty; expected {w} characters", rows + 1),
                ));
            }
            return Err(err(
                n,
                format!(
                    "row {} has {} characters; the header says width {w}",
                    rows + 1,
                    line.len()
                ),
            ));
        }
        if let Some(pos) = line.bytes().position(|b| !b.is_ascii_graphic()) {
            return Err(err(
                n,
                format!(
                    "column {}: character {:?} is not a map tile",
                    pos + 1,
                    line[pos..].chars().next().unwrap_or(' ')
                ),
            ));
        }
        tiles.extend_from_slice(line.as_bytes());
        rows += 1;
        last = n;
    }
    if rows < h {
        return Err(err(
            last + 1,
            format!("the file ends after {rows} rows; the header says height {h}"),
        ));
    }
    Ok(Grid::from_tiles(w, h, tiles))
}

/// The `.map` text of a grid.
pub fn write_map(g: &Grid) -> String {
    // Every grid pathlab holds is within the limits every reader checks, so what is written
    // here reads back (the `.map` reader's side limit is the one of every other format).
    let mut s = format!(
        "type octile\nheight {}\nwidth {}\nmap\n",
        g.height(),
        g.width()
    );
    for row in g.rows() {
        s.push_str(row);
        s.push('\n');
    }
    s
}

/// Writes a `.map` file atomically.
pub fn write_map_file(g: &Grid, path: &Path) -> Result<(), IoError> {
    write_atomic(path, write_map(g).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Grid, IoError> {
        parse_map(s, Path::new("t.map"))
    }

    #[test]
    fn reads_crlf_and_round_trips() {
        let g = p("type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@T\r\nSWG\r\n").unwrap();
        assert_eq!((g.width(), g.height()), (3, 2));
        assert_eq!(g.rows().collect::<Vec<_>>(), [".@T", "SWG"]);
        assert_eq!(p(&write_map(&g)).unwrap(), g);
    }

    #[test]
    fn errors_name_the_line() {
        let e = p("type octile\nheight 3\nwidth 4\nmap\n....\n.@\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "t.map:6: row 2 has 2 characters; the header says width 4"
        );
        let e = p("type octile\nheight 3\nwidth 4\nmap\n....\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.map:6: the file ends after 1 rows"), "{e}");
        let e = p("type octile\nheight x\n").unwrap_err().to_string();
        assert!(e.starts_with("t.map:2: `height` needs"), "{e}");
        let e = p("hello\n").unwrap_err().to_string();
        assert!(e.starts_with("t.map:1: unexpected `hello`"), "{e}");
        assert!(p("").is_err());
        assert!(p("type octile\nheight 1\nwidth 2\nmap\n.\u{e9}\n").is_err());
        assert!(p("type octile\nheight 1\nwidth 1\nmap\n.\n.\n").is_err());
    }
}

//! MovingAI `.scen` files (ANCHORS §1.2): `version 1` (or `1.0`), then one problem per line:
//! bucket, map, map width, map height, start x, y, goal x, y, optimal length.

use super::{numbered_lines, read_text, write_atomic, IoError};
use crate::map::{Grid, TerrainRule};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One start/goal problem with its published optimal length.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    pub bucket: u32,
    /// The map column as written (it may contain folders).
    pub map: String,
    pub map_width: u32,
    pub map_height: u32,
    pub start: (u32, u32),
    pub goal: (u32, u32),
    /// Optimal length (√2 diagonals, no corner cutting).
    pub optimal: f64,
    /// Half a unit of the last digit the file printed for `optimal`: a length is correct when it
    /// is within this of `optimal`.
    pub tolerance: f64,
    /// Line of the file this problem came from (0 when made in memory).
    #[serde(default)]
    pub line: usize,
}

impl Problem {
    /// True when `length` matches the optimal length to the precision the file printed.
    ///
    /// The published lengths were summed in single precision: a length whose exact value lies
    /// on a rounding boundary (…4500199) is sometimes printed rounded the other way. One float32
    /// unit of slack (2⁻²³ relative) absorbs that; about 1 in 500 MovingAI problems needs it.
    pub fn is_optimal(&self, length: f64) -> bool {
        (length - self.optimal).abs() <= self.tolerance + self.optimal * f32::EPSILON as f64
    }

    /// The file name part of the map column (`maps/dao/arena.map` → `arena.map`).
    pub fn map_file_name(&self) -> &str {
        self.map.rsplit(['/', '\\']).next().unwrap_or(&self.map)
    }
}

/// Reads a `.scen` file.
pub fn read_scen(path: &Path) -> Result<Vec<Problem>, IoError> {
    parse_scen(&read_text(path)?, path)
}

/// Decimals printed in a number's text, and whether it ends in a 0 after the point.
fn decimals(text: &str) -> (i32, bool) {
    match text.split_once('.') {
        Some((_, frac)) => (frac.len() as i32, frac.ends_with('0')),
        None => (0, false),
    }
}

/// Parses `.scen` text; `path` is only used in error messages.
pub fn parse_scen(text: &str, path: &Path) -> Result<Vec<Problem>, IoError> {
    let err = |line, msg: String| IoError::parse(path, line, msg);
    let mut problems = Vec::new();
    let mut texts = Vec::new();
    let mut header_seen = false;
    for (n, line) in numbered_lines(text) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        if !header_seen {
            header_seen = true;
            if fields[0] == "version" {
                match fields.get(1).and_then(|v| v.parse::<f64>().ok()) {
                    Some(1.0) => continue,
                    _ => {
                        return Err(err(
                            n,
                            format!(
                                "unsupported `{line}`; pathlab reads `version 1` scenario files"
                            ),
                        ))
                    }
                }
            }
            return Err(err(
                n,
                "the first line must be `version 1` (is this a MovingAI .scen file?)".into(),
            ));
        }
        if fields.len() != 9 {
            return Err(err(n, format!("expected 9 fields (bucket, map, width, height, sx, sy, gx, gy, length), found {}", fields.len())));
        }
        let int = |i: usize, name: &str| -> Result<u32, IoError> {
            fields[i]
                .parse::<u32>()
                .map_err(|_| err(n, format!("{name} `{}` is not a whole number", fields[i])))
        };
        let optimal: f64 = fields[8]
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| err(n, format!("optimal length `{}` is not a number", fields[8])))?;
        let p = Problem {
            bucket: int(0, "bucket")?,
            map: fields[1].to_string(),
            map_width: int(2, "map width")?,
            map_height: int(3, "map height")?,
            start: (int(4, "start x")?, int(5, "start y")?),
            goal: (int(6, "goal x")?, int(7, "goal y")?),
            optimal,
            tolerance: 0.0,
            line: n,
        };
        for (what, (x, y)) in [("start", p.start), ("goal", p.goal)] {
            if x >= p.map_width || y >= p.map_height {
                return Err(err(
                    n,
                    format!(
                        "{what} ({x}, {y}) is outside the {}×{} map",
                        p.map_width, p.map_height
                    ),
                ));
            }
        }
        texts.push(fields[8].to_string());
        problems.push(p);
    }
    if !header_seen {
        return Err(err(1, "the file is empty; expected `version 1`".into()));
    }
    set_tolerances(&mut problems, &texts);
    Ok(problems)
}

/// Fixed-point files (`%.2f`, `%.8f`: some value ends in a 0 after the point) print every digit,
/// so the last printed decimal is the precision. The other files print `%g`, six significant
/// digits with trailing zeros dropped: there "2" means 2.00000 and the precision is the sixth
/// significant digit.
fn set_tolerances(problems: &mut [Problem], texts: &[String]) {
    let fixed = texts.iter().any(|t| decimals(t).1);
    for (p, t) in problems.iter_mut().zip(texts) {
        let (d, _) = decimals(t);
        let exp = if fixed || p.optimal == 0.0 {
            -d
        } else {
            let magnitude = p.optimal.abs().log10().floor() as i32;
            (magnitude - 5).min(-d)
        };
        p.tolerance = 0.5 * 10f64.powi(exp);
    }
}

/// The `.scen` text of problems (tab-separated, `version 1`, 8 decimals).
pub fn write_scen(problems: &[Problem]) -> String {
    let mut s = String::from("version 1\n");
    for p in problems {
        s.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.8}\n",
            p.bucket,
            p.map,
            p.map_width,
            p.map_height,
            p.start.0,
            p.start.1,
            p.goal.0,
            p.goal.1,
            p.optimal
        ));
    }
    s
}

/// Writes a `.scen` file atomically.
pub fn write_scen_file(problems: &[Problem], path: &Path) -> Result<(), IoError> {
    write_atomic(path, write_scen(problems).as_bytes())
}

/// Why `p` is not a problem on `grid` under `rule`, or `Ok`: its map size, start and goal
/// inside the map and on passable cells, a finite optimal length that is not negative.
pub fn check_problem(p: &Problem, grid: &Grid, rule: TerrainRule) -> Result<(), String> {
    if (p.map_width, p.map_height) != (grid.width(), grid.height()) {
        return Err(format!(
            "the problem is for a {}×{} map but the map is {}×{}",
            p.map_width,
            p.map_height,
            grid.width(),
            grid.height()
        ));
    }
    if !(p.optimal.is_finite() && p.optimal >= 0.0) {
        return Err(format!(
            "optimal length {} is not a length (finite, 0 or more)",
            p.optimal
        ));
    }
    for (what, (x, y)) in [("start", p.start), ("goal", p.goal)] {
        let tile = grid.get(x, y).ok_or_else(|| {
            format!(
                "{what} ({x}, {y}) is outside the {}×{} map",
                grid.width(),
                grid.height()
            )
        })?;
        if rule.class(tile.tile) == 0 {
            return Err(format!("{what} ({x}, {y}) is on a blocked cell"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Vec<Problem>, IoError> {
        parse_scen(s, Path::new("t.scen"))
    }

    #[test]
    fn reads_tabs_spaces_crlf_and_folders() {
        let v = p("version 1.0\r\n61 maps/bgmaps/A.map 512 512 210 395 87 201 244.95\r\n33 maps/bgmaps/A.map 512 512 1 2 3 4 132.40\r\n").unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].map_file_name(), "A.map");
        assert_eq!((v[0].start, v[0].goal), ((210, 395), (87, 201)));
        assert!((v[0].tolerance - 0.005).abs() < 1e-12);
        let v = p("version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t13\t4\t12\t3.41421\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n").unwrap();
        assert!((v[0].tolerance - 5e-6).abs() < 1e-15);
        assert!(
            (v[1].tolerance - 5e-6).abs() < 1e-15,
            "%g prints 1 for 1.00000"
        );
        assert!(v[0].is_optimal(2.0 + 2f64.sqrt()));
        assert!(!v[1].is_optimal(2f64.sqrt()));
        let again = p(&write_scen(&v)).unwrap();
        assert_eq!(again[0].start, v[0].start);
        assert!((again[0].optimal - 3.41421).abs() < 1e-9);
    }

    #[test]
    fn errors_name_the_line() {
        let e = p("version 1\n0\tbad.map\t4\t3\t0\t0\t1\t1\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.scen:2: expected 9 fields"), "{e}");
        let e = p("version 1\n0\tbad.map\t4\t3\t0\t0\t9\t1\t1\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.scen:2: goal (9, 1) is outside"), "{e}");
        let e = p("version 2\n").unwrap_err().to_string();
        assert!(e.starts_with("t.scen:1: unsupported"), "{e}");
        assert!(p("").is_err());
        assert!(p("version 1\n0 a.map 4 3 0 0 1 1 x\n").is_err());
        assert!(p("version 1\n0 a.map 4 3 -1 0 1 1 2\n").is_err());
    }
}

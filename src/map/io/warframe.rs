//! Brewer & Sturtevant's Warframe voxel benchmark (ANCHORS §1.3, §1.4): `.3dmap` is a header
//! `voxel X Y Z` and one blocked voxel `x y z` a line; `.3dmap.3dscen` is `version 1`, the map's
//! file name, and one problem a line: start x y z, goal x y z, optimal cost (1, √2, √3 moves)
//! and the optimum's ratio to the 3D octile heuristic.

use super::{numbered_lines, read_text, write_atomic, IoError};
use crate::map::voxel::VoxelGrid;
use std::fmt::Write;
use std::path::Path;

/// One problem of a `.3dscen` file.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem3 {
    pub start: [u32; 3],
    pub goal: [u32; 3],
    /// Optimal cost, moves costing 1, √2 and √3.
    pub optimal: f64,
    /// Optimal cost over the 3D octile heuristic, as the file prints it.
    pub ratio: f64,
    /// Line of the file (0 when made in memory).
    pub line: usize,
}

impl Problem3 {
    /// True when `length` is the optimum within 1e-4 relative (the files print 8 decimals).
    pub fn is_optimal(&self, length: f64) -> bool {
        (length - self.optimal).abs() <= 1e-4 * self.optimal.max(1.0)
    }
}

/// Reads a `.3dmap` file.
pub fn read_3dmap(path: &Path) -> Result<VoxelGrid, IoError> {
    parse_3dmap(&read_text(path)?, path)
}

/// Parses `.3dmap` text; `path` names the file in errors.
pub fn parse_3dmap(text: &str, path: &Path) -> Result<VoxelGrid, IoError> {
    let err = |line, msg: String| IoError::parse(path, line, msg);
    let mut lines = numbered_lines(text);
    let (n, head) = lines
        .next()
        .ok_or_else(|| err(1, "empty file: expected `voxel X Y Z`".into()))?;
    if head.trim().is_empty() {
        return Err(err(n, "empty first line: expected `voxel X Y Z`".into()));
    }
    let f: Vec<&str> = head.split_whitespace().collect();
    let dims: Option<Vec<u32>> = (f.len() == 4 && f[0] == "voxel")
        .then(|| f[1..].iter().map(|v| v.parse::<u32>().ok()).collect())
        .flatten();
    let Some(d) = dims else {
        return Err(err(n, format!("expected `voxel X Y Z`, found `{head}`")));
    };
    let mut grid = VoxelGrid::new(d[0], d[1], d[2]).map_err(|m| err(n, m))?;
    for (n, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let v: Vec<&str> = line.split_whitespace().collect();
        let xyz: Option<Vec<u32>> = (v.len() == 3)
            .then(|| v.iter().map(|t| t.parse::<u32>().ok()).collect())
            .flatten();
        let Some(p) = xyz else {
            return Err(err(n, format!("expected a voxel `x y z`, found `{line}`")));
        };
        if p[0] >= d[0] || p[1] >= d[1] || p[2] >= d[2] {
            return Err(err(
                n,
                format!(
                    "voxel ({}, {}, {}) is outside the declared {}×{}×{}",
                    p[0], p[1], p[2], d[0], d[1], d[2]
                ),
            ));
        }
        grid.set(p[0], p[1], p[2], true);
    }
    Ok(grid)
}

/// The `.3dmap` text of `grid`.
pub fn write_3dmap(grid: &VoxelGrid) -> String {
    let [x, y, z] = grid.dims();
    let mut s = format!("voxel {x} {y} {z}\n");
    for [a, b, c] in grid.blocked_voxels() {
        let _ = writeln!(s, "{a} {b} {c}");
    }
    s
}

/// Writes a `.3dmap` file atomically.
pub fn write_3dmap_file(grid: &VoxelGrid, path: &Path) -> Result<(), IoError> {
    write_atomic(path, write_3dmap(grid).as_bytes())
}

/// Reads a `.3dscen` file: the map file name it names, and its problems.
pub fn read_3dscen(path: &Path) -> Result<(String, Vec<Problem3>), IoError> {
    parse_3dscen(&read_text(path)?, path)
}

/// Parses `.3dscen` text; `path` names the file in errors.
pub fn parse_3dscen(text: &str, path: &Path) -> Result<(String, Vec<Problem3>), IoError> {
    let err = |line, msg: String| IoError::parse(path, line, msg);
    let mut lines = numbered_lines(text);
    match lines.next() {
        Some((_, l)) if l.trim() == "version 1" => {}
        Some((n, l)) => return Err(err(n, format!("expected `version 1`, found `{l}`"))),
        None => return Err(err(1, "empty file: expected `version 1`".into())),
    }
    let (n, map) = lines
        .next()
        .ok_or_else(|| err(2, "expected the map's file name".into()))?;
    let map = map.trim();
    if map.is_empty() || map.contains(char::is_whitespace) {
        return Err(err(
            n,
            format!("expected the map's file name, found `{map}`"),
        ));
    }
    let mut problems = vec![];
    for (n, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 8 {
            return Err(err(
                n,
                format!(
                    "expected 8 fields (sx sy sz gx gy gz optimal ratio), found {}",
                    f.len()
                ),
            ));
        }
        let c = |i: usize| -> Result<u32, IoError> {
            f[i].parse::<u32>().map_err(|_| {
                err(
                    n,
                    format!("field {} `{}` is not a voxel coordinate", i + 1, f[i]),
                )
            })
        };
        let r = |i: usize| -> Result<f64, IoError> {
            f[i].parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| err(n, format!("field {} `{}` is not a cost", i + 1, f[i])))
        };
        problems.push(Problem3 {
            start: [c(0)?, c(1)?, c(2)?],
            goal: [c(3)?, c(4)?, c(5)?],
            optimal: r(6)?,
            ratio: r(7)?,
            line: n,
        });
    }
    Ok((map.to_string(), problems))
}

/// The `.3dscen` text for `map_name` and `problems` (8 decimals, as the published files).
pub fn write_3dscen(map_name: &str, problems: &[Problem3]) -> String {
    let mut s = format!("version 1\n{map_name}\n");
    for p in problems {
        let _ = writeln!(
            s,
            "{} {} {} {} {} {} {:.8} {:.3}",
            p.start[0], p.start[1], p.start[2], p.goal[0], p.goal[1], p.goal[2], p.optimal, p.ratio
        );
    }
    s
}

/// Why `p` is not a problem on `grid`, or `Ok`: start and goal inside and free.
pub fn check_problem3(p: &Problem3, grid: &VoxelGrid) -> Result<(), String> {
    let [w, h, d] = grid.dims();
    for (what, v) in [("start", p.start), ("goal", p.goal)] {
        if v[0] >= w || v[1] >= h || v[2] >= d {
            return Err(format!(
                "{what} ({}, {}, {}) is outside the {w}×{h}×{d} map",
                v[0], v[1], v[2]
            ));
        }
        if grid.is_blocked(v[0] as i64, v[1] as i64, v[2] as i64) {
            return Err(format!(
                "{what} ({}, {}, {}) is on a blocked voxel",
                v[0], v[1], v[2]
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_one_line_errors() {
        let p = Path::new("t.3dmap");
        let g = parse_3dmap("voxel 4 3 2\n0 0 0\n3 2 1\n", p).unwrap();
        assert_eq!((g.dims(), g.count_blocked()), ([4, 3, 2], 2));
        assert_eq!(parse_3dmap(&write_3dmap(&g), p).unwrap(), g);
        for (text, want) in [
            ("", "t.3dmap:1: empty first line"),
            ("voxel 4 3\n", "t.3dmap:1: expected `voxel X Y Z`"),
            ("voxel 4 3 2\n0 0\n", "t.3dmap:2: expected a voxel"),
            (
                "voxel 4 3 2\n1 1 1\n4 0 0\n",
                "t.3dmap:3: voxel (4, 0, 0) is outside",
            ),
            (
                "voxel 4096 4096 4096\n",
                "t.3dmap:1: a voxel world of 4096×4096×4096",
            ),
            (
                "voxel 0 3 2\n",
                "t.3dmap:1: a voxel world of 0×3×2 has no voxels",
            ),
        ] {
            let e = parse_3dmap(text, p).unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}");
        }
        let s = Path::new("t.3dscen");
        let text = "version 1\nt.3dmap\n0 0 1 3 2 0 3.73205081 1.000\n";
        let (map, probs) = parse_3dscen(text, s).unwrap();
        assert_eq!(
            (map.as_str(), probs.len(), probs[0].goal),
            ("t.3dmap", 1, [3, 2, 0])
        );
        assert_eq!(
            parse_3dscen(&write_3dscen(&map, &probs), s).unwrap().1,
            probs
        );
        for (text, want) in [
            ("version 2\n", "t.3dscen:1: expected `version 1`"),
            ("version 1\n", "t.3dscen:2: expected the map's"),
            ("version 1\nm\n1 2 3\n", "t.3dscen:3: expected 8 fields"),
            ("version 1\nm\n1 2 3 4 5 x 1 1\n", "t.3dscen:3: field 6 `x`"),
            (
                "version 1\nm\n1 2 3 4 5 6 -1 1\n",
                "t.3dscen:3: field 7 `-1`",
            ),
        ] {
            let e = parse_3dscen(text, s).unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}");
        }
        assert!(check_problem3(&probs[0], &g).is_ok());
        let mut bad = probs[0].clone();
        bad.start = [3, 2, 1];
        assert!(check_problem3(&bad, &g).unwrap_err().contains("blocked"));
        bad.start = [9, 0, 0];
        assert!(check_problem3(&bad, &g).unwrap_err().contains("outside"));
    }
}

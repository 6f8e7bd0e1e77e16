//! JPS+'s jump table (Rabin 2015; Harabor & Grastien 2014's jps+): for every cell and each of
//! the eight directions, how far the next jump point is, or how far the way goes before a wall.
//! A query then reads one entry where an online scan reads a row. Built once per world and
//! patched after an edit: only the rows, columns and diagonals the edit reaches are redone.

use super::bits::{Bits, Scan};
use super::grid::JumpGrid;
use crate::search::params::Params;
use crate::search::prepared::Prepared;
use crate::space::{GridSpace, NodeId, Space};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Directions: N, E, S, W, then NE, SE, SW, NW (the grid's moves).
const DIRS: [(i64, i64); 8] = {
    let mut d = [(0, 0); 8];
    let mut i = 0;
    while i < 8 {
        d[i] = (
            crate::space::DIRS[i].0 as i64,
            crate::space::DIRS[i].1 as i64,
        );
        i += 1;
    }
    d
};

/// Longest jump an entry holds; a longer way gets a stop there (a cell that is no jump point,
/// where the search simply goes on), so maps of any size stay exact.
const CAP: i64 = i16::MAX as i64;

/// Per cell and direction: d > 0, a jump point (straight) or a cell whose straight scans find
/// one (diagonal) d steps away; d ≤ 0, the way ends at a wall after -d steps.
#[derive(Clone, Debug)]
pub struct JumpTable {
    grid: Arc<JumpGrid>,
    width: u32,
    height: u32,
    /// The class pair of each cell (its own class's rows), 0 for blocked cells.
    entries: Vec<[i16; 8]>,
}

impl PartialEq for JumpTable {
    fn eq(&self, o: &JumpTable) -> bool {
        (self.width, self.height) == (o.width, o.height) && self.entries == o.entries
    }
}

/// Sign-and-length rule shared by every entry: one step further than the next cell's way.
#[inline]
fn extend(next: i64) -> i16 {
    let v = if next > 0 { next + 1 } else { next - 1 };
    if v.abs() > CAP {
        CAP as i16
    } else {
        v as i16
    }
}

impl JumpTable {
    /// The bit rows the table was built from.
    pub fn grid(&self) -> &Arc<JumpGrid> {
        &self.grid
    }

    /// The revision of the space it describes.
    pub fn revision(&self) -> u64 {
        self.grid.revision()
    }

    #[inline(always)]
    fn at(&self, x: u32, y: u32) -> &[i16; 8] {
        &self.entries[(y * self.width + x) as usize]
    }

    /// The straight jump from (x, y) in direction `d` (0 N, 1 E, 2 S, 3 W), stopping at the
    /// goal (gx, gy) when it lies on the way: as [`Bits::jump_east`] reports it.
    #[inline(always)]
    pub fn straight(&self, x: u32, y: u32, d: u8, gx: u32, gy: u32) -> Scan {
        let v = self.at(x, y)[d as usize] as i64;
        let reach = v.abs();
        let (dx, dy) = DIRS[d as usize];
        let (along, goal_along, on_line) = if dx != 0 {
            (x as i64, gx as i64, gy == y)
        } else {
            (y as i64, gy as i64, gx == x)
        };
        let s = dx + dy;
        let to_goal = (goal_along - along) * s;
        if on_line && to_goal > 0 && to_goal <= reach {
            return Scan {
                end: goal_along as u32,
                found: true,
            };
        }
        Scan {
            end: (along + s * reach) as u32,
            found: v > 0,
        }
    }

    /// The diagonal entry of (x, y) for direction (dx, dy).
    #[inline(always)]
    pub fn diagonal(&self, x: u32, y: u32, dx: i64, dy: i64) -> i16 {
        let d = match (dx, dy) {
            (1, -1) => 4,
            (1, 1) => 5,
            (-1, 1) => 6,
            _ => 7,
        };
        self.at(x, y)[d]
    }

    fn bits_of(&self, x: u32, y: u32, classes: &[u8]) -> Option<&Bits> {
        let c = classes[(y * self.width + x) as usize];
        (c != 0).then(|| self.grid.bits(self.grid.class_index(c)).0)
    }

    /// Recomputes the straight entries `d` of one line: the row (E, W) or column (N, S)
    /// through (x, y), walking against `d` so each cell reads the one ahead.
    fn straight_line(&mut self, d: usize, x: u32, y: u32, classes: &[u8]) {
        let (dx, dy) = DIRS[d];
        let (w, h) = (self.width as i64, self.height as i64);
        let len = if dx != 0 { w } else { h };
        for k in 0..len {
            // The cell furthest along d first.
            let along = if dx + dy > 0 { len - 1 - k } else { k };
            let (cx, cy) = if dx != 0 {
                (along, y as i64)
            } else {
                (x as i64, along)
            };
            let v = match self.bits_of(cx as u32, cy as u32, classes) {
                None => 0,
                Some(b) => {
                    let (nx, ny) = (cx + dx, cy + dy);
                    if !b.free(nx, ny) {
                        0
                    } else {
                        // The cell ahead is forced when a side cell is free and the one behind
                        // it (beside this cell) is blocked.
                        let (sx, sy) = (dy.abs(), dx.abs());
                        let forced = (b.free(nx + sx, ny + sy) && !b.free(cx + sx, cy + sy))
                            || (b.free(nx - sx, ny - sy) && !b.free(cx - sx, cy - sy));
                        if forced {
                            1
                        } else {
                            extend(self.at(nx as u32, ny as u32)[d] as i64)
                        }
                    }
                }
            };
            self.entries[(cy * w + cx) as usize][d] = v;
        }
    }

    /// The diagonal entry `d` (4..8) of (x, y), from the cell one step along it.
    fn diagonal_entry(&self, d: usize, x: i64, y: i64, classes: &[u8]) -> i16 {
        let Some(b) = self.bits_of(x as u32, y as u32, classes) else {
            return 0;
        };
        let (dx, dy) = DIRS[d];
        if !(b.free(x + dx, y) && b.free(x, y + dy) && b.free(x + dx, y + dy)) {
            return 0;
        }
        let (vert, horiz) = (if dy < 0 { 0 } else { 2 }, if dx > 0 { 1 } else { 3 });
        let c = self.at((x + dx) as u32, (y + dy) as u32);
        if c[vert] > 0 || c[horiz] > 0 {
            1
        } else {
            extend(c[d] as i64)
        }
    }

    /// Recomputes diagonal `d` along the line through (x, y), from its far end back.
    fn diagonal_line(&mut self, d: usize, x: i64, y: i64, classes: &[u8]) {
        let (dx, dy) = DIRS[d];
        let (w, h) = (self.width as i64, self.height as i64);
        // Walk to the far end of the line, then back.
        let (mut cx, mut cy) = (x, y);
        while cx + dx >= 0 && cx + dx < w && cy + dy >= 0 && cy + dy < h {
            cx += dx;
            cy += dy;
        }
        while cx >= 0 && cx < w && cy >= 0 && cy < h {
            let v = self.diagonal_entry(d, cx, cy, classes);
            self.entries[(cy * w + cx) as usize][d] = v;
            cx -= dx;
            cy -= dy;
        }
    }

    fn classes(space: &GridSpace) -> Vec<u8> {
        (0..space.num_nodes() as NodeId)
            .map(|n| space.class_of(n))
            .collect()
    }
}

impl Prepared<GridSpace> for JumpTable {
    const WHAT: &'static str = "jump table";

    fn build(space: &GridSpace, params: &Params) -> JumpTable {
        let grid = Arc::new(JumpGrid::build(space, params));
        let (w, h) = (space.width(), space.height());
        let mut t = JumpTable {
            grid,
            width: w,
            height: h,
            entries: vec![[0; 8]; (w * h) as usize],
        };
        let classes = JumpTable::classes(space);
        for y in 0..h {
            t.straight_line(1, 0, y, &classes);
            t.straight_line(3, 0, y, &classes);
        }
        for x in 0..w {
            t.straight_line(0, x, 0, &classes);
            t.straight_line(2, x, 0, &classes);
        }
        // Every diagonal line starts on the top or bottom row or on a side column.
        for d in 4..8 {
            for x in 0..w as i64 {
                t.diagonal_line(d, x, 0, &classes);
                t.diagonal_line(d, x, h as i64 - 1, &classes);
            }
            for y in 0..h as i64 {
                t.diagonal_line(d, 0, y, &classes);
                t.diagonal_line(d, w as i64 - 1, y, &classes);
            }
        }
        t
    }

    /// Redoes the rows and columns beside each changed cell, then the diagonals through every
    /// cell whose straight ways or passability changed.
    fn patch(&mut self, space: &GridSpace, changed: &[NodeId]) -> Option<String> {
        if (space.width(), space.height()) != (self.width, self.height) {
            return None;
        }
        let mut grid = (*self.grid).clone();
        grid.patch(space, changed)?;
        self.grid = Arc::new(grid);
        let classes = JumpTable::classes(space);
        let (w, h) = (self.width as i64, self.height as i64);
        let mut rows = BTreeSet::new();
        let mut cols = BTreeSet::new();
        for &n in changed {
            let (x, y) = space.xy(n);
            for k in -1..=1 {
                let (r, c) = (y as i64 + k, x as i64 + k);
                if (0..h).contains(&r) {
                    rows.insert(r as u32);
                }
                if (0..w).contains(&c) {
                    cols.insert(c as u32);
                }
            }
        }
        let before = self.entries.clone();
        for &r in &rows {
            self.straight_line(1, 0, r, &classes);
            self.straight_line(3, 0, r, &classes);
        }
        for &c in &cols {
            self.straight_line(0, c, 0, &classes);
            self.straight_line(2, c, 0, &classes);
        }
        // Cells whose diagonal entries may read differently now: passability changed, or a
        // straight way gained or lost its jump point.
        let mut touched: BTreeSet<(i64, i64)> = BTreeSet::new();
        for &n in changed {
            let (x, y) = space.xy(n);
            touched.insert((x as i64, y as i64));
        }
        let mut note = |x: i64, y: i64| {
            let i = (y * w + x) as usize;
            let (a, b) = (&before[i], &self.entries[i]);
            if (0..4).any(|d| (a[d] > 0) != (b[d] > 0)) {
                touched.insert((x, y));
            }
        };
        for &r in &rows {
            for x in 0..w {
                note(x, r as i64);
            }
        }
        for &c in &cols {
            for y in 0..h {
                note(c as i64, y);
            }
        }
        // A diagonal entry reads the cell one step along and the two beside that step: the
        // lines through a touched cell and its two neighbours across the line.
        let mut lines = 0;
        for (d, &(dx, dy)) in DIRS.iter().enumerate().skip(4) {
            let mut done = BTreeSet::new();
            for &(x, y) in &touched {
                for (px, py) in [(x, y), (x - dx, y), (x, y - dy)] {
                    if !(0..w).contains(&px) || !(0..h).contains(&py) {
                        continue;
                    }
                    // NE/SW lines keep x + y, SE/NW lines keep x − y.
                    let id = if dx == dy { px - py } else { px + py };
                    if done.insert(id) {
                        self.diagonal_line(d, px, py, &classes);
                        lines += 1;
                    }
                }
            }
        }
        Some(format!(
            "{} rows, {} columns, {lines} diagonals",
            rows.len(),
            cols.len()
        ))
    }

    fn revision(&self) -> u64 {
        self.grid.revision()
    }

    fn bytes(&self) -> usize {
        self.entries.len() * 16 + self.grid.bytes()
    }
}

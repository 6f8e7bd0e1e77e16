//! Edits as values: each can be applied, returns its inverse, and can be stored in a timeline.

use super::grid::{Cell, Grid};
use serde::{Deserialize, Serialize};

/// A rectangle of cells: `w × h` cells from (x, y).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rect {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
}

impl Rect {
    /// The rectangle spanned by two corner cells, inclusive, in any order.
    pub fn from_corners(a: (u32, u32), b: (u32, u32)) -> Rect {
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
        let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
        Rect {
            x: x0,
            y: y0,
            w: x1 - x0 + 1,
            h: y1 - y0 + 1,
        }
    }

    /// Smallest rectangle holding both.
    pub fn union(self, o: Rect) -> Rect {
        let x0 = self.x.min(o.x);
        let y0 = self.y.min(o.y);
        let x1 = (self.x + self.w).max(o.x + o.w);
        let y1 = (self.y + self.h).max(o.y + o.h);
        Rect {
            x: x0,
            y: y0,
            w: x1 - x0,
            h: y1 - y0,
        }
    }
}

/// A change to a grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Edit {
    /// One cell.
    SetCell { x: u32, y: u32, cell: Cell },
    /// Every cell of a rectangle.
    SetRect { rect: Rect, cell: Cell },
    /// The 4-connected region of cells equal to the one at (x, y).
    Fill { x: u32, y: u32, cell: Cell },
    /// New size; kept cells stay at their coordinates, new ones get `fill`.
    Resize { width: u32, height: u32, fill: Cell },
    /// A list of cells (what the inverse of the edits above is made of).
    Cells(Vec<(u32, u32, Cell)>),
    /// The whole grid (the inverse of a resize).
    Replace(Box<Grid>),
}

/// What applying an edit did.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// The edit that undoes this one.
    pub inverse: Edit,
    /// Cells that may have changed; `None` when the grid's size changed (everything is new).
    pub changed: Option<Rect>,
}

/// Why an edit could not be applied; the grid is left untouched.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EditError {
    #[error("cell ({x}, {y}) is outside the {w}×{h} grid")]
    Outside { x: u32, y: u32, w: u32, h: u32 },
    #[error("a grid must be between 1×1 and 65536×65536 cells, not {0}×{1}")]
    BadSize(u32, u32),
    #[error("cost {0} is not a positive finite number")]
    BadCost(f32),
}

/// Largest side a grid may have.
pub const MAX_SIDE: u32 = 65536;

fn check_cell(c: &Cell) -> Result<(), EditError> {
    if c.cost.is_finite() && c.cost > 0.0 {
        Ok(())
    } else {
        Err(EditError::BadCost(c.cost))
    }
}

fn check_in(g: &Grid, x: u32, y: u32) -> Result<(), EditError> {
    if x < g.width() && y < g.height() {
        Ok(())
    } else {
        Err(EditError::Outside {
            x,
            y,
            w: g.width(),
            h: g.height(),
        })
    }
}

impl Edit {
    /// Applies the edit, returning its inverse and the changed area.
    pub fn apply(&self, g: &mut Grid) -> Result<Applied, EditError> {
        match self {
            Edit::SetCell { x, y, cell } => {
                check_cell(cell)?;
                check_in(g, *x, *y)?;
                let old = g.get(*x, *y).expect("checked");
                g.set(*x, *y, *cell);
                Ok(Applied {
                    inverse: Edit::Cells(vec![(*x, *y, old)]),
                    changed: Some(Rect {
                        x: *x,
                        y: *y,
                        w: 1,
                        h: 1,
                    }),
                })
            }
            Edit::SetRect { rect, cell } => {
                check_cell(cell)?;
                if rect.w == 0 || rect.h == 0 {
                    return Ok(Applied {
                        inverse: Edit::Cells(vec![]),
                        changed: None,
                    });
                }
                check_in(g, rect.x, rect.y)?;
                check_in(g, rect.x + rect.w - 1, rect.y + rect.h - 1)?;
                let mut old = Vec::with_capacity((rect.w * rect.h) as usize);
                for y in rect.y..rect.y + rect.h {
                    for x in rect.x..rect.x + rect.w {
                        old.push((x, y, g.get(x, y).expect("checked")));
                        g.set(x, y, *cell);
                    }
                }
                Ok(Applied {
                    inverse: Edit::Cells(old),
                    changed: Some(*rect),
                })
            }
            Edit::Fill { x, y, cell } => {
                check_cell(cell)?;
                check_in(g, *x, *y)?;
                let seed = g.get(*x, *y).expect("checked");
                if seed == *cell {
                    return Ok(Applied {
                        inverse: Edit::Cells(vec![]),
                        changed: Some(Rect {
                            x: *x,
                            y: *y,
                            w: 1,
                            h: 1,
                        }),
                    });
                }
                let mut old = Vec::new();
                let mut stack = vec![(*x, *y)];
                let mut area = Rect {
                    x: *x,
                    y: *y,
                    w: 1,
                    h: 1,
                };
                while let Some((cx, cy)) = stack.pop() {
                    if g.get(cx, cy) != Some(seed) {
                        continue;
                    }
                    old.push((cx, cy, seed));
                    g.set(cx, cy, *cell);
                    area = area.union(Rect {
                        x: cx,
                        y: cy,
                        w: 1,
                        h: 1,
                    });
                    if cx > 0 {
                        stack.push((cx - 1, cy));
                    }
                    if cy > 0 {
                        stack.push((cx, cy - 1));
                    }
                    stack.push((cx + 1, cy));
                    stack.push((cx, cy + 1));
                }
                Ok(Applied {
                    inverse: Edit::Cells(old),
                    changed: Some(area),
                })
            }
            Edit::Resize {
                width,
                height,
                fill,
            } => {
                check_cell(fill)?;
                if *width == 0 || *height == 0 || *width > MAX_SIDE || *height > MAX_SIDE {
                    return Err(EditError::BadSize(*width, *height));
                }
                let mut new = Grid::new(*width, *height, *fill);
                for y in 0..(*height).min(g.height()) {
                    for x in 0..(*width).min(g.width()) {
                        new.set(x, y, g.get(x, y).expect("inside"));
                    }
                }
                let old = std::mem::replace(g, new);
                Ok(Applied {
                    inverse: Edit::Replace(Box::new(old)),
                    changed: None,
                })
            }
            Edit::Cells(list) => {
                for (x, y, c) in list {
                    check_cell(c)?;
                    check_in(g, *x, *y)?;
                }
                let mut old = Vec::with_capacity(list.len());
                let mut area: Option<Rect> = None;
                // Undo in reverse so a list that names a cell twice restores the first value.
                for (x, y, c) in list.iter() {
                    old.push((*x, *y, g.get(*x, *y).expect("checked")));
                    g.set(*x, *y, *c);
                    let r = Rect {
                        x: *x,
                        y: *y,
                        w: 1,
                        h: 1,
                    };
                    area = Some(area.map_or(r, |a| a.union(r)));
                }
                old.reverse();
                Ok(Applied {
                    inverse: Edit::Cells(old),
                    changed: area,
                })
            }
            Edit::Replace(grid) => {
                let old = std::mem::replace(g, (**grid).clone());
                Ok(Applied {
                    inverse: Edit::Replace(Box::new(old)),
                    changed: None,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_edit(rng: &mut ChaCha8Rng, g: &Grid) -> Edit {
        let cell = Cell {
            tile: [b'.', b'@', b'T', b'S'][rng.random_range(0..4)],
            cost: [1.0, 2.5][rng.random_range(0..2)],
        };
        let x = rng.random_range(0..g.width());
        let y = rng.random_range(0..g.height());
        match rng.random_range(0..4) {
            0 => Edit::SetCell { x, y, cell },
            1 => Edit::SetRect {
                rect: Rect::from_corners(
                    (x, y),
                    (
                        rng.random_range(0..g.width()),
                        rng.random_range(0..g.height()),
                    ),
                ),
                cell,
            },
            2 => Edit::Fill { x, y, cell },
            _ => Edit::Resize {
                width: rng.random_range(1..12),
                height: rng.random_range(1..12),
                fill: cell,
            },
        }
    }

    #[test]
    fn every_edit_is_undone_by_its_inverse() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut g = Grid::new(8, 6, Cell::FREE);
        let mut history = vec![];
        for _ in 0..500 {
            let e = random_edit(&mut rng, &g);
            let before = g.clone();
            let applied = e.apply(&mut g).unwrap();
            history.push((before, applied.inverse));
        }
        while let Some((before, inv)) = history.pop() {
            inv.apply(&mut g).unwrap();
            assert_eq!(g, before);
        }
    }

    #[test]
    fn bad_edits_leave_the_grid_untouched() {
        let mut g = Grid::new(4, 4, Cell::FREE);
        let before = g.clone();
        assert!(Edit::SetCell {
            x: 4,
            y: 0,
            cell: Cell::WALL
        }
        .apply(&mut g)
        .is_err());
        assert!(Edit::SetCell {
            x: 0,
            y: 0,
            cell: Cell {
                tile: b'.',
                cost: f32::NAN
            }
        }
        .apply(&mut g)
        .is_err());
        assert!(Edit::SetRect {
            rect: Rect {
                x: 2,
                y: 2,
                w: 3,
                h: 1
            },
            cell: Cell::WALL
        }
        .apply(&mut g)
        .is_err());
        assert!(Edit::Resize {
            width: 0,
            height: 3,
            fill: Cell::FREE
        }
        .apply(&mut g)
        .is_err());
        assert_eq!(g, before);
    }

    #[test]
    fn fill_stops_at_different_cells() {
        let mut g = Grid::from_rows(&["..@..", "..@..", "..@.."]);
        Edit::Fill {
            x: 0,
            y: 0,
            cell: Cell::tile(b'S'),
        }
        .apply(&mut g)
        .unwrap();
        assert_eq!(g.rows().collect::<Vec<_>>(), ["SS@..", "SS@..", "SS@.."]);
    }
}

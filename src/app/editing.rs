//! The pointer on the map: brush strokes, rectangles and fills, dragging start and goal,
//! the cell menu, and moving an endpoint.

use super::canvas::{self, Gesture};
use super::{PathlabApp, Tool, Touched};
use crate::map::{Cell, Edit};
use eframe::egui;

impl PathlabApp {
    /// Paints one cell during a brush stroke.
    pub(super) fn paint(&mut self, c: (u32, u32), tile: u8) {
        let cell = Cell::tile(tile);
        if self.doc.grid.get(c.0, c.1) == Some(cell) {
            return;
        }
        let before = self.doc.grid.get(c.0, c.1).unwrap_or(Cell::FREE);
        if let Ok((_, changed)) = self.doc.apply_unrecorded(&Edit::SetCell {
            x: c.0,
            y: c.1,
            cell,
        }) {
            let s = self.stroke.get_or_insert_with(|| (vec![], vec![]));
            s.0.push((c.0, c.1, cell));
            s.1.push((c.0, c.1, before));
            match changed {
                Some(r) => self.cells_changed(r),
                None => {
                    self.space.update(&self.doc.grid, None);
                    self.restart_all();
                }
            }
        }
    }

    /// Paints the cells on the straight line from the last painted cell of this stroke to `c`,
    /// so a fast drag leaves no gaps.
    pub(super) fn paint_to(&mut self, c: (u32, u32), tile: u8) {
        let from = self.brush_last.unwrap_or(c);
        for p in line_cells(from, c) {
            self.paint(p, tile);
        }
        self.brush_last = Some(c);
    }

    pub(super) fn end_stroke(&mut self) {
        self.brush_last = None;
        if let Some((redo, mut undo)) = self.stroke.take() {
            // Restore in reverse order so a cell painted twice gets its first value back.
            undo.reverse();
            self.doc.record_stroke(Edit::Cells(redo), Edit::Cells(undo));
        }
    }

    /// Handles the pointer on the canvas.
    pub(super) fn gesture(&mut self, g: Gesture, ui: &egui::Ui) {
        self.hover = g.hover;
        if let Some(is_start) = g.grab {
            // Start and goal can be dragged whatever the tool: a press on their disc is never
            // meant as painting.
            self.dragging_endpoint = Some(is_start);
            self.rect_from = None;
        } else if let Some(c) = g.pressed {
            if self.tool == Tool::Rect {
                self.rect_from = Some(c);
            }
            if self.tool == Tool::Know {
                // The hex pressed on counts even if the drag is first seen a hex further.
                self.paint_knowledge(c, ui.input(|i| i.modifiers.shift));
                self.brush_last = Some(c);
            }
        }
        if let Some(is_start) = self.dragging_endpoint {
            if let Some(c) = g.dragging {
                self.drag_to = Some((is_start, c));
            }
            if g.released {
                self.dragging_endpoint = None;
                if let Some((_, c)) = self.drag_to.take() {
                    let c = self.nearest_passable(c, self.snap_radius());
                    self.move_endpoint(is_start, c);
                }
            }
            return;
        }
        if let Some(c) = g.dragging {
            match self.tool {
                Tool::Brush => self.paint_to(c, self.material),
                Tool::Erase => self.paint_to(c, b'.'),
                Tool::Know => {
                    let forget = ui.input(|i| i.modifiers.shift);
                    for p in line_cells(self.brush_last.unwrap_or(c), c) {
                        self.paint_knowledge(p, forget);
                    }
                    self.brush_last = Some(c);
                }
                _ => {}
            }
        }
        if g.released {
            match self.tool {
                Tool::Brush | Tool::Erase => self.end_stroke(),
                Tool::Know => {
                    self.brush_last = None;
                    self.end_knowledge_stroke();
                }
                Tool::Rect => {
                    if let (Some(a), Some(b)) = (self.rect_from.take(), g.hover) {
                        self.edit(Edit::SetRect {
                            rect: crate::map::Rect::from_corners(a, b),
                            cell: Cell::tile(self.material),
                        });
                    }
                }
                Tool::Select | Tool::Fill => {}
            }
        }
        if let Some(c) = g.clicked {
            match self.tool {
                Tool::Select => self.selected = Some(c),
                Tool::Brush => {
                    self.paint(c, self.material);
                    self.end_stroke();
                }
                Tool::Erase => {
                    self.paint(c, b'.');
                    self.end_stroke();
                }
                Tool::Know => {
                    self.paint_knowledge(c, ui.input(|i| i.modifiers.shift));
                    self.end_knowledge_stroke();
                }
                Tool::Fill => self.edit(Edit::Fill {
                    x: c.0,
                    y: c.1,
                    cell: Cell::tile(self.material),
                }),
                Tool::Rect => {
                    self.rect_from = None;
                    self.edit(Edit::SetCell {
                        x: c.0,
                        y: c.1,
                        cell: Cell::tile(self.material),
                    });
                }
            }
        }
        if ui.input(|i| i.key_down(egui::Key::Space)) && g.dragging.is_some() {
            self.space_panned = true;
        }
    }

    /// The endpoint being dragged (`true`: start) and the cell its disc is drawn on.
    pub fn dragged_endpoint(&self) -> Option<(bool, (u32, u32))> {
        self.drag_to.filter(|_| self.dragging_endpoint.is_some())
    }

    /// Cells within this many of a drop are searched for a passable one: about 6 pixels, so
    /// an endpoint can be dropped by eye on a map shrunk below a pixel per cell.
    pub(super) fn snap_radius(&self) -> u32 {
        (6.0 / self.cam.zoom).ceil().clamp(0.0, 64.0) as u32
    }

    /// `c` if the searches may stand on it, else the closest such cell within `radius`
    /// (Chebyshev rings), else `c` (and moving there is refused with a message).
    pub(super) fn nearest_passable(&self, c: (u32, u32), radius: u32) -> (u32, u32) {
        let ok = |x: i64, y: i64| {
            x >= 0
                && y >= 0
                && self
                    .space
                    .node(x as u32, y as u32)
                    .is_some_and(|n| self.space.is_passable(n))
        };
        let (cx, cy) = (c.0 as i64, c.1 as i64);
        for r in 0..=radius as i64 {
            let mut best: Option<(i64, (u32, u32))> = None;
            for dy in -r..=r {
                for dx in -r..=r {
                    if dx.abs().max(dy.abs()) == r && ok(cx + dx, cy + dy) {
                        let d = dx * dx + dy * dy;
                        if best.is_none_or(|b| d < b.0) {
                            best = Some((d, ((cx + dx) as u32, (cy + dy) as u32)));
                        }
                    }
                }
            }
            if let Some((_, p)) = best {
                return p;
            }
        }
        c
    }

    /// Acts on an entry of a cell's context menu.
    pub(super) fn menu_action(&mut self, a: canvas::MenuAction, c: (u32, u32)) {
        match a {
            canvas::MenuAction::SetStart => self.move_endpoint(true, c),
            canvas::MenuAction::SetGoal => self.move_endpoint(false, c),
            canvas::MenuAction::Select => self.selected = Some(c),
            canvas::MenuAction::BreakAt => {
                self.breakpoints.node = self.space.node(c.0, c.1);
                self.status = format!("Playing stops when ({}, {}) is expanded", c.0, c.1);
            }
        }
    }

    /// Moves start (`true`) or goal to a free cell (undoable) and restarts the runs.
    pub fn move_endpoint(&mut self, is_start: bool, c: (u32, u32)) {
        // The space's own test, so that under "ground only" swamp and water refuse too.
        let passable = self
            .space
            .node(c.0, c.1)
            .is_some_and(|n| self.space.is_passable(n));
        if !self.doc.is_free(c.0, c.1) || !passable {
            self.status = format!("({}, {}) is blocked", c.0, c.1);
            return;
        }
        if c == if is_start {
            self.doc.goal
        } else {
            self.doc.start
        } {
            self.status = "Start and goal must be different cells".into();
            return;
        }
        if is_start {
            self.doc.set_start(c);
        } else {
            self.doc.set_goal(c);
        }
        self.touched(Touched::Endpoints);
        self.status = format!(
            "{} moved to ({}, {})",
            if is_start { "Start" } else { "Goal" },
            c.0,
            c.1
        );
    }
}

/// The cells of a straight line between two cells, both included (Bresenham).
fn line_cells(a: (u32, u32), b: (u32, u32)) -> Vec<(u32, u32)> {
    let (mut x, mut y) = (a.0 as i64, a.1 as i64);
    let (x1, y1) = (b.0 as i64, b.1 as i64);
    let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
    let (sx, sy) = ((x1 - x).signum(), (y1 - y).signum());
    let mut err = dx + dy;
    let mut v = vec![];
    loop {
        v.push((x as u32, y as u32));
        if x == x1 && y == y1 {
            return v;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::line_cells;

    #[test]
    fn brush_lines_have_no_gaps() {
        for (a, b) in [
            ((0, 0), (5, 2)),
            ((7, 1), (2, 9)),
            ((3, 3), (3, 3)),
            ((9, 4), (0, 4)),
        ] {
            let v = line_cells(a, b);
            assert_eq!((v[0], *v.last().unwrap()), (a, b));
            assert!(v
                .windows(2)
                .all(|w| w[0].0.abs_diff(w[1].0) <= 1 && w[0].1.abs_diff(w[1].1) <= 1));
        }
    }
}

//! The pointer on the map: brush strokes, rectangles and fills, dragging start and goal,
//! the cell menu, and moving an endpoint.

use crate::app::canvas::{self, Gesture};
use crate::app::{PathlabApp, Tool, Touched};
use crate::map::{Cell, Edit};
use eframe::egui;

impl PathlabApp {
    /// Paints one cell during a brush stroke.
    pub(in crate::app) fn paint(&mut self, c: (u32, u32), tile: u8) {
        let cell = Cell::tile(tile);
        if self.work.doc.grid.get(c.0, c.1) == Some(cell) {
            return;
        }
        let before = self.work.doc.grid.get(c.0, c.1).unwrap_or(Cell::FREE);
        if let Ok((_, changed)) = self.work.doc.apply_unrecorded(&Edit::SetCell {
            x: c.0,
            y: c.1,
            cell,
        }) {
            let s = self.edit.stroke.get_or_insert_with(|| (vec![], vec![]));
            s.0.push((c.0, c.1, cell));
            s.1.push((c.0, c.1, before));
            match changed {
                Some(r) => self.cells_changed(r),
                None => {
                    let before = self.work.space.revision();
                    self.work.space.update(&self.work.doc.grid, None);
                    if let Some(note) =
                        crate::app::prepared::world_changed(before, &self.work.space, None)
                    {
                        self.status = note;
                    }
                    self.restart_all();
                }
            }
        }
    }

    pub(in crate::app) fn end_stroke(&mut self) {
        self.edit.brush_last = None;
        if let Some((redo, mut undo)) = self.edit.stroke.take() {
            // Restore in reverse order so a cell painted twice gets its first value back.
            undo.reverse();
            self.work
                .doc
                .record_stroke(Edit::Cells(redo), Edit::Cells(undo));
        }
    }

    /// Handles the pointer on the canvas: every cell of the frame's stroke, in order.
    pub(in crate::app) fn gesture(&mut self, g: Gesture, ui: &egui::Ui) {
        self.edit.hover = g.hover;
        // Painting a crowd's start or goal area: the drag is the area, nothing else.
        if let Some(k) = self
            .parts
            .of_mut::<crate::app::crowd::CrowdWindow>()
            .painting
        {
            if let Some(c) = g.pressed {
                self.edit.rect_from = Some(c);
            }
            if g.released {
                if let (Some(a), Some(b)) = (self.edit.rect_from.take(), g.released_at.or(g.hover))
                {
                    let area = crate::app::crowd_view::CrowdCommand::Area(k, [a, b]);
                    self.apply(crate::app::Command::Crowd(area));
                }
            }
            return;
        }
        let forget = ui.input(|i| i.modifiers.shift);
        if let Some(is_start) = g.grab {
            // Start and goal can be dragged whatever the tool: a press on their disc is never
            // meant as painting.
            self.edit.dragging_endpoint = Some(is_start);
            self.edit.rect_from = None;
        } else if let Some(c) = g.pressed {
            self.edit.brush_last = None;
            if self.edit.tool == Tool::Rect {
                self.edit.rect_from = Some(c);
            }
        }
        if let Some(is_start) = self.edit.dragging_endpoint {
            if let Some(&c) = g.stroke.last() {
                self.edit.drag_to = Some((is_start, c));
            }
            if g.released {
                self.edit.dragging_endpoint = None;
                // Dropped where the button came up, not where the pointer was a frame before.
                let to = g.released_at.or(self.edit.drag_to.map(|d| d.1));
                self.edit.drag_to = None;
                if let Some(c) = to {
                    let c = self.nearest_passable(c, self.snap_radius());
                    self.move_endpoint(is_start, c);
                }
            }
            return;
        }
        for &c in &g.stroke {
            // A cell already painted at the end of the last frame's part of the stroke is
            // not painted (or, with Know, visited) twice.
            if self.edit.brush_last == Some(c) {
                continue;
            }
            match self.edit.tool {
                Tool::Brush => self.paint(c, self.edit.material),
                Tool::Erase => self.paint(c, b'.'),
                Tool::Know => self.paint_knowledge(c, forget),
                _ => {}
            }
            self.edit.brush_last = Some(c);
        }
        if g.released {
            match self.edit.tool {
                Tool::Brush | Tool::Erase => self.end_stroke(),
                Tool::Know => {
                    self.edit.brush_last = None;
                    self.end_knowledge_stroke();
                }
                Tool::Rect => {
                    if let (Some(a), Some(b)) =
                        (self.edit.rect_from.take(), g.released_at.or(g.hover))
                    {
                        self.edit(Edit::SetRect {
                            rect: crate::map::Rect::from_corners(a, b),
                            cell: Cell::tile(self.edit.material),
                        });
                    }
                }
                Tool::Select | Tool::Fill => {}
            }
        }
        if let Some(c) = g.clicked {
            match self.edit.tool {
                Tool::Select => self.edit.selected = Some(c),
                Tool::Fill => self.edit(Edit::Fill {
                    x: c.0,
                    y: c.1,
                    cell: Cell::tile(self.edit.material),
                }),
                // Painted by the stroke's one cell.
                Tool::Brush | Tool::Erase | Tool::Know | Tool::Rect => {}
            }
        }
        if ui.input(|i| i.key_down(egui::Key::Space)) && !g.stroke.is_empty() {
            self.display.space_panned = true;
        }
    }

    /// The endpoint being dragged (`true`: start) and the cell its disc is drawn on.
    pub fn dragged_endpoint(&self) -> Option<(bool, (u32, u32))> {
        self.edit
            .drag_to
            .filter(|_| self.edit.dragging_endpoint.is_some())
    }

    /// Cells within this many of a drop are searched for a passable one: about 6 pixels, so
    /// an endpoint can be dropped by eye on a map shrunk below a pixel per cell.
    pub(in crate::app) fn snap_radius(&self) -> u32 {
        (6.0 / self.cam.zoom).ceil().clamp(0.0, 64.0) as u32
    }

    /// `c` if the searches may stand on it, else the closest such cell within `radius`
    /// (Chebyshev rings), else `c` (and moving there is refused with a message).
    pub(in crate::app) fn nearest_passable(&self, c: (u32, u32), radius: u32) -> (u32, u32) {
        let ok = |x: i64, y: i64| {
            x >= 0
                && y >= 0
                && self
                    .work
                    .space
                    .node(x as u32, y as u32)
                    .is_some_and(|n| self.work.space.is_passable(n))
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
    pub(in crate::app) fn menu_action(&mut self, a: canvas::MenuAction, c: (u32, u32)) {
        match a {
            canvas::MenuAction::SetStart => self.move_endpoint(true, c),
            canvas::MenuAction::SetGoal => self.move_endpoint(false, c),
            canvas::MenuAction::Select => self.edit.selected = Some(c),
            canvas::MenuAction::BreakAt => {
                self.play.breakpoints.node = self.work.space.node(c.0, c.1);
                self.status = format!("Playing stops when ({}, {}) is expanded", c.0, c.1);
            }
        }
    }

    /// Moves start (`true`) or goal to a free cell (undoable) and restarts the runs.
    pub fn move_endpoint(&mut self, is_start: bool, c: (u32, u32)) {
        // The space's own test, so that under "ground only" swamp and water refuse too.
        let passable = self
            .work
            .space
            .node(c.0, c.1)
            .is_some_and(|n| self.work.space.is_passable(n));
        if !self.work.doc.is_free(c.0, c.1) || !passable {
            self.status = format!("({}, {}) is blocked", c.0, c.1);
            return;
        }
        if c == if is_start {
            self.work.doc.goal
        } else {
            self.work.doc.start
        } {
            self.status = "Start and goal must be different cells".into();
            return;
        }
        if is_start {
            self.work.doc.set_start(c);
        } else {
            self.work.doc.set_goal(c);
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

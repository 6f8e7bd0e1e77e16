//! The centre: one to four views laid out for the map's shape, each synced and drawn, the
//! legend strip under them, and the pointer read from every view.

pub(crate) mod camera;
pub(crate) mod canvas;
pub(crate) mod canvas_draw;
mod canvas_view;
pub(crate) mod editing;
pub(crate) mod legend;
pub(crate) mod svg;
mod svg_shapes;
pub(crate) mod texture;
pub(crate) mod view3d;
mod view3d_camera;
pub(crate) mod view3d_gl;
pub(crate) mod view3d_mesh;

use crate::app::view3d::View3d;
use crate::app::{PathlabApp, View};
use canvas_view::Canvas2d;
use eframe::egui;
use eframe::egui::{vec2, Vec2};

impl PathlabApp {
    pub(in crate::app) fn centre(&mut self, ui: &mut egui::Ui) {
        let full = ui.available_rect_before_wrap();
        // The legend gets a strip of its own under the views, so it never covers map cells;
        // on a voxel world it runs under the 3D view too (in the 2D column alone it took a
        // third of its height).
        let diff = self.display.diff && self.work.views.len() >= 2;
        let extras = self.legend_extras();
        let legend_h = if self.display.show_legend {
            legend::legend_height(ui, full.width(), diff, &extras)
        } else {
            0.0
        };
        // The world's side view (voxels: the 3D view), left of the 2D views.
        let side = crate::app::worlds::ui_of(&self.work.doc.world).side_view(self);
        let map = (self.work.space.width(), self.work.space.height());
        let lay = layout(full, legend_h, side.is_some(), self.work.views.len(), map);
        self.parts.of_mut::<View3d>().rect = None;
        if let (Some(part), Some(r)) = (side, lay.side) {
            part.show(self, ui, r, 0);
        }
        self.display.canvas_rect = Some(lay.canvas);
        self.display.view_rects = lay.views.clone();
        let mut gestures = vec![];
        for (i, &rect) in lay.views.iter().enumerate() {
            if let Some(g) = Canvas2d.show(self, ui, rect, i) {
                gestures.push(g);
            }
        }
        self.display.legend_rect = None;
        if legend_h > 0.0 {
            legend::draw_legend(ui, lay.legend, diff, &extras);
            self.display.legend_rect = Some(lay.legend);
        }
        // The pointer's cell is cleared when it leaves every view, so the inspector never
        // speaks of a cell the user is no longer pointing at.
        let mut hover = None;
        for (i, g) in gestures.into_iter().enumerate() {
            if g.hover.is_some() {
                hover = g.hover;
                self.display.active = i;
            }
            let (secondary, menu) = (g.secondary, g.menu);
            if g.hover.is_some() || g.released || !g.stroke.is_empty() || g.clicked.is_some() {
                self.gesture(g, ui);
            }
            if let Some(c) = secondary {
                self.edit.selected = Some(c);
                self.display.active = i;
            }
            if let Some((a, c)) = menu {
                self.menu_action(a, c);
            }
        }
        self.edit.hover = hover;
    }
}

impl PathlabApp {
    /// What the views' algorithms and worlds draw beyond their nodes, each once: the legend's
    /// entries between the search colours and the terrain.
    pub(in crate::app) fn legend_extras(&self) -> legend::Extras {
        let mut extras = legend::Extras::new();
        for v in &self.work.views {
            let family = v.world.as_deref().map_or(self.work.doc.world, |w| w.family);
            legend::add_once(&mut extras, legend::view_extras(&v.run, &family));
        }
        extras
    }

    /// The legend strip's entries as it shows them now, in order.
    pub fn legend_shown(&self) -> Vec<&'static str> {
        let diff = self.display.diff && self.work.views.len() >= 2;
        legend::legend_items(diff, &self.legend_extras())
            .into_iter()
            .map(|e| e.1)
            .collect()
    }
}

/// A kind of view the centre lays out: the 2D canvas of a run, the 3D view of a voxel world.
pub(crate) trait ViewPart: Sync {
    /// Draws view `i` of its kind into `rect`; a canvas returns what the pointer did on it.
    fn show(
        &self,
        app: &mut PathlabApp,
        ui: &mut egui::Ui,
        rect: egui::Rect,
        i: usize,
    ) -> Option<canvas::Gesture>;
}

/// Where the centre's parts go.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Layout {
    /// The legend's strip under everything (it never covers a map cell).
    pub legend: egui::Rect,
    /// The side view (the 3D view), left of the 2D views.
    pub side: Option<egui::Rect>,
    /// What the 2D views share.
    pub canvas: egui::Rect,
    /// Each 2D view's rectangle, left to right and top to bottom.
    pub views: Vec<egui::Rect>,
}

/// The one layout of the centre: the legend strip (`legend_h` high) at the bottom, a side view
/// in the left 60% when there is one, and `n` 2D views of a `map`-sized world in the grid that
/// shows the map largest, 3 points apart.
pub(crate) fn layout(
    full: egui::Rect,
    legend_h: f32,
    side: bool,
    n: usize,
    map: (u32, u32),
) -> Layout {
    let legend = egui::Rect::from_min_max(egui::pos2(full.min.x, full.max.y - legend_h), full.max);
    let mut rest = full;
    rest.max.y -= legend_h;
    let side = side.then(|| {
        let split = rest.left() + (rest.width() * 0.6).round();
        let r = egui::Rect::from_min_max(rest.min, egui::pos2(split - 3.0, rest.max.y));
        rest = egui::Rect::from_min_max(egui::pos2(split, rest.top()), rest.max);
        r
    });
    let (cols, rows) = grid_layout(n, rest.size(), map);
    let cell = vec2(rest.width() / cols as f32, rest.height() / rows as f32);
    let views = (0..n)
        .map(|i| {
            let (c, r) = (i % cols, i / cols);
            egui::Rect::from_min_size(
                rest.min + vec2(c as f32 * cell.x, r as f32 * cell.y),
                cell - vec2(
                    if c + 1 < cols { 3.0 } else { 0.0 },
                    if r + 1 < rows { 3.0 } else { 0.0 },
                ),
            )
        })
        .collect();
    Layout {
        legend,
        side,
        canvas: rest,
        views,
    }
}

/// View `i` mutably, and view `j` too when given (they differ).
fn split_pair(views: &mut [View], i: usize, j: Option<usize>) -> (&mut View, Option<&mut View>) {
    match j {
        Some(j) if j != i => {
            if i < j {
                let (a, b) = views.split_at_mut(j);
                (&mut a[i], Some(&mut b[0]))
            } else {
                let (a, b) = views.split_at_mut(i);
                (&mut b[0], Some(&mut a[j]))
            }
        }
        _ => (&mut views[i], None),
    }
}

/// Columns and rows for `n` views of a `map` in `area`: the arrangement whose views show the
/// map largest when fitted (a wide map stacks compared views, a tall one puts them side by
/// side).
pub(in crate::app) fn grid_layout(n: usize, area: Vec2, map: (u32, u32)) -> (usize, usize) {
    let n = n.max(1);
    let mut best = (1, n, f32::MIN);
    for cols in 1..=n {
        let rows = n.div_ceil(cols);
        let cell = vec2(area.x / cols as f32, area.y / rows as f32);
        let zoom = (cell.x / map.0.max(1) as f32).min(cell.y / map.1.max(1) as f32);
        // Ties (and near ties) go to fewer empty slots.
        let score = zoom * (1.0 - 0.01 * (cols * rows - n) as f32);
        if score > best.2 {
            best = (cols, rows, score);
        }
    }
    (best.0, best.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_puts_the_legend_under_the_side_view_and_the_views_beside_it() {
        let full = egui::Rect::from_min_size(egui::pos2(10.0, 20.0), vec2(1000.0, 600.0));
        let lay = layout(full, 40.0, true, 2, (100, 50));
        assert_eq!(
            lay.legend,
            egui::Rect::from_min_max(egui::pos2(10.0, 580.0), full.max)
        );
        let side = lay.side.expect("a side view");
        assert_eq!(side.max.x, 10.0 + 600.0 - 3.0);
        assert_eq!(lay.canvas.min.x, 610.0);
        assert_eq!(lay.canvas.max.y, 580.0);
        // A wide map: the two views stacked, 3 points apart, filling the canvas.
        assert_eq!(lay.views.len(), 2);
        assert_eq!(lay.views[0].width(), lay.canvas.width());
        assert_eq!(lay.views[1].min.y - lay.views[0].max.y, 3.0);
        assert_eq!(lay.views[1].max, lay.canvas.max);
        for v in &lay.views {
            assert!(v.min.x > side.max.x && v.max.y <= lay.legend.min.y);
        }
        // No side view: the views take the whole width.
        let lay = layout(full, 0.0, false, 1, (100, 50));
        assert_eq!((lay.side, lay.views[0]), (None, full));
    }
}

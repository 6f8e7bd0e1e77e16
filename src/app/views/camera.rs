//! The camera of a 2D view (pan, zoom to the cursor, fit), placing the cells of the world's
//! geometry on screen.

use crate::app::worlds::geometry::{CellGeometry, SQUARES};
use eframe::egui::{self, vec2, Pos2, Rect, Stroke, Vec2};

/// Height of a view's title bar (the map is fitted below it).
pub(in crate::app) const TITLE_H: f32 = 20.0;

/// Where the map sits on screen; shared by every view so compared runs line up.
#[derive(Clone, Copy, Debug)]
pub struct Camera {
    /// Screen points per cell (per hex pitch on hex worlds).
    pub zoom: f32,
    /// Square cells or hexagons: set from the world before every frame.
    pub geometry: &'static dyn CellGeometry,
    /// Position of the map's top-left corner relative to the view's top-left corner.
    pub offset: Vec2,
    /// Fit the map to the view on the next frame.
    pub fit_pending: bool,
    /// View size of the last automatic fit, while the user has not moved the camera: the
    /// map is fitted again when the view's size changes (panels settle on the first frames).
    pub(in crate::app) fitted_for: Option<Vec2>,
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            zoom: 16.0,
            geometry: &SQUARES,
            offset: Vec2::ZERO,
            fit_pending: true,
            fitted_for: None,
        }
    }
}

impl Camera {
    pub(in crate::app) fn fit(&mut self, view: Rect, w: u32, h: u32) {
        // Below the view's title bar, which would otherwise cover the map's top rows.
        let avail = view.size() - vec2(0.0, TITLE_H);
        let e = self.geometry.extent(w, h);
        let z = (avail.x / e.x).min(avail.y / e.y) * 0.96;
        self.zoom = z.max(0.05);
        let size = e * self.zoom;
        self.offset = vec2(0.0, TITLE_H) + (avail - size) * 0.5;
        self.fit_pending = false;
        self.fitted_for = Some(view.size());
    }

    /// The cell under a screen position.
    pub fn cell_at(&self, view: Rect, p: Pos2, w: u32, h: u32) -> Option<(u32, u32)> {
        self.geometry
            .cell_at((p - view.min - self.offset) / self.zoom, w, h)
    }

    /// Screen position of a cell's centre.
    pub fn centre(&self, view: Rect, c: (u32, u32)) -> Pos2 {
        view.min + self.offset + self.geometry.centre(c) * self.zoom
    }

    /// A cell's corners around its centre, in screen points (the same for every cell).
    pub(in crate::app) fn corners(&self) -> Vec<Vec2> {
        let z = self.zoom;
        self.geometry.corners().into_iter().map(|q| q * z).collect()
    }

    /// The square around a cell (a hexagon's bounding box on hex worlds).
    pub(in crate::app) fn cell_rect(&self, view: Rect, c: (u32, u32)) -> Rect {
        let side = self.geometry.side();
        Rect::from_center_size(self.centre(view, c), Vec2::splat(side * self.zoom))
    }

    /// The outline of a cell on screen: its square or its hexagon, clockwise.
    pub(in crate::app) fn outline(&self, view: Rect, c: (u32, u32)) -> Vec<Pos2> {
        let ctr = self.centre(view, c);
        self.geometry
            .corners()
            .into_iter()
            .map(|q| ctr + q * self.zoom)
            .collect()
    }

    /// Strokes a cell's outline (inside it on squares, as the texture's cells are drawn).
    pub(in crate::app) fn stroke_cell(
        &self,
        p: &egui::Painter,
        view: Rect,
        c: (u32, u32),
        s: Stroke,
        grow: f32,
    ) {
        if self.geometry.texture_cells() {
            // Inside the cell, as the texture's cells are drawn.
            p.rect_stroke(
                self.cell_rect(view, c).expand(grow),
                0.0,
                s,
                egui::StrokeKind::Inside,
            );
        } else {
            let ctr = self.centre(view, c);
            let pts = self
                .outline(view, c)
                .into_iter()
                .map(|q| q + (q - ctr).normalized() * grow)
                .collect();
            p.add(egui::Shape::closed_line(pts, s));
        }
    }
}

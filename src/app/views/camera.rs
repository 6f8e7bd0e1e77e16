//! The camera of a 2D view (pan, zoom to the cursor, fit) and the geometry of its cells:
//! squares, or hexagons one unit from centre to centre.

use crate::space::HexOrientation;
use crate::world::Family;
use eframe::egui::{self, vec2, Pos2, Rect, Stroke, Vec2};

/// Height of a view's title bar (the map is fitted below it).
pub(in crate::app) const TITLE_H: f32 = 20.0;

/// How cells lie in the plane: squares one unit apart, or hexagons one unit from centre to
/// centre (hex worlds are drawn at pitch 1, whatever square cells they came from).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Geometry {
    #[default]
    Square,
    Hex(HexOrientation),
}

impl Geometry {
    pub fn of(family: Family) -> Geometry {
        match family {
            // A voxel world's 2D view is its layer: square cells.
            Family::Square | Family::Voxel { .. } => Geometry::Square,
            Family::Hex { orientation, .. } => Geometry::Hex(orientation),
        }
    }

    /// Size of a `w × h` map, in world units.
    pub(in crate::app) fn extent(self, w: u32, h: u32) -> Vec2 {
        match self {
            Geometry::Square => vec2(w as f32, h as f32),
            Geometry::Hex(o) => {
                let (x, y) = o.extent(w, h, 1.0);
                vec2(x as f32, y as f32)
            }
        }
    }

    /// Centre of cell `c`, in world units from the map's top-left corner.
    pub(in crate::app) fn centre(self, c: (u32, u32)) -> Vec2 {
        match self {
            Geometry::Square => vec2(c.0 as f32 + 0.5, c.1 as f32 + 0.5),
            Geometry::Hex(o) => {
                let (x, y) = o.centre(c.0, c.1, 1.0);
                vec2(x as f32, y as f32)
            }
        }
    }

    /// The cell at world point `q`.
    pub(in crate::app) fn cell_at(self, q: Vec2, w: u32, h: u32) -> Option<(u32, u32)> {
        match self {
            Geometry::Square => (q.x >= 0.0 && q.y >= 0.0 && (q.x as u32) < w && (q.y as u32) < h)
                .then_some((q.x as u32, q.y as u32)),
            Geometry::Hex(o) => o.hex_at(q.x as f64, q.y as f64, 1.0, w, h),
        }
    }

    /// Cells whose shape may show between world points `a` and `b`: `[x0, x1) × [y0, y1)`.
    pub(in crate::app) fn visible(self, a: Vec2, b: Vec2, w: u32, h: u32) -> (u32, u32, u32, u32) {
        let cl = |v: f32, m: u32| (v.max(0.0) as u32).min(m);
        let (sx, sy) = match self {
            Geometry::Square => (1.0, 1.0),
            Geometry::Hex(HexOrientation::Pointy) => (1.0, 3f32.sqrt() / 2.0),
            Geometry::Hex(HexOrientation::Flat) => (3f32.sqrt() / 2.0, 1.0),
        };
        let m = if self == Geometry::Square { 0.0 } else { 1.0 };
        (
            cl(a.x / sx - m, w),
            cl(a.y / sy - m, h),
            cl(b.x / sx + 1.0 + m, w),
            cl(b.y / sy + 1.0 + m, h),
        )
    }
}

/// Where the map sits on screen; shared by every view so compared runs line up.
#[derive(Clone, Copy, Debug)]
pub struct Camera {
    /// Screen points per cell (per hex pitch on hex worlds).
    pub zoom: f32,
    /// Square cells or hexagons: set from the world before every frame.
    pub geometry: Geometry,
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
            geometry: Geometry::Square,
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

    /// The square around a cell (a hexagon's bounding box on hex worlds).
    pub(in crate::app) fn cell_rect(&self, view: Rect, c: (u32, u32)) -> Rect {
        let side = match self.geometry {
            Geometry::Square => 1.0,
            Geometry::Hex(_) => 2.0 / 3f32.sqrt(),
        };
        Rect::from_center_size(self.centre(view, c), Vec2::splat(side * self.zoom))
    }

    /// The outline of a cell on screen: its square or its hexagon, clockwise.
    pub(in crate::app) fn outline(&self, view: Rect, c: (u32, u32)) -> Vec<Pos2> {
        match self.geometry {
            Geometry::Square => {
                let r = self.cell_rect(view, c);
                vec![
                    r.left_top(),
                    r.right_top(),
                    r.right_bottom(),
                    r.left_bottom(),
                ]
            }
            Geometry::Hex(o) => o
                .corners(c.0, c.1, 1.0)
                .iter()
                .map(|&(x, y)| view.min + self.offset + vec2(x as f32, y as f32) * self.zoom)
                .collect(),
        }
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
        match self.geometry {
            Geometry::Square => {
                p.rect_stroke(
                    self.cell_rect(view, c).expand(grow),
                    0.0,
                    s,
                    egui::StrokeKind::Inside,
                );
            }
            Geometry::Hex(_) => {
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
}

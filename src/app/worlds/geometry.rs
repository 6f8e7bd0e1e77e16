//! How a family's cells lie in a 2D view: squares one unit apart, or hexagons one unit from
//! centre to centre (hex worlds are drawn at pitch 1, whatever square cells they came from).
//! The canvas, the camera and the overlays ask the geometry; none of them names a family.

use crate::space::HexOrientation;
use eframe::egui::{vec2, Vec2};

/// The shape and placement of one family's cells in world units.
pub trait CellGeometry: Sync + std::fmt::Debug {
    /// Size of a `w × h` map.
    fn extent(&self, w: u32, h: u32) -> Vec2;
    /// Centre of cell `c`, from the map's top-left corner.
    fn centre(&self, c: (u32, u32)) -> Vec2;
    /// The cell at world point `q`.
    fn cell_at(&self, q: Vec2, w: u32, h: u32) -> Option<(u32, u32)>;
    /// Cells whose shape may show between world points `a` and `b`: `[x0, x1) × [y0, y1)`.
    fn visible(&self, a: Vec2, b: Vec2, w: u32, h: u32) -> (u32, u32, u32, u32);
    /// Side of the square around a cell (a hexagon's bounding box).
    fn side(&self) -> f32;
    /// The corners of a cell around its centre, clockwise (the same for every cell).
    fn corners(&self) -> Vec<Vec2>;
    /// Whether cells are the map texture's pixels, a row of cells a row of pixels: the view
    /// shows the texture itself, grid lines between cells, and a rectangle of cells is a
    /// rectangle on screen. Otherwise each cell is drawn as its polygon.
    fn texture_cells(&self) -> bool;
}

/// Square cells (square worlds, and a voxel world's layer).
#[derive(Debug)]
pub struct Squares;

/// Hexagons of an offset grid.
#[derive(Debug)]
pub struct Hexes(pub HexOrientation);

pub static SQUARES: Squares = Squares;
pub static HEXES_POINTY: Hexes = Hexes(HexOrientation::Pointy);
pub static HEXES_FLAT: Hexes = Hexes(HexOrientation::Flat);

/// Clamps the visible range to the map, with `m` cells of margin.
fn clamp_range(a: Vec2, b: Vec2, (sx, sy): (f32, f32), m: f32, w: u32, h: u32) -> [u32; 4] {
    let cl = |v: f32, n: u32| (v.max(0.0) as u32).min(n);
    [
        cl(a.x / sx - m, w),
        cl(a.y / sy - m, h),
        cl(b.x / sx + 1.0 + m, w),
        cl(b.y / sy + 1.0 + m, h),
    ]
}

impl CellGeometry for Squares {
    fn extent(&self, w: u32, h: u32) -> Vec2 {
        vec2(w as f32, h as f32)
    }
    fn centre(&self, c: (u32, u32)) -> Vec2 {
        vec2(c.0 as f32 + 0.5, c.1 as f32 + 0.5)
    }
    fn cell_at(&self, q: Vec2, w: u32, h: u32) -> Option<(u32, u32)> {
        (q.x >= 0.0 && q.y >= 0.0 && (q.x as u32) < w && (q.y as u32) < h)
            .then_some((q.x as u32, q.y as u32))
    }
    fn visible(&self, a: Vec2, b: Vec2, w: u32, h: u32) -> (u32, u32, u32, u32) {
        let [x0, y0, x1, y1] = clamp_range(a, b, (1.0, 1.0), 0.0, w, h);
        (x0, y0, x1, y1)
    }
    fn side(&self) -> f32 {
        1.0
    }
    fn corners(&self) -> Vec<Vec2> {
        vec![
            vec2(-0.5, -0.5),
            vec2(0.5, -0.5),
            vec2(0.5, 0.5),
            vec2(-0.5, 0.5),
        ]
    }
    fn texture_cells(&self) -> bool {
        true
    }
}

impl CellGeometry for Hexes {
    fn extent(&self, w: u32, h: u32) -> Vec2 {
        let (x, y) = self.0.extent(w, h, 1.0);
        vec2(x as f32, y as f32)
    }
    fn centre(&self, c: (u32, u32)) -> Vec2 {
        let (x, y) = self.0.centre(c.0, c.1, 1.0);
        vec2(x as f32, y as f32)
    }
    fn cell_at(&self, q: Vec2, w: u32, h: u32) -> Option<(u32, u32)> {
        self.0.hex_at(q.x as f64, q.y as f64, 1.0, w, h)
    }
    fn visible(&self, a: Vec2, b: Vec2, w: u32, h: u32) -> (u32, u32, u32, u32) {
        let step = match self.0 {
            HexOrientation::Pointy => (1.0, 3f32.sqrt() / 2.0),
            HexOrientation::Flat => (3f32.sqrt() / 2.0, 1.0),
        };
        // A cell's hexagon reaches past its row and column: one of margin.
        let [x0, y0, x1, y1] = clamp_range(a, b, step, 1.0, w, h);
        (x0, y0, x1, y1)
    }
    fn side(&self) -> f32 {
        2.0 / 3f32.sqrt()
    }
    fn corners(&self) -> Vec<Vec2> {
        let (cx, cy) = self.0.centre(0, 0, 1.0);
        self.0
            .corners(0, 0, 1.0)
            .iter()
            .map(|&(x, y)| vec2((x - cx) as f32, (y - cy) as f32))
            .collect()
    }
    fn texture_cells(&self) -> bool {
        false
    }
}

/// The hexagons of an orientation.
pub fn hexes(o: HexOrientation) -> &'static dyn CellGeometry {
    match o {
        HexOrientation::Pointy => &HEXES_POINTY,
        HexOrientation::Flat => &HEXES_FLAT,
    }
}

/// Whether two geometries are the same one (each is a static).
pub fn same(a: &'static dyn CellGeometry, b: &'static dyn CellGeometry) -> bool {
    std::ptr::addr_eq(a, b)
}

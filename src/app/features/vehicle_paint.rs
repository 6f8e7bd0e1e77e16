//! The vehicle window's painting: the map under the views, the poses, glyphs and fans, the
//! car, and the legends (speed, glyphs and fans).

use super::vehicle_view::Frame;
use crate::app::palette;
use crate::map::{Grid, Terrain};
use crate::vehicle::{Pose, Vehicle};
use eframe::egui::{self, Color32, Pos2, Rect, RichText, Sense, Shape, Stroke, Vec2};

/// Slow to fast: blue, green, yellow.
pub fn speed_colour(f: f64) -> Color32 {
    let f = f.clamp(0.0, 1.0) as f32;
    let stops = [
        (40.0, 60.0, 190.0),
        (30.0, 170.0, 110.0),
        (250.0, 210.0, 30.0),
    ];
    let (i, t) = if f < 0.5 {
        (0, f * 2.0)
    } else {
        (1, (f - 0.5) * 2.0)
    };
    let (a, b) = (stops[i], stops[i + 1]);
    let m = |x: f32, y: f32| (x + (y - x) * t) as u8;
    Color32::from_rgb(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

/// The fans' colours: while probing, and in A*.
pub(super) const FAN_PROBE: Color32 = palette::FAN_PROBE;
pub(super) const FAN_ASTAR: Color32 = palette::FAN_ASTAR;

/// What the left view's glyphs (in the canvas legend's words) and fans mean.
pub(super) fn glyph_legend(ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        for (c, label) in crate::app::views::legend::vehicle_extras() {
            let (rect, _) = ui.allocate_exact_size(Vec2::splat(12.0), Sense::hover());
            ui.painter().rect_filled(rect, 2.0, c);
            ui.label(RichText::new(label).small());
        }
    });
}

pub(super) fn legend(ui: &mut egui::Ui, top: f64) {
    let (rect, _) = ui.allocate_exact_size(Vec2::new(160.0, 12.0), Sense::hover());
    let p = ui.painter();
    for i in 0..32 {
        let x = rect.left() + rect.width() * i as f32 / 32.0;
        p.rect_filled(
            Rect::from_min_size(
                Pos2::new(x, rect.top()),
                Vec2::new(rect.width() / 32.0 + 0.5, 12.0),
            ),
            0.0,
            speed_colour(i as f64 / 31.0),
        );
    }
    ui.label(format!("0 to {top:.1} m/s"));
}

pub(super) fn tiles_hash(map: &Grid) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    map.tiles().hash(&mut h);
    h.finish()
}

pub(super) fn map_image(map: &Grid) -> egui::ColorImage {
    let pixels: Vec<Color32> = map
        .tiles()
        .iter()
        .map(|&t| match Terrain::of(t) {
            Terrain::Ground | Terrain::Grass => palette::FREE,
            Terrain::Swamp => palette::SWAMP,
            Terrain::Water => palette::WATER,
            Terrain::Trees => palette::TREES,
            Terrain::OutOfBounds => palette::WALL,
        })
        .collect();
    egui::ColorImage {
        size: [map.width() as usize, map.height() as usize],
        pixels,
        ..Default::default()
    }
}

pub(super) fn draw_map(
    painter: &egui::Painter,
    rect: Rect,
    tex: Option<egui::TextureId>,
    map: &Grid,
    (x0, y0, x1, y1): (f64, f64, f64, f64),
) {
    painter.rect_filled(rect, 0.0, palette::WALL);
    if let Some(t) = tex {
        let (w, h) = (map.width() as f32, map.height() as f32);
        let uv = Rect::from_min_max(
            Pos2::new(x0 as f32 / w, y0 as f32 / h),
            Pos2::new(x1 as f32 / w, y1 as f32 / h),
        );
        painter.image(t, rect, uv, Color32::WHITE);
    }
}

/// A small triangle at the pose, pointing its way.
pub(super) fn glyph(painter: &egui::Painter, f: &Frame, p: &Pose, colour: Color32, size: f32) {
    let c = f.to_screen(p.x, p.y);
    let s = (size * f.scale).clamp(2.0, 6.0);
    let (dx, dy) = (p.phi.cos() as f32, p.phi.sin() as f32);
    let tip = c + Vec2::new(dx, dy) * s * 1.4;
    let l = c + Vec2::new(-dy, dx) * s * 0.6 - Vec2::new(dx, dy) * s * 0.6;
    let r = c - Vec2::new(-dy, dx) * s * 0.6 - Vec2::new(dx, dy) * s * 0.6;
    painter.add(Shape::convex_polygon(vec![tip, l, r], colour, Stroke::NONE));
}

/// A pose as a disc with an arrow.
pub(super) fn draw_pose(painter: &egui::Painter, f: &Frame, p: &Pose, colour: Color32, len: f32) {
    let c = f.to_screen(p.x, p.y);
    let tip = c + Vec2::new(p.phi.cos() as f32, p.phi.sin() as f32) * (18.0 * len);
    painter.line_segment([c, tip], Stroke::new(3.0, colour));
    painter.circle(c, 6.0, colour, Stroke::new(1.5, Color32::WHITE));
}

/// The car: a 4.5 m × 1.8 m box at its pose (smaller for vehicles that turn tighter).
pub(super) fn draw_car(painter: &egui::Painter, f: &Frame, p: &Pose, v: &Vehicle) {
    let (dx, dy) = (p.phi.cos(), p.phi.sin());
    let hl = (0.6 * v.turning_radius).min(2.25);
    let hw = 0.4 * hl;
    let corner = |a: f64, b: f64| f.to_screen(p.x + dx * a - dy * b, p.y + dy * a + dx * b);
    let pts = vec![
        corner(hl, hw),
        corner(hl, -hw),
        corner(-hl, -hw),
        corner(-hl, hw),
    ];
    let c = speed_colour(p.v / v.max_speed);
    painter.add(Shape::convex_polygon(
        pts,
        c,
        Stroke::new(1.5, Color32::BLACK),
    ));
}

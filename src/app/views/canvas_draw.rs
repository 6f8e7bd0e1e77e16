//! What a 2D view paints under and over its overlays: hexagons, grid lines, parent arrows and g
//! labels, the path, the surround of the map.

use crate::app::camera::Camera;
use crate::app::palette;
use crate::app::run::Run;
use crate::app::texture::MapTexture;
use crate::space::NodeId;
use crate::trace::{NodeState, NONE};
use eframe::egui::{self, pos2, vec2, Color32, Pos2, Rect, Stroke, Vec2};

/// Zoom (screen points per cell) from which each reached cell shows its g as a label.
const LABEL_ZOOM: f32 = 34.0;

/// Range of cells visible in the view.
pub(in crate::app) fn visible(cam: &Camera, view: Rect, w: u32, h: u32) -> (u32, u32, u32, u32) {
    let a = -cam.offset / cam.zoom;
    let b = (view.max - view.min - cam.offset) / cam.zoom;
    cam.geometry.visible(a, b, w, h)
}

/// Cells drawn as polygons (a hex world): each visible hexagon filled with its cell's colour from the map texture's
/// image (terrain and search state as the square view shows them), in one mesh; outlined
/// when zoomed in. Hexes smaller than a pixel are drawn as their centre's colour still.
pub(in crate::app) fn draw_cells(
    p: &egui::Painter,
    cam: &Camera,
    view: Rect,
    tex: &MapTexture,
    w: u32,
    h: u32,
) {
    let (x0, y0, x1, y1) = visible(cam, view, w, h);
    let origin = view.min + cam.offset;
    // Corners relative to the centre, the same for every cell.
    let rel = cam.corners();
    let mut mesh = egui::Mesh::default();
    for y in y0..y1 {
        for x in x0..x1 {
            let Some(colour) = tex.pixel(x, y) else {
                continue;
            };
            let c = origin + cam.geometry.centre((x, y)) * cam.zoom;
            hex_fan(&mut mesh, c, &rel, colour);
        }
    }
    p.add(egui::Shape::mesh(mesh));
    if cam.zoom >= 10.0 && (x1 - x0) as u64 * (y1 - y0) as u64 <= 40_000 {
        let s = Stroke::new(1.0, palette::GRID_LINE);
        for y in y0..y1 {
            for x in x0..x1 {
                let c = origin + cam.geometry.centre((x, y)) * cam.zoom;
                p.add(egui::Shape::closed_line(
                    rel.iter().map(|r| c + *r).collect(),
                    s,
                ));
            }
        }
    }
}

/// A filled hexagon (centre and its six corners, relative) added to `mesh`.
pub(in crate::app) fn hex_fan(mesh: &mut egui::Mesh, c: Pos2, rel: &[Vec2], colour: Color32) {
    let base = mesh.vertices.len() as u32;
    mesh.colored_vertex(c, colour);
    for r in rel {
        mesh.colored_vertex(c + *r, colour);
    }
    for i in 0..6 {
        mesh.add_triangle(base, base + 1 + i, base + 1 + (i + 1) % 6);
    }
}

pub(in crate::app) fn draw_grid_lines(p: &egui::Painter, cam: &Camera, view: Rect, w: u32, h: u32) {
    if cam.zoom < 10.0 {
        return;
    }
    let (x0, y0, x1, y1) = visible(cam, view, w, h);
    let o = view.min + cam.offset;
    let s = Stroke::new(1.0, palette::GRID_LINE);
    for x in x0..=x1 {
        let sx = o.x + x as f32 * cam.zoom;
        p.line_segment(
            [
                pos2(sx, o.y + y0 as f32 * cam.zoom),
                pos2(sx, o.y + y1 as f32 * cam.zoom),
            ],
            s,
        );
    }
    for y in y0..=y1 {
        let sy = o.y + y as f32 * cam.zoom;
        p.line_segment(
            [
                pos2(o.x + x0 as f32 * cam.zoom, sy),
                pos2(o.x + x1 as f32 * cam.zoom, sy),
            ],
            s,
        );
    }
}

pub(in crate::app) fn draw_parent_arrows(
    p: &egui::Painter,
    cam: &Camera,
    view: Rect,
    space: &crate::world::AnySpace,
    run: &mut Run,
) {
    let (w, h) = (space.width(), space.height());
    let (x0, y0, x1, y1) = visible(cam, view, w, h);
    if (x1 - x0) as u64 * (y1 - y0) as u64 > 20_000 {
        return;
    }
    let k = run.event_cursor();
    let s = Stroke::new(1.2, palette::ARROW);
    for y in y0..y1 {
        for x in x0..x1 {
            // A node drawn over many cells (a polygon) is labelled at the cell of its centre.
            let Some(n) = space.node(x, y).filter(|&n| space.xy(n) == (x, y)) else {
                continue;
            };
            let st = run.rec.seek(k).get(n as usize);
            if st == NodeState::Unseen {
                continue;
            }
            let info = run.rec.node_info(n, k);
            let a = cam.centre(view, (x, y));
            if cam.zoom >= LABEL_ZOOM && info.g.is_finite() {
                // g as a label in the cell's upper part, clear of the arrow.
                p.text(
                    a - vec2(0.0, cam.zoom * 0.24),
                    egui::Align2::CENTER_CENTER,
                    format!("{:.1}", info.g),
                    egui::FontId::proportional((cam.zoom * 0.2).clamp(9.0, 13.0)),
                    palette::LABEL,
                );
            }
            let parent = info.parent;
            if parent == NONE || parent == n {
                continue;
            }
            let b = cam.centre(view, space.xy(parent));
            let tip = a + (b - a) * 0.42;
            p.line_segment([a, tip], s);
            let d = (b - a).normalized() * cam.zoom * 0.12;
            let nrm = vec2(-d.y, d.x);
            p.line_segment([tip, tip - d + nrm], s);
            p.line_segment([tip, tip - d - nrm], s);
        }
    }
}

pub(in crate::app) fn draw_path(
    p: &egui::Painter,
    cam: &Camera,
    view: Rect,
    xy: &dyn Fn(NodeId) -> (u32, u32),
    path: &[NodeId],
) {
    let pts: Vec<Pos2> = path.iter().map(|&n| cam.centre(view, xy(n))).collect();
    draw_path_line(p, cam, pts);
}

/// A path through screen points, outlined.
pub(in crate::app) fn draw_path_line(p: &egui::Painter, cam: &Camera, pts: Vec<Pos2>) {
    let w = (cam.zoom * 0.22).clamp(2.5, 6.0);
    p.add(egui::Shape::line(
        pts.clone(),
        Stroke::new(w + 2.5, palette::PATH_OUTLINE),
    ));
    p.add(egui::Shape::line(pts, Stroke::new(w, palette::PATH)));
}

/// Fills the view around the map, never under it: with software rendering every layer of
/// pixels costs frame time, and the map texture covers its own area.
pub(in crate::app) fn paint_surround(p: &egui::Painter, view: Rect, map: Rect) {
    let bg = Color32::from_gray(200);
    let m = map.intersect(view);
    if m.width() <= 0.0 || m.height() <= 0.0 {
        p.rect_filled(view, 0.0, bg);
        return;
    }
    for r in [
        Rect::from_min_max(view.min, pos2(view.max.x, m.min.y)),
        Rect::from_min_max(pos2(view.min.x, m.max.y), view.max),
        Rect::from_min_max(pos2(view.min.x, m.min.y), pos2(m.min.x, m.max.y)),
        Rect::from_min_max(pos2(m.max.x, m.min.y), pos2(view.max.x, m.max.y)),
    ] {
        if r.width() > 0.0 && r.height() > 0.0 {
            p.rect_filled(r, 0.0, bg);
        }
    }
}

//! Field D*'s overlay: the corners it reached, as small squares on the cell corners in the
//! open and closed colours (its nodes are corners, not cells), and the corner it expands.

use super::{OverlayPart, Scene};
use crate::app::legend::Extras;
use crate::app::palette;
use crate::app::run::Run;
use crate::trace::NodeState;
use eframe::egui::{self, pos2, vec2, Rect, Stroke};

pub(super) struct Corners;

impl OverlayPart for Corners {
    fn draw(&self, s: &Scene, run: &mut Run) {
        let Some(layer) = run.rec.layers().get(1).cloned() else {
            return;
        };
        let (w, h) = (s.space.width() as i64, s.space.height() as i64);
        if (w + 1) * (h + 1) != layer.len as i64 {
            return;
        }
        let origin = s.view.min + s.cam.offset;
        let z = s.cam.zoom;
        // The corners in the view only: a large map zoomed in draws a few hundred.
        let lo = |v: f32| ((v / z).floor() as i64).max(0);
        let (x0, y0) = (lo(s.view.min.x - origin.x), lo(s.view.min.y - origin.y));
        let x1 = (((s.view.max.x - origin.x) / z).ceil() as i64).min(w);
        let y1 = (((s.view.max.y - origin.y) / z).ceil() as i64).min(h);
        let side = (z * 0.42).clamp(1.5, 9.0);
        let cursor = run.event_cursor();
        let current = run.current_node();
        let states = run.rec.seek(cursor);
        let mut mesh = egui::Mesh::default();
        for y in y0..=y1 {
            for x in x0..=x1 {
                let id = layer.first as usize + (y * (w + 1) + x) as usize;
                let colour = match states.get(id) {
                    NodeState::Open => palette::OPEN,
                    NodeState::Closed => palette::CLOSED,
                    _ => continue,
                };
                let c = origin + vec2(x as f32, y as f32) * z;
                mesh.add_colored_rect(Rect::from_center_size(c, vec2(side, side)), colour);
            }
        }
        s.painter.add(egui::Shape::mesh(mesh));
        if let Some(k) = current.and_then(|n| n.checked_sub(layer.first)) {
            let (x, y) = ((k as i64 % (w + 1)) as f32, (k as i64 / (w + 1)) as f32);
            let c = origin + vec2(x, y) * z;
            s.painter.circle_stroke(
                pos2(c.x, c.y),
                side.max(4.0),
                Stroke::new(2.5, palette::CURRENT),
            );
        }
    }

    fn legend(&self) -> Extras {
        vec![
            (palette::OPEN, "corner: open"),
            (palette::CLOSED, "corner: closed"),
        ]
    }
}

//! egui shapes as SVG elements. A view's overlays (line-of-sight checks, jumps, corners, a
//! walk, a hierarchy, a navmesh's polygons) draw through an egui painter; for an SVG they draw
//! into a painter of a throwaway context, and this writes what they drew, so the SVG and the
//! screen come from one drawing body.

use eframe::egui::{self, Color32, Shape};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The shapes that `draw` paints, in screen points: `draw` gets a painter over `area`.
pub(in crate::app) fn capture(area: egui::Rect, draw: impl FnOnce(&egui::Painter)) -> Vec<Shape> {
    let ctx = egui::Context::default();
    // One empty pass loads the fonts text shapes need.
    let _ = ctx.run_ui(egui::RawInput::default(), |_| {});
    let layer = egui::LayerId::new(egui::Order::Foreground, egui::Id::unique("svg capture"));
    draw(&egui::Painter::new(ctx.clone(), layer, area));
    ctx.graphics(|g| {
        g.get(layer).map_or_else(Vec::new, |l| {
            l.all_entries().map(|c| c.shape.clone()).collect()
        })
    })
}

/// `#rrggbb`, for colours that are opaque.
pub(in crate::app) fn hex(c: Color32) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r(), c.g(), c.b())
}

/// A paint attribute pair: `fill="#rrggbb"` and its opacity when not opaque (egui's colours
/// are premultiplied; SVG's are not).
fn paint(attr: &str, c: Color32) -> String {
    let [r, g, b, a] = c.to_srgba_unmultiplied();
    let mut s = format!(r##"{attr}="#{r:02x}{g:02x}{b:02x}""##);
    if a < 255 {
        let _ = write!(s, r#" {attr}-opacity="{:.3}""#, a as f32 / 255.0);
    }
    s
}

fn stroke(s: egui::Stroke) -> String {
    if s.is_empty() {
        r#"stroke="none""#.into()
    } else {
        format!(
            r#"{} stroke-width="{:.2}""#,
            paint("stroke", s.color),
            s.width
        )
    }
}

fn fill(c: Color32) -> String {
    if c.a() == 0 {
        r#"fill="none""#.into()
    } else {
        paint("fill", c)
    }
}

fn points(pts: &[egui::Pos2]) -> String {
    let v: Vec<String> = pts
        .iter()
        .map(|p| format!("{:.2},{:.2}", p.x, p.y))
        .collect();
    v.join(" ")
}

/// Text escaped for XML.
pub(in crate::app) fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Writes `shapes` as SVG elements; returns how many shapes had no SVG form (gradients,
/// curves, callbacks), which are left out.
pub(in crate::app) fn write_shapes(out: &mut String, shapes: &[Shape]) -> usize {
    let mut skipped = 0;
    for shape in shapes {
        skipped += write_shape(out, shape);
    }
    skipped
}

fn write_shape(out: &mut String, shape: &Shape) -> usize {
    match shape {
        Shape::Noop => {}
        Shape::Vec(v) => return write_shapes(out, v),
        Shape::Circle(c) => {
            let _ = writeln!(
                out,
                r#"<circle cx="{:.2}" cy="{:.2}" r="{:.2}" {} {}/>"#,
                c.center.x,
                c.center.y,
                c.radius,
                fill(c.fill),
                stroke(c.stroke)
            );
        }
        Shape::LineSegment {
            points: p,
            stroke: s,
        } => {
            if !s.is_empty() {
                let _ = writeln!(
                    out,
                    r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" {} stroke-linecap="round"/>"#,
                    p[0].x,
                    p[0].y,
                    p[1].x,
                    p[1].y,
                    stroke(*s)
                );
            }
        }
        Shape::Path(p) => {
            let egui::epaint::ColorMode::Solid(colour) = p.stroke.color else {
                return 1;
            };
            let s = egui::Stroke::new(p.stroke.width, colour);
            let tag = if p.closed { "polygon" } else { "polyline" };
            let f = if p.closed {
                fill(p.fill)
            } else {
                fill(Color32::TRANSPARENT)
            };
            let _ = writeln!(
                out,
                r#"<{tag} points="{}" {f} {} stroke-linejoin="round"/>"#,
                points(&p.points),
                stroke(s)
            );
        }
        Shape::Rect(r) => {
            let _ = writeln!(
                out,
                r#"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" rx="{:.1}" {} {}/>"#,
                r.rect.min.x,
                r.rect.min.y,
                r.rect.width(),
                r.rect.height(),
                r.corner_radius.nw as f32,
                fill(r.fill),
                stroke(r.stroke)
            );
        }
        Shape::Text(t) => {
            let Some(section) = t.galley.job.sections.first() else {
                return 0;
            };
            let size = section.format.font_id.size;
            let colour =
                t.override_text_color
                    .unwrap_or(if section.format.color == Color32::PLACEHOLDER {
                        t.fallback_color
                    } else {
                        section.format.color
                    });
            // egui places a galley by its top left; SVG text by its baseline.
            for (i, line) in t.galley.text().lines().enumerate() {
                let _ = writeln!(
                    out,
                    r#"<text x="{:.2}" y="{:.2}" font-family="sans-serif" font-size="{size:.1}" {}>{}</text>"#,
                    t.pos.x,
                    t.pos.y + size * (0.8 + 1.2 * i as f32),
                    paint("fill", colour),
                    xml(line)
                );
            }
        }
        Shape::Mesh(m) => {
            if m.texture_id != egui::TextureId::default() {
                return 1;
            }
            // Triangles grouped by colour, one path each (a mesh is many small polygons).
            let mut by_colour: BTreeMap<[u8; 4], String> = BTreeMap::new();
            for t in m.indices.chunks_exact(3) {
                let v = |i: u32| m.vertices[i as usize];
                let d = by_colour.entry(v(t[0]).color.to_array()).or_default();
                let (a, b, c) = (v(t[0]).pos, v(t[1]).pos, v(t[2]).pos);
                let _ = write!(
                    d,
                    "M{:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}Z",
                    a.x, a.y, b.x, b.y, c.x, c.y
                );
            }
            for (c, d) in by_colour {
                let c = Color32::from_rgba_premultiplied(c[0], c[1], c[2], c[3]);
                let _ = writeln!(out, r#"<path d="{d}" {}/>"#, fill(c));
            }
        }
        Shape::Ellipse(_)
        | Shape::Band(_)
        | Shape::QuadraticBezier(_)
        | Shape::CubicBezier(_)
        | Shape::Callback(_) => return 1,
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use eframe::egui::{pos2, Rect, Stroke};

    #[test]
    fn shapes_become_elements_with_their_colours() {
        let area = Rect::from_min_size(pos2(0.0, 0.0), egui::vec2(100.0, 100.0));
        let shapes = capture(area, |p| {
            p.line_segment(
                [pos2(1.0, 2.0), pos2(30.0, 40.0)],
                Stroke::new(2.0, Color32::RED),
            );
            p.circle_filled(pos2(50.0, 50.0), 4.0, Color32::from_rgb(0, 0, 255));
            p.add(Shape::dashed_line(
                &[pos2(0.0, 0.0), pos2(90.0, 0.0)],
                Stroke::new(1.0, Color32::BLACK),
                5.0,
                5.0,
            ));
            p.text(
                pos2(10.0, 10.0),
                egui::Align2::LEFT_TOP,
                "a < b",
                egui::FontId::proportional(12.0),
                Color32::WHITE,
            );
            let mut mesh = egui::Mesh::default();
            mesh.add_colored_rect(
                Rect::from_min_size(pos2(5.0, 5.0), egui::vec2(2.0, 2.0)),
                Color32::from_rgba_unmultiplied(0, 255, 0, 128),
            );
            p.add(Shape::mesh(mesh));
        });
        let mut s = String::new();
        assert_eq!(write_shapes(&mut s, &shapes), 0);
        assert!(s.contains(r##"<line x1="1.00" y1="2.00" x2="30.00" y2="40.00" stroke="#ff0000" stroke-width="2.00""##), "{s}");
        assert!(
            s.contains(r##"<circle cx="50.00" cy="50.00" r="4.00" fill="#0000ff""##),
            "{s}"
        );
        // 90 points dashed 5 on, 5 off: nine dashes.
        assert_eq!(s.matches(r##"stroke="#000000""##).count(), 9, "{s}");
        assert!(s.contains(">a &lt; b</text>"), "{s}");
        // The mesh's two triangles, one path, at the colour's own opacity.
        let mesh = s.lines().find(|l| l.starts_with("<path")).unwrap();
        assert_eq!(mesh.matches('Z').count(), 2);
        assert!(
            mesh.contains(r##"fill="#00ff00" fill-opacity="0.502""##),
            "{mesh}"
        );
    }
}

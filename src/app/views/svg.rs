//! A view as SVG: the map and the search at the cursor as the view colours them, the path, the
//! start and goal, and the legend, as vector shapes a browser or a slide reads. Cells of one
//! colour are merged into rectangles (runs along a row, stacked where rows repeat them), so a
//! 256 × 256 map takes a few thousand shapes rather than 65,536; hexagons are one path per
//! colour. What the view draws over its cells (overlays, a world's polygons) is drawn by the
//! view's own code into a throwaway painter and written as shapes (`svg_shapes`).

use super::svg_shapes::{capture, hex, write_shapes, xml};
use crate::app::camera::Camera;
use crate::app::legend::{legend_items, Extras};
use crate::app::overlays::HierLevel;
use crate::app::{PathlabApp, View};
use eframe::egui::{self, Color32};
use std::collections::HashMap;
use std::fmt::Write;

const LEGEND_ROW: f64 = 18.0;

/// Rectangles covering the cells by colour: `(x, y, width, height, colour)`.
pub fn merged_rects(
    w: u32,
    h: u32,
    colour: impl Fn(u32, u32) -> Color32,
) -> Vec<(u32, u32, u32, u32, Color32)> {
    let mut done = vec![];
    // Runs still growing downwards, by (x, width, colour): their top row and height.
    let mut open: HashMap<(u32, u32, Color32), (u32, u32)> = HashMap::new();
    for y in 0..h {
        let mut row = vec![];
        let mut x = 0;
        while x < w {
            let c = colour(x, y);
            let mut end = x + 1;
            while end < w && colour(end, y) == c {
                end += 1;
            }
            row.push((x, end - x, c));
            x = end;
        }
        let mut next = HashMap::with_capacity(row.len());
        for key in row {
            let (top, height) = open.remove(&key).unwrap_or((y, 0));
            next.insert(key, (top, height + 1));
        }
        for ((x, width, c), (top, height)) in open.drain() {
            done.push((x, top, width, height, c));
        }
        open = next;
    }
    for ((x, width, c), (top, height)) in open {
        done.push((x, top, width, height, c));
    }
    // The most common colour first: it becomes the background.
    done.sort_by_key(|r| (r.1, r.0));
    done
}

impl PathlabApp {
    /// View `i` as an SVG document, at the view's zoom (screen points per cell), or why not.
    pub fn view_svg(&mut self, i: usize) -> Result<String, String> {
        if i >= self.work.views.len() {
            return Err(format!("there is no view {}", i + 1));
        }
        let zoom = self.cam_of(i).zoom.clamp(1.0, 64.0);
        let gps = self.gps_marks(i);
        let heat = self.heat_for(i);
        let hier_level = self.parts.of_mut::<HierLevel>().0;
        let diff = self.display.diff && self.work.views.len() >= 2;
        let v = &self.work.views[i];
        let family = v.world.as_deref().map_or(self.work.doc.world, |w| w.family);
        let extras: Extras = crate::app::legend::view_extras(&v.run, &family);
        let work = &mut self.work;
        let View {
            run, tex, world, ..
        } = &mut work.views[i];
        // A view of its own world (hexes of a square map) draws that world.
        let space = world.as_deref().map_or(&work.space, |w| &w.space);
        let (start, goal) = world
            .as_deref()
            .map_or((work.doc.start, work.doc.goal), |w| (w.start, w.goal));
        let family = space.family();
        let part = crate::app::worlds::ui_of(&family);
        let cam = Camera {
            zoom,
            geometry: crate::app::worlds::geometry_of(&family),
            offset: egui::Vec2::ZERO,
            fit_pending: false,
            fitted_for: None,
        };
        let (w, h) = (space.width(), space.height());
        let extent = cam.geometry.extent(w, h) * zoom;
        let view = egui::Rect::from_min_size(egui::Pos2::ZERO, extent);
        let (map_w, map_h) = (extent.x as f64, extent.y as f64);
        // The legend under the map: rows of swatches and names, about 7 points a character.
        let items = legend_items(diff, &extras);
        let width = map_w.max(360.0);
        let mut lay = vec![];
        let (mut lx, mut ly) = (6.0, map_h + 4.0);
        for (c, label) in &items {
            let iw = 30.0 + label.chars().count() as f64 * 6.6;
            if lx + iw > width && lx > 6.0 {
                lx = 6.0;
                ly += LEGEND_ROW;
            }
            lay.push((lx, ly, *c, *label));
            lx += iw;
        }
        let height = ly + LEGEND_ROW + 4.0;
        let free = crate::app::palette::FREE;
        let mut s = String::with_capacity(1 << 16);
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}">"#
        );
        let _ = writeln!(s, "<title>pathlab — {}</title>", xml(&run.choice.label()));
        let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#eeeeee"/>"##);
        if cam.geometry.texture_cells() {
            // Cells in cell units, scaled once.
            let rects = merged_rects(w, h, |x, y| tex.pixel(x, y).unwrap_or(free));
            let _ = writeln!(
                s,
                r#"<g transform="scale({zoom})" shape-rendering="crispEdges">"#
            );
            let _ = writeln!(
                s,
                r#"<rect width="{w}" height="{h}" fill="{}"/>"#,
                hex(free)
            );
            for (x, y, rw, rh, c) in rects.iter().filter(|r| r.4 != free) {
                let _ = writeln!(
                    s,
                    r#"<rect x="{x}" y="{y}" width="{rw}" height="{rh}" fill="{}"/>"#,
                    hex(*c)
                );
            }
            let _ = writeln!(s, "</g>");
        } else {
            // Polygons (hexagons) over grey, as the view draws them: one path per colour.
            let _ = writeln!(
                s,
                r##"<rect width="{map_w:.2}" height="{map_h:.2}" fill="#c8c8c8"/>"##
            );
            let rel = cam.corners();
            let mut by_colour: std::collections::BTreeMap<[u8; 4], String> = Default::default();
            for y in 0..h {
                for x in 0..w {
                    let Some(c) = tex.pixel(x, y) else { continue };
                    let d = by_colour.entry(c.to_array()).or_default();
                    let centre = cam.centre(view, (x, y));
                    for (k, r) in rel.iter().enumerate() {
                        let q = centre + *r;
                        let _ =
                            write!(d, "{}{:.2} {:.2}", if k == 0 { 'M' } else { 'L' }, q.x, q.y);
                    }
                    d.push('Z');
                }
            }
            for (c, d) in by_colour {
                let _ = writeln!(
                    s,
                    r#"<path d="{d}" fill="{}"/>"#,
                    hex(Color32::from_rgba_premultiplied(c[0], c[1], c[2], c[3]))
                );
            }
        }
        // What the view draws over its cells, drawn by the view's own code: a cognitive map's
        // heat, a world's polygons, the algorithm's overlays, the oracle's disagreeing path.
        let shapes = capture(view, |p| {
            if let Some(k) = heat.as_deref() {
                crate::app::overlays::gps::draw_heat(p, &cam, view, (w, h), k);
            }
            part.draw_over(p, &cam, view, space);
            let scene = crate::app::overlays::Scene {
                painter: p,
                cam: &cam,
                view,
                space,
                gps: gps.as_deref(),
                pointer: None,
                hier_level,
            };
            crate::app::overlays::draw(&scene, run);
            if let Some(o) = run
                .oracle
                .as_ref()
                .filter(|o| !o.agrees() && run.path_visible())
            {
                let pts: Vec<_> = (o.scratch_path.iter())
                    .map(|&n| cam.centre(view, space.xy(n)))
                    .collect();
                let sw = (zoom * 0.22).clamp(2.5, 6.0);
                p.add(egui::Shape::dashed_line(
                    &pts,
                    egui::Stroke::new(sw, crate::app::palette::ORACLE_BAD),
                    sw * 2.0,
                    sw * 1.5,
                ));
            }
        });
        let _ = writeln!(s, r#"<g class="overlays">"#);
        let skipped = write_shapes(&mut s, &shapes);
        let _ = writeln!(s, "</g>");
        if skipped > 0 {
            let _ = writeln!(
                s,
                "<!-- {skipped} overlay shapes have no SVG form here and are not drawn -->"
            );
        }
        // The path, outlined as the view draws it (a GPS walk draws its own).
        if run.path_visible() && gps.is_none() {
            let line = run.polyline().or_else(|| {
                let path = run.path()?.to_vec();
                part.path_line(space, &path, (start, goal)).or_else(|| {
                    Some(
                        (path.iter())
                            .map(|&n| {
                                let c = cam.centre(view, space.xy(n)) / zoom;
                                [c.x as f64, c.y as f64]
                            })
                            .collect(),
                    )
                })
            });
            if let Some(line) = line.filter(|l| l.len() >= 2) {
                let zoom = zoom as f64;
                let pts: Vec<String> = line
                    .iter()
                    .map(|p| format!("{:.2},{:.2}", p[0] * zoom, p[1] * zoom))
                    .collect();
                let sw = (zoom * 0.22).clamp(2.5, 6.0);
                for (c, width) in [
                    (crate::app::palette::PATH_OUTLINE, sw + 2.5),
                    (crate::app::palette::PATH, sw),
                ] {
                    let _ = writeln!(
                        s,
                        r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="{width:.2}" stroke-linejoin="round" stroke-linecap="round"/>"#,
                        pts.join(" "),
                        hex(c)
                    );
                }
            }
        }
        let r = (zoom * 0.42).max(5.0);
        for (at, c) in [
            (start, crate::app::palette::START),
            (goal, crate::app::palette::GOAL),
        ] {
            let at = cam.centre(view, at);
            let _ = writeln!(
                s,
                r##"<circle cx="{:.2}" cy="{:.2}" r="{r:.2}" fill="{}" stroke="#ffffff" stroke-width="1.5"/>"##,
                at.x,
                at.y,
                hex(c)
            );
        }
        let _ = writeln!(
            s,
            r##"<g font-family="sans-serif" font-size="12" fill="#141414">"##
        );
        for (x, y, c, label) in lay {
            let _ = writeln!(
                s,
                r##"<rect x="{x:.1}" y="{:.1}" width="12" height="12" rx="2" fill="{}" stroke="#969696"/><text x="{:.1}" y="{:.1}">{}</text>"##,
                y + 2.0,
                hex(c),
                x + 16.0,
                y + 12.5,
                xml(label)
            );
        }
        let _ = writeln!(s, "</g>\n</svg>");
        Ok(s)
    }

    /// Writes view `i` (the active one from menus) as SVG to `p`.
    pub(in crate::app) fn export_svg(
        &mut self,
        i: usize,
        p: &std::path::Path,
    ) -> Result<(), String> {
        let svg = self.view_svg(i)?;
        crate::map::io::write_atomic(p, svg.as_bytes()).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_rectangles_cover_every_cell_once_in_its_colour() {
        let (w, h) = (13, 9);
        let colour = |x: u32, y: u32| {
            // Blocks of 3 × 2 cells, and one odd cell in a block.
            let v = ((x / 3) * 7 + (y / 2) * 3 + u32::from((x, y) == (4, 5))) as u8;
            Color32::from_rgb(v, 0, 0)
        };
        let rects = merged_rects(w, h, colour);
        let mut seen = vec![0u8; (w * h) as usize];
        for (x, y, rw, rh, c) in &rects {
            for yy in *y..y + rh {
                for xx in *x..x + rw {
                    assert_eq!(colour(xx, yy), *c);
                    seen[(yy * w + xx) as usize] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&n| n == 1));
        assert!(
            rects.len() < (w * h) as usize / 2,
            "{} rectangles",
            rects.len()
        );
    }
}

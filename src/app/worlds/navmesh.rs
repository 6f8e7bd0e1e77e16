//! The navmesh's part: the square map underneath drawn as squares, its World panel.

use super::geometry::{self, CellGeometry};
use super::WorldUi;
use crate::app::palette;
use crate::app::parts::PanelCx;
use crate::space::{Connectivity, NodeId, Space};
use crate::world::Family;
use eframe::egui;

pub(crate) struct FamilyUi;

impl WorldUi for FamilyUi {
    fn geometry(&self, _: &Family) -> &'static dyn CellGeometry {
        // The map underneath is square cells; polygons are drawn over them.
        &geometry::SQUARES
    }

    fn panel(&self, cx: &mut PanelCx, ui: &mut egui::Ui) {
        let polygons = cx.work.space.num_nodes();
        ui.collapsing(format!("World: navmesh, {polygons} polygons"), |ui| {
            ui.label(
                "Walkable cells merged into rectangles; portals join rectangles that share a \
                 side. Every tool edits the square map underneath; the mesh is rebuilt.",
            );
        });
        // The level a hierarchical run (HNA*, PCCP) draws: Rahmani 2020's Fig. 3.2, a level
        // at a time.
        let levels = cx
            .work
            .views
            .iter()
            .filter(|v| {
                v.run
                    .choice
                    .info
                    .draws(crate::search::registry::Overlay::Hierarchy)
            })
            .filter_map(|v| v.run.choice.values.get("levels").copied())
            .fold(0.0, f64::max) as usize;
        if levels > 0 {
            let shown = cx
                .parts
                .of::<crate::app::overlays::HierLevel>()
                .0
                .min(levels);
            let mut pick = shown;
            ui.horizontal(|ui| {
                ui.label("Hierarchy level");
                for l in 1..=levels {
                    ui.selectable_value(&mut pick, l, format!("L{l}"));
                }
            });
            if pick != shown {
                cx.send(crate::app::command::Command::SetHierLevel(pick));
            }
        }
    }

    fn moves(&self, _: &Family, ui: &mut egui::Ui, _: &mut Connectivity) -> bool {
        ui.label("moves: through portals (polygon to polygon)");
        true
    }

    fn legend(&self) -> crate::app::legend::Extras {
        vec![
            (palette::POLYGON, "navmesh: polygon outline"),
            (palette::POLYGON_CENTRE, "navmesh: polygon centre"),
            (palette::PORTAL, "navmesh: portal (dotted)"),
        ]
    }

    /// Rahmani 2020's edge cost: centre to portal midpoint to centre, in cell lengths (longer
    /// than the path drawn pulled tight through the portals).
    fn cost_unit(&self) -> (&'static str, &'static str) {
        (
            "navmesh units",
            "in cell lengths from polygon centre to centre through portal midpoints",
        )
    }

    fn draw_over(
        &self,
        painter: &egui::Painter,
        cam: &crate::app::camera::Camera,
        view: egui::Rect,
        space: &crate::world::AnySpace,
    ) {
        let Some(mesh) = space.as_navmesh() else {
            return;
        };
        let origin = view.min + cam.offset;
        let at = |p: [f64; 2]| origin + egui::vec2(p[0] as f32, p[1] as f32) * cam.zoom;
        let clip = painter.clip_rect();
        let outline = egui::Stroke::new(1.0, palette::POLYGON);
        let portal = egui::Stroke::new((cam.zoom * 0.08).clamp(1.0, 2.5), palette::PORTAL);
        for n in 0..mesh.num_nodes() as NodeId {
            let [x0, y0, x1, y1] = mesh.rect(n);
            let r =
                egui::Rect::from_min_max(at([x0 as f64, y0 as f64]), at([x1 as f64, y1 as f64]));
            if !clip.intersects(r) {
                continue;
            }
            painter.rect_stroke(r, 0.0, outline, egui::StrokeKind::Inside);
            // Centres and portals once polygons are big enough on screen to tell apart.
            if r.width().min(r.height()) >= 6.0 {
                painter.circle_filled(
                    r.center(),
                    (cam.zoom * 0.12).clamp(1.5, 3.0),
                    palette::POLYGON_CENTRE,
                );
            }
            if cam.zoom >= 3.0 {
                // Each portal once: from the polygon with the lower id.
                for (_, p) in mesh.portals_of(n).filter(|&(k, _)| k > n) {
                    let dash = (cam.zoom * 0.25).max(2.0);
                    painter.add(egui::Shape::dashed_line(
                        &[at(p.a), at(p.b)],
                        portal,
                        dash,
                        dash,
                    ));
                }
            }
        }
    }

    fn describe(&self, space: &crate::world::AnySpace) -> String {
        format!("a navmesh of {} polygons", space.num_nodes())
    }

    fn path_line(
        &self,
        space: &crate::world::AnySpace,
        path: &[NodeId],
        (s, g): ((u32, u32), (u32, u32)),
    ) -> Option<Vec<[f64; 2]>> {
        let mesh = space.as_navmesh()?;
        let centre = |(x, y): (u32, u32)| [x as f64 + 0.5, y as f64 + 0.5];
        Some(mesh.funnel(path, centre(s), centre(g)))
    }

    /// Agents walk cells; a navmesh's nodes are polygons.
    fn dynamic_world(&self) -> bool {
        false
    }
}

/// Turning a square map into a navmesh, or searching it as one beside the squares.
pub(in crate::app) fn to_navmesh(cx: &mut PanelCx, ui: &mut egui::Ui) {
    super::turn_into_or_compare(
        cx,
        ui,
        (Family::Navmesh, crate::map::HexFill::default()),
        (
            "Turn into a navmesh",
            "a new, unsaved project: the walkable cells merged into rectangles joined by portals",
        ),
        (
            "+ Compare on a navmesh",
            "a view that searches this map's navmesh, beside the squares",
        ),
    );
}

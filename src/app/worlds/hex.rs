//! Squares or hexes: the panel that turns the map into hexes, or adds a view that searches the
//! same map as hexes beside the square views.

use super::geometry::{self, CellGeometry};
use super::WorldUi;
use crate::app::parts::PanelCx;
use crate::app::Tool;
use crate::map::HexFill;
use crate::space::{Connectivity, HexOrientation};
use crate::world::Family;
use eframe::egui;

/// The hex settings the panel edits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HexChoice {
    /// Square cells from one hex centre to the next.
    pub size: f64,
    pub orientation: HexOrientation,
    pub fill: HexFill,
}

impl crate::app::parts::Part for HexChoice {
    crate::app::parts::part_any!();
}

impl Default for HexChoice {
    fn default() -> Self {
        HexChoice {
            size: 2.0,
            orientation: HexOrientation::Pointy,
            fill: HexFill::Walls,
        }
    }
}

impl HexChoice {
    pub fn family(&self) -> Family {
        Family::Hex {
            orientation: self.orientation,
            pitch: self.size,
        }
    }
}

/// The hex world's part: hexagons, the cognitive map's panel, the Know tool.
pub(crate) struct FamilyUi;

impl WorldUi for FamilyUi {
    fn geometry(&self, family: &Family) -> &'static dyn CellGeometry {
        match family {
            Family::Hex { orientation, .. } => geometry::hexes(*orientation),
            _ => &geometry::SQUARES,
        }
    }

    fn panel(&self, cx: &mut PanelCx, ui: &mut egui::Ui) {
        let pitch = match cx.work.doc.world {
            Family::Hex { pitch, .. } => pitch,
            _ => 1.0,
        };
        ui.collapsing(format!("World: hexes, {pitch} cells apart"), |ui| {
            ui.label("Every tool paints hexes. Open a square map to make hexes of another.");
        });
        crate::app::knowledge::panel(cx, ui)
    }

    fn moves(&self, _: &Family, ui: &mut egui::Ui, _: &mut Connectivity) -> bool {
        ui.label("moves: 6 (to each hex that shares an edge)");
        true
    }

    fn describe(&self, space: &crate::world::AnySpace) -> String {
        format!("{}×{} hexes", space.width(), space.height())
    }

    /// A move costs the hex size, in square cells: comparable with the squares' costs.
    fn cost_unit(&self) -> (&'static str, &'static str) {
        ("cells", "in square cells")
    }

    fn tools(&self) -> &'static [(Tool, &'static str, &'static str)] {
        &[(
            Tool::Know,
            "Know",
            "Paint the cognitive map: a visit per hex dragged over (Shift: forget)",
        )]
    }
}

/// The hex settings for turning a square map into hexes, or searching it as hexes beside.
pub(in crate::app) fn to_hexes(cx: &mut PanelCx, ui: &mut egui::Ui) {
    {
        let c = cx.parts.of_mut::<HexChoice>();
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("Hex size");
            ui.add(
                egui::DragValue::new(&mut c.size)
                    .range(1.0..=64.0)
                    .speed(0.1)
                    .suffix(" cells"),
            )
            .labelled_by(l.id)
            .on_hover_text("square cells from one hex centre to the next");
        });
        ui.horizontal_wrapped(|ui| {
            for (o, name) in [
                (HexOrientation::Pointy, "pointy"),
                (HexOrientation::Flat, "flat"),
            ] {
                ui.selectable_value(&mut c.orientation, o, name);
            }
            ui.label("top");
        });
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut c.fill, HexFill::Walls, "walls stay walls")
                .on_hover_text(
                    "a hex is blocked when it overlaps a blocked cell: no hex move crosses a \
                     wall (passages narrower than a hex close)",
                );
            ui.selectable_value(&mut c.fill, HexFill::Centre, "centre cell")
                .on_hover_text(
                    "a hex takes the terrain of the square cell under its centre: narrow doors \
                     stay open, thin walls may leak (the count is shown)",
                );
            ui.selectable_value(&mut c.fill, HexFill::AnyBlocked, "any blocked centre")
                .on_hover_text("a hex is blocked when it covers a blocked cell's centre");
        });
        let (family, fill) = (c.family(), c.fill);
        super::turn_into_or_compare(
            cx,
            ui,
            (family, fill),
            ("Turn into hexes", "a new, unsaved hex project of this map"),
            (
                "+ Compare on hexes",
                "a view that searches this map as hexes, beside the squares",
            ),
        );
    }
}

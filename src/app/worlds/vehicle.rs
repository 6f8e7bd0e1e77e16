//! The vehicle lattice's part: the square map underneath drawn as squares, a cell showing the
//! latest state of any of its headings and speeds, and its World panel.

use super::geometry::{self, CellGeometry};
use super::WorldUi;
use crate::app::parts::PanelCx;
use crate::space::{Connectivity, Space, VehicleSpace};
use crate::world::Family;
use eframe::egui;

pub(crate) struct FamilyUi;

impl WorldUi for FamilyUi {
    fn geometry(&self, _: &Family) -> &'static dyn CellGeometry {
        &geometry::SQUARES
    }

    fn panel(&self, cx: &mut PanelCx, ui: &mut egui::Ui) {
        let Some(lattice) = cx.work.space.as_vehicle() else {
            return;
        };
        ui.collapsing(format!("World: {}", describe(lattice)), |ui| {
            let v = lattice.model().vehicle;
            let (heading, speed) = lattice.steps();
            ui.label(format!(
                "Turning radius {} m, top speed {} m/s, acceleration {} and braking {} m/s², \
                 lateral limit {} m/s²; headings every {heading}°, speeds every {speed} m/s.",
                v.turning_radius, v.max_speed, v.accel, v.decel, v.lateral
            ));
            ui.label(
                "A node is a cell, a heading and a speed; its edges are the car's actions \
                 (accelerate, hold or brake, times steering), each one cell long, costing its \
                 time and snapped to the node it ends in. Edges are directed: D* Lite, AD* \
                 and RTD* are refused. Searches start and end at rest, facing right. \
                 A cell shows the latest state of any of its nodes.",
            );
            ui.label("For the exact-pose planner (AIPATH), use Run ▸ Vehicle planner.");
        });
    }

    fn moves(&self, _: &Family, ui: &mut egui::Ui, _: &mut Connectivity) -> bool {
        ui.label("moves: the car's actions, one cell of arc each");
        false
    }

    fn describe(&self, space: &crate::world::AnySpace) -> String {
        match space.as_vehicle() {
            Some(l) => describe(l),
            None => format!("{}×{} cells", space.width(), space.height()),
        }
    }

    /// Every edge is one of the vehicle's actions, costing its duration.
    fn cost_unit(&self) -> (&'static str, &'static str) {
        ("s", "in seconds of driving")
    }

    /// Agents walk cells; a lattice's nodes are a car's states.
    fn dynamic_world(&self) -> bool {
        false
    }
}

fn describe(l: &VehicleSpace) -> String {
    let (h, s) = l.bins();
    format!(
        "a vehicle lattice of {} cells × {h} headings × {s} speeds ({} nodes)",
        l.cells(),
        l.num_nodes()
    )
}

/// Searching the map as a vehicle's lattice, beside the squares.
pub(in crate::app) fn to_lattice(cx: &mut PanelCx, ui: &mut egui::Ui) {
    super::turn_into_or_compare(
        cx,
        ui,
        (VehicleSpace::DEFAULT_FAMILY, crate::map::HexFill::default()),
        (
            "Turn into a vehicle lattice",
            "a new, unsaved project: a small robot's (cell, heading, speed) states over this map",
        ),
        (
            "+ Compare on a vehicle lattice",
            "a view that searches this map as a small robot's lattice, beside the squares",
        ),
    );
}

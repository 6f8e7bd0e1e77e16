//! The square world's part: square cells, and the World panel that turns the map into hexes,
//! navmeshes, vehicle lattices or voxels.

use super::geometry::{self, CellGeometry};
use super::WorldUi;
use crate::app::parts::PanelCx;
use crate::space::Connectivity;
use crate::world::Family;
use eframe::egui;

pub(crate) struct FamilyUi;

impl WorldUi for FamilyUi {
    fn geometry(&self, _: &Family) -> &'static dyn CellGeometry {
        &geometry::SQUARES
    }

    fn panel(&self, cx: &mut PanelCx, ui: &mut egui::Ui) {
        ui.collapsing("World: squares (to other worlds)", |ui| {
            super::hex::to_hexes(cx, ui);
            ui.separator();
            super::navmesh::to_navmesh(cx, ui);
            ui.separator();
            super::vehicle::to_lattice(cx, ui);
            ui.separator();
            super::voxel::extrude(cx, ui);
        });
    }

    fn moves(&self, _: &Family, ui: &mut egui::Ui, moves: &mut Connectivity) -> bool {
        crate::app::panels::moves_combo(ui, moves);
        true
    }
}

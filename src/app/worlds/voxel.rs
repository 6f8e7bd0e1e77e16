//! The world panel of a voxel world (size, moves, the layer edited in 2D, the `.3dscen`
//! problems, the 3D view on or off), and the way to make one from a square map.

use super::geometry::{self, CellGeometry};
use super::WorldUi;
use crate::app::parts::PanelCx;
use crate::app::view3d::View3d;
use crate::app::views::ViewPart;
use crate::app::Command;
use crate::app::{palette, PathlabApp};
use crate::space::{Connectivity, VoxelMoves};
use crate::world::Family;
use eframe::egui;

/// The voxel world's part: its layer drawn as squares, its panel, the 3D view beside.
pub(crate) struct FamilyUi;

/// The voxel panel's settings: the height a square map is extruded to and the `.3dscen`
/// problem last chosen.
pub(crate) struct VoxelChoice {
    pub extrude_height: u32,
    pub problem: usize,
}

impl Default for VoxelChoice {
    fn default() -> Self {
        VoxelChoice {
            extrude_height: 8,
            problem: 0,
        }
    }
}

impl crate::app::parts::Part for VoxelChoice {
    crate::app::parts::part_any!();
}

impl WorldUi for FamilyUi {
    fn cost_unit(&self) -> (&'static str, &'static str) {
        ("voxels", "in voxel edges")
    }

    /// The 3D view's own colours (its search colours are the 2D views').
    fn legend(&self) -> crate::app::legend::Extras {
        vec![
            (palette::VOXEL, "3D: blocked voxel"),
            (palette::LAYER_FRAME, "3D: layer shown in 2D"),
        ]
    }

    fn geometry(&self, _: &Family) -> &'static dyn CellGeometry {
        // The 2D view shows one layer: square cells.
        &geometry::SQUARES
    }

    fn panel(&self, cx: &mut PanelCx, ui: &mut egui::Ui) {
        show(cx, ui)
    }

    fn moves(&self, family: &Family, ui: &mut egui::Ui, _: &mut Connectivity) -> bool {
        if let Family::Voxel { moves } = family {
            ui.label(format!(
                "moves: {} (voxels; set in the World panel)",
                moves.name()
            ));
        }
        false
    }

    fn layered(&self) -> bool {
        true
    }

    fn dynamic_world(&self) -> bool {
        false
    }

    fn new_document(&self, app: &mut PathlabApp) -> bool {
        // A new voxel world of the same size and moves, empty.
        app.new_voxel_world();
        true
    }

    fn side_view(&self, app: &PathlabApp) -> Option<&'static dyn ViewPart> {
        let shown = app.parts.of::<View3d>().show && app.work.doc.volume().is_some();
        shown.then_some(&crate::app::view3d::View3dPart as &dyn ViewPart)
    }
}

pub(in crate::app) fn show(cx: &mut PanelCx, ui: &mut egui::Ui) {
    let Some(vol) = cx.work.doc.volume() else {
        return;
    };
    let [w, h, d] = vol.voxels.dims();
    let title = format!("World: voxels, {w}×{h}×{d}");
    let (moves, z) = (vol.moves, vol.z);
    let problems = vol.problems.len();
    ui.collapsing(title, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label("Moves");
            for m in VoxelMoves::ALL {
                let hover = match m {
                    VoxelMoves::Six => "across faces (cost 1)",
                    VoxelMoves::Eighteen => "across faces and edges (1, √2)",
                    VoxelMoves::TwentySix => {
                        "across faces, edges and corners (1, √2, √3): the Warframe benchmark's"
                    }
                };
                if ui
                    .selectable_label(moves == m, m.name())
                    .on_hover_text(hover)
                    .clicked()
                {
                    cx.send(Command::SetVoxelMoves(m));
                }
            }
        });
        ui.label("A diagonal move needs every voxel of its bounding box free.");
        let mut layer = z;
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("Layer z");
            ui.add(egui::DragValue::new(&mut layer).range(0..=d - 1))
                .labelled_by(l.id)
                .on_hover_text("the layer the 2D view shows: every tool paints it");
            ui.label(format!("of {d}"));
        });
        if layer != z {
            cx.send(Command::SetLayer(layer));
        }
        let (s, g) = (cx.work.doc.start_at(), cx.work.doc.goal_at());
        ui.horizontal_wrapped(|ui| {
            if ui
                .button(format!("Start ({}, {}, {})", s.0, s.1, s.2))
                .on_hover_text("show the start's layer")
                .clicked()
            {
                cx.send(Command::SetLayer(s.2));
            }
            if ui
                .button(format!("Goal ({}, {}, {})", g.0, g.1, g.2))
                .on_hover_text("show the goal's layer")
                .clicked()
            {
                cx.send(Command::SetLayer(g.2));
            }
        });
        if problems > 0 {
            let mut k = cx.parts.of::<VoxelChoice>().problem.min(problems - 1) + 1;
            ui.horizontal_wrapped(|ui| {
                let l = ui.label("Problem");
                ui.add(egui::DragValue::new(&mut k).range(1..=problems))
                    .labelled_by(l.id);
                ui.label(format!("of {problems}"));
                if ui.button("Search it").clicked() {
                    cx.send(Command::ChooseProblem3d(k - 1));
                }
            });
            cx.parts.of_mut::<VoxelChoice>().problem = k - 1;
        }
        ui.checkbox(
            &mut cx.parts.of_mut::<View3d>().show,
            "3D view beside the layer",
        );
    });
    crate::app::flight::panel(cx, ui);
}

/// The controls that extrude a square map into a voxel world.
pub(in crate::app) fn extrude(cx: &mut PanelCx, ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        let l = ui.label("Height");
        ui.add(
            egui::DragValue::new(&mut cx.parts.of_mut::<VoxelChoice>().extrude_height)
                .range(1..=256)
                .suffix(" voxels"),
        )
        .labelled_by(l.id);
        if ui
            .button("Extrude into voxels")
            .on_hover_text("a new, unsaved voxel world: each wall a column, 26-connected")
            .clicked()
        {
            let height = cx.parts.of::<VoxelChoice>().extrude_height;
            cx.send(Command::ToVoxels(height));
        }
    });
}

impl PathlabApp {
    /// The voxel world's moves: the space is rebuilt and every run restarts.
    pub fn set_voxel_moves(&mut self, m: VoxelMoves) {
        let Some(vol) = self.work.doc.volume_mut() else {
            return;
        };
        if vol.moves == m {
            return;
        }
        vol.moves = m;
        self.work.doc.world = Family::Voxel { moves: m };
        self.work.doc.dirty = true;
        self.work.doc.revision += 1;
        self.work.space = self.work.doc.space();
        self.restart_all();
        self.status = format!("Searches now make {}-connected moves", m.name());
    }

    /// Searches problem `i` of the `.3dscen`: start and goal move there and the 2D view
    /// shows the start's layer.
    pub fn choose_problem3(&mut self, i: usize) {
        let Some(p) = self
            .work
            .doc
            .volume()
            .and_then(|v| v.problems.get(i))
            .cloned()
        else {
            return;
        };
        self.parts.of_mut::<VoxelChoice>().problem = i;
        self.work.doc.set_endpoints_3d(p.start, p.goal);
        self.set_layer(p.start[2]);
        self.restart_all();
        self.status = format!(
            "Problem {} of the scenario: optimal cost {:.4}",
            i + 1,
            p.optimal
        );
    }

    /// File ▸ New on a voxel world: an empty one of the generator's width and height and this
    /// world's depth and moves.
    pub(in crate::app) fn new_voxel_world(&mut self) {
        let Some(old) = self.work.doc.volume() else {
            return;
        };
        let (w, h) = self.generator.size;
        let (d, moves) = (old.voxels.dims()[2], old.moves);
        let voxels = match crate::map::voxel::VoxelGrid::new(w.max(2), h.max(1), d) {
            Ok(v) => v,
            Err(e) => return self.report_error("Could not make a new voxel world", e),
        };
        let (vol, s, g) = crate::map::volume::Volume::new(voxels, moves, vec![]);
        let mut doc =
            crate::app::Document::new(vol.voxels.slice(vol.z), (s[0], s[1]), (g[0], g[1]), None);
        doc.world = Family::Voxel { moves };
        doc.data = Some(crate::world::AnyData::Voxel(vol));
        self.set_document(doc);
        self.status = format!("New {}×{}×{d} voxel world", w.max(2), h.max(1));
    }

    /// A new document: the map extruded to `height` layers.
    pub(in crate::app) fn extrude_to_voxels(&mut self, height: u32) {
        let made = crate::map::voxel::VoxelGrid::extrude(&self.work.doc.grid, height);
        let voxels = match made {
            Ok(v) => v,
            Err(e) => return self.report_error("Could not extrude the map", e),
        };
        let moves = VoxelMoves::TwentySix;
        let (mut vol, _, _) = crate::map::volume::Volume::new(voxels, moves, vec![]);
        // Start and goal keep their cells, on the ground layer.
        (vol.z, vol.start_z, vol.goal_z) = (0, 0, 0);
        let mut doc = crate::app::Document::new(
            vol.voxels.slice(0),
            self.work.doc.start,
            self.work.doc.goal,
            None,
        );
        doc.world = Family::Voxel { moves };
        doc.data = Some(crate::world::AnyData::Voxel(vol));
        doc.dirty = true;
        doc.revision = 1;
        let swapped = self.set_converted(doc);
        let (w, h) = (self.work.doc.grid.width(), self.work.doc.grid.height());
        self.status = format!("The map as {w}×{h}×{height} voxels: a new, unsaved project");
        if !swapped.is_empty() {
            self.status = format!("{}. {swapped}", self.status);
        }
    }
}

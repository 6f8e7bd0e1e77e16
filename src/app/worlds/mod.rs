//! One UI part per world family: how its cells lie in a 2D view, its World panel, its moves
//! line, its tools and its side view. Found through the family list, so a family without its
//! part here does not build; nothing else in the app asks which family a world is.

pub(crate) mod geometry;
pub(crate) mod hex;
pub(crate) mod knowledge;
pub(crate) mod navmesh;
pub(crate) mod square;
pub(crate) mod vehicle;
pub(crate) mod view_world;
pub(crate) mod voxel;

use crate::app::parts::PanelCx;
use crate::app::views::ViewPart;
use crate::app::Command;
use crate::app::{PathlabApp, Tool};
use crate::space::Connectivity;
use crate::world::Family;
use eframe::egui;
use geometry::CellGeometry;

/// What the app shows of one world family.
pub(crate) trait WorldUi: Sync {
    /// How the family's cells lie in a 2D view.
    fn geometry(&self, family: &Family) -> &'static dyn CellGeometry;
    /// The World section of the left panel, drawn from the workspace; what it changes goes
    /// through `cx`'s commands, and its settings are a part's.
    fn panel(&self, cx: &mut PanelCx, ui: &mut egui::Ui);
    /// The moves line of the rules every view shares, editing `moves` where the family's moves
    /// are a connectivity; whether the terrain rule applies too.
    fn moves(&self, family: &Family, ui: &mut egui::Ui, moves: &mut Connectivity) -> bool;
    /// The world in a few words, for titles and the status line ("64×48 hexes", "a navmesh of
    /// 212 polygons").
    fn describe(&self, space: &crate::world::AnySpace) -> String {
        format!("{}×{} cells", space.width(), space.height())
    }
    /// Tools of this family beyond the editing ones every world has: each with its label and
    /// hover text.
    fn tools(&self) -> &'static [(Tool, &'static str, &'static str)] {
        &[]
    }
    /// Whether the 2D views show one layer of several (PageUp/PageDown move between them, the
    /// inspector names the layer).
    fn layered(&self) -> bool {
        false
    }
    /// Whether agents and the dynamic world's changes walk it.
    fn dynamic_world(&self) -> bool {
        true
    }
    /// File ▸ New on a world of this family, where it differs from a new square map; whether it
    /// was done.
    fn new_document(&self, app: &mut PathlabApp) -> bool {
        let _ = app;
        false
    }
    /// Draws over a 2D view's cells what the family shows beyond them (a navmesh's polygons,
    /// portals and centres).
    fn draw_over(
        &self,
        painter: &egui::Painter,
        cam: &crate::app::camera::Camera,
        view: egui::Rect,
        space: &crate::world::AnySpace,
    ) {
        let _ = (painter, cam, view, space);
    }
    /// The found path as a line in cell units from start cell to goal cell, where the family
    /// draws it otherwise than through its nodes' cells (a navmesh: pulled tight through its
    /// portals).
    fn path_line(
        &self,
        space: &crate::world::AnySpace,
        path: &[crate::space::NodeId],
        ends: ((u32, u32), (u32, u32)),
    ) -> Option<Vec<[f64; 2]>> {
        let _ = (space, path, ends);
        None
    }
    /// The unit of a path's cost on this world, short (after a cost in the statistics) and
    /// what it measures.
    fn cost_unit(&self) -> (&'static str, &'static str) {
        ("cells", "in square cells")
    }
    /// What the legend says of the colours [`WorldUi::draw_over`] and the side view draw.
    fn legend(&self) -> crate::app::legend::Extras {
        vec![]
    }
    /// A view of the world beside its 2D views (the 3D view of voxels), when it is shown.
    fn side_view(&self, app: &PathlabApp) -> Option<&'static dyn ViewPart> {
        let _ = app;
        None
    }
}

macro_rules! declare_world_uis {
    ( ; $($v:ident $({ $($pf:ident : $pt:ty),* })? / $f:ident : $world:ty => $space:ty, $name:literal, $title:literal;)*) => {
        /// The UI part of a family: the module named as the family's constructor field.
        pub(crate) fn ui_of(family: &Family) -> &'static dyn WorldUi {
            match family {
                $(Family::$v { .. } => &$f::FamilyUi,)*
            }
        }

        /// The UI part of every family (for what every legend can show).
        #[cfg(test)]
        pub(crate) fn every_ui() -> Vec<&'static dyn WorldUi> {
            vec![$(&$f::FamilyUi as &dyn WorldUi,)*]
        }
    };
}
crate::for_each_family!(declare_world_uis);

/// The two buttons of a world the square map can become: "Turn into …" (a new, unsaved
/// project of that family) and "+ Compare on …" (a view searching the map as that world beside
/// the squares), with their labels and hover texts.
pub(crate) fn turn_into_or_compare(
    cx: &mut PanelCx,
    ui: &mut egui::Ui,
    (family, fill): (Family, crate::map::HexFill),
    turn: (&str, &str),
    compare: (&str, &str),
) {
    ui.horizontal_wrapped(|ui| {
        if ui.button(turn.0).on_hover_text(turn.1).clicked() {
            cx.send(Command::ToFamily(family, fill));
        }
        if ui
            .add_enabled(cx.work.views.len() < 4, egui::Button::new(compare.0))
            .on_hover_text(compare.1)
            .clicked()
        {
            cx.send(Command::CompareOn(family, fill));
        }
    });
}

/// How the cells of a family's world lie in a 2D view.
pub(crate) fn geometry_of(family: &Family) -> &'static dyn CellGeometry {
    ui_of(family).geometry(family)
}

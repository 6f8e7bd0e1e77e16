//! The app's parts: features beside the views (agents, the moving scene, the experiment, crowd
//! and vehicle windows, lessons), the state of world families' panels and of overlays. Each
//! part is an object that owns its state (and the jobs it started: a [`Job`] is cancelled when
//! it is dropped), listed once in [`every_part`]. The app drives them all through [`Part`],
//! never by name: a part reads the workspace and writes [`Command`]s through a [`Cx`], so a
//! part changes the document only as a user's click would.
//!
//! [`Job`]: crate::app::jobs::Job

use crate::app::workspace::Workspace;
use crate::app::Command;
use eframe::egui;
use std::any::{Any, TypeId};

/// What a part sees while it updates or draws: the workspace to read and a queue of commands
/// the app applies once every part has had its turn.
pub(crate) struct Cx<'a> {
    pub work: &'a Workspace,
    commands: Vec<Command>,
}

impl<'a> Cx<'a> {
    pub fn new(work: &'a Workspace) -> Cx<'a> {
        Cx {
            work,
            commands: vec![],
        }
    }

    /// Asks the app to do `c` after the parts' turn.
    pub fn send(&mut self, c: Command) {
        self.commands.push(c);
    }

    /// The commands sent, in order.
    pub fn into_commands(self) -> Vec<Command> {
        self.commands
    }
}

/// What a world family's panel sees while it draws: the workspace to read, the parts (a
/// family's settings are a part's) and a queue of commands the app applies after the panel.
pub(crate) struct PanelCx<'a> {
    pub work: &'a Workspace,
    pub parts: &'a mut Parts,
    commands: Vec<Command>,
}

impl<'a> PanelCx<'a> {
    pub fn new(work: &'a Workspace, parts: &'a mut Parts) -> PanelCx<'a> {
        PanelCx {
            work,
            parts,
            commands: vec![],
        }
    }

    /// Asks the app to do `c` after the panel is drawn.
    pub fn send(&mut self, c: Command) {
        self.commands.push(c);
    }

    /// The commands sent, in order.
    pub fn into_commands(self) -> Vec<Command> {
        self.commands
    }
}

/// The menu a part offers its window in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Menu {
    View,
    Run,
}

/// One part of the app. Every method has a default, so a part implements only what it does.
pub(crate) trait Part: Any {
    /// Advances by `dt` seconds before the panels are drawn.
    fn update(&mut self, cx: &mut Cx, dt: f32) {
        let _ = (cx, dt);
    }
    /// Draws the part's own windows, after the panels.
    fn windows(&mut self, cx: &mut Cx, ctx: &egui::Context) {
        let _ = (cx, ctx);
    }
    /// Whether it animates or works and so needs the next frame without input.
    fn wants_repaint(&self) -> bool {
        false
    }
    /// Where the menus offer the part's window: the menu, the entry's label and its hover
    /// text. Choosing it sends [`Command::OpenPart`] with the part's [`Part::name`].
    fn menu_entry(&self) -> Option<(Menu, &'static str, &'static str)> {
        None
    }
    /// The part's name in [`Command::OpenPart`] and the command line.
    fn name(&self) -> &'static str {
        ""
    }
    /// Opens the part's window (its menu entry was chosen).
    fn open(&mut self, cx: &mut Cx) {
        let _ = cx;
    }
    /// Closes the part's window, and with it ends the work it started: a part's jobs are its
    /// own, and a dropped [`Job`] is cancelled.
    fn close(&mut self) {}
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// The [`Part::as_any`] pair, the same for every part.
macro_rules! part_any {
    () => {
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
        fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
            self
        }
    };
}
pub(crate) use part_any;

/// Every part, in the order they update and draw. Adding a part is one line here.
fn every_part() -> Vec<Box<dyn Part>> {
    use crate::app::{features, overlays, views, worlds};
    vec![
        Box::new(features::agent::AgentSim::default()),
        Box::new(features::flight::MovingScene::default()),
        Box::new(features::experiment::ExperimentWindow::default()),
        Box::new(features::crowd::CrowdWindow::default()),
        Box::new(features::vehicle::VehicleWindow::default()),
        Box::new(features::map_stats::MapStats::default()),
        Box::new(features::lesson::Lessons::default()),
        Box::new(worlds::hex::HexChoice::default()),
        Box::new(worlds::voxel::VoxelChoice::default()),
        Box::new(worlds::knowledge::KnowledgePanel::default()),
        Box::new(views::view3d::View3d::default()),
        Box::new(overlays::HierLevel::default()),
    ]
}

/// The app's parts, each found by its type.
pub(crate) struct Parts {
    list: Vec<Box<dyn Part>>,
}

impl Default for Parts {
    fn default() -> Self {
        Parts { list: every_part() }
    }
}

impl Parts {
    /// The part of type `T`. Every part type is in [`every_part`]; asking for another is a
    /// mistake in the app's code, caught by any test that reaches it.
    pub fn of<T: Part>(&self) -> &T {
        self.list
            .iter()
            .find_map(|p| p.as_any().downcast_ref::<T>())
            .unwrap_or_else(|| panic!("{:?} is not listed in every_part", TypeId::of::<T>()))
    }

    /// The part of type `T`, to change.
    pub fn of_mut<T: Part>(&mut self) -> &mut T {
        self.list
            .iter_mut()
            .find_map(|p| p.as_any_mut().downcast_mut::<T>())
            .unwrap_or_else(|| panic!("{:?} is not listed in every_part", TypeId::of::<T>()))
    }

    /// Every part, in order.
    pub fn iter(&self) -> impl Iterator<Item = &dyn Part> {
        self.list.iter().map(|p| &**p)
    }

    /// Every part, in order, to change.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Box<dyn Part>> {
        self.list.iter_mut()
    }

    /// The names of the parts with a window to open (see [`Part::menu_entry`]).
    // The page takes no command line (src/app/web.rs).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub fn window_names(&self) -> Vec<&'static str> {
        self.iter()
            .filter(|p| p.menu_entry().is_some())
            .map(|p| p.name())
            .collect()
    }

    /// The part named `name` (see [`Part::name`]).
    pub fn named_mut(&mut self, name: &str) -> Option<&mut Box<dyn Part>> {
        self.list.iter_mut().find(|p| p.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_part_is_listed_once_and_named_parts_have_distinct_names() {
        let parts = Parts::default();
        let mut types: Vec<TypeId> = parts.iter().map(|p| p.as_any().type_id()).collect();
        let n = types.len();
        types.sort();
        types.dedup();
        assert_eq!(types.len(), n, "a part type listed twice");
        let mut names: Vec<&str> = parts
            .iter()
            .map(|p| p.name())
            .filter(|n| !n.is_empty())
            .collect();
        let named = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), named, "two parts share a name");
        // Every part offered in a menu can be opened by name.
        for p in parts.iter().filter(|p| p.menu_entry().is_some()) {
            assert!(
                !p.name().is_empty(),
                "a menu entry without a name to open it by"
            );
        }
    }
}

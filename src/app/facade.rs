//! What the app shows, read from outside it: the tests, scripts and the lessons to come look
//! through these, and change the app only through [`Command`](crate::app::Command)s (and the
//! few actions a test needs that no user has: a run's internals to check against the core).

use crate::app::agent::AgentSim;
use crate::app::canvas::Camera;
use crate::app::crowd::CrowdWindow;
use crate::app::experiment::ExperimentWindow;
use crate::app::flight::Flight;
use crate::app::knowledge::KnowledgePanel;
use crate::app::vehicle::VehicleWindow;
use crate::app::view3d::View3d;
use crate::app::{Breakpoints, Document, PathlabApp, ProblemList, Run, Tool, View};
use crate::world::AnySpace;
use eframe::egui::Rect;

impl PathlabApp {
    /// The work the app has started and not finished: views still searching, and background
    /// jobs whose result it has not taken. Empty when only the user can make it change.
    pub fn outstanding_work(&self) -> Vec<&'static str> {
        let mut w = crate::app::jobs::outstanding();
        if self.searching() {
            w.push("a view's search");
        }
        w
    }

    /// The map being edited, its endpoints, problems and history.
    pub fn doc(&self) -> &Document {
        &self.work.doc
    }
    /// The document's world as a search graph.
    pub fn space(&self) -> &AnySpace {
        &self.work.space
    }
    /// The views, left to right and top to bottom.
    pub fn views(&self) -> &[View] {
        &self.work.views
    }
    /// View `i`'s run, to step or question (recording answers need `&mut`).
    pub fn run_mut(&mut self, i: usize) -> &mut Run {
        &mut self.work.views[i].run
    }
    /// The camera of view `i`: its own where it shows a world of its own, else the document's.
    pub fn cam_of(&mut self, i: usize) -> &mut Camera {
        match self
            .work
            .views
            .get_mut(i)
            .and_then(|v| v.world.as_deref_mut())
        {
            Some(w) => &mut w.cam,
            None => &mut self.cam,
        }
    }
    /// The document's camera.
    pub fn cam(&self) -> &Camera {
        &self.cam
    }
    /// The shared step cursor.
    pub fn cursor(&self) -> usize {
        self.work.cursor
    }
    pub fn playing(&self) -> bool {
        self.play.playing
    }
    pub fn max_speed(&self) -> bool {
        self.play.max_speed
    }
    pub fn diff(&self) -> bool {
        self.display.diff
    }
    pub fn smoothed(&self) -> bool {
        self.display.smoothed
    }
    pub fn breakpoints(&self) -> &Breakpoints {
        &self.play.breakpoints
    }
    /// The status line.
    pub fn status(&self) -> &str {
        &self.status
    }
    pub fn tool(&self) -> Tool {
        self.edit.tool
    }
    pub fn material(&self) -> u8 {
        self.edit.material
    }
    /// The view the inspector and the status line speak of.
    pub fn active(&self) -> usize {
        self.display.active
    }
    pub fn selected(&self) -> Option<(u32, u32)> {
        self.edit.selected
    }
    pub fn world_selected(&self) -> Option<(usize, (u32, u32))> {
        self.edit.world_selected
    }
    pub fn show_legend(&self) -> bool {
        self.display.show_legend
    }
    pub fn show_help(&self) -> bool {
        self.display.show_help
    }
    /// Files opened lately, newest first.
    pub fn recent(&self) -> &[std::path::PathBuf] {
        &self.files.recent
    }
    /// Why the file named on the command line did not open.
    pub fn startup_error(&self) -> Option<&str> {
        self.startup_error.as_deref()
    }
    /// Cells the world changed last (agents walking): the canvas flashes them.
    pub fn flashed(&self) -> &[(u32, u32)] {
        &self.edit.flash.0
    }
    /// Where the views, the canvas, the legend and the menu bar were drawn on the last frame.
    pub fn view_rects(&self) -> &[Rect] {
        &self.display.view_rects
    }
    pub fn canvas_rect(&self) -> Option<Rect> {
        self.display.canvas_rect
    }
    pub fn legend_rect(&self) -> Option<Rect> {
        self.display.legend_rect
    }
    pub fn menu_bottom(&self) -> f32 {
        self.display.menu_bottom
    }
    /// The scenario's problem list.
    pub fn problems(&self) -> &ProblemList {
        &self.problems
    }
    /// Agents crossing the map while it changes.
    pub fn sim(&self) -> &AgentSim {
        self.parts.of()
    }
    /// Krafft 2019's moving 3D scene, when it is the open world.
    pub fn flight(&self) -> Option<&Flight> {
        self.parts
            .of::<crate::app::flight::MovingScene>()
            .flight
            .as_ref()
    }
    /// The cognitive map's panel.
    pub fn knowledge(&self) -> &KnowledgePanel {
        self.parts.of()
    }
    /// The 3D view of a voxel world.
    pub fn view3d(&self) -> &View3d {
        self.parts.of()
    }
    /// The dynamic experiment's window.
    pub fn experiment(&self) -> &ExperimentWindow {
        self.parts.of()
    }
    /// Run ▸ Crowd: its settings, the batch in flight and the last result.
    pub fn crowd(&self) -> &CrowdWindow {
        self.parts.of()
    }
    /// Run ▸ Vehicle planner: its settings, the plan in flight and the last result.
    pub fn vehicle(&self) -> &VehicleWindow {
        self.parts.of()
    }
    /// Help ▸ Lessons: the lesson played, where others were left, the list.
    pub fn lessons(&self) -> &crate::app::Lessons {
        self.parts.of()
    }
}

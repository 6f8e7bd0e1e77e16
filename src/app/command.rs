//! The app's commands: what menus, keys, the command line's options, scripted runs and the
//! tests ask of it, as values. [`PathlabApp::apply`] is the one place they take effect, so a
//! key and its menu item do the same thing, and a script or a lesson can drive the app as a
//! user does.

use crate::app::agent::AgentCommand;
use crate::app::crowd::CrowdWindow;
use crate::app::crowd_view::CrowdCommand;
use crate::app::experiment::{ExperimentCommand, ExperimentWindow};
use crate::app::features::lesson::LessonCommand;
use crate::app::files::DialogPurpose;
use crate::app::flight::FlightCommand;
use crate::app::knowledge::KnowledgeCommand;
use crate::app::overlays::HierLevel;
use crate::app::parts::Cx;
use crate::app::vehicle::{VehicleCommand, VehicleWindow};
use crate::app::view3d::View3d;
use crate::app::{AlgoChoice, PathlabApp, PendingAction, ProblemOrder, Tool};
use crate::map::Edit;
use std::path::PathBuf;

/// One thing asked of the app.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    // Files.
    /// A new map (asks first when there are unsaved changes).
    New,
    /// Opens this file, or asks which (`None`); asks first when there are unsaved changes.
    Open(Option<PathBuf>),
    /// Opens example `i` of the built-in examples.
    OpenExample(usize),
    /// Krafft 2019's moving 3D scene.
    OpenScene3d,
    /// Plays a trace file (Posthoc's format) back in a view beside the others, or asks which
    /// (`None`).
    OpenTrace(Option<PathBuf>),
    /// Saves to the document's file, or asks where.
    Save,
    /// Saves to this file.
    SaveTo(PathBuf),
    /// Asks a file for `purpose`, suggesting a name.
    AskFile(DialogPurpose, String),
    Quit,
    // Edits.
    Edit(Edit),
    Undo,
    Redo,
    /// Start (`true`) or goal to a cell, snapped to the nearest passable one.
    MoveEndpoint(bool, (u32, u32)),
    /// The voxel layer the 2D views show and edit.
    SetLayer(u32),
    /// The voxel world's moves: the space is rebuilt and every run restarts.
    SetVoxelMoves(crate::map::VoxelMoves),
    /// The square map as another family's world, in a new unsaved document (asks first when
    /// there are unsaved changes).
    ToFamily(crate::world::Family, crate::map::HexFill),
    /// The square map extruded to this many voxel layers, in a new unsaved document.
    ToVoxels(u32),
    /// A view beside the others searching the map as another family's world, with the active
    /// view's algorithm.
    CompareOn(crate::world::Family, crate::map::HexFill),
    /// The cognitive map of a hex world.
    Knowledge(KnowledgeCommand),
    /// The hierarchy level hierarchical runs draw (1-based; past the top draws the top).
    SetHierLevel(usize),
    SetTool(Tool),
    SetMaterial(u8),
    /// The cell the inspector shows, in the document's views.
    Select(Option<(u32, u32)>),
    /// The cell the inspector shows in view `.0`, which has a world of its own.
    SelectInView(usize, (u32, u32)),
    /// The size of the next generated map.
    SetGenSize(u32, u32),
    // Views.
    /// View `.0` runs another algorithm.
    SetAlgorithm(usize, AlgoChoice),
    /// A view beside the others (at most four).
    AddView(AlgoChoice),
    /// Removes the last view (one stays).
    RemoveView,
    /// The view the inspector and status line speak of.
    SetActive(usize),
    /// Views of GPS of the brain at these knowledge levels (%), on a hex world.
    CompareKnowledge(Vec<u32>),
    SetDiff(bool),
    SetSmoothed(bool),
    ToggleLegend,
    ToggleHelp,
    /// Fits the map to the window.
    Fit,
    /// Zoom of the document's views: screen points per cell.
    Zoom(f32),
    /// The 3D view's orbit: angles (radians), distance and the point looked at.
    Orbit3d {
        yaw: f32,
        pitch: f32,
        dist: f32,
        target: [f32; 3],
    },
    // The timeline.
    StepForward(usize),
    StepBack(usize),
    /// To step `n` of the shared cursor.
    GoTo(usize),
    /// Every run to its end, the path shown.
    ToEnd,
    TogglePlay,
    /// Plays (or pauses) at the chosen speed, or as fast as searches run.
    Play {
        playing: bool,
        max_speed: bool,
    },
    /// Stops playing at the expansion of this node (`None`: no such breakpoint).
    BreakAtNode(Option<crate::space::NodeId>),
    // Problems of a scenario.
    FilterProblems(String),
    OrderProblems(ProblemOrder),
    ChooseProblem(usize),
    /// Problem `i` of a voxel world's `.3dscen`.
    ChooseProblem3d(usize),
    // Parts (each part's own commands are its own enum).
    /// Opens the window of the part so named (Run ▸ Crowd: "crowd"), as its menu entry does.
    OpenPart(&'static str),
    /// Closes the window of the part so named, ending its work, as its close button does.
    ClosePart(&'static str),
    Agents(AgentCommand),
    Flight(FlightCommand),
    Experiment(ExperimentCommand),
    Crowd(CrowdCommand),
    Vehicle(VehicleCommand),
    Lesson(LessonCommand),
}

impl PathlabApp {
    /// Does what `c` asks.
    pub fn apply(&mut self, c: Command) {
        match c {
            Command::New => self.request(PendingAction::New),
            Command::Open(p) => self.request(PendingAction::Open(p)),
            Command::OpenExample(i) => self.request(PendingAction::Example(i)),
            Command::OpenScene3d => self.request(PendingAction::Scene3d),
            Command::OpenTrace(Some(p)) => self.open_trace(&p),
            Command::OpenTrace(None) => self.ask_file(DialogPurpose::OpenTrace, ""),
            Command::Save => self.save(),
            Command::SaveTo(p) => self.save_to(&p),
            Command::AskFile(purpose, name) => self.ask_file(purpose, &name),
            Command::Quit => self.request(PendingAction::Quit),
            Command::Edit(e) => self.edit(e),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::MoveEndpoint(start, c) => self.move_endpoint(start, c),
            Command::SetLayer(z) => self.set_layer(z),
            Command::SetVoxelMoves(m) => self.set_voxel_moves(m),
            Command::ToFamily(f, fill) => self.request(PendingAction::ToFamily(f, fill)),
            Command::ToVoxels(h) => self.request(PendingAction::ToVoxels(h)),
            Command::CompareOn(f, fill) => {
                if (1..4).contains(&self.work.views.len()) {
                    let active = self.display.active.min(self.work.views.len() - 1);
                    let choice = self.work.views[active].run.choice.clone();
                    self.add_world_view(choice, f, fill);
                }
            }
            Command::Knowledge(c) => self.apply_knowledge(c),
            Command::SetHierLevel(l) => self.parts.of_mut::<HierLevel>().0 = l.max(1),
            Command::SetTool(t) => self.edit.tool = t,
            Command::SetMaterial(m) => self.edit.material = m,
            Command::Select(c) => self.edit.selected = c,
            Command::SelectInView(i, c) => {
                self.display.active = i.min(self.work.views.len().saturating_sub(1));
                self.edit.world_selected = Some((i, c));
            }
            Command::SetGenSize(w, h) => self.generator.size = (w.max(1), h.max(1)),
            Command::SetAlgorithm(i, choice) if i < self.work.views.len() => {
                self.set_algorithm(i, choice)
            }
            Command::SetAlgorithm(..) => {}
            Command::AddView(choice) => self.add_view(choice),
            Command::RemoveView => {
                if self.work.views.len() > 1 {
                    self.work.views.pop();
                    self.display.diff &= self.work.views.len() >= 2;
                    self.display.active = self.display.active.min(self.work.views.len() - 1);
                }
            }
            Command::SetActive(i) => {
                self.display.active = i.min(self.work.views.len().saturating_sub(1))
            }
            Command::CompareKnowledge(levels) => self.compare_knowledge(&levels),
            Command::SetDiff(on) => self.display.diff = on,
            Command::SetSmoothed(on) => self.display.smoothed = on,
            Command::ToggleLegend => self.display.show_legend = !self.display.show_legend,
            Command::ToggleHelp => self.display.show_help = !self.display.show_help,
            Command::Fit => self.cam.fit_pending = true,
            Command::Zoom(z) => {
                self.cam.zoom = z.clamp(0.05, 200.0);
                self.cam.fitted_for = None;
            }
            Command::Orbit3d {
                yaw,
                pitch,
                dist,
                target,
            } => {
                let v = self.parts.of_mut::<View3d>();
                (v.yaw, v.pitch, v.dist, v.target) = (yaw, pitch, dist, target);
            }
            Command::StepForward(n) => {
                self.play.playing = false;
                self.step_forward(n);
            }
            Command::StepBack(n) => {
                self.play.playing = false;
                self.step_back(n);
            }
            Command::GoTo(s) => {
                self.play.playing = false;
                self.go_to(s, false);
            }
            Command::ToEnd => self.to_end(),
            Command::TogglePlay => self.toggle_play(),
            Command::Play { playing, max_speed } => {
                self.play.max_speed = max_speed;
                self.play.playing = playing;
            }
            Command::BreakAtNode(n) => self.play.breakpoints.node = n,
            Command::FilterProblems(f) => self.problems.filter = f,
            Command::OrderProblems(o) => self.problems.order = o,
            Command::ChooseProblem(i) => self.choose_problem(i),
            Command::ChooseProblem3d(i) => self.choose_problem3(i),
            Command::OpenPart(name) => self.open_part(name),
            Command::ClosePart(name) => {
                if let Some(p) = self.parts.named_mut(name) {
                    p.close();
                }
            }
            Command::Agents(c) => self.apply_agents(c),
            Command::Flight(c) => self.apply_flight(c),
            Command::Experiment(c) => self.parts.of_mut::<ExperimentWindow>().apply(c),
            Command::Crowd(c) => self.parts.of_mut::<CrowdWindow>().apply(c, &self.work),
            Command::Vehicle(c) => {
                let grid = &self.work.doc.grid;
                self.parts.of_mut::<VehicleWindow>().apply(c, grid)
            }
            Command::Lesson(c) => self.apply_lesson(c),
        }
    }
}

impl PathlabApp {
    /// Opens the window of the part named `name`, as its menu entry does.
    pub(crate) fn open_part(&mut self, name: &str) {
        let mut cx = Cx::new(&self.work);
        if let Some(p) = self.parts.named_mut(name) {
            p.open(&mut cx);
        }
        for c in cx.into_commands() {
            self.apply(c);
        }
    }
}

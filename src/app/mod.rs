//! The desktop app: a map editor with stepping search views side by side.
//!
//! Layout (docs/ui.md): menus on top; tools, generators and the algorithm on the left; one
//! to four views in the centre; inspector, statistics and plots on the right; the timeline at
//! the bottom. The app is built from parts (docs/architecture.md, "The app in parts"): the
//! workspace, views, a part per world family, overlays per algorithm, features and jobs, all
//! driven through [`Command`]s. `show` draws it into any `Ui`, so the window, the headless
//! screenshot and the egui_kittest tests run the same code.

mod command;
mod facade;
mod features;
mod jobs;
mod launch;
mod overlays;
mod parts;
mod scripted;
mod state;
mod ui;
mod views;
#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
mod web_files;
mod workspace;
mod worlds;

// The parts by their own names, so a part reaches another as `crate::app::canvas` wherever
// either lives.
use features::{agent, crowd, crowd_view, experiment, flight, vehicle};
use ui::{bottom, help, inspector, palette, panels, path_prompt, world_panels};
use views::{camera, canvas, canvas_draw, legend, texture, view3d, view3d_gl, view3d_mesh};
use workspace::Workspace;
use workspace::{
    breakpoints, choice, document, envelope, file_actions, files, oracle, prepared, problems, run,
    timeline,
};
use worlds::{knowledge, view_world};

pub use breakpoints::Breakpoints;
pub use command::Command;
pub use document::{Document, Touched};
pub use features::agent::AgentCommand;
pub use features::crowd_view::CrowdCommand;
pub use features::experiment::ExperimentCommand;
pub use features::flight::FlightCommand;
pub use features::lesson::{LessonCommand, Lessons};
pub use features::vehicle::VehicleCommand;
pub use files::DialogPurpose;
#[cfg(not(target_arch = "wasm32"))]
pub use launch::run;
pub use launch::Options;
pub use legend::legend_names;
pub use problems::{Order as ProblemOrder, ProblemList};
pub use run::{AlgoChoice, Run};
pub use view_world::ViewWorld;
pub use worlds::knowledge::KnowledgeCommand;

use crate::space::{Connectivity, TerrainRule};
use canvas::Camera;
use eframe::egui;
use scripted::Laps;
use std::path::PathBuf;
use texture::MapTexture;
use web_time::Instant;

/// Editing tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Inspect cells; drag start and goal.
    Select,
    /// Paint the chosen material.
    Brush,
    /// Paint free ground.
    Erase,
    /// Fill a rectangle with the material.
    Rect,
    /// Flood-fill a region with the material.
    Fill,
    /// Paint knowledge on a hex world's cognitive map: a visit per hex (Shift: forget it).
    Know,
}

impl Tool {
    /// The editing tools of every world (a family's part adds its own).
    pub const EVERY_WORLD: [Tool; 5] = [
        Tool::Select,
        Tool::Brush,
        Tool::Erase,
        Tool::Rect,
        Tool::Fill,
    ];

    /// The tool's name as the left panel shows it.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Select => "Select",
            Tool::Brush => "Brush",
            Tool::Erase => "Erase",
            Tool::Rect => "Rectangle",
            Tool::Fill => "Fill",
            Tool::Know => "Know",
        }
    }
}

/// How views in a compare set move through their runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sync {
    /// One step cursor for all.
    Shared,
    /// Each at the end of its run.
    Completed,
}

/// One view: a run of an algorithm on the document, and its texture.
pub struct View {
    pub run: Run,
    tex: MapTexture,
    /// Changes whenever the run is rebuilt.
    serial: u64,
    /// The document's map as another world family (hex A* beside square A*), or `None`: the
    /// document's own world.
    pub world: Option<Box<ViewWorld>>,
    /// The GPS planner's marks at the cursor, and A*'s path beside its walk.
    gps: overlays::gps::GpsCache,
}

impl View {
    /// The colour the view's map texture gives cell (x, y) (what the user sees under the
    /// overlays), once drawn.
    pub fn pixel(&self, x: u32, y: u32) -> Option<egui::Color32> {
        self.tex.pixel(x, y)
    }
}

/// A modal question on screen.
#[derive(Clone, Debug, PartialEq)]
enum Prompt {
    /// Unsaved changes would be lost by this action.
    Discard(PendingAction),
    /// A recovery file from an earlier session exists.
    Recover,
    /// Something the user asked for failed: what (a title) and why (the error, naming the file).
    Error(String, String),
}

#[derive(Clone, Debug, PartialEq)]
enum PendingAction {
    Open(Option<PathBuf>),
    /// Open files given by name and contents (a page's picked or dropped files; the first
    /// scenario among them, else the first, with the others beside it).
    OpenGiven(Vec<(PathBuf, Vec<u8>)>),
    New,
    /// The map as another family's world (hexes, a navmesh), in a new unsaved document (the
    /// square one is saved first or kept).
    ToFamily(crate::world::Family, crate::map::HexFill),
    /// Open example `i` of [`crate::examples::EXAMPLES`].
    Example(usize),
    /// The map extruded to this many voxel layers, in a new unsaved document.
    ToVoxels(u32),
    /// Krafft 2019's moving 3D scene, in a new unsaved document.
    Scene3d,
    /// Lesson `.0` from step `.1` (Help ▸ Lessons): its set-up replaces the document.
    Lesson(usize, usize),
    Quit,
}

/// What the app remembers between sessions (eframe keeps the window's size and place).
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    pub recent: Vec<PathBuf>,
    speed: f32,
    max_speed: bool,
    step_n: usize,
    show_legend: bool,
    material: u8,
    /// The first start's offer of a lesson was made.
    lessons_offered: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings::of(&PathlabApp::new(Options {
            screenshot: Some(PathBuf::new()),
            ..Options::default()
        }))
    }
}

impl Settings {
    /// The settings of `app`, as saved at exit.
    pub fn of(app: &PathlabApp) -> Settings {
        Settings {
            recent: app.files.recent.clone(),
            speed: app.play.speed,
            max_speed: app.play.max_speed,
            step_n: app.play.step_n,
            show_legend: app.display.show_legend,
            material: app.edit.material,
            lessons_offered: true,
        }
    }

    /// Applies saved settings to an app that may already have opened a file (from the command
    /// line): that file stays first among the recent ones.
    pub fn apply(self, app: &mut PathlabApp) {
        let mut recent = std::mem::take(&mut app.files.recent);
        for p in self.recent {
            if !recent.contains(&p) {
                recent.push(p);
            }
        }
        recent.truncate(8);
        app.files.recent = recent;
        app.play.speed = self.speed.clamp(1.0, 20000.0);
        app.play.max_speed = self.max_speed;
        app.play.step_n = self.step_n.clamp(1, 1_000_000);
        app.display.show_legend = self.show_legend;
        app.edit.material = self.material;
    }
}

/// The whole app state.
pub struct PathlabApp {
    /// The document, its world, the runs and the timeline's cursor.
    pub(crate) work: Workspace,
    pub(crate) cam: Camera,
    pub(crate) edit: state::Editing,
    pub(crate) play: state::Playback,
    pub(crate) display: state::Display,
    pub(crate) generator: state::Generator,
    pub(crate) files: state::FileState,
    pub(crate) shots: state::Shots,
    pub(crate) status: String,
    prompt: Option<Prompt>,
    opts: Options,
    frame: u32,
    /// Why the file named on the command line did not open.
    pub(crate) startup_error: Option<String>,
    quit_now: bool,
    /// The scenario's problem list: filter, order, the chosen problem.
    pub(crate) problems: problems::ProblemList,
    /// The features, world panels' and overlays' parts, each owning its state.
    pub(crate) parts: parts::Parts,
}

/// How the moves setting reads in the UI.
pub fn moves_name(c: Connectivity) -> &'static str {
    match c {
        Connectivity::Eight => "8 moves (diagonals without corner cutting)",
        Connectivity::Four => "4 moves (no diagonals)",
    }
}

/// How the terrain rule reads in the UI.
pub fn rule_name(r: TerrainRule) -> &'static str {
    match r {
        TerrainRule::Class => "terrain classes (MovingAI)",
        TerrainRule::GroundOnly => "ground only (. and G)",
    }
}

impl PathlabApp {
    /// The app on the built-in map (or `opts.file`), with A* ready to step.
    pub fn new(opts: Options) -> PathlabApp {
        let (grid, start, goal) = crate::builtin::default_world();
        let doc = Document::new(grid, start, goal, None);
        let space = doc.space();
        let mut app = PathlabApp {
            work: Workspace {
                doc,
                space,
                views: vec![],
                cursor: 0,
                resume: None,
                next_serial: 1,
                converted_from: vec![],
                seen_tiles: vec![],
                doc_serial: 0,
            },
            cam: Camera::default(),
            edit: Default::default(),
            play: Default::default(),
            display: Default::default(),
            generator: Default::default(),
            files: state::FileState::new(opts.no_portal || files::portal_missing()),
            shots: Default::default(),
            status: "Ready: Space plays, Right steps, Left steps back, F1 explains colours, algorithms and keys"
                .into(),
            prompt: None,
            opts: opts.clone(),
            frame: 0,
            startup_error: None,
            quit_now: false,
            problems: Default::default(),
            parts: Default::default(),
        };
        app.work.seen_tiles = app.work.doc.grid.tiles().to_vec();
        let first = opts.algo.as_deref().map(AlgoChoice::from_spec);
        app.add_view(match first {
            Some(Ok(c)) => c,
            _ => AlgoChoice::named("astar"),
        });
        // The command line's options, as the commands a user would give.
        for spec in &opts.beside {
            if let Ok(c) = AlgoChoice::from_spec(spec) {
                app.apply(Command::AddView(c));
            }
        }
        if let Some(f) = &opts.file {
            if let Err(e) = app.open_now(f) {
                app.status = e.clone();
                app.startup_error = Some(e);
            }
        }
        if opts.scene3d {
            app.apply(Command::OpenScene3d);
        }
        if let Some(i) = opts.example {
            app.open_example(i);
        }

        if cfg!(target_arch = "wasm32") {
            // A page's recovery file is in the browser's local storage.
            #[cfg(target_arch = "wasm32")]
            if web_files::stored(web_files::RECOVERY_KEY).is_some() && opts.lesson.is_none() {
                app.prompt = Some(Prompt::Recover);
            }
        } else if opts.screenshot.is_none() && !opts.scrub_test {
            // Each running instance owns one recovery slot, so a second window never offers
            // to restore (and so take over) the first one's unsaved work.
            let base = opts
                .recovery_file
                .clone()
                .unwrap_or_else(files::recovery_path);
            app.files.recovery = Some(files::claim_recovery(&base));
            if app.recovery_file().is_file() {
                app.prompt = Some(Prompt::Recover);
            }
        }
        app
    }

    /// Draws the app into `ui` and handles input: the window, the screenshot mode and the tests
    /// all call this.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let t0 = Instant::now();
        let ctx = ui.ctx().clone();
        let dt = ui.input(|i| i.stable_dt).min(0.1);
        let mut laps = Laps::new(self.opts.frame_log);
        if self.frame == 0 {
            // --compare-knowledge, once the file named on the command line is open.
            if let Some(levels) = self.opts.compare_knowledge.clone() {
                self.apply(Command::CompareKnowledge(levels));
            }
            if let Some((views, agents)) = self.opts.crowd.clone() {
                self.apply(Command::Crowd(crowd_view::CrowdCommand::Run(views, agents)));
            }
            // Once: the first frame may be laid out twice, and a lesson's setup opens maps.
            let started = self.parts.of::<features::lesson::Lessons>().started;
            if let Some(n) = self.opts.lesson.filter(|_| !started) {
                self.start_lesson(n.saturating_sub(1), 0);
            }
            for t in self.opts.traces.clone() {
                self.apply(Command::OpenTrace(Some(t)));
            }
            for w in self.opts.windows.clone() {
                self.open_part(&w);
            }
            if self.opts.vehicle {
                self.apply(Command::OpenPart("vehicle"));
                self.apply(Command::Vehicle(vehicle::VehicleCommand::Plan));
            }
        }
        let title = format!("pathlab — {}", self.work.doc.title());
        if title != self.display.title_sent {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.display.title_sent = title;
        }
        self.shortcuts(&ctx);
        self.pump_runs(ui.input(|i| i.unstable_dt));
        laps.lap("search");
        self.advance_play(dt);
        self.parts_turn(|p, cx| p.update(cx, dt));
        if self.opts.scrub_test {
            self.scrub_step();
        }
        laps.lap("script");
        self.poll_dialog(&ctx);
        self.dropped_files(&ctx);
        self.write_recovery();
        laps.lap("files");
        panels::menu_bar(self, ui);
        bottom::status_bar(self, ui);
        bottom::timeline(self, ui);
        panels::left(self, ui);
        laps.lap("left");
        inspector::right(self, ui);
        laps.lap("right");
        egui::CentralPanel::no_frame().show(ui, |ui| self.centre(ui));
        laps.lap("canvas");
        laps.report(16.0);
        panels::prompts(self, &ctx);
        if self.display.show_help {
            help::show(self, &ctx);
        }
        self.parts_turn(|p, cx| p.windows(cx, &ctx));
        if self.searching()
            || self.play.playing
            || self.parts.iter().any(|p| p.wants_repaint())
            || self.files.dialog.is_some()
            || self.opts.scrub_test
            // A scripted screenshot counts frames: they must come without input.
            || self.opts.screenshot.is_some()
        {
            ctx.request_repaint();
        }
        self.frame += 1;
        if self.opts.frame_log {
            self.log_frame(t0);
        }
    }
}

impl PathlabApp {
    /// Gives every part its turn with `f`, then does what they asked.
    fn parts_turn(&mut self, mut f: impl FnMut(&mut dyn parts::Part, &mut parts::Cx)) {
        let mut cx = parts::Cx::new(&self.work);
        for p in self.parts.iter_mut() {
            f(&mut **p, &mut cx);
        }
        for c in cx.into_commands() {
            self.apply(c);
        }
    }
}

impl eframe::App for PathlabApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        if let Some(ms) = frame.info().cpu_usage.filter(|_| self.opts.frame_log) {
            self.shots.frame_log.cpu_ms.push(ms * 1000.0);
        }
        // A scripted screenshot closes the window itself: never ask then (a lesson or a
        // conversion may have left an unsaved document; the recovery file keeps it).
        let scripted = self.opts.screenshot.is_some();
        if ctx.input(|i| i.viewport().close_requested())
            && self.work.doc.dirty
            && !self.quit_now
            && !scripted
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.prompt = Some(Prompt::Discard(PendingAction::Quit));
        }
        self.show(ui);
        self.screenshots(&ctx);
        if self.quit_now {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    /// Panels are drawn without their own fill (see `panels::frame`): the window is cleared to
    /// the panel colour instead, one layer of pixels fewer for a software renderer.
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, "settings", &Settings::of(self));
    }
}

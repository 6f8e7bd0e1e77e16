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
mod ui;
mod views;
mod workspace;
mod worlds;

// The parts by their own names, so a part reaches another as `crate::app::canvas` wherever
// either lives.
use features::{agent, crowd, crowd_view, experiment, flight, vehicle};
use ui::{bottom, help, inspector, palette, panels, path_prompt, world_panels};
use views::{camera, canvas, canvas_draw, legend, texture, view3d, view3d_gl, view3d_mesh};
use workspace::Workspace;
use workspace::{
    choice, document, envelope, file_actions, files, oracle, prepared, problems, run, timeline,
};
use worlds::{knowledge, view_world};

pub use command::Command;
pub use document::{Document, Touched};
pub use features::agent::AgentCommand;
pub use features::crowd_view::CrowdCommand;
pub use features::experiment::ExperimentCommand;
pub use features::flight::FlightCommand;
pub use features::lesson::{LessonCommand, Lessons};
pub use features::vehicle::VehicleCommand;
pub use files::DialogPurpose;
pub use launch::{run, Options};
pub use legend::legend_names;
pub use problems::{Order as ProblemOrder, ProblemList};
pub use run::{AlgoChoice, Breakpoints, Run};
pub use view_world::ViewWorld;

use crate::map::Cell;
use crate::space::{Connectivity, TerrainRule};
use canvas::Camera;
use eframe::egui;
use files::PendingDialog;
use scripted::{FrameLog, Laps};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use texture::MapTexture;

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
            recent: app.recent.clone(),
            speed: app.speed,
            max_speed: app.max_speed,
            step_n: app.step_n,
            show_legend: app.show_legend,
            material: app.material,
            lessons_offered: true,
        }
    }

    /// Applies saved settings to an app that may already have opened a file (from the command
    /// line): that file stays first among the recent ones.
    pub fn apply(self, app: &mut PathlabApp) {
        let mut recent = std::mem::take(&mut app.recent);
        for p in self.recent {
            if !recent.contains(&p) {
                recent.push(p);
            }
        }
        recent.truncate(8);
        app.recent = recent;
        app.speed = self.speed.clamp(1.0, 20000.0);
        app.max_speed = self.max_speed;
        app.step_n = self.step_n.clamp(1, 1_000_000);
        app.show_legend = self.show_legend;
        app.material = self.material;
    }
}

/// Cells and their values, as a brush stroke collects them.
type CellList = Vec<(u32, u32, Cell)>;

/// The open-list view's rows (node, f, g), cached for one (run serial, step).
type BestOpen = ((u64, usize), Vec<(u32, f32, f32)>);

/// The whole app state.
pub struct PathlabApp {
    /// The document, its world, the runs and the timeline's cursor.
    pub(crate) work: Workspace,
    pub(crate) cam: Camera,
    pub(crate) tool: Tool,
    pub(crate) material: u8,
    /// The view the inspector, the open list and the status line speak of: the one under the
    /// pointer, else the last one hovered or clicked.
    pub(crate) active: usize,
    pub(crate) playing: bool,
    /// Expansions per second while playing.
    pub(crate) speed: f32,
    pub(crate) max_speed: bool,
    /// Steps taken by the ×N buttons and Shift+arrows.
    pub(crate) step_n: usize,
    pub(crate) sync: Sync,
    pub(crate) diff: bool,
    /// Draw each found path rubber-banded too (View menu).
    pub(crate) smoothed: bool,
    pub(crate) breakpoints: Breakpoints,
    pub(crate) status: String,
    pub(crate) selected: Option<(u32, u32)>,
    hover: Option<(u32, u32)>,
    /// The cell under the pointer, and the one clicked, in a view of its own world (hexes of
    /// the square map, a knowledge level): its index and the cell in its own grid.
    pub(crate) world_hover: Option<(usize, (u32, u32))>,
    pub(crate) world_selected: Option<(usize, (u32, u32))>,
    /// Cells painted by the current drag, and what they were.
    stroke: Option<(CellList, CellList)>,
    rect_from: Option<(u32, u32)>,
    /// Pointer cell of the brush stroke's last frame.
    brush_last: Option<(u32, u32)>,
    dragging_endpoint: Option<bool>,
    /// Where the dragged endpoint would land: its disc follows the pointer there.
    drag_to: Option<(bool, (u32, u32))>,
    play_acc: f64,
    /// Microseconds of each frame given to searching (see `pump_runs`).
    search_budget_us: u64,
    pub(crate) show_help: bool,
    /// Bottom edge of the menu bar: windows open below it.
    pub(crate) menu_bottom: f32,
    pub(crate) show_legend: bool,
    pub(crate) gen_seed: u64,
    pub(crate) gen_size: (u32, u32),
    pub(crate) gen_density: f64,
    pub(crate) gen_room: u32,
    pub(crate) gen_corridor: u32,
    pub(crate) recent: Vec<PathBuf>,
    dialog: Option<PendingDialog>,
    /// The path field standing in for the native dialog.
    path_prompt: Option<path_prompt::PathPrompt>,
    /// No native dialog can open in this session: file questions go to the path field.
    no_portal: bool,
    /// The recovery slot this instance owns (locked while it runs).
    recovery: Option<files::RecoverySlot>,
    prompt: Option<Prompt>,
    recovery_written: u64,
    recovery_at: Instant,
    recovery_job: Option<jobs::Job<Result<(), String>>>,
    opts: Options,
    frame: u32,
    /// The window title last sent: sending one asks for a repaint, so it goes only on change.
    title_sent: String,
    shot: Arc<Mutex<Option<Arc<egui::ColorImage>>>>,
    shot_target: Option<(PathBuf, Option<egui::Rect>)>,
    shot_requested: bool,
    pub(crate) canvas_rect: Option<egui::Rect>,
    /// Where each view was drawn on the last frame.
    pub(crate) view_rects: Vec<egui::Rect>,
    /// Where the legend strip was drawn on the last frame.
    pub(crate) legend_rect: Option<egui::Rect>,
    failure: Arc<Mutex<Option<String>>>,
    /// Why the file named on the command line did not open.
    pub(crate) startup_error: Option<String>,
    frame_log: FrameLog,
    space_panned: bool,
    best_open_cache: Option<BestOpen>,
    quit_now: bool,
    /// Cells the world changed last (agents walking), and when: the canvas flashes them.
    pub(crate) flash: (Vec<(u32, u32)>, Instant),
    /// The scenario's problem list: filter, order, the chosen problem.
    pub(crate) problems: problems::ProblemList,
    /// The features, world panels' and overlays' parts, each owning its state.
    pub(crate) parts: parts::Parts,
}

const SPEED_DEFAULT: f32 = 20.0;

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
            tool: Tool::Select,
            material: b'@',
            active: 0,
            playing: false,
            speed: SPEED_DEFAULT,
            max_speed: false,
            step_n: 10,
            sync: Sync::Shared,
            diff: false,
            smoothed: false,
            breakpoints: Breakpoints::default(),
            status: "Ready: Space plays, Right steps, Left steps back, F1 explains colours, algorithms and keys"
                .into(),
            selected: None,
            hover: None,
            world_hover: None,
            world_selected: None,
            stroke: None,
            rect_from: None,
            brush_last: None,
            dragging_endpoint: None,
            drag_to: None,
            play_acc: 0.0,
            search_budget_us: 4000,
            show_help: false,
            menu_bottom: 24.0,
            show_legend: true,
            gen_seed: 1,
            gen_size: (64, 48),
            gen_density: 0.3,
            gen_room: 8,
            gen_corridor: 2,
            recent: vec![],
            dialog: None,
            path_prompt: None,
            no_portal: opts.no_portal || files::portal_missing(),
            recovery: None,
            prompt: None,
            recovery_written: 0,
            recovery_at: Instant::now(),
            recovery_job: None,
            opts: opts.clone(),
            frame: 0,
            title_sent: String::new(),
            shot: Arc::default(),
            shot_target: None,
            shot_requested: false,
            canvas_rect: None,
            view_rects: vec![],
            legend_rect: None,
            failure: Arc::default(),
            startup_error: None,
            frame_log: FrameLog::default(),
            space_panned: false,
            best_open_cache: None,
            quit_now: false,
            problems: Default::default(),
            parts: Default::default(),
            flash: (vec![], Instant::now()),
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

        if opts.screenshot.is_none() && !opts.scrub_test {
            // Each running instance owns one recovery slot, so a second window never offers
            // to restore (and so take over) the first one's unsaved work.
            let base = opts
                .recovery_file
                .clone()
                .unwrap_or_else(files::recovery_path);
            app.recovery = Some(files::claim_recovery(&base));
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
            if self.opts.vehicle {
                self.apply(Command::OpenPart("vehicle"));
                self.apply(Command::Vehicle(vehicle::VehicleCommand::Plan));
            }
        }
        let title = format!("pathlab — {}", self.work.doc.title());
        if title != self.title_sent {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title_sent = title;
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
        if self.show_help {
            help::show(self, &ctx);
        }
        self.parts_turn(|p, cx| p.windows(cx, &ctx));
        if self.searching()
            || self.playing
            || self.parts.iter().any(|p| p.wants_repaint())
            || self.dialog.is_some()
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
            self.frame_log.cpu_ms.push(ms * 1000.0);
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

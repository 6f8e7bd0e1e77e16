//! The desktop app: a map editor with stepping search views side by side.
//!
//! Layout (docs UI.md): menus on top; tools, generators and the algorithm on the left; one to
//! four views in the centre; inspector, statistics and plots on the right; the timeline at the
//! bottom. State lives in [`PathlabApp`]; `show` draws it into any `Ui`, so the window, the
//! headless screenshot and the egui_kittest tests run the same code.

mod agent;
mod canvas;
mod document;
mod envelope;
mod experiment;
mod files;
mod help;
mod palette;
mod panels;
mod path_prompt;
mod problems;
mod run;
mod texture;

pub use canvas::legend_names;
pub use document::{Document, Touched};
pub use files::DialogPurpose;
pub use problems::{Order as ProblemOrder, ProblemList};
pub use run::{AlgoChoice, Breakpoints, Run};

use crate::map::{Cell, Edit};
use crate::search::Query;
use crate::space::{Connectivity, GridSpace, TerrainRule};
use canvas::{Camera, Gesture};
use eframe::egui;
use files::PendingDialog;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use texture::MapTexture;

/// How the app was started.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// File to open instead of the built-in map.
    pub file: Option<PathBuf>,
    /// Write a PNG of the window after `frames` frames, then exit.
    pub screenshot: Option<PathBuf>,
    pub frames: u32,
    /// Print frame times to stderr.
    pub frame_log: bool,
    /// Scripted scrubbing and painting, for frame-time measurements.
    pub scrub_test: bool,
    /// Recovery file (default: [`files::recovery_path`]); a second instance running beside
    /// another takes the next free slot next to it (`recovery-1.ron` …).
    pub recovery_file: Option<PathBuf>,
    /// Never try the native file dialog: ask for paths in the app (as when there is no desktop
    /// portal, which is also detected).
    pub no_portal: bool,
}

/// Opens the window and blocks until it is closed.
pub fn run(opts: Options) -> Result<(), String> {
    // With software rendering (Mesa's llvmpipe: CI, virtual machines, no GPU), every egui shape
    // samples the font atlas, which egui marks for bilinear filtering. Nearest filtering draws
    // the same pixels, because egui aligns glyphs and shapes to the pixel grid (a screenshot
    // differs in about 400 pixels, all on anti-aliased disc edges), and saves 2 to 3 ms a frame
    // at 1280 × 800. A big map shrunk to fit is then sampled nearest too. Other drivers ignore
    // the variable, and a value the user set is kept. Set before any thread starts.
    if std::env::var_os("LP_PERF").is_none() {
        std::env::set_var("LP_PERF", "no_linear");
    }
    let mut native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("pathlab")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 420.0])
            .with_drag_and_drop(true),
        // Headless screenshots and frame-time checks must not reuse a window size saved by an
        // earlier session.
        persist_window: opts.screenshot.is_none() && !opts.scrub_test,
        // The palette is flat colours, which need no dithering; with software rendering the
        // per-pixel noise cost about 1.5 ms a frame at 1280 × 800.
        dithering: false,
        ..Default::default()
    };
    // Frame-time checks measure the app, not the wait for the display's refresh.
    native.glow_options.vsync = !(opts.frame_log || opts.scrub_test);
    let failed: Arc<Mutex<Option<String>>> = Arc::default();
    let fail = failed.clone();
    eframe::run_native(
        "pathlab",
        native,
        Box::new(move |cc| {
            let mut app = PathlabApp::new(opts);
            // A file named on the command line that did not load: said on stderr now, and in
            // screenshot and scrub modes the exit code says so too.
            if let Some(e) = &app.startup_error {
                if app.opts.screenshot.is_some() || app.opts.scrub_test {
                    // `main` prints it as the run ends.
                    if let Ok(mut f) = fail.lock() {
                        *f = Some(e.clone());
                    }
                    cc.egui_ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                } else {
                    eprintln!("pathlab: {e}");
                }
            }
            app.failure = fail;
            if let Some(storage) = cc.storage {
                if let Some(saved) = eframe::get_value::<Settings>(storage, "settings") {
                    saved.apply(&mut app);
                }
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| format!("cannot open the window: {e}"))?;
    let failure = failed.lock().map(|f| f.clone()).unwrap_or(None);
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

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
}

/// Where the shared step cursor goes while restarted runs record again.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Resume {
    /// Back to this step, or as far as the new runs get.
    Step(usize),
    /// To the end of the new runs (the cursor was at the end of the old ones).
    End,
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
}

#[derive(Clone, Debug, PartialEq)]
enum PendingAction {
    Open(Option<PathBuf>),
    New,
    Quit,
}

/// Section times of one update, printed for slow frames with `--frame-log`.
struct Laps {
    on: bool,
    t: Instant,
    start: Instant,
    laps: Vec<(&'static str, f32)>,
}

impl Laps {
    fn new(on: bool) -> Laps {
        let now = Instant::now();
        Laps {
            on,
            t: now,
            start: now,
            laps: vec![],
        }
    }

    fn lap(&mut self, name: &'static str) {
        if self.on {
            let now = Instant::now();
            self.laps
                .push((name, (now - self.t).as_secs_f32() * 1000.0));
            self.t = now;
        }
    }

    fn report(&self, over_ms: f32) {
        if self.on && self.start.elapsed().as_secs_f32() * 1000.0 > over_ms {
            let parts: Vec<String> = self
                .laps
                .iter()
                .map(|(n, ms)| format!("{n} {ms:.1}"))
                .collect();
            eprintln!("slow update (ms): {}", parts.join(", "));
        }
    }
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

/// Frame-time statistics for `--frame-log`.
#[derive(Default)]
struct FrameLog {
    last: Option<Instant>,
    ui_ms: Vec<f32>,
    gap_ms: Vec<f32>,
    /// eframe's measure of the previous frame: update plus painting, without vsync waits.
    cpu_ms: Vec<f32>,
    /// Frame intervals logged so far, and how many of them took longer than 16 ms.
    gaps: usize,
    over: usize,
}

/// The whole app state.
pub struct PathlabApp {
    pub doc: Document,
    pub space: GridSpace,
    pub views: Vec<View>,
    pub cam: Camera,
    pub tool: Tool,
    pub material: u8,
    /// Steps shown (shared cursor). The one truth of the timeline: after every frame each
    /// view shows `min(cursor, its steps)`, and `cursor <= max_steps()`.
    pub cursor: usize,
    /// Set when runs restart: where the cursor returns as they record again.
    resume: Option<Resume>,
    /// The view the inspector, the open list and the status line speak of: the one under the
    /// pointer, else the last one hovered or clicked.
    pub active: usize,
    pub playing: bool,
    /// Expansions per second while playing.
    pub speed: f32,
    pub max_speed: bool,
    /// Steps taken by the ×N buttons and Shift+arrows.
    pub step_n: usize,
    pub sync: Sync,
    pub diff: bool,
    pub breakpoints: Breakpoints,
    pub status: String,
    pub selected: Option<(u32, u32)>,
    hover: Option<(u32, u32)>,
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
    next_serial: u64,
    pub show_help: bool,
    /// Bottom edge of the menu bar: windows open below it.
    pub menu_bottom: f32,
    pub show_legend: bool,
    pub gen_seed: u64,
    pub gen_size: (u32, u32),
    pub gen_density: f64,
    pub gen_room: u32,
    pub gen_corridor: u32,
    pub recent: Vec<PathBuf>,
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
    recovery_job: Option<std::thread::JoinHandle<Result<(), String>>>,
    opts: Options,
    frame: u32,
    shot: Arc<Mutex<Option<Arc<egui::ColorImage>>>>,
    shot_target: Option<(PathBuf, Option<egui::Rect>)>,
    shot_requested: bool,
    pub canvas_rect: Option<egui::Rect>,
    /// Where each view was drawn on the last frame.
    pub view_rects: Vec<egui::Rect>,
    /// Where the legend strip was drawn on the last frame.
    pub legend_rect: Option<egui::Rect>,
    failure: Arc<Mutex<Option<String>>>,
    /// Why the file named on the command line did not open.
    pub startup_error: Option<String>,
    frame_log: FrameLog,
    space_panned: bool,
    best_open_cache: Option<BestOpen>,
    quit_now: bool,
    /// Run ▸ Dynamic experiment.
    pub experiment: experiment::ExperimentWindow,
    /// The tiles as the runs last saw them: an edit's old cells come from here.
    seen_tiles: Vec<u8>,
    /// Agents crossing the map while it changes.
    pub sim: agent::AgentSim,
    /// Cells the world changed last (agents walking), and when: the canvas flashes them.
    pub flash: (Vec<(u32, u32)>, Instant),
    /// The scenario's problem list: filter, order, the chosen problem.
    pub problems: problems::ProblemList,
    /// Bumped whenever the document is replaced (caches keyed on it start over).
    doc_serial: u64,
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
        let space = GridSpace::octile(&doc.grid);
        let mut app = PathlabApp {
            doc,
            space,
            views: vec![],
            cam: Camera::default(),
            tool: Tool::Select,
            material: b'@',
            cursor: 0,
            resume: None,
            active: 0,
            playing: false,
            speed: SPEED_DEFAULT,
            max_speed: false,
            step_n: 10,
            sync: Sync::Shared,
            diff: false,
            breakpoints: Breakpoints::default(),
            status: "Ready: Space plays, Right steps, Left steps back, F1 explains colours, algorithms and keys"
                .into(),
            selected: None,
            hover: None,
            stroke: None,
            rect_from: None,
            brush_last: None,
            dragging_endpoint: None,
            drag_to: None,
            play_acc: 0.0,
            search_budget_us: 4000,
            next_serial: 1,
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
            experiment: Default::default(),
            seen_tiles: vec![],
            sim: Default::default(),
            problems: Default::default(),
            flash: (vec![], Instant::now()),
            doc_serial: 0,
        };
        app.seen_tiles = app.doc.grid.tiles().to_vec();
        app.add_view(AlgoChoice::named("astar"));
        if let Some(f) = &opts.file {
            if let Err(e) = app.open_now(f) {
                app.status = e.clone();
                app.startup_error = Some(e);
            }
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

    /// Where unsaved work is written: this instance's recovery slot.
    pub fn recovery_file(&self) -> PathBuf {
        match &self.recovery {
            Some(slot) => slot.path.clone(),
            None => self
                .opts
                .recovery_file
                .clone()
                .unwrap_or_else(files::recovery_path),
        }
    }

    /// True while a file question (native dialog or path field) is open.
    pub fn asking_file(&self) -> bool {
        self.dialog.is_some() || self.path_prompt.is_some()
    }

    /// The typed-path field, while it stands in for the native dialog: its text and purpose.
    pub fn path_field(&mut self) -> Option<&mut String> {
        self.path_prompt.as_mut().map(|p| &mut p.text)
    }

    /// The folder file questions start in: the document's, else the last file's, else the
    /// working folder.
    fn file_folder(&self) -> PathBuf {
        self.doc
            .path
            .as_ref()
            .or(self.recent.first())
            .and_then(|p| p.parent())
            .filter(|p| p.is_dir())
            .map(std::path::Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."))
    }

    /// Asks for a file for `purpose`: the native dialog, or the path field where none can
    /// open. One question at a time.
    pub fn ask_file(&mut self, purpose: DialogPurpose, suggested: &str) {
        if self.asking_file() {
            return;
        }
        if self.no_portal {
            self.path_prompt = Some(path_prompt::PathPrompt::new(
                purpose,
                self.file_folder(),
                suggested,
            ));
        } else {
            self.dialog = Some(PendingDialog::spawn(purpose, suggested));
        }
    }

    /// Removes the recovery file (after a save, or when the user discards it).
    pub fn clear_recovery(&mut self) {
        self.flush_recovery();
        let _ = std::fs::remove_file(self.recovery_file());
    }

    fn query(&self) -> Query {
        let node = |p: (u32, u32)| self.space.node(p.0, p.1).unwrap_or(0);
        Query {
            start: node(self.doc.start),
            goal: node(self.doc.goal),
        }
    }

    /// Adds a view running `choice` (at most four).
    pub fn add_view(&mut self, choice: AlgoChoice) {
        if self.views.len() >= 4 {
            return;
        }
        match Run::new(choice, &self.space, self.query()) {
            Ok(run) => {
                let serial = self.bump();
                self.views.push(View {
                    run,
                    tex: MapTexture::default(),
                    serial,
                });
            }
            Err(e) => self.status = e,
        }
    }

    fn bump(&mut self) -> u64 {
        self.next_serial += 1;
        self.next_serial
    }

    /// Sets the algorithm of view `i` and restarts it.
    pub fn set_algorithm(&mut self, i: usize, choice: AlgoChoice) {
        if i < self.views.len() {
            self.views[i].run.choice = choice;
            self.restart_view(i);
        }
    }

    /// Restarts view `i`'s search on the current map, reusing its memory.
    fn rerun_view(&mut self, i: usize) {
        let q = self.query();
        let serial = self.bump();
        let v = &mut self.views[i];
        v.run.restart(&self.space, q);
        v.serial = serial;
    }

    fn restart_view(&mut self, i: usize) {
        let target = self.resume_target();
        let q = self.query();
        let choice = self.views[i].run.choice.clone();
        match Run::new(choice, &self.space, q) {
            Ok(run) => {
                self.views[i].run = run;
                self.views[i].serial = self.bump();
            }
            Err(e) => self.status = e,
        }
        self.resume = Some(target);
        self.settle_cursor();
    }

    /// Where the cursor should return once runs restart: the end if it was at the end of
    /// finished runs, else the step it was at.
    fn resume_target(&self) -> Resume {
        match self.resume {
            Some(r) => r,
            None if self.cursor > 0 && self.cursor >= self.max_steps() && !self.searching() => {
                Resume::End
            }
            None => Resume::Step(self.cursor),
        }
    }

    /// Restores the timeline's one truth: the cursor follows a pending [`Resume`] (or is
    /// clamped to what is recorded), and every view shows `min(cursor, its steps)`.
    fn settle_cursor(&mut self) {
        let max = self.max_steps();
        match self.resume {
            Some(Resume::End) => {
                self.cursor = max;
                if !self.searching() {
                    self.resume = None;
                }
            }
            Some(Resume::Step(n)) => {
                self.cursor = n.min(max);
                if max >= n || !self.searching() {
                    self.resume = None;
                }
            }
            None => self.cursor = self.cursor.min(max),
        }
        if self.sync == Sync::Completed {
            self.cursor = max;
            for v in &mut self.views {
                let end = v.run.steps();
                v.run.set_shown(end);
            }
        } else {
            for v in &mut self.views {
                v.run.set_shown(self.cursor);
            }
        }
    }

    /// Restarts every run (after an edit): the step cursor returns to where it was (or to the
    /// end, if it was there) as the new runs record.
    pub fn restart_all(&mut self) {
        let target = self.resume_target();
        self.seen_tiles = self.doc.grid.tiles().to_vec();
        for i in 0..self.views.len() {
            self.rerun_view(i);
        }
        self.best_open_cache = None;
        self.resume = Some(target);
        self.settle_cursor();
    }

    /// Reacts to a document change: rebuilds the affected part of the space, restarts runs.
    fn touched(&mut self, t: Touched) {
        match t {
            Touched::Cells(Some(r))
                if self.space.width() == self.doc.grid.width()
                    && self.space.height() == self.doc.grid.height() =>
            {
                self.cells_changed(r);
                return;
            }
            Touched::Cells(_) => {
                let (c, rule) = self.space.rules();
                self.space = GridSpace::new(&self.doc.grid, c, rule);
                self.cam.fit_pending = true;
            }
            Touched::Endpoints => {}
        }
        self.restart_all();
    }

    /// Cells inside `r` changed (same map size): the space is updated; incremental algorithms
    /// repair in place, the change and the repair joining their timeline; the others start
    /// again. A cursor that was at the end stays at the end.
    fn cells_changed(&mut self, r: crate::map::Rect) {
        self.agents_user_edited(r);
        self.space.update(&self.doc.grid, Some(r));
        let target = self.resume_target();
        let around = self.space.around(r);
        let tiles = self.doc.grid.tiles();
        if self.seen_tiles.len() != tiles.len() {
            self.seen_tiles = tiles.to_vec();
        }
        let w = self.doc.grid.width() as usize;
        let mut cells = vec![];
        for y in r.y as usize..(r.y + r.h) as usize {
            for x in r.x as usize..(r.x + r.w) as usize {
                let i = y * w + x;
                if let (Some(&new), Some(old)) = (tiles.get(i), self.seen_tiles.get_mut(i)) {
                    if *old != new {
                        cells.push((i, *old, new));
                        *old = new;
                    }
                }
            }
        }
        for i in 0..self.views.len() {
            if !self.views[i]
                .run
                .repair(&self.space, &around, cells.clone())
            {
                self.rerun_view(i);
            }
        }
        self.best_open_cache = None;
        self.resume = Some(target);
        if target == Resume::End {
            self.to_end();
        } else {
            self.settle_cursor();
        }
    }

    /// Replaces the document (open, new, generate).
    fn set_document(&mut self, doc: Document) {
        self.agents_stop();
        self.sim.blocks = None;
        self.doc = doc;
        self.doc_serial += 1;
        self.problems.chosen = None;
        self.space = GridSpace::new(&self.doc.grid, self.doc.moves, self.doc.rule);
        self.cam.fit_pending = true;
        self.cursor = 0;
        self.resume = None;
        self.playing = false;
        self.selected = None;
        self.active = 0;
        self.restart_all();
    }

    /// Opens a file now (no prompt).
    pub fn open_now(&mut self, path: &std::path::Path) -> Result<(), String> {
        let l = files::load(path)?;
        let (w, h) = (l.grid.width(), l.grid.height());
        let start = l.start.unwrap_or((w / 8, h / 2));
        let goal = l.goal.unwrap_or((w - 1 - w / 8, h / 2));
        let mut doc = Document::new(l.grid, start, goal, l.path.clone());
        // A scenario opens on its first problem: mark it chosen.
        let first_problem = l
            .problems
            .first()
            .is_some_and(|p| Some(p.start) == l.start && Some(p.goal) == l.goal)
            .then_some(0);
        doc.problems = l.problems;
        // A project brings its own moves and terrain rule; other files keep the current ones.
        (doc.moves, doc.rule) = l.rules.unwrap_or((self.doc.moves, self.doc.rule));
        self.set_document(doc);
        self.problems.chosen = first_problem;
        if !l.algorithms.is_empty() {
            self.views.clear();
            for a in l.algorithms.iter().take(4) {
                let mut c = AlgoChoice::named(&a.name);
                for (k, v) in &a.params {
                    c.values.insert(k.clone(), *v);
                }
                self.add_view(c);
            }
        }
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_path_buf());
        self.recent.truncate(8);
        self.status = format!(
            "Opened {} ({w}×{h}{})",
            path.display(),
            if self.doc.problems.is_empty() {
                String::new()
            } else {
                format!(", {} problems", self.doc.problems.len())
            }
        );
        Ok(())
    }

    /// Searches problem `i` of the scenario: start and goal move there (not an edit: the map
    /// stays saved), and every run starts again.
    pub fn choose_problem(&mut self, i: usize) {
        let Some(p) = self.doc.problems.get(i) else {
            return;
        };
        let (s, g, opt) = (p.start, p.goal, p.optimal);
        self.agents_stop();
        self.doc.set_endpoints_quiet(s, g);
        self.problems.chosen = Some(i);
        self.touched(Touched::Endpoints);
        self.status = format!(
            "Problem #{i}: ({}, {}) to ({}, {}), optimal length {opt:.3}",
            s.0, s.1, g.0, g.1
        );
    }

    /// Sets the moves and terrain rule the searches use: the space is rebuilt and every run
    /// restarts. A setting saved with the project, so the document counts as changed.
    pub fn set_rules(&mut self, moves: Connectivity, rule: TerrainRule) {
        if (moves, rule) == (self.doc.moves, self.doc.rule) {
            return;
        }
        self.agents_stop();
        (self.doc.moves, self.doc.rule) = (moves, rule);
        self.doc.dirty = true;
        self.doc.revision += 1;
        self.space = GridSpace::new(&self.doc.grid, moves, rule);
        self.restart_all();
        self.status = format!(
            "Searches now use {} and {}",
            moves_name(moves),
            rule_name(rule)
        );
    }

    /// Applies an edit from the editor (undoable) and restarts the runs.
    pub fn edit(&mut self, e: Edit) {
        match self.doc.apply(e) {
            Ok(t) => self.touched(t),
            Err(e) => self.status = e,
        }
    }

    /// Undo the last change.
    pub fn undo(&mut self) {
        match self.doc.undo() {
            Some(t) => {
                self.touched(t);
                self.status = "Undone".into();
            }
            None => self.status = "Nothing to undo".into(),
        }
    }

    /// Redo the last undone change.
    pub fn redo(&mut self) {
        match self.doc.redo() {
            Some(t) => {
                self.touched(t);
                self.status = "Redone".into();
            }
            None => self.status = "Nothing to redo".into(),
        }
    }

    /// The largest step any view has recorded.
    pub fn max_steps(&self) -> usize {
        self.views.iter().map(|v| v.run.steps()).max().unwrap_or(0)
    }

    /// True while some run is still searching.
    pub fn searching(&self) -> bool {
        self.views.iter().any(|v| !v.run.finished())
    }

    /// Moves the shared cursor to step `s` (clamped), stopping at breakpoints when moving
    /// forward by more than one step if `check` is set.
    pub fn go_to(&mut self, s: usize, check: bool) {
        // The user moved the cursor: a pending return after a restart is dropped.
        self.resume = None;
        let s = s.min(self.max_steps());
        let mut target = s;
        if check && s > self.cursor {
            let mut hit: Option<(usize, String)> = None;
            for v in &self.views {
                if let Some(b) = v.run.first_break(self.cursor, s, &self.breakpoints) {
                    if hit.as_ref().is_none_or(|h| b.0 < h.0) {
                        hit = Some(b);
                    }
                }
            }
            if let Some((at, why)) = hit {
                target = at;
                self.playing = false;
                self.status = format!("Stopped at step {at}: {why}");
            }
        }
        self.cursor = target;
        self.settle_cursor();
    }

    /// Steps forward `n` expansions (searching further if needed).
    pub fn step_forward(&mut self, n: usize) {
        let want = self.cursor + n;
        for v in &mut self.views {
            while !v.run.finished() && v.run.steps() < want {
                v.run.pump(&self.space, Duration::from_millis(20));
            }
        }
        self.go_to(want, true);
    }

    /// Steps back `n` expansions.
    pub fn step_back(&mut self, n: usize) {
        self.go_to(self.cursor.saturating_sub(n), false);
    }

    /// Runs every search to its end and shows the end.
    pub fn to_end(&mut self) {
        for v in &mut self.views {
            v.run.finish(&self.space);
        }
        self.go_to(self.max_steps(), false);
        self.playing = false;
    }

    /// The view the inspector and the status line speak of.
    pub fn active_view(&self) -> Option<&View> {
        self.views.get(self.active).or(self.views.first())
    }

    /// How the active view is named on screen: its algorithm, with its number when several
    /// views are open.
    pub fn view_name(&self, i: usize) -> String {
        let Some(v) = self.views.get(i) else {
            return String::new();
        };
        if self.views.len() > 1 {
            format!("view {} {}", i + 1, v.run.choice.label())
        } else {
            v.run.choice.label()
        }
    }

    /// A one-line summary of the shared step and the active view, as in the status bar.
    pub fn summary(&self) -> String {
        let Some(v) = self.active_view() else {
            return "no algorithm".into();
        };
        let i = self.active.min(self.views.len() - 1);
        let r = &v.run;
        let at_end = r.shown >= r.steps();
        let state = match r.status() {
            crate::search::Status::Running => "searching…".to_string(),
            crate::search::Status::NeedsReplan => "needs replanning".to_string(),
            crate::search::Status::Found if at_end => match r.cost() {
                Some(c) => format!("path found, cost {c:.3}"),
                None => "path found".to_string(),
            },
            crate::search::Status::NoPath if at_end => "no path".to_string(),
            crate::search::Status::Found | crate::search::Status::NoPath if r.shown == 0 => {
                "at its start".into()
            }
            crate::search::Status::Found | crate::search::Status::NoPath => "expanding".into(),
        };
        let own = if self.views.len() > 1 && r.steps() != self.max_steps() {
            format!(" (its step {} of {})", r.shown, r.steps())
        } else {
            String::new()
        };
        format!(
            "Step {} of {} — {}{own}: {state}",
            self.cursor,
            self.max_steps(),
            self.view_name(i)
        )
    }

    /// Searches a slice of each frame. The slice adapts to the last frame's length: it shrinks
    /// while frames take longer than 14 ms (a 60 Hz frame, with a margin for the frames that run
    /// long) and grows back when they are faster, so a big search after an edit slows down
    /// before the window does.
    fn pump_runs(&mut self, last_frame: f32) {
        if self.searching() {
            self.search_budget_us = if last_frame > 0.014 {
                (self.search_budget_us * 3 / 4).max(500)
            } else {
                (self.search_budget_us + 250).min(8000)
            };
        }
        let budget = Duration::from_micros(self.search_budget_us / self.views.len().max(1) as u64);
        for v in &mut self.views {
            v.run.pump(&self.space, budget);
        }
        self.settle_cursor();
    }

    fn advance_play(&mut self, dt: f32) {
        if !self.playing {
            self.play_acc = 0.0;
            return;
        }
        if self.max_speed {
            self.play_acc += 1e9;
        } else {
            self.play_acc += (self.speed * dt) as f64;
        }
        let n = self.play_acc.floor() as usize;
        if n > 0 {
            self.play_acc -= n as f64;
            let before = self.cursor;
            let want = (self.cursor + n).min(self.max_steps());
            self.go_to(want, true);
            if self.cursor == before && !self.searching() {
                self.playing = false;
                self.status = "End of run".into();
            }
        }
    }

    /// Paints one cell during a brush stroke.
    fn paint(&mut self, c: (u32, u32), tile: u8) {
        let cell = Cell::tile(tile);
        if self.doc.grid.get(c.0, c.1) == Some(cell) {
            return;
        }
        let before = self.doc.grid.get(c.0, c.1).unwrap_or(Cell::FREE);
        if let Ok((_, changed)) = self.doc.apply_unrecorded(&Edit::SetCell {
            x: c.0,
            y: c.1,
            cell,
        }) {
            let s = self.stroke.get_or_insert_with(|| (vec![], vec![]));
            s.0.push((c.0, c.1, cell));
            s.1.push((c.0, c.1, before));
            match changed {
                Some(r) => self.cells_changed(r),
                None => {
                    self.space.update(&self.doc.grid, None);
                    self.restart_all();
                }
            }
        }
    }

    /// Paints the cells on the straight line from the last painted cell of this stroke to `c`,
    /// so a fast drag leaves no gaps.
    fn paint_to(&mut self, c: (u32, u32), tile: u8) {
        let from = self.brush_last.unwrap_or(c);
        for p in line_cells(from, c) {
            self.paint(p, tile);
        }
        self.brush_last = Some(c);
    }

    fn end_stroke(&mut self) {
        self.brush_last = None;
        if let Some((redo, mut undo)) = self.stroke.take() {
            // Restore in reverse order so a cell painted twice gets its first value back.
            undo.reverse();
            self.doc.record_stroke(Edit::Cells(redo), Edit::Cells(undo));
        }
    }

    /// Handles the pointer on the canvas.
    fn gesture(&mut self, g: Gesture, ui: &egui::Ui) {
        self.hover = g.hover;
        if let Some(is_start) = g.grab {
            // Start and goal can be dragged whatever the tool: a press on their disc is never
            // meant as painting.
            self.dragging_endpoint = Some(is_start);
            self.rect_from = None;
        } else if let Some(c) = g.pressed {
            if self.tool == Tool::Rect {
                self.rect_from = Some(c);
            }
        }
        if let Some(is_start) = self.dragging_endpoint {
            if let Some(c) = g.dragging {
                self.drag_to = Some((is_start, c));
            }
            if g.released {
                self.dragging_endpoint = None;
                if let Some((_, c)) = self.drag_to.take() {
                    let c = self.nearest_passable(c, self.snap_radius());
                    self.move_endpoint(is_start, c);
                }
            }
            return;
        }
        if let Some(c) = g.dragging {
            match self.tool {
                Tool::Brush => self.paint_to(c, self.material),
                Tool::Erase => self.paint_to(c, b'.'),
                _ => {}
            }
        }
        if g.released {
            match self.tool {
                Tool::Brush | Tool::Erase => self.end_stroke(),
                Tool::Rect => {
                    if let (Some(a), Some(b)) = (self.rect_from.take(), g.hover) {
                        self.edit(Edit::SetRect {
                            rect: crate::map::Rect::from_corners(a, b),
                            cell: Cell::tile(self.material),
                        });
                    }
                }
                Tool::Select | Tool::Fill => {}
            }
        }
        if let Some(c) = g.clicked {
            match self.tool {
                Tool::Select => self.selected = Some(c),
                Tool::Brush => {
                    self.paint(c, self.material);
                    self.end_stroke();
                }
                Tool::Erase => {
                    self.paint(c, b'.');
                    self.end_stroke();
                }
                Tool::Fill => self.edit(Edit::Fill {
                    x: c.0,
                    y: c.1,
                    cell: Cell::tile(self.material),
                }),
                Tool::Rect => {
                    self.rect_from = None;
                    self.edit(Edit::SetCell {
                        x: c.0,
                        y: c.1,
                        cell: Cell::tile(self.material),
                    });
                }
            }
        }
        if ui.input(|i| i.key_down(egui::Key::Space)) && g.dragging.is_some() {
            self.space_panned = true;
        }
    }

    /// The endpoint being dragged (`true`: start) and the cell its disc is drawn on.
    pub fn dragged_endpoint(&self) -> Option<(bool, (u32, u32))> {
        self.drag_to.filter(|_| self.dragging_endpoint.is_some())
    }

    /// Cells within this many of a drop are searched for a passable one: about 6 pixels, so
    /// an endpoint can be dropped by eye on a map shrunk below a pixel per cell.
    fn snap_radius(&self) -> u32 {
        (6.0 / self.cam.zoom).ceil().clamp(0.0, 64.0) as u32
    }

    /// `c` if the searches may stand on it, else the closest such cell within `radius`
    /// (Chebyshev rings), else `c` (and moving there is refused with a message).
    fn nearest_passable(&self, c: (u32, u32), radius: u32) -> (u32, u32) {
        let ok = |x: i64, y: i64| {
            x >= 0
                && y >= 0
                && self
                    .space
                    .node(x as u32, y as u32)
                    .is_some_and(|n| crate::space::Space::is_passable(&self.space, n))
        };
        let (cx, cy) = (c.0 as i64, c.1 as i64);
        for r in 0..=radius as i64 {
            let mut best: Option<(i64, (u32, u32))> = None;
            for dy in -r..=r {
                for dx in -r..=r {
                    if dx.abs().max(dy.abs()) == r && ok(cx + dx, cy + dy) {
                        let d = dx * dx + dy * dy;
                        if best.is_none_or(|b| d < b.0) {
                            best = Some((d, ((cx + dx) as u32, (cy + dy) as u32)));
                        }
                    }
                }
            }
            if let Some((_, p)) = best {
                return p;
            }
        }
        c
    }

    /// Acts on an entry of a cell's context menu.
    fn menu_action(&mut self, a: canvas::MenuAction, c: (u32, u32)) {
        match a {
            canvas::MenuAction::SetStart => self.move_endpoint(true, c),
            canvas::MenuAction::SetGoal => self.move_endpoint(false, c),
            canvas::MenuAction::Select => self.selected = Some(c),
            canvas::MenuAction::BreakAt => {
                self.breakpoints.node = self.space.node(c.0, c.1);
                self.status = format!("Playing stops when ({}, {}) is expanded", c.0, c.1);
            }
        }
    }

    /// Moves start (`true`) or goal to a free cell (undoable) and restarts the runs.
    pub fn move_endpoint(&mut self, is_start: bool, c: (u32, u32)) {
        // The space's own test, so that under "ground only" swamp and water refuse too.
        let passable = self
            .space
            .node(c.0, c.1)
            .is_some_and(|n| crate::space::Space::is_passable(&self.space, n));
        if !self.doc.is_free(c.0, c.1) || !passable {
            self.status = format!("({}, {}) is blocked", c.0, c.1);
            return;
        }
        if c == if is_start {
            self.doc.goal
        } else {
            self.doc.start
        } {
            self.status = "Start and goal must be different cells".into();
            return;
        }
        if is_start {
            self.doc.set_start(c);
        } else {
            self.doc.set_goal(c);
        }
        self.touched(Touched::Endpoints);
        self.status = format!(
            "{} moved to ({}, {})",
            if is_start { "Start" } else { "Goal" },
            c.0,
            c.1
        );
    }

    /// Draws the app into `ui` and handles input: the window, the screenshot mode and the tests
    /// all call this.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let t0 = Instant::now();
        let ctx = ui.ctx().clone();
        let dt = ui.input(|i| i.stable_dt).min(0.1);
        let mut laps = Laps::new(self.opts.frame_log);
        self.shortcuts(&ctx);
        self.pump_runs(ui.input(|i| i.unstable_dt));
        laps.lap("search");
        self.advance_play(dt);
        self.agents_advance(dt);
        if self.opts.scrub_test {
            self.scrub_step();
        }
        laps.lap("script");
        self.poll_dialog(&ctx);
        self.dropped_files(&ctx);
        self.write_recovery();
        laps.lap("files");
        panels::menu_bar(self, ui);
        panels::status_bar(self, ui);
        panels::timeline(self, ui);
        panels::left(self, ui);
        laps.lap("left");
        panels::right(self, ui);
        laps.lap("right");
        egui::CentralPanel::no_frame().show(ui, |ui| self.centre(ui));
        laps.lap("canvas");
        laps.report(16.0);
        panels::prompts(self, &ctx);
        if self.show_help {
            help::show(self, &ctx);
        }
        if self.experiment.open && self.experiment.show(&ctx) {
            self.ask_file(DialogPurpose::ExportCsv, "dynamic.csv");
        }
        if self.searching()
            || self.playing
            || self.sim.playing
            || self.dialog.is_some()
            || self.opts.scrub_test
        {
            ctx.request_repaint();
        }
        self.frame += 1;
        if self.opts.frame_log {
            self.log_frame(t0);
        }
    }

    fn centre(&mut self, ui: &mut egui::Ui) {
        let n = self.views.len().max(1);
        let full = ui.available_rect_before_wrap();
        self.canvas_rect = Some(full);
        // The legend gets a strip of its own under the views, so it never covers map cells.
        let legend_h = if self.show_legend {
            canvas::legend_height(ui, full.width(), self.diff && self.views.len() >= 2)
        } else {
            0.0
        };
        let views_area =
            egui::Rect::from_min_max(full.min, egui::pos2(full.max.x, full.max.y - legend_h));
        let (w, h) = (self.space.width(), self.space.height());
        let (cols, rows) = canvas::grid_layout(n, views_area.size(), (w, h));
        let cell = egui::vec2(
            views_area.width() / cols as f32,
            views_area.height() / rows as f32,
        );
        let ctx = ui.ctx().clone();
        let rev = self.doc.revision;
        let mut gestures = vec![];
        self.view_rects.clear();
        for i in 0..self.views.len() {
            let (c, r) = (i % cols, i / cols);
            let rect = egui::Rect::from_min_size(
                views_area.min + egui::vec2(c as f32 * cell.x, r as f32 * cell.y),
                cell - egui::vec2(
                    if c + 1 < cols { 3.0 } else { 0.0 },
                    if r + 1 < rows { 3.0 } else { 0.0 },
                ),
            );
            self.view_rects.push(rect);
            // Diff: view 0 against view 1, and view 1 against view 0.
            let other = if self.diff && self.views.len() >= 2 && i < 2 {
                Some(1 - i)
            } else {
                None
            };
            {
                let (a, b) = split_pair(&mut self.views, i, other);
                let View { run, tex, serial } = a;
                tex.sync(
                    &ctx,
                    &self.doc.grid,
                    rev,
                    (run, *serial),
                    b.map(|o| (&mut o.run, o.serial, i == 0)),
                );
            }
            let sol = self.views[i]
                .run
                .solution_shown()
                .map_or(String::new(), |(c, e)| format!(" — ε {e:.2}, cost {c:.3}"));
            let title = format!(
                "{}{}{sol}",
                self.views[i].run.choice.label(),
                if other.is_some() { " — diff" } else { "" }
            );
            let ov = canvas::Overlay {
                title: &title,
                start: self.doc.start,
                goal: self.doc.goal,
                selected: self.selected,
                rect_preview: self.rect_from.zip(self.hover),
                diff: other.is_some(),
                agent: self.sim.agents.get(i).map(|a| (&a.at, &a.trail[..])),
                dragged: self.drag_to.filter(|_| self.dragging_endpoint.is_some()),
                active: self.views.len() > 1 && i == self.active,
                pointer: self.hover.filter(|_| self.views.len() > 1),
                flash: (&self.flash.0, self.flash.1.elapsed().as_secs_f32()),
            };
            let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
            let v = &mut self.views[i];
            let g = canvas::show(
                &mut child,
                &mut self.cam,
                &self.space,
                &v.tex,
                &mut v.run,
                &ov,
            );
            gestures.push(g);
        }
        self.legend_rect = None;
        if legend_h > 0.0 {
            let strip =
                egui::Rect::from_min_max(egui::pos2(full.min.x, full.max.y - legend_h), full.max);
            canvas::draw_legend(ui, strip, self.diff && self.views.len() >= 2);
            self.legend_rect = Some(strip);
        }
        // The pointer's cell is cleared when it leaves every view, so the inspector never
        // speaks of a cell the user is no longer pointing at.
        let mut hover = None;
        for (i, g) in gestures.into_iter().enumerate() {
            if g.hover.is_some() {
                hover = g.hover;
                self.active = i;
            }
            if g.hover.is_some() || g.released || g.clicked.is_some() {
                self.gesture(g, ui);
            }
            if let Some(c) = g.secondary {
                self.selected = Some(c);
                self.active = i;
            }
            if let Some((a, c)) = g.menu {
                self.menu_action(a, c);
            }
        }
        self.hover = hover;
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        use egui::{Key, KeyboardShortcut, Modifiers};
        let cmd = Modifiers::COMMAND;
        let cs = Modifiers::COMMAND | Modifiers::SHIFT;
        let pressed = |m: Modifiers, k: Key| {
            ctx.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(m, k)))
        };
        if pressed(cs, Key::Z) || pressed(cmd, Key::Y) {
            self.redo();
        }
        if pressed(cmd, Key::Z) {
            self.undo();
        }
        if pressed(cmd, Key::O) {
            self.request(PendingAction::Open(None));
        }
        if pressed(cs, Key::S) {
            self.ask_file(DialogPurpose::SaveAs, "map.map");
        }
        if pressed(cmd, Key::S) {
            self.save();
        }
        if pressed(cmd, Key::N) {
            self.request(PendingAction::New);
        }
        let (shift, keys) = ctx.input(|i| {
            (
                i.modifiers.shift,
                [
                    Key::ArrowRight,
                    Key::ArrowLeft,
                    Key::Home,
                    Key::End,
                    Key::F1,
                    Key::F,
                    Key::V,
                    Key::B,
                    Key::E,
                    Key::R,
                    Key::G,
                    Key::L,
                ]
                .map(|k| i.key_pressed(k)),
            )
        });
        let n = if shift { self.step_n.max(1) } else { 1 };
        let [right, left, home, end, f1, f, v, b, e, r, g, l] = keys;
        if right {
            self.playing = false;
            self.step_forward(n);
        }
        if left {
            self.playing = false;
            self.step_back(n);
        }
        if home {
            self.playing = false;
            self.go_to(0, false);
        }
        if end {
            self.to_end();
        }
        if f1
            || ctx.input(|i| {
                i.events
                    .iter()
                    .any(|e| matches!(e, egui::Event::Text(t) if t == "?"))
            })
        {
            self.show_help = !self.show_help;
        }
        if f {
            self.cam.fit_pending = true;
        }
        for (hit, t) in [
            (v, Tool::Select),
            (b, Tool::Brush),
            (e, Tool::Erase),
            (r, Tool::Rect),
            (g, Tool::Fill),
        ] {
            if hit {
                self.tool = t;
            }
        }
        if l {
            self.show_legend = !self.show_legend;
        }
        // S and T: start or goal (target) to the cell under the pointer, else the selected one,
        // at any zoom.
        let (set_s, set_t) = ctx.input(|i| {
            let plain = !i.modifiers.command && !i.modifiers.alt;
            (
                plain && i.key_pressed(Key::S),
                plain && i.key_pressed(Key::T),
            )
        });
        if let Some(c) = self.hover.or(self.selected).filter(|_| set_s || set_t) {
            self.move_endpoint(set_s, c);
        } else if set_s || set_t {
            self.status = "Point at a cell (or select one) first, then press S or T".into();
        }
        // Space: play/pause on release, unless it was held to pan.
        let (sp_pressed, sp_released) =
            ctx.input(|i| (i.key_pressed(Key::Space), i.key_released(Key::Space)));
        if sp_pressed {
            self.space_panned = false;
        }
        if sp_released && !self.space_panned {
            self.toggle_play();
        }
    }

    /// Play or pause; playing from the end starts over.
    pub fn toggle_play(&mut self) {
        if !self.playing && self.cursor >= self.max_steps() && !self.searching() {
            self.go_to(0, false);
        }
        self.playing = !self.playing;
    }

    fn request(&mut self, a: PendingAction) {
        if self.doc.dirty {
            self.prompt = Some(Prompt::Discard(a));
        } else {
            self.perform(a);
        }
    }

    fn perform(&mut self, a: PendingAction) {
        match a {
            PendingAction::Open(Some(p)) => {
                if let Err(e) = self.open_now(&p) {
                    self.status = e;
                }
            }
            PendingAction::Open(None) => {
                self.ask_file(DialogPurpose::Open, "");
            }
            PendingAction::New => {
                let (w, h) = self.gen_size;
                let grid = crate::map::Grid::new(w.max(2), h.max(1), Cell::FREE);
                let mut doc = Document::new(grid, (0, h / 2), (w - 1, h / 2), None);
                (doc.moves, doc.rule) = (self.doc.moves, self.doc.rule);
                self.set_document(doc);
                self.status = format!("New {w}×{h} map");
            }
            PendingAction::Quit => {
                self.doc.dirty = false;
                self.clear_recovery();
                self.quit_now = true;
            }
        }
    }

    /// Saves to the document's file, or asks where.
    pub fn save(&mut self) {
        match self.doc.path.clone() {
            Some(p) => self.save_to(&p),
            None => self.ask_file(DialogPurpose::SaveAs, "map.map"),
        }
    }

    fn algo_settings(&self) -> Vec<crate::map::io::AlgoSettings> {
        self.views
            .iter()
            .map(|v| crate::map::io::AlgoSettings {
                name: v.run.choice.info.name.into(),
                params: v.run.choice.values.clone(),
            })
            .collect()
    }

    fn save_to(&mut self, p: &std::path::Path) {
        let grid = self.user_grid();
        let project = self.doc.to_project(&grid, self.algo_settings());
        match files::save(p, &project, &grid) {
            Ok(()) => {
                self.doc.path = Some(p.to_path_buf());
                self.doc.dirty = false;
                self.clear_recovery();
                self.status = format!("Saved {}", p.display());
            }
            Err(e) => self.status = format!("Not saved: {e}"),
        }
    }

    fn poll_dialog(&mut self, ctx: &egui::Context) {
        if let Some(p) = &mut self.path_prompt {
            match p.show(ctx) {
                Some(path_prompt::Answer::Chosen(path)) => {
                    let purpose = p.purpose;
                    self.path_prompt = None;
                    self.file_chosen(purpose, path);
                }
                Some(path_prompt::Answer::Cancelled) => {
                    self.path_prompt = None;
                    self.status = "Cancelled".into();
                }
                None => {}
            }
            return;
        }
        let Some(d) = &self.dialog else { return };
        let Some(result) = d.poll() else { return };
        let (purpose, suggested) = (d.purpose, d.suggested.clone());
        self.dialog = None;
        match result {
            files::DialogResult::Chosen(p) => self.file_chosen(purpose, p),
            files::DialogResult::Cancelled => self.status = "Cancelled".into(),
            files::DialogResult::Unavailable => {
                // Remembered for the session: the next question goes straight to the field.
                self.no_portal = true;
                self.ask_file(purpose, &suggested);
                self.status = "No file dialog could open (no desktop portal): type a path".into();
            }
        }
    }

    /// Does what a file question was for, with the path the user gave.
    fn file_chosen(&mut self, purpose: DialogPurpose, p: PathBuf) {
        match purpose {
            DialogPurpose::Open => self.perform(PendingAction::Open(Some(p))),
            DialogPurpose::SaveAs => self.save_to(&p),
            DialogPurpose::ExportRun => self.export_run(&p),
            DialogPurpose::ExportPosthoc => self.export_posthoc(&p),
            DialogPurpose::ExportPng => {
                self.shot_target = Some((p, self.canvas_rect));
                self.shot_requested = false;
            }
            DialogPurpose::SaveTape => self.save_tape(&p),
            DialogPurpose::OpenTape => self.open_tape(&p),
            DialogPurpose::ExportCsv => {
                let text = self.experiment.csv().unwrap_or_default();
                self.status = match crate::map::io::write_atomic(&p, text.as_bytes()) {
                    Ok(()) => format!("Saved the experiment to {}", p.display()),
                    Err(e) => format!("Could not save {}: {e}", p.display()),
                };
            }
        }
    }

    fn dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        if let Some(p) = dropped.into_iter().next() {
            self.request(PendingAction::Open(Some(p)));
        }
    }

    /// Writes the recovery file every few seconds while there are unsaved changes.
    fn write_recovery(&mut self) {
        if !self.doc.dirty
            || self.doc.revision == self.recovery_written
            || self.recovery_at.elapsed() < Duration::from_secs(2)
            || self.opts.screenshot.is_some()
        {
            return;
        }
        // One write at a time, off the UI thread (a 1024×1024 map is a megabyte of RON).
        if let Some(job) = self.recovery_job.take() {
            if !job.is_finished() {
                self.recovery_job = Some(job);
                return;
            }
            if let Ok(Err(e)) = job.join() {
                self.status = format!("Cannot write the recovery file: {e}");
            }
        }
        let project = self.doc.to_project(&self.user_grid(), self.algo_settings());
        let path = self.recovery_file();
        self.recovery_job = Some(std::thread::spawn(move || {
            files::write_recovery(&path, &project)
        }));
        self.recovery_written = self.doc.revision;
        self.recovery_at = Instant::now();
    }

    /// Waits for a recovery write in progress (tests, and before removing the file).
    pub fn flush_recovery(&mut self) {
        if let Some(job) = self.recovery_job.take() {
            let _ = job.join();
        }
    }

    /// Restores the recovery file as an unsaved document.
    fn recover(&mut self) {
        let p = self.recovery_file();
        match files::load(&p) {
            Ok(l) => {
                let s = l.start.unwrap_or((0, 0));
                let g = l.goal.unwrap_or((1, 0));
                let mut doc = Document::new(l.grid, s, g, None);
                doc.problems = l.problems;
                (doc.moves, doc.rule) = l.rules.unwrap_or((self.doc.moves, self.doc.rule));
                doc.dirty = true;
                doc.revision = 1;
                self.set_document(doc);
                self.status = "Restored unsaved work from the recovery file".into();
            }
            Err(e) => self.status = format!("Recovery file unreadable: {e}"),
        }
    }

    fn export_run(&mut self, p: &std::path::Path) {
        let Some(v) = self.views.first() else { return };
        let r = &v.run;
        let xy = |n: u32| self.space.xy(n);
        let file = crate::trace::run_file::RunFile {
            version: crate::trace::run_file::RUN_VERSION,
            map: self
                .doc
                .path
                .as_ref()
                .map_or("built-in".into(), |p| p.display().to_string()),
            algorithm: r.choice.spec(),
            start: self.doc.start,
            goal: self.doc.goal,
            status: match r.status() {
                crate::search::Status::Found => "found",
                crate::search::Status::NoPath => "no-path",
                crate::search::Status::Running | crate::search::Status::NeedsReplan => "running",
            }
            .into(),
            cost: r.cost(),
            path: r.path().unwrap_or(&[]).iter().map(|&n| xy(n)).collect(),
            stats: r.stats().into(),
            events: crate::trace::run_file::RunFile::events_of(&r.rec),
        };
        self.status = match file.write(p) {
            Ok(()) => format!("Run written to {}", p.display()),
            Err(e) => format!("Not written: {e}"),
        };
    }

    fn export_posthoc(&mut self, p: &std::path::Path) {
        let Some(v) = self.views.first() else { return };
        let space = &self.space;
        let yaml = crate::trace::posthoc::to_yaml(&v.run.rec, |n| {
            let (x, y) = space.xy(n);
            (x as f32, y as f32)
        });
        self.status = match crate::map::io::write_atomic(p, yaml.as_bytes()) {
            Ok(()) => format!("Posthoc trace written to {}", p.display()),
            Err(e) => format!("Not written: {e}"),
        };
    }

    /// Screenshots: `--screenshot` after N frames (whole window), or an export of the canvas.
    fn screenshots(&mut self, ctx: &egui::Context) {
        if let Some(out) = self.opts.screenshot.clone() {
            if self.frame >= self.opts.frames.max(1) && self.shot_target.is_none() {
                self.shot_target = Some((out, None));
            }
        }
        let Some((path, crop)) = self.shot_target.clone() else {
            return;
        };
        if !self.shot_requested {
            let slot = self.shot.clone();
            ctx.request_screenshot(move |img| {
                if let Ok(mut s) = slot.lock() {
                    *s = Some(img);
                }
            });
            self.shot_requested = true;
            ctx.request_repaint();
            return;
        }
        let img = self.shot.lock().ok().and_then(|mut s| s.take());
        let Some(img) = img else {
            ctx.request_repaint();
            return;
        };
        let img = match crop {
            Some(r) => img.region(&r, Some(ctx.pixels_per_point())),
            None => (*img).clone(),
        };
        let result = files::write_png(&path, &img);
        self.shot_target = None;
        self.shot_requested = false;
        if self.opts.screenshot.is_some() {
            if let Err(e) = result {
                *self.failure.lock().expect("not poisoned") = Some(e);
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        } else {
            self.status = match result {
                Ok(()) => format!("Canvas written to {}", path.display()),
                Err(e) => format!("Not written: {e}"),
            };
        }
    }

    /// `--scrub-test`: run Dijkstra to the end, then move the cursor as a slider drag would, and
    /// every 40th frame paint a wall (which restarts the run); exits after `--frames` frames.
    /// With `--frame-log` this measures the frame times the README reports.
    fn scrub_step(&mut self) {
        if self.frame == 1 {
            // A long search: Dijkstra on the scenario's last (longest) problem when one is open.
            if let Some(p) = self.doc.problems.last().cloned() {
                self.doc.set_start(p.start);
                self.doc.set_goal(p.goal);
            }
            self.set_algorithm(0, AlgoChoice::named("dijkstra"));
            self.to_end();
            let events: usize = self.views.iter().map(|v| v.run.rec.len()).sum();
            eprintln!(
                "scrub-test: {}×{} map, {} steps, {} events recorded",
                self.doc.grid.width(),
                self.doc.grid.height(),
                self.max_steps(),
                events
            );
        }
        if self.frame > 1 {
            let m = self.max_steps().max(1);
            // PATHLAB_SCRUB (default "sweep,edit"): "sweep" drags the slider end to end and back
            // every 200 frames (1% of the run per frame), "jump" jumps to a random step every
            // frame (worst case), "edit" paints a wall every 40th frame.
            let f = self.frame as usize;
            let mode = std::env::var("PATHLAB_SCRUB").unwrap_or_else(|_| "sweep,edit".into());
            let s = if mode.contains("jump") {
                (f * 7919 * 131) % m
            } else {
                let t = f % 200;
                m * t.min(200 - t) / 100
            };
            self.go_to(s, false);
            if self.frame.is_multiple_of(40) && mode.contains("edit") {
                let (w, h) = (self.doc.grid.width(), self.doc.grid.height());
                let c = ((self.frame * 37) % w, (self.frame * 53) % h);
                self.paint(c, b'@');
                self.end_stroke();
            }
        }
        if self.frame >= self.opts.frames.max(2) {
            self.quit_now = true;
        }
    }

    fn log_frame(&mut self, t0: Instant) {
        let now = Instant::now();
        let log = &mut self.frame_log;
        log.ui_ms.push(t0.elapsed().as_secs_f32() * 1000.0);
        if let Some(last) = log.last {
            log.gap_ms.push((now - last).as_secs_f32() * 1000.0);
        }
        log.last = Some(now);
        if log.ui_ms.len() >= 60 {
            // The 60 Hz budget, as a count: percentiles alone hide how many frames miss it.
            let over = log.gap_ms.iter().filter(|&&g| g > 16.0).count();
            log.gaps += log.gap_ms.len();
            log.over += over;
            let missed = format!(
                "over 16 ms: {over} of {} (so far {} of {})",
                log.gap_ms.len(),
                log.over,
                log.gaps
            );
            let stats = |v: &mut Vec<f32>| {
                v.sort_by(|a, b| a.total_cmp(b));
                let p = |q: f32| {
                    v.get(((v.len() - 1) as f32 * q) as usize)
                        .copied()
                        .unwrap_or(0.0)
                };
                let s = format!("p50 {:.1} p95 {:.1} max {:.1}", p(0.5), p(0.95), p(1.0));
                v.clear();
                s
            };
            eprintln!(
                "frames: update ms {} | update+paint ms {} | frame interval ms {} | {missed}",
                stats(&mut log.ui_ms),
                stats(&mut log.cpu_ms),
                stats(&mut log.gap_ms)
            );
        }
    }
}

/// The cells of a straight line between two cells, both included (Bresenham).
fn line_cells(a: (u32, u32), b: (u32, u32)) -> Vec<(u32, u32)> {
    let (mut x, mut y) = (a.0 as i64, a.1 as i64);
    let (x1, y1) = (b.0 as i64, b.1 as i64);
    let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
    let (sx, sy) = ((x1 - x).signum(), (y1 - y).signum());
    let mut err = dx + dy;
    let mut v = vec![];
    loop {
        v.push((x as u32, y as u32));
        if x == x1 && y == y1 {
            return v;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

/// View `i` mutably, and view `j` too when given (they differ).
fn split_pair(views: &mut [View], i: usize, j: Option<usize>) -> (&mut View, Option<&mut View>) {
    match j {
        Some(j) if j != i => {
            if i < j {
                let (a, b) = views.split_at_mut(j);
                (&mut a[i], Some(&mut b[0]))
            } else {
                let (a, b) = views.split_at_mut(i);
                (&mut b[0], Some(&mut a[j]))
            }
        }
        _ => (&mut views[i], None),
    }
}

impl eframe::App for PathlabApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        if let Some(ms) = frame.info().cpu_usage.filter(|_| self.opts.frame_log) {
            self.frame_log.cpu_ms.push(ms * 1000.0);
        }
        ctx.send_viewport_cmd(egui::ViewportCommand::Title(format!(
            "pathlab — {}",
            self.doc.title()
        )));
        if ctx.input(|i| i.viewport().close_requested()) && self.doc.dirty && !self.quit_now {
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

#[cfg(test)]
mod tests {
    use super::line_cells;

    #[test]
    fn brush_lines_have_no_gaps() {
        for (a, b) in [
            ((0, 0), (5, 2)),
            ((7, 1), (2, 9)),
            ((3, 3), (3, 3)),
            ((9, 4), (0, 4)),
        ] {
            let v = line_cells(a, b);
            assert_eq!((v[0], *v.last().unwrap()), (a, b));
            assert!(v
                .windows(2)
                .all(|w| w[0].0.abs_diff(w[1].0) <= 1 && w[0].1.abs_diff(w[1].1) <= 1));
        }
    }
}

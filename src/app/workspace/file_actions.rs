//! What the app does with files: opening, saving, the file questions (native dialog or path
//! field) and dropped files (the recovery file: `recovery`; a run's exports and traces: `run_files`).

use crate::app::crowd::CrowdWindow;
use crate::app::files::{self, DialogPurpose};
use crate::app::{path_prompt, AlgoChoice, Document, PathlabApp, PendingAction, Prompt};
use crate::map::Cell;
use eframe::egui;
use std::path::PathBuf;

impl PathlabApp {
    /// Where unsaved work is written: this instance's recovery slot.
    pub fn recovery_file(&self) -> PathBuf {
        match &self.files.recovery {
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
        self.files.dialog.is_some() || self.files.path_prompt.is_some()
    }

    /// The typed-path field, while it stands in for the native dialog: its text and purpose.
    pub fn path_field(&mut self) -> Option<&mut String> {
        self.files.path_prompt.as_mut().map(|p| &mut p.text)
    }

    /// The folder file questions start in: the document's, else the last file's, else the
    /// working folder.
    // A page asks the browser's file picker instead (`web_files`).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(in crate::app) fn file_folder(&self) -> PathBuf {
        self.work
            .doc
            .path
            .as_ref()
            .or(self.files.recent.first())
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
        // A page asks the browser's file picker for a file to read, and writes a file as a
        // download named as suggested (the browser may ask where).
        #[cfg(target_arch = "wasm32")]
        if purpose.opens() {
            match crate::app::web_files::Arriving::picked(purpose.extensions()) {
                Ok(p) => self.files.arriving = Some((Some(purpose), p)),
                Err(e) => self.report_error("Files", format!("The file picker did not open: {e}")),
            }
        } else {
            self.file_chosen(purpose, PathBuf::from(suggested));
        }
        #[cfg(not(target_arch = "wasm32"))]
        if self.files.no_portal {
            self.files.path_prompt = Some(path_prompt::PathPrompt::new(
                purpose,
                self.file_folder(),
                suggested,
            ));
        } else {
            self.files.dialog = Some(files::PendingDialog::spawn(purpose, suggested));
        }
    }

    /// Shows a failure in a dialog (and the status line) until the user closes it.
    pub fn report_error(&mut self, title: &str, message: String) {
        self.status = message.clone();
        self.prompt = Some(Prompt::Error(title.into(), message));
    }

    /// Opens files given by name and contents, as a page's picked or dropped files arrive (the
    /// first scenario among them, else the first; the others are read as if beside it), after
    /// the unsaved-changes question.
    pub fn open_given(&mut self, given: Vec<(PathBuf, Vec<u8>)>) {
        self.request(PendingAction::OpenGiven(given));
    }

    /// Opens a file now (no prompt).
    pub fn open_now(&mut self, path: &std::path::Path) -> Result<(), String> {
        if files::is_trace(path) {
            // A Posthoc trace opens as a view on the map that is open.
            self.open_trace(path);
            return Ok(());
        }
        if let Some(run) = files::run_file(path) {
            return self.open_run_file(path, run);
        }
        let l = files::load(path, (self.work.doc.moves, self.work.doc.rule))?;
        self.open_loaded(path, l);
        Ok(())
    }

    /// A run file (`pathlab trace --out`) is no project: its map opens with its algorithm,
    /// start and goal, and the search runs again (the same events: searches are
    /// deterministic). Where its map cannot be found, or it ran on voxels, the error says what
    /// the file is and how to look at it.
    fn open_run_file(
        &mut self,
        path: &std::path::Path,
        run: crate::trace::run_file::RunFile,
    ) -> Result<(), String> {
        let what = format!(
            "{} is a recorded run ({} on {}, from `pathlab trace --out`), not a project",
            path.display(),
            run.algorithm,
            run.map
        );
        let how = "open its map with File ▸ Open, or record it as a Posthoc trace \
                   (`pathlab trace … --posthoc run.trace.yaml`) and play that with File ▸ Open trace…";
        if run.voxel.is_some() {
            return Err(format!("{what}, on voxels: {how}"));
        }
        let Some(map) = files::run_map(path, &run.map) else {
            return Err(format!(
                "{what}; its map was not found beside it or here: {how}"
            ));
        };
        let mut l = files::load(&map, (self.work.doc.moves, self.work.doc.rule))
            .map_err(|e| format!("{what}; its map does not open ({e}): {how}"))?;
        let inside = |(x, y): (u32, u32)| x < l.grid.width() && y < l.grid.height();
        if inside(run.start) && inside(run.goal) {
            (l.start, l.goal) = (Some(run.start), Some(run.goal));
        }
        if let Ok(c) = AlgoChoice::from_spec(&run.algorithm) {
            l.algorithms = vec![crate::project::AlgoSettings {
                name: c.info.name.into(),
                params: c.values.clone(),
                ..Default::default()
            }];
        }
        self.open_loaded(&map, l);
        let recorded = match run.cost {
            Some(c) => format!("{}, cost {c:.3}", run.status),
            None => run.status.clone(),
        };
        self.status = format!(
            "{} is a recorded run (`pathlab trace`): opened its map {} with {} from ({}, {}) to \
             ({}, {}), searched again (recorded: {recorded}, {} expanded)",
            path.display(),
            map.display(),
            run.algorithm,
            run.start.0,
            run.start.1,
            run.goal.0,
            run.goal.1,
            run.stats.expanded
        );
        Ok(())
    }

    /// Opens example `i` of the gallery (not a file of the user's: Save asks where).
    pub fn open_example(&mut self, i: usize) {
        let Some(e) = crate::examples::EXAMPLES.get(i) else {
            return;
        };
        match crate::examples::open(e) {
            Ok(l) => {
                self.open_loaded(std::path::Path::new(e.file), l);
                self.files
                    .recent
                    .retain(|p| p != std::path::Path::new(e.file));
                self.status = format!("Example: {} — {}", e.title, e.shows);
            }
            Err(err) => self.report_error("Could not open the example", err.to_string()),
        }
    }

    /// Makes an opened file the document.
    pub fn open_loaded(&mut self, path: &std::path::Path, l: crate::open::Opened) {
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
        (doc.moves, doc.rule) = l.rules.unwrap_or((self.work.doc.moves, self.work.doc.rule));
        doc.world = l.world;
        doc.data = l.data;
        // A view whose algorithm the new world refuses says so in the status line.
        self.status.clear();
        self.set_document(doc);
        let notice = std::mem::take(&mut self.status);
        self.problems.chosen = first_problem;
        let mut refused = String::new();
        if !l.algorithms.is_empty() {
            self.work.views.clear();
            for a in l.algorithms.iter().take(4) {
                if let Some(t) = &a.trace {
                    // Read again onto the world just opened; one that no longer reads is
                    // refused with its reason, never replaced by another algorithm.
                    let dir = path.parent().unwrap_or(std::path::Path::new(""));
                    let before = self.work.views.len();
                    self.open_trace(&dir.join(t));
                    if self.work.views.len() == before {
                        refused = format!(". Its trace view is not opened: {}", self.status);
                    }
                    continue;
                }
                let mut c = AlgoChoice::named(&a.name);
                for (k, v) in &a.params {
                    c.values.insert(k.clone(), *v);
                }
                match a.world {
                    Some((family, fill)) => self.add_world_view(c, family, fill),
                    None => self.add_view(c),
                }
            }
        }
        self.files.recent.retain(|p| p != path);
        self.files.recent.insert(0, path.to_path_buf());
        self.files.recent.truncate(8);
        self.status = format!(
            "Opened {} ({w}×{h}{}){}{refused}",
            path.display(),
            if self.work.doc.problems.is_empty() {
                String::new()
            } else {
                format!(", {} problems", self.work.doc.problems.len())
            },
            if notice.is_empty() || !l.algorithms.is_empty() {
                String::new()
            } else {
                format!(". {notice}")
            }
        );
    }

    pub(in crate::app) fn request(&mut self, a: PendingAction) {
        if self.work.doc.dirty && discards_work(&a) {
            self.prompt = Some(Prompt::Discard(a));
        } else {
            self.perform(a);
        }
    }

    pub(in crate::app) fn perform(&mut self, a: PendingAction) {
        match a {
            PendingAction::Open(Some(p)) => {
                if let Err(e) = self.open_now(&p) {
                    self.report_error("Could not open the file", e);
                }
            }
            PendingAction::Open(None) => {
                self.ask_file(DialogPurpose::Open, "");
            }
            PendingAction::OpenGiven(given) => {
                let Some(main) = files::main_file(&given) else {
                    return;
                };
                let opened = crate::map::io::reading_given(given, || self.open_now(&main));
                if let Err(e) = opened {
                    self.report_error("Could not open the file", e);
                }
            }
            PendingAction::New => {
                if crate::app::worlds::ui_of(&self.work.doc.world).new_document(self) {
                    return;
                }
                let (w, h) = self.generator.size;
                let grid = crate::map::Grid::new(w.max(2), h.max(1), Cell::FREE);
                let mut doc = Document::new(grid, (0, h / 2), (w - 1, h / 2), None);
                // A new map of the same world: hexes stay hexes, to be drawn directly.
                (doc.moves, doc.rule, doc.world) =
                    (self.work.doc.moves, self.work.doc.rule, self.work.doc.world);
                self.set_document(doc);
                self.status = format!("New {w}×{h} map");
            }
            PendingAction::ToFamily(family, fill) => {
                match crate::app::ViewWorld::of(&self.work.doc, family, fill) {
                    Ok(w) => {
                        let leaks = w.wall_crossings(&self.work.doc.grid);
                        let mut doc = Document::new(w.grid, w.start, w.goal, None);
                        (doc.moves, doc.rule, doc.world) =
                            (self.work.doc.moves, self.work.doc.rule, family);
                        doc.dirty = true;
                        doc.revision = 1;
                        let swapped = self.set_converted(doc);
                        let what = crate::app::worlds::ui_of(&family).describe(&w.space);
                        self.status = format!(
                            "The map as {what}: a new, unsaved project (Undo goes back){}{}",
                            leak_note(leaks, fill),
                            if swapped.is_empty() {
                                String::new()
                            } else {
                                format!(". {swapped}")
                            }
                        );
                    }
                    Err(e) => self
                        .report_error(&format!("Could not turn the map into {}", family.name()), e),
                }
            }
            PendingAction::ToVoxels(height) => self.extrude_to_voxels(height),
            PendingAction::Example(i) => self.open_example(i),
            // Asked before the lesson touched anything, so Cancel leaves all as it was.
            PendingAction::Lesson(i, step) => self.begin_lesson(i, step),
            PendingAction::Scene3d => self.open_scene3d(),
            PendingAction::Quit => {
                self.work.doc.dirty = false;
                self.clear_recovery();
                self.quit_now = true;
            }
        }
    }

    /// Saves to the document's file, or asks where.
    pub fn save(&mut self) {
        match self.work.doc.path.clone() {
            Some(p) => self.save_to(&p),
            None => self.ask_file(DialogPurpose::SaveAs, "map.map"),
        }
    }

    /// The views as a project saves them; a trace view's file is named relative to `dir` (the
    /// project's folder) when it lies under it, so a folder moved whole still opens.
    pub(in crate::app) fn algo_settings(
        &self,
        dir: Option<&std::path::Path>,
    ) -> Vec<crate::project::AlgoSettings> {
        self.work
            .views
            .iter()
            .map(|v| crate::project::AlgoSettings {
                name: v.run.choice.info.name.into(),
                params: v.run.choice.values.clone(),
                // A knowledge level's view is saved as a plain view of the document's world.
                world: (v.world.as_ref())
                    .filter(|w| w.knowledge.is_none())
                    .map(|w| (w.family, w.fill)),
                trace: v.run.choice.trace.as_ref().map(|t| {
                    let under = dir.and_then(|d| std::path::absolute(d).ok());
                    (under.and_then(|d| t.path.strip_prefix(d).ok()))
                        .map_or_else(|| t.path.clone(), |r| r.to_path_buf())
                }),
            })
            .collect()
    }

    pub fn save_to(&mut self, p: &std::path::Path) {
        let grid = self.user_grid();
        let project = (self.work.doc).to_project(&grid, self.algo_settings(p.parent()));
        match files::save(p, &project, &grid) {
            Ok(()) => {
                self.work.doc.path = Some(p.to_path_buf());
                self.work.doc.dirty = false;
                self.clear_recovery();
                self.status = format!("Saved {}", p.display());
            }
            Err(e) => self.report_error("Not saved", format!("Not saved: {e}")),
        }
    }

    pub(in crate::app) fn poll_dialog(&mut self, ctx: &egui::Context) {
        // The picked or dropped files, once the browser has read them.
        #[cfg(target_arch = "wasm32")]
        if let Some((purpose, arriving)) = &self.files.arriving {
            let purpose = *purpose;
            if let Some(given) = arriving.poll() {
                self.files.arriving = None;
                match (purpose, files::main_file(&given)) {
                    (_, None) => self.status = "Cancelled".into(),
                    // Dropped: asked about unsaved changes now, as a dropped file is.
                    (None, Some(_)) => self.open_given(given),
                    // Picked for File ▸ Open: asked before the picker opened.
                    (Some(DialogPurpose::Open), Some(_)) => {
                        self.perform(PendingAction::OpenGiven(given))
                    }
                    (Some(purpose), Some(main)) => {
                        crate::map::io::reading_given(given, || self.file_chosen(purpose, main))
                    }
                }
            }
        }
        if let Some(p) = &mut self.files.path_prompt {
            match p.show(ctx) {
                Some(path_prompt::Answer::Chosen(path)) => {
                    let purpose = p.purpose;
                    self.files.path_prompt = None;
                    self.file_chosen(purpose, path);
                }
                Some(path_prompt::Answer::Cancelled) => {
                    self.files.path_prompt = None;
                    self.status = "Cancelled".into();
                }
                None => {}
            }
            return;
        }
        let Some(d) = &mut self.files.dialog else {
            return;
        };
        let Some(result) = d.poll() else { return };
        let (purpose, suggested) = (d.purpose, d.suggested.clone());
        self.files.dialog = None;
        match result {
            files::DialogResult::Chosen(p) => self.file_chosen(purpose, p),
            files::DialogResult::Cancelled => self.status = "Cancelled".into(),
            files::DialogResult::Unavailable => {
                // Remembered for the session: the next question goes straight to the field.
                self.files.no_portal = true;
                self.ask_file(purpose, &suggested);
                self.status = "No file dialog could open (no desktop portal): type a path".into();
            }
        }
    }

    /// Does what a file question was for, with the path the user gave.
    pub(in crate::app) fn file_chosen(&mut self, purpose: DialogPurpose, p: PathBuf) {
        match purpose {
            DialogPurpose::Open => self.perform(PendingAction::Open(Some(p))),
            DialogPurpose::SaveAs => self.save_to(&p),
            DialogPurpose::ExportRun => self.export_run(&p),
            DialogPurpose::ExportPosthoc => self.export_posthoc(&p),
            DialogPurpose::ExportPng => {
                self.shots.shot_target = Some((p, self.display.canvas_rect));
                self.shots.shot_requested = false;
            }
            DialogPurpose::ExportSvg => {
                self.status = match self.export_svg(self.display.active, &p) {
                    Ok(()) => format!(
                        "View {} written to {}",
                        self.display.active + 1,
                        p.display()
                    ),
                    Err(e) => format!("Not written: {e}"),
                };
            }
            DialogPurpose::SaveTape => self.save_tape(&p),
            DialogPurpose::OpenTape => self.open_tape(&p),
            DialogPurpose::OpenTrace => self.open_trace(&p),
            DialogPurpose::ExportHeatPng => {
                let written = match self.parts.of_mut::<CrowdWindow>().png() {
                    Some(img) => crate::crowd::heat::write_png(&p, &img),
                    None => Err("no batch to export".into()),
                };
                self.status = match written {
                    Ok(()) => format!("Heatmaps written to {}", p.display()),
                    Err(e) => format!("Could not save {}: {e}", p.display()),
                };
            }
            DialogPurpose::ExportHeatCsv => {
                let text = self.parts.of_mut::<CrowdWindow>().csv().unwrap_or_default();
                self.status = match crate::map::io::write_atomic(&p, text.as_bytes()) {
                    Ok(()) => format!("Counts written to {}", p.display()),
                    Err(e) => format!("Could not save {}: {e}", p.display()),
                };
            }
            DialogPurpose::ExportCsv => {
                let text = self
                    .parts
                    .of_mut::<crate::app::experiment::ExperimentWindow>()
                    .csv()
                    .unwrap_or_default();
                self.status = match crate::map::io::write_atomic(&p, text.as_bytes()) {
                    Ok(()) => format!("Saved the experiment to {}", p.display()),
                    Err(e) => format!("Could not save {}: {e}", p.display()),
                };
            }
        }
    }

    pub(in crate::app) fn dropped_files(&mut self, ctx: &egui::Context) {
        // A page's dropped files are read by the browser first (their bytes come later), and
        // all of them are given together, so a scenario dropped with its map finds it.
        #[cfg(target_arch = "wasm32")]
        {
            let dropped = ctx.input(|i| i.raw.dropped_files.clone());
            if !dropped.is_empty() {
                let arriving = crate::app::web_files::Arriving::dropped(dropped);
                self.files.arriving = Some((None, arriving));
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
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
    }
}

/// What a hex conversion says about walls it let moves through.
pub(in crate::app) fn leak_note(leaks: usize, fill: crate::map::HexFill) -> String {
    match leaks {
        0 => String::new(),
        n => format!(
            "; {n} hex moves pass through walls of the square map (fill \"{}\"; \"walls stay walls\" keeps them shut)",
            fill.name()
        ),
    }
}

/// Whether `a` replaces the open document (so unsaved work asks first). A Posthoc trace opens
/// as a view on the map that is open, whichever way it comes (a recent file, a dropped file,
/// a page's picked files), and asks nothing.
fn discards_work(a: &PendingAction) -> bool {
    match a {
        PendingAction::Open(Some(p)) => !files::is_trace(p),
        PendingAction::OpenGiven(given) => {
            !files::main_file(given).is_some_and(|p| files::is_trace(&p))
        }
        _ => true,
    }
}

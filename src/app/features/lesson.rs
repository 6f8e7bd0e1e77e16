//! Help ▸ Lessons: the lessons of `assets/lessons/` played in the app. A step's setup runs
//! through the command API as a user's clicks would; its text shows in a window with Back and
//! Next; Next waits for the step's condition; the control it names is outlined. A lesson left
//! is resumed at the step it was left on, or started over.
//!
//! Starting a lesson over unsaved work asks first, before anything changes: Cancel leaves the
//! app as it was, Discard gives the lesson's own set-up. Once a lesson plays, the document is
//! the lesson's: its steps open maps and turn them into other worlds without asking again.

use crate::app::flight::FlightCommand;
use crate::app::parts::{part_any, Cx, Part};
use crate::app::workspace::Workspace;
use crate::app::{Command, PathlabApp, PendingAction, Tool};
use crate::lessons::{Do, Lesson, Until};
use eframe::egui;
use std::collections::{BTreeSet, HashMap};

/// What a step began with: start, goal and the map's cells.
type Entry = ((u32, u32), (u32, u32), Vec<u8>);

/// The lessons' state in the app.
#[derive(Default)]
pub struct Lessons {
    /// Help ▸ Lessons' list is open.
    pub list_open: bool,
    /// The first start offers the first lesson.
    pub offer: bool,
    /// The lesson played and its step.
    pub playing: Option<(usize, usize)>,
    /// A lesson was started this session (`--lesson` starts one once).
    pub started: bool,
    /// Where each lesson left was left, to resume there.
    pub left_at: HashMap<usize, usize>,
    /// Lessons played to their last step this session (the list marks them).
    pub finished: BTreeSet<usize>,
    /// Where the controls a step may point at were drawn this frame (emptied once the lesson
    /// window has read them, so a control an edit removed is not outlined where it was).
    pub controls: HashMap<&'static str, egui::Rect>,
    /// The outline drawn this frame, if any.
    pub highlighted: Option<egui::Rect>,
    /// What the step began with: start, goal and map cells (its conditions compare them).
    entry: Option<Entry>,
    /// The document a lesson left behind, as (document serial, revision): a lesson started
    /// over it replaces it without asking, since nothing in it is the user's.
    left_doc: Option<(u64, u64)>,
    all: Vec<Lesson>,
}

impl Lessons {
    /// The shipped lessons.
    pub fn all(&mut self) -> &[Lesson] {
        if self.all.is_empty() {
            self.all = crate::lessons::all();
        }
        &self.all
    }

    /// Remembers where control `name` was drawn.
    pub fn control(&mut self, name: &'static str, r: &egui::Response) {
        self.controls.insert(name, r.rect);
    }
}

impl PathlabApp {
    /// Starts lesson `i` at step `step`. Over unsaved work of the user's it asks first, and
    /// the lesson begins only on Discard (see [`PathlabApp::begin_lesson`]).
    pub fn start_lesson(&mut self, i: usize, step: usize) {
        if self
            .parts
            .of_mut::<Lessons>()
            .all()
            .get(i)
            .is_none_or(|l| l.steps.is_empty())
        {
            return;
        }
        self.parts.of_mut::<Lessons>().offer = false;
        self.parts.of_mut::<Lessons>().list_open = false;
        let doc = (self.work.doc_serial, self.work.doc.revision);
        let lessons_own = self.parts.of_mut::<Lessons>().playing.is_some()
            || self.parts.of_mut::<Lessons>().left_doc == Some(doc);
        if self.work.doc.dirty && !lessons_own {
            self.request(PendingAction::Lesson(i, step));
        } else {
            self.begin_lesson(i, step);
        }
    }

    /// Plays lesson `i` from step `step`: the setups of the steps before it run first, so a
    /// lesson resumed at a later step stands on its own map and views.
    pub(in crate::app) fn begin_lesson(&mut self, i: usize, step: usize) {
        let n = self
            .parts
            .of_mut::<Lessons>()
            .all()
            .get(i)
            .map_or(0, |l| l.steps.len());
        if n == 0 {
            return;
        }
        let step = step.min(n - 1);
        self.parts.of_mut::<Lessons>().started = true;
        self.parts.of_mut::<Lessons>().left_doc = None;
        self.parts.of_mut::<Lessons>().playing = Some((i, step));
        let before: Vec<Do> = self.parts.of_mut::<Lessons>().all()[i].steps[..step]
            .iter()
            .flat_map(|s| s.setup.iter().cloned())
            .collect();
        for d in before {
            self.lesson_do(&d);
        }
        self.enter_lesson_step();
    }

    /// Runs the current step's setup and notes what its conditions compare against.
    fn enter_lesson_step(&mut self) {
        let Some((i, k)) = self.parts.of_mut::<Lessons>().playing else {
            return;
        };
        let setup = self.parts.of_mut::<Lessons>().all()[i].steps[k]
            .setup
            .clone();
        for d in setup {
            self.lesson_do(&d);
        }
        self.parts.of_mut::<Lessons>().entry = Some((
            self.work.doc.start,
            self.work.doc.goal,
            self.work.doc.grid.tiles().to_vec(),
        ));
        // What the setup said (the example's own description of its views) is not what the
        // lesson shows; nor is what another lesson said.
        let lesson = &self.parts.of_mut::<Lessons>().all()[i];
        let (title, n) = (lesson.title.clone(), lesson.steps.len());
        self.status = format!("Lesson {}: {title} — step {} of {n}", i + 1, k + 1);
    }

    /// One setup action, through the commands a user's clicks send.
    pub fn lesson_do(&mut self, d: &Do) {
        use crate::app::AlgoChoice;
        match d {
            // The document is the lesson's (asked for when it began): no question here, which
            // would leave the map as it was under the next actions. What they make is shipped,
            // as an example is: nothing of the user's to save, so nothing asks later either.
            Do::Example(f) => {
                if let Some(k) = crate::examples::EXAMPLES.iter().position(|e| e.file == f) {
                    self.perform(PendingAction::Example(k));
                }
            }
            Do::Scene3d => {
                self.perform(PendingAction::Scene3d);
                self.work.doc.dirty = false;
            }
            Do::World(name, size) => {
                if let Ok(f) = crate::world::Family::parse(name, *size, "pointy") {
                    self.perform(PendingAction::ToFamily(f, crate::map::HexFill::default()));
                    self.work.doc.dirty = false;
                }
            }
            Do::Views(specs) => {
                for (k, spec) in specs.iter().enumerate() {
                    let Ok(c) = AlgoChoice::from_spec(spec) else {
                        continue;
                    };
                    if k < self.work.views.len() {
                        self.apply(Command::SetAlgorithm(k, c));
                    } else {
                        self.apply(Command::AddView(c));
                    }
                }
                while self.work.views.len() > specs.len().max(1) {
                    self.apply(Command::RemoveView);
                }
            }
            Do::Param(v, name, value) => {
                if let Some(view) = self.work.views.get(*v) {
                    let mut c = view.run.choice.clone();
                    c.values.insert(name.clone(), *value);
                    self.apply(Command::SetAlgorithm(*v, c));
                }
            }
            Do::Start(x, y) => self.apply(Command::MoveEndpoint(true, (*x, *y))),
            Do::Goal(x, y) => self.apply(Command::MoveEndpoint(false, (*x, *y))),
            Do::GoTo(s) => self.apply(Command::GoTo(*s)),
            Do::ToEnd => self.apply(Command::ToEnd),
            Do::Walls(cells) => {
                let cells = cells
                    .iter()
                    .map(|&(x, y)| (x, y, crate::map::Cell::WALL))
                    .collect();
                self.apply(Command::Edit(crate::map::Edit::Cells(cells)));
            }
            Do::Tool(t) => {
                let tool = match t.as_str() {
                    "brush" => Tool::Brush,
                    "erase" => Tool::Erase,
                    "rectangle" => Tool::Rect,
                    "fill" => Tool::Fill,
                    _ => Tool::Select,
                };
                self.apply(Command::SetTool(tool));
            }
            Do::Knowledge(levels) => self.apply(Command::CompareKnowledge(levels.clone())),
            Do::Diff(on) => self.apply(Command::SetDiff(*on)),
            Do::FlyTo(t) => self.apply(Command::Flight(FlightCommand::FlyTo(*t))),
        }
    }

    /// Whether the current step's condition holds.
    pub fn lesson_condition_met(&mut self) -> bool {
        self.parts.of_mut::<Lessons>().condition_met(&self.work)
    }

    /// Does what `c` asks of the lessons.
    pub(crate) fn apply_lesson(&mut self, c: LessonCommand) {
        match c {
            LessonCommand::Start(i, k) => self.start_lesson(i, k),
            LessonCommand::Next => self.lesson_next(),
            LessonCommand::Back => self.lesson_back(),
            LessonCommand::Leave => self.leave_lesson(),
            LessonCommand::ShowList => self.parts.of_mut::<Lessons>().list_open = true,
        }
    }

    /// The next step (its setup runs), or the end of the lesson after the last.
    pub fn lesson_next(&mut self) {
        let Some((i, k)) = self.parts.of_mut::<Lessons>().playing else {
            return;
        };
        if k + 1 < self.parts.of_mut::<Lessons>().all()[i].steps.len() {
            self.parts.of_mut::<Lessons>().playing = Some((i, k + 1));
            self.enter_lesson_step();
        } else {
            self.parts.of_mut::<Lessons>().playing = None;
            self.parts.of_mut::<Lessons>().left_at.remove(&i);
            self.parts.of_mut::<Lessons>().finished.insert(i);
            self.lesson_left_doc();
            self.status = format!(
                "Lesson finished: {}",
                self.parts.of_mut::<Lessons>().all()[i].title
            );
        }
    }

    /// Notes the document a lesson leaves behind as the lesson's.
    fn lesson_left_doc(&mut self) {
        self.parts.of_mut::<Lessons>().left_doc =
            Some((self.work.doc_serial, self.work.doc.revision));
    }

    /// The step before (its setup runs again).
    pub fn lesson_back(&mut self) {
        if let Some((i, k)) = self.parts.of_mut::<Lessons>().playing {
            self.parts.of_mut::<Lessons>().playing = Some((i, k.saturating_sub(1)));
            self.enter_lesson_step();
        }
    }

    /// Leaves the lesson; Help ▸ Lessons resumes it at this step.
    pub fn leave_lesson(&mut self) {
        if let Some((i, k)) = self.parts.of_mut::<Lessons>().playing.take() {
            self.parts.of_mut::<Lessons>().left_at.insert(i, k);
            self.lesson_left_doc();
            self.status = format!(
                "Left the lesson {}: Lessons… in the Help menu resumes it at step {}",
                self.parts.of_mut::<Lessons>().all()[i].title,
                k + 1
            );
        }
    }
}

/// What can be asked of the lessons.
#[derive(Clone, Debug, PartialEq)]
pub enum LessonCommand {
    /// Lesson `.0` from step `.1` (asks first over unsaved work).
    Start(usize, usize),
    Next,
    Back,
    Leave,
    /// Help ▸ Lessons: the list.
    ShowList,
}

impl Lessons {
    /// Whether the current step's condition holds.
    pub(crate) fn condition_met(&mut self, work: &Workspace) -> bool {
        let Some((i, k)) = self.playing else {
            return false;
        };
        let until = self.all()[i].steps[k].until.clone();
        let Some((start, goal, tiles)) = &self.entry else {
            return false;
        };
        match until {
            Until::Next => true,
            Until::StepAtLeast(n) => work.cursor >= n,
            Until::Finished => work
                .views
                .iter()
                .all(|v| v.run.finished() && v.run.shown >= v.run.steps()),
            Until::GoalMoved => work.doc.goal != *goal,
            Until::StartMoved => work.doc.start != *start,
            Until::MapEdited => work.doc.grid.tiles() != &tiles[..],
            Until::Views(n) => work.views.len() >= n,
            Until::ParamAtLeast(v, name, x) => work
                .views
                .get(v)
                .and_then(|view| view.run.choice.values.get(&name))
                .is_some_and(|&value| value >= x),
        }
    }
}

impl Part for Lessons {
    /// The lesson window, the list and the first start's offer.
    fn windows(&mut self, cx: &mut Cx, ctx: &egui::Context) {
        if self.offer {
            let first = self.all().first().map(|l| l.title.clone());
            let mut open = true;
            egui::Window::new("Welcome to pathlab")
                .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
                .collapsible(false)
                .resizable(false)
                .show(ctx, |ui| {
                    ui.label("Short lessons walk through what the views show, one step at a time.");
                    if let Some(t) = &first {
                        ui.horizontal(|ui| {
                            if ui.button(format!("Start: {t}")).clicked() {
                                cx.send(Command::Lesson(LessonCommand::Start(0, 0)));
                            }
                            if ui.button("Not now").clicked() {
                                open = false;
                            }
                        });
                    }
                    ui.weak("Help ▸ Lessons lists them all.");
                });
            if !open {
                self.offer = false;
            }
        }
        if self.list_open {
            let mut open = true;
            let mut start = None;
            let left = self.left_at.clone();
            let finished = self.finished.clone();
            let list: Vec<(String, String, usize)> = self
                .all()
                .iter()
                .map(|l| (l.title.clone(), l.summary.clone(), l.steps.len()))
                .collect();
            egui::Window::new("Lessons")
                .open(&mut open)
                .default_width(420.0)
                .show(ctx, |ui| {
                    for (i, (title, summary, steps)) in list.iter().enumerate() {
                        ui.horizontal(|ui| {
                            match left.get(&i) {
                                Some(&k) => {
                                    if ui.button(format!("Resume at step {}", k + 1)).clicked() {
                                        start = Some((i, k));
                                    }
                                    if ui
                                        .button("Start over")
                                        .on_hover_text("from its first step")
                                        .clicked()
                                    {
                                        start = Some((i, 0));
                                    }
                                }
                                None => {
                                    if ui.button("Start").clicked() {
                                        start = Some((i, 0));
                                    }
                                }
                            }
                            ui.strong(format!("{}. {title}", i + 1));
                            if finished.contains(&i) {
                                ui.colored_label(egui::Color32::from_rgb(40, 130, 70), "finished")
                                    .on_hover_text("played to its last step this session");
                            }
                        });
                        ui.weak(format!("{summary} ({steps} steps)"));
                        ui.add_space(4.0);
                    }
                });
            self.list_open = open;
            if let Some((i, k)) = start {
                cx.send(Command::Lesson(LessonCommand::Start(i, k)));
            }
        }
        self.highlighted = None;
        let Some((i, k)) = self.playing else {
            self.controls.clear();
            return;
        };
        let met = self.condition_met(cx.work);
        let lesson = &self.all()[i];
        let (title, n) = (lesson.title.clone(), lesson.steps.len());
        let step = lesson.steps[k].clone();
        let mut act = None;
        egui::Window::new(format!("Lesson: {title}"))
            .id(egui::Id::unique("lesson"))
            .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-12.0, -64.0))
            .default_width(380.0)
            .collapsible(true)
            .resizable(false)
            .show(ctx, |ui| {
                ui.weak(format!("Step {} of {n}", k + 1));
                ui.label(&step.text);
                ui.add_space(4.0);
                if step.until != Until::Next {
                    if met {
                        ui.colored_label(egui::Color32::from_rgb(40, 130, 70), "Done: press Next");
                    } else {
                        ui.colored_label(
                            egui::Color32::from_rgb(200, 120, 20),
                            format!("Try it: {}", step.hint),
                        );
                    }
                }
                ui.horizontal(|ui| {
                    if ui.add_enabled(k > 0, egui::Button::new("Back")).clicked() {
                        act = Some(-1);
                    }
                    let next = if k + 1 == n { "Finish" } else { "Next" };
                    if ui.add_enabled(met, egui::Button::new(next)).clicked() {
                        act = Some(1);
                    }
                    if ui
                        .button("Leave lesson")
                        .on_hover_text("Help ▸ Lessons resumes it here")
                        .clicked()
                    {
                        act = Some(0);
                    }
                });
            });
        match act {
            Some(1) => cx.send(Command::Lesson(LessonCommand::Next)),
            Some(-1) => cx.send(Command::Lesson(LessonCommand::Back)),
            Some(0) => cx.send(Command::Lesson(LessonCommand::Leave)),
            _ => {}
        }
        // The control the step names, outlined over everything: only where it was drawn this
        // frame (the panels draw before this window), so one that an edit removed (a
        // parameter of an algorithm no longer chosen) is not outlined on an empty spot.
        // The step now played: Next or Leave may just have changed it.
        let drawn = std::mem::take(&mut self.controls);
        let Some((i, k)) = self.playing else {
            return;
        };
        let highlight = self.all()[i].steps[k].highlight.clone();
        if let Some(&r) = highlight.as_deref().and_then(|h| drawn.get(h)) {
            self.highlighted = Some(r);
            let p = ctx.layer_painter(egui::LayerId::new(
                egui::Order::Foreground,
                egui::Id::unique("lesson-highlight"),
            ));
            p.rect_stroke(
                r.expand(3.0),
                4.0,
                egui::Stroke::new(3.0, crate::app::palette::CURRENT),
                egui::StrokeKind::Outside,
            );
        }
    }
    part_any!();
}

//! Run ▸ Dynamic experiment: Mäntysalo 2024's harness (the same code as `pathlab experiment
//! dynamic`) in a window, on a worker thread, with progress, a table of means and a chart.

use crate::app::jobs::{Job, Polled};
use crate::app::parts::{part_any, Cx, Menu, Part};
use crate::app::{Command, DialogPurpose};
use crate::experiment::dynamic::{self, DynAlgo, MapKind, Row, Setup, Summary};
use crate::experiment::mantysalo2024::{self, Scenario};
use eframe::egui::{self, RichText};
use egui_plot::{Bar, BarChart, Plot};

/// The variants offered: the thesis's, with pathlab's faster A* beside its A*; the first is the
/// baseline of the ratios.
static ALGOS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    let mut v = mantysalo2024::ALGOS.to_vec();
    v.insert(1, "astar:lane");
    v
});

/// The window's settings, the job in flight and the last result.
pub struct ExperimentWindow {
    pub open: bool,
    /// Room maps (else random blocks).
    pub room: bool,
    pub size: u32,
    /// Percent of the obstacles changed per event.
    pub magnitude: f64,
    pub runs: u32,
    pub seed: u64,
    chosen: Vec<bool>,
    job: Option<Job<(Setup, Vec<Row>)>>,
    /// The last finished experiment: its setup, rows and per-algorithm means.
    pub result: Option<(Setup, Vec<Row>, Vec<Summary>)>,
}

/// What can be asked of the experiment's window.
#[derive(Clone, Debug, PartialEq)]
pub enum ExperimentCommand {
    /// The map size (cells a side).
    Size(u32),
    /// Runs per variant.
    Runs(u32),
    /// One of Mäntysalo 2024's scenarios, with its variants.
    Scenario(Scenario),
}

impl Part for ExperimentWindow {
    fn windows(&mut self, cx: &mut Cx, ctx: &egui::Context) {
        if self.open && self.show(ctx) {
            cx.send(Command::AskFile(
                DialogPurpose::ExportCsv,
                "dynamic.csv".into(),
            ));
        }
    }
    // While it works, its window asks for a frame every 100 ms itself: the progress bar needs
    // no more, so no `wants_repaint`.
    fn menu_entry(&self) -> Option<(Menu, &'static str, &'static str)> {
        Some((
            Menu::Run,
            "Dynamic experiment (Mäntysalo 2024)…",
            "D* Lite, AD* and A* on a map that changes under an agent, in a table and a chart",
        ))
    }
    fn name(&self) -> &'static str {
        "experiment"
    }
    fn open(&mut self, _: &mut Cx) {
        self.open = true;
    }
    fn close(&mut self) {
        self.open = false;
        self.job = None;
    }
    part_any!();
}

impl Default for ExperimentWindow {
    fn default() -> Self {
        ExperimentWindow {
            open: false,
            room: true,
            size: 128,
            magnitude: 2.0,
            runs: 20,
            seed: 1,
            chosen: ALGOS
                .iter()
                .map(|a| mantysalo2024::COMPARED_FIRST.contains(a))
                .collect(),
            job: None,
            result: None,
        }
    }
}

impl ExperimentWindow {
    /// The setup the controls describe.
    pub fn setup(&self) -> Setup {
        Setup {
            kind: if self.room {
                MapKind::Room
            } else {
                MapKind::Random
            },
            size: self.size,
            magnitude: self.magnitude,
            runs: self.runs,
            algos: ALGOS
                .iter()
                .zip(&self.chosen)
                .filter(|(_, &on)| on)
                .filter_map(|(a, _)| DynAlgo::parse(a).ok())
                .collect(),
            seed: self.seed,
        }
    }

    /// The thesis's scenario the controls describe, if they describe one.
    pub fn scenario(&self) -> Option<Scenario> {
        let setup = self.setup();
        scenario_of(&setup)
    }

    /// Sets the controls to one of the thesis's scenarios, with its variants.
    pub fn use_scenario(&mut self, s: Scenario) {
        self.room = s.kind == MapKind::Room;
        self.size = s.size;
        self.magnitude = s.magnitude as f64;
        self.chosen = ALGOS
            .iter()
            .map(|a| mantysalo2024::ALGOS.contains(a))
            .collect();
    }

    /// Starts the experiment on a worker thread (rayon inside).
    pub fn start(&mut self) {
        let setup = self.setup();
        if setup.algos.is_empty() {
            return;
        }
        // Progress in thousandths of runs, so the bar moves while a long run walks.
        let total = 1000 * setup.runs.max(1) as u64;
        // On the desktop the runs go in parallel (rayon); a page has one thread, so there
        // each frame runs one run, with the same bar and Cancel between runs.
        #[cfg(not(target_arch = "wasm32"))]
        let job = Job::spawn("dynamic experiment", total, move |p| {
            let rows = dynamic::run_experiment(&setup, &|t| p.add(t as u64), p.cancel_flag());
            (setup, rows)
        });
        #[cfg(target_arch = "wasm32")]
        let job = Job::sliced("dynamic experiment", total, (setup, 0, vec![]), |s, p| {
            let (setup, r, rows) = s;
            if p.cancelled() || *r >= setup.runs {
                return Some((setup.clone(), std::mem::take(rows)));
            }
            rows.extend(dynamic::run_one(setup, *r, &|t| p.add(t as u64)));
            *r += 1;
            None
        });
        self.job = Some(job);
    }

    /// True while an experiment runs.
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// Takes a finished experiment's rows; true when one arrived.
    pub fn poll(&mut self) -> bool {
        let Some(job) = &mut self.job else {
            return false;
        };
        let cancelled = job.cancelled();
        let done = match job.poll() {
            Polled::Running => return false,
            Polled::Done(d) => Some(d),
            Polled::Lost => None,
        };
        self.job = None;
        if let Some((setup, rows)) = done.filter(|_| !cancelled) {
            let sum = dynamic::summarise(&setup.algos, &rows);
            self.result = Some((setup, rows, sum));
        }
        true
    }

    /// The last result as CSV (the command line's format).
    pub fn csv(&self) -> Option<String> {
        self.result
            .as_ref()
            .map(|(setup, rows, _)| dynamic::csv(setup, rows))
    }

    /// Draws the window; returns true when the user asks to save the CSV.
    pub fn show(&mut self, ctx: &egui::Context) -> bool {
        self.poll();
        let mut open = self.open;
        let mut save = false;
        egui::Window::new("Dynamic experiment (Mäntysalo 2024)")
            .open(&mut open)
            .default_width(760.0)
            .show(ctx, |ui| {
                self.controls(ui);
                ui.separator();
                save = self.results(ui);
            });
        if !open {
            self.close();
        }
        if self.running() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        save
    }

    /// Does what `c` asks.
    pub fn apply(&mut self, c: ExperimentCommand) {
        match c {
            ExperimentCommand::Size(n) => self.size = n,
            ExperimentCommand::Runs(n) => self.runs = n.max(1),
            ExperimentCommand::Scenario(sc) => self.use_scenario(sc),
        }
    }

    fn controls(&mut self, ui: &mut egui::Ui) {
        ui.label(
            "An agent crosses the map one cell per tick; every 10 ticks a share of the \
             obstacles opens or closes, and the agent replans. Every algorithm faces the \
             same maps and change tapes.",
        );
        let idle = !self.running();
        ui.add_enabled_ui(idle, |ui| {
            egui::Grid::new("exp-setup").num_columns(2).show(ui, |ui| {
                let l = ui.label("preset");
                let current = self.scenario().map_or("none".to_string(), |s| s.name());
                let combo = egui::ComboBox::from_id_salt("exp-preset")
                    .selected_text(format!("Mäntysalo 2024: {current}"))
                    .show_ui(ui, |ui| {
                        for s in mantysalo2024::all() {
                            if ui.selectable_label(false, s.name()).clicked() {
                                self.use_scenario(s);
                            }
                        }
                    });
                combo.response.labelled_by(l.id);
                ui.end_row();
                ui.label("map");
                ui.horizontal(|ui| {
                    ui.radio_value(&mut self.room, true, "rooms with doors");
                    ui.radio_value(&mut self.room, false, "random blocks");
                });
                ui.end_row();
                ui.label("size");
                ui.add(
                    egui::DragValue::new(&mut self.size)
                        .range(16..=1024)
                        .suffix(" cells"),
                );
                ui.end_row();
                ui.label("change magnitude");
                ui.add(
                    egui::DragValue::new(&mut self.magnitude)
                        .range(0.5..=100.0)
                        .speed(0.5)
                        .suffix(" %"),
                );
                ui.end_row();
                let l = ui.label("runs");
                ui.add(egui::DragValue::new(&mut self.runs).range(1..=1000))
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("seed");
                ui.add(egui::DragValue::new(&mut self.seed))
                    .labelled_by(l.id);
                ui.end_row();
            });
            ui.horizontal_wrapped(|ui| {
                for (a, on) in ALGOS.iter().zip(self.chosen.iter_mut()) {
                    ui.checkbox(on, *a);
                }
            });
        });
        ui.horizontal(|ui| match &self.job {
            Some(job) => {
                let (d, total) = job.progress();
                ui.add(
                    egui::ProgressBar::new(d as f32 / total as f32)
                        .text(format!(
                            "{}: {:.1} of {} runs",
                            job.name(),
                            d as f64 / 1000.0,
                            total / 1000
                        ))
                        .desired_width(300.0),
                );
                if ui.button("Cancel").clicked() {
                    job.cancel();
                }
            }
            None => {
                if ui.button("Run experiment").clicked() {
                    self.start();
                }
            }
        });
    }

    /// The table and chart of the last result; true when "Save CSV" was clicked.
    fn results(&mut self, ui: &mut egui::Ui) -> bool {
        let Some((setup, _, sum)) = &self.result else {
            ui.label("No result yet.");
            return false;
        };
        ui.label(
            RichText::new(format!(
                "{} {} × {}, {}% per change, {} runs, seed {}",
                setup.kind.name(),
                setup.size,
                setup.size,
                setup.magnitude,
                setup.runs,
                setup.seed
            ))
            .strong(),
        );
        let base = sum.first().map_or(1.0, |s| s.recompute_ms.max(1e-9));
        // Beside a thesis scenario, its published means (Appendix A) in grey after a slash.
        let thesis = scenario_of(setup).map(|s| s.thesis());
        let t_base = scenario_of(setup)
            .and_then(|s| s.thesis_baseline())
            .map_or(1.0, |r| r.5);
        if let Some(s) = scenario_of(setup) {
            ui.label(format!(
                "pathlab / Mäntysalo 2024 (Table A.{}, 100 runs; times on other hardware)",
                s.table()
            ));
        }
        // Its last column was cut off at the window's edge: the table scrolls sideways
        // instead, in a window wide enough for it as it opens.
        egui::ScrollArea::horizontal()
            .id_salt("exp-table-scroll")
            .show(ui, |ui| {
                egui::Grid::new("exp-table")
                    .striped(true)
                    .num_columns(8)
                    .show(ui, |ui| {
                        for h in [
                            "algorithm",
                            "success",
                            "length",
                            "replans",
                            "expanded",
                            "recompute ms",
                            "× first",
                            "total ms",
                        ] {
                            ui.label(RichText::new(h).strong());
                        }
                        ui.end_row();
                        for s in sum {
                            let name = s.algo.name();
                            let t = thesis
                                .as_ref()
                                .and_then(|t| t.iter().find(|r| r.3 == name).copied());
                            let pair = |ours: String, theirs: Option<String>| match theirs {
                                Some(v) => format!("{ours} / {v}"),
                                None => ours,
                            };
                            ui.label(&name);
                            ui.label(format!("{:.0}%", s.success * 100.0));
                            ui.label(pair(
                                format!("{:.0}", s.path_length),
                                t.map(|r| format!("{:.0}", r.6)),
                            ));
                            ui.label(format!("{:.1}", s.replans));
                            ui.label(pair(
                                format!("{:.0}", s.expanded),
                                t.map(|r| format!("{:.0}", r.7)),
                            ));
                            ui.label(pair(
                                format!("{:.4}", s.recompute_ms),
                                t.map(|r| format!("{:.3}", r.5)),
                            ));
                            ui.label(pair(
                                format!("{:.2}", s.recompute_ms / base),
                                t.map(|r| format!("{:.2}", r.5 / t_base)),
                            ));
                            ui.label(pair(
                                format!("{:.1}", s.total_ms),
                                t.map(|r| format!("{:.0}", r.4)),
                            ));
                            ui.end_row();
                        }
                    });
            });
        let bars: Vec<Bar> = sum
            .iter()
            .enumerate()
            .map(|(i, s)| Bar::new(i as f64, s.recompute_ms).name(s.algo.name()))
            .collect();
        let names: Vec<String> = sum.iter().map(|s| s.algo.name()).collect();
        Plot::new("exp-recompute")
            .height(160.0)
            .allow_scroll(false)
            .allow_drag(false)
            .y_axis_label("recompute ms per replan")
            .x_axis_label("algorithm")
            .x_axis_formatter(move |m, _| {
                let i = m.value.round();
                if (m.value - i).abs() < 1e-6 && i >= 0.0 {
                    names.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .show(ui, |p| {
                p.bar_chart(BarChart::new("recompute ms", bars).width(0.6));
            });
        ui.button("Save CSV…").clicked()
    }
}

/// The thesis's scenario a setup is, when it is one.
fn scenario_of(setup: &Setup) -> Option<Scenario> {
    mantysalo2024::all().into_iter().find(|s| {
        s.kind == setup.kind && s.size == setup.size && s.magnitude as f64 == setup.magnitude
    })
}

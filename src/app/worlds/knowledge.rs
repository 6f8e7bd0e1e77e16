//! The cognitive map of a hex world (Rahmani 2020's "GPS of the brain"), in the left panel:
//! how much is known, C_max, clear or fill it, build it to a share by prior explorations, the
//! perceptual studies' settings, compare views at several knowledge levels, and the experiment
//! of the thesis's Fig. 5.9 as a chart. The Know tool paints visits by hand.

use crate::app::parts::PanelCx;
use crate::app::{AlgoChoice, Command, PathlabApp, Touched};
use crate::experiment::gps_run::{self, build_knowledge, HexWorld};
use crate::search::gps::{Exploring, Options};
use crate::search::registry::Overlay;
use crate::space::{CognitiveMap, Space};
use eframe::egui;
use std::sync::Arc;

impl crate::app::parts::Part for KnowledgePanel {
    crate::app::parts::part_any!();
}

/// The panel's settings and the last experiment's result.
pub struct KnowledgePanel {
    /// Draw the heatmap.
    pub show: bool,
    /// Share (%) a build makes known.
    pub share: u32,
    pub delta: f64,
    pub c: u32,
    pub c_max: u32,
    pub seed: u64,
    /// Runs per level of the experiment.
    pub runs: u32,
    /// The experiment's mean ratio to A* per knowledge level.
    pub chart: Option<Vec<(u32, f64)>>,
    /// The chart's window is open.
    pub chart_open: bool,
    /// A Know stroke: the map before it and the hexes it visited.
    stroke: Option<(Option<CognitiveMap>, rustc_hash::FxHashSet<u32>)>,
}

impl Default for KnowledgePanel {
    fn default() -> Self {
        KnowledgePanel {
            show: true,
            share: 50,
            delta: -0.5,
            c: 5,
            c_max: crate::space::knowledge::DEFAULT_C_MAX,
            seed: 1,
            runs: 20,
            chart: None,
            chart_open: false,
            stroke: None,
        }
    }
}

/// The perceptual studies' settings (§5.6): experiment 1's δ and C, and experiment 2's four
/// maps with their knowledge.
pub const PRESETS: [(&str, Option<u32>, f64, u32); 5] = [
    ("Experiment 1: δ = −0.5, C = 5", None, -0.5, 5),
    (
        "Experiment 2, map 0: 0% known, δ = −1, C = 10",
        Some(0),
        -1.0,
        10,
    ),
    (
        "Experiment 2, map 1: 35% known, δ = −0.8, C = 8",
        Some(35),
        -0.8,
        8,
    ),
    (
        "Experiment 2, map 2: 70% known, δ = −0.6, C = 6",
        Some(70),
        -0.6,
        6,
    ),
    (
        "Experiment 2, map 3: 100% known, δ = −0.4, C = 4",
        Some(100),
        -0.4,
        4,
    ),
];

impl PathlabApp {
    /// The document's hexes with their largest connected part.
    fn hex_world(&self) -> Option<HexWorld> {
        Some(HexWorld::of(self.work.space.as_hex()?.clone()))
    }

    /// A cognitive map with `share`% of the walkable hexes known, built by seeded prior
    /// explorations with the panel's δ and C.
    pub fn knowledge_at(&self, share: u32) -> Option<CognitiveMap> {
        let k = &self.parts.of::<KnowledgePanel>();
        let w = self.hex_world()?;
        let p = Exploring {
            delta: k.delta,
            c: k.c,
        };
        Some(build_knowledge(&w, share as f64 / 100.0, p, k.c_max, k.seed).0)
    }

    /// Replaces the document's cognitive map (undoable); the runs search again.
    pub fn set_knowledge(&mut self, k: Option<CognitiveMap>, what: String) {
        self.work.doc.set_knowledge(k);
        self.touched(Touched::Knowledge);
        self.status = what;
    }

    /// The GPS planner with the panel's δ and C, for new views.
    pub fn gps_choice(&self) -> AlgoChoice {
        let k = &self.parts.of::<KnowledgePanel>();
        let spec = format!("gps:delta={},c={},seed={}", k.delta, k.c, k.seed);
        AlgoChoice::from_spec(&spec).unwrap_or_else(|_| AlgoChoice::named("gps"))
    }

    /// Views of the GPS planner, one per knowledge level, each on a cognitive map built to
    /// that share (replacing the views shown). Up to five: the thesis compares its five
    /// levels side by side, the one place the centre shows more than four views.
    pub fn compare_knowledge(&mut self, levels: &[u32]) {
        let choice = self.gps_choice();
        let mut views = vec![];
        for &level in levels.iter().take(5) {
            let Some(map) = self.knowledge_at(level) else {
                return self.report_error("Knowledge levels", "they need a hex world".into());
            };
            let built = crate::app::ViewWorld::knowing(&self.work.doc, level, Arc::new(map))
                .and_then(|w| {
                    let run = crate::app::Run::new(choice.clone(), &w.space, w.query())?;
                    Ok((w, run))
                });
            match built {
                Ok((w, run)) => views.push(crate::app::View {
                    run,
                    tex: Default::default(),
                    serial: self.bump(),
                    world: Some(Box::new(w)),
                    gps: Default::default(),
                }),
                Err(e) => return self.report_error("Knowledge levels", e),
            }
        }
        self.work.views = views;
        self.display.active = 0;
        self.display.diff = false;
        self.restart_all();
        self.to_end();
        let names: Vec<String> = levels.iter().map(|l| format!("{l}%")).collect();
        self.status = format!(
            "GPS of the brain with {} of the hexes known, each beside A*'s path (dashed)",
            names.join(", ")
        );
    }

    /// The thesis's experiment on this world: mean ratio of the walk to A* per level.
    pub fn knowledge_experiment(&mut self) {
        let Some(w) = self.hex_world() else {
            return;
        };
        let k = &self.parts.of_mut::<KnowledgePanel>();
        let levels = vec![0, 25, 50, 75, 100];
        let setup = gps_run::Setup {
            knowledge: levels.clone(),
            runs: k.runs,
            params: Exploring {
                delta: k.delta,
                c: k.c,
            },
            c_max: k.c_max,
            seed: k.seed,
            options: Options::default(),
            limit_factor: 50,
        };
        match gps_run::run(&w, &setup) {
            Ok((rows, _)) => {
                let m = gps_run::mean_ratios(&rows, &levels);
                self.status = format!(
                    "Mean ratio to A*: {}",
                    m.iter()
                        .map(|(l, r)| format!("{l}% {r:.2}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                self.parts.of_mut::<KnowledgePanel>().chart = Some(m);
                self.parts.of_mut::<KnowledgePanel>().chart_open = true;
            }
            Err(e) => self.report_error("The experiment did not run", e),
        }
    }

    /// A Know stroke over hex `c`: one more visit (or, with `forget`, none), once per stroke.
    pub(in crate::app) fn paint_knowledge(&mut self, c: (u32, u32), forget: bool) {
        let Some(n) = self.work.space.node(c.0, c.1) else {
            return;
        };
        if !self.work.space.as_hex().is_some_and(|h| h.is_passable(n)) {
            return;
        }
        let hexes = self.work.space.num_nodes();
        let c_max = self.parts.of_mut::<KnowledgePanel>().c_max;
        let stroke = self
            .parts
            .of_mut::<KnowledgePanel>()
            .stroke
            .get_or_insert_with(|| (self.work.doc.knowledge().cloned(), Default::default()));
        if !stroke.1.insert(n) {
            return;
        }
        let map = self
            .work
            .doc
            .knowledge_mut(|| CognitiveMap::new(hexes, c_max));
        if forget {
            map.counters[n as usize] = 0;
        } else {
            map.visit(n);
        }
        self.work.space.set_knowledge(self.work.doc.knowledge());
    }

    /// Ends a Know stroke: one undoable change, and the runs search again.
    pub(in crate::app) fn end_knowledge_stroke(&mut self) {
        if let Some((before, hexes)) = self.parts.of_mut::<KnowledgePanel>().stroke.take() {
            let after = self.work.doc.swap_knowledge(before);
            self.set_knowledge(after, format!("Knowledge painted on {} hexes", hexes.len()));
        }
    }
}

/// What the panel asks of the cognitive map.
#[derive(Clone, Debug, PartialEq)]
pub enum KnowledgeCommand {
    /// C_max of the map (and of maps built later).
    CMax(u32),
    /// Nothing known.
    Clear,
    /// Every hex known C_max times.
    AllKnown,
    /// Explorations between random hexes until this share (%) is known.
    Build(u32),
    /// One of the perceptual studies' settings ([`PRESETS`]): a share to build, δ and C.
    Preset(Option<u32>, f64, u32),
    /// The experiment of Fig. 5.9 at 0, 25, 50, 75 and 100% known, against A*.
    Experiment,
}

impl PathlabApp {
    /// Does what `c` asks of the cognitive map.
    pub(crate) fn apply_knowledge(&mut self, c: KnowledgeCommand) {
        match c {
            KnowledgeCommand::CMax(c_max) => {
                let mut m = self.work.doc.knowledge().cloned();
                if let Some(m) = m.as_mut() {
                    m.set_c_max(c_max);
                }
                self.set_knowledge(m, format!("C_max is now {c_max}"));
            }
            KnowledgeCommand::Clear => {
                self.set_knowledge(None, "The cognitive map is cleared".into())
            }
            KnowledgeCommand::AllKnown => {
                let m = self.knowledge_at(100).map(|mut m| {
                    m.counters.iter_mut().for_each(|c| *c = m.c_max);
                    m
                });
                self.set_knowledge(m, "Every hex known C_max times".into())
            }
            KnowledgeCommand::Build(share) => {
                let m = self.knowledge_at(share);
                self.set_knowledge(m, format!("A cognitive map with {share}% known"))
            }
            KnowledgeCommand::Preset(share, delta, c) => self.apply_preset(share, delta, c),
            KnowledgeCommand::Experiment => self.knowledge_experiment(),
        }
    }
}

pub(in crate::app) fn panel(cx: &mut PanelCx, ui: &mut egui::Ui) {
    let Some(hex) = cx.work.space.as_hex() else {
        return;
    };
    let walkable = (0..hex.num_nodes() as u32)
        .filter(|&n| hex.is_passable(n))
        .count();
    let known = cx.work.doc.knowledge().map_or(0, |k| {
        (0..k.counters.len() as u32)
            .filter(|&n| k.known(n) && hex.is_passable(n))
            .count()
    });
    let mut act: Option<Command> = None;
    // Open by default only when a GPS view or a cognitive map is there to work with: the panel
    // is long, and pushes the dynamic world's controls down.
    let wanted = cx.work.doc.knowledge().is_some()
        || cx
            .work
            .views
            .iter()
            .any(|v| v.run.choice.info.draws(Overlay::Walk));
    egui::CollapsingHeader::new("Cognitive map (Rahmani 2020)")
        .default_open(wanted)
        .show(ui, |ui| {
            let k = cx.parts.of_mut::<KnowledgePanel>();
            ui.label(format!(
                "{known} of {walkable} walkable hexes known ({:.0}%). Blue: visits, darker the \
                 better known; the counter heuristic and GPS of the brain read them.",
                100.0 * known as f64 / walkable.max(1) as f64
            ));
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut k.show, "Show");
                let l = ui.label("C_max");
                let before = k.c_max;
                ui.add(egui::DragValue::new(&mut k.c_max).range(1..=100))
                    .labelled_by(l.id)
                    .on_hover_text("the most visits a hex counts: λ runs from 1 (known C_max times) to 2·C_max (unknown)");
                if k.c_max != before {
                    act = Some(Command::Knowledge(KnowledgeCommand::CMax(k.c_max)));
                }
            });
            ui.horizontal_wrapped(|ui| {
                if ui.button("Clear").on_hover_text("nothing known").clicked() {
                    act = Some(Command::Knowledge(KnowledgeCommand::Clear));
                }
                if ui
                    .button("All at C_max")
                    .on_hover_text("every hex known as well as can be: the counter A* is A*")
                    .clicked()
                {
                    act = Some(Command::Knowledge(KnowledgeCommand::AllKnown));
                }
            });
            ui.horizontal_wrapped(|ui| {
                let l = ui.label("δ");
                ui.add(egui::DragValue::new(&mut k.delta).range(-1.0..=0.8).speed(0.01))
                    .labelled_by(l.id)
                    .on_hover_text("confidence in the goal direction (−1: none)");
                let l = ui.label("C");
                ui.add(egui::DragValue::new(&mut k.c).range(1..=100))
                    .labelled_by(l.id)
                    .on_hover_text("hexes walked before choosing again");
                let l = ui.label("seed");
                ui.add(egui::DragValue::new(&mut k.seed)).labelled_by(l.id);
            });
            ui.horizontal_wrapped(|ui| {
                let l = ui.label("Known");
                ui.add(egui::Slider::new(&mut k.share, 0..=100).suffix("%"))
                    .labelled_by(l.id);
                if ui
                    .button("Build")
                    .on_hover_text("explorations between random hexes until this share is known")
                    .clicked()
                {
                    act = Some(Command::Knowledge(KnowledgeCommand::Build(k.share)));
                }
            });
            ui.horizontal_wrapped(|ui| {
                let l = ui.label("Preset");
                egui::ComboBox::from_id_salt("gps-presets")
                    .selected_text("perceptual studies…")
                    .show_ui(ui, |ui| {
                        for (name, share, delta, c) in PRESETS {
                            if ui.selectable_label(false, name).clicked() {
                                let preset = KnowledgeCommand::Preset(share, delta, c);
                                act = Some(Command::Knowledge(preset));
                            }
                        }
                    })
                    .response
                    .labelled_by(l.id);
            });
            ui.horizontal_wrapped(|ui| {
                let tip = "views of GPS of the brain, each on its own cognitive map";
                if ui.button("Compare 0 / 50 / 100% known").on_hover_text(tip).clicked() {
                    act = Some(Command::CompareKnowledge(vec![0, 50, 100]));
                }
                if ui.button("0 / 25 / 50 / 75 / 100%").on_hover_text(tip).clicked() {
                    act = Some(Command::CompareKnowledge(vec![0, 25, 50, 75, 100]));
                }
            });
            ui.horizontal_wrapped(|ui| {
                if ui
                    .button("Run the experiment")
                    .on_hover_text("walks between random hexes at 0, 25, 50, 75 and 100% known, against A*")
                    .clicked()
                {
                    act = Some(Command::Knowledge(KnowledgeCommand::Experiment));
                }
                let l = ui.label("runs");
                ui.add(egui::DragValue::new(&mut k.runs).range(1..=500))
                    .labelled_by(l.id);
            });
            if k.chart.is_some() && ui.button("Chart").clicked() {
                k.chart_open = true;
            }
            if let Some(m) = &k.chart {
                // A window of its own: in the panel the chart was 200 px wide.
                let mut open = k.chart_open;
                egui::Window::new("GPS of the brain: path length / A* by knowledge")
                    .id(egui::Id::unique("gps-chart-window"))
                    .open(&mut open)
                    .default_size([560.0, 380.0])
                    .resizable(true)
                    .show(ui.ctx(), |ui| chart(ui, m));
                k.chart_open = open;
            }
        });
    if let Some(c) = act {
        cx.send(c);
    }
}

impl PathlabApp {
    /// A perceptual study's settings: δ and C for the panel and every GPS view, and the
    /// knowledge it names, built.
    fn apply_preset(&mut self, share: Option<u32>, delta: f64, c: u32) {
        (
            self.parts.of_mut::<KnowledgePanel>().delta,
            self.parts.of_mut::<KnowledgePanel>().c,
        ) = (delta, c);
        for i in 0..self.work.views.len() {
            if self.work.views[i].run.choice.info.draws(Overlay::Walk) {
                let mut choice = self.work.views[i].run.choice.clone();
                choice.values.insert("delta".into(), delta);
                choice.values.insert("c".into(), c as f64);
                self.set_algorithm(i, choice);
            }
        }
        match share {
            Some(s) => {
                self.parts.of_mut::<KnowledgePanel>().share = s;
                let m = self.knowledge_at(s);
                self.set_knowledge(m, format!("δ = {delta}, C = {c}, {s}% known"));
            }
            None => self.status = format!("δ = {delta}, C = {c}"),
        }
    }
}

/// Mean ratio to A* against knowledge, with the thesis's numbers (Fig. 5.9, Fig. 5.6): both as
/// markers with their values on hover, the axes the thesis's (1 to 4, 0 to 100%).
fn chart(ui: &mut egui::Ui, m: &[(u32, f64)]) {
    use egui_plot::{HoverPosition, Legend, Line, Plot, PlotPoints, Points};
    let ours: Vec<[f64; 2]> = m.iter().map(|&(l, r)| [l as f64, r]).collect();
    let thesis = vec![[0.0, 3.6], [75.0, 1.07], [100.0, 1.0]];
    Plot::new("gps-chart")
        .height((ui.available_height() - 60.0).max(220.0))
        .legend(Legend::default())
        .x_axis_label("known (%)")
        .y_axis_label("length / A*")
        .include_x(-5.0)
        .include_x(105.0)
        .include_y(1.0)
        .include_y(4.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .label_formatter(|p: &HoverPosition<'_>| match p {
            HoverPosition::NearDataPoint {
                plot_name,
                position,
                ..
            } => Some(format!(
                "{plot_name}\n{:.0}% known: {:.3} × A*",
                position.x, position.y
            )),
            HoverPosition::Elsewhere { .. } => None,
        })
        .show(ui, |p| {
            // One colour per source, line and markers alike.
            let (mine, theirs) = (crate::app::palette::ONLY_A, crate::app::palette::PATH);
            p.line(Line::new("pathlab", PlotPoints::from(ours.clone())).color(mine));
            p.points(
                Points::new("pathlab", PlotPoints::from(ours))
                    .radius(4.0)
                    .color(mine),
            );
            p.points(
                Points::new("Rahmani 2020", PlotPoints::from(thesis))
                    .radius(5.0)
                    .color(theirs),
            );
        });
    let at0 = m.iter().find(|(l, _)| *l == 0).map(|p| p.1);
    ui.label(format!(
        "At 0% the thesis's Fig. 5.9 reaches about 3.6 on maps and start–goal pairs it does not \
         publish; pathlab's mean here is {}. With the thesis's δ = −0.5 and C = 5 walks on three \
         maps average 1.9–2.5 (maxima 2.4–3.4); δ = −1 with full legs of C = 10 reaches 3.5–4.6 \
         (README, GPS of the brain).",
        at0.map_or("—".to_string(), |r| format!("{r:.2}"))
    ));
}

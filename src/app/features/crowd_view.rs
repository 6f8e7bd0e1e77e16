//! The crowd window's drawing: its controls, two to four heat views side by side on one colour
//! scale with a legend of the numbers, the counts under the pointer, and the first agents
//! animated along their paths.

use super::crowd::{CrowdResult, CrowdWindow, Panel, Show};
use crate::app::parts::{part_any, Cx, Menu, Part};
use crate::app::workspace::Workspace;
use crate::app::{Command, DialogPurpose};
use crate::crowd::{Heat, Method, Scale};
use eframe::egui::{self, Color32, Pos2, Rect, RichText, Sense, Vec2};

/// What the user asked the window for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    Nothing,
    Run,
    ExportPng,
    ExportCsv,
}

/// The counts each view shows, with its title (one view, the difference, in that mode).
pub fn heats(r: &CrowdResult, show: Show) -> Vec<(Heat, String)> {
    match show {
        Show::Difference if r.outcomes.len() >= 2 => {
            let (a, b) = (&r.outcomes[0], &r.outcomes[1]);
            vec![(
                b.2.traffic.minus(&a.2.traffic),
                format!("traffic: {} minus {}", b.0.label(), a.0.label()),
            )]
        }
        _ => r
            .outcomes
            .iter()
            .map(|(_, title, o)| {
                let h = match show {
                    Show::Expansions => o.expansions.clone(),
                    _ => o.traffic.clone(),
                };
                (h, title.clone())
            })
            .collect(),
    }
}

/// One scale for every view shown.
pub fn scale(heats: &[(Heat, String)], show: Show) -> Scale {
    match (show, heats.first()) {
        (Show::Difference, Some((h, _))) if heats.len() == 1 => Scale::signed(h),
        _ => Scale::counts(&heats.iter().map(|(h, _)| h).collect::<Vec<_>>()),
    }
}

impl CrowdWindow {
    /// Draws the window; returns what the user asked for.
    /// `scenario`: problems in the open scenario (0: none).
    pub fn show(&mut self, ctx: &egui::Context, square: bool, scenario: usize) -> Asked {
        self.poll();
        // While an area is painted the window steps aside: a small note instead, so the map
        // under it can be dragged on.
        if let Some(k) = self.painting {
            let name = ["start", "goal"][k.min(1)];
            egui::Window::new("Crowd: painting an area")
                .anchor(egui::Align2::CENTER_TOP, [0.0, 40.0])
                .collapsible(false)
                .resizable(false)
                .show(ctx, |ui| {
                    ui.label(format!("Drag a rectangle on the map: the {name} area."));
                    if ui.button("Cancel").clicked() {
                        self.painting = None;
                    }
                });
            return Asked::Nothing;
        }
        let mut open = self.open;
        let mut asked = Asked::Nothing;
        egui::Window::new("Crowd (Rahmani 2020, ch. 4)")
            .open(&mut open)
            .default_size([1100.0, 640.0])
            .show(ctx, |ui| {
                asked = self.controls(ui, square, scenario);
                ui.separator();
                if let Some(a) = self.views(ui) {
                    asked = a;
                }
            });
        if !open {
            Part::close(self);
        }
        if self.running() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        asked
    }

    fn controls(&mut self, ui: &mut egui::Ui, square: bool, scenario: usize) -> Asked {
        let mut asked = Asked::Nothing;
        if !square {
            ui.label("Crowds walk square maps: open or convert one to squares first.");
            return asked;
        }
        ui.add_enabled_ui(!self.running(), |ui| {
            if scenario > 0 {
                ui.checkbox(
                    &mut self.from_scenario,
                    format!("the open scenario's {scenario} problems as the agents"),
                );
            } else {
                self.from_scenario = false;
            }
            ui.horizontal_wrapped(|ui| {
                for (k, name) in ["start area", "goal area"].into_iter().enumerate() {
                    let label = match (self.painting == Some(k), self.areas[k]) {
                        (true, _) => format!("drag the {name} on the map…"),
                        (false, Some([a, b])) => {
                            format!("{name} ({}, {})–({}, {})", a.0, a.1, b.0, b.1)
                        }
                        (false, None) => format!("paint the {name}"),
                    };
                    if ui
                        .selectable_label(self.painting == Some(k), label)
                        .on_hover_text("then drag a rectangle on the map")
                        .clicked()
                    {
                        self.painting = (self.painting != Some(k)).then_some(k);
                    }
                }
                let both = self.areas.iter().all(Option::is_some);
                ui.add_enabled(
                    both && !self.from_scenario,
                    egui::Checkbox::new(&mut self.between_areas, "agents between the areas"),
                );
            });
            ui.horizontal_wrapped(|ui| {
                ui.add_enabled_ui(!self.from_scenario, |ui| {
                    let l = ui.label("agents");
                    ui.add(
                        egui::DragValue::new(&mut self.agents)
                            .range(1..=1_000_000)
                            .speed(50.0),
                    )
                    .labelled_by(l.id);
                    let l = ui.label("seed");
                    ui.add(egui::DragValue::new(&mut self.seed))
                        .labelled_by(l.id);
                    let l = ui.label("shared goals");
                    ui.add(egui::DragValue::new(&mut self.goals).range(0..=1000))
                        .labelled_by(l.id)
                        .on_hover_text("0: each agent its own random goal");
                });
                // Flow fields are built per goal: said before the run, with the fix a click away.
                let flow = Panel::ALL
                    .iter()
                    .zip(self.chosen)
                    .any(|(p, on)| on && p.method == Method::Flow);
                let goals = if self.goals == 0 {
                    self.agents
                } else {
                    self.goals
                };
                if flow && !self.from_scenario && goals > crate::crowd::MANY_FLOW_GOALS {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        format!(
                            "Flow fields: one field (a whole-map search) per goal, {goals} here."
                        ),
                    );
                    if ui.button("Share 16 goals").clicked() {
                        self.goals = 16;
                    }
                }
                ui.separator();
                // Up to four views side by side.
                let full = self.chosen.iter().filter(|&&c| c).count() >= 4;
                for (p, on) in Panel::ALL.iter().zip(self.chosen.iter_mut()) {
                    // PCCP plans on a hierarchy, which a page cannot build (no METIS).
                    if cfg!(target_arch = "wasm32") && p.method == Method::Pccp {
                        *on = false;
                        ui.add_enabled(false, egui::Checkbox::new(on, p.label()))
                            .on_disabled_hover_text(crate::hier::partition::NO_METIS_ON_THE_WEB);
                        continue;
                    }
                    ui.add_enabled(*on || !full, egui::Checkbox::new(on, p.label()));
                }
            });
        });
        ui.horizontal(|ui| {
            match self.progress() {
                Some((d, total)) => {
                    ui.add(
                        egui::ProgressBar::new(d as f32 / total.max(1) as f32)
                            .text(format!("planning: {d} of {total} agents"))
                            .desired_width(320.0),
                    );
                    if ui.button("Cancel").clicked() {
                        self.cancel();
                    }
                }
                None => {
                    let can = !self.panels().is_empty();
                    if ui
                        .add_enabled(can, egui::Button::new("Run batch"))
                        .clicked()
                    {
                        asked = Asked::Run;
                    }
                }
            }
            ui.separator();
            ui.radio_value(&mut self.show, Show::Traffic, "traffic");
            ui.radio_value(&mut self.show, Show::Expansions, "expansions");
            let two = self.result.as_ref().is_some_and(|r| r.outcomes.len() >= 2);
            ui.add_enabled_ui(two, |ui| {
                ui.radio_value(&mut self.show, Show::Difference, "difference")
                    .on_hover_text("the second view's traffic minus the first's");
            });
            ui.separator();
            let has = self.result.is_some();
            if ui
                .add_enabled(has, egui::Button::new("Export PNG…"))
                .clicked()
            {
                asked = Asked::ExportPng;
            }
            if ui
                .add_enabled(has, egui::Button::new("Export counts CSV…"))
                .clicked()
            {
                asked = Asked::ExportCsv;
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(Color32::from_rgb(178, 24, 43), e);
        }
        asked
    }

    /// The views, their legend and the animation slider.
    fn views(&mut self, ui: &mut egui::Ui) -> Option<Asked> {
        let planning = self.progress().map(|(d, total)| {
            let pc = 100.0 * d as f64 / total.max(1) as f64;
            format!("Planning… {d} of {total} agents ({pc:.0}%)")
        });
        let Some(r) = &self.result else {
            ui.label(
                planning.unwrap_or_else(|| {
                    "No batch yet: choose the views and press Run batch.".into()
                }),
            );
            return None;
        };
        if let Some(p) = planning {
            ui.label(format!(
                "{p}; the views show the last batch until it is done."
            ));
        }
        ui.label(RichText::new(&r.source).strong());
        for n in &r.notices {
            ui.colored_label(Color32::from_rgb(178, 24, 43), n);
        }
        let show = if self.show == Show::Difference && r.outcomes.len() < 2 {
            Show::Traffic
        } else {
            self.show
        };
        let heats = heats(r, show);
        let scale = scale(&heats, show);
        if self.drawn != Some((r.serial, show)) {
            self.textures = heats
                .iter()
                .enumerate()
                .map(|(i, (h, _))| {
                    let img = h.to_pixels(&r.grid, scale);
                    let c = egui::ColorImage::from_rgb(
                        [img.width() as usize, img.height() as usize],
                        img.as_raw(),
                    );
                    ui.ctx().load_texture(
                        format!("crowd-heat-{i}"),
                        c,
                        egui::TextureOptions::NEAREST,
                    )
                })
                .collect();
            self.drawn = Some((r.serial, show));
        }
        let longest = r
            .outcomes
            .iter()
            .filter_map(|(_, _, o)| o.paths.as_ref())
            .flat_map(|ps| ps.iter().map(|p| p.len()))
            .max()
            .unwrap_or(0);
        let (w, h) = (r.grid.width() as f32, r.grid.height() as f32);
        let gap = 8.0;
        // Room under the views for the legend, the counts line and the animation's slider.
        let avail = ui.available_size() - Vec2::new(0.0, 100.0);
        let k = heats.len() as f32;
        let side = ((avail.x - gap * (k - 1.0)) / k / w)
            .min(avail.y / h)
            .max(0.05);
        let mut hovered: Option<(u32, u32)> = None;
        ui.horizontal_top(|ui| {
            for (i, (_, title)) in heats.iter().enumerate() {
                ui.vertical(|ui| {
                    ui.set_width(w * side);
                    ui.label(RichText::new(title).small());
                    let (rect, resp) =
                        ui.allocate_exact_size(Vec2::new(w, h) * side, Sense::hover());
                    let uv = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
                    ui.painter()
                        .image(self.textures[i].id(), rect, uv, Color32::WHITE);
                    if let Some(p) = resp.hover_pos() {
                        let c = ((p - rect.min) / side).floor();
                        hovered = Some((c.x as u32, c.y as u32));
                    }
                    // The first agents at the slider's step (every view keeps their paths).
                    if show != Show::Difference {
                        if let Some(paths) = &r.outcomes[i].2.paths {
                            let t = self.time as usize;
                            for p in paths.iter().filter(|p| !p.is_empty()) {
                                let (x, y) = r.grid.xy(p[t.min(p.len() - 1)]);
                                let at =
                                    rect.min + Vec2::new(x as f32 + 0.5, y as f32 + 0.5) * side;
                                ui.painter()
                                    .circle_filled(at, 2.5, Color32::from_rgb(40, 190, 90));
                            }
                        }
                    }
                });
                ui.add_space(gap);
            }
        });
        legend(ui, scale, show);
        if let Some((x, y)) = hovered.filter(|&(x, y)| x < r.grid.width() && y < r.grid.height()) {
            let n = (y * r.grid.width() + x) as usize;
            let values: Vec<String> = heats
                .iter()
                .map(|(h, t)| {
                    let name = t.split(':').next().unwrap_or(t);
                    format!("{name}: {}", h.values[n])
                })
                .collect();
            ui.label(format!("cell ({x}, {y}) — {}", values.join(", ")));
        } else {
            ui.label("Point at a cell to read its counts.");
        }
        if longest > 1 {
            ui.horizontal(|ui| {
                let label = if self.playing { "Pause" } else { "Play agents" };
                if ui.button(label).clicked() {
                    self.playing = !self.playing;
                }
                // Agents step cell by cell: the slider shows the whole step they are on.
                let mut step = self.time as usize;
                let slider = egui::Slider::new(&mut step, 0..=longest - 1)
                    .text(format!("step (first {} agents)", super::crowd::ANIMATED));
                if ui.add(slider).changed() {
                    self.time = step as f32;
                }
            });
        }
        None
    }

    /// Moves the animation on by `dt` seconds (30 cells a second).
    pub fn advance(&mut self, dt: f32) {
        if !self.playing {
            return;
        }
        self.time += 30.0 * dt;
        let longest = self
            .result
            .as_ref()
            .into_iter()
            .flat_map(|r| r.outcomes.iter())
            .filter_map(|(_, _, o)| o.paths.as_ref())
            .flat_map(|ps| ps.iter().map(|p| p.len()))
            .max()
            .unwrap_or(0);
        if self.time >= longest.saturating_sub(1) as f32 {
            self.time = longest.saturating_sub(1) as f32;
            self.playing = false;
        }
    }
}

/// The colour ramp with its values at the ends, the middle and the quarters (both scales are
/// logarithmic: the quarters say how fast the values grow).
fn legend(ui: &mut egui::Ui, scale: Scale, show: Show) {
    let width = ui.available_width().min(600.0);
    let (rect, _) = ui.allocate_exact_size(Vec2::new(width, 14.0 + 16.0), Sense::hover());
    let ramp = Rect::from_min_size(rect.min, Vec2::new(width, 14.0));
    let painter = ui.painter();
    let steps = 64;
    for s in 0..steps {
        let t = s as f64 / (steps - 1) as f64;
        let c = scale.ramp(t);
        let x0 = ramp.min.x + ramp.width() * s as f32 / steps as f32;
        let x1 = ramp.min.x + ramp.width() * (s + 1) as f32 / steps as f32;
        painter.rect_filled(
            Rect::from_min_max(Pos2::new(x0, ramp.min.y), Pos2::new(x1, ramp.max.y)),
            0.0,
            Color32::from_rgb(c[0], c[1], c[2]),
        );
    }
    let ink = ui.visuals().text_color();
    for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let v = scale.value_at(t);
        let x = ramp.min.x + ramp.width() * t as f32;
        painter.line_segment(
            [Pos2::new(x, ramp.max.y), Pos2::new(x, ramp.max.y + 3.0)],
            egui::Stroke::new(1.0, ink),
        );
        let align = match t {
            0.0 => egui::Align2::LEFT_TOP,
            1.0 => egui::Align2::RIGHT_TOP,
            _ => egui::Align2::CENTER_TOP,
        };
        painter.text(
            Pos2::new(x, ramp.max.y + 3.0),
            align,
            legend_number(v),
            egui::FontId::proportional(12.0),
            ink,
        );
    }
    let what = match show {
        Show::Traffic => "agents crossing a cell (log scale; white: none)",
        Show::Expansions => "expansions on a cell (log scale; white: none)",
        Show::Difference => "agents, second view minus first (symmetric log scale; white: 0)",
    };
    ui.label(RichText::new(what).small());
}

/// A legend value as a whole number (no "-0").
fn legend_number(v: f64) -> String {
    let r = v.round();
    format!("{}", if r == 0.0 { 0 } else { r as i64 })
}

/// What can be asked of the crowd window.
#[derive(Clone, Debug, PartialEq)]
pub enum CrowdCommand {
    /// Opens the window with these views (astar, pccp, flow, and -gpu for the GPU's; unknown
    /// ones are skipped) and agents, the batch started on the open map.
    Run(Vec<String>, usize),
    /// The start (0) or goal (1) area's corners; agents then go between the two areas once
    /// both are set.
    Area(usize, [(u32, u32); 2]),
}

impl CrowdWindow {
    /// Does what `c` asks, on the workspace's map.
    pub(crate) fn apply(&mut self, c: CrowdCommand, work: &Workspace) {
        match c {
            CrowdCommand::Area(k, corners) => {
                let k = k.min(1);
                self.areas[k] = Some(corners);
                self.painting = None;
                self.between_areas = self.areas.iter().all(Option::is_some);
            }
            CrowdCommand::Run(views, agents) => {
                let views: Vec<_> = views.iter().filter_map(|v| Panel::parse(v).ok()).collect();
                self.open_with(&views, agents, &work.doc.grid);
            }
        }
    }
}

impl Part for CrowdWindow {
    fn update(&mut self, _: &mut Cx, dt: f32) {
        self.advance(dt);
    }
    fn windows(&mut self, cx: &mut Cx, ctx: &egui::Context) {
        if !self.open {
            return;
        }
        let work = cx.work;
        let square = work.space.family().walked_by_crowds();
        let asked = self.show(ctx, square, work.doc.problems.len());
        let export = |purpose, name: &str| Command::AskFile(purpose, name.into());
        match asked {
            Asked::Run => self.start(&work.doc.grid, &work.doc.problems),
            Asked::ExportPng => cx.send(export(DialogPurpose::ExportHeatPng, "crowd.png")),
            Asked::ExportCsv => cx.send(export(DialogPurpose::ExportHeatCsv, "crowd.csv")),
            Asked::Nothing => {}
        }
    }
    fn wants_repaint(&self) -> bool {
        // While a batch runs, the window asks for a frame every 100 ms itself.
        self.playing
    }
    fn menu_entry(&self) -> Option<(Menu, &'static str, &'static str)> {
        Some((
            Menu::Run,
            "Crowd heatmaps (Rahmani 2020)…",
            "thousands of agents planned at once, their traffic side by side",
        ))
    }
    fn name(&self) -> &'static str {
        "crowd"
    }
    fn open(&mut self, _: &mut Cx) {
        self.open = true;
    }
    /// A closed window wants no batch: its job stops (between dispatches on the GPU) and the
    /// animation with it.
    fn close(&mut self) {
        self.open = false;
        self.playing = false;
        if self.job.take().is_some() {
            self.error = Some("Cancelled.".into());
        }
    }
    part_any!();
}

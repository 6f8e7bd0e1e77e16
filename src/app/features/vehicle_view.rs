//! The vehicle window's drawing: the vehicle's and the discretisation's settings with the
//! thesis's presets, start and goal poses (typed, or dragged on the map: drag a pose to move
//! it, drag with the right button to aim it), and two views of one stretch of the map side by
//! side: AIPATH's search (each iteration's fan of arcs, the arrivals not yet expanded as small
//! oriented glyphs, the path coloured by speed, the car driving it) and grid A*'s path.

use super::vehicle::{arc_points, VehicleResult, VehicleWindow, HEURISTICS};
use super::vehicle_paint::{
    draw_car, draw_map, draw_pose, glyph, glyph_legend, legend, map_image, speed_colour,
    tiles_hash, FAN_ASTAR, FAN_PROBE,
};
use crate::app::palette;
use crate::map::Grid;
use crate::vehicle::search::Phase;
use crate::vehicle::{Pose, Vehicle};
use eframe::egui::{self, Pos2, Rect, RichText, Sense, Shape, Stroke, Vec2};

/// Fans drawn at most (the latest up to the step shown), and glyphs.
const FANS: usize = 1500;
const GLYPHS: usize = 4000;

/// What the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    Nothing,
    Plan,
}

/// Maps whose longer side is at most this many cells are shown whole; on larger ones the
/// views show the stretch around start, goal and what the search reached.
const WHOLE_MAP: u32 = 256;

/// A stretch of the map in metres and where it lies on screen.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
    pub(super) scale: f32,
    at: Pos2,
}

impl Frame {
    pub(super) fn to_screen(self, x: f64, y: f64) -> Pos2 {
        self.at
            + Vec2::new(
                ((x - self.x0) as f32) * self.scale,
                ((y - self.y0) as f32) * self.scale,
            )
    }
    fn to_world(self, p: Pos2) -> (f64, f64) {
        let d = (p - self.at) / self.scale;
        (self.x0 + d.x as f64, self.y0 + d.y as f64)
    }
    fn rect(self) -> Rect {
        Rect::from_min_max(self.at, self.to_screen(self.x1, self.y1))
    }
}

impl VehicleWindow {
    /// Draws the window over `map`; returns what the user asked for.
    pub fn show(&mut self, ctx: &egui::Context, map: &Grid) -> Asked {
        self.poll();
        self.drive(ctx.input(|i| i.time));
        let mut open = self.open;
        let mut asked = Asked::Nothing;
        egui::Window::new("Vehicle planner (Schnieders 2014, AIPATH)")
            .open(&mut open)
            .default_size([1120.0, 680.0])
            .show(ctx, |ui| {
                asked = self.controls(ui, map);
                ui.separator();
                self.views(ui, map);
            });
        if !open {
            crate::app::parts::Part::close(self);
        }
        if self.running() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        asked
    }

    fn controls(&mut self, ui: &mut egui::Ui, map: &Grid) -> Asked {
        let mut asked = Asked::Nothing;
        ui.add_enabled_ui(!self.running(), |ui| {
            ui.horizontal_wrapped(|ui| {
                let shown = Vehicle::PRESETS
                    .iter()
                    .find(|(_, v)| *v == self.vehicle)
                    .map_or("custom", |(n, _)| n);
                egui::ComboBox::from_label("vehicle")
                    .selected_text(shown)
                    .show_ui(ui, |ui| {
                        for (name, v) in Vehicle::PRESETS {
                            ui.selectable_value(&mut self.vehicle, v, name);
                        }
                    });
                let v = &mut self.vehicle;
                labelled_values(
                    ui,
                    0.1,
                    [
                        ("turning radius m", &mut v.turning_radius, 0.5..=50.0),
                        ("lateral m/s²", &mut v.lateral, 0.0..=60.0),
                        ("accel m/s²", &mut v.accel, 0.1..=20.0),
                        ("brake m/s²", &mut v.decel, 0.1..=20.0),
                        ("top speed m/s", &mut v.max_speed, 0.5..=60.0),
                    ],
                );
            });
            ui.horizontal_wrapped(|ui| {
                let g = &mut self.grid;
                labelled_values(
                    ui,
                    0.05,
                    [
                        ("cell m", &mut g.cell, 0.1..=5.0),
                        ("heading °", &mut g.heading, 0.5..=30.0),
                        ("speed m/s", &mut g.speed, 0.05..=5.0),
                        ("steering °", &mut g.steer, 0.5..=45.0),
                    ],
                );
                egui::ComboBox::from_label("estimate")
                    .selected_text(HEURISTICS[self.heuristic].0)
                    .show_ui(ui, |ui| {
                        for (i, (name, _)) in HEURISTICS.iter().enumerate() {
                            ui.selectable_value(&mut self.heuristic, i, *name);
                        }
                    });
                ui.checkbox(&mut self.probe, "probe first (Algorithm 6)");
                ui.checkbox(&mut self.grid.half_accel, "half acceleration");
            });
            ui.horizontal_wrapped(|ui| {
                let l = ui.label("goal within");
                let [m, deg, speed] = &mut self.tolerance;
                for (v, speed, range, unit) in [
                    (m, 0.05, 0.05..=5.0, " m"),
                    (deg, 0.5, 0.1..=90.0, "°"),
                    (speed, 0.05, 0.01..=5.0, " m/s"),
                ] {
                    ui.add(
                        egui::DragValue::new(v)
                            .speed(speed)
                            .range(range)
                            .suffix(unit),
                    )
                    .labelled_by(l.id);
                }
                if ui
                    .button("the thesis's")
                    .on_hover_text("0.3 m, 1°, 0.1 m/s, with 1° headings and 5° steering")
                    .clicked()
                {
                    self.tolerance = super::vehicle::THESIS_TOLERANCE;
                    self.grid = crate::vehicle::Discretisation::THESIS;
                }
            });
            ui.horizontal_wrapped(|ui| {
                for (name, pose) in [("start", &mut self.start), ("goal", &mut self.goal)] {
                    let l = ui.label(RichText::new(name).strong());
                    pose_fields(ui, pose, map, l.id);
                }
            });
        });
        ui.horizontal(|ui| {
            if let Some((done, total)) = self.progress() {
                ui.add(
                    egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                        .desired_width(200.0)
                        .text(format!("{done} iterations")),
                );
                if ui.button("Cancel").clicked() {
                    self.cancel();
                }
            } else if ui.button("Plan").clicked() {
                asked = Asked::Plan;
            }
            if let Some(e) = &self.error {
                ui.colored_label(palette::ORACLE_BAD, e);
            } else if let Some(r) = &self.result {
                ui.label(summary(r));
            }
        });
        asked
    }

    fn views(&mut self, ui: &mut egui::Ui, map: &Grid) {
        let key = (map.width(), map.height(), tiles_hash(map));
        if self.map_texture.as_ref().map(|t| t.0) != Some(key) {
            let img = map_image(map);
            let tex = ui
                .ctx()
                .load_texture("vehicle-map", img, egui::TextureOptions::NEAREST);
            self.map_texture = Some((key, tex));
        }
        let tex = self.map_texture.as_ref().map(|t| t.1.id());
        let (x0, y0, x1, y1) = self.stretch(map);
        // The views fill what the rest leaves: the titles over them, the gap between, the rows
        // under them, as measured last frame (first a generous guess). Views sized to the
        // window's whole room would overflow it by the rest, and the window would grow by as
        // much every frame while it clips their bottom rows.
        let gap = 10.0;
        let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
        let guess = Vec2::new(
            gap + 2.0 * ui.spacing().item_spacing.x + 8.0,
            6.0 * row + 20.0,
        );
        let avail = ui.available_size() - self.chrome.unwrap_or(guess);
        let top = ui.cursor().min.y;
        let scale = (avail.x / 2.0 / (x1 - x0) as f32)
            .min(avail.y / (y1 - y0) as f32)
            .max(0.5);
        let size = Vec2::new((x1 - x0) as f32 * scale, (y1 - y0) as f32 * scale);
        let views = ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_max_width(size.x);
                ui.label(RichText::new("AIPATH in (x, y, heading, speed)").small());
                let (resp, painter) = ui.allocate_painter(size, Sense::click_and_drag());
                let f = Frame {
                    x0,
                    y0,
                    x1,
                    y1,
                    scale,
                    at: resp.rect.min,
                };
                self.left_view = Some(f);
                draw_map(&painter, resp.rect, tex, map, (x0, y0, x1, y1));
                if let Some(r) = &self.result {
                    self.draw_search(&painter, &f, r);
                }
                self.edit_poses(&resp, &f);
                draw_pose(&painter, &f, &self.start, palette::START, 1.0);
                draw_pose(&painter, &f, &self.goal, palette::GOAL, 1.0);
            });
            ui.add_space(gap);
            ui.vertical(|ui| {
                ui.set_max_width(size.x);
                let title = match &self.result {
                    Some(r) if r.grid_path.is_some() => format!(
                        "grid A*: {:.1} cells, {} corners tighter than the turning radius",
                        r.grid_length, r.grid_corners
                    ),
                    _ => "grid A* between the same cells".into(),
                };
                ui.label(RichText::new(title).small());
                let (resp, painter) = ui.allocate_painter(size, Sense::hover());
                let f = Frame {
                    x0,
                    y0,
                    x1,
                    y1,
                    scale,
                    at: resp.rect.min,
                };
                draw_map(&painter, resp.rect, tex, map, (x0, y0, x1, y1));
                if let Some(cells) = self.result.as_ref().and_then(|r| r.grid_path.as_ref()) {
                    let pts: Vec<Pos2> = cells
                        .iter()
                        .map(|&(x, y)| f.to_screen(x as f64 + 0.5, y as f64 + 0.5))
                        .collect();
                    painter.add(Shape::line(
                        pts.clone(),
                        Stroke::new(5.0, palette::PATH_OUTLINE),
                    ));
                    painter.add(Shape::line(pts, Stroke::new(3.0, palette::PATH)));
                }
                draw_pose(&painter, &f, &self.start, palette::START, 1.0);
                draw_pose(&painter, &f, &self.goal, palette::GOAL, 1.0);
            });
        });
        self.timeline(ui);
        let used = Vec2::new(views.response.rect.width(), ui.min_rect().bottom() - top);
        let chrome = used - Vec2::new(2.0 * size.x, size.y);
        // Only ever more: rows that come and go (the timeline once a plan is in) must not
        // make the views breathe.
        self.chrome = Some(self.chrome.map_or(chrome, |c| c.max(chrome)));
    }

    /// The stretch of the map the views show (x0, y0, x1, y1 in metres): a map up to
    /// [`WHOLE_MAP`] cells a side whole; on a larger one start, goal and every pose the search
    /// reached, with room for a turn around them.
    fn stretch(&self, map: &Grid) -> (f64, f64, f64, f64) {
        let (w, h) = (map.width() as f64, map.height() as f64);
        // Held while a pose is dragged: the pose follows the pointer, not a moving frame.
        if let (Some(_), Some(f)) = (self.dragging, self.left_view) {
            return (f.x0, f.y0, f.x1, f.y1);
        }
        if map.width().max(map.height()) <= WHOLE_MAP {
            return (0.0, 0.0, w, h);
        }
        let margin = (3.0 * self.vehicle.turning_radius).max(12.0);
        let reached = self
            .result
            .iter()
            .flat_map(|r| r.arrivals.iter().map(|a| a.pose));
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for p in [self.start, self.goal].into_iter().chain(reached) {
            (x0, y0) = (x0.min(p.x), y0.min(p.y));
            (x1, y1) = (x1.max(p.x), y1.max(p.y));
        }
        (
            (x0 - margin).max(0.0),
            (y0 - margin).max(0.0),
            (x1 + margin).min(w),
            (y1 + margin).min(h),
        )
    }

    /// Where the map point (x, y) in metres is drawn in the left view, as last drawn.
    pub fn on_screen(&self, x: f64, y: f64) -> Option<Pos2> {
        self.left_view.map(|f| f.to_screen(x, y))
    }

    /// The left view's rectangle on screen and the stretch of the map it shows (x0, y0, x1,
    /// y1 in metres), as last drawn.
    pub fn left_view(&self) -> Option<(Rect, [f64; 4])> {
        self.left_view.map(|f| (f.rect(), [f.x0, f.y0, f.x1, f.y1]))
    }

    fn draw_search(&self, painter: &egui::Painter, f: &Frame, r: &VehicleResult) {
        let step = self.step.min(r.expanded.len());
        let cell = r.model.grid.cell;
        let mut succ = vec![];
        // Each iteration's fan: every action tried from the pose expanded.
        for e in &r.expanded[step.saturating_sub(FANS)..step] {
            r.model.successors(e.pose, &mut succ);
            let colour = match e.phase {
                Phase::Probe => FAN_PROBE,
                Phase::Astar => FAN_ASTAR,
            };
            for (a, _) in &succ {
                let pts: Vec<Pos2> = arc_points(e.pose, cell, a.turn, 4)
                    .into_iter()
                    .map(|(x, y)| f.to_screen(x, y))
                    .collect();
                painter.add(Shape::line(pts, Stroke::new(1.0, colour)));
            }
        }
        // Arrivals made by then and not expanded: small glyphs pointing their way.
        let logged = if step == 0 {
            1
        } else {
            r.expanded[step - 1].logged
        };
        for a in &r.arrivals[logged.saturating_sub(GLYPHS)..logged.min(r.arrivals.len())] {
            glyph(painter, f, &a.pose, palette::OPEN, 0.35 * cell as f32);
        }
        for e in &r.expanded[step.saturating_sub(200)..step] {
            glyph(painter, f, &e.pose, palette::CLOSED, 0.35 * cell as f32);
        }
        if let (Some(path), true) = (&r.path, step == r.expanded.len()) {
            let top = r.model.vehicle.max_speed;
            for w in path.windows(2) {
                let turn = crate::vehicle::model::turn_between(w[0].pose.phi, w[1].pose.phi);
                let pts: Vec<Pos2> = arc_points(w[0].pose, cell, turn, 4)
                    .into_iter()
                    .map(|(x, y)| f.to_screen(x, y))
                    .collect();
                let c = speed_colour((w[0].pose.v + w[1].pose.v) / 2.0 / top);
                painter.add(Shape::line(
                    pts.clone(),
                    Stroke::new(5.0, palette::PATH_OUTLINE),
                ));
                painter.add(Shape::line(pts, Stroke::new(3.0, c)));
            }
            if let Some(car) = r.pose_at(self.time as f64) {
                draw_car(painter, f, &car, &r.model.vehicle);
            }
        }
    }

    /// Dragging a pose moves it; dragging with the secondary button aims it.
    fn edit_poses(&mut self, resp: &egui::Response, f: &Frame) {
        if self.running() {
            return;
        }
        if resp.drag_started() {
            if let Some(p) = resp.interact_pointer_pos() {
                let (x, y) = f.to_world(p);
                let near = |q: &Pose| (q.x - x).hypot(q.y - y) < 12.0 / f.scale as f64 + 1.0;
                let aim = resp.dragged_by(egui::PointerButton::Secondary);
                self.dragging = if near(&self.start) {
                    Some((0, aim))
                } else if near(&self.goal) {
                    Some((1, aim))
                } else {
                    None
                };
            }
        }
        if let (Some((k, aim)), Some(p)) = (self.dragging, resp.interact_pointer_pos()) {
            let (x, y) = f.to_world(p);
            let pose = if k == 0 {
                &mut self.start
            } else {
                &mut self.goal
            };
            if aim {
                pose.phi = crate::vehicle::model::wrap((y - pose.y).atan2(x - pose.x));
            } else {
                (pose.x, pose.y) = (x, y);
            }
        }
        if resp.drag_stopped() {
            self.dragging = None;
        }
    }

    fn timeline(&mut self, ui: &mut egui::Ui) {
        let Some(r) = &self.result else {
            ui.label(
                "Press Plan: the car's search runs in the background, then step through it here.",
            );
            return;
        };
        let n = r.expanded.len();
        let probe = r.probe_iterations();
        ui.horizontal(|ui| {
            if ui
                .button("< back")
                .on_hover_text("one iteration back")
                .clicked()
            {
                self.step = self.step.saturating_sub(1);
            }
            ui.add(
                egui::Slider::new(&mut self.step, 0..=n)
                    .text(format!("iteration (probe 1–{probe}, then A*)")),
            );
            if ui
                .button("on >")
                .on_hover_text("one iteration on")
                .clicked()
            {
                self.step = (self.step + 1).min(n);
            }
        });
        glyph_legend(ui);
        let Some(cost) = r.cost else {
            return;
        };
        let now = ui.input(|i| i.time);
        let (mut toggled, mut moved) = (false, false);
        ui.horizontal(|ui| {
            let label = if self.playing {
                "Pause car"
            } else {
                "Drive car"
            };
            toggled = ui
                .button(label)
                .on_hover_text("drives the path in real time: a second of its time a second")
                .clicked();
            let slider = egui::Slider::new(&mut self.time, 0.0..=cost as f32).text("s");
            moved = ui.add(slider).changed();
            let v = r.pose_at(self.time as f64).map_or(0.0, |p| p.v);
            ui.label(format!("{v:.1} m/s"));
            legend(ui, r.model.vehicle.max_speed);
        });
        if toggled {
            self.toggle_drive(now);
            self.step = n;
        }
        if moved {
            self.moved_car(now);
        }
    }
}

/// A label and a dragged number for each setting, the number named by its label.
fn labelled_values<const N: usize>(
    ui: &mut egui::Ui,
    speed: f64,
    items: [(&str, &mut f64, std::ops::RangeInclusive<f64>); N],
) {
    for (label, value, range) in items {
        let l = ui.label(label);
        ui.add(egui::DragValue::new(value).speed(speed).range(range))
            .labelled_by(l.id);
    }
}

fn pose_fields(ui: &mut egui::Ui, p: &mut Pose, map: &Grid, label: egui::Id) {
    let (w, h) = (map.width() as f64, map.height() as f64);
    ui.add(
        egui::DragValue::new(&mut p.x)
            .speed(0.1)
            .range(0.0..=w)
            .prefix("x "),
    )
    .labelled_by(label);
    ui.add(
        egui::DragValue::new(&mut p.y)
            .speed(0.1)
            .range(0.0..=h)
            .prefix("y "),
    )
    .labelled_by(label);
    let mut deg = p.degrees();
    let heading = egui::DragValue::new(&mut deg)
        .speed(1.0)
        .range(0.0..=359.9)
        .suffix("°");
    if ui.add(heading).labelled_by(label).changed() {
        p.phi = crate::vehicle::model::wrap(deg.to_radians());
    }
    ui.add(
        egui::DragValue::new(&mut p.v)
            .speed(0.1)
            .range(0.0..=60.0)
            .suffix(" m/s"),
    )
    .labelled_by(label);
}

fn summary(r: &VehicleResult) -> String {
    let iters = format!(
        "{} iterations ({} probing)",
        r.expanded.len(),
        r.probe_iterations()
    );
    match (&r.path, r.cost) {
        (Some(p), Some(t)) => format!(
            "found: {t:.2} s to drive, {:.1} m; {iters}; {}; {:.0} ms",
            (p.len() - 1) as f64 * r.model.grid.cell,
            match &r.drivable {
                Ok(()) => "drivable (replayed through the physics)".to_string(),
                Err(e) => format!("NOT DRIVABLE: {e}"),
            },
            r.ms
        ),
        _ => format!("no path within the cap: {iters}; {:.0} ms", r.ms),
    }
}

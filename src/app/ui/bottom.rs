//! The bottom of the window: the status line and the timeline (the step slider, the run
//! controls and the phase bands of phased searches).

use super::panels::frame;
use crate::app::{palette, Command, PathlabApp};
use eframe::egui;

pub(in crate::app) fn status_bar(app: &mut PathlabApp, ui: &mut egui::Ui) {
    egui::Panel::bottom("status")
        .frame(frame(ui))
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(app.summary());
                ui.separator();
                ui.label(&app.status);
                if let Some(c) = app.edit.hover {
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        ui.label(format!("cell ({}, {})", c.0, c.1));
                    });
                }
            });
        });
}

pub(in crate::app) fn timeline(app: &mut PathlabApp, ui: &mut egui::Ui) {
    egui::Panel::bottom("timeline")
        .frame(frame(ui))
        .show(ui, |ui| {
            ui.add_space(4.0);
            ui.horizontal(|ui| {
                let n = app.play.step_n;
                let play = if app.play.playing { "Pause" } else { "Play" };
                for (label, tip, c) in [
                    ("|<", "To start (Home)", Command::GoTo(0)),
                    ("<<", "Back N steps (Shift+Left)", Command::StepBack(n)),
                    ("<", "Back 1 step (Left)", Command::StepBack(1)),
                    (play, "Play / pause (Space)", Command::TogglePlay),
                    (">", "Next expansion (Right)", Command::StepForward(1)),
                    (
                        ">>",
                        "Forward N steps (Shift+Right)",
                        Command::StepForward(n),
                    ),
                ] {
                    let r = ui.button(label).on_hover_text(tip);
                    if label == ">" {
                        app.parts
                            .of_mut::<crate::app::features::lesson::Lessons>()
                            .control("step", &r);
                    } else if label == play {
                        app.parts
                            .of_mut::<crate::app::features::lesson::Lessons>()
                            .control("play", &r);
                    }
                    if r.clicked() {
                        app.apply(c);
                    }
                }
                ui.add(
                    egui::DragValue::new(&mut app.play.step_n)
                        .range(1..=1_000_000)
                        .prefix("N = "),
                )
                .on_hover_text("Steps taken by << and >> (and Shift+arrows)");
                let r = ui.button(">|").on_hover_text("To path found (End)");
                app.parts
                    .of_mut::<crate::app::features::lesson::Lessons>()
                    .control("end", &r);
                if r.clicked() {
                    app.apply(Command::ToEnd);
                }
                ui.separator();
                ui.add_enabled(
                    !app.play.max_speed,
                    egui::Slider::new(&mut app.play.speed, 1.0..=20000.0)
                        .logarithmic(true)
                        .suffix(" exp/s")
                        .text("speed"),
                )
                .on_hover_text("Expansions per second while playing");
                ui.checkbox(&mut app.play.max_speed, "max");
            });
            let max = app.max_steps();
            ui.horizontal(|ui| {
                let mut s = app.work.cursor;
                ui.spacing_mut().slider_width = (ui.available_width() - 180.0).max(100.0);
                let r = ui.add(egui::Slider::new(&mut s, 0..=max.max(1)).text(
                    if app.searching() {
                        "steps (searching…)"
                    } else {
                        "steps"
                    },
                ));
                app.parts
                    .of_mut::<crate::app::features::lesson::Lessons>()
                    .control("slider", &r);
                if r.changed() {
                    app.play.playing = false;
                    app.go_to(s, false);
                }
            });
            phase_bands(app, ui, max);
            ui.add_space(2.0);
        });
}

/// The active view's phases: each one's number (1-based), name and steps `[from, to)`.
pub(in crate::app) fn phase_spans(run: &crate::app::Run) -> Vec<(usize, String, usize, usize)> {
    let mut phases = run.series.phases.clone();
    if phases.is_empty() {
        return vec![];
    }
    // Before its first phase event a run is in its first phase.
    if phases[0].0 > 0 {
        phases.insert(0, (0, 0));
    }
    phases
        .iter()
        .enumerate()
        .map(|(k, &(at, p))| {
            // The last phase ends where the run does, not where the longest view's timeline
            // does.
            let end = phases.get(k + 1).map_or(run.steps().max(at), |q| q.0);
            (k + 1, run.phase_name(p), at, end)
        })
        .collect()
}

/// The active view's phases as bands under the step slider, each numbered (named where it is
/// wide enough) with its name and steps on hover, and a line naming them all: a phase of a few
/// steps is a sliver, but still found (nothing for a run without phases).
fn phase_bands(app: &PathlabApp, ui: &mut egui::Ui, max: usize) {
    let Some(v) = app.active_view() else { return };
    let spans = phase_spans(&v.run);
    if spans.is_empty() || max == 0 {
        return;
    }
    let width = (ui.available_width() - 180.0).max(100.0);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 14.0), egui::Sense::hover());
    let x = |s: usize| rect.left() + rect.width() * s.min(max) as f32 / max as f32;
    let painter = ui.painter_at(rect);
    for (k, name, at, end) in &spans {
        let (k, at, end) = (*k, *at, *end);
        // At least 4 points wide, so that every phase can be pointed at.
        let band = egui::Rect::from_x_y_ranges(x(at)..=x(end).max(x(at) + 4.0), rect.y_range());
        let fill = if k % 2 == 1 {
            palette::PHASE_A
        } else {
            palette::PHASE_B
        };
        painter.rect_filled(band, 2.0, fill);
        let label = if band.width() > 8.0 * (name.len() + 3) as f32 {
            format!("{k} {name}")
        } else if band.width() > 10.0 {
            k.to_string()
        } else {
            String::new()
        };
        if !label.is_empty() {
            painter.text(
                band.left_center() + egui::vec2(3.0, 0.0),
                egui::Align2::LEFT_CENTER,
                label,
                egui::FontId::proportional(10.0),
                palette::PHASE_TEXT,
            );
        }
        ui.interact(
            band,
            ui.make_persistent_id(("phase-band", k)),
            egui::Sense::hover(),
        )
        .on_hover_text(phase_text(k, name, at, end));
    }
    let all: Vec<String> = spans
        .iter()
        .map(|(k, name, at, end)| format!("{k} {name} ({})", step_range(*at, *end)))
        .collect();
    ui.label(egui::RichText::new(format!("Phases: {}", all.join(" · "))).small());
}

/// Steps `[at, end)` as the slider counts them (1-based).
fn step_range(at: usize, end: usize) -> String {
    match end.saturating_sub(at) {
        0 => "no steps".into(),
        1 => format!("step {}", at + 1),
        _ => format!("steps {}–{end}", at + 1),
    }
}

/// A phase's tooltip.
fn phase_text(k: usize, name: &str, at: usize, end: usize) -> String {
    format!("Phase {k}: {name}, {}", step_range(at, end))
}

//! The statistics table on the right: a row per view (expanded, generated, path length, cost
//! in its world's unit, time), the note when the views' units differ, and a repaired run's
//! searches apart.

use crate::app::PathlabApp;
use eframe::egui::{self, RichText};

/// View `i`'s world's cost unit: short, after a cost, and what it measures.
fn cost_unit(app: &PathlabApp, i: usize) -> (&'static str, &'static str) {
    let family = app.work.views[i]
        .world
        .as_deref()
        .map_or(app.work.doc.world, |w| w.family);
    crate::app::worlds::ui_of(&family).cost_unit()
}

/// A note when the views' costs are in different units (views of different worlds): their
/// costs, and the nodes they count, are not comparable.
pub(in crate::app) fn not_comparable(app: &PathlabApp) -> Option<String> {
    let units: Vec<_> = (0..app.work.views.len())
        .map(|i| cost_unit(app, i))
        .collect();
    if units.iter().all(|u| u == &units[0]) {
        return None;
    }
    let each: Vec<String> = units
        .iter()
        .enumerate()
        .map(|(i, u)| format!("view {} {}", i + 1, u.1))
        .collect();
    Some(format!(
        "Not comparable: the views search different worlds ({}); their costs and counts \
         measure different things",
        each.join(", ")
    ))
}

/// Under the statistics: each repaired run's expansions per search, its first search and each
/// repair after a world change apart (the table's `expanded` sums them all), so a repair reads
/// beside a search from scratch.
fn searches_apart(app: &mut PathlabApp, ui: &mut egui::Ui) {
    for (i, v) in app.work.views.iter_mut().enumerate() {
        let r = &mut v.run;
        if r.changes.is_empty() {
            continue;
        }
        // Expansions before each change's first event.
        let before: Vec<usize> = r
            .changes
            .iter()
            .map(|c| {
                c.event
                    .checked_sub(1)
                    .and_then(|e| r.rec.step_of_event(e))
                    .map_or(0, |s| s + 1)
            })
            .collect();
        let mut bounds = before.clone();
        bounds.push(r.rec.steps());
        let mut text = format!(
            "{} {}: first search {}",
            i + 1,
            r.choice.info.title,
            before[0]
        );
        for (k, w) in bounds.windows(2).enumerate() {
            text += &format!(", repair {}: {}", k + 1, w[1].saturating_sub(w[0]));
        }
        ui.label(RichText::new(format!("{text} expanded")).small());
    }
}

pub(super) fn stats_table(app: &mut PathlabApp, ui: &mut egui::Ui) {
    let r = ui.heading("Statistics");
    app.parts
        .of_mut::<crate::app::features::lesson::Lessons>()
        .control("statistics", &r);
    // Line-of-sight checks, when an any-angle search is among the views.
    let sight = app.work.views.iter().any(|v| v.run.stats().los_checks > 0);
    // In a strip that scrolls sideways: a table wider than the panel (more views, longer
    // names) would otherwise widen the panel and move the views.
    egui::ScrollArea::horizontal()
        .id_salt("stats-scroll")
        .show(ui, |ui| {
            egui::Grid::new("stats").striped(true).show(ui, |ui| {
                for h in [
                    "run",
                    "expanded",
                    "generated",
                    "reopened",
                    "path_length",
                    "cost",
                    "time",
                ] {
                    ui.label(RichText::new(h).small().strong());
                }
                if sight {
                    ui.label(RichText::new("los_checks").small().strong());
                }
                ui.end_row();
                for (i, v) in app.work.views.iter().enumerate() {
                    let r = &v.run;
                    let st = r.stats();
                    ui.label(format!("{} {}", i + 1, r.choice.info.title));
                    // Room for the widest count this run can show: the grid sizes its columns from the
                    // previous frame, so a count that just grew a digit would overlap the next column.
                    let widest = ui
                        .painter()
                        .layout_no_wrap(
                            format!("{0}/{0}", st.expanded),
                            egui::TextStyle::Body.resolve(ui.style()),
                            egui::Color32::WHITE,
                        )
                        .size()
                        .x;
                    ui.allocate_ui_with_layout(
                        egui::vec2(widest, ui.spacing().interact_size.y),
                        egui::Layout::left_to_right(egui::Align::Center),
                        |ui| {
                            ui.set_min_width(widest);
                            ui.label(format!("{}/{}", r.expansions_shown(), st.expanded));
                        },
                    );
                    ui.label(st.generated.to_string());
                    ui.label(st.reopened.to_string());
                    ui.label(
                        r.path()
                            .map_or("—".into(), |p| p.len().saturating_sub(1).to_string()),
                    );
                    // Each world's costs in its own unit.
                    let unit = cost_unit(app, i).0;
                    ui.label(r.cost().map_or("—".into(), |c| format!("{c:.3} {unit}")));
                    ui.label(match r.search_time {
                        Some(t) if t.as_secs_f64() < 0.01 => {
                            format!("{:.0} µs", t.as_secs_f64() * 1e6)
                        }
                        Some(t) => format!("{:.1} ms", t.as_secs_f64() * 1e3),
                        None => "…".into(),
                    });
                    if sight {
                        ui.label(st.los_checks.to_string());
                    }
                    ui.end_row();
                }
            });
        });
    searches_apart(app, ui);
    // Any-angle paths are straight segments between corners, not grid moves.
    let note = if sight {
        "expanded: shown/total; path_length: moves on grid paths, straight segments on any-angle \
         ones; los_checks: line-of-sight checks; time without recording"
    } else {
        "expanded: shown/total; path_length in moves; time without recording"
    };
    ui.label(RichText::new(note).small());
    if let Some(n) = not_comparable(app) {
        ui.label(RichText::new(n).small().color(ui.visuals().warn_fg_color));
    }
    // Built once per world, apart from every query's time above.
    let algos: Vec<&str> = app
        .work
        .views
        .iter()
        .map(|v| v.run.choice.info.name)
        .collect();
    for p in crate::app::prepared::infos(&algos, app.work.space.revision()) {
        ui.label(
            RichText::new(format!("prepared: {}", crate::app::prepared::describe(&p))).small(),
        );
    }
    if app
        .work
        .views
        .iter()
        .any(|v| !v.run.series.solutions.is_empty())
    {
        ui.label(RichText::new("Anytime solutions (later ones greyed)").strong());
        egui::Grid::new("solutions").striped(true).show(ui, |ui| {
            for h in ["run", "at step", "ε", "cost"] {
                ui.label(RichText::new(h).small().strong());
            }
            ui.end_row();
            for (i, v) in app.work.views.iter().enumerate() {
                for &(step, cost, eps) in &v.run.series.solutions {
                    let text = |t: String| {
                        let r = RichText::new(t);
                        if step > v.run.shown {
                            r.weak()
                        } else {
                            r
                        }
                    };
                    ui.label(text(format!("{} {}", i + 1, v.run.choice.info.title)));
                    ui.label(text(step.to_string()));
                    ui.label(text(format!("{eps:.2}")));
                    ui.label(text(format!("{cost:.3}")));
                    ui.end_row();
                }
            }
        });
    }
}

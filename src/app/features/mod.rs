//! Features that live beside the views: agents on a changing map, Krafft 2019's moving 3D
//! scene, the dynamic experiment window.

pub(crate) mod agent;
pub(crate) mod crowd;
pub(crate) mod crowd_view;
pub(crate) mod experiment;
pub(crate) mod flight;
pub(crate) mod lesson;
pub(crate) mod vehicle;
pub(crate) mod vehicle_paint;
pub(crate) mod vehicle_view;

use crate::app::{DialogPurpose, PathlabApp};
use eframe::egui;

/// A feature beside the views: it advances with the frame's time, may draw windows of its own,
/// and says whether it needs another frame. Its state lives in the app (`sim`, `flight`,
/// `experiment`); the app drives every feature through [`FEATURES`], never by name.
pub(crate) trait Feature: Sync {
    /// Advances by `dt` seconds before the panels are drawn.
    fn update(&self, app: &mut PathlabApp, dt: f32);
    /// Draws the feature's own windows, after the panels.
    fn windows(&self, app: &mut PathlabApp, ctx: &egui::Context) {
        let _ = (app, ctx);
    }
    /// Whether it animates or works and so needs the next frame without input.
    fn wants_repaint(&self, app: &PathlabApp) -> bool;
}

/// Agents crossing the map while it changes.
struct Agents;

impl Feature for Agents {
    fn update(&self, app: &mut PathlabApp, dt: f32) {
        app.agents_advance(dt);
    }
    fn wants_repaint(&self, app: &PathlabApp) -> bool {
        app.sim.playing
    }
}

/// Krafft 2019's moving 3D scene, flown.
struct Flight;

impl Feature for Flight {
    fn update(&self, app: &mut PathlabApp, dt: f32) {
        app.flight_advance(dt);
    }
    fn wants_repaint(&self, app: &PathlabApp) -> bool {
        app.flight.as_ref().is_some_and(|f| f.playing)
    }
}

/// Run ▸ Dynamic experiment.
struct Experiment;

impl Feature for Experiment {
    fn update(&self, _: &mut PathlabApp, _: f32) {}
    fn windows(&self, app: &mut PathlabApp, ctx: &egui::Context) {
        if app.experiment.open && app.experiment.show(ctx) {
            app.ask_file(DialogPurpose::ExportCsv, "dynamic.csv");
        }
    }
    fn wants_repaint(&self, _: &PathlabApp) -> bool {
        // While it works, its window asks for a frame every 100 ms itself: the progress bar
        // needs no more.
        false
    }
}

/// Run ▸ Crowd: heatmaps of a batch of agents.
struct Crowd;

impl Feature for Crowd {
    fn update(&self, app: &mut PathlabApp, dt: f32) {
        app.crowd.advance(dt);
    }
    fn windows(&self, app: &mut PathlabApp, ctx: &egui::Context) {
        if !app.crowd.open {
            return;
        }
        let square = app.work.space.family().walked_by_crowds();
        let scenario = app.work.doc.problems.len();
        match app.crowd.show(ctx, square, scenario) {
            crowd_view::Asked::Run => app.crowd.start(&app.work.doc.grid, &app.work.doc.problems),
            crowd_view::Asked::ExportPng => app.ask_file(DialogPurpose::ExportHeatPng, "crowd.png"),
            crowd_view::Asked::ExportCsv => app.ask_file(DialogPurpose::ExportHeatCsv, "crowd.csv"),
            crowd_view::Asked::Nothing => {}
        }
    }
    fn wants_repaint(&self, app: &PathlabApp) -> bool {
        // While a batch runs, the window asks for a frame every 100 ms itself.
        app.crowd.playing
    }
}

/// Run ▸ Vehicle planner: AIPATH beside grid A*.
struct VehiclePlanner;

impl Feature for VehiclePlanner {
    /// The car drives by the clock, in its window (`VehicleWindow::drive`): not by frames.
    fn update(&self, _: &mut PathlabApp, _: f32) {}
    fn windows(&self, app: &mut PathlabApp, ctx: &egui::Context) {
        if !app.vehicle.open {
            return;
        }
        if app.vehicle.show(ctx, &app.work.doc.grid) == vehicle_view::Asked::Plan {
            app.vehicle.plan(&app.work.doc.grid);
        }
    }
    fn wants_repaint(&self, app: &PathlabApp) -> bool {
        // While it plans, the window asks for a frame every 100 ms itself.
        app.vehicle.playing
    }
}

/// Every feature, in the order they update.
pub(crate) static FEATURES: &[&dyn Feature] = &[
    &Agents,
    &Flight,
    &Experiment,
    &Crowd,
    &VehiclePlanner,
    &LessonWindow,
];

/// Help ▸ Lessons: the lesson played, its list, the first start's offer.
struct LessonWindow;

impl Feature for LessonWindow {
    fn update(&self, _app: &mut PathlabApp, _dt: f32) {}
    fn windows(&self, app: &mut PathlabApp, ctx: &egui::Context) {
        app.lesson_windows(ctx);
    }
    fn wants_repaint(&self, _app: &PathlabApp) -> bool {
        false
    }
}

//! The help window (F1, Help menu): what the colours mean, what each algorithm does, what the
//! statistics count, and the keys. It opens below the menu bar and never covers it.

use crate::app::{palette, PathlabApp};
use crate::search::registry::{self, Guarantee};
use eframe::egui::{self, Color32, RichText};

/// The colours of the canvas and what they mean (the legend's entries, with a sentence each).
const COLOURS: &[(Color32, &str, &str)] = &[
    (
        palette::OPEN,
        "open",
        "generated, waiting on the open list to be expanded (in the vehicle planner, a pose's small glyph points its heading)",
    ),
    (
        palette::CLOSED,
        "closed",
        "expanded: its cost from the start is settled (for A*, Dijkstra); in the vehicle planner, the last 200 poses expanded, as glyphs",
    ),
    (
        palette::CURRENT,
        "being expanded",
        "the node the step shown expanded (magenta outline)",
    ),
    (
        palette::INCONSISTENT,
        "to repair",
        "D* Lite and AD*: g and rhs differ after a map change; it is queued until it is consistent again",
    ),
    (
        palette::PATH,
        "path",
        "the path found, drawn once the run reaches its end",
    ),
    (
        palette::START,
        "start",
        "drag it, or press S over a cell (right-click: Set start here)",
    ),
    (
        palette::GOAL,
        "goal",
        "drag it, or press T over a cell (right-click: Set goal here)",
    ),
    (
        palette::SIGHT_CLEAR,
        "line of sight: clear",
        "Theta*, Lazy Theta*: a segment checked at this step and found free",
    ),
    (
        palette::SIGHT_BLOCKED,
        "line of sight: blocked",
        "Theta*, Lazy Theta*: a segment checked at this step that touches a blocked cell",
    ),
    (
        palette::SMOOTHED,
        "rubber-banded path",
        "View > Rubber-banded paths: the path with the nodes it can see past removed (dashed)",
    ),
    (
        palette::KNOWN,
        "known hex",
        "GPS of the brain: a hex of the cognitive map, darker the more it was visited (each count as a label when zoomed in)",
    ),
    (
        palette::WALK,
        "walk: exploring",
        "GPS of the brain: the legs walked towards the goal on unknown ground",
    ),
    (
        palette::WALK_PLAN,
        "walk: on a plan",
        "GPS of the brain: steps that follow the counter A*'s plan on known ground",
    ),
    (
        palette::CONE_IN,
        "cone: allowed",
        "GPS of the brain: directions within δ of the goal's at a choice (the one drawn is longer, pink)",
    ),
    (
        palette::CONE_OUT,
        "cone: outside",
        "GPS of the brain: free directions outside the cone",
    ),
    (
        palette::PATH,
        "A*'s path (dashed)",
        "GPS of the brain: once the walk arrives, A*'s path between the same hexes, dashed",
    ),
    (
        palette::AGENT,
        "agent",
        "Dynamic world: an agent walking its view's path, with its trail",
    ),
    (
        palette::CHANGED,
        "changed",
        "cells the dynamic world just changed: a flash, then an outline; in the 3D moving scene, the moving obstacles",
    ),
    (
        palette::ONLY_A,
        "diff: view 1 only",
        "View > Diff: expanded by the first view's run only",
    ),
    (
        palette::ONLY_B,
        "diff: view 2 only",
        "View > Diff: expanded by the second view's run only",
    ),
    (
        palette::BOTH,
        "diff: both",
        "View > Diff: expanded by both runs",
    ),
    (
        palette::WALL,
        "wall",
        "never entered ('@', 'O', and 'T' trees under the MovingAI rule)",
    ),
    (palette::SWAMP, "swamp", "'S': passable, connects to ground"),
    (
        palette::WATER,
        "water",
        "'W': passable only from water under the MovingAI rule",
    ),
    (palette::TREES, "trees", "'T': not passable"),
];

/// The statistics table's columns.
const STATS: &[(&str, &str)] = &[
    (
        "expanded",
        "nodes taken off the open list and expanded: shown step / whole run",
    ),
    (
        "generated",
        "nodes put on the open list (or improved there) while expanding",
    ),
    (
        "reopened",
        "closed nodes opened again after a cheaper way was found (weighted searches)",
    ),
    (
        "path_length",
        "moves on the path found; on an any-angle path, its straight segments",
    ),
    (
        "cost",
        "sum of the path's move costs, times the terrain's: squares 1 straight, 1.414 (√2) diagonal; hexes the hex size (centre to centre, in square cells); voxels 1 across a face, 1.414 (√2) an edge, 1.732 (√3) a corner; any-angle segments their length",
    ),
    (
        "los_checks",
        "Theta*, Lazy Theta*: line-of-sight checks, one per segment tested (shown when an any-angle view is open)",
    ),
    (
        "time",
        "the same search again without recording, on a worker thread",
    ),
];

/// The keys and what they do.
const KEYS: &[(&str, &str)] = &[
    ("Space", "play / pause (hold and drag: pan)"),
    (
        "Right / Left",
        "step forward / back (Shift: N steps, set beside >>)",
    ),
    ("Home / End", "to start / to path found"),
    ("S / T", "start / goal to the cell under the pointer"),
    ("Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y", "undo, redo"),
    ("Ctrl+O, Ctrl+S, Ctrl+Shift+S", "open, save, save as"),
    ("Ctrl+N", "new map"),
    ("V B E R G", "select, brush, erase, rectangle, fill"),
    ("F", "fit map to window"),
    ("L", "legend"),
    ("wheel / middle drag", "zoom to cursor / pan"),
    (
        "right click",
        "a cell's menu: set start or goal, inspect, break there",
    ),
    (
        "Page Up / Page Down",
        "voxel worlds: the layer above / below in 2D",
    ),
    (
        "3D view: drag, right drag, wheel",
        "orbit, pan, zoom (double-click: fit; click: pick a voxel)",
    ),
    ("F1 or ?", "this window"),
];

fn guarantee(g: Guarantee) -> String {
    match g {
        Guarantee::Optimal => "optimal".into(),
        Guarantee::BoundedBy(p) => format!("at most {p} × optimal"),
        Guarantee::FewestMoves => "fewest moves".into(),
        Guarantee::Valid => "no bound".into(),
        Guarantee::AnyAngle => {
            "any-angle, no bound (usually shorter than the grid's optimum)".into()
        }
    }
}

/// Draws the help window while `app.show_help` is set.
pub(in crate::app) fn show(app: &mut PathlabApp, ctx: &egui::Context) {
    let mut open = app.show_help;
    let screen = ctx.content_rect();
    let below_menu =
        egui::Rect::from_min_max(egui::pos2(screen.min.x, app.menu_bottom + 2.0), screen.max);
    egui::Window::new("Help: what you see")
        .open(&mut open)
        .collapsible(false)
        .resizable(true)
        .default_width(460.0)
        .default_height(below_menu.height() * 0.8)
        .default_pos(egui::pos2(
            below_menu.center().x - 230.0,
            below_menu.min.y + 8.0,
        ))
        .constrain_to(below_menu)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, contents);
        });
    app.show_help = open;
}

fn contents(ui: &mut egui::Ui) {
    ui.label(
        "pathlab records every step of every search. The map shows the step on the timeline; \
         the inspector (right) shows g, h and f of the cell under the pointer, for the view \
         under the pointer.",
    );
    egui::CollapsingHeader::new("Colours")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("help-colours")
                .num_columns(3)
                .striped(true)
                .show(ui, |ui| {
                    for &(c, name, what) in COLOURS {
                        let (r, p) =
                            ui.allocate_painter(egui::vec2(14.0, 14.0), egui::Sense::hover());
                        p.rect_filled(r.rect, 2.0, c);
                        ui.label(RichText::new(name).strong());
                        ui.label(what);
                        ui.end_row();
                    }
                });
        });
    egui::CollapsingHeader::new("Algorithms")
        .default_open(true)
        .show(ui, |ui| {
            for a in registry::all() {
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(a.title).strong());
                    ui.label(RichText::new(format!("({})", guarantee(a.guarantee))).weak());
                    ui.label(a.summary);
                });
            }
            ui.label(
                RichText::new(
                    "g: cost from the start; h: the heuristic's estimate to the goal; \
                     f = g + h (weighted: g + w·h). rhs (D* Lite, AD*): the best g one step \
                     away.",
                )
                .small(),
            );
        });
    name_table(ui, "Statistics", STATS);
    name_table(ui, "Keys", KEYS);
}

/// A section of names (in monospace, as typed or as the columns read) and what they mean.
fn name_table(ui: &mut egui::Ui, title: &str, rows: &[(&str, &str)]) {
    egui::CollapsingHeader::new(title)
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new(title).striped(true).show(ui, |ui| {
                for &(name, what) in rows {
                    ui.label(RichText::new(name).monospace());
                    ui.label(what);
                    ui.end_row();
                }
            });
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every colour the canvas draws has one meaning: no two entries of the help share a
    /// colour, but A*'s dashed path in a GPS view, which is a path (drawn dashed).
    #[test]
    fn every_colour_means_one_thing() {
        for (i, a) in COLOURS.iter().enumerate() {
            for b in &COLOURS[i + 1..] {
                let dashed = a.1.contains("dashed") || b.1.contains("dashed");
                assert!(a.0 != b.0 || dashed, "{} and {} share a colour", a.1, b.1);
            }
        }
        // The cognitive map's hexes, the open list and the agent: apart (they were one blue).
        let far = |a: Color32, b: Color32| {
            let d = |x: u8, y: u8| (x as i32 - y as i32).abs();
            d(a.r(), b.r()) + d(a.g(), b.g()) + d(a.b(), b.b()) > 120
        };
        assert!(far(palette::KNOWN, palette::OPEN) && far(palette::KNOWN, palette::AGENT));
        assert!(far(palette::CONE_IN, palette::SIGHT_CLEAR));
        assert!(STATS.iter().any(|s| s.0 == "los_checks"));
        assert!(STATS
            .iter()
            .any(|s| s.1.contains("hex size") && s.1.contains("√3")));
    }
}

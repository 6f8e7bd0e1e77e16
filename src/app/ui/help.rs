//! The help window (F1, Help menu): what the colours mean, what each algorithm does, what the
//! statistics count, and the keys. It opens below the menu bar and never covers it.

use crate::app::{palette, PathlabApp};
use crate::search::registry::Guarantee;
use eframe::egui::{self, Color32, RichText};

/// The colours of the canvas and what they mean: every legend entry, by its label in the
/// legend (a test holds them to [`crate::app::legend::every_entry`]), with a sentence each.
const COLOURS: &[(Color32, &str, &str)] = &[
    (
        palette::OPEN,
        "open (waiting)",
        "generated, waiting on the open list to be expanded (D* Lite's first search: queued with g ≠ rhs; in the vehicle planner, a pose's small glyph points its heading)",
    ),
    (
        palette::CLOSED,
        "closed (expanded)",
        "expanded: its cost from the start is settled (for A*, Dijkstra); in the vehicle planner, the last 200 poses expanded, as glyphs",
    ),
    (
        palette::FAN_PROBE,
        "fan: probing",
        "Run > Vehicle planner: every action tried from a pose the probe expanded, as arcs",
    ),
    (
        palette::FAN_ASTAR,
        "fan: A*",
        "Run > Vehicle planner: every action tried from a pose A* expanded, as faint arcs",
    ),
    (
        palette::CURRENT,
        "being expanded",
        "the node the step shown expanded (magenta outline)",
    ),
    (
        palette::INCONSISTENT,
        "to repair (D* Lite, AD*)",
        "after a change of the map: g and rhs differ; queued until it is consistent again (shown only once a run has repaired)",
    ),
    (
        palette::PATH,
        "path",
        "the path found, drawn once the run reaches its end",
    ),
    (
        palette::START,
        "start",
        "drag it, or press S over a cell (right-click: Set start here); a trace view shows its own",
    ),
    (
        palette::GOAL,
        "goal",
        "drag it, or press T over a cell (right-click: Set goal here); a trace view shows its own",
    ),
    (
        palette::SIGHT_CLEAR,
        "sight: clear",
        "Theta*, Lazy Theta*: a segment checked at this step and found free",
    ),
    (
        palette::SIGHT_BLOCKED,
        "sight: blocked",
        "Theta*, Lazy Theta*: a segment checked at this step that touches a blocked cell",
    ),
    (
        palette::JUMP,
        "jump",
        "jump point search: a jump from the node expanded to the jump point it reached",
    ),
    (
        palette::SIGHT_CLEAR,
        "scan: jump point",
        "jump point search: a scan that ended at a jump point or the goal",
    ),
    (
        palette::SIGHT_BLOCKED,
        "scan: wall",
        "jump point search: a scan that ended at a wall",
    ),
    (
        palette::OPEN,
        "corner: open",
        "Field D*: a cell corner reached, waiting to be expanded (small square on the corner)",
    ),
    (
        palette::CLOSED,
        "corner: closed",
        "Field D*: a cell corner expanded; the corner being expanded is ringed in magenta",
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
        "cone",
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
        palette::POLYGON,
        "navmesh: polygon outline",
        "a navmesh's polygon: walkable cells of one terrain merged into a rectangle; every cell of it shows the polygon's search state",
    ),
    (
        palette::POLYGON_CENTRE,
        "navmesh: polygon centre",
        "where the polygon's node lies: edge costs run centre to portal midpoint to centre (Rahmani 2020 §3.3)",
    ),
    (
        palette::PORTAL,
        "navmesh: portal (dotted)",
        "the shared edge two polygons are joined by, drawn when zoomed in; the path is pulled tight through them",
    ),
    (
        palette::NODE_TINTS[0],
        "hierarchy: region (node of the level shown)",
        "HNA*: the polygons grouped into one node of the level shown, tinted apart from its neighbours; polygons the search reached keep their open or closed colour, with a border in the tint",
    ),
    (
        crate::app::overlays::CLUSTER_LINE,
        "HPA*: cluster border",
        "HPA*: the grid cut into square clusters (Botea et al. 2004)",
    ),
    (
        palette::INTER_EDGE,
        "inter-edge, entrance, graph vertex",
        "a hierarchy's edges between nodes of the level (HNA*'s inter-edges, HPA*'s entrances), dashed, and the navigation graph's vertices as dots; the graph search's open and closed vertices are filled in the open and closed colours",
    ),
    (
        palette::INTRA_EDGE,
        "intra-edge",
        "a hierarchy's edge inside one node, between two of its vertices (an arrow; only the hovered node's on big graphs)",
    ),
    (
        palette::TEMP_EDGE,
        "temporary edge",
        "a hierarchical query's edges from the start and to the goal to the graph's vertices, gone once the clean-up phase starts",
    ),
    (
        palette::AGENT,
        "agent",
        "Dynamic world: an agent walking its view's path, with its trail",
    ),
    (
        palette::CHANGED,
        "changed by the world",
        "cells the dynamic world just changed: a flash, then an outline; in the 3D moving scene, the moving obstacles",
    ),
    (
        palette::ONLY_A,
        "expanded by view 1 only",
        "View > Diff: expanded by the first view's run only",
    ),
    (
        palette::ONLY_B,
        "expanded by view 2 only",
        "View > Diff: expanded by the second view's run only",
    ),
    (
        palette::BOTH,
        "expanded by both",
        "View > Diff: expanded by both runs",
    ),
    (
        palette::VOXEL,
        "3D: blocked voxel",
        "the 3D view: blocked voxels as lit faces; the search in the 2D views' colours (closed as faces, open as small cubes)",
    ),
    (
        palette::LAYER_FRAME,
        "3D: layer shown in 2D",
        "the 3D view: the outline of the z layer the 2D views show and edit",
    ),
    (
        palette::WALL,
        "wall",
        "never entered ('@', 'O', and 'T' trees under the MovingAI rule); a wall painted during a repair is drawn as a wall",
    ),
    (
        palette::FREE,
        "ground",
        "'.': passable at cost 1 (the terrain under the search colours)",
    ),
    (palette::SWAMP, "swamp", "'S': passable, connects to ground"),
    (
        palette::WATER,
        "water",
        "'W': passable only from water under the MovingAI rule",
    ),
    (palette::TREES, "trees", "'T': not passable"),
];

/// The windows' colour scales, by their legend's name: what they measure.
const SCALES: &[(&str, &str)] = &[
    (
        "heat: agents crossing a cell",
        "Run > Crowd heatmaps, traffic: how many agents' paths cross a cell (log scale; white: none)",
    ),
    (
        "heat: expansions on a cell",
        "Run > Crowd heatmaps, expansions: how often the planners expanded a cell (log scale; white: none)",
    ),
    (
        "heat: difference of two views",
        "Run > Crowd heatmaps, difference: the second view's count minus the first's, blue below zero, red above, white equal",
    ),
    (
        "vehicle: speed",
        "Run > Vehicle planner: the lattice's fans and the path coloured by the car's speed, blue at rest to yellow at top speed",
    ),
];

/// A scale's colour at `t` in 0..=1, for its swatch.
fn scale_colour(name: &str, t: f64) -> Color32 {
    let c = if name.contains("difference") {
        crate::crowd::heat::diverging(2.0 * t - 1.0)
    } else if name.starts_with("vehicle") {
        return crate::app::features::vehicle_paint::speed_colour(t);
    } else {
        crate::crowd::heat::inferno(t)
    };
    Color32::from_rgb(c[0], c[1], c[2])
}

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
        "sum of the path's move costs, times the terrain's, in the unit of the view's world (shown after it): squares 1 straight, 1.414 (√2) diagonal (cells); hexes the hex size (centre to centre, in square cells); voxels 1 across a face, 1.414 (√2) an edge, 1.732 (√3) a corner; a navmesh centre to portal midpoint to centre (navmesh units: cell lengths, longer than the path drawn); a vehicle lattice the seconds its actions take (s); any-angle segments their length. Views of different worlds are not comparable, and the table says so",
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

/// Draws the help window while `app.display.show_help` is set.
pub(in crate::app) fn show(app: &mut PathlabApp, ctx: &egui::Context) {
    let mut open = app.display.show_help;
    let screen = ctx.content_rect();
    let below_menu = egui::Rect::from_min_max(
        egui::pos2(screen.min.x, app.display.menu_bottom + 2.0),
        screen.max,
    );
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
    app.display.show_help = open;
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
                    for &(name, what) in SCALES {
                        let (r, p) =
                            ui.allocate_painter(egui::vec2(14.0, 14.0), egui::Sense::hover());
                        for k in 0..7 {
                            let x = r.rect.left() + 2.0 * k as f32;
                            let band = egui::Rect::from_min_max(
                                egui::pos2(x, r.rect.top()),
                                egui::pos2(x + 2.0, r.rect.bottom()),
                            );
                            p.rect_filled(band, 0.0, scale_colour(name, k as f64 / 6.0));
                        }
                        ui.label(RichText::new(name).strong());
                        ui.label(what);
                        ui.end_row();
                    }
                });
        });
    egui::CollapsingHeader::new("Algorithms")
        .default_open(true)
        .show(ui, |ui| {
            for a in crate::algorithms::all() {
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
    /// colour, but A*'s dashed path in a GPS view, which is a path (drawn dashed), and an
    /// overlay's marks named with their context ("corner: open" is open, on a corner; "scan:
    /// wall" is where a jump's scan met a wall), which the legend shows only with that overlay.
    #[test]
    fn every_colour_means_one_thing() {
        let qualified = |n: &str| n.starts_with("corner:") || n.starts_with("scan:");
        for (i, a) in COLOURS.iter().enumerate() {
            assert!(COLOURS[i + 1..].iter().all(|b| b.1 != a.1), "{} twice", a.1);
            for b in &COLOURS[i + 1..] {
                let dashed = a.1.contains("dashed") || b.1.contains("dashed");
                let apart = dashed || qualified(a.1) || qualified(b.1);
                assert!(a.0 != b.0 || apart, "{} and {} share a colour", a.1, b.1);
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

    /// Every entry every legend of the app can show (the views' strip in each mode, with every
    /// overlay and every world, and the windows' colour scales) has its F1 entry, under the
    /// same name and, for a colour, in the same colour.
    #[test]
    fn every_legend_entry_has_an_f1_entry() {
        let every = crate::app::legend::every_entry();
        // The strip's own, the hierarchy's, a navmesh's, the 3D view's, the heat scales: all
        // in what is checked (an enumeration that lost a source would pass on less).
        for l in [
            "open (waiting)",
            "expanded by both",
            "to repair (D* Lite, AD*)",
            "corner: open",
            "hierarchy: region (node of the level shown)",
            "HPA*: cluster border",
            "inter-edge, entrance, graph vertex",
            "temporary edge",
            "fan: probing",
            "navmesh: portal (dotted)",
            "3D: blocked voxel",
            "ground",
            "heat: difference of two views",
            "vehicle: speed",
        ] {
            assert!(every.iter().any(|e| e.1 == l), "{l} is not enumerated");
        }
        for (colour, label) in every {
            match colour {
                Some(c) => {
                    let row = COLOURS.iter().find(|r| r.1 == label);
                    let row = row.unwrap_or_else(|| panic!("no F1 entry for \"{label}\""));
                    assert_eq!(row.0, c, "F1 draws \"{label}\" in another colour");
                }
                None => assert!(
                    SCALES.iter().any(|r| r.0 == label),
                    "no F1 entry for the scale \"{label}\""
                ),
            }
        }
    }
}

//! The legend strip under the views: search colours (or the diff's) and the terrain, laid
//! out in rows to the canvas width, so it covers no map cell.

use crate::app::palette;
use eframe::egui::{self, vec2, Color32, Rect, Stroke, Vec2};

const LEGEND_ROW: f32 = 18.0;
const LEGEND_FONT: f32 = 12.0;

/// Entries the views add to the legend while they show them (a GPS walk, line-of-sight
/// checks): every colour on the canvas is in the legend.
pub type Extras = Vec<(Color32, &'static str)>;

/// The GPS of the brain's colours.
pub fn gps_extras() -> Extras {
    vec![
        (palette::KNOWN, "known hex"),
        (palette::WALK, "walk: exploring"),
        (palette::WALK_PLAN, "walk: on a plan"),
        (palette::CONE_IN, "cone"),
    ]
}

/// The any-angle searches' colours.
pub fn sight_extras() -> Extras {
    vec![
        (palette::SIGHT_CLEAR, "sight: clear"),
        (palette::SIGHT_BLOCKED, "sight: blocked"),
    ]
}

/// Jump point search's colours.
pub fn jump_extras() -> Extras {
    vec![
        (palette::JUMP, "jump"),
        (palette::SIGHT_CLEAR, "scan: jump point"),
        (palette::SIGHT_BLOCKED, "scan: wall"),
    ]
}

/// What view `run`, searching a world of `family`, adds to the legend: its algorithm's
/// overlays, its world's drawings (a navmesh's outlines, the 3D view's voxels), and "to
/// repair" once its run has repaired after a change.
pub(crate) fn view_extras(run: &crate::app::Run, family: &crate::world::Family) -> Extras {
    let mut v = Extras::new();
    for &o in run.choice.info.overlays {
        v.extend(crate::app::overlays::part(o).legend());
    }
    v.extend(crate::app::worlds::ui_of(family).legend());
    if !run.changes.is_empty() {
        v.extend(repair_extras());
    }
    v
}

/// Adds `more` to `extras`, each label once.
pub(crate) fn add_once(extras: &mut Extras, more: Extras) {
    for e in more {
        if !extras.iter().any(|x| x.1 == e.1) {
            extras.push(e);
        }
    }
}

/// Shown once a view's run has repaired after a change of the world (D* Lite, AD*): before
/// that, the nodes an incremental search queues are drawn as open.
pub fn repair_extras() -> Extras {
    vec![(palette::INCONSISTENT, "to repair (D* Lite, AD*)")]
}

/// The colour scales of the windows beside the views (their legends are ramps, not swatches):
/// Run ▸ Crowd heatmaps and Run ▸ Vehicle planner.
#[cfg(test)]
pub const SCALES: &[&str] = &[
    "heat: agents crossing a cell",
    "heat: expansions on a cell",
    "heat: difference of two views",
    "vehicle: speed",
];

/// Every entry a legend of the app can show: the strip's own (with and without the diff), the
/// repair's, every overlay's and every world's, with their colours; then the windows' colour
/// scales (no one colour). Help (F1) explains each of them.
#[cfg(test)]
pub fn every_entry() -> Vec<(Option<Color32>, &'static str)> {
    let mut v: Extras = legend_items(false, &[]);
    v.extend(legend_items(true, &[]));
    v.extend(repair_extras());
    let mut overlays = vec![];
    for a in crate::algorithms::all() {
        for &o in a.overlays {
            if !overlays.contains(&o) {
                overlays.push(o);
                v.extend(crate::app::overlays::part(o).legend());
            }
        }
    }
    for w in crate::app::worlds::every_ui() {
        v.extend(w.legend());
    }
    v.extend(vehicle_extras());
    let mut out: Vec<(Option<Color32>, &'static str)> = vec![];
    for (c, l) in v {
        if !out.iter().any(|e| e.1 == l) {
            out.push((Some(c), l));
        }
    }
    out.extend(SCALES.iter().map(|&l| (None, l)));
    out
}

/// The vehicle planner's glyphs: its search's poses waiting and expanded, in the canvas's
/// open and closed colours (they mean the same); then its fans of arcs.
pub fn vehicle_extras() -> Extras {
    vec![
        (palette::OPEN, "open (waiting)"),
        (palette::CLOSED, "closed (expanded)"),
        (palette::FAN_PROBE, "fan: probing"),
        (palette::FAN_ASTAR, "fan: A*"),
    ]
}

/// The legend's entries' names, in order (with `diff`, the diff's colours first).
pub fn legend_names(diff: bool) -> Vec<&'static str> {
    legend_items(diff, &[]).into_iter().map(|i| i.1).collect()
}

/// The legend's entries: search colours (or the diff's), the views' extras, then the terrain.
pub(crate) fn legend_items(
    diff: bool,
    extras: &[(Color32, &'static str)],
) -> Vec<(Color32, &'static str)> {
    let mut v = if diff {
        vec![
            (palette::ONLY_A, "expanded by view 1 only"),
            (palette::ONLY_B, "expanded by view 2 only"),
            (palette::BOTH, "expanded by both"),
        ]
    } else {
        vec![
            (palette::OPEN, "open (waiting)"),
            (palette::CLOSED, "closed (expanded)"),
            (palette::CURRENT, "being expanded"),
            (palette::PATH, "path"),
            (palette::AGENT, "agent"),
            (palette::CHANGED, "changed by the world"),
        ]
    };
    v.extend_from_slice(extras);
    v.extend([
        (palette::START, "start"),
        (palette::GOAL, "goal"),
        (palette::WALL, "wall"),
        (palette::FREE, "ground"),
        (palette::SWAMP, "swamp"),
        (palette::WATER, "water"),
        (palette::TREES, "trees"),
    ]);
    v
}

/// Entries laid out left to right in rows of `width`: each entry's top-left offset.
fn legend_layout(
    ui: &egui::Ui,
    width: f32,
    diff: bool,
    extras: &[(Color32, &'static str)],
) -> Vec<(Vec2, Color32, &'static str)> {
    let font = egui::FontId::proportional(LEGEND_FONT);
    let (mut x, mut y) = (6.0, 3.0);
    let mut out = vec![];
    for (c, label) in legend_items(diff, extras) {
        let w = ui
            .painter()
            .layout_no_wrap(label.to_string(), font.clone(), Color32::BLACK)
            .size()
            .x
            + 16.0
            + 14.0;
        if x + w > width && x > 6.0 {
            x = 6.0;
            y += LEGEND_ROW;
        }
        out.push((vec2(x, y), c, label));
        x += w;
    }
    out
}

/// Height of the legend strip for a canvas `width` wide.
pub fn legend_height(ui: &egui::Ui, width: f32, diff: bool, extras: &Extras) -> f32 {
    legend_layout(ui, width, diff, extras)
        .last()
        .map_or(0.0, |l| l.0.y + LEGEND_ROW + 3.0)
}

/// Draws the legend strip in `rect` (under the views: it covers no map cell).
pub fn draw_legend(ui: &egui::Ui, rect: Rect, diff: bool, extras: &Extras) {
    let p = ui.painter().with_clip_rect(rect);
    p.rect_filled(rect, 0.0, Color32::from_gray(238));
    for (at, c, label) in legend_layout(ui, rect.width(), diff, extras) {
        let o = rect.min + at;
        p.rect_filled(
            Rect::from_min_size(o + vec2(0.0, 2.0), vec2(12.0, 12.0)),
            2.0,
            c,
        );
        p.rect_stroke(
            Rect::from_min_size(o + vec2(0.0, 2.0), vec2(12.0, 12.0)),
            2.0,
            Stroke::new(1.0, Color32::from_gray(150)),
            egui::StrokeKind::Inside,
        );
        p.text(
            o + vec2(16.0, 1.0),
            egui::Align2::LEFT_TOP,
            label,
            egui::FontId::proportional(LEGEND_FONT),
            Color32::from_gray(20),
        );
    }
}

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

/// The vehicle planner's glyphs: its search's poses waiting and expanded, in the canvas's
/// open and closed colours (they mean the same).
pub fn vehicle_extras() -> Extras {
    vec![
        (palette::OPEN, "open (waiting)"),
        (palette::CLOSED, "closed (expanded)"),
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
            (palette::INCONSISTENT, "to repair (D* Lite, AD*)"),
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

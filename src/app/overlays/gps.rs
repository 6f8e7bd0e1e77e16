//! What a hex view draws of Rahmani 2020's GPS of the brain: the cognitive map as a heatmap
//! (blue, darker the better known, as the thesis's figures; the counts as labels when zoomed
//! in), and for a GPS run the walk up to the timeline cursor (pink, as the thesis draws the
//! proposed path), the cone of directions of the step's choice, and A*'s path (dashed green)
//! once the walk has arrived.

use crate::app::camera::Camera;
use crate::app::canvas_draw::visible;
use crate::app::palette;
use crate::app::run::Run;
use crate::search::registry::Overlay;
use crate::space::{CognitiveMap, NodeId};
use crate::trace::EventKind;
use crate::world::AnySpace;
use eframe::egui::{self, Color32, Pos2, Rect, Stroke};

/// The walk's pink (the thesis's colour for the proposed path).
pub use crate::app::palette::WALK;
/// Zoom (points per hex) from which each known hex shows its count.
const COUNT_ZOOM: f32 = 22.0;

/// One free direction of a choice: unit vector, inside the cone, drawn.
pub type Ray = ((f64, f64), bool, bool);

/// A GPS run's marks at the cursor.
#[derive(Clone, Debug, Default)]
pub struct GpsMarks {
    /// Steps walked so far: from, to, and whether exploring.
    pub trail: Vec<(NodeId, NodeId, bool)>,
    /// The choice of the step shown: where, and each free direction (unit vector) with
    /// whether it is inside the cone and whether it was drawn.
    pub choice: Option<(NodeId, Vec<Ray>)>,
    /// A*'s path on the same world, once the walk has arrived.
    pub reference: Option<Vec<NodeId>>,
}

impl GpsMarks {
    /// The marks of `run` (a GPS run) at its cursor, on `space`; `reference` is A*'s path,
    /// computed by the caller once per run.
    pub fn of(run: &mut Run, space: &AnySpace, reference: Option<Vec<NodeId>>) -> GpsMarks {
        let to = run.event_cursor();
        let mut marks = GpsMarks {
            reference: reference.filter(|_| run.path_visible()),
            ..GpsMarks::default()
        };
        for e in run.rec.iter().take(to) {
            if e.kind == EventKind::Walk {
                marks.trail.push((e.other, e.node, e.b > 0.5));
            }
        }
        // The step shown's choice: a Choice event starts its step.
        let step = run.shown.checked_sub(1).map(|s| run.rec.step_start(s));
        let hex = space.as_hex();
        if let (Some(i), Some(hex)) = (step, hex) {
            if let Some(e) = run.rec.get(i).filter(|e| e.kind == EventKind::Choice) {
                let (cone, free) = (e.a as u32, e.b as u32);
                let first = e.other;
                let rays = (0..6)
                    .filter(|d| free >> d & 1 == 1)
                    .map(|d| {
                        let chosen = hex.neighbour_in(e.node, d) == Some(first);
                        let v = crate::search::gps::direction(hex, e.node, d);
                        (v, cone >> d & 1 == 1, chosen)
                    })
                    .collect();
                marks.choice = Some((e.node, rays));
            }
        }
        marks
    }
}

/// The cognitive map over the visible hexes: blue, alpha by counter / C_max.
pub(in crate::app) fn draw_heat(
    p: &egui::Painter,
    cam: &Camera,
    view: Rect,
    (w, h): (u32, u32),
    map: &CognitiveMap,
) {
    let (x0, y0, x1, y1) = visible(cam, view, w, h);
    let rel = cam.corners();
    let mut mesh = egui::Mesh::default();
    let labels = cam.zoom >= COUNT_ZOOM && (x1 - x0) as u64 * (y1 - y0) as u64 <= 6_000;
    let mut texts = vec![];
    for y in y0..y1 {
        for x in x0..x1 {
            let c = map.counters.get((y * w + x) as usize).copied().unwrap_or(0);
            if c == 0 {
                continue;
            }
            let k = c.min(map.c_max) as f32 / map.c_max as f32;
            let [r, g, b, _] = palette::KNOWN.to_array();
            let colour = Color32::from_rgba_unmultiplied(r, g, b, (70.0 + 160.0 * k) as u8);
            let centre = cam.centre(view, (x, y));
            crate::app::canvas_draw::hex_fan(&mut mesh, centre, &rel, colour);
            if labels {
                texts.push((centre, c));
            }
        }
    }
    p.add(egui::Shape::mesh(mesh));
    for (at, c) in texts {
        p.text(
            at,
            egui::Align2::CENTER_CENTER,
            c.to_string(),
            egui::FontId::proportional((cam.zoom * 0.38).min(16.0)),
            Color32::WHITE,
        );
    }
}

/// The GPS of the brain's overlay: its walk and cone (the view prepares the marks).
pub(super) struct Walk;

impl super::OverlayPart for Walk {
    fn draw(&self, s: &super::Scene, _: &mut Run) {
        if let Some(g) = s.gps {
            draw_walk(s.painter, s.cam, s.view, s.space.width(), g);
        }
    }

    fn legend(&self) -> crate::app::legend::Extras {
        crate::app::legend::gps_extras()
    }
}

/// The walk so far, the step's cone and, at the end, A*'s path.
pub(in crate::app) fn draw_walk(
    p: &egui::Painter,
    cam: &Camera,
    view: Rect,
    w: u32,
    marks: &GpsMarks,
) {
    let xy = |n: NodeId| (n % w.max(1), n / w.max(1));
    let at = |n: NodeId| cam.centre(view, xy(n));
    if let Some(path) = &marks.reference {
        let pts: Vec<Pos2> = path.iter().map(|&n| at(n)).collect();
        let width = (cam.zoom * 0.2).clamp(2.0, 5.0);
        p.add(egui::Shape::dashed_line(
            &pts,
            Stroke::new(width, palette::PATH),
            width * 2.5,
            width * 1.5,
        ));
    }
    let width = (cam.zoom * 0.22).clamp(2.0, 5.0);
    for &(a, b, exploring) in &marks.trail {
        // Exploring legs in full pink, steps on a plan a darker shade.
        let c = if exploring { WALK } else { palette::WALK_PLAN };
        p.line_segment([at(a), at(b)], Stroke::new(width, c));
    }
    if let Some((x, rays)) = &marks.choice {
        let c = at(*x);
        for &((dx, dy), in_cone, chosen) in rays {
            let len = cam.zoom * if chosen { 2.2 } else { 1.4 };
            let end = c + egui::vec2(dx as f32, dy as f32) * len;
            let (colour, wd) = match (chosen, in_cone) {
                (true, _) => (WALK, width * 1.2),
                (false, true) => (palette::CONE_IN, width * 0.7),
                (false, false) => (palette::CONE_OUT, width * 0.5),
            };
            p.line_segment([c, end], Stroke::new(wd, colour));
        }
    }
}

/// A view's cached GPS marks and A*'s path, by run serial and cursor.
#[derive(Default)]
pub struct GpsCache {
    marks: Option<((u64, usize), std::sync::Arc<GpsMarks>)>,
    reference: Option<(u64, Option<Vec<NodeId>>)>,
}

/// A*'s path on a hex world, the walk's yardstick.
fn reference_path(space: &AnySpace, q: crate::search::Query) -> Option<Vec<NodeId>> {
    let hex = space.as_hex()?;
    let mut a = crate::algorithms::build("astar", hex, q).ok()?;
    a.run_null(hex);
    a.path().map(<[_]>::to_vec)
}

impl crate::app::PathlabApp {
    /// View `i`'s GPS marks at its cursor, when it runs the GPS planner.
    pub(in crate::app) fn gps_marks(&mut self, i: usize) -> Option<std::sync::Arc<GpsMarks>> {
        let v = self.work.views.get_mut(i)?;
        if !v.run.choice.info.draws(Overlay::Walk) {
            return None;
        }
        let space = v.world.as_deref().map_or(&self.work.space, |w| &w.space);
        let key = (v.serial, v.run.event_cursor());
        if let Some((k, m)) = &v.gps.marks {
            if *k == key {
                return Some(m.clone());
            }
        }
        if v.gps.reference.as_ref().is_none_or(|r| r.0 != v.serial) {
            v.gps.reference = Some((v.serial, reference_path(space, v.run.query)));
        }
        let reference = v.gps.reference.as_ref().and_then(|r| r.1.clone());
        let marks = std::sync::Arc::new(GpsMarks::of(&mut v.run, space, reference));
        v.gps.marks = Some((key, marks.clone()));
        Some(marks)
    }

    /// The cognitive map view `i` shows (its own level's, or the document's), if shown.
    pub(in crate::app) fn heat_for(&self, i: usize) -> Option<std::sync::Arc<CognitiveMap>> {
        if !self
            .parts
            .of::<crate::app::knowledge::KnowledgePanel>()
            .show
        {
            return None;
        }
        let v = self.work.views.get(i)?;
        let space = v.world.as_deref().map_or(&self.work.space, |w| &w.space);
        space.as_hex()?.knowledge().cloned()
    }
}

impl Run {
    /// Expansions among the first `shown` steps (all of them but for walking agents).
    pub fn expansions_shown(&self) -> usize {
        let k = &self.series.kind[..self.shown.min(self.series.kind.len())];
        k.iter().filter(|&&e| e == EventKind::Expand).count()
    }

    /// What the last step shown did, in words ("expanding" unless an agent walks).
    pub fn doing(&self) -> &'static str {
        match self
            .shown
            .checked_sub(1)
            .and_then(|s| self.series.kind.get(s))
        {
            Some(EventKind::Walk) => "walking",
            Some(EventKind::Choice) => "choosing a direction",
            _ => "expanding",
        }
    }
}

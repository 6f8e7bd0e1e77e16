//! A hierarchy drawn as Rahmani 2020's Fig. 3.2 draws one: each node of the level shown
//! tinted apart from its neighbours (HPA*'s clusters outlined), the level's inter-edges red and
//! dashed, the navigation graph's vertices as red dots and its intra-edges as dark arrows; over
//! it the query at the step shown — the temporary edges from the start and to the goal (amber,
//! gone once the clean-up phase starts) and the graph search's open and closed vertices. The
//! node under the pointer lists its inter-edges and intra-edge costs.

use super::{OverlayPart, Scene};
use crate::app::legend::Extras;
use crate::app::palette;
use crate::app::prepared::{abstraction, Abstraction};
use crate::app::run::Run;
use crate::hier::graph::{AbstractGraph, NO_REGION};
use crate::trace::{EventKind, NodeState};
use eframe::egui::{vec2, Align2, Color32, FontId, Pos2, Rect, Shape, Stroke};

pub(super) struct Hierarchy;

/// Intra-edges drawn for the whole graph up to this many; past it, only the hovered node's.
const ALL_ARROWS: usize = 3000;

impl OverlayPart for Hierarchy {
    fn draw(&self, s: &Scene, run: &mut Run) {
        let Some(a) = abstraction(&run.choice, s.space) else {
            return;
        };
        let cursor = run.event_cursor();
        let graph = match &a {
            Abstraction::Navmesh(p) => {
                let (Ok(h), Some(mesh)) = (&p.0, s.space.as_navmesh()) else {
                    return;
                };
                let shown = s.hier_level.clamp(1, h.levels.levels.len());
                let level = &h.levels.levels[shown - 1];
                let states = run.rec.seek(cursor);
                for poly in 0..mesh.polygons() as u32 {
                    let [x0, y0, x1, y1] = mesh.rect(poly);
                    let r = Rect::from_min_max(
                        s.point([x0 as f64, y0 as f64]),
                        s.point([x1 as f64, y1 as f64]),
                    );
                    let node = level.node_of[poly as usize] as usize;
                    let tint = palette::NODE_TINTS[node % palette::NODE_TINTS.len()];
                    match region_fill(states.get(poly as usize), tint) {
                        Some(fill) => {
                            s.painter.rect_filled(r, 0.0, fill);
                        }
                        // A polygon the search reached keeps its open or closed colour; its
                        // region shows as a border in the region's tint.
                        None => {
                            s.painter.rect_stroke(
                                r.shrink(1.0),
                                0.0,
                                Stroke::new(2.0, opaque(tint)),
                                eframe::egui::StrokeKind::Inside,
                            );
                        }
                    }
                }
                for &(a, b) in &level.inter {
                    if let Some(p) = mesh.portal(a, b) {
                        dashed(s, s.point(p.a), s.point(p.b), 2.0);
                    }
                }
                &*h.graph
            }
            Abstraction::Clusters(h) => {
                let (w, ht) = (s.space.width(), s.space.height());
                let line = Stroke::new(1.0, CLUSTER_LINE);
                for x in (h.cluster..w).step_by(h.cluster as usize) {
                    let (a, b) = (s.point([x as f64, 0.0]), s.point([x as f64, ht as f64]));
                    s.painter.line_segment([a, b], line);
                }
                for y in (h.cluster..ht).step_by(h.cluster as usize) {
                    let (a, b) = (s.point([0.0, y as f64]), s.point([w as f64, y as f64]));
                    s.painter.line_segment([a, b], line);
                }
                for &(a, b) in &h.graph.level.inter {
                    dashed(s, s.at(a), s.at(b), 2.0);
                }
                &*h.graph
            }
        };
        let hovered = s
            .pointer
            .and_then(|(x, y)| s.space.node(x, y))
            .map(|n| graph.region_of(n))
            .filter(|&r| r != NO_REGION);
        draw_graph(s, graph, hovered);
        draw_query(s, run, graph);
        if let Some(r) = hovered {
            list_node(s, graph, r);
        }
    }

    fn legend(&self) -> Extras {
        vec![
            (
                palette::NODE_TINTS[0],
                "hierarchy: region (node of the level shown)",
            ),
            (CLUSTER_LINE, "HPA*: cluster border"),
            (palette::INTER_EDGE, "inter-edge, entrance, graph vertex"),
            (palette::INTRA_EDGE, "intra-edge"),
            (palette::TEMP_EDGE, "temporary edge"),
        ]
    }
}

/// HPA*'s cluster borders: the intra-edges' colour, faded.
pub(crate) const CLUSTER_LINE: Color32 = Color32::from_rgba_premultiplied(20, 20, 24, 128);

/// The fill a polygon in search state `state` gets in its region's `tint`: only where the
/// search has not reached it, so the open and closed colours are never covered.
fn region_fill(state: NodeState, tint: Color32) -> Option<Color32> {
    (state == NodeState::Unseen).then_some(tint)
}

/// A region's tint at full strength, for its border on polygons the search reached.
fn opaque(tint: Color32) -> Color32 {
    let a = tint.a().max(1) as f32 / 255.0;
    let c = |v: u8| (v as f32 / a).min(255.0) as u8;
    Color32::from_rgb(c(tint.r()), c(tint.g()), c(tint.b()))
}

impl Scene<'_> {
    /// Screen position of a point in cell units.
    fn point(&self, p: [f64; 2]) -> Pos2 {
        self.view.min + self.cam.offset + vec2(p[0] as f32, p[1] as f32) * self.cam.zoom
    }
}

fn dashed(s: &Scene, a: Pos2, b: Pos2, width: f32) {
    s.painter.add(Shape::dashed_line(
        &[a, b],
        Stroke::new(width, palette::INTER_EDGE),
        4.0,
        3.0,
    ));
}

fn arrow(s: &Scene, a: Pos2, b: Pos2, colour: Color32, width: f32) {
    s.painter
        .arrow(a, (b - a) * 0.92, Stroke::new(width, colour));
}

/// The graph's vertices, and its intra-edges (all, or only the hovered node's when many).
fn draw_graph(s: &Scene, g: &AbstractGraph, hovered: Option<u32>) {
    let all = g.intra.edges.len() <= ALL_ARROWS;
    for r in 0..g.level.nodes as u32 {
        if !all && Some(r) != hovered {
            continue;
        }
        for e in g.intra.of(r) {
            let (a, b) = (
                s.point(g.pos[e.from as usize]),
                s.point(g.pos[e.to as usize]),
            );
            arrow(s, a, b, palette::INTRA_EDGE.gamma_multiply(0.7), 1.0);
        }
    }
    let radius = (s.cam.zoom * 0.3).clamp(1.0, 5.0);
    for p in &g.pos {
        s.painter
            .circle_filled(s.point(*p), radius, palette::INTER_EDGE);
    }
}

/// The query at the step shown: its temporary edges until the clean-up, and the graph
/// search's vertices.
fn draw_query(s: &Scene, run: &mut Run, g: &AbstractGraph) {
    let Some(layer) = run.rec.layers().get(1).cloned() else {
        return;
    };
    let v = g.vertices() as u32;
    let (temp_s, temp_g) = (layer.first + v, layer.first + v + 1);
    let cursor = run.event_cursor();
    let phase = run.rec.phase_of_step(run.shown.saturating_sub(1));
    let (mut start, mut goal) = (None, None);
    let mut temps = vec![];
    for i in 0..cursor {
        let Some(e) = run.rec.get(i) else { break };
        match e.kind {
            EventKind::Source => start = Some(e.node),
            EventKind::Destination => goal = Some(e.node),
            EventKind::Generate if e.other == temp_s || e.other == temp_g => {
                temps.push((e.node, e.other == temp_s))
            }
            _ => {}
        }
    }
    // A base node (a connecting search's expansion) is no vertex: nothing to mark.
    let point_of = |id: u32| {
        let k = id.checked_sub(layer.first).filter(|&k| k < v)?;
        Some(s.point(g.pos[k as usize]))
    };
    if phase < 3 {
        for (id, from_start) in temps {
            let end = if from_start { start } else { goal };
            let (Some(end), Some(p)) = (end, point_of(id)) else {
                continue;
            };
            let e = s.at(end);
            let (a, b) = if from_start { (e, p) } else { (p, e) };
            arrow(s, a, b, palette::TEMP_EDGE, 2.5);
        }
        // A direct temporary edge (start and goal in one node) joins the two temporaries.
        if let (Some(a), Some(b)) = (start, goal) {
            let direct = (0..cursor)
                .filter_map(|i| run.rec.get(i))
                .any(|e| e.kind == EventKind::Generate && e.node == temp_g && e.other == temp_s);
            if direct {
                arrow(s, s.at(a), s.at(b), palette::TEMP_EDGE, 2.5);
            }
        }
    }
    let states = run.rec.seek(cursor);
    // Markers shrink with the cells: a large map zoomed out stays readable.
    let radius = (s.cam.zoom * 0.45).clamp(1.5, 7.0);
    for k in 0..v {
        let colour = match states.get((layer.first + k) as usize) {
            NodeState::Open => palette::OPEN,
            NodeState::Closed => palette::CLOSED,
            _ => continue,
        };
        let p = s.point(g.pos[k as usize]);
        s.painter
            .circle(p, radius, colour, Stroke::new(1.5, palette::INTER_EDGE));
    }
    if let Some(p) = run.current_node().and_then(point_of) {
        s.painter
            .circle_stroke(p, radius * 1.6, Stroke::new(2.5, palette::CURRENT));
    }
}

/// The hovered node's inter-edges and the cost of each intra-edge across it, beside the
/// pointer.
fn list_node(s: &Scene, g: &AbstractGraph, r: u32) {
    let mut text = format!("node {r}: {} inter-edges", g.vertices_of(r).len());
    let edges = g.intra.of(r);
    for e in edges.iter().take(12) {
        text += &format!("\n  {} → {}: {:.2}", e.from, e.to, e.cost);
    }
    if edges.len() > 12 {
        text += &format!("\n  … {} intra-edges in all", edges.len());
    }
    let Some((x, y)) = s.pointer else { return };
    let at = s.point([x as f64 + 1.5, y as f64 + 1.5]);
    let galley = s
        .painter
        .layout_no_wrap(text, FontId::monospace(11.0), Color32::from_gray(20));
    let rect = Align2::LEFT_TOP.anchor_size(at, galley.size()).expand(4.0);
    s.painter.rect_filled(
        rect,
        3.0,
        Color32::from_rgba_unmultiplied(255, 255, 245, 230),
    );
    s.painter
        .galley(rect.min + vec2(4.0, 4.0), galley, Color32::BLACK);
}

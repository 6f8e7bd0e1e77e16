//! The 2D canvas: camera (pan, zoom to the cursor, fit), the map texture, overlays (current node,
//! parent arrows, path, start and goal, flashes, the shared pointer) and the mouse gestures the editor turns into edits.

pub use crate::app::camera::Camera;
use crate::app::camera::TITLE_H;
use crate::app::canvas_draw::{
    draw_cells, draw_grid_lines, draw_parent_arrows, draw_path, draw_path_line, paint_surround,
};
use crate::app::palette;
use crate::app::run::Run;
use crate::app::texture::MapTexture;
use crate::space::NodeId;
use crate::world::AnySpace;
use eframe::egui::{self, pos2, vec2, Color32, Pos2, Rect, RichText, Sense, Stroke};

/// What the user did on a view this frame, read from the frame's events in order: a press,
/// every pointer motion and a release all count even when they come within one frame (a
/// quick stroke), and the cells between two pointer samples are filled in.
#[derive(Clone, Debug, Default)]
pub struct Gesture {
    /// Cell under the pointer.
    pub hover: Option<(u32, u32)>,
    /// Primary button went down on a cell of this view.
    pub pressed: Option<(u32, u32)>,
    /// The cells the pointer crossed with the primary button held since the last frame (a
    /// stroke begun on this view), in order, none missed between pointer samples: the press's
    /// cell first when it went down this frame, the release's last.
    pub stroke: Vec<(u32, u32)>,
    /// Primary button released (ending a stroke begun on this view).
    pub released: bool,
    /// The cell it was released on.
    pub released_at: Option<(u32, u32)>,
    /// Primary click (press and release on one cell, without moving away).
    pub clicked: Option<(u32, u32)>,
    /// Right click, for the context menu.
    pub secondary: Option<(u32, u32)>,
    /// The press landed on the start (`true`) or goal disc: screen distance to the disc, so
    /// an endpoint can be grabbed even when a cell is smaller than a pixel.
    pub grab: Option<bool>,
    /// An entry of the cell's context menu was chosen.
    pub menu: Option<(MenuAction, (u32, u32))>,
}

/// The entries of a cell's context menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuAction {
    SetStart,
    SetGoal,
    Select,
    BreakAt,
}

/// An agent's cell and the cells it walked.
pub type AgentMark<'a> = (&'a (u32, u32), &'a [(u32, u32)]);

/// Everything a view draws besides the texture.
pub struct Overlay<'a> {
    pub title: &'a str,
    pub start: (u32, u32),
    pub goal: (u32, u32),
    pub selected: Option<(u32, u32)>,
    pub rect_preview: Option<((u32, u32), (u32, u32))>,
    /// A crowd's painted start and goal areas.
    pub crowd_areas: [Option<[(u32, u32); 2]>; 2],
    /// This view's agent: where it stands and the cells it walked.
    pub agent: Option<AgentMark<'a>>,
    pub diff: bool,
    /// Start (`true`) or goal being dragged, and the cell under the pointer: the disc is
    /// drawn there while the old place shows a faint ring.
    pub dragged: Option<(bool, (u32, u32))>,
    /// The inspector and status line speak of this view (marked when views are compared).
    pub active: bool,
    /// The cell under the pointer in any view: every view outlines it, so compared runs can
    /// be read at the same place.
    pub pointer: Option<(u32, u32)>,
    /// Cells the world changed last, and seconds since: filled cyan at first, fading to an
    /// outline that stays until the next change.
    pub flash: (&'a [(u32, u32)], f32),
    /// The path rubber-banded, drawn dashed over the path.
    pub smoothed: Option<&'a [NodeId]>,
    /// A GPS of the brain run's walk, cone and A* path (it draws those instead of a path).
    pub gps: Option<&'a crate::app::overlays::gps::GpsMarks>,
    /// The hierarchy level hierarchical runs show (1-based; past the top shows the top).
    pub hier_level: usize,
    /// The cognitive map to show as a heatmap (hex worlds).
    pub knowledge: Option<&'a crate::space::CognitiveMap>,
}

/// Seconds a world change's flash takes to fade to its outline.
const FLASH_SECS: f32 = 0.8;

/// Radius of the start and goal discs at a zoom.
fn disc_radius(zoom: f32) -> f32 {
    (zoom * 0.42).max(5.0)
}

/// Draws one view and reads the pointer over it.
pub fn show(
    ui: &mut egui::Ui,
    cam: &mut Camera,
    space: &AnySpace,
    tex: &MapTexture,
    run: &mut Run,
    ov: &Overlay,
) -> Gesture {
    // Where the world draws a node: its cell (a voxel world's nodes of other layers where they
    // lie from above, a polygon at the cell under its centre).
    let (w, h) = (space.width(), space.height());
    let xy = |n: NodeId| space.xy(n);
    let (resp, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    let view = resp.rect;
    if cam.fit_pending || cam.fitted_for.is_some_and(|s| s != view.size()) {
        cam.fit(view, w, h);
    }
    let map_rect = Rect::from_min_size(view.min + cam.offset, cam.geometry.extent(w, h) * cam.zoom);
    paint_surround(&painter, view, map_rect);
    let texture_cells = cam.geometry.texture_cells();
    if !texture_cells {
        // Cells as polygons behind the map's bounding box: the gaps between them show this.
        painter.rect_filled(map_rect, 0.0, Color32::from_gray(200));
        draw_cells(&painter, cam, view, tex, w, h);
    }
    if let Some(k) = ov.knowledge {
        crate::app::overlays::gps::draw_heat(&painter, cam, view, (w, h), k);
    }
    for (id, [x0, y0, x1, y1]) in tex.tiles().filter(|_| texture_cells) {
        let at = |x: usize, y: usize| map_rect.min + vec2(x as f32, y as f32) * cam.zoom;
        painter.image(
            id,
            Rect::from_min_max(at(x0, y0), at(x1, y1)),
            Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
            Color32::WHITE,
        );
    }
    painter.rect_stroke(
        map_rect,
        0.0,
        Stroke::new(1.0, Color32::from_gray(90)),
        egui::StrokeKind::Outside,
    );

    // Pan: middle button, or primary with space held.
    let space_held = ui.input(|i| i.key_down(egui::Key::Space));
    let panning = resp.dragged_by(egui::PointerButton::Middle)
        || (space_held && resp.dragged_by(egui::PointerButton::Primary));
    if panning {
        cam.offset += resp.drag_delta();
        cam.fitted_for = None;
    }
    // Zoom to the cursor.
    if let Some(p) = resp.hover_pos() {
        let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = (scroll * 0.0025).exp() * pinch;
        if (factor - 1.0).abs() > 1e-4 {
            let new_zoom = (cam.zoom * factor).clamp(0.05, 200.0);
            let anchor = p - view.min - cam.offset;
            cam.offset += anchor - anchor * (new_zoom / cam.zoom);
            cam.zoom = new_zoom;
            cam.fitted_for = None;
        }
    }

    let clip = painter.clip_rect().intersect(view);
    let painter = painter.with_clip_rect(clip);
    if texture_cells {
        draw_grid_lines(&painter, cam, view, w, h);
    }
    if let Some(n) = run.current_world_node() {
        let s = Stroke::new((cam.zoom * 0.18).clamp(2.0, 4.0), palette::CURRENT);
        cam.stroke_cell(&painter, view, xy(n), s, 0.0);
    }
    if cam.zoom >= 18.0 && run.finished() && !ov.diff {
        draw_parent_arrows(&painter, cam, view, space, run);
    }
    // What the run's algorithm draws beyond its nodes (jumps, sight checks, a walk).
    let scene = crate::app::overlays::Scene {
        painter: &painter,
        cam,
        view,
        space,
        gps: ov.gps,
        pointer: ov.pointer,
        hier_level: ov.hier_level,
    };
    // What the world draws over its cells (a navmesh's polygons and portals).
    crate::app::worlds::ui_of(&space.family()).draw_over(&painter, cam, view, space);
    crate::app::overlays::draw(&scene, run);
    if run.path_visible() {
        if let Some(o) = run.oracle.as_ref().filter(|o| !o.agrees()) {
            // The path A* from scratch found, beside the repaired one that disagrees with it.
            let pts: Vec<Pos2> = o
                .scratch_path
                .iter()
                .map(|&n| cam.centre(view, xy(n)))
                .collect();
            let w = (cam.zoom * 0.22).clamp(2.5, 6.0);
            painter.add(egui::Shape::dashed_line(
                &pts,
                Stroke::new(w, palette::ORACLE_BAD),
                w * 2.0,
                w * 1.5,
            ));
        }
        if let Some(path) = run.path().filter(|_| ov.gps.is_none()) {
            // A world may draw its path as a line of its own (a navmesh's, pulled tight through
            // its portals), else from node to node.
            let part = crate::app::worlds::ui_of(&space.family());
            let line = run
                .polyline()
                .or_else(|| part.path_line(space, path, (ov.start, ov.goal)));
            match line {
                Some(line) => {
                    let origin = view.min + cam.offset;
                    let pts = line
                        .iter()
                        .map(|p| origin + vec2(p[0] as f32, p[1] as f32) * cam.zoom)
                        .collect();
                    draw_path_line(&painter, cam, pts);
                }
                None => draw_path(&painter, cam, view, &xy, path),
            }
        }
        if let Some(band) = ov.smoothed {
            let pts: Vec<Pos2> = band.iter().map(|&n| cam.centre(view, xy(n))).collect();
            let w = (cam.zoom * 0.16).clamp(2.0, 4.0);
            painter.add(egui::Shape::dashed_line(
                &pts,
                Stroke::new(w, palette::SMOOTHED),
                w * 2.5,
                w * 1.5,
            ));
        }
    }
    let r = disc_radius(cam.zoom);
    for (is_start, at, fill, width) in [
        (true, ov.start, palette::START, 1.5),
        (false, ov.goal, palette::GOAL, 2.0),
    ] {
        match ov.dragged {
            Some((s, to)) if s == is_start => {
                // The old place as a ring, the disc under the pointer.
                painter.circle_stroke(cam.centre(view, at), r, Stroke::new(1.5, fill));
                painter.circle(
                    cam.centre(view, to),
                    r * 1.15,
                    fill,
                    Stroke::new(width, Color32::WHITE),
                );
            }
            _ => {
                painter.circle(
                    cam.centre(view, at),
                    r,
                    fill,
                    Stroke::new(width, Color32::WHITE),
                );
            }
        }
    }
    if let Some((at, trail)) = ov.agent {
        let pts: Vec<Pos2> = trail.iter().map(|&c| cam.centre(view, c)).collect();
        painter.add(egui::Shape::line(
            pts,
            Stroke::new((cam.zoom * 0.12).clamp(1.5, 3.0), palette::AGENT),
        ));
        painter.circle(
            cam.centre(view, *at),
            (cam.zoom * 0.5).max(5.0),
            palette::AGENT,
            Stroke::new(2.0, Color32::WHITE),
        );
    }
    if let Some(c) = ov.selected {
        cam.stroke_cell(&painter, view, c, Stroke::new(2.0, Color32::BLACK), 2.0);
    }
    for (area, colour) in ov.crowd_areas.iter().zip([palette::START, palette::GOAL]) {
        if let Some([a, b]) = area {
            let (x0, x1, y0, y1) = (a.0.min(b.0), a.0.max(b.0), a.1.min(b.1), a.1.max(b.1));
            let r = cam
                .cell_rect(view, (x0, y0))
                .union(cam.cell_rect(view, (x1, y1)));
            painter.rect_stroke(r, 0.0, Stroke::new(2.5, colour), egui::StrokeKind::Inside);
        }
    }
    if let Some((a, b)) = ov.rect_preview {
        let (x0, x1, y0, y1) = (a.0.min(b.0), a.0.max(b.0), a.1.min(b.1), a.1.max(b.1));
        let count = (x1 - x0 + 1) as u64 * (y1 - y0 + 1) as u64;
        let s = Stroke::new(2.0, palette::CURRENT);
        if !texture_cells && count <= 4096 {
            // Of polygon cells (hexes) the rectangle of the offset grid is a zig-zag band:
            // outline each cell it will fill while they are few enough to draw.
            for y in y0..=y1 {
                for x in x0..=x1 {
                    cam.stroke_cell(&painter, view, (x, y), Stroke::new(1.5, s.color), 0.0);
                }
            }
        } else {
            let r = cam
                .cell_rect(view, (x0, y0))
                .union(cam.cell_rect(view, (x1, y1)));
            painter.rect_stroke(r, 0.0, s, egui::StrokeKind::Inside);
        }
    }
    if !ov.flash.0.is_empty() {
        let fade = (1.0 - ov.flash.1 / FLASH_SECS).clamp(0.0, 1.0);
        let fill = palette::CHANGED.gamma_multiply(0.85 * fade);
        let s = Stroke::new(2.0, palette::CHANGED);
        // A few thousand cells at most: a flip of more is still flashed, in part.
        for &c in ov.flash.0.iter().take(4096) {
            let r = cam.cell_rect(view, c);
            let r = r.expand(((3.0 - r.width()) * 0.5).max(0.0));
            if !clip.intersects(r) {
                continue;
            }
            if fade > 0.0 {
                if texture_cells {
                    painter.rect_filled(r, 0.0, fill);
                } else {
                    painter.add(egui::Shape::convex_polygon(
                        cam.outline(view, c),
                        fill,
                        Stroke::NONE,
                    ));
                }
            }
            cam.stroke_cell(&painter, view, c, s, 0.0);
        }
        if fade > 0.0 {
            ui.ctx().request_repaint();
        }
    }
    if let Some(c) = ov.pointer {
        // The shared pointer: the same cell outlined in every view, with a cross through it
        // when the cell is small.
        let cr = cam.cell_rect(view, c);
        let s = Stroke::new(1.5, palette::POINTER);
        cam.stroke_cell(&painter, view, c, s, 2.0);
        if cam.zoom < 12.0 {
            let ctr = cr.center();
            let arm = 10.0;
            painter.line_segment([ctr - vec2(arm, 0.0), ctr - vec2(3.0, 0.0)], s);
            painter.line_segment([ctr + vec2(3.0, 0.0), ctr + vec2(arm, 0.0)], s);
            painter.line_segment([ctr - vec2(0.0, arm), ctr - vec2(0.0, 3.0)], s);
            painter.line_segment([ctr + vec2(0.0, 3.0), ctr + vec2(0.0, arm)], s);
        }
    }
    // Title: the active view's bar in the accent colour when views are compared.
    let title_bg = Rect::from_min_size(view.min, vec2(view.width(), TITLE_H));
    let bar = if ov.active {
        palette::ACTIVE_TITLE
    } else {
        Color32::from_black_alpha(150)
    };
    painter.rect_filled(title_bg, 0.0, bar);
    painter.text(
        view.min + vec2(6.0, 3.0),
        egui::Align2::LEFT_TOP,
        ov.title,
        egui::FontId::proportional(13.0),
        Color32::WHITE,
    );
    if let Some(o) = &run.oracle {
        // The oracle's verdict on the last repair, under the title.
        let (fill, text) = if o.agrees() {
            (palette::ORACLE_OK, o.text())
        } else {
            (palette::ORACLE_BAD, format!("{} (dashed: A*)", o.text()))
        };
        let galley = painter.layout_no_wrap(text, egui::FontId::proportional(13.0), Color32::WHITE);
        let r = Rect::from_min_size(view.min + vec2(4.0, 24.0), galley.size() + vec2(12.0, 6.0));
        painter.rect_filled(r, 4.0, fill);
        painter.galley(r.min + vec2(6.0, 3.0), galley, Color32::WHITE);
    }
    let dropped = run.rec.dropped();
    if dropped > 0 {
        // The recorder's limit was reached: the timeline ends early, and says by how much.
        let text = format!(
            "{dropped} later events not recorded (limit {} events): the timeline stops at {}",
            crate::limits::MAX_EVENTS,
            run.rec.len()
        );
        let galley = painter.layout_no_wrap(text, egui::FontId::proportional(13.0), Color32::WHITE);
        let y = if run.oracle.is_some() { 50.0 } else { 24.0 };
        let r = Rect::from_min_size(view.min + vec2(4.0, y), galley.size() + vec2(12.0, 6.0));
        painter.rect_filled(r, 4.0, palette::ORACLE_BAD);
        painter.galley(r.min + vec2(6.0, 3.0), galley, Color32::WHITE);
    }

    let hover = resp.hover_pos().and_then(|p| cam.cell_at(view, p, w, h));
    let pointer = ui.input(|i| i.pointer.interact_pos());
    let at = |p: Option<Pos2>| p.and_then(|p| cam.cell_at(view, p, w, h));
    let mut stroke = read_stroke(ui, &resp, cam, (w, h), space_held);
    // A press on the start or goal disc grabs it (the disc drawn on top wins).
    let grab = stroke.press.and_then(|o| {
        let near =
            |c: (u32, u32)| o.distance(cam.centre(view, c)) <= r + 4.0 || at(Some(o)) == Some(c);
        if near(ov.goal) {
            Some(false)
        } else if near(ov.start) {
            Some(true)
        } else {
            None
        }
    });
    let menu_id = resp.id.with("menu-cell");
    if resp.secondary_clicked() {
        if let Some(c) = at(pointer) {
            ui.ctx().data_mut(|d| d.insert_temp(menu_id, c));
        }
    }
    let mut menu = None;
    resp.context_menu(|ui| {
        let Some(c) = ui.ctx().data(|d| d.get_temp::<(u32, u32)>(menu_id)) else {
            ui.close();
            return;
        };
        ui.label(RichText::new(format!("cell ({}, {})", c.0, c.1)).weak());
        for (action, label) in [
            (MenuAction::SetStart, "Set start here  (S)"),
            (MenuAction::SetGoal, "Set goal here  (T)"),
            (MenuAction::Select, "Inspect this cell"),
            (MenuAction::BreakAt, "Stop when this cell is expanded"),
        ] {
            if ui.button(label).clicked() {
                menu = Some((action, c));
                ui.close();
            }
        }
    });
    Gesture {
        hover,
        pressed: stroke.press.and_then(|p| at(Some(p))),
        stroke: std::mem::take(&mut stroke.cells),
        released: stroke.release.is_some(),
        released_at: stroke.release.and_then(|p| at(Some(p))),
        clicked: stroke.click.and_then(|p| at(Some(p))),
        secondary: resp.secondary_clicked().then(|| at(pointer)).flatten(),
        grab,
        menu,
    }
}

/// A primary-button stroke on one view, as this frame's events tell it.
#[derive(Default)]
struct PointerStroke {
    press: Option<Pos2>,
    release: Option<Pos2>,
    /// Press and release close together, on one cell.
    click: Option<Pos2>,
    cells: Vec<(u32, u32)>,
}

/// A stroke in progress on a view, kept between frames.
#[derive(Clone, Copy)]
struct Held {
    press: Pos2,
    last: Pos2,
    moved: bool,
}

/// Reads this frame's pointer events in order: a press on the view begins a stroke (not while
/// space is held, which pans), each motion extends it, a release ends it, wherever they fall
/// in the frame. Between two samples the segment is walked in steps of under half a cell, so
/// every cell on the way is in the stroke, on squares, hexes and voxel layers alike.
fn read_stroke(
    ui: &egui::Ui,
    resp: &egui::Response,
    cam: &Camera,
    (w, h): (u32, u32),
    space_held: bool,
) -> PointerStroke {
    let id = resp.id.with("stroke");
    let view = resp.rect;
    let mut held: Option<Held> = ui.ctx().data(|d| d.get_temp(id));
    let mut out = PointerStroke::default();
    let on_view =
        |p: Pos2| view.contains(p) && ui.ctx().layer_id_at(p).is_none_or(|l| l == ui.layer_id());
    let step = (cam.zoom * 0.45).max(1.0);
    // From `from` (itself included only when the stroke begins there) to `to`.
    let add = |cells: &mut Vec<(u32, u32)>, from: Pos2, to: Pos2, first: bool| {
        let n = ((to - from).length() / step).ceil().max(1.0) as usize;
        for k in (if first { 0 } else { 1 })..=n {
            let p = from + (to - from) * (k as f32 / n as f32);
            if let Some(c) = cam.cell_at(view, p, w, h) {
                if cells.last() != Some(&c) {
                    cells.push(c);
                }
            }
        }
    };
    let events = ui.input(|i| i.events.clone());
    for e in &events {
        match *e {
            egui::Event::PointerButton {
                pos,
                button: egui::PointerButton::Primary,
                pressed: true,
                ..
            } if held.is_none() && !space_held && on_view(pos) => {
                held = Some(Held {
                    press: pos,
                    last: pos,
                    moved: false,
                });
                out.press = Some(pos);
                add(&mut out.cells, pos, pos, true);
            }
            egui::Event::PointerMoved(pos) => {
                if let Some(hd) = held.as_mut() {
                    add(&mut out.cells, hd.last, pos, false);
                    hd.moved |= hd.press.distance(pos) > 6.0;
                    hd.last = pos;
                }
            }
            egui::Event::PointerButton {
                pos,
                button: egui::PointerButton::Primary,
                pressed: false,
                ..
            } => {
                if let Some(hd) = held.take() {
                    add(&mut out.cells, hd.last, pos, false);
                    out.release = Some(pos);
                    let same = cam.cell_at(view, hd.press, w, h) == cam.cell_at(view, pos, w, h);
                    if !hd.moved && same {
                        out.click = Some(pos);
                    }
                }
            }
            egui::Event::PointerGone => held = None,
            _ => {}
        }
    }
    ui.ctx().data_mut(|d| match held {
        Some(hd) => {
            d.insert_temp(id, hd);
        }
        None => d.remove::<Held>(id),
    });
    out
}

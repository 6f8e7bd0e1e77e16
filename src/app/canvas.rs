//! The 2D canvas: camera (pan, zoom to the cursor, fit), the map texture, overlays (current node,
//! parent arrows, path, start and goal, flashes, the shared pointer) and the mouse gestures the editor turns into edits.

use super::palette;
use super::run::Run;
use super::texture::MapTexture;
use crate::map::Family;
use crate::space::{HexOrientation, NodeId};
use crate::trace::{NodeState, NONE};
use eframe::egui::{self, pos2, vec2, Color32, Pos2, Rect, RichText, Sense, Stroke, Vec2};

/// How cells lie in the plane: squares one unit apart, or hexagons one unit from centre to
/// centre (hex worlds are drawn at pitch 1, whatever square cells they came from).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Geometry {
    #[default]
    Square,
    Hex(HexOrientation),
}

impl Geometry {
    pub fn of(family: Family) -> Geometry {
        match family {
            Family::Square => Geometry::Square,
            Family::Hex { orientation, .. } => Geometry::Hex(orientation),
        }
    }

    /// Size of a `w × h` map, in world units.
    fn extent(self, w: u32, h: u32) -> Vec2 {
        match self {
            Geometry::Square => vec2(w as f32, h as f32),
            Geometry::Hex(o) => {
                let (x, y) = o.extent(w, h, 1.0);
                vec2(x as f32, y as f32)
            }
        }
    }

    /// Centre of cell `c`, in world units from the map's top-left corner.
    fn centre(self, c: (u32, u32)) -> Vec2 {
        match self {
            Geometry::Square => vec2(c.0 as f32 + 0.5, c.1 as f32 + 0.5),
            Geometry::Hex(o) => {
                let (x, y) = o.centre(c.0, c.1, 1.0);
                vec2(x as f32, y as f32)
            }
        }
    }

    /// The cell at world point `q`.
    fn cell_at(self, q: Vec2, w: u32, h: u32) -> Option<(u32, u32)> {
        match self {
            Geometry::Square => (q.x >= 0.0 && q.y >= 0.0 && (q.x as u32) < w && (q.y as u32) < h)
                .then_some((q.x as u32, q.y as u32)),
            Geometry::Hex(o) => o.hex_at(q.x as f64, q.y as f64, 1.0, w, h),
        }
    }

    /// Cells whose shape may show between world points `a` and `b`: `[x0, x1) × [y0, y1)`.
    fn visible(self, a: Vec2, b: Vec2, w: u32, h: u32) -> (u32, u32, u32, u32) {
        let cl = |v: f32, m: u32| (v.max(0.0) as u32).min(m);
        let (sx, sy) = match self {
            Geometry::Square => (1.0, 1.0),
            Geometry::Hex(HexOrientation::Pointy) => (1.0, 3f32.sqrt() / 2.0),
            Geometry::Hex(HexOrientation::Flat) => (3f32.sqrt() / 2.0, 1.0),
        };
        let m = if self == Geometry::Square { 0.0 } else { 1.0 };
        (
            cl(a.x / sx - m, w),
            cl(a.y / sy - m, h),
            cl(b.x / sx + 1.0 + m, w),
            cl(b.y / sy + 1.0 + m, h),
        )
    }
}

/// Where the map sits on screen; shared by every view so compared runs line up.
#[derive(Clone, Copy, Debug)]
pub struct Camera {
    /// Screen points per cell (per hex pitch on hex worlds).
    pub zoom: f32,
    /// Square cells or hexagons: set from the world before every frame.
    pub geometry: Geometry,
    /// Position of the map's top-left corner relative to the view's top-left corner.
    pub offset: Vec2,
    /// Fit the map to the view on the next frame.
    pub fit_pending: bool,
    /// View size of the last automatic fit, while the user has not moved the camera: the
    /// map is fitted again when the view's size changes (panels settle on the first frames).
    fitted_for: Option<Vec2>,
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            zoom: 16.0,
            geometry: Geometry::Square,
            offset: Vec2::ZERO,
            fit_pending: true,
            fitted_for: None,
        }
    }
}

impl Camera {
    fn fit(&mut self, view: Rect, w: u32, h: u32) {
        // Below the view's title bar, which would otherwise cover the map's top rows.
        let avail = view.size() - vec2(0.0, TITLE_H);
        let e = self.geometry.extent(w, h);
        let z = (avail.x / e.x).min(avail.y / e.y) * 0.96;
        self.zoom = z.max(0.05);
        let size = e * self.zoom;
        self.offset = vec2(0.0, TITLE_H) + (avail - size) * 0.5;
        self.fit_pending = false;
        self.fitted_for = Some(view.size());
    }

    /// The cell under a screen position.
    pub fn cell_at(&self, view: Rect, p: Pos2, w: u32, h: u32) -> Option<(u32, u32)> {
        self.geometry
            .cell_at((p - view.min - self.offset) / self.zoom, w, h)
    }

    /// Screen position of a cell's centre.
    pub fn centre(&self, view: Rect, c: (u32, u32)) -> Pos2 {
        view.min + self.offset + self.geometry.centre(c) * self.zoom
    }

    /// The square around a cell (a hexagon's bounding box on hex worlds).
    fn cell_rect(&self, view: Rect, c: (u32, u32)) -> Rect {
        let side = match self.geometry {
            Geometry::Square => 1.0,
            Geometry::Hex(_) => 2.0 / 3f32.sqrt(),
        };
        Rect::from_center_size(self.centre(view, c), Vec2::splat(side * self.zoom))
    }

    /// The outline of a cell on screen: its square or its hexagon, clockwise.
    fn outline(&self, view: Rect, c: (u32, u32)) -> Vec<Pos2> {
        match self.geometry {
            Geometry::Square => {
                let r = self.cell_rect(view, c);
                vec![
                    r.left_top(),
                    r.right_top(),
                    r.right_bottom(),
                    r.left_bottom(),
                ]
            }
            Geometry::Hex(o) => o
                .corners(c.0, c.1, 1.0)
                .iter()
                .map(|&(x, y)| view.min + self.offset + vec2(x as f32, y as f32) * self.zoom)
                .collect(),
        }
    }

    /// Strokes a cell's outline (inside it on squares, as the texture's cells are drawn).
    fn stroke_cell(&self, p: &egui::Painter, view: Rect, c: (u32, u32), s: Stroke, grow: f32) {
        match self.geometry {
            Geometry::Square => {
                p.rect_stroke(
                    self.cell_rect(view, c).expand(grow),
                    0.0,
                    s,
                    egui::StrokeKind::Inside,
                );
            }
            Geometry::Hex(_) => {
                let ctr = self.centre(view, c);
                let pts = self
                    .outline(view, c)
                    .into_iter()
                    .map(|q| q + (q - ctr).normalized() * grow)
                    .collect();
                p.add(egui::Shape::closed_line(pts, s));
            }
        }
    }
}

/// What the user did on a view this frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct Gesture {
    /// Cell under the pointer.
    pub hover: Option<(u32, u32)>,
    /// Primary button went down on a cell.
    pub pressed: Option<(u32, u32)>,
    /// Primary button held (and not panning) over a cell.
    pub dragging: Option<(u32, u32)>,
    /// Primary button released.
    pub released: bool,
    /// Primary click (press and release without moving).
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
}

/// Seconds a world change's flash takes to fade to its outline.
const FLASH_SECS: f32 = 0.8;

/// Zoom (screen points per cell) from which each reached cell shows its g as a label.
const LABEL_ZOOM: f32 = 34.0;

/// Height of a view's title bar.
const TITLE_H: f32 = 20.0;

/// Radius of the start and goal discs at a zoom.
fn disc_radius(zoom: f32) -> f32 {
    (zoom * 0.42).max(5.0)
}

/// Draws one view and reads the pointer over it.
pub fn show(
    ui: &mut egui::Ui,
    cam: &mut Camera,
    (w, h): (u32, u32),
    tex: &MapTexture,
    run: &mut Run,
    ov: &Overlay,
) -> Gesture {
    // Square and hex worlds both number their nodes y · width + x.
    let xy = |n: NodeId| (n % w.max(1), n / w.max(1));
    let (resp, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    let view = resp.rect;
    if cam.fit_pending || cam.fitted_for.is_some_and(|s| s != view.size()) {
        cam.fit(view, w, h);
    }
    let map_rect = Rect::from_min_size(view.min + cam.offset, cam.geometry.extent(w, h) * cam.zoom);
    paint_surround(&painter, view, map_rect);
    if let Geometry::Hex(_) = cam.geometry {
        // Hexagons behind the map's bounding box: the gaps between them show this.
        painter.rect_filled(map_rect, 0.0, Color32::from_gray(200));
        draw_hexes(&painter, cam, view, tex, w, h);
    }
    for (id, [x0, y0, x1, y1]) in tex.tiles().filter(|_| cam.geometry == Geometry::Square) {
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
    if cam.geometry == Geometry::Square {
        draw_grid_lines(&painter, cam, view, w, h);
    }
    if let Some(n) = run.current_node() {
        let s = Stroke::new((cam.zoom * 0.18).clamp(2.0, 4.0), palette::CURRENT);
        cam.stroke_cell(&painter, view, xy(n), s, 0.0);
    }
    if cam.zoom >= 18.0 && run.finished() && !ov.diff {
        draw_parent_arrows(&painter, cam, view, (w, h), run);
    }
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
        if let Some(path) = run.path() {
            draw_path(&painter, cam, view, w, path);
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
    if let Some((a, b)) = ov.rect_preview {
        let r = cam
            .cell_rect(view, (a.0.min(b.0), a.1.min(b.1)))
            .union(cam.cell_rect(view, (a.0.max(b.0), a.1.max(b.1))));
        painter.rect_stroke(
            r,
            0.0,
            Stroke::new(2.0, palette::CURRENT),
            egui::StrokeKind::Inside,
        );
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
                match cam.geometry {
                    Geometry::Square => {
                        painter.rect_filled(r, 0.0, fill);
                    }
                    Geometry::Hex(_) => {
                        painter.add(egui::Shape::convex_polygon(
                            cam.outline(view, c),
                            fill,
                            Stroke::NONE,
                        ));
                    }
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
    let (pointer, origin) = ui.input(|i| (i.pointer.interact_pos(), i.pointer.press_origin()));
    let at = |p: Option<Pos2>| p.and_then(|p| cam.cell_at(view, p, w, h));
    let primary_drag = resp.dragged_by(egui::PointerButton::Primary) && !panning;
    let started = resp.drag_started_by(egui::PointerButton::Primary) && !space_held;
    // A drag is recognised only once the pointer has moved a few pixels: the cell it began
    // on is where the button went down, not where the pointer is now.
    let grab = started
        .then(|| {
            let o = origin?;
            let near = |c: (u32, u32)| {
                o.distance(cam.centre(view, c)) <= r + 4.0 || at(Some(o)) == Some(c)
            };
            // The disc drawn on top wins when both are near.
            if near(ov.goal) {
                Some(false)
            } else if near(ov.start) {
                Some(true)
            } else {
                None
            }
        })
        .flatten();
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
        pressed: started.then(|| at(origin.or(pointer))).flatten(),
        dragging: primary_drag.then(|| at(pointer)).flatten(),
        released: resp.drag_stopped_by(egui::PointerButton::Primary),
        clicked: resp
            .clicked_by(egui::PointerButton::Primary)
            .then(|| at(pointer))
            .flatten(),
        secondary: resp.secondary_clicked().then(|| at(pointer)).flatten(),
        grab,
        menu,
    }
}

/// Range of cells visible in the view.
fn visible(cam: &Camera, view: Rect, w: u32, h: u32) -> (u32, u32, u32, u32) {
    let a = -cam.offset / cam.zoom;
    let b = (view.max - view.min - cam.offset) / cam.zoom;
    cam.geometry.visible(a, b, w, h)
}

/// A hex world: each visible hexagon filled with its cell's colour from the map texture's
/// image (terrain and search state as the square view shows them), in one mesh; outlined
/// when zoomed in. Hexes smaller than a pixel are drawn as their centre's colour still.
fn draw_hexes(p: &egui::Painter, cam: &Camera, view: Rect, tex: &MapTexture, w: u32, h: u32) {
    let Geometry::Hex(o) = cam.geometry else {
        return;
    };
    let (x0, y0, x1, y1) = visible(cam, view, w, h);
    let origin = view.min + cam.offset;
    // Corners relative to the centre, the same for every hex.
    let (cx, cy) = o.centre(0, 0, 1.0);
    let rel: Vec<Vec2> = o
        .corners(0, 0, 1.0)
        .iter()
        .map(|&(x, y)| vec2((x - cx) as f32, (y - cy) as f32) * cam.zoom)
        .collect();
    let mut mesh = egui::Mesh::default();
    for y in y0..y1 {
        for x in x0..x1 {
            let Some(colour) = tex.pixel(x, y) else {
                continue;
            };
            let c = origin + cam.geometry.centre((x, y)) * cam.zoom;
            let base = mesh.vertices.len() as u32;
            mesh.colored_vertex(c, colour);
            for r in &rel {
                mesh.colored_vertex(c + *r, colour);
            }
            for i in 0..6 {
                mesh.add_triangle(base, base + 1 + i, base + 1 + (i + 1) % 6);
            }
        }
    }
    p.add(egui::Shape::mesh(mesh));
    if cam.zoom >= 10.0 && (x1 - x0) as u64 * (y1 - y0) as u64 <= 40_000 {
        let s = Stroke::new(1.0, palette::GRID_LINE);
        for y in y0..y1 {
            for x in x0..x1 {
                let c = origin + cam.geometry.centre((x, y)) * cam.zoom;
                p.add(egui::Shape::closed_line(
                    rel.iter().map(|r| c + *r).collect(),
                    s,
                ));
            }
        }
    }
}

fn draw_grid_lines(p: &egui::Painter, cam: &Camera, view: Rect, w: u32, h: u32) {
    if cam.zoom < 10.0 {
        return;
    }
    let (x0, y0, x1, y1) = visible(cam, view, w, h);
    let o = view.min + cam.offset;
    let s = Stroke::new(1.0, palette::GRID_LINE);
    for x in x0..=x1 {
        let sx = o.x + x as f32 * cam.zoom;
        p.line_segment(
            [
                pos2(sx, o.y + y0 as f32 * cam.zoom),
                pos2(sx, o.y + y1 as f32 * cam.zoom),
            ],
            s,
        );
    }
    for y in y0..=y1 {
        let sy = o.y + y as f32 * cam.zoom;
        p.line_segment(
            [
                pos2(o.x + x0 as f32 * cam.zoom, sy),
                pos2(o.x + x1 as f32 * cam.zoom, sy),
            ],
            s,
        );
    }
}

fn draw_parent_arrows(
    p: &egui::Painter,
    cam: &Camera,
    view: Rect,
    (w, h): (u32, u32),
    run: &mut Run,
) {
    let (x0, y0, x1, y1) = visible(cam, view, w, h);
    if (x1 - x0) as u64 * (y1 - y0) as u64 > 20_000 {
        return;
    }
    let k = run.event_cursor();
    let s = Stroke::new(1.2, palette::ARROW);
    for y in y0..y1 {
        for x in x0..x1 {
            let n = y * w + x;
            let st = run.rec.seek(k).get(n as usize);
            if st == NodeState::Unseen {
                continue;
            }
            let info = run.rec.node_info(n, k);
            let a = cam.centre(view, (x, y));
            if cam.zoom >= LABEL_ZOOM && info.g.is_finite() {
                // g as a label in the cell's upper part, clear of the arrow.
                p.text(
                    a - vec2(0.0, cam.zoom * 0.24),
                    egui::Align2::CENTER_CENTER,
                    format!("{:.1}", info.g),
                    egui::FontId::proportional((cam.zoom * 0.2).clamp(9.0, 13.0)),
                    palette::LABEL,
                );
            }
            let parent = info.parent;
            if parent == NONE || parent == n {
                continue;
            }
            let b = cam.centre(view, (parent % w, parent / w));
            let tip = a + (b - a) * 0.42;
            p.line_segment([a, tip], s);
            let d = (b - a).normalized() * cam.zoom * 0.12;
            let nrm = vec2(-d.y, d.x);
            p.line_segment([tip, tip - d + nrm], s);
            p.line_segment([tip, tip - d - nrm], s);
        }
    }
}

fn draw_path(p: &egui::Painter, cam: &Camera, view: Rect, w: u32, path: &[NodeId]) {
    let w = w.max(1);
    let pts: Vec<Pos2> = path
        .iter()
        .map(|&n| cam.centre(view, (n % w, n / w)))
        .collect();
    let w = (cam.zoom * 0.22).clamp(2.5, 6.0);
    p.add(egui::Shape::line(
        pts.clone(),
        Stroke::new(w + 2.5, palette::PATH_OUTLINE),
    ));
    p.add(egui::Shape::line(pts, Stroke::new(w, palette::PATH)));
}

/// Fills the view around the map, never under it: with software rendering every layer of
/// pixels costs frame time, and the map texture covers its own area.
fn paint_surround(p: &egui::Painter, view: Rect, map: Rect) {
    let bg = Color32::from_gray(200);
    let m = map.intersect(view);
    if m.width() <= 0.0 || m.height() <= 0.0 {
        p.rect_filled(view, 0.0, bg);
        return;
    }
    for r in [
        Rect::from_min_max(view.min, pos2(view.max.x, m.min.y)),
        Rect::from_min_max(pos2(view.min.x, m.max.y), view.max),
        Rect::from_min_max(pos2(view.min.x, m.min.y), pos2(m.min.x, m.max.y)),
        Rect::from_min_max(pos2(m.max.x, m.min.y), pos2(view.max.x, m.max.y)),
    ] {
        if r.width() > 0.0 && r.height() > 0.0 {
            p.rect_filled(r, 0.0, bg);
        }
    }
}

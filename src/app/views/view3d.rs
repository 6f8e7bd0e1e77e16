//! The 3D view of a voxel world, beside its 2D layer editor: obstacles, the active view's
//! closed and open sets, path, start, goal and expanded node at the timeline cursor, so the
//! timeline, breakpoints and compare views drive it as they drive the 2D views. Drag to
//! orbit, right- or middle-drag to pan, scroll to zoom, double-click to fit; a click picks the
//! voxel under the pointer (the first searched or blocked one) for the inspector and shows its
//! layer in 2D.

use super::view3d_camera::{cross, norm, sub};
use crate::app::jobs::{Job, Polled};
use crate::app::view3d_gl::{self, Scene};
use crate::app::view3d_mesh::{self, Tris};
use crate::app::{palette, PathlabApp};
use crate::map::voxel_mesh;
use crate::trace::NodeState;
use eframe::egui;
use std::sync::Arc;
use web_time::Instant;

/// Worlds up to this many voxels mesh their search sets within the frame; larger ones on a
/// worker thread, the view showing the last finished mesh meanwhile.
const SYNC_NODES: usize = 2_000_000;

/// What the search sets were built from: view, cursor, layers drawn, map revision.
type SetsKey = (u64, usize, (u32, u32), u64);

/// What the markers were built from: view, cursor, layer, selection, map revision, start,
/// goal, and whether rubber-banded paths are shown.
type MarkersKey = (
    u64,
    usize,
    u32,
    Option<(u32, u32)>,
    u64,
    crate::app::document::At,
    crate::app::document::At,
    bool,
);

impl crate::app::parts::Part for View3d {
    crate::app::parts::part_any!();
}

/// Orbit camera and what the view last built.
pub struct View3d {
    pub show: bool,
    /// Angle about z (radians) and elevation above the xy plane.
    pub yaw: f32,
    pub pitch: f32,
    /// Distance from the target, in voxels.
    pub dist: f32,
    /// The point orbited, in world units (see [`view3d_mesh::world`]).
    pub target: [f32; 3],
    pub fov_y: f32,
    /// Layers drawn (inclusive): a cut to see inside.
    pub layers: (u32, u32),
    pub fit_pending: bool,
    /// Frame start, goal and the space around them (a world just opened).
    fit_endpoints: bool,
    /// The search drawn in front of the obstacles (see through walls).
    pub xray: bool,
    /// The world the camera was fitted to (size, document), to refit when another opens.
    fitted: Option<([u32; 3], u64)>,
    obstacles: Part<(u64, u64, (u32, u32))>,
    pub(super) search: Part<SetsKey>,
    /// The search sets being meshed on a worker thread, with the key and milliseconds.
    job: Option<crate::app::jobs::Job<(SetsKey, Tris, f32)>>,
    /// The voxels shared with the worker, for a document serial and revision.
    voxels: Option<((u64, u64), Arc<crate::map::voxel::VoxelGrid>)>,
    /// Path, start, goal, expanded node, selection and layer frame (always in front).
    pub(super) markers: Arc<Tris>,
    markers_key: Option<MarkersKey>,
    markers_generation: u64,
    next_generation: u64,
    /// The rectangle drawn last frame (for tests and screenshots).
    pub rect: Option<egui::Rect>,
    /// Milliseconds the last rebuild of the search sets took.
    pub last_build_ms: f32,
}

/// A built part: what it was built from, its generation and its triangles.
pub(super) struct Part<K> {
    pub(super) key: Option<K>,
    generation: u64,
    pub(super) tris: Arc<Tris>,
}

impl<K> Default for Part<K> {
    fn default() -> Self {
        Part {
            key: None,
            generation: 0,
            tris: Arc::default(),
        }
    }
}

impl Default for View3d {
    fn default() -> Self {
        View3d {
            show: true,
            yaw: -1.1,
            pitch: 0.6,
            dist: 100.0,
            target: [0.0; 3],
            fov_y: 0.8,
            layers: (0, u32::MAX),
            fit_pending: false,
            fit_endpoints: true,
            xray: true,
            fitted: None,
            obstacles: Part::default(),
            search: Part::default(),
            job: None,
            voxels: None,
            markers: Arc::default(),
            markers_key: None,
            markers_generation: 0,
            next_generation: 1,
            rect: None,
            last_build_ms: 0.0,
        }
    }
}

/// The 3D view as a view the centre lays out.
pub(crate) struct View3dPart;

impl crate::app::views::ViewPart for View3dPart {
    fn show(
        &self,
        app: &mut PathlabApp,
        ui: &mut egui::Ui,
        rect: egui::Rect,
        _: usize,
    ) -> Option<crate::app::canvas::Gesture> {
        app.show_view3d(ui, rect);
        None
    }
}

impl PathlabApp {
    /// The 3D view in `rect` with its strip of controls on top.
    pub(in crate::app) fn show_view3d(&mut self, ui: &mut egui::Ui, rect: egui::Rect) {
        let Some(vol) = self.work.doc.volume() else {
            return;
        };
        let dims = vol.voxels.dims();
        let depth = dims[2];
        let v = &mut self.parts.of_mut::<View3d>();
        if v.fitted != Some((dims, self.work.doc_serial)) {
            // Another world: all its layers, framed on the search between start and goal.
            v.layers = (0, depth - 1);
            v.fit_endpoints = true;
        }
        v.layers = (v.layers.0.min(depth - 1), v.layers.1.min(depth - 1));
        let mut layer = vol.z;
        let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
        child.horizontal_wrapped(|ui| {
            let l = ui.label("Layer z");
            ui.add(egui::Slider::new(&mut layer, 0..=depth - 1))
                .labelled_by(l.id)
                .on_hover_text("the layer the 2D view shows and edits (Page Up / Page Down)");
            let l = ui.label("show z");
            ui.add(egui::DragValue::new(&mut v.layers.0).range(0..=v.layers.1))
                .labelled_by(l.id)
                .on_hover_text("lowest layer drawn in 3D: cut away the floor");
            ui.label("to");
            let lo = v.layers.0;
            ui.add(egui::DragValue::new(&mut v.layers.1).range(lo..=depth - 1))
                .on_hover_text("highest layer drawn in 3D: cut away the ceiling to see inside");
            ui.checkbox(&mut v.xray, "x-ray")
                .on_hover_text("draw the search in front of the obstacles, as if they were glass");
            if ui
                .button("Fit")
                .on_hover_text("show the whole world (double-click)")
                .clicked()
            {
                v.fit_pending = true;
            }
        });
        crate::app::flight::strip(self, &mut child);
        let strip_bottom = child.min_rect().bottom() + 2.0;
        let area = egui::Rect::from_min_max(egui::pos2(rect.left(), strip_bottom), rect.max);
        if layer != self.work.doc.layer() {
            self.set_layer(layer);
        }
        self.view3d_input(ui, area);
        self.view3d_paint(ui, area);
    }

    /// Orbit, pan, zoom, fit and pick.
    fn view3d_input(&mut self, ui: &mut egui::Ui, area: egui::Rect) {
        let resp = ui.interact(
            area,
            egui::Id::unique("view3d"),
            egui::Sense::click_and_drag(),
        );
        let v = &mut self.parts.of_mut::<View3d>();
        if resp.dragged_by(egui::PointerButton::Primary) {
            let d = resp.drag_delta();
            v.yaw -= d.x * 0.01;
            v.pitch = (v.pitch + d.y * 0.01).clamp(-1.5, 1.5);
        }
        if resp.dragged_by(egui::PointerButton::Secondary)
            || resp.dragged_by(egui::PointerButton::Middle)
        {
            let d = resp.drag_delta();
            let eye = v.eye();
            let f = norm(sub(v.target, eye));
            let right = norm(cross(f, [0.0, 0.0, 1.0]));
            let up = cross(right, f);
            let k = v.dist * (v.fov_y / 2.0).tan() * 2.0 / area.height().max(1.0);
            for i in 0..3 {
                v.target[i] += (-d.x * right[i] + d.y * up[i]) * k;
            }
        }
        if let Some(at) = resp.hover_pos() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                v.zoom_at(area, at, (-scroll * 0.002).exp());
            }
        }
        if resp.double_clicked() {
            v.fit_pending = true;
        } else if resp.clicked() {
            if let Some(p) = resp.interact_pointer_pos() {
                self.pick3d(area, p);
            }
        }
    }

    /// Picks the voxel under `at`: the first searched or blocked voxel along the ray within
    /// the layers drawn. Its layer goes to the 2D view and the voxel to the inspector.
    pub fn pick3d(&mut self, area: egui::Rect, at: egui::Pos2) -> Option<[u32; 3]> {
        let (origin, dir) = self.parts.of_mut::<View3d>().ray(area, at);
        let vol = self.work.doc.volume()?;
        let layers = self.parts.of_mut::<View3d>().layers;
        let i = self
            .display
            .active
            .min(self.work.views.len().saturating_sub(1));
        let cursor = self.work.views.get_mut(i).map(|v| v.run.event_cursor());
        let states = match (self.work.views.get_mut(i), cursor) {
            (Some(v), Some(c)) => Some(v.run.rec.seek(c).clone()),
            _ => None,
        };
        let voxels = &vol.voxels;
        let hit = voxel_mesh::cast(voxels.dims(), origin, dir, |p| {
            if p[2] < layers.0 || p[2] > layers.1 {
                return false;
            }
            let i = voxels.index(p[0] as i64, p[1] as i64, p[2] as i64);
            i.is_some_and(|i| {
                voxels.blocked_at(i)
                    || states
                        .as_ref()
                        .is_some_and(|s| s.get(i) != NodeState::Unseen)
            })
        })?;
        let (p, before) = hit;
        // A click on an obstacle picks the free voxel in front of it.
        let picked = if voxels.is_blocked(p[0] as i64, p[1] as i64, p[2] as i64) {
            before.unwrap_or(p)
        } else {
            p
        };
        self.set_layer(picked[2]);
        self.edit.selected = Some((picked[0], picked[1]));
        self.status = format!("Picked voxel ({}, {}, {})", picked[0], picked[1], picked[2]);
        Some(picked)
    }

    /// Builds what changed and paints.
    fn view3d_paint(&mut self, ui: &mut egui::Ui, area: egui::Rect) {
        let Some(vol) = self.work.doc.volume() else {
            return;
        };
        let dims = vol.voxels.dims();
        let v = &mut self.parts.of_mut::<View3d>();
        if v.fit_pending || v.fit_endpoints {
            let (s, g) = (self.work.doc.start_at(), self.work.doc.goal_at());
            let mut lo = [s.0.min(g.0), s.1.min(g.1), s.2.min(g.2)].map(|c| c as f32);
            let mut hi = [s.0.max(g.0), s.1.max(g.1), s.2.max(g.2)].map(|c| c as f32 + 1.0);
            if v.fit_pending {
                // The obstacles and the endpoints: most of a Warframe box is empty air.
                for p in vol.voxels.blocked_voxels() {
                    for i in 0..3 {
                        lo[i] = lo[i].min(p[i] as f32);
                        hi[i] = hi[i].max(p[i] as f32 + 1.0);
                    }
                }
            } else {
                // Start and goal with room around them for the search.
                let e = [0, 1, 2].map(|i| hi[i] - lo[i]);
                let pad = ((e[0] * e[0] + e[1] * e[1] + e[2] * e[2]).sqrt() * 0.1).max(6.0);
                lo = lo.map(|c| c - pad);
                hi = hi.map(|c| c + pad);
            }
            v.fit(lo, hi, area.width() / area.height().max(1.0));
            v.fitted = Some((dims, self.work.doc_serial));
            v.fit_pending = false;
            v.fit_endpoints = false;
        }
        v.rect = Some(area);
        let layers = v.layers;
        // Obstacles: rebuilt when the map or the cut changes.
        let key = (self.work.doc_serial, self.work.doc.revision, layers);
        if v.obstacles.key != Some(key) {
            v.obstacles.key = Some(key);
            v.obstacles.tris = Arc::new(view3d_mesh::obstacles(&vol.voxels, layers));
            v.obstacles.generation = v.next_generation;
            v.next_generation += 1;
        }
        // The search at the active view's cursor: the sets on a worker thread for big
        // worlds (a closed set of millions of voxels takes a few hundred milliseconds to
        // mesh), the markers here.
        let i = self
            .display
            .active
            .min(self.work.views.len().saturating_sub(1));
        if let Some(view) = self.work.views.get_mut(i) {
            let cursor = view.run.event_cursor();
            let rev = self.work.doc.revision;
            match v.job.as_mut().map(|j| j.poll()) {
                Some(Polled::Done((key, tris, ms))) => {
                    v.job = None;
                    v.search.key = Some(key);
                    v.search.tris = Arc::new(tris);
                    v.search.generation = v.next_generation;
                    v.next_generation += 1;
                    v.last_build_ms = ms;
                }
                Some(Polled::Lost) => v.job = None,
                _ => {}
            }
            let key = (view.serial, cursor, layers, rev);
            if v.search.key != Some(key) && v.job.is_none() {
                let states = view.run.rec.seek(cursor);
                if vol.voxels.len() <= SYNC_NODES {
                    let t0 = Instant::now();
                    v.search.tris = Arc::new(view3d_mesh::search_sets(&vol.voxels, states, layers));
                    v.search.key = Some(key);
                    v.search.generation = v.next_generation;
                    v.next_generation += 1;
                    v.last_build_ms = t0.elapsed().as_secs_f32() * 1000.0;
                } else {
                    let voxels = match &v.voxels {
                        Some((k, a)) if *k == (self.work.doc_serial, rev) => a.clone(),
                        _ => {
                            let a = Arc::new(vol.voxels.clone());
                            v.voxels = Some(((self.work.doc_serial, rev), a.clone()));
                            a
                        }
                    };
                    let states = states.clone();
                    v.job = Some(Job::spawn("3D view's search sets", 0, move |_| {
                        let t0 = Instant::now();
                        let tris = view3d_mesh::search_sets(&voxels, &states, layers);
                        (key, tris, t0.elapsed().as_secs_f32() * 1000.0)
                    }));
                }
            }
            if v.job.is_some() {
                ui.ctx().request_repaint();
            }
            let mkey = (
                view.serial,
                cursor,
                vol.z,
                self.edit.selected,
                rev,
                self.work.doc.start_at(),
                self.work.doc.goal_at(),
                self.display.smoothed,
            );
            if v.markers_key != Some(mkey) {
                let mut tris = Tris::default();
                let xyz = |n: u32| vol.voxels.coords(n as usize);
                if view.run.path_visible() {
                    if let Some(path) = view.run.path() {
                        for w in path.windows(2) {
                            tris.segment(xyz(w[0]), xyz(w[1]), 0.35, palette::PATH);
                        }
                    }
                }
                if self.display.smoothed && view.run.path_visible() {
                    // View ▸ Rubber-banded paths: thinner, beside the path.
                    if let Some(band) = view.run.smoothed_path(&self.work.space) {
                        for w in band.windows(2) {
                            tris.segment(xyz(w[0]), xyz(w[1]), 0.2, palette::SMOOTHED);
                        }
                    }
                }
                if let Some(n) = view.run.current_world_node() {
                    tris.cube_at(xyz(n), 1.1, palette::CURRENT);
                }
                for (a, b, clear) in view.run.sight_checks() {
                    let c = if clear {
                        palette::SIGHT_CLEAR
                    } else {
                        palette::SIGHT_BLOCKED
                    };
                    tris.segment(xyz(a), xyz(b), 0.15, c);
                }
                let (s, g) = (self.work.doc.start_at(), self.work.doc.goal_at());
                tris.cube_at([s.0, s.1, s.2], 1.6, palette::START);
                tris.cube_at([g.0, g.1, g.2], 1.6, palette::GOAL);
                if let Some((x, y)) = self.edit.selected {
                    tris.cube_at([x, y, vol.z], 1.25, palette::POINTER);
                }
                tris.layer_frame(dims, vol.z, palette::LAYER_FRAME);
                v.markers = Arc::new(tris);
                v.markers_key = Some(mkey);
                v.markers_generation = v.next_generation;
                v.next_generation += 1;
            }
        }
        let [w, h, d] = dims.map(|c| c as f32);
        let mut parts = vec![
            (v.obstacles.generation, v.obstacles.tris.clone()),
            (v.search.generation, v.search.tris.clone()),
            (v.markers_generation, v.markers.clone()),
        ];
        let (xray, eye, target, fov_y, dist) = (v.xray, v.eye(), v.target, v.fov_y, v.dist);
        let mut generation = v.next_generation;
        if let Some([moving, agent]) = self.flight_parts(&mut generation) {
            // The moving obstacles over the grey graph voxels, the agent in front of all.
            parts.insert(1, moving);
            parts.push(agent);
        }
        self.parts.of_mut::<View3d>().next_generation = generation;
        let scene = Scene {
            parts,
            eye,
            target,
            fov_y,
            far: dist * 2.0 + (w * w + h * h + d * d).sqrt() * 2.0,
            background: palette::VIEW3D_BACKGROUND,
            xray,
        };
        view3d_gl::paint(ui, area, scene);
        crate::app::flight::badge(self, ui, area);
    }

    /// Shows and edits layer `z` of the voxel world in 2D.
    pub fn set_layer(&mut self, z: u32) {
        if self.work.doc.set_layer(z) {
            self.work.space.set_layer(z);
            self.work.seen_tiles = self.work.doc.grid.tiles().to_vec();
            self.display.best_open_cache = None;
        }
    }
}

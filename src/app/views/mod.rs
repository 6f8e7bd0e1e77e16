//! The centre: one to four views laid out for the map's shape, each synced and drawn, the
//! legend strip under them, and the pointer read from every view.

pub(crate) mod camera;
pub(crate) mod canvas;
pub(crate) mod canvas_draw;
pub(crate) mod editing;
pub(crate) mod legend;
pub(crate) mod texture;
pub(crate) mod view3d;
pub(crate) mod view3d_gl;
pub(crate) mod view3d_mesh;

use crate::app::{PathlabApp, View};
use crate::search::registry::Overlay;
use eframe::egui;
use eframe::egui::{vec2, Vec2};

impl PathlabApp {
    pub(in crate::app) fn centre(&mut self, ui: &mut egui::Ui) {
        let n = self.work.views.len().max(1);
        let mut full = ui.available_rect_before_wrap();
        // The legend gets a strip of its own under the views, so it never covers map cells;
        // on a voxel world it runs under the 3D view too (in the 2D column alone it took a
        // third of its height).
        let diff = self.diff && self.work.views.len() >= 2;
        let mut extras = legend::Extras::new();
        // What the views' algorithms draw beyond their nodes, each once.
        let mut shown: Vec<Overlay> = vec![];
        for v in &self.work.views {
            for &o in v.run.choice.info.overlays {
                if !shown.contains(&o) {
                    shown.push(o);
                    extras.extend(crate::app::overlays::part(o).legend());
                }
            }
        }
        let legend_h = if self.show_legend {
            legend::legend_height(ui, full.width(), diff, &extras)
        } else {
            0.0
        };
        let strip =
            egui::Rect::from_min_max(egui::pos2(full.min.x, full.max.y - legend_h), full.max);
        full.max.y -= legend_h;
        // The world's side view (voxels: the 3D view), left of the 2D views.
        self.view3d.rect = None;
        full = crate::app::worlds::ui_of(&self.work.doc.world).side_view(self, ui, full);
        self.canvas_rect = Some(full);
        let views_area = full;
        let (w, h) = (self.work.space.width(), self.work.space.height());
        let (cols, rows) = grid_layout(n, views_area.size(), (w, h));
        let cell = egui::vec2(
            views_area.width() / cols as f32,
            views_area.height() / rows as f32,
        );
        let ctx = ui.ctx().clone();
        let rev = self.work.doc.revision;
        let mut gestures = vec![];
        self.view_rects.clear();
        for i in 0..self.work.views.len() {
            let (c, r) = (i % cols, i / cols);
            let rect = egui::Rect::from_min_size(
                views_area.min + egui::vec2(c as f32 * cell.x, r as f32 * cell.y),
                cell - egui::vec2(
                    if c + 1 < cols { 3.0 } else { 0.0 },
                    if r + 1 < rows { 3.0 } else { 0.0 },
                ),
            );
            self.view_rects.push(rect);
            // Diff: view 0 against view 1, and view 1 against view 0.
            // (Views of different worlds have no cells in common to compare.)
            let same_world = self.work.views.iter().take(2).all(|v| v.world.is_none());
            let other = if self.diff && self.work.views.len() >= 2 && i < 2 && same_world {
                Some(1 - i)
            } else {
                None
            };
            {
                let (a, b) = split_pair(&mut self.work.views, i, other);
                let View {
                    run,
                    tex,
                    serial,
                    world,
                    ..
                } = a;
                // A view of its own world redraws whenever it is rebuilt (its serial changes).
                let (grid, rev) = match world {
                    Some(w) => (&w.grid, rev ^ (*serial << 40)),
                    None => (&self.work.doc.grid, rev),
                };
                tex.sync(
                    &ctx,
                    grid,
                    self.work.space.layer_base(),
                    rev,
                    (run, *serial),
                    b.map(|o| (&mut o.run, o.serial, i == 0)),
                );
            }
            let sol = self.work.views[i]
                .run
                .solution_shown()
                .map_or(String::new(), |(c, e)| format!(" — ε {e:.2}, cost {c:.3}"));
            let title = format!(
                "{}{}{sol}",
                self.work.views[i].run.choice.label(),
                if other.is_some() { " — diff" } else { "" }
            );
            let own = self.work.views[i].world.as_ref();
            // Cells the document's views share (selection, pointer, flashes, agents) are
            // document cells: a view of its own world shows only its search.
            let doc_cells = own.is_none();
            let title = match own {
                Some(w) => match &w.knowledge {
                    Some((level, _)) => format!("{title} — {level}% known"),
                    None => format!("{title} — on {}×{} hexes", w.grid.width(), w.grid.height()),
                },
                None => title,
            };
            let band: Option<Vec<crate::space::NodeId>> = if self.smoothed {
                let v = &mut self.work.views[i];
                let space = v.world.as_deref().map_or(&self.work.space, |w| &w.space);
                v.run
                    .path_visible()
                    .then(|| v.run.smoothed_path(space).map(<[_]>::to_vec))
                    .flatten()
            } else {
                None
            };
            let gps = self.gps_marks(i);
            let heat = self.heat_for(i);
            let own = self.work.views[i].world.as_ref();
            let ov = canvas::Overlay {
                gps: gps.as_deref(),
                knowledge: heat.as_deref(),
                smoothed: band.as_deref(),
                title: &title,
                start: own.map_or(self.work.doc.start, |w| w.start),
                goal: own.map_or(self.work.doc.goal, |w| w.goal),
                selected: self.selected.filter(|_| doc_cells),
                rect_preview: self.rect_from.zip(self.hover).filter(|_| doc_cells),
                diff: other.is_some(),
                agent: (self.sim.agents.get(i).filter(|_| doc_cells))
                    .map(|a| (&a.at, &a.trail[..])),
                dragged: (self.drag_to.filter(|_| self.dragging_endpoint.is_some()))
                    .filter(|_| doc_cells),
                active: self.work.views.len() > 1 && i == self.active,
                pointer: self
                    .hover
                    .filter(|_| self.work.views.len() > 1 && doc_cells),
                flash: if doc_cells {
                    (&self.flash.0[..], self.flash.1.elapsed().as_secs_f32())
                } else {
                    (&[][..], 0.0)
                },
            };
            let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
            let v = &mut self.work.views[i];
            let (cam, space) = match v.world.as_deref_mut() {
                Some(w) => (&mut w.cam, &w.space),
                None => (&mut self.cam, &self.work.space),
            };
            let geometry = crate::app::worlds::geometry_of(&space.family());
            if !crate::app::worlds::geometry::same(cam.geometry, geometry) {
                cam.geometry = geometry;
                cam.fit_pending = true;
            }
            let mut g = canvas::show(
                &mut child,
                cam,
                (space.width(), space.height()),
                &v.tex,
                &mut v.run,
                &ov,
            );
            if !doc_cells {
                // Its cells are not the document's: it is looked at and inspected in its own
                // cells, not edited; a stroke there says why nothing is painted.
                if let Some(c) = g.hover {
                    self.active = i;
                    self.world_hover = Some((i, c));
                } else if self.world_hover.is_some_and(|h| h.0 == i) {
                    self.world_hover = None;
                }
                let picked = match (self.tool, g.clicked) {
                    (crate::app::Tool::Select, Some(c)) => Some(c),
                    _ => g.secondary.or(g.menu.map(|m| m.1)),
                };
                if let Some(c) = picked {
                    self.world_selected = Some((i, c));
                    self.active = i;
                }
                if g.pressed.is_some() && self.tool != crate::app::Tool::Select {
                    self.status = format!(
                        "View {} searches a world of its own ({}): the {} tool edits the \
                         document in its other views",
                        i + 1,
                        if self.work.views[i]
                            .world
                            .as_ref()
                            .is_some_and(|w| w.knowledge.is_some())
                        {
                            "its own cognitive map"
                        } else {
                            "the map as hexes, rebuilt after each edit"
                        },
                        self.tool.name()
                    );
                }
                g = canvas::Gesture::default();
            }
            gestures.push(g);
        }
        self.legend_rect = None;
        if legend_h > 0.0 {
            legend::draw_legend(ui, strip, diff, &extras);
            self.legend_rect = Some(strip);
        }
        // The pointer's cell is cleared when it leaves every view, so the inspector never
        // speaks of a cell the user is no longer pointing at.
        let mut hover = None;
        for (i, g) in gestures.into_iter().enumerate() {
            if g.hover.is_some() {
                hover = g.hover;
                self.active = i;
            }
            let (secondary, menu) = (g.secondary, g.menu);
            if g.hover.is_some() || g.released || !g.stroke.is_empty() || g.clicked.is_some() {
                self.gesture(g, ui);
            }
            if let Some(c) = secondary {
                self.selected = Some(c);
                self.active = i;
            }
            if let Some((a, c)) = menu {
                self.menu_action(a, c);
            }
        }
        self.hover = hover;
    }
}

/// View `i` mutably, and view `j` too when given (they differ).
fn split_pair(views: &mut [View], i: usize, j: Option<usize>) -> (&mut View, Option<&mut View>) {
    match j {
        Some(j) if j != i => {
            if i < j {
                let (a, b) = views.split_at_mut(j);
                (&mut a[i], Some(&mut b[0]))
            } else {
                let (a, b) = views.split_at_mut(i);
                (&mut b[0], Some(&mut a[j]))
            }
        }
        _ => (&mut views[i], None),
    }
}

/// Columns and rows for `n` views of a `map` in `area`: the arrangement whose views show the
/// map largest when fitted (a wide map stacks compared views, a tall one puts them side by
/// side).
pub(in crate::app) fn grid_layout(n: usize, area: Vec2, map: (u32, u32)) -> (usize, usize) {
    let n = n.max(1);
    let mut best = (1, n, f32::MIN);
    for cols in 1..=n {
        let rows = n.div_ceil(cols);
        let cell = vec2(area.x / cols as f32, area.y / rows as f32);
        let zoom = (cell.x / map.0.max(1) as f32).min(cell.y / map.1.max(1) as f32);
        // Ties (and near ties) go to fewer empty slots.
        let score = zoom * (1.0 - 0.01 * (cols * rows - n) as f32);
        if score > best.2 {
            best = (cols, rows, score);
        }
    }
    (best.0, best.1)
}

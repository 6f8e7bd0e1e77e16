//! The 2D view of one run: its texture brought up to date, its title, the overlays it draws,
//! and what the pointer did on it (a view of its own world is inspected, not edited).

use super::{canvas, split_pair, ViewPart};
use crate::app::crowd::CrowdWindow;
use crate::app::overlays::HierLevel;
use crate::app::{PathlabApp, View};
use eframe::egui;

/// The 2D canvas of a run.
pub(crate) struct Canvas2d;

impl ViewPart for Canvas2d {
    fn show(
        &self,
        app: &mut PathlabApp,
        ui: &mut egui::Ui,
        rect: egui::Rect,
        i: usize,
    ) -> Option<canvas::Gesture> {
        Some(app.canvas_view(ui, rect, i))
    }
}

impl PathlabApp {
    /// Draws view `i` into `rect`; returns the gesture made on it, for the document's views
    /// (a view of its own world has handled its own).
    fn canvas_view(&mut self, ui: &mut egui::Ui, rect: egui::Rect, i: usize) -> canvas::Gesture {
        let ctx = ui.ctx().clone();
        let rev = self.work.doc.revision;
        // Diff: view 0 against view 1, and view 1 against view 0.
        // (Views of different worlds have no cells in common to compare.)
        let same_world = self.work.views.iter().take(2).all(|v| v.world.is_none());
        let other = if self.display.diff && self.work.views.len() >= 2 && i < 2 && same_world {
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
            let (grid, rev) = match world.as_deref() {
                Some(w) => (&w.grid, rev ^ (*serial << 40)),
                None => (&self.work.doc.grid, rev),
            };
            let space = world.as_deref().map_or(&self.work.space, |w| &w.space);
            tex.sync(
                &ctx,
                grid,
                space.cell_nodes(),
                rev,
                (run, *serial),
                b.map(|o| (&mut o.run, o.serial, i == 0)),
            );
        }
        let sol = self.work.views[i]
            .run
            .solution_shown()
            .map_or(String::new(), |(c, e)| format!(" — ε {e:.2}, cost {c:.3}"));
        // A search waiting for data it prepares on a thread (a hierarchy) says how far it is.
        let preparing = self.work.views[i]
            .run
            .preparing()
            .map_or(String::new(), |f| {
                format!(" — building its {}: {:.0}%", "abstraction", 100.0 * f)
            });
        // A search that could not run says why where its picture would be.
        let failed = self.work.views[i]
            .run
            .failure()
            .map_or(String::new(), |why| format!(" — not run: {why}"));
        let title = format!(
            "{}{}{sol}{preparing}{failed}",
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
                None => format!(
                    "{title} — on {}",
                    crate::app::worlds::ui_of(&w.family).describe(&w.space)
                ),
            },
            None => title,
        };
        let band: Option<Vec<crate::space::NodeId>> = if self.display.smoothed {
            let v = &mut self.work.views[i];
            let space = v.world.as_deref().map_or(&self.work.space, |w| &w.space);
            v.run
                .path_visible()
                .then(|| v.run.smoothed_path(space).map(<[_]>::to_vec))
                .flatten()
        } else {
            None
        };
        // A played trace shows its own start and goal, not the document's.
        let trace_ends = match &self.work.views[i].run.choice.trace {
            Some(t) => {
                let (s, g) = t.ends();
                let cell = |n: Option<crate::space::NodeId>| {
                    n.filter(|&n| (n as usize) < self.work.space.num_nodes())
                        .map(|n| self.work.space.xy(n))
                };
                (cell(s), cell(g))
            }
            None => (None, None),
        };
        let gps = self.gps_marks(i);
        let heat = self.heat_for(i);
        let own = self.work.views[i].world.as_ref();
        let ov = canvas::Overlay {
            gps: gps.as_deref(),
            knowledge: heat.as_deref(),
            hier_level: self.parts.of_mut::<HierLevel>().0,
            smoothed: band.as_deref(),
            title: &title,
            start: trace_ends
                .0
                .unwrap_or(own.map_or(self.work.doc.start, |w| w.start)),
            goal: trace_ends
                .1
                .unwrap_or(own.map_or(self.work.doc.goal, |w| w.goal)),
            selected: self.edit.selected.filter(|_| doc_cells),
            rect_preview: self
                .edit
                .rect_from
                .zip(self.edit.hover)
                .filter(|_| doc_cells),
            crowd_areas: if doc_cells && self.parts.of_mut::<CrowdWindow>().open {
                self.parts.of_mut::<CrowdWindow>().areas
            } else {
                [None, None]
            },
            diff: other.is_some(),
            agent: (self
                .parts
                .of_mut::<crate::app::agent::AgentSim>()
                .agents
                .get(i)
                .filter(|_| doc_cells))
            .map(|a| (&a.at, &a.trail[..])),
            dragged: (self
                .edit
                .drag_to
                .filter(|_| self.edit.dragging_endpoint.is_some()))
            .filter(|_| doc_cells),
            active: self.work.views.len() > 1 && i == self.display.active,
            pointer: self
                .edit
                .hover
                .filter(|_| self.work.views.len() > 1 && doc_cells),
            flash: if doc_cells {
                (
                    &self.edit.flash.0[..],
                    self.edit.flash.1.elapsed().as_secs_f32(),
                )
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
        let mut g = canvas::show(&mut child, cam, space, &v.tex, &mut v.run, &ov);
        if !doc_cells {
            // Its cells are not the document's: it is looked at and inspected in its own
            // cells, not edited; a stroke there says why nothing is painted.
            if let Some(c) = g.hover {
                self.display.active = i;
                self.edit.world_hover = Some((i, c));
            } else if self.edit.world_hover.is_some_and(|h| h.0 == i) {
                self.edit.world_hover = None;
            }
            let picked = match (self.edit.tool, g.clicked) {
                (crate::app::Tool::Select, Some(c)) => Some(c),
                _ => g.secondary.or(g.menu.map(|m| m.1)),
            };
            if let Some(c) = picked {
                self.edit.world_selected = Some((i, c));
                self.display.active = i;
            }
            if g.pressed.is_some() && self.edit.tool != crate::app::Tool::Select {
                self.status = format!(
                    "View {} searches a world of its own ({}): the {} tool edits the \
                     document in its other views",
                    i + 1,
                    match self.work.views[i].world.as_deref() {
                        Some(w) if w.knowledge.is_some() => "its own cognitive map".to_string(),
                        // Named as its world is (a navmesh, a vehicle lattice, hexes).
                        Some(w) => format!(
                            "the map as {}, rebuilt after each edit",
                            crate::app::worlds::ui_of(&w.family).describe(&w.space)
                        ),
                        None => String::new(),
                    },
                    self.edit.tool.name()
                );
            }
            g = canvas::Gesture::default();
        }
        g
    }
}

//! The right panel: the inspector (the hovered cell in the active view), its open list, the
//! statistics across the views, and the plots against the step.

use crate::app::envelope::envelope;
use crate::app::overlays::HierLevel;
use crate::app::{panels::frame, PathlabApp};
use crate::search::registry::Estimate;
use crate::trace::NodeState;
use eframe::egui::{self, RichText};
use egui_plot::{Line, Plot, PlotPoints};

/// The timeline cursor in the plots.
const CURSOR_LINE: egui::Color32 = egui::Color32::from_rgb(230, 230, 120);

pub(in crate::app) fn right(app: &mut PathlabApp, ui: &mut egui::Ui) {
    egui::Panel::right("inspector")
        .frame(frame(ui))
        .default_size(372.0)
        .resizable(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                inspector(app, ui);
                ui.separator();
                super::statistics::stats_table(app, ui);
                ui.separator();
                plots(app, ui);
            });
        });
}

fn inspector(app: &mut PathlabApp, ui: &mut egui::Ui) {
    ui.heading("Inspector");
    let vi = app
        .display
        .active
        .min(app.work.views.len().saturating_sub(1));
    if !app.work.views.is_empty() {
        // Which run the values below belong to: with compare views they differ per view.
        ui.label(RichText::new(app.view_name(vi)).strong())
            .on_hover_text("The view under the pointer (or the last one hovered or clicked)");
    }
    // A view of its own world (hexes of the square map, a knowledge level) is inspected in
    // its own cells, on its own graph.
    let own_world = app.work.views.get(vi).is_some_and(|v| v.world.is_some());
    let (hover, selected) = if own_world {
        let mine = |c: Option<(usize, (u32, u32))>| c.filter(|c| c.0 == vi).map(|c| c.1);
        (mine(app.edit.world_hover), mine(app.edit.world_selected))
    } else {
        (app.edit.hover, app.edit.selected)
    };
    let (cell, how) = match (hover, selected) {
        (Some(c), _) => (c, "under the pointer"),
        (None, Some(c)) => (c, "selected"),
        (None, None) => {
            ui.label("Hover or click a cell.");
            return;
        }
    };
    // Taken out while the run is read (and put back below): its graph and cells are what the
    // values speak of.
    let world = app.work.views.get_mut(vi).and_then(|v| v.world.take());
    let body = |app: &mut PathlabApp, world: Option<&crate::app::ViewWorld>, ui: &mut egui::Ui| {
        inspect_cell(app, (vi, world), (cell, how), ui)
    };
    body(app, world.as_deref(), ui);
    if let Some(v) = app.work.views.get_mut(vi) {
        v.world = world;
    }
}

/// The inspector's table for `cell` of view `vi` (on `world` when the view has its own).
fn inspect_cell(
    app: &mut PathlabApp,
    (vi, world): (usize, Option<&crate::app::ViewWorld>),
    (cell, how): ((u32, u32), &str),
    ui: &mut egui::Ui,
) {
    let (space, grid) = match world {
        Some(w) => (&w.space, &w.grid),
        None => (&app.work.space, &app.work.doc.grid),
    };
    let (x, y) = cell;
    let Some(n) = space.node(x, y) else {
        return;
    };
    let terrain = grid.get(x, y).map_or('?', |c| c.tile as char);
    // A terrain cost other than 1 (square cells, hexes, and a voxel layer's slice carry them).
    let terrain = match grid.get(x, y).map_or(1.0, |c| c.cost) {
        1.0 => format!("'{terrain}'"),
        c => format!("'{terrain}' cost ×{c}"),
    };
    // On voxels, the cell is in the layer shown; start and goal have layers too.
    let z = app.work.doc.layer();
    let is_voxel = crate::app::worlds::ui_of(&app.work.doc.world).layered();
    let (start, goal) = match world {
        Some(w) => ((w.start.0, w.start.1, 0), (w.goal.0, w.goal.1, 0)),
        None => (app.work.doc.start_at(), app.work.doc.goal_at()),
    };
    let Some(view) = app.work.views.get_mut(vi) else {
        return;
    };
    let run = &mut view.run;
    let k = run.event_cursor();
    let info = run.rec.node_info(n, k);
    // h as this algorithm uses it, as its registry entry says.
    let estimate = run.choice.info.estimate;
    // A world recorded on its cells (a vehicle lattice): the cell's latest event is about one
    // of its many nodes, so h is read from that event, not computed for the cell's own node.
    let projected = space.recorded_nodes().is_some();
    // A hierarchical search records the events of several searches (connecting searches to
    // graph vertices, the graph search, the refinement), each with its own target: h is what
    // the event's f holds beyond its g, so that f = g + h as shown.
    let hierarchical = run.choice.info.group == crate::search::registry::Group::Hierarchical;
    let h = match estimate {
        Estimate::None => "— (none used)".into(),
        _ if hierarchical && info.f.is_finite() && info.g.is_finite() => format!(
            "{:.3} (f − g: to the target of the search that reached it last)",
            info.f - info.g
        ),
        _ if hierarchical => "—".into(),
        _ if projected && info.f.is_finite() && info.g.is_finite() => {
            format!("{:.3} (f − g of the cell's latest event)", info.f - info.g)
        }
        _ if projected => "—".into(),
        Estimate::PlanCounter if info.f.is_finite() && info.g.is_finite() => {
            format!("{:.3} (counter, f − g of its plan)", info.f - info.g)
        }
        Estimate::ToGoal | Estimate::ToStart => {
            crate::search::params::Params::resolve(run.choice.info.params, &run.choice.values)
                .map(|p| {
                    if estimate == Estimate::ToStart {
                        let h = space.heuristic(p.heuristic(), n, run.query.start);
                        format!("{h:.3} (to the start)")
                    } else {
                        let h = space.heuristic(p.heuristic(), n, run.query.goal);
                        format!("{h:.3}")
                    }
                })
                .unwrap_or_else(|_| "—".into())
        }
        Estimate::PlanCounter => "—".into(),
    };
    let on_path = run.path_visible()
        && run
            .path()
            .is_some_and(|p| p.iter().any(|&m| space.recorded_id(m) == n));
    let current = run.current_node().map(|m| space.recorded_id(m));
    // The cell as it is at the step shown: a later change of the run's own timeline (a wall
    // painted while D* Lite repairs) is not there yet.
    let changed = run.world_at(k);
    let idx = y as usize * grid.width() as usize + x as usize;
    let tile = run.changes[changed..]
        .iter()
        .find_map(|c| c.cells.iter().find(|e| e.0 == idx).map(|e| e.1))
        .or(grid.get(x, y).map(|c| c.tile));
    let walled =
        tile.is_some_and(|t| crate::map::Terrain::of(t) == crate::map::Terrain::OutOfBounds);
    let search_state = if walled {
        // What the search knew of it before it became a wall is not its state now.
        "wall"
    } else if current == Some(n) && !run.path_visible() {
        "being expanded"
    } else if on_path {
        "on path"
    } else {
        match info.state {
            NodeState::Unseen => "unseen",
            NodeState::Open => "open",
            NodeState::Closed => "closed",
            // Before any change an incremental search's first search queues its nodes with
            // g ≠ rhs: waiting on the open list, as the view draws them.
            NodeState::Inconsistent if changed == 0 => "open (g ≠ rhs)",
            NodeState::Inconsistent => "to repair (g ≠ rhs)",
        }
    };
    let state = if (x, y, z) == start {
        format!("start ({search_state})")
    } else if (x, y, z) == goal {
        format!("goal ({search_state})")
    } else {
        search_state.to_string()
    };
    let num = |v: f32| {
        if v.is_nan() {
            "—".to_string()
        } else {
            format!("{v:.3}")
        }
    };
    // What the node is where it is not a cell: a navmesh's polygon, and in a hierarchy the
    // graph node (region, or HPA*'s cluster) it belongs to.
    let polygon = space.as_navmesh().map(|m| {
        let [x0, y0, x1, y1] = m.rect(n);
        format!("polygon {n} (cells {x0}–{}, {y0}–{})", x1 - 1, y1 - 1)
    });
    let graph_node = if hierarchical {
        graph_node_of(&run.choice, space, n, app.parts.of_mut::<HierLevel>().0)
    } else {
        None
    };
    egui::Grid::new("inspector").num_columns(2).show(ui, |ui| {
        if let Some(p) = &polygon {
            ui.label("polygon");
            ui.label(p);
            ui.end_row();
        }
        if let Some(r) = &graph_node {
            ui.label("graph node");
            ui.label(r);
            ui.end_row();
        }
        if is_voxel {
            ui.label("voxel");
            ui.label(format!("({x}, {y}, {z})  {terrain}  {how}"));
        } else {
            ui.label("cell");
            ui.label(format!("({x}, {y})  {terrain}  {how}"));
        }
        ui.end_row();
        ui.label("state");
        ui.label(RichText::new(state).strong());
        ui.end_row();
        ui.label("g");
        ui.label(num(info.g));
        ui.end_row();
        ui.label("h");
        ui.label(h);
        ui.end_row();
        ui.label("f");
        ui.label(num(info.f));
        ui.end_row();
        if !info.rhs.is_nan() {
            // Incremental searches: rhs is the one-step lookahead; g ≠ rhs means inconsistent.
            ui.label("rhs");
            ui.label(num(info.rhs));
            ui.end_row();
            if let Some((k1, k2)) = run.queue_key(n) {
                ui.label("key (latest)").on_hover_text(
                    "The key it is queued under at the end of what is recorded: \
                     [min(g, rhs) + h + k_m; min(g, rhs)] for D* Lite",
                );
                ui.label(format!("[{k1:.3}; {k2:.3}]"));
                ui.end_row();
            }
        }
        ui.label("parent");
        ui.label(if info.parent == crate::trace::NONE {
            "—".into()
        } else {
            let c: Vec<String> = space
                .coords(info.parent)
                .iter()
                .map(u32::to_string)
                .collect();
            format!("({})", c.join(", "))
        });
        ui.end_row();
        ui.label("expanded at step");
        ui.label(info.expanded_at.map_or("—".into(), |s| (s + 1).to_string()));
        ui.end_row();
    });
    let open_title = format!("Open list of {} (best 20 by f)", run.choice.info.title);
    egui::CollapsingHeader::new(open_title)
        .id_salt("open-list")
        .show(ui, |ui| {
            let key = (view.serial, run.shown);
            let fresh = app
                .display
                .best_open_cache
                .as_ref()
                .is_some_and(|c| c.0 == key);
            if !fresh {
                // Scanning a big map's open nodes every frame while playing would cost frames.
                if app.play.playing && space.num_nodes() > 300_000 {
                    ui.label("(shown when paused)");
                    return;
                }
                app.display.best_open_cache = Some((key, run.best_open(20)));
            }
            let list = &app.display.best_open_cache.as_ref().expect("set above").1;
            egui::Grid::new("open").striped(true).show(ui, |ui| {
                ui.label("cell");
                ui.label("f");
                ui.label("g");
                ui.end_row();
                for &(n, f, g) in list {
                    let (x, y) = space.xy(n);
                    ui.label(format!("({x}, {y})"));
                    ui.label(format!("{f:.3}"));
                    ui.label(format!("{g:.3}"));
                    ui.end_row();
                }
            });
        });
}

/// The hierarchy's node holding base node `n`: its region at the level shown (a navmesh), or
/// its cluster (HPA*).
fn graph_node_of(
    choice: &crate::app::choice::AlgoChoice,
    space: &crate::world::AnySpace,
    n: crate::space::NodeId,
    level: usize,
) -> Option<String> {
    use crate::app::prepared::{abstraction, Abstraction};
    match abstraction(choice, space)? {
        Abstraction::Navmesh(p) => {
            let h = p.0.as_ref().ok()?;
            let shown = level.clamp(1, h.levels.levels.len());
            let node = *h.levels.levels[shown - 1].node_of.get(n as usize)?;
            Some(format!("node {node} of level {shown}"))
        }
        Abstraction::Clusters(h) => {
            let r = h.graph.region_of(n);
            (r != crate::hier::graph::NO_REGION).then(|| format!("cluster {r}"))
        }
    }
}

/// Colour of view `i`'s lines in the plots (and its swatch in their legend row).
fn series_colour(i: usize) -> egui::Color32 {
    [
        egui::Color32::from_rgb(90, 160, 240),
        egui::Color32::from_rgb(245, 150, 60),
        egui::Color32::from_rgb(120, 200, 110),
        egui::Color32::from_rgb(220, 110, 200),
    ][i % 4]
}

/// The plots' legend, as a row above them: inside a plot it covered the lines' ends.
fn plot_legend(app: &PathlabApp, ui: &mut egui::Ui, cursor: bool) {
    ui.horizontal_wrapped(|ui| {
        for (i, v) in app.work.views.iter().enumerate() {
            ui.label(
                RichText::new(format!("— {} {}", i + 1, v.run.choice.info.title))
                    .color(series_colour(i))
                    .small(),
            );
        }
        if cursor {
            ui.label(RichText::new("| step shown").color(CURSOR_LINE).small());
        }
    });
}

/// A plot with room around its lines (auto bounds hug the data, so lines ran along the frame).
fn plot(id: &str) -> Plot<'_> {
    Plot::new(id)
        .height(130.0)
        .allow_scroll(false)
        .set_margin_fraction(egui::vec2(0.02, 0.12))
}

fn plots(app: &mut PathlabApp, ui: &mut egui::Ui) {
    ui.heading("Plots");
    // While agents walk, their replans come first.
    if app
        .parts
        .of_mut::<crate::app::agent::AgentSim>()
        .agents
        .iter()
        .any(|a| !a.recompute_ms.is_empty())
    {
        ui.label("recompute time per replan (ms)");
        plot_legend(app, ui, false);
        plot("recompute_plot").x_axis_label("replan").show(ui, |p| {
            for (i, (a, v)) in app
                .parts
                .of_mut::<crate::app::agent::AgentSim>()
                .agents
                .iter()
                .zip(&app.work.views)
                .enumerate()
            {
                let pts: PlotPoints = a
                    .recompute_ms
                    .iter()
                    .enumerate()
                    .map(|(k, &ms)| [k as f64 + 1.0, ms])
                    .collect();
                p.line(
                    Line::new(format!("{} {}", i + 1, v.run.choice.info.title), pts)
                        .color(series_colour(i)),
                );
            }
        });
    }
    let cursor = app.work.cursor as f64;
    let buckets = (ui.available_width() / 2.0).max(1.0) as usize;
    plot_legend(app, ui, true);
    for (title, id, pick) in [
        ("open-list size", "open_plot", 0),
        ("f of the expanded node", "f_plot", 1),
    ] {
        ui.label(title);
        // A constant series (f is the same at every step when the heuristic is exact, as
        // Manhattan on a 6-connected grid in the open) has a range of zero height, which the
        // plot drew as a flat line labelled 0: give it a unit of room around its value.
        let (lo, hi) = app
            .work
            .views
            .iter()
            .flat_map(|v| {
                let s = &v.run.series;
                // Sampled, as the envelope reads: at most 20,000 steps a frame.
                let stride = (s.f.len() / 20_000).max(1);
                (0..s.f.len()).step_by(stride).map(move |k| {
                    if pick == 0 {
                        s.open[k] as f64
                    } else {
                        s.f[k] as f64
                    }
                })
            })
            .filter(|v| v.is_finite())
            .fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
        let mut pl = plot(id).x_axis_label("step");
        if lo <= hi && hi - lo < 1.0 {
            pl = pl.include_y(lo - 1.0).include_y(hi + 1.0);
        }
        pl.show(ui, |p| {
            for (i, v) in app.work.views.iter().enumerate() {
                let s = &v.run.series;
                let value = |k: usize| {
                    if pick == 0 {
                        s.open[k] as f64
                    } else {
                        s.f[k] as f64
                    }
                };
                // One bucket per two pixels; at most 20,000 steps read per frame.
                let pts = envelope(s.f.len(), value, buckets, 20_000);
                p.line(
                    Line::new(format!("{} {}", i + 1, v.run.choice.info.title), pts)
                        .color(series_colour(i)),
                );
            }
            p.vline(egui_plot::VLine::new("cursor", cursor).color(CURSOR_LINE));
        });
    }
}

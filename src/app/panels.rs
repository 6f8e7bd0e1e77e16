//! The panels around the canvas: menus, tools, algorithm, timeline, inspector, statistics, plots,
//! and the modal prompts.

use super::envelope::envelope;
use super::files::DialogPurpose;
use super::{AlgoChoice, PathlabApp, PendingAction, Prompt, Sync, Tool};
use crate::map::{Cell, Edit, Generator};
use crate::search::params::ParamKind;
use crate::search::registry;
use crate::space::Space;
use crate::trace::NodeState;
use eframe::egui::{self, RichText};
use egui_plot::{Line, Plot, PlotPoints};

/// A panel's usual frame without its fill: the window's clear colour is the panel colour, so
/// the fill would paint every panel pixel a second time (software renderers pay per pixel).
fn frame(ui: &egui::Ui) -> egui::Frame {
    egui::Frame::side_top_panel(ui.style()).fill(egui::Color32::TRANSPARENT)
}

pub(super) fn menu_bar(app: &mut PathlabApp, ui: &mut egui::Ui) {
    let bar = egui::Panel::top("menu").frame(frame(ui)).show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("New map…  (Ctrl+N)").clicked() {
                    app.request(PendingAction::New);
                }
                if ui.button("Open…  (Ctrl+O)").clicked() {
                    app.request(PendingAction::Open(None));
                }
                ui.menu_button("Open recent", |ui| {
                    if app.recent.is_empty() {
                        ui.label("(none yet)");
                    }
                    for p in app.recent.clone() {
                        if ui.button(p.display().to_string()).clicked() {
                            app.request(PendingAction::Open(Some(p)));
                        }
                    }
                });
                if ui.button("Save  (Ctrl+S)").clicked() {
                    app.save();
                }
                if ui.button("Save as…  (Ctrl+Shift+S)").clicked() {
                    app.ask_file(DialogPurpose::SaveAs, "map.map");
                }
                ui.separator();
                if ui.button("Export canvas as PNG…").clicked() {
                    app.ask_file(DialogPurpose::ExportPng, "canvas.png");
                }
                if ui.button("Export run (RON)…").clicked() {
                    app.ask_file(DialogPurpose::ExportRun, "run.ron");
                }
                if ui.button("Export Posthoc trace…").clicked() {
                    app.ask_file(DialogPurpose::ExportPosthoc, "run.trace.yaml");
                }
                ui.separator();
                if ui.button("Quit").clicked() {
                    app.request(PendingAction::Quit);
                }
            });
            ui.menu_button("Edit", |ui| {
                if ui
                    .add_enabled(app.doc.can_undo(), egui::Button::new("Undo  (Ctrl+Z)"))
                    .clicked()
                {
                    app.undo();
                }
                if ui
                    .add_enabled(
                        app.doc.can_redo(),
                        egui::Button::new("Redo  (Ctrl+Shift+Z)"),
                    )
                    .clicked()
                {
                    app.redo();
                }
            });
            ui.menu_button("View", |ui| {
                if ui.button("Fit map to window  (F)").clicked() {
                    app.cam.fit_pending = true;
                }
                ui.checkbox(&mut app.show_legend, "Legend  (L)");
                ui.add_enabled(
                    app.views.len() >= 2,
                    egui::Checkbox::new(&mut app.diff, "Diff of the first two runs"),
                );
                ui.separator();
                if ui
                    .add_enabled(app.views.len() < 4, egui::Button::new("Add a compare view"))
                    .clicked()
                {
                    add_compare_view(app);
                }
                if ui
                    .add_enabled(
                        app.views.len() > 1,
                        egui::Button::new("Remove the last view"),
                    )
                    .clicked()
                {
                    app.views.pop();
                    app.diff &= app.views.len() >= 2;
                }
            });
            ui.menu_button("Run", |ui| {
                if ui.button("Play / pause  (Space)").clicked() {
                    app.toggle_play();
                }
                if ui.button("Step  (Right)").clicked() {
                    app.step_forward(1);
                }
                if ui.button("Step back  (Left)").clicked() {
                    app.step_back(1);
                }
                if ui.button("To start  (Home)").clicked() {
                    app.go_to(0, false);
                }
                if ui.button("To path found  (End)").clicked() {
                    app.to_end();
                }
                ui.separator();
                if ui.button("Dynamic experiment (Mäntysalo 2024)…").clicked() {
                    app.experiment.open = true;
                }
                ui.separator();
                ui.radio_value(&mut app.sync, Sync::Shared, "Views share one step cursor");
                ui.radio_value(
                    &mut app.sync,
                    Sync::Completed,
                    "Each view runs to completion",
                );
            });
            ui.menu_button("Help", |ui| {
                if ui
                    .button("Colours, algorithms, statistics and keys  (F1 or ?)")
                    .clicked()
                {
                    app.show_help = true;
                }
            });
        });
    });
    // Windows (help, prompts) are kept below the menu bar, so it stays usable under them.
    app.menu_bottom = bar.response.rect.max.y;
}

pub(super) fn status_bar(app: &mut PathlabApp, ui: &mut egui::Ui) {
    egui::Panel::bottom("status")
        .frame(frame(ui))
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(app.summary());
                ui.separator();
                ui.label(&app.status);
                if let Some(c) = app.hover {
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        ui.label(format!("cell ({}, {})", c.0, c.1));
                    });
                }
            });
        });
}

pub(super) fn timeline(app: &mut PathlabApp, ui: &mut egui::Ui) {
    egui::Panel::bottom("timeline")
        .frame(frame(ui))
        .show(ui, |ui| {
            ui.add_space(4.0);
            ui.horizontal(|ui| {
                let b = |ui: &mut egui::Ui, t: &str, tip: &str| {
                    ui.button(t).on_hover_text(tip).clicked()
                };
                if b(ui, "|<", "To start (Home)") {
                    app.go_to(0, false);
                }
                if b(ui, "<<", "Back N steps (Shift+Left)") {
                    app.step_back(app.step_n);
                }
                if b(ui, "<", "Back 1 step (Left)") {
                    app.step_back(1);
                }
                let play = if app.playing { "Pause" } else { "Play" };
                if b(ui, play, "Play / pause (Space)") {
                    app.toggle_play();
                }
                if b(ui, ">", "Next expansion (Right)") {
                    app.step_forward(1);
                }
                if b(ui, ">>", "Forward N steps (Shift+Right)") {
                    app.step_forward(app.step_n);
                }
                ui.add(
                    egui::DragValue::new(&mut app.step_n)
                        .range(1..=1_000_000)
                        .prefix("N = "),
                )
                .on_hover_text("Steps taken by << and >> (and Shift+arrows)");
                if b(ui, ">|", "To path found (End)") {
                    app.to_end();
                }
                ui.separator();
                ui.add_enabled(
                    !app.max_speed,
                    egui::Slider::new(&mut app.speed, 1.0..=20000.0)
                        .logarithmic(true)
                        .suffix(" exp/s")
                        .text("speed"),
                )
                .on_hover_text("Expansions per second while playing");
                ui.checkbox(&mut app.max_speed, "max");
            });
            let max = app.max_steps();
            ui.horizontal(|ui| {
                let mut s = app.cursor;
                ui.spacing_mut().slider_width = (ui.available_width() - 180.0).max(100.0);
                let r = ui.add(egui::Slider::new(&mut s, 0..=max.max(1)).text(
                    if app.searching() {
                        "steps (searching…)"
                    } else {
                        "steps"
                    },
                ));
                if r.changed() {
                    app.playing = false;
                    app.go_to(s, false);
                }
            });
            ui.add_space(2.0);
        });
}

pub(super) fn left(app: &mut PathlabApp, ui: &mut egui::Ui) {
    egui::Panel::left("tools")
        .frame(frame(ui))
        .default_size(250.0)
        .resizable(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.heading("Tools");
                ui.horizontal_wrapped(|ui| {
                    for (t, label, tip) in [
                        (
                            Tool::Select,
                            "Select",
                            "Inspect cells, drag start and goal (V)",
                        ),
                        (Tool::Brush, "Brush", "Paint the material (B)"),
                        (Tool::Erase, "Erase", "Paint free ground (E)"),
                        (
                            Tool::Rect,
                            "Rectangle",
                            "Drag a rectangle of the material (R)",
                        ),
                        (
                            Tool::Fill,
                            "Fill",
                            "Flood-fill a region with the material (G)",
                        ),
                    ] {
                        ui.selectable_value(&mut app.tool, t, label)
                            .on_hover_text(tip);
                    }
                });
                ui.horizontal_wrapped(|ui| {
                    ui.label("Material");
                    for (tile, name) in [
                        (b'@', "wall"),
                        (b'.', "ground"),
                        (b'S', "swamp"),
                        (b'W', "water"),
                        (b'T', "trees"),
                    ] {
                        ui.selectable_value(&mut app.material, tile, name);
                    }
                });
                ui.label(
                    RichText::new(
                        "Drag the start (green) or goal (red) with any tool; right-click a cell \
                         for its menu.",
                    )
                    .small(),
                );
                ui.separator();
                // A new map under walking agents would strand them: stop them first.
                ui.add_enabled_ui(!app.sim.active, |ui| generators(app, ui));
                ui.separator();
                algorithms(app, ui);
                if !app.doc.problems.is_empty() {
                    ui.separator();
                    super::problems::show(app, ui);
                }
                ui.separator();
                dynamic_world(app, ui);
                ui.separator();
                breakpoints(app, ui);
            });
        });
}

/// Agents crossing the map while its obstacles change (Mäntysalo 2024's flips, Krafft 2019's timed and
/// patrolling blocks, or the last outing's tape again).
fn dynamic_world(app: &mut PathlabApp, ui: &mut egui::Ui) {
    use crate::experiment::behaviour::Mover;
    ui.heading("Dynamic world");
    let sim = &mut app.sim;
    ui.add_enabled_ui(!sim.active, |ui| {
        ui.checkbox(&mut sim.flips, "Wall blocks flip (Mäntysalo 2024)")
            .on_hover_text(
                "Every few ticks a share of the map's wall blocks opens or closes, as many each \
                 way; blocks larger than the limit stay put",
            );
        egui::Grid::new("dyn-settings")
            .num_columns(2)
            .show(ui, |ui| {
                let l = ui.label("change");
                ui.add(
                    egui::DragValue::new(&mut sim.percent)
                        .range(0.5..=100.0)
                        .suffix(" %"),
                )
                .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("every");
                ui.add(
                    egui::DragValue::new(&mut sim.every)
                        .range(1..=1000)
                        .suffix(" ticks"),
                )
                .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("blocks up to");
                ui.add(
                    egui::DragValue::new(&mut sim.max_block)
                        .range(1..=100_000)
                        .suffix(" cells"),
                )
                .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("tape seed");
                ui.add(egui::DragValue::new(&mut sim.seed))
                    .labelled_by(l.id);
                ui.end_row();
            });
        let at = app.selected.unwrap_or(app.doc.start);
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("+ Timed block")
                .on_hover_text(
                    "A 2×2 block at the selected cell: 20 ticks there, 20 gone (Krafft 2019)",
                )
                .clicked()
            {
                sim.movers.push(Mover::Timed {
                    x: at.0,
                    y: at.1,
                    w: 2,
                    h: 2,
                    on: 20,
                    off: 20,
                    phase: 0,
                });
            }
            if ui
                .button("+ Patrolling block")
                .on_hover_text(
                    "A 2×2 block from the selected cell, 10 cells right and back, a cell every \
                     2 ticks (Krafft 2019)",
                )
                .clicked()
            {
                sim.movers.push(Mover::Patrol {
                    x: at.0,
                    y: at.1,
                    w: 2,
                    h: 2,
                    dx: 1,
                    dy: 0,
                    len: 10,
                    every: 2,
                });
            }
        });
        let mut remove = None;
        for (i, m) in sim.movers.iter().enumerate() {
            ui.horizontal(|ui| {
                let text = match m {
                    Mover::Timed { x, y, .. } => format!("timed block at ({x}, {y})"),
                    Mover::Patrol { x, y, .. } => format!("patrol from ({x}, {y})"),
                };
                ui.label(RichText::new(text).small());
                if ui.small_button("remove").clicked() {
                    remove = Some(i);
                }
            });
        }
        if let Some(i) = remove {
            sim.movers.remove(i);
        }
    });
    let sim = &app.sim;
    let (active, playing, has_tape) = (sim.active, sim.playing, sim.last_tape.is_some());
    ui.horizontal_wrapped(|ui| {
        if !active {
            if ui
                .button("Send agents")
                .on_hover_text("One agent per view walks its path; the map changes as set above")
                .clicked()
            {
                app.agents_start(false);
            }
            if ui
                .add_enabled(has_tape, egui::Button::new("Replay last tape"))
                .on_hover_text("The same changes at the same ticks, for another algorithm")
                .clicked()
            {
                app.agents_start(true);
            }
            if ui
                .add_enabled(has_tape, egui::Button::new("Save tape…"))
                .on_hover_text("The last outing's changes as a RON file")
                .clicked()
            {
                app.ask_file(DialogPurpose::SaveTape, "changes.ron");
            }
            if ui
                .button("Load tape…")
                .on_hover_text("Changes saved before, to replay on this map")
                .clicked()
            {
                app.ask_file(DialogPurpose::OpenTape, "");
            }
        } else {
            if ui.button(if playing { "Pause" } else { "Go on" }).clicked() {
                app.sim.playing = !playing;
            }
            if ui.button("Tick").clicked() {
                app.agent_tick();
            }
            if ui
                .button("Stop")
                .on_hover_text("Call the agents back and restore the map")
                .clicked()
            {
                app.agents_stop();
            }
        }
    });
    let l = ui.label("speed");
    ui.add(
        egui::Slider::new(&mut app.sim.ticks_per_sec, 1.0..=200.0)
            .logarithmic(true)
            .suffix(" ticks/s"),
    )
    .labelled_by(l.id);
    if app.sim.active {
        ui.label(RichText::new(app.sim.summary()).small());
        ui.label(
            RichText::new("Click cells to toggle walls while they walk: every view replans.")
                .small(),
        );
    }
}

fn generators(app: &mut PathlabApp, ui: &mut egui::Ui) {
    ui.collapsing("Map: new, resize, generate", |ui| {
        ui.horizontal(|ui| {
            let l = ui.label("Size");
            ui.add(egui::DragValue::new(&mut app.gen_size.0).range(2..=4096))
                .labelled_by(l.id)
                .on_hover_text("width in cells");
            let l = ui.label("×");
            ui.add(egui::DragValue::new(&mut app.gen_size.1).range(2..=4096))
                .labelled_by(l.id)
                .on_hover_text("height in cells");
        });
        ui.horizontal(|ui| {
            if ui.button("New empty").clicked() {
                app.request(PendingAction::New);
            }
            if ui
                .button("Resize")
                .on_hover_text("Keep cells; new ones are free")
                .clicked()
            {
                app.edit(Edit::Resize {
                    width: app.gen_size.0,
                    height: app.gen_size.1,
                    fill: Cell::FREE,
                });
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut app.gen_seed))
                .labelled_by(l.id);
        });
        let mut gen = None;
        ui.horizontal(|ui| {
            ui.add(egui::Slider::new(&mut app.gen_density, 0.0..=0.6).text("density"));
            if ui.button("Random").clicked() {
                gen = Some(Generator::RandomBlocks {
                    density: app.gen_density,
                });
            }
        });
        ui.horizontal(|ui| {
            ui.add(
                egui::DragValue::new(&mut app.gen_room)
                    .range(2..=64)
                    .prefix("room "),
            );
            if ui.button("Rooms").clicked() {
                gen = Some(Generator::Rooms { room: app.gen_room });
            }
            ui.add(
                egui::DragValue::new(&mut app.gen_corridor)
                    .range(1..=16)
                    .prefix("corridor "),
            );
            if ui.button("Maze").clicked() {
                gen = Some(Generator::Maze {
                    corridor: app.gen_corridor,
                });
            }
        });
        let mut paper_map = None;
        ui.horizontal(|ui| {
            ui.label("Mäntysalo 2024 (square):").on_hover_text(
                "The dynamic experiment's maps; their doors or blocks are what flips when agents \
                 are sent",
            );
            if ui.button("Rooms + doors").clicked() {
                paper_map = Some(crate::experiment::dynamic::MapKind::Room);
            }
            if ui.button("Random").clicked() {
                paper_map = Some(crate::experiment::dynamic::MapKind::Random);
            }
        });
        if let Some(kind) = paper_map {
            let m = crate::experiment::dynamic::DynamicMap::generate(
                kind,
                app.gen_size.0,
                app.gen_seed,
            );
            app.edit(Edit::Replace(Box::new(m.initial_grid())));
            app.doc.set_start(m.start);
            app.doc.set_goal(m.goal);
            app.touched(super::Touched::Endpoints);
            app.cam.fit_pending = true;
            app.status = format!(
                "Generated Mäntysalo 2024's {} map with seed {}: {} dynamic obstacles",
                kind.name(),
                app.gen_seed,
                m.obstacles.len()
            );
            app.sim.blocks = Some(m);
        }
        if let Some(g) = gen {
            let grid = g.generate(app.gen_size.0, app.gen_size.1, app.gen_seed);
            // As an undoable edit of the whole map, so a generated map can be taken back.
            app.edit(Edit::Replace(Box::new(grid)));
            let (w, h) = (app.doc.grid.width(), app.doc.grid.height());
            let s = app.doc.nearest_free((0, 0), None);
            let t = app.doc.nearest_free((w - 1, h - 1), Some(s));
            app.doc.set_start(s);
            app.doc.set_goal(t);
            app.touched(super::Touched::Endpoints);
            app.cam.fit_pending = true;
            app.status = format!("Generated {g} with seed {}", app.gen_seed);
        }
    });
}

fn algorithms(app: &mut PathlabApp, ui: &mut egui::Ui) {
    ui.heading("Algorithms");
    let mut change: Option<(usize, AlgoChoice)> = None;
    for i in 0..app.views.len() {
        let mut c = app.views[i].run.choice.clone();
        ui.push_id(i, |ui| {
            egui::ComboBox::from_label(format!("view {}", i + 1))
                .selected_text(c.info.title)
                .show_ui(ui, |ui| {
                    for a in registry::all() {
                        if ui
                            .selectable_label(a.name == c.info.name, a.title)
                            .on_hover_text(a.summary)
                            .clicked()
                        {
                            c = AlgoChoice::named(a.name);
                        }
                    }
                });
            for p in c.info.params {
                let v = c.values.entry(p.name.to_string()).or_insert(p.default);
                match p.kind {
                    ParamKind::Choice(names) => {
                        let mut k = *v as usize;
                        egui::ComboBox::from_label(p.name)
                            .selected_text(names.get(k).copied().unwrap_or("?"))
                            .show_ui(ui, |ui| {
                                for (j, n) in names.iter().enumerate() {
                                    ui.selectable_value(&mut k, j, *n);
                                }
                            })
                            .response
                            .on_hover_text(p.help);
                        *v = k as f64;
                    }
                    ParamKind::Float => {
                        ui.add(egui::Slider::new(v, p.min..=p.max).text(p.name))
                            .on_hover_text(p.help);
                    }
                    ParamKind::Int => {
                        ui.add(egui::Slider::new(v, p.min..=p.max).integer().text(p.name))
                            .on_hover_text(p.help);
                    }
                }
            }
        });
        if c != app.views[i].run.choice {
            change = Some((i, c));
        }
    }
    if let Some((i, c)) = change {
        app.set_algorithm(i, c);
    }
    rules(app, ui);
    if app.views.len() < 4 && ui.button("+ Compare with another algorithm").clicked() {
        add_compare_view(app);
    }
}

/// Moves and terrain rule, shared by every view (they define the graph the searches walk).
fn rules(app: &mut PathlabApp, ui: &mut egui::Ui) {
    use crate::space::{Connectivity, TerrainRule};
    let (mut moves, mut rule) = (app.doc.moves, app.doc.rule);
    egui::ComboBox::from_label("moves")
        .selected_text(match moves {
            Connectivity::Eight => "8",
            Connectivity::Four => "4",
        })
        .show_ui(ui, |ui| {
            for c in [Connectivity::Eight, Connectivity::Four] {
                ui.selectable_value(&mut moves, c, super::moves_name(c));
            }
        })
        .response
        .on_hover_text("8: diagonal moves cost 1.414 and may not cut a blocked corner; 4: none");
    egui::ComboBox::from_label("terrain")
        .selected_text(match rule {
            TerrainRule::Class => "classes",
            TerrainRule::GroundOnly => "ground only",
        })
        .show_ui(ui, |ui| {
            for r in [TerrainRule::Class, TerrainRule::GroundOnly] {
                ui.selectable_value(&mut rule, r, super::rule_name(r));
            }
        })
        .response
        .on_hover_text(
            "classes: ground (. G S) connects to ground and water (W) to water, T and @ never \
             (the MovingAI benchmarks' rule); ground only: just . and G",
        );
    app.set_rules(moves, rule);
}

fn breakpoints(app: &mut PathlabApp, ui: &mut egui::Ui) {
    ui.collapsing("Breakpoints", |ui| {
        let sel = app.selected;
        let mut on = app.breakpoints.node.is_some();
        let label = match (app.breakpoints.node, sel) {
            (Some(n), _) => {
                let (x, y) = app.space.xy(n);
                format!("stop when ({x}, {y}) is expanded")
            }
            (None, Some((x, y))) => format!("stop when ({x}, {y}) is expanded"),
            (None, None) => "stop at a node (select a cell first)".into(),
        };
        if ui.checkbox(&mut on, label).changed() {
            app.breakpoints.node = if on {
                sel.and_then(|(x, y)| app.space.node(x, y))
            } else {
                None
            };
        }
        ui.checkbox(&mut app.breakpoints.f_decrease, "stop when f decreases");
        let mut open_on = app.breakpoints.open_over.is_some();
        ui.horizontal(|ui| {
            ui.checkbox(&mut open_on, "stop when open list >");
            let mut n = app.breakpoints.open_over.unwrap_or(100);
            ui.add(egui::DragValue::new(&mut n).range(1..=u64::MAX));
            app.breakpoints.open_over = open_on.then_some(n);
        });
    });
}

pub(super) fn right(app: &mut PathlabApp, ui: &mut egui::Ui) {
    egui::Panel::right("inspector")
        .frame(frame(ui))
        .default_size(300.0)
        .resizable(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                inspector(app, ui);
                ui.separator();
                stats_table(app, ui);
                ui.separator();
                plots(app, ui);
            });
        });
}

fn inspector(app: &mut PathlabApp, ui: &mut egui::Ui) {
    ui.heading("Inspector");
    let vi = app.active.min(app.views.len().saturating_sub(1));
    if !app.views.is_empty() {
        // Which run the values below belong to: with compare views they differ per view.
        ui.label(RichText::new(app.view_name(vi)).strong())
            .on_hover_text("The view under the pointer (or the last one hovered or clicked)");
    }
    let (cell, how) = match (app.hover, app.selected) {
        (Some(c), _) => (c, "under the pointer"),
        (None, Some(c)) => (c, "selected"),
        (None, None) => {
            ui.label("Hover or click a cell.");
            return;
        }
    };
    let (x, y) = cell;
    let Some(n) = app.space.node(x, y) else {
        return;
    };
    let terrain = app.doc.grid.get(x, y).map_or('?', |c| c.tile as char);
    let (start, goal) = (app.doc.start, app.doc.goal);
    let Some(view) = app.views.get_mut(vi) else {
        return;
    };
    let run = &mut view.run;
    let k = run.event_cursor();
    let info = run.rec.node_info(n, k);
    // h as this algorithm uses it: toward the goal for the heuristic searches, none for
    // Dijkstra and breadth-first; the incremental searches search backwards (h to the start).
    let uses_h = run.choice.info.params.iter().any(|p| p.name == "heuristic");
    let h = match run.choice.info.name {
        _ if uses_h => {
            crate::search::params::Params::resolve(run.choice.info.params, &run.choice.values)
                .map(|p| {
                    format!(
                        "{:.3}",
                        app.space.heuristic(p.heuristic(), n, run.query.goal)
                    )
                })
                .unwrap_or_else(|_| "—".into())
        }
        "dijkstra" | "bfs" => "— (none used)".into(),
        "dstar-lite" | "ad-star" | "rtd-star" => format!(
            "{:.3} (to the start)",
            app.space
                .heuristic(crate::space::Heuristic::Octile, n, run.query.start)
        ),
        _ => "—".into(),
    };
    let on_path = run.path_visible() && run.path().is_some_and(|p| p.contains(&n));
    let search_state = if run.current_node() == Some(n) && !run.path_visible() {
        "being expanded"
    } else if on_path {
        "on path"
    } else {
        match info.state {
            NodeState::Unseen => "unseen",
            NodeState::Open => "open",
            NodeState::Closed => "closed",
            NodeState::Inconsistent => "inconsistent",
        }
    };
    let state = if (x, y) == start {
        format!("start ({search_state})")
    } else if (x, y) == goal {
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
    egui::Grid::new("inspector").num_columns(2).show(ui, |ui| {
        ui.label("cell");
        ui.label(format!("({x}, {y})  '{terrain}'  {how}"));
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
            let (px, py) = app.space.xy(info.parent);
            format!("({px}, {py})")
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
            let fresh = app.best_open_cache.as_ref().is_some_and(|c| c.0 == key);
            if !fresh {
                // Scanning a big map's open nodes every frame while playing would cost frames.
                if app.playing && app.space.num_nodes() > 300_000 {
                    ui.label("(shown when paused)");
                    return;
                }
                app.best_open_cache = Some((key, run.best_open(20)));
            }
            let list = &app.best_open_cache.as_ref().expect("set above").1;
            egui::Grid::new("open").striped(true).show(ui, |ui| {
                ui.label("cell");
                ui.label("f");
                ui.label("g");
                ui.end_row();
                for &(n, f, g) in list {
                    let (x, y) = app.space.xy(n);
                    ui.label(format!("({x}, {y})"));
                    ui.label(format!("{f:.3}"));
                    ui.label(format!("{g:.3}"));
                    ui.end_row();
                }
            });
        });
}

fn stats_table(app: &mut PathlabApp, ui: &mut egui::Ui) {
    ui.heading("Statistics");
    egui::Grid::new("stats").striped(true).show(ui, |ui| {
        for h in [
            "run",
            "expanded",
            "generated",
            "reopened",
            "path_length",
            "cost",
            "time",
        ] {
            ui.label(RichText::new(h).small().strong());
        }
        ui.end_row();
        for (i, v) in app.views.iter().enumerate() {
            let r = &v.run;
            let st = r.stats();
            ui.label(format!("{} {}", i + 1, r.choice.info.title));
            // Room for the widest count this run can show: the grid sizes its columns from the
            // previous frame, so a count that just grew a digit would overlap the next column.
            let widest = ui
                .painter()
                .layout_no_wrap(
                    format!("{0}/{0}", st.expanded),
                    egui::TextStyle::Body.resolve(ui.style()),
                    egui::Color32::WHITE,
                )
                .size()
                .x;
            ui.allocate_ui_with_layout(
                egui::vec2(widest, ui.spacing().interact_size.y),
                egui::Layout::left_to_right(egui::Align::Center),
                |ui| {
                    ui.set_min_width(widest);
                    ui.label(format!("{}/{}", r.shown, st.expanded));
                },
            );
            ui.label(st.generated.to_string());
            ui.label(st.reopened.to_string());
            ui.label(
                r.path()
                    .map_or("—".into(), |p| p.len().saturating_sub(1).to_string()),
            );
            ui.label(r.cost().map_or("—".into(), |c| format!("{c:.3}")));
            ui.label(match r.search_time {
                Some(t) if t.as_secs_f64() < 0.01 => format!("{:.0} µs", t.as_secs_f64() * 1e6),
                Some(t) => format!("{:.1} ms", t.as_secs_f64() * 1e3),
                None => "…".into(),
            });
            ui.end_row();
        }
    });
    ui.label(
        RichText::new("expanded: shown/total; path_length in moves; time without recording")
            .small(),
    );
    if app.views.iter().any(|v| !v.run.series.solutions.is_empty()) {
        ui.label(RichText::new("Anytime solutions (later ones greyed)").strong());
        egui::Grid::new("solutions").striped(true).show(ui, |ui| {
            for h in ["run", "at step", "ε", "cost"] {
                ui.label(RichText::new(h).small().strong());
            }
            ui.end_row();
            for (i, v) in app.views.iter().enumerate() {
                for &(step, cost, eps) in &v.run.series.solutions {
                    let text = |t: String| {
                        let r = RichText::new(t);
                        if step > v.run.shown {
                            r.weak()
                        } else {
                            r
                        }
                    };
                    ui.label(text(format!("{} {}", i + 1, v.run.choice.info.title)));
                    ui.label(text(step.to_string()));
                    ui.label(text(format!("{eps:.2}")));
                    ui.label(text(format!("{cost:.3}")));
                    ui.end_row();
                }
            }
        });
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
        for (i, v) in app.views.iter().enumerate() {
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

/// The timeline cursor in the plots.
const CURSOR_LINE: egui::Color32 = egui::Color32::from_rgb(230, 230, 120);

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
    if app.sim.agents.iter().any(|a| !a.recompute_ms.is_empty()) {
        ui.label("recompute time per replan (ms)");
        plot_legend(app, ui, false);
        plot("recompute_plot").x_axis_label("replan").show(ui, |p| {
            for (i, (a, v)) in app.sim.agents.iter().zip(&app.views).enumerate() {
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
    let cursor = app.cursor as f64;
    let buckets = (ui.available_width() / 2.0).max(1.0) as usize;
    plot_legend(app, ui, true);
    for (title, id, pick) in [
        ("open-list size", "open_plot", 0),
        ("f of the expanded node", "f_plot", 1),
    ] {
        ui.label(title);
        plot(id).x_axis_label("step").show(ui, |p| {
            for (i, v) in app.views.iter().enumerate() {
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

pub(super) fn prompts(app: &mut PathlabApp, ctx: &egui::Context) {
    let Some(prompt) = app.prompt.clone() else {
        return;
    };
    let mut close = false;
    egui::Window::new("pathlab")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| match prompt {
            Prompt::Discard(action) => {
                ui.label("The map has unsaved changes. Discard them?");
                ui.horizontal(|ui| {
                    if ui.button("Save first").clicked() {
                        app.save();
                        close = true;
                    }
                    if ui.button("Discard").clicked() {
                        app.doc.dirty = false;
                        app.clear_recovery();
                        app.perform(action.clone());
                        close = true;
                    }
                    if ui.button("Cancel").clicked() {
                        close = true;
                    }
                });
            }
            Prompt::Recover => {
                ui.label("pathlab found unsaved work from an earlier session.");
                ui.horizontal(|ui| {
                    if ui.button("Restore it").clicked() {
                        app.recover();
                        close = true;
                    }
                    if ui.button("Discard it").clicked() {
                        app.clear_recovery();
                        close = true;
                    }
                });
            }
        });
    if close {
        app.prompt = None;
    }
}

/// Adds a view with the next algorithm worth comparing: Dijkstra, then greedy, then weighted A*.
fn add_compare_view(app: &mut PathlabApp) {
    let next = ["dijkstra", "greedy", "weighted-astar"][app.views.len().clamp(1, 3) - 1];
    app.add_view(AlgoChoice::named(next));
    app.go_to(app.cursor, false);
}

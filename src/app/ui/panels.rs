//! The panels around the canvas: menus, status line, the left panel (tools, algorithms,
//! breakpoints) and the modal prompts (the status line and timeline are in `bottom.rs`).

use crate::app::agent::AgentSim;
use crate::app::files::DialogPurpose;
use crate::app::parts::Menu;
use crate::app::Command;
use crate::app::{AlgoChoice, PathlabApp, Prompt, Sync, Tool};
use crate::search::params::ParamKind;
use crate::search::registry;
use eframe::egui::{self, RichText};

/// A panel's usual frame without its fill: the window's clear colour is the panel colour, so
/// the fill would paint every panel pixel a second time (software renderers pay per pixel).
pub(in crate::app) fn frame(ui: &egui::Ui) -> egui::Frame {
    egui::Frame::side_top_panel(ui.style()).fill(egui::Color32::TRANSPARENT)
}

pub(in crate::app) fn menu_bar(app: &mut PathlabApp, ui: &mut egui::Ui) {
    let bar = egui::Panel::top("menu").frame(frame(ui)).show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("New map…  (Ctrl+N)").clicked() {
                    app.apply(Command::New);
                }
                if ui.button("Open…  (Ctrl+O)").clicked() {
                    app.apply(Command::Open(None));
                }
                ui.menu_button("Examples", |ui| {
                    for (i, e) in crate::examples::EXAMPLES.iter().enumerate() {
                        if ui.button(e.title).on_hover_text(e.shows).clicked() {
                            app.apply(Command::OpenExample(i));
                        }
                    }
                });
                ui.menu_button("Open recent", |ui| {
                    if app.files.recent.is_empty() {
                        ui.label("(none yet)");
                    }
                    for p in app.files.recent.clone() {
                        if ui.button(p.display().to_string()).clicked() {
                            app.apply(Command::Open(Some(p)));
                        }
                    }
                });
                if ui
                    .button("Open trace…")
                    .on_hover_text("a search trace (Posthoc's .trace.yaml or .trace.json) played back beside the views, on this map")
                    .clicked()
                {
                    app.apply(Command::OpenTrace(None));
                }
                if ui.button("Save  (Ctrl+S)").clicked() {
                    app.apply(Command::Save);
                }
                if ui.button("Save as…  (Ctrl+Shift+S)").clicked() {
                    app.apply(Command::AskFile(DialogPurpose::SaveAs, "map.map".into()));
                }
                if ui
                    .button("Moving 3D scene (Krafft 2019)")
                    .on_hover_text("an agent flying through patrolling, turning and blinking obstacles")
                    .clicked()
                {
                    app.apply(Command::OpenScene3d);
                }
                ui.separator();
                if ui.button("Export canvas as PNG…").clicked() {
                    app.apply(Command::AskFile(DialogPurpose::ExportPng, "canvas.png".into()));
                }
                if ui
                    .button("Export view as SVG…")
                    .on_hover_text("the active view's map, search and path, and the legend, as vector shapes (for slides and papers)")
                    .clicked()
                {
                    app.apply(Command::AskFile(DialogPurpose::ExportSvg, "view.svg".into()));
                }
                if ui.button("Export run (RON)…").clicked() {
                    app.apply(Command::AskFile(DialogPurpose::ExportRun, "run.ron".into()));
                }
                if ui.button("Export Posthoc trace…").clicked() {
                    app.apply(Command::AskFile(DialogPurpose::ExportPosthoc, "run.trace.yaml".into()));
                }
                ui.separator();
                if ui.button("Quit").clicked() {
                    app.apply(Command::Quit);
                }
            });
            ui.menu_button("Edit", |ui| {
                if ui
                    .add_enabled(app.can_undo(), egui::Button::new("Undo  (Ctrl+Z)"))
                    .clicked()
                {
                    app.apply(Command::Undo);
                }
                if ui
                    .add_enabled(
                        app.work.doc.can_redo(),
                        egui::Button::new("Redo  (Ctrl+Shift+Z)"),
                    )
                    .clicked()
                {
                    app.apply(Command::Redo);
                }
            });
            ui.menu_button("View", |ui| {
                if ui.button("Fit map to window  (F)").clicked() {
                    app.apply(Command::Fit);
                }
                ui.checkbox(&mut app.display.show_legend, "Legend  (L)");
                ui.add_enabled(
                    app.work.views.len() >= 2,
                    egui::Checkbox::new(&mut app.display.diff, "Diff of the first two runs"),
                );
                ui.checkbox(&mut app.display.smoothed, "Rubber-banded paths")
                    .on_hover_text(
                        "each path found, with the nodes it can see past removed (Yu & Novitch 2020), drawn dashed over it",
                    );
                ui.separator();
                if ui
                    .add_enabled(app.work.views.len() < 4, egui::Button::new("Add a compare view"))
                    .clicked()
                {
                    add_compare_view(app);
                }
                if ui
                    .add_enabled(
                        app.work.views.len() > 1,
                        egui::Button::new("Remove the last view"),
                    )
                    .clicked()
                {
                    app.apply(Command::RemoveView);
                }
                part_entries(app, ui, Menu::View);
            });
            ui.menu_button("Run", |ui| {
                for (label, c) in [
                    ("Play / pause  (Space)", Command::TogglePlay),
                    ("Step  (Right)", Command::StepForward(1)),
                    ("Step back  (Left)", Command::StepBack(1)),
                    ("To start  (Home)", Command::GoTo(0)),
                    ("To path found  (End)", Command::ToEnd),
                ] {
                    if ui.button(label).clicked() {
                        app.apply(c);
                    }
                }
                ui.separator();
                part_entries(app, ui, Menu::Run);
                ui.separator();
                ui.radio_value(&mut app.play.sync, Sync::Shared, "Views share one step cursor");
                ui.radio_value(
                    &mut app.play.sync,
                    Sync::Completed,
                    "Each view runs to completion",
                );
            });
            ui.menu_button("Help", |ui| {
                if ui
                    .button("Colours, algorithms, statistics and keys  (F1 or ?)")
                    .clicked()
                {
                    app.display.show_help = true;
                }
                if ui
                    .button("Lessons…")
                    .on_hover_text("short guided walks through the app, for a class or a first look")
                    .clicked()
                {
                    app.apply(Command::Lesson(crate::app::features::lesson::LessonCommand::ShowList));
                }
            });
        });
    });
    // Windows (help, prompts) are kept below the menu bar, so it stays usable under them.
    app.display.menu_bottom = bar.response.rect.max.y;
}

/// The entries of the parts that offer their window in `menu`, in the parts' order.
fn part_entries(app: &mut PathlabApp, ui: &mut egui::Ui, menu: Menu) {
    let entries: Vec<_> = app
        .parts
        .iter()
        .filter_map(|p| p.menu_entry().map(|e| (p.name(), e)))
        .filter(|(_, (m, ..))| *m == menu)
        .collect();
    for (name, (_, label, hover)) in entries {
        if ui.button(label).on_hover_text(hover).clicked() {
            app.apply(Command::OpenPart(name));
        }
    }
}

pub(in crate::app) fn left(app: &mut PathlabApp, ui: &mut egui::Ui) {
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
                        let r = ui
                            .selectable_value(&mut app.edit.tool, t, label)
                            .on_hover_text(tip);
                        if t == Tool::Brush {
                            app.parts
                                .of_mut::<crate::app::features::lesson::Lessons>()
                                .control("brush", &r);
                        }
                    }
                    let own = crate::app::worlds::ui_of(&app.work.doc.world).tools();
                    for &(t, label, tip) in own {
                        ui.selectable_value(&mut app.edit.tool, t, label)
                            .on_hover_text(tip);
                    }
                    if !Tool::EVERY_WORLD.contains(&app.edit.tool)
                        && !own.iter().any(|o| o.0 == app.edit.tool)
                    {
                        app.edit.tool = Tool::Select;
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
                        ui.selectable_value(&mut app.edit.material, tile, name);
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
                ui.add_enabled_ui(!app.parts.of_mut::<AgentSim>().active, |ui| {
                    crate::app::world_panels::generators(app, ui);
                    let part = crate::app::worlds::ui_of(&app.work.doc.world);
                    let mut cx = crate::app::parts::PanelCx::new(&app.work, &mut app.parts);
                    part.panel(&mut cx, ui);
                    for c in cx.into_commands() {
                        app.apply(c);
                    }
                });
                ui.separator();
                algorithms(app, ui);
                if !app.work.doc.problems.is_empty() {
                    ui.separator();
                    crate::app::problems::show(app, ui);
                }
                ui.separator();
                // Agents and changing obstacles walk the worlds whose part says so.
                if crate::app::worlds::ui_of(&app.work.doc.world).dynamic_world() {
                    crate::app::world_panels::dynamic_world(app, ui);
                    ui.separator();
                }
                breakpoints(app, ui);
            });
        });
}

fn algorithms(app: &mut PathlabApp, ui: &mut egui::Ui) {
    ui.heading("Algorithms");
    let mut change: Option<(usize, AlgoChoice)> = None;
    // Where the first view's algorithm and the last parameter slider are, for a lesson.
    let (mut algo_rect, mut params_rect) = (None, None);
    for i in 0..app.work.views.len() {
        let mut c = app.work.views[i].run.choice.clone();
        // A view of its own world (hexes, a navmesh, a lattice beside the squares) offers
        // that world's algorithms and heuristics, not the document's.
        let space = app.work.views[i]
            .world
            .as_deref()
            .map_or(&app.work.space, |w| &w.space);
        let (kind, fits) = (space.kind(), space.heuristics());
        ui.push_id(i, |ui| {
            let combo = egui::ComboBox::from_label(format!("view {}", i + 1))
                .selected_text(c.info.title)
                // Scrolls rather than running off the window.
                .height((ui.ctx().content_rect().height() - 120.0).max(200.0))
                .show_ui(ui, |ui| {
                    // The algorithms that run on this view's world, by family.
                    for g in registry::Group::ALL {
                        let mine: Vec<_> = crate::algorithms::all()
                            .iter()
                            .filter(|a| a.group == g && a.spaces().contains(&kind))
                            .collect();
                        if mine.is_empty() {
                            continue;
                        }
                        ui.label(RichText::new(g.title()).small().weak());
                        for a in mine {
                            if ui
                                .selectable_label(a.name == c.info.name, a.title)
                                .on_hover_text(a.summary)
                                .clicked()
                            {
                                c = AlgoChoice::named(a.name);
                            }
                        }
                    }
                });
            if i == 0 {
                algo_rect = Some(combo.response.rect);
            }
            for p in c.info.params {
                let v = c.values.entry(p.name.to_string()).or_insert(p.default);
                match p.kind {
                    ParamKind::Choice(names) => {
                        let mut k = *v as usize;
                        egui::ComboBox::from_label(p.name)
                            .selected_text(names.get(k).copied().unwrap_or("?"))
                            .show_ui(ui, |ui| {
                                for (j, n) in names.iter().enumerate() {
                                    // Only the heuristics that fit this world are offered.
                                    let fits = p.name != "heuristic"
                                        || crate::space::Heuristic::from_name(n)
                                            .is_some_and(|h| fits.contains(&h));
                                    if fits {
                                        ui.selectable_value(&mut k, j, *n);
                                    }
                                }
                            })
                            .response
                            .on_hover_text(p.help);
                        *v = k as f64;
                    }
                    ParamKind::Float => {
                        let r = ui
                            .add(egui::Slider::new(v, p.min..=p.max).text(p.name))
                            .on_hover_text(p.help);
                        params_rect = Some(r.rect);
                    }
                    ParamKind::Int => {
                        // Wide ranges (μ from 2 to 1,000) on a logarithmic scale, so the
                        // usual values are not squeezed against one end.
                        let wide = p.max >= 100.0 * p.min.max(1.0);
                        ui.add(
                            egui::Slider::new(v, p.min..=p.max)
                                .integer()
                                .logarithmic(wide)
                                .text(p.name),
                        )
                        .on_hover_text(p.help);
                    }
                }
            }
        });
        if c != app.work.views[i].run.choice {
            change = Some((i, c));
        }
    }
    for (name, r) in [("algorithm", algo_rect), ("params", params_rect)] {
        if let Some(r) = r {
            app.parts
                .of_mut::<crate::app::features::lesson::Lessons>()
                .controls
                .insert(name, r);
        }
    }
    if let Some((i, c)) = change {
        app.set_algorithm(i, c);
    }
    rules(app, ui);
    if app.work.views.len() < 4 {
        let r = ui.button("+ Compare with another algorithm");
        app.parts
            .of_mut::<crate::app::features::lesson::Lessons>()
            .control("compare", &r);
        if r.clicked() {
            add_compare_view(app);
        }
    }
}

/// Moves and terrain rule, shared by every view (they define the graph the searches walk).
fn rules(app: &mut PathlabApp, ui: &mut egui::Ui) {
    let (mut moves, mut rule) = (app.work.doc.moves, app.work.doc.rule);
    let family = app.work.doc.world;
    if !crate::app::worlds::ui_of(&family).moves(&family, ui, &mut moves) {
        return;
    }
    terrain_combo(ui, &mut rule);
    app.set_rules(moves, rule);
}

pub(in crate::app) fn moves_combo(ui: &mut egui::Ui, moves: &mut crate::space::Connectivity) {
    use crate::space::Connectivity;
    let now = *moves;
    egui::ComboBox::from_label("moves")
        .selected_text(match now {
            Connectivity::Eight => "8",
            Connectivity::Four => "4",
        })
        .show_ui(ui, |ui| {
            for c in [Connectivity::Eight, Connectivity::Four] {
                ui.selectable_value(moves, c, crate::app::moves_name(c));
            }
        })
        .response
        .on_hover_text("8: diagonal moves cost 1.414 and may not cut a blocked corner; 4: none");
}

fn terrain_combo(ui: &mut egui::Ui, rule: &mut crate::space::TerrainRule) {
    use crate::space::TerrainRule;
    let rule_now = *rule;
    egui::ComboBox::from_label("terrain")
        .selected_text(match rule_now {
            TerrainRule::Class => "classes",
            TerrainRule::GroundOnly => "ground only",
        })
        .show_ui(ui, |ui| {
            for r in [TerrainRule::Class, TerrainRule::GroundOnly] {
                ui.selectable_value(rule, r, crate::app::rule_name(r));
            }
        })
        .response
        .on_hover_text(
            "classes: ground (. G S) connects to ground and water (W) to water, T and @ never \
             (the MovingAI benchmarks' rule); ground only: just . and G",
        );
}

fn breakpoints(app: &mut PathlabApp, ui: &mut egui::Ui) {
    ui.collapsing("Breakpoints", |ui| {
        let sel = app.edit.selected;
        let mut on = app.play.breakpoints.node.is_some();
        let label = match (app.play.breakpoints.node, sel) {
            (Some(n), _) => {
                let (x, y) = app.work.space.xy(n);
                format!("stop when ({x}, {y}) is expanded")
            }
            (None, Some((x, y))) => format!("stop when ({x}, {y}) is expanded"),
            (None, None) => "stop at a node (select a cell first)".into(),
        };
        if ui.checkbox(&mut on, label).changed() {
            app.play.breakpoints.node = if on {
                sel.and_then(|(x, y)| app.work.space.node(x, y))
            } else {
                None
            };
        }
        ui.checkbox(
            &mut app.play.breakpoints.f_decrease,
            "stop when f decreases",
        );
        ui.checkbox(&mut app.play.breakpoints.phase, "stop when a phase begins")
            .on_hover_text("ARA*'s and AD*'s passes; any search that runs in phases");
        let mut open_on = app.play.breakpoints.open_over.is_some();
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut open_on, "stop when open list >");
            let mut n = app.play.breakpoints.open_over.unwrap_or(100);
            ui.add(egui::DragValue::new(&mut n).range(1..=u64::MAX));
            app.play.breakpoints.open_over = open_on.then_some(n);
        });
    });
}

pub(in crate::app) fn prompts(app: &mut PathlabApp, ctx: &egui::Context) {
    let Some(prompt) = app.prompt.clone() else {
        return;
    };
    let mut close = false;
    egui::Window::new("pathlab")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| match prompt.clone() {
            Prompt::Discard(action) => {
                ui.label("The map has unsaved changes. Discard them?");
                ui.horizontal_wrapped(|ui| {
                    if ui.button("Save first").clicked() {
                        app.save();
                        close = true;
                    }
                    if ui.button("Discard").clicked() {
                        app.work.doc.dirty = false;
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
                ui.horizontal_wrapped(|ui| {
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
            Prompt::Error(title, message) => {
                ui.strong(title);
                ui.label(message);
                let enter = ui
                    .input(|i| i.key_pressed(egui::Key::Enter) || i.key_pressed(egui::Key::Escape));
                if ui.button("OK").clicked() || enter {
                    close = true;
                }
            }
        });
    // An action taken from the prompt may have raised another (a failed open after Discard).
    if close && app.prompt.as_ref() == Some(&prompt) {
        app.prompt = None;
    }
}

/// Adds a view with the next algorithm worth comparing: Dijkstra, then greedy, then weighted A*.
fn add_compare_view(app: &mut PathlabApp) {
    let next = ["dijkstra", "greedy", "weighted-astar"][app.work.views.len().clamp(1, 3) - 1];
    app.add_view(AlgoChoice::named(next));
    app.go_to(app.work.cursor, false);
}

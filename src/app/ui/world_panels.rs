//! The left panel's world sections: map generators (new, resize, seeded maps) and the
//! dynamic world (agents on a changing map).

use crate::app::agent::AgentSim;
use crate::app::files::DialogPurpose;
use crate::app::{PathlabApp, PendingAction};
use crate::map::{Cell, Edit, Generator};
use eframe::egui::{self, RichText};

/// Agents crossing the map while its obstacles change (Mäntysalo 2024's flips, Krafft 2019's timed and
/// patrolling blocks, or the last outing's tape again).
pub(in crate::app) fn dynamic_world(app: &mut PathlabApp, ui: &mut egui::Ui) {
    use crate::experiment::behaviour::Mover;
    ui.heading("Dynamic world");
    let sim = &mut app.parts.of_mut::<AgentSim>();
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
        let at = app.edit.selected.unwrap_or(app.work.doc.start);
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
            ui.horizontal_wrapped(|ui| {
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
    let sim = &app.parts.of_mut::<AgentSim>();
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
                app.parts.of_mut::<AgentSim>().playing = !playing;
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
        egui::Slider::new(
            &mut app.parts.of_mut::<AgentSim>().ticks_per_sec,
            1.0..=200.0,
        )
        .logarithmic(true)
        .suffix(" ticks/s"),
    )
    .labelled_by(l.id);
    if app.parts.of_mut::<AgentSim>().active {
        ui.label(RichText::new(app.parts.of_mut::<AgentSim>().summary()).small());
        ui.label(
            RichText::new("Click cells to toggle walls while they walk: every view replans.")
                .small(),
        );
    }
}

pub(in crate::app) fn generators(app: &mut PathlabApp, ui: &mut egui::Ui) {
    ui.collapsing("Map: new, resize, generate", |ui| {
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("Size");
            ui.add(egui::DragValue::new(&mut app.generator.size.0).range(2..=4096))
                .labelled_by(l.id)
                .on_hover_text("width in cells");
            let l = ui.label("×");
            ui.add(egui::DragValue::new(&mut app.generator.size.1).range(2..=4096))
                .labelled_by(l.id)
                .on_hover_text("height in cells");
        });
        ui.horizontal_wrapped(|ui| {
            if ui.button("New empty").clicked() {
                app.request(PendingAction::New);
            }
            if ui
                .button("Resize")
                .on_hover_text("Keep cells; new ones are free")
                .clicked()
            {
                app.edit(Edit::Resize {
                    width: app.generator.size.0,
                    height: app.generator.size.1,
                    fill: Cell::FREE,
                });
            }
        });
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut app.generator.seed))
                .labelled_by(l.id);
        });
        let mut gen = None;
        ui.horizontal_wrapped(|ui| {
            ui.add(egui::Slider::new(&mut app.generator.density, 0.0..=0.6).text("density"));
            if ui.button("Random").clicked() {
                gen = Some(Generator::RandomBlocks {
                    density: app.generator.density,
                });
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.add(
                egui::DragValue::new(&mut app.generator.room)
                    .range(2..=64)
                    .prefix("room "),
            );
            if ui.button("Rooms").clicked() {
                gen = Some(Generator::Rooms {
                    room: app.generator.room,
                });
            }
            ui.add(
                egui::DragValue::new(&mut app.generator.corridor)
                    .range(1..=16)
                    .prefix("corridor "),
            );
            if ui.button("Maze").clicked() {
                gen = Some(Generator::Maze {
                    corridor: app.generator.corridor,
                });
            }
        });
        let mut paper_map = None;
        ui.horizontal_wrapped(|ui| {
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
                app.generator.size.0,
                app.generator.seed,
            );
            app.edit(Edit::Replace(Box::new(m.initial_grid())));
            app.work.doc.set_start(m.start);
            app.work.doc.set_goal(m.goal);
            app.touched(crate::app::Touched::Endpoints);
            app.cam.fit_pending = true;
            app.status = format!(
                "Generated Mäntysalo 2024's {} map with seed {}: {} dynamic obstacles",
                kind.name(),
                app.generator.seed,
                m.obstacles.len()
            );
            app.parts.of_mut::<AgentSim>().blocks = Some(m);
        }
        if let Some(g) = gen {
            let grid = g.generate(
                app.generator.size.0,
                app.generator.size.1,
                app.generator.seed,
            );
            // As an undoable edit of the whole map, so a generated map can be taken back.
            app.edit(Edit::Replace(Box::new(grid)));
            let (w, h) = (app.work.doc.grid.width(), app.work.doc.grid.height());
            let s = app.work.doc.nearest_free((0, 0), None);
            let t = app.work.doc.nearest_free((w - 1, h - 1), Some(s));
            app.work.doc.set_start(s);
            app.work.doc.set_goal(t);
            app.touched(crate::app::Touched::Endpoints);
            app.cam.fit_pending = true;
            app.status = format!("Generated {g} with seed {}", app.generator.seed);
        }
    });
}

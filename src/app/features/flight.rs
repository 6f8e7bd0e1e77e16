//! Krafft 2019's moving 3D scene in the app (File ▸ Moving 3D scene): the built-in scene as a
//! voxel world, an agent flown through it with the active view's algorithm, and a scene clock
//! to play, pause and drag back and forth.
//!
//! The flight is computed whole when the user presses Fly (the experiment's own body,
//! [`scene3d_run::fly`], so the app shows exactly what `pathlab experiment scene3d` measures),
//! then replayed: at each moment the document holds the graph of the replan in force (the scene
//! rasterised, with the safety collider, when the agent last replanned) and that replan's start
//! and goal, so the views search it and the timeline steps through that search. The 3D view adds
//! the moving obstacles in their own colour at the exact moment, the agent, its trail and the
//! destination; the panel gives each replan's oracle badge.

use crate::app::parts::{part_any, Cx, Part};
use crate::app::view3d::View3d;
use crate::app::view3d_mesh::Tris;
use crate::app::{palette, Command, Document, PathlabApp};
use crate::experiment::scene3d::{Scene, DIMS};
use crate::experiment::scene3d_run::{self, FlightEnd, FlightLog, RunResult, Setup};
use crate::map::voxel::VoxelGrid;
use crate::space::VoxelMoves;
use crate::world::Family;
use eframe::egui;
use std::sync::Arc;

/// A flight computed and being replayed.
pub struct Flown {
    pub spec: String,
    pub label: String,
    pub result: RunResult,
    pub log: FlightLog,
}

/// The moving scene, its flight and the replay's clock.
pub struct Flight {
    pub scene: Scene,
    pub setup: Setup,
    /// The scene's phase (s) when the agent sets out.
    pub t0: f32,
    pub flown: Option<Flown>,
    /// The frame shown (an index into the log's frames, one per 0.05 s of scene time).
    pub frame: usize,
    pub playing: bool,
    /// Scene seconds per second of play.
    pub speed: f32,
    acc: f32,
    /// The replan whose graph and endpoints the document holds.
    shown: Option<usize>,
    /// Moving obstacles and the agent, with the frame they were built for.
    parts: Option<(usize, u64, [Arc<Tris>; 2])>,
}

/// The moving scene as a part of the app: the flight, when the scene is the open world.
#[derive(Default)]
pub struct MovingScene {
    pub flight: Option<Flight>,
}

/// What can be asked of the moving scene.
#[derive(Clone, Debug, PartialEq)]
pub enum FlightCommand {
    /// Flies the agent through the scene with the active view's algorithm, from the start.
    Fly,
    /// Flies the agent through the scene and shows it at `t` seconds, paused.
    FlyTo(f32),
    /// Shows logged frame `k` of the flight (clamped to it).
    Seek(usize),
}

impl Part for MovingScene {
    /// Advances the replay by `dt` seconds of wall time.
    fn update(&mut self, cx: &mut Cx, dt: f32) {
        let Some(f) = self
            .flight
            .as_mut()
            .filter(|f| f.playing && f.flown.is_some())
        else {
            return;
        };
        f.acc += dt * f.speed;
        let ticks = (f.acc / TICK).floor();
        f.acc -= ticks * TICK;
        let last = f.flown.as_ref().map_or(0, |x| x.log.frames.len() - 1);
        let to = (f.frame + ticks as usize).min(last);
        f.playing = to < last;
        if to != f.frame {
            cx.send(Command::Flight(FlightCommand::Seek(to)));
        }
    }
    fn wants_repaint(&self) -> bool {
        self.flight.as_ref().is_some_and(|f| f.playing)
    }
    part_any!();
}

/// Seconds of scene time between logged frames (the experiment's tick).
const TICK: f32 = 0.05;

impl Flight {
    fn new(moving_destination: bool) -> Flight {
        Flight {
            scene: Scene::krafft2019_like(moving_destination),
            setup: Setup {
                moving_destination,
                ..Setup::default()
            },
            t0: 0.0,
            flown: None,
            frame: 0,
            playing: false,
            speed: 1.0,
            acc: 0.0,
            shown: None,
            parts: None,
        }
    }

    /// The scene time (s since the agent set out) of the frame shown.
    pub fn time(&self) -> f32 {
        self.flown
            .as_ref()
            .and_then(|f| f.log.frames.get(self.frame))
            .map_or(0.0, |f| f.t)
    }

    /// The replan in force at the frame shown.
    pub fn replan(&self) -> Option<usize> {
        let f = self.flown.as_ref()?;
        f.log.replan_at(self.time())
    }
}

impl PathlabApp {
    /// Opens the built-in moving scene as an unsaved voxel world at its starting phase.
    pub fn open_scene3d(&mut self) {
        let flight = Flight::new(true);
        let doc = match scene_document(&flight, flight.t0) {
            Ok(d) => d,
            Err(e) => return self.report_error("Could not make the moving scene", e),
        };
        self.set_document(doc);
        self.parts.of_mut::<MovingScene>().flight = Some(flight);
        let view3d = self.parts.of_mut::<View3d>();
        view3d.show = true;
        // The whole scene in view, not just the space between start and goal.
        view3d.fit_pending = true;
        self.status =
            "Krafft 2019's moving scene: choose an algorithm, then Fly in the world panel".into();
    }

    /// Flies the agent through the scene with the active view's algorithm and starts the
    /// replay from its first frame.
    pub fn fly(&mut self) {
        let Some(view) = self
            .work
            .views
            .get(self.display.active)
            .or(self.work.views.first())
        else {
            return;
        };
        let (spec, label) = (view.run.choice.spec(), view.run.choice.label());
        let Some(f) = self.parts.of_mut::<MovingScene>().flight.as_mut() else {
            return;
        };
        f.scene = Scene::krafft2019_like(f.setup.moving_destination);
        match scene3d_run::fly(&f.scene, &spec, f.setup, f.t0, 0) {
            Ok((result, log)) => {
                self.status = flight_summary(&label, &result, &log);
                f.flown = Some(Flown {
                    spec,
                    label,
                    result,
                    log,
                });
                f.frame = 0;
                f.playing = true;
                f.acc = 0.0;
                f.shown = None;
                self.show_flight_frame();
            }
            Err(e) => self.report_error("Could not fly through the scene", e),
        }
    }

    /// Moves the replay to `frame` (clamped to the flight).
    pub fn seek_flight(&mut self, frame: usize) {
        if let Some(f) = self.parts.of_mut::<MovingScene>().flight.as_mut() {
            let last = f.flown.as_ref().map_or(0, |x| x.log.frames.len() - 1);
            f.frame = frame.min(last);
            self.show_flight_frame();
        }
    }

    /// Moves the replay to the frame at scene time `t` (s).
    pub fn seek_flight_time(&mut self, t: f32) {
        self.seek_flight((t.max(0.0) / TICK).round() as usize);
    }

    /// Does what `c` asks of the moving scene.
    pub(crate) fn apply_flight(&mut self, c: FlightCommand) {
        match c {
            FlightCommand::FlyTo(t) => {
                self.fly();
                self.seek_flight_time(t);
                if let Some(f) = self.parts.of_mut::<MovingScene>().flight.as_mut() {
                    f.playing = false;
                }
            }
            FlightCommand::Seek(frame) => self.seek_flight(frame),
            FlightCommand::Fly => self.fly(),
        }
    }

    /// Puts the graph, start and goal of the replan in force into the document when it changed,
    /// and searches it again.
    fn show_flight_frame(&mut self) {
        let Some(f) = self.parts.of_mut::<MovingScene>().flight.as_mut() else {
            return;
        };
        let Some(r) = f.replan() else {
            return;
        };
        if f.shown == Some(r) {
            return;
        }
        f.shown = Some(r);
        let Some(flown) = f.flown.as_ref() else {
            return;
        };
        let rp = &flown.log.replans[r];
        let mut grid = VoxelGrid::new(1, 1, 1).expect("one voxel");
        // The timed blocks as they were at that replan (held while the agent was near them).
        let timed = flown
            .log
            .frames
            .iter()
            .rev()
            .find(|fr| fr.t <= rp.t)
            .map_or_else(|| f.scene.timed_on_schedule(flown.log.t0), |fr| fr.timed);
        f.scene
            .rasterise(flown.log.t0 + rp.t, f.setup.safety, timed, &mut grid);
        let (start, goal) = (rp.start, rp.goal);
        let Some(vol) = self.work.doc.volume_mut() else {
            return;
        };
        vol.voxels = grid;
        self.work.doc.grid = vol.voxels.slice(vol.z);
        self.work.doc.set_endpoints_3d(start, goal);
        self.work.doc.revision += 1;
        self.work.space = self.work.doc.space();
        self.restart_all();
        self.to_end();
    }

    /// The 3D view's parts of the flight at the frame shown: the moving obstacles (their true
    /// shapes at that moment) and the agent with its trail and the destination.
    pub(in crate::app) fn flight_parts(
        &mut self,
        generation: &mut u64,
    ) -> Option<[(u64, Arc<Tris>); 2]> {
        let f = self.parts.of_mut::<MovingScene>().flight.as_mut()?;
        let flown = f.flown.as_ref()?;
        if f.parts.as_ref().map(|p| p.0) != Some(f.frame) {
            let frames = &flown.log.frames;
            let now = frames[f.frame];
            let mut moving = VoxelGrid::new(1, 1, 1).expect("one voxel");
            f.scene
                .rasterise_moving(flown.log.t0 + now.t, now.timed, &mut moving);
            let mut obstacles = Tris::default();
            for p in moving.blocked_voxels() {
                // A little larger than the grey voxel under it, so it shows in front.
                obstacles.cube_at(p, 1.04, palette::CHANGED);
            }
            let mut agent = Tris::default();
            // The trail: every fourth tick (0.2 s), then the last stretch to the agent.
            let mut last = frames[0].pos;
            for fr in frames[..=f.frame].iter().step_by(4).skip(1) {
                agent.segment_between(last, fr.pos, 0.25, palette::AGENT);
                last = fr.pos;
            }
            agent.segment_between(last, now.pos, 0.25, palette::AGENT);
            let cube = |t: &mut Tris, c: [f32; 3], side: f32, color| {
                t.cuboid(c.map(|v| v - side / 2.0), c.map(|v| v + side / 2.0), color);
            };
            cube(&mut agent, now.pos, 1.8, palette::AGENT);
            cube(&mut agent, now.dest, 1.0, palette::GOAL);
            f.parts = Some((f.frame, *generation, [Arc::new(obstacles), Arc::new(agent)]));
            // Two generations: one for each part.
            *generation += 2;
        }
        let (_, g, [o, a]) = f.parts.as_ref()?;
        Some([(*g, o.clone()), (*g + 1, a.clone())])
    }
}

/// The scene at phase `t` as a voxel document: its graph with the safety collider, 6-connected,
/// start at the agent's cell and goal at the destination's.
fn scene_document(f: &Flight, t: f32) -> Result<Document, String> {
    let mut voxels = VoxelGrid::new(1, 1, 1)?;
    f.scene
        .rasterise(t, f.setup.safety, f.scene.timed_on_schedule(t), &mut voxels);
    let moves = VoxelMoves::Six;
    let start = scene3d_run::free_near(&voxels, scene3d_run::cell_of(f.scene.start))
        .ok_or("the scene's start is walled in")?;
    let goal = scene3d_run::free_near(&voxels, scene3d_run::cell_of(f.scene.destination_at(t)))
        .ok_or("the scene's destination is walled in")?;
    let (mut vol, _, _) = crate::map::volume::Volume::new(voxels, moves, vec![]);
    (vol.z, vol.start_z, vol.goal_z) = (start[2], start[2], goal[2]);
    let mut doc = Document::new(
        vol.voxels.slice(vol.z),
        (start[0], start[1]),
        (goal[0], goal[1]),
        None,
    );
    doc.world = Family::Voxel { moves };
    doc.data = Some(crate::world::AnyData::Voxel(vol));
    Ok(doc)
}

/// One line on how a flight went.
fn flight_summary(label: &str, r: &RunResult, log: &FlightLog) -> String {
    let t = log.frames.last().map_or(0.0, |f| f.t);
    let how = match log.end {
        FlightEnd::Arrived => format!("arrived after {t:.2} s"),
        FlightEnd::Hit => format!("hit an obstacle at {t:.2} s"),
        FlightEnd::OutOfTime => format!("had not arrived after {t:.0} s"),
    };
    format!(
        "{label} {how}: {:.1} cells flown, {} replans, {} expansions, {:.1} ms searching",
        r.distance, r.replans, r.expanded, r.millis
    )
}

/// What the replan in force did, and whether the oracle agrees (true when there is none).
fn replan_badge(f: &Flight) -> Option<(String, bool)> {
    let flown = f.flown.as_ref()?;
    let r = f.replan()?;
    let rp = flown.log.replans.get(r)?;
    let n = flown.log.replans.len();
    let c = |x: Option<f64>| x.map_or("no path".to_string(), |v| format!("{v:.2}"));
    let head = format!("Replan {} of {n} at {:.2} s", r + 1, rp.t);
    Some(match (rp.oracle, rp.agrees) {
        (Some(o), Some(ok)) => {
            let how = if rp.repaired { "repair" } else { "search" };
            let verdict = if ok { "within ε of" } else { "MISMATCH with" };
            (
                format!(
                    "{head}: {how} {} {verdict} A* from scratch ({})",
                    c(rp.cost),
                    c(Some(o))
                ),
                ok,
            )
        }
        _ => (
            format!(
                "{head}: searched again, cost {}, {} expansions",
                c(rp.cost),
                rp.expanded
            ),
            true,
        ),
    })
}

/// The replan's badge over the 3D view's top left corner.
pub(in crate::app) fn badge(app: &PathlabApp, ui: &egui::Ui, area: egui::Rect) {
    let Some((text, ok)) = app
        .parts
        .of::<MovingScene>()
        .flight
        .as_ref()
        .and_then(replan_badge)
    else {
        return;
    };
    let fill = if ok {
        palette::ORACLE_OK
    } else {
        palette::ORACLE_BAD
    };
    let painter = ui.painter_at(area);
    let wrap = (area.width() - 20.0).max(40.0);
    let galley = painter.layout(
        text,
        egui::FontId::proportional(13.0),
        egui::Color32::WHITE,
        wrap,
    );
    let r = egui::Rect::from_min_size(
        area.min + egui::vec2(4.0, 4.0),
        galley.size() + egui::vec2(12.0, 6.0),
    );
    painter.rect_filled(r, 4.0, fill);
    painter.galley(r.min + egui::vec2(6.0, 3.0), galley, egui::Color32::WHITE);
}

/// The panel of the moving scene (under the voxel world's panel).
pub(in crate::app) fn panel(cx: &mut crate::app::parts::PanelCx, ui: &mut egui::Ui) {
    let Some(f) = cx.parts.of_mut::<MovingScene>().flight.as_mut() else {
        return;
    };
    let [w, h, d] = DIMS;
    let mut fly = false;
    let header = egui::CollapsingHeader::new("Moving scene (Krafft 2019)").default_open(true);
    header.show(ui, |ui| {
        ui.label(format!(
            "{w}×{h}×{d} cells, 6-connected: 10 patrolling boxes, 3 turning bars and 5 timed \
             blocks, the thesis's counts and speeds in a layout of pathlab's (the thesis does \
             not give its geometry). The agent flies at 4 cells/s and replans every 0.25 s."
        ));
        ui.checkbox(
            &mut f.setup.moving_destination,
            "Destination patrols (2 cells/s)",
        );
        ui.checkbox(&mut f.setup.safety, "Safety collider")
            .on_hover_text(
                "moving obstacles enlarged by half a cell and stretched a quarter second ahead",
            );
        ui.horizontal(|ui| {
            let l = ui.label("Phase");
            ui.add(
                egui::DragValue::new(&mut f.t0)
                    .range(0.0..=60.0)
                    .suffix(" s"),
            )
            .labelled_by(l.id)
            .on_hover_text("where the obstacles are when the agent sets out");
        });
        fly = ui
            .button("Fly with the active view's algorithm")
            .on_hover_text("D* Lite and AD* repair; the others search again at each replan")
            .clicked();
        let Some(flown) = f.flown.as_ref() else {
            return;
        };
        ui.label(flight_summary(&flown.label, &flown.result, &flown.log));
        if let Some((text, ok)) = replan_badge(f) {
            let color = if ok {
                palette::ORACLE_OK
            } else {
                palette::ORACLE_BAD
            };
            ui.colored_label(color, text);
        }
        let checked = flown.log.replans.iter().filter(|r| r.agrees.is_some());
        let (n, agreed) = checked.fold((0, 0), |(n, a), r| {
            (n + 1, a + (r.agrees == Some(true)) as u32)
        });
        if n > 0 {
            ui.label(format!(
                "{agreed} of {n} repairs agreed with A* from scratch"
            ));
        }
    });
    if fly {
        cx.send(Command::Flight(FlightCommand::Fly));
    }
}

/// The scene clock, under the 3D view's strip: play or pause, the scene time, the speed.
pub(in crate::app) fn strip(app: &mut PathlabApp, ui: &mut egui::Ui) {
    let Some(f) = app.parts.of_mut::<MovingScene>().flight.as_mut() else {
        return;
    };
    let Some(flown) = f.flown.as_ref() else {
        return;
    };
    let last = flown.log.frames.len() - 1;
    let mut k = f.frame;
    let mut seek = None;
    ui.horizontal_wrapped(|ui| {
        let label = if f.playing {
            "Pause flight"
        } else {
            "Play flight"
        };
        if ui.button(label).clicked() {
            f.playing = !f.playing;
            if f.playing && f.frame == last {
                // Play at the end plays again from the start.
                k = 0;
            }
        }
        let l = ui.label("scene time");
        ui.add(
            egui::Slider::new(&mut k, 0..=last)
                .custom_formatter(|v, _| format!("{:.2} s", v as f32 * TICK))
                .custom_parser(|s| {
                    let s = s.trim().trim_end_matches('s').trim();
                    s.parse::<f64>().ok().map(|t| (t / TICK as f64).round())
                }),
        )
        .labelled_by(l.id)
        .on_hover_text("where the obstacles and the agent were: drag back and forth");
        let l = ui.label("speed");
        ui.add(
            egui::DragValue::new(&mut f.speed)
                .range(0.25..=8.0)
                .speed(0.05)
                .suffix("×"),
        )
        .labelled_by(l.id);
    });
    if k != f.frame {
        seek = Some(k);
    }
    if let Some(k) = seek {
        app.seek_flight(k);
    }
}

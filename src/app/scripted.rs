//! Scripted runs: `--screenshot` and exported canvas pictures, `--scrub-test`, and the frame
//! times `--frame-log` prints.

use super::{files, AlgoChoice, PathlabApp};
use crate::app::Command;
use eframe::egui;
use web_time::Instant;

/// Section times of one update, printed for slow frames with `--frame-log`.
pub(super) struct Laps {
    on: bool,
    t: Instant,
    start: Instant,
    laps: Vec<(&'static str, f32)>,
}

impl Laps {
    pub(super) fn new(on: bool) -> Laps {
        let now = Instant::now();
        Laps {
            on,
            t: now,
            start: now,
            laps: vec![],
        }
    }

    pub(super) fn lap(&mut self, name: &'static str) {
        if self.on {
            let now = Instant::now();
            self.laps
                .push((name, (now - self.t).as_secs_f32() * 1000.0));
            self.t = now;
        }
    }

    pub(super) fn report(&self, over_ms: f32) {
        if self.on && self.start.elapsed().as_secs_f32() * 1000.0 > over_ms {
            let parts: Vec<String> = self
                .laps
                .iter()
                .map(|(n, ms)| format!("{n} {ms:.1}"))
                .collect();
            eprintln!("slow update (ms): {}", parts.join(", "));
        }
    }
}

/// Frame-time statistics for `--frame-log`.
#[derive(Default)]
pub(crate) struct FrameLog {
    last: Option<Instant>,
    ui_ms: Vec<f32>,
    gap_ms: Vec<f32>,
    /// eframe's measure of the previous frame: update plus painting, without vsync waits.
    pub(super) cpu_ms: Vec<f32>,
    /// Frame intervals logged so far, and how many of them took longer than 16 ms.
    gaps: usize,
    over: usize,
}

impl PathlabApp {
    /// Screenshots: `--screenshot` after N frames (whole window), or an export of the canvas.
    pub(super) fn screenshots(&mut self, ctx: &egui::Context) {
        if let Some(out) = self.opts.screenshot.clone() {
            // A crowd batch in flight: the picture waits for its heatmaps.
            if self
                .parts
                .of_mut::<crate::app::crowd::CrowdWindow>()
                .running()
                || self
                    .parts
                    .of_mut::<crate::app::vehicle::VehicleWindow>()
                    .running()
            {
                ctx.request_repaint_after(std::time::Duration::from_millis(50));
                return;
            }
            // Halfway through, every search runs to its end: the picture shows what each
            // algorithm searched and the path it found.
            if self.frame == self.opts.frames.max(2) / 2
                && self.shots.shot_target.is_none()
                && self.opts.lesson.is_none()
            {
                self.apply(Command::ToEnd);
                if let Some(k) = self.opts.at_step {
                    self.apply(Command::GoTo(k));
                }
                if let Some(t) = self.opts.fly_to {
                    self.apply(Command::Flight(crate::app::flight::FlightCommand::FlyTo(t)));
                }
            }
            if self.frame >= self.opts.frames.max(1) && self.shots.shot_target.is_none() {
                if let Some(svg) = self.opts.svg.clone() {
                    if let Err(e) = self.export_svg(0, &svg) {
                        *self.shots.failure.lock().expect("not poisoned") =
                            Some(format!("{}: {e}", svg.display()));
                    }
                }
                self.shots.shot_target = Some((out, None));
            }
        }
        let Some((path, crop)) = self.shots.shot_target.clone() else {
            return;
        };
        if !self.shots.shot_requested {
            let slot = self.shots.shot.clone();
            ctx.request_screenshot(move |img| {
                if let Ok(mut s) = slot.lock() {
                    *s = Some(img);
                }
            });
            self.shots.shot_requested = true;
            ctx.request_repaint();
            return;
        }
        let img = self.shots.shot.lock().ok().and_then(|mut s| s.take());
        let Some(img) = img else {
            ctx.request_repaint();
            return;
        };
        let img = match crop {
            Some(r) => img.region(&r, Some(ctx.pixels_per_point())),
            None => (*img).clone(),
        };
        let result = files::write_png(&path, &img);
        self.shots.shot_target = None;
        self.shots.shot_requested = false;
        if self.opts.screenshot.is_some() {
            if let Err(e) = result {
                *self.shots.failure.lock().expect("not poisoned") = Some(e);
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        } else {
            self.status = match result {
                Ok(()) => format!("Canvas written to {}", path.display()),
                Err(e) => format!("Not written: {e}"),
            };
        }
    }

    /// `--scrub-test`: run Dijkstra to the end, then move the cursor as a slider drag would, and
    /// every 40th frame paint a wall (which restarts the run); exits after `--frames` frames.
    /// With `--frame-log` this measures the frame times the README reports.
    pub(super) fn scrub_step(&mut self) {
        if self.frame == 1 {
            // A long search: Dijkstra on the scenario's last (longest) problem when one is open.
            if let Some(p) = self.work.doc.problems.last().cloned() {
                self.work.doc.set_start(p.start);
                self.work.doc.set_goal(p.goal);
            }
            let voxel_problems = self.work.doc.volume().map_or(0, |v| v.problems.len());
            if voxel_problems > 0 {
                let k = std::env::var("PATHLAB_SCRUB_PROBLEM")
                    .ok()
                    .and_then(|k| k.parse().ok())
                    .unwrap_or(voxel_problems - 1);
                self.apply(Command::ChooseProblem3d(k));
            }
            self.apply(Command::SetAlgorithm(0, AlgoChoice::named("dijkstra")));
            self.apply(Command::ToEnd);
            let events: usize = self.work.views.iter().map(|v| v.run.rec.len()).sum();
            eprintln!(
                "scrub-test: {}×{} map, {} steps, {} events recorded",
                self.work.doc.grid.width(),
                self.work.doc.grid.height(),
                self.max_steps(),
                events
            );
        }
        if self.frame > 1 {
            let m = self.max_steps().max(1);
            // PATHLAB_SCRUB (default "sweep,edit"): "sweep" drags the slider end to end and back
            // every 200 frames (1% of the run per frame), "jump" jumps to a random step every
            // frame (worst case), "edit" paints a wall every 40th frame.
            let f = self.frame as usize;
            let mode = std::env::var("PATHLAB_SCRUB").unwrap_or_else(|_| "sweep,edit".into());
            let s = if mode.contains("jump") {
                (f * 7919 * 131) % m
            } else {
                let t = f % 200;
                m * t.min(200 - t) / 100
            };
            self.apply(Command::GoTo(s));
            if self.frame.is_multiple_of(40) && mode.contains("edit") {
                let (w, h) = (self.work.doc.grid.width(), self.work.doc.grid.height());
                let c = ((self.frame * 37) % w, (self.frame * 53) % h);
                self.paint(c, b'@');
                self.end_stroke();
            }
        }
        if self.frame >= self.opts.frames.max(2) {
            self.quit_now = true;
        }
    }

    pub(super) fn log_frame(&mut self, t0: Instant) {
        let now = Instant::now();
        let log = &mut self.shots.frame_log;
        log.ui_ms.push(t0.elapsed().as_secs_f32() * 1000.0);
        if let Some(last) = log.last {
            log.gap_ms.push((now - last).as_secs_f32() * 1000.0);
        }
        log.last = Some(now);
        if log.ui_ms.len() >= 60 {
            // The 60 Hz budget, as a count: percentiles alone hide how many frames miss it.
            let over = log.gap_ms.iter().filter(|&&g| g > 16.0).count();
            log.gaps += log.gap_ms.len();
            log.over += over;
            let missed = format!(
                "over 16 ms: {over} of {} (so far {} of {})",
                log.gap_ms.len(),
                log.over,
                log.gaps
            );
            let stats = |v: &mut Vec<f32>| {
                v.sort_by(|a, b| a.total_cmp(b));
                let p = |q: f32| {
                    v.get(((v.len() - 1) as f32 * q) as usize)
                        .copied()
                        .unwrap_or(0.0)
                };
                let s = format!("p50 {:.1} p95 {:.1} max {:.1}", p(0.5), p(0.95), p(1.0));
                v.clear();
                s
            };
            eprintln!(
                "frames: update ms {} | update+paint ms {} | frame interval ms {} | {missed}",
                stats(&mut log.ui_ms),
                stats(&mut log.cpu_ms),
                stats(&mut log.gap_ms)
            );
        }
    }
}

//! Helpers shared by the app's kittest suites.
#![allow(dead_code)]

use eframe::egui;
use egui_kittest::Harness;
use pathlab::app::{Options, PathlabApp};
use pathlab::search::{AStar, Query, Search, SearchState};
use pathlab::space::{GridSpace, Heuristic};
use pathlab::trace::NullTracer;
use std::path::PathBuf;

/// The app in kittest's harness, whose `run` waits on the work the app started.
///
/// kittest's own `run` steps until no repaint is asked for, failing past a frame count. How
/// many frames that takes depends on how fast the app's worker threads run (a search pumped a
/// slice a frame, a job whose result lands between frames and shows a new grid), so on a
/// loaded machine a frame count fails tests that are right. Here `run` first steps while the
/// app has work outstanding (bounded by time, naming the work if it never ends), then lets the
/// UI settle within 12 frames: a UI that keeps repainting with nothing to do still fails.
pub struct AppHarness(pub Harness<'static, PathlabApp>);

impl std::ops::Deref for AppHarness {
    type Target = Harness<'static, PathlabApp>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for AppHarness {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

/// Longer than any test's work takes on a loaded 2-core machine; only a job that never ends
/// reaches it.
const WORK_BOUND: std::time::Duration = std::time::Duration::from_secs(240);

impl AppHarness {
    /// Steps until the app's work is done and the UI has settled; returns the frames run.
    #[track_caller]
    pub fn run(&mut self) -> u64 {
        let t0 = std::time::Instant::now();
        let mut frames = 0;
        loop {
            frames += self.wait_for_work(t0);
            match self.0.run_ok() {
                Some(n) if self.0.state().outstanding_work().is_empty() => return frames + n,
                // The frames started more work (a finished search times itself): wait again.
                Some(n) => frames += n,
                None if !self.0.state().outstanding_work().is_empty() => frames += 12,
                None => panic!(
                    "the app kept repainting with no work outstanding; causes: {:?}",
                    self.0.ctx.repaint_causes()
                ),
            }
        }
    }

    /// Steps frames while the app has work outstanding, sleeping a little between them so the
    /// workers get the CPU.
    #[track_caller]
    fn wait_for_work(&mut self, t0: std::time::Instant) -> u64 {
        let mut frames = 0;
        loop {
            let work = self.0.state().outstanding_work();
            if work.is_empty() {
                return frames;
            }
            assert!(
                t0.elapsed() < WORK_BOUND,
                "the app's work did not finish within {WORK_BOUND:?}: {work:?}"
            );
            self.0.step();
            frames += 1;
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
}

pub fn harness(app: PathlabApp) -> AppHarness {
    AppHarness(
        Harness::builder()
            .with_size(egui::vec2(1280.0, 800.0))
            .with_max_steps(12)
            .build_ui_state(|ui, app: &mut PathlabApp| app.show(ui), app),
    )
}

/// Each test its own recovery file: tests must not meet (or leave) a real session's, nor
/// each other's.
pub fn recovery(test: &str) -> PathBuf {
    crate::support::scratch_root().join(format!("pathlab-test-{test}.ron"))
}

pub fn app_for(test: &str) -> PathlabApp {
    PathlabApp::new(Options {
        recovery_file: Some(recovery(test)),
        ..Options::default()
    })
}

/// The app on the built-in map, with a recovery file no other test shares: a sibling test's
/// unsaved work left there would put the restore prompt over this one.
pub fn default_app() -> PathlabApp {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    app_for(&format!("default-{n}"))
}

/// A* on the built-in map, straight from the core: the oracle for what the app shows.
pub fn core_astar() -> (f64, u64) {
    let (_, a) = core_astar_search();
    (a.cost().unwrap(), a.stats().expanded)
}

/// The built-in map's space and A* run to its end on it.
pub fn core_astar_search() -> (GridSpace, AStar) {
    let (g, s, t) = pathlab::builtin::default_world();
    let sp = GridSpace::octile(&g);
    let q = Query {
        start: sp.node(s.0, s.1).unwrap(),
        goal: sp.node(t.0, t.1).unwrap(),
    };
    let mut a = AStar::new(&sp, q, Heuristic::Octile);
    a.run(&sp, &mut NullTracer);
    (sp, a)
}

/// The MovingAI benchmark folder (`None` where it is absent, off CI).
#[allow(unused_imports)] // app_hier_failure, a binary of its own, has no use for it
pub use crate::support::movingai;

/// A file dropped on the window.
#[derive(Debug)]
pub struct Dropped(pub PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// Drops `path` on the app's window and lets it handle the drop.
pub fn drop_file(h: &mut Harness<'static, PathlabApp>, path: &std::path::Path) {
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(path.to_path_buf())));
    h.run();
}

/// Clicks "Run experiment" in the experiment window and steps the app until the result is in.
pub fn run_experiment_window(h: &mut Harness<'static, PathlabApp>) {
    use egui_kittest::kittest::Queryable;
    h.get_by_label("Run experiment").click();
    for _ in 0..4000 {
        h.step();
        if h.state().experiment().result.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    h.run();
}

/// A press on `from`, moves in four steps to `to`, the button still down (the caller drops):
/// as a hand drags, each stage run to rest.
pub fn press_and_move(h: &mut Harness<'static, PathlabApp>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for k in 1..=4 {
        h.hover_at(from + (to - from) * (k as f32 / 4.0));
        h.run();
    }
}

/// Steps until every run has finished recording (a restart searches over several frames, more
/// on a loaded machine), then two frames more for the panels to settle.
pub fn settle(h: &mut Harness<'_, PathlabApp>) {
    for _ in 0..2000 {
        h.step();
        if !h.state().searching() {
            break;
        }
    }
    h.run_steps(2);
}

/// View 0's run as File ▸ Export Posthoc trace writes it (a square world's cells).
pub fn posthoc_yaml(h: &mut Harness<'static, PathlabApp>) -> String {
    let space = h.state().space().as_square().unwrap().clone();
    let xy = |n: u32| space.xy(n);
    let layout = pathlab::trace::posthoc::Layout {
        cell: &xy,
        hex: None,
    };
    pathlab::trace::posthoc::to_yaml(&h.state_mut().run_mut(0).rec, layout)
}

//! Starting the app: its options from the command line, and the window.

use super::{PathlabApp, Settings};
use std::path::PathBuf;
#[cfg(not(target_arch = "wasm32"))]
use {
    super::{files, AlgoChoice},
    crate::space::{Connectivity, TerrainRule},
    eframe::egui,
    std::sync::{Arc, Mutex},
};

/// How the app was started.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// File to open instead of the built-in map.
    pub file: Option<PathBuf>,
    /// Write a PNG of the window after `frames` frames, then exit.
    pub screenshot: Option<PathBuf>,
    pub frames: u32,
    /// With `screenshot`: the first view as SVG too, from the same frame.
    pub svg: Option<PathBuf>,
    /// With `screenshot`: the step shown (mid-search) instead of the runs' ends.
    pub at_step: Option<usize>,
    /// The first view's algorithm (a registry spec).
    pub algo: Option<String>,
    /// Algorithms of further views beside the first.
    pub beside: Vec<String>,
    /// Start lesson N (1-based; Help ▸ Lessons) at its first step.
    pub lesson: Option<usize>,
    /// Open example N of File ▸ Examples (0-based; a page's `#example=NAME`).
    pub example: Option<usize>,
    /// Trace files to play back beside the views (File ▸ Open trace).
    pub traces: Vec<PathBuf>,
    /// Open Krafft 2019's moving 3D scene.
    pub scene3d: bool,
    /// On a hex world: GPS views at these knowledge levels (%).
    pub compare_knowledge: Option<Vec<u32>>,
    /// With `scene3d` and `screenshot`: fly, and show the scene at this time (s).
    pub fly_to: Option<f32>,
    /// Open the crowd window with these views (astar, pccp, flow, and -gpu for the GPU's) and
    /// plan this many agents.
    pub crowd: Option<(Vec<String>, usize)>,
    /// Open Run ▸ Vehicle planner and plan between the map's endpoints.
    pub vehicle: bool,
    /// Open these parts' windows (by [`Part::name`](crate::app::parts::Part::name)).
    pub windows: Vec<String>,
    /// Print frame times to stderr.
    pub frame_log: bool,
    /// Scripted scrubbing and painting, for frame-time measurements.
    pub scrub_test: bool,
    /// Recovery file (default: [`files::recovery_path`]); a second instance running beside
    /// another takes the next free slot next to it (`recovery-1.ron` …).
    pub recovery_file: Option<PathBuf>,
    /// Never try the native file dialog: ask for paths in the app (as when there is no desktop
    /// portal, which is also detected).
    pub no_portal: bool,
}

/// The settings an earlier session saved, applied to `app`; on a first start (no settings
/// saved, or none since lessons came) the first lesson is offered, unless the app was started
/// to do something else. The window and the page both start this way.
pub(super) fn restore(
    app: &mut PathlabApp,
    storage: Option<&dyn eframe::Storage>,
    first_start: bool,
) {
    let Some(storage) = storage else { return };
    let saved = eframe::get_value::<Settings>(storage, "settings");
    let plain = app.opts.screenshot.is_none() && !app.opts.scrub_test && first_start;
    app.parts
        .of_mut::<crate::app::features::lesson::Lessons>()
        .offer = plain && !saved.as_ref().is_some_and(|s| s.lessons_offered);
    if let Some(saved) = saved {
        saved.apply(app);
    }
}

/// The options a page's link asks for in its hash: `#lesson=3` opens lesson 3 at its first
/// step, as `--lesson 3` does; `#example=maze` opens the shipped example `maze` (File ▸
/// Examples, named by its file without the ending). A hash that names nothing pathlab knows is
/// refused with why (the page then opens as with no hash, and says so).
// Only the page reads a link (src/app/web.rs); the tests below read it everywhere.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(super) fn from_link(hash: &str) -> Result<Options, String> {
    let hash = hash.trim_start_matches('#');
    let mut opts = Options::default();
    if hash.is_empty() {
        return Ok(opts);
    }
    let count = crate::lessons::FILES.len();
    let lessons = format!("#lesson=1 to #lesson={count}");
    let stem = |file: &str| file.split('.').next().unwrap_or(file).to_string();
    let examples: Vec<String> = (crate::examples::EXAMPLES.iter())
        .map(|e| stem(e.file))
        .collect();
    match hash.split_once('=') {
        Some(("example", name)) => match examples.iter().position(|e| e == name) {
            Some(i) => {
                opts.example = Some(i);
                Ok(opts)
            }
            None => Err(format!("#{hash}: the examples are {}", examples.join(", "))),
        },
        Some(("lesson", n)) => match n.parse::<usize>() {
            Ok(n) if (1..=count).contains(&n) => {
                opts.lesson = Some(n);
                Ok(opts)
            }
            _ => Err(format!("#{hash}: there are {count} lessons ({lessons})")),
        },
        _ => Err(format!(
            "#{hash}: a link can name a lesson ({lessons}) or an example (#example=maze)"
        )),
    }
}

/// Opens the window and blocks until it is closed.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(opts: Options) -> Result<(), String> {
    // With software rendering (Mesa's llvmpipe: CI, virtual machines, no GPU), every egui shape
    // samples the font atlas, which egui marks for bilinear filtering. Nearest filtering draws
    // the same pixels, because egui aligns glyphs and shapes to the pixel grid (a screenshot
    // differs in about 400 pixels, all on anti-aliased disc edges), and saves 2 to 3 ms a frame
    // at 1280 × 800. A big map shrunk to fit is then sampled nearest too. Other drivers ignore
    // the variable, and a value the user set is kept. Set before any thread starts.
    if std::env::var_os("LP_PERF").is_none() {
        std::env::set_var("LP_PERF", "no_linear");
    }
    let mut native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("pathlab")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 420.0])
            .with_drag_and_drop(true),
        // Headless screenshots and frame-time checks must not reuse a window size saved by an
        // earlier session.
        persist_window: opts.screenshot.is_none() && !opts.scrub_test,
        // The palette is flat colours, which need no dithering; with software rendering the
        // per-pixel noise cost about 1.5 ms a frame at 1280 × 800.
        dithering: false,
        // The 3D view needs a depth buffer (without one, back faces show through).
        depth_buffer: 24,
        ..Default::default()
    };
    // Headless runs neither read nor write the user's saved state: eframe loads egui's memory
    // (panel widths, open sections) from its storage whatever `persist_window` says, so a
    // screenshot would follow whatever layout the last session left. A file of their own,
    // removed afterwards, keeps them to the defaults.
    let headless = (opts.screenshot.is_some() || opts.scrub_test)
        .then(|| std::env::temp_dir().join(format!("pathlab-headless-{}.ron", std::process::id())));
    native.persistence_path = headless.clone();
    // Frame-time checks measure the app, not the wait for the display's refresh.
    native.glow_options.vsync = !(opts.frame_log || opts.scrub_test);
    // A file named on the command line is read before any window opens: one that does not
    // load ends the program with its error and a non-zero exit, as every command does.
    let mut opts = opts;
    let opened = match opts.file.take() {
        Some(f) => {
            let rules = (Connectivity::default(), TerrainRule::default());
            Some((files::load(&f, rules)?, f))
        }
        None => None,
    };
    // A screenshot over a file just read is refused before any window opens (the writer would
    // refuse it too, after the frames were drawn).
    for shot in opts.screenshot.iter().chain(&opts.svg) {
        crate::map::io::check_output(shot).map_err(|e| e.to_string())?;
        // The traces are read once the window is up: checked here by name.
        let at = crate::map::io::resolve(shot);
        if let Some(t) = opts
            .traces
            .iter()
            .find(|t| crate::map::io::resolve(t) == at)
        {
            return Err(crate::map::io::IoError::Overwrite { file: t.clone() }.to_string());
        }
    }
    // The world the app opens on: the file's, the moving scene's voxels, or the built-in
    // squares. Options that do not fit it are refused, never ignored.
    let world = match (&opened, opts.scene3d) {
        (Some((l, _)), _) => l.world,
        (None, true) => crate::world::Family::Voxel {
            moves: crate::space::VoxelMoves::Six,
        },
        (None, false) => crate::world::Family::default(),
    };
    let specs = opts.algo.iter().map(|s| ("--algo", s));
    for (flag, spec) in specs.chain(opts.beside.iter().map(|s| ("--beside", s))) {
        AlgoChoice::from_spec(spec).map_err(|e| format!("{flag}: {e}"))?;
        let name = spec.split(':').next().unwrap_or(spec);
        crate::open::check_runs_on(name, world).map_err(|e| format!("{flag}: {e}"))?;
    }
    if let Some(n) = opts.lesson {
        let count = crate::lessons::FILES.len();
        if n == 0 || n > count {
            return Err(format!(
                "--lesson {n}: there are {count} lessons (1 to {count})"
            ));
        }
    }
    let names = crate::app::parts::Parts::default().window_names();
    if let Some(w) = opts.windows.iter().find(|w| !names.contains(&w.as_str())) {
        return Err(format!(
            "--window {w}: no such window (one of: {})",
            names.join(", ")
        ));
    }
    if let Some((views, _)) = &opts.crowd {
        for v in views {
            crate::app::features::crowd::Panel::parse(v).map_err(|e| format!("--crowd: {e}"))?;
        }
        if !world.walked_by_crowds() {
            return Err(format!(
                "--crowd: crowds walk square maps, and this is a {} world",
                world.name()
            ));
        }
    }
    if opts.compare_knowledge.is_some() && !world.keeps_knowledge() {
        return Err(format!(
            "--compare-knowledge: cognitive maps need a hex world, and this is a {} world",
            world.name()
        ));
    }
    let failed: Arc<Mutex<Option<String>>> = Arc::default();
    let fail = failed.clone();
    let result = eframe::run_native(
        "pathlab",
        native,
        Box::new(move |cc| {
            let (algo, beside) = (opts.algo.clone(), opts.beside.clone());
            let first_start = opts.file.is_none() && opts.traces.is_empty() && !opts.scene3d;
            let mut app = PathlabApp::new(opts);
            if let Some((l, f)) = opened {
                let own_views = !l.algorithms.is_empty();
                app.open_loaded(&f, l);
                // A project brings its own views; what the command line names still counts
                // (checked above): `--algo` sets the first view, `--beside` adds after them.
                if own_views {
                    use crate::app::command::Command;
                    if let Some(Ok(c)) = algo.as_deref().map(AlgoChoice::from_spec) {
                        app.apply(Command::SetAlgorithm(0, c));
                    }
                    for c in beside.iter().filter_map(|s| AlgoChoice::from_spec(s).ok()) {
                        app.apply(Command::AddView(c));
                    }
                }
            }
            app.shots.failure = fail;
            restore(&mut app, cc.storage, first_start);
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| format!("cannot open the window: {e}"));
    if let Some(p) = headless {
        let _ = std::fs::remove_file(p);
    }
    result?;
    let failure = failed.lock().map(|f| f.clone()).unwrap_or(None);
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::from_link;

    #[test]
    fn a_link_names_a_lesson_or_is_refused_with_why() {
        let count = crate::lessons::FILES.len();
        assert_eq!(from_link("").unwrap().lesson, None);
        assert_eq!(from_link("#lesson=1").unwrap().lesson, Some(1));
        assert_eq!(
            from_link(&format!("#lesson={count}")).unwrap().lesson,
            Some(count)
        );
        let many = format!("there are {count} lessons (#lesson=1 to #lesson={count})");
        assert_eq!(
            from_link("#lesson=0").unwrap_err(),
            format!("#lesson=0: {many}")
        );
        let past = format!("#lesson={}", count + 1);
        assert_eq!(from_link(&past).unwrap_err(), format!("{past}: {many}"));
        assert_eq!(
            from_link("#lesson=x").unwrap_err(),
            format!("#lesson=x: {many}")
        );
        // Examples by their file's name; every shipped one can be linked.
        for (i, e) in crate::examples::EXAMPLES.iter().enumerate() {
            let name = e.file.split('.').next().unwrap();
            assert_eq!(
                from_link(&format!("#example={name}")).unwrap().example,
                Some(i)
            );
        }
        assert_eq!(from_link("#example=maze").unwrap().example, Some(4));
        let e = from_link("#example=mazes").unwrap_err();
        assert!(
            e.starts_with("#example=mazes: the examples are default, flood-vs-aim,"),
            "{e}"
        );
        assert_eq!(
            from_link("#map=x").unwrap_err(),
            format!(
                "#map=x: a link can name a lesson (#lesson=1 to #lesson={count}) or an example \
                 (#example=maze)"
            )
        );
    }
}

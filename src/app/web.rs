//! The page: the app in a browser, drawn by eframe's web runner with WebGL2 (glow) on the
//! `<canvas id="pathlab">` of `web/index.html`; `web/build.sh` builds the site (docs/web.md).
//!
//! A link can name a lesson: `#lesson=3` opens lesson 3 at its first step, as `--lesson 3`
//! does on the desktop. A hash that names nothing pathlab knows is said in the status line.

use super::{launch, Options, PathlabApp};
use eframe::wasm_bindgen::JsCast as _;
use wasm_bindgen::prelude::wasm_bindgen;

/// The canvas the page draws on, and the line that shows while the module loads (and why the
/// app could not start, if it could not).
const CANVAS: &str = "pathlab";
const STATUS: &str = "pathlab-status";

/// Starts the app on the page's canvas; the JS glue calls this once the module is loaded.
#[wasm_bindgen(start)]
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        let outcome = run().await;
        let Some(line) = document().and_then(|d| d.get_element_by_id(STATUS)) else {
            return;
        };
        match outcome {
            Ok(()) => line.remove(),
            Err(e) => line.set_text_content(Some(&format!("pathlab could not start: {e}"))),
        }
    });
}

fn document() -> Option<eframe::web_sys::Document> {
    eframe::web_sys::window()?.document()
}

async fn run() -> Result<(), String> {
    let canvas = document()
        .and_then(|d| d.get_element_by_id(CANVAS))
        .ok_or_else(|| format!("the page has no <canvas id=\"{CANVAS}\">"))?
        .dyn_into::<eframe::web_sys::HtmlCanvasElement>()
        .map_err(|_| format!("#{CANVAS} is not a <canvas>"))?;
    let (opts, note) = match launch::from_link(&eframe::web::location_hash()) {
        Ok(opts) => (opts, None),
        Err(e) => (Options::default(), Some(e)),
    };
    let web = eframe::WebOptions {
        // As on the desktop (launch.rs): flat colours need no dithering.
        dithering: false,
        // The 3D view needs a depth buffer.
        depth_buffer: 24,
        ..Default::default()
    };
    eframe::WebRunner::new()
        .start(
            canvas,
            web,
            Box::new(move |cc| {
                // A page has no file system: what the app writes is downloaded, and picked
                // files wake it when they have been read.
                crate::map::io::write_files_to(super::web_files::download);
                super::web_files::wake_with(&cc.egui_ctx);
                // Sliced jobs run in the frames: ask for the next while work remains.
                let ctx = cc.egui_ctx.clone();
                super::jobs::wake_with(move || ctx.request_repaint());
                let first_start = opts.lesson.is_none() && opts.example.is_none();
                let mut app = PathlabApp::new(opts);
                launch::restore(&mut app, cc.storage, first_start);
                if let Some(note) = note {
                    app.status = note;
                }
                Ok(Box::new(app))
            }),
        )
        .await
        .map_err(|e| {
            e.as_string()
                .unwrap_or_else(|| "the web runner refused the canvas".into())
        })
}

/// A\* on a MovingAI map and scenario (every `every`-th problem), timed in the page: the
/// search `pathlab bench --algo astar` times on the desktop (octile moves, one search reset
/// per query). CI's web check calls this from the page for docs/web.md's speed table; it
/// returns `queries Q correct C expanded E seconds S expansions_per_s X`.
#[wasm_bindgen]
pub fn bench_astar(map: &str, scen: &str, every: u32) -> Result<String, String> {
    use crate::search::{AStar, Query, Search, SearchState, Status};
    use crate::space::{GridSpace, Heuristic};
    use crate::trace::NullTracer;
    use std::path::Path;
    let grid = crate::map::io::parse_map(map, Path::new("map")).map_err(|e| e.to_string())?;
    let problems =
        crate::map::io::parse_scen(scen, Path::new("scen")).map_err(|e| e.to_string())?;
    let space = GridSpace::octile(&grid);
    let node = |(x, y): (u32, u32)| space.node(x, y).ok_or(format!("({x}, {y}) is off the map"));
    let (mut queries, mut correct, mut expanded) = (0u64, 0u64, 0u64);
    let mut search: Option<AStar> = None;
    let t0 = web_time::Instant::now();
    for p in problems.iter().step_by(every.max(1) as usize) {
        let q = Query {
            start: node(p.start)?,
            goal: node(p.goal)?,
        };
        let a = match &mut search {
            Some(a) => {
                a.reset(&space, q);
                a
            }
            None => search.insert(AStar::new(&space, q, Heuristic::Octile)),
        };
        let found = a.run(&space, &mut NullTracer) == Status::Found;
        queries += 1;
        correct += u64::from(found && a.cost().is_some_and(|c| p.is_optimal(c)));
        expanded += a.stats().expanded;
    }
    let s = t0.elapsed().as_secs_f64();
    Ok(format!(
        "queries {queries} correct {correct} expanded {expanded} seconds {s:.3} \
         expansions_per_s {:.0}",
        expanded as f64 / s.max(1e-9)
    ))
}

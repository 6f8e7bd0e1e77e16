//! Rahmani 2020's GPS of the brain in the app, driven as a user would on a hex world: a
//! cognitive map built from the panel, painted with the Know tool and undone, saved and opened
//! again; compare views at 0, 50 and 100% known, each walk the core's walk on the core's map;
//! the walk stepped back and forth; the experiment's chart equal to the core's ratios.

use crate::common;

use common::{app_for, harness};
use eframe::egui;
use egui_kittest::kittest::Queryable;
use pathlab::app::AlgoChoice;
use pathlab::app::Command;
use pathlab::experiment::dynamic::{DynamicMap, MapKind};
use pathlab::experiment::gps_run::{self, build_knowledge, HexWorld};
use pathlab::map::{hexes_from_square, HexFill};
use pathlab::project::{write_project, Project};
use pathlab::search::gps::{self, Exploring, Options, Walking};
use pathlab::space::{HexOrientation, HexSpace, Space, TerrainRule};
use pathlab::world::Family;
use std::path::PathBuf;

/// A Mäntysalo 2024 room map as pointy hexes (one cell apart), saved as a project with start
/// and goal far apart in its largest part.
fn hex_project(test: &str) -> (PathBuf, HexWorld) {
    let dir = crate::support::scratch_root().join(format!("pathlab-gps-{test}"));
    std::fs::create_dir_all(&dir).unwrap();
    let square = DynamicMap::generate(MapKind::Room, 48, 2).initial_grid();
    let o = HexOrientation::Pointy;
    let hexes = hexes_from_square(&square, o, 1.0, HexFill::AnyBlocked).unwrap();
    let w = HexWorld::of(HexSpace::new(&hexes, o, 1.0, TerrainRule::Class));
    let mut p = Project::new(&hexes);
    p.world = Family::Hex {
        orientation: o,
        pitch: 1.0,
    };
    p.start = Some(w.space.xy(w.cells[5]));
    p.goal = Some(w.space.xy(w.cells[w.cells.len() - 5]));
    p.algorithms[0].name = "gps".into();
    let file = dir.join("rooms-hex.ron");
    write_project(&p, &file).unwrap();
    (file, w)
}

#[test]
fn knowledge_is_built_painted_saved_and_compared_like_the_core() {
    let (file, w) = hex_project("levels");
    let mut h = harness(app_for("gps-levels"));
    h.run();
    h.state_mut().open_now(&file).unwrap();
    h.run();
    assert_eq!(h.state().views()[0].run.choice.info.name, "gps");
    h.get_by_label_contains("walkable hexes known (0%)");

    // Build 50% from the panel: exactly half the walkable hexes known, as the core builds it.
    h.get_by_label("Build").click();
    h.run();
    let p = Exploring { delta: -0.5, c: 5 };
    let (want, _) = build_knowledge(&w, 0.5, p, 5, 1);
    assert_eq!(h.state().doc().knowledge(), Some(&want));
    let known = w.cells.iter().filter(|&&c| want.known(c)).count();
    assert_eq!(known, (w.cells.len() as f64 * 0.5).round() as usize);
    h.get_by_label_contains(&format!("{known} of {} walkable hexes", w.cells.len()));

    // The Know tool: a drag across hexes adds a visit to each; undo takes the stroke back.
    let app = h.state();
    let (a, b) = (w.space.xy(w.cells[20]), w.space.xy(w.cells[24]));
    let (pa, pb) = (
        app.cam().centre(app.view_rects()[0], a),
        app.cam().centre(app.view_rects()[0], b),
    );
    h.get_by_label("Know").click();
    h.run();
    common::press_and_move(&mut h, pa, pb);
    h.drop_at(pb);
    h.run();
    let painted = h.state().doc().knowledge().cloned().unwrap();
    let more: Vec<usize> = (0..want.counters.len())
        .filter(|&i| painted.counters[i] != want.counters[i])
        .collect();
    assert!(!more.is_empty(), "the stroke visited hexes");
    for &i in &more {
        assert_eq!(
            painted.counters[i],
            (want.counters[i] + 1).min(5),
            "hex {i}"
        );
    }
    for n in [w.cells[20], w.cells[24]] {
        let i = n as usize;
        assert_eq!(
            painted.counters[i],
            (want.counters[i] + 1).min(5),
            "the stroke's ends"
        );
    }
    h.state_mut().undo();
    h.run();
    assert_eq!(
        h.state().doc().knowledge(),
        Some(&want),
        "undo takes the stroke back"
    );

    // Saved and opened again, the cognitive map comes back.
    let saved = file.with_file_name("saved.ron");
    h.state_mut().save_to(&saved);
    h.state_mut().open_now(&saved).unwrap();
    h.run();
    assert_eq!(h.state().doc().knowledge(), Some(&want));

    // Compare views at 0, 50 and 100%: each walk is the core's, on the core's map.
    h.state_mut()
        .apply(Command::SetTool(pathlab::app::Tool::Select));
    h.get_by_label("Compare 0 / 50 / 100% known").click();
    h.run();
    h.state_mut().to_end();
    h.run();
    assert_eq!(h.state().views().len(), 3);
    let (s, g) = (h.state().doc().start, h.state().doc().goal);
    let q = (
        w.space.node(s.0, s.1).unwrap(),
        w.space.node(g.0, g.1).unwrap(),
    );
    let mut lengths = vec![];
    for (i, level) in [0u32, 50, 100].into_iter().enumerate() {
        let own = h.state().views()[i].world.as_ref().expect("its own world");
        assert_eq!(own.knowledge.as_ref().map(|k| k.0), Some(level));
        let (mut map, _) = build_knowledge(&w, level as f64 / 100.0, p, 5, 1);
        assert_eq!(
            own.knowledge.as_ref().map(|k| &*k.1),
            Some(&map),
            "{level}%"
        );
        let how = Walking {
            exploring: p,
            options: Options::default(),
            limit: 20 * w.space.num_nodes() + 100,
        };
        let walk = gps::gps_walk(&w.space, &mut map, q.0, q.1, how, 1);
        let run = &h.state().views()[i].run;
        assert_eq!(run.path(), Some(&walk.cells[..]), "{level}%");
        assert!((run.cost().unwrap() - walk.length).abs() < 1e-9);
        lengths.push(walk.length);
    }
    assert!(
        lengths[2] <= lengths[0],
        "knowing the map shortens the walk: {lengths:?}"
    );

    // The inspector on a hex the 100% view's plans expanded: its h, the counter heuristic's,
    // is what f holds beyond g (it was left blank).
    let seen = {
        let run = h.state_mut().run_mut(2);
        let end = run.event_cursor();
        w.cells.iter().copied().find_map(|c| {
            let i = run.rec.node_info(c, end);
            (i.f.is_finite() && i.g.is_finite()).then_some((c, i.f - i.g))
        })
    };
    let (c, hv) = seen.expect("the known map's plans expand hexes");
    h.state_mut().apply(Command::SetActive(2));
    // A knowledge level's view is inspected in its own world.
    h.state_mut().apply(Command::SelectInView(2, w.space.xy(c)));
    h.run();
    h.get_by_label(&format!("{hv:.3} (counter, f − g of its plan)"));

    // The Know tool on a knowledge level's view says why it paints nothing there, and the
    // document's map stays as it was.
    let before = h.state().doc().knowledge().cloned();
    h.state_mut()
        .apply(Command::SetTool(pathlab::app::Tool::Know));
    let at = {
        let app = h.state();
        let own = app.views()[1].world.as_ref().unwrap();
        own.cam.centre(app.view_rects()[1], own.start)
    };
    h.hover_at(at);
    h.drag_at(at);
    h.drop_at(at);
    h.run();
    h.get_by_label_contains("its own cognitive map");
    assert_eq!(h.state().doc().knowledge().cloned(), before);
    h.state_mut()
        .apply(Command::SetTool(pathlab::app::Tool::Select));
    h.run();

    // Back and forth: the timeline steps through the first view's walk.
    let steps = h.state_mut().run_mut(0).steps();
    h.state_mut().go_to(steps / 2, false);
    h.run();
    h.get_by_label("<").click();
    h.run();
    assert_eq!(h.state().views()[0].run.shown, steps / 2 - 1);
    h.get_by_label(">").click();
    h.run();
    assert_eq!(h.state().views()[0].run.shown, steps / 2);

    // A step that chose a direction: the 0% view zoomed onto it, for a look at its cone.
    if let Some(dir) = std::env::var_os("PATHLAB_WALK_SHOTS") {
        let choice = {
            let run = h.state_mut().run_mut(0);
            (0..steps).find(|&k| {
                let i = run.rec.step_start(k);
                k > 10 && run.rec.get(i).map(|e| e.kind) == Some(pathlab::trace::EventKind::Choice)
            })
        };
        if let Some(k) = choice {
            h.state_mut().go_to(k + 1, false);
            let at = {
                let run = h.state_mut().run_mut(0);
                let i = run.rec.step_start(k);
                let e = run.rec.get(i).unwrap();
                w.space.xy(e.node)
            };
            let rect = h.state().view_rects()[0];
            let cam = h.state_mut().cam_of(0);
            cam.zoom = 28.0;
            cam.offset = egui::Vec2::ZERO;
            let c = cam.centre(rect, at);
            cam.offset = rect.center() - c;
            h.run();
            let dir = PathBuf::from(dir);
            std::fs::create_dir_all(&dir).unwrap();
            if let Ok(img) = h.render() {
                img.save(dir.join("gps-cone.png")).unwrap();
            }
        }
    }

    // The experiment from the panel: the chart holds the core's mean ratios.
    h.get_by_label("Run the experiment").click();
    h.run();
    let setup = gps_run::Setup {
        knowledge: vec![0, 25, 50, 75, 100],
        runs: 20,
        params: p,
        c_max: 5,
        seed: 1,
        options: Options::default(),
        limit_factor: 50,
    };
    let (rows, _) = gps_run::run(&w, &setup).unwrap();
    let means = gps_run::mean_ratios(&rows, &setup.knowledge);
    assert_eq!(h.state().knowledge().chart.as_ref(), Some(&means));
    assert!(means[0].1 > means[4].1, "{means:?}");
    // The chart has a window of its own, wide enough for its axis, and says why 0% differs
    // from the thesis's 3.6, with pathlab's mean.
    h.run();
    h.get_by_label("GPS of the brain: path length / A* by knowledge");
    h.get_by_label_contains(&format!("pathlab's mean here is {:.2}", means[0].1));
    assert!(h.state().knowledge().chart_open, "the chart opened");
    if let Some(dir) = std::env::var_os("PATHLAB_WALK_SHOTS") {
        if let Ok(img) = h.render() {
            img.save(PathBuf::from(dir).join("gps-chart.png")).unwrap();
        }
    }
}

#[test]
fn the_gps_planner_is_offered_on_hexes_only() {
    let mut h = harness(app_for("gps-menu"));
    h.run();
    // The built-in square map: the registry refuses GPS there, with one clear line.
    h.state_mut().set_algorithm(0, AlgoChoice::named("gps"));
    h.run();
    assert_ne!(h.state().views()[0].run.choice.info.name, "gps");
    assert!(
        h.state().status().contains("does not run on square grids"),
        "{}",
        h.state().status()
    );
    let _ = egui::Pos2::ZERO;
}

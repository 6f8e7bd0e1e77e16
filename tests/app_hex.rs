//! The app on hex worlds, driven as a user would: turn the built-in map into hexes from the
//! panel, paint a hex with the brush, step forward and back, undo, read the inspector; and a
//! compare view that searches the square map as hexes. Values are checked against the core.

use crate::common;

use common::{app_for, harness, settle};
use eframe::egui;
use egui_kittest::kittest::Queryable;
use pathlab::app::{AgentCommand, Command};
use pathlab::map::Cell;
use pathlab::search::{AStar, Query, Search, SearchState};
use pathlab::space::{Heuristic, HexSpace, TerrainRule};
use pathlab::trace::NullTracer;
use pathlab::world::Family;

/// With `PATHLAB_WALK_SHOTS=DIR`, a PNG of the app at this stage (through wgpu).
fn shot(h: &mut egui_kittest::Harness<'_, pathlab::app::PathlabApp>, name: &str) {
    let Some(dir) = std::env::var_os("PATHLAB_WALK_SHOTS") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    match h.render() {
        Ok(img) => img.save(dir.join(format!("{name}.png"))).unwrap(),
        Err(e) => eprintln!("no picture of {name}: {e}"),
    }
}

/// A* from the core on the app's hex world: the oracle.
fn core_hex_astar(app: &pathlab::app::PathlabApp) -> (HexSpace, AStar) {
    let Family::Hex { orientation, pitch } = app.doc().world else {
        panic!("a hex world");
    };
    let sp = HexSpace::new(&app.doc().grid, orientation, pitch, TerrainRule::Class);
    let q = Query {
        start: sp.node(app.doc().start.0, app.doc().start.1).unwrap(),
        goal: sp.node(app.doc().goal.0, app.doc().goal.1).unwrap(),
    };
    let mut a = AStar::new(&sp, q, Heuristic::Native);
    a.run(&sp, &mut NullTracer);
    (sp, a)
}

#[test]
fn hexes_from_the_panel_paint_step_undo_and_inspect_like_the_core() {
    let mut h = harness(app_for("hex-panel"));
    h.run();
    h.get_by_label("World: squares (to other worlds)").click();
    h.run();
    shot(&mut h, "hex-01-panel");
    h.get_by_label("Turn into hexes").click();
    h.run();
    h.run();
    assert!(matches!(h.state().doc().world, Family::Hex { .. }));
    assert!(h.state().space().as_hex().is_some());
    h.get_by_label_contains("hexes: a new, unsaved project");

    // Step forward three, back one: the cursor follows, as on squares.
    for _ in 0..3 {
        h.get_by_label(">").click();
        h.run();
    }
    assert_eq!(h.state().cursor(), 3);
    h.get_by_label("<").click();
    h.run();
    assert_eq!(h.state().cursor(), 2);

    // At the end: the cost and expansions are the core's.
    h.get_by_label(">|").click();
    h.run();
    let (sp, a) = core_hex_astar(h.state());
    let cost = a.cost().expect("a path on hexes");
    h.get_by_label_contains(&format!("cost {cost:.3}"));
    assert_eq!(h.state().cursor() as u64, a.stats().expanded);

    // The inspector on a closed hex off the path shows the core's g.
    let path = a.path().unwrap().to_vec();
    let n = *h.state().views()[0]
        .run
        .series
        .node
        .iter()
        .rev()
        .find(|n| !path.contains(n))
        .unwrap();
    h.state_mut().apply(Command::Select(Some(sp.xy(n))));
    h.run();
    shot(&mut h, "hex-02-end-inspected");
    if std::env::var_os("PATHLAB_WALK_SHOTS").is_some() {
        // Zoomed in: g of each reached hex as a label, parent arrows.
        h.state_mut().apply(Command::Zoom(48.0));
        h.run();
        shot(&mut h, "hex-02b-zoomed");
        h.state_mut().apply(Command::Fit);
        h.run();
    }
    h.get_by_label("closed");
    h.get_by_label(&format!("{:.3}", a.g(n).unwrap()));

    // Brush a wall on a hex of the path, where the hex view draws it: the world changes there.
    let before = h.state().doc().grid.clone();
    let target = sp.xy(path[path.len() / 2]);
    h.state_mut()
        .apply(Command::SetTool(pathlab::app::Tool::Brush));
    h.state_mut().apply(Command::SetMaterial(b'@'));
    h.run();
    // Three quarters of the way from the hex's centre to its bottom corner: inside this hex,
    // but in the next row's band of the offset grid, so only true hexagon picking paints it.
    let Family::Hex { orientation, .. } = h.state().doc().world else {
        panic!("a hex world");
    };
    let (cx, cy) = orientation.centre(target.0, target.1, 1.0);
    let (bx, by) = orientation.corners(target.0, target.1, 1.0)[3];
    let zoom = h.state().cam().zoom;
    let at = h.state().cam().centre(h.state().view_rects()[0], target)
        + egui::vec2((bx - cx) as f32, (by - cy) as f32) * 0.75 * zoom;
    h.hover_at(at);
    h.run();
    h.drag_at(at);
    h.run();
    h.hover_at(at + egui::vec2(0.5, 0.0));
    h.run();
    h.drop_at(at + egui::vec2(0.5, 0.0));
    h.run();
    assert_eq!(
        h.state().doc().grid.get(target.0, target.1).map(|c| c.tile),
        Some(Cell::WALL.tile),
        "the hex under the pointer was painted"
    );
    h.get_by_label(">|").click();
    h.run();
    let (sp2, detour) = core_hex_astar(h.state());
    let around = detour.cost().unwrap();
    let blocked = sp2.node(target.0, target.1).unwrap();
    assert!(around >= cost && !detour.path().unwrap().contains(&blocked));
    h.get_by_label_contains(&format!("cost {around:.3}"));
    shot(&mut h, "hex-03-wall");
    let shown = h.state().views()[0].run.path().unwrap().to_vec();
    assert!(
        !shown.contains(&blocked),
        "the app's path goes around the new wall"
    );

    // Undo brings the map and the cost back.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(h.state().doc().grid, before);
    h.get_by_label(">|").click();
    h.run();
    h.get_by_label_contains(&format!("cost {cost:.3}"));

    // A rectangle over hexes: while dragging, the hexes it will fill are outlined; on release
    // exactly the hexes of that offset-grid rectangle turn to wall.
    h.state_mut()
        .apply(Command::SetTool(pathlab::app::Tool::Rect));
    let (a, b) = ((2u32, 2u32), (5u32, 4u32));
    let pa = h.state().cam().centre(h.state().view_rects()[0], a);
    let pb = h.state().cam().centre(h.state().view_rects()[0], b);
    common::press_and_move(&mut h, pa, pb);
    shot(&mut h, "hex-03b-rectangle");
    h.drop_at(pb);
    h.run();
    let g = &h.state().doc().grid;
    for y in 0..g.height() {
        for x in 0..g.width() {
            let inside = (a.0..=b.0).contains(&x) && (a.1..=b.1).contains(&y);
            if inside {
                assert_eq!(g.get(x, y).unwrap().tile, b'@', "({x}, {y}) filled");
            }
        }
    }
}

#[test]
fn a_compare_view_searches_the_square_map_as_hexes() {
    let mut h = harness(app_for("hex-compare"));
    h.run();
    h.get_by_label("World: squares (to other worlds)").click();
    h.run();
    h.get_by_label("+ Compare on hexes").click();
    h.run();
    h.get_by_label(">|").click();
    h.run();
    shot(&mut h, "hex-04-compare");
    let app = h.state();
    assert_eq!(app.views().len(), 2);
    assert_eq!(app.doc().world, Family::Square, "the document stays square");
    let w = app.views()[1]
        .world
        .as_ref()
        .expect("view 2 has its own world");
    // The core's A* on the same hexes, from the same start and goal.
    let sp = w.space.as_hex().unwrap();
    let mut a = AStar::new(sp, w.query(), Heuristic::Native);
    a.run(sp, &mut NullTracer);
    assert_eq!(app.views()[1].run.cost(), a.cost());
    assert_eq!(app.views()[1].run.stats().expanded, a.stats().expanded);
    // The square view is the square search still.
    let (sq_cost, _) = common::core_astar();
    assert_eq!(app.views()[0].run.cost(), Some(sq_cost));

    // The hex view inspects its own hexes: a hex its A* closed, under the pointer, shows the
    // core's g; clicked, it stays selected when the pointer leaves.
    let path = a.path().unwrap().to_vec();
    let n = *app.views()[1]
        .run
        .series
        .node
        .iter()
        .rev()
        .find(|n| !path.contains(n))
        .unwrap();
    let (hx, hy) = sp.xy(n);
    let g = a.g(n).unwrap();
    let Family::Hex { .. } = w.family else {
        panic!("hexes")
    };
    let at = w.cam.centre(app.view_rects()[1], (hx, hy));
    h.hover_at(at);
    h.run();
    h.get_by_label_contains(&format!("({hx}, {hy})"));
    h.get_by_label(&format!("{g:.3}"));
    h.get_by_label("closed");
    h.drag_at(at);
    h.drop_at(at);
    h.run();
    h.remove_cursor();
    h.run();
    assert_eq!(h.state().world_selected(), Some((1, (hx, hy))));
    h.get_by_label(&format!("{g:.3}"));
    // A brush stroke there says where edits are made.
    h.state_mut()
        .apply(Command::SetTool(pathlab::app::Tool::Brush));
    h.hover_at(at);
    h.drag_at(at);
    h.drop_at(at);
    h.run();
    h.get_by_label_contains("searches a world of its own");
}

/// Dynamic obstacles and agents on a hex world: D* Lite's agent walks to the goal while wall
/// blocks flip, every repair agreeing with A* from scratch (the oracle badge), and stopping
/// gives the hex map back as it was.
#[test]
fn agents_cross_a_flipping_hex_world_with_dstar_lite() {
    let mut h = harness(app_for("hex-agents"));
    h.run();
    h.get_by_label("World: squares (to other worlds)").click();
    h.run();
    h.get_by_label("Turn into hexes").click();
    h.run();
    h.state_mut()
        .set_algorithm(0, pathlab::app::AlgoChoice::named("dstar-lite"));
    let before = h.state().doc().grid.clone();
    {
        let app = h.state_mut();
        app.apply(Command::Agents(AgentCommand::Settings {
            ticks_per_sec: 200.0,
            every: 2,
            percent: 30.0,
        }));
    }
    h.run();
    h.get_by_label("Send agents").click();
    let mut checked = 0;
    for _ in 0..400 {
        h.step();
        if let Some(o) = &h.state().views()[0].run.oracle {
            assert!(o.agrees(), "{}", o.text());
            checked += 1;
        }
        if h.state().sim().agents.iter().all(|a| a.arrived) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let sim = &h.state().sim();
    assert!(sim.agents[0].arrived, "{}", sim.summary());
    assert_eq!(sim.agents[0].at, h.state().doc().goal);
    assert!(!sim.agents[0].recompute_ms.is_empty(), "it replanned");
    assert!(checked > 0, "repairs were checked against A*");
    h.get_by_label("Stop").click();
    settle(&mut h);
    assert_eq!(h.state().doc().grid, before);
}

/// Turning the built-in map into hexes keeps its walls walls (no hex move crosses a wall of
/// the squares), drops a "Compare on hexes" view that would now repeat view 1, and Undo brings
/// the square map back; the looser "centre cell" fill says how many moves it lets through.
#[test]
fn hexes_keep_walls_and_undo_goes_back_to_the_squares() {
    let mut h = harness(app_for("hex-undo"));
    h.run();
    let square = h.state().doc().grid.clone();
    h.get_by_label("World: squares (to other worlds)").click();
    h.run();
    // Each click starts searches, which under load take more frames than `run` allows.
    h.get_by_label("+ Compare on hexes").click();
    settle(&mut h);
    assert_eq!(h.state().views().len(), 2);
    h.get_by_label("Turn into hexes").click();
    settle(&mut h);
    let Family::Hex { orientation, pitch } = h.state().doc().world else {
        panic!("a hex world");
    };
    let crossings =
        pathlab::map::wall_crossings(&square, &h.state().doc().grid, orientation, pitch);
    assert_eq!(crossings, 0, "hex moves through walls");
    assert_eq!(h.state().views().len(), 1, "the twin view stays");
    // A* on hexes goes round the walls: no cheaper than on the squares it was made from.
    let (_, a) = core_hex_astar(h.state());
    let (square_cost, _) = common::core_astar();
    assert!(a.cost().unwrap() >= square_cost * 0.95, "{:?}", a.cost());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(h.state().doc().world, Family::Square);
    assert_eq!(h.state().doc().grid, square);
    h.get_by_label_contains("back to the square map");

    // The centre-cell fill leaks through the built-in map's thin walls, and says so.
    h.get_by_label("centre cell").click();
    h.run();
    h.get_by_label("+ Compare on hexes").click();
    h.run();
    h.get_by_label_contains("hex moves pass through walls of the square map");
}

/// File ▸ Examples opens each teaching map with its views, unsaved to any file.
#[test]
fn the_examples_open_from_the_file_menu() {
    let mut h = harness(app_for("examples"));
    h.run();
    for (i, e) in pathlab::examples::EXAMPLES.iter().enumerate() {
        h.get_by_label("File").click();
        h.run();
        h.get_by_label("Examples").hover();
        h.run();
        h.get_by_label(e.title).click();
        h.run();
        let want = pathlab::examples::open(e).unwrap();
        assert_eq!(h.state().doc().grid, want.grid, "example {i}");
        assert!(h.state().doc().path.is_none(), "{}", e.file);
        let names: Vec<&str> = h
            .state()
            .views()
            .iter()
            .map(|v| v.run.choice.info.name)
            .collect();
        if !want.algorithms.is_empty() {
            let want: Vec<&str> = want.algorithms.iter().map(|a| a.name.as_str()).collect();
            assert_eq!(names, want, "{}", e.file);
        }
        h.get_by_label_contains(&format!("Example: {}", e.title));
    }
}

/// A hex world's GPS views at three knowledge levels, then a voxel world opened: every view's
/// run is rebuilt for the voxels (none keeps its hex run), and the GPS views, which voxels
/// refuse, search with A* and say so.
#[test]
fn opening_another_world_rebuilds_every_view() {
    let dir = crate::support::scratch_root().join("pathlab-worlds");
    std::fs::create_dir_all(&dir).unwrap();
    let mut h = harness(app_for("worlds"));
    h.run();
    h.get_by_label("World: squares (to other worlds)").click();
    h.run();
    h.get_by_label("Turn into hexes").click();
    h.run();
    h.state_mut().compare_knowledge(&[0, 50, 100]);
    h.run();
    assert_eq!(h.state().views().len(), 3);
    assert!(h
        .state()
        .views()
        .iter()
        .all(|v| v.run.choice.info.name == "gps"));
    let vox = dir.join("box.3dmap");
    std::fs::write(&vox, "voxel 6 5 4\n2 0 0\n2 1 0\n2 2 0\n").unwrap();
    h.state_mut().open_now(&vox).unwrap();
    h.run();
    h.state_mut().to_end();
    h.run();
    let nodes = h.state().space().num_nodes();
    for (i, v) in h.state().views().iter().enumerate() {
        assert!(v.world.is_none(), "view {i} keeps a hex world");
        assert_eq!(v.run.rec.num_nodes(), nodes, "view {i} keeps its hex run");
        assert_eq!(v.run.choice.info.name, "astar", "view {i}");
        assert!(v.run.cost().is_some(), "view {i} searched the voxels");
    }
    h.get_by_label_contains("A* instead");
    std::fs::remove_dir_all(&dir).unwrap();
}

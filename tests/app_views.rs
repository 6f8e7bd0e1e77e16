//! Views of other worlds, hierarchies, repairs and run files in the app (egui_kittest): a
//! compare view offers its own world's algorithms and names its world; HNA*'s regions leave the
//! search's colours visible, its inspector's f is g + h and its counts agree with its events;
//! D* Lite draws a painted wall as a wall and shows "to repair" only after a change; the
//! statistics give each world's unit; a conversion says which views gave way and undo brings
//! them back; a run file opens as its map, algorithm and endpoints.
#![cfg(feature = "gui")]

use crate::common;

use common::*;
use eframe::egui;
use egui_kittest::kittest::Queryable;
use pathlab::app::{AlgoChoice, Command};
use pathlab::map::{Cell, Edit};
use pathlab::project::{write_project, Project};
use pathlab::space::{NavmeshSpace, TerrainRule};
use pathlab::trace::{EventKind, NodeState};
use pathlab::world::Family;

/// Steps the app until every view's run has recorded to its end (hierarchies build on a
/// thread first), then to the end of the timeline.
fn to_end(h: &mut egui_kittest::Harness<'static, pathlab::app::PathlabApp>) {
    for _ in 0..2000 {
        h.state_mut().apply(Command::ToEnd);
        if !h.state().searching() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(!h.state().searching(), "the runs did not finish");
    h.state_mut().apply(Command::ToEnd);
    h.run();
}

#[test]
fn a_compare_view_offers_its_worlds_algorithms_and_names_its_world() {
    let mut app = default_app();
    // HPA* runs on squares only: the navmesh view takes the hierarchy of its own world.
    app.apply(Command::SetAlgorithm(0, AlgoChoice::named("hpa")));
    let mut h = harness(app);
    h.run();
    h.get_by_label("World: squares (to other worlds)").click();
    h.run();
    h.get_by_label("+ Compare on a navmesh").click();
    h.run();
    assert_eq!(h.state().views().len(), 2, "{}", h.state().status());
    let v = &h.state().views()[1];
    assert_eq!(v.world.as_ref().map(|w| w.family), Some(Family::Navmesh));
    assert_eq!(v.run.choice.info.name, "hna");
    let status = h.state().status().to_string();
    assert!(
        status.contains("a navmesh of") && status.contains("HPA* does not run on navmesh"),
        "{status}"
    );
    assert!(!status.contains("hexes"), "{status}");
    // View 2's list: the navmesh's algorithms (HNA* with PCCP), not the squares' (Theta*).
    h.get_by_value("HNA*").click();
    h.run();
    h.get_by_label("HNA* with PCCP");
    assert!(
        h.query_by_label("Theta*").is_none(),
        "Theta* offered on a navmesh"
    );
    h.key_press(egui::Key::Escape);
    h.run();
    // A vehicle lattice's view is named as one too.
    h.get_by_label("+ Compare on a vehicle lattice").click();
    // The lattice searches for many frames: one frame adds the view.
    h.step();
    let status = h.state().status().to_string();
    assert!(
        status.starts_with("View 3 searches the map as a vehicle lattice of"),
        "{status}"
    );
    // Costs in each world's unit, and a note that they are not comparable.
    to_end(&mut h);
    let cost = |i: usize| h.state().views()[i].run.cost().expect("found");
    h.get_by_label(&format!("{:.3} navmesh units", cost(1)));
    h.get_by_label(&format!("{:.3} s", cost(2)));
    h.get_by_label(&format!("{:.3} cells", cost(0)));
    h.get_by_label_contains("Not comparable: the views search different worlds");
}

/// The built-in map saved as a navmesh project.
fn navmesh_file(name: &str) -> std::path::PathBuf {
    let (grid, start, goal) = pathlab::builtin::default_world();
    let mut p = Project::new(&grid);
    p.start = Some(start);
    p.goal = Some(goal);
    p.world = Family::Navmesh;
    let file = crate::support::scratch_root().join(format!("pathlab-{name}.ron"));
    write_project(&p, &file).unwrap();
    file
}

/// Every filled rectangle painted this frame.
fn filled_rects(out: &egui::FullOutput) -> Vec<(egui::Rect, egui::Color32)> {
    fn walk(s: &egui::Shape, v: &mut Vec<(egui::Rect, egui::Color32)>) {
        match s {
            egui::Shape::Rect(r) if r.fill != egui::Color32::TRANSPARENT => {
                v.push((r.rect, r.fill))
            }
            egui::Shape::Vec(all) => all.iter().for_each(|s| walk(s, v)),
            _ => {}
        }
    }
    let mut v = vec![];
    for c in &out.shapes {
        walk(&c.shape, &mut v);
    }
    v
}

#[test]
fn an_hna_view_keeps_its_search_colours_and_explains_its_numbers() {
    let file = navmesh_file("hna-view");
    let mut app = app_for("hna-view");
    app.open_now(&file).expect("opens");
    app.apply(Command::SetAlgorithm(0, AlgoChoice::named("hna")));
    let mut h = harness(app);
    to_end(&mut h);
    let steps = h.state().views()[0].run.steps();
    h.state_mut().apply(Command::GoTo(steps / 2));
    h.run();
    h.run();
    let (grid, _, _) = pathlab::builtin::default_world();
    let mesh = NavmeshSpace::new(&grid, TerrainRule::Class);
    let (states, k) = {
        let run = h.state_mut().run_mut(0);
        let k = run.event_cursor();
        (run.rec.seek(k).clone(), k)
    };
    let polys = mesh.polygons() as u32;
    let of_state = |s: NodeState| {
        (0..polys)
            .filter(|&p| states.get(p as usize) == s)
            .max_by_key(|&p| {
                let [x0, y0, x1, y1] = mesh.rect(p);
                (x1 - x0) * (y1 - y0)
            })
            .unwrap_or_else(|| panic!("a polygon {s:?} at step {}", steps / 2))
    };
    let (closed, unseen) = (of_state(NodeState::Closed), of_state(NodeState::Unseen));
    let view = h.state().view_rects()[0];
    let screen = |p: u32| {
        let [x0, y0, x1, y1] = mesh.rect(p);
        let cam = h.state().cam();
        let a = cam.centre(view, (x0, y0));
        let b = cam.centre(view, (x1 - 1, y1 - 1));
        let half = (cam.centre(view, (x0 + 1, y0)).x - a.x) / 2.0;
        egui::Rect::from_min_max(a, b).expand(half)
    };
    let tinted = |p: u32| {
        let r = screen(p);
        filled_rects(h.output()).iter().any(|&(f, c)| {
            c.a() < 255 && (f.min - r.min).length() < 1.0 && (f.max - r.max).length() < 1.0
        })
    };
    assert!(tinted(unseen), "an unreached polygon shows its region");
    assert!(!tinted(closed), "a closed polygon's colour is covered");

    // The inspector names the polygon and its graph node, and its h is f − g.
    let [x0, y0, _, _] = mesh.rect(closed);
    h.state_mut().apply(Command::Select(Some((x0, y0))));
    h.run();
    h.get_by_label_contains(&format!("polygon {closed} (cells {x0}–"));
    h.get_by_label_contains("node ");
    let info = h.state_mut().run_mut(0).rec.node_info(closed, k);
    h.get_by_label(&format!(
        "{:.3} (f − g: to the target of the search that reached it last)",
        info.f - info.g
    ));
    // Phases named in a line, each with its steps.
    h.get_by_label_contains("Phases: 1 ");

    // Counts agree with the events recorded: every generation (or improvement) counted, in the
    // connecting searches as in the graph search and the temporary edges.
    to_end(&mut h);
    let run = h.state_mut().run_mut(0);
    let events: Vec<_> = (0..run.rec.len()).filter_map(|i| run.rec.get(i)).collect();
    let count = |k: EventKind| events.iter().filter(|e| e.kind == k).count() as u64;
    let st = run.stats();
    assert_eq!(st.expanded, count(EventKind::Expand));
    assert_eq!(
        st.generated,
        count(EventKind::Generate) + count(EventKind::Update),
        "{st:?}"
    );
    let _ = std::fs::remove_file(&file);
}

#[test]
fn d_star_lite_draws_a_new_wall_as_a_wall_and_repairs_only_after_a_change() {
    let mut app = default_app();
    app.apply(Command::SetAlgorithm(0, AlgoChoice::named("dstar-lite")));
    app.apply(Command::AddView(AlgoChoice::named("astar")));
    let mut h = harness(app);
    to_end(&mut h);
    let (grid, _, _) = pathlab::builtin::default_world();
    let w = grid.width();
    let ground = |i: u32| grid.get(i % w, i / w).is_some_and(|c| c.tile == b'.');
    // Mid-search, before any change: D* Lite's queued nodes are drawn as A*'s open ones.
    h.state_mut().apply(Command::GoTo(20));
    h.run();
    let queued = {
        let run = h.state_mut().run_mut(0);
        let k = run.event_cursor();
        let s = run.rec.seek(k).clone();
        (0..grid.width() * grid.height())
            .find(|&i| ground(i) && s.get(i as usize) == NodeState::Inconsistent)
            .expect("a queued node")
    };
    let open = {
        let run = h.state_mut().run_mut(1);
        let k = run.event_cursor();
        let s = run.rec.seek(k).clone();
        (0..grid.width() * grid.height())
            .find(|&i| ground(i) && s.get(i as usize) == NodeState::Open)
            .expect("an open node")
    };
    let views = h.state().views();
    assert_eq!(
        views[0].pixel(queued % w, queued / w),
        views[1].pixel(open % w, open / w)
    );
    assert!(!h
        .state()
        .legend_shown()
        .contains(&"to repair (D* Lite, AD*)"));

    // A wall on a cell D* Lite closed: drawn as the walls are, and the inspector says wall.
    h.state_mut().apply(Command::ToEnd);
    h.run();
    let (closed, wall) = {
        let run = h.state_mut().run_mut(0);
        let k = run.event_cursor();
        let s = run.rec.seek(k).clone();
        let path = run.path().unwrap().to_vec();
        let c = (0..grid.width() * grid.height())
            .find(|&i| ground(i) && s.get(i as usize) == NodeState::Closed && !path.contains(&i))
            .expect("a closed cell off the path");
        let wall = (0..grid.width() * grid.height())
            .find(|&i| grid.get(i % w, i / w).unwrap().tile == b'@')
            .expect("a wall");
        (c, wall)
    };
    let at = (closed % w, closed / w);
    h.state_mut().apply(Command::Edit(Edit::SetCell {
        x: at.0,
        y: at.1,
        cell: Cell::WALL,
    }));
    to_end(&mut h);
    assert!(!h.state().views()[0].run.changes.is_empty(), "it repaired");
    assert_eq!(
        h.state().views()[0].pixel(at.0, at.1),
        h.state().views()[0].pixel(wall % w, wall / w)
    );
    // "wall" is a material of the tools too: the inspector adds one.
    let walls = h.query_all_by_label("wall").count();
    h.state_mut().apply(Command::SetActive(0));
    h.state_mut().apply(Command::Select(Some(at)));
    h.run();
    assert_eq!(h.query_all_by_label("wall").count(), walls + 1);
    assert!(h.query_by_label("closed").is_none());
    assert!(h
        .state()
        .legend_shown()
        .contains(&"to repair (D* Lite, AD*)"));
}

#[test]
fn turning_into_a_navmesh_says_which_views_gave_way_and_undo_brings_them_back() {
    let mut app = default_app();
    app.apply(Command::SetAlgorithm(0, AlgoChoice::named("theta-star")));
    app.apply(Command::AddView(AlgoChoice::named("field-dstar")));
    let mut h = harness(app);
    h.run();
    h.get_by_label("World: squares (to other worlds)").click();
    h.run();
    h.get_by_label("Turn into a navmesh").click();
    h.run();
    assert_eq!(h.state().doc().world, Family::Navmesh);
    let status = h.state().status().to_string();
    for t in [
        "view 1: Theta* does not run here",
        "view 2: Field D* does not run here",
    ] {
        assert!(status.contains(t), "{status}");
    }
    let names: Vec<_> = h
        .state()
        .views()
        .iter()
        .map(|v| v.run.choice.info.name)
        .collect();
    assert_eq!(names, ["astar", "astar"]);
    h.state_mut().apply(Command::Undo);
    h.run();
    assert_eq!(h.state().doc().world, Family::Square);
    let names: Vec<_> = h
        .state()
        .views()
        .iter()
        .map(|v| v.run.choice.info.name)
        .collect();
    assert_eq!(names, ["theta-star", "field-dstar"]);
}

#[test]
fn a_run_file_opens_as_its_map_algorithm_and_endpoints() {
    let dir = crate::support::scratch_root().join("pathlab-runfile");
    std::fs::create_dir_all(&dir).unwrap();
    let (grid, start, goal) = pathlab::builtin::default_world();
    let map = dir.join("m.map");
    pathlab::map::io::write_map_file(&grid, &map).unwrap();
    // As `pathlab trace --map m.map --algo greedy --out r.ron` writes it, from the folder.
    let out = dir.join("r.ron");
    let run = pathlab::trace::run_file::RunFile {
        version: pathlab::trace::run_file::RUN_VERSION,
        map: "m.map".into(),
        algorithm: "greedy".into(),
        start,
        goal,
        status: "found".into(),
        cost: Some(1.0),
        path: vec![],
        stats: Default::default(),
        events: vec![],
        voxel: None,
    };
    run.write(&out).unwrap();
    let mut app = app_for("runfile");
    app.open_now(&out).expect("a run file opens");
    assert_eq!(app.doc().grid, grid);
    assert_eq!((app.doc().start, app.doc().goal), (start, goal));
    assert_eq!(app.views()[0].run.choice.info.name, "greedy");
    assert!(
        app.status().contains("is a recorded run (`pathlab trace`)"),
        "{}",
        app.status()
    );
    // Without its map, the error says what the file is and how to open it.
    std::fs::remove_file(&map).unwrap();
    let e = app.open_now(&out).unwrap_err();
    assert!(
        e.contains("is a recorded run") && e.contains("File ▸ Open trace"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_played_trace_shows_its_own_start_and_goal() {
    let dir = crate::support::scratch_root().join("pathlab-trace-ends");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("run.trace.yaml");
    let mut h = harness(default_app());
    h.run();
    to_end(&mut h);
    let (start, goal) = (h.state().doc().start, h.state().doc().goal);
    let yaml = common::posthoc_yaml(&mut h);
    std::fs::write(&file, yaml).unwrap();
    // The document's start moves elsewhere; the trace keeps the one it was recorded from.
    let free = (0..h.state().doc().grid.width())
        .map(|x| (x, start.1))
        .find(|&c| {
            c != start
                && h.state()
                    .doc()
                    .grid
                    .get(c.0, c.1)
                    .is_some_and(|c| c.tile == b'.')
        })
        .expect("another free cell");
    h.state_mut().apply(Command::MoveEndpoint(true, free));
    h.state_mut().apply(Command::OpenTrace(Some(file.clone())));
    to_end(&mut h);
    assert_eq!(h.state().views().len(), 2, "{}", h.state().status());
    let view = h.state().view_rects()[1];
    let discs: Vec<(egui::Pos2, egui::Color32)> = {
        fn walk(s: &egui::Shape, v: &mut Vec<(egui::Pos2, egui::Color32)>) {
            match s {
                egui::Shape::Circle(c) => v.push((c.center, c.fill)),
                egui::Shape::Vec(all) => all.iter().for_each(|s| walk(s, v)),
                _ => {}
            }
        }
        let mut v = vec![];
        for c in &h.output().shapes {
            walk(&c.shape, &mut v);
        }
        v
    };
    let at = |cell: (u32, u32), colour: egui::Color32| {
        let p = h.state().cam().centre(view, cell);
        discs
            .iter()
            .any(|&(c, f)| f == colour && (c - p).length() < 0.5)
    };
    let (green, red) = (
        egui::Color32::from_rgb(40, 170, 70),
        egui::Color32::from_rgb(215, 45, 45),
    );
    assert!(at(start, green), "the trace's own start");
    assert!(!at(free, green), "not the document's");
    assert!(at(goal, red));
    let _ = std::fs::remove_dir_all(&dir);
}

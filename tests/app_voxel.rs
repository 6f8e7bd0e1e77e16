//! The app on a voxel world, driven as a user would: open a `.3dscen`, step forward and back,
//! run to the end, pick a voxel in the 3D view with the mouse and read the inspector, paint a
//! wall in the 2D layer editor, change layers, undo, save a project and open it again.
//! Values are checked against the core; the pick against a ray sampled in tiny steps.
//! (kittest renders with wgpu, so the 3D view's glow drawing is blank here: the Xvfb
//! screenshot in `.ci/run` shows it.)

use crate::common;

use common::{app_for, harness};
use eframe::egui;
use egui_kittest::kittest::Queryable;
use pathlab::algorithms;
use pathlab::app::Command;
use pathlab::map::io::{write_3dmap_file, write_3dscen, Problem3};
use pathlab::map::voxel::VoxelGrid;
use pathlab::search::Query;
use pathlab::space::{VoxelMoves, VoxelSpace};
use pathlab::trace::NodeState;
use pathlab::world::Family;
use std::path::PathBuf;

/// A 16 × 12 × 8 box cut by a wall at x = 8 with one hole at y 9–10, z 5–6, written as a
/// `.3dmap` and a `.3dscen` of two problems in a fresh folder.
fn world(test: &str) -> (PathBuf, VoxelGrid) {
    let dir = crate::support::scratch_root().join(format!("pathlab-voxel-{test}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut v = VoxelGrid::new(16, 12, 8).unwrap();
    for z in 0..8 {
        for y in 0..12 {
            if !((9..=10).contains(&y) && (5..=6).contains(&z)) {
                v.set(8, y, z, true);
            }
        }
    }
    let map = dir.join("wall.3dmap");
    write_3dmap_file(&v, &map).unwrap();
    let problems = [([2, 2, 1], [13, 3, 1]), ([1, 10, 6], [14, 1, 0])].map(|(s, g)| Problem3 {
        start: s,
        goal: g,
        optimal: 0.0,
        ratio: 0.0,
        line: 0,
    });
    let scen = dir.join("wall.3dmap.3dscen");
    std::fs::write(&scen, write_3dscen("wall.3dmap", &problems)).unwrap();
    (scen, v)
}

/// Cost of `algo` from the core on the voxels, start to goal.
fn core_cost(v: &VoxelGrid, s: [u32; 3], g: [u32; 3], algo: &str) -> f64 {
    let sp = VoxelSpace::new(v.clone(), VoxelMoves::TwentySix);
    let q = Query {
        start: sp.node(s[0], s[1], s[2]).unwrap(),
        goal: sp.node(g[0], g[1], g[2]).unwrap(),
    };
    let mut a = algorithms::build(algo, &sp, q).unwrap();
    a.run_null(&sp);
    a.cost().unwrap()
}

#[test]
fn a_voxel_world_steps_picks_paints_and_saves_like_the_core() {
    let (scen, voxels) = world("walk");
    let mut h = harness(app_for("voxel-walk"));
    h.run();
    h.state_mut().open_now(&scen).unwrap();
    h.run();
    assert!(matches!(h.state().doc().world, Family::Voxel { .. }));
    assert_eq!(h.state().doc().start_at(), (2, 2, 1));
    assert_eq!(
        h.state().doc().layer(),
        1,
        "the 2D view shows the start's layer"
    );
    h.get_by_label("World: voxels, 16×12×8");

    // Step forward three, back one.
    for _ in 0..3 {
        h.get_by_label(">").click();
        h.run();
    }
    assert_eq!(h.state().cursor(), 3, "{}", h.state().status());
    h.get_by_label("<").click();
    h.run();
    assert_eq!(h.state().cursor(), 2);
    // The 3D view draws the search at the cursor: after two expansions, a few sets' faces.
    let events = h.state_mut().run_mut(0).event_cursor();
    assert_eq!(h.state().view3d().shown_cursor(), Some(events));
    let (early, _) = h.state().view3d().triangles();
    assert!(early > 0);

    // At the end: A*'s cost is the core's A* and Dijkstra's (through the hole).
    h.get_by_label(">|").click();
    h.run();
    let cost = core_cost(&voxels, [2, 2, 1], [13, 3, 1], "astar");
    assert!((cost - core_cost(&voxels, [2, 2, 1], [13, 3, 1], "dijkstra")).abs() < 1e-9);
    h.get_by_label_contains(&format!("cost {cost:.3}"));
    let rect = h.state().view3d().rect.expect("the 3D view is shown");
    let events = h.state_mut().run_mut(0).event_cursor();
    assert_eq!(h.state().view3d().shown_cursor(), Some(events));
    let (late, markers) = h.state().view3d().triangles();
    assert!(late > early, "more of the world searched at the end");
    // Start, goal and the layer frame are 3 × 6 + 4 × 6 quads; the path's segments add more.
    assert!(markers > (18 + 24) * 2, "the path is drawn");

    // Look down at the start from above and click the middle of the 3D view.
    h.state_mut().apply(Command::Orbit3d {
        yaw: 0.3,
        pitch: 1.2,
        dist: 30.0,
        target: [2.5, -2.5, 1.5],
    });
    h.run();
    let rect = h.state().view3d().rect.unwrap_or(rect);
    let at = rect.center();
    // The oracle: walk the same ray in steps of 1/1000 voxel and take the first voxel that is
    // blocked or searched.
    let (origin, dir) = h.state().view3d().ray(rect, at);
    let states = {
        let app = h.state_mut();
        let run = app.run_mut(0);
        let c = run.event_cursor();
        run.rec.seek(c).clone()
    };
    let len = (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]).sqrt();
    let expect = (0..200_000).find_map(|k| {
        let t = k as f32 * 0.001 / len;
        let p = [0, 1, 2].map(|i| origin[i] + dir[i] * t);
        let i = voxels.index(
            p[0].floor() as i64,
            p[1].floor() as i64,
            p[2].floor() as i64,
        )?;
        (voxels.blocked_at(i) || states.get(i) != NodeState::Unseen).then(|| voxels.coords(i))
    });
    let expect = expect.expect("the ray meets the search");
    h.hover_at(at);
    h.run();
    h.drag_at(at);
    h.run();
    h.drop_at(at);
    h.run();
    let picked = h
        .state()
        .selected()
        .map(|(x, y)| (x, y, h.state().doc().layer()));
    assert_eq!(
        picked,
        Some((expect[0], expect[1], expect[2])),
        "the picked voxel"
    );
    h.remove_cursor();
    h.run();
    // The inspector shows the picked voxel's g from the recording.
    let (x, y, z) = picked.unwrap();
    let sp = VoxelSpace::new(voxels.clone(), VoxelMoves::TwentySix);
    let n = sp.node(x, y, z).unwrap();
    let info = {
        let app = h.state_mut();
        let run = app.run_mut(0);
        let c = run.event_cursor();
        run.rec.node_info(n, c)
    };
    h.get_by_label_contains(&format!("({x}, {y}, {z})  '"));
    if !info.g.is_nan() {
        h.get_by_label(&format!("{:.3}", info.g));
    }
    // Its parent is a voxel too: three coordinates, the layer included.
    if info.parent != pathlab::trace::NONE {
        let [px, py, pz] = sp.xyz(info.parent);
        h.get_by_label(&format!("({px}, {py}, {pz})"));
    }

    // Paint the hole shut on layer 5 with the brush: the voxels change there only, and the
    // search finds no path.
    h.state_mut().set_layer(5);
    h.run();
    h.state_mut()
        .apply(Command::SetTool(pathlab::app::Tool::Brush));
    h.state_mut().apply(Command::SetMaterial(b'@'));
    h.run();
    for y in [9, 10] {
        let r = h.state().view_rects()[0];
        let p = h.state().cam().centre(r, (8, y));
        h.hover_at(p);
        h.run();
        h.drag_at(p);
        h.run();
        h.drop_at(p);
        h.run();
    }
    let vol = h.state().doc().volume().unwrap().voxels.clone();
    assert!(vol.is_blocked(8, 9, 5) && vol.is_blocked(8, 10, 5));
    assert!(!vol.is_blocked(8, 9, 6), "layer 6 untouched");
    assert_eq!(vol.count_blocked(), voxels.count_blocked() + 2);
    // Through the other layer of the hole the cost goes up.
    h.get_by_label(">|").click();
    h.run();
    let shut = core_cost(&vol, [2, 2, 1], [13, 3, 1], "astar");
    assert!(shut > cost);
    h.get_by_label_contains(&format!("cost {shut:.3}"));

    // Page Up shows layer 6; undo goes back to layer 5 and opens the hole again.
    h.state_mut()
        .apply(Command::SetTool(pathlab::app::Tool::Select));
    h.remove_cursor();
    h.run();
    h.key_press(egui::Key::PageUp);
    h.run();
    assert_eq!(h.state().doc().layer(), 6);
    h.state_mut().undo();
    h.state_mut().undo();
    h.run();
    assert_eq!(
        h.state().doc().layer(),
        5,
        "undo shows the layer it changes"
    );
    assert_eq!(h.state().doc().volume().unwrap().voxels, voxels);

    // The second problem of the scenario, from the World panel.
    h.state_mut().choose_problem3(1);
    h.run();
    assert_eq!(h.state().doc().start_at(), (1, 10, 6));
    h.get_by_label(">|").click();
    h.run();
    let c2 = core_cost(&voxels, [1, 10, 6], [14, 1, 0], "astar");
    h.get_by_label_contains(&format!("cost {c2:.3}"));

    // Saved as a project and opened again: the same voxels, endpoints and layer.
    let ron = scen.with_file_name("wall.ron");
    h.state_mut().save_to(&ron);
    h.run();
    let mut again = harness(app_for("voxel-walk-2"));
    again.state_mut().open_now(&ron).unwrap();
    again.run();
    let a = again.state();
    assert_eq!(a.doc().volume().unwrap().voxels, voxels);
    assert_eq!(a.doc().start_at(), (1, 10, 6));
    assert_eq!(a.doc().goal_at(), (14, 1, 0));
    assert_eq!(a.doc().layer(), 6);
}

#[test]
fn bad_voxel_files_give_one_line() {
    let dir = crate::support::scratch_root().join("pathlab-voxel-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let rules = Default::default();
    let cases: [(&str, &str, &str); 5] = [
        ("cut.3dmap", "voxel 4 4 4\n1 1", "cut.3dmap"),
        ("out.3dmap", "voxel 4 4 4\n1 9 1\n", "out.3dmap"),
        ("huge.3dmap", "voxel 100000 100000 100000\n", "more than pathlab holds"),
        (
            "p.ron",
            "(version: 1, rows: [\"....\"], world: Voxel(moves: TwentySix), voxels: Some(\"4 1 2 3 9\"))",
            "voxels",
        ),
        (
            "q.ron",
            "(version: 1, rows: [\"....\"], world: Voxel(moves: TwentySix))",
            "holds no `voxels`",
        ),
    ];
    for (name, text, says) in cases {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        let e = pathlab::open::open_world(&f, rules)
            .unwrap_err()
            .to_string();
        assert!(e.contains(says), "{name}: {e}");
        assert_eq!(e.lines().count(), 1, "{name}: {e}");
    }
}

/// The built-in map extruded from the World panel: a voxel world of the chosen height whose
/// every layer is the map; A* on it costs what it costs on the square map (the shortest path
/// stays on its layer: climbing only adds length); New keeps a voxel world; a resize that
/// would change the layers' size is refused.
#[test]
fn extruding_the_map_makes_a_voxel_world_with_the_square_costs() {
    let mut h = harness(app_for("voxel-extrude"));
    h.run();
    let square = h.state().doc().grid.clone();
    h.get_by_label("World: squares (to other worlds)").click();
    h.run();
    h.get_by_label("Extrude into voxels").click();
    h.run();
    let vol = h.state().doc().volume().expect("a voxel world").clone();
    assert_eq!(vol.voxels.dims(), [square.width(), square.height(), 8]);
    for z in [0, 7] {
        assert_eq!(vol.voxels.slice(z).tiles().len(), square.tiles().len());
        for (i, &t) in square.tiles().iter().enumerate() {
            let (x, y) = square.coords(i);
            let wall = pathlab::space::TerrainRule::Class.class(t) == 0;
            assert_eq!(vol.voxels.is_blocked(x as i64, y as i64, z as i64), wall);
        }
    }
    h.get_by_label(">|").click();
    h.run();
    let (s, g) = (h.state().doc().start_at(), h.state().doc().goal_at());
    let cost = core_cost(&vol.voxels, [s.0, s.1, s.2], [g.0, g.1, g.2], "astar");
    let sq = pathlab::space::GridSpace::octile(&square);
    let q = Query {
        start: sq.node(s.0, s.1).unwrap(),
        goal: sq.node(g.0, g.1).unwrap(),
    };
    let mut a = algorithms::build("astar", &sq, q).unwrap();
    a.run_null(&sq);
    assert!(
        (cost - a.cost().unwrap()).abs() < 1e-9,
        "{cost} vs the square map's"
    );
    h.get_by_label_contains(&format!("cost {cost:.3}"));

    // A resize is refused, with the reason in the status line; the world is unchanged.
    h.state_mut().edit(pathlab::map::Edit::Resize {
        width: 10,
        height: 10,
        fill: pathlab::map::Cell::FREE,
    });
    h.run();
    h.get_by_label_contains("layers stay");
    assert_eq!(h.state().doc().volume().unwrap().voxels, vol.voxels);

    // File ▸ New (Ctrl+N; the extruded world counts as saved here, so nothing asks first).
    h.state_mut().apply(Command::SetGenSize(20, 10));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::N);
    h.run();
    // The extruded world is unsaved: New asks first, and the user discards it.
    h.get_by_label("Discard").click();
    h.run();
    let v = h.state().doc().volume().expect("still voxels");
    assert_eq!(v.voxels.dims(), [20, 10, 8]);
    assert_eq!(v.voxels.count_blocked(), 0);
}

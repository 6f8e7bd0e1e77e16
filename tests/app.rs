//! The app driven headless through egui_kittest: the real `PathlabApp::show`, with keys and
//! clicks, checked against the core's own answers. The pixel snapshot needs a wgpu adapter
//! (Mesa's lavapipe on CI); the other tests only read the UI tree.
#![cfg(feature = "gui")]

use crate::common;

use common::*;
use eframe::egui;
use egui_kittest::kittest::Queryable;
use pathlab::app::Command;
use pathlab::map::{Cell, Edit};
use pathlab::search::{AStar, Query, Search, SearchState};
use pathlab::space::{GridSpace, Heuristic};
use pathlab::trace::NullTracer;

#[test]
fn steps_forward_and_back_with_keys() {
    let mut h = harness(default_app());
    h.run();
    let (_, expanded) = core_astar();
    h.get_by_label_contains(&format!("Step 0 of {expanded}"));
    for _ in 0..5 {
        h.key_press(egui::Key::ArrowRight);
        h.run();
    }
    assert_eq!(h.state().cursor(), 5);
    h.get_by_label_contains(&format!("Step 5 of {expanded}"));
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::ArrowRight);
    h.run();
    assert_eq!(h.state().cursor(), 15);
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().cursor(), 14);
    // The node expanded by the step shown is the 14th Expand event.
    let run = &h.state().views()[0].run;
    assert_eq!(run.current_node(), Some(run.series.node[13]));
    h.key_press(egui::Key::Home);
    h.run();
    assert_eq!(h.state().cursor(), 0);
}

#[test]
fn end_shows_the_path_and_its_cost() {
    let mut h = harness(default_app());
    h.run();
    h.get_by_label(">|").click();
    h.run();
    let (cost, expanded) = core_astar();
    assert_eq!(h.state().cursor() as u64, expanded);
    h.get_by_label_contains(&format!("cost {cost:.3}"));
    assert!(h.state().views()[0].run.path_visible());
}

#[test]
fn inspector_shows_g_of_a_closed_cell() {
    let mut app = default_app();
    app.to_end();
    // The start at the end of the run: on the path, g = 0.
    let start = app.doc().start;
    app.apply(Command::Select(Some(start)));
    let mut h = harness(app);
    h.run();
    h.get_by_label("start (on path)");
    h.get_by_label("0.000");
    // A closed cell off the path: the inspector's g is the core search's g.
    let (sp, a) = core_astar_search();
    let path = a.path().unwrap().to_vec();
    let run = &h.state().views()[0].run;
    let n = *run
        .series
        .node
        .iter()
        .rev()
        .find(|n| !path.contains(n))
        .unwrap();
    h.state_mut().apply(Command::Select(Some(sp.xy(n))));
    h.run();
    h.get_by_label("closed");
    h.get_by_label(&format!("{:.3}", a.g(n).unwrap()));
}

/// D* Lite searches from the goal: the inspector's h of a cell is the heuristic to the start.
#[test]
fn inspector_shows_dstar_lites_h_towards_the_start() {
    let mut app = default_app();
    app.set_algorithm(0, pathlab::app::AlgoChoice::named("dstar-lite"));
    app.to_end();
    let (gx, gy) = app.doc().goal;
    let c = (gx - 1, gy);
    app.apply(Command::Select(Some(c)));
    let sp = app.space().as_square().unwrap().clone();
    let (s, n) = (
        sp.node(app.doc().start.0, app.doc().start.1).unwrap(),
        sp.node(c.0, c.1).unwrap(),
    );
    let mut h = harness(app);
    h.run();
    let want = pathlab::space::Space::heuristic(&sp, Heuristic::Native, n, s);
    h.get_by_label(&format!("{want:.3} (to the start)"));
}

#[test]
fn an_edit_restarts_the_run_and_undo_restores_the_map() {
    let mut h = harness(default_app());
    h.run();
    let before = h.state().doc().grid.clone();
    let (sx, sy) = h.state().doc().start;
    // Wall in the cell right of the start.
    h.state_mut().edit(Edit::SetCell {
        x: sx + 1,
        y: sy,
        cell: Cell::WALL,
    });
    h.run();
    assert_ne!(h.state().doc().grid, before);
    assert!(h.state().doc().dirty);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(h.state().doc().grid, before);
    h.get_by_label_contains("Undone");
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run();
    assert_eq!(h.state().doc().grid.get(sx + 1, sy), Some(Cell::WALL));
}

#[test]
fn breakpoint_on_a_node_stops_play_there() {
    let mut app = default_app();
    app.to_end();
    let target = app.views()[0].run.series.node[30];
    app.go_to(0, false);
    app.apply(Command::BreakAtNode(Some(target)));
    app.apply(Command::Play {
        playing: true,
        max_speed: true,
    });
    let mut h = harness(app);
    h.run();
    assert_eq!(h.state().cursor(), 31);
    assert!(!h.state().playing());
    h.get_by_label_contains("breakpoint node expanded");
}

#[test]
fn compare_views_share_the_cursor() {
    let mut h = harness(default_app());
    h.run();
    h.get_by_label("+ Compare with another algorithm").click();
    h.run();
    assert_eq!(h.state().views().len(), 2);
    for _ in 0..3 {
        h.key_press(egui::Key::ArrowRight);
        h.run();
    }
    assert!(h.state().views().iter().all(|v| v.run.shown == 3));
    assert!(h.query_all_by_label("2 Dijkstra").count() >= 1);
}

#[test]
fn opens_a_movingai_scenario_and_solves_a_problem_optimally() {
    let Some(dir) = movingai() else {
        eprintln!("skipped: ../shared/benchmarks is absent");
        return;
    };
    let scen = dir.join("dao/arena.map.scen");
    let mut app = default_app();
    app.open_now(&scen).expect("opens");
    let p = app.doc().problems[100].clone();
    let mut h = harness(app);
    h.run();
    h.get_by_label_contains("arena.map.scen");
    // The scenario's problem #100, as the problem list chooses it.
    h.state_mut().apply(Command::ChooseProblem(100));
    h.state_mut().apply(Command::ToEnd);
    h.run();
    let cost = h.state().views()[0].run.cost().expect("found");
    assert!(p.is_optimal(cost), "{cost} vs {}", p.optimal);
    h.get_by_label_contains("Problem #100");
}

#[test]
fn default_view_snapshot() {
    let mut h = harness(default_app());
    h.run();
    h.get_by_label(">|").click();
    h.run();
    // Search time is the one value that differs from run to run. It is measured on a worker
    // thread: wait for it first, or it may land after the fixed value below.
    for _ in 0..2000 {
        if h.state().views()[0].run.search_time.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
        h.run();
    }
    h.state_mut().run_mut(0).search_time = Some(std::time::Duration::from_micros(40));
    h.run();
    // One row of the map's texture lies on a texel boundary at this size, and which texel a
    // software renderer samples there moves with the last bit of the camera's fit: up to two
    // cell widths of that row (28 pixels) may differ; anything larger is a change.
    let options = egui_kittest::SnapshotOptions::new().max_failed_pixels(40);
    h.snapshot_options("default_view", &options);
}

#[test]
fn unsaved_edits_survive_in_the_recovery_file() {
    let mut h = harness(app_for("recovery"));
    h.run();
    let (sx, sy) = h.state().doc().start;
    h.state_mut().edit(Edit::SetRect {
        rect: pathlab::map::Rect::from_corners((sx + 2, sy - 2), (sx + 3, sy + 2)),
        cell: Cell::WALL,
    });
    let edited = h.state().doc().grid.clone();
    // The recovery file is written at most every 2 s while there are unsaved changes.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    h.run();
    h.state_mut().flush_recovery();
    drop(h);
    // A new session (as after kill -9) offers the recovery file; restoring gives the edit back.
    let mut h = harness(app_for("recovery"));
    h.run();
    h.get_by_label("Restore it").click();
    h.run();
    assert_eq!(h.state().doc().grid, edited);
    assert!(
        h.state().doc().dirty,
        "restored work is unsaved until saved"
    );
    h.state_mut().clear_recovery();
    assert!(!recovery("recovery").exists());
}

/// A file as the window system hands it over on drop.
#[test]
fn a_dropped_map_file_opens() {
    let dir = crate::support::scratch_root().join("pathlab-drop");
    std::fs::create_dir_all(&dir).unwrap();
    let map = dir.join("drop.map");
    let grid = pathlab::map::Generator::Maze { corridor: 1 }.generate(21, 15, 3);
    pathlab::map::io::write_map_file(&grid, &map).unwrap();
    let mut h = harness(default_app());
    h.run();
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(map.clone())));
    h.run();
    assert_eq!(h.state().doc().grid, grid);
    assert_eq!(h.state().doc().path.as_deref(), Some(map.as_path()));
    h.get_by_label_contains("drop.map");
    // A file pathlab cannot read leaves the map as it was and says why.
    let bad = dir.join("notes.txt");
    std::fs::write(&bad, "hello").unwrap();
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(bad)));
    h.run();
    assert_eq!(h.state().doc().grid, grid);
    // Said in a dialog and in the status line.
    assert_eq!(
        h.query_all_by_label_contains("pathlab opens .map, .scen")
            .count(),
        2
    );
}

#[test]
fn four_moves_change_the_search_and_the_project_keeps_them() {
    use pathlab::space::{Connectivity, TerrainRule};
    let mut h = harness(app_for("moves"));
    h.run();
    h.state_mut()
        .set_rules(Connectivity::Four, TerrainRule::Class);
    h.run();
    h.get_by_label_contains("Searches now use 4 moves");
    assert!(
        h.state().doc().dirty,
        "the setting is saved with the project"
    );
    h.get_by_label(">|").click();
    h.run();
    // The oracle: the core's A* on the 4-connected space, which must cost more than on the
    // 8-connected one (else this test could not tell the setting was ignored).
    let (g, s, t) = pathlab::builtin::default_world();
    let sp = GridSpace::new(&g, Connectivity::Four, TerrainRule::Class);
    let q = Query {
        start: sp.node(s.0, s.1).unwrap(),
        goal: sp.node(t.0, t.1).unwrap(),
    };
    // The default heuristic is the world's own: Manhattan on 4 moves.
    let mut a = AStar::new(&sp, q, Heuristic::Manhattan);
    a.run(&sp, &mut NullTracer);
    let four = a.cost().unwrap();
    assert!(four > core_astar().0 + 1.0);
    h.get_by_label_contains(&format!("cost {four:.3}"));
    assert_eq!(h.state().cursor() as u64, a.stats().expanded);

    // Saved as a project and opened in a new session, the map searches with 4 moves again.
    let file = crate::support::scratch_root().join("pathlab-test-moves-project.ron");
    h.state_mut().apply(Command::SaveTo(file.clone()));
    h.run();
    h.get_by_label_contains("Saved");
    drop(h);
    let mut h = harness(app_for("moves"));
    h.run();
    h.state_mut().open_now(&file).unwrap();
    h.run();
    assert_eq!(h.state().doc().moves, Connectivity::Four);
    assert_eq!(h.state().space().rules().0, Connectivity::Four);
    h.get_by_label(">|").click();
    h.run();
    h.get_by_label_contains(&format!("cost {four:.3}"));
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn ground_only_refuses_a_start_on_swamp() {
    use pathlab::space::{Connectivity, TerrainRule};
    // (4, 3) is swamp on the built-in map: passable under the benchmark's classes only.
    let swamp = (4, 3);
    let mut h = harness(app_for("ground"));
    h.run();
    h.state_mut()
        .set_rules(Connectivity::Eight, TerrainRule::GroundOnly);
    let start = h.state().doc().start;
    h.state_mut().move_endpoint(true, swamp);
    h.run();
    assert_eq!(h.state().doc().start, start);
    h.get_by_label_contains("(4, 3) is blocked");
    h.state_mut()
        .set_rules(Connectivity::Eight, TerrainRule::Class);
    h.state_mut().move_endpoint(true, swamp);
    assert_eq!(h.state().doc().start, swamp);
}

/// Frames over an idle second (60 steps of 1/60 s) that ask at once for another frame.
fn busy_frames(h: &mut egui_kittest::Harness<'static, pathlab::app::PathlabApp>) -> usize {
    (0..60)
        .filter(|_| {
            h.step();
            h.output()
                .viewport_output
                .get(&egui::ViewportId::ROOT)
                .is_some_and(|v| v.repaint_delay.is_zero())
        })
        .count()
}

/// An idle app draws nothing: once the built-in map's run is done and nothing plays, no frame
/// asks for the next one (the window title, sent on every frame, once kept it at 35 frames a
/// second). Playing asks for frames; pausing stops them again.
#[test]
fn an_idle_app_asks_for_no_frames() {
    let mut h = harness(default_app());
    h.run();
    assert_eq!(busy_frames(&mut h), 0, "the idle app repaints");
    h.key_press(egui::Key::Space);
    assert!(busy_frames(&mut h) > 30, "playing should animate");
    h.key_press(egui::Key::Space);
    h.run();
    assert_eq!(busy_frames(&mut h), 0, "the paused app repaints");
}

/// Input is read as the frame's events: a stroke pressed, moved twice and released within one
/// frame paints every cell on its way; a goal dragged and dropped within one frame lands where
/// the button came up; sixty presses of → two a frame step sixty times.
#[test]
fn quick_input_within_a_frame_all_counts() {
    use egui::{Event, PointerButton};
    let mut h = harness(default_app());
    h.run();
    let press = |pos: egui::Pos2, pressed: bool| Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    let centre = |h: &egui_kittest::Harness<'static, pathlab::app::PathlabApp>, c: (u32, u32)| {
        h.state().cam().centre(h.state().view_rects()[0], c)
    };
    // A brush stroke from (8, 3) to (20, 3) to (20, 9) in one frame, free cells all the way.
    h.state_mut()
        .apply(Command::SetTool(pathlab::app::Tool::Brush));
    h.state_mut().apply(Command::SetMaterial(b'@'));
    h.run();
    let free = |h: &egui_kittest::Harness<'static, pathlab::app::PathlabApp>, c: (u32, u32)| {
        h.state().doc().grid.get(c.0, c.1).unwrap().tile != b'@'
    };
    let way: Vec<(u32, u32)> = (8..=20)
        .map(|x| (x, 3))
        .chain((4..=9).map(|y| (20, y)))
        .collect();
    assert!(
        way.iter().all(|&c| free(&h, c)),
        "the test's stroke crosses free cells"
    );
    let (a, b, c) = (centre(&h, (8, 3)), centre(&h, (20, 3)), centre(&h, (20, 9)));
    h.event(Event::PointerMoved(a));
    h.event(press(a, true));
    h.event(Event::PointerMoved(b));
    h.event(Event::PointerMoved(c));
    h.event(press(c, false));
    h.run();
    let missed: Vec<_> = way.iter().filter(|&&c| free(&h, c)).collect();
    assert!(
        missed.is_empty(),
        "cells the quick stroke missed: {missed:?}"
    );
    // One stroke, one undo.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert!(
        way.iter().all(|&c| free(&h, c)),
        "undo takes the whole stroke back"
    );

    // The goal dragged to (30, 5) and dropped there within one frame.
    h.state_mut()
        .apply(Command::SetTool(pathlab::app::Tool::Select));
    h.run();
    let g = h.state().doc().goal;
    let (from, mid, to) = (centre(&h, g), centre(&h, (36, 8)), centre(&h, (30, 5)));
    h.event(Event::PointerMoved(from));
    h.event(press(from, true));
    h.event(Event::PointerMoved(mid));
    h.event(Event::PointerMoved(to));
    h.event(press(to, false));
    h.run();
    assert_eq!(
        h.state().doc().goal,
        (30, 5),
        "dropped where the button came up"
    );

    // Sixty presses of →, two a frame.
    h.state_mut().go_to(0, false);
    h.run();
    let before = h.state().cursor();
    for _ in 0..30 {
        for _ in 0..2 {
            for pressed in [true, false] {
                h.event(Event::Key {
                    key: egui::Key::ArrowRight,
                    physical_key: None,
                    pressed,
                    repeat: false,
                    modifiers: egui::Modifiers::NONE,
                });
            }
        }
        h.step();
    }
    h.run();
    assert_eq!(h.state().cursor(), before + 60);
}

/// A quick Shift+→ steps the big step: Shift pressed, → pressed and released, Shift released,
/// all within one frame. The frame's modifiers are those at its end (no Shift); the key
/// event's own modifiers hold Shift.
#[test]
fn a_quick_shift_arrow_chord_within_one_frame_steps_n() {
    use egui::{Event, Key, Modifiers};
    let mut h = harness(default_app());
    h.run();
    assert_eq!(h.state().cursor(), 0);
    let key = |pressed, modifiers| Event::Key {
        key: Key::ArrowRight,
        physical_key: None,
        pressed,
        repeat: false,
        modifiers,
    };
    // Straight into the next frame's input: `Harness::event` would give each event a frame.
    h.input_mut().events.extend([
        Event::ModifiersChanged(Modifiers::SHIFT),
        key(true, Modifiers::SHIFT),
        key(false, Modifiers::SHIFT),
        Event::ModifiersChanged(Modifiers::NONE),
    ]);
    h.step();
    h.run();
    assert_eq!(h.state().cursor(), 10, "the big step (10), not 1");
    // And a plain → in the same way steps one.
    h.input_mut()
        .events
        .extend([key(true, Modifiers::NONE), key(false, Modifiers::NONE)]);
    h.step();
    h.run();
    assert_eq!(h.state().cursor(), 11);
}

/// Panels keep their width: opening the World or Map sections does not widen the left panel
/// (their rows wrap), and more views with longer names do not widen the right one (the
/// statistics table scrolls sideways), so the views never jump.
#[test]
fn panels_keep_their_width() {
    let mut h = harness(default_app());
    h.run();
    let before = h.state().canvas_rect().unwrap();
    for section in [
        "World: squares (to other worlds)",
        "Map: new, resize, generate",
    ] {
        h.get_by_label(section).click();
        h.run();
        h.run();
        let now = h.state().canvas_rect().unwrap();
        assert_eq!(
            now.left(),
            before.left(),
            "{section} widened the left panel"
        );
    }
    for n in ["weighted-astar", "lazy-theta-star", "dstar-lite"] {
        h.state_mut().add_view(pathlab::app::AlgoChoice::named(n));
        h.run();
    }
    h.get_by_label(">|").click();
    h.run();
    h.run();
    let now = h.state().canvas_rect().unwrap();
    assert_eq!(now.right(), before.right(), "the right panel widened");
}

//! What a newcomer meets in the first hour, driven headless through egui_kittest: one step on
//! every part of the timeline, endpoints that follow the mouse at any zoom, views that say which
//! is which, a scenario's every problem, files without a desktop portal, help and legend,
//! compare views that use the space. Set `PATHLAB_WALK_SHOTS=DIR` to get a PNG of each stage of
//! the walk (needs a wgpu adapter; Mesa's lavapipe will do).
#![cfg(feature = "gui")]

use crate::common;

use common::*;
use eframe::egui;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use pathlab::app::Command;
use pathlab::app::{AlgoChoice, Options, PathlabApp, Settings};
use pathlab::map::{Cell, Edit};
use std::path::PathBuf;

/// The timeline's one truth: every view shows `min(cursor, its steps)`, the cursor is within
/// what is recorded, and the status line names the same step.
fn assert_one_step(h: &Harness<'_, PathlabApp>, stage: &str) {
    let a = h.state();
    let c = a.cursor();
    assert!(
        c <= a.max_steps(),
        "{stage}: cursor {c} past {}",
        a.max_steps()
    );
    for (i, v) in a.views().iter().enumerate() {
        assert_eq!(
            v.run.shown,
            c.min(v.run.steps()),
            "{stage}: view {} shows step {} while the cursor is at {c}",
            i + 1,
            v.run.shown
        );
    }
    let want = format!("Step {c} of {}", a.max_steps());
    assert!(
        h.query_by_label_contains(&want).is_some(),
        "{stage}: the status line does not read {want:?}"
    );
}

/// Writes a picture of the stage when `PATHLAB_WALK_SHOTS` names a folder.
fn shot(h: &mut Harness<'_, PathlabApp>, name: &str) {
    let Some(dir) = std::env::var_os("PATHLAB_WALK_SHOTS") else {
        return;
    };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    match h.render() {
        Ok(img) => img.save(dir.join(format!("{name}.png"))).unwrap(),
        Err(e) => eprintln!("no picture of {name}: {e}"),
    }
}

/// A free cell near `c` other than start and goal.
fn free_near(app: &PathlabApp, c: (u32, u32)) -> (u32, u32) {
    let avoid = [app.doc().start, app.doc().goal];
    let mut p = app.doc().nearest_free(c, Some(app.doc().start));
    let mut k = 0;
    while avoid.contains(&p) {
        k += 1;
        p = app
            .doc()
            .nearest_free((c.0 + k, c.1), Some(app.doc().start));
    }
    p
}

/// Screen position of cell `c`'s centre in view `i`.
fn at_cell(app: &PathlabApp, i: usize, c: (u32, u32)) -> egui::Pos2 {
    app.cam().centre(app.view_rects()[i], c)
}

/// A press on `from`, moves in small steps to `to`, release: as a hand drags.
fn drag(h: &mut Harness<'_, PathlabApp>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.step();
    h.drag_at(from);
    h.step();
    for k in 1..=6 {
        h.hover_at(from + (to - from) * (k as f32 / 6.0));
        h.step();
    }
}

#[test]
fn one_step_everywhere_after_restarts_undo_stop_and_generate() {
    let mut h = harness(app_for("timeline"));
    settle(&mut h);
    // Brush a wall, move the goal, End, Ctrl+Z: the walk that showed "Step 0 of 836".
    let (sx, sy) = h.state().doc().start;
    h.state_mut().edit(Edit::SetCell {
        x: sx + 2,
        y: sy,
        cell: Cell::WALL,
    });
    settle(&mut h);
    let g = h.state().doc().goal;
    let to = free_near(h.state(), (g.0.saturating_sub(6), g.1));
    h.state_mut().move_endpoint(false, to);
    settle(&mut h);
    h.key_press(egui::Key::End);
    settle(&mut h);
    assert_one_step(&h, "End");
    let end = h.state().cursor();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    settle(&mut h);
    assert_one_step(&h, "undo at the end");
    // At the end before, at the end of the new run after.
    assert_eq!(h.state().cursor(), h.state().max_steps());
    assert_ne!(h.state().cursor(), 0);
    shot(&mut h, "01-undo");
    // Mid-run: the cursor comes back to the same step after a restart, and Right goes on
    // from there.
    for _ in 0..3 {
        h.key_press(egui::Key::ArrowLeft);
    }
    settle(&mut h);
    let mid = h.state().cursor();
    assert!(mid > 0 && mid < end.max(h.state().max_steps()));
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    settle(&mut h);
    assert_one_step(&h, "redo mid-run");
    assert_eq!(h.state().cursor(), mid.min(h.state().max_steps()));
    let before = h.state().cursor();
    h.key_press(egui::Key::ArrowRight);
    settle(&mut h);
    assert_one_step(&h, "Right after redo");
    assert_eq!(h.state().cursor(), (before + 1).min(h.state().max_steps()));
    // Agents out and back.
    h.state_mut().agents_start(false);
    for _ in 0..5 {
        h.state_mut().agent_tick();
    }
    settle(&mut h);
    h.get_by_label("Stop").click();
    settle(&mut h);
    assert_one_step(&h, "Dynamic world ▸ Stop");
    // Generate a maze from the panel.
    h.get_by_label("Map: new, resize, generate").click();
    h.run();
    h.get_by_label("Maze").click();
    settle(&mut h);
    assert_one_step(&h, "Map ▸ Maze");
    // In words, not `Maze { corridor: 2 }`.
    h.get_by_label_contains("Generated a maze with corridors 2 wide");
    shot(&mut h, "02-maze");
}

#[test]
fn start_and_goal_follow_the_mouse_at_every_zoom() {
    let mut h = harness(app_for("drag"));
    settle(&mut h);
    // Default zoom: a plain drag, no hold.
    let goal = h.state().doc().goal;
    let to = free_near(
        h.state(),
        (goal.0.saturating_sub(5), goal.1.saturating_sub(3)),
    );
    let (from_p, to_p) = (at_cell(h.state(), 0, goal), at_cell(h.state(), 0, to));
    drag(&mut h, from_p, to_p);
    assert_eq!(
        h.state().dragged_endpoint(),
        Some((false, to)),
        "the goal's disc follows the pointer during the drag"
    );
    assert_eq!(h.state().doc().goal, goal, "nothing moves before the drop");
    shot(&mut h, "03-dragging-goal");
    h.drop_at(to_p);
    settle(&mut h);
    assert_eq!(h.state().doc().goal, to);
    // A 1024 × 1024 map at fit zoom: a cell is under a pixel, the disc is still grabbed.
    let big = pathlab::map::Grid::new(1024, 1024, Cell::FREE);
    h.state_mut().edit(Edit::Replace(Box::new(big)));
    h.state_mut().move_endpoint(true, (100, 100));
    h.state_mut().move_endpoint(false, (900, 900));
    h.state_mut().apply(Command::Fit);
    settle(&mut h);
    assert!(h.state().cam().zoom < 1.0, "zoom {}", h.state().cam().zoom);
    let from_p = at_cell(h.state(), 0, (100, 100));
    // Grabbed a few pixels off the disc's centre, as a hand would.
    let grab = from_p + egui::vec2(2.0, -2.0);
    let to_p = from_p + egui::vec2(120.0, 60.0);
    drag(&mut h, grab, to_p);
    // The cell under the pointer as the button comes up.
    let want = h
        .state()
        .cam()
        .cell_at(h.state().view_rects()[0], to_p, 1024, 1024)
        .unwrap();
    assert_eq!(h.state().dragged_endpoint(), Some((true, want)));
    h.drop_at(to_p);
    settle(&mut h);
    let s = h.state().doc().start;
    assert_eq!(s, want, "the start lands where it was dropped");
    // Keys: S and T over a cell.
    for (key, c) in [(egui::Key::S, (300, 200)), (egui::Key::T, (700, 600))] {
        h.hover_at(at_cell(h.state(), 0, c));
        h.run();
        h.key_press(key);
        settle(&mut h);
        let doc = &h.state().doc();
        let got = if key == egui::Key::S {
            doc.start
        } else {
            doc.goal
        };
        assert!(
            got.0.abs_diff(c.0) <= 1 && got.1.abs_diff(c.1) <= 1,
            "{key:?}: {got:?}"
        );
    }
    // The context menu.
    let c = (500, 300);
    let p = at_cell(h.state(), 0, c);
    h.hover_at(p);
    h.run();
    h.event(egui::Event::PointerButton {
        pos: p,
        button: egui::PointerButton::Secondary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.event(egui::Event::PointerButton {
        pos: p,
        button: egui::PointerButton::Secondary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.run();
    shot(&mut h, "04-context-menu");
    h.get_by_label("Set goal here  (T)").click();
    settle(&mut h);
    let got = h.state().doc().goal;
    assert!(
        got.0.abs_diff(c.0) <= 1 && got.1.abs_diff(c.1) <= 1,
        "{got:?}"
    );
}

#[test]
fn the_inspector_and_status_speak_of_the_view_under_the_pointer() {
    let mut app = app_for("views");
    app.add_view(AlgoChoice::named("dijkstra"));
    let mut h = harness(app);
    settle(&mut h);
    for _ in 0..12 {
        h.key_press(egui::Key::ArrowRight);
    }
    settle(&mut h);
    assert_eq!(h.state().cursor(), 12);
    // The node Dijkstra (view 2) expands at step 12, under the pointer in view 2.
    let n = h.state().views()[1].run.series.node[11];
    let c = h.state().space().xy(n);
    h.hover_at(at_cell(h.state(), 1, c));
    h.run();
    assert_eq!(h.state().active(), 1);
    h.get_by_label("view 2 Dijkstra");
    h.get_by_label("being expanded");
    h.get_by_label("— (none used)");
    h.get_by_label_contains("view 2 Dijkstra: expanding");
    shot(&mut h, "05-hover-dijkstra");
    // The start in view 1: A*'s values, and it reads "start".
    let s = h.state().doc().start;
    h.hover_at(at_cell(h.state(), 0, s));
    h.run();
    assert_eq!(h.state().active(), 0);
    h.get_by_label("view 1 A*");
    h.get_by_label("start (closed)");
    // Off every view: the inspector clears.
    h.remove_cursor();
    h.run();
    h.get_by_label("Hover or click a cell.");
}

#[test]
fn every_scenario_problem_is_reachable_highlighted_and_leaves_the_map_saved() {
    let Some(dir) = movingai() else {
        eprintln!("skipped: ../shared/benchmarks is absent");
        return;
    };
    let scen = dir.join("street/Berlin_0_1024.map.scen");
    let mut app = app_for("scen");
    app.open_now(&scen).expect("opens");
    let n = app.doc().problems.len();
    assert_eq!(n, 3850);
    let mut h = harness(app);
    settle(&mut h);
    assert_eq!(h.state().problems().chosen, Some(0));
    // The last problem, by id.
    h.get_by_label("order"); // the sort control is there
    h.state_mut().apply(Command::FilterProblems("3849".into()));
    h.run_steps(2);
    let last = h.state().doc().problems[3849].clone();
    let row = format!("#3849  {:.3}  b{}", last.optimal, last.bucket);
    shot(&mut h, "06a-filtered");
    h.get_by_label_contains(&row).click();
    h.run_steps(2);
    assert_eq!(h.state().problems().chosen, Some(3849));
    assert_eq!(
        (h.state().doc().start, h.state().doc().goal),
        (last.start, last.goal)
    );
    assert!(!h.state().doc().dirty, "choosing a problem is not an edit");
    // ASCII arrows: the default fonts have no glyph for U+2192.
    assert!(h.query_by_label_contains("→").is_none());
    // A bucket, longest first.
    h.state_mut().apply(Command::FilterProblems("b10".into()));
    h.state_mut()
        .apply(Command::OrderProblems(pathlab::app::ProblemOrder::Longest));
    h.run_steps(2);
    let in_bucket = h
        .state()
        .doc()
        .problems
        .iter()
        .filter(|p| p.bucket == 10)
        .count();
    h.get_by_label_contains(&format!("{in_bucket} of 3850 shown"));
    h.state_mut().apply(Command::FilterProblems(String::new()));
    h.run_steps(2);
    shot(&mut h, "06-scenario");
    settle(&mut h);
    // The chosen problem is solved optimally by A* (the default view).
    let cost = h.state().views()[0].run.cost().expect("found");
    assert!(last.is_optimal(cost), "{cost} vs {}", last.optimal);
}

#[test]
fn without_a_portal_files_are_asked_for_by_path() {
    let dir = crate::support::scratch_root().join("pathlab-noportal");
    std::fs::create_dir_all(&dir).unwrap();
    let mut app = PathlabApp::new(Options {
        recovery_file: Some(recovery("noportal")),
        no_portal: true,
        ..Options::default()
    });
    app.edit(Edit::SetCell {
        x: 1,
        y: 1,
        cell: Cell::WALL,
    });
    let mut h = harness(app);
    h.run();
    // Save: the path field, not "Cancelled".
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    let target = dir.join("walk.map");
    *h.state_mut().path_field().expect("a path field opens") = target.display().to_string();
    h.run();
    shot(&mut h, "07-save-path-field");
    h.get_by_label("Save").click();
    h.run();
    assert!(target.is_file(), "saved through the path field");
    assert!(!h.state().doc().dirty);
    h.get_by_label_contains("Saved");
    // Open the same way.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::O);
    h.run();
    *h.state_mut().path_field().expect("a path field opens") = target.display().to_string();
    h.run();
    h.get_by_label("Open").click();
    // The opened map's tables lay themselves out over a few frames.
    h.run_steps(8);
    h.get_by_label_contains("Opened");
    assert_eq!(h.state().recent().first(), Some(&target));
    // A bad path says why and keeps the field.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::O);
    h.run();
    *h.state_mut().path_field().unwrap() = dir.join("nope.map").display().to_string();
    h.run();
    h.get_by_label("Open").click();
    h.run();
    h.get_by_label_contains("no such file");
    assert!(h.state_mut().path_field().is_some());
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.state_mut().path_field().is_none());
    // Opened again, the field has the keyboard: typed letters go into it, and none reaches
    // the window as a shortcut (E would pick the eraser, L hide the legend).
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::O);
    h.run();
    let (tool, legend) = (h.state().tool(), h.state().show_legend());
    for (k, c) in [(egui::Key::E, "e"), (egui::Key::L, "l")] {
        h.key_press(k);
        h.event(egui::Event::Text(c.into()));
        h.run();
    }
    let typed = h.state_mut().path_field().unwrap().clone();
    assert!(typed.ends_with("el"), "typed into the field: {typed}");
    assert_eq!((h.state().tool(), h.state().show_legend()), (tool, legend));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_from_the_command_line_is_first_in_open_recent() {
    let Some(dir) = movingai() else {
        eprintln!("skipped: ../shared/benchmarks is absent");
        return;
    };
    let map = dir.join("dao/arena.map");
    let mut app = PathlabApp::new(Options {
        file: Some(map.clone()),
        recovery_file: Some(recovery("cli-recent")),
        ..Options::default()
    });
    // What the last session saved, applied as the window opens.
    let mut saved = Settings::of(&app);
    saved.recent = vec![PathBuf::from("/elsewhere/a.map"), map.clone()];
    saved.apply(&mut app);
    assert_eq!(
        app.recent(),
        vec![map, PathBuf::from("/elsewhere/a.map")],
        "the file opened now first, the saved ones after, once each"
    );
}

#[test]
fn a_second_instance_does_not_offer_the_first_ones_unsaved_work() {
    let base = recovery("two-instances");
    std::fs::write(&base, "unsaved work of the first window").unwrap();
    let first = app_for("two-instances");
    assert_eq!(first.recovery_file(), base);
    let mut h1 = harness(first);
    h1.run();
    h1.get_by_label("Restore it");
    // A second window while the first runs: its own slot, no offer.
    let second = app_for("two-instances");
    let second_slot = second.recovery_file();
    assert_ne!(second_slot, base);
    assert!(second_slot.with_extension("lock").exists());
    let mut h2 = harness(second);
    h2.run();
    assert!(h2.query_by_label("Restore it").is_none());
    // Once the first has closed, the next window takes its slot (and its work) again. A window
    // takes its lock file with it: tests and sessions leave none behind.
    drop(h1);
    drop(h2);
    assert!(!base.with_extension("lock").exists());
    assert!(!second_slot.with_extension("lock").exists());
    let third = app_for("two-instances");
    assert_eq!(third.recovery_file(), base);
    drop(third);
    assert!(!base.with_extension("lock").exists());
    let _ = std::fs::remove_file(&base);
}

#[test]
fn help_legend_diff_and_world_changes_read_without_the_manual() {
    let mut app = app_for("help");
    app.add_view(AlgoChoice::named("dijkstra"));
    let mut h = harness(app);
    settle(&mut h);
    // F1: colours, algorithms and statistics explained, below the menu bar.
    h.key_press(egui::Key::F1);
    h.run();
    assert!(h.state().show_help());
    h.get_by_label_contains("taken off the open list");
    h.get_by_label("best-first by g; optimal, explores in every direction");
    h.get_by_label_contains("cells the dynamic world just changed");
    let title = h.get_by_label("Help: what you see").rect();
    assert!(
        title.min.y >= h.state().menu_bottom(),
        "the help window covers the menu bar: {title:?}"
    );
    shot(&mut h, "08-help");
    h.key_press(egui::Key::F1);
    h.run();
    // The legend names the terrain and sits beside the views, over no map cell.
    let names = pathlab::app::legend_names(false);
    for t in ["swamp", "water", "trees", "wall", "ground"] {
        assert!(names.contains(&t), "legend lacks {t}");
    }
    let legend = h.state().legend_rect().expect("legend shown");
    for r in h.state().view_rects() {
        assert!(!legend.intersects(r.shrink(0.5)), "{legend:?} over {r:?}");
    }
    // Diff: one colour per run in both views.
    h.state_mut().apply(Command::SetDiff(true));
    h.key_press(egui::Key::End);
    settle(&mut h);
    let a = h.state();
    let (na, nb) = (&a.views()[0].run.series.node, &a.views()[1].run.series.node);
    let only_b = nb.iter().find(|n| !na.contains(n)).copied().unwrap();
    let only_a = na.iter().find(|n| !nb.contains(n)).copied();
    for n in [Some(only_b), only_a].into_iter().flatten() {
        let (x, y) = a.space().xy(n);
        assert_eq!(
            a.views()[0].pixel(x, y),
            a.views()[1].pixel(x, y),
            "cell ({x}, {y}) has another colour in each view"
        );
    }
    shot(&mut h, "09-diff");
    h.state_mut().apply(Command::SetDiff(false));
    // World changes flash the cells they changed.
    let before = h.state().doc().grid.clone();
    h.state_mut().agents_start(false);
    let mut ticks = 0;
    while h.state().flashed().is_empty() && ticks < 200 {
        h.state_mut().agent_tick();
        ticks += 1;
    }
    let flashed = h.state().flashed().to_vec();
    assert!(!flashed.is_empty(), "no world change in {ticks} ticks");
    for &(x, y) in &flashed {
        assert_ne!(
            h.state().doc().grid.get(x, y),
            before.get(x, y),
            "({x}, {y})"
        );
    }
    h.run_steps(2);
    shot(&mut h, "10-flash");
    h.state_mut().agents_stop();
    h.run_steps(2);
}

#[test]
fn compare_views_use_the_canvas() {
    let mut h = harness(app_for("compare"));
    settle(&mut h);
    let single = h.state().cam().zoom;
    h.get_by_label("+ Compare with another algorithm").click();
    settle(&mut h);
    assert_eq!(h.state().views().len(), 2);
    let two = h.state().cam().zoom;
    // The built-in map is wide: two views stack and keep most of the size (side by side
    // they shrank to about a third).
    assert!(
        two >= 0.6 * single,
        "zoom {two} with two views, {single} with one"
    );
    // And the map fits in each view.
    let (w, hgt) = (h.state().space().width(), h.state().space().height());
    for r in h.state().view_rects() {
        let m = egui::vec2(w as f32, hgt as f32) * two;
        assert!(m.x <= r.width() + 1.0 && m.y <= r.height() + 1.0);
    }
    shot(&mut h, "11-compare");
}

#[test]
fn a_file_that_does_not_load_is_reported_with_its_line() {
    let dir = crate::support::scratch_root().join("pathlab-badcli");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("truncated.map");
    std::fs::write(
        &bad,
        "type octile\nheight 10\nwidth 10\nmap\n..........\n....\n",
    )
    .unwrap();
    let app = PathlabApp::new(Options {
        file: Some(bad.clone()),
        recovery_file: Some(recovery("badcli")),
        ..Options::default()
    });
    let e = app
        .startup_error()
        .map(str::to_string)
        .expect("the load error is kept for the caller");
    assert!(e.contains("truncated.map:6:"), "{e}");
    let mut h = harness(app);
    h.run();
    h.get_by_label_contains("truncated.map:6:");
    // The built-in map is still there to work on.
    assert_eq!(h.state().doc().path, None);
    let _ = std::fs::remove_dir_all(&dir);
}

//! Every shipped lesson played headlessly from its first step to its last: each step's setup
//! reaches the state it states (the example's map, the world, the views' algorithms, the
//! cursor, the tool), its condition is unmet until the student does what its hint says, and
//! then met; Back runs the step before again; a lesson left resumes where it was left, or
//! starts over. Started over unsaved work, a lesson asks first: Cancel leaves the app as it
//! was, Discard gives exactly the lesson's set-up. The status line and the outline speak of the
//! lesson and the controls on screen now.

use crate::common;

use common::{default_app, harness, AppHarness};
use pathlab::app::{AlgoChoice, Command, LessonCommand, PathlabApp, Tool};
use pathlab::lessons::{Do, Until};
use pathlab::map::{Cell, Edit};

/// Frames until `done` holds (searches and hierarchies finish over frames).
fn settle(h: &mut AppHarness, mut done: impl FnMut(&mut PathlabApp) -> bool) -> bool {
    for _ in 0..600 {
        h.run();
        if done(h.state_mut()) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    false
}

/// What the step's setup states, checked.
fn check_setup(app: &mut PathlabApp, setup: &[Do], ctx: &str) {
    for d in setup {
        match d {
            Do::Example(f) => {
                let e = pathlab::examples::EXAMPLES
                    .iter()
                    .find(|e| e.file == f)
                    .unwrap();
                let grid = pathlab::examples::open(e).unwrap().grid;
                let world = app.doc().world;
                if world == pathlab::world::Family::Square {
                    assert_eq!(app.doc().grid.tiles(), grid.tiles(), "{ctx}: {f}");
                }
            }
            Do::Scene3d => assert!(app.doc().volume().is_some(), "{ctx}: no voxels"),
            Do::World(name, _) => assert_eq!(app.doc().world.name(), name, "{ctx}"),
            Do::Views(specs) => {
                let names: Vec<&str> = app.views().iter().map(|v| v.run.choice.info.name).collect();
                let want: Vec<&str> = specs.iter().map(|s| s.split(':').next().unwrap()).collect();
                assert_eq!(names, want, "{ctx}");
            }
            Do::Tool(t) => {
                let want = match t.as_str() {
                    "brush" => Tool::Brush,
                    _ => Tool::Select,
                };
                assert_eq!(app.tool(), want, "{ctx}");
            }
            Do::Knowledge(levels) => assert_eq!(app.views().len(), levels.len(), "{ctx}"),
            _ => {}
        }
    }
}

/// Does what the step's hint asks, as a student would.
fn satisfy(h: &mut AppHarness, until: &Until) {
    let app = h.state_mut();
    match until {
        Until::Next => {}
        Until::StepAtLeast(n) => app.apply(Command::GoTo(*n)),
        Until::Finished => app.apply(Command::ToEnd),
        Until::GoalMoved | Until::StartMoved => {
            // The free cell farthest along the map from where the endpoint is.
            let goal = matches!(until, Until::GoalMoved);
            let at = if goal {
                app.doc().goal
            } else {
                app.doc().start
            };
            let grid = &app.doc().grid;
            let to = (0..grid.height())
                .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
                .filter(|&c| c != at && grid.get(c.0, c.1).is_some_and(|t| t.tile == b'.'))
                .max_by_key(|&(x, y)| {
                    (x as i64 - at.0 as i64).abs() + (y as i64 - at.1 as i64).abs()
                })
                .unwrap();
            app.apply(Command::MoveEndpoint(!goal, to));
        }
        Until::MapEdited => {
            let (s, g) = (app.doc().start, app.doc().goal);
            let grid = &app.doc().grid;
            let c = (0..grid.height())
                .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
                .find(|&c| c != s && c != g && grid.get(c.0, c.1).is_some_and(|t| t.tile == b'.'))
                .unwrap();
            app.apply(Command::Edit(Edit::SetCell {
                x: c.0,
                y: c.1,
                cell: Cell::WALL,
            }));
        }
        Until::Views(n) => {
            while app.views().len() < *n {
                app.apply(Command::AddView(AlgoChoice::named("astar")));
            }
        }
        Until::ParamAtLeast(v, name, x) => {
            let mut c = app.views()[*v].run.choice.clone();
            c.values.insert(name.clone(), *x);
            app.apply(Command::SetAlgorithm(*v, c));
        }
    }
}

#[test]
fn every_lesson_plays_from_first_to_last_step() {
    let lessons = pathlab::lessons::all();
    assert!(lessons.len() >= 8);
    for (i, lesson) in lessons.iter().enumerate() {
        let mut h = harness(default_app());
        h.run();
        h.state_mut().start_lesson(i, 0);
        for (k, step) in lesson.steps.iter().enumerate() {
            let ctx = format!("lesson {} ({}), step {}", i + 1, lesson.title, k + 1);
            assert_eq!(h.state().lessons().playing, Some((i, k)), "{ctx}");
            h.run();
            check_setup(h.state_mut(), &step.setup, &ctx);
            if step.until != Until::Next {
                assert!(
                    !h.state_mut().lesson_condition_met(),
                    "{ctx}: {:?} holds before the student acts",
                    step.until
                );
            }
            satisfy(&mut h, &step.until);
            assert!(
                settle(&mut h, |a| a.lesson_condition_met()),
                "{ctx}: {:?} never holds",
                step.until
            );
            h.state_mut().lesson_next();
        }
        assert_eq!(h.state().lessons().playing, None, "lesson {} ends", i + 1);
    }
}

#[test]
fn a_lesson_goes_back_and_resumes_where_it_was_left() {
    let mut h = harness(default_app());
    h.run();
    h.state_mut().start_lesson(0, 0);
    h.state_mut().apply(Command::GoTo(40));
    settle(&mut h, |a| a.lesson_condition_met());
    h.state_mut().lesson_next();
    assert_eq!(h.state().lessons().playing, Some((0, 1)));
    // Back: the first step's setup again (the cursor at 0, four views).
    h.state_mut().lesson_back();
    h.run();
    assert_eq!(h.state().lessons().playing, Some((0, 0)));
    assert_eq!(h.state().cursor(), 0);
    assert_eq!(h.state().views().len(), 4);
    h.state_mut().leave_lesson();
    assert_eq!(h.state().lessons().playing, None);
    assert_eq!(h.state().lessons().left_at.get(&0), Some(&0));
    h.state_mut().start_lesson(0, 0);
    h.state_mut().lesson_next();
    h.state_mut().leave_lesson();
    assert_eq!(h.state().lessons().left_at.get(&0), Some(&1));
}

/// The app on the built-in map with work of the user's: a wall drawn (unsaved) and two views
/// of their choosing.
fn unsaved_work() -> AppHarness {
    let mut h = harness(default_app());
    h.run();
    let app = h.state_mut();
    app.apply(Command::SetAlgorithm(0, AlgoChoice::named("greedy")));
    app.apply(Command::AddView(AlgoChoice::named("bfs")));
    app.apply(Command::Edit(Edit::SetCell {
        x: 3,
        y: 3,
        cell: Cell::WALL,
    }));
    app.apply(Command::ToEnd);
    h.run();
    assert!(h.state().doc().dirty);
    h
}

/// What the user would see change: the map, the world, start and goal, the views' algorithms,
/// the cursor.
fn snapshot(app: &PathlabApp) -> impl PartialEq + std::fmt::Debug {
    (
        app.doc().grid.tiles().to_vec(),
        app.doc().world,
        app.doc().start,
        app.doc().goal,
        app.views()
            .iter()
            .map(|v| v.run.choice.spec())
            .collect::<Vec<_>>(),
        app.cursor(),
        app.doc().dirty,
    )
}

#[test]
fn a_lesson_over_unsaved_work_asks_first_and_cancel_leaves_everything_as_it_was() {
    use egui_kittest::kittest::Queryable;
    for i in [0, 4, 7] {
        let mut h = unsaved_work();
        let before = snapshot(h.state());
        h.state_mut().start_lesson(i, 0);
        h.run();
        // Asked before anything changed.
        h.get_by_label_contains("unsaved changes");
        assert_eq!(
            snapshot(h.state()),
            before,
            "lesson {}: asking changed the app",
            i + 1
        );
        assert_eq!(h.state().lessons().playing, None);
        h.get_by_label("Cancel").click();
        h.run();
        assert!(h.query_by_label_contains("unsaved changes").is_none());
        assert_eq!(snapshot(h.state()), before, "lesson {}: Cancel", i + 1);
        assert_eq!(h.state().lessons().playing, None);
    }
}

#[test]
fn discard_gives_exactly_the_lessons_set_up() {
    use egui_kittest::kittest::Queryable;
    let lessons = pathlab::lessons::all();
    for (i, lesson) in lessons.iter().enumerate() {
        let mut h = unsaved_work();
        h.state_mut().start_lesson(i, 0);
        h.run();
        h.get_by_label("Discard").click();
        h.run();
        assert_eq!(
            h.state().lessons().playing,
            Some((i, 0)),
            "lesson {}",
            i + 1
        );
        assert!(
            h.query_by_label_contains("unsaved changes").is_none(),
            "lesson {}: asked again",
            i + 1
        );
        let ctx = format!("lesson {} after Discard", i + 1);
        // The lesson's map and views, not the example project's own views.
        check_setup(h.state_mut(), &lesson.steps[0].setup, &ctx);
    }
}

#[test]
fn lesson_8_starts_over_resumes_and_is_marked_finished() {
    use egui_kittest::kittest::Queryable;
    let mut h = harness(default_app());
    h.run();
    let navmesh = |h: &AppHarness, ctx: &str| {
        let app = h.state();
        assert_eq!(app.doc().world.name(), "navmesh", "{ctx}");
        let names: Vec<&str> = app.views().iter().map(|v| v.run.choice.info.name).collect();
        assert_eq!(names, ["astar", "hna"], "{ctx}: {}", app.status());
    };
    h.state_mut().start_lesson(7, 0);
    h.run();
    navmesh(&h, "started");
    h.state_mut().lesson_next();
    h.state_mut().leave_lesson();
    // Another map opened meanwhile (the navmesh is the lesson's: nothing asks).
    h.state_mut().apply(Command::OpenExample(0));
    h.run();
    assert!(h.query_by_label_contains("unsaved changes").is_none());
    assert_eq!(h.state().doc().world.name(), "square");
    // Resume at step 2 stands on the lesson's navmesh and views again.
    h.state_mut()
        .apply(Command::Lesson(LessonCommand::ShowList));
    h.run();
    h.get_by_label("Resume at step 2").click();
    h.run();
    assert_eq!(h.state().lessons().playing, Some((7, 1)));
    navmesh(&h, "resumed");
    // Start over from the list, on the lesson's own (unsaved) navmesh: no question, no error.
    h.state_mut().leave_lesson();
    h.state_mut()
        .apply(Command::Lesson(LessonCommand::ShowList));
    h.run();
    h.get_by_label("Start over").click();
    h.run();
    assert!(h.query_by_label_contains("unsaved changes").is_none());
    assert_eq!(h.state().lessons().playing, Some((7, 0)));
    navmesh(&h, "started over");
    assert!(
        !h.state().status().contains("not made from"),
        "{}",
        h.state().status()
    );
    // Played to its end: the list marks it, and it starts again.
    for _ in 0..pathlab::lessons::all()[7].steps.len() {
        h.state_mut().lesson_next();
    }
    assert_eq!(h.state().lessons().playing, None);
    h.state_mut()
        .apply(Command::Lesson(LessonCommand::ShowList));
    h.run();
    assert_eq!(h.get_all_by_label("finished").count(), 1);
    assert!(h.query_by_label("Start over").is_none());
    h.get_all_by_label("Start").nth(7).unwrap().click();
    h.run();
    assert_eq!(h.state().lessons().playing, Some((7, 0)));
    navmesh(&h, "started again");
}

#[test]
fn the_status_line_speaks_of_the_lesson_played() {
    let mut h = harness(default_app());
    h.run();
    // Lesson 2 played to its end.
    h.state_mut().start_lesson(1, 0);
    for _ in 0..3 {
        h.state_mut().lesson_next();
    }
    assert_eq!(h.state().lessons().playing, None);
    assert!(h.state().status().contains("The heuristic and its weight"));
    // Lesson 1 resumed at a step whose own setup says nothing: not lesson 2's line.
    h.state_mut().start_lesson(0, 1);
    h.run();
    let status = h.state().status().to_string();
    assert!(
        status.contains("Dijkstra floods, A* aims — step 2 of 4"),
        "{status}"
    );
    assert!(!status.contains("heuristic"), "{status}");
    // Lesson 5: not the example's own description of the views it opens with.
    h.state_mut().start_lesson(4, 0);
    h.run();
    let status = h.state().status().to_string();
    assert!(status.contains("D* Lite repairs — step 1 of 3"), "{status}");
    h.state_mut().lesson_next();
    assert!(
        h.state().status().contains("step 2 of 3"),
        "{}",
        h.state().status()
    );
    h.state_mut().leave_lesson();
    assert!(h.state().status().contains("resumes it at step 2"));
}

#[test]
fn a_highlight_goes_with_the_control_an_edit_removed() {
    let mut h = harness(default_app());
    h.run();
    // Lesson 2's second step points at view 2's weight.
    h.state_mut().start_lesson(1, 1);
    h.run();
    h.run();
    assert!(
        h.state().lessons().highlighted.is_some(),
        "the weight is outlined"
    );
    // The student chooses an algorithm without a weight: no slider, no outline where it was.
    h.state_mut()
        .apply(Command::SetAlgorithm(1, AlgoChoice::named("dijkstra")));
    h.run();
    h.run();
    assert_eq!(h.state().lessons().highlighted, None);
}

#[test]
fn what_a_lesson_left_is_replaced_without_asking_but_the_users_later_edits_are_not() {
    use egui_kittest::kittest::Queryable;
    let mut h = harness(default_app());
    h.run();
    // Lesson 3's last step: the student draws a wall.
    h.state_mut().start_lesson(2, 2);
    h.state_mut().apply(Command::Edit(Edit::SetCell {
        x: 2,
        y: 2,
        cell: Cell::WALL,
    }));
    assert!(h.state().doc().dirty);
    h.state_mut().leave_lesson();
    h.state_mut().start_lesson(7, 0);
    h.run();
    assert!(h.query_by_label_contains("unsaved changes").is_none());
    assert_eq!(h.state().lessons().playing, Some((7, 0)));
    // Left, then edited by the user: their work now, so the next lesson asks.
    h.state_mut().leave_lesson();
    h.state_mut().apply(Command::Edit(Edit::SetCell {
        x: 2,
        y: 2,
        cell: Cell::WALL,
    }));
    assert!(h.state().doc().dirty);
    h.state_mut().start_lesson(0, 0);
    h.run();
    h.get_by_label_contains("unsaved changes");
    assert_eq!(h.state().lessons().playing, None);
}

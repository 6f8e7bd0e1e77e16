//! Every shipped lesson played headlessly from its first step to its last: each step's setup
//! reaches the state it states (the example's map, the world, the views' algorithms, the
//! cursor, the tool), its condition is unmet until the student does what its hint says, and
//! then met; Back runs the step before again; a lesson left resumes where it was left.

mod common;

use common::{default_app, harness};
use egui_kittest::Harness;
use pathlab::app::{AlgoChoice, Command, PathlabApp, Tool};
use pathlab::lessons::{Do, Until};
use pathlab::map::{Cell, Edit};

/// Frames until `done` holds (searches and hierarchies finish over frames).
fn settle(
    h: &mut Harness<'static, PathlabApp>,
    mut done: impl FnMut(&mut PathlabApp) -> bool,
) -> bool {
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
            Do::Scene3d => assert!(app.doc().volume.is_some(), "{ctx}: no voxels"),
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
fn satisfy(h: &mut Harness<'static, PathlabApp>, until: &Until) {
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
            assert_eq!(h.state().lessons.playing, Some((i, k)), "{ctx}");
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
        assert_eq!(h.state().lessons.playing, None, "lesson {} ends", i + 1);
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
    assert_eq!(h.state().lessons.playing, Some((0, 1)));
    // Back: the first step's setup again (the cursor at 0, four views).
    h.state_mut().lesson_back();
    h.run();
    assert_eq!(h.state().lessons.playing, Some((0, 0)));
    assert_eq!(h.state().cursor(), 0);
    assert_eq!(h.state().views().len(), 4);
    h.state_mut().leave_lesson();
    assert_eq!(h.state().lessons.playing, None);
    assert_eq!(h.state().lessons.left_at.get(&0), Some(&0));
    h.state_mut().start_lesson(0, 0);
    h.state_mut().lesson_next();
    h.state_mut().leave_lesson();
    assert_eq!(h.state().lessons.left_at.get(&0), Some(&1));
}

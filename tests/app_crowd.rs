//! Run ▸ Crowd: a batch planned as a background job on the open map, its views side by side on
//! one scale, the counts under the pointer, the difference view, the animation slider.

use crate::common;

use common::*;
use egui_kittest::kittest::Queryable;
use pathlab::app::{Command, CrowdCommand};

fn wait_for_batch(h: &mut common::AppHarness) {
    for _ in 0..4000 {
        h.step();
        if !h.state().crowd().running() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    h.run();
}

#[test]
fn a_crowd_batch_runs_in_the_background_and_shows_its_views_side_by_side() {
    let mut app = default_app();
    app.apply(Command::Crowd(CrowdCommand::Run(
        vec!["astar".into(), "flow".into(), "nonsense".into()],
        300,
    )));
    let mut h = harness(app);
    wait_for_batch(&mut h);
    let r = h.state().crowd().result.as_ref().expect("a result");
    assert_eq!(r.outcomes.len(), 2, "A* and flow, the unknown view skipped");
    for (_, _, o) in &r.outcomes {
        assert_eq!(o.found(), 300);
        // Every agent crosses at least its start and goal.
        assert!(o.traffic.total() >= 600);
    }
    // The same agents: A*'s optimal costs and the flow field's agree to the fixed point.
    let (a, f) = (&r.outcomes[0].2, &r.outcomes[1].2);
    for (x, y) in a.costs.iter().zip(&f.costs) {
        assert!((x - y).abs() < 1e-3, "{x} vs {y}");
    }
    h.get_by_label_contains("300 random agents");
    h.get_by_label_contains("agents crossing a cell");
    assert!(
        h.query_all_by_label_contains("step (first 400 agents)")
            .count()
            >= 1
    );
    // The difference of the two views: one view on a signed scale.
    h.get_by_label("difference").click();
    h.run();
    h.get_by_label_contains("second view minus first");
    let png = h.state().crowd().png().expect("an image");
    let grid = &h.state().crowd().result.as_ref().unwrap().grid;
    assert!(png.width() >= grid.width(), "one panel in difference mode");
    let csv = h.state().crowd().csv().unwrap();
    assert!(csv.starts_with("x,y,method,backend,traffic,expansions\n"));
    assert!(csv.contains(",flow,cpu,"));
}

#[test]
fn a_running_batch_can_be_cancelled() {
    let mut app = default_app();
    app.apply(Command::Crowd(CrowdCommand::Run(
        vec!["astar".into()],
        1_000_000,
    )));
    let mut h = harness(app);
    h.step();
    assert!(h.state().crowd().running());
    h.get_by_label("Cancel").click();
    wait_for_batch(&mut h);
    assert!(h.state().crowd().result.is_none());
    assert_eq!(h.state().crowd().error.as_deref(), Some("Cancelled."));
}

/// Closing the window ends its batch: the job is asked to stop and stops, on the CPU and in a
/// GPU view (between dispatches), instead of planning on unseen.
#[test]
fn closing_the_crowd_window_stops_its_batch() {
    for views in [vec!["astar".to_string()], vec!["astar-gpu".to_string()]] {
        let mut app = default_app();
        app.apply(Command::Crowd(CrowdCommand::Run(views.clone(), 1_000_000)));
        let mut h = harness(app);
        h.step();
        assert!(h.state().crowd().running(), "{views:?}");
        h.get_by_label("Close window").click();
        h.step();
        assert!(!h.state().crowd().open, "{views:?}");
        // The job sees its flag and ends; the window's next opening finds it gone.
        let t0 = std::time::Instant::now();
        h.state_mut().apply(Command::OpenPart("crowd"));
        wait_for_batch(&mut h);
        assert!(!h.state().crowd().running(), "{views:?}: still planning");
        assert!(t0.elapsed().as_secs() < 60, "{views:?}");
        assert!(
            h.state().crowd().result.is_none(),
            "{views:?}: it planned to the end"
        );
    }
}

#[test]
fn the_open_scenarios_problems_can_be_the_agents() {
    let Some(dir) = movingai() else { return };
    let scen = dir.join("bg512/AR0011SR.map.scen");
    let mut app = default_app();
    app.apply(Command::Open(Some(scen.clone())));
    let problems = app.doc().problems.len();
    assert!(problems > 1000, "the scenario opened with its problems");
    app.apply(Command::OpenPart("crowd"));
    let mut h = harness(app);
    h.run();
    h.get_by_label(&format!(
        "the open scenario's {problems} problems as the agents"
    ))
    .click();
    h.run();
    h.get_by_label("pccp (CPU)").click();
    h.run();
    h.get_by_label("Run batch").click();
    wait_for_batch(&mut h);
    let r = h.state().crowd().result.as_ref().expect("a result");
    assert_eq!(r.outcomes.len(), 1, "A* alone once PCCP is unticked");
    let o = &r.outcomes[0].2;
    assert_eq!(o.costs.len(), problems);
    // Each agent is its problem, and A* finds the scenario's optimal length.
    let all = pathlab::map::io::read_scen(&scen).unwrap();
    for (p, c) in all.iter().zip(&o.costs) {
        assert!(p.is_optimal(*c), "line {}: {c} vs {}", p.line, p.optimal);
    }
}

#[test]
fn agents_go_between_two_painted_areas() {
    let mut app = default_app();
    let (w, h) = (app.doc().grid.width(), app.doc().grid.height());
    let start_area = [(0, 0), (w / 4, h / 4)];
    let goal_area = [(w - 1 - w / 4, h - 1 - h / 4), (w - 1, h - 1)];
    app.apply(Command::Crowd(CrowdCommand::Area(0, start_area)));
    app.apply(Command::Crowd(CrowdCommand::Area(1, goal_area)));
    app.apply(Command::Crowd(CrowdCommand::Run(vec!["astar".into()], 120)));
    let mut h = harness(app);
    wait_for_batch(&mut h);
    assert!(h.state().crowd().between_areas);
    let r = h.state().crowd().result.as_ref().expect("a result");
    assert!(
        r.source.contains("between two painted areas"),
        "{}",
        r.source
    );
    let inside = |c: (u32, u32), [a, b]: [(u32, u32); 2]| {
        (a.0.min(b.0)..=a.0.max(b.0)).contains(&c.0) && (a.1.min(b.1)..=a.1.max(b.1)).contains(&c.1)
    };
    let paths = r.outcomes[0].2.paths.as_ref().expect("kept");
    assert_eq!(paths.len(), 120);
    for p in paths {
        let grid = &r.grid;
        use pathlab::space::GridSpace;
        let xy = |n: u32| GridSpace::xy(grid, n);
        assert!(inside(xy(p[0]), start_area), "starts in the start area");
        assert!(
            inside(xy(*p.last().unwrap()), goal_area),
            "ends in the goal area"
        );
    }
    h.get_by_label_contains("start area (0, 0)");
}

#[test]
fn an_area_is_painted_by_a_drag_on_the_map() {
    let mut app = default_app();
    app.apply(Command::OpenPart("crowd"));
    let mut h = harness(app);
    h.run();
    h.get_by_label("paint the start area").click();
    h.run();
    h.get_by_label_contains("Drag a rectangle on the map");
    let app = h.state();
    let rect = app.view_rects()[0];
    let (pa, pb) = (
        app.cam().centre(rect, (2, 3)),
        app.cam().centre(rect, (6, 5)),
    );
    common::press_and_move(&mut h, pa, pb);
    h.drop_at(pb);
    h.run();
    assert_eq!(h.state().crowd().areas[0], Some([(2, 3), (6, 5)]));
    assert_eq!(h.state().crowd().painting, None, "back to the window");
    h.get_by_label_contains("start area (2, 3)");
}

/// The GPU views play like the CPU's: each keeps the first agents' paths (its kernels' CPU
/// twins', which the batch is checked against), start to goal, and those paths add up to
/// exactly the traffic the GPU counted: every agent of a batch under 400 is kept. Play moves
/// them. Needs a GPU adapter (Mesa's lavapipe on CI).
#[test]
fn gpu_views_keep_their_agents_paths_and_play_them() {
    let mut app = default_app();
    app.apply(Command::Crowd(CrowdCommand::Run(
        vec!["astar-gpu".into(), "flow-gpu".into(), "pccp-gpu".into()],
        200,
    )));
    let mut h = harness(app);
    wait_for_batch(&mut h);
    let r = h.state().crowd().result.as_ref().expect("a result");
    assert!(
        !r.notices.iter().any(|n| n.contains("instead")),
        "{:?}",
        r.notices
    );
    assert_eq!(r.outcomes.len(), 3);
    for (panel, title, o) in &r.outcomes {
        assert!(panel.gpu, "{title}: planned on the GPU");
        assert!(title.contains("every cost equals the CPU's"), "{title}");
        let paths = o.paths.as_ref().expect("the GPU view keeps paths");
        assert_eq!(paths.len(), 200, "{title}");
        let mut traffic = vec![0i32; o.traffic.values.len()];
        for (i, p) in paths.iter().enumerate() {
            assert_eq!(p.is_empty(), o.costs[i].is_nan(), "{title}: agent {i}");
            // Each step to a neighbour.
            for w in p.windows(2) {
                let (a, b) = (r.grid.xy(w[0]), r.grid.xy(w[1]));
                assert!(
                    a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1 && a != b,
                    "{title}: agent {i} jumps from {a:?} to {b:?}"
                );
            }
            let mut cells = p.clone();
            cells.sort_unstable();
            cells.dedup();
            for c in cells {
                traffic[c as usize] += 1;
            }
        }
        assert_eq!(
            traffic, o.traffic.values,
            "{title}: the paths are the traffic"
        );
    }
    h.get_by_label("Play agents").click();
    for _ in 0..10 {
        h.step();
    }
    assert!(h.state().crowd().time > 0.0, "the agents move");
}

/// While the first batch plans, the views say so, with its progress, not "No batch yet".
#[test]
fn a_planning_batch_says_planning_with_its_progress() {
    let mut app = default_app();
    app.apply(Command::Crowd(CrowdCommand::Run(
        vec!["astar".into()],
        1_000_000,
    )));
    let mut h = harness(app);
    h.step();
    assert!(h.state().crowd().running());
    h.get_by_label_contains("Planning… ");
    h.get_by_label_contains("of 1000000 agents (");
    assert!(h.query_by_label_contains("No batch yet").is_none());
    h.get_by_label("Cancel").click();
    wait_for_batch(&mut h);
    h.get_by_label_contains("No batch yet");
}

/// Agents step from cell to cell: the step slider shows whole steps while they play.
#[test]
fn the_step_slider_shows_whole_steps() {
    use egui_kittest::kittest::NodeT;
    let mut app = default_app();
    app.apply(Command::Crowd(CrowdCommand::Run(vec!["astar".into()], 100)));
    let mut h = AppHarness(
        egui_kittest::Harness::builder()
            .with_size(eframe::egui::vec2(1280.0, 800.0))
            .with_max_steps(12)
            .with_step_dt(1.0 / 60.0)
            .build_ui_state(|ui, app: &mut pathlab::app::PathlabApp| app.show(ui), app),
    );
    wait_for_batch(&mut h);
    h.get_by_label("Play agents").click();
    // 30 cells a second at 60 frames a second: half a cell a frame.
    for _ in 0..10 {
        h.step();
        if h.state().crowd().time.fract() != 0.0 {
            break;
        }
    }
    let t = h.state().crowd().time;
    assert!(t.fract() != 0.0, "the test needs a time between steps: {t}");
    let shown: Vec<f64> = h
        .query_all_by_label_contains("step (first 400 agents)")
        .filter_map(|n| n.accesskit_node().numeric_value())
        .collect();
    assert!(!shown.is_empty());
    for v in shown {
        assert_eq!(v, t.floor() as f64, "the step shown at time {t}");
    }
}

/// The difference view colours on a symmetric log scale: a cell one agent apart is as far
/// from white as ln 2 / ln(1 + max) of the way to the end colour (on a linear scale it would
/// be white to the eye), checked pixel by pixel on the exported picture.
#[test]
fn the_difference_view_uses_a_symmetric_log_scale() {
    use pathlab::crowd::heat::diverging;
    use pathlab::space::Space;
    let mut app = default_app();
    app.apply(Command::Crowd(CrowdCommand::Run(
        vec!["astar".into(), "pccp".into()],
        400,
    )));
    let mut h = harness(app);
    wait_for_batch(&mut h);
    h.get_by_label("difference").click();
    h.run();
    let r = h.state().crowd().result.as_ref().expect("a result");
    let diff = r.outcomes[1].2.traffic.minus(&r.outcomes[0].2.traffic);
    let max = diff.values.iter().map(|v| v.abs()).max().unwrap();
    assert!(max > 20, "a difference worth a scale: {max}");
    let png = h.state().crowd().png().expect("an image");
    let cell = (512 / r.grid.width().max(r.grid.height())).max(1);
    let mut small = 0;
    for (n, &v) in diff.values.iter().enumerate() {
        if v == 0 || !r.grid.is_passable(n as u32) {
            continue;
        }
        let (x, y) = (n as u32 % diff.width, n as u32 / diff.width);
        let t = v.signum() as f64 * (v.abs() as f64).ln_1p() / (max as f64).ln_1p();
        let want = diverging(t);
        let got = png
            .get_pixel(x * cell + cell / 2, 16 + y * cell + cell / 2)
            .0;
        assert_eq!(got, want, "cell ({x}, {y}): {v} of ±{max}");
        small += (v.abs() <= 3) as usize;
    }
    assert!(small > 0, "some cells differ by a few agents");
    // The legend's middle is 0, its ends ±max.
    h.get_by_label_contains("symmetric log scale");
}

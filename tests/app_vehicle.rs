//! Run ▸ Vehicle planner: AIPATH planned as a background job on the open map between its
//! endpoints, drawn beside grid A*, stepped through, its path replayed through the physics.

use crate::common;

use common::*;
use egui_kittest::kittest::Queryable;
use pathlab::app::{Command, VehicleCommand};

#[test]
fn the_vehicle_planner_finds_a_drivable_path_beside_grid_astar_and_steps_through_it() {
    let mut app = default_app();
    app.apply(Command::OpenPart("vehicle"));
    app.apply(Command::Vehicle(VehicleCommand::Plan));
    let mut h = harness(app);
    for _ in 0..6000 {
        h.step();
        if !h.state().vehicle().running() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    h.run();
    let w = h.state().vehicle();
    assert!(w.error.is_none(), "{:?}", w.error);
    let r = w.result.as_ref().expect("a plan");
    let path = r
        .path
        .as_ref()
        .expect("the built-in map's endpoints are reachable");
    assert!(r.drivable.is_ok(), "{:?}", r.drivable);
    // The path ends where the goal test says, and it took as long as its last arrival says.
    let end = path.last().unwrap();
    assert!((end.pose.x - w.goal.x).hypot(end.pose.y - w.goal.y) <= w.tolerance[0] + 1e-9);
    assert_eq!(r.cost, Some(end.g));
    // Grid A*'s path has corners no car takes; the car's is no shorter than the grid's line.
    assert!(r.grid_corners > 0);
    assert!((path.len() - 1) as f64 * w.grid.cell >= 0.9 * r.grid_length);
    assert_eq!(w.step, r.expanded.len(), "the plan opens at its end");
    h.get_by_label_contains("drivable (replayed through the physics)");
    h.get_by_label_contains("corners tighter than the turning radius");
    // One iteration back: the path is not drawn, the step is.
    h.get_by_label("< back").click();
    h.run();
    let w = h.state().vehicle();
    assert_eq!(w.step, w.result.as_ref().unwrap().expanded.len() - 1);
}

/// The app with the vehicle planner planned on the built-in map, stepped `dt` seconds a frame.
fn planned(dt: f32) -> egui_kittest::Harness<'static, pathlab::app::PathlabApp> {
    let mut app = default_app();
    app.apply(Command::OpenPart("vehicle"));
    app.apply(Command::Vehicle(VehicleCommand::Plan));
    let mut h = egui_kittest::Harness::builder()
        .with_size(eframe::egui::vec2(1280.0, 800.0))
        .with_max_steps(12)
        .with_step_dt(dt)
        .build_ui_state(|ui, app: &mut pathlab::app::PathlabApp| app.show(ui), app);
    for _ in 0..6000 {
        h.step();
        if !h.state().vehicle().running() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    h.run();
    assert!(h.state().vehicle().result.is_some());
    h
}

/// "Drive car" drives in real time: after 1.5 s of the clock the car is 1.5 s along its path,
/// at 4 frames a second as at 60, and it stops at the path's end.
#[test]
fn the_car_drives_in_real_time_whatever_the_frame_rate() {
    for (dt, frames) in [(0.25f32, 6), (1.0 / 60.0, 90)] {
        let mut h = planned(dt);
        let cost = h.state().vehicle().result.as_ref().unwrap().cost.unwrap();
        assert!(cost > 2.0, "{cost}");
        h.get_by_label("Drive car").click();
        h.step();
        assert!(h.state().vehicle().playing);
        for _ in 0..frames {
            h.step();
        }
        let t = h.state().vehicle().time;
        assert!((t - 1.5).abs() < 1e-3, "{dt} s a frame: {t} s after 1.5 s");
        if dt < 0.25 {
            continue;
        }
        for _ in 0..(cost / dt as f64) as usize + 2 {
            h.step();
        }
        let w = h.state().vehicle();
        assert!(!w.playing, "it stops at the end");
        assert_eq!(w.time, cost as f32);
    }
}

/// Start and goal are dragged with the left button on the left view and land where the
/// button comes up; the right button aims a pose at where it is dragged.
#[test]
fn poses_move_under_a_left_drag_and_turn_under_a_right_drag() {
    use eframe::egui::{Event, Modifiers, PointerButton};
    let mut app = default_app();
    app.apply(Command::OpenPart("vehicle"));
    let mut h = harness(app);
    h.run();
    for k in 0..2 {
        let w = h.state().vehicle();
        let p = if k == 0 { w.start } else { w.goal };
        // Towards the map's middle: the start is on its left, the goal on its right.
        let (to_x, to_y) = (p.x + if k == 0 { 4.0 } else { -4.0 }, p.y - 3.0);
        let from = w.on_screen(p.x, p.y).expect("drawn");
        let to = w.on_screen(to_x, to_y).unwrap();
        common::press_and_move(&mut h, from, to);
        h.drop_at(to);
        h.run();
        let w = h.state().vehicle();
        let q = if k == 0 { w.start } else { w.goal };
        assert!(
            (q.x - to_x).abs() < 0.05 && (q.y - to_y).abs() < 0.05,
            "pose {k} at ({}, {}), not ({to_x}, {to_y})",
            q.x,
            q.y
        );
        assert_eq!(q.phi, p.phi, "a move keeps the heading");
    }
    // The right button: the start aimed straight down the map (+y).
    let w = h.state().vehicle();
    let s = w.start;
    let from = w.on_screen(s.x, s.y).unwrap();
    let to = w.on_screen(s.x, s.y + 5.0).unwrap();
    let button = |pos, pressed| Event::PointerButton {
        pos,
        button: PointerButton::Secondary,
        pressed,
        modifiers: Modifiers::NONE,
    };
    h.event(Event::PointerMoved(from));
    h.event(button(from, true));
    h.run();
    for k in 1..=4 {
        h.event(Event::PointerMoved(from + (to - from) * (k as f32 / 4.0)));
        h.run();
    }
    h.event(button(to, false));
    h.run();
    let q = h.state().vehicle().start;
    assert_eq!((q.x, q.y), (s.x, s.y), "aiming keeps the place");
    assert!(
        (q.phi - std::f64::consts::FRAC_PI_2).abs() < 1e-6,
        "{}",
        q.phi
    );
}

/// The views show the whole of a small map, every row of it: the left view's stretch is the
/// map, and its rectangle lies above the timeline, all of it inside the window on screen.
#[test]
fn the_views_show_every_row_of_a_small_map() {
    use egui_kittest::kittest::Queryable;
    let h = planned(1.0 / 60.0);
    let app = h.state();
    let (w, hgt) = (
        app.doc().grid.width() as f64,
        app.doc().grid.height() as f64,
    );
    let (view, stretch) = app.vehicle().left_view().expect("drawn");
    assert_eq!(stretch, [0.0, 0.0, w, hgt]);
    let back = h.get_by_label("< back").rect();
    let drive = h.get_by_label("Drive car").rect();
    assert!(
        view.bottom() < back.top(),
        "{view:?} over the timeline at {back:?}"
    );
    // The window: the area over the panels that holds the view.
    let window = h
        .ctx
        .memory(|m| {
            m.areas()
                .visible_layer_ids()
                .into_iter()
                .filter(|l| l.order == eframe::egui::Order::Middle)
                .filter_map(|l| m.area_rect(l.id))
                .find(|r| r.intersects(view))
        })
        .expect("the window");
    for r in [view, back, drive] {
        assert!(
            window.contains_rect(r),
            "{r:?} cut by the window {window:?}"
        );
    }
    assert!(window.bottom() <= 800.0, "{window:?}");
    // And it stays so: frames that input brings do not grow the views.
    let mut h = h;
    for k in 0..6 {
        h.hover_at(view.center() + eframe::egui::vec2(10.0 * k as f32, 0.0));
        h.run();
        assert_eq!(
            h.state().vehicle().left_view().unwrap().0,
            view,
            "frame {k}"
        );
    }
}

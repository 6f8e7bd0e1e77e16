//! Run ▸ Vehicle planner: AIPATH planned as a background job on the open map between its
//! endpoints, drawn beside grid A*, stepped through, its path replayed through the physics.

mod common;

use common::*;
use egui_kittest::kittest::Queryable;
use pathlab::app::Command;

#[test]
fn the_vehicle_planner_finds_a_drivable_path_beside_grid_astar_and_steps_through_it() {
    let mut app = default_app();
    app.apply(Command::OpenVehicle);
    app.apply(Command::PlanVehicle);
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

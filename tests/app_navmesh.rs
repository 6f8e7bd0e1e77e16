//! A navmesh world in the app (egui_kittest): a project whose world is a navmesh opens with its
//! polygons searched and drawn, the run's cost is A*'s on the same mesh from scratch, and an
//! edit of the square map underneath rebuilds the mesh and searches it again.
#![cfg(feature = "gui")]

use crate::common;

use common::*;
use pathlab::app::Command;
use pathlab::map::{Cell, Edit, Grid};
use pathlab::project::{write_project, Project};
use pathlab::search::{Query, Status};
use pathlab::space::{NavmeshSpace, Space, TerrainRule};
use pathlab::trace::NodeState;
use pathlab::world::Family;

/// A* on the navmesh of `grid`, from the polygons under `s` and `t`, straight from the core.
fn core_cost(grid: &Grid, s: (u32, u32), t: (u32, u32)) -> f64 {
    let mesh = NavmeshSpace::new(grid, TerrainRule::Class);
    let q = Query {
        start: mesh.polygon_at(s.0, s.1).unwrap(),
        goal: mesh.polygon_at(t.0, t.1).unwrap(),
    };
    let mut a = pathlab::algorithms::build("astar", &mesh, q).unwrap();
    assert_eq!(a.run_null(&mesh), Status::Found);
    a.cost().unwrap()
}

/// The built-in map saved as a navmesh project: its grid, start, goal and file.
fn navmesh_project(name: &str) -> (Grid, (u32, u32), (u32, u32), std::path::PathBuf) {
    let (grid, start, goal) = pathlab::builtin::default_world();
    let mut p = Project::new(&grid);
    p.start = Some(start);
    p.goal = Some(goal);
    p.world = Family::Navmesh;
    let file = crate::support::scratch_root().join(format!("pathlab-{name}.ron"));
    write_project(&p, &file).unwrap();
    (grid, start, goal, file)
}

#[test]
fn a_navmesh_project_opens_searches_and_rebuilds_after_an_edit() {
    let (grid, start, goal, file) = navmesh_project("navmesh");

    let mut app = app_for("navmesh");
    app.open_now(&file).expect("opens");
    app.apply(Command::ToEnd);
    let mesh = NavmeshSpace::new(&grid, TerrainRule::Class);
    assert_eq!(
        app.space().num_nodes(),
        mesh.num_nodes(),
        "the same polygons"
    );
    let cost = app.views()[0].run.cost().expect("found");
    assert!((cost - core_cost(&grid, start, goal)).abs() < 1e-9);
    let mut h = harness(app);
    h.run();
    use egui_kittest::kittest::Queryable;
    h.get_by_label_contains(&format!("navmesh, {} polygons", mesh.num_nodes()));
    // Every cell of a polygon the run expanded shows one colour, not a free cell's: the
    // texture colours cells by their polygon's state.
    let polys = mesh.polygon_of_cells();
    let view = &h.state().views()[0];
    let expanded = view.run.series.node[3];
    let w = grid.width();
    let colours: Vec<_> = (0..polys.len() as u32)
        .filter(|&i| polys[i as usize] == expanded)
        .map(|i| view.pixel(i % w, i / w).unwrap())
        .collect();
    assert!(colours.len() > 1 && colours.iter().all(|&c| c == colours[0]));
    let states = {
        let run = h.state_mut().run_mut(0);
        let k = run.event_cursor();
        run.rec.seek(k).clone()
    };
    let unseen = (0..polys.len() as u32)
        .find(|&i| {
            let p = polys[i as usize];
            p != pathlab::space::NO_POLYGON && states.get(p as usize) == NodeState::Unseen
        })
        .expect("a polygon the run never reached");
    let view = &h.state().views()[0];
    assert_ne!(view.pixel(unseen % w, unseen / w).unwrap(), colours[0]);

    // A wall across a free cell of the path's start polygon: the mesh is rebuilt and searched
    // again, and the cost is A*'s on the edited map.
    let [x0, y0, x1, y1] = mesh.rect(mesh.polygon_at(start.0, start.1).unwrap());
    let wall = (0..1)
        .flat_map(|_| (y0..y1).flat_map(move |y| (x0..x1).map(move |x| (x, y))))
        .find(|&c| c != start && c != goal)
        .expect("a free cell beside the start");
    h.state_mut().apply(Command::Edit(Edit::SetCell {
        x: wall.0,
        y: wall.1,
        cell: Cell::WALL,
    }));
    h.state_mut().apply(Command::ToEnd);
    h.run();
    let mut edited = grid.clone();
    edited.set(wall.0, wall.1, Cell::WALL);
    let rebuilt = NavmeshSpace::new(&edited, TerrainRule::Class);
    assert_eq!(h.state().space().num_nodes(), rebuilt.num_nodes());
    assert_ne!(
        rebuilt.num_nodes(),
        mesh.num_nodes(),
        "the wall split a polygon"
    );
    let cost = h.state().views()[0].run.cost().expect("found again");
    assert!((cost - core_cost(&edited, start, goal)).abs() < 1e-9);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn the_world_panel_turns_the_map_into_a_navmesh_and_compares_on_one() {
    use egui_kittest::kittest::Queryable;
    let mut h = harness(default_app());
    h.run();
    let (grid, start, goal) = pathlab::builtin::default_world();
    let polygons = NavmeshSpace::new(&grid, TerrainRule::Class).num_nodes();
    h.get_by_label("World: squares (to other worlds)").click();
    h.run();
    // Beside the squares first: a view of its own navmesh, with A*'s cost from the core.
    h.get_by_label("+ Compare on a navmesh").click();
    h.run();
    h.state_mut().apply(Command::ToEnd);
    h.run();
    assert_eq!(h.state().views().len(), 2);
    let cost = h.state().views()[1]
        .run
        .cost()
        .expect("found on the navmesh");
    assert!((cost - core_cost(&grid, start, goal)).abs() < 1e-9);
    let own = h.state().views()[1]
        .world
        .as_ref()
        .expect("a world of its own");
    assert_eq!(
        (own.family, own.space.num_nodes()),
        (Family::Navmesh, polygons)
    );
    // Then the document itself: a new, unsaved navmesh project that Undo takes back.
    h.get_by_label("Turn into a navmesh").click();
    h.run();
    assert_eq!(h.state().doc().world, Family::Navmesh);
    assert_eq!(h.state().space().num_nodes(), polygons);
    assert!(
        h.state()
            .status()
            .contains(&format!("navmesh of {polygons} polygons")),
        "{}",
        h.state().status()
    );
    h.state_mut().apply(Command::Undo);
    h.run();
    assert_eq!(h.state().doc().world, Family::Square);
}

/// A hierarchical run in the app: PCCP on the navmesh searches through its four phases, the
/// abstract graph recorded as its own layer, its cost no less than A*'s on the same mesh; the
/// hierarchy view draws at the top level and at L1, with the pointer over a node, at every
/// phase. HPA* on the square map finds a path no shorter than grid A*'s.
#[test]
fn a_hierarchical_run_steps_through_its_phases_and_draws_its_hierarchy() {
    use pathlab::app::AlgoChoice;
    let (grid, start, goal, file) = navmesh_project("hier");
    let mut app = app_for("hier");
    app.open_now(&file).expect("opens");
    app.apply(Command::SetAlgorithm(0, AlgoChoice::named("pccp")));
    app.apply(Command::ToEnd);
    let run = &app.views()[0].run;
    let cost = run.cost().expect("found");
    assert!(cost >= core_cost(&grid, start, goal) - 1e-9);
    let phases: Vec<u32> = run.series.phases.iter().map(|p| p.1).collect();
    assert_eq!(phases, vec![0, 1, 2, 3]);
    let layers = run.rec.layers().to_vec();
    assert_eq!(layers[1].name, "abstract graph");
    let steps = run.steps();
    let mut h = harness(app);
    for level in [usize::MAX, 1] {
        h.state_mut().apply(Command::SetHierLevel(level));
        for s in [1, steps / 2, steps] {
            h.state_mut().apply(Command::GoTo(s));
            h.run();
        }
    }
    // The pointer over the map: the hovered node's list is drawn (no panic on any cell).
    let at = h.state().cam().centre(h.state().view_rects()[0], start);
    h.hover_at(at);
    h.run();
    h.run();
    drop(h);
    let _ = std::fs::remove_file(&file);

    // HPA* on the built-in square map, its clusters drawn.
    let mut app = default_app();
    app.apply(Command::SetAlgorithm(0, AlgoChoice::named("hpa")));
    app.apply(Command::ToEnd);
    let hpa = app.views()[0].run.cost().expect("found");
    assert!(hpa >= core_astar().0 - 1e-9, "{hpa}");
    let mut h = harness(app);
    h.run();
}

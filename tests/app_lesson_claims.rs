//! What each lesson tells the class, checked on the numbers its own set-up shows: every lesson
//! played headlessly as a student follows its text, and the statistics the text points at read
//! from the app (the table's counts and costs, and the line that shows a repair's expansions
//! apart from the first search's).

use crate::common;

use common::{default_app, harness, AppHarness};
use egui_kittest::kittest::{NodeT, Queryable};
use pathlab::app::{Command, PathlabApp};
use pathlab::map::{Cell, Edit};

/// The app playing lesson `i` (0-based) at its first step, its searches at their end.
fn lesson(i: usize) -> AppHarness {
    let mut h = harness(default_app());
    h.run();
    h.state_mut().start_lesson(i, 0);
    h.run();
    assert_eq!(h.state().lessons().playing, Some((i, 0)));
    h
}

/// Frames until `done` holds: the work a step started (a search, a hierarchy built on a
/// thread) ends on its own time, not after a count of frames.
fn settle(h: &mut AppHarness, mut done: impl FnMut(&mut PathlabApp) -> bool) {
    for _ in 0..2000 {
        h.run();
        if done(h.state_mut()) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("the app never got there");
}

/// Next, once the step's condition holds.
fn next(h: &mut AppHarness) {
    settle(h, |a| a.lesson_condition_met());
    h.state_mut().lesson_next();
    h.run();
}

/// Every search run to its end, as >| does.
fn to_end(h: &mut AppHarness) {
    h.state_mut().apply(Command::ToEnd);
    settle(h, |a| !a.searching());
}

fn expanded(app: &PathlabApp, v: usize) -> u64 {
    app.views()[v].run.stats().expanded
}

fn cost(app: &PathlabApp, v: usize) -> f64 {
    app.views()[v].run.cost().expect("a path")
}

fn names(app: &PathlabApp) -> Vec<&str> {
    app.views().iter().map(|v| v.run.choice.info.name).collect()
}

#[test]
fn lesson_1_dijkstra_and_astar_cost_the_same_and_astar_expands_far_fewer() {
    let mut h = lesson(0);
    assert_eq!(names(h.state()), ["bfs", "dijkstra", "greedy", "astar"]);
    h.state_mut().apply(Command::GoTo(40));
    next(&mut h);
    to_end(&mut h);
    next(&mut h);
    let app = h.state();
    println!(
        "lesson 1: dijkstra {} {:.3}, astar {} {:.3}, greedy {} {:.3}",
        expanded(app, 1),
        cost(app, 1),
        expanded(app, 3),
        cost(app, 3),
        expanded(app, 2),
        cost(app, 2)
    );
    assert!((cost(app, 1) - cost(app, 3)).abs() < 1e-9);
    assert!(2 * expanded(app, 3) < expanded(app, 1));
    // The goal dragged behind the wall (the wall's column is x = 24).
    h.state_mut().apply(Command::MoveEndpoint(false, (26, 14)));
    next(&mut h);
    to_end(&mut h);
    let app = h.state();
    println!(
        "lesson 1 behind the wall: dijkstra {:.3}, astar {:.3}, greedy {:.3}",
        cost(app, 1),
        cost(app, 3),
        cost(app, 2)
    );
    assert!((cost(app, 1) - cost(app, 3)).abs() < 1e-9, "A* is optimal");
    assert!(
        cost(app, 2) > cost(app, 3) + 1e-9,
        "greedy's path costs more"
    );
}

#[test]
fn lesson_2_a_heavier_weight_expands_fewer_within_its_bound() {
    let mut h = lesson(1);
    to_end(&mut h);
    let app = h.state();
    assert_eq!(names(app), ["astar", "weighted-astar"]);
    let (a, w15, ca, c15) = (
        expanded(app, 0),
        expanded(app, 1),
        cost(app, 0),
        cost(app, 1),
    );
    println!("lesson 2: astar {a} {ca:.3}, w=1.5 {w15} {c15:.3}");
    assert!(w15 < a && c15 <= 1.5 * ca + 1e-9);
    next(&mut h);
    let mut c = h.state().views()[1].run.choice.clone();
    c.values.insert("weight".into(), 5.0);
    h.state_mut().apply(Command::SetAlgorithm(1, c));
    next(&mut h);
    to_end(&mut h);
    let app = h.state();
    let (w5, c5) = (expanded(app, 1), cost(app, 1));
    println!("lesson 2: w=5 {w5} {c5:.3}");
    assert!(w5 <= w15 && w5 < a, "fewer expansions");
    assert!(c5 <= 5.0 * ca + 1e-9, "within w times the optimum");
}

#[test]
fn lesson_3_bfs_walks_through_the_swamp_that_astar_goes_round() {
    let mut h = lesson(2);
    to_end(&mut h);
    let app = h.state();
    assert_eq!(names(app), ["astar", "dijkstra"]);
    println!(
        "lesson 3: astar {:.3}, dijkstra {:.3}",
        cost(app, 0),
        cost(app, 1)
    );
    assert!((cost(app, 0) - cost(app, 1)).abs() < 1e-9, "both cheapest");
    next(&mut h);
    to_end(&mut h);
    let app = h.state();
    assert_eq!(names(app), ["bfs", "astar"]);
    let swamp = |v: usize| {
        let run = &app.views()[v].run;
        let path = run.path().unwrap();
        let n = path
            .iter()
            .filter(|&&n| {
                let (x, y) = app.space().xy(n);
                app.doc().grid.get(x, y).unwrap().tile == b'S'
            })
            .count();
        (path.len(), n)
    };
    let ((bfs_len, bfs_swamp), (a_len, a_swamp)) = (swamp(0), swamp(1));
    println!(
        "lesson 3: bfs {bfs_len} cells, {bfs_swamp} swamp; astar {a_len} cells, {a_swamp} swamp"
    );
    println!(
        "lesson 3: bfs cost {:.3}, astar {:.3}",
        cost(app, 0),
        cost(app, 1)
    );
    assert!(cost(app, 0) > cost(app, 1) + 1e-9, "BFS's path costs more");
    assert!(bfs_len < a_len, "BFS takes fewer moves");
    assert!(
        bfs_swamp >= 8 && a_swamp == 1,
        "BFS wades through the wide swamp, A* the strip"
    );
}

#[test]
fn lesson_4_any_angle_paths_are_shorter_than_the_grid_path_and_no_shorter_than_the_line() {
    let mut h = lesson(3);
    to_end(&mut h);
    let app = h.state();
    assert_eq!(
        names(app),
        ["astar", "theta-star", "lazy-theta-star", "field-dstar"]
    );
    let (s, g) = (app.doc().start, app.doc().goal);
    let line = ((s.0 as f64 - g.0 as f64).powi(2) + (s.1 as f64 - g.1 as f64).powi(2)).sqrt();
    let grid = cost(app, 0);
    for v in 1..4 {
        println!(
            "lesson 4: {} {:.3} (A* {grid:.3}, line {line:.3})",
            names(app)[v],
            cost(app, v)
        );
        assert!(cost(app, v) < grid - 1e-6, "{}", names(app)[v]);
        assert!(cost(app, v) >= line - 1e-6, "{}", names(app)[v]);
    }
    next(&mut h);
    h.state_mut().apply(Command::GoTo(15));
    h.run();
    let checks = h.state().views()[1].run.stats().los_checks;
    println!("lesson 4: theta* {checks} line-of-sight checks");
    assert!(checks > 0);
}

/// The line under the statistics that shows view `v`'s searches apart, as numbers.
fn searches_apart(h: &AppHarness, title: &str) -> Vec<u64> {
    let want = format!("{title}: first search");
    let node = h.get_by_label_contains(&want);
    let text = node.accesskit_node().value().unwrap();
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect()
}

/// Lesson 5 to its last step, the student's wall drawn across the path `along` of the way
/// from the start (7 cells at right angles to the path): D* Lite's first search, its repair
/// as the line under the statistics shows them, and A*'s expansions from scratch.
fn lesson_5_with_a_wall(along: f64) -> (u64, Vec<u64>, u64) {
    let mut h = lesson(4);
    to_end(&mut h);
    let app = h.state();
    assert_eq!(names(app), ["dstar-lite", "astar"]);
    assert!((cost(app, 0) - cost(app, 1)).abs() < 1e-9, "the same path");
    let first = expanded(app, 0);
    next(&mut h);
    let app = h.state();
    let path: Vec<(u32, u32)> = app.views()[1]
        .run
        .path()
        .unwrap()
        .iter()
        .map(|&n| app.space().xy(n))
        .collect();
    let k = ((path.len() as f64 * along) as usize).clamp(1, path.len() - 2);
    let ((x, y), (px, py)) = (path[k], path[k - 1]);
    let (nx, ny) = (py as i64 - y as i64, x as i64 - px as i64);
    let wall: Vec<(u32, u32, Cell)> = (-3i64..=3)
        .map(|t| ((x as i64 + nx * t) as u32, (y as i64 + ny * t) as u32))
        .filter(|&c| c != app.doc().start && c != app.doc().goal)
        .map(|(x, y)| (x, y, Cell::WALL))
        .collect();
    h.state_mut().apply(Command::Edit(Edit::Cells(wall)));
    next(&mut h);
    to_end(&mut h);
    settle(&mut h, |a| a.views()[0].run.oracle.is_some());
    let app = h.state();
    assert!(
        app.views()[0].run.repaired,
        "D* Lite repaired, not restarted"
    );
    assert!(
        (cost(app, 0) - cost(app, 1)).abs() < 1e-9,
        "the repair is exact"
    );
    let (total, scratch) = (expanded(app, 0), expanded(app, 1));
    // "1 D* Lite: first search F, repair 1: R expanded", F + R the table's total.
    let shown = searches_apart(&h, "D* Lite");
    assert_eq!(shown, [1, first, 1, total - first], "{along}");
    (first, shown, scratch)
}

#[test]
fn lesson_5_dstar_lite_repairs_with_fewer_expansions_than_astar_from_scratch() {
    // Wherever across the path the student draws the wall.
    for along in [0.1, 0.25, 0.5, 0.75] {
        let (first, shown, scratch) = lesson_5_with_a_wall(along);
        println!(
            "lesson 5, wall {along} along: D* Lite first {first}, repair {}, A* {scratch}",
            shown[3]
        );
        assert!(
            shown[3] < scratch,
            "{along}: the repair expands fewer than A* from scratch"
        );
    }
}

#[test]
fn lesson_6_the_more_a_walker_knows_the_shorter_its_walk() {
    let mut h = lesson(5);
    to_end(&mut h);
    assert!(h.state().views()[0].run.cost().is_some());
    next(&mut h);
    to_end(&mut h);
    let app = h.state();
    let walks: Vec<f64> = (0..3).map(|v| cost(app, v)).collect();
    println!("lesson 6: walks at 0, 50, 100% known: {walks:?}");
    assert!(walks[0] >= walks[1] && walks[1] >= walks[2] && walks[0] > walks[2]);
}

#[test]
fn lesson_7_the_agent_replans_on_its_way() {
    let mut h = lesson(6);
    to_end(&mut h);
    assert!(h.state().views()[0].run.cost().is_some());
    next(&mut h);
    h.state_mut().apply(Command::GoTo(20));
    next(&mut h);
    let f = h.state().flight().expect("the scene's flight");
    let flown = f.flown.as_ref().expect("flown");
    println!(
        "lesson 7: at {:.2} s, {} replans",
        f.time(),
        flown.result.replans
    );
    assert!((f.time() - 8.0).abs() < 0.5);
    assert!(f.replan().is_some(), "replanned by then");
}

#[test]
fn lesson_8_hna_expands_fewer_than_astar_on_the_maze_and_more_with_a_second_level() {
    let mut h = lesson(7);
    assert_eq!(h.state().doc().world.name(), "navmesh");
    assert_eq!(names(h.state()), ["astar", "hna"]);
    // As the text counts them.
    assert_eq!(h.state().space().num_nodes(), 169);
    let maze = pathlab::examples::EXAMPLES
        .iter()
        .find(|e| e.file == "maze.ron")
        .unwrap();
    let grid = pathlab::examples::open(maze).unwrap().grid;
    assert_eq!(grid.tiles().iter().filter(|&&t| t == b'.').count(), 545);
    next(&mut h);
    to_end(&mut h);
    let app = h.state();
    let (a, hna) = (expanded(app, 0), expanded(app, 1));
    println!(
        "lesson 8: A* {a} ({:.3}), HNA* {hna} ({:.3})",
        cost(app, 0),
        cost(app, 1)
    );
    assert!(2 * hna < a, "far fewer expansions");
    assert!(
        (cost(app, 0) - cost(app, 1)).abs() < 1e-9,
        "a path of the same cost"
    );
    next(&mut h);
    let mut c = h.state().views()[1].run.choice.clone();
    c.values.insert("levels".into(), 2.0);
    h.state_mut().apply(Command::SetAlgorithm(1, c));
    next(&mut h);
    to_end(&mut h);
    let app = h.state();
    let hna2 = expanded(app, 1);
    println!("lesson 8: HNA* with two levels {hna2}");
    assert!(hna2 > a, "two levels expand more than A*");
}

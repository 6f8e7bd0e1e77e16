//! JPS+ in the app: its jump table built once and shown in the statistics, patched after an
//! edit (the status line says so) and the run after it still A*'s cost on the edited map; its
//! jumps drawn mid-run.

use crate::common;

use common::{default_app, harness};
use egui_kittest::kittest::Queryable;
use pathlab::app::AlgoChoice;
use pathlab::map::{Cell, Edit};
use pathlab::search::Query;
use pathlab::space::GridSpace;

fn astar_cost(grid: &pathlab::map::Grid, s: (u32, u32), t: (u32, u32)) -> f64 {
    let sp = GridSpace::octile(grid);
    let q = Query {
        start: sp.node(s.0, s.1).unwrap(),
        goal: sp.node(t.0, t.1).unwrap(),
    };
    let mut a = pathlab::algorithms::build("astar", &sp, q).unwrap();
    a.run_null(&sp);
    a.cost().unwrap()
}

#[test]
fn jps_plus_patches_its_table_after_an_edit_and_stays_optimal() {
    let mut h = harness(default_app());
    h.run();
    h.state_mut()
        .set_algorithm(0, AlgoChoice::named("jps-plus"));
    h.run();
    // Mid-run: jumps to draw, from expanded nodes to the jump points they reached.
    h.get_by_label(">").click();
    h.get_by_label(">").click();
    h.run();
    let (tree, _scans) = h.state_mut().run_mut(0).jumps();
    assert!(!tree.is_empty(), "no jumps drawn after two steps");
    h.get_by_label(">|").click();
    h.run();
    let (s, t) = (h.state().doc().start, h.state().doc().goal);
    let want = astar_cost(&h.state().doc().grid, s, t);
    h.get_by_label_contains(&format!("cost {want:.3}"));
    h.get_by_label_contains("prepared: jps-plus jump table");

    // A wall in the middle of the path: the table is patched, not rebuilt.
    let path = h.state().views()[0].run.path().unwrap().to_vec();
    let mid = path[path.len() / 2];
    let (x, y) = h.state().space().xy(mid);
    h.state_mut().edit(Edit::SetCell {
        x,
        y,
        cell: Cell::WALL,
    });
    h.run();
    assert!(
        h.state().status().contains("patched after the edit"),
        "status: {}",
        h.state().status()
    );
    h.get_by_label(">|").click();
    h.run();
    let want = astar_cost(&h.state().doc().grid, s, t);
    let got = h.state().views()[0].run.cost().unwrap();
    assert!(
        (got - want).abs() < 1e-9,
        "after the edit: {got} vs A*'s {want}"
    );
}

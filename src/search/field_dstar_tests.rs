//! Field D* on small worlds whose answers are known.

use super::FieldDStar;
use crate::map::Grid;
use crate::search::segment_clear;
use crate::search::{Query, Search, SearchState, Status};
use crate::space::{Connectivity, GridSpace, Space, TerrainRule};
use crate::trace::{EventKind, NullTracer, Recorder};

fn run(rows: &[&str], s: (u32, u32), g: (u32, u32)) -> (GridSpace, FieldDStar, Status) {
    let space = GridSpace::from_rows(rows, Connectivity::Eight, TerrainRule::Class);
    let q = Query {
        start: space.node(s.0, s.1).unwrap(),
        goal: space.node(g.0, g.1).unwrap(),
    };
    let mut f = FieldDStar::new(&space, q);
    let st = f.run(&space, &mut NullTracer);
    (space, f, st)
}

#[test]
fn an_open_field_is_crossed_nearly_straight() {
    let (_, f, st) = run(
        &["........", "........", "........", "........"],
        (0, 0),
        (7, 3),
    );
    assert_eq!(st, Status::Found);
    // Interpolation bends the line a little (a corner's value is a blend, not a distance), most
    // near the ends, which are cell centres among corners: within 2.5% of the straight line,
    // well under the grid's 4 + 3√2.
    let straight = (7.0f64).hypot(3.0);
    let cost = f.cost().unwrap();
    assert!(
        cost >= straight && cost < straight * 1.025,
        "{cost} {:?}",
        f.points()
    );
    // The drawn path re-chooses every crossing: here no dearer than the search estimated.
    assert!(f.estimate() >= cost - 1e-9, "{} {cost}", f.estimate());
}

#[test]
fn a_wall_is_hugged_along_its_side() {
    let rows = [
        "..........",
        "....@@....",
        "....@@....",
        "..........",
        "..........",
    ];
    let (_, f, st) = run(&rows, (0, 2), (9, 2));
    assert_eq!(st, Status::Found);
    // No shorter than the taut string round the wall's lower corners (4, 3) and (6, 3), and
    // shorter than the grid's way round: one cell down, seven along, one up.
    let taut = (3.5f64).hypot(0.5) * 2.0 + 2.0;
    let grid = 7.0 + 2.0 * std::f64::consts::SQRT_2;
    let cost = f.cost().unwrap();
    assert!(cost >= taut && cost < grid, "{cost} {:?}", f.points());
    let cost = |x: i64, y: i64| {
        if (4..6).contains(&x) && (1..3).contains(&y) {
            f64::INFINITY
        } else {
            1.0
        }
    };
    for w in f.points().windows(2) {
        assert!(segment_clear(w[0], w[1], &cost), "{w:?}");
    }
}

#[test]
fn diagonal_gaps_are_closed_and_walled_goals_unreachable() {
    // The only way between the halves is the corner between two diagonal walls.
    let (_, _, st) = run(&["..@", ".@.", "@.."], (0, 0), (2, 2));
    assert_eq!(st, Status::NoPath);
    let (_, f, st) = run(&["...", ".@.", "..."], (1, 0), (1, 0));
    assert_eq!((st, f.cost()), (Status::Found, Some(0.0)));
    let space = GridSpace::from_rows(&["..", ".@"], Connectivity::Eight, TerrainRule::Class);
    let q = Query { start: 0, goal: 3 };
    let mut f = FieldDStar::new(&space, q);
    assert_eq!(f.run(&space, &mut NullTracer), Status::NoPath);
}

#[test]
fn dear_cells_are_crossed_where_it_pays_and_skirted_where_not() {
    // A band of cells costing `c` across the middle of an open field, with a gap at the right
    // end: cheap bands are crossed straight, dear ones skirted through the gap.
    for (c, crosses) in [(1.2f32, true), (6.0, true), (30.0, false)] {
        let mut grid = Grid::from_rows(&["..........", "..........", "..........", ".........."]);
        let mut costs = vec![1.0f32; 40];
        for x in 0..9 {
            costs[10 + x] = c;
        }
        grid.set_costs(costs).unwrap();
        let space = GridSpace::new(&grid, Connectivity::Eight, TerrainRule::Class);
        let q = Query {
            start: space.node(0, 0).unwrap(),
            goal: space.node(0, 3).unwrap(),
        };
        let mut f = FieldDStar::new(&space, q);
        assert_eq!(f.run(&space, &mut NullTracer), Status::Found);
        let straight = 3.0 + (c as f64 - 1.0);
        let cost = f.cost().unwrap();
        if crosses {
            assert!(
                (cost - straight).abs() < 1e-6,
                "{c}: {cost} {:?}",
                f.points()
            );
        } else {
            // Round through the gap at x = 9: at least 2 · √(8.5² + 0.5²) of plain ground.
            assert!(
                cost < straight && cost >= 2.0 * (8.5f64).hypot(0.5),
                "{c}: {cost}"
            );
        }
    }
}

#[test]
fn its_trace_names_corners_after_the_cells_and_ends_with_the_drawn_cost() {
    let space = GridSpace::from_rows(
        &["....", ".@..", "...."],
        Connectivity::Eight,
        TerrainRule::Class,
    );
    let q = Query { start: 0, goal: 11 };
    let mut f = FieldDStar::new(&space, q);
    let mut rec = Recorder::for_space(&space, &f.layers());
    assert_eq!(f.run(&space, &mut rec), Status::Found);
    let cells = 12;
    let events: Vec<_> = rec.iter().collect();
    let expands: Vec<_> = events
        .iter()
        .filter(|e| e.kind == EventKind::Expand)
        .collect();
    assert_eq!(expands.len() as u64, f.stats().expanded);
    assert!(expands
        .iter()
        .all(|e| e.node >= cells && e.node < cells + 20));
    let end = events.last().unwrap();
    assert_eq!(end.kind, EventKind::Found);
    assert!((end.a as f64 - f.cost().unwrap()).abs() < 1e-5);
    let path: Vec<u32> = events
        .iter()
        .filter(|e| e.kind == EventKind::PathNode)
        .map(|e| e.node)
        .collect();
    assert_eq!(path, f.path().unwrap());
    assert_eq!((path[0], *path.last().unwrap()), (0, 11));
}

/// Cells have no g and no corner's point; corners do, at their place.
#[test]
fn cells_have_no_value_and_corners_sit_where_their_cells_meet() {
    let (space, f, st) = run(&["....", ".@..", "...."], (0, 0), (3, 2));
    assert_eq!(st, Status::Found);
    let cells = space.num_nodes() as u32;
    for n in 0..cells {
        assert_eq!(f.g(n), None, "cell {n}");
        assert_eq!(f.layer_point(n), None, "cell {n}");
    }
    // Corner (x, y) is node cells + y·(w + 1) + x.
    assert_eq!(f.layer_point(cells + 5 + 2), Some([2.0, 1.0]));
    assert_eq!(f.layer_point(cells + 20), None);
    assert!((0..20).any(|k| f.g(cells + k).is_some()));
}

/// A search stopped halfway and reset onto another query, or another world of another size,
/// answers as a fresh one does: every corner the first one touched is forgotten.
#[test]
fn a_reset_forgets_the_query_before_even_one_left_halfway() {
    let a = GridSpace::from_rows(
        &["......", "..@@..", "......", ".@...."],
        Connectivity::Eight,
        TerrainRule::Class,
    );
    let b = GridSpace::from_rows(
        &["...", ".@.", "...", "...", "..."],
        Connectivity::Eight,
        TerrainRule::Class,
    );
    let qa = Query {
        start: a.node(0, 0).unwrap(),
        goal: a.node(5, 3).unwrap(),
    };
    let qa2 = Query {
        start: a.node(5, 0).unwrap(),
        goal: a.node(0, 2).unwrap(),
    };
    let qb = Query {
        start: b.node(0, 4).unwrap(),
        goal: b.node(2, 0).unwrap(),
    };
    let fresh = |space: &GridSpace, q: Query| {
        let mut f = FieldDStar::new(space, q);
        f.run(space, &mut NullTracer);
        (
            f.cost(),
            f.stats().expanded,
            f.stats().generated,
            f.points().to_vec(),
        )
    };
    let mut f = FieldDStar::new(&a, qa);
    for _ in 0..6 {
        f.step(&a, &mut NullTracer);
    }
    for (space, q) in [(&a, qa2), (&b, qb), (&a, qa)] {
        f.reset(space, q);
        f.run(space, &mut NullTracer);
        let got = (
            f.cost(),
            f.stats().expanded,
            f.stats().generated,
            f.points().to_vec(),
        );
        assert_eq!(got, fresh(space, q));
        // And halfway again before the next.
        f.reset(space, q);
        for _ in 0..4 {
            f.step(space, &mut NullTracer);
        }
    }
}

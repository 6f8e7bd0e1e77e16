//! The list's algorithms against what worlds offer: refusals where an algorithm needs what a
//! world lacks.

use super::*;
use crate::space::{Heuristic, NodeId, Space, SpaceKind};

/// A ring: node i → i + 1 (one way when `directed`), renumbered by edits unless
/// `stable`.
struct Ring(u32, bool, bool);

impl Space for Ring {
    fn kind(&self) -> SpaceKind {
        SpaceKind::Square
    }
    fn directed(&self) -> bool {
        self.1
    }
    fn stable_ids(&self) -> bool {
        self.2
    }
    fn uniform_costs(&self) -> bool {
        true
    }
    fn num_nodes(&self) -> usize {
        self.0 as usize
    }
    fn is_passable(&self, _: NodeId) -> bool {
        true
    }
    fn neighbours(&self, n: NodeId) -> impl Iterator<Item = (NodeId, f64)> + '_ {
        std::iter::once(((n + 1) % self.0, 1.0))
    }
    fn native_heuristic(&self) -> Heuristic {
        Heuristic::Zero
    }
    fn heuristics(&self) -> &'static [Heuristic] {
        &[Heuristic::Zero]
    }
    fn heuristic(&self, _: Heuristic, _: NodeId, _: NodeId) -> f64 {
        0.0
    }
    fn position(&self, n: NodeId) -> [f32; 3] {
        [n as f32, 0.0, 0.0]
    }
    fn max_degree(&self) -> usize {
        1
    }
    fn has_line_of_sight(&self) -> bool {
        true
    }
}

#[test]
fn searches_that_walk_edges_backwards_are_refused_on_directed_worlds() {
    let ring = Ring(5, true, true);
    for info in all() {
        let why = info.needs.refusal(info.name, &ring);
        let backwards = ["dstar-lite", "ad-star", "rtd-star"].contains(&info.name);
        assert_eq!(why.is_some(), backwards, "{}: {why:?}", info.name);
        if let Some(why) = why {
            assert!(why.contains("undirected"), "{why}");
            assert_eq!(why.lines().count(), 1);
        }
    }
    // Edges both ways, but nodes renumbered by every edit.
    let renumbered = Ring(5, false, false);
    for name in ["dstar-lite", "ad-star", "rtd-star"] {
        let info = find(name).unwrap();
        let why = info.needs.refusal(name, &renumbered).expect("refused");
        assert!(why.contains("survive edits"), "{why}");
    }
    assert_eq!(
        find("astar").unwrap().needs.refusal("astar", &renumbered),
        None
    );
}

#[test]
fn any_angle_searches_are_refused_where_there_is_no_line_of_sight() {
    let mesh = crate::space::NavmeshSpace::new(
        &crate::map::Grid::from_rows(&["....", ".@..", "...."]),
        crate::space::TerrainRule::Class,
    );
    let q = Query { start: 0, goal: 1 };
    for name in ["theta-star", "lazy-theta-star"] {
        let Err(why) = build(name, &mesh, q) else {
            panic!("{name} built on a navmesh");
        };
        assert!(why.contains("line of sight"), "{why}");
    }
    assert!(build("astar", &mesh, q).is_ok());
}

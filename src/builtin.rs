//! The map the app opens on, embedded so pathlab works with no files at hand.

use crate::map::{io::parse_map, Grid};
use std::path::Path;

/// Text of the built-in teaching map (`maps/default.map`): a wall with one gap, a U-shaped trap
/// facing the start, swamp, trees and water.
pub const DEFAULT_MAP: &str = include_str!("../maps/default.map");

/// The built-in map with its start and goal cells.
pub fn default_world() -> (Grid, (u32, u32), (u32, u32)) {
    let grid =
        parse_map(DEFAULT_MAP, Path::new("maps/default.map")).expect("the built-in map parses");
    (grid, (4, 14), (44, 15))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{AStar, Query, Search, Status};
    use crate::space::{GridSpace, Heuristic};
    use crate::trace::NullTracer;

    #[test]
    fn default_world_is_solvable() {
        let (g, s, t) = default_world();
        let sp = GridSpace::octile(&g);
        let q = Query {
            start: sp.node(s.0, s.1).unwrap(),
            goal: sp.node(t.0, t.1).unwrap(),
        };
        let mut a = AStar::new(&sp, q, Heuristic::Octile);
        assert_eq!(a.run(&sp, &mut NullTracer), Status::Found);
    }
}

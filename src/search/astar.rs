//! A*: best-first by f = g + h. Optimal with an admissible heuristic; with a consistent one it
//! expands no node twice.

use super::best_first::{best_first_algorithm, BestFirst, Priority};
use super::params::{ParamSpec, Params, HEURISTIC};
use super::Query;
use crate::space::{Heuristic, Space};

best_first_algorithm!(
    /// A* search.
    AStar
);

impl AStar {
    /// Registry parameters.
    pub const PARAMS: &'static [ParamSpec] = &[HEURISTIC];

    /// A* for `query` with heuristic `h`.
    pub fn new<S: Space>(space: &S, query: Query, h: Heuristic) -> AStar {
        AStar(BestFirst::new(
            space,
            query,
            Priority::Weighted(1.0),
            h,
            true,
        ))
    }

    /// A* from registry parameters.
    pub fn from_params<S: Space>(space: &S, query: Query, p: &Params) -> AStar {
        AStar::new(space, query, p.heuristic())
    }
}

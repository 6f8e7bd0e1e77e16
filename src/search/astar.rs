//! A*: best-first by f = g + h. Optimal with a consistent heuristic (octile, Euclidean and zero
//! are consistent on grids; so is Manhattan on 4-connected ones), so closed nodes are never
//! reopened: their g is final, and not even reading it saves time on every expansion.

use super::best_first::{BestFirst, Priority};
use super::best_first_algorithm::best_first_algorithm;
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
            false,
        ))
    }

    /// A* from registry parameters.
    pub fn from_params<S: Space>(space: &S, query: Query, p: &Params) -> AStar {
        AStar::new(space, query, p.heuristic())
    }
}

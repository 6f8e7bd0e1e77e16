//! Greedy best-first: expands the node that looks nearest the goal (f = h). Fast, not optimal.

use super::best_first::{BestFirst, Priority};
use super::best_first_algorithm::best_first_algorithm;
use super::params::{ParamSpec, Params, HEURISTIC};
use super::Query;
use crate::space::{Heuristic, Space};

best_first_algorithm!(
    /// Greedy best-first search.
    Greedy
);

impl Greedy {
    /// Registry parameters.
    pub const PARAMS: &'static [ParamSpec] = &[HEURISTIC];

    /// Greedy best-first with heuristic `h`.
    pub fn new<S: Space>(space: &S, query: Query, h: Heuristic) -> Greedy {
        Greedy(BestFirst::new(
            space,
            query,
            Priority::HeuristicOnly,
            h,
            false,
        ))
    }

    /// Greedy best-first from registry parameters.
    pub fn from_params<S: Space>(space: &S, query: Query, p: &Params) -> Greedy {
        Greedy::new(space, query, p.heuristic())
    }
}

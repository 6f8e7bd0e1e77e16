//! Dijkstra's algorithm: best-first by g alone; the oracle every other algorithm is checked against.

use super::best_first::{BestFirst, Priority};
use super::best_first_algorithm::best_first_algorithm;
use super::params::{ParamSpec, Params};
use super::Query;
use crate::space::{Heuristic, Space};

best_first_algorithm!(
    /// Dijkstra's uniform-cost search.
    Dijkstra
);

impl Dijkstra {
    /// Registry parameters (none).
    pub const PARAMS: &'static [ParamSpec] = &[];

    /// Dijkstra for `query`.
    pub fn new<S: Space>(space: &S, query: Query) -> Dijkstra {
        Dijkstra(BestFirst::new(
            space,
            query,
            Priority::Weighted(1.0),
            Heuristic::Zero,
            false,
        ))
    }

    /// Dijkstra from registry parameters.
    pub fn from_params<S: Space>(space: &S, query: Query, _p: &Params) -> Dijkstra {
        Dijkstra::new(space, query)
    }
}

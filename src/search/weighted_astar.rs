//! Weighted A*: f = g + w·h. With an admissible heuristic and reopening, the path costs at most
//! w times the optimum, usually after far fewer expansions.

use super::best_first::{BestFirst, Priority};
use super::best_first_algorithm::best_first_algorithm;
use super::params::{ParamKind, ParamSpec, Params, HEURISTIC};
use super::Query;
use crate::space::{Heuristic, Space};

best_first_algorithm!(
    /// Weighted A* search.
    WeightedAStar
);

impl WeightedAStar {
    /// Registry parameters.
    pub const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "weight",
            help: "heuristic weight w ≥ 1; the path costs at most w × optimal",
            kind: ParamKind::Float,
            default: 1.5,
            min: 1.0,
            max: 100.0,
        },
        HEURISTIC,
    ];

    /// Weighted A* with weight `w` (≥ 1) and heuristic `h`.
    pub fn new<S: Space>(space: &S, query: Query, w: f64, h: Heuristic) -> WeightedAStar {
        WeightedAStar(BestFirst::new(space, query, Priority::Weighted(w), h, true))
    }

    /// Weighted A* from registry parameters.
    pub fn from_params<S: Space>(space: &S, query: Query, p: &Params) -> WeightedAStar {
        WeightedAStar::new(space, query, p.get("weight"), p.heuristic())
    }
}

//! The one list of algorithms that the GUI menus, CLI flags, experiment presets, tests and
//! benchmarks iterate. Adding an algorithm is one file plus one entry here.

use super::params::{ParamSpec, Params};
use super::{
    AStar, AdStar, AraStar, Bfs, DStarLite, Dijkstra, DynSearch, Greedy, Query, WeightedAStar,
};
use crate::space::{GridSpace, SpaceKind};

/// What an algorithm promises about the paths it returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guarantee {
    /// Lowest cost, given an admissible heuristic.
    Optimal,
    /// At most the named parameter times the lowest cost, given an admissible heuristic.
    BoundedBy(&'static str),
    /// Fewest moves (BFS): a valid path, optimal only when every move costs the same.
    FewestMoves,
    /// A valid path, no bound.
    Valid,
}

/// Builds the search for one kind of space.
pub type Maker<S> = fn(&S, Query, &Params) -> Box<dyn DynSearch<S>>;

/// One registered algorithm.
#[derive(Clone, Copy)]
pub struct AlgoInfo {
    /// Name on the command line and in files.
    pub name: &'static str,
    /// Name in the GUI.
    pub title: &'static str,
    /// One line for tooltips and `--help`.
    pub summary: &'static str,
    pub params: &'static [ParamSpec],
    pub guarantee: Guarantee,
    /// Constructor on square grids (one field per space family as they arrive).
    pub grid: Option<Maker<GridSpace>>,
}

impl AlgoInfo {
    /// The space families this algorithm accepts.
    pub fn spaces(&self) -> Vec<SpaceKind> {
        let mut v = vec![];
        if self.grid.is_some() {
            v.push(SpaceKind::Grid);
        }
        v
    }
}

impl std::fmt::Debug for AlgoInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlgoInfo")
            .field("name", &self.name)
            .finish()
    }
}

/// Boxes a constructor generic over the space into a registry maker.
macro_rules! maker {
    ($t:ty) => {
        Some(|s, q, p| Box::new(<$t>::from_params(s, q, p)))
    };
}

static ALGORITHMS: &[AlgoInfo] = &[
    AlgoInfo {
        name: "astar",
        title: "A*",
        summary: "best-first by g + h; optimal with an admissible heuristic",
        params: AStar::PARAMS,
        guarantee: Guarantee::Optimal,
        grid: maker!(AStar),
    },
    AlgoInfo {
        name: "dijkstra",
        title: "Dijkstra",
        summary: "best-first by g; optimal, explores in every direction",
        params: Dijkstra::PARAMS,
        guarantee: Guarantee::Optimal,
        grid: maker!(Dijkstra),
    },
    AlgoInfo {
        name: "ara-star",
        title: "ARA*",
        summary: "anytime: weighted A* passes with falling ε, each solution ≤ ε × optimal, the last optimal",
        params: AraStar::PARAMS,
        guarantee: Guarantee::Optimal,
        grid: maker!(AraStar),
    },
    AlgoInfo {
        name: "ad-star",
        title: "AD*",
        summary: "anytime and incremental: D* Lite repairs with ARA*'s falling ε; the last solution optimal",
        params: AdStar::PARAMS,
        guarantee: Guarantee::Optimal,
        grid: maker!(AdStar),
    },
    AlgoInfo {
        name: "dstar-lite",
        title: "D* Lite",
        summary: "backward search that repairs its g/rhs values when the map changes; optimal at ε = 1",
        params: DStarLite::PARAMS,
        guarantee: Guarantee::BoundedBy("epsilon"),
        grid: maker!(DStarLite),
    },
    AlgoInfo {
        name: "rtd-star",
        title: "RTD*",
        summary: "real-time: an agent moves a cell per decision of at most `limit` expansions (D* Lite, else LSS-LRTA*); its walk is the path",
        params: super::rtd::RtdStar::PARAMS,
        guarantee: Guarantee::Valid,
        grid: maker!(super::rtd::RtdStar),
    },
    AlgoInfo {
        name: "weighted-astar",
        title: "Weighted A*",
        summary: "best-first by g + w·h; at most w × optimal, usually much faster",
        params: WeightedAStar::PARAMS,
        guarantee: Guarantee::BoundedBy("weight"),
        grid: maker!(WeightedAStar),
    },
    AlgoInfo {
        name: "greedy",
        title: "Greedy best-first",
        summary: "best-first by h alone; fast, no bound on the path",
        params: super::Greedy::PARAMS,
        guarantee: Guarantee::Valid,
        grid: maker!(Greedy),
    },
    AlgoInfo {
        name: "bfs",
        title: "Breadth-first",
        summary: "FIFO order; fewest moves, ignores costs",
        params: Bfs::PARAMS,
        guarantee: Guarantee::FewestMoves,
        grid: maker!(Bfs),
    },
];

/// Every registered algorithm, in menu order.
pub fn all() -> &'static [AlgoInfo] {
    ALGORITHMS
}

/// The algorithm with this name.
pub fn find(name: &str) -> Option<&'static AlgoInfo> {
    ALGORITHMS.iter().find(|a| a.name == name)
}

/// Parses `name` or `name:key=value,...` into an algorithm and checked parameters.
pub fn parse_spec(spec: &str) -> Result<(&'static AlgoInfo, Params), String> {
    let (name, args) = spec.split_once(':').unwrap_or((spec, ""));
    let info = find(name).ok_or_else(|| {
        let names: Vec<_> = ALGORITHMS.iter().map(|a| a.name).collect();
        format!("unknown algorithm `{name}` (known: {})", names.join(", "))
    })?;
    let params = Params::parse(info.params, args).map_err(|e| format!("{name}: {e}"))?;
    Ok((info, params))
}

/// Builds an algorithm on a grid from a spec like `weighted-astar:weight=2`.
pub fn build_grid(
    spec: &str,
    space: &GridSpace,
    query: Query,
) -> Result<Box<dyn DynSearch<GridSpace>>, String> {
    let (info, params) = parse_spec(spec)?;
    let make = info
        .grid
        .ok_or_else(|| format!("{} does not run on square grids", info.name))?;
    Ok(make(space, query, &params))
}

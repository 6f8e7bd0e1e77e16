//! The one list of algorithms that the GUI menus, CLI flags, experiment presets, tests and
//! benchmarks iterate. Adding an algorithm is one file plus one entry here.
//!
//! The list names algorithms from every layer below it (the searches in `search/`, the
//! hierarchies in `hier/`, the car planner in `vehicle/`) and reads the families of `world/`;
//! the words it is written in (`AlgoInfo`, `Makers`, `Needs`, parameters) are
//! `search::registry`'s, so nothing below needs the list to compile.

mod worlds;

pub use worlds::family_refusal;

use crate::search::params::Params;
use crate::search::registry::{
    build_with, AlgoInfo, Estimate, Family, Group, Guarantee, Makers, Needs, Overlay,
};
use crate::search::{
    self, AStar, AdStar, AraStar, Bfs, DStarLite, Dijkstra, DynSearch, Greedy, Jps, Query,
    ThetaStar, WeightedAStar,
};
use crate::space::GridSpace;

/// Generates `every!` from the family list ([`crate::for_each_family`]): one constructor per
/// family, each calling the same function.
macro_rules! declare_every {
    ($d:tt ; $($v:ident $({ $($pf:ident : $pt:ty),* })? / $f:ident : $world:ty => $space:ty, $name:literal, $title:literal;)*) => {
        /// Constructors calling `$ctor(space, query, params)` on every family.
        macro_rules! every {
            ($d ($d ctor:tt)+) => {
                Makers {
                    $($f: Some(|s, q, p, _| Ok(Box::new($d ($d ctor)+(s, q, p)))),)*
                }
            };
        }
    };
}

crate::for_each_family!(declare_every, $);

/// The constructors of an algorithm written once over `S: Space`, for every family.
macro_rules! generic {
    ($t:ty) => {
        every!(<$t>::from_params)
    };
}

static ALGORITHMS: &[AlgoInfo] = &[
    AlgoInfo {
        name: "astar",
        title: "A*",
        summary: "best-first by g + h; optimal with an admissible heuristic",
        params: AStar::PARAMS,
        guarantee: Guarantee::Optimal,
        group: Group::Classic,
        makers: generic!(AStar),
        overlays: &[],
        needs: Needs::NONE,
        phases: &[],
        estimate: Estimate::ToGoal,
    },
    AlgoInfo {
        name: "dijkstra",
        title: "Dijkstra",
        summary: "best-first by g; optimal, explores in every direction",
        params: Dijkstra::PARAMS,
        guarantee: Guarantee::Optimal,
        group: Group::Classic,
        makers: generic!(Dijkstra),
        overlays: &[],
        needs: Needs::NONE,
        phases: &[],
        estimate: Estimate::None,
    },
    AlgoInfo {
        name: "ara-star",
        title: "ARA*",
        summary: "anytime: weighted A* passes with falling ε, each solution ≤ ε × optimal, the last optimal",
        params: AraStar::PARAMS,
        guarantee: Guarantee::Optimal,
        group: Group::Dynamic,
        makers: generic!(AraStar),
        overlays: &[],
        needs: Needs {
            dense: true,
            ..Needs::NONE
        },
        phases: &["pass"],
        estimate: Estimate::ToGoal,
    },
    AlgoInfo {
        name: "ad-star",
        title: "AD*",
        summary: "anytime and incremental: D* Lite repairs with ARA*'s falling ε; the last solution optimal",
        params: AdStar::PARAMS,
        guarantee: Guarantee::Optimal,
        group: Group::Dynamic,
        makers: generic!(AdStar),
        overlays: &[],
        needs: Needs::REPAIRS,
        phases: &["pass"],
        estimate: Estimate::ToStart,
    },
    AlgoInfo {
        name: "dstar-lite",
        title: "D* Lite",
        summary: "backward search that repairs its g/rhs values when the map changes; optimal at ε = 1",
        params: DStarLite::PARAMS,
        guarantee: Guarantee::BoundedBy("epsilon"),
        group: Group::Dynamic,
        makers: generic!(DStarLite),
        overlays: &[],
        needs: Needs::REPAIRS,
        phases: &[],
        estimate: Estimate::ToStart,
    },
    AlgoInfo {
        name: "rtd-star",
        title: "RTD*",
        summary: "real-time: an agent moves a cell per decision of at most `limit` expansions (D* Lite, else LSS-LRTA*); its walk is the path",
        params: search::rtd::RtdStar::PARAMS,
        guarantee: Guarantee::Valid,
        group: Group::Dynamic,
        makers: generic!(search::rtd::RtdStar),
        overlays: &[],
        needs: Needs::REPAIRS,
        phases: &[],
        estimate: Estimate::ToStart,
    },
    AlgoInfo {
        name: "weighted-astar",
        title: "Weighted A*",
        summary: "best-first by g + w·h; at most w × optimal, usually much faster",
        params: WeightedAStar::PARAMS,
        guarantee: Guarantee::BoundedBy("weight"),
        group: Group::Classic,
        makers: generic!(WeightedAStar),
        overlays: &[],
        needs: Needs::NONE,
        phases: &[],
        estimate: Estimate::ToGoal,
    },
    AlgoInfo {
        name: "greedy",
        title: "Greedy best-first",
        summary: "best-first by h alone; fast, no bound on the path",
        params: search::Greedy::PARAMS,
        guarantee: Guarantee::Valid,
        group: Group::Classic,
        makers: generic!(Greedy),
        overlays: &[],
        needs: Needs::NONE,
        phases: &[],
        estimate: Estimate::ToGoal,
    },
    AlgoInfo {
        name: "bfs",
        title: "Breadth-first",
        summary: "FIFO order; fewest moves, ignores costs",
        params: Bfs::PARAMS,
        guarantee: Guarantee::FewestMoves,
        group: Group::Classic,
        makers: generic!(Bfs),
        overlays: &[],
        needs: Needs::NONE,
        phases: &[],
        estimate: Estimate::None,
    },
    AlgoInfo {
        name: "jps",
        title: "Jump point search",
        summary: "A* that jumps along rows, columns and diagonals to the next cell where the way forks (8-connected squares of uniform cost); optimal",
        params: search::jps::PARAMS,
        guarantee: Guarantee::Optimal,
        group: Group::Classic,
        makers: Makers {
            square: Some(|s, q, p, cache| {
                if let Some(why) = search::jps::refusal("jps", s) {
                    return Err(why);
                }
                Ok(Box::new(Jps::<false>::from_cache(s, q, p, cache)))
            }),
            ..Makers::NONE
        },
        overlays: &[Overlay::Jumps],
        needs: Needs::UNIFORM,
        phases: &[],
        estimate: Estimate::ToGoal,
    },
    AlgoInfo {
        name: "jps-plus",
        title: "JPS+",
        summary: "jump point search reading every jump from a table built once per world (patched after an edit); optimal",
        params: search::jps::PARAMS,
        guarantee: Guarantee::Optimal,
        group: Group::Classic,
        makers: Makers {
            square: Some(|s, q, p, cache| {
                if let Some(why) = search::jps::refusal("jps-plus", s) {
                    return Err(why);
                }
                Ok(Box::new(search::jps::JpsPlus::plus_from_cache(s, q, p, cache)))
            }),
            ..Makers::NONE
        },
        overlays: &[Overlay::Jumps],
        needs: Needs::UNIFORM,
        phases: &[],
        estimate: Estimate::ToGoal,
    },
    AlgoInfo {
        name: "theta-star",
        title: "Theta*",
        summary: "any-angle A*: a node may take its parent's parent when the segment between them is free (one line-of-sight check per relaxation)",
        params: ThetaStar::PARAMS,
        guarantee: Guarantee::AnyAngle,
        group: Group::AnyAngle,
        makers: every!(ThetaStar::theta_from_params),
        overlays: &[Overlay::LineOfSight],
        needs: Needs::SIGHT,
        phases: &[],
        estimate: Estimate::ToGoal,
    },
    AlgoInfo {
        name: "lazy-theta-star",
        title: "Lazy Theta*",
        summary: "Theta* that assumes the segment is free and checks it once, when the node is expanded",
        params: ThetaStar::PARAMS,
        guarantee: Guarantee::AnyAngle,
        group: Group::AnyAngle,
        makers: every!(ThetaStar::lazy_from_params),
        overlays: &[Overlay::LineOfSight],
        needs: Needs::SIGHT,
        phases: &[],
        estimate: Estimate::ToGoal,
    },
    AlgoInfo {
        name: "field-dstar",
        title: "Field D*",
        summary: "any-angle search on cell corners (Ferguson & Stentz 2005): a corner's cost interpolated along the edges around it, so paths cut across cells of any cost; searches backwards from the goal",
        params: search::FieldDStar::PARAMS,
        guarantee: Guarantee::AnyAngle,
        group: Group::AnyAngle,
        makers: Makers {
            square: Some(|s, q, p, _| Ok(Box::new(search::FieldDStar::from_params(s, q, p)))),
            ..Makers::NONE
        },
        overlays: &[Overlay::Corners],
        needs: Needs::NONE,
        phases: &[],
        estimate: Estimate::ToStart,
    },
    // Rahmani 2020's walking planner: hexes only (its cognitive map and cone are hexagonal).
    AlgoInfo {
        name: "gps",
        title: "GPS of the brain",
        summary: "Rahmani 2020's human-like walk on hexes: explores unknown ground towards the goal in legs of C hexes, follows the counter A* on known ground; every hex walked is learnt",
        params: search::gps::Gps::PARAMS,
        guarantee: Guarantee::Valid,
        group: Group::HumanLike,
        makers: Makers {
            hex: Some(|s, q, p, _| Ok(Box::new(search::gps::Gps::from_params(s, q, p)))),
            ..Makers::NONE
        },
        overlays: &[Overlay::Walk],
        needs: Needs::NONE,
        phases: &[],
        estimate: Estimate::PlanCounter,
    },
    // Schnieders 2014's car planner: vehicle lattices only (it keeps the car's exact poses).
    AlgoInfo {
        name: "aipath",
        title: "AIPATH",
        summary: "Schnieders 2014's car planner: one exact pose per lattice node, the greedy probe then A* seeded with its nodes; paths the car can drive, costs in seconds",
        params: crate::vehicle::registered::Aipath::PARAMS,
        guarantee: Guarantee::Valid,
        group: Group::Classic,
        makers: Makers {
            vehicle: Some(|s, q, p, _| {
                Ok(Box::new(crate::vehicle::registered::Aipath::from_params(
                    s, q, p,
                )))
            }),
            ..Makers::NONE
        },
        overlays: &[],
        needs: Needs::NONE,
        phases: &["probe", "A*"],
        estimate: Estimate::ToGoal,
    },
    crate::hier::search::ALGORITHMS[0],
    crate::hier::search::ALGORITHMS[1],
    crate::hier::search::ALGORITHMS[2],
    crate::hier::search::ALGORITHMS[3],
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

/// Builds an algorithm on any world family from a spec like `weighted-astar:weight=2`.
pub fn build<S: Family>(
    spec: &str,
    space: &S,
    query: Query,
) -> Result<Box<dyn DynSearch<S>>, String> {
    let (info, params) = parse_spec(spec)?;
    build_with(info, &params, space, query)
}

/// [`build`] on a square grid.
pub fn build_grid(
    spec: &str,
    space: &GridSpace,
    query: Query,
) -> Result<Box<dyn DynSearch<GridSpace>>, String> {
    build(spec, space, query)
}

#[cfg(test)]
mod tests;

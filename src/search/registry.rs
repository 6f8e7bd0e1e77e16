//! The one list of algorithms that the GUI menus, CLI flags, experiment presets, tests and
//! benchmarks iterate. Adding an algorithm is one file plus one entry here.

use super::params::{ParamSpec, Params};
use super::prepared::PreparedCache;
use super::{
    AStar, AdStar, AraStar, Bfs, DStarLite, Dijkstra, DynSearch, Greedy, Jps, Query, ThetaStar,
    WeightedAStar,
};
use crate::space::{GridSpace, Heuristic, Space, SpaceKind};

pub use super::algo_traits::{Estimate, Group, Guarantee, Needs, Overlay};

/// Builds the search for one kind of space, taking what it prepares once per world from the
/// cache; refused (with the reason) where the world lacks what the algorithm needs.
pub type Maker<S> =
    fn(&S, Query, &Params, &mut PreparedCache) -> Result<Box<dyn DynSearch<S>>, String>;

/// A space type the registry builds algorithms for.
pub trait Family: Space + Sized + 'static {
    /// The family's name in messages ("square grids").
    const NAME: &'static str;
    /// This family's constructor among an algorithm's.
    fn maker(m: &Makers) -> Option<Maker<Self>>;
}

/// Generates [`Makers`], the [`Family`] impls, [`AlgoInfo::spaces`] and the `generic!` and
/// `every!` constructors from the family list ([`crate::for_each_family`]).
macro_rules! declare_makers {
    ($d:tt ; $($v:ident $({ $($pf:ident : $pt:ty),* })? / $f:ident : $world:ty => $space:ty, $name:literal, $title:literal;)*) => {
        /// An algorithm's constructors, one per world family it runs on (a field per line of
        /// the family list). A generic algorithm fills every field through `generic!`; one
        /// that runs on some families names those and takes `..Makers::NONE` for the rest.
        #[derive(Clone, Copy)]
        pub struct Makers {
            $(pub $f: Option<Maker<$space>>,)*
        }

        impl Makers {
            /// No family.
            pub const NONE: Makers = Makers { $($f: None,)* };
        }

        $(impl Family for $space {
            const NAME: &'static str = $title;
            fn maker(m: &Makers) -> Option<Maker<Self>> {
                m.$f
            }
        })*

        impl AlgoInfo {
            /// The world families this algorithm accepts: those it has a constructor for,
            /// less those whose edges are always directed where it needs them undirected,
            /// that have no line of sight where it needs it, or that number their nodes anew
            /// after an edit where it repairs what it knows.
            pub fn spaces(&self) -> Vec<SpaceKind> {
                let mut v = vec![];
                $(if self.makers.$f.is_some()
                    && !(self.needs.undirected && <$world as crate::world::WorldFamily>::DIRECTED)
                    && !(self.needs.sight && <$world as crate::world::WorldFamily>::SIGHTLESS)
                    && !(self.needs.stable_ids && <$world as crate::world::WorldFamily>::RENUMBERS)
                {
                    v.push(SpaceKind::$v);
                })*
                v
            }
        }

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

crate::for_each_family!(declare_makers, $);

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
    /// The family of methods it belongs to, for menus that group them.
    pub group: Group,
    /// Its constructor on each world family it runs on.
    pub makers: Makers,
    /// What views draw over the map for it, beside the search's nodes.
    pub overlays: &'static [Overlay],
    /// What it needs of a world; the registry refuses it elsewhere, with one line.
    pub needs: Needs,
    /// Names of its phases (a `Phase` event's number indexes them; the last one repeats).
    pub phases: &'static [&'static str],
    /// What its h estimates, for the inspector.
    pub estimate: Estimate,
}

impl AlgoInfo {
    /// Whether its views draw this overlay.
    pub fn draws(&self, o: Overlay) -> bool {
        self.overlays.contains(&o)
    }
}

impl std::fmt::Debug for AlgoInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlgoInfo")
            .field("name", &self.name)
            .finish()
    }
}

/// What a view playing back a trace file shows in place of an algorithm (never listed among
/// the algorithms: it is built from the file, not from parameters).
pub static TRACE: AlgoInfo = AlgoInfo {
    name: "trace",
    title: "Trace",
    summary: "a search trace read from a file (Posthoc's format), played back step by step",
    params: &[],
    guarantee: Guarantee::Valid,
    group: Group::Classic,
    makers: Makers::NONE,
    overlays: &[],
    needs: Needs::NONE,
    phases: &[],
    estimate: Estimate::None,
};

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
        params: super::rtd::RtdStar::PARAMS,
        guarantee: Guarantee::Valid,
        group: Group::Dynamic,
        makers: generic!(super::rtd::RtdStar),
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
        params: super::Greedy::PARAMS,
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
        params: super::jps::PARAMS,
        guarantee: Guarantee::Optimal,
        group: Group::Classic,
        makers: Makers {
            square: Some(|s, q, p, cache| {
                if let Some(why) = super::jps::refusal("jps", s) {
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
        params: super::jps::PARAMS,
        guarantee: Guarantee::Optimal,
        group: Group::Classic,
        makers: Makers {
            square: Some(|s, q, p, cache| {
                if let Some(why) = super::jps::refusal("jps-plus", s) {
                    return Err(why);
                }
                Ok(Box::new(super::jps::JpsPlus::plus_from_cache(s, q, p, cache)))
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
        params: super::FieldDStar::PARAMS,
        guarantee: Guarantee::AnyAngle,
        group: Group::AnyAngle,
        makers: Makers {
            square: Some(|s, q, p, _| Ok(Box::new(super::FieldDStar::from_params(s, q, p)))),
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
        params: super::gps::Gps::PARAMS,
        guarantee: Guarantee::Valid,
        group: Group::HumanLike,
        makers: Makers {
            hex: Some(|s, q, p, _| Ok(Box::new(super::gps::Gps::from_params(s, q, p)))),
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

/// Why `info` cannot run on any world of family `W`, known before one is built (a suite is
/// loaded): no constructor for it, or its edges or sight are not what the algorithm needs.
pub fn family_refusal<W: crate::world::WorldFamily>(info: &AlgoInfo) -> Option<String> {
    let title = <W::Space as Family>::NAME;
    if <W::Space as Family>::maker(&info.makers).is_none() {
        return Some(format!("{} does not run on {title}", info.name));
    }
    if info.needs.undirected && W::DIRECTED {
        return Some(format!(
            "{} needs undirected edges; the edges of {title} are directed",
            info.name
        ));
    }
    if info.needs.stable_ids && W::RENUMBERS {
        return Some(format!(
            "{} needs node ids that survive edits; {title} number their nodes anew after each edit (use astar)",
            info.name
        ));
    }
    if info.needs.sight && W::SIGHTLESS {
        return Some(format!(
            "{} needs line of sight between nodes; {title} have none (use astar)",
            info.name
        ));
    }
    None
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

/// Builds `info` with checked `params` on `space`: refused where the algorithm does not run on
/// the family, or its heuristic does not fit the world (octile on hexes overestimates).
pub fn build_with<S: Family>(
    info: &AlgoInfo,
    params: &Params,
    space: &S,
    query: Query,
) -> Result<Box<dyn DynSearch<S>>, String> {
    build_cached(info, params, space, query, &mut PreparedCache::default())
}

/// [`build_with`], taking prepared data from `cache` (and leaving what it builds there).
pub fn build_cached<S: Family>(
    info: &AlgoInfo,
    params: &Params,
    space: &S,
    query: Query,
    cache: &mut PreparedCache,
) -> Result<Box<dyn DynSearch<S>>, String> {
    let make = S::maker(&info.makers)
        .ok_or_else(|| format!("{} does not run on {}", info.name, S::NAME))?;
    if let Some(why) = info.needs.refusal(info.name, space) {
        return Err(why);
    }
    if info.params.iter().any(|p| p.name == "heuristic") {
        let h = params.heuristic();
        let fits = space.heuristics();
        if !fits.contains(&h) {
            let names: Vec<&str> = fits.iter().map(|h| h.name()).collect();
            return Err(format!(
                "{}: heuristic `{}` does not fit {} (choose from {})",
                info.name,
                h.name(),
                S::NAME,
                names.join(", ")
            ));
        }
    }
    make(space, query, params, cache)
}

/// [`build`] on a square grid.
pub fn build_grid(
    spec: &str,
    space: &GridSpace,
    query: Query,
) -> Result<Box<dyn DynSearch<GridSpace>>, String> {
    build(spec, space, query)
}

/// The heuristic names that fit `space`, for menus ([`Heuristic::Native`] first).
pub fn heuristic_names<S: Space>(space: &S) -> Vec<&'static str> {
    space
        .heuristics()
        .iter()
        .map(|h: &Heuristic| h.name())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::NodeId;

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
}

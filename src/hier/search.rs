//! The hierarchical queries as registry searches: `hna`, `hna-parallel` and `pccp` on
//! navmeshes, `hpa` on square grids. Their abstractions are prepared data
//! ([`crate::search::prepared`]), built once per world and parameters and rebuilt by the next
//! query after an edit; each run records the abstract graph as its own layer.

use super::hna::Hierarchy;
use super::hpa::Hpa;
use super::local::HierBase;
use super::query::{Connect, HierQuery};
use crate::search::params::{ParamKind, ParamSpec, Params};
use crate::search::prepared::{Prepared, PreparedCache};
use crate::search::prepared_background::Background;
use crate::search::{Query, Search, SearchState, Stats, Status};
use crate::space::{GridSpace, NavmeshSpace, NodeId, Space};
use crate::trace::Tracer;

/// Rahmani 2020's μ.
pub const MU: ParamSpec = ParamSpec {
    name: "mu",
    help: "nodes merged into each node of the level above (Rahmani 2020's μ)",
    kind: ParamKind::Int,
    default: 10.0,
    min: 2.0,
    max: 1000.0,
};

/// Levels above the navmesh.
pub const LEVELS: ParamSpec = ParamSpec {
    name: "levels",
    help: "levels above the navmesh; queries run on the top one",
    kind: ParamKind::Int,
    default: 2.0,
    min: 1.0,
    max: 3.0,
};

/// HPA*'s cluster side.
pub const CLUSTER: ParamSpec = ParamSpec {
    name: "cluster",
    help: "cluster side in cells (Botea et al. 2004 used 10)",
    kind: ParamKind::Int,
    default: 10.0,
    min: 2.0,
    max: 256.0,
};

pub const HNA_PARAMS: &[ParamSpec] = &[MU, LEVELS];
pub const HPA_PARAMS: &[ParamSpec] = &[CLUSTER];

/// The phases, as the timeline names them.
pub const PHASES: &[&str] = &super::query::PHASES;

/// A navmesh hierarchy as prepared data, with PCCP's table; or why it could not be built.
#[derive(Clone, Debug)]
pub struct PreparedHierarchy(pub Result<Hierarchy, String>, u64);

impl Prepared<NavmeshSpace> for PreparedHierarchy {
    const WHAT: &'static str = "hierarchy";

    fn build_key(params: &Params) -> String {
        format!("mu={} levels={}", params.get("mu"), params.get("levels"))
    }

    fn build(space: &NavmeshSpace, params: &Params) -> Self {
        let (mu, levels) = (params.get("mu") as usize, params.get("levels") as usize);
        PreparedHierarchy(
            Hierarchy::build(space, mu, levels, true, &|_, _| {}),
            space.revision(),
        )
    }

    fn failure(&self) -> Option<&str> {
        self.0.as_ref().err().map(String::as_str)
    }

    fn revision(&self) -> u64 {
        self.1
    }

    fn bytes(&self) -> usize {
        self.0
            .as_ref()
            .map_or(0, |h| h.bytes() + h.pccp.as_ref().map_or(0, |p| p.bytes()))
    }
}

impl Prepared<GridSpace> for Hpa {
    const WHAT: &'static str = "clusters and entrances";

    fn build_key(params: &Params) -> String {
        format!("cluster={}", params.get("cluster"))
    }

    fn build(space: &GridSpace, params: &Params) -> Self {
        Hpa::build(space, params.get("cluster") as u32)
    }

    fn revision(&self) -> u64 {
        self.revision
    }

    fn bytes(&self) -> usize {
        Hpa::bytes(self)
    }
}

impl Background<NavmeshSpace> for PreparedHierarchy {
    fn build_with_progress(
        space: &NavmeshSpace,
        params: &Params,
        progress: &dyn Fn(f32),
        stop: &dyn Fn() -> bool,
    ) -> Self {
        let (mu, levels) = (params.get("mu") as usize, params.get("levels") as usize);
        let report = |_: &str, f: f64| progress(f as f32);
        PreparedHierarchy(
            Hierarchy::build_until(space, mu, levels, true, &report, stop),
            space.revision(),
        )
    }
}

impl Background<GridSpace> for Hpa {
    fn build_with_progress(
        space: &GridSpace,
        params: &Params,
        progress: &dyn Fn(f32),
        _stop: &dyn Fn() -> bool,
    ) -> Self {
        progress(0.0);
        Hpa::build(space, params.get("cluster") as u32)
    }
}

/// Polls a build on another thread: the query once it is built (or why it could not be).
type Poll = Box<dyn Fn() -> Option<Result<HierQuery, String>> + Send>;

enum Stage {
    /// The abstraction is being built; the fraction done.
    Waiting(Poll, Box<dyn Fn() -> f32 + Send>),
    Ready(Box<HierQuery>),
    Failed(String),
}

/// A hierarchical query as a search of the registry. Its abstraction comes from the cache,
/// built on a thread of its own the first time: until it is ready the search's steps do
/// nothing ([`SearchState::preparing`] says how far the build is).
pub struct HierSearch {
    stage: Stage,
    q: Query,
    revision: u64,
    base_nodes: u32,
}

impl HierSearch {
    /// An HNA* variant on `space` for `q`, its hierarchy from `cache`.
    pub fn hna(
        space: &NavmeshSpace,
        q: Query,
        p: &Params,
        cache: &mut PreparedCache,
        name: &'static str,
        connect: Connect,
    ) -> HierSearch {
        let pending = cache.background::<PreparedHierarchy, _>(name, space, p);
        let base_nodes = space.num_nodes();
        let watch = pending.clone();
        let poll: Poll = Box::new(move || {
            if let Some(why) = pending.failure() {
                return Some(Err(format!("{name}: {why}")));
            }
            let prepared = pending.get()?;
            Some(match &prepared.0 {
                Ok(h) => Ok(HierQuery::new(
                    h.graph.clone(),
                    h.pccp.clone(),
                    connect,
                    base_nodes,
                )),
                Err(e) => Err(format!("{name}: {e}")),
            })
        });
        HierSearch::waiting(poll, Box::new(move || watch.progress()), q, space)
    }

    /// HPA* on `space` for `q`, its clusters from `cache`.
    pub fn hpa(space: &GridSpace, q: Query, p: &Params, cache: &mut PreparedCache) -> HierSearch {
        let pending = cache.background::<Hpa, _>("hpa", space, p);
        let base_nodes = space.num_nodes();
        let watch = pending.clone();
        let poll: Poll = Box::new(move || {
            if let Some(why) = pending.failure() {
                return Some(Err(format!("hpa: {why}")));
            }
            let h = pending.get()?;
            Some(Ok(HierQuery::new(
                h.graph.clone(),
                None,
                Connect::Dijkstra,
                base_nodes,
            )
            .with_smoothing(h.cluster)))
        });
        HierSearch::waiting(poll, Box::new(move || watch.progress()), q, space)
    }

    fn waiting<S: HierBase>(
        poll: Poll,
        progress: Box<dyn Fn() -> f32 + Send>,
        q: Query,
        space: &S,
    ) -> HierSearch {
        let mut s = HierSearch {
            stage: Stage::Waiting(poll, progress),
            q,
            revision: space.revision(),
            base_nodes: space.num_nodes() as u32,
        };
        s.poll(space);
        s
    }

    /// Takes the built abstraction, if it is ready, and starts the query on it.
    fn poll<S: HierBase>(&mut self, space: &S) {
        let Stage::Waiting(poll, _) = &self.stage else {
            return;
        };
        match poll() {
            None => {}
            Some(Ok(mut query)) => {
                query.reset(space, self.q.start, self.q.goal, [None, None]);
                self.stage = Stage::Ready(Box::new(query));
            }
            Some(Err(e)) => self.stage = Stage::Failed(e),
        }
    }

    fn ready(&self) -> Option<&HierQuery> {
        match &self.stage {
            Stage::Ready(q) => Some(q),
            _ => None,
        }
    }
}

impl SearchState for HierSearch {
    fn status(&self) -> Status {
        match &self.stage {
            Stage::Waiting(..) => Status::Running,
            Stage::Ready(q) => q.status(),
            Stage::Failed(_) => Status::NoPath,
        }
    }

    fn path(&self) -> Option<&[NodeId]> {
        self.ready()?.path()
    }

    fn cost(&self) -> Option<f64> {
        self.ready()?.cost()
    }

    fn stats(&self) -> Stats {
        self.ready().map_or(Stats::default(), HierQuery::stats)
    }

    fn open_len(&self) -> usize {
        self.ready().map_or(0, HierQuery::open_len)
    }

    fn g(&self, n: NodeId) -> Option<f64> {
        let v = n.checked_sub(self.base_nodes)?;
        self.ready()?.vertex_g(v)
    }

    fn prepared_revision(&self) -> Option<u64> {
        Some(self.revision)
    }

    fn layers(&self) -> Vec<(&'static str, usize)> {
        self.ready().map_or(vec![], HierQuery::layers)
    }

    fn layer_point(&self, n: NodeId) -> Option<[f64; 2]> {
        self.ready()?.vertex_point(n.checked_sub(self.base_nodes)?)
    }

    fn preparing(&self) -> Option<f32> {
        match &self.stage {
            Stage::Waiting(_, progress) => Some(progress()),
            _ => None,
        }
    }

    /// Why the abstraction could not be built, if it could not.
    fn failure(&self) -> Option<&str> {
        match &self.stage {
            Stage::Failed(e) => Some(e),
            _ => None,
        }
    }
}

impl<S: HierBase> Search<S> for HierSearch {
    fn reset(&mut self, space: &S, query: Query) {
        self.q = query;
        match &mut self.stage {
            Stage::Ready(q) => q.reset(space, query.start, query.goal, [None, None]),
            _ => self.poll(space),
        }
    }

    fn step<T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status {
        if matches!(self.stage, Stage::Waiting(..)) {
            self.poll(space);
            // Nothing to do until the build is done: give its thread the core. The step that
            // finds it built records nothing either, so that a caller can make room for the
            // layers now known before the first event.
            std::thread::yield_now();
            return self.status();
        }
        match &mut self.stage {
            Stage::Ready(q) => q.step(space, tracer),
            _ => self.status(),
        }
    }
}

use crate::search::registry::{AlgoInfo, Estimate, Group, Guarantee, Makers, Needs, Overlay};

/// A navmesh HNA* entry of the registry.
const fn hna_entry(
    name: &'static str,
    title: &'static str,
    summary: &'static str,
    navmesh: crate::search::registry::Maker<NavmeshSpace>,
) -> AlgoInfo {
    AlgoInfo {
        name,
        title,
        summary,
        params: HNA_PARAMS,
        guarantee: Guarantee::Valid,
        group: Group::Hierarchical,
        makers: Makers {
            navmesh: Some(navmesh),
            ..Makers::NONE
        },
        overlays: &[Overlay::Hierarchy],
        needs: Needs::NONE,
        phases: PHASES,
        estimate: Estimate::ToGoal,
    }
}

/// The hierarchical entries of the registry.
pub const ALGORITHMS: [AlgoInfo; 4] = [
    hna_entry(
        "hna",
        "HNA*",
        "Rahmani 2020's hierarchical A* on a navmesh: connect start and goal to their top-level node's inter-edges (one A* each), A* on the navigation graph, extract the intra-edges; not always optimal",
        |s, q, p, cache| {
            Ok(Box::new(HierSearch::hna(s, q, p, cache, "hna", Connect::Sequential)))
        },
    ),
    hna_entry(
        "hna-parallel",
        "HNA* (parallel)",
        "HNA* with its connecting searches on all cores at once (Rahmani 2020 §3.5.2)",
        |s, q, p, cache| {
            Ok(Box::new(HierSearch::hna(s, q, p, cache, "hna-parallel", Connect::Parallel)))
        },
    ),
    hna_entry(
        "pccp",
        "HNA* with PCCP",
        "HNA* reading start's and goal's connecting paths from a table built per polygon (Rahmani 2020 §3.5.1): no connecting searches, ends counted from polygon centres",
        |s, q, p, cache| {
            Ok(Box::new(HierSearch::hna(s, q, p, cache, "pccp", Connect::Pccp)))
        },
    ),
    AlgoInfo {
        name: "hpa",
        title: "HPA*",
        summary: "Botea et al. 2004's hierarchical A* on square grids: clusters, entrances, an abstract graph of transitions, refined and smoothed; near-optimal",
        params: HPA_PARAMS,
        guarantee: Guarantee::Valid,
        group: Group::Hierarchical,
        makers: Makers {
            square: Some(|s, q, p, cache| Ok(Box::new(HierSearch::hpa(s, q, p, cache)))),
            ..Makers::NONE
        },
        overlays: &[Overlay::Hierarchy],
        needs: Needs::NONE,
        phases: PHASES,
        estimate: Estimate::ToGoal,
    },
];

//! An HNA* hierarchy over a navmesh (Rahmani 2020 §3.3): its levels, each level's intra-edges,
//! the hierarchical navigation graph of the top level (its inter-edges as vertices, its
//! intra-edges as edges) and, when asked, PCCP's table. Queries run at the top level and
//! extract their path in one step, since intra-edges are stored as navmesh polygons (the
//! digest's "either reading gives the same path").

use super::graph::{AbstractGraph, Metric};
use super::intra::{self, IntraEdges};
use super::levels::Levels;
use super::local::HierBase;
use super::pccp::Pccp;
use super::query::{Connect, HierQuery};
use crate::space::plane_distance as dist;
use crate::space::{NavmeshSpace, NodeId, Space};
use std::sync::Arc;
use std::time::Instant;

impl HierBase for NavmeshSpace {
    fn leave_from(&self, point: [f64; 2], n: NodeId, m: NodeId, edge: f64) -> f64 {
        match self.portal(n, m) {
            Some(p) => dist(point, p.mid()) * self.cost_per_unit(n) + self.half_cost(m, p),
            None => edge,
        }
    }

    fn arrive_at(&self, point: [f64; 2], n: NodeId, from: NodeId, edge: f64) -> f64 {
        match self.portal(from, n) {
            Some(p) => edge - self.half_cost(n, p) + dist(p.mid(), point) * self.cost_per_unit(n),
            None => edge,
        }
    }

    fn within(&self, n: NodeId, a: [f64; 2], b: [f64; 2]) -> f64 {
        dist(a, b) * self.cost_per_unit(n)
    }

    fn cross_from(&self, point: [f64; 2], n: NodeId, other: NodeId, half: f64) -> f64 {
        self.portal(n, other)
            .map_or(half, |p| dist(point, p.mid()) * self.cost_per_unit(n))
    }
}

/// Milliseconds each part of a build took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BuildTimes {
    pub levels: f64,
    pub intra: f64,
    pub pccp: f64,
}

/// A hierarchy of `levels` over one navmesh.
#[derive(Clone, Debug)]
pub struct Hierarchy {
    pub levels: Levels,
    /// The intra-edges of the levels below the top (the top's are the graph's).
    pub lower: Vec<IntraEdges>,
    /// The top level's navigation graph.
    pub graph: Arc<AbstractGraph>,
    pub pccp: Option<Arc<Pccp>>,
    /// The navmesh revision it describes.
    pub revision: u64,
    pub times: BuildTimes,
}

impl Hierarchy {
    /// Builds `count` levels merging about `mu` nodes each, and PCCP's table if `pccp`;
    /// `progress` hears what is being built and the fraction done.
    pub fn build(
        mesh: &NavmeshSpace,
        mu: usize,
        count: usize,
        pccp: bool,
        progress: &dyn Fn(&str, f64),
    ) -> Result<Hierarchy, String> {
        Hierarchy::build_until(mesh, mu, count, pccp, progress, &|| false)
    }

    /// The same, giving up between stages once `stop` says so (the world it was built for
    /// changed).
    pub fn build_until(
        mesh: &NavmeshSpace,
        mu: usize,
        count: usize,
        pccp: bool,
        progress: &dyn Fn(&str, f64),
        stop: &dyn Fn() -> bool,
    ) -> Result<Hierarchy, String> {
        let stopped = || Err("given up: the world changed".to_string());
        let steps = (2 * count + usize::from(pccp)) as f64;
        let t0 = Instant::now();
        let levels = Levels::build(mesh, mu, count, &|x| {
            progress("partitioning", x as f64 / steps);
        })?;
        let t1 = Instant::now();
        let mut lower: Vec<IntraEdges> = vec![];
        for (i, l) in levels.levels.iter().enumerate() {
            if stop() {
                return stopped();
            }
            lower.push(intra::build(mesh, l));
            progress("intra-edges", (count + i + 1) as f64 / steps);
        }
        let top = lower.pop().expect("at least one level");
        let level = levels.levels.last().expect("at least one level").clone();
        let (half, pos) = level
            .inter
            .iter()
            .map(|&(a, b)| {
                let p = mesh.portal(a, b).expect("an inter-edge is a portal");
                ([mesh.half_cost(a, p), mesh.half_cost(b, p)], p.mid())
            })
            .unzip();
        let min_cost = (0..mesh.num_nodes() as NodeId)
            .map(|n| mesh.cost_per_unit(n))
            .fold(1.0, f64::min);
        let graph = Arc::new(AbstractGraph::new(
            level,
            top,
            half,
            pos,
            Metric::Euclidean,
            min_cost,
        ));
        let t2 = Instant::now();
        if stop() {
            return stopped();
        }
        let pccp = pccp.then(|| Arc::new(Pccp::build(mesh, &graph)));
        if pccp.is_some() {
            progress("connecting paths", 1.0);
        }
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1000.0;
        let t3 = Instant::now();
        Ok(Hierarchy {
            levels,
            lower,
            graph,
            pccp,
            revision: mesh.revision(),
            times: BuildTimes {
                levels: ms(t0, t1),
                intra: ms(t1, t2),
                pccp: ms(t2, t3),
            },
        })
    }

    /// Level `x`'s intra-edges (1-based, as the thesis numbers levels).
    pub fn intra(&self, x: usize) -> &IntraEdges {
        if x == self.levels.levels.len() {
            &self.graph.intra
        } else {
            &self.lower[x - 1]
        }
    }

    /// A query on the top level, connecting its ends as `connect` says.
    pub fn query(&self, mesh: &NavmeshSpace, connect: Connect) -> HierQuery {
        HierQuery::new(
            self.graph.clone(),
            self.pccp.clone(),
            connect,
            mesh.num_nodes(),
        )
    }

    /// Bytes of the levels, every level's intra-edges and the graph (PCCP's table apart).
    pub fn bytes(&self) -> usize {
        self.levels.bytes()
            + self.lower.iter().map(IntraEdges::bytes).sum::<usize>()
            + self.graph.bytes()
    }
}

//! An HNA* hierarchy over a navmesh (Rahmani 2020 §3.3): its levels, each level's intra-edges,
//! the hierarchical navigation graph of the top level (its inter-edges as vertices, its
//! intra-edges as edges) and, when asked, PCCP's table. Queries run at the top level and
//! extract their path in one step, since intra-edges are stored as navmesh polygons (the
//! digest's "either reading gives the same path").

use super::graph::{AbstractGraph, Metric};
use super::intra::{self, Cut, IntraEdges};
use super::levels::Levels;
use super::local::HierBase;
use super::pccp::Pccp;
use super::query::{Connect, HierQuery};
use crate::space::plane_distance as dist;
use crate::space::{NavmeshSpace, NodeId, Space};
use std::sync::Arc;
use web_time::Instant;

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

/// What a build may hold, and whom it tells how far it is.
pub struct Budget<'a> {
    /// Bytes its arrays may hold together (the hierarchy's and PCCP's table's).
    pub max_bytes: usize,
    /// Hears what is being built and the share of the build done.
    pub progress: &'a dyn Fn(&str, f64),
    /// Says when to give up (between stages, and between batches inside them).
    pub stop: &'a dyn Fn() -> bool,
}

/// What a build is expected to hold, from the navmesh alone (before anything is partitioned),
/// in bytes. Partitions differ from map to map, so the hierarchy's and the table's parts are
/// fitted to what random maps (the costliest per polygon measured) hold, and the build checks
/// what it really holds against its [`Budget`] as it goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The navmesh, already built.
    pub navmesh: usize,
    /// Partitioning: the contracted graphs and METIS's own arrays, while it runs.
    pub partition: usize,
    /// Levels, intra-edges and the navigation graph.
    pub hierarchy: usize,
    /// PCCP's table (0 when not asked for).
    pub pccp: usize,
}

impl Estimate {
    /// `count` levels merging about `mu` nodes each over `mesh`, with PCCP's table if `pccp`.
    pub fn of(mesh: &NavmeshSpace, mu: usize, count: usize, pccp: bool) -> Estimate {
        let (p, q) = (mesh.polygons() as f64, mesh.portal_count() as f64);
        // A top-level node holds about μ^L polygons; its crossings and the paths across it
        // both grow with its side, √(μ^L), so intra-edges (crossings² × path) and the
        // table (polygons × crossings) grow with polygons × √(μ^L).
        let side = (mu as f64).powi(count as i32).sqrt();
        let levels = count as f64 * (8.0 * p + 24.0 * q);
        Estimate {
            navmesh: mesh.bytes(),
            partition: (PARTITION_BYTES * (p + 2.0 * q)) as usize,
            hierarchy: (levels + INTRA_BYTES * p * side) as usize,
            pccp: if pccp {
                (PCCP_BYTES * p * side) as usize
            } else {
                0
            },
        }
    }

    /// The most held at once: the navmesh throughout, then the partitioning's arrays, then the
    /// hierarchy with its table.
    pub fn peak(&self) -> usize {
        self.navmesh + self.partition.max(self.hierarchy + self.pccp)
    }
}

/// Bytes per polygon and √(μ^L) of intra-edges and the navigation graph, and of PCCP's table,
/// and per node and edge end of partitioning (fitted in docs/hierarchy.md).
const INTRA_BYTES: f64 = 150.0;
const PCCP_BYTES: f64 = 100.0;
const PARTITION_BYTES: f64 = 100.0;

/// Bytes in whole megabytes (10^6), rounded up, for messages.
pub fn mb(bytes: usize) -> usize {
    bytes.div_ceil(1_000_000)
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
        let budget = Budget {
            max_bytes: usize::MAX,
            progress,
            stop,
        };
        Hierarchy::build_within(mesh, mu, count, pccp, &budget)
    }

    /// The same, never holding more than `budget.max_bytes` in its arrays (levels, intra-edges,
    /// graph and PCCP's table, [`Hierarchy::bytes`] and [`Pccp::bytes`]): PCCP's table is
    /// weighed before it is built, the intra-edges as they grow, and the build ends with an
    /// error naming what would not fit.
    pub fn build_within(
        mesh: &NavmeshSpace,
        mu: usize,
        count: usize,
        pccp: bool,
        budget: &Budget,
    ) -> Result<Hierarchy, String> {
        let (progress, stop) = (budget.progress, budget.stop);
        let stopped = || "given up: the world changed".to_string();
        let over = |held: usize, what: &str| {
            format!(
                "{what} would take the hierarchy past {} MB, more than the {} MB it may hold",
                mb(held),
                mb(budget.max_bytes)
            )
        };
        let steps = (2 * count + usize::from(pccp)) as f64;
        let t0 = Instant::now();
        let levels = Levels::build(mesh, mu, count, &|x| {
            progress(&format!("partitioned L{x}"), x as f64 / steps);
        })?;
        let mut held = levels.bytes();
        if held > budget.max_bytes {
            return Err(over(held, "its levels"));
        }
        let t1 = Instant::now();
        let mut lower: Vec<IntraEdges> = vec![];
        for (i, l) in levels.levels.iter().enumerate() {
            if stop() {
                return Err(stopped());
            }
            let what = format!("L{} intra-edges", i + 1);
            let mut report = |f: f64| {
                progress(&what, (count + i) as f64 / steps + f / steps);
                !stop()
            };
            let room = budget.max_bytes - held;
            let e = intra::build_within(mesh, l, room, &mut report).map_err(|c| match c {
                Cut::Over(bytes) => over(held + bytes, &what),
                Cut::Stopped => stopped(),
            })?;
            held += e.bytes();
            lower.push(e);
            progress(&what, (count + i + 1) as f64 / steps);
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
        held = levels.bytes() + lower.iter().map(IntraEdges::bytes).sum::<usize>() + graph.bytes();
        if held > budget.max_bytes {
            return Err(over(held, "its navigation graph"));
        }
        let t2 = Instant::now();
        if stop() {
            return Err(stopped());
        }
        let pccp = if pccp {
            // Weighed before it is built: its entries are known from the regions alone.
            let entries = Pccp::entries_for(mesh, &graph);
            let need = Pccp::bytes_for(mesh.num_nodes(), entries);
            if held + need > budget.max_bytes {
                return Err(over(
                    held + need,
                    &format!("PCCP's table ({entries} entries, {} MB)", mb(need)),
                ));
            }
            let mut report = |f: f64| {
                progress("connecting paths", (2 * count) as f64 / steps + f / steps);
                !stop()
            };
            let table = Pccp::build_with(mesh, &graph, &mut report).ok_or_else(stopped)?;
            Some(Arc::new(table))
        } else {
            None
        };
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

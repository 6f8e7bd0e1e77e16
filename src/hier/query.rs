//! A hierarchical query in the four phases of Rahmani 2020's Algorithm 1, one step at a time:
//! (0) insert the start and goal: connecting searches from each to every crossing of its
//! region, kept as temporary edges; (1) A* on the abstract graph from the start's temporary
//! vertex to the goal's; (2) extract the intra-edges' base-node paths; (3) clean up the
//! temporaries. HNA* on a navmesh and HPA* on a grid both run it over their [`AbstractGraph`].
//!
//! How the connecting edges are found is the variant: one search after another (the thesis's
//! original HNA*), all at once on rayon's threads (its parallel CPU version), or read from
//! PCCP's table. Where start and goal share a region, a direct search inside it is one more
//! temporary edge (the thesis leaves that case open; without it such a query could only leave
//! the region and come back).
//!
//! Events: base nodes keep their ids; the abstract graph's vertices follow them, then the
//! start's and the goal's temporary vertices ([`HierQuery::layers`]). A temporary edge shows as
//! its vertex generated from a temporary vertex.

use super::graph::AbstractGraph;
use super::graph_search::{GraphSearch, Step, Temporaries};
use super::local::{HierBase, Local, LocalStatus};
use super::pccp::Pccp;
use crate::search::{Stats, Status};
use crate::space::NodeId;
use crate::trace::{Event, EventKind, NullTracer, Tracer, NONE};
use std::sync::Arc;

// Phases 2 and 3 (extracting the path, cleaning up) in a file of their own.
#[path = "query_extract.rs"]
mod extract;

/// How the start and goal are connected to the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connect {
    /// One connecting search after another.
    Sequential,
    /// The connecting searches on rayon's threads.
    Parallel,
    /// Read from the pre-calculated connecting paths.
    Pccp,
    /// One Dijkstra from each end over its region reaches every crossing of it at once: the
    /// same costs as one search per crossing, for far fewer expansions (HPA*'s insertion as
    /// usually implemented; the paper asks only for the distances).
    Dijkstra,
}

/// The phases, numbered as their `Phase` events.
pub const PHASES: [&str; 4] = [
    "insert start and goal",
    "search the graph",
    "extract intra-edges",
    "clean up",
];

/// Where a temporary edge's base nodes are.
#[derive(Clone, Debug)]
enum Via {
    Own(Vec<NodeId>),
    Table(u32),
}

/// A temporary edge: from the start to a crossing (or from a crossing to the goal), or straight
/// from start to goal inside their region (`vertex` = `NONE`).
#[derive(Clone, Debug)]
struct Link {
    vertex: u32,
    cost: f64,
    /// Base nodes from the endpoint (start or goal) to the crossing's side.
    via: Via,
}

/// One connecting search to run: from the start (side 0) or the goal (side 1) to a vertex, or
/// the direct one.
#[derive(Clone, Copy, Debug)]
struct Job {
    side: usize,
    vertex: u32,
}

/// A hierarchical query's state.
pub struct HierQuery {
    graph: Arc<AbstractGraph>,
    pccp: Option<Arc<Pccp>>,
    connect: Connect,
    /// Base node ids in events; the abstract layer starts here.
    base_nodes: u32,
    ends: [NodeId; 2],
    points: [Option<[f64; 2]>; 2],
    /// Where the start and the goal stand: their temporary vertices' places.
    ends_at: [[f64; 2]; 2],
    regions: [u32; 2],
    phase: u32,
    status: Status,
    jobs: Vec<Job>,
    job: usize,
    local: Local,
    local_live: bool,
    links: [Vec<Link>; 2],
    direct: Option<Link>,
    /// The temporary edges as the graph search reads them: from the start (vertex, cost), to
    /// the goal (cost, by `goal_link`).
    from_start: Vec<(u32, f64)>,
    to_goal: Vec<f64>,
    /// Each vertex's temporary edge to the goal (an index into `links[1]`), or `NONE`.
    goal_link: Vec<u32>,
    search: GraphSearch,
    path: Vec<NodeId>,
    cost: f64,
    stats: Stats,
    /// Smooth the extracted path looking this far ahead ([`HierBase::smooth`]).
    smoothing: Option<u32>,
}

/// A job that reaches every crossing of its region in one search.
const ALL: u32 = u32::MAX - 2;

impl HierQuery {
    /// A query on `graph` (with `pccp`'s table for [`Connect::Pccp`]).
    pub fn new(
        graph: Arc<AbstractGraph>,
        pccp: Option<Arc<Pccp>>,
        connect: Connect,
        base_nodes: usize,
    ) -> HierQuery {
        let v = graph.vertices() + 2;
        HierQuery {
            graph,
            pccp,
            connect,
            base_nodes: base_nodes as u32,
            ends: [0, 0],
            points: [None, None],
            ends_at: [[0.0; 2]; 2],
            regions: [0, 0],
            phase: 0,
            status: Status::NoPath,
            jobs: vec![],
            job: 0,
            local: Local::default(),
            local_live: false,
            links: [vec![], vec![]],
            direct: None,
            from_start: vec![],
            to_goal: vec![],
            goal_link: vec![NONE; v],
            search: GraphSearch::new(v - 2, base_nodes as u32),
            path: vec![],
            cost: f64::INFINITY,
            stats: Stats::default(),
            smoothing: None,
        }
    }

    /// The same, smoothing each extracted path where the space can, with rays `reach` long.
    pub fn with_smoothing(mut self, reach: u32) -> HierQuery {
        self.smoothing = Some(reach);
        self
    }

    /// The id ranges after the base nodes: the abstract graph with its two temporaries.
    pub fn layers(&self) -> Vec<(&'static str, usize)> {
        vec![("abstract graph", self.graph.vertices() + 2)]
    }

    /// Starts over from `start` to `goal`, standing at the given points inside them (their
    /// centres when `None`; PCCP's table always counts from the centres).
    pub fn reset<S: HierBase>(
        &mut self,
        space: &S,
        start: NodeId,
        goal: NodeId,
        points: [Option<[f64; 2]>; 2],
    ) {
        for &v in self.links[1].iter().map(|l| &l.vertex) {
            if v != NONE {
                self.goal_link[v as usize] = NONE;
            }
        }
        self.ends = [start, goal];
        self.points = if self.connect == Connect::Pccp {
            [None, None]
        } else {
            points
        };
        self.regions = [self.graph.region_of(start), self.graph.region_of(goal)];
        self.phase = 0;
        self.status = Status::Running;
        self.links[0].clear();
        self.links[1].clear();
        self.from_start.clear();
        self.to_goal.clear();
        self.direct = None;
        self.job = 0;
        self.local_live = false;
        self.path.clear();
        self.cost = f64::INFINITY;
        self.stats = Stats::default();
        let pos = |n: NodeId| {
            let p = space.position(n);
            [p[0] as f64, p[1] as f64]
        };
        self.ends_at = [
            self.points[0].unwrap_or_else(|| pos(start)),
            self.points[1].unwrap_or_else(|| pos(goal)),
        ];
        self.search.goal_point = self.ends_at[1];
        self.jobs.clear();
        if self.regions.contains(&super::graph::NO_REGION) {
            return;
        }
        match self.connect {
            Connect::Pccp => {}
            Connect::Dijkstra => {
                // The start's Dijkstra also finds the goal when they share a region.
                for side in 0..2 {
                    self.jobs.push(Job { side, vertex: ALL });
                }
                return;
            }
            Connect::Sequential | Connect::Parallel => {
                for side in 0..2 {
                    for &v in self.graph.vertices_of(self.regions[side]) {
                        self.jobs.push(Job { side, vertex: v });
                    }
                }
            }
        }
        if self.regions[0] == self.regions[1] {
            self.jobs.push(Job {
                side: 0,
                vertex: NONE,
            });
        }
    }

    pub fn status(&self) -> Status {
        self.status
    }

    /// The phase it is in (see [`PHASES`]).
    pub fn phase(&self) -> u32 {
        self.phase
    }

    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Entries on the graph search's open list (none outside its phase).
    pub fn open_len(&self) -> usize {
        if self.phase == 1 {
            self.search.open_len()
        } else {
            0
        }
    }

    /// The base nodes from start to goal once found.
    pub fn path(&self) -> Option<&[NodeId]> {
        (self.status == Status::Found).then_some(&self.path[..])
    }

    pub fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then_some(self.cost)
    }

    /// The abstract graph it searches.
    pub fn graph(&self) -> &Arc<AbstractGraph> {
        &self.graph
    }

    /// Where abstract vertex `v` lies (the temporaries are the last two: the start's and the
    /// goal's points), in cell units.
    pub fn vertex_point(&self, v: u32) -> Option<[f64; 2]> {
        let n = self.graph.vertices() as u32;
        match v.checked_sub(n) {
            None => self.graph.pos.get(v as usize).copied(),
            Some(side) => self.ends_at.get(side as usize).copied(),
        }
    }

    /// g of abstract vertex `v` (the temporaries are the last two) in the graph search.
    pub fn vertex_g(&self, v: u32) -> Option<f64> {
        if v > self.temp(1) || self.phase < 1 {
            return None;
        }
        Some(self.search.g(v)).filter(|g| g.is_finite())
    }

    /// Runs to the end.
    pub fn run<S: HierBase, T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status {
        while self.status == Status::Running {
            self.step(space, tracer);
        }
        self.status
    }

    /// One step: an expansion of a connecting search or of the graph search, all parallel
    /// connecting searches at once, the extraction, or the clean-up.
    pub fn step<S: HierBase, T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status {
        if self.status != Status::Running {
            return self.status;
        }
        match self.phase {
            0 => self.step_connect(space, tracer),
            1 => self.step_graph(tracer),
            2 => self.extract(space, tracer),
            _ => self.clean_up(tracer),
        }
        self.status
    }

    fn abstract_id(&self, v: u32) -> u32 {
        self.base_nodes + v
    }

    fn temp(&self, side: usize) -> u32 {
        (self.graph.vertices() + side) as u32
    }

    fn step_connect<S: HierBase, T: Tracer>(&mut self, space: &S, tracer: &mut T) {
        if self.job == 0 && !self.local_live {
            if T::ENABLED {
                tracer.event(Event::marker(EventKind::Phase, 0));
                tracer.event(Event::new(EventKind::Source, self.ends[0], NONE, 0.0, 0.0));
                tracer.event(Event::marker(EventKind::Destination, self.ends[1]));
            }
            if self.regions.contains(&super::graph::NO_REGION) {
                return self.fail(tracer);
            }
            match self.connect {
                Connect::Pccp => self.read_table(tracer),
                Connect::Parallel => return self.connect_all(space, tracer),
                Connect::Sequential | Connect::Dijkstra => {}
            }
        }
        let Some(&job) = self.jobs.get(self.job) else {
            return self.start_graph(tracer);
        };
        let g = &*self.graph;
        let region = self.regions[job.side];
        if !self.local_live {
            let target = match job.vertex {
                ALL => None,
                NONE => Some(self.ends[1]),
                v => Some(g.inside(v, region)),
            };
            self.local.begin(
                g,
                region,
                self.ends[job.side],
                self.points[job.side],
                target,
            );
            self.local_live = true;
        }
        let before = (self.local.expanded, self.local.generated);
        let s = self.local.step(space, g, tracer);
        self.stats.expanded += self.local.expanded - before.0;
        self.stats.generated += self.local.generated - before.1;
        if s == LocalStatus::Running {
            return;
        }
        self.local_live = false;
        self.job += 1;
        if job.vertex == ALL {
            let mut links = vec![];
            for &v in g.vertices_of(region) {
                if self.local.g(g, g.inside(v, region)).is_some() {
                    links.push(finish_link(
                        space,
                        g,
                        &self.local,
                        Job { vertex: v, ..job },
                        region,
                        self.ends,
                        self.points,
                    ));
                }
            }
            let same = self.regions[0] == self.regions[1];
            if job.side == 0 && same && self.local.g(g, self.ends[1]).is_some() {
                let direct = Job {
                    vertex: NONE,
                    ..job
                };
                links.push(finish_link(
                    space,
                    g,
                    &self.local,
                    direct,
                    region,
                    self.ends,
                    self.points,
                ));
            }
            for link in links {
                self.add_link(job.side, link, tracer);
            }
        } else if s == LocalStatus::Reached {
            let link = finish_link(space, g, &self.local, job, region, self.ends, self.points);
            self.add_link(job.side, link, tracer);
        }
        if self.job == self.jobs.len() {
            self.start_graph(tracer);
        }
    }

    fn read_table<T: Tracer>(&mut self, tracer: &mut T) {
        let table = self.pccp.clone().expect("a PCCP query has its table");
        for side in 0..2 {
            let end = self.ends[side];
            let first = table.first[end as usize];
            for (i, e) in table.of(end).iter().enumerate() {
                let link = Link {
                    vertex: e.vertex,
                    cost: e.cost,
                    via: Via::Table(first + i as u32),
                };
                self.add_link(side, link, tracer);
            }
        }
    }

    /// Every connecting search at once on rayon's threads; one step.
    fn connect_all<S: HierBase, T: Tracer>(&mut self, space: &S, tracer: &mut T) {
        use rayon::prelude::*;
        let g = &*self.graph;
        let (ends, points, regions) = (self.ends, self.points, self.regions);
        let found: Vec<(Option<Link>, (u64, u64))> = self
            .jobs
            .par_iter()
            .map_init(Local::default, |local, &job| {
                let region = regions[job.side];
                let target = if job.vertex == NONE {
                    ends[1]
                } else {
                    g.inside(job.vertex, region)
                };
                local.begin(g, region, ends[job.side], points[job.side], Some(target));
                let s = local.run(space, g, &mut NullTracer);
                let link = (s == LocalStatus::Reached)
                    .then(|| finish_link(space, g, local, job, region, ends, points));
                (link, (local.expanded, local.generated))
            })
            .collect();
        for (job, (link, (expanded, generated))) in self.jobs.clone().into_iter().zip(found) {
            self.stats.expanded += expanded;
            self.stats.generated += generated;
            if let Some(link) = link {
                self.add_link(job.side, link, tracer);
            }
        }
        self.job = self.jobs.len();
        self.start_graph(tracer);
    }

    fn add_link<T: Tracer>(&mut self, side: usize, link: Link, tracer: &mut T) {
        // A link generates its vertex from a temporary one (one event): counted as generated.
        self.stats.generated += 1;
        if link.vertex == NONE {
            if T::ENABLED {
                let (s, g) = (self.temp(0), self.temp(1));
                let (s, g) = (self.abstract_id(s), self.abstract_id(g));
                tracer.event(Event::new(EventKind::Generate, g, s, link.cost, link.cost));
            }
            self.direct = Some(link);
            return;
        }
        if side == 1 {
            self.goal_link[link.vertex as usize] = self.links[1].len() as u32;
            self.to_goal.push(link.cost);
        } else {
            self.from_start.push((link.vertex, link.cost));
        }
        if T::ENABLED {
            let (v, t) = (
                self.abstract_id(link.vertex),
                self.abstract_id(self.temp(side)),
            );
            tracer.event(Event::new(EventKind::Generate, v, t, link.cost, link.cost));
        }
        self.links[side].push(link);
    }

    fn start_graph<T: Tracer>(&mut self, tracer: &mut T) {
        self.phase = 1;
        self.search.start(self.temp(0));
        if T::ENABLED {
            tracer.event(Event::marker(EventKind::Phase, 1));
        }
    }

    fn step_graph<T: Tracer>(&mut self, tracer: &mut T) {
        let temps = Temporaries {
            from_start: &self.from_start,
            to_goal: &self.to_goal,
            goal_link: &self.goal_link,
            direct: self.direct.as_ref().map(|d| d.cost),
            regions: self.regions,
        };
        match self
            .search
            .step(&self.graph, &temps, &mut self.stats, tracer)
        {
            Step::Expanded => {}
            Step::Reached(cost) => {
                self.cost = cost;
                self.phase = 2;
                if T::ENABLED {
                    tracer.event(Event::marker(EventKind::Phase, 2));
                }
            }
            Step::Exhausted => self.fail(tracer),
        }
    }

    fn fail<T: Tracer>(&mut self, tracer: &mut T) {
        for l in &self.links[1] {
            if l.vertex != NONE {
                self.goal_link[l.vertex as usize] = NONE;
            }
        }
        if T::ENABLED {
            tracer.event(Event::marker(EventKind::NoPath, self.ends[1]));
        }
        self.status = Status::NoPath;
    }
}

/// Where base node `n` is (its centre).
fn space_point<S: HierBase>(space: &S, n: NodeId) -> [f64; 2] {
    let p = space.position(n);
    [p[0] as f64, p[1] as f64]
}

/// The temporary edge a finished connecting search found.
fn finish_link<S: HierBase>(
    space: &S,
    g: &AbstractGraph,
    local: &Local,
    job: Job,
    region: u32,
    ends: [NodeId; 2],
    points: [Option<[f64; 2]>; 2],
) -> Link {
    let mut path = vec![];
    if job.vertex == NONE {
        local.path_into(g, ends[1], &mut path);
        let mut cost = local.g(g, ends[1]).expect("reached");
        // From the start's point to the goal's: the last edge ends at the goal's point, not
        // its base node's centre (the links through crossings are counted so too).
        if let Some(goal) = points[1] {
            cost = match (path.len(), points[0]) {
                (1, Some(start)) => space.within(ends[1], start, goal),
                (1, None) => space.within(ends[1], space_point(space, ends[0]), goal),
                (n, _) => {
                    let pred = path[n - 2];
                    let before = local.g(g, pred).expect("on the path");
                    before + space.arrive_at(goal, ends[1], pred, cost - before)
                }
            };
        }
        return Link {
            vertex: NONE,
            cost,
            via: Via::Own(path),
        };
    }
    let target = g.inside(job.vertex, region);
    local.path_into(g, target, &mut path);
    Link {
        vertex: job.vertex,
        cost: local
            .to_crossing(space, g, job.vertex, target)
            .expect("reached"),
        via: Via::Own(path),
    }
}

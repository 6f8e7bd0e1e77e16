//! The CPU backend: rayon over agents, each worker keeping one search state (A*'s arrays, a
//! hierarchical query, a flow field's buffers) from agent to agent and its own counts per
//! cell; the workers' counts are summed at the end, integers, so totals are the same for any
//! thread count.

use super::count::{sum_cells, PerThread, Traffic};
use super::heat::Heat;
use super::twin::{self, INF, SCALE};
use super::{raster, Batch, Method, World};
use crate::hier::query::{Connect, HierQuery};
use crate::search::{AStar, Query, Search, SearchState, Status};
use crate::space::{GridSpace, Heuristic, NavmeshSpace, NodeId, Space};
use crate::trace::{Event, EventKind, NullTracer, Tracer};
use rayon::prelude::*;
use web_time::Instant;

/// A batch's results.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub method: Method,
    /// Each agent's path cost as its method minimises it (NaN where it found none): on the
    /// grid the path's cost; with PCCP the cost of the polygon path, centre to centre (the
    /// thesis's path cost).
    pub costs: Vec<f64>,
    /// The length each agent walks: the grid path's cost, or with PCCP the funnelled line
    /// through the polygon path's portals (NaN where it found none).
    pub lengths: Vec<f64>,
    /// Agents whose path crosses each cell.
    pub traffic: Heat,
    /// Expansions on each cell, all agents together (a hierarchy's abstract vertices count on
    /// the cell they lie in, its polygons on their centre's cell).
    pub expansions: Heat,
    /// The cells of the first `keep` agents asked for (the app animates them).
    pub paths: Option<Vec<Vec<NodeId>>>,
    /// Wall-clock time of the batch, counting included.
    pub ms: f64,
    pub threads: usize,
}

impl Outcome {
    /// Agents that found a path.
    pub fn found(&self) -> usize {
        self.costs.iter().filter(|c| !c.is_nan()).count()
    }

    /// Agents planned per second.
    pub fn agents_per_s(&self) -> f64 {
        self.costs.len() as f64 / (self.ms / 1000.0).max(1e-9)
    }
}

/// Told the number of agents just planned, from any worker; false stops the batch (it then
/// returns `None`). The app's job reports progress and cancels through it.
pub type Report<'a> = &'a (dyn Fn(usize) -> bool + Sync);

/// Agents a worker takes at a time: large enough that handing out work costs nothing next to
/// the searches, small enough that two cores share a 1,000-agent batch evenly.
const CHUNK: usize = 64;

/// Plans every agent of `batch` with `method` on the CPU, keeping the paths of the first
/// `keep` agents (the app animates them). `None` when `report` stopped it; an error when the
/// world lacks what the method needs.
pub fn plan(
    world: &World,
    batch: &Batch,
    method: Method,
    keep: usize,
    report: Option<Report>,
) -> Result<Option<Outcome>, String> {
    let t0 = Instant::now();
    let n = batch.agents.len();
    let units: Vec<Vec<u32>> = match method {
        // One unit per goal: its field is built once and every agent going there follows it.
        Method::Flow => twin::by_goal(batch).into_iter().map(|(_, a)| a).collect(),
        _ => near_first(world, batch)
            .chunks(CHUNK)
            .map(|c| c.to_vec())
            .collect(),
    };
    let hier = match method {
        Method::Pccp => {
            let (Some(mesh), Some(h)) = (&world.mesh, &world.hierarchy) else {
                return Err("PCCP needs the map's navmesh hierarchy, which was not built".into());
            };
            if h.pccp.is_none() {
                return Err("the hierarchy was built without its PCCP table".into());
            }
            Some((mesh, h))
        }
        _ => None,
    };
    let grid = &world.grid;
    let cells = grid.num_nodes();
    let workers = PerThread::default();
    units.par_iter().for_each(|unit| {
        let make = || Acc::new(hier.map(|(m, h)| h.query(m, Connect::Pccp)), cells);
        workers.with(make, |acc| {
            if acc.cancelled {
                return;
            }
            match method {
                Method::Astar => acc.astar(grid, batch, unit, keep),
                Method::Pccp => {
                    let (mesh, _) = hier.expect("checked above");
                    acc.pccp(grid, mesh, batch, unit, keep)
                }
                Method::Flow => acc.flow(&world.fixed, batch, unit, keep),
            }
            if let Some(r) = report {
                acc.cancelled = !r(unit.len());
            }
        })
    });
    let mut accs = workers.into_inner();
    // The counts, summed over the workers into the first one's arrays.
    let traffic = sum_cells(
        accs.iter_mut()
            .map(|a| std::mem::take(&mut a.traffic).into_counts()),
        cells,
    );
    let expanded = sum_cells(
        accs.iter_mut().map(|a| std::mem::take(&mut a.expanded)),
        cells,
    );
    let (traffic, expansions) = (
        Heat::from_counts(grid, traffic),
        Heat::from_counts(grid, expanded),
    );
    let acc = accs
        .pop()
        .map(|last| accs.into_iter().fold(last, Acc::merge));
    let Some(acc) = acc else {
        // No agents.
        return Ok(Some(Outcome {
            method,
            costs: vec![],
            lengths: vec![],
            traffic,
            expansions,
            paths: (keep > 0).then(Vec::new),
            ms: t0.elapsed().as_secs_f64() * 1000.0,
            threads: rayon::current_num_threads(),
        }));
    };
    if acc.cancelled {
        return Ok(None);
    }
    let (mut costs, mut lengths) = (vec![f64::NAN; n], vec![f64::NAN; n]);
    for &(i, c, l) in &acc.costs {
        costs[i as usize] = c;
        lengths[i as usize] = l;
    }
    let paths = (keep > 0).then(|| {
        let mut paths = vec![vec![]; n.min(keep)];
        for (i, p) in acc.paths {
            paths[i as usize] = p;
        }
        paths
    });
    Ok(Some(Outcome {
        method,
        costs,
        lengths,
        traffic,
        expansions,
        paths,
        ms: t0.elapsed().as_secs_f64() * 1000.0,
        threads: rayon::current_num_threads(),
    }))
}

/// The batch's agents in an order where consecutive ones start near each other and go near
/// each other: along a Morton curve through (start x, start y, goal x, goal y). A worker then
/// finds the cells, table rows and polygons the previous agent touched still in its caches;
/// in the order given, each agent's path read and counted cells all over the map (the
/// traffic counts' loads missed the caches on a seventh of a PCCP batch). Only the order of
/// work changes: each agent's result is stored under its own index and counts are sums.
fn near_first(world: &World, batch: &Batch) -> Vec<u32> {
    let grid = &world.grid;
    let mut keyed: Vec<(u64, u32)> = batch
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let (sx, sy) = grid.xy(a.start);
            let (gx, gy) = grid.xy(a.goal);
            (morton4([sx, sy, gx, gy]), i as u32)
        })
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// The four coordinates' low 16 bits interleaved, the highest bits first.
fn morton4(v: [u32; 4]) -> u64 {
    let mut key = 0u64;
    for bit in (0..16).rev() {
        for c in v {
            key = (key << 1) | ((c >> bit) & 1) as u64;
        }
    }
    key
}

/// Every non-zero cell of each labelled outcome, as CSV:
/// `x,y,method,backend,traffic,expansions`.
pub fn counts_csv(outcomes: &[(String, &Outcome)], grid: &GridSpace) -> String {
    let mut text = String::from("x,y,method,backend,traffic,expansions\n");
    for (backend, o) in outcomes {
        for (i, (&t, &e)) in o
            .traffic
            .values
            .iter()
            .zip(&o.expansions.values)
            .enumerate()
        {
            if t != 0 || e != 0 {
                let (x, y) = grid.xy(i as u32);
                text.push_str(&format!("{x},{y},{},{backend},{t},{e}\n", o.method.name()));
            }
        }
    }
    text
}

/// A worker's state and counts.
struct Acc {
    astar: Option<AStar>,
    query: Option<HierQuery>,
    /// A flow field's costs and steps.
    field: (Vec<u32>, Vec<u32>),
    traffic: Traffic,
    expanded: Vec<u32>,
    /// (agent, cost, length).
    costs: Vec<(u32, f64, f64)>,
    paths: Vec<(u32, Vec<NodeId>)>,
    cancelled: bool,
    /// The funnel's buffers, kept between agents.
    scratch: raster::Scratch,
}

/// Counts each cell a search expands.
struct ExpansionCount<'a>(&'a mut [u32]);

impl Tracer for ExpansionCount<'_> {
    const ENABLED: bool = true;
    #[inline(always)]
    fn event(&mut self, e: Event) {
        if e.kind == EventKind::Expand {
            if let Some(c) = self.0.get_mut(e.node as usize) {
                *c += 1;
            }
        }
    }
}

/// Records expansions of a hierarchical query by node, to be placed on cells afterwards.
struct ExpandedNodes<'a>(&'a mut Vec<u32>);

impl Tracer for ExpandedNodes<'_> {
    const ENABLED: bool = true;
    #[inline(always)]
    fn event(&mut self, e: Event) {
        if e.kind == EventKind::Expand {
            self.0.push(e.node);
        }
    }
}

impl Acc {
    fn new(query: Option<HierQuery>, cells: usize) -> Acc {
        Acc {
            astar: None,
            query,
            field: (vec![], vec![]),
            traffic: Traffic::new(cells),
            expanded: crate::huge_pages::filled_huge(cells, 0),
            costs: vec![],
            paths: vec![],
            cancelled: false,
            scratch: raster::Scratch::default(),
        }
    }

    /// Joins `b`'s agents to `a`'s (their counts are summed apart, straight into the heatmaps).
    fn merge(mut a: Acc, b: Acc) -> Acc {
        a.costs.extend(b.costs);
        a.paths.extend(b.paths);
        a.cancelled |= b.cancelled;
        a
    }

    fn astar(&mut self, grid: &GridSpace, batch: &Batch, unit: &[u32], keep: usize) {
        let first = Query { start: 0, goal: 0 };
        let mut a = self
            .astar
            .take()
            .unwrap_or_else(|| AStar::new(grid, first, Heuristic::Octile));
        for &i in unit {
            let agent = batch.agents[i as usize];
            a.reset(
                grid,
                Query {
                    start: agent.start,
                    goal: agent.goal,
                },
            );
            let status = a.run(grid, &mut ExpansionCount(&mut self.expanded));
            let cost = if status == Status::Found {
                let path = a.path().unwrap_or(&[]);
                self.traffic.path(path);
                if (i as usize) < keep {
                    self.paths.push((i, path.to_vec()));
                }
                a.cost().unwrap_or(f64::NAN)
            } else {
                f64::NAN
            };
            self.costs.push((i, cost, cost));
        }
        self.astar = Some(a);
    }

    fn pccp(
        &mut self,
        grid: &GridSpace,
        mesh: &NavmeshSpace,
        batch: &Batch,
        unit: &[u32],
        keep: usize,
    ) {
        let mut q = self.query.take().expect("a PCCP worker keeps its query");
        let mut nodes = vec![];
        let graph = q.graph().clone();
        let polygons = mesh.num_nodes() as u32;
        for &i in unit {
            let agent = batch.agents[i as usize];
            let (sx, sy) = grid.xy(agent.start);
            let (gx, gy) = grid.xy(agent.goal);
            let (Some(ps), Some(pg)) = (mesh.polygon_at(sx, sy), mesh.polygon_at(gx, gy)) else {
                self.costs.push((i, f64::NAN, f64::NAN));
                continue;
            };
            q.reset(mesh, ps, pg, [None, None]);
            nodes.clear();
            if q.run(mesh, &mut ExpandedNodes(&mut nodes)) != Status::Found {
                self.costs.push((i, f64::NAN, f64::NAN));
                continue;
            }
            for &v in &nodes {
                let p = if v < polygons {
                    mesh.centre(v)
                } else if let Some(&p) = graph.pos.get((v - polygons) as usize) {
                    p
                } else {
                    // The start's and goal's temporary vertices: no place of their own.
                    continue;
                };
                if let Some(c) = grid.node(p[0] as u32, p[1] as u32) {
                    self.expanded[c as usize] += 1;
                }
            }
            let polygons = q.path().unwrap_or(&[]);
            let (length, cells) = raster::walk_counted(
                grid,
                mesh,
                polygons,
                agent,
                &mut self.scratch,
                &mut self.traffic,
                (i as usize) < keep,
            );
            if let Some(cells) = cells {
                self.paths.push((i, cells));
            }
            self.costs.push((i, q.cost().unwrap_or(f64::NAN), length));
        }
        self.query = Some(q);
    }

    fn flow(&mut self, fixed: &twin::FixedGrid, batch: &Batch, unit: &[u32], keep: usize) {
        let (mut dist, mut next) = std::mem::take(&mut self.field);
        let goal = batch.agents[unit[0] as usize].goal;
        let expanded = &mut self.expanded;
        twin::flow_field(fixed, goal, &mut dist, &mut next, |c| {
            expanded[c as usize] += 1
        });
        for &i in unit {
            let start = batch.agents[i as usize].start;
            let d = dist[start as usize];
            if d == INF {
                self.costs.push((i, f64::NAN, f64::NAN));
                continue;
            }
            let mut path = vec![start];
            while *path.last().expect("not empty") != goal {
                path.push(next[*path.last().expect("not empty") as usize]);
            }
            self.traffic.path(&path);
            if (i as usize) < keep {
                self.paths.push((i, path));
            }
            let cost = d as f64 / SCALE;
            self.costs.push((i, cost, cost));
        }
        self.field = (dist, next);
    }
}

/// Plans `batch` with A* alone and no counting: the reference costs the tests compare with.
pub fn reference_costs(grid: &GridSpace, batch: &Batch) -> Vec<f64> {
    let mut a = AStar::new(grid, Query { start: 0, goal: 0 }, Heuristic::Octile);
    batch
        .agents
        .iter()
        .map(|ag| {
            a.reset(
                grid,
                Query {
                    start: ag.start,
                    goal: ag.goal,
                },
            );
            if a.run(grid, &mut NullTracer) == Status::Found {
                a.cost().unwrap_or(f64::NAN)
            } else {
                f64::NAN
            }
        })
        .collect()
}

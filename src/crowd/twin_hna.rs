//! MA-HNA* with PCCP for one agent in bounded memory (Rahmani 2020 §4.4.1): the CPU twin of
//! `shaders/hna.wgsl`, step for step, on the table and heap of [`super::twin_astar`].
//!
//! An agent's start and goal polygons connect to the hierarchy's graph by reading PCCP's table
//! (no connecting search), then one A* runs over the graph's vertices (the crossings at the top
//! level) to the goal. Where start and goal share a top-level region, the same A* may also walk
//! from the start polygon to the goal polygon inside that region, polygon by polygon: that is
//! the direct search the thesis leaves open, folded into the one search so an agent needs one
//! table and one heap, and its cost is the lesser of the two ways, as the CPU query's.
//!
//! Everything is integer: fixed-point costs ([`super::twin::SCALE`]) and a heuristic that is
//! the straight-line distance floored in integers, so that GPU and CPU agree exactly. The
//! found path goes back to the host as its chain of (node, arc) pairs; the host reads the
//! polygons off the table and the hierarchy, funnels them and counts the cells crossed, the same
//! for both backends ([`super::tally`]).

use super::tally::Tally;
use super::twin::{fixed, INF, SCALE};
use super::twin_astar::{Scratch, Status};
use super::{Batch, World};
use crate::hier::graph::NO_REGION;
use crate::hier::hna::Hierarchy;
use crate::space::{GridSpace, NavmeshSpace, NodeId, Space};

/// The longest chain (graph vertices and polygons, start to goal) an agent hands back; a
/// longer one reports [`Status::Overflow`].
pub const CHAIN: usize = 512;

/// An arc with no index: from the start to its own polygon, or into the goal.
pub const NO_ARC: u32 = INF;

/// The hierarchy as the kernel reads it, flat and in fixed point. Node ids: the polygons
/// (`0..polygons`), then the graph's vertices, then the start's and the goal's temporaries.
#[derive(Clone, Debug, PartialEq)]
pub struct HnaGraph {
    pub polygons: u32,
    pub vertices: u32,
    /// Each node's arcs, `first[n]..first[n + 1]` into `to` and `cost`: a polygon's to its
    /// neighbours in the same region, a vertex's its intra-edges (across both its regions).
    pub first: Vec<u32>,
    pub to: Vec<u32>,
    pub cost: Vec<u32>,
    /// A vertex arc's intra-edge, for reading the path back ([`NO_ARC`] on polygon arcs).
    pub intra: Vec<u32>,
    /// Each polygon's and vertex's point in `1 / unit` cells, for the heuristic.
    pub pos: Vec<[u32; 2]>,
    /// The cell each polygon (its centre) and vertex lies in, where expansions are counted.
    pub cell_of: Vec<u32>,
    /// Each polygon's top-level region.
    pub region: Vec<u32>,
    /// PCCP's table: polygon p's entries are `pfirst[p]..pfirst[p + 1]`, each a vertex and
    /// the cost from p's centre to it.
    pub pfirst: Vec<u32>,
    pub pvertex: Vec<u32>,
    pub pcost: Vec<u32>,
    /// The heuristic's fixed-point cost per unit of `pos` distance.
    pub hmul: u32,
}

/// The largest floored root of a squared distance between two points of `pos`.
const ROOT_MAX: u32 = 46_341;

impl HnaGraph {
    /// The flat form of `world`'s navmesh hierarchy and its PCCP table.
    pub fn of(world: &World) -> Result<HnaGraph, String> {
        let (Some(mesh), Some(h)) = (&world.mesh, &world.hierarchy) else {
            return Err("PCCP needs the map's navmesh hierarchy, which was not built".into());
        };
        HnaGraph::new(mesh, h)
    }

    pub fn new(mesh: &NavmeshSpace, h: &Hierarchy) -> Result<HnaGraph, String> {
        let graph = &h.graph;
        let pccp = h
            .pccp
            .as_ref()
            .ok_or("the hierarchy was built without its PCCP table")?;
        let p = mesh.num_nodes() as u32;
        let v = graph.vertices() as u32;
        let region: Vec<u32> = (0..p).map(|n| graph.region_of(n)).collect();
        let (mut first, mut to, mut cost, mut intra) = (vec![0u32], vec![], vec![], vec![]);
        for n in 0..p {
            let r = region[n as usize];
            mesh.for_each_neighbour(n, |m, c| {
                if r != NO_REGION && region[m as usize] == r {
                    to.push(m);
                    cost.push(fixed(c));
                    intra.push(NO_ARC);
                }
            });
            first.push(to.len() as u32);
        }
        for x in 0..v as usize {
            let (a, b) = (graph.out_first[x] as usize, graph.out_first[x + 1] as usize);
            for o in &graph.out[a..b] {
                to.push(p + o.to);
                cost.push(fixed(o.cost));
                intra.push(o.edge);
            }
            first.push(to.len() as u32);
        }
        // Points in 1/unit cells, so that squared distances fit in 32 bits (2 · 32,768²).
        let (w, ht) = mesh.size();
        let side = w.max(ht).max(1);
        let unit = (32_768 / side).max(1);
        let points: Vec<[f64; 2]> = (0..p)
            .map(|n| mesh.centre(n))
            .chain(graph.pos.iter().copied())
            .collect();
        let pos = points
            .iter()
            .map(|q| q.map(|c| (c * unit as f64).round().clamp(0.0, 32_768.0) as u32))
            .collect();
        let cell_of = points
            .iter()
            .map(|q| {
                let (x, y) = (q[0] as u32, q[1] as u32);
                if x < w && y < ht {
                    y * w + x
                } else {
                    INF
                }
            })
            .collect();
        // Past 32,768 cells a side the points would not fit: no heuristic (Dijkstra), said
        // nowhere else because no MovingAI map comes near.
        let hmul = if side > 32_768 {
            0
        } else {
            (graph.min_cost * SCALE / unit as f64)
                .floor()
                .clamp(0.0, (u32::MAX / ROOT_MAX) as f64) as u32
        };
        Ok(HnaGraph {
            polygons: p,
            vertices: v,
            first,
            to,
            cost,
            intra,
            pos,
            cell_of,
            region,
            pfirst: pccp.first.clone(),
            pvertex: pccp.entries.iter().map(|e| e.vertex).collect(),
            pcost: pccp.entries.iter().map(|e| fixed(e.cost)).collect(),
            hmul,
        })
    }

    /// The start's temporary node.
    pub fn start(&self) -> u32 {
        self.polygons + self.vertices
    }

    /// The goal's temporary node.
    pub fn goal(&self) -> u32 {
        self.start() + 1
    }

    /// The estimate from node `n` to the point `goal`: the straight line, floored, less two
    /// units for the rounding of both points, times the cheapest cost per unit (a lower bound
    /// on every path, as the CPU query's Euclidean estimate is). The temporaries estimate 0.
    pub fn h(&self, n: u32, goal: [u32; 2]) -> u32 {
        let Some(a) = self.pos.get(n as usize) else {
            return 0;
        };
        let (dx, dy) = (a[0].abs_diff(goal[0]), a[1].abs_diff(goal[1]));
        (dx * dx + dy * dy).isqrt().saturating_sub(2) * self.hmul
    }

    /// Each agent's start and goal polygons in pairs ([`INF`] where a cell has none).
    pub fn ends(mesh: &NavmeshSpace, grid: &GridSpace, batch: &Batch) -> Vec<u32> {
        let at = |c: NodeId| {
            let (x, y) = grid.xy(c);
            mesh.polygon_at(x, y).unwrap_or(INF)
        };
        batch
            .agents
            .iter()
            .flat_map(|a| [at(a.start), at(a.goal)])
            .collect()
    }
}

/// One agent's memory: the grid A*'s table and heap, and per slot the arc a node was reached
/// over and its edge to the goal (PCCP cost + 1; 0 for none).
pub struct HnaScratch {
    pub table: Scratch,
    arc: Vec<u32>,
    to_goal: Vec<u32>,
}

impl HnaScratch {
    pub fn new(slots: u32) -> HnaScratch {
        let table = Scratch::new(slots);
        let n = table.slots as usize;
        HnaScratch {
            table,
            arc: vec![NO_ARC; n],
            to_goal: vec![0; n],
        }
    }

    /// MA-HNA* from polygon `ps` to polygon `pg`: its status and fixed-point cost;
    /// `expanded(c)` is called for the cell of each polygon and vertex expanded.
    pub fn search(
        &mut self,
        g: &HnaGraph,
        ps: u32,
        pg: u32,
        mut expanded: impl FnMut(u32),
    ) -> (Status, u32) {
        self.table.clear();
        self.to_goal.fill(0);
        if ps == INF || pg == INF {
            return (Status::NoPath, INF);
        }
        let (rs, rg) = (g.region[ps as usize], g.region[pg as usize]);
        if rs == NO_REGION || rg == NO_REGION {
            return (Status::NoPath, INF);
        }
        let (start, goal) = (g.start(), g.goal());
        // The goal's links, read from its polygon's entries before the search.
        for e in g.pfirst[pg as usize]..g.pfirst[pg as usize + 1] {
            let Some(s) = self.table.slot(g.polygons + g.pvertex[e as usize]) else {
                return (Status::Overflow, INF);
            };
            let c = g.pcost[e as usize] + 1;
            if self.to_goal[s] == 0 || c < self.to_goal[s] {
                self.to_goal[s] = c;
            }
        }
        let Some(s0) = self.table.slot(start) else {
            return (Status::Overflow, INF);
        };
        self.table.g[s0] = 0;
        self.arc[s0] = NO_ARC;
        self.table.push([0, 0, start]);
        let target = g.pos[pg as usize];
        while let Some([_, gn, n]) = self.table.pop() {
            let sn = self.table.slot(n).expect("a popped node is in the table");
            if self.table.closed[sn] == 1 || gn != self.table.g[sn] {
                continue;
            }
            self.table.closed[sn] = 1;
            if let Some(&c) = g.cell_of.get(n as usize) {
                if c != INF {
                    expanded(c);
                }
            }
            if n == goal {
                return (Status::Found, gn);
            }
            let mut ok = true;
            if n == start {
                // The start's links: its polygon's PCCP entries, and its polygon itself when
                // the goal is in the same region.
                for e in g.pfirst[ps as usize]..g.pfirst[ps as usize + 1] {
                    let m = g.polygons + g.pvertex[e as usize];
                    ok &= self.relax(g, target, n, gn, m, g.pcost[e as usize], e);
                }
                if rs == rg {
                    ok &= self.relax(g, target, n, gn, ps, 0, NO_ARC);
                }
            } else {
                for k in g.first[n as usize]..g.first[n as usize + 1] {
                    let (m, c) = (g.to[k as usize], g.cost[k as usize]);
                    ok &= self.relax(g, target, n, gn, m, c, k);
                }
                let tg = self.to_goal[sn];
                if n == pg {
                    ok &= self.relax(g, target, n, gn, goal, 0, NO_ARC);
                } else if tg != 0 {
                    ok &= self.relax(g, target, n, gn, goal, tg - 1, NO_ARC);
                }
            }
            if !ok {
                return (Status::Overflow, INF);
            }
        }
        (Status::NoPath, INF)
    }

    /// Offers `m` a path through `n` (at cost `gn`) over an arc costing `c`; false when the
    /// table or the heap is full.
    #[allow(clippy::too_many_arguments)]
    fn relax(
        &mut self,
        g: &HnaGraph,
        target: [u32; 2],
        n: u32,
        gn: u32,
        m: u32,
        c: u32,
        arc: u32,
    ) -> bool {
        let gm = gn.saturating_add(c);
        let Some(sm) = self.table.slot(m) else {
            return false;
        };
        if self.table.closed[sm] == 1 || gm >= self.table.g[sm] {
            return true;
        }
        self.table.g[sm] = gm;
        self.table.parent[sm] = n;
        self.arc[sm] = arc;
        self.table.push([gm.saturating_add(g.h(m, target)), gm, m])
    }

    /// The path found, goal first, as (node, arc into it) pairs down to the start; false when
    /// it is longer than [`CHAIN`].
    pub fn chain(&mut self, g: &HnaGraph, out: &mut Vec<[u32; 2]>) -> bool {
        out.clear();
        let mut n = g.goal();
        loop {
            let s = self.table.slot(n).expect("on the path");
            out.push([n, self.arc[s]]);
            if n == g.start() {
                return true;
            }
            if out.len() == CHAIN {
                return false;
            }
            n = self.table.parent[s];
        }
    }
}

/// The twin of the GPU batch: each agent's status and fixed-point cost, its walked length,
/// traffic and expansions per cell.
#[derive(Clone, Debug, PartialEq)]
pub struct HnaResult {
    pub status: Vec<u32>,
    pub costs: Vec<u32>,
    pub lengths: Vec<f64>,
    pub traffic: Vec<u32>,
    pub expanded: Vec<u32>,
}

impl HnaResult {
    /// Agents that found a path.
    pub fn found(&self) -> usize {
        self.status
            .iter()
            .filter(|&&s| s == Status::Found as u32)
            .count()
    }
}

/// Every agent of `batch` in turn with `slots` of memory each.
pub fn hna_batch(world: &World, g: &HnaGraph, batch: &Batch, slots: u32) -> HnaResult {
    hna_batch_while(world, g, batch, slots, &|| true).expect("never stopped")
}

/// [`hna_batch`], asking `go_on` before each agent; `None` when it said stop.
pub fn hna_batch_while(
    world: &World,
    g: &HnaGraph,
    batch: &Batch,
    slots: u32,
    go_on: &dyn Fn() -> bool,
) -> Option<HnaResult> {
    let mesh = world.mesh.as_ref().expect("an HnaGraph has its mesh");
    let ends = HnaGraph::ends(mesh, &world.grid, batch);
    let n = batch.agents.len();
    let cells = world.grid.num_nodes();
    let mut s = HnaScratch::new(slots);
    let mut tally = Tally::new(cells, n, 0);
    let mut r = HnaResult {
        status: vec![0; n],
        costs: vec![INF; n],
        lengths: vec![],
        traffic: vec![],
        expanded: vec![0; cells],
    };
    let mut chain = vec![];
    for (i, &a) in batch.agents.iter().enumerate() {
        if !go_on() {
            return None;
        }
        let (ps, pg) = (ends[2 * i], ends[2 * i + 1]);
        let expanded = &mut r.expanded;
        let (mut st, mut cost) = s.search(g, ps, pg, |c| expanded[c as usize] += 1);
        if st == Status::Found && !s.chain(g, &mut chain) {
            (st, cost) = (Status::Overflow, INF);
        }
        r.status[i] = st as u32;
        r.costs[i] = cost;
        if st == Status::Found {
            tally.add(world, g, i, a, pg, &chain);
        }
    }
    let t = tally.finish();
    r.traffic = t.traffic;
    r.lengths = t.lengths;
    Some(r)
}

/// [`hna_batch`] with memory that follows the problem: an agent that overflows at one of
/// `sizes` is planned again at the next ([`super::grow`]). Also each agent's last size;
/// `None` when `go_on`, asked before each agent, said stop.
pub fn hna_batch_grown(
    world: &World,
    g: &HnaGraph,
    batch: &Batch,
    sizes: &[u32],
    go_on: &dyn Fn() -> bool,
) -> Option<(HnaResult, Vec<u32>)> {
    let run = |b: &Batch, s| hna_batch_while(world, g, b, s, go_on).ok_or(());
    super::grow::grow(batch, sizes, run).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::{plan, Method};
    use crate::map::Generator;

    #[test]
    fn bounded_hna_costs_what_the_pccp_query_costs_or_says_it_ran_out() {
        let map = Generator::RandomBlocks { density: 0.2 }.generate(64, 48, 5);
        let world = World::new(&map, &[Method::Pccp], 4, 2, &|_, _| ()).unwrap();
        let batch = Batch::random(&world.grid, 400, 9).unwrap();
        let want = plan(&world, &batch, Method::Pccp, 0, None)
            .unwrap()
            .unwrap();
        let g = HnaGraph::of(&world).unwrap();
        let r = hna_batch(&world, &g, &batch, 4096);
        let mut same_region = 0;
        for (k, w) in want.costs.iter().enumerate() {
            assert_eq!(
                r.status[k] == Status::Found as u32,
                !w.is_nan(),
                "agent {k}"
            );
            if w.is_nan() {
                continue;
            }
            let got = r.costs[k] as f64 / SCALE;
            assert!(
                (got - w).abs() < 1e-3 * w.max(1.0),
                "agent {k}: {got} against {w}"
            );
            let a = batch.agents[k];
            let mesh = world.mesh.as_ref().unwrap();
            let (x, y) = world.grid.xy(a.start);
            let (gx, gy) = world.grid.xy(a.goal);
            let line = (x as f64 - gx as f64).hypot(y as f64 - gy as f64);
            assert!(
                r.lengths[k] >= line - 1e-9,
                "agent {k}: no shorter than the straight line"
            );
            let (ps, pg) = (
                mesh.polygon_at(x, y).unwrap(),
                mesh.polygon_at(gx, gy).unwrap(),
            );
            same_region += usize::from(g.region[ps as usize] == g.region[pg as usize]);
        }
        assert!(
            same_region > 0,
            "some agents exercise the search inside one region"
        );
        assert!(r.found() >= 390);
        assert!(r.traffic.iter().sum::<u32>() as usize >= r.found());
        // Sixty-four slots cannot hold the longer searches: they say so, the rest agree.
        let small = hna_batch(&world, &g, &batch, 64);
        assert!(small.status.contains(&(Status::Overflow as u32)));
        for (k, &st) in small.status.iter().enumerate() {
            if st == Status::Found as u32 {
                assert_eq!(small.costs[k], r.costs[k]);
            }
        }
    }
}

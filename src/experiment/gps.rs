//! Rahmani 2020's "GPS of the brain" planner (ch. 5) on hex worlds: a cognitive map of visit
//! counters, naive exploration towards a vaguely known goal direction, an A* whose heuristic
//! prefers familiar hexes, and the planner that walks with whichever fits the hex it stands on.
//!
//! Choices the thesis leaves open, as pathlab makes them (see also [`Options`]):
//! - counters are capped at `c_max` (the thesis calls it "an upper limit to the level of
//!   knowledge about a cell");
//! - distances are in square cells: a hex step costs the pitch (times terrain cost), and the
//!   counter penalty λ is in hex steps, so λ · pitch is added to the Euclidean distance;
//! - walking "straight in direction v" steps each time to the neighbour in the same one of the
//!   six directions;
//! - a walk longer than its step limit stops exploring and finishes with the counter A* (the
//!   person asks for the way), so every walk ends at a reachable goal; the report counts them.

use crate::space::{HexSpace, NodeId, Space};
use crate::trace::NONE;
use rand::Rng;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Visit counters over the hexes of a world (0 = never visited).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CognitiveMap {
    pub counters: Vec<u32>,
    pub c_max: u32,
}

impl CognitiveMap {
    /// An empty map (nothing known) over `n` hexes.
    pub fn new(n: usize, c_max: u32) -> CognitiveMap {
        CognitiveMap {
            counters: vec![0; n],
            c_max: c_max.max(1),
        }
    }

    /// One more visit of `n`, up to `c_max`.
    pub fn visit(&mut self, n: NodeId) {
        let c = &mut self.counters[n as usize];
        *c = (*c + 1).min(self.c_max);
    }

    pub fn known(&self, n: NodeId) -> bool {
        self.counters[n as usize] > 0
    }

    /// The penalty of eq. 5.2, in hex steps: 2 · C_max unknown, C_max / c known.
    pub fn lambda(&self, n: NodeId) -> f64 {
        match self.counters[n as usize] {
            0 => 2.0 * self.c_max as f64,
            c => self.c_max as f64 / c.min(self.c_max) as f64,
        }
    }

    /// Share of `cells` with a counter above 0.
    pub fn known_share(&self, cells: &[NodeId]) -> f64 {
        let k = cells.iter().filter(|&&n| self.known(n)).count();
        k as f64 / cells.len().max(1) as f64
    }
}

/// The parameters of a walk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Confidence in the goal direction, −1 (none: any free direction) to 0.8.
    pub delta: f64,
    /// Hexes walked before the direction is chosen again.
    pub c: u32,
}

/// The thesis's ambiguous choices (its Algorithm 7 has no single reading). The default is
/// the listing read literally: counters read as the walk leaves them, legs ending on a known
/// hex, a plan followed until it leads into unknown ground.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Whether a hex is known is read from the map as it was when the walk began (true), or
    /// as the walk leaves it (false, the listing's `get_counter`: a hex walked once is known
    /// at once, so after each leg the agent takes a step of its plan). With prior knowledge
    /// an agent whose goal lies in unknown ground explores only by legs, and behind a wall
    /// facing the goal it may not get round for thousands of steps.
    pub prior_knowledge: bool,
    /// In known hexes, plan again at every step (true) or follow the plan until it enters an
    /// unknown hex (false).
    pub replan_each_step: bool,
    /// An exploration leg ends on entering a known hex, as the listing's `while c = 0` loop
    /// reads (true); or it goes on to its C hexes, the mode chosen again at its end (false).
    pub leg_ends_on_known: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            prior_knowledge: false,
            replan_each_step: false,
            leg_ends_on_known: true,
        }
    }
}

/// How a walk goes: its parameters, the reading of the algorithm, and its step limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Walking {
    pub params: Params,
    pub options: Options,
    /// Steps before the walk stops exploring and follows the counter A* to the goal.
    pub limit: usize,
}

/// Centre of hex `n` in square cells.
pub fn centre(space: &HexSpace, n: NodeId) -> (f64, f64) {
    let (x, y) = space.xy(n);
    space.orientation().centre(x, y, space.pitch())
}

/// The free neighbours of `n` with their unit directions.
fn directions(space: &HexSpace, n: NodeId) -> Vec<(NodeId, (f64, f64))> {
    let c = centre(space, n);
    space
        .neighbours(n)
        .map(|(m, _)| {
            let d = centre(space, m);
            let v = (d.0 - c.0, d.1 - c.1);
            let l = (v.0 * v.0 + v.1 * v.1).sqrt();
            (m, (v.0 / l, v.1 / l))
        })
        .collect()
}

/// One choice of direction: the free directions (unit vectors), those inside the cone of
/// cosine above δ towards the goal, and the one drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub at: NodeId,
    pub free: Vec<(f64, f64)>,
    pub cone: Vec<(f64, f64)>,
    pub chosen: (f64, f64),
}

/// Draws a direction at `x` as §5.5.1 says: uniformly among the free neighbour directions
/// whose cosine to the goal direction exceeds δ, or among all free ones when none does.
pub fn choose(
    space: &HexSpace,
    x: NodeId,
    goal: NodeId,
    delta: f64,
    rng: &mut impl Rng,
) -> Option<Choice> {
    let dirs = directions(space, x);
    if dirs.is_empty() {
        return None;
    }
    let (c, g) = (centre(space, x), centre(space, goal));
    let to = (g.0 - c.0, g.1 - c.1);
    let l = (to.0 * to.0 + to.1 * to.1).sqrt().max(1e-12);
    let u = (to.0 / l, to.1 / l);
    let free: Vec<(f64, f64)> = dirs.iter().map(|d| d.1).collect();
    let cone: Vec<(f64, f64)> = free
        .iter()
        .copied()
        .filter(|v| v.0 * u.0 + v.1 * u.1 > delta)
        .collect();
    let pool = if cone.is_empty() { &free } else { &cone };
    let chosen = pool[rng.random_range(0..pool.len())];
    Some(Choice {
        at: x,
        free,
        cone,
        chosen,
    })
}

/// The free neighbour of `x` in direction `v` (the same one of the six directions), if any.
pub fn next_in(space: &HexSpace, x: NodeId, v: (f64, f64)) -> Option<NodeId> {
    directions(space, x)
        .into_iter()
        .find(|(_, d)| d.0 * v.0 + d.1 * v.1 > 0.99)
        .map(|(m, _)| m)
}

/// A* with the counter heuristic h = ‖p − G‖ + λ · pitch (eq. 5.1, 5.2) from `start` to
/// `goal`; every walkable hex may be searched, unknown ones only penalised. Nothing is
/// reopened (the heuristic is not consistent, by design: it favours familiar hexes). Returns
/// the path and its cost, and counts expansions into `expanded`.
pub fn counter_astar(
    space: &HexSpace,
    map: &CognitiveMap,
    start: NodeId,
    goal: NodeId,
    expanded: &mut u64,
) -> Option<(Vec<NodeId>, f64)> {
    if !space.is_passable(start) || !space.is_passable(goal) {
        return None;
    }
    let n = space.num_nodes();
    let (mut g, mut parent, mut closed) = (vec![f64::INFINITY; n], vec![NONE; n], vec![false; n]);
    let gc = centre(space, goal);
    let pitch = space.pitch();
    let h = |m: NodeId| {
        let c = centre(space, m);
        ((c.0 - gc.0).powi(2) + (c.1 - gc.1).powi(2)).sqrt() + map.lambda(m) * pitch
    };
    // Keys in fixed point (as pathlab's open list), ties to the larger g: equal f means
    // deeper first, which keeps the search on the straight line across open ground.
    let key = |x: f64| (x * 1048576.0).round() as u64;
    let mut open = BinaryHeap::new();
    g[start as usize] = 0.0;
    open.push((Reverse(key(h(start))), key(0.0), start));
    while let Some((_, _, x)) = open.pop() {
        if closed[x as usize] {
            continue;
        }
        closed[x as usize] = true;
        *expanded += 1;
        if x == goal {
            let mut path = vec![goal];
            while let Some(&p) = path
                .last()
                .map(|&l| &parent[l as usize])
                .filter(|&&p| p != NONE)
            {
                path.push(p);
            }
            path.reverse();
            return Some((path, g[goal as usize]));
        }
        for (m, cost) in space.neighbours(x) {
            let ng = g[x as usize] + cost;
            if !closed[m as usize] && ng < g[m as usize] {
                g[m as usize] = ng;
                parent[m as usize] = x;
                open.push((Reverse(key(ng + h(m))), key(ng), m));
            }
        }
    }
    None
}

/// How a walk went: the hexes in order (the start first), what each step did, and counts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Walk {
    pub cells: Vec<NodeId>,
    /// For each step (cells[k] → cells[k+1]): walked while exploring (true) or on a plan.
    pub exploring: Vec<bool>,
    pub choices: Vec<Choice>,
    /// Plans made by the counter A*, with the hex each began at.
    pub plans: Vec<(NodeId, Vec<NodeId>)>,
    pub reached: bool,
    /// The walk ran past its step limit and finished on a plan.
    pub gave_up: bool,
    pub expanded: u64,
}

impl Walk {
    /// Length in square cells (the sum of the steps' costs).
    pub fn length(&self, space: &HexSpace) -> f64 {
        self.cells
            .windows(2)
            .map(|w| {
                space
                    .neighbours(w[0])
                    .find(|&(m, _)| m == w[1])
                    .map_or(0.0, |(_, c)| c)
            })
            .sum()
    }

    /// Hexes entered while exploring.
    pub fn explored(&self) -> usize {
        self.exploring.iter().filter(|&&e| e).count()
    }
}

/// The combined planner (Algorithm 7, cleaned): on an unknown hex, explore legs of up to C
/// hexes (stopping at an obstacle, or see [`Options::leg_ends_on_known`]); on a known one, follow the
/// counter A*'s plan. Visits are counted into `map` as the walk goes. After `limit` steps it
/// stops exploring and follows the plan to the goal.
pub fn gps_walk(
    space: &HexSpace,
    map: &mut CognitiveMap,
    start: NodeId,
    goal: NodeId,
    how: Walking,
    rng: &mut impl Rng,
) -> Walk {
    let Walking {
        params: p,
        options: opts,
        limit,
    } = how;
    let prior = map.clone();
    let known = |m: &CognitiveMap, n: NodeId| {
        if opts.prior_knowledge {
            prior.known(n)
        } else {
            m.known(n)
        }
    };
    let mut w = Walk {
        cells: vec![start],
        ..Walk::default()
    };
    let mut x = start;
    let mut plan: Vec<NodeId> = vec![];
    // Steps taken on the current plan.
    let mut at = 0;
    while x != goal {
        let over = w.exploring.len() >= limit;
        if over || known(map, x) {
            if over && !w.gave_up {
                w.gave_up = true;
                plan.clear();
            }
            let stale = plan.get(at) != Some(&x) || opts.replan_each_step;
            if stale {
                match counter_astar(space, map, x, goal, &mut w.expanded) {
                    Some((p, _)) => {
                        w.plans.push((x, p.clone()));
                        plan = p;
                        at = 0;
                    }
                    None => break,
                }
            }
            let y = plan[at + 1];
            at += 1;
            map.visit(x);
            x = y;
            w.cells.push(x);
            w.exploring.push(false);
            // A plan into unknown ground is followed only while the hexes are known, unless
            // the walk is past its limit.
            continue;
        }
        // Exploring from an unknown hex.
        map.visit(x);
        let Some(ch) = choose(space, x, goal, p.delta, rng) else {
            break;
        };
        let v = ch.chosen;
        w.choices.push(ch);
        for _ in 0..p.c.max(1) {
            let Some(y) = next_in(space, x, v) else {
                break;
            };
            x = y;
            w.cells.push(x);
            w.exploring.push(true);
            let stop_here = opts.leg_ends_on_known && known(map, x);
            if x == goal || stop_here || w.exploring.len() >= limit {
                break;
            }
            map.visit(x);
        }
        plan.clear();
    }
    map.visit(x);
    w.reached = x == goal;
    w
}

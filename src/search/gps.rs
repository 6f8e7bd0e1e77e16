//! Rahmani 2020's "GPS of the brain" planner (ch. 5) on hex worlds: an agent walks from start
//! to goal with the cognitive map of the world (visit counters, [`CognitiveMap`]). On a hex it
//! does not know it explores: it draws a direction uniformly among the free ones whose cosine
//! to the goal direction exceeds δ (any free one when none does) and walks straight up to C
//! hexes. On a hex it knows it follows the counter A* (A* with [`Heuristic::Counter`]: the
//! distance plus λ, which favours familiar hexes). Every hex walked counts a visit, so the walk
//! teaches the map as it goes.
//!
//! Steppable like every search: each step is one direction chosen (a `Choice` event with the
//! cone), one hex walked (a `Walk` event) or one expansion of a counter A* plan, so the
//! timeline steps through a walk forward and back. The path is the walk (hexes may repeat).
//!
//! Choices the thesis leaves open (its Algorithm 7 has no single reading) are [`Options`]; a
//! walk past its step limit stops exploring and follows the counter A* to the goal (the person
//! asks the way), so every walk ends at a reachable goal.

use super::params::{ParamKind, ParamSpec, Params};
use super::{AStar, Query, Search, SearchState, Stats, Status};
use crate::space::knowledge::DEFAULT_C_MAX;
use crate::space::{CognitiveMap, Heuristic, HexSpace, NodeId, Space};
use crate::trace::{Event, EventKind, Tracer, NONE};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Naive exploration's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exploring {
    /// Confidence in the goal direction, −1 (none: any free direction) to 0.8.
    pub delta: f64,
    /// Hexes walked before the direction is chosen again.
    pub c: u32,
}

/// The readings of Algorithm 7. The default is the listing read literally: counters read as
/// the walk leaves them, legs ending on a known hex, a plan followed until it leads into
/// unknown ground.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
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
    /// An exploration leg goes on to its C hexes, the mode chosen again at its end (true); or
    /// it ends on entering a known hex, as the listing's `while c = 0` loop reads (false).
    pub full_legs: bool,
}

/// How a walk goes: its parameters, the reading of the algorithm, and its step limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Walking {
    pub exploring: Exploring,
    pub options: Options,
    /// Steps before the walk stops exploring and follows the counter A* to the goal.
    pub limit: usize,
}

/// One choice of direction: the free directions, those inside the cone of cosine above δ
/// towards the goal, and the one drawn (indices into [`crate::space::HexOrientation::offsets`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub at: NodeId,
    pub free: Vec<usize>,
    pub cone: Vec<usize>,
    pub chosen: usize,
}

impl Choice {
    /// A set of directions as a bit mask.
    pub fn mask(dirs: &[usize]) -> u8 {
        dirs.iter().fold(0, |m, &d| m | 1 << d)
    }
}

/// Unit vector of direction `d` at hex `n` (towards where that neighbour's centre is).
pub fn direction(space: &HexSpace, n: NodeId, d: usize) -> (f64, f64) {
    let (x, y) = space.xy(n);
    let (dx, dy) = space.orientation().offsets(x, y)[d];
    let p = space.pitch();
    let c = space.orientation().centre(x, y, p);
    let (nx, ny) = (x as i64 + dx as i64, y as i64 + dy as i64);
    let q = crate::space::hex_lattice_centre(space.orientation(), nx, ny, p);
    let v = (q.0 - c.0, q.1 - c.1);
    let l = (v.0 * v.0 + v.1 * v.1).sqrt();
    (v.0 / l, v.1 / l)
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
    let free: Vec<usize> = (0..6)
        .filter(|&d| space.neighbour_in(x, d).is_some())
        .collect();
    if free.is_empty() {
        return None;
    }
    let (c, g) = (space.centre(x), space.centre(goal));
    let to = (g.0 - c.0, g.1 - c.1);
    let l = (to.0 * to.0 + to.1 * to.1).sqrt().max(1e-12);
    let u = (to.0 / l, to.1 / l);
    let cone: Vec<usize> = free
        .iter()
        .copied()
        .filter(|&d| {
            let v = direction(space, x, d);
            v.0 * u.0 + v.1 * u.1 > delta
        })
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
    /// Length in square cells (the sum of the steps' costs).
    pub length: f64,
}

impl Walk {
    /// Hexes entered while exploring.
    pub fn explored(&self) -> usize {
        self.exploring.iter().filter(|&&e| e).count()
    }
}

/// What the planner does next.
#[derive(Clone, Debug)]
enum Phase {
    Deciding,
    /// A counter A* plan being searched, on the world with the walk's cognitive map.
    Planning(Box<AStar>, Box<HexSpace>),
    Following,
    /// Walking straight in direction `d` for `left` more hexes.
    Leg {
        d: usize,
        left: u32,
    },
    Done,
}

/// Passes on a plan's expansions, but not its starts and endings: the walk ends at the goal.
struct PlanEvents<'a, T>(&'a mut T);

impl<T: Tracer> Tracer for PlanEvents<'_, T> {
    const ENABLED: bool = T::ENABLED;
    fn event(&mut self, e: Event) {
        use EventKind::*;
        if !matches!(e.kind, Source | Destination | PathNode | Found | NoPath) {
            self.0.event(e);
        }
    }
}

/// The GPS of the brain planner as a search.
#[derive(Clone, Debug)]
pub struct Gps {
    how: Walking,
    seed: u64,
    /// The step limit from the parameters (0: 20 steps a hex).
    limit_param: usize,
    query: Query,
    rng: ChaCha8Rng,
    map: CognitiveMap,
    prior: CognitiveMap,
    x: NodeId,
    plan: Vec<NodeId>,
    at: usize,
    phase: Phase,
    walk: Walk,
    status: Status,
    stats: Stats,
    started: bool,
}

impl Gps {
    /// Registry parameters.
    pub const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "delta",
            help: "δ, confidence in the goal direction: directions within cos > δ of it are drawn (−1: any)",
            kind: ParamKind::Float,
            default: -0.5,
            min: -1.0,
            max: 0.8,
        },
        ParamSpec {
            name: "c",
            help: "C, hexes walked straight before the direction is chosen again",
            kind: ParamKind::Int,
            default: 5.0,
            min: 1.0,
            max: 1000.0,
        },
        ParamSpec {
            name: "seed",
            help: "seed of the directions drawn: the same seed walks the same walk",
            kind: ParamKind::Int,
            default: 1.0,
            min: 0.0,
            max: 1e9,
        },
        ParamSpec {
            name: "knowledge",
            help: "as-it-goes: a hex walked is known at once (the listing); prior: known as the map was when the walk began",
            kind: ParamKind::Choice(&["as-it-goes", "prior"]),
            default: 0.0,
            min: 0.0,
            max: 1.0,
        },
        ParamSpec {
            name: "legs",
            help: "end-on-known: a leg ends on entering a known hex (the listing); full: it walks its C hexes",
            kind: ParamKind::Choice(&["end-on-known", "full"]),
            default: 0.0,
            min: 0.0,
            max: 1.0,
        },
        ParamSpec {
            name: "plans",
            help: "until-unknown: follow a plan until it enters unknown ground; each-step: plan again at every step",
            kind: ParamKind::Choice(&["until-unknown", "each-step"]),
            default: 0.0,
            min: 0.0,
            max: 1.0,
        },
        ParamSpec {
            name: "limit",
            help: "steps before the walk stops exploring and follows its plan to the goal (0: 20 per hex)",
            kind: ParamKind::Int,
            default: 0.0,
            min: 0.0,
            max: 1e9,
        },
    ];

    /// A walk from `query.start` to `query.goal` on `space` with its cognitive map (none:
    /// nothing known), drawing directions from `seed`.
    pub fn new(space: &HexSpace, query: Query, how: Walking, seed: u64) -> Gps {
        let mut g = Gps {
            how,
            seed,
            limit_param: how.limit,
            query,
            rng: ChaCha8Rng::seed_from_u64(seed),
            map: CognitiveMap::new(0, DEFAULT_C_MAX),
            prior: CognitiveMap::new(0, DEFAULT_C_MAX),
            x: query.start,
            plan: vec![],
            at: 0,
            phase: Phase::Deciding,
            walk: Walk::default(),
            status: Status::Running,
            stats: Stats::default(),
            started: false,
        };
        Search::reset(&mut g, space, query);
        g
    }

    /// The planner from registry parameters.
    pub fn from_params(space: &HexSpace, query: Query, p: &Params) -> Gps {
        let how = Walking {
            exploring: Exploring {
                delta: p.get("delta"),
                c: p.get("c") as u32,
            },
            options: Options {
                prior_knowledge: p.get("knowledge") == 1.0,
                full_legs: p.get("legs") == 1.0,
                replan_each_step: p.get("plans") == 1.0,
            },
            limit: p.get("limit") as usize,
        };
        Gps::new(space, query, how, p.get("seed") as u64)
    }

    /// The walk so far.
    pub fn walk(&self) -> &Walk {
        &self.walk
    }

    /// The cognitive map as the walk has left it.
    pub fn map(&self) -> &CognitiveMap {
        &self.map
    }

    fn known(&self, n: NodeId) -> bool {
        if self.how.options.prior_knowledge {
            self.prior.known(n)
        } else {
            self.map.known(n)
        }
    }

    /// Steps to `y`, a neighbour of the agent's hex.
    fn walk_to<T: Tracer>(&mut self, space: &HexSpace, y: NodeId, exploring: bool, tracer: &mut T) {
        let cost = space
            .neighbours(self.x)
            .find(|&(m, _)| m == y)
            .map_or(0.0, |(_, c)| c);
        self.walk.length += cost;
        if T::ENABLED {
            let b = if exploring { 1.0 } else { 0.0 };
            tracer.event(Event::new(EventKind::Walk, y, self.x, self.walk.length, b));
        }
        self.x = y;
        self.walk.cells.push(y);
        self.walk.exploring.push(exploring);
    }

    fn finish<T: Tracer>(&mut self, space: &HexSpace, status: Status, tracer: &mut T) {
        self.status = status;
        self.phase = Phase::Done;
        self.walk.reached = status == Status::Found;
        if status == Status::Found {
            self.map.visit(self.x);
        }
        if T::ENABLED {
            if status == Status::Found {
                super::trace_path(space, &self.walk.cells, tracer);
                let e = Event::new(EventKind::Found, self.x, NONE, self.walk.length, 0.0);
                tracer.event(e);
            } else {
                tracer.event(Event::marker(EventKind::NoPath, self.query.goal));
            }
        }
    }
}

impl Search<HexSpace> for Gps {
    fn reset(&mut self, space: &HexSpace, query: Query) {
        self.query = query;
        self.map = match space.knowledge() {
            Some(k) if k.counters.len() == space.num_nodes() => (**k).clone(),
            Some(k) => CognitiveMap::new(space.num_nodes(), k.c_max),
            None => CognitiveMap::new(space.num_nodes(), DEFAULT_C_MAX),
        };
        self.prior = self.map.clone();
        self.rng = ChaCha8Rng::seed_from_u64(self.seed);
        self.how.limit = match self.limit_param {
            0 => 20 * space.num_nodes() + 100,
            l => l,
        };
        self.x = query.start;
        self.plan.clear();
        self.at = 0;
        self.phase = Phase::Deciding;
        self.walk = Walk {
            cells: vec![query.start],
            ..Walk::default()
        };
        self.stats = Stats::default();
        self.started = false;
        self.status = if space.is_passable(query.start) && space.is_passable(query.goal) {
            Status::Running
        } else {
            Status::NoPath
        };
    }

    fn step<T: Tracer>(&mut self, space: &HexSpace, tracer: &mut T) -> Status {
        if self.status != Status::Running {
            return self.status;
        }
        if T::ENABLED && !self.started {
            tracer.event(Event::new(EventKind::Source, self.x, NONE, 0.0, 0.0));
            tracer.event(Event::marker(EventKind::Destination, self.query.goal));
        }
        self.started = true;
        let goal = self.query.goal;
        // Decisions take no step of their own: the loop runs until one step's event is out.
        loop {
            match std::mem::replace(&mut self.phase, Phase::Deciding) {
                Phase::Done => {
                    self.phase = Phase::Done;
                    return self.status;
                }
                Phase::Deciding => {
                    if self.x == goal {
                        self.finish(space, Status::Found, tracer);
                        return self.status;
                    }
                    let over = self.walk.exploring.len() >= self.how.limit;
                    if over || self.known(self.x) {
                        if over && !self.walk.gave_up {
                            self.walk.gave_up = true;
                            self.plan.clear();
                        }
                        let fresh = self.plan.get(self.at) == Some(&self.x)
                            && self.at + 1 < self.plan.len()
                            && !self.how.options.replan_each_step;
                        if fresh {
                            self.phase = Phase::Following;
                        } else {
                            // The plan searches the world as the walk knows it now.
                            let mut view = space.clone();
                            view.set_knowledge(Some(Arc::new(self.map.clone())));
                            let q = Query {
                                start: self.x,
                                goal,
                            };
                            let a = AStar::new(&view, q, Heuristic::Counter);
                            self.phase = Phase::Planning(Box::new(a), Box::new(view));
                        }
                        continue;
                    }
                    // Unknown ground: choose a direction and walk a leg.
                    self.map.visit(self.x);
                    let Some(ch) =
                        choose(space, self.x, goal, self.how.exploring.delta, &mut self.rng)
                    else {
                        self.finish(space, Status::NoPath, tracer);
                        return self.status;
                    };
                    if T::ENABLED {
                        let first = space.neighbour_in(self.x, ch.chosen).unwrap_or(NONE);
                        let (cone, free) = (Choice::mask(&ch.cone), Choice::mask(&ch.free));
                        let e =
                            Event::new(EventKind::Choice, self.x, first, cone as f64, free as f64);
                        tracer.event(e);
                    }
                    self.phase = Phase::Leg {
                        d: ch.chosen,
                        left: self.how.exploring.c.max(1),
                    };
                    self.walk.choices.push(ch);
                    self.plan.clear();
                    return self.status;
                }
                Phase::Planning(mut a, view) => {
                    let before = a.stats();
                    let st = a.step(&*view, &mut PlanEvents(tracer));
                    let after = a.stats();
                    self.stats.expanded += after.expanded - before.expanded;
                    self.stats.generated += after.generated - before.generated;
                    self.stats.updated += after.updated - before.updated;
                    match st {
                        Status::Running => self.phase = Phase::Planning(a, view),
                        Status::Found => {
                            self.plan = a.path().map_or(vec![], |p| p.to_vec());
                            self.at = 0;
                            self.walk.plans.push((self.x, self.plan.clone()));
                            self.phase = Phase::Following;
                        }
                        _ => {
                            self.finish(space, Status::NoPath, tracer);
                            return self.status;
                        }
                    }
                    if after.expanded > before.expanded {
                        return self.status;
                    }
                }
                Phase::Following => {
                    let y = self.plan[self.at + 1];
                    self.at += 1;
                    self.map.visit(self.x);
                    self.walk_to(space, y, false, tracer);
                    return self.status;
                }
                Phase::Leg { d, left } => {
                    let Some(y) = space.neighbour_in(self.x, d).filter(|_| left > 0) else {
                        continue;
                    };
                    self.walk_to(space, y, true, tracer);
                    let over = self.walk.exploring.len() >= self.how.limit;
                    let stop = !self.how.options.full_legs && self.known(y);
                    if !(y == goal || stop || over) {
                        self.map.visit(y);
                        if left > 1 {
                            self.phase = Phase::Leg { d, left: left - 1 };
                        }
                    }
                    return self.status;
                }
            }
        }
    }
}

impl SearchState for Gps {
    fn status(&self) -> Status {
        self.status
    }

    fn path(&self) -> Option<&[NodeId]> {
        (self.status == Status::Found).then_some(&self.walk.cells[..])
    }

    fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then_some(self.walk.length)
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn open_len(&self) -> usize {
        match &self.phase {
            Phase::Planning(a, _) => a.open_len(),
            _ => 0,
        }
    }

    fn g(&self, n: NodeId) -> Option<f64> {
        match &self.phase {
            Phase::Planning(a, _) => a.g(n),
            _ => None,
        }
    }
}

/// A whole walk (the experiment's and the tests' entry): the planner run to its end without
/// recording, on `space` with the cognitive map `map`, which the walk's visits update.
pub fn gps_walk(
    space: &HexSpace,
    map: &mut CognitiveMap,
    start: NodeId,
    goal: NodeId,
    how: Walking,
    seed: u64,
) -> Walk {
    let mut view = space.clone();
    view.set_knowledge(Some(Arc::new(map.clone())));
    let mut g = Gps::new(&view, Query { start, goal }, how, seed);
    g.run(&view, &mut crate::trace::NullTracer);
    *map = g.map.clone();
    g.walk
}

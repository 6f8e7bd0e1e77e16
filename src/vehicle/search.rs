//! AIPATH (Schnieders 2014, Algorithms 1 and 6): the greedy probe, then A* seeded with every
//! node the probe visited, in the vehicle's state space, one iteration a step.
//!
//! Nodes are discretised states ([`Keys`]: cell, heading bin, speed bin), each holding at most
//! one exact pose, the best found so far (§4.3.2): a better arrival replaces it, and a closed
//! node whose cost improves is opened again, as the thesis's A* does. The open list and the
//! per-node table are the best-first engine's ([`OpenHeap`], [`NodeTable`]); the exact poses
//! live in a log of every accepted arrival, each pointing to the arrival it came from. A path
//! is read back through that log, so each of its steps is an action really taken from the pose
//! before it, even where a node's pose was replaced after its children were made.
//!
//! Events name nodes by their key; the probe's iterations and A*'s are phases 0 and 1.

use crate::car::heuristic::Heuristic;
use crate::car::model::{Action, Model, Pose, Step};
use crate::search::{key, Mark, NodeTable, OpenHeap, Stats, Status, Ties};
use crate::trace::{Event, EventKind, Tracer, NONE};
use rustc_hash::FxHashMap;

use super::states::Walls;
pub use super::states::{Goal, Keys};

/// One accepted arrival at a node: its exact pose, the arrival it came from, its cost and the
/// action that brought it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrival {
    pub pose: Pose,
    pub from: u32,
    pub g: f64,
    /// The heuristic's estimate from this pose.
    pub h: f64,
    pub key: u32,
    pub action: Option<Action>,
}

/// Which arrival a node keeps when another reaches it: the thesis says both (§4.3.2 the lowest
/// cost plus estimate, §4.5 the lowest cost "just as in regular A*"). pathlab keeps §4.3.2's
/// by default: of two poses in one cell, the one better placed for the goal stays, and on 40
/// random problems it found more goals in fewer iterations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replace {
    Cost,
    CostPlusEstimate,
}

/// The search's phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Probe,
    Astar,
}

/// The key of the goal's node.
const GOAL_KEY: u64 = u64::MAX;

/// The thesis's iteration cap (§4.4): a search past it counts as failed.
pub const CAP: u64 = 100_000;

/// AIPATH's search from one pose to a goal.
pub struct Planner {
    pub model: Model,
    pub heuristic: Heuristic,
    pub goal: Goal,
    pub keys: Keys,
    /// Each key met, by the dense id events and the node table use, and back.
    ids: FxHashMap<u64, u32>,
    key_of: Vec<u64>,
    /// Iterations allowed, probe and A* together.
    pub cap: u64,
    pub replace: Replace,
    /// Whether a closed node whose arrival improves is opened again (§4.3.2: "already
    /// explored search nodes may be re-opened"), or stays closed (§2's A*: the closed list
    /// "avoid[s] re-opening already fully explored nodes").
    pub reopen: bool,
    /// The pure lattice: every node is its key's exact state, each action's end snapped to it
    /// (set with [`Planner::lattice`]).
    lattice: bool,
    phase: Phase,
    nodes: NodeTable,
    heap: OpenHeap,
    /// The arrival each slot holds now.
    arrival_of: Vec<u32>,
    log: Vec<Arrival>,
    probe_at: u32,
    probe_best: f64,
    status: Status,
    found: u32,
    started: bool,
    /// The arrival the last step expanded.
    last: u32,
    /// Distances around the walls to the goal, where the estimate uses them.
    walls: Option<Walls>,
    /// Iterations of each phase.
    pub probe_iterations: u64,
    pub astar_iterations: u64,
    pub stats: Stats,
    succ: Vec<(Action, Step)>,
}

impl Planner {
    /// A search from `start` to `goal` that probes first (`probe`) or runs A* alone.
    pub fn new(
        model: Model,
        heuristic: Heuristic,
        start: Pose,
        goal: Goal,
        probe: bool,
    ) -> Planner {
        let keys = Keys::new(&model);
        let mut nodes = NodeTable::default();
        nodes.reset_segmented(id_room(&model, CAP));
        let mut heap = OpenHeap::default();
        heap.set_ties(Ties::Dive);
        let mut p = Planner {
            model,
            heuristic,
            goal,
            keys,
            ids: FxHashMap::default(),
            key_of: vec![],
            cap: CAP,
            replace: Replace::CostPlusEstimate,
            reopen: true,
            lattice: false,
            phase: if probe { Phase::Probe } else { Phase::Astar },
            nodes,
            heap,
            arrival_of: vec![],
            log: vec![],
            probe_at: NONE,
            probe_best: f64::INFINITY,
            status: Status::Running,
            found: NONE,
            started: false,
            last: NONE,
            walls: None,
            probe_iterations: 0,
            astar_iterations: 0,
            stats: Stats::default(),
            succ: vec![],
        };
        let h = p.h(&start);
        let key = p.id(&start).unwrap_or(NONE);
        p.log.push(Arrival {
            pose: start,
            from: NONE,
            g: 0.0,
            h,
            key,
            action: None,
        });
        p.probe_at = 0;
        p.probe_best = h;
        p
    }

    pub fn status(&self) -> Status {
        self.status
    }

    /// The arrival the last step expanded (a probe step's node, or A*'s), if any.
    pub fn last_expanded(&self) -> Option<&Arrival> {
        self.log.get(self.last as usize)
    }

    /// The dense id of `p`'s key, numbering it if new.
    fn id(&mut self, p: &Pose) -> Option<u32> {
        let k = self.keys.of(p)?;
        Some(self.id_of(k))
    }

    /// The dense id of key `k`, numbering it if new.
    fn id_of(&mut self, k: u64) -> u32 {
        let next = self.key_of.len() as u32;
        let id = *self.ids.entry(k).or_insert(next);
        if id == next {
            self.key_of.push(k);
        }
        id
    }

    /// The goal's node: every pose that passes the goal test arrives there (so no pose that
    /// would end the search is lost to another holding its key), and A* ends when it is
    /// expanded, at the cheapest of them.
    pub fn goal_node(&mut self) -> u32 {
        self.id_of(GOAL_KEY)
    }

    /// The key of dense id `n`.
    pub fn key(&self, n: u32) -> Option<u64> {
        self.key_of.get(n as usize).copied()
    }

    /// The same search on the pure lattice: the start and every action's end snapped to its
    /// key's exact state, so a node is one state and nothing is replaced but by a cheaper
    /// arrival. (Its paths teleport by up to half a cell, a bin's half heading and half
    /// speed step at every action: they are the lattice's, not the car's.)
    pub fn lattice(mut self) -> Planner {
        self.lattice = true;
        self.replace = Replace::Cost;
        let start = self.keys.snap(&self.log[0].pose);
        self.log[0].pose = start;
        self.log[0].h = self.h(&start);
        self.probe_best = self.log[0].h;
        self
    }

    /// Sets the iteration cap (the thesis's is [`CAP`]).
    pub fn set_cap(&mut self, cap: u64) {
        self.cap = cap;
        self.nodes.reset_segmented(id_room(&self.model, cap));
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Nodes on A*'s open list now.
    pub fn open_len(&self) -> usize {
        self.heap.len()
    }

    /// Iterations so far, both phases.
    pub fn iterations(&self) -> u64 {
        self.probe_iterations + self.astar_iterations
    }

    /// Every accepted arrival so far (the first is the start).
    pub fn arrivals(&self) -> &[Arrival] {
        &self.log
    }

    /// The arrival node `key` holds now, if reached.
    pub fn arrival_at(&self, key: u32) -> Option<&Arrival> {
        let slot = self.nodes.find(key)?;
        if self.nodes.mark(slot) == Mark::New {
            return None;
        }
        self.arrival_of
            .get(slot as usize)
            .map(|&a| &self.log[a as usize])
    }

    /// The path found, start first.
    pub fn path(&self) -> Option<Vec<Arrival>> {
        (self.status == Status::Found).then(|| {
            let mut out = vec![];
            let mut a = self.found;
            while a != NONE {
                out.push(self.log[a as usize]);
                a = self.log[a as usize].from;
            }
            out.reverse();
            out
        })
    }

    /// The travel time of the path found (s).
    pub fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then(|| self.log[self.found as usize].g)
    }

    fn h(&self, p: &Pose) -> f64 {
        let h = self.heuristic.eval(&self.model.vehicle, p, &self.goal.pose);
        match &self.walls {
            Some(w) => h.max(w.time(p, self.model.vehicle.max_speed)),
            None => h,
        }
    }

    /// The estimate also at least the time to drive, at top speed, the shortest way around the
    /// map's walls to the goal (a bound the thesis's obstacle-blind estimate lacks: without
    /// it, a goal behind a wall makes A* fill every heading and speed of every cell in front
    /// of the wall). Off in the experiments, which are on an open plane.
    pub fn around_walls(mut self) -> Planner {
        if let Some(map) = &self.model.map {
            self.walls = Some(Walls::new(map, &self.goal.pose));
            let start = self.log[0].pose;
            self.log[0].h = self.h(&start);
            self.probe_best = self.log[0].h;
        }
        self
    }

    /// Runs to the end.
    pub fn run<T: Tracer>(&mut self, tracer: &mut T) -> Status {
        while self.status == Status::Running {
            self.step(tracer);
        }
        self.status
    }

    /// One iteration: a probe step, the hand-off to A*, or an A* expansion.
    pub fn step<T: Tracer>(&mut self, tracer: &mut T) -> Status {
        if self.status != Status::Running {
            return self.status;
        }
        if !self.started {
            self.started = true;
            let s = self.log[0];
            if T::ENABLED {
                tracer.event(Event::marker(EventKind::Phase, 0));
                tracer.event(Event::new(
                    EventKind::Source,
                    s.key,
                    NONE,
                    0.0,
                    self.probe_best,
                ));
                let goal = self.goal_node();
                tracer.event(Event::marker(EventKind::Destination, goal));
            }
            if s.key == NONE || !self.model.free(s.pose.x, s.pose.y) {
                return self.fail(tracer);
            }
            if self.phase == Phase::Astar {
                self.seed(&[0], tracer);
            }
        }
        if self.iterations() >= self.cap {
            return self.fail(tracer);
        }
        match self.phase {
            Phase::Probe => self.probe_step(tracer),
            Phase::Astar => self.astar_step(tracer),
        }
        self.status
    }

    fn fail<T: Tracer>(&mut self, tracer: &mut T) -> Status {
        self.status = Status::NoPath;
        if T::ENABLED {
            tracer.event(Event::marker(EventKind::NoPath, NONE));
        }
        self.status
    }

    fn finish<T: Tracer>(&mut self, a: u32, tracer: &mut T) {
        self.found = a;
        self.status = Status::Found;
        if T::ENABLED {
            let path = self.path().unwrap_or_default();
            for (i, p) in path.iter().enumerate() {
                let parent = if i == 0 { NONE } else { path[i - 1].key };
                tracer.event(Event::new(EventKind::PathNode, p.key, parent, p.g, 0.0));
            }
            let g = self.log[a as usize].g;
            tracer.event(Event::new(
                EventKind::Found,
                self.log[a as usize].key,
                NONE,
                g,
                0.0,
            ));
        }
    }

    /// Algorithm 6: expand the probe's node and move to the successor of strictly lowest h;
    /// where none improves on the best h so far, hand every probed node to A*.
    fn probe_step<T: Tracer>(&mut self, tracer: &mut T) {
        let at = self.probe_at;
        let cur = self.log[at as usize];
        self.last = at;
        self.probe_iterations += 1;
        self.stats.expanded += 1;
        if T::ENABLED {
            let parent = self.parent_key(cur.from);
            tracer.event(Event::new(
                EventKind::Expand,
                cur.key,
                parent,
                cur.g,
                cur.g + self.probe_best,
            ));
        }
        if self.goal.reached(&cur.pose) {
            return self.finish(at, tracer);
        }
        let mut succ = std::mem::take(&mut self.succ);
        self.model.successors(cur.pose, &mut succ);
        self.snap_all(&mut succ);
        let mut best: Option<(f64, usize)> = None;
        let mut local = self.probe_best;
        for (i, (_, st)) in succ.iter().enumerate() {
            let Some(k) = self.id(&st.to) else {
                continue;
            };
            let h = self.h(&st.to);
            let g = cur.g + st.time;
            self.stats.generated += 1;
            if T::ENABLED {
                tracer.event(Event::new(EventKind::Generate, k, cur.key, g, g + h));
            }
            if h < local {
                local = h;
                best = Some((h, i));
            }
        }
        match best {
            Some((h, i)) => {
                let (action, st) = succ[i];
                let key = self.id(&st.to).unwrap_or(NONE);
                self.log.push(Arrival {
                    pose: st.to,
                    from: at,
                    g: cur.g + st.time,
                    h,
                    key,
                    action: Some(action),
                });
                self.probe_at = self.log.len() as u32 - 1;
                self.probe_best = h;
            }
            None => {
                // Stuck: A* goes on from every node the probe visited (Algorithm 1).
                self.phase = Phase::Astar;
                let mut chain = vec![];
                let mut a = at;
                while a != NONE {
                    chain.push(a);
                    a = self.log[a as usize].from;
                }
                chain.reverse();
                if T::ENABLED {
                    tracer.event(Event::marker(EventKind::Phase, 1));
                }
                self.seed(&chain, tracer);
            }
        }
        self.succ = succ;
    }

    fn parent_key(&self, from: u32) -> u32 {
        if from == NONE {
            NONE
        } else {
            self.log[from as usize].key
        }
    }

    /// Opens the given arrivals with their g (a node seeded twice keeps the lower).
    fn seed<T: Tracer>(&mut self, arrivals: &[u32], tracer: &mut T) {
        for &a in arrivals {
            let ar = self.log[a as usize];
            if ar.key == NONE {
                continue;
            }
            let slot = self.nodes.slot(ar.key);
            let better = match self.nodes.mark(slot) {
                Mark::New => true,
                _ => self.better(slot, ar.g, ar.h),
            };
            if better {
                self.nodes.open(slot, ar.g, self.parent_key(ar.from));
                self.set_arrival(slot, a);
                let f = ar.g + ar.h;
                self.heap.push_with(f, ar.g, slot, &mut self.nodes);
                if T::ENABLED {
                    tracer.event(Event::new(
                        EventKind::Generate,
                        ar.key,
                        self.parent_key(ar.from),
                        ar.g,
                        f,
                    ));
                }
            }
        }
    }

    /// On the lattice, each successor's end snapped to its key's state.
    fn snap_all(&self, succ: &mut [(Action, Step)]) {
        if self.lattice {
            for (_, st) in succ.iter_mut() {
                st.to = self.keys.snap(&st.to);
            }
        }
    }

    /// Whether an arrival at cost `g` with estimate `h` replaces the one slot `m` holds.
    fn better(&self, m: u32, g: f64, h: f64) -> bool {
        let old = &self.log[self.arrival_of[m as usize] as usize];
        // Judged on heap keys, as the engine does: float noise is no improvement.
        match self.replace {
            Replace::Cost => g < old.g && key(g) < key(old.g),
            Replace::CostPlusEstimate => g + h < old.g + old.h && key(g + h) < key(old.g + old.h),
        }
    }

    fn set_arrival(&mut self, slot: u32, a: u32) {
        let s = slot as usize;
        if s >= self.arrival_of.len() {
            self.arrival_of.resize((s + 1).next_power_of_two(), NONE);
        }
        self.arrival_of[s] = a;
    }

    /// One A* iteration: the open node of lowest f is expanded from its exact pose.
    fn astar_step<T: Tracer>(&mut self, tracer: &mut T) {
        let slot = loop {
            let Some(e) = self.heap.pop_with(&mut self.nodes) else {
                self.fail(tracer);
                return;
            };
            if self.nodes.mark(e.node()) == Mark::Open {
                break e.node();
            }
        };
        self.nodes.close(slot);
        let at = self.arrival_of[slot as usize];
        let cur = self.log[at as usize];
        self.last = at;
        let g = self.nodes.g(slot);
        self.astar_iterations += 1;
        self.stats.expanded += 1;
        if T::ENABLED {
            let f = g + cur.h;
            tracer.event(Event::new(
                EventKind::Expand,
                cur.key,
                self.parent_key(cur.from),
                g,
                f,
            ));
        }
        if self.goal.reached(&cur.pose) {
            return self.finish(at, tracer);
        }
        let mut succ = std::mem::take(&mut self.succ);
        self.model.successors(cur.pose, &mut succ);
        self.snap_all(&mut succ);
        for &(action, st) in &succ {
            let reached = self.goal.reached(&st.to);
            let k = if reached {
                self.goal_node()
            } else {
                match self.id(&st.to) {
                    Some(k) => k,
                    None => continue,
                }
            };
            let ng = g + st.time;
            let h = if reached { 0.0 } else { self.h(&st.to) };
            let m = self.nodes.slot(k);
            let mark = self.nodes.mark(m);
            let kind = match mark {
                Mark::New => EventKind::Generate,
                Mark::Closed if !self.reopen => continue,
                _ if !self.better(m, ng, h) => continue,
                Mark::Open => EventKind::Update,
                Mark::Closed => EventKind::Reopen,
            };
            self.nodes.improve(m, ng, cur.key);
            self.log.push(Arrival {
                pose: st.to,
                from: at,
                g: ng,
                h,
                key: k,
                action: Some(action),
            });
            self.set_arrival(m, self.log.len() as u32 - 1);
            let f = ng + h;
            if mark == Mark::New {
                self.heap.push_new_with(f, ng, m, &mut self.nodes);
            } else {
                self.heap.push_with(f, ng, m, &mut self.nodes);
            }
            self.stats.generated += 1;
            match kind {
                EventKind::Update => self.stats.updated += 1,
                EventKind::Reopen => self.stats.reopened += 1,
                _ => {}
            }
            if T::ENABLED {
                tracer.event(Event::new(kind, k, cur.key, ng, f));
            }
        }
        self.succ = succ;
    }
}

/// Ids a search with `cap` iterations can number: each iteration meets at most one key per
/// action, and the start and goal one each.
fn id_room(model: &Model, cap: u64) -> usize {
    let s = model.grid.cell;
    let fan = 2 * (s / model.vehicle.turning_radius / model.grid.steer.to_radians()) as usize + 3;
    let per = model.accelerations().len() * fan;
    (cap as usize + 1) * per + 2
}

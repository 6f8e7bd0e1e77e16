//! Agents crossing a changing map: one agent per view walks its run's path a cell per tick,
//! the world's behaviours (flipping blocks, timed and patrolling blocks, or a recorded tape)
//! change cells, and every view replans from where its agent stands: D* Lite and AD* repair,
//! the others search again. Each replan's time is kept for the recompute plot.

use crate::app::parts::{part_any, Cx, Part};
use crate::app::{Command, PathlabApp};
use crate::experiment::behaviour::{ChangeTape, Mover, World};
use crate::experiment::dynamic::DynamicMap;
use crate::map::{Cell, Grid, Rect};
use crate::space::NodeId;
use rustc_hash::FxHashSet;
use web_time::Instant;

/// One view's agent.
#[derive(Clone, Debug, Default)]
pub struct Agent {
    pub at: (u32, u32),
    /// Cells walked, the start first.
    pub trail: Vec<(u32, u32)>,
    /// Index of `at` in the run's current path.
    pos: usize,
    /// Milliseconds of each replan.
    pub recompute_ms: Vec<f64>,
    /// Ticks spent waiting without a path.
    pub waited: u32,
    pub arrived: bool,
}

/// The agents, the world's behaviours and the tape they made.
pub struct AgentSim {
    /// Agents are out (the map is the changing world, restored when they stop).
    pub active: bool,
    pub playing: bool,
    pub ticks_per_sec: f32,
    /// Mäntysalo 2024's flips of the map's wall blocks.
    pub flips: bool,
    /// Percent of the blocks changed per change.
    pub percent: f64,
    /// Ticks between flips (Mäntysalo 2024: 10).
    pub every: u32,
    pub seed: u64,
    /// Wall blocks larger than this stay put (outer walls, long corridors).
    pub max_block: usize,
    pub movers: Vec<Mover>,
    /// The dynamic obstacles of a map made by Mäntysalo 2024's generator (its doors or blocks);
    /// other maps flip their own wall blocks.
    pub blocks: Option<DynamicMap>,
    pub tick: u64,
    acc: f64,
    pub agents: Vec<Agent>,
    world: Option<World>,
    /// A tape being replayed instead of the behaviours.
    replay: Option<ChangeTape>,
    /// The map before the agents set out.
    snapshot: Option<Grid>,
    /// Cells the world changed since then and the user has not edited since: "Stop" puts
    /// these back from the snapshot and leaves every other cell as the user made it.
    world_owned: FxHashSet<usize>,
    /// The changes of the last outing, replayable.
    pub last_tape: Option<ChangeTape>,
}

impl Default for AgentSim {
    fn default() -> Self {
        AgentSim {
            active: false,
            playing: false,
            ticks_per_sec: 10.0,
            flips: true,
            percent: 10.0,
            every: 10,
            seed: 1,
            max_block: 64,
            movers: vec![],
            blocks: None,
            tick: 0,
            acc: 0.0,
            agents: vec![],
            world: None,
            replay: None,
            snapshot: None,
            world_owned: FxHashSet::default(),
            last_tape: None,
        }
    }
}

impl AgentSim {
    /// One line on where the agents are.
    pub fn summary(&self) -> String {
        let parts: Vec<String> = self
            .agents
            .iter()
            .enumerate()
            .map(|(i, a)| {
                format!(
                    "{}: {} steps, {} replans{}",
                    i + 1,
                    a.trail.len().saturating_sub(1),
                    a.recompute_ms.len(),
                    if a.arrived { ", arrived" } else { "" }
                )
            })
            .collect();
        format!("tick {} — {}", self.tick, parts.join("; "))
    }
}

/// What can be asked of the agents.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentCommand {
    /// A tick rate, the ticks between changes and the share of blocks that change.
    Settings {
        ticks_per_sec: f32,
        every: u32,
        percent: f64,
    },
    /// Whether the dynamic world flips blocks (else only its other behaviours change it).
    Flips(bool),
    /// Agents start walking (`true`: replaying the last tape).
    Start(bool),
    Stop,
    /// One tick, playing or not.
    Tick,
    /// The ticks due while playing, stopping once every agent has arrived.
    Ticks(usize),
}

impl Part for AgentSim {
    /// Counts the ticks due after `dt` seconds and asks for them.
    fn update(&mut self, cx: &mut Cx, dt: f32) {
        if !self.active || !self.playing {
            return;
        }
        if self.agents.len() != cx.work.views.len() {
            // Views were added or removed: the outing no longer matches them.
            cx.send(Command::Agents(AgentCommand::Stop));
            return;
        }
        self.acc += (dt * self.ticks_per_sec) as f64;
        let n = (self.acc.floor() as usize).min(50);
        self.acc -= self.acc.floor();
        if n > 0 {
            cx.send(Command::Agents(AgentCommand::Ticks(n)));
        }
    }
    fn wants_repaint(&self) -> bool {
        self.playing
    }
    part_any!();
}

impl PathlabApp {
    /// Sends one agent per view from the start; with `replay`, the last outing's tape drives
    /// the changes instead of the behaviours.
    pub fn agents_start(&mut self, replay: bool) {
        if self.parts.of_mut::<AgentSim>().active {
            self.agents_stop();
        }
        self.finish_all();
        let grid = self.work.doc.grid.clone();
        let sim = self.parts.of_mut::<AgentSim>();
        sim.replay = if replay { sim.last_tape.clone() } else { None };
        sim.world = if sim.replay.is_some() {
            None
        } else {
            let mut w = World::new(&grid);
            if sim.flips {
                let same_size = |m: &&DynamicMap| {
                    (m.base.width(), m.base.height()) == (grid.width(), grid.height())
                };
                let map = match sim.blocks.as_ref().filter(same_size) {
                    Some(m) => {
                        // From the map as it is now: closed where the cells are walls.
                        let mut m = m.clone();
                        for (o, closed) in m.obstacles.iter().zip(m.initial.iter_mut()) {
                            let (x, y) = grid.coords(o[0]);
                            *closed = !self.work.doc.is_free(x, y);
                        }
                        m
                    }
                    None => DynamicMap::from_walls(
                        &grid,
                        self.work.doc.start,
                        self.work.doc.goal,
                        sim.max_block,
                    ),
                };
                w = w.with_flips(map, sim.percent, sim.every as u64, sim.seed);
            }
            for m in &sim.movers {
                w = w.with_mover(m.clone());
            }
            Some(w)
        };
        sim.snapshot = Some(grid);
        sim.world_owned.clear();
        sim.tick = 0;
        sim.acc = 0.0;
        sim.agents = self
            .work
            .views
            .iter()
            .map(|v| Agent {
                at: self.work.doc.start,
                trail: vec![self.work.doc.start],
                // Agents walk the document's world: a view of its own world sends none.
                arrived: v.world.is_some(),
                ..Default::default()
            })
            .collect();
        sim.active = true;
        sim.playing = true;
    }

    /// The map as the user made it: while the agents are out, the cells the world changed are
    /// shown as they were, so saves and the recovery file hold the user's work only.
    pub(in crate::app) fn user_grid(&self) -> std::borrow::Cow<'_, Grid> {
        let sim = self.parts.of::<AgentSim>();
        match &sim.snapshot {
            Some(before)
                if !sim.world_owned.is_empty()
                    && (before.width(), before.height())
                        == (self.work.doc.grid.width(), self.work.doc.grid.height()) =>
            {
                let mut g = self.work.doc.grid.clone();
                restore_cells(&mut g, before, &sim.world_owned);
                std::borrow::Cow::Owned(g)
            }
            _ => std::borrow::Cow::Borrowed(&self.work.doc.grid),
        }
    }

    /// The user edited the cells in `r` while the agents are out: those cells are theirs now.
    pub(in crate::app) fn agents_user_edited(&mut self, r: Rect) {
        if !self.parts.of_mut::<AgentSim>().active
            || self.parts.of_mut::<AgentSim>().world_owned.is_empty()
        {
            return;
        }
        let w = self.work.doc.grid.width() as usize;
        for y in r.y as usize..(r.y + r.h) as usize {
            for x in r.x as usize..(r.x + r.w) as usize {
                self.parts
                    .of_mut::<AgentSim>()
                    .world_owned
                    .remove(&(y * w + x));
            }
        }
    }

    /// Calls the agents back and puts back the cells the world changed; the tape stays for a
    /// replay.
    pub fn agents_stop(&mut self) {
        if !self.parts.of_mut::<AgentSim>().active {
            return;
        }
        self.parts.of_mut::<AgentSim>().active = false;
        self.parts.of_mut::<AgentSim>().playing = false;
        if let Some(w) = self.parts.of_mut::<AgentSim>().world.take() {
            self.parts.of_mut::<AgentSim>().last_tape = Some(w.tape);
        }
        let owned = std::mem::take(&mut self.parts.of_mut::<AgentSim>().world_owned);
        if let Some(g) = self.parts.of_mut::<AgentSim>().snapshot.take() {
            // Only the world's changes are undone: edits, undos and redos made while the agents
            // walked are the user's work and stay. A resize during the outing leaves the map
            // as the user made it.
            let same_size = (g.width(), g.height())
                == (self.work.doc.grid.width(), self.work.doc.grid.height());
            if same_size {
                restore_cells(&mut self.work.doc.grid, &g, &owned);
            }
            self.work.doc.revision += 1;
            self.work.space = self.work.doc.space();
            self.restart_all();
        }
        self.parts.of_mut::<AgentSim>().agents.clear();
        self.edit.flash.0.clear();
    }

    /// Runs every view to its end (agents need whole paths).
    fn finish_all(&mut self) {
        for v in &mut self.work.views {
            let space = v.world.as_ref().map_or(&self.work.space, |w| &w.space);
            v.run.finish(space);
        }
        self.to_end();
    }

    /// `n` ticks, stopping once every agent has arrived.
    fn agent_ticks(&mut self, n: usize) {
        for _ in 0..n {
            self.agent_tick();
            let sim = self.parts.of_mut::<AgentSim>();
            if sim.agents.iter().all(|a| a.arrived) {
                sim.playing = false;
                self.status = format!("Every agent arrived — {}", sim.summary());
                break;
            }
        }
    }

    /// Does what `c` asks of the agents.
    pub(crate) fn apply_agents(&mut self, c: AgentCommand) {
        let sim = self.parts.of_mut::<AgentSim>();
        match c {
            AgentCommand::Settings {
                ticks_per_sec,
                every,
                percent,
            } => {
                sim.ticks_per_sec = ticks_per_sec;
                sim.every = every;
                sim.percent = percent;
            }
            AgentCommand::Flips(on) => sim.flips = on,
            AgentCommand::Start(replay) => self.agents_start(replay),
            AgentCommand::Stop => self.agents_stop(),
            AgentCommand::Tick => self.agent_tick(),
            AgentCommand::Ticks(n) => self.agent_ticks(n),
        }
    }

    /// One tick: each agent steps along its path, then the world changes and every view
    /// replans from its agent.
    pub fn agent_tick(&mut self) {
        if !self.parts.of_mut::<AgentSim>().active {
            return;
        }
        let goal = self.work.doc.goal;
        for (i, v) in self.work.views.iter_mut().enumerate() {
            let Some(a) = self.parts.of_mut::<AgentSim>().agents.get_mut(i) else {
                continue;
            };
            if a.arrived || v.world.is_some() {
                continue;
            }
            // A view restarted from the map's start (its algorithm changed, say) plans again
            // from where its agent stands.
            if let Some(n) = self.work.space.node(a.at.0, a.at.1) {
                if v.run.query.start != n {
                    v.run.replan(&self.work.space, n, &[], vec![]);
                    a.pos = 0;
                }
            }
            v.run.finish(&self.work.space);
            match v.run.path() {
                Some(p) if a.pos + 1 < p.len() => {
                    let (from, to) = (
                        self.work.space.xy(p[a.pos]),
                        self.work.space.xy(p[a.pos + 1]),
                    );
                    a.at = next_cell(a.at, from, to, self.cam.geometry.texture_cells());
                    if a.at == to {
                        a.pos += 1;
                    }
                    a.trail.push(a.at);
                    a.arrived = a.at == goal;
                }
                _ => a.waited += 1,
            }
        }
        self.parts.of_mut::<AgentSim>().tick += 1;
        let tick = self.parts.of_mut::<AgentSim>().tick;
        let keep: Vec<(u32, u32)> = self
            .parts
            .of_mut::<AgentSim>()
            .agents
            .iter()
            .map(|a| a.at)
            .collect();
        let sim = self.parts.of_mut::<AgentSim>();
        let changes = match (&mut sim.world, &sim.replay) {
            (_, Some(tape)) => tape.at(tick).to_vec(),
            (Some(w), None) => w.tick(tick, &self.work.doc.grid, &keep),
            (None, None) => vec![],
        };
        if !changes.is_empty() {
            self.world_cells(&changes);
        }
        self.to_end();
    }

    /// Writes the last outing's change tape.
    pub fn save_tape(&mut self, path: &std::path::Path) {
        let (w, h) = (self.work.doc.grid.width(), self.work.doc.grid.height());
        self.status = match &self.parts.of_mut::<AgentSim>().last_tape {
            None => "No tape yet: send the agents first".into(),
            Some(t) => match t.save(path, w, h) {
                Ok(()) => format!("Saved the change tape to {}", path.display()),
                Err(e) => return self.report_error("Tape not saved", e.to_string()),
            },
        };
    }

    /// Reads a change tape for "Replay last tape".
    pub fn open_tape(&mut self, path: &std::path::Path) {
        self.status = match ChangeTape::load(path) {
            Ok((t, (w, h))) => {
                let same = (w, h) == (self.work.doc.grid.width(), self.work.doc.grid.height());
                let n = t.events.len();
                self.parts.of_mut::<AgentSim>().last_tape = Some(t);
                format!(
                    "Loaded {n} changes from {}{}",
                    path.display(),
                    if same {
                        ""
                    } else {
                        " (made on a map of another size: cells outside this one are skipped)"
                    }
                )
            }
            Err(e) => return self.report_error("Could not read the tape", e.to_string()),
        };
    }

    /// Applies cell changes made by the world (not undoable: the map is restored when the
    /// agents stop) and has every view replan from its agent.
    fn world_cells(&mut self, changes: &[(u32, u32, Cell)]) {
        let w = self.work.doc.grid.width() as usize;
        let (gw, gh) = (self.work.doc.grid.width(), self.work.doc.grid.height());
        let mut logged = vec![];
        let mut xy = vec![];
        // A loaded tape may come from a bigger map.
        for &(x, y, c) in changes.iter().filter(|c| c.0 < gw && c.1 < gh) {
            let i = y as usize * w + x as usize;
            let old = self.work.doc.grid.get(x, y).map_or(c.tile, |o| o.tile);
            self.work.doc.grid.set(x, y, c);
            self.parts.of_mut::<AgentSim>().world_owned.insert(i);
            if let Some(s) = self.work.seen_tiles.get_mut(i) {
                *s = c.tile;
            }
            logged.push((i, old, c.tile));
            xy.push((x, y));
        }
        if xy.is_empty() {
            return;
        }
        // Flashed on the canvas, then outlined until the next change (docs/ui.md).
        self.edit.flash = (xy.clone(), Instant::now());
        self.work.doc.revision += 1;
        let before = self.work.space.revision();
        let around = self.work.space.apply_cells(&self.work.doc.grid, &xy);
        // What algorithms prepared for the world is patched, not rebuilt by each replan (its
        // time is in the agents' recompute times; the status line is the user's edits').
        crate::app::prepared::world_changed(before, &self.work.space, Some(&around));
        self.agents_replan(&around, logged);
    }

    /// Every view replans from its agent after the cells in `logged` changed.
    pub(in crate::app) fn agents_replan(
        &mut self,
        around: &[NodeId],
        logged: Vec<(usize, u8, u8)>,
    ) {
        for (i, v) in self.work.views.iter_mut().enumerate() {
            let Some(a) = self.parts.of_mut::<AgentSim>().agents.get_mut(i) else {
                continue;
            };
            if a.arrived || v.world.is_some() {
                continue;
            }
            let Some(start) = self.work.space.node(a.at.0, a.at.1) else {
                continue;
            };
            let dt = v
                .run
                .replan(&self.work.space, start, around, logged.clone());
            a.recompute_ms.push(dt.as_secs_f64() * 1e3);
            a.pos = 0;
        }
        self.display.best_open_cache = None;
    }
}

/// Copies the cells at `indices` from `from` into `to` (same size).
/// The cell an agent at `at` steps to on its way from path node `from` to the next, `to`: the
/// next node itself on a grid path; on a square world's any-angle segment (nodes more than one
/// move apart) the cell one move further along the straight line, so agents cross segments
/// at the speed they walk grid paths, one move a tick.
fn next_cell(at: (u32, u32), from: (u32, u32), to: (u32, u32), square: bool) -> (u32, u32) {
    let (dx, dy) = (to.0 as i64 - from.0 as i64, to.1 as i64 - from.1 as i64);
    let n = dx.abs().max(dy.abs());
    if !square || n <= 1 {
        return to;
    }
    let done = (at.0 as i64 - from.0 as i64)
        .abs()
        .max((at.1 as i64 - from.1 as i64).abs())
        + 1;
    if done >= n {
        return to;
    }
    let t = done as f64 / n as f64;
    (
        (from.0 as f64 + dx as f64 * t).round() as u32,
        (from.1 as f64 + dy as f64 * t).round() as u32,
    )
}

fn restore_cells(to: &mut Grid, from: &Grid, indices: &FxHashSet<usize>) {
    let w = from.width() as usize;
    for &i in indices {
        let (x, y) = ((i % w) as u32, (i / w) as u32);
        if let Some(c) = from.get(x, y) {
            to.set(x, y, c);
        }
    }
}

#[cfg(test)]
#[path = "agent_tests.rs"]
mod tests;

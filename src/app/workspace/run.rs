//! One algorithm's run in the app: the search, its recording, the step the user is looking at,
//! and the per-step series the plots and breakpoints read.

pub use crate::app::choice::AlgoChoice;

pub use crate::app::oracle::Oracle;
use crate::search::{Query, Stats, Status};
use crate::space::NodeId;
use crate::trace::{EventKind, Recorder};
use crate::world::AnySearch;
use crate::world::AnySpace;
use std::time::Duration;
use web_time::Instant;

/// A scan of jump point search: where it started, where it ended, whether at a jump point.
pub type Scan = (NodeId, NodeId, bool);

/// Per-step values, index = step (0-based expansion number).
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// Node expanded.
    pub node: Vec<NodeId>,
    /// f of the expanded node.
    pub f: Vec<f32>,
    /// Open-list size when the step began.
    pub open: Vec<u32>,
    /// Anytime solutions (ARA*, AD*): steps done when it was published, its cost and ε.
    pub solutions: Vec<(usize, f32, f32)>,
    /// What each step was when not an expansion: a walking agent's choice or step (GPS).
    pub kind: Vec<EventKind>,
    /// Phase changes: the steps done before each, and the phase it starts.
    pub phases: Vec<(usize, u32)>,
}

impl Series {
    /// The phase step `s` (0-based) runs in, if the run has phases.
    pub fn phase_of(&self, s: usize) -> Option<u32> {
        self.phases.iter().rev().find(|p| p.0 <= s).map(|p| p.1)
    }
}

/// A run: built, recorded a slice per frame (so the UI never waits), and seekable.
pub struct Run {
    pub choice: AlgoChoice,
    pub query: Query,
    search: AnySearch,
    pub rec: Recorder,
    pub series: Series,
    /// Steps (expansions) the views show: the world after this many expansions.
    pub shown: usize,
    scanned: usize,
    open_now: i64,
    /// Nodes on the open list, as the events tell it.
    queued: Vec<bool>,
    /// Time spent searching and recording.
    pub record_time: Duration,
    /// Time of the same search with recording off, measured once it has finished.
    pub search_time: Option<Duration>,
    /// Bumped whenever the recording grows or restarts (views redraw on change).
    pub generation: u64,
    retime: Option<crate::app::jobs::Job<Option<Duration>>>,
    /// Repaired after a world change at least once (its timeline holds the change).
    pub repaired: bool,
    /// The last repair checked against A* from scratch, once the repair has finished.
    pub oracle: Option<Oracle>,
    oracle_due: bool,
    /// The world changes this run repaired across, in timeline order, so stepping back
    /// before one shows the map as it was.
    pub changes: Vec<WorldChange>,
    /// The rubber-banded path, for (generation, path length).
    smoothed: Option<((u64, usize), Vec<NodeId>)>,
}

/// Cells that changed during a run, at a place in its timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldChange {
    /// Index of the change's first event: cursors past it show the new cells.
    pub event: usize,
    /// (cell index, tile before, tile after).
    pub cells: Vec<(usize, u8, u8)>,
}

/// The app's recorder: checkpoints eight times as dense as the library default. A jump along
/// the timeline replays the events since the nearest checkpoint within the frame, up to a full
/// interval; at one checkpoint per node count that was about 2 ms on a 1024 × 1024 map, at an
/// eighth of it about 0.3 ms. The price is 2 bytes per event for checkpoints instead of 0.25.
/// `layers` are the search's id ranges after the world's cells (a hierarchy's graph).
fn app_recorder(mut r: Recorder) -> Recorder {
    r.set_interval((r.num_nodes() / 8).max(1 << 16));
    r
}

/// Searches larger than this are not re-run just to time them without recording.
const RETIME_LIMIT: u64 = 2_000_000;

impl Run {
    /// A new run of `choice` on `space` for `query`; nothing is searched until [`Run::pump`].
    pub fn new(choice: AlgoChoice, space: &AnySpace, query: Query) -> Result<Run, String> {
        let search = choice.build(space, query)?;
        let rec = app_recorder(Recorder::for_ids(
            space.num_nodes(),
            space.recorded_nodes(),
            &search.state().layers(),
        ));
        Ok(Run {
            choice,
            query,
            search,
            queued: vec![false; rec.num_nodes()],
            rec,
            series: Series::default(),
            shown: 0,
            scanned: 0,
            open_now: 0,
            record_time: Duration::ZERO,
            search_time: None,
            generation: 0,
            retime: None,
            repaired: false,
            oracle: None,
            oracle_due: false,
            changes: vec![],
            smoothed: None,
        })
    }

    /// The world revision the run's prepared data was built on, if it has any (JPS+'s table).
    pub fn prepared_revision(&self) -> Option<u64> {
        self.search.state().prepared_revision()
    }

    /// The world cells the recording speaks of (its first layer).
    fn world_cells(&self) -> usize {
        self.rec.layers()[0].len as usize
    }

    /// Starts over on `query` (after an edit), keeping the memory of the search and the
    /// recording: a brush stroke restarts the run once per painted cell.
    /// Starts the run again on `space`; on another world an algorithm that does not run there
    /// gives way to A*, and the notice saying so is returned (a run is never left on the
    /// world it was recorded on).
    pub fn restart(&mut self, space: &AnySpace, query: Query) -> Option<String> {
        // Prepared data of another revision (an edit): built anew through the app's cache,
        // which the edit patched, and checked again against what the algorithm needs.
        let stale = self
            .search
            .state()
            .prepared_revision()
            .is_some_and(|r| r != space.revision());
        if self.world_cells() != space.recorded_len() || !self.search.fits(space) || stale {
            // Another world (a voxel world opened over a map of as many cells, say): a new run.
            match Run::new(self.choice.clone(), space, query) {
                Ok(r) => *self = r,
                Err(e) => {
                    let title = self.choice.info.title;
                    if let Ok(r) = Run::new(AlgoChoice::named("astar"), space, query) {
                        *self = r;
                        return Some(format!("{title} does not fit this world ({e}): A* instead"));
                    }
                    // Even A* is refused (no start on this world): nothing from the old world
                    // stays on screen.
                    self.rec.truncate(0);
                    self.series = Series::default();
                    self.shown = 0;
                    return Some(format!("{title}: {e}"));
                }
            }
            return None;
        }
        self.query = query;
        self.search.reset(space, query);
        self.rec.truncate(0);
        self.series = Series::default();
        self.shown = 0;
        self.scanned = 0;
        self.open_now = 0;
        self.queued.iter_mut().for_each(|q| *q = false);
        self.record_time = Duration::ZERO;
        self.search_time = None;
        self.retime = None;
        self.repaired = false;
        self.oracle = None;
        self.oracle_due = false;
        self.changes.clear();
        self.generation += 1;
        None
    }

    /// Repairs an incremental search (D* Lite, AD*) after the cells around `around` changed,
    /// recording the change and the repair after what is already recorded; false when this
    /// algorithm must restart instead.
    pub fn repair(
        &mut self,
        space: &AnySpace,
        around: &[NodeId],
        cells: Vec<(usize, u8, u8)>,
    ) -> bool {
        let event = self.rec.len();
        if self.world_cells() != space.recorded_len()
            || !self.search.repair_record(space, around, &mut self.rec)
        {
            return false;
        }
        if !cells.is_empty() {
            self.changes.push(WorldChange { event, cells });
        }
        // Timing a repair by re-running from scratch would time something else.
        self.repaired = true;
        self.oracle = None;
        self.oracle_due = true;
        self.search_time = None;
        self.retime = None;
        self.generation += 1;
        true
    }

    /// An agent of this run now stands at `start` and the world changed around `around`
    /// (`cells` as logged): an incremental search moves its start and repairs, the others
    /// start again from there; then the search runs to its end. Returns the time of the
    /// replanning alone (recording included, the oracle's check after it not).
    pub fn replan(
        &mut self,
        space: &AnySpace,
        start: NodeId,
        around: &[NodeId],
        cells: Vec<(usize, u8, u8)>,
    ) -> Duration {
        let q = Query {
            start,
            goal: self.query.goal,
        };
        let t = Instant::now();
        let moved =
            self.world_cells() == space.recorded_len() && self.search.move_start(space, start);
        self.query = q;
        if !moved || !self.repair(space, around, cells) {
            self.restart(space, q);
        }
        while self.step_once(space) == Status::Running {}
        let dt = t.elapsed();
        self.record_time += dt;
        self.scan();
        self.generation += 1;
        self.check_oracle(space);
        dt
    }

    /// Search status.
    pub fn status(&self) -> Status {
        self.search.state().status()
    }

    /// True once the search has ended (found or no path).
    pub fn finished(&self) -> bool {
        self.search.state().status() != Status::Running
    }

    /// Counters of the whole recording so far.
    pub fn stats(&self) -> Stats {
        self.search.state().stats()
    }

    /// Path cost, once found.
    pub fn cost(&self) -> Option<f64> {
        self.search.state().cost()
    }

    /// The key `n` is queued under in the search's latest state (D* Lite, AD*).
    pub fn queue_key(&self, n: NodeId) -> Option<(f64, f64)> {
        self.search.state().queue_key(n)
    }

    /// Path nodes, once found.
    pub fn path(&self) -> Option<&[NodeId]> {
        self.search.state().path()
    }

    /// The path as points in cell units, for a search whose path is not from centre to centre
    /// (Field D*'s).
    pub fn polyline(&self) -> Option<Vec<[f64; 2]>> {
        self.search.state().polyline()
    }

    /// The search's state: what an export asks of it (where its layers' nodes lie).
    pub fn search_state(&self) -> &dyn crate::search::SearchState {
        self.search.state()
    }

    /// Steps recorded so far.
    pub fn steps(&self) -> usize {
        self.series.node.len()
    }

    /// One step, recorded. A search whose layers became known only once its prepared data
    /// was built (a hierarchy's abstract graph) first gets a recorder that holds them.
    fn step_once(&mut self, space: &AnySpace) -> Status {
        if self.rec.is_empty() {
            let layers = self.search.state().layers();
            let known: Vec<(&str, usize)> = self.rec.layers()[1..]
                .iter()
                .map(|l| (l.name.as_str(), l.len as usize))
                .collect();
            if known != layers {
                self.rec = app_recorder(self.rec.relayered(&layers));
                self.queued = vec![false; self.rec.num_nodes()];
            }
        }
        self.search.step_record(space, &mut self.rec)
    }

    /// While the search waits for data it prepares on a thread: the fraction done.
    pub fn preparing(&self) -> Option<f32> {
        self.search.state().preparing()
    }

    /// Why the search could not run at all (its hierarchy could not be built), if it could not.
    pub fn failure(&self) -> Option<&str> {
        self.search.state().failure()
    }

    /// Advances the search for about `budget`, recording every event.
    pub fn pump(&mut self, space: &AnySpace, budget: Duration) {
        if self.finished() {
            self.poll_retime();
            self.check_oracle(space);
            return;
        }
        let t0 = Instant::now();
        while !self.finished() && t0.elapsed() < budget {
            for _ in 0..512 {
                if self.step_once(space) != Status::Running {
                    break;
                }
            }
        }
        self.record_time += t0.elapsed();
        self.scan();
        self.generation += 1;
        if self.finished() && self.retime.is_none() && self.search_time.is_none() && !self.repaired
        {
            self.start_retime(space);
        }
        self.poll_retime();
        self.check_oracle(space);
    }

    /// Once a repair has finished, checks it against A* from scratch (one A* per edit).
    fn check_oracle(&mut self, space: &AnySpace) {
        if !self.oracle_due || !self.finished() {
            return;
        }
        self.oracle_due = false;
        let bound = self
            .choice
            .values
            .get("epsilon")
            .copied()
            .unwrap_or(1.0)
            .max(1.0);
        let repaired = if self.status() == Status::Found {
            self.cost()
        } else {
            None
        };
        self.oracle = Some(Oracle::check(space, self.query, repaired, bound));
        self.generation += 1;
    }

    /// Times the same search without recording, on a worker thread (a million-node Dijkstra
    /// takes longer than a frame).
    fn start_retime(&mut self, space: &AnySpace) {
        if self.search.state().stats().expanded > RETIME_LIMIT {
            return;
        }
        let (space, choice, q) = (space.clone(), self.choice.clone(), self.query);
        self.retime = Some(crate::app::jobs::Job::spawn("timing", 0, move |_| {
            let mut s = choice.build(&space, q).ok()?;
            let t = Instant::now();
            s.run_null(&space);
            Some(t.elapsed())
        }));
    }

    /// Polls for the time measured by the worker (finished runs are not pumped any more).
    pub fn poll_retime(&mut self) {
        if self.search_time.is_some() {
            return;
        }
        if let Some(crate::app::jobs::Polled::Done(t)) = self.retime.as_mut().map(|j| j.poll()) {
            self.search_time = t;
        }
    }

    /// Runs the search to its end however long it takes (tests and the command line).
    pub fn finish(&mut self, space: &AnySpace) {
        while !self.finished() {
            self.pump(space, Duration::from_secs(1));
        }
    }

    fn scan(&mut self) {
        for i in self.scanned..self.rec.len() {
            let Some(e) = self.rec.get(i) else { break };
            let n = e.node as usize;
            // A node off the recording (an imported trace's event drawn nowhere) still makes
            // its step, and touches no open list.
            let inside = n < self.queued.len();
            // The open list's size from the events: a node is on it from its first
            // generate (or, for D* Lite and AD*, from becoming inconsistent) to its expansion, or
            // until it is consistent again.
            match e.kind {
                EventKind::Source
                | EventKind::Generate
                | EventKind::Update
                | EventKind::Reopen
                | EventKind::Inconsistent
                    if inside && !self.queued[n] =>
                {
                    self.queued[n] = true;
                    self.open_now += 1;
                }
                EventKind::Consistent if inside && self.queued[n] => {
                    self.queued[n] = false;
                    self.open_now -= 1;
                }
                EventKind::Phase => self.series.phases.push((self.series.node.len(), e.node)),
                EventKind::Solution => {
                    let (cost, eps) = (e.a, e.b);
                    self.series
                        .solutions
                        .push((self.series.node.len(), cost, eps));
                }
                EventKind::Expand => {
                    self.series.kind.push(e.kind);
                    self.series.node.push(e.node);
                    // A value the plot can draw (an infinite one would take its whole range).
                    let last = self.series.f.last().copied().unwrap_or(0.0);
                    self.series.f.push(if e.b.is_finite() { e.b } else { last });
                    self.series.open.push(self.open_now.max(0) as u32);
                    if inside && self.queued[n] {
                        self.queued[n] = false;
                        self.open_now -= 1;
                    }
                }
                // A walking agent's step or choice (the GPS planner) is a step of the
                // timeline too; its f is the last expansion's, so the plot stays continuous.
                EventKind::Choice | EventKind::Walk => {
                    self.series.kind.push(e.kind);
                    self.series.node.push(e.node);
                    let f = self.series.f.last().copied().unwrap_or(0.0);
                    self.series.f.push(f);
                    self.series.open.push(self.open_now.max(0) as u32);
                }
                _ => {}
            }
        }
        self.scanned = self.rec.len();
    }

    /// Event index the views show: every event of the first `shown` steps, and after the last
    /// step of a finished search, the path too.
    pub fn event_cursor(&mut self) -> usize {
        if self.finished() && self.shown >= self.steps() {
            self.rec.len()
        } else {
            self.rec.step_start(self.shown)
        }
    }

    /// How many of the run's world changes have happened by event `cursor`.
    pub fn world_at(&self, cursor: usize) -> usize {
        self.changes.partition_point(|c| c.event < cursor)
    }

    /// The map's tiles as they were once `version` changes had happened, from the current
    /// `tiles` (later changes undone, newest first).
    pub fn tiles_at(&self, tiles: &[u8], version: usize) -> Vec<u8> {
        let mut t = tiles.to_vec();
        for c in self.changes[version.min(self.changes.len())..].iter().rev() {
            for &(i, old, _) in &c.cells {
                if let Some(x) = t.get_mut(i) {
                    *x = old;
                }
            }
        }
        t
    }

    /// The latest anytime solution published by the step shown: (cost, ε).
    pub fn solution_shown(&self) -> Option<(f32, f32)> {
        self.series
            .solutions
            .iter()
            .rev()
            .find(|s| s.0 <= self.shown)
            .map(|s| (s.1, s.2))
    }

    /// The node expanded by the step just shown.
    pub fn current_node(&self) -> Option<NodeId> {
        self.shown
            .checked_sub(1)
            .and_then(|s| self.series.node.get(s).copied())
    }

    /// The node expanded at the cursor when it is one of the world's (not of a layer after
    /// them, like a hierarchy's abstract graph): what the canvas can draw on a cell.
    pub fn current_world_node(&self) -> Option<NodeId> {
        self.current_node()
            .filter(|&n| (n as usize) < self.world_cells())
    }

    /// The path found, rubber-banded on `space` (kept until the run changes).
    pub fn smoothed_path(&mut self, space: &crate::world::AnySpace) -> Option<&[NodeId]> {
        let path = self.path()?.to_vec();
        let key = (self.generation, path.len());
        if self.smoothed.as_ref().is_none_or(|s| s.0 != key) {
            struct Band<'a>(&'a [NodeId]);
            impl crate::world::SpaceFn for Band<'_> {
                type Out = Vec<NodeId>;
                fn call<S: crate::search::registry::Family>(self, s: &S) -> Vec<NodeId> {
                    crate::search::rubber_band(s, self.0).0
                }
            }
            let band = space.with(Band(&path));
            self.smoothed = Some((key, band));
        }
        self.smoothed.as_ref().map(|s| &s.1[..])
    }

    /// True when the views are at the end of a run that found a path.
    pub fn path_visible(&self) -> bool {
        self.status() == Status::Found && self.shown >= self.steps()
    }

    /// Moves to step `s`, clamped to what is recorded.
    pub fn set_shown(&mut self, s: usize) {
        self.shown = s.min(self.steps());
    }

    /// The name of phase `p` as the algorithm's registry entry gives it ("pass 2").
    pub fn phase_name(&self, p: u32) -> String {
        let names = self.choice.info.phases;
        match names.get(p as usize).or(names.last()) {
            Some(n) if names.len() == 1 => format!("{n} {}", p + 1),
            Some(n) => n.to_string(),
            None => format!("phase {}", p + 1),
        }
    }

    /// Open nodes at the shown step, best 20 by f (ties: lower g first).
    pub fn best_open(&mut self, limit: usize) -> Vec<(NodeId, f32, f32)> {
        let k = self.event_cursor();
        let states = self.rec.seek(k).clone();
        let open: Vec<u32> = (0..states.len())
            .filter(|&n| states.get(n) == crate::trace::NodeState::Open)
            .map(|n| n as u32)
            .collect();
        let mut v: Vec<(NodeId, f32, f32)> = open
            .into_iter()
            .map(|n| {
                let info = self.rec.node_info(n, k);
                (n, info.f, info.g)
            })
            .collect();
        v.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.2.total_cmp(&b.2)));
        v.truncate(limit);
        v
    }
}

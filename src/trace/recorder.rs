//! The trace store: an append-only event log with lazily built checkpoints, so any point of a
//! run can be shown by one checkpoint copy plus fewer than `interval` event replays.

use super::event::{Event, EventKind, PackedEvent, NONE};
use super::states::{NodeState, NodeStates};
use super::Tracer;
use crate::space::Space;

/// The display state an event leaves its node in; `None` for events that leave it as it was.
/// `a` is the event's first value (g for the kinds that carry one).
#[inline(always)]
pub fn state_after(kind: EventKind, a: f32) -> Option<NodeState> {
    match kind {
        EventKind::Source | EventKind::Generate | EventKind::Update | EventKind::Reopen => {
            Some(NodeState::Open)
        }
        EventKind::Expand => Some(NodeState::Closed),
        EventKind::Inconsistent => Some(NodeState::Inconsistent),
        EventKind::Consistent if a.is_finite() => Some(NodeState::Closed),
        EventKind::Consistent => Some(NodeState::Unseen),
        _ => None,
    }
}

/// Records every event of a run and seeks to any event index.
#[derive(Clone, Debug)]
pub struct Recorder {
    events: Vec<PackedEvent>,
    num_nodes: usize,
    dropped: u64,
    /// Events kept at most ([`crate::limits::MAX_EVENTS`]); later ones are only counted.
    max_events: usize,
    interval: usize,
    /// `checkpoints[i]` is the state after the first `i * interval` events.
    checkpoints: Vec<NodeStates>,
    cursor: usize,
    current: NodeStates,
    /// Event index of every `Expand`, extended as events arrive.
    expands: Vec<u32>,
    /// Event index and number of every `Phase` event, indexed with the expansions.
    phases: Vec<(u32, u32)>,
    expands_scanned: usize,
    /// The id ranges of the spaces a run speaks of, in order: the world's cells first.
    layers: Vec<Layer>,
    /// Per-node event chains for the inspector, extended on demand.
    chains: NodeChains,
    /// Projection onto cells ([`Recorder::for_space`]): the space's id count and its cells.
    project: Option<(u32, u32)>,
    /// Where ids are projected: each kept event's node and other as the search named them (a
    /// lattice state, not its cell), so that an export names every state apart.
    given: Vec<[u32; 2]>,
}

/// A range of node ids in a recording, named for what its nodes are ("cells", "abstract
/// graph"): a search over several graphs (a hierarchy's levels, a connecting search and the
/// search it feeds) records them all in one run without a larger event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    pub name: String,
    /// Its first id in the recording.
    pub first: u32,
    /// How many ids it holds.
    pub len: u32,
}

/// For every event, the previous event on the same node; for every node, its latest event.
/// Appending is O(1) per event, so a run that is still recording never rebuilds anything.
#[derive(Clone, Debug, Default)]
struct NodeChains {
    /// Events covered so far.
    upto: usize,
    last: Vec<u32>,
    prev: Vec<u32>,
}

/// What is known about one node at some point of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeInfo {
    pub state: NodeState,
    /// g of the latest event on this node (NaN if none).
    pub g: f32,
    /// f of the latest event on this node (NaN if none).
    pub f: f32,
    /// Parent given by the latest generate/update/reopen/expand event, or NONE.
    pub parent: u32,
    /// Step (0-based expansion number) at which the node was first expanded.
    pub expanded_at: Option<usize>,
    /// rhs of the latest inconsistency event (D* Lite, AD*), NaN if none.
    pub rhs: f32,
}

impl Recorder {
    /// A recorder for a space of `num_nodes` nodes.
    pub fn new(num_nodes: usize) -> Recorder {
        // Checkpoints cost num_nodes/4 bytes each; one per max(num_nodes, 64K) events keeps them
        // under 0.25 bytes per event, and replaying that many 2-bit updates takes about 1 ms.
        let interval = num_nodes.max(1 << 16);
        Recorder {
            events: Vec::new(),
            num_nodes,
            dropped: 0,
            max_events: crate::limits::MAX_EVENTS,
            interval,
            checkpoints: vec![NodeStates::new(num_nodes)],
            cursor: 0,
            current: NodeStates::new(num_nodes),
            expands: Vec::new(),
            phases: Vec::new(),
            expands_scanned: 0,
            layers: vec![Layer {
                name: "cells".into(),
                first: 0,
                len: num_nodes as u32,
            }],
            chains: NodeChains::default(),
            project: None,
            given: Vec::new(),
        }
    }

    /// A recorder for searches on `space` that speak of further layers of ids after its own:
    /// one id per node, or where the space records on its cells ([`Space::recorded_nodes`]: a
    /// vehicle's lattice), one per cell, each event's nodes projected onto their cells (a
    /// cell shows the latest event on any of its nodes) and the further layers moved down
    /// behind the cells. The ids the search gave are kept beside ([`Recorder::search_ids`]).
    pub fn for_space<S: Space>(space: &S, more: &[(&str, usize)]) -> Recorder {
        Recorder::for_ids(space.num_nodes(), space.recorded_nodes(), more)
    }

    /// [`Recorder::for_space`] for a space of `num_nodes` ids recorded on `cells` of them
    /// where it says so.
    pub fn for_ids(num_nodes: usize, cells: Option<usize>, more: &[(&str, usize)]) -> Recorder {
        match cells {
            Some(cells) => {
                let mut r = Recorder::with_layers(cells, more);
                r.project = Some((num_nodes as u32, cells as u32));
                r
            }
            None => Recorder::with_layers(num_nodes, more),
        }
    }

    /// A fresh recorder for the same space with other layers after its cells.
    pub fn relayered(&self, more: &[(&str, usize)]) -> Recorder {
        let cells = self.layers[0].len as usize;
        match self.project {
            Some((all, _)) => Recorder::for_ids(all as usize, Some(cells), more),
            None => Recorder::with_layers(cells, more),
        }
    }

    /// The id an event's node is recorded under.
    #[inline(always)]
    fn projected(&self, n: u32) -> u32 {
        match self.project {
            Some((all, cells)) if n != NONE => {
                if n < all {
                    n % cells
                } else {
                    n - all + cells
                }
            }
            _ => n,
        }
    }

    /// A recorder for the world's `num_nodes` cells and further layers of ids after them, each
    /// named, with its size.
    pub fn with_layers(num_nodes: usize, more: &[(&str, usize)]) -> Recorder {
        let total = num_nodes + more.iter().map(|l| l.1).sum::<usize>();
        let mut r = Recorder::new(total);
        r.layers[0].len = num_nodes as u32;
        let mut first = num_nodes as u32;
        for &(name, len) in more {
            r.layers.push(Layer {
                name: name.into(),
                first,
                len: len as u32,
            });
            first += len as u32;
        }
        r
    }

    /// The layers of ids, the world's cells first.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The layer id `n` belongs to, and its place within it.
    pub fn layer_of(&self, n: u32) -> Option<(&Layer, u32)> {
        self.layers
            .iter()
            .find(|l| n >= l.first && n - l.first < l.len)
            .map(|l| (l, n - l.first))
    }

    /// Sets the checkpoint interval (events between checkpoints); before any event only.
    pub fn set_interval(&mut self, interval: usize) {
        if self.events.is_empty() {
            self.interval = interval.max(1);
        }
    }

    /// Same, with a chosen checkpoint interval (events between checkpoints).
    pub fn with_interval(num_nodes: usize, interval: usize) -> Recorder {
        let mut r = Recorder::new(num_nodes);
        r.interval = interval.max(1);
        r
    }

    /// Same, keeping at most `max_events` events (the rest are counted in [`Self::dropped`]).
    pub fn with_max_events(num_nodes: usize, max_events: usize) -> Recorder {
        let mut r = Recorder::new(num_nodes);
        r.max_events = max_events;
        r
    }

    /// Number of recorded events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Number of nodes of the space this trace is about.
    pub fn num_nodes(&self) -> usize {
        self.num_nodes
    }

    /// Events that could not be kept: past the event limit, or with a node id beyond the packed
    /// range. Everything that reads a trace says so when this is not 0.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Event `i`'s node and other as the search named them: before projection onto cells
    /// where the recorder projects ([`Recorder::for_space`]), else as recorded.
    pub fn search_ids(&self, i: usize) -> Option<[u32; 2]> {
        match self.project {
            Some(_) => self.given.get(i).copied(),
            None => self.events.get(i).map(|p| {
                let e = p.unpack();
                [e.node, e.other]
            }),
        }
    }

    /// How many ids the search names its nodes by (its space's and its layers'): the
    /// recorded ids, or where the recorder projects, the space's before projection.
    pub fn search_id_count(&self) -> u64 {
        match self.project {
            Some((all, cells)) => all as u64 + self.num_nodes as u64 - cells as u64,
            None => self.num_nodes as u64,
        }
    }

    /// Event `i`.
    pub fn get(&self, i: usize) -> Option<Event> {
        self.events.get(i).map(|p| p.unpack())
    }

    /// All events, unpacked, in order.
    pub fn iter(&self) -> impl Iterator<Item = Event> + '_ {
        self.events.iter().map(|p| p.unpack())
    }

    /// Bytes held: the event log plus the checkpoints built so far.
    pub fn bytes(&self) -> usize {
        self.events.len() * std::mem::size_of::<PackedEvent>()
            + self.given.len() * std::mem::size_of::<[u32; 2]>()
            + self.checkpoints.iter().map(|c| c.bytes()).sum::<usize>()
    }

    /// Forgets every event from index `len` on (e.g. when a run restarts from that point).
    pub fn truncate(&mut self, len: usize) {
        // Events past the limit were only counted: those before `len` stay counted.
        let total = self.events.len() + self.dropped as usize;
        if len < total {
            self.dropped = len.saturating_sub(self.events.len()) as u64;
        }
        if len >= self.events.len() {
            return;
        }
        self.events.truncate(len);
        self.given.truncate(len);
        self.checkpoints.truncate(len / self.interval + 1);
        let keep = self.expands.partition_point(|&e| (e as usize) < len);
        self.expands.truncate(keep);
        let keep = self.phases.partition_point(|&(e, _)| (e as usize) < len);
        self.phases.truncate(keep);
        self.expands_scanned = self.expands_scanned.min(len);
        if self.cursor > len {
            self.restore(len / self.interval);
        }
        self.chains = NodeChains::default();
    }

    #[inline(always)]
    fn apply(states: &mut NodeStates, e: &PackedEvent) {
        let kind = e.kind();
        // Only a consistent-again node needs the event's value (finite g or not).
        let a = if kind == EventKind::Consistent {
            e.unpack().a
        } else {
            0.0
        };
        if let Some(s) = state_after(kind, a) {
            states.set(e.node() as usize, s);
        }
    }

    fn restore(&mut self, checkpoint: usize) {
        self.current.copy_from(&self.checkpoints[checkpoint]);
        self.cursor = checkpoint * self.interval;
    }

    fn ensure_checkpoint(&mut self, c: usize) {
        while self.checkpoints.len() <= c {
            let last = self.checkpoints.len() - 1;
            let mut s = self.checkpoints[last].clone();
            let from = last * self.interval;
            for e in &self.events[from..from + self.interval] {
                Self::apply(&mut s, e);
            }
            self.checkpoints.push(s);
        }
    }

    /// Node states after the first `k` events (clamped to the trace length).
    pub fn seek(&mut self, k: usize) -> &NodeStates {
        let k = k.min(self.events.len());
        let near = self.cursor <= k && k - self.cursor <= self.interval;
        if !near {
            let c = k / self.interval;
            self.ensure_checkpoint(c);
            self.restore(c);
        }
        for e in &self.events[self.cursor..k] {
            Self::apply(&mut self.current, e);
        }
        self.cursor = k;
        &self.current
    }

    /// Index of the event the last `seek` went to.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Builds every checkpoint now, so that later seeks never replay more than one interval.
    pub fn build_checkpoints(&mut self) {
        let c = self.events.len() / self.interval;
        self.ensure_checkpoint(c);
    }

    fn scan_expands(&mut self) {
        for (i, e) in self.events.iter().enumerate().skip(self.expands_scanned) {
            let kind = e.kind();
            if kind.starts_step() {
                self.expands.push(i as u32);
            } else if kind == EventKind::Phase {
                self.phases.push((i as u32, e.node()));
            }
        }
        self.expands_scanned = self.events.len();
    }

    /// Every phase change: the step it comes before (the number of steps recorded before it)
    /// and the phase number it starts.
    pub fn phase_changes(&mut self) -> Vec<(usize, u32)> {
        self.scan_expands();
        self.phases
            .iter()
            .map(|&(e, p)| (self.expands.partition_point(|&x| x < e), p))
            .collect()
    }

    /// The phase step `s` runs in: that of the last phase change at or before it (0 before any).
    pub fn phase_of_step(&mut self, s: usize) -> u32 {
        self.phase_changes()
            .iter()
            .rev()
            .find(|&&(at, _)| at <= s)
            .map_or(0, |&(_, p)| p)
    }

    /// Number of steps (expansions) recorded.
    pub fn steps(&mut self) -> usize {
        self.scan_expands();
        self.expands.len()
    }

    /// Event index at which step `s` (0-based) begins; steps past the end map to the trace length.
    /// Seeking to `step_start(s + 1)` shows the world once step `s` has fully run.
    pub fn step_start(&mut self, s: usize) -> usize {
        self.scan_expands();
        self.expands
            .get(s)
            .map_or(self.events.len(), |&e| e as usize)
    }

    /// The step that event `i` belongs to (events before the first expansion belong to none).
    pub fn step_of_event(&mut self, i: usize) -> Option<usize> {
        self.scan_expands();
        let p = self.expands.partition_point(|&e| (e as usize) <= i);
        p.checked_sub(1)
    }

    fn extend_chains(&mut self) {
        let c = &mut self.chains;
        if c.last.len() != self.num_nodes {
            c.last = vec![NONE; self.num_nodes];
        }
        for (i, e) in self.events.iter().enumerate().skip(c.upto) {
            let n = e.node() as usize;
            match c.last.get_mut(n) {
                Some(l) => {
                    c.prev.push(*l);
                    *l = i as u32;
                }
                None => c.prev.push(NONE),
            }
        }
        c.upto = self.events.len();
    }

    /// Indices of every event about node `n` before event `k`, in order.
    pub fn node_events(&mut self, n: u32, k: usize) -> Vec<u32> {
        self.extend_chains();
        let c = &self.chains;
        let mut v = vec![];
        let mut i = c.last.get(n as usize).copied().unwrap_or(NONE);
        while i != NONE {
            if (i as usize) < k {
                v.push(i);
            }
            i = c.prev[i as usize];
        }
        v.reverse();
        v
    }

    /// What node `n` looks like after the first `k` events.
    pub fn node_info(&mut self, n: u32, k: usize) -> NodeInfo {
        let ids = self.node_events(n, k);
        let mut info = NodeInfo {
            state: NodeState::Unseen,
            g: f32::NAN,
            f: f32::NAN,
            parent: NONE,
            expanded_at: None,
            rhs: f32::NAN,
        };
        for &i in &ids {
            let e = self.events[i as usize];
            let ev = e.unpack();
            match ev.kind {
                EventKind::Source
                | EventKind::Generate
                | EventKind::Update
                | EventKind::Reopen
                | EventKind::Expand => {
                    info.g = ev.a;
                    info.f = ev.b;
                    if ev.other != NONE || ev.kind == EventKind::Source {
                        info.parent = ev.other;
                    }
                    if ev.kind == EventKind::Expand && info.expanded_at.is_none() {
                        info.expanded_at = self.step_of_event(i as usize);
                    }
                }
                EventKind::Inconsistent => {
                    info.g = ev.a;
                    info.rhs = ev.b;
                }
                EventKind::Consistent => {
                    info.g = ev.a;
                    info.rhs = ev.a;
                }
                _ => {}
            }
            if let Some(st) = state_after(ev.kind, ev.a) {
                info.state = st;
            }
        }
        info
    }
}

impl Tracer for Recorder {
    const ENABLED: bool = true;
    #[inline(always)]
    fn event(&mut self, mut e: Event) {
        let given = [e.node, e.other];
        if self.project.is_some() {
            if e.kind != EventKind::Phase {
                e.node = self.projected(e.node);
            }
            e.other = self.projected(e.other);
        }
        match PackedEvent::pack(&e) {
            Some(p) if self.events.len() < self.max_events => {
                self.events.push(p);
                if self.project.is_some() {
                    self.given.push(given);
                }
            }
            _ => self.dropped += 1,
        }
    }
}

#[cfg(test)]
#[path = "recorder_tests.rs"]
mod tests;

//! A recorded trace played back as a search: each step gives the events up to the next
//! expansion, so a trace read from a file (another planner's, through Posthoc's format) steps
//! in a view as a live run does, beside one.

use super::{Query, Search, SearchState, Stats, Status};
use crate::space::{NodeId, Space};
use crate::trace::{Event, EventKind, Tracer, NONE};
use std::collections::HashMap;
use std::sync::Arc;

/// A trace played back.
#[derive(Clone, Debug)]
pub struct Replay {
    events: Arc<Vec<Event>>,
    at: usize,
    status: Status,
    stats: Stats,
    open: usize,
    path: Vec<NodeId>,
    cost: Option<f64>,
    g: HashMap<NodeId, f64>,
    /// The path ended (a Found): the next path event starts another plan's path.
    path_done: bool,
    /// How the trace's last plan ended (an end or no-path event).
    ended: Option<Status>,
}

impl Replay {
    pub fn new(events: Arc<Vec<Event>>) -> Replay {
        Replay {
            events,
            at: 0,
            status: Status::Running,
            stats: Stats::default(),
            open: 0,
            path: vec![],
            cost: None,
            g: HashMap::new(),
            path_done: false,
            ended: None,
        }
    }

    /// Counts one event as a search would have.
    fn note(&mut self, e: &Event) {
        let g = e.a as f64;
        match e.kind {
            EventKind::Source | EventKind::Generate | EventKind::Reopen => {
                self.stats.generated += 1;
                self.open += 1;
                self.stats.reopened += (e.kind == EventKind::Reopen) as u64;
            }
            EventKind::Update => self.stats.updated += 1,
            EventKind::Expand => {
                self.stats.expanded += 1;
                self.open = self.open.saturating_sub(1);
            }
            EventKind::LineOfSight => self.stats.los_checks += 1,
            EventKind::PathNode if e.node != NONE => {
                if std::mem::take(&mut self.path_done) {
                    self.path.clear();
                }
                self.path.push(e.node);
            }
            EventKind::Found => {
                self.path_done = true;
                self.ended = Some(Status::Found);
                self.status = Status::Found;
                self.cost = Some(g).filter(|c| c.is_finite());
            }
            EventKind::NoPath => {
                self.ended = Some(Status::NoPath);
                self.status = Status::NoPath;
            }
            _ => {}
        }
        if matches!(
            e.kind,
            EventKind::Source | EventKind::Generate | EventKind::Update | EventKind::Reopen
        ) && e.node != NONE
            && g.is_finite()
        {
            self.g.insert(e.node, g);
        }
        self.stats.max_open = self.stats.max_open.max(self.open as u64);
    }
}

impl<S: Space> Search<S> for Replay {
    fn reset(&mut self, _space: &S, _query: Query) {
        *self = Replay::new(self.events.clone());
    }

    /// The events up to and including the next step's (an expansion, a walker's move), and
    /// those after it up to the one after.
    fn step<T: Tracer>(&mut self, _space: &S, tracer: &mut T) -> Status {
        if self.status != Status::Running {
            return self.status;
        }
        let events = self.events.clone();
        let mut stepped = false;
        while let Some(e) = events.get(self.at) {
            if e.kind.starts_step() && stepped {
                break;
            }
            stepped |= e.kind.starts_step();
            self.note(e);
            tracer.event(*e);
            self.at += 1;
        }
        if self.at < events.len() {
            // Events after an end (another plan's, a repair's) play on.
            self.status = Status::Running;
        } else {
            // At the trace's end, as its last plan ended; one that never said: no path.
            self.status = self.ended.unwrap_or(Status::NoPath);
        }
        self.status
    }
}

impl SearchState for Replay {
    fn status(&self) -> Status {
        self.status
    }

    fn path(&self) -> Option<&[NodeId]> {
        (self.status == Status::Found).then_some(&self.path[..])
    }

    fn cost(&self) -> Option<f64> {
        self.cost.filter(|_| self.status == Status::Found)
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn open_len(&self) -> usize {
        self.open
    }

    fn g(&self, n: NodeId) -> Option<f64> {
        self.g.get(&n).copied()
    }
}

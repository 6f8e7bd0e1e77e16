//! Breadth-first search: expands nodes in order of their number of moves from the start, so it
//! finds a path with the fewest moves (not the lowest cost). Stops as soon as the goal is generated.

use super::nodes::{Mark, NodeTable};
use super::params::{ParamSpec, Params};
use super::{Query, Search, SearchState, Stats, Status};
use crate::space::{NodeId, Space};
use crate::trace::{Event, EventKind, Tracer, NONE};
use std::collections::VecDeque;

/// Breadth-first search with a FIFO queue.
#[derive(Clone, Debug)]
pub struct Bfs {
    nodes: NodeTable,
    queue: VecDeque<NodeId>,
    query: Query,
    status: Status,
    stats: Stats,
    path: Vec<NodeId>,
}

impl Bfs {
    /// Registry parameters (none).
    pub const PARAMS: &'static [ParamSpec] = &[];

    /// BFS for `query`.
    pub fn new<S: Space>(space: &S, query: Query) -> Bfs {
        let mut b = Bfs {
            nodes: NodeTable::default(),
            queue: VecDeque::new(),
            query,
            status: Status::Running,
            stats: Stats::default(),
            path: vec![],
        };
        b.reset(space, query);
        b
    }

    /// BFS from registry parameters.
    pub fn from_params<S: Space>(space: &S, query: Query, _p: &Params) -> Bfs {
        Bfs::new(space, query)
    }

    fn finish<T: Tracer>(&mut self, tracer: &mut T) {
        self.nodes
            .trace_path(self.query.goal, &mut self.path, tracer);
        self.status = Status::Found;
    }
}

impl<S: Space> Search<S> for Bfs {
    fn reset(&mut self, space: &S, query: Query) {
        self.query = query;
        // As the best-first searches: per-node arrays of a huge world (a vehicle lattice) in
        // segments handed out as reached.
        if space.num_nodes() > super::best_first::SEGMENTED_ABOVE {
            self.nodes.reset_segmented(space.num_nodes());
        } else {
            self.nodes.reset(space.num_nodes());
        }
        self.queue.clear();
        self.stats = Stats {
            generated: 1,
            max_open: 1,
            ..Stats::default()
        };
        self.path.clear();
        self.status = Status::Running;
        self.nodes.open(query.start, 0.0, NONE);
        if space.is_passable(query.start) && space.is_passable(query.goal) {
            self.queue.push_back(query.start);
        }
    }

    fn step<T: Tracer>(&mut self, space: &S, tracer: &mut T) -> Status {
        if self.status != Status::Running {
            return self.status;
        }
        if T::ENABLED && self.stats.expanded == 0 {
            tracer.event(Event::new(
                EventKind::Source,
                self.query.start,
                NONE,
                0.0,
                0.0,
            ));
            tracer.event(Event::marker(EventKind::Destination, self.query.goal));
        }
        if self.query.start == self.query.goal && self.queue.len() == 1 && self.stats.expanded == 0
        {
            self.finish(tracer);
            return self.status;
        }
        let Some(n) = self.queue.pop_front() else {
            self.status = Status::NoPath;
            if T::ENABLED {
                tracer.event(Event::marker(EventKind::NoPath, self.query.goal));
            }
            return self.status;
        };
        self.nodes.close(n);
        self.stats.expanded += 1;
        let g = self.nodes.g(n);
        if T::ENABLED {
            tracer.event(Event::new(EventKind::Expand, n, self.nodes.parent(n), g, g));
        }
        let goal = self.query.goal;
        let mut found = false;
        for (m, cost) in space.neighbours(n) {
            if self.nodes.mark(m) != Mark::New {
                continue;
            }
            self.nodes.open(m, g + cost, n);
            self.queue.push_back(m);
            self.stats.generated += 1;
            if T::ENABLED {
                tracer.event(Event::new(EventKind::Generate, m, n, g + cost, g + cost));
            }
            if m == goal {
                found = true;
                break;
            }
        }
        self.stats.max_open = self.stats.max_open.max(self.queue.len() as u64);
        if found {
            self.finish(tracer);
        }
        self.status
    }
}

impl SearchState for Bfs {
    fn status(&self) -> Status {
        self.status
    }

    fn path(&self) -> Option<&[NodeId]> {
        (self.status == Status::Found).then_some(&self.path[..])
    }

    fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then(|| self.nodes.g(self.query.goal))
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn open_len(&self) -> usize {
        self.queue.len()
    }

    fn g(&self, n: NodeId) -> Option<f64> {
        self.nodes.g_if_reached(n)
    }
}

//! Per-node search state in one flat vector. An epoch stamp marks which records belong to the
//! current query, so starting a new query costs nothing however big the space is.

use crate::trace::{Event, EventKind, Tracer, NONE};

/// Where a node stands in the current query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Not reached by this query.
    New,
    /// On the open list.
    Open,
    /// Expanded.
    Closed,
}

/// Search state of every node: g, parent and open/closed mark, in separate arrays so that the
/// most frequent question — is this neighbour closed? — reads 4 bytes, sixteen nodes a cache line.
#[derive(Clone, Debug, Default)]
pub struct NodeTable {
    /// epoch << 2 | 1 (open) or 2 (closed).
    stamps: Vec<u32>,
    g: Vec<f64>,
    parent: Vec<u32>,
    epoch: u32,
}

impl NodeTable {
    /// Forgets every node's state; grows to `n` nodes if needed.
    pub fn reset(&mut self, n: usize) {
        if self.stamps.len() < n {
            self.stamps.resize(n, 0);
            self.g.resize(n, 0.0);
            self.parent.resize(n, 0);
        }
        self.epoch += 1;
        if self.epoch >= 1 << 30 {
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
    }

    /// The mark of `n`.
    #[inline(always)]
    pub fn mark(&self, n: u32) -> Mark {
        // Closed first: most neighbours of an expanded node are, and two compares against
        // this query's stamps are cheaper than decoding the epoch.
        let s = self.stamps[n as usize];
        if s == self.epoch << 2 | 2 {
            Mark::Closed
        } else if s == self.epoch << 2 | 1 {
            Mark::Open
        } else {
            Mark::New
        }
    }

    /// g of `n` (meaningful once reached).
    #[inline(always)]
    pub fn g(&self, n: u32) -> f64 {
        self.g[n as usize]
    }

    /// Parent of `n`.
    #[inline(always)]
    pub fn parent(&self, n: u32) -> u32 {
        self.parent[n as usize]
    }

    /// g of `n` if this query reached it.
    pub fn g_if_reached(&self, n: u32) -> Option<f64> {
        ((n as usize) < self.stamps.len() && self.mark(n) != Mark::New).then(|| self.g(n))
    }

    /// Records `n` as open with the given values.
    #[inline(always)]
    pub fn open(&mut self, n: u32, g: f64, parent: u32) {
        self.improve(n, g, parent);
    }

    /// Changes g and parent, and marks `n` open.
    #[inline(always)]
    pub fn improve(&mut self, n: u32, g: f64, parent: u32) {
        let i = n as usize;
        self.g[i] = g;
        self.parent[i] = parent;
        self.stamps[i] = self.epoch << 2 | 1;
    }

    /// Marks `n` closed.
    #[inline(always)]
    pub fn close(&mut self, n: u32) {
        self.stamps[n as usize] = self.epoch << 2 | 2;
    }

    /// Writes the path from the start to `goal` (following parents) into `path`, and emits it as
    /// path events followed by the end event.
    pub fn trace_path<T: Tracer>(&self, goal: u32, path: &mut Vec<u32>, tracer: &mut T) {
        path.clear();
        let mut n = goal;
        while n != NONE {
            path.push(n);
            n = self.parent(n);
        }
        path.reverse();
        if T::ENABLED {
            for &p in path.iter() {
                tracer.event(Event::new(
                    EventKind::PathNode,
                    p,
                    self.parent(p),
                    self.g(p),
                    0.0,
                ));
            }
            tracer.event(Event::new(EventKind::Found, goal, NONE, self.g(goal), 0.0));
        }
    }
}

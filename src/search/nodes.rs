//! Per-node search state in one flat vector. An epoch stamp marks which records belong to the
//! current query, so starting a new query costs nothing however big the space is.

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

/// 16 bytes, so a cache line holds four nodes; h is recomputed rather than stored.
#[derive(Clone, Copy, Debug, Default)]
struct Rec {
    g: f64,
    parent: u32,
    /// epoch << 2 | 1 (open) or 2 (closed).
    stamp: u32,
}

/// Search state of every node: g, parent and open/closed mark.
#[derive(Clone, Debug, Default)]
pub struct NodeTable {
    recs: Vec<Rec>,
    epoch: u32,
}

impl NodeTable {
    /// Forgets every node's state; grows to `n` nodes if needed.
    pub fn reset(&mut self, n: usize) {
        if self.recs.len() < n {
            self.recs.resize(n, Rec::default());
        }
        self.epoch += 1;
        if self.epoch >= 1 << 30 {
            self.recs.iter_mut().for_each(|r| r.stamp = 0);
            self.epoch = 1;
        }
    }

    /// The mark of `n`.
    #[inline(always)]
    pub fn mark(&self, n: u32) -> Mark {
        let s = self.recs[n as usize].stamp;
        if s >> 2 != self.epoch {
            Mark::New
        } else if s & 3 == 1 {
            Mark::Open
        } else {
            Mark::Closed
        }
    }

    /// g of `n` (meaningful once reached).
    #[inline(always)]
    pub fn g(&self, n: u32) -> f64 {
        self.recs[n as usize].g
    }

    /// Parent of `n`.
    #[inline(always)]
    pub fn parent(&self, n: u32) -> u32 {
        self.recs[n as usize].parent
    }

    /// g of `n` if this query reached it.
    pub fn g_if_reached(&self, n: u32) -> Option<f64> {
        ((n as usize) < self.recs.len() && self.mark(n) != Mark::New).then(|| self.g(n))
    }

    /// Records `n` as open with the given values.
    #[inline(always)]
    pub fn open(&mut self, n: u32, g: f64, parent: u32) {
        let e = self.epoch;
        self.recs[n as usize] = Rec {
            g,
            parent,
            stamp: e << 2 | 1,
        };
    }

    /// Changes g and parent, and marks `n` open.
    #[inline(always)]
    pub fn improve(&mut self, n: u32, g: f64, parent: u32) {
        let e = self.epoch;
        let r = &mut self.recs[n as usize];
        r.g = g;
        r.parent = parent;
        r.stamp = e << 2 | 1;
    }

    /// Marks `n` closed.
    #[inline(always)]
    pub fn close(&mut self, n: u32) {
        let e = self.epoch;
        self.recs[n as usize].stamp = e << 2 | 2;
    }
}

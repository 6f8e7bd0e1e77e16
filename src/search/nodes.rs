//! Per-node search state in flat vectors. An epoch stamp marks which records belong to the
//! current query, so starting a new query costs next to nothing however big the space is.
//!
//! Very large spaces (A1: 89M voxels) may keep the state in segments instead
//! ([`NodeTable::reset_segmented`]): 64 consecutive node ids at a time, handed out as a query
//! reaches them and found through a directory (a shift and a load, no coordinates). The
//! segments a query uses sit together in memory that the previous query left in the cache,
//! where arrays over every node sent most first touches of a short query to main memory.
//! Every method but [`NodeTable::slot`], [`NodeTable::find`] and [`NodeTable::node`] takes a
//! slot: the node id itself over every node, its place among the segments otherwise.

use crate::bits::three_bits;
use crate::huge_pages::grow_huge;
use crate::space::NodeSet;
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

/// Search state of every node: the open/closed mark in an array of its own, so that the most
/// frequent question — is this neighbour closed? — reads one byte, 64 nodes a cache line (the
/// marks of a 512×512 map then take 256 KiB and stay in the L2 cache, where four-byte stamps
/// took 1 MiB: A* on a maze ran 9% faster); g, parent and the node's open-list position
/// together in one 16-byte record, which a new node writes all of (one cache line, where three
/// arrays took three: on voxel worlds most of them miss the caches).
#[derive(Clone, Debug, Default)]
pub struct NodeTable {
    /// epoch << 2 | 1 (open) or 2 (closed); the epoch runs from 1 to 63, then every stamp is
    /// cleared (a 256 KiB memset once in 63 queries on a 512×512 map).
    stamps: Vec<u8>,
    records: Vec<Record>,
    epoch: u8,
    /// Segmented: the slot segment of each node segment this query reached (entries of
    /// segments it did not reach hold anything: see `holds`), and the node segment of each
    /// slot segment, in the order they were handed out.
    segmented: bool,
    dir: Vec<u32>,
    used: Vec<u32>,
    /// A bit per slot (word `slot / 64`) for each node closed at least once this query, and the
    /// words that hold any: neighbour generation reads them a row at a time
    /// ([`NodeTable::closed_nodes`]).
    closed: Vec<u64>,
    closed_words: Vec<u32>,
}

const SEG_BITS: u32 = 6;
const SEG: usize = 1 << SEG_BITS;
const SEG_MASK: u32 = SEG as u32 - 1;

/// g, parent and open-list position of one node.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct Record {
    g: f64,
    parent: u32,
    pos: u32,
}

impl super::heap::Positions for NodeTable {
    #[inline(always)]
    fn position(&mut self, node: u32) -> u32 {
        self.records[node as usize].pos
    }

    #[inline(always)]
    fn set_position(&mut self, node: u32, at: u32) {
        self.records[node as usize].pos = at;
    }
}

impl NodeTable {
    /// Forgets every node's state; grows to `n` nodes if needed. Slots are node ids.
    pub fn reset(&mut self, n: usize) {
        self.segmented = false;
        if self.stamps.len() < n {
            self.grow(n);
        }
        self.next_epoch(true);
    }

    /// Room for `n` slots.
    fn grow(&mut self, n: usize) {
        grow_huge(&mut self.stamps, n, 0);
        grow_huge(&mut self.records, n, Record::default());
        grow_huge(&mut self.closed, n.div_ceil(SEG), 0);
    }

    /// Forgets every node's state, for `n` nodes kept segment by segment.
    pub fn reset_segmented(&mut self, n: usize) {
        let was = std::mem::replace(&mut self.segmented, true);
        let segs = n.div_ceil(SEG);
        if self.dir.len() != segs {
            self.dir = Vec::new();
            grow_huge(&mut self.dir, segs, 0);
        }
        // Directory entries left by earlier queries fail `holds`: nothing to clear (clearing
        // them after a long query took a short next one 120 µs on A1).
        self.used.clear();
        // A slot segment's old stamps are of an earlier epoch: they read as new; its closed
        // bits are cleared as it is handed out.
        self.next_epoch(!was);
    }

    /// Starts a query; `clear_closed`: clear the closed bits the last query set (not needed
    /// from one segmented query to the next, where after a long query on A1 clearing 50,000
    /// words scattered over the pool took a short next query 50 µs).
    fn next_epoch(&mut self, clear_closed: bool) {
        if clear_closed {
            for &w in &self.closed_words {
                self.closed[w as usize] = 0;
            }
        }
        self.closed_words.clear();
        self.epoch += 1;
        if self.epoch >= 1 << 6 {
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
    }

    /// The slot of node `n`, making room for it if needed.
    #[inline(always)]
    pub fn slot(&mut self, n: u32) -> u32 {
        if !self.segmented {
            return n;
        }
        let mut s = self.dir[(n >> SEG_BITS) as usize];
        if !self.holds(n >> SEG_BITS, s) {
            s = self.give_segment(n >> SEG_BITS);
        }
        s << SEG_BITS | (n & SEG_MASK)
    }

    /// The slot of node `n`, if it has one (it may still be new).
    #[inline(always)]
    pub fn find(&self, n: u32) -> Option<u32> {
        if !self.segmented {
            return ((n as usize) < self.stamps.len()).then_some(n);
        }
        let s = *self.dir.get((n >> SEG_BITS) as usize)?;
        self.holds(n >> SEG_BITS, s)
            .then_some(s << SEG_BITS | (n & SEG_MASK))
    }

    /// The node in slot `h`.
    #[inline(always)]
    pub fn node(&self, h: u32) -> u32 {
        if !self.segmented {
            return h;
        }
        self.used[(h >> SEG_BITS) as usize] << SEG_BITS | (h & SEG_MASK)
    }

    /// True when the directory's entry `s` for node segment `seg` is this query's: slot
    /// segment `s` was handed out, and to `seg` (an entry left by an earlier query names a
    /// segment not handed out yet or handed to another).
    #[inline(always)]
    fn holds(&self, seg: u32, s: u32) -> bool {
        self.used.get(s as usize) == Some(&seg)
    }

    /// Hands out the next slot segment to node segment `seg`.
    #[cold]
    #[inline(never)]
    fn give_segment(&mut self, seg: u32) -> u32 {
        let s = self.used.len() as u32;
        self.used.push(seg);
        self.dir[seg as usize] = s;
        let want = (s as usize + 1) * SEG;
        if self.stamps.len() < want {
            // Doubling, up to every segment, in memory offered for huge pages.
            let all = self.dir.len() * SEG;
            let n = want.max(2 * self.stamps.len()).max(1024 * SEG).min(all);
            self.grow(n);
        }
        self.closed[s as usize] = 0;
        s
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
        self.records[n as usize].g
    }

    /// Parent of `n`.
    #[inline(always)]
    pub fn parent(&self, n: u32) -> u32 {
        self.records[n as usize].parent
    }

    /// g of node `n` if this query reached it.
    pub fn g_if_reached(&self, n: u32) -> Option<f64> {
        let h = self.find(n)?;
        (self.mark(h) != Mark::New).then(|| self.g(h))
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
        let r = &mut self.records[i];
        r.g = g;
        r.parent = parent;
        self.stamps[i] = self.epoch << 2 | 1;
    }

    /// Marks `n` closed.
    #[inline(always)]
    pub fn close(&mut self, n: u32) {
        self.stamps[n as usize] = self.epoch << 2 | 2;
        let w = &mut self.closed[(n >> SEG_BITS) as usize];
        if *w == 0 {
            self.closed_words.push(n >> SEG_BITS);
        }
        *w |= 1 << (n & SEG_MASK);
    }

    /// The nodes closed at least once in this query, by node id.
    pub fn closed_nodes(&self) -> ClosedNodes<'_> {
        ClosedNodes { table: self }
    }

    /// The closed bits of node segment `seg`.
    #[inline(always)]
    fn closed_word(&self, seg: usize) -> u64 {
        if !self.segmented {
            return self.closed[seg];
        }
        let s = self.dir[seg];
        if self.holds(seg as u32, s) {
            self.closed[s as usize]
        } else {
            0
        }
    }

    /// Writes the path from the start to `goal` (following parents) into `path`, and emits it as
    /// path events followed by the end event.
    pub fn trace_path<T: Tracer>(&self, goal: u32, path: &mut Vec<u32>, tracer: &mut T) {
        let parent = |n: u32| self.find(n).map_or(NONE, |h| self.parent(h));
        let g = |n: u32| self.find(n).map_or(0.0, |h| self.g(h));
        path.clear();
        let mut n = goal;
        while n != NONE {
            path.push(n);
            n = parent(n);
        }
        path.reverse();
        if T::ENABLED {
            for &p in path.iter() {
                tracer.event(Event::new(EventKind::PathNode, p, parent(p), g(p), 0.0));
            }
            tracer.event(Event::new(EventKind::Found, goal, NONE, g(goal), 0.0));
        }
    }
}

/// The nodes a query closed at least once (as many as are closed when nothing is reopened),
/// read by node id, in either way of keeping state.
#[derive(Clone, Copy)]
pub struct ClosedNodes<'t> {
    table: &'t NodeTable,
}

impl NodeSet for ClosedNodes<'_> {
    #[inline(always)]
    fn three(&self, i: usize) -> u32 {
        let t = self.table;
        if !t.segmented {
            return three_bits(&t.closed, i);
        }
        let j = i - 1;
        let (w, o) = (j / SEG, j % SEG);
        let mut v = t.closed_word(w) >> o;
        if o > SEG - 3 {
            v |= t.closed_word(w + 1) << (SEG - o);
        }
        (v & 7) as u32
    }

    #[inline(always)]
    fn contains(&self, i: usize) -> bool {
        self.table.closed_word(i / SEG) >> (i % SEG) & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Marks left by one query never show in a later one, across many epoch wrap-arounds, even
    /// for nodes that no query touched since.
    #[test]
    fn reset_forgets_marks_across_epoch_wraps() {
        let mut t = NodeTable::default();
        let n = 50u32;
        // The first query marks every node; the later ones touch only the upper half, so the
        // lower half keeps the first query's stamps.
        let touched = |q: u32, m: u32| q == 0 || m >= n / 2;
        let want = |q: u32, m: u32| {
            if !touched(q, m) {
                Mark::New
            } else {
                [Mark::Open, Mark::Closed, Mark::New][((m + q) % 3) as usize]
            }
        };
        for q in 0..300u32 {
            t.reset(n as usize);
            for m in 0..n {
                assert_eq!(t.mark(m), Mark::New, "query {q}, node {m}");
                assert_eq!(t.g_if_reached(m), None);
            }
            for m in (0..n).filter(|&m| touched(q, m)) {
                match want(q, m) {
                    Mark::Open => t.open(m, f64::from(m), NONE),
                    Mark::Closed => {
                        t.open(m, 1.0, NONE);
                        t.close(m);
                    }
                    Mark::New => {}
                }
            }
            for m in 0..n {
                assert_eq!(t.mark(m), want(q, m), "query {q}, node {m}");
            }
        }
    }

    /// The closed set read by node id, a row of three at a time, matches the nodes closed in
    /// this query, in both ways of keeping state, across resets, epoch wraps and rows that
    /// straddle two segments.
    #[test]
    fn closed_nodes_read_by_rows() {
        let n = 700u32;
        let mut t = NodeTable::default();
        for round in 0..150u32 {
            let segmented = round % 3 != 0;
            if segmented {
                t.reset_segmented(n as usize);
            } else {
                t.reset(n as usize);
            }
            let mut want = vec![false; n as usize];
            for k in 0..n / 3 {
                let m = (k * 53 + round * 29) % n;
                let h = t.slot(m);
                t.open(h, 0.0, NONE);
                if !(m + round).is_multiple_of(4) {
                    t.close(h);
                    want[m as usize] = true;
                }
            }
            let c = t.closed_nodes();
            for i in 0..n as usize {
                assert_eq!(c.contains(i), want[i], "round {round}, node {i}");
                if i >= 1 && i + 1 < n as usize {
                    let w: u32 = (0..3).map(|k| (want[i + k - 1] as u32) << k).sum();
                    assert_eq!(c.three(i), w, "round {round}, row at {i}");
                }
            }
        }
    }

    /// Segmented: slots map back to their nodes, every node gets its own slot, and a reset
    /// forgets every mark, over queries touching the nodes in scattered orders, across epoch
    /// wrap-arounds and switches between the two ways of keeping state.
    #[test]
    fn segments_round_trip_and_forget() {
        let n = 1000u32;
        let mut t = NodeTable::default();
        for round in 0..150u32 {
            if round % 7 == 3 {
                // A query over every node in between: its stamps must not leak.
                t.reset(n as usize);
                (0..n).for_each(|m| t.open(m, 0.0, NONE));
                continue;
            }
            t.reset_segmented(n as usize);
            assert!((0..n).all(|m| t.find(m).is_none()), "round {round}");
            let mut seen = std::collections::HashSet::new();
            // Only some nodes each round, so later rounds meet slots with old stamps.
            for k in 0..n / 2 {
                let m = (k * 37 + round * 101) % n;
                let h = t.slot(m);
                assert_eq!(t.node(h), m);
                assert_eq!(t.find(m), Some(h));
                assert_eq!(t.mark(h), Mark::New, "round {round}, node {m}");
                assert!(seen.insert(h));
                t.open(h, m as f64, m + 1);
                if m.is_multiple_of(2) {
                    t.close(h);
                }
            }
            for k in 0..n / 2 {
                let m = (k * 37 + round * 101) % n;
                let h = t.find(m).unwrap();
                assert_eq!((t.g(h), t.parent(h)), (m as f64, m + 1));
                assert_eq!(t.g_if_reached(m), Some(m as f64));
                let want = if m.is_multiple_of(2) {
                    Mark::Closed
                } else {
                    Mark::Open
                };
                assert_eq!(t.mark(h), want);
            }
            assert_eq!(t.find(n + 64), None);
        }
    }
}

//! Field D*'s open list: a 4-ary heap of corners that moves a corner's entry up when its rhs
//! falls, instead of leaving the old entry behind. A corner's rhs falls about twice before it
//! is expanded on den520d, so a heap of stale entries held twice the entries and popped each
//! one; this one pops the same corners in the same order (the entries that are not stale are
//! the same, and their order is total), with half the work.

/// Entries ordered by key (Field D*'s key, then rhs, as bits) and then corner. The first key
/// sits in its own array: a pop compares four children's first keys from one cache line and
/// reads the rest only on a tie (a `(u128, u32)` entry took 32 bytes, and the pops were a
/// fifth of the search).
#[derive(Clone, Debug, Default)]
pub(super) struct CornerHeap {
    first: Vec<u64>,
    rest: Vec<(u64, u32)>,
    /// Where each corner's entry is; meaningful only where that entry names the corner.
    pos: Vec<u32>,
}

/// An entry: the two keys and the corner.
pub(super) type Entry = (u64, u64, u32);

impl CornerHeap {
    /// Empties the heap and makes room for `corners` corners.
    pub fn reset(&mut self, corners: usize) {
        self.first.clear();
        self.rest.clear();
        if self.pos.len() != corners {
            self.pos = vec![u32::MAX; corners];
        }
    }

    /// The lowest entry's first key.
    pub fn peek(&self) -> Option<u64> {
        self.first.first().copied()
    }

    #[inline]
    fn get(&self, at: usize) -> Entry {
        let (r, k) = self.rest[at];
        (self.first[at], r, k)
    }

    fn entry_of(&self, k: u32) -> Option<usize> {
        let p = *self.pos.get(k as usize)? as usize;
        (self.rest.get(p).map(|e| e.1) == Some(k)).then_some(p)
    }

    /// Queues corner `k` under `(first, second)`, or moves its entry there (never above its
    /// old key: a corner's rhs only falls while it is queued). Whether it was queued.
    pub fn push(&mut self, first: u64, second: u64, k: u32) -> bool {
        let e = (first, second, k);
        let (at, queued) = match self.entry_of(k) {
            Some(at) => {
                debug_assert!(e <= self.get(at), "corner {k}'s key rose");
                (at, true)
            }
            None => {
                self.first.push(first);
                self.rest.push((second, k));
                (self.first.len() - 1, false)
            }
        };
        self.sift_up(at, e);
        queued
    }

    /// Removes and returns the lowest entry.
    pub fn pop(&mut self) -> Option<Entry> {
        if self.first.is_empty() {
            return None;
        }
        let top = self.get(0);
        let last = (
            self.first.pop().expect("not empty"),
            self.rest.pop().expect("not empty"),
        );
        if !self.first.is_empty() {
            self.sift_down(0, (last.0, last.1 .0, last.1 .1));
        }
        Some(top)
    }

    #[inline]
    fn place(&mut self, at: usize, e: Entry) {
        self.first[at] = e.0;
        self.rest[at] = (e.1, e.2);
        self.pos[e.2 as usize] = at as u32;
    }

    fn sift_up(&mut self, mut at: usize, e: Entry) {
        while at > 0 {
            let parent = (at - 1) / 4;
            if e >= self.get(parent) {
                break;
            }
            let p = self.get(parent);
            self.place(at, p);
            at = parent;
        }
        self.place(at, e);
    }

    /// Which of four first keys is least, and it, when no other equals it (else `None`, and the rest
    /// of the entries decide). Without branches on the keys: which child is least is a coin
    /// toss, and a loop of compares and jumps mispredicted about once a level (a quarter of
    /// Field D*'s time was its pops); ties are rare, and their test is one predictable branch.
    #[inline(always)]
    fn least_of_four(f: &[u64]) -> Option<(usize, u64)> {
        let (a, va) = if f[1] < f[0] { (1, f[1]) } else { (0, f[0]) };
        let (b, vb) = if f[3] < f[2] { (3, f[3]) } else { (2, f[2]) };
        let (i, v) = if vb < va { (b, vb) } else { (a, va) };
        let equal =
            (f[0] == v) as u32 + (f[1] == v) as u32 + (f[2] == v) as u32 + (f[3] == v) as u32;
        (equal == 1).then_some((i, v))
    }

    /// The least of the children from `first` on (up to four, below `n`), by the whole entry.
    fn least_child(&self, first: usize, n: usize) -> usize {
        let (mut best, mut lowest) = (first, self.first[first]);
        for c in first + 1..(first + 4).min(n) {
            let f = self.first[c];
            if f < lowest || (f == lowest && self.rest[c] < self.rest[best]) {
                (best, lowest) = (c, f);
            }
        }
        best
    }

    fn sift_down(&mut self, mut at: usize, e: Entry) {
        let n = self.first.len();
        loop {
            let first = 4 * at + 1;
            if first >= n {
                break;
            }
            // The least child's index and first key together: reading the key back would add
            // a load to the chain each level waits on.
            let (best, f) = match self
                .first
                .get(first..first + 4)
                .and_then(Self::least_of_four)
            {
                Some((i, f)) => (first + i, f),
                None => {
                    let c = self.least_child(first, n);
                    (c, self.first[c])
                }
            };
            if f > e.0 || (f == e.0 && self.rest[best] >= (e.1, e.2)) {
                break;
            }
            let r = self.rest[best];
            self.place(at, (f, r.0, r.1));
            at = best;
        }
        self.place(at, e);
    }
}

#[cfg(test)]
mod tests {
    use super::CornerHeap;
    use rand::{Rng, SeedableRng};

    /// Against the stale-entry heap it replaces: the same corners come out in the same order.
    #[test]
    fn pops_as_a_heap_of_stale_entries_would() {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut ours = CornerHeap::default();
        ours.reset(64);
        let mut theirs = BinaryHeap::new();
        let mut current = [u64::MAX; 64];
        for _ in 0..5000 {
            if rng.random_bool(0.6) {
                let k = rng.random_range(0..64u32);
                let key = rng.random_range(0..current[k as usize].min(1000));
                current[k as usize] = key;
                ours.push(key / 7, key, k);
                theirs.push(Reverse((key, k)));
            } else {
                // The lazy heap skips entries that are no longer a corner's key.
                let want = loop {
                    match theirs.pop() {
                        Some(Reverse((key, k))) if current[k as usize] == key => {
                            break Some((key, k))
                        }
                        Some(_) => continue,
                        None => break None,
                    }
                };
                let got = ours.pop().map(|(_, key, k)| (key, k));
                assert_eq!(got, want);
                if let Some((_, k)) = got {
                    current[k as usize] = u64::MAX;
                }
            }
        }
    }
}

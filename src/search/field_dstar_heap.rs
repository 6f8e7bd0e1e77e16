//! Field D*'s open list: a 4-ary heap of corners that moves a corner's entry up when its rhs
//! falls, instead of leaving the old entry behind. A corner's rhs falls about twice before it
//! is expanded on den520d, so a heap of stale entries held twice the entries and popped each
//! one; this one pops the same corners in the same order (the entries that are not stale are
//! the same, and their order is total), with half the work.

/// Entries ordered by key (Field D*'s key, then rhs, as bits) and then corner.
#[derive(Clone, Debug, Default)]
pub(super) struct CornerHeap {
    entries: Vec<(u128, u32)>,
    /// Where each corner's entry is; meaningful only where that entry names the corner.
    pos: Vec<u32>,
}

impl CornerHeap {
    /// Empties the heap and makes room for `corners` corners.
    pub fn reset(&mut self, corners: usize) {
        self.entries.clear();
        if self.pos.len() != corners {
            self.pos = vec![u32::MAX; corners];
        }
    }

    /// The lowest entry.
    pub fn peek(&self) -> Option<(u128, u32)> {
        self.entries.first().copied()
    }

    fn entry_of(&self, k: u32) -> Option<usize> {
        let p = *self.pos.get(k as usize)? as usize;
        (self.entries.get(p).map(|e| e.1) == Some(k)).then_some(p)
    }

    /// Queues corner `k` under `key`, or moves its entry to `key` (never above its old key:
    /// a corner's rhs only falls while it is queued).
    pub fn push(&mut self, key: u128, k: u32) {
        let e = (key, k);
        let at = match self.entry_of(k) {
            Some(at) => {
                debug_assert!(e <= self.entries[at], "corner {k}'s key rose");
                at
            }
            None => {
                self.entries.push(e);
                self.entries.len() - 1
            }
        };
        self.sift_up(at, e);
    }

    /// Removes and returns the lowest entry.
    pub fn pop(&mut self) -> Option<(u128, u32)> {
        let top = *self.entries.first()?;
        let last = self.entries.pop().expect("not empty");
        if !self.entries.is_empty() {
            self.sift_down(0, last);
        }
        Some(top)
    }

    fn place(&mut self, at: usize, e: (u128, u32)) {
        self.entries[at] = e;
        self.pos[e.1 as usize] = at as u32;
    }

    fn sift_up(&mut self, mut at: usize, e: (u128, u32)) {
        while at > 0 {
            let parent = (at - 1) / 4;
            if self.entries[parent] <= e {
                break;
            }
            let p = self.entries[parent];
            self.place(at, p);
            at = parent;
        }
        self.place(at, e);
    }

    fn sift_down(&mut self, mut at: usize, e: (u128, u32)) {
        let n = self.entries.len();
        loop {
            let first = 4 * at + 1;
            if first >= n {
                break;
            }
            let mut best = first;
            for c in first + 1..(first + 4).min(n) {
                if self.entries[c] < self.entries[best] {
                    best = c;
                }
            }
            if self.entries[best] >= e {
                break;
            }
            let b = self.entries[best];
            self.place(at, b);
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
        let mut current = [u128::MAX; 64];
        for _ in 0..5000 {
            if rng.random_bool(0.6) {
                let k = rng.random_range(0..64u32);
                let key = rng.random_range(0..current[k as usize].min(1000));
                current[k as usize] = key;
                ours.push(key, k);
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
                let got = ours.pop();
                assert_eq!(got, want);
                if let Some((_, k)) = got {
                    current[k as usize] = u128::MAX;
                }
            }
        }
    }
}

//! An indexed 4-ary min-heap over dense node ids, for the incremental searches (D* Lite, AD*).
//!
//! Those searches change and remove queued keys all the time (every rhs update of a queued node,
//! every node that becomes consistent again). With lazy deletion each change left a stale entry
//! that a later pop had to sift out, and half of D* Lite's time went to popping them. Here a
//! node sits in the heap at most once, and its position is known, so a key changes or leaves in
//! place: O(log n) without leftovers.
//!
//! Keys are `u128`, compared as integers: D* Lite's two-part keys pack as (k1 << 64) | k2.
//! Equal keys come out in an order fixed by the sequence of operations (deterministic).

/// Position of a node that is not in the heap.
const OUT: u32 = u32::MAX;

/// Indexed 4-ary min-heap of (key, node).
#[derive(Clone, Debug, Default)]
pub struct KeyedHeap {
    /// Keys by heap slot; beside them, at the same slot, their nodes: sifting compares keys only.
    keys: Vec<u128>,
    nodes: Vec<u32>,
    /// Heap slot of each node, `OUT` when absent.
    pos: Vec<u32>,
}

impl KeyedHeap {
    /// Empties the heap and makes room for nodes `0..n`.
    pub fn reset(&mut self, n: usize) {
        self.keys.clear();
        self.nodes.clear();
        self.pos.clear();
        self.pos.resize(n, OUT);
    }

    /// Empties the heap in time proportional to what it holds (`reset` touches every node).
    pub fn clear(&mut self) {
        for &n in &self.nodes {
            self.pos[n as usize] = OUT;
        }
        self.keys.clear();
        self.nodes.clear();
    }

    /// Number of nodes in the heap.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when no node is queued.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The key of `n` as two costs (the halves of a two-part key in the open list's fixed
    /// point; ∞ for an infinite part), if queued.
    pub fn key_pair(&self, n: u32) -> Option<(f64, f64)> {
        let part = |k: u64| {
            if k == u64::MAX {
                f64::INFINITY
            } else {
                k as f64 / (1u64 << 20) as f64
            }
        };
        self.key_of(n)
            .map(|k| (part((k >> 64) as u64), part(k as u64)))
    }

    /// The key of `n`, if queued.
    #[inline]
    pub fn key_of(&self, n: u32) -> Option<u128> {
        match self.pos.get(n as usize) {
            Some(&p) if p != OUT => Some(self.keys[p as usize]),
            _ => None,
        }
    }

    /// True when `n` is queued.
    #[inline]
    pub fn contains(&self, n: u32) -> bool {
        self.pos.get(n as usize).is_some_and(|&p| p != OUT)
    }

    /// The lowest key and its node.
    #[inline]
    pub fn top(&self) -> Option<(u128, u32)> {
        Some((*self.keys.first()?, self.nodes[0]))
    }

    /// Queues `n` under `key`, or moves it there if it is queued already. Returns false when it
    /// was queued under that very key (nothing changed).
    #[inline]
    pub fn set(&mut self, n: u32, key: u128) -> bool {
        let p = self.pos[n as usize];
        if p == OUT {
            let i = self.keys.len();
            self.keys.push(key);
            self.nodes.push(n);
            self.pos[n as usize] = i as u32;
            self.sift_up(i);
            return true;
        }
        let i = p as usize;
        let old = self.keys[i];
        if old == key {
            return false;
        }
        self.keys[i] = key;
        if key < old {
            self.sift_up(i);
        } else {
            self.sift_down(i);
        }
        true
    }

    /// Takes `n` off the heap; false when it was not queued.
    #[inline]
    pub fn remove(&mut self, n: u32) -> bool {
        let p = self.pos[n as usize];
        if p == OUT {
            return false;
        }
        self.pos[n as usize] = OUT;
        let i = p as usize;
        let last = self.keys.len() - 1;
        let (k, m) = (self.keys[last], self.nodes[last]);
        self.keys.truncate(last);
        self.nodes.truncate(last);
        if i < last {
            let old = self.keys[i];
            self.keys[i] = k;
            self.nodes[i] = m;
            self.pos[m as usize] = i as u32;
            if k < old {
                self.sift_up(i);
            } else {
                self.sift_down(i);
            }
        }
        true
    }

    /// Removes and returns the lowest key and its node.
    #[inline]
    pub fn pop(&mut self) -> Option<(u128, u32)> {
        let top = self.top()?;
        self.remove(top.1);
        Some(top)
    }

    /// Every queued (key, node), in heap order (not sorted).
    pub fn iter(&self) -> impl Iterator<Item = (u128, u32)> + '_ {
        self.keys.iter().copied().zip(self.nodes.iter().copied())
    }

    #[inline]
    fn place(&mut self, i: usize, k: u128, n: u32) {
        self.keys[i] = k;
        self.nodes[i] = n;
        self.pos[n as usize] = i as u32;
    }

    fn sift_up(&mut self, mut i: usize) {
        let (k, n) = (self.keys[i], self.nodes[i]);
        while i > 0 {
            let parent = (i - 1) / 4;
            if self.keys[parent] <= k {
                break;
            }
            let (pk, pn) = (self.keys[parent], self.nodes[parent]);
            self.place(i, pk, pn);
            i = parent;
        }
        self.place(i, k, n);
    }

    fn sift_down(&mut self, mut i: usize) {
        let len = self.keys.len();
        let (k, n) = (self.keys[i], self.nodes[i]);
        loop {
            let first = 4 * i + 1;
            if first >= len {
                break;
            }
            let end = (first + 4).min(len);
            let mut best = first;
            for c in first + 1..end {
                if self.keys[c] < self.keys[best] {
                    best = c;
                }
            }
            if self.keys[best] >= k {
                break;
            }
            let (ck, cn) = (self.keys[best], self.nodes[best]);
            self.place(i, ck, cn);
            i = best;
        }
        self.place(i, k, n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Random sets, removals and pops against a plain map of the live keys.
    #[test]
    fn matches_a_sorted_reference() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let n = 200;
        let mut h = KeyedHeap::default();
        h.reset(n);
        let mut live: Vec<Option<u128>> = vec![None; n];
        for _ in 0..20_000 {
            let v = rng.random_range(0..n as u32);
            match rng.random_range(0..4) {
                0 | 1 => {
                    let k = rng.random_range(0..50u128);
                    assert_eq!(h.set(v, k), live[v as usize] != Some(k));
                    live[v as usize] = Some(k);
                }
                2 => {
                    assert_eq!(h.remove(v), live[v as usize].is_some());
                    live[v as usize] = None;
                }
                _ => {
                    let want = live.iter().filter_map(|k| *k).min();
                    let got = h.pop();
                    assert_eq!(got.map(|g| g.0), want);
                    if let Some((k, m)) = got {
                        assert_eq!(live[m as usize], Some(k));
                        live[m as usize] = None;
                    }
                }
            }
            assert_eq!(h.len(), live.iter().flatten().count());
            assert_eq!(h.key_of(v), live[v as usize]);
        }
    }
}

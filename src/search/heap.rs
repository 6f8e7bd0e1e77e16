//! The open list: a binary min-heap with lazy deletion (a better g pushes a new entry; stale
//! entries are skipped when popped). Written by hand rather than std's `BinaryHeap` so that the
//! order — f ascending, then g descending, then insertion order — is explicit and floats need no
//! wrapper type.

/// One open-list entry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    pub f: f64,
    pub g: f64,
    pub node: u32,
    pub seq: u32,
}

impl Entry {
    /// True if `self` comes out of the heap before `o`. Ties on f go to the larger g (the node
    /// nearer the goal by the heuristic), then to the entry pushed first: fully deterministic.
    #[inline(always)]
    fn before(&self, o: &Entry) -> bool {
        if self.f != o.f {
            return self.f < o.f;
        }
        if self.g != o.g {
            return self.g > o.g;
        }
        self.seq < o.seq
    }
}

/// Binary heap of entries.
#[derive(Clone, Debug, Default)]
pub struct OpenHeap {
    items: Vec<Entry>,
    seq: u32,
}

impl OpenHeap {
    /// Empties the heap, keeping its memory.
    pub fn clear(&mut self) {
        self.items.clear();
        self.seq = 0;
    }

    /// Number of entries (stale ones included).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when no entry is left.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Adds an entry.
    #[inline]
    pub fn push(&mut self, f: f64, g: f64, node: u32) {
        let e = Entry { f, g, node, seq: self.seq };
        self.seq = self.seq.wrapping_add(1);
        let mut i = self.items.len();
        self.items.push(e);
        while i > 0 {
            let p = (i - 1) / 2;
            if !e.before(&self.items[p]) {
                break;
            }
            self.items[i] = self.items[p];
            i = p;
        }
        self.items[i] = e;
    }

    /// The first entry, without removing it.
    pub fn peek(&self) -> Option<&Entry> {
        self.items.first()
    }

    /// Removes and returns the first entry.
    #[inline]
    pub fn pop(&mut self) -> Option<Entry> {
        let last = self.items.pop()?;
        if self.items.is_empty() {
            return Some(last);
        }
        let top = self.items[0];
        let n = self.items.len();
        let mut i = 0;
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && self.items[r].before(&self.items[l]) { r } else { l };
            if !self.items[c].before(&last) {
                break;
            }
            self.items[i] = self.items[c];
            i = c;
        }
        self.items[i] = last;
        Some(top)
    }

    /// All entries in heap order (not sorted).
    pub fn entries(&self) -> &[Entry] {
        &self.items
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn pops_in_key_order() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut h = OpenHeap::default();
        let mut all = vec![];
        for i in 0..2000u32 {
            let f = rng.random_range(0..50) as f64;
            let g = rng.random_range(0..5) as f64;
            h.push(f, g, i);
            all.push((f, g, i));
        }
        all.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)).then(a.2.cmp(&b.2)));
        let got: Vec<_> = std::iter::from_fn(|| h.pop()).map(|e| (e.f, e.g, e.node)).collect();
        assert_eq!(got, all);
    }
}

//! Counting a batch's traffic on every core: a worker's counts per cell ([`Traffic`]) and one
//! worker state per rayon thread ([`PerThread`]), merged once at the end. Counts are integers,
//! so totals are the same for any thread count and any order of agents.

use crate::space::NodeId;
use std::sync::Mutex;

/// A worker's traffic counts: per cell, the agents counted there (high 24 bits) and a stamp of
/// the last agent counted (low 8 bits), so a path crossing a cell twice counts once. Four bytes
/// a cell, where a 32-bit stamp beside a 32-bit count took eight: counting a path reads cells
/// all over the map, and at eight bytes the arrays of two workers no longer shared the caches
/// (two threads ran a PCCP batch 1.4× as fast as one; see docs/crowds.md). A cell's count
/// tops out at 2²⁴ − 1 agents per worker, beyond any batch the app or the CLI plans (the CLI
/// takes at most 10,000,000 agents).
#[derive(Default)]
pub struct Traffic {
    cells: Vec<u32>,
    /// Agents begun, modulo the 255 stamps.
    seq: u32,
}

impl Traffic {
    /// Counts for `cells` cells. In huge pages where the system offers them: counting writes
    /// all over the map, and with 4 KiB pages each worker's arrays cost a page fault per page
    /// on first touch and a TLB miss on most writes. On a 1024² map two threads ran a
    /// 1,000-agent batch slower than one (55 against 39 ms, median) and now faster (24 ms).
    pub fn new(cells: usize) -> Traffic {
        Traffic {
            cells: crate::huge_pages::filled_huge(cells, 0),
            seq: 0,
        }
    }

    /// The stamp of the next agent (1–255); every 255 agents the old stamps are cleared, so a
    /// stamp never meets the one an earlier agent left.
    #[inline(always)]
    pub fn begin(&mut self) -> u32 {
        self.seq += 1;
        if self.seq == 256 {
            self.seq = 1;
            for c in &mut self.cells {
                *c &= !0xff;
            }
        }
        self.seq
    }

    /// Counts the agent stamped `stamp` on cell `c` once.
    #[inline(always)]
    pub fn cross(&mut self, stamp: u32, c: NodeId) {
        let v = &mut self.cells[c as usize];
        if *v & 0xff != stamp {
            *v = ((*v | 0xff) + 1) | stamp;
        }
    }

    /// Counts one agent on each of `cells` (a cell it lists twice once).
    pub fn path(&mut self, cells: &[NodeId]) {
        let stamp = self.begin();
        for &c in cells {
            self.cross(stamp, c);
        }
    }

    /// The counts alone, in this worker's own memory.
    pub fn into_counts(mut self) -> Vec<u32> {
        for c in &mut self.cells {
            *c >>= 8;
        }
        self.cells
    }
}

/// Workers' per-cell counts summed cell by cell into the first one's memory (zeros over
/// `cells` when there is none). A batch's sums used to go into fresh arrays, whose first
/// touch cost more than the adding (about 4 µs a 4 KiB page on a virtual machine: 4 ms of a
/// 10,000-agent batch on a 512² map, on one thread while the others waited); the workers'
/// arrays are already in memory. Saturating: a count never wraps to a small one.
pub fn sum_cells(arrays: impl IntoIterator<Item = Vec<u32>>, cells: usize) -> Vec<u32> {
    let mut arrays = arrays.into_iter();
    let mut sum = arrays.next().unwrap_or_else(|| vec![0; cells]);
    for a in arrays {
        for (s, &v) in sum.iter_mut().zip(&a) {
            *s = s.saturating_add(v);
        }
    }
    sum
}

/// One `T` per rayon thread of the pool it is made in, made when the thread first asks for it.
/// One per thread rather than one per rayon split (as a fold makes them): a worker holds
/// map-sized arrays, whose zeroing and merging a batch would otherwise pay several times over.
pub struct PerThread<T> {
    slots: Vec<Mutex<Option<T>>>,
}

impl<T> Default for PerThread<T> {
    fn default() -> Self {
        PerThread {
            slots: (0..rayon::current_num_threads())
                .map(|_| Mutex::new(None))
                .collect(),
        }
    }
}

impl<T> PerThread<T> {
    /// Runs `f` on this thread's `T`, made by `make` the first time. Outside the pool (a caller
    /// on its own thread) the first slot serves. `f` must not call into rayon: the slot stays
    /// locked while it runs, and a job rayon handed this thread meanwhile would wait on it.
    pub fn with<R>(&self, make: impl FnOnce() -> T, f: impl FnOnce(&mut T) -> R) -> R {
        let me = rayon::current_thread_index().unwrap_or(0) % self.slots.len();
        // Only this thread takes this lock while a rayon job runs (a job runs on one thread
        // from start to end), so it never waits; a poisoned lock still holds whole counts.
        let mut slot = self.slots[me].lock().unwrap_or_else(|e| e.into_inner());
        f(slot.get_or_insert_with(make))
    }

    /// The states made, one per thread that asked.
    pub fn into_inner(self) -> Vec<T> {
        self.slots
            .into_iter()
            .filter_map(|s| s.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn traffic_counts_an_agent_once_per_cell_across_stamp_wraps() {
        let mut t = Traffic::new(4);
        // 600 agents: the stamps wrap twice; each crosses cell 1 twice and cell 3 once.
        for _ in 0..600 {
            t.path(&[1, 3, 1]);
        }
        assert_eq!(t.into_counts(), [0, 600, 0, 600]);
    }

    #[test]
    fn per_thread_counts_sum_to_the_serial_counts() {
        let paths: Vec<Vec<u32>> = (0..5000u32)
            .map(|i| (0..(i % 17)).map(|k| (i * 7 + k * 13) % 101).collect())
            .collect();
        let mut want = vec![0u32; 101];
        for p in &paths {
            let mut seen = [false; 101];
            for &c in p {
                if !std::mem::replace(&mut seen[c as usize], true) {
                    want[c as usize] += 1;
                }
            }
        }
        let workers = PerThread::default();
        paths
            .par_iter()
            .for_each(|p| workers.with(|| Traffic::new(101), |t| t.path(p)));
        let got = sum_cells(
            workers.into_inner().into_iter().map(Traffic::into_counts),
            101,
        );
        assert_eq!(got, want);
        assert_eq!(sum_cells([], 3), [0, 0, 0]);
        assert_eq!(sum_cells([vec![1, u32::MAX], vec![2, 5]], 2), [3, u32::MAX]);
    }
}

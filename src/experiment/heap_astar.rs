//! The A* of Mäntysalo 2024's experiment (its Figure 3.2) on the same indexed heap as D* Lite, so that
//! their recompute times compare the algorithms rather than two queue implementations: the
//! thesis ran every algorithm on one binary-heap implementation, "for comparable timings".
//!
//! pathlab's own A* (`astar:lane` in the harness) keeps equal-f successors in a stack beside its
//! heap and is about three times faster per expansion; on these maps it expands the same nodes.
//! Ties here go to the larger g, as they do in the lane, which also matches the thesis's A*
//! expansion counts (about 900 per search on Random 128, 3,000 on Random 256).

use crate::search::{key_or_inf as q, KeyedHeap};
use crate::space::{Heuristic, NodeId, Space};
use crate::trace::NONE;

/// A* from scratch on a [`KeyedHeap`]; the arrays are kept between searches.
#[derive(Clone, Debug, Default)]
pub struct HeapAStar {
    /// Equal f in the heap's own order (no tie-breaking, as the thesis states none) instead of
    /// the larger g first.
    pub ties_by_f_only: bool,
    g: Vec<f64>,
    parent: Vec<NodeId>,
    closed: Vec<bool>,
    /// The search that last wrote each node's g, parent and closed flag: a new search starts by
    /// bumping `search`, not by clearing arrays over the whole map. The thesis times a
    /// recompute from the change to the next step known; an O(map) reset inside it made A*'s
    /// recompute grow with the map rather than with its search.
    stamp: Vec<u32>,
    search: u32,
    heap: KeyedHeap,
    /// Expansions of the last search.
    pub expanded: u64,
}

impl HeapAStar {
    /// Resets node `v`'s slots the first time this search touches it.
    #[inline(always)]
    fn touch(&mut self, v: NodeId) {
        let i = v as usize;
        if self.stamp[i] != self.search {
            self.stamp[i] = self.search;
            self.g[i] = f64::INFINITY;
            self.parent[i] = NONE;
            self.closed[i] = false;
        }
    }

    /// The optimal path from `start` to `goal` (empty when there is none).
    pub fn search<S: Space>(
        &mut self,
        space: &S,
        start: NodeId,
        goal: NodeId,
        h: Heuristic,
    ) -> Vec<NodeId> {
        let n = space.num_nodes();
        if self.stamp.len() != n || self.search == u32::MAX {
            self.g = vec![f64::INFINITY; n];
            self.parent = vec![NONE; n];
            self.closed = vec![false; n];
            self.stamp = vec![0; n];
            self.search = 0;
            self.heap.reset(n);
        }
        self.search += 1;
        self.heap.clear();
        self.expanded = 0;

        if !space.is_passable(start) || !space.is_passable(goal) {
            return vec![];
        }
        let hf = space.heuristic_to(h, goal);
        // f in the high half; in the low half the complement of g, so a larger g comes first.
        let by_f = self.ties_by_f_only;
        let key = |f: f64, g: f64| {
            let low = if by_f { 0 } else { u64::MAX - q(g) };
            ((q(f) as u128) << 64) | low as u128
        };
        self.touch(start);
        self.g[start as usize] = 0.0;
        self.heap.set(start, key(hf(start), 0.0));
        while let Some((_, u)) = self.heap.pop() {
            if u == goal {
                let mut path = vec![goal];
                let mut at = goal;
                while at != start {
                    at = self.parent[at as usize];
                    path.push(at);
                }
                path.reverse();
                return path;
            }
            self.closed[u as usize] = true;
            self.expanded += 1;
            let gu = self.g[u as usize];
            for (v, c) in space.neighbours(u) {
                self.touch(v);
                let gv = gu + c;
                if !self.closed[v as usize] && gv < self.g[v as usize] {
                    self.g[v as usize] = gv;
                    self.parent[v as usize] = u;
                    self.heap.set(v, key(gv + hf(v), gv));
                }
            }
        }
        vec![]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Grid;
    use crate::search::{AStar, Query, Search, SearchState};
    use crate::space::{Connectivity, GridSpace, TerrainRule};
    use crate::trace::NullTracer;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Path costs equal the registry A*'s on random 4-connected worlds.
    #[test]
    fn costs_match_astar() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut ha = HeapAStar::default();
        for _ in 0..200 {
            let (w, h) = (rng.random_range(2..30u32), rng.random_range(2..30u32));
            let tiles: Vec<u8> = (0..w * h)
                .map(|_| if rng.random_bool(0.3) { b'@' } else { b'.' })
                .collect();
            let grid = Grid::from_tiles(w, h, tiles);
            let sp = GridSpace::new(&grid, Connectivity::Four, TerrainRule::Class);
            let (s, g) = (0, w * h - 1);
            // A search on the same map before, the other way: its marks must not leak.
            let back = ha.search(&sp, g, s, Heuristic::Manhattan);
            let path = ha.search(&sp, s, g, Heuristic::Manhattan);
            assert_eq!(back.len(), path.len());
            let mut a = AStar::new(&sp, Query { start: s, goal: g }, Heuristic::Manhattan);
            a.run(&sp, &mut NullTracer);
            match a.cost() {
                Some(c) => {
                    assert_eq!((path.len() - 1) as f64, c);
                    assert!(path
                        .windows(2)
                        .all(|p| sp.neighbours(p[0]).any(|(n, _)| n == p[1])));
                }
                None => assert!(path.is_empty()),
            }
        }
    }
}

//! Terrain on voxels: a cost multiplier per voxel, as square and hex cells have. A move costs
//! its length times the mean of its two voxels' costs. The costs are held only while some
//! voxel's is not 1: the Warframe maps have none and stay one bit a voxel, where costs take
//! four bytes a voxel (356 MB on A1).

use super::voxel::VoxelGrid;

impl VoxelGrid {
    /// Every voxel's cost multiplier in index order, or `None` when all are 1.
    pub fn costs(&self) -> Option<&[f32]> {
        self.costs.as_deref()
    }

    /// Cost multiplier of voxel `i`.
    #[inline(always)]
    pub fn cost_at(&self, i: usize) -> f32 {
        self.costs.as_ref().map_or(1.0, |c| c[i])
    }

    /// The lowest cost multiplier (1 without terrain): scaling a heuristic by it keeps it
    /// admissible.
    pub fn min_cost(&self) -> f64 {
        let min = self
            .costs()
            .map_or(1.0, |c| c.iter().copied().fold(f32::MAX, f32::min));
        min as f64
    }

    /// Sets the cost multiplier of voxel (x, y, z); it must be a positive finite number.
    pub fn set_cost(&mut self, x: u32, y: u32, z: u32, cost: f32) -> Result<(), String> {
        self.put_cost(x, y, z, cost)?;
        self.settle_costs();
        Ok(())
    }

    /// [`Self::set_cost`] without looking for the costs to drop: for many voxels at once,
    /// followed by one [`Self::settle_costs`].
    pub(crate) fn put_cost(&mut self, x: u32, y: u32, z: u32, cost: f32) -> Result<(), String> {
        check_cost(cost)?;
        let Some(i) = self.index(x as i64, y as i64, z as i64) else {
            return Err(format!("voxel ({x}, {y}, {z}) is outside the box"));
        };
        if cost != 1.0 || self.costs.is_some() {
            let n = self.len();
            self.costs.get_or_insert_with(|| vec![1.0; n])[i] = cost;
        }
        Ok(())
    }

    /// Layer `z`'s costs, row-major, if the world has terrain.
    pub(super) fn layer_costs(&self, z: u32) -> Option<Vec<f32>> {
        let [w, h, _] = self.dims();
        let layer = (w * h) as usize;
        let c = self.costs()?;
        Some(c[z as usize * layer..(z as usize + 1) * layer].to_vec())
    }

    /// Writes a square map's costs into layer `z` (the map must have the layer's width and
    /// height); returns how many voxels' costs changed.
    pub(super) fn store_layer_costs(&mut self, z: u32, grid: &super::Grid) -> usize {
        let [w, h, _] = self.dims();
        let layer = (w * h) as usize;
        let src = grid.costs();
        if self.costs.is_none() && src.iter().all(|&c| c == 1.0) {
            return 0;
        }
        let n = self.len();
        let dst = self.costs.get_or_insert_with(|| vec![1.0; n]);
        let base = z as usize * layer;
        let mut changed = 0;
        for (d, &s) in dst[base..base + layer].iter_mut().zip(src) {
            if *d != s {
                *d = s;
                changed += 1;
            }
        }
        self.settle_costs();
        changed
    }

    /// Drops the costs once every one is 1 again.
    pub(crate) fn settle_costs(&mut self) {
        if self.costs().is_some_and(|c| c.iter().all(|&c| c == 1.0)) {
            self.costs = None;
        }
    }

    /// The costs as text for a project file: pairs of a cost and how many voxels in a row (in
    /// index order) have it; `None` without terrain.
    pub fn costs_to_runs(&self) -> Option<String> {
        use std::fmt::Write;
        let c = self.costs()?;
        let mut out = String::new();
        let mut i = 0;
        while i < c.len() {
            let run = c[i..].iter().take_while(|&&v| v == c[i]).count();
            let _ = write!(out, "{}{} {run}", if i == 0 { "" } else { " " }, c[i]);
            i += run;
        }
        Some(out)
    }

    /// Reads [`Self::costs_to_runs`] text, checked: each cost positive and finite, and the
    /// runs covering the box exactly.
    pub fn set_costs_from_runs(&mut self, text: &str) -> Result<(), String> {
        let n = self.len();
        let mut costs = Vec::with_capacity(n);
        let mut it = text.split_ascii_whitespace();
        while let Some(t) = it.next() {
            let cost: f32 = t
                .parse()
                .map_err(|_| format!("`{t}` in the voxel costs is not a number"))?;
            check_cost(cost)?;
            let r = it
                .next()
                .ok_or_else(|| format!("the voxel costs end after the cost {t}"))?;
            let run: usize = r
                .parse()
                .map_err(|_| format!("`{r}` in the voxel costs is not a whole number"))?;
            if run > n - costs.len() {
                return Err(format!("the voxel costs cover more than the {n} voxels"));
            }
            costs.resize(costs.len() + run, cost);
        }
        if costs.len() != n {
            return Err(format!(
                "the voxel costs cover {} of the {n} voxels",
                costs.len()
            ));
        }
        self.costs = Some(costs);
        self.settle_costs();
        Ok(())
    }
}

fn check_cost(c: f32) -> Result<(), String> {
    if c.is_finite() && c > 0.0 {
        Ok(())
    } else {
        Err(format!("cost {c} is not a positive finite number"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Grid;

    #[test]
    fn costs_live_only_with_terrain_and_round_trip() {
        let mut v = VoxelGrid::new(4, 3, 2).unwrap();
        assert_eq!(v.costs(), None);
        assert_eq!(v.costs_to_runs(), None);
        v.set_cost(1, 2, 1, 2.5).unwrap();
        v.set_cost(0, 0, 0, 0.5).unwrap();
        assert_eq!(v.cost_at(v.index(1, 2, 1).unwrap()), 2.5);
        assert_eq!(v.min_cost(), 0.5);
        let text = v.costs_to_runs().unwrap();
        assert_eq!(text, "0.5 1 1 20 2.5 1 1 2");
        let mut w = VoxelGrid::new(4, 3, 2).unwrap();
        w.set_costs_from_runs(&text).unwrap();
        assert_eq!(w, v);
        // Slices carry the costs both ways; extrusion copies a map's costs to every layer.
        let s = v.slice(1);
        assert_eq!(s.get(1, 2).unwrap().cost, 2.5);
        let mut u = VoxelGrid::new(4, 3, 2).unwrap();
        assert_eq!(u.store_slice(1, &s), 1);
        assert_eq!(u.cost_at(u.index(1, 2, 1).unwrap()), 2.5);
        let e = VoxelGrid::extrude(&s, 3).unwrap();
        assert!((0..3).all(|z| e.cost_at(e.index(1, 2, z).unwrap()) == 2.5));
        // Back to cost 1 everywhere: the costs are dropped.
        v.set_cost(1, 2, 1, 1.0).unwrap();
        v.set_cost(0, 0, 0, 1.0).unwrap();
        assert_eq!(v.costs(), None);
        u.store_slice(1, &Grid::from_rows(&["....", "....", "...."]));
        assert_eq!(u.costs(), None);
        // Bad text and bad costs: one clear line each.
        for bad in [
            "1 23", "1 25", "x 24", "1 y", "0 24", "-1 24", "inf 24", "1",
        ] {
            assert!(w.set_costs_from_runs(bad).is_err(), "{bad}");
        }
        assert!(w.set_cost(0, 0, 0, f32::NAN).is_err());
        assert!(w.set_cost(9, 0, 0, 2.0).is_err());
    }
}

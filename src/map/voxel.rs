//! Voxel worlds: a box of voxels, each free or blocked, one bit each (the Warframe maps' A1 is
//! 896 × 390 × 255 = 89M voxels: 11 MB as bits, where a byte a voxel would take 89 MB; the
//! clearance table that line of sight makes on first use is such a byte a voxel).

/// The most voxels a world may have: node ids and recorded events hold 2²⁷ nodes.
pub const MAX_VOXELS: u64 = 1 << 27;

/// A box of voxels; index = (z · height + y) · width + x.
#[derive(Clone, Debug, PartialEq)]
pub struct VoxelGrid {
    dims: [u32; 3],
    blocked: Vec<u64>,
    /// Terrain: each voxel's cost multiplier, held only while some voxel's is not 1 (see
    /// `voxel_costs.rs`), so a world without terrain stays one bit a voxel.
    pub(super) costs: Option<Vec<f32>>,
    /// ⌊2⁶⁴ / width⌋ + 1 and ⌊2⁶⁴ / (width · height)⌋ + 1: a voxel's coordinates by
    /// multiplication, not division (every generated voxel needs them for its heuristic).
    magic: [u128; 2],
}

impl VoxelGrid {
    /// An empty (all free) box, or why it cannot be made: a side of 0, or more voxels than
    /// [`MAX_VOXELS`] (checked before anything is allocated).
    pub fn new(x: u32, y: u32, z: u32) -> Result<VoxelGrid, String> {
        let n = x as u64 * y as u64 * z as u64;
        if n == 0 {
            return Err(format!("a voxel world of {x}×{y}×{z} has no voxels"));
        }
        if n > MAX_VOXELS {
            return Err(format!(
                "a voxel world of {x}×{y}×{z} = {n} voxels is more than pathlab holds ({MAX_VOXELS})"
            ));
        }
        Ok(VoxelGrid {
            dims: [x, y, z],
            blocked: {
                let mut b = Vec::new();
                crate::huge_pages::grow_huge(&mut b, n.div_ceil(64) as usize, 0);
                b
            },
            costs: None,
            magic: [
                (1u128 << 64) / x as u128 + 1,
                (1u128 << 64) / (x as u128 * y as u128) + 1,
            ],
        })
    }

    /// Width, height (y) and depth (z) in voxels.
    pub fn dims(&self) -> [u32; 3] {
        self.dims
    }

    /// Number of voxels.
    pub fn len(&self) -> usize {
        self.dims.iter().map(|&d| d as usize).product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Index of voxel (x, y, z), if inside.
    #[inline(always)]
    pub fn index(&self, x: i64, y: i64, z: i64) -> Option<usize> {
        let [w, h, d] = self.dims.map(|v| v as i64);
        (x >= 0 && y >= 0 && z >= 0 && x < w && y < h && z < d)
            .then(|| ((z * h + y) * w + x) as usize)
    }

    /// Voxel (x, y, z) of index `i`.
    #[inline(always)]
    pub fn coords(&self, i: usize) -> [u32; 3] {
        let [w, h, _] = self.dims.map(|v| v as u64);
        // Exact for every index below 2²⁷ (the magic numbers err by less than one part in 2³⁷).
        let i = i as u64;
        let z = ((i as u128 * self.magic[1]) >> 64) as u64;
        let r = i - z * w * h;
        let y = ((r as u128 * self.magic[0]) >> 64) as u64;
        [(r - y * w) as u32, y as u32, z as u32]
    }

    /// True when voxel `i` is blocked.
    #[inline(always)]
    pub fn blocked_at(&self, i: usize) -> bool {
        self.blocked[i >> 6] >> (i & 63) & 1 == 1
    }

    /// Bits `i - 1`, `i` and `i + 1` (blocked = 1), lowest first; `i` must be from 1 to
    /// `len() - 2` (a row of three voxels inside the box).
    #[inline(always)]
    pub fn three_at(&self, i: usize) -> u32 {
        crate::bits::three_bits(&self.blocked, i)
    }

    /// True when (x, y, z) is blocked or outside the box.
    #[inline(always)]
    pub fn is_blocked(&self, x: i64, y: i64, z: i64) -> bool {
        self.index(x, y, z).is_none_or(|i| self.blocked_at(i))
    }

    /// Blocks or frees voxel (x, y, z); outside the box nothing happens.
    pub fn set(&mut self, x: u32, y: u32, z: u32, blocked: bool) {
        if let Some(i) = self.index(x as i64, y as i64, z as i64) {
            if blocked {
                self.blocked[i >> 6] |= 1 << (i & 63);
            } else {
                self.blocked[i >> 6] &= !(1 << (i & 63));
            }
        }
    }

    /// Number of blocked voxels.
    pub fn count_blocked(&self) -> usize {
        self.blocked.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The blocked voxels, in index order.
    pub fn blocked_voxels(&self) -> impl Iterator<Item = [u32; 3]> + '_ {
        self.blocked_indices().map(|i| self.coords(i))
    }

    /// The blocked voxels' indices, in order (64 voxels at a time where none is blocked).
    pub fn blocked_indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.blocked.iter().enumerate().flat_map(move |(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(k * 64 + b)
            })
        })
    }

    /// Square maps of one size as z layers, the first at z = 0 (a stack of PNG slices, say):
    /// blocked where a layer's cell is blocked.
    pub fn from_slices(layers: &[super::Grid]) -> Result<VoxelGrid, String> {
        let first = layers.first().ok_or("no slices")?;
        let (w, h) = (first.width(), first.height());
        if let Some(i) = layers
            .iter()
            .position(|l| (l.width(), l.height()) != (w, h))
        {
            return Err(format!(
                "slice {} is {}×{}, slice 1 is {w}×{h}",
                i + 1,
                layers[i].width(),
                layers[i].height()
            ));
        }
        let mut v = VoxelGrid::new(w, h, layers.len() as u32)?;
        for (z, l) in layers.iter().enumerate() {
            v.store_layer_costs(z as u32, l);
            for (i, &t) in l.tiles().iter().enumerate() {
                if crate::map::TerrainRule::Class.class(t) == 0 {
                    let (x, y) = l.coords(i);
                    v.set(x, y, z as u32, true);
                }
            }
        }
        Ok(v)
    }

    /// A square map extruded to `height` voxels: a blocked cell is a column of blocked voxels,
    /// a cell's terrain cost the cost of its column. The map's y becomes y; z runs up.
    pub fn extrude(grid: &super::Grid, height: u32) -> Result<VoxelGrid, String> {
        let mut v = VoxelGrid::new(grid.width(), grid.height(), height)?;
        for z in 0..height {
            v.store_layer_costs(z, grid);
        }
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                if crate::map::TerrainRule::Class.class(grid.get(x, y).map_or(b'@', |c| c.tile))
                    == 0
                {
                    for z in 0..height {
                        v.set(x, y, z, true);
                    }
                }
            }
        }
        Ok(v)
    }
}

impl VoxelGrid {
    /// Layer `z` as a square map: `@` where blocked, `.` where free, with the voxels' terrain
    /// costs (the slice editor's map).
    pub fn slice(&self, z: u32) -> super::Grid {
        let [w, h, _] = self.dims;
        let tiles = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                if self.is_blocked(x as i64, y as i64, z as i64) {
                    b'@'
                } else {
                    b'.'
                }
            })
            .collect();
        let mut g = super::Grid::from_tiles(w, h, tiles);
        if let Some(c) = self.layer_costs(z) {
            g.set_costs(c)
                .expect("voxel costs are positive and one a cell");
        }
        g
    }

    /// Writes a square map of this width and height into layer `z`: blocked where its cell is
    /// impassable, and its terrain costs. Returns how many voxels changed.
    pub fn store_slice(&mut self, z: u32, grid: &super::Grid) -> usize {
        let mut changed = self.store_layer_costs(z, grid);
        for (i, &t) in grid.tiles().iter().enumerate() {
            let (x, y) = grid.coords(i);
            let blocked = crate::map::TerrainRule::Class.class(t) == 0;
            if self.is_blocked(x as i64, y as i64, z as i64) != blocked {
                self.set(x, y, z, blocked);
                changed += 1;
            }
        }
        changed
    }

    /// The voxels as text for a project file: `W H D` and then the lengths of alternating
    /// free and blocked runs in index order, starting with a free run (readable, and about as
    /// small as a `.3dmap` on the Warframe maps).
    pub fn to_runs(&self) -> String {
        use std::fmt::Write;
        let [w, h, d] = self.dims;
        let mut out = format!("{w} {h} {d}");
        let (mut state, mut run) = (false, 0u64);
        for i in 0..self.len() {
            let b = self.blocked_at(i);
            if b != state {
                let _ = write!(out, " {run}");
                state = b;
                run = 0;
            }
            run += 1;
        }
        let _ = write!(out, " {run}");
        out
    }

    /// Reads [`Self::to_runs`] text, checked: the size within the limits and the runs adding
    /// up to the box.
    pub fn from_runs(text: &str) -> Result<VoxelGrid, String> {
        let mut it = text.split_ascii_whitespace();
        let mut num = |what: &str| -> Result<u64, String> {
            let t = it
                .next()
                .ok_or_else(|| format!("the voxels end before {what}"))?;
            t.parse::<u64>()
                .map_err(|_| format!("`{t}` in the voxels is not a whole number ({what})"))
        };
        let dims = [num("the width")?, num("the height")?, num("the depth")?];
        if dims.iter().any(|&v| v > u32::MAX as u64) {
            return Err(format!("a voxel size of {dims:?} is too large"));
        }
        let mut v = VoxelGrid::new(dims[0] as u32, dims[1] as u32, dims[2] as u32)?;
        let n = v.len() as u64;
        let (mut at, mut blocked) = (0u64, false);
        while at < n {
            let run = num("a run")?;
            if run > n - at {
                return Err(format!("the voxel runs add up to more than the {n} voxels"));
            }
            if blocked {
                for i in at..at + run {
                    v.blocked[(i >> 6) as usize] |= 1 << (i & 63);
                }
            }
            at += run;
            blocked = !blocked;
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_and_runs_round_trip() {
        let mut v = VoxelGrid::new(7, 5, 3).unwrap();
        for (x, y, z) in [(0, 0, 0), (6, 4, 2), (3, 2, 1), (4, 2, 1)] {
            v.set(x, y, z, true);
        }
        let back = VoxelGrid::from_runs(&v.to_runs()).unwrap();
        assert_eq!(back, v);
        let s = v.slice(1);
        assert_eq!(s.get(3, 2).unwrap().tile, b'@');
        assert_eq!(s.get(2, 2).unwrap().tile, b'.');
        let mut w = VoxelGrid::new(7, 5, 3).unwrap();
        assert_eq!(w.store_slice(1, &s), 2);
        assert!(w.is_blocked(4, 2, 1) && !w.is_blocked(4, 2, 0));
        assert!(VoxelGrid::from_runs("7 5 3 200").is_err());
        assert!(VoxelGrid::from_runs("7 5 3 10").is_err());
        assert!(VoxelGrid::from_runs("7 5").is_err());
        assert!(VoxelGrid::from_runs("100000 100000 100000 1").is_err());
    }

    #[test]
    fn bits_index_and_limits() {
        let mut v = VoxelGrid::new(5, 4, 3).unwrap();
        v.set(4, 3, 2, true);
        v.set(0, 0, 0, true);
        assert!(v.is_blocked(4, 3, 2) && v.is_blocked(0, 0, 0) && !v.is_blocked(1, 0, 0));
        assert!(
            v.is_blocked(-1, 0, 0) && v.is_blocked(5, 0, 0),
            "outside is blocked"
        );
        assert_eq!(v.count_blocked(), 2);
        let all: Vec<[u32; 3]> = v.blocked_voxels().collect();
        assert_eq!(all, vec![[0, 0, 0], [4, 3, 2]]);
        let i = v.index(3, 2, 1).unwrap();
        assert_eq!(v.coords(i), [3, 2, 1]);
        // Coordinates by multiplication are exact everywhere, on odd sizes too.
        for (w, h, d) in [(7, 5, 3), (896, 390, 255), (1, 1, 1 << 20)] {
            let g = VoxelGrid::new(w, h, d).unwrap();
            let n = g.len();
            for i in (0..n).step_by((n / 100_000).max(1)).chain([n - 1]) {
                let want = [
                    (i % w as usize) as u32,
                    ((i / w as usize) % h as usize) as u32,
                    (i / (w * h) as usize) as u32,
                ];
                assert_eq!(g.coords(i), want, "{w}×{h}×{d} at {i}");
            }
        }
        v.set(4, 3, 2, false);
        assert_eq!(v.count_blocked(), 1);
        // Slices and extrusion: a wall cell is a blocked voxel on its layer(s).
        let a = crate::map::Grid::from_rows(&[".@", ".."]);
        let b = crate::map::Grid::from_rows(&["..", "@."]);
        let s = VoxelGrid::from_slices(&[a.clone(), b]).unwrap();
        assert_eq!(
            s.blocked_voxels().collect::<Vec<_>>(),
            vec![[1, 0, 0], [0, 1, 1]]
        );
        let e = VoxelGrid::extrude(&a, 3).unwrap();
        assert_eq!(e.count_blocked(), 3);
        assert!(VoxelGrid::from_slices(&[a, crate::map::Grid::from_rows(&["..."])]).is_err());
        assert!(VoxelGrid::new(0, 4, 3).is_err());
        assert!(VoxelGrid::new(1 << 12, 1 << 12, 1 << 12).is_err());
    }
}

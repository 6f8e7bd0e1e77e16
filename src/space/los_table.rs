//! Line of sight in voxel worlds by table: the cells a segment touches depend only on its
//! offset from one cell centre to the other, not on where it starts (both ends are centres),
//! so the cells of every offset up to [`RADIUS`] voxels along each axis are walked once per
//! process and kept. A check then reads its cells' bits one after another: no crossing
//! arithmetic, and loads that do not wait on each other. (The walk's arithmetic chain took
//! about 19 cycles a crossing; a 3D Theta* spends half its time in line of sight.)
//!
//! One sixth of an octant is kept: a segment going down along an axis touches the mirror image
//! of the cells its mirror image touches, and swapping axes swaps the cells' coordinates, so
//! the table holds offsets with x ≥ y ≥ z ≥ 0 and a check reads it with its axes' strides
//! negated and put in that order (each world's [`Steps`] holds their sums). Each cell is a
//! byte, its step from the cell before (−1 to 2 along each axis), and the offsets are made in
//! bands of one longest offset x, each the first time a segment needs it: 1.6 MB in all, the
//! short offsets most checks read (336 KB up to 31) staying in a core's cache (a first table
//! of every octant offset up to 32, 7 MB, missed it on most reads and gained a third as
//! much).

use std::sync::OnceLock;

/// The longest offset along any axis the table holds; longer segments are walked. On
/// Warframe's Complex 90% of Theta*'s checks lie within 31 voxels and 97.6% within 47. A reach
/// of 47 (1.6 MB in all, against 336 KB for 31) made Theta* 5% faster there, and no slower on
/// DC3, whose long segments jump through its clearance table: the segments of 32 to 47 voxels
/// took a quarter of the voxels read and two fifths of the time, as the walk costs twice what
/// the table does per voxel. A reach of 63 (4.5 MB) gained no more on Complex and made Lazy
/// Theta* slower.
pub const RADIUS: i64 = 47;

/// The sorted offsets of one longest offset x: (x, y, z) with x ≥ y ≥ z has cells
/// `cells[start[k]..start[k + 1]]`, k = y (y + 1) / 2 + z, each the step from the cell before
/// (the first from the segment's first end), packed (dx + 1) | (dy + 1) << 2 | (dz + 1) << 4.
struct Band {
    start: Vec<u32>,
    cells: Vec<u8>,
}

fn band(x: usize) -> &'static Band {
    static BANDS: [OnceLock<Band>; RADIUS as usize + 1] =
        [const { OnceLock::new() }; RADIUS as usize + 1];
    BANDS[x].get_or_init(|| {
        let mut start = Vec::with_capacity((x + 1) * (x + 2) / 2 + 1);
        let mut cells = Vec::new();
        for y in 0..=x {
            for z in 0..=y {
                start.push(cells.len() as u32);
                // The walk itself names the cells: every cell it asks about, in its order,
                // none of them blocked.
                // (A box of a power of two along each axis, so an index splits by shifts, not divisions.)
                const SIDE: u32 = (RADIUS as u32 + 1).next_power_of_two();
                const _: () = assert!(SIDE.is_power_of_two());
                let bits = SIDE.trailing_zeros();
                let mut last = [0i64; 3];
                let to = [x, y, z].map(|v| v as i64);
                super::los::segment_free_indexed([0; 3], to, [SIDE; 3], |i| {
                    let m = SIDE as usize - 1;
                    let c = [i & m, i >> bits & m, i >> (2 * bits)];
                    let d = [0, 1, 2].map(|k| c[k] as i64 - last[k] + 1);
                    debug_assert!(d.iter().all(|v| (0..4).contains(v)), "{d:?}");
                    cells.push((d[0] | d[1] << 2 | d[2] << 4) as u8);
                    last = c.map(|v| v as i64);
                    false
                });
            }
        }
        start.push(cells.len() as u32);
        Band { start, cells }
    })
}

/// The index offset of every packed step (see [`Band`]) for each way a segment's sorted axes
/// lie along a world's: which world axis is the longest and which the second (3 × 3 slots, 6
/// used) and the sign of each world axis, 72 rows of 64, 18 KB a world. A check reads one
/// offset a cell where decoding the byte against three strides took nine operations (the
/// loop's cost per cell, more than its load).
pub struct Steps(Box<[[i32; 64]; 72]>);

impl Steps {
    /// The offsets in a world of `dims` (each fits an i32: a step moves at most 2 along each
    /// axis, and a world holds at most 2²⁷ voxels).
    pub fn new(dims: [u32; 3]) -> Steps {
        let stride = [1, dims[0] as i64, dims[0] as i64 * dims[1] as i64];
        let mut off = Box::new([[0i32; 64]; 72]);
        for (first, second) in (0..3).flat_map(|f| (0..3).map(move |s| (f, s))) {
            if first == second {
                continue;
            }
            let axes = [first, second, 3 - first - second];
            for signs in 0..8 {
                let s = axes.map(|a| {
                    if signs >> a & 1 == 1 {
                        -stride[a]
                    } else {
                        stride[a]
                    }
                });
                for (c, o) in off[variant(axes, signs)].iter_mut().enumerate() {
                    let d = [c & 3, c >> 2 & 3, c >> 4].map(|v| v as i64 - 1);
                    *o = (d[0] * s[0] + d[1] * s[1] + d[2] * s[2]) as i32;
                }
            }
        }
        Steps(off)
    }
}

impl std::fmt::Debug for Steps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Steps({} bytes)", std::mem::size_of_val(&*self.0))
    }
}

/// The row of [`Steps`] for world axes `axes` (longest first) and sign bits `signs` (bit k:
/// world axis k runs downwards).
#[inline(always)]
fn variant(axes: [usize; 3], signs: usize) -> usize {
    (axes[0] * 3 + axes[1]) * 8 + signs
}

/// Whether the segment from the centre of voxel `a` to the centre of voxel `b` touches only
/// voxels for which `blocked_at` (by index, row-major with `dims`) is false: the answer of
/// [`segment_free_indexed`](super::los::segment_free_indexed), asking the same voxels from
/// `a` on. `None` when the offset is longer than [`RADIUS`] along some axis.
#[inline(always)]
pub fn segment_free_tabled(
    a: [i64; 3],
    b: [i64; 3],
    dims: [u32; 3],
    steps: &Steps,
    mut blocked_at: impl FnMut(usize) -> bool,
) -> Option<bool> {
    let d = [0, 1, 2].map(|i| b[i] - a[i]);
    let n = d.map(|v| v.unsigned_abs() as usize);
    if n.iter().any(|&v| v > RADIUS as usize) {
        return None;
    }
    let signs = (d[0] < 0) as usize | ((d[1] < 0) as usize) << 1 | ((d[2] < 0) as usize) << 2;
    // The world's axes from the longest offset to the shortest.
    let (mut n, mut axes) = (n, [0, 1, 2]);
    if n[0] < n[1] {
        n.swap(0, 1);
        axes.swap(0, 1);
    }
    if n[1] < n[2] {
        n.swap(1, 2);
        axes.swap(1, 2);
    }
    if n[0] < n[1] {
        n.swap(0, 1);
        axes.swap(0, 1);
    }
    let off = &steps.0[variant(axes, signs)];
    let t = band(n[0]);
    let k = n[1] * (n[1] + 1) / 2 + n[2];
    let cells = &t.cells[t.start[k] as usize..t.start[k + 1] as usize];
    let mut i = a[0] + a[1] * dims[0] as i64 + a[2] * dims[0] as i64 * dims[1] as i64;
    for &c in cells {
        i += off[(c & 63) as usize] as i64;
        if blocked_at(i as usize) {
            return Some(false);
        }
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::los::segment_free_indexed;

    /// Random worlds of every density, both ends anywhere within the table's reach and beyond
    /// it: the same answer as the walk, and for a free segment the same voxels asked.
    #[test]
    fn the_table_asks_what_the_walk_asks() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
        let dims = [90u32, 38, 36];
        let steps = Steps::new(dims);
        let n = dims.iter().product::<u32>() as usize;
        let (mut free, mut tabled, mut checked) = (0, 0, 0);
        for density in [0.0, 0.002, 0.01, 0.05, 0.2] {
            let cells: Vec<bool> = (0..n).map(|_| rng.random_bool(density)).collect();
            for _ in 0..3000 {
                let mut p = || dims.map(|v| rng.random_range(0..v as i64));
                let (a, b) = (p(), p());
                let (mut walked, mut read) = (vec![], vec![]);
                let want = segment_free_indexed(a, b, dims, |i| {
                    walked.push(i);
                    cells[i]
                });
                let got = segment_free_tabled(a, b, dims, &steps, |i| {
                    read.push(i);
                    cells[i]
                });
                checked += 1;
                let far = (0..3).any(|i| (a[i] - b[i]).abs() > RADIUS);
                match got {
                    None => assert!(far, "{a:?} {b:?}"),
                    Some(got) => {
                        assert!(!far);
                        assert_eq!(got, want, "{a:?} {b:?}");
                        read.sort_unstable();
                        walked.sort_unstable();
                        if got {
                            assert_eq!(read, walked, "{a:?} {b:?}");
                        }
                        tabled += 1;
                        free += got as u32;
                    }
                }
            }
        }
        // Most pairs fall within the table, and both answers occur often.
        assert!(tabled > checked / 2, "{tabled} of {checked}");
        assert!(
            free > tabled / 5 && free < tabled * 4 / 5,
            "{free} of {tabled}"
        );
    }

    /// Every offset the table holds, in all eight octants: the table names the very voxels the
    /// walk visits.
    #[test]
    fn every_offset_in_every_octant_answers_as_the_walk() {
        let dims = [2 * RADIUS as u32 + 3; 3];
        let steps = Steps::new(dims);
        let c = RADIUS + 1;
        let side = RADIUS as usize + 1;
        let mut mismatches = 0;
        for k in 0..side * side * side {
            let n = [k % side, k / side % side, k / side / side].map(|v| v as i64);
            for signs in 0..8 {
                let d = [0, 1, 2].map(|i| if signs >> i & 1 == 1 { -n[i] } else { n[i] });
                let (a, b) = ([c; 3], [0, 1, 2].map(|i| c + d[i]));
                let (mut walked, mut read) = (vec![], vec![]);
                segment_free_indexed(a, b, dims, |i| {
                    walked.push(i);
                    false
                });
                let got = segment_free_tabled(a, b, dims, &steps, |i| {
                    read.push(i);
                    false
                });
                walked.sort_unstable();
                read.sort_unstable();
                if got != Some(true) || read != walked {
                    mismatches += 1;
                }
            }
        }
        assert_eq!(mismatches, 0);
    }
}

//! Line of sight between cell centres on square and voxel grids: the cells a segment touches,
//! walked exactly (a supercover traversal in integers), and the segment free when every one of
//! them is.
//!
//! Where the segment passes exactly through a grid edge or corner, every cell around it counts
//! as touched: so a segment through a diagonal gap is blocked, as the grids' move rule blocks a
//! diagonal move past a blocked corner (squares) or through a blocked bounding box (voxels).
//! Centre-to-centre segments with integer offsets cross cell boundaries at rational times,
//! compared by cross-multiplication: no floating-point tie is ever misjudged.

/// Whether the segment from the centre of cell `a` to the centre of cell `b` touches only
/// cells for which `blocked` is false. Use z = 0 for both on a square grid.
pub fn segment_free(
    a: [i64; 3],
    b: [i64; 3],
    mut blocked: impl FnMut(i64, i64, i64) -> bool,
) -> bool {
    let mut cell = a;
    segment_walk(a, b, |axes, step| {
        // Every cell around the crossing point: the current cell moved along any subset of
        // the crossing axes (one axis: the next cell; two: the four around an edge; three: the
        // eight around a corner); `None` asks about the first cell.
        let Some(axes) = axes else {
            return !blocked(cell[0], cell[1], cell[2]);
        };
        for mask in 1..8u32 {
            if mask & !axes != 0 {
                continue;
            }
            let c = [0, 1, 2].map(|i| cell[i] + if mask >> i & 1 == 1 { step[i] } else { 0 });
            if blocked(c[0], c[1], c[2]) {
                return false;
            }
        }
        for (i, c) in cell.iter_mut().enumerate() {
            if axes >> i & 1 == 1 {
                *c += step[i];
            }
        }
        true
    })
}

/// [`segment_free`] on a grid stored row-major (x fastest, then y, then z) with `dims`, asking
/// `blocked_at` by index: both ends must lie inside, and so then does every cell the segment
/// touches (they lie in the box the two ends span), so no cell needs a bounding check.
pub fn segment_free_indexed(
    a: [i64; 3],
    b: [i64; 3],
    dims: [u32; 3],
    blocked_at: impl FnMut(usize) -> bool,
) -> bool {
    walk_indexed(a, b, dims, blocked_at, |_| 0)
}

/// [`segment_free_indexed`] over a world's clearance table ([`VoxelGrid::clearance`]: 0 for a
/// blocked voxel, else its Chebyshev distance to the nearest blocked one): where the walk stands
/// in a voxel of clearance c, every voxel within c − 1 of it is free, and it jumps c − 1 steps
/// along the segment's longest axis at once. The same answer as a walk voxel by voxel.
///
/// [`VoxelGrid::clearance`]: crate::map::voxel::VoxelGrid::clearance
pub fn segment_free_cleared(a: [i64; 3], b: [i64; 3], dims: [u32; 3], clear: &[u8]) -> bool {
    walk_indexed(a, b, dims, |i| clear[i] == 0, |i| clear[i])
}

/// The walk behind both: `clearance` 0 (or 1, or 2) never jumps.
#[inline(always)]
fn walk_indexed(
    a: [i64; 3],
    b: [i64; 3],
    dims: [u32; 3],
    mut blocked_at: impl FnMut(usize) -> bool,
    clearance: impl Fn(usize) -> u8,
) -> bool {
    // The walk of `segment_walk`, written out for speed (a 3D Theta* spends most of its time
    // here): an axis that is done waits at i64::MAX instead of being tested on each crossing,
    // and the index offset of every set of axes crossed together is looked up, not summed.
    let stride = [1i64, dims[0] as i64, dims[0] as i64 * dims[1] as i64];
    let mut at = a[0] + a[1] * stride[1] + a[2] * stride[2];
    if blocked_at(at as usize) {
        return false;
    }
    let d = [0, 1, 2].map(|i| b[i] - a[i]);
    let n = d.map(|v| v.abs());
    let m = n.map(|v| v.max(1));
    let p = [m[1] * m[2], m[0] * m[2], m[0] * m[1]];
    let step = [0, 1, 2].map(|i| d[i].signum() * stride[i]);
    // The longest axis: its crossings are the densest, so no other axis crosses more often.
    let major = if n[0] >= n[1] && n[0] >= n[2] {
        0
    } else if n[1] >= n[2] {
        1
    } else {
        2
    };
    // off[mask]: the index offset of moving along every axis in `mask`.
    let mut off = [0i64; 8];
    for (mask, o) in off.iter_mut().enumerate() {
        *o = (0..3).filter(|i| mask >> i & 1 == 1).map(|i| step[i]).sum();
    }
    let mut next = [0, 1, 2].map(|i| if n[i] > 0 { p[i] } else { i64::MAX });
    let mut left = n;
    loop {
        let best = next[0].min(next[1]).min(next[2]);
        if best == i64::MAX {
            return true;
        }
        let c = clearance(at as usize) as i64;
        if c >= 3 {
            // Every crossing up to the k-th of the longest axis at once. Within it the longest
            // axis moves k voxels and no other more (its crossings are at least as far apart,
            // over a span shorter than k of the longest's), so every voxel touched, those
            // around an edge or corner crossed included, lies within k ≤ c − 1 of this one:
            // free. (From 3 on: a jump pays three divisions, a step of one voxel none.)
            let k = (c - 1).min(left[major]);
            let t = next[major] + 2 * p[major] * (k - 1);
            for i in 0..3 {
                if next[i] <= t {
                    let crossed = ((t - next[i]) / (2 * p[i]) + 1).min(left[i]);
                    at += crossed * step[i];
                    left[i] -= crossed;
                    next[i] = if left[i] == 0 {
                        i64::MAX
                    } else {
                        next[i] + 2 * p[i] * crossed
                    };
                }
            }
            continue;
        }
        let axes = (next[0] == best) as usize
            | ((next[1] == best) as usize) << 1
            | ((next[2] == best) as usize) << 2;
        // Every cell around the crossing: the current one moved along each non-empty subset
        // of the axes crossed (one axis: the next cell; two: three more around an edge; three:
        // seven around a corner).
        let mut sub = axes;
        while sub != 0 {
            if blocked_at((at + off[sub]) as usize) {
                return false;
            }
            sub = (sub - 1) & axes;
        }
        at += off[axes];
        for i in 0..3 {
            if axes >> i & 1 == 1 {
                left[i] -= 1;
                next[i] = if left[i] == 0 {
                    i64::MAX
                } else {
                    next[i] + 2 * p[i]
                };
            }
        }
    }
}

/// Walks the cell boundaries the segment between the centres of `a` and `b` crosses, in
/// order: `visit(None, step)` for the first cell, then `visit(Some(axes), step)` for each
/// crossing, `axes` a bit mask of the axes crossed together (ties cross at once). Stops early
/// when `visit` returns false; returns whether it never did.
///
/// Axis i's k-th boundary is crossed at t = (2k + 1) / (2 n_i). Over the common denominator
/// 2 · n_x · n_y · n_z that is (2k + 1) · P_i with P_i the product of the other axes' counts, so
/// each axis keeps its next crossing as one integer and adds 2 · P_i to it: no division, no
/// floating point, ties exact.
#[inline(always)]
fn segment_walk(
    a: [i64; 3],
    b: [i64; 3],
    mut visit: impl FnMut(Option<u32>, [i64; 3]) -> bool,
) -> bool {
    let d = [0, 1, 2].map(|i| b[i] - a[i]);
    let n = d.map(|v| v.abs());
    let step = d.map(|v| v.signum());
    if !visit(None, step) {
        return false;
    }
    // Axes that do not move count as 1 in the products.
    let m = n.map(|v| v.max(1));
    let p = [m[1] * m[2], m[0] * m[2], m[0] * m[1]];
    let mut next = p;
    let mut left = n;
    loop {
        let mut best = i64::MAX;
        let mut axes = 0u32;
        for i in 0..3 {
            if left[i] == 0 {
                continue;
            }
            if next[i] < best {
                best = next[i];
                axes = 1 << i;
            } else if next[i] == best {
                axes |= 1 << i;
            }
        }
        if axes == 0 {
            return true;
        }
        if !visit(Some(axes), step) {
            return false;
        }
        for i in 0..3 {
            if axes >> i & 1 == 1 {
                next[i] += 2 * p[i];
                left[i] -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle: sample the segment densely and also just beside it (both ways in every
    /// axis), so a segment grazing a corner or an edge sees the cells there.
    fn sampled(a: [i64; 3], b: [i64; 3], blocked: &impl Fn(i64, i64, i64) -> bool) -> bool {
        let (p, q) = (a.map(|v| v as f64 + 0.5), b.map(|v| v as f64 + 0.5));
        let steps = 10_000;
        // Dense samples, and every time the segment meets an integer plane (where it may pass
        // an edge or a corner exactly).
        let mut times: Vec<f64> = (0..=steps).map(|k| k as f64 / steps as f64).collect();
        for i in 0..3 {
            let (lo, hi) = (p[i].min(q[i]), p[i].max(q[i]));
            for k in lo.ceil() as i64..=hi.floor() as i64 {
                if q[i] != p[i] {
                    times.push((k as f64 - p[i]) / (q[i] - p[i]));
                }
            }
        }
        for t in times {
            let x = [0, 1, 2].map(|i| p[i] + (q[i] - p[i]) * t);
            for dx in [-1e-7, 0.0, 1e-7] {
                for dy in [-1e-7, 0.0, 1e-7] {
                    for dz in [-1e-7, 0.0, 1e-7] {
                        let c = [x[0] + dx, x[1] + dy, x[2] + dz].map(|v| v.floor() as i64);
                        if blocked(c[0], c[1], c[2]) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    #[test]
    fn a_diagonal_gap_is_blocked_and_a_clear_line_is_free() {
        // 2D: cells (1, 0) and (0, 1) blocked: the diagonal from (0, 0) to (1, 1) squeezes
        // between them, which the grid's move rule forbids.
        let gap = |x: i64, y: i64, _z: i64| (x, y) == (1, 0) || (x, y) == (0, 1);
        assert!(!segment_free([0, 0, 0], [1, 1, 0], gap));
        assert!(!segment_free([0, 0, 0], [3, 3, 0], gap));
        // One corner cell blocked is enough.
        let one = |x: i64, y: i64, _z: i64| (x, y) == (1, 0);
        assert!(!segment_free([0, 0, 0], [1, 1, 0], one));
        // A knight's move passes beside (1, 0)? No: (0,0)→(2,1) crosses x = 1 at y = 0.75,
        // inside cell (1, 0).
        assert!(!segment_free([0, 0, 0], [2, 1, 0], one));
        assert!(segment_free([0, 0, 0], [1, 2, 0], one));
        // 3D: a corner move needs all eight voxels of its box.
        let corner = |x: i64, y: i64, z: i64| (x, y, z) == (1, 1, 0);
        assert!(!segment_free([0, 0, 0], [1, 1, 1], corner));
        assert!(segment_free([0, 0, 0], [0, 0, 5], corner));
    }

    fn world(cells: &[bool], dims: [u32; 3]) -> crate::map::voxel::VoxelGrid {
        let mut g = crate::map::voxel::VoxelGrid::new(dims[0], dims[1], dims[2]).unwrap();
        for (i, _) in cells.iter().enumerate().filter(|c| *c.1) {
            let [x, y, z] = g.coords(i);
            g.set(x, y, z, true);
        }
        g
    }

    /// Sparse worlds, where most walks jump: the same answers as the walk voxel by voxel
    /// (itself held to the oracle above), and to the oracle on a sample.
    #[test]
    fn jumps_through_clear_space_give_the_same_answers() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        let dims = [41u32, 33, 27];
        let (mut free, mut checked) = (0, 0);
        for density in [0.0, 0.001, 0.004, 0.02, 0.08] {
            let n = dims.iter().product::<u32>() as usize;
            let cells: Vec<bool> = (0..n).map(|_| rng.random_bool(density)).collect();
            let clear = world(&cells, dims).clearance();
            let blocked = |x: i64, y: i64, z: i64| {
                let [w, h, _] = dims.map(|v| v as i64);
                cells[((z * h + y) * w + x) as usize]
            };
            for k in 0..2000 {
                let mut p = || dims.map(|v| rng.random_range(0..v as i64));
                let (a, b) = (p(), p());
                let want = segment_free_indexed(a, b, dims, |i| cells[i]);
                assert_eq!(
                    segment_free_cleared(a, b, dims, &clear),
                    want,
                    "{a:?} {b:?}"
                );
                if k % 100 == 0 {
                    assert_eq!(sampled(a, b, &blocked), want, "{a:?} {b:?}");
                }
                free += want as u32;
                checked += 1;
            }
        }
        // Both answers occur often (the test would say little otherwise).
        assert!(
            free > checked / 5 && free < checked * 4 / 5,
            "{free} of {checked} free"
        );
    }

    #[test]
    fn matches_dense_sampling_on_random_worlds() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut disagreements = 0;
        for round in 0..200 {
            let three = round % 2 == 1;
            let (w, h, d) = (9i64, 8i64, if three { 6i64 } else { 1 });
            let cells: Vec<bool> = (0..w * h * d).map(|_| rng.random_bool(0.12)).collect();
            let blocked = |x: i64, y: i64, z: i64| {
                !(0..w).contains(&x)
                    || !(0..h).contains(&y)
                    || !(0..d).contains(&z)
                    || cells[((z * h + y) * w + x) as usize]
            };
            let clear = world(&cells, [w as u32, h as u32, d as u32]).clearance();
            for _ in 0..10 {
                let mut p = || {
                    [
                        rng.random_range(0..w),
                        rng.random_range(0..h),
                        rng.random_range(0..d),
                    ]
                };
                let (a, b) = (p(), p());
                let want = sampled(a, b, &blocked);
                if segment_free(a, b, blocked) != want {
                    disagreements += 1;
                }
                // The same walk by index, as voxel worlds ask it.
                let dims = [w as u32, h as u32, d as u32];
                if segment_free_indexed(a, b, dims, |i| cells[i]) != want {
                    disagreements += 1;
                }
                // Either way along the segment (a search may ask from either end).
                if segment_free_indexed(b, a, dims, |i| cells[i]) != want {
                    disagreements += 1;
                }
                // Jumping through the clearance of the same world.
                if segment_free_cleared(a, b, dims, &clear) != want
                    || segment_free_cleared(b, a, dims, &clear) != want
                {
                    disagreements += 1;
                }
            }
        }
        assert_eq!(disagreements, 0);
    }
}

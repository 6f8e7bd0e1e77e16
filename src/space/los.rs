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
    let d = [0, 1, 2].map(|i| b[i] - a[i]);
    let n = d.map(|v| v.unsigned_abs() as i64);
    let step = d.map(|v| v.signum());
    // Boundaries crossed so far on each axis; the next one on axis i is crossed at
    // t = (2·k + 1) / (2·n[i]) for k = crossed[i].
    let mut crossed = [0i64; 3];
    let mut cell = a;
    if blocked(cell[0], cell[1], cell[2]) {
        return false;
    }
    loop {
        // The axes whose next crossing comes first (ties cross together).
        let mut next: Option<(i64, i64)> = None; // (numerator, denominator) of the earliest t
        let mut axes = [false; 3];
        for i in 0..3 {
            if crossed[i] >= n[i] {
                continue;
            }
            let t = (2 * crossed[i] + 1, 2 * n[i]);
            match next {
                None => {
                    next = Some(t);
                    axes = [false; 3];
                    axes[i] = true;
                }
                Some(best) => {
                    // t < best ⇔ t.0·best.1 < best.0·t.1 (denominators are positive).
                    let (l, r) = (t.0 * best.1, best.0 * t.1);
                    if l < r {
                        next = Some(t);
                        axes = [false; 3];
                        axes[i] = true;
                    } else if l == r {
                        axes[i] = true;
                    }
                }
            }
        }
        if next.is_none() {
            return true;
        }
        // Every cell around the crossing point: the current cell moved along any subset of
        // the crossing axes (one axis: the next cell; two: the four around an edge; three: the
        // eight around a corner).
        let moving: Vec<usize> = (0..3).filter(|&i| axes[i]).collect();
        for mask in 1..(1u32 << moving.len()) {
            let mut c = cell;
            for (k, &i) in moving.iter().enumerate() {
                if mask & (1 << k) != 0 {
                    c[i] += step[i];
                }
            }
            if blocked(c[0], c[1], c[2]) {
                return false;
            }
        }
        for &i in &moving {
            cell[i] += step[i];
            crossed[i] += 1;
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
            for _ in 0..10 {
                let mut p = || {
                    [
                        rng.random_range(0..w),
                        rng.random_range(0..h),
                        rng.random_range(0..d),
                    ]
                };
                let (a, b) = (p(), p());
                if segment_free(a, b, blocked) != sampled(a, b, &blocked) {
                    disagreements += 1;
                }
            }
        }
        assert_eq!(disagreements, 0);
    }
}

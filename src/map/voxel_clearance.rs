//! Each voxel's clearance: its Chebyshev distance to the nearest blocked voxel (0 for a blocked
//! voxel, at most [`CLEARANCE_CAP`]), so every voxel of the cube of radius `clearance - 1`
//! around it is free. A 3D line-of-sight walk crosses such a cube in one jump instead of voxel by
//! voxel.

use super::voxel::VoxelGrid;

/// The most a clearance says: a jump covers at most 31 voxels, and blocking a voxel changes
/// the table only within 31 voxels of it, so an edit updates a box around itself, not the world.
pub const CLEARANCE_CAP: u8 = 32;

impl VoxelGrid {
    /// The clearance of every voxel, in index order. Outside the box counts as free: a segment
    /// between two voxels never leaves the box their corners span.
    pub fn clearance(&self) -> Vec<u8> {
        let mut c = crate::huge_pages::filled_huge(self.len(), CLEARANCE_CAP);
        for i in self.blocked_indices() {
            c[i] = 0;
        }
        spread(&mut c, self.dims(), [0, 0, 0], self.dims());
        c
    }

    /// Brings a table made by [`VoxelGrid::clearance`] up to date after the voxels in the box
    /// from `lo` to `hi` (exclusive) were blocked or freed. A voxel blocked there lowers the
    /// table exactly as a new build would; a voxel freed leaves its neighbours' clearances as
    /// they were and takes 1 itself: too low, never too high, which only shortens jumps (a
    /// table never rises without a new build).
    /// Parts of the box outside the world are left out; `c` must be this world's table.
    pub fn update_clearance(&self, c: &mut [u8], lo: [u32; 3], hi: [u32; 3]) {
        assert_eq!(c.len(), self.len(), "a clearance table of another world");
        let dims = self.dims();
        let hi = [0, 1, 2].map(|i| hi[i].min(dims[i]));
        let lo = [0, 1, 2].map(|i| lo[i].min(hi[i]));
        self.mark_walls(c, lo, hi);
        let reach = CLEARANCE_CAP as u32 - 1;
        let lo = lo.map(|v| v.saturating_sub(reach));
        let hi = [0, 1, 2].map(|i| (hi[i] + reach).min(dims[i]));
        spread(c, dims, lo, hi);
    }

    /// Blocked voxels in the box to 0, free ones at 0 (freed since the table was made) to 1.
    fn mark_walls(&self, c: &mut [u8], lo: [u32; 3], hi: [u32; 3]) {
        let [w, h, _] = self.dims().map(|v| v as usize);
        for z in lo[2] as usize..hi[2] as usize {
            for y in lo[1] as usize..hi[1] as usize {
                let row = (z * h + y) * w;
                let span = row + lo[0] as usize..row + hi[0] as usize;
                for (i, v) in span.clone().zip(&mut c[span]) {
                    if self.blocked_at(i) {
                        *v = 0;
                    } else if *v == 0 {
                        *v = 1;
                    }
                }
            }
        }
    }
}

/// Lowers every voxel of the box from `lo` to `hi` (exclusive) to one more than its least
/// neighbour, inside the box. Two raster passes over the 26-neighbourhood (each voxel the least
/// of its neighbours already passed, plus one) give the Chebyshev distance exactly; each row's
/// neighbours in the rows before it are taken as one running minimum, which the compiler
/// vectorises.
fn spread(c: &mut [u8], dims: [u32; 3], lo: [u32; 3], hi: [u32; 3]) {
    let [w, h, _] = dims.map(|v| v as usize);
    let [x0, y0, z0] = lo.map(|v| v as usize);
    let [x1, y1, z1] = hi.map(|v| v as usize);
    let (ny, nz, nx) = (y1 - y0, z1 - z0, x1 - x0);
    if nx == 0 || ny == 0 || nz == 0 {
        return;
    }
    let at = |y: usize, z: usize| (z * h + y) * w + x0;
    // `acc`: the least of the rows passed before, voxel by voxel; `near`: that over x − 1, x
    // and x + 1 (at the ends of a row the voxel itself stands in for the one outside).
    let (mut acc, mut near) = (vec![0u8; nx], vec![0u8; nx]);
    for pass in 0..2 {
        for k in 0..ny * nz {
            // Forward: rows in index order, neighbours in the rows before (z − 1, and y − 1 in
            // the same layer). Backward: the mirror image.
            let k = if pass == 0 { k } else { ny * nz - 1 - k };
            let (y, z) = (y0 + k % ny, z0 + k / ny);
            let back = |v: usize, lo: usize, hi: usize| {
                if pass == 0 {
                    Some(v).filter(|&v| v > lo).map(|v| v - 1)
                } else {
                    Some(v + 1).filter(|&v| v < hi)
                }
            };
            let mut rows = [None; 4];
            if let Some(bz) = back(z, z0, z1) {
                rows[0] = Some(y).filter(|&y| y > y0).map(|y| at(y - 1, bz));
                rows[1] = Some(at(y, bz));
                rows[2] = Some(y + 1).filter(|&y| y < y1).map(|y| at(y, bz));
            }
            rows[3] = back(y, y0, y1).map(|by| at(by, z));
            acc.fill(CLEARANCE_CAP);
            for start in rows.into_iter().flatten() {
                for (a, &v) in acc.iter_mut().zip(&c[start..start + nx]) {
                    *a = (*a).min(v);
                }
            }
            near.copy_from_slice(&acc);
            for (n, &v) in near[..nx - 1].iter_mut().zip(&acc[1..]) {
                *n = (*n).min(v);
            }
            for (n, &v) in near[1..].iter_mut().zip(&acc[..nx - 1]) {
                *n = (*n).min(v);
            }
            // (No value exceeds the cap, so adding one never wraps.)
            let cur = &mut c[at(y, z)..at(y, z) + nx];
            for (v, n) in cur.iter_mut().zip(&near) {
                *v = (*v).min(n + 1);
            }
            // The neighbour in the same row, passed just before: a running minimum, carried
            // in a register (read back from memory, each voxel waited on the store before it).
            let mut run = CLEARANCE_CAP;
            let mut carry = |v: &mut u8| {
                run = (*v).min(run + 1);
                *v = run;
            };
            if pass == 0 {
                cur.iter_mut().for_each(&mut carry);
            } else {
                cur.iter_mut().rev().for_each(&mut carry);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn equals_the_distance_to_the_nearest_blocked_voxel() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for round in 0..20 {
            let dims = [
                rng.random_range(1..12u32),
                rng.random_range(1..10u32),
                rng.random_range(1..9u32),
            ];
            let mut g = VoxelGrid::new(dims[0], dims[1], dims[2]).unwrap();
            let density = [0.0, 0.002, 0.05, 0.3][round % 4];
            let mut walls = vec![];
            for z in 0..dims[2] {
                for y in 0..dims[1] {
                    for x in 0..dims[0] {
                        if rng.random_bool(density) {
                            g.set(x, y, z, true);
                            walls.push([x as i64, y as i64, z as i64]);
                        }
                    }
                }
            }
            let c = g.clearance();
            for (i, &got) in c.iter().enumerate() {
                let p = g.coords(i).map(|v| v as i64);
                let want = walls
                    .iter()
                    .map(|q| (0..3).map(|k| (p[k] - q[k]).abs()).max().unwrap())
                    .min()
                    .map_or(CLEARANCE_CAP, |v| v.min(CLEARANCE_CAP as i64) as u8);
                assert_eq!(got, want, "voxel {p:?} of {dims:?}");
            }
        }
    }

    /// Blocking voxels and updating gives the new world's table to the voxel; freeing some
    /// leaves every clearance at most the truth, and the freed voxels free.
    #[test]
    fn an_update_after_an_edit_is_exact_for_walls_and_never_too_high_for_gaps() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
        let dims = [70u32, 45, 40];
        let mut g = VoxelGrid::new(dims[0], dims[1], dims[2]).unwrap();
        for _ in 0..60 {
            g.set(
                rng.random_range(0..dims[0]),
                rng.random_range(0..dims[1]),
                rng.random_range(0..dims[2]),
                true,
            );
        }
        let mut c = g.clearance();
        for round in 0..12 {
            let free = round % 3 == 2;
            let lo = dims.map(|d| rng.random_range(0..d));
            let hi = [0, 1, 2].map(|i| (lo[i] + rng.random_range(1..4)).min(dims[i]));
            for z in lo[2]..hi[2] {
                for y in lo[1]..hi[1] {
                    for x in lo[0]..hi[0] {
                        if free {
                            g.set(x, y, z, false);
                        } else if rng.random_bool(0.5) {
                            g.set(x, y, z, true);
                        }
                    }
                }
            }
            g.update_clearance(&mut c, lo, hi);
            // A box reaching past the world, or lying wholly outside it, changes nothing more.
            g.update_clearance(&mut c, hi, [u32::MAX; 3]);
            g.update_clearance(&mut c, dims.map(|d| d + 5), dims.map(|d| d + 9));
            let fresh = g.clearance();
            let too_high = c.iter().zip(&fresh).filter(|(a, b)| a > b).count();
            assert_eq!(too_high, 0, "round {round}");
            for (i, (&a, &b)) in c.iter().zip(&fresh).enumerate() {
                assert_eq!(a == 0, b == 0, "voxel {i}: blocked in one table only");
            }
            if round < 2 {
                // No voxel freed yet: exact.
                assert_eq!(c, fresh, "round {round}");
            }
        }
    }
}

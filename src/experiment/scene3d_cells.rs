//! Which cells of the moving 3D scene an obstacle blocks where it stands: the cell test
//! ([`touches`]) and the stamp that applies it over the obstacle's extent.

use super::scene3d::{Pose, DIMS};
use crate::map::voxel::VoxelGrid;

/// Whether pose `p` touches cell `c` (the unit cube at c). Along the turn's axis, plain
/// interval overlap; in the plane across it, the cell's square against the rotated rectangle
/// by separating axes (two of each). Touching counts as blocked, but a shared face exactly
/// does not.
pub fn touches(p: &Pose, c: [i64; 3]) -> bool {
    Footprint::of(p).touches(c)
}

/// [`touches`] with what depends on the pose alone worked out once: the angle's cosine and
/// sine and each separating axis's two radii, the same expressions in the same order, so the
/// same answer for every cell.
struct Footprint {
    axis: usize,
    u: usize,
    v: usize,
    /// Along the turn's axis, the box's ends.
    ends: [f32; 2],
    centre: [f32; 2],
    axes: [[f32; 2]; 4],
    /// Per separating axis, the square's radius plus the rectangle's, less the tolerance.
    reach: [f32; 4],
}

impl Footprint {
    fn of(p: &Pose) -> Footprint {
        let (axis, u, v) = if p.about_z { (2, 0, 1) } else { (0, 1, 2) };
        let (cs, sn) = (p.angle.cos(), p.angle.sin());
        let axes = [[1.0, 0.0], [0.0, 1.0], [cs, sn], [-sn, cs]];
        let (e0, e1) = (p.half[u], p.half[v]);
        let r_axes = [[cs, sn], [-sn, cs]];
        let reach = axes.map(|ax| {
            let rs = 0.5 * (ax[0].abs() + ax[1].abs());
            let rr = e0 * (r_axes[0][0] * ax[0] + r_axes[0][1] * ax[1]).abs()
                + e1 * (r_axes[1][0] * ax[0] + r_axes[1][1] * ax[1]).abs();
            rs + rr - 1e-6
        });
        Footprint {
            axis,
            u,
            v,
            ends: [p.centre[axis] - p.half[axis], p.centre[axis] + p.half[axis]],
            centre: [p.centre[u], p.centre[v]],
            axes,
            reach,
        }
    }

    #[inline(always)]
    fn touches(&self, c: [i64; 3]) -> bool {
        let lo = c.map(|v| v as f32);
        if lo[self.axis] + 1.0 <= self.ends[0] || lo[self.axis] >= self.ends[1] {
            return false;
        }
        let sq = [
            lo[self.u] + 0.5 - self.centre[0],
            lo[self.v] + 0.5 - self.centre[1],
        ];
        self.axes
            .iter()
            .zip(&self.reach)
            .all(|(ax, &reach)| (sq[0] * ax[0] + sq[1] * ax[1]).abs() < reach)
    }
}

/// Blocks every cell pose `p` touches. The cells tried are those of the box around the pose's
/// sphere (what [`touches`] was first asked about), cut to the rectangle's extent across the
/// turn's axis and the box's along it, with a cell to spare each way: a cell beyond is half a
/// cell or more clear of the obstacle on one of the first two separating axes. The moving
/// scene stamps every obstacle at every tick, and this was four fifths of flying it.
pub(super) fn stamp(p: &Pose, out: &mut VoxelGrid) {
    let r = (p.half[0].powi(2) + p.half[1].powi(2) + p.half[2].powi(2)).sqrt();
    let f = Footprint::of(p);
    // Half the obstacle's extent along each grid axis.
    let (cs, sn) = (p.angle.cos().abs(), p.angle.sin().abs());
    let mut ext = p.half;
    ext[f.u] = p.half[f.u] * cs + p.half[f.v] * sn;
    ext[f.v] = p.half[f.u] * sn + p.half[f.v] * cs;
    let lo = [0, 1, 2].map(|i| {
        let sphere = (p.centre[i] - r).floor().max(0.0) as i64;
        sphere.max((p.centre[i] - ext[i]).floor() as i64 - 1)
    });
    let hi = [0, 1, 2].map(|i| {
        let sphere = ((p.centre[i] + r).ceil() as i64).min(DIMS[i] as i64 - 1);
        sphere.min((p.centre[i] + ext[i]).ceil() as i64 + 1)
    });
    for z in lo[2]..=hi[2] {
        for y in lo[1]..=hi[1] {
            for x in lo[0]..=hi[0] {
                if f.touches([x, y, z]) {
                    out.set(x as u32, y as u32, z as u32, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle: points on a fine lattice inside the obstacle, rotated into place.
    fn sampled(p: &Pose, c: [i64; 3]) -> bool {
        let (axis, u, v) = if p.about_z { (2, 0, 1) } else { (0, 1, 2) };
        let (cs, sn) = (p.angle.cos(), p.angle.sin());
        let n = 24;
        for i in 0..=n {
            for j in 0..=n {
                for k in 0..=n {
                    let f = |m: usize| (m as f32 / n as f32) * 2.0 - 1.0;
                    let local = [f(i) * p.half[0], f(j) * p.half[1], f(k) * p.half[2]];
                    let (a, b) = (local[u], local[v]);
                    let mut w = [0.0; 3];
                    w[axis] = p.centre[axis] + local[axis];
                    w[u] = p.centre[u] + a * cs - b * sn;
                    w[v] = p.centre[v] + a * sn + b * cs;
                    if (0..3).all(|q| w[q] > c[q] as f32 + 1e-3 && w[q] < c[q] as f32 + 1.0 - 1e-3)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    #[test]
    fn stamping_blocks_what_touching_says_in_the_whole_box_round_the_pose() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut blocked = 0;
        for k in 0..2000 {
            let p = Pose {
                centre: [0, 1, 2].map(|i| rng.random_range(-2.0..DIMS[i] as f32 + 2.0)),
                half: [0; 3].map(|_| rng.random_range(0.05..6.0)),
                // Quarter turns, where the box is tightest, and any angle.
                angle: if k % 4 == 0 {
                    rng.random_range(-4..5) as f32 * std::f32::consts::FRAC_PI_2
                } else {
                    rng.random_range(-7.0..7.0)
                },
                about_z: rng.random(),
            };
            let mut got = VoxelGrid::new(DIMS[0], DIMS[1], DIMS[2]).unwrap();
            stamp(&p, &mut got);
            let r = (p.half[0].powi(2) + p.half[1].powi(2) + p.half[2].powi(2)).sqrt();
            for z in 0..DIMS[2] {
                for y in 0..DIMS[1] {
                    for x in 0..DIMS[0] {
                        let c = [x as i64, y as i64, z as i64];
                        // The box round the pose's sphere, as stamping first tried it.
                        let boxed = (0..3).all(|i| {
                            c[i] >= (p.centre[i] - r).floor() as i64
                                && c[i] <= (p.centre[i] + r).ceil() as i64
                        });
                        let want = boxed && touches(&p, c);
                        assert_eq!(got.is_blocked(c[0], c[1], c[2]), want, "{p:?} {c:?}");
                        blocked += want as usize;
                    }
                }
            }
        }
        assert!(blocked > 10_000, "{blocked}");
    }

    #[test]
    fn a_turning_bar_blocks_the_cells_it_covers() {
        for (about_z, deg) in [(true, 0.0), (true, 30.0), (true, 45.0), (false, 60.0)] {
            let p = Pose {
                centre: [10.0, 10.0, 8.0],
                half: if about_z {
                    [4.0, 0.5, 0.5]
                } else {
                    [0.5, 4.0, 0.5]
                },
                angle: f32::to_radians(deg),
                about_z,
            };
            for z in 3..13 {
                for y in 4..16 {
                    for x in 4..16 {
                        let c = [x, y, z];
                        // Every cell with a sampled point strictly inside is blocked.
                        if sampled(&p, c) {
                            assert!(touches(&p, c), "{c:?} at {deg}°");
                        }
                    }
                }
            }
        }
    }
}

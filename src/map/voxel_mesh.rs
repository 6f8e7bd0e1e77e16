//! Geometry of voxel sets for the 3D view, computed on the CPU so it is testable without a GPU:
//! the exposed faces of a set merged into rectangles, and the voxel a ray meets first.
//!
//! Only voxels of the set are visited (not the box): the Warframe maps block 0.1–2% of their
//! voxels, and a search's closed set is a fraction of the box too.

use super::voxel::VoxelGrid;

/// A rectangle of exposed voxel faces in one plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Face {
    /// 0..6: −x, +x, −y, +y, −z, +z: the side of the voxels the face is on.
    pub dir: u8,
    /// The voxels' coordinate along the face's axis.
    pub layer: u32,
    /// Rows `[v0, v1)` and columns `[u0, u1)` of the plane; u and v are the other two axes in
    /// order (x: y, z; y: x, z; z: x, y).
    pub v: (u32, u32),
    pub u: (u32, u32),
}

impl Face {
    /// The axis the face is perpendicular to (0 x, 1 y, 2 z).
    pub fn axis(&self) -> usize {
        self.dir as usize / 2
    }

    /// The four corners in voxel units (a voxel spans [x, x + 1]), counter-clockwise seen
    /// from outside the set.
    pub fn corners(&self) -> [[f32; 3]; 4] {
        let a = self.axis();
        let (ua, va) = other_axes(a);
        let plane = self.layer as f32 + if self.dir % 2 == 1 { 1.0 } else { 0.0 };
        let at = |u: u32, v: u32| {
            let mut p = [0.0; 3];
            p[a] = plane;
            p[ua] = u as f32;
            p[va] = v as f32;
            p
        };
        let c = [
            at(self.u.0, self.v.0),
            at(self.u.1, self.v.0),
            at(self.u.1, self.v.1),
            at(self.u.0, self.v.1),
        ];
        // (u, v, axis) is right-handed for x and z and left-handed for y: flip where the
        // winding would face inwards.
        let positive = self.dir % 2 == 1;
        if positive != (a == 1) {
            c
        } else {
            [c[0], c[3], c[2], c[1]]
        }
    }
}

/// The two axes spanning a face perpendicular to `axis`, in order.
fn other_axes(axis: usize) -> (usize, usize) {
    match axis {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    }
}

/// Exposed faces of a set of voxels, merged into rectangles: `voxels` lists the set (each
/// once), `inside` says whether a voxel (which may be outside the box) is in it.
pub fn faces(
    voxels: impl Iterator<Item = [u32; 3]>,
    inside: impl Fn(i64, i64, i64) -> bool,
) -> Vec<Face> {
    let mut unit = vec![];
    for p in voxels {
        let [x, y, z] = p.map(|c| c as i64);
        for dir in 0..6u8 {
            let a = dir as usize / 2;
            let s = if dir % 2 == 1 { 1 } else { -1 };
            let mut q = [x, y, z];
            q[a] += s;
            if !inside(q[0], q[1], q[2]) {
                let (ua, va) = other_axes(a);
                unit.push(Face {
                    dir,
                    layer: p[a],
                    v: (p[va], p[va] + 1),
                    u: (p[ua], p[ua] + 1),
                });
            }
        }
    }
    merge(unit)
}

/// Merges unit faces into rectangles: runs along u first, then equal runs on consecutive
/// rows of v (a greedy mesh; not minimal, and a plane of walls shrinks 10–100×).
pub fn merge(mut unit: Vec<Face>) -> Vec<Face> {
    // Sorted by plane, then row, then column.
    unit.sort_unstable();
    let mut runs: Vec<Face> = Vec::with_capacity(unit.len() / 2);
    for f in unit {
        match runs.last_mut() {
            Some(r) if (r.dir, r.layer, r.v) == (f.dir, f.layer, f.v) && r.u.1 == f.u.0 => {
                r.u.1 = f.u.1
            }
            _ => runs.push(f),
        }
    }
    // Runs of one plane are in row order: a run extends the rectangle that ended on the row
    // above with the same columns.
    let mut out: Vec<Face> = Vec::with_capacity(runs.len());
    let mut open: std::collections::HashMap<(u8, u32, u32, u32, u32), usize> = Default::default();
    for r in runs {
        let key = (r.dir, r.layer, r.u.0, r.u.1, r.v.0);
        match open.remove(&key) {
            Some(i) => {
                out[i].v.1 = r.v.1;
                open.insert((r.dir, r.layer, r.u.0, r.u.1, r.v.1), i);
            }
            None => {
                open.insert((r.dir, r.layer, r.u.0, r.u.1, r.v.1), out.len());
                out.push(r);
            }
        }
    }
    out
}

/// Exposed faces of the blocked voxels whose z lies in `layers` (inclusive): the obstacles
/// with everything above and below the range cut away.
pub fn obstacle_faces(v: &VoxelGrid, layers: (u32, u32)) -> Vec<Face> {
    let (lo, hi) = layers;
    let in_range = |z: i64| z >= lo as i64 && z <= hi as i64;
    faces(
        v.blocked_voxels().filter(|p| in_range(p[2] as i64)),
        |x, y, z| in_range(z) && v.index(x, y, z).is_some() && v.is_blocked(x, y, z),
    )
}

/// The first voxel along the ray `origin + t · dir` (t ≥ 0, voxel units) for which `hit`
/// holds, and the voxel the ray was in just before it (None when it started there): a 3D
/// DDA through the box (Amanatides & Woo), at most one step per voxel crossed.
pub type RayHit = ([u32; 3], Option<[u32; 3]>);

pub fn cast(
    dims: [u32; 3],
    origin: [f32; 3],
    dir: [f32; 3],
    hit: impl Fn([u32; 3]) -> bool,
) -> Option<RayHit> {
    let (o, d) = (origin.map(|c| c as f64), dir.map(|c| c as f64));
    // Enter the box: the slab test gives the t range inside.
    let (mut t0, mut t1) = (0.0f64, f64::INFINITY);
    for a in 0..3 {
        let size = dims[a] as f64;
        if d[a].abs() < 1e-12 {
            if o[a] < 0.0 || o[a] >= size {
                return None;
            }
        } else {
            let (ta, tb) = ((0.0 - o[a]) / d[a], (size - o[a]) / d[a]);
            t0 = t0.max(ta.min(tb));
            t1 = t1.min(ta.max(tb));
        }
    }
    if t0 > t1 {
        return None;
    }
    let start = [0, 1, 2].map(|a| o[a] + d[a] * (t0 + 1e-9));
    let mut cell = [0, 1, 2].map(|a| (start[a].floor() as i64).clamp(0, dims[a] as i64 - 1));
    let step = d.map(|c| if c > 0.0 { 1i64 } else { -1 });
    let mut next = [0, 1, 2].map(|a| {
        if d[a].abs() < 1e-12 {
            f64::INFINITY
        } else {
            let edge = cell[a] as f64 + if d[a] > 0.0 { 1.0 } else { 0.0 };
            t0 + (edge - start[a]) / d[a]
        }
    });
    let delta = d.map(|c| {
        if c.abs() < 1e-12 {
            f64::INFINITY
        } else {
            1.0 / c.abs()
        }
    });
    let mut before = None;
    loop {
        let v = cell.map(|c| c as u32);
        if hit(v) {
            return Some((v, before));
        }
        before = Some(v);
        let a = (0..3)
            .min_by(|&i, &j| next[i].total_cmp(&next[j]))
            .expect("three axes");
        if next[a] > t1 {
            return None;
        }
        cell[a] += step[a];
        if cell[a] < 0 || cell[a] >= dims[a] as i64 {
            return None;
        }
        next[a] += delta[a];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Total area of the faces in unit squares.
    fn area(f: &[Face]) -> u32 {
        f.iter().map(|f| (f.u.1 - f.u.0) * (f.v.1 - f.v.0)).sum()
    }

    #[test]
    fn a_box_has_six_rectangles_of_its_surface_area() {
        let mut v = VoxelGrid::new(10, 10, 10).unwrap();
        for z in 2..5 {
            for y in 1..5 {
                for x in 3..8 {
                    v.set(x, y, z, true);
                }
            }
        }
        let f = obstacle_faces(&v, (0, 9));
        assert_eq!(f.len(), 6, "{f:?}");
        assert_eq!(area(&f), 2 * (5 * 4 + 5 * 3 + 4 * 3));
        // Cutting at z ≤ 3 leaves a 5 × 4 × 2 box.
        let f = obstacle_faces(&v, (0, 3));
        assert_eq!(area(&f), 2 * (5 * 4 + 5 * 2 + 4 * 2));
    }

    #[test]
    fn merging_keeps_every_unit_face_exactly_once() {
        // Random sets: the merged rectangles cover exactly the unit faces.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..50 {
            let mut v = VoxelGrid::new(6, 5, 4).unwrap();
            for i in 0..v.len() {
                if rng.random_bool(0.4) {
                    let [x, y, z] = v.coords(i);
                    v.set(x, y, z, true);
                }
            }
            let merged = obstacle_faces(&v, (0, 3));
            let mut cover = vec![];
            for f in &merged {
                for vv in f.v.0..f.v.1 {
                    for u in f.u.0..f.u.1 {
                        cover.push((f.dir, f.layer, vv, u));
                    }
                }
            }
            cover.sort_unstable();
            let n = cover.len();
            cover.dedup();
            assert_eq!(cover.len(), n, "no unit face twice");
            let mut unit = 0;
            for p in v.blocked_voxels() {
                for dir in 0..6 {
                    let a = dir / 2;
                    let mut q = p.map(|c| c as i64);
                    q[a] += if dir % 2 == 1 { 1 } else { -1 };
                    if !v.is_blocked(q[0], q[1], q[2]) || v.index(q[0], q[1], q[2]).is_none() {
                        unit += 1;
                    }
                }
            }
            assert_eq!(n, unit);
        }
    }

    #[test]
    fn corners_wind_outwards() {
        // Each face's normal by the right-hand rule points away from its voxel.
        for dir in 0..6u8 {
            let f = Face {
                dir,
                layer: 5,
                v: (5, 6),
                u: (5, 6),
            };
            let c = f.corners();
            let (a, b) = (
                [0, 1, 2].map(|i| c[1][i] - c[0][i]),
                [0, 1, 2].map(|i| c[2][i] - c[0][i]),
            );
            let n = [
                a[1] * b[2] - a[2] * b[1],
                a[2] * b[0] - a[0] * b[2],
                a[0] * b[1] - a[1] * b[0],
            ];
            let axis = f.axis();
            let sign = if dir % 2 == 1 { 1.0 } else { -1.0 };
            assert!(n[axis] * sign > 0.0, "dir {dir}: {n:?}");
        }
    }

    #[test]
    fn the_ray_meets_the_first_blocked_voxel() {
        let mut v = VoxelGrid::new(8, 8, 8).unwrap();
        v.set(5, 3, 2, true);
        v.set(6, 3, 2, true);
        let blocked = |p: [u32; 3]| v.is_blocked(p[0] as i64, p[1] as i64, p[2] as i64);
        // Along +x through the row y = 3, z = 2 from outside the box.
        let (h, before) = cast(v.dims(), [-3.0, 3.5, 2.5], [1.0, 0.0, 0.0], blocked).unwrap();
        assert_eq!(h, [5, 3, 2]);
        assert_eq!(before, Some([4, 3, 2]));
        // From above, straight down onto (6, 3).
        let (h, _) = cast(v.dims(), [6.5, 3.5, 20.0], [0.0, 0.0, -1.0], blocked).unwrap();
        assert_eq!(h, [6, 3, 2]);
        // A diagonal that misses.
        assert!(cast(v.dims(), [0.5, 0.5, 0.5], [1.0, 1.0, 1.0], blocked).is_none());
        // Pointing away from the box.
        assert!(cast(v.dims(), [-1.0, 3.5, 2.5], [-1.0, 0.0, 0.0], blocked).is_none());
    }
}

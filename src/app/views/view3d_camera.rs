//! The 3D view's camera: an orbit about a target (yaw, pitch, distance), fitted to a box,
//! zoomed towards the pointer, and the ray under a screen point for picking voxels.

use super::view3d::View3d;
use crate::app::view3d_mesh;
use eframe::egui;

impl View3d {
    /// The timeline position (event cursor) whose search sets the view draws.
    pub fn shown_cursor(&self) -> Option<usize> {
        self.search.key.map(|k| k.1)
    }

    /// Triangles drawn for the search sets and for the markers (path, start, goal, …).
    pub fn triangles(&self) -> (usize, usize) {
        (
            self.search.tris.indices.len() / 3,
            self.markers.indices.len() / 3,
        )
    }

    /// Where the camera is, in world units.
    pub fn eye(&self) -> [f32; 3] {
        let (cp, sp) = (self.pitch.cos(), self.pitch.sin());
        [
            self.target[0] + self.dist * cp * self.yaw.cos(),
            self.target[1] + self.dist * cp * self.yaw.sin(),
            self.target[2] + self.dist * sp,
        ]
    }

    /// Looks at the box `lo..hi` (voxel units) from the current direction; `aspect` is the
    /// view's width over its height.
    pub fn fit(&mut self, lo: [f32; 3], hi: [f32; 3], aspect: f32) {
        let c = [0, 1, 2].map(|i| (lo[i] + hi[i]) / 2.0);
        self.target = view3d_mesh::world(c);
        // The box's eight corners inside the view, with a 4% margin: a bounding sphere left
        // a flat world a third of the pane.
        self.dist = 1.0;
        let (f, right, up) = self.frame();
        let (tan_y, tan_x) = {
            let t = (self.fov_y / 2.0).tan();
            (t, t * aspect.max(0.05))
        };
        let mut dist: f32 = 4.0;
        for k in 0..8 {
            let corner = [0, 1, 2].map(|i| if k >> i & 1 == 1 { hi[i] } else { lo[i] });
            let d = sub(view3d_mesh::world(corner), self.target);
            let dot = |a: [f32; 3]| a[0] * d[0] + a[1] * d[1] + a[2] * d[2];
            let (x, y, z) = (dot(right), dot(up), dot(f));
            // Its depth from the eye is dist + z: it fits when |x| ≤ depth · tan_x, and so on.
            dist = dist.max(x.abs() / tan_x - z).max(y.abs() / tan_y - z);
        }
        self.dist = dist * 1.04;
    }

    /// The camera's forward, right and up unit vectors (world units).
    fn frame(&self) -> ([f32; 3], [f32; 3], [f32; 3]) {
        let f = norm(sub(self.target, self.eye()));
        let right = norm(cross(f, [0.0, 0.0, 1.0]));
        let up = cross(right, f);
        (f, right, up)
    }

    /// Zooms by `factor` towards the point under `at` of `rect` (as a map zooms to the
    /// pointer): that point stays where it is on the screen.
    pub fn zoom_at(&mut self, rect: egui::Rect, at: egui::Pos2, factor: f32) {
        let new = (self.dist * factor).clamp(2.0, 1e5);
        let (_, right, up) = self.frame();
        let nx = 2.0 * (at.x - rect.left()) / rect.width().max(1.0) - 1.0;
        let ny = 1.0 - 2.0 * (at.y - rect.top()) / rect.height().max(1.0);
        let t = (self.fov_y / 2.0).tan();
        let aspect = rect.width() / rect.height().max(1.0);
        // The point's offset from the target, on the plane through the target facing the
        // camera; it scales with the distance, so the target moves by the difference.
        let o = [0, 1, 2].map(|i| (nx * t * aspect * right[i] + ny * t * up[i]) * self.dist);
        let keep = 1.0 - new / self.dist;
        for (i, oi) in o.iter().enumerate() {
            self.target[i] += oi * keep;
        }
        self.dist = new;
    }

    /// The ray under the point `at` of `rect`, in voxel coordinates: origin and direction.
    pub fn ray(&self, rect: egui::Rect, at: egui::Pos2) -> ([f32; 3], [f32; 3]) {
        let eye = self.eye();
        let f = norm(sub(self.target, eye));
        let right = norm(cross(f, [0.0, 0.0, 1.0]));
        let up = cross(right, f);
        let nx = 2.0 * (at.x - rect.left()) / rect.width() - 1.0;
        let ny = 1.0 - 2.0 * (at.y - rect.top()) / rect.height();
        let t = (self.fov_y / 2.0).tan();
        let aspect = rect.width() / rect.height();
        let d = [0, 1, 2].map(|i| f[i] + nx * t * aspect * right[i] + ny * t * up[i]);
        // Back from world to voxel coordinates (y mirrored).
        ([eye[0], -eye[1], eye[2]], [d[0], -d[1], d[2]])
    }
}

pub(super) fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(super) fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(super) fn norm(a: [f32; 3]) -> [f32; 3] {
    let n = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt().max(1e-9);
    a.map(|c| c / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the pixel `at` of `rect` meets the plane through the target facing the camera.
    fn under(v: &View3d, rect: egui::Rect, at: egui::Pos2) -> [f32; 3] {
        let (_, right, up) = v.frame();
        let nx = 2.0 * (at.x - rect.left()) / rect.width() - 1.0;
        let ny = 1.0 - 2.0 * (at.y - rect.top()) / rect.height();
        let t = (v.fov_y / 2.0).tan();
        let aspect = rect.width() / rect.height();
        [0, 1, 2].map(|i| v.target[i] + (nx * t * aspect * right[i] + ny * t * up[i]) * v.dist)
    }

    #[test]
    fn the_wheel_zooms_towards_the_pointer() {
        let mut v = View3d::default();
        v.fit([0.0; 3], [40.0, 30.0, 20.0], 1.5);
        let rect = egui::Rect::from_min_size(egui::pos2(10.0, 20.0), egui::vec2(300.0, 200.0));
        let at = egui::pos2(250.0, 60.0);
        let before = under(&v, rect, at);
        let dist = v.dist;
        v.zoom_at(rect, at, 0.5);
        let after = under(&v, rect, at);
        assert!((v.dist - dist * 0.5).abs() < 1e-3);
        for i in 0..3 {
            assert!((before[i] - after[i]).abs() < 1e-3, "{before:?} {after:?}");
        }
    }

    #[test]
    fn fit_fills_the_view_with_the_box() {
        for (aspect, yaw, pitch) in [(1.5, 0.7, 0.5), (0.6, 2.0, 0.3), (1.0, -1.0, 1.2)] {
            let mut v = View3d::default();
            (v.yaw, v.pitch) = (yaw, pitch);
            let (lo, hi) = ([0.0, 0.0, 0.0], [246.0, 154.0, 20.0]);
            v.fit(lo, hi, aspect);
            let (f, right, up) = v.frame();
            let eye = v.eye();
            let t = (v.fov_y / 2.0).tan();
            let mut widest: f32 = 0.0;
            for k in 0..8 {
                let c = [0, 1, 2].map(|i| if k >> i & 1 == 1 { hi[i] } else { lo[i] });
                let d = sub(view3d_mesh::world(c), eye);
                let dot = |a: [f32; 3]| a[0] * d[0] + a[1] * d[1] + a[2] * d[2];
                let (x, y, z) = (dot(right) / (t * aspect), dot(up) / t, dot(f));
                assert!(z > 0.0 && x.abs() <= z * 1.0001 && y.abs() <= z * 1.0001);
                widest = widest.max(x.abs() / z).max(y.abs() / z);
            }
            // Some corner reaches the frame's edge (within the margin).
            assert!(widest > 0.9, "the box fills {widest} of the view");
        }
    }
}

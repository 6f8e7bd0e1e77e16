//! What the 3D view draws, as coloured triangles built on the CPU: obstacle faces, the closed
//! and open sets at the timeline cursor, the path, start and goal, the node being expanded and
//! the frame of the layer the 2D editor shows. Lighting is baked per face (the faces are axis
//! aligned, so six shades do it), and the GPU draws unlit colours: cheap under software
//! rendering.

use crate::app::palette;
use crate::map::voxel::VoxelGrid;
use crate::map::voxel_mesh::{self, Face};
use crate::trace::{NodeState, NodeStates};
use eframe::egui::Color32;

/// Triangles with a colour per vertex, in world units: voxel (x, y, z) spans x..x+1,
/// −y−1..−y, z..z+1 (y is mirrored so that, seen from above, the 3D view matches the 2D one).
#[derive(Clone, Debug, Default)]
pub struct Tris {
    pub positions: Vec<[f32; 3]>,
    pub colors: Vec<[u8; 4]>,
    pub indices: Vec<u32>,
}

/// Voxel coordinates to world coordinates.
pub fn world(p: [f32; 3]) -> [f32; 3] {
    [p[0], -p[1], p[2]]
}

/// Shade of a face by its direction: light from above and a little from −x, +y.
fn shade(dir: u8) -> f32 {
    [0.78, 0.62, 0.70, 0.88, 0.50, 1.0][dir as usize]
}

fn lit(c: Color32, s: f32) -> [u8; 4] {
    let f = |v: u8| (v as f32 * s).round().clamp(0.0, 255.0) as u8;
    [f(c.r()), f(c.g()), f(c.b()), 255]
}

impl Tris {
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// A quad from four corners (voxel units), counter-clockwise from outside.
    fn quad(&mut self, c: [[f32; 3]; 4], color: [u8; 4]) {
        let base = self.positions.len() as u32;
        for p in c {
            self.positions.push(world(p));
            self.colors.push(color);
        }
        // The mirror of y turns the winding; both windings are drawn (no culling), so only
        // the order of the two triangles matters, not their facing.
        self.indices
            .extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
    }

    /// Merged faces of a voxel set in `color`, each shaded by its direction. `inset` shrinks
    /// them towards their voxels (search sets sit just inside the obstacles' faces).
    pub fn faces(&mut self, faces: &[Face], color: Color32, inset: f32) {
        for f in faces {
            let mut c = f.corners();
            if inset != 0.0 {
                let a = f.axis();
                let s = if f.dir % 2 == 1 { -inset } else { inset };
                for p in &mut c {
                    p[a] += s;
                }
            }
            self.quad(c, lit(color, shade(f.dir)));
        }
    }

    /// An axis-aligned box from `lo` to `hi` (voxel units).
    pub fn cuboid(&mut self, lo: [f32; 3], hi: [f32; 3], color: Color32) {
        let p = |x: bool, y: bool, z: bool| {
            [
                if x { hi[0] } else { lo[0] },
                if y { hi[1] } else { lo[1] },
                if z { hi[2] } else { lo[2] },
            ]
        };
        let (f, t) = (false, true);
        let sides: [([[f32; 3]; 4], u8); 6] = [
            ([p(f, f, f), p(f, f, t), p(f, t, t), p(f, t, f)], 0),
            ([p(t, f, f), p(t, t, f), p(t, t, t), p(t, f, t)], 1),
            ([p(f, f, f), p(t, f, f), p(t, f, t), p(f, f, t)], 2),
            ([p(f, t, f), p(f, t, t), p(t, t, t), p(t, t, f)], 3),
            ([p(f, f, f), p(f, t, f), p(t, t, f), p(t, f, f)], 4),
            ([p(f, f, t), p(t, f, t), p(t, t, t), p(f, t, t)], 5),
        ];
        for (c, dir) in sides {
            self.quad(c, lit(color, shade(dir)));
        }
    }

    /// A cube of side `side` around the centre of voxel `v`.
    pub fn cube_at(&mut self, v: [u32; 3], side: f32, color: Color32) {
        let c = v.map(|c| c as f32 + 0.5);
        let h = side / 2.0;
        self.cuboid(c.map(|c| c - h), c.map(|c| c + h), color);
    }

    /// A square tube of width `w` from the centre of voxel `a` to that of `b`.
    pub fn segment(&mut self, a: [u32; 3], b: [u32; 3], w: f32, color: Color32) {
        let (p, q) = (a.map(|c| c as f32 + 0.5), b.map(|c| c as f32 + 0.5));
        self.segment_between(p, q, w, color);
    }

    /// A square bar of width `w` between points `p` and `q` (voxel units).
    pub fn segment_between(&mut self, p: [f32; 3], q: [f32; 3], w: f32, color: Color32) {
        let d = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
        let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        if len == 0.0 {
            return;
        }
        let d = d.map(|c| c / len);
        let cross = |a: [f32; 3], b: [f32; 3]| {
            [
                a[1] * b[2] - a[2] * b[1],
                a[2] * b[0] - a[0] * b[2],
                a[0] * b[1] - a[1] * b[0],
            ]
        };
        let helper = if d[2].abs() < 0.9 {
            [0.0, 0.0, 1.0]
        } else {
            [1.0, 0.0, 0.0]
        };
        let mut s = cross(d, helper);
        let n = (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]).sqrt();
        s = s.map(|c| c / n * w / 2.0);
        let t = cross(d, s);
        let corner = |o: [f32; 3], i: f32, j: f32| [0, 1, 2].map(|k| o[k] + s[k] * i + t[k] * j);
        let ring = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)];
        for k in 0..4 {
            let (i0, j0) = ring[k];
            let (i1, j1) = ring[(k + 1) % 4];
            self.quad(
                [
                    corner(p, i0, j0),
                    corner(p, i1, j1),
                    corner(q, i1, j1),
                    corner(q, i0, j0),
                ],
                lit(color, [0.7, 0.9, 1.0, 0.8][k]),
            );
        }
    }

    /// The outline of layer `z` (the one the 2D editor shows) as four thin bars.
    pub fn layer_frame(&mut self, dims: [u32; 3], z: u32, color: Color32) {
        let (w, h) = (dims[0] as f32, dims[1] as f32);
        let (z0, z1) = (z as f32 + 0.45, z as f32 + 0.55);
        let t = (w.max(h) / 600.0).max(0.1);
        self.cuboid([0.0, -t, z0], [w, 0.0, z1], color);
        self.cuboid([0.0, h, z0], [w, h + t, z1], color);
        self.cuboid([-t, 0.0, z0], [0.0, h, z1], color);
        self.cuboid([w, 0.0, z0], [w + t, h, z1], color);
    }
}

/// Obstacles with z in `layers`.
pub fn obstacles(v: &VoxelGrid, layers: (u32, u32)) -> Tris {
    let mut t = Tris::default();
    t.faces(&voxel_mesh::obstacle_faces(v, layers), palette::VOXEL, 0.0);
    t
}

/// Nodes of `states` in `state` with z in `layers`, as voxel coordinates.
fn members(
    v: &VoxelGrid,
    states: &NodeStates,
    want: NodeState,
    layers: (u32, u32),
) -> Vec<[u32; 3]> {
    let mut out = vec![];
    for (k, &b) in states.packed().iter().enumerate() {
        if b == 0 {
            continue;
        }
        for j in 0..4 {
            if NodeState::from_bits(b >> (2 * j)) == want {
                let i = k * 4 + j;
                if i < v.len() {
                    let p = v.coords(i);
                    if p[2] >= layers.0 && p[2] <= layers.1 {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

/// Open sets up to this size are drawn as small cubes, so the closed set shows between them;
/// larger ones as the faces of their shell (a cube is 12 triangles).
const OPEN_CUBES: usize = 60_000;

/// The closed set (orange) as the faces of its shell, and the open set (blue) as small cubes
/// (or, when huge, its shell) at the cursor.
pub fn search_sets(v: &VoxelGrid, states: &NodeStates, layers: (u32, u32)) -> Tris {
    let mut t = Tris::default();
    for (want, color, inset) in [
        (NodeState::Closed, palette::CLOSED, 0.12),
        (NodeState::Open, palette::OPEN, 0.2),
        (NodeState::Inconsistent, palette::INCONSISTENT, 0.2),
    ] {
        let list = members(v, states, want, layers);
        if list.is_empty() {
            continue;
        }
        if want != NodeState::Closed && list.len() <= OPEN_CUBES {
            for p in list {
                t.cube_at(p, 0.45, color);
            }
            continue;
        }
        let inside = |x: i64, y: i64, z: i64| {
            z >= layers.0 as i64
                && z <= layers.1 as i64
                && v.index(x, y, z).is_some_and(|i| states.get(i) == want)
        };
        t.faces(&voxel_mesh::faces(list.into_iter(), inside), color, inset);
    }
    t
}

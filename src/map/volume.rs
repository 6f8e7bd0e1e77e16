//! A voxel world as a document holds it: the voxels, their moves, the `.3dscen` problems and
//! the layer that the 2D slice editor shows. The slice is an ordinary square map, so every
//! 2D tool edits it; the document writes it back into the voxels after each change.

use super::io::Problem3;
use super::voxel::VoxelGrid;
use crate::map::VoxelMoves;

#[derive(Clone, Debug, PartialEq)]
pub struct Volume {
    pub voxels: VoxelGrid,
    pub moves: VoxelMoves,
    /// Problems of a `.3dscen` opened with the map.
    pub problems: Vec<Problem3>,
    /// The layer shown and edited in 2D.
    pub z: u32,
    /// Layers of the start and goal (their x and y are the document's).
    pub start_z: u32,
    pub goal_z: u32,
}

impl Volume {
    /// A volume of `voxels` with its start and goal: the first problem's, or free voxels
    /// near opposite corners. The document keeps their x and y, the volume their layers.
    pub fn new(
        voxels: VoxelGrid,
        moves: VoxelMoves,
        problems: Vec<Problem3>,
    ) -> (Volume, [u32; 3], [u32; 3]) {
        let [w, h, d] = voxels.dims();
        let (start, goal) = match problems.first() {
            Some(p) => (p.start, p.goal),
            None => (
                nearest_free(&voxels, [0, 0, 0]),
                nearest_free(&voxels, [w - 1, h - 1, d - 1]),
            ),
        };
        let v = Volume {
            voxels,
            moves,
            problems,
            z: start[2],
            start_z: start[2],
            goal_z: goal[2],
        };
        (v, start, goal)
    }
}

/// The free voxel nearest `p` by scanning outwards in growing cubes (`p` itself when every
/// voxel is blocked). Stops after 64 shells: far enough for any start the app proposes.
pub fn nearest_free(v: &VoxelGrid, p: [u32; 3]) -> [u32; 3] {
    let p = p.map(|c| c as i64);
    for r in 0..64i64 {
        for dz in -r..=r {
            for dy in -r..=r {
                for dx in -r..=r {
                    if dx.abs() != r && dy.abs() != r && dz.abs() != r {
                        continue;
                    }
                    let (x, y, z) = (p[0] + dx, p[1] + dy, p[2] + dz);
                    if v.index(x, y, z).is_some() && !v.is_blocked(x, y, z) {
                        return [x as u32, y as u32, z as u32];
                    }
                }
            }
        }
    }
    p.map(|c| c.max(0) as u32)
}

//! Voxels: a box of voxels, with the layer that 2D coordinates (the slice editor's) name.

use super::any_space::rect_cells;
use super::Family;
use super::WorldFamily;
use crate::map::voxel::VoxelGrid;
use crate::map::{Grid, HexFill, Rect};
use crate::space::{Connectivity, Heuristic, NodeId, Space, TerrainRule, VoxelMoves, VoxelSpace};

/// A voxel world and the layer `z` 2D cell coordinates name.
#[derive(Clone, Debug)]
pub struct VoxelWorld {
    pub space: VoxelSpace,
    pub z: u32,
}

impl WorldFamily for VoxelWorld {
    /// The voxels, their moves, the `.3dscen` problems and the layers.
    type Data = crate::map::volume::Volume;
    type Space = VoxelSpace;
    /// Traces are 2D: no drawn point names a voxel.
    fn trace_place(&self) -> crate::trace::posthoc_in::Place {
        crate::trace::posthoc_in::Place::Nowhere
    }
    // Warframe's formats (Brewer & Sturtevant 2018's voxel benchmark).
    const MAP_ENDING: Option<&'static str> = Some("3dmap");
    const SCENARIO_ENDING: Option<&'static str> = Some("3dscen");

    fn heuristics_of(family: Family) -> &'static [Heuristic] {
        Self::volume_moves(family).unwrap_or_default().heuristics()
    }
    fn volume_moves(family: Family) -> Option<VoxelMoves> {
        match family {
            Family::Voxel { moves } => Some(moves),
            _ => None,
        }
    }
    fn cells_from(_: Family, _: Family, _: &Grid, _: HexFill) -> Result<Grid, String> {
        Err("voxel worlds are read from .3dmap files".into())
    }

    /// A square map alone makes a one-layer voxel world; a document with a volume builds its
    /// world from the volume ([`super::AnySpace::of_volume`]).
    fn build(grid: &Grid, family: Family, _: (Connectivity, TerrainRule)) -> VoxelWorld {
        let moves = match family {
            Family::Voxel { moves } => moves,
            _ => Default::default(),
        };
        let v = VoxelGrid::extrude(grid, 1)
            .unwrap_or_else(|_| VoxelGrid::new(1, 1, 1).expect("one voxel always fits"));
        VoxelWorld {
            space: VoxelSpace::new(v, moves),
            z: 0,
        }
    }
    fn space(&self) -> &VoxelSpace {
        &self.space
    }
    fn into_space(self) -> VoxelSpace {
        self.space
    }
    fn family(&self) -> Family {
        Family::Voxel {
            moves: self.space.moves_kind(),
        }
    }
    fn rules(&self) -> (Connectivity, TerrainRule) {
        (Connectivity::default(), TerrainRule::default())
    }
    fn dims(&self) -> (u32, u32) {
        let [w, h, _] = self.space.grid().dims();
        (w, h)
    }
    fn node(&self, x: u32, y: u32) -> Option<NodeId> {
        self.space.node(x, y, self.z)
    }
    fn xy(&self, n: NodeId) -> (u32, u32) {
        let [x, y, _] = self.space.xyz(n);
        (x, y)
    }
    fn coords(&self, n: NodeId) -> Vec<u32> {
        self.space.xyz(n).to_vec()
    }
    fn node_at(&self, [x, y, z]: [u32; 3]) -> Option<NodeId> {
        self.space.node(x, y, z)
    }
    fn volume(&self) -> Option<[u32; 3]> {
        Some(self.space.grid().dims())
    }
    fn apply_cells(&mut self, grid: &Grid, cells: &[(u32, u32)]) -> Vec<NodeId> {
        self.space.apply_layer_cells(self.z, grid, cells)
    }
    fn update(&mut self, grid: &Grid, rect: Rect) -> Vec<NodeId> {
        self.space
            .apply_layer_cells(self.z, grid, &rect_cells(grid, rect))
    }
    /// The layer's map is all the voxel world knows here: it is written in whole.
    fn rebuild(&mut self, grid: &Grid) {
        let mut v = self.space.grid().clone();
        v.store_slice(self.z, grid);
        self.space = VoxelSpace::new(v, self.space.moves_kind());
    }
    fn set_layer(&mut self, z: u32) {
        self.z = z;
    }
    fn layer_base(&self) -> usize {
        let [w, h, _] = self.space.grid().dims();
        self.z as usize * w as usize * h as usize
    }
}

impl VoxelWorld {
    /// Nodes in the world (every voxel).
    pub fn num_nodes(&self) -> usize {
        self.space.num_nodes()
    }
}

//! What the world is: square grids of MovingAI terrain characters with a per-cell cost, and edits
//! as values. A hex world is a grid of hexes in offset
//! coordinates ([`Family`]); voxel and mesh worlds join here.

mod edit;
mod generate;
mod grid;
pub mod hex_fill;
pub mod io;
pub mod knowledge;
mod rules;
pub mod volume;
pub mod voxel;
mod voxel_clearance;
mod voxel_costs;
pub mod voxel_mesh;
mod world;

pub use edit::{Applied, Edit, Rect};
pub use generate::Generator;
pub use grid::{Cell, Grid, Terrain};
pub use hex_fill::wall_crossings;
pub use knowledge::CognitiveMap;
pub use rules::{Connectivity, HexOrientation, TerrainRule, VoxelMoves};
pub use world::{hex_dims, hexes_from_square, HexFill};

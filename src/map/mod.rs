//! What the world is: square grids of MovingAI terrain characters with a per-cell cost, and edits
//! as values. (Hex, voxel and mesh worlds join here.)

mod edit;
mod generate;
mod grid;
pub mod io;

pub use edit::{Applied, Edit, Rect};
pub use generate::Generator;
pub use grid::{Cell, Grid, Terrain};

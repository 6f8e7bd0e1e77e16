//! The world families, listed once. A family is a kind of world a map of cells becomes (square
//! cells, hexes, voxels, navmeshes, a vehicle's lattice): its searchable [`crate::space::Space`],
//! and the world around it ([`WorldFamily`]: its size, the node at a cell, the cells a node
//! covers, how it takes cell changes). The list below generates [`crate::space::SpaceKind`],
//! [`Family`] (the family with its parameters, as files store it), [`AnySpace`], [`AnySearch`],
//! the registry's per-family constructors ([`crate::search::registry::Makers`]) and the
//! families `algos` lists for each algorithm.
//!
//! Adding a family: one line in [`for_each_family`] (variant with its parameters / constructor
//! field: world type => space type, name, title), the space in `space/` and its `WorldFamily`
//! impl in a file of its own here, and (with the app) its UI part in `app/worlds/`, found
//! through the same list. Code above speaks to `Family`, `AnySpace`, `AnySearch` and the trait.

mod any_search;
mod any_space;
mod data;
mod family;
mod hex;
mod navmesh;
mod square;
mod vehicle;
mod voxel;

pub use any_search::AnySearch;
pub use any_space::{dispatch, AnySpace, CellNodes, FamilyFn, SpaceFn, WorldFamily};
pub use data::{data_of, data_of_mut, AnyData, NoData};
pub use family::Family;
pub use voxel::VoxelWorld;

/// Calls `$callback! { $extra ; list }` with the list of world families, one per line:
/// `Variant { its parameters, as files store them } / constructor_field: WorldType => SpaceType,
/// "name", "title";`. Pass `$` as the extra
/// token when the callback defines macros of its own.
#[macro_export]
macro_rules! for_each_family {
    ($callback:ident $(, $extra:tt)*) => {
        $callback! { $($extra)* ;
            Square / square: $crate::space::GridSpace => $crate::space::GridSpace, "square", "square grids";
            Hex { orientation: $crate::space::HexOrientation, pitch: f64 } / hex: $crate::space::HexSpace => $crate::space::HexSpace, "hex", "hex grids";
            Voxel { moves: $crate::space::VoxelMoves } / voxel: $crate::world::VoxelWorld => $crate::space::VoxelSpace, "voxel", "voxel worlds";
            Navmesh / navmesh: $crate::space::NavmeshSpace => $crate::space::NavmeshSpace, "navmesh", "navmeshes";
            Vehicle { vehicle: $crate::car::Vehicle, heading: f64, speed: f64 } / vehicle: $crate::space::VehicleSpace => $crate::space::VehicleSpace, "vehicle", "vehicle lattices";
        }
    };
}

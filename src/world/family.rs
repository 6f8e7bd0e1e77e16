//! A world's family with its parameters, as files and the command line give it: generated from
//! the family list, each question answered by the family's own `WorldFamily` impl.

use super::WorldFamily;
use crate::map::{Grid, HexFill};
use crate::space::{Heuristic, SpaceKind, VoxelMoves};
use serde::{Deserialize, Serialize};

/// Generates [`Family`] from the family list ([`crate::for_each_family`]).
macro_rules! declare_family {
    ( ; $($v:ident $({ $($pf:ident : $pt:ty),* })? / $f:ident : $world:ty => $space:ty, $name:literal, $title:literal;)*) => {
        /// Which kind of world a map of cells is, with the family's parameters (a variant per
        /// line of the family list; projects store it as it is).
        #[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
        pub enum Family {
            $($v $({ $($pf: $pt),* })?,)*
        }

        impl Family {
            /// Name on the command line and in files.
            pub fn name(self) -> &'static str {
                match self {
                    $(Family::$v { .. } => $name,)*
                }
            }

            /// The kind of space the registry lists algorithms by.
            pub fn space_kind(self) -> SpaceKind {
                match self {
                    $(Family::$v { .. } => SpaceKind::$v,)*
                }
            }

            /// The estimates admissible on this family's worlds ([`Heuristic::Native`] first).
            pub fn heuristics(self) -> &'static [Heuristic] {
                match self {
                    $(Family::$v { .. } => <$world as WorldFamily>::heuristics_of(self),)*
                }
            }

            /// Whether its worlds keep a cognitive map (hexes: Rahmani 2020's counters).
            pub fn keeps_knowledge(self) -> bool {
                match self {
                    $(Family::$v { .. } => <$world as WorldFamily>::KEEPS_KNOWLEDGE,)*
                }
            }

            /// Whether crowds walk its worlds (square cells).
            pub fn walked_by_crowds(self) -> bool {
                match self {
                    $(Family::$v { .. } => <$world as WorldFamily>::WALKED_BY_CROWDS,)*
                }
            }

            /// The moves of a world kept as a volume of voxels (a project stores its voxels),
            /// if this family's worlds are.
            pub fn volume_moves(self) -> Option<VoxelMoves> {
                match self {
                    $(Family::$v { .. } => <$world as WorldFamily>::volume_moves(self),)*
                }
            }

            /// Checks the parameters a file gives it.
            pub fn check(self) -> Result<(), String> {
                match self {
                    $(Family::$v { .. } => <$world as WorldFamily>::check_params(self),)*
                }
            }

            /// The map of this family's cells made from `grid`, a map of the `base` family
            /// (hexes under square cells, with `fill`); refused where this family is not made
            /// from that one.
            pub fn from_square(self, base: Family, grid: &Grid, fill: HexFill) -> Result<Grid, String> {
                match self {
                    $(Family::$v { .. } => <$world as WorldFamily>::cells_from(self, base, grid, fill),)*
                }
            }

            /// How many moves of this family's world `cells`, made from square map `square`,
            /// pass through the square map's walls (hexes whose fill let a thin wall leak).
            pub fn moves_through_walls(self, square: &Grid, cells: &Grid) -> usize {
                match self {
                    $(Family::$v { .. } => <$world as WorldFamily>::moves_through_walls(self, square, cells),)*
                }
            }

            /// Whether a `.map` file (square cells only) holds this family's maps.
            pub fn saves_as_map(self) -> bool {
                match self {
                    $(Family::$v { .. } => <$world as WorldFamily>::SAVES_AS_MAP,)*
                }
            }

            /// The family whose own map format a file with this path's ending holds (a
            /// `.3dmap` holds voxels), as each family's `MAP_ENDING` says; none for the
            /// formats of square maps, which any family is made from.
            pub fn of_map_file(path: &std::path::Path) -> Option<SpaceKind> {
                let ending = crate::map::io::extension(path);
                $(if <$world as WorldFamily>::MAP_ENDING == Some(ending.as_str()) {
                    return Some(SpaceKind::$v);
                })*
                None
            }

            /// The endings of the families' own formats: each one's maps, then its scenarios.
            pub fn own_endings() -> Vec<&'static str> {
                [$([<$world as WorldFamily>::MAP_ENDING, <$world as WorldFamily>::SCENARIO_ENDING]),*]
                    .into_iter()
                    .flatten()
                    .flatten()
                    .collect()
            }

            /// The families `--world` names (those made from a square map by flags).
            pub fn flag_names() -> Vec<&'static str> {
                [$(($name, <$world as WorldFamily>::from_flags(1.0, "pointy").is_some())),*]
                    .iter()
                    .filter(|k| k.1)
                    .map(|k| k.0)
                    .collect()
            }

            /// Reads `--world` with its hex flags; `hex_size` is the pitch.
            pub fn parse(world: &str, hex_size: f64, orientation: &str) -> Result<Family, String> {
                $(if world == $name {
                    if let Some(f) = <$world as WorldFamily>::from_flags(hex_size, orientation) {
                        return f;
                    }
                })*
                Err(format!(
                    "unknown world family `{world}` (known: {})",
                    Family::flag_names().join(", ")
                ))
            }
        }
    };
}

crate::for_each_family!(declare_family);

impl Default for Family {
    /// Square cells: what a map is unless told otherwise.
    fn default() -> Family {
        Family::Square
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::HexOrientation;

    #[test]
    fn the_family_list_names_the_endings_of_its_own_formats() {
        use std::path::Path;
        assert_eq!(
            Family::of_map_file(Path::new("a/B.3DMAP")),
            Some(SpaceKind::Voxel)
        );
        for square in ["m.map", "s.scen", "p.ron", "i.png", "v.3dscen", "none"] {
            assert_eq!(Family::of_map_file(Path::new(square)), None, "{square}");
        }
        assert_eq!(Family::own_endings(), ["3dmap", "3dscen"]);
    }

    #[test]
    fn world_flags_parse_to_families_named_by_the_list() {
        assert!(Family::parse("hex", 2.0, "sideways").is_err());
        assert!(Family::parse("hex", 0.0, "flat").is_err());
        // Voxel worlds come from .3dmap files, not from --world.
        let e = Family::parse("voxel", 2.0, "flat").unwrap_err();
        assert_eq!(
            e,
            "unknown world family `voxel` (known: square, hex, navmesh, vehicle)"
        );
        assert_eq!(
            Family::parse("hex", 2.0, "flat"),
            Ok(Family::Hex {
                orientation: HexOrientation::Flat,
                pitch: 2.0
            })
        );
        assert_eq!(Family::parse("square", 1.0, "pointy"), Ok(Family::Square));
        for f in [Family::Square, Family::parse("hex", 2.0, "flat").unwrap()] {
            assert_eq!(f.space_kind().name(), f.name());
        }
    }
}

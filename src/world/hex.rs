//! Hexes: a hex map keeps its hexes in a square grid of offset coordinates.

use super::any_space::rect_cells;
use super::Family;
use super::WorldFamily;
use crate::map::{Grid, HexFill, Rect};
use crate::space::{
    CellWorld, CognitiveMap, Connectivity, Heuristic, HexOrientation, HexSpace, NodeId, Space,
    TerrainRule,
};

impl WorldFamily for HexSpace {
    /// The cognitive map (Rahmani 2020) its counter heuristic reads.
    type Data = CognitiveMap;
    type Space = HexSpace;
    const KEEPS_KNOWLEDGE: bool = true;

    fn heuristics_of(_: Family) -> &'static [Heuristic] {
        HexSpace::HEURISTICS
    }
    fn check_params(family: Family) -> Result<(), String> {
        match family {
            Family::Hex { pitch, .. }
                if !(pitch.is_finite()
                    && pitch > 0.0
                    && pitch <= crate::limits::MAX_SIDE as f64) =>
            {
                Err(format!(
                    "the hex world's pitch {pitch} must be a number above 0 and at most {}",
                    crate::limits::MAX_SIDE
                ))
            }
            _ => Ok(()),
        }
    }
    fn cells_from(
        family: Family,
        base: Family,
        grid: &Grid,
        fill: HexFill,
    ) -> Result<Grid, String> {
        match (base, family) {
            (Family::Square, Family::Hex { orientation, pitch }) => {
                crate::map::hexes_from_square(grid, orientation, pitch, fill)
            }
            (Family::Hex { .. }, _) => {
                Err("is a hex world already; convert it without --world hex".into())
            }
            (b, _) => Err(format!("a hex world is not made from a {} map", b.name())),
        }
    }
    fn moves_through_walls(family: Family, square: &Grid, cells: &Grid) -> usize {
        match family {
            Family::Hex { orientation, pitch } => {
                crate::map::wall_crossings(square, cells, orientation, pitch)
            }
            _ => 0,
        }
    }
    fn from_flags(size: f64, orientation: &str) -> Option<Result<Family, String>> {
        let parsed = HexOrientation::from_name(orientation)
            .ok_or_else(|| format!("unknown hex orientation `{orientation}` (known: flat, pointy)"))
            .and_then(|orientation| {
                if size.is_finite() && size > 0.0 {
                    Ok(Family::Hex {
                        orientation,
                        pitch: size,
                    })
                } else {
                    Err(format!("hex size {size} must be a number above 0"))
                }
            });
        Some(parsed)
    }

    fn build(grid: &Grid, family: Family, rules: (Connectivity, TerrainRule)) -> HexSpace {
        let (orientation, pitch) = match family {
            Family::Hex { orientation, pitch } => (orientation, pitch),
            _ => Default::default(),
        };
        HexSpace::new(grid, orientation, pitch, rules.1)
    }
    fn space(&self) -> &HexSpace {
        self
    }
    fn into_space(self) -> HexSpace {
        self
    }
    fn family(&self) -> Family {
        Family::Hex {
            orientation: self.orientation(),
            pitch: self.pitch(),
        }
    }
    fn rules(&self) -> (Connectivity, TerrainRule) {
        (Connectivity::default(), self.rule())
    }
    fn dims(&self) -> (u32, u32) {
        (self.width(), self.height())
    }
    fn node(&self, x: u32, y: u32) -> Option<NodeId> {
        HexSpace::node(self, x, y)
    }
    fn xy(&self, n: NodeId) -> (u32, u32) {
        HexSpace::xy(self, n)
    }
    fn apply_cells(&mut self, grid: &Grid, cells: &[(u32, u32)]) -> Vec<NodeId> {
        CellWorld::apply_cells(self, grid, cells)
    }
    fn update(&mut self, grid: &Grid, rect: Rect) -> Vec<NodeId> {
        CellWorld::apply_cells(self, grid, &rect_cells(grid, rect))
    }
    fn rebuild(&mut self, grid: &Grid) {
        *self = HexSpace::new(grid, self.orientation(), self.pitch(), self.rule());
    }
    const FILE_OPTIMA: bool = false;

    /// The hex under the square cell's centre.
    fn node_under(&self, x: u32, y: u32) -> Option<NodeId> {
        let (w, h) = (self.width(), self.height());
        let (hx, hy) =
            self.orientation()
                .hex_at(x as f64 + 0.5, y as f64 + 0.5, self.pitch(), w, h)?;
        HexSpace::node(self, hx, hy)
    }

    fn cell_under(&self, x: u32, y: u32) -> Option<(u32, u32)> {
        let (w, h) = (self.width(), self.height());
        self.orientation()
            .hex_at(x as f64 + 0.5, y as f64 + 0.5, self.pitch(), w, h)
    }

    fn hex_layout(&self) -> Option<(crate::space::HexOrientation, f64)> {
        Some((self.orientation(), self.pitch()))
    }

    fn set_knowledge(&mut self, k: Option<&CognitiveMap>) {
        let fits = k.filter(|k| k.counters.len() == self.num_nodes());
        HexSpace::set_knowledge(self, fits.map(|k| std::sync::Arc::new(k.clone())));
    }
}

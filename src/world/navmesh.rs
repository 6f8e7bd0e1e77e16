//! Navmeshes: rectangles of a square map's walkable cells. The map underneath is square cells,
//! so the world's 2D coordinates are the map's; a node is a polygon covering many of them.

use super::any_space::rect_cells;
use super::Family;
use super::{CellNodes, WorldFamily};
use crate::map::{Grid, HexFill, Rect};
use crate::space::{Connectivity, Heuristic, NavmeshSpace, NodeId, Space, TerrainRule};

impl WorldFamily for NavmeshSpace {
    type Data = super::NoData;
    type Space = NavmeshSpace;
    /// Lengths through polygon centres are not the square grid's optima: scenarios are solved
    /// again on the navmesh.
    const FILE_OPTIMA: bool = false;
    /// No segments between polygons are checked.
    const SIGHTLESS: bool = true;
    /// Polygons are numbered anew whenever the map underneath changes.
    const RENUMBERS: bool = true;

    fn heuristics_of(_: Family) -> &'static [Heuristic] {
        NavmeshSpace::HEURISTICS
    }
    fn cells_from(_: Family, base: Family, grid: &Grid, _: HexFill) -> Result<Grid, String> {
        match base {
            // The navmesh keeps the square map it is made of.
            Family::Square => Ok(grid.clone()),
            b => Err(format!("a navmesh is not made from a {} map", b.name())),
        }
    }
    fn from_flags(_: f64, _: &str) -> Option<Result<Family, String>> {
        Some(Ok(Family::Navmesh))
    }

    fn build(grid: &Grid, _: Family, rules: (Connectivity, TerrainRule)) -> NavmeshSpace {
        NavmeshSpace::new(grid, rules.1)
    }
    fn space(&self) -> &NavmeshSpace {
        self
    }
    fn into_space(self) -> NavmeshSpace {
        self
    }
    fn family(&self) -> Family {
        Family::Navmesh
    }
    /// Portals join polygons across their sides: four moves in grid terms.
    fn rules(&self) -> (Connectivity, TerrainRule) {
        (Connectivity::Four, self.rule())
    }
    fn dims(&self) -> (u32, u32) {
        self.size()
    }
    fn node(&self, x: u32, y: u32) -> Option<NodeId> {
        self.polygon_at(x, y)
    }
    /// The cell under the polygon's centre.
    fn xy(&self, n: NodeId) -> (u32, u32) {
        let [x0, y0, x1, y1] = self.rect(n);
        ((x0 + x1) / 2, (y0 + y1) / 2)
    }
    fn cells_of(&self, n: NodeId) -> Vec<(u32, u32)> {
        let [x0, y0, x1, y1] = self.rect(n);
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .collect()
    }
    /// An edit merges cells anew: the mesh is rebuilt and every polygon may have changed.
    fn apply_cells(&mut self, grid: &Grid, _cells: &[(u32, u32)]) -> Vec<NodeId> {
        self.rebuild(grid);
        (0..self.num_nodes() as NodeId).collect()
    }
    fn update(&mut self, grid: &Grid, rect: Rect) -> Vec<NodeId> {
        let cells = rect_cells(grid, rect);
        self.apply_cells(grid, &cells)
    }
    fn rebuild(&mut self, grid: &Grid) {
        *self = NavmeshSpace::new(grid, self.rule());
    }
    fn cell_nodes(&self) -> CellNodes<'_> {
        CellNodes::Map(self.polygon_of_cells())
    }
}

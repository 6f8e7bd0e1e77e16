//! Square cells: the grid graph is the world.

use super::Family;
use super::WorldFamily;
use crate::map::{Grid, HexFill, Rect};
use crate::space::{CellWorld, Connectivity, GridSpace, Heuristic, NodeId, TerrainRule};

impl WorldFamily for GridSpace {
    type Data = super::NoData;
    const WALKED_BY_CROWDS: bool = true;

    type Space = GridSpace;
    const SAVES_AS_MAP: bool = true;

    fn heuristics_of(_: Family) -> &'static [Heuristic] {
        Heuristic::SQUARE
    }
    fn cells_from(_: Family, base: Family, grid: &Grid, _: HexFill) -> Result<Grid, String> {
        match base {
            Family::Square => Ok(grid.clone()),
            b => Err(format!(
                "a square world is not made from a {} map",
                b.name()
            )),
        }
    }
    fn from_flags(_: f64, _: &str) -> Option<Result<Family, String>> {
        Some(Ok(Family::Square))
    }

    fn build(grid: &Grid, _: Family, rules: (Connectivity, TerrainRule)) -> GridSpace {
        GridSpace::new(grid, rules.0, rules.1)
    }
    fn space(&self) -> &GridSpace {
        self
    }
    fn into_space(self) -> GridSpace {
        self
    }
    fn family(&self) -> Family {
        Family::Square
    }
    fn rules(&self) -> (Connectivity, TerrainRule) {
        GridSpace::rules(self)
    }
    fn dims(&self) -> (u32, u32) {
        (self.width(), self.height())
    }
    fn node(&self, x: u32, y: u32) -> Option<NodeId> {
        GridSpace::node(self, x, y)
    }
    fn xy(&self, n: NodeId) -> (u32, u32) {
        GridSpace::xy(self, n)
    }
    fn apply_cells(&mut self, grid: &Grid, cells: &[(u32, u32)]) -> Vec<NodeId> {
        CellWorld::apply_cells(self, grid, cells)
    }
    fn update(&mut self, grid: &Grid, rect: Rect) -> Vec<NodeId> {
        GridSpace::update(self, grid, Some(rect));
        self.around(rect)
    }
    fn rebuild(&mut self, grid: &Grid) {
        let (c, r) = GridSpace::rules(self);
        *self = GridSpace::new(grid, c, r);
    }
}

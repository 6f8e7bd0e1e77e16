//! Vehicle lattices: a car's (cell, heading, speed) states over a square map. The map
//! underneath is square cells, so the world's 2D coordinates are the map's; each cell holds a
//! node per heading and speed, and a 2D view shows a cell in the state of the latest event on
//! any of them (the recording is projected onto cells).

use super::any_space::rect_cells;
use super::Family;
use super::WorldFamily;
use crate::map::{Grid, HexFill, Rect};
use crate::space::{Connectivity, Heuristic, NodeId, TerrainRule, VehicleSpace};
use crate::vehicle::{Discretisation, Vehicle};

impl VehicleSpace {
    /// The family `--world vehicle` names: the small robot (a 1.5 m turning radius fits the
    /// corridors of benchmark maps, one cell a metre), 10° headings, 0.5 m/s speeds.
    pub const DEFAULT_FAMILY: Family = Family::Vehicle {
        vehicle: Vehicle::ROBOT,
        heading: 10.0,
        speed: 0.5,
    };
}

impl WorldFamily for VehicleSpace {
    type Data = super::NoData;
    type Space = VehicleSpace;
    /// Times of a car, not lengths: scenario lengths are not its optima.
    const FILE_OPTIMA: bool = false;
    /// A car does not reverse.
    const DIRECTED: bool = true;
    /// A lattice node is a state, not a place to see from.
    const SIGHTLESS: bool = true;

    fn heuristics_of(_: Family) -> &'static [Heuristic] {
        VehicleSpace::HEURISTICS
    }
    fn check_params(family: Family) -> Result<(), String> {
        if let Family::Vehicle {
            vehicle,
            heading,
            speed,
        } = family
        {
            vehicle.check()?;
            Discretisation {
                heading,
                speed,
                steer: heading,
                ..Discretisation::THESIS
            }
            .check()?;
        }
        Ok(())
    }
    fn cells_from(_: Family, base: Family, grid: &Grid, _: HexFill) -> Result<Grid, String> {
        match base {
            // The lattice keeps the square map it drives on.
            Family::Square => Ok(grid.clone()),
            b => Err(format!(
                "a vehicle lattice is not made from a {} map",
                b.name()
            )),
        }
    }
    fn from_flags(_: f64, _: &str) -> Option<Result<Family, String>> {
        Some(Ok(VehicleSpace::DEFAULT_FAMILY))
    }

    fn build(grid: &Grid, family: Family, _: (Connectivity, TerrainRule)) -> VehicleSpace {
        let Family::Vehicle {
            vehicle,
            heading,
            speed,
        } = family
        else {
            return Self::build(grid, VehicleSpace::DEFAULT_FAMILY, Default::default());
        };
        VehicleSpace::new(grid, vehicle, heading, speed)
    }
    fn space(&self) -> &VehicleSpace {
        self
    }
    fn into_space(self) -> VehicleSpace {
        self
    }
    /// The steps in use, which a map too large for the ones asked coarsens.
    fn family(&self) -> Family {
        let (heading, speed) = self.steps();
        Family::Vehicle {
            vehicle: self.model().vehicle,
            heading,
            speed,
        }
    }
    fn rules(&self) -> (Connectivity, TerrainRule) {
        (Connectivity::default(), TerrainRule::default())
    }
    fn dims(&self) -> (u32, u32) {
        let m = self.model().map.as_ref().expect("a lattice has its map");
        (m.width(), m.height())
    }
    /// The car at rest at the cell, facing +x: where searches from and to a cell start and end.
    /// (Every action drives a whole cell, so on the lattice a goal at rest is reached only from
    /// a speed bin that stops in exactly one cell: the small robot's 2 m/s; AIPATH's exact poses
    /// meet it slow enough to stop within one more cell.)
    fn node(&self, x: u32, y: u32) -> Option<NodeId> {
        VehicleSpace::node(self, x, y, 0, 0)
    }
    fn xy(&self, n: NodeId) -> (u32, u32) {
        let (x, y, _, _) = self.parts(n);
        (x, y)
    }
    /// Every heading and speed of the cells' nodes, and of those within a turn's reach, may
    /// have lost or gained edges: the whole lattice is answered (no repairing search runs on
    /// directed edges).
    fn apply_cells(&mut self, grid: &Grid, _cells: &[(u32, u32)]) -> Vec<NodeId> {
        self.set_map(grid);
        vec![]
    }
    fn update(&mut self, grid: &Grid, rect: Rect) -> Vec<NodeId> {
        let cells = rect_cells(grid, rect);
        self.apply_cells(grid, &cells)
    }
    fn rebuild(&mut self, grid: &Grid) {
        *self = VehicleSpace::new(
            grid,
            self.model().vehicle,
            self.model().grid.heading,
            self.model().grid.speed,
        );
    }
}

//! A vehicle's pure lattice over a square map (Schnieders 2014, as [`crate::car`] models it):
//! a node is a cell, a heading bin and a speed bin; its edges are the composite actions driven
//! from the bin's centre pose (the cell's centre, the bin's heading and speed), each ending
//! snapped to the node it lands in, at the action's time. Edges are directed (a car does not
//! reverse), so the searches that walk edges backwards are refused here.
//!
//! Ids run layer by layer, a layer being one (heading, speed) pair over every cell:
//! `((heading · speeds + speed) · height + y) · width + x`. So the id modulo the map's cells is
//! the cell, and a recording projects the lattice onto cells by that remainder
//! ([`Space::recorded_nodes`]): a lattice is many times the trace's node limit. Layer 0 holds
//! the nodes a cell names (at rest, facing +x, where searches between cells start and end):
//! their ids are the cells' own.
//!
//! The exact-pose planner (AIPATH, in `vehicle/`, above the searches) keeps one exact pose per node;
//! this lattice keeps none, so its paths are what A* and Dijkstra find on the discretised graph
//! (docs/schnieders2014.md compares the two).

use super::{Heuristic, NodeId, Space, SpaceKind};
use crate::car::{Discretisation, Model, Pose, Vehicle};
use crate::map::Grid;

/// A vehicle's lattice over a map.
#[derive(Clone, Debug)]
pub struct VehicleSpace {
    model: Model,
    width: u32,
    height: u32,
    headings: u32,
    speeds: u32,
    heading_step: f64,
    revision: u64,
}

/// Most ids a lattice may have: node ids are 32 bits.
const MAX_IDS: u64 = u32::MAX as u64;

impl VehicleSpace {
    /// The estimates offered: the vehicle's least traversal time (not admissible on the
    /// lattice: snapping can move a node towards the goal for free), and zero (Dijkstra).
    pub const HEURISTICS: &'static [Heuristic] = &[Heuristic::Native, Heuristic::Zero];

    /// The lattice of `vehicle` over `grid`, `heading` degrees and `speed` m/s a bin. Where the
    /// ids would not fit in 32 bits, the heading step doubles (then the speed step) until they
    /// do; the world's family names the steps used, so the change is never silent. The
    /// parameters are checked where a file or flag gives them ([`Vehicle::check`]).
    pub fn new(grid: &Grid, vehicle: Vehicle, heading: f64, speed: f64) -> VehicleSpace {
        let mut d = Discretisation {
            cell: 1.0,
            heading,
            speed,
            // Steering in the heading's own steps: every heading bin reachable by one action.
            steer: heading,
            half_accel: false,
        };
        let cells = grid.width() as u64 * grid.height() as u64;
        while cells * d.headings() as u64 * d.speeds(vehicle.max_speed) as u64 > MAX_IDS {
            if d.heading * 2.0 <= 90.0 {
                d.heading *= 2.0;
                d.steer = d.heading;
            } else if d.speeds(vehicle.max_speed) > 2 {
                d.speed *= 2.0;
            } else {
                break;
            }
        }
        let model = Model {
            vehicle,
            grid: d,
            map: Some(grid.clone()),
        };
        VehicleSpace {
            width: grid.width(),
            height: grid.height(),
            headings: d.headings(),
            speeds: d.speeds(vehicle.max_speed),
            heading_step: std::f64::consts::TAU / d.headings() as f64,
            model,
            revision: super::next_revision(),
        }
    }

    /// The heading and speed steps in use (degrees, m/s).
    pub fn steps(&self) -> (f64, f64) {
        (self.model.grid.heading, self.model.grid.speed)
    }

    /// The vehicle, its discretisation and the map.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Heading bins and speed bins.
    pub fn bins(&self) -> (u32, u32) {
        (self.headings, self.speeds)
    }

    /// Cells of the map: one layer's ids.
    pub fn cells(&self) -> u32 {
        self.width * self.height
    }

    /// The node at cell (x, y), heading bin `h` and speed bin `v`.
    pub fn node(&self, x: u32, y: u32, h: u32, v: u32) -> Option<NodeId> {
        (x < self.width && y < self.height && h < self.headings && v < self.speeds)
            .then(|| (h * self.speeds + v) * self.cells() + y * self.width + x)
    }

    /// Node `n`'s cell, heading bin and speed bin.
    pub fn parts(&self, n: NodeId) -> (u32, u32, u32, u32) {
        let c = n % self.cells();
        let layer = n / self.cells();
        (
            c % self.width,
            c / self.width,
            layer / self.speeds,
            layer % self.speeds,
        )
    }

    /// The node whose bins hold `p`, if it lies on the map.
    pub fn node_of(&self, p: &Pose) -> Option<NodeId> {
        if !(p.x >= 0.0 && p.y >= 0.0) {
            return None;
        }
        let h = (p.phi / self.heading_step).round() as u32 % self.headings;
        let v = ((p.v / self.model.grid.speed).round() as u32).min(self.speeds - 1);
        self.node(p.x as u32, p.y as u32, h, v)
    }

    /// Node `n`'s pose: its cell's centre, its bins' heading and speed.
    pub fn pose(&self, n: NodeId) -> Pose {
        let (x, y, h, v) = self.parts(n);
        Pose {
            x: x as f64 + 0.5,
            y: y as f64 + 0.5,
            phi: h as f64 * self.heading_step,
            v: v as f64 * self.model.grid.speed,
        }
    }

    /// Re-reads the map (after an edit).
    pub fn set_map(&mut self, grid: &Grid) {
        self.model.map = Some(grid.clone());
        self.revision = super::next_revision();
    }
}

impl Space for VehicleSpace {
    fn kind(&self) -> SpaceKind {
        SpaceKind::Vehicle
    }

    fn directed(&self) -> bool {
        true
    }

    fn revision(&self) -> u64 {
        self.revision
    }

    fn num_nodes(&self) -> usize {
        self.cells() as usize * (self.headings * self.speeds) as usize
    }

    /// A lattice is recorded on its cells.
    fn recorded_nodes(&self) -> Option<usize> {
        Some(self.cells() as usize)
    }

    fn is_passable(&self, n: NodeId) -> bool {
        (n as usize) < self.num_nodes() && {
            let p = self.pose(n);
            self.model.free(p.x, p.y)
        }
    }

    fn neighbours(&self, n: NodeId) -> impl Iterator<Item = (NodeId, f64)> + '_ {
        // Built per expansion: the successors are computed from the pose, not stored.
        let mut steps = Vec::with_capacity(self.max_degree());
        let mut out = Vec::with_capacity(self.max_degree());
        if self.is_passable(n) {
            self.model.successors(self.pose(n), &mut steps);
            out.extend(
                steps
                    .iter()
                    .filter_map(|(_, st)| Some((self.node_of(&st.to)?, st.time))),
            );
        }
        out.into_iter()
    }

    fn native_heuristic(&self) -> Heuristic {
        Heuristic::Native
    }

    fn heuristics(&self) -> &'static [Heuristic] {
        VehicleSpace::HEURISTICS
    }

    fn heuristic(&self, h: Heuristic, a: NodeId, b: NodeId) -> f64 {
        match h {
            Heuristic::Zero => 0.0,
            _ => {
                crate::car::Heuristic::SOUND.eval(&self.model.vehicle, &self.pose(a), &self.pose(b))
            }
        }
    }

    fn position(&self, n: NodeId) -> [f32; 3] {
        let p = self.pose(n);
        [p.x as f32, p.y as f32, 0.0]
    }

    /// Three accelerations times the steering fan (at most a quarter turn either way in the
    /// heading's steps, plus the exact limits).
    fn max_degree(&self) -> usize {
        let per_side = (90.0 / self.model.grid.steer).ceil() as usize + 1;
        3 * (2 * per_side + 1)
    }
}

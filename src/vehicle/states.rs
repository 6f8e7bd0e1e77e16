//! The vehicle search's states: the goal test, the discretised keys two poses share when they
//! count as one node, and the distances around a map's walls an estimate may also use.

use crate::car::model::{turn_between, Model, Pose};
use crate::search::key;

/// Where the search must end: a pose, within a distance, a heading and a speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Goal {
    pub pose: Pose,
    /// Metres.
    pub within: f64,
    /// Radians.
    pub heading: f64,
    /// m/s.
    pub speed: f64,
}

impl Goal {
    /// The thesis's goal test (§5.1): 0.3 cells, 1°, 0.1 m/s.
    pub fn thesis(pose: Pose, cell: f64) -> Goal {
        Goal {
            pose,
            within: 0.3 * cell,
            heading: 1f64.to_radians(),
            speed: 0.1,
        }
    }

    pub fn reached(&self, p: &Pose) -> bool {
        let g = &self.pose;
        (p.x - g.x).hypot(p.y - g.y) <= self.within
            && turn_between(p.phi, g.phi).abs() <= self.heading + 1e-12
            && (p.v - g.v).abs() <= self.speed + 1e-12
    }
}

/// The discretised states: cell (x, y), heading bin and speed bin, packed in 64 bits
/// (20 bits a coordinate, 12 the heading, 12 the speed). A search numbers the keys it meets
/// densely in the order it meets them ([`Planner`]), so the plane has no bounds and any
/// discretisation fits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Keys {
    pub cell: f64,
    pub heading_step: f64,
    pub speed_step: f64,
    pub headings: u32,
    pub speeds: u32,
}

/// Cells a key reaches either side of 0.
const REACH: f64 = (1 << 19) as f64;

impl Keys {
    pub fn new(model: &Model) -> Keys {
        let g = &model.grid;
        Keys {
            cell: g.cell,
            // A whole number of equal bins around the circle (a step that does not divide 360
            // is widened a little, rather than the last bin folding into the first).
            heading_step: std::f64::consts::TAU / g.headings().min(4095) as f64,
            speed_step: g.speed,
            headings: g.headings().min(4095),
            speeds: g.speeds(model.vehicle.max_speed).min(4095),
        }
    }

    /// The key of `p` (`None` half a million cells from the origin).
    pub fn of(&self, p: &Pose) -> Option<u64> {
        let cx = (p.x / self.cell).floor();
        let cy = (p.y / self.cell).floor();
        if !(cx.abs() < REACH && cy.abs() < REACH) {
            return None;
        }
        let hb = (p.phi / self.heading_step).round() as u64 % self.headings as u64;
        let vb = ((p.v / self.speed_step).round() as u64).min(self.speeds as u64 - 1);
        let (x, y) = ((cx + REACH) as u64, (cy + REACH) as u64);
        Some(x << 44 | y << 24 | hb << 12 | vb)
    }

    /// The exact state of `p`'s key: its cell's centre, its bin's heading and speed (the pure
    /// lattice's poses).
    pub fn snap(&self, p: &Pose) -> Pose {
        let h = (p.phi / self.heading_step).round() as u64 % self.headings as u64;
        let v = ((p.v / self.speed_step).round() as u64).min(self.speeds as u64 - 1);
        Pose {
            x: ((p.x / self.cell).floor() + 0.5) * self.cell,
            y: ((p.y / self.cell).floor() + 0.5) * self.cell,
            phi: h as f64 * self.heading_step,
            v: v as f64 * self.speed_step,
        }
    }

    /// Key `k`'s cell, heading bin and speed bin (`None` for a key that names no state).
    pub fn parts(&self, k: u64) -> Option<(i64, i64, u32, u32)> {
        (k != u64::MAX).then(|| {
            (
                (k >> 44) as i64 - REACH as i64,
                ((k >> 24) & 0xF_FFFF) as i64 - REACH as i64,
                ((k >> 12) & 0xFFF) as u32,
                (k & 0xFFF) as u32,
            )
        })
    }

    /// The centre of key `k`'s cell, in metres.
    pub fn centre(&self, k: u64) -> (f64, f64) {
        let x = (k >> 44) as f64 - REACH;
        let y = ((k >> 24) & 0xF_FFFF) as f64 - REACH;
        ((x + 0.5) * self.cell, (y + 0.5) * self.cell)
    }
}

/// Each map cell's distance to the goal's cell around the walls (8-connected, no corner
/// cutting, Dijkstra from the goal).
pub(super) struct Walls {
    width: u32,
    dist: Vec<f64>,
}

impl Walls {
    pub(super) fn new(map: &crate::map::Grid, goal: &Pose) -> Walls {
        use crate::space::Space;
        // Metres, not the map's terrain costs (which would make the bound overestimate).
        let mut plain = map.clone();
        let cells = map.width() as usize * map.height() as usize;
        plain
            .set_costs(vec![1.0; cells])
            .expect("one cost per cell");
        let space = crate::space::GridSpace::octile(&plain);
        let mut dist = vec![f64::INFINITY; space.num_nodes()];
        let mut heap = std::collections::BinaryHeap::new();
        if let Some(g) = space.node(goal.x.max(0.0) as u32, goal.y.max(0.0) as u32) {
            dist[g as usize] = 0.0;
            heap.push((std::cmp::Reverse(key(0.0)), g));
        }
        while let Some((std::cmp::Reverse(k), n)) = heap.pop() {
            let d = dist[n as usize];
            if key(d) != k {
                continue;
            }
            space.for_each_neighbour(n, |m, c| {
                if d + c < dist[m as usize] {
                    dist[m as usize] = d + c;
                    heap.push((std::cmp::Reverse(key(d + c)), m));
                }
            });
        }
        Walls {
            width: map.width(),
            dist,
        }
    }

    /// A lower bound on the time from `p` to the goal: the cells' distance shrunk to the
    /// shortest line it can stand for (octile paths are at most 8.24% longer than any-angle
    /// ones), less the two half-diagonals a pose may sit from its cell's centre, at top speed.
    /// Cells cut off from the goal get a time no search reaches.
    pub(super) fn time(&self, p: &Pose, top: f64) -> f64 {
        if !(p.x >= 0.0 && p.y >= 0.0) {
            return 0.0;
        }
        let i = p.y as usize * self.width as usize + p.x as usize;
        match self.dist.get(i) {
            Some(d) if d.is_finite() => ((d / 1.0824 - std::f64::consts::SQRT_2) / top).max(0.0),
            Some(_) => 1e9,
            None => 0.0,
        }
    }
}

//! The vehicle's physics and its state space (Schnieders 2014, §2.3 and ch. 3–4): a car's state
//! (x, y, φ, v), the composite actions that each drive it one cell further (accelerate, keep
//! speed or brake, times a steering intensity), the time each takes (the edge cost), and the
//! discretised key two states share when they count as one node.
//!
//! Units are SI: metres (one map cell is one metre), seconds, metres per second. Headings are in
//! radians inside and degrees at the edges, measured from +x towards +y (on a map drawn with y
//! down, that is clockwise on screen).

use crate::map::{Grid, Terrain};
use serde::{Deserialize, Serialize};
use std::f64::consts::{PI, TAU};

/// What the vehicle can do: the thesis's parameters (§3, Table of §10).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Vehicle {
    /// Smallest turning radius (m).
    pub turning_radius: f64,
    /// Largest lateral (centripetal) acceleration (m/s²); 0: no limit.
    pub lateral: f64,
    /// Largest acceleration and deceleration (m/s², both positive).
    pub accel: f64,
    pub decel: f64,
    /// Top speed (m/s).
    pub max_speed: f64,
}

impl Vehicle {
    /// The thesis's test car (§5.1): a = 1.5, d = 5, v_max = 13.8 (50 km/h), a turning radius
    /// of 5–8 m and a lateral limit of 10–20 m/s²; the middle of each range.
    pub const THESIS_CAR: Vehicle = Vehicle {
        turning_radius: 6.5,
        lateral: 15.0,
        accel: 1.5,
        decel: 5.0,
        max_speed: 13.8,
    };

    /// A sports car: 0–100 km/h in 3 s (§2.3's 9.26 m/s²), quicker turns, 30 m/s.
    pub const SPORTS_CAR: Vehicle = Vehicle {
        turning_radius: 5.0,
        lateral: 20.0,
        accel: 9.26,
        decel: 9.8,
        max_speed: 30.0,
    };

    /// A heavy truck: slow to speed up, wide turns.
    pub const TRUCK: Vehicle = Vehicle {
        turning_radius: 10.0,
        lateral: 4.0,
        accel: 0.8,
        decel: 3.0,
        max_speed: 13.8,
    };

    /// A small wheeled robot, for maps whose corridors are a few cells wide (one cell a
    /// metre): turns on 1.5 m, walks at up to 3 m/s.
    pub const ROBOT: Vehicle = Vehicle {
        turning_radius: 1.5,
        lateral: 3.0,
        accel: 1.0,
        decel: 2.0,
        max_speed: 3.0,
    };

    /// The presets a user picks from, by name.
    pub const PRESETS: [(&'static str, Vehicle); 4] = [
        ("thesis car", Vehicle::THESIS_CAR),
        ("sports car", Vehicle::SPORTS_CAR),
        ("truck", Vehicle::TRUCK),
        ("small robot", Vehicle::ROBOT),
    ];

    /// The radius the vehicle can turn on at speed `v`: its turning radius, or wider where the
    /// lateral limit binds (v² / a_lat).
    pub fn radius_at(&self, v: f64) -> f64 {
        if self.lateral > 0.0 {
            self.turning_radius.max(v * v / self.lateral)
        } else {
            self.turning_radius
        }
    }

    /// Why these parameters cannot plan, if they cannot.
    pub fn check(&self) -> Result<(), String> {
        let positive = [
            ("turning radius", self.turning_radius),
            ("acceleration", self.accel),
            ("deceleration", self.decel),
            ("top speed", self.max_speed),
        ];
        for (what, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("the vehicle's {what} must be above 0 (it is {v})"));
            }
        }
        if !(self.lateral.is_finite() && self.lateral >= 0.0) {
            return Err(format!(
                "the lateral limit must be 0 (none) or above (it is {})",
                self.lateral
            ));
        }
        Ok(())
    }
}

/// How finely each variable is discretised (§4.3). The thesis leaves the speed step, the
/// steering set and the intermediate acceleration unspecified; the defaults here are pathlab's
/// choices, said in the docs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Discretisation {
    /// Spatial cell size (m): also the length every action drives (§4.3.5).
    pub cell: f64,
    /// Heading step (degrees).
    pub heading: f64,
    /// Speed step (m/s).
    pub speed: f64,
    /// Steering step (degrees of heading change per action); the exact limits are always
    /// offered too (§4.3.4).
    pub steer: f64,
    /// Offer half acceleration beside full acceleration, keeping speed and braking.
    pub half_accel: bool,
}

impl Discretisation {
    /// The thesis's baseline: 1 m cells, 1° headings; speeds in 0.1 m/s steps (the goal test's
    /// tolerance: with coarser steps a node's one pose hides the speeds the goal needs, and
    /// even a straight run to a goal at the start's speed was not found), steering in 5° steps
    /// (the thesis's suggestion for a smaller branching factor).
    pub const THESIS: Discretisation = Discretisation {
        cell: 1.0,
        heading: 1.0,
        speed: 0.1,
        steer: 5.0,
        half_accel: false,
    };

    /// Fewer states for large maps and for teaching: 2° headings, 1 m/s speeds.
    pub const COARSE: Discretisation = Discretisation {
        cell: 1.0,
        heading: 2.0,
        speed: 1.0,
        steer: 5.0,
        half_accel: false,
    };

    /// Heading bins in a full turn.
    pub fn headings(&self) -> u32 {
        (360.0 / self.heading).round().max(1.0) as u32
    }

    /// Speed bins from 0 to `max` inclusive.
    pub fn speeds(&self, max: f64) -> u32 {
        (max / self.speed).round() as u32 + 1
    }

    pub fn check(&self) -> Result<(), String> {
        let steps = [
            ("cell size", self.cell, 0.05, 20.0),
            ("heading step", self.heading, 0.1, 90.0),
            ("speed step", self.speed, 0.01, 20.0),
            ("steering step", self.steer, 0.1, 90.0),
        ];
        for (what, v, lo, hi) in steps {
            if !(v.is_finite() && (lo..=hi).contains(&v)) {
                return Err(format!("the {what} must be {lo} to {hi} (it is {v})"));
            }
        }
        Ok(())
    }
}

/// A state: position (m), heading (radians, in [0, 2π)) and speed (m/s), exact.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pose {
    pub x: f64,
    pub y: f64,
    pub phi: f64,
    pub v: f64,
}

impl Pose {
    /// A pose with the heading given in degrees.
    pub fn new(x: f64, y: f64, degrees: f64, v: f64) -> Pose {
        Pose {
            x,
            y,
            phi: wrap(degrees.to_radians()),
            v,
        }
    }

    pub fn degrees(&self) -> f64 {
        self.phi.to_degrees()
    }
}

/// An angle in [0, 2π).
pub fn wrap(a: f64) -> f64 {
    let r = a.rem_euclid(TAU);
    if r >= TAU {
        0.0
    } else {
        r
    }
}

/// The difference b − a of two angles, in (−π, π].
pub fn turn_between(a: f64, b: f64) -> f64 {
    let d = wrap(b - a);
    if d > PI {
        d - TAU
    } else {
        d
    }
}

/// A composite action: an acceleration (m/s², negative to brake) and a heading change
/// (radians, positive towards +y) over one cell of arc.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Action {
    pub accel: f64,
    pub turn: f64,
}

/// What an action does from a pose: where it ends, the time it takes, and the highest speed on
/// the way (for the turning limits).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    pub to: Pose,
    pub time: f64,
}

/// The time to drive `s` metres from speed `v` under constant acceleration `a` (negative:
/// braking), capped at top speed `max` (reached, the rest is driven at it), and the speed at
/// the end; `None` when the vehicle stops before covering `s` or cannot start (v = 0, a ≤ 0).
pub fn drive(s: f64, v: f64, a: f64, max: f64) -> Option<(f64, f64)> {
    if v > max + 1e-9 {
        // Faster than the vehicle can go: no action starts from there.
        return None;
    }
    if a == 0.0 {
        return (v > 0.0).then(|| (s / v, v));
    }
    let disc = v * v + 2.0 * a * s;
    if disc < -1e-12 {
        return None;
    }
    let end = disc.max(0.0).sqrt();
    if a > 0.0 && end > max {
        // Up to top speed, then the rest at it.
        let t1 = (max - v) / a;
        let s1 = (max * max - v * v) / (2.0 * a);
        return Some((t1 + (s - s1) / max, max));
    }
    let t = (end - v) / a;
    (t > 0.0).then_some((t, end))
}

/// The pose `s` metres along an arc turning by `turn` radians from `p` (a straight line when
/// `turn` is 0), speed left as it is.
pub fn along(p: Pose, s: f64, turn: f64) -> Pose {
    let (x, y) = arc_point(p, p.phi.sin(), p.phi.cos(), s, turn);
    Pose {
        x,
        y,
        phi: wrap(p.phi + turn),
        v: p.v,
    }
}

/// Where [`along`] ends, given the sine and cosine of `p`'s heading: an arc's samples share
/// them, so a sample costs one sine and cosine where it cost two (the same expressions, so
/// the same points to the bit).
#[inline(always)]
fn arc_point(p: Pose, sin0: f64, cos0: f64, s: f64, turn: f64) -> (f64, f64) {
    if turn.abs() < 1e-12 {
        (p.x + s * cos0, p.y + s * sin0)
    } else {
        let r = s / turn;
        (
            p.x + r * ((p.phi + turn).sin() - sin0),
            p.y - r * ((p.phi + turn).cos() - cos0),
        )
    }
}

/// `v.floor()` without the call into libm that `floor` compiles to on the baseline x86-64
/// target (a tenth of a lattice search's time went to it). Exact for every `v` of magnitude
/// below 2⁶³, NaN included (cells beyond that are off any map).
#[inline(always)]
fn floor(v: f64) -> f64 {
    if v.is_nan() {
        return v;
    }
    let t = v as i64 as f64;
    if t > v {
        t - 1.0
    } else {
        t
    }
}

/// The vehicle, its discretisation and the obstacles it drives among: the successor function of
/// both the pose search and the lattice.
#[derive(Clone, Debug)]
pub struct Model {
    pub vehicle: Vehicle,
    pub grid: Discretisation,
    /// Obstacles, one map cell per metre; outside the map is blocked. `None`: open plane.
    pub map: Option<Grid>,
}

impl Model {
    pub fn new(vehicle: Vehicle, grid: Discretisation, map: Option<Grid>) -> Result<Model, String> {
        vehicle.check()?;
        grid.check()?;
        Ok(Model { vehicle, grid, map })
    }

    /// The accelerations offered, in the thesis's static move ordering biased towards
    /// accelerating and keeping speed (§5.4): full, (half,) none, brake.
    pub fn accelerations(&self) -> Vec<f64> {
        let v = &self.vehicle;
        if self.grid.half_accel {
            vec![v.accel, v.accel / 2.0, 0.0, -v.decel]
        } else {
            vec![v.accel, 0.0, -v.decel]
        }
    }

    /// Whether point (x, y) is free: inside the map on a cell a car may drive (ground, grass,
    /// swamp), or anywhere when there is no map.
    pub fn free(&self, x: f64, y: f64) -> bool {
        let Some(map) = &self.map else {
            return true;
        };
        if !(x >= 0.0 && y >= 0.0) {
            return false;
        }
        map.get(x as u32, y as u32).is_some_and(|c| {
            matches!(
                Terrain::of(c.tile),
                Terrain::Ground | Terrain::Grass | Terrain::Swamp
            )
        })
    }

    /// Whether the arc of `s` metres turning by `turn` from `p` stays on free ground, sampled
    /// every twentieth of a metre; where two samples lie in diagonal cells, both cells beside
    /// the corner must be free too (no slipping between walls that touch at a corner).
    pub fn arc_free(&self, p: Pose, s: f64, turn: f64) -> bool {
        if self.map.is_none() {
            return true;
        }
        let k = (s / 0.05).ceil().max(1.0) as usize;
        let (sin0, cos0) = (p.phi.sin(), p.phi.cos());
        let mut cell = (floor(p.x), floor(p.y));
        // Whether `cell` is known free: samples are a twentieth of a metre apart and cells a
        // metre or more, so most samples fall in the cell of the one before, which was free
        // (`free` asks only which cell a point is in).
        let mut known = false;
        (1..=k).all(|i| {
            let f = i as f64 / k as f64;
            let q = arc_point(p, sin0, cos0, s * f, turn * f);
            let next = (floor(q.0), floor(q.1));
            if known && next == cell {
                return true;
            }
            let corner = next.0 != cell.0 && next.1 != cell.1;
            let ok = self.free(q.0, q.1)
                && (!corner
                    || (self.free(next.0 + 0.5, cell.1 + 0.5)
                        && self.free(cell.0 + 0.5, next.1 + 0.5)));
            cell = next;
            known = true;
            ok
        })
    }

    /// Why pose `p` cannot start or end a plan, if it cannot: off free ground, or faster than
    /// the vehicle goes.
    pub fn check_pose(&self, what: &str, p: &Pose) -> Result<(), String> {
        if !self.free(p.x, p.y) {
            return Err(format!("the {what} must stand on free ground"));
        }
        if !(0.0..=self.vehicle.max_speed).contains(&p.v) {
            return Err(format!(
                "the {what}'s speed {:.2} m/s is outside 0 to the top speed, {} m/s",
                p.v, self.vehicle.max_speed
            ));
        }
        Ok(())
    }

    /// Every valid successor of `p`, in the order actions are offered (accelerations, then
    /// steering from the hardest left to the hardest right). Keeping zero speed and braking at a
    /// standstill are not actions (Fig. 3.2), nor are turns tighter than the turning radius or
    /// than the lateral limit allows at the step's top speed.
    pub fn successors(&self, p: Pose, out: &mut Vec<(Action, Step)>) {
        out.clear();
        let s = self.grid.cell;
        let veh = &self.vehicle;
        // Whether each turn's arc is free, found once: the arc is the same under every
        // acceleration that offers the turn (most turns are offered under all three or four),
        // and checking it is most of a search's time among obstacles. On an open plane every
        // arc is free.
        let mut arcs: Vec<(f64, bool)> = vec![];
        for a in self.accelerations() {
            let Some((time, v1)) = drive(s, p.v, a, veh.max_speed) else {
                continue;
            };
            // At most a quarter turn an action: a longer arc (a cell several radii long)
            // would loop, and a heading change says nothing of how many times.
            let limit = (s / veh.radius_at(p.v.max(v1))).min(PI / 2.0);
            for turn in steering(limit, self.grid.steer.to_radians()) {
                let free = self.map.is_none()
                    || match arcs.iter().find(|(t, _)| *t == turn) {
                        Some(&(_, free)) => free,
                        None => {
                            let free = self.arc_free(p, s, turn);
                            arcs.push((turn, free));
                            free
                        }
                    };
                if !free {
                    continue;
                }
                let mut to = along(p, s, turn);
                to.v = v1;
                out.push((Action { accel: a, turn }, Step { to, time }));
            }
        }
    }
}

/// The heading changes offered within ±`limit`: multiples of `step` and the exact limits,
/// from left (negative) to right.
pub fn steering(limit: f64, step: f64) -> Vec<f64> {
    let mut out = vec![-limit];
    let k = (limit / step).floor() as i64;
    for i in -k..=k {
        let t = i as f64 * step;
        if t.abs() < limit - 1e-9 {
            out.push(t);
        }
    }
    out.push(limit);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn driving_follows_the_kinematics() {
        // s = v t + ½ a t² and v' = v + a t (Eqs. 2.1, 2.2).
        let (t, v) = drive(10.0, 2.0, 1.5, 100.0).unwrap();
        assert!((2.0 * t + 0.75 * t * t - 10.0).abs() < 1e-9);
        assert!((v - (2.0 + 1.5 * t)).abs() < 1e-9);
        // Braking to a stop exactly, and short of the distance.
        let (t, v) = drive(2.5, 5.0, -5.0, 100.0).unwrap();
        assert!((t - 1.0).abs() < 1e-9 && v.abs() < 1e-6);
        assert_eq!(drive(3.0, 5.0, -5.0, 100.0), None);
        // No standing still, no braking from rest.
        assert_eq!(drive(1.0, 0.0, 0.0, 10.0), None);
        assert_eq!(drive(1.0, 0.0, -1.0, 10.0), None);
        // Capped at top speed: accelerate to it, then cruise.
        let (t, v) = drive(100.0, 0.0, 2.0, 10.0).unwrap();
        assert_eq!(v, 10.0);
        assert!((t - (5.0 + 75.0 / 10.0)).abs() < 1e-9);
    }

    #[test]
    fn an_arc_ends_where_its_circle_says() {
        // A quarter turn on radius r from the origin heading +x ends at (r, r) heading +y.
        let r = 5.0;
        let q = along(Pose::new(0.0, 0.0, 0.0, 1.0), r * PI / 2.0, PI / 2.0);
        assert!((q.x - r).abs() < 1e-9 && (q.y - r).abs() < 1e-9, "{q:?}");
        assert!((q.degrees() - 90.0).abs() < 1e-9);
    }

    #[test]
    fn the_steering_fan_holds_the_exact_limits_and_zero() {
        let f = steering(0.2, 5f64.to_radians());
        assert_eq!(f.first(), Some(&-0.2));
        assert_eq!(f.last(), Some(&0.2));
        assert!(f.contains(&0.0));
        // ±11.46°: the limits, ±10°, ±5° and 0.
        assert_eq!(f.len(), 7, "{f:?}");
        assert!(f.windows(2).all(|w| w[0] < w[1]));
    }

    /// The arc check as it was written first, one sine and cosine of the start heading at
    /// every sample and libm's floor: the check in use must answer as it does.
    fn arc_free_reference(m: &Model, p: Pose, s: f64, turn: f64) -> bool {
        let k = (s / 0.05).ceil().max(1.0) as usize;
        let mut cell = (p.x.floor(), p.y.floor());
        (1..=k).all(|i| {
            let f = i as f64 / k as f64;
            let q = along(p, s * f, turn * f);
            let next = (q.x.floor(), q.y.floor());
            let corner = next.0 != cell.0 && next.1 != cell.1;
            let ok = m.free(q.x, q.y)
                && (!corner
                    || (m.free(next.0 + 0.5, cell.1 + 0.5) && m.free(cell.0 + 0.5, next.1 + 0.5)));
            cell = next;
            ok
        })
    }

    #[test]
    fn floor_is_libms_floor() {
        for v in [
            0.0,
            -0.0,
            0.5,
            1.0,
            -1.0,
            -0.5,
            2.999_999_999_999_999_6,
            -1e-300,
            1e-300,
            7.5,
            -7.5,
            4503599627370495.5,
            -4503599627370495.5,
            1e15 + 0.25,
            -3.0,
        ] {
            assert_eq!(floor(v), v.floor(), "{v}");
        }
        assert!(floor(f64::NAN).is_nan());
    }

    #[test]
    fn the_arc_check_answers_as_the_sampling_it_replaced() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (mut free, mut blocked) = (0, 0);
        for seed in 0..40 {
            let map = crate::map::Generator::RandomBlocks { density: 0.2 }.generate(12, 12, seed);
            let m = Model::new(Vehicle::ROBOT, Discretisation::THESIS, Some(map)).unwrap();
            for _ in 0..500 {
                // Poses on cell centres and borders as the lattice snaps them, and anywhere.
                let coord = |rng: &mut rand_chacha::ChaCha8Rng| match rng.random_range(0..3) {
                    0 => rng.random_range(0..12) as f64 + 0.5,
                    1 => rng.random_range(0..13) as f64,
                    _ => rng.random_range(-0.5..12.5),
                };
                let p = Pose::new(
                    coord(&mut rng),
                    coord(&mut rng),
                    rng.random_range(0..36) as f64 * 10f64.to_radians(),
                    1.0,
                );
                let s = [0.5, 1.0, 2.0, rng.random_range(0.1..3.0)][rng.random_range(0..4)];
                let turn =
                    [0.0, PI / 2.0, -PI / 2.0, rng.random_range(-1.6..1.6)][rng.random_range(0..4)];
                let got = m.arc_free(p, s, turn);
                assert_eq!(got, arc_free_reference(&m, p, s, turn), "{p:?} {s} {turn}");
                if got {
                    free += 1;
                } else {
                    blocked += 1;
                }
            }
        }
        // Both answers met often.
        assert!(
            free > 2000 && blocked > 2000,
            "{free} free, {blocked} blocked"
        );
    }

    #[test]
    fn successors_respect_rest_and_the_turning_limits() {
        let m = Model::new(Vehicle::THESIS_CAR, Discretisation::THESIS, None).unwrap();
        let mut out = vec![];
        m.successors(Pose::new(0.0, 0.0, 0.0, 0.0), &mut out);
        // From rest only accelerating is possible.
        assert!(!out.is_empty() && out.iter().all(|(a, _)| a.accel > 0.0));
        m.successors(Pose::new(0.0, 0.0, 0.0, 13.8), &mut out);
        for (a, st) in &out {
            let v = st.to.v.max(13.8);
            let r = 1.0 / a.turn.abs().max(1e-12);
            assert!(r >= m.vehicle.radius_at(v) - 1e-9);
            assert!(v * v / r <= m.vehicle.lateral + 1e-9);
        }
    }
}

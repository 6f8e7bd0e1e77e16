//! AIPATH's heuristic (Schnieders 2014 §4.2): a distance the vehicle must at least drive, then
//! the least time to drive it given the start and goal speeds and the acceleration, braking and
//! speed limits.
//!
//! - **Distance:** Pinter's circle–straight–circle (CSC) words on the turning radius, the
//!   minimum of four (Fig. 4.1); or the full Dubins set, adding the two circle–circle–circle
//!   words, which are shorter for some near goals where CSC alone overestimates (the digest's
//!   erratum 5).
//! - **Time:** the thesis's Algorithm 2 (its cruise branch overestimates when a start or goal
//!   speed lies between 0 and the top speed: erratum 2), or the kinematically exact least time,
//!   the default. Where the distance is too short to change speed (over- or undershooting,
//!   Algorithms 3–4), the thesis's version adds a backup circle; the exact one takes the
//!   distance the speed change needs, since any path must be that long.
//! - **Offset:** the cheaper form of §4.2.3: the straight line for goals ahead, otherwise the
//!   straight line plus the average CSC offset at that distance (Formula 4.2). Not admissible.

use super::model::{wrap, Pose, Vehicle};
use serde::{Deserialize, Serialize};
use std::f64::consts::{PI, TAU};
use std::sync::OnceLock;

/// Which estimate a search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Estimate {
    /// The turning-radius distance at top speed: speeds ignored (the thesis's distance-based
    /// heuristic of Table 5.3, in seconds so that it compares with time costs).
    Distance,
    /// The least traversal time over the turning-radius distance (AIPATH's).
    Time,
    /// The least traversal time over the straight line plus Formula 4.2's offset.
    Offset,
    /// No estimate: A* becomes Dijkstra (the tests' oracle).
    Zero,
}

/// Which traversal-time formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimeModel {
    /// The least time the kinematics allow (admissible).
    Exact,
    /// Algorithm 2 as printed (its cruise branch), with Algorithm 4's backup circle as the
    /// digest corrects it.
    Thesis,
}

/// Which turning-radius words make the distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Words {
    /// Pinter's four circle–straight–circle words (the thesis).
    Csc,
    /// All six Dubins words (the true shortest forward path with that radius).
    Dubins,
}

/// A heuristic: estimate, time formula and words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heuristic {
    pub estimate: Estimate,
    pub time: TimeModel,
    pub words: Words,
}

impl Heuristic {
    /// The default: exact time over the Dubins distance (admissible, up to discretisation).
    pub const SOUND: Heuristic = Heuristic {
        estimate: Estimate::Time,
        time: TimeModel::Exact,
        words: Words::Dubins,
    };
    /// Dijkstra.
    pub const ZERO: Heuristic = Heuristic {
        estimate: Estimate::Zero,
        time: TimeModel::Exact,
        words: Words::Dubins,
    };
    /// The thesis's own: Algorithm 2 over CSC.
    pub const THESIS: Heuristic = Heuristic {
        estimate: Estimate::Time,
        time: TimeModel::Thesis,
        words: Words::Csc,
    };

    /// The estimated seconds from `p` to `goal` for `veh`.
    pub fn eval(&self, veh: &Vehicle, p: &Pose, goal: &Pose) -> f64 {
        let r = veh.turning_radius;
        if self.estimate == Estimate::Zero {
            return 0.0;
        }
        let s = match self.estimate {
            Estimate::Offset => offset_distance(p, goal, r),
            _ => distance(p, goal, r, self.words),
        };
        match self.estimate {
            Estimate::Distance => s / veh.max_speed,
            _ => match self.time {
                TimeModel::Exact => time_exact(veh, s, p.v, goal.v),
                TimeModel::Thesis => time_thesis(veh, s, p.v, goal.v),
            },
        }
    }
}

/// An angle in [0, 2π).
fn m2p(a: f64) -> f64 {
    wrap(a)
}

/// A Dubins word's three segment lengths in radii (turn, straight or turn, turn) and its
/// turning directions (+1 left, −1 right, 0 straight).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Word {
    pub lengths: [f64; 3],
    pub turns: [f64; 3],
}

impl Word {
    pub fn total(&self) -> f64 {
        self.lengths.iter().sum()
    }
}

/// Each word from `a` to `b` on radius `r` that exists, CSC ones first (LSL, RSR, LSR, RSL,
/// then RLR, LRL), after Shkel and Lumelsky's normalised form.
pub fn words(a: &Pose, b: &Pose, r: f64, all: bool) -> Vec<Word> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let d = (dx * dx + dy * dy).sqrt() / r;
    let th = if d > 0.0 { dy.atan2(dx) } else { 0.0 };
    let (al, be) = (m2p(a.phi - th), m2p(b.phi - th));
    let (sa, sb, ca, cb) = (al.sin(), be.sin(), al.cos(), be.cos());
    let cab = (al - be).cos();
    let mut out = vec![];
    let mut push = |t: f64, p: f64, q: f64, turns: [f64; 3]| {
        out.push(Word {
            lengths: [t, p, q],
            turns,
        })
    };
    // LSL
    let p2 = 2.0 + d * d - 2.0 * cab + 2.0 * d * (sa - sb);
    if p2 >= 0.0 {
        let t1 = (cb - ca).atan2(d + sa - sb);
        push(m2p(t1 - al), p2.sqrt(), m2p(be - t1), [1.0, 0.0, 1.0]);
    }
    // RSR
    let p2 = 2.0 + d * d - 2.0 * cab + 2.0 * d * (sb - sa);
    if p2 >= 0.0 {
        let t1 = (ca - cb).atan2(d - sa + sb);
        push(m2p(al - t1), p2.sqrt(), m2p(t1 - be), [-1.0, 0.0, -1.0]);
    }
    // LSR
    let p2 = -2.0 + d * d + 2.0 * cab + 2.0 * d * (sa + sb);
    if p2 >= 0.0 {
        let p = p2.sqrt();
        let t0 = (-ca - cb).atan2(d + sa + sb) - (-2.0f64).atan2(p);
        push(m2p(t0 - al), p, m2p(t0 - be), [1.0, 0.0, -1.0]);
    }
    // RSL
    let p2 = -2.0 + d * d + 2.0 * cab - 2.0 * d * (sa + sb);
    if p2 >= 0.0 {
        let p = p2.sqrt();
        let t0 = (ca + cb).atan2(d - sa - sb) - 2.0f64.atan2(p);
        push(m2p(al - t0), p, m2p(be - t0), [-1.0, 0.0, 1.0]);
    }
    if all {
        // RLR
        let c = (6.0 - d * d + 2.0 * cab + 2.0 * d * (sa - sb)) / 8.0;
        if c.abs() <= 1.0 {
            let ph = (ca - cb).atan2(d - sa + sb);
            let p = m2p(TAU - c.acos());
            let t = m2p(al - ph + m2p(p / 2.0));
            push(t, p, m2p(al - be - t + m2p(p)), [-1.0, 1.0, -1.0]);
        }
        // LRL
        let c = (6.0 - d * d + 2.0 * cab + 2.0 * d * (sb - sa)) / 8.0;
        if c.abs() <= 1.0 {
            let ph = (ca - cb).atan2(d + sa - sb);
            let p = m2p(TAU - c.acos());
            let t = m2p(-al - ph + p / 2.0);
            push(t, p, m2p(m2p(be) - al - t + m2p(p)), [1.0, -1.0, 1.0]);
        }
    }
    out
}

/// The shortest forward path from `a` to `b` turning on radius `r`, with the given words.
pub fn distance(a: &Pose, b: &Pose, r: f64, w: Words) -> f64 {
    words(a, b, r, w == Words::Dubins)
        .iter()
        .map(Word::total)
        .fold(f64::INFINITY, f64::min)
        * r
}

/// Formula 4.2's average offset of the CSC distance over the straight line, at straight-line
/// distance `d` turning radii: the mean over goal bearings and headings (5° steps here), in
/// radii. Tabulated once, every quarter radius up to 16.
pub fn average_offset(d: f64) -> f64 {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..=64)
            .map(|i| {
                let de = i as f64 / 4.0;
                let origin = Pose::new(0.0, 0.0, 0.0, 0.0);
                let mut sum = 0.0;
                let n = 72;
                for a in 0..n {
                    let al = a as f64 * TAU / n as f64;
                    for h in 0..n {
                        let g = Pose {
                            x: al.cos() * de,
                            y: al.sin() * de,
                            phi: h as f64 * TAU / n as f64,
                            v: 0.0,
                        };
                        sum += distance(&origin, &g, 1.0, Words::Csc) - de;
                    }
                }
                sum / (n * n) as f64
            })
            .collect()
    });
    let x = (d * 4.0).clamp(0.0, 64.0);
    let i = (x.floor() as usize).min(63);
    let f = x - i as f64;
    table[i] * (1.0 - f) + table[i + 1] * f
}

/// The cheaper distance of §4.2.3: the straight line where the goal lies ahead and is faced
/// roughly the same way (within 30° each), else the straight line plus the average offset.
pub fn offset_distance(a: &Pose, b: &Pose, r: f64) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let de = (dx * dx + dy * dy).sqrt();
    let bearing = dy.atan2(dx);
    let off = |x: f64, y: f64| super::model::turn_between(x, y).abs();
    if de > 0.0 && off(a.phi, bearing) <= PI / 6.0 && off(bearing, b.phi) <= PI / 6.0 {
        de
    } else {
        de + average_offset(de / r) * r
    }
}

/// The least time to drive a path of length `s` from speed `v0` to `v1`. A path too short to
/// change speed must be longer: at least as long as the change needs, whose time is the
/// change's (and more length only adds time).
pub fn time_exact(veh: &Vehicle, s: f64, v0: f64, v1: f64) -> f64 {
    let (a, d, vm) = (veh.accel, veh.decel, veh.max_speed);
    let (v0, v1) = (v0.clamp(0.0, vm), v1.clamp(0.0, vm));
    let need = if v1 > v0 {
        (v1 * v1 - v0 * v0) / (2.0 * a)
    } else {
        (v0 * v0 - v1 * v1) / (2.0 * d)
    };
    let s = s.max(need);
    // Accelerate to a peak, brake to v1 (Eq. 2.3); cruise at top speed if the peak passes it.
    let peak = ((2.0 * a * d * s + d * v0 * v0 + a * v1 * v1) / (a + d)).sqrt();
    if peak <= vm {
        (peak - v0) / a + (peak - v1) / d
    } else {
        let s_acc = (vm * vm - v0 * v0) / (2.0 * a);
        let s_dec = (vm * vm - v1 * v1) / (2.0 * d);
        (vm - v0) / a + (vm - v1) / d + (s - s_acc - s_dec) / vm
    }
}

/// Algorithm 2 as printed, with over- and undershooting handled as Algorithm 4 intends (the
/// digest's correction: the change's time where a backup circle is no longer than the extra
/// length needed, else the time over the distance plus that circle).
pub fn time_thesis(veh: &Vehicle, s: f64, v0: f64, v1: f64) -> f64 {
    let (v0, v1) = (v0.clamp(0.0, veh.max_speed), v1.clamp(0.0, veh.max_speed));
    match thesis_direct(veh, s, v0, v1) {
        Some(t) => t,
        None => {
            let (a, d, vm) = (veh.accel, veh.decel, veh.max_speed);
            let (need, t_adj) = if v1 > v0 {
                ((v1 * v1 - v0 * v0) / (2.0 * a), (v1 - v0) / a)
            } else {
                ((v0 * v0 - v1 * v1) / (2.0 * d), (v0 - v1) / d)
            };
            let lateral = if veh.lateral > 0.0 {
                TAU * vm * vm / veh.lateral
            } else {
                0.0
            };
            let circle = (TAU * veh.turning_radius).max(lateral);
            if need - s >= circle {
                t_adj
            } else {
                thesis_direct(veh, s + circle, v0, v1).unwrap_or(t_adj)
            }
        }
    }
}

/// Algorithm 2 without its overshoot branch: `None` where it would hand over.
fn thesis_direct(veh: &Vehicle, s: f64, v0: f64, v1: f64) -> Option<f64> {
    let (a, d, vm) = (veh.accel, veh.decel, veh.max_speed);
    let t_max = s / vm;
    let (t_acc, t_dec) = ((vm - v0) / a, (vm - v1) / d);
    if t_max >= t_acc + t_dec {
        return Some(t_max + (t_acc + t_dec) / 2.0);
    }
    let acc = (2.0 * d * s - v0 * v0 + v1 * v1) / (2.0 * (a + d));
    if acc < 0.0 || acc > s {
        return None;
    }
    let ta = ((v0 * v0 + 2.0 * a * acc).sqrt() - v0) / a;
    let td = ((v1 * v1 + 2.0 * d * (s - acc)).sqrt() - v1) / d;
    Some(ta + td)
}

#[cfg(test)]
mod tests {
    use super::super::model::along;
    use super::*;

    fn follow(a: &Pose, w: &Word, r: f64) -> Pose {
        let mut p = *a;
        for (len, turn) in w.lengths.iter().zip(w.turns) {
            p = along(p, len * r, len * turn);
        }
        p
    }

    #[test]
    fn every_word_ends_at_the_goal_pose() {
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut checked = 0;
        for _ in 0..2000 {
            let a = Pose::new(rnd() * 40.0 - 20.0, rnd() * 40.0 - 20.0, rnd() * 360.0, 0.0);
            let b = Pose::new(rnd() * 40.0 - 20.0, rnd() * 40.0 - 20.0, rnd() * 360.0, 0.0);
            let r = 2.0 + rnd() * 6.0;
            for w in words(&a, &b, r, true) {
                let e = follow(&a, &w, r);
                assert!((e.x - b.x).hypot(e.y - b.y) < 1e-6, "{w:?}: {e:?} vs {b:?}");
                assert!(super::super::model::turn_between(e.phi, b.phi).abs() < 1e-6);
                checked += 1;
            }
        }
        assert!(checked > 8000, "{checked}");
    }

    #[test]
    fn csc_distance_matches_the_digest_checks() {
        let r = 5.0;
        let o = Pose::new(0.0, 0.0, 0.0, 0.0);
        // Straight ahead: the straight line.
        assert!((distance(&o, &Pose::new(30.0, 0.0, 0.0, 0.0), r, Words::Csc) - 30.0).abs() < 1e-9);
        // A half turn left to (0, 2r) facing back: π r.
        let back = Pose::new(0.0, 2.0 * r, 180.0, 0.0);
        assert!((distance(&o, &back, r, Words::Csc) - PI * r).abs() < 1e-9);
        // Formula 4.2's average offset: about 7.2 r at 1 r, 4.4 r at 2 r, 2.34 r at 4 r and
        // near 2 r far away (the digest's check at 1° steps; here 5°).
        for (d, want) in [
            (1.0, 7.20),
            (2.0, 4.44),
            (4.0, 2.34),
            (8.0, 2.07),
            (12.0, 2.00),
        ] {
            let got = average_offset(d);
            assert!((got - want).abs() < 0.06, "{d}: {got} against {want}");
        }
        // Dubins is never longer than CSC, and shorter for some near goals.
        let near = Pose::new(1.0, 0.5, 180.0, 0.0);
        assert!(distance(&o, &near, r, Words::Dubins) < distance(&o, &near, r, Words::Csc) - 1e-6);
    }

    #[test]
    fn exact_time_is_the_kinematics_and_the_thesis_formula_overestimates() {
        let v = Vehicle {
            turning_radius: 5.0,
            lateral: 10.0,
            accel: 1.5,
            decel: 5.0,
            max_speed: 13.8,
        };
        // The digest's example: 1000 m from 6.9 to 6.9 m/s: exact 73.96 s, printed 75.45 s.
        assert!((time_exact(&v, 1000.0, 6.9, 6.9) - 73.96).abs() < 0.01);
        assert!((time_thesis(&v, 1000.0, 6.9, 6.9) - 75.45).abs() < 0.01);
        // 100 m from rest to rest: exact 13.23 s; the thesis's no-cruise branch 13.17 s.
        assert!((time_exact(&v, 100.0, 0.0, 0.0) - 13.23).abs() < 0.01);
        assert!((time_thesis(&v, 100.0, 0.0, 0.0) - 13.17).abs() < 0.01);
        // Integrating the kinematics: accelerate from rest for 4 s, brake to rest.
        let s = 0.5 * 1.5 * 16.0 + 36.0 / (2.0 * 5.0);
        assert!((time_exact(&v, s, 0.0, 0.0) - (4.0 + 6.0 / 5.0)).abs() < 1e-9);
        // Too short to brake from 13.8 to 0: the braking alone.
        assert!((time_exact(&v, 1.0, 13.8, 0.0) - 13.8 / 5.0).abs() < 1e-9);
        // Never impossible, for any handled case.
        for s in [0.0, 0.5, 3.0, 30.0] {
            for (a, b) in [(0.0, 13.8), (13.8, 0.0), (1.0, 1.0)] {
                assert!(time_thesis(&v, s, a, b).is_finite());
                assert!(time_exact(&v, s, a, b).is_finite());
            }
        }
    }
}

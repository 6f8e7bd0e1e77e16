//! A moving 3D scene of the kind Krafft 2019 tested on: a 64 × 56 × 16 box of unit cells,
//! 6-connected, static walls, and 18 moving obstacles: 10 boxes patrolling between two points
//! (speeds 1, 2, 2, 1.5, 2, 2, 2, 2, 2, 2 cells/s), 3 bars turning at 8°/s (two about z, one
//! about x) and 5 blocks appearing and disappearing on timers (7, 5, 3, 5, 5 s), the numbers
//! of the thesis's scene. Its geometry is not in the thesis; this one is built to be comparable:
//! three walls across x with openings, the timed blocks in some of the openings, the patrols
//! and bars in the bays between the walls.
//!
//! Each tick the obstacles are rasterised onto the voxel grid: a cell is blocked when the
//! obstacle touches it (boxes and the bars' rotated boxes tested exactly, in the plane the bar
//! turns in). With `safety`, moving obstacles are rasterised enlarged by half a cell and
//! stretched a quarter second ahead of their motion (the thesis's safety collider).

use super::scene3d_cells::stamp;
pub use super::scene3d_cells::touches;
use crate::map::voxel::VoxelGrid;

/// Size of the box, in cells.
pub const DIMS: [u32; 3] = [64, 56, 16];

/// How an obstacle moves.
#[derive(Clone, Debug)]
pub enum Motion {
    Static,
    /// Back and forth between `centre` and `to` at `speed` cells/s.
    Patrol {
        to: [f32; 3],
        speed: f32,
    },
    /// Turning about its centre at `deg_per_s`, about z (`about_z`) or x.
    Turn {
        deg_per_s: f32,
        about_z: bool,
    },
    /// Present for `period` seconds, absent for the next `period`.
    Timed {
        period: f32,
    },
}

/// A box: centre, half extents, motion.
#[derive(Clone, Debug)]
pub struct Obstacle {
    pub centre: [f32; 3],
    pub half: [f32; 3],
    pub motion: Motion,
}

/// Where an obstacle is at a time: centre, half extents and rotation angle (radians) in the
/// plane of its turn; `None` while a timed block is away.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub centre: [f32; 3],
    pub half: [f32; 3],
    pub angle: f32,
    pub about_z: bool,
}

/// The scene: obstacles, the agent's start, and the destination's patrol (its two ends).
#[derive(Clone, Debug)]
pub struct Scene {
    pub obstacles: Vec<Obstacle>,
    pub start: [f32; 3],
    pub destination: [f32; 3],
    /// With a moving destination: the other end of its patrol, and its speed.
    pub destination_to: [f32; 3],
    pub destination_speed: f32,
    pub agent_speed: f32,
}

fn wall(x: f32, gaps: &[([f32; 2], [f32; 2])]) -> Vec<Obstacle> {
    // A wall two cells thick across y and z, cut into boxes around its gaps: rows of z bands.
    let mut out = vec![];
    let (h, d) = (DIMS[1] as f32, DIMS[2] as f32);
    let mut zs: Vec<f32> = vec![0.0, d];
    for (_, z) in gaps {
        zs.extend([z[0], z[1]]);
    }
    zs.sort_by(f32::total_cmp);
    zs.dedup();
    for band in zs.windows(2) {
        let (z0, z1) = (band[0], band[1]);
        let mut ys: Vec<(f32, f32)> = vec![];
        let mut y = 0.0;
        let mut cuts: Vec<[f32; 2]> = gaps
            .iter()
            .filter(|(_, z)| z[0] <= z0 && z[1] >= z1)
            .map(|(y, _)| *y)
            .collect();
        cuts.sort_by(|a, b| a[0].total_cmp(&b[0]));
        for c in cuts {
            ys.push((y, c[0]));
            y = c[1];
        }
        ys.push((y, h));
        for (y0, y1) in ys.into_iter().filter(|(a, b)| b > a) {
            out.push(Obstacle {
                centre: [x, (y0 + y1) / 2.0, (z0 + z1) / 2.0],
                half: [1.0, (y1 - y0) / 2.0, (z1 - z0) / 2.0],
                motion: Motion::Static,
            });
        }
    }
    out
}

impl Scene {
    /// The built-in scene (see the module's text); `moving_destination` for Krafft's fully
    /// dynamic scenario, where the destination patrols along y at 2 cells/s.
    pub fn krafft2019_like(moving_destination: bool) -> Scene {
        let mut obstacles = vec![];
        // Walls at x = 16, 32 and 48 with two or three openings each (y range, z range).
        obstacles.extend(wall(
            16.0,
            &[
                ([6.0, 14.0], [2.0, 9.0]),
                ([30.0, 36.0], [8.0, 15.0]),
                ([44.0, 52.0], [1.0, 7.0]),
            ],
        ));
        obstacles.extend(wall(
            32.0,
            &[
                ([2.0, 9.0], [6.0, 14.0]),
                ([22.0, 30.0], [1.0, 8.0]),
                ([42.0, 50.0], [7.0, 14.0]),
            ],
        ));
        obstacles.extend(wall(
            48.0,
            &[
                ([10.0, 18.0], [3.0, 10.0]),
                ([28.0, 34.0], [9.0, 15.0]),
                ([46.0, 53.0], [2.0, 9.0]),
            ],
        ));
        // Five timed blocks in openings: each closes one of two ways through its wall.
        for (c, period) in [
            ([16.0, 10.0, 5.5], 7.0),
            ([32.0, 26.0, 4.5], 5.0),
            ([48.0, 14.0, 6.5], 3.0),
            ([16.0, 48.0, 4.0], 5.0),
            ([48.0, 31.0, 12.0], 5.0),
        ] {
            obstacles.push(Obstacle {
                centre: c,
                half: [1.5, 3.0, 3.0],
                motion: Motion::Timed { period },
            });
        }
        // Ten patrols, 2 × 2 × 2 boxes, in the bays between the walls; five of them at the
        // start's and destination's height, across the way through each bay, so that they
        // cross the agent's path as the thesis's obstacles do (with all of them off it, every
        // static-destination run flew the same 113.6 cells).
        let patrols: [([f32; 3], [f32; 3], f32); 10] = [
            ([8.0, 1.0, 8.0], [8.0, 50.0, 8.0], 1.0),
            ([11.0, 50.0, 11.0], [11.0, 6.0, 11.0], 2.0),
            ([21.0, 5.0, 8.0], [28.0, 50.0, 8.0], 2.0),
            ([25.0, 30.0, 2.0], [25.0, 30.0, 14.0], 1.5),
            ([37.0, 50.0, 5.0], [44.0, 5.0, 5.0], 2.0),
            ([40.0, 10.0, 12.0], [40.0, 46.0, 12.0], 2.0),
            ([53.0, 5.0, 8.0], [53.0, 54.0, 8.0], 2.0),
            ([58.0, 45.0, 12.0], [58.0, 10.0, 3.0], 2.0),
            ([19.0, 34.0, 8.0], [30.0, 34.0, 8.0], 2.0),
            ([36.0, 30.0, 8.0], [44.0, 50.0, 8.0], 2.0),
        ];
        for (from, to, speed) in patrols {
            obstacles.push(Obstacle {
                centre: from,
                half: [1.0, 1.0, 1.0],
                motion: Motion::Patrol { to, speed },
            });
        }
        // Three bars turning at 8°/s: two about z, one about x.
        for (c, half, about_z) in [
            ([8.0, 28.0, 8.0], [6.0, 0.5, 0.5], true),
            ([40.0, 28.0, 4.0], [6.0, 0.5, 0.5], true),
            ([56.0, 28.0, 8.0], [0.5, 6.0, 0.5], false),
        ] {
            obstacles.push(Obstacle {
                centre: c,
                half,
                motion: Motion::Turn {
                    deg_per_s: 8.0,
                    about_z,
                },
            });
        }
        Scene {
            obstacles,
            start: [1.5, 1.5, 8.5],
            destination: [62.5, 54.5, 8.5],
            destination_to: if moving_destination {
                [62.5, 4.5, 8.5]
            } else {
                [62.5, 54.5, 8.5]
            },
            destination_speed: 2.0,
            agent_speed: 4.0,
        }
    }

    /// Obstacle `i` where it stands before it moves.
    fn still(&self, i: usize) -> Pose {
        let o = &self.obstacles[i];
        Pose {
            centre: o.centre,
            half: o.half,
            angle: 0.0,
            about_z: true,
        }
    }

    /// Where obstacle `i` is at time `t` (s); a timed block on its own timer (a flight holds
    /// it while the agent is near: [`TimedClock`]).
    pub fn pose(&self, i: usize, t: f32) -> Option<Pose> {
        let o = &self.obstacles[i];
        let still = self.still(i);
        match o.motion {
            Motion::Static => Some(still),
            Motion::Patrol { to, speed } => Some(Pose {
                centre: patrol(o.centre, to, speed, t),
                ..still
            }),
            Motion::Turn { deg_per_s, about_z } => Some(Pose {
                angle: (deg_per_s * t).to_radians(),
                about_z,
                ..still
            }),
            Motion::Timed { period } => ((t / period).floor() as i64 % 2 == 0).then_some(still),
        }
    }

    /// Where the destination is at time `t`.
    pub fn destination_at(&self, t: f32) -> [f32; 3] {
        patrol(
            self.destination,
            self.destination_to,
            self.destination_speed,
            t,
        )
    }

    /// The blocked cells at time `t` into `out` (cleared first), the timed blocks as `timed`
    /// says (a flight's [`TimedClock`], or [`Scene::timed_on_schedule`]); `safety` enlarges
    /// moving obstacles (see the module's text).
    pub fn rasterise(&self, t: f32, safety: bool, timed: Timed, out: &mut VoxelGrid) {
        self.rasterise_some(t, safety, timed, |_| true, out);
    }

    /// The cells the obstacles that move (patrolling, turning, timed) touch at time `t`, by
    /// their true shapes: what the app draws in their own colour.
    pub fn rasterise_moving(&self, t: f32, timed: Timed, out: &mut VoxelGrid) {
        self.rasterise_some(t, false, timed, |m| !matches!(m, Motion::Static), out);
    }

    /// The timed blocks, in order: (their bit in [`Timed`], obstacle index, period).
    fn timed_blocks(&self) -> impl Iterator<Item = (usize, usize, f32)> + '_ {
        self.obstacles
            .iter()
            .enumerate()
            .filter_map(|(i, o)| match o.motion {
                Motion::Timed { period } => Some((i, period)),
                _ => None,
            })
            .enumerate()
            .map(|(k, (i, p))| (k, i, p))
    }

    /// The timed blocks present at `t` on their own timers, with no agent to hold them.
    pub fn timed_on_schedule(&self, t: f32) -> Timed {
        let mut m = 0;
        for (k, i, _) in self.timed_blocks() {
            if self.pose(i, t).is_some() {
                m |= 1 << k;
            }
        }
        Timed(m)
    }

    fn rasterise_some(
        &self,
        t: f32,
        safety: bool,
        timed: Timed,
        keep: impl Fn(&Motion) -> bool,
        out: &mut VoxelGrid,
    ) {
        *out = VoxelGrid::new(DIMS[0], DIMS[1], DIMS[2]).expect("the scene's box fits");
        let mut k = 0;
        for i in 0..self.obstacles.len() {
            let motion = &self.obstacles[i].motion;
            let present = match motion {
                // The timed blocks as `timed` has them, not as their timers alone would.
                Motion::Timed { .. } => {
                    k += 1;
                    timed.0 & (1 << (k - 1)) != 0
                }
                _ => true,
            };
            if !present || !keep(motion) {
                continue;
            }
            let mut p = self.pose(i, t).unwrap_or_else(|| self.still(i));
            let moving = !matches!(
                self.obstacles[i].motion,
                Motion::Static | Motion::Timed { .. }
            );
            if safety && moving {
                p.half = p.half.map(|h| h + 0.5);
                if let Motion::Patrol { .. } = self.obstacles[i].motion {
                    // Stretched towards where it will be a quarter second on.
                    let ahead = self.pose(i, t + 0.25).map_or(p.centre, |q| q.centre);
                    for ((c, h), a) in p.centre.iter_mut().zip(p.half.iter_mut()).zip(ahead) {
                        let d = (a - *c) / 2.0;
                        *c += d;
                        *h += d.abs();
                    }
                }
            }
            stamp(&p, out);
        }
    }
}

/// How near the agent (its centre, in cells, to a timed block's box) holds a timed block as it
/// is. Krafft 2019 §4.4.4: the appearing and disappearing blocks "can only change their
/// status, when the AI is not near them"; the thesis does not say how near. pathlab takes 2
/// cells: the agent flies 1 cell between two graph updates (4 cells/s, every 0.25 s), so a
/// block switching within 2 cells could close over the agent, or in its way, before a plan
/// has seen it.
pub const NEAR: f32 = 2.0;

/// Which timed blocks are present: bit k for the scene's k-th timed block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timed(pub u32);

/// The timed blocks' timers during a flight (Krafft 2019 §4.4.4). A block switches when its
/// period is up and the agent is not within [`NEAR`] of it; a switch that fell due while the
/// agent was near comes as soon as it is not, and the block then keeps its new state a full
/// period. With the agent never near, the blocks keep their own timers
/// ([`Scene::timed_on_schedule`]).
#[derive(Clone, Debug)]
pub struct TimedClock {
    present: Timed,
    /// Per block: when its next switch falls due, and whether one is waiting for the agent.
    due: Vec<(f32, bool)>,
}

impl TimedClock {
    /// The timers as they stand at scene time `t`.
    pub fn new(scene: &Scene, t: f32) -> TimedClock {
        TimedClock {
            present: scene.timed_on_schedule(t),
            due: scene
                .timed_blocks()
                .map(|(_, _, p)| (((t / p).floor() + 1.0) * p, false))
                .collect(),
        }
    }

    pub fn present(&self) -> Timed {
        self.present
    }

    /// Moves the timers on to scene time `t`, with the agent at `agent`; the blocks present
    /// then.
    pub fn advance(&mut self, scene: &Scene, t: f32, agent: [f32; 3]) -> Timed {
        for (k, i, period) in scene.timed_blocks() {
            let (due, waited) = &mut self.due[k];
            if t < *due {
                continue;
            }
            if scene.distance_to(i, agent) <= NEAR {
                *waited = true;
                continue;
            }
            self.present.0 ^= 1 << k;
            // On time, the timer keeps its beat; after a wait, a full period from now.
            *due = if *waited { t + period } else { *due + period };
            *waited = false;
        }
        self.present
    }
}

impl Scene {
    /// The distance (cells) from point `a` to obstacle `i`'s box where it stands (0 inside).
    pub fn distance_to(&self, i: usize, a: [f32; 3]) -> f32 {
        let o = &self.obstacles[i];
        (0..3)
            .map(|d| ((a[d] - o.centre[d]).abs() - o.half[d]).max(0.0).powi(2))
            .sum::<f32>()
            .sqrt()
    }
}

/// Position on a back-and-forth patrol from `a` to `b` at `speed` after `t` seconds.
fn patrol(a: [f32; 3], b: [f32; 3], speed: f32, t: f32) -> [f32; 3] {
    let len = (0..3).map(|i| (b[i] - a[i]).powi(2)).sum::<f32>().sqrt();
    if len == 0.0 || speed == 0.0 {
        return a;
    }
    let s = (speed * t).rem_euclid(2.0 * len);
    let f = if s <= len { s / len } else { 2.0 - s / len };
    [0, 1, 2].map(|i| a[i] + (b[i] - a[i]) * f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scene_moves_and_keeps_its_counts() {
        let s = Scene::krafft2019_like(true);
        let count = |f: fn(&Motion) -> bool| s.obstacles.iter().filter(|o| f(&o.motion)).count();
        assert_eq!(count(|m| matches!(m, Motion::Patrol { .. })), 10);
        assert_eq!(count(|m| matches!(m, Motion::Turn { .. })), 3);
        assert_eq!(count(|m| matches!(m, Motion::Timed { .. })), 5);
        let mut a = VoxelGrid::new(1, 1, 1).unwrap();
        let mut b = a.clone();
        s.rasterise(0.0, false, s.timed_on_schedule(0.0), &mut a);
        s.rasterise(3.5, false, s.timed_on_schedule(3.5), &mut b);
        assert_ne!(a, b, "obstacles move");
        let start = s.start.map(|v| v.floor() as i64);
        assert!(!a.is_blocked(start[0], start[1], start[2]));
        // The safety collider blocks more.
        s.rasterise(0.0, true, s.timed_on_schedule(0.0), &mut b);
        assert!(b.count_blocked() > a.count_blocked());
        assert_ne!(s.destination_at(0.0), s.destination_at(5.0));
    }
}

//! Seeded random square maps shared by the oracle suites.
#![allow(dead_code)]

use pathlab::map::{Cell, Grid};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A map of a side in `sides` each way: walls (and trees, on terrain maps) at a random density,
/// swamp, water and grass on three maps in ten, and on three in ten a cost per cell from
/// `cost`. The draws come in one fixed order, so a seed always gives the same maps.
pub fn random_map(
    rng: &mut ChaCha8Rng,
    sides: std::ops::Range<u32>,
    cost: impl Fn(&mut ChaCha8Rng) -> f32,
) -> Grid {
    let (w, h) = (rng.random_range(sides.clone()), rng.random_range(sides));
    let density = rng.random_range(0.0..0.45);
    let terrain = rng.random_bool(0.3);
    let costs = rng.random_bool(0.3);
    let mut g = Grid::new(w, h, Cell::FREE);
    for y in 0..h {
        for x in 0..w {
            let tile = if rng.random_bool(density) {
                if terrain && rng.random_bool(0.3) {
                    b'T'
                } else {
                    b'@'
                }
            } else if terrain && rng.random_bool(0.15) {
                [b'S', b'W', b'G'][rng.random_range(0..3)]
            } else {
                b'.'
            };
            let c = if costs { cost(rng) } else { 1.0 };
            g.set(x, y, Cell { tile, cost: c });
        }
    }
    g
}

//! Seeded map generators: the same parameters and seed always give the same map.

use super::grid::Grid;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A map generator and its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Generator {
    /// Every cell is a wall with probability `density` (0–1).
    RandomBlocks { density: f64 },
    /// Square rooms `room` cells wide inside one-cell walls, each wall between two rooms with
    /// one door, so every room is reachable.
    Rooms { room: u32 },
    /// A perfect maze (one route between any two places) with corridors `corridor` cells wide.
    Maze { corridor: u32 },
}

impl std::fmt::Display for Generator {
    /// How the generator reads in status lines and notes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Generator::RandomBlocks { density } => {
                write!(f, "random blocks ({:.0}% walls)", density * 100.0)
            }
            Generator::Rooms { room } => write!(f, "rooms {room} cells wide, one door per wall"),
            Generator::Maze { corridor } => write!(f, "a maze with corridors {corridor} wide"),
        }
    }
}

impl Generator {
    /// A `width × height` map (sides at least 1) from `seed`.
    pub fn generate(self, width: u32, height: u32, seed: u64) -> Grid {
        let (w, h) = (width.max(1), height.max(1));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let tiles = match self {
            Generator::RandomBlocks { density } => {
                let p = density.clamp(0.0, 1.0);
                (0..w as usize * h as usize)
                    .map(|_| if rng.random_bool(p) { b'@' } else { b'.' })
                    .collect()
            }
            Generator::Rooms { room } => rooms(w, h, room.max(1), &mut rng),
            Generator::Maze { corridor } => maze(w, h, corridor.max(1), &mut rng),
        };
        Grid::from_tiles(w, h, tiles)
    }
}

fn rooms(w: u32, h: u32, room: u32, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let (wu, hu) = (w as usize, h as usize);
    let pitch = room + 1;
    let mut t = vec![b'.'; wu * hu];
    // Walls on every pitch-th column and row.
    for y in 0..h {
        for x in 0..w {
            if x % pitch == room || y % pitch == room {
                t[y as usize * wu + x as usize] = b'@';
            }
        }
    }
    // One door in each wall segment between two rooms.
    let door = |rng: &mut ChaCha8Rng, from: u32, len: u32| from + rng.random_range(0..len);
    for ry in 0..h.div_ceil(pitch) {
        for rx in 0..w.div_ceil(pitch) {
            let (x0, y0) = (rx * pitch, ry * pitch);
            let (rw, rh) = (room.min(w - x0), room.min(h - y0));
            let east = x0 + room;
            if east + 1 < w {
                let y = door(rng, y0, rh);
                t[y as usize * wu + east as usize] = b'.';
            }
            let south = y0 + room;
            if south + 1 < h {
                let x = door(rng, x0, rw);
                t[south as usize * wu + x as usize] = b'.';
            }
        }
    }
    t
}

fn maze(w: u32, h: u32, corridor: u32, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let (wu, hu) = (w as usize, h as usize);
    let pitch = corridor + 1;
    // Maze cells sit at (1 + i·pitch, 1 + j·pitch), each `corridor` wide, inside a wall border.
    let cw = (w.saturating_sub(1) / pitch).max(1) as usize;
    let ch = (h.saturating_sub(1) / pitch).max(1) as usize;
    let mut t = vec![b'@'; wu * hu];
    let mut carve = |x0: u32, y0: u32, cw_: u32, ch_: u32| {
        for y in y0..(y0 + ch_).min(h) {
            for x in x0..(x0 + cw_).min(w) {
                t[y as usize * wu + x as usize] = b'.';
            }
        }
    };
    let origin = |i: usize| 1 + i as u32 * pitch;
    let mut seen = vec![false; cw * ch];
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    carve(origin(0), origin(0), corridor, corridor);
    // Iterative depth-first search (recursive backtracker): no recursion depth limit on big maps.
    while let Some(&(i, j)) = stack.last() {
        let mut next = [(0usize, 0usize); 4];
        let mut n = 0;
        if i > 0 && !seen[j * cw + i - 1] {
            next[n] = (i - 1, j);
            n += 1;
        }
        if i + 1 < cw && !seen[j * cw + i + 1] {
            next[n] = (i + 1, j);
            n += 1;
        }
        if j > 0 && !seen[(j - 1) * cw + i] {
            next[n] = (i, j - 1);
            n += 1;
        }
        if j + 1 < ch && !seen[(j + 1) * cw + i] {
            next[n] = (i, j + 1);
            n += 1;
        }
        if n == 0 {
            stack.pop();
            continue;
        }
        let (a, b) = next[rng.random_range(0..n)];
        seen[b * cw + a] = true;
        // Carve the cell and the wall between: the span from the lower to the higher origin.
        let (x0, y0) = (origin(i.min(a)), origin(j.min(b)));
        let (x1, y1) = (origin(i.max(a)), origin(j.max(b)));
        carve(x0, y0, x1 - x0 + corridor, y1 - y0 + corridor);
        stack.push((a, b));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_map_other_seed_other_map() {
        for gen in [
            Generator::RandomBlocks { density: 0.3 },
            Generator::Rooms { room: 7 },
            Generator::Maze { corridor: 2 },
        ] {
            let a = gen.generate(40, 30, 5);
            assert_eq!(a, gen.generate(40, 30, 5), "{gen:?}");
            assert_ne!(a, gen.generate(40, 30, 6), "{gen:?}");
            assert_eq!((a.width(), a.height()), (40, 30));
        }
    }

    #[test]
    fn random_density_is_close_to_asked() {
        let g = Generator::RandomBlocks { density: 0.25 }.generate(100, 100, 1);
        let walls = g.tiles().iter().filter(|&&t| t == b'@').count();
        assert!((2300..2700).contains(&walls), "{walls}");
    }
}

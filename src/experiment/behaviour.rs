//! Obstacle behaviours for a 2D map that changes while an agent crosses it: Mäntysalo 2024's blocks
//! flipping as units (random maps) and doors (room maps), on Mäntysalo 2024's seeded tape; and seed
//! 000's timed blocks (there for `on` ticks, gone for `off`) and patrolling blocks (back and
//! forth along a line). A [`World`] turns them into cell changes tick by tick; what it did is
//! kept as a [`ChangeTape`] that replays the same changes on the same map.

use super::dynamic::{DynamicMap, Tape};
use crate::map::io::IoError;
use crate::map::{Cell, Grid};
use serde::{Deserialize, Serialize};

/// A block with a timetable or a beat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Mover {
    /// A `w × h` block at (x, y): present for `on` ticks, then absent for `off` ticks, shifted
    /// by `phase` ticks.
    Timed {
        x: u32,
        y: u32,
        w: u32,
        h: u32,
        on: u32,
        off: u32,
        phase: u32,
    },
    /// A `w × h` block starting at (x, y), moving `len` cells in direction (dx, dy) one cell
    /// every `every` ticks, then back, forever.
    Patrol {
        x: u32,
        y: u32,
        w: u32,
        h: u32,
        dx: i32,
        dy: i32,
        len: u32,
        every: u32,
    },
}

impl Mover {
    /// The cells the block covers at `tick` (clipped to a `width × height` map).
    pub fn cells_at(&self, tick: u64, width: u32, height: u32) -> Vec<(u32, u32)> {
        let (x0, y0, w, h) = match *self {
            Mover::Timed {
                x,
                y,
                w,
                h,
                on,
                off,
                phase,
            } => {
                let period = (on + off).max(1) as u64;
                if (tick + phase as u64) % period >= on as u64 {
                    return vec![];
                }
                (x as i64, y as i64, w, h)
            }
            Mover::Patrol {
                x,
                y,
                w,
                h,
                dx,
                dy,
                len,
                every,
            } => {
                // Out for len moves, back for len moves.
                let moves = tick / every.max(1) as u64;
                let k = if len == 0 {
                    0
                } else {
                    let m = moves % (2 * len as u64);
                    if m <= len as u64 {
                        m
                    } else {
                        2 * len as u64 - m
                    }
                } as i64;
                (x as i64 + dx as i64 * k, y as i64 + dy as i64 * k, w, h)
            }
        };
        let mut out = vec![];
        for cy in y0.max(0)..(y0 + h as i64).min(height as i64) {
            for cx in x0.max(0)..(x0 + w as i64).min(width as i64) {
                out.push((cx as u32, cy as u32));
            }
        }
        out
    }
}

/// Mäntysalo 2024's flips on a map: its blocks, their tape and their state.
#[derive(Clone, Debug)]
struct Flips {
    map: DynamicMap,
    tape: Tape,
    closed: Vec<bool>,
    /// Ticks between changes (Mäntysalo 2024: 10).
    every: u64,
}

/// Cells and what they become: (x, y, cell).
pub type CellChanges = Vec<(u32, u32, Cell)>;

/// A recorded sequence of changes: at each tick, the cells that changed and what they became.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChangeTape {
    pub events: Vec<(u64, CellChanges)>,
}

/// A change tape on disk: the map size it was made on, and its events.
#[derive(Serialize, Deserialize)]
struct TapeFile {
    version: u32,
    width: u32,
    height: u32,
    events: Vec<(u64, CellChanges)>,
}

/// Version of the tape file format.
pub const TAPE_VERSION: u32 = 1;

impl ChangeTape {
    /// Writes the tape (made on a `width × height` map) as RON, atomically.
    pub fn save(&self, path: &std::path::Path, width: u32, height: u32) -> Result<(), IoError> {
        let file = TapeFile {
            version: TAPE_VERSION,
            width,
            height,
            events: self.events.clone(),
        };
        let text =
            ron::ser::to_string_pretty(&file, ron::ser::PrettyConfig::default()).map_err(|e| {
                IoError::Format {
                    file: path.to_path_buf(),
                    msg: e.to_string(),
                }
            })?;
        crate::map::io::write_atomic(path, text.as_bytes())
    }

    /// Reads a tape and the map size it was made on; errors name the file and line.
    pub fn load(path: &std::path::Path) -> Result<(ChangeTape, (u32, u32)), IoError> {
        ChangeTape::parse(&crate::map::io::read_text_file(path)?, path)
    }

    /// Parses tape text as [`Self::load`] does; `path` is only used in error messages.
    pub fn parse(text: &str, path: &std::path::Path) -> Result<(ChangeTape, (u32, u32)), IoError> {
        let file: TapeFile = ron::from_str(text)
            .map_err(|e| IoError::parse(path, e.span.start.line, e.code.to_string()))?;
        if file.version > TAPE_VERSION {
            return Err(IoError::parse(
                path,
                1,
                format!(
                    "tape version {} is newer than this pathlab reads ({TAPE_VERSION})",
                    file.version
                ),
            ));
        }
        let format = |msg: String| IoError::Format {
            file: path.to_path_buf(),
            msg,
        };
        if let Some(msg) = crate::limits::grid_size_error(file.width as u64, file.height as u64) {
            return Err(format(format!("the tape's map size: {msg}")));
        }
        let bad_cell = file.events.iter().find_map(|(tick, cells)| {
            cells.iter().find_map(|&(x, y, c)| {
                if x >= file.width || y >= file.height {
                    Some(format!(
                        "tick {tick}: cell ({x}, {y}) is outside the tape's {}×{} map",
                        file.width, file.height
                    ))
                } else if !(c.cost.is_finite() && c.cost > 0.0 && c.tile.is_ascii_graphic()) {
                    Some(format!(
                        "tick {tick}: cell ({x}, {y}) gets tile {} with cost {}, not a map tile \
                         with a positive finite cost",
                        c.tile, c.cost
                    ))
                } else {
                    None
                }
            })
        });
        if let Some(msg) = bad_cell {
            return Err(format(msg));
        }
        if !file.events.windows(2).all(|w| w[0].0 < w[1].0) {
            return Err(IoError::Format {
                file: path.to_path_buf(),
                msg: "the ticks of a change tape must increase".into(),
            });
        }
        Ok((
            ChangeTape {
                events: file.events,
            },
            (file.width, file.height),
        ))
    }

    /// The changes recorded at `tick`.
    pub fn at(&self, tick: u64) -> &[(u32, u32, Cell)] {
        match self.events.binary_search_by_key(&tick, |e| e.0) {
            Ok(i) => &self.events[i].1,
            Err(_) => &[],
        }
    }
}

/// The behaviours of one map, advanced tick by tick.
#[derive(Clone, Debug)]
pub struct World {
    /// Tiles before anything moved: a block leaving a cell gives back its tile.
    base: Grid,
    flips: Option<Flips>,
    movers: Vec<Mover>,
    /// Cells the movers covered at the last tick.
    covered: Vec<(u32, u32)>,
    /// Everything this world did.
    pub tape: ChangeTape,
}

impl World {
    /// A world on `grid` with no behaviour yet.
    pub fn new(grid: &Grid) -> World {
        World {
            base: grid.clone(),
            flips: None,
            movers: vec![],
            covered: vec![],
            tape: ChangeTape::default(),
        }
    }

    /// Mäntysalo 2024's flips: every `every` ticks, `percent` of `map`'s blocks change (as many
    /// open as close), drawn from `seed`.
    pub fn with_flips(mut self, map: DynamicMap, percent: f64, every: u64, seed: u64) -> World {
        let tape = Tape::new(&map, percent / 100.0, seed);
        let closed = map.initial.clone();
        self.flips = Some(Flips {
            map,
            tape,
            closed,
            every: every.max(1),
        });
        self
    }

    /// Adds a timed or patrolling block.
    pub fn with_mover(mut self, m: Mover) -> World {
        self.movers.push(m);
        self
    }

    /// The cells that change from tick `tick − 1` to `tick`, as (x, y, new cell), and records
    /// them. Nothing closes over a cell in `keep_free` (where an agent stands): a block that
    /// would, stays open there for this tick.
    pub fn tick(
        &mut self,
        tick: u64,
        grid: &Grid,
        keep_free: &[(u32, u32)],
    ) -> Vec<(u32, u32, Cell)> {
        let (w, h) = (grid.width(), grid.height());
        let mut want: std::collections::BTreeMap<(u32, u32), Cell> = Default::default();
        if let Some(f) = &mut self.flips {
            if tick > 0 && tick.is_multiple_of(f.every) {
                let ev = f.tape.event((tick / f.every - 1) as usize).to_vec();
                for (o, closed) in ev {
                    let cells = &f.map.obstacles[o];
                    let blocked = |c: &usize| keep_free.contains(&grid.coords(*c));
                    if f.closed[o] == closed || (closed && cells.iter().any(blocked)) {
                        continue;
                    }
                    f.closed[o] = closed;
                    for &c in cells {
                        let p = grid.coords(c);
                        want.insert(p, if closed { Cell::WALL } else { Cell::FREE });
                    }
                }
            }
        }
        if !self.movers.is_empty() {
            let now: Vec<(u32, u32)> = self
                .movers
                .iter()
                .flat_map(|m| m.cells_at(tick, w, h))
                .filter(|p| !keep_free.contains(p))
                .collect();
            for p in &self.covered {
                if !now.contains(p) {
                    let c = self.base.get(p.0, p.1).unwrap_or(Cell::FREE);
                    want.insert(*p, c);
                }
            }
            for p in &now {
                want.insert(*p, Cell::WALL);
            }
            self.covered = now;
        }
        let out: Vec<(u32, u32, Cell)> = want
            .into_iter()
            .filter(|&((x, y), c)| grid.get(x, y).is_some_and(|now| now != c))
            .map(|((x, y), c)| (x, y, c))
            .collect();
        if !out.is_empty() {
            self.tape.events.push((tick, out.clone()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::dynamic::MapKind;

    fn apply(grid: &mut Grid, ch: &[(u32, u32, Cell)]) {
        for &(x, y, c) in ch {
            grid.set(x, y, c);
        }
    }

    #[test]
    fn a_tape_survives_a_round_trip_and_a_bad_file_names_itself() {
        let dir = std::env::temp_dir().join(format!("pathlab-tape-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let tape = ChangeTape {
            events: vec![
                (10, vec![(1, 2, Cell::WALL)]),
                (20, vec![(1, 2, Cell::FREE)]),
            ],
        };
        let p = dir.join("t.ron");
        tape.save(&p, 8, 4).unwrap();
        assert_eq!(ChangeTape::load(&p).unwrap(), (tape, (8, 4)));
        let bad = dir.join("bad.ron");
        std::fs::write(&bad, "(version: 1,\n width: 8,\n height: oops)").unwrap();
        let e = ChangeTape::load(&bad).unwrap_err().to_string();
        assert!(e.contains("bad.ron") && e.contains('3'), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_timed_block_follows_its_timetable() {
        let m = Mover::Timed {
            x: 2,
            y: 3,
            w: 2,
            h: 1,
            on: 3,
            off: 2,
            phase: 0,
        };
        let present: Vec<bool> = (0..10).map(|t| !m.cells_at(t, 10, 10).is_empty()).collect();
        assert_eq!(
            present,
            [true, true, true, false, false, true, true, true, false, false]
        );
        assert_eq!(m.cells_at(0, 10, 10), vec![(2, 3), (3, 3)]);
    }

    #[test]
    fn a_patrol_goes_out_and_back_one_cell_at_a_time() {
        let m = Mover::Patrol {
            x: 1,
            y: 0,
            w: 1,
            h: 1,
            dx: 1,
            dy: 0,
            len: 3,
            every: 2,
        };
        let xs: Vec<u32> = (0..14)
            .step_by(2)
            .map(|t| m.cells_at(t, 10, 10)[0].0)
            .collect();
        assert_eq!(xs, [1, 2, 3, 4, 3, 2, 1]);
    }

    #[test]
    fn movers_give_back_the_tiles_they_covered_and_spare_the_agent() {
        let mut grid = Grid::from_tiles(6, 1, b"..T...".to_vec());
        let mut world = World::new(&grid).with_mover(Mover::Patrol {
            x: 0,
            y: 0,
            w: 1,
            h: 1,
            dx: 1,
            dy: 0,
            len: 5,
            every: 1,
        });
        for t in 0..12 {
            let agent = [(4, 0)];
            let ch = world.tick(t, &grid, &agent);
            apply(&mut grid, &ch);
            assert_ne!(grid.get(4, 0).unwrap().tile, b'@', "never over the agent");
            let walls = grid.tiles().iter().filter(|&&c| c == b'@').count();
            assert!(walls <= 1, "one block at tick {t}");
        }
        // Wherever the block is now, the trees it passed over are back.
        let tile = grid.get(2, 0).unwrap().tile;
        assert!(tile == b'T' || tile == b'@');
    }

    #[test]
    fn flips_are_seeded_and_a_recorded_tape_replays_the_same_world() {
        let map = DynamicMap::generate(MapKind::Random, 32, 5);
        let run = |seed: u64| {
            let mut grid = map.initial_grid();
            let mut world = World::new(&grid).with_flips(map.clone(), 10.0, 10, seed);
            for t in 0..=100 {
                let ch = world.tick(t, &grid, &[(0, 31)]);
                apply(&mut grid, &ch);
            }
            (grid, world.tape)
        };
        let (g1, tape) = run(7);
        let (g2, _) = run(7);
        let (g3, _) = run(8);
        assert_eq!(g1.tiles(), g2.tiles());
        assert_ne!(g1.tiles(), g3.tiles());
        assert_eq!(tape.events.len(), 10, "a change every 10 ticks");
        // Replaying the tape on the starting map gives the same world.
        let mut g = map.initial_grid();
        for t in 0..=100 {
            apply(&mut g, tape.at(t));
        }
        assert_eq!(g.tiles(), g1.tiles());
    }
}

//! The square grid world.

use serde::{Deserialize, Serialize};

/// Terrain kinds of the MovingAI format (the character is kept as written, for round trips).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// `.` and any character the format does not name (HOG2 loads those as ground).
    Ground,
    /// `G`
    Grass,
    /// `S`: passable from ground.
    Swamp,
    /// `W`: passable only from water.
    Water,
    /// `T`: never passable.
    Trees,
    /// `@` and `O`: never passable.
    OutOfBounds,
}

impl Terrain {
    /// Terrain of a map character.
    pub fn of(ch: u8) -> Terrain {
        match ch {
            b'@' | b'O' => Terrain::OutOfBounds,
            b'T' => Terrain::Trees,
            b'W' => Terrain::Water,
            b'S' => Terrain::Swamp,
            b'G' => Terrain::Grass,
            _ => Terrain::Ground,
        }
    }

    /// The canonical character of this terrain.
    pub fn char(self) -> u8 {
        match self {
            Terrain::Ground => b'.',
            Terrain::Grass => b'G',
            Terrain::Swamp => b'S',
            Terrain::Water => b'W',
            Terrain::Trees => b'T',
            Terrain::OutOfBounds => b'@',
        }
    }
}

/// One cell: its map character and the cost multiplier of moving through it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub tile: u8,
    pub cost: f32,
}

impl Cell {
    /// Free ground, cost 1.
    pub const FREE: Cell = Cell {
        tile: b'.',
        cost: 1.0,
    };
    /// A wall (`@`), cost 1.
    pub const WALL: Cell = Cell {
        tile: b'@',
        cost: 1.0,
    };

    /// A cell of the given character with cost 1.
    pub fn tile(tile: u8) -> Cell {
        Cell { tile, cost: 1.0 }
    }
}

/// A rectangular grid; (0, 0) is the upper-left cell, x the column, y the row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Grid {
    width: u32,
    height: u32,
    tiles: Vec<u8>,
    costs: Vec<f32>,
}

impl Grid {
    /// A grid of `width × height` copies of `fill`.
    pub fn new(width: u32, height: u32, fill: Cell) -> Grid {
        let n = width as usize * height as usize;
        Grid {
            width,
            height,
            tiles: vec![fill.tile; n],
            costs: vec![fill.cost; n],
        }
    }

    /// A grid from map characters, cost 1 everywhere. `tiles.len()` must be `width * height`.
    pub fn from_tiles(width: u32, height: u32, tiles: Vec<u8>) -> Grid {
        assert_eq!(tiles.len(), width as usize * height as usize, "tile count");
        let costs = vec![1.0; tiles.len()];
        Grid {
            width,
            height,
            tiles,
            costs,
        }
    }

    /// A grid from rows of text (`.`, `@`, ...); rows shorter than the longest are padded with `@`.
    pub fn from_rows(rows: &[&str]) -> Grid {
        let w = rows.iter().map(|r| r.len()).max().unwrap_or(0) as u32;
        let mut tiles = Vec::with_capacity(w as usize * rows.len());
        for r in rows {
            tiles.extend_from_slice(r.as_bytes());
            tiles.extend(std::iter::repeat_n(b'@', w as usize - r.len()));
        }
        Grid::from_tiles(w, rows.len() as u32, tiles)
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// True if (x, y) is inside the grid.
    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && x < self.width as i64 && y < self.height as i64
    }

    /// Row-major index of (x, y); the caller checks bounds.
    #[inline(always)]
    pub fn index(&self, x: u32, y: u32) -> usize {
        y as usize * self.width as usize + x as usize
    }

    /// (x, y) of a row-major index.
    #[inline(always)]
    pub fn coords(&self, i: usize) -> (u32, u32) {
        (
            (i % self.width as usize) as u32,
            (i / self.width as usize) as u32,
        )
    }

    /// The cell at (x, y), if inside.
    pub fn get(&self, x: u32, y: u32) -> Option<Cell> {
        if x < self.width && y < self.height {
            let i = self.index(x, y);
            Some(Cell {
                tile: self.tiles[i],
                cost: self.costs[i],
            })
        } else {
            None
        }
    }

    /// Overwrites the cell at (x, y); ignored outside.
    pub fn set(&mut self, x: u32, y: u32, c: Cell) {
        if x < self.width && y < self.height {
            let i = self.index(x, y);
            self.tiles[i] = c.tile;
            self.costs[i] = c.cost;
        }
    }

    /// Map characters, row-major.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// Cost multipliers, row-major.
    pub fn costs(&self) -> &[f32] {
        &self.costs
    }

    /// Replaces every cost multiplier; `costs.len()` must equal the cell count.
    pub fn set_costs(&mut self, costs: Vec<f32>) -> Result<(), String> {
        if costs.len() != self.tiles.len() {
            return Err(format!(
                "{} costs for {} cells",
                costs.len(),
                self.tiles.len()
            ));
        }
        if let Some(c) = costs.iter().find(|c| !(c.is_finite() && **c > 0.0)) {
            return Err(format!("cost {c} is not a positive finite number"));
        }
        self.costs = costs;
        Ok(())
    }

    /// Terrain at (x, y); outside the grid is out of bounds.
    pub fn terrain(&self, x: i64, y: i64) -> Terrain {
        if self.contains(x, y) {
            Terrain::of(self.tiles[self.index(x as u32, y as u32)])
        } else {
            Terrain::OutOfBounds
        }
    }

    /// The map as rows of text.
    pub fn rows(&self) -> impl Iterator<Item = &str> {
        self.tiles
            .chunks(self.width.max(1) as usize)
            .map(|r| std::str::from_utf8(r).unwrap_or("?"))
    }
}

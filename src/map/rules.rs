//! The rules a map is read under, shared by the files that store them and the spaces that
//! search by them: which moves a square grid allows, which terrain may be crossed, which way
//! hexes point (and their geometry), which moves a voxel world allows. They sit with the map,
//! below the spaces, so that readers and writers of files need no search graph.

use super::Terrain;
use serde::{Deserialize, Serialize};

/// Which moves a grid allows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Connectivity {
    /// North, east, south, west; cost 1 each.
    Four,
    /// Also diagonals, cost √2, allowed only when both orthogonal neighbours are passable.
    #[default]
    Eight,
}

/// Which terrain may be crossed, and from where (ANCHORS §1.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TerrainRule {
    /// The benchmark author's rule (HOG2 `Map::CanStep`): a move needs both cells in the same
    /// terrain class — ground (`.`, `G`, `S`) or water (`W`); `T`, `@`, `O` are never entered.
    #[default]
    Class,
    /// Only `.` and `G` are passable (PathFinding.js's reading of the format).
    GroundOnly,
}

impl TerrainRule {
    /// The class of a map character: cells of equal class connect; 0 means impassable.
    #[inline]
    pub fn class(self, tile: u8) -> u8 {
        match (self, Terrain::of(tile)) {
            (_, Terrain::OutOfBounds | Terrain::Trees) => 0,
            (TerrainRule::Class, Terrain::Water) => 2,
            (TerrainRule::Class, _) => 1,
            (TerrainRule::GroundOnly, Terrain::Ground | Terrain::Grass) => 1,
            (TerrainRule::GroundOnly, _) => 0,
        }
    }
}

/// Which way the hexagons point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HexOrientation {
    /// A flat edge on top; columns of hexes, odd columns shifted half a hex down.
    Flat,
    /// A corner on top; rows of hexes, odd rows shifted half a hex right.
    #[default]
    Pointy,
}

impl HexOrientation {
    /// Name on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            HexOrientation::Flat => "flat",
            HexOrientation::Pointy => "pointy",
        }
    }

    /// The orientation with this name.
    pub fn from_name(s: &str) -> Option<HexOrientation> {
        match s {
            "flat" => Some(HexOrientation::Flat),
            "pointy" => Some(HexOrientation::Pointy),
            _ => None,
        }
    }

    /// The six neighbour offsets (dx, dy) of a hex at (x, y), clockwise from east (pointy) or
    /// north (flat): fixed, so searches are deterministic.
    #[inline(always)]
    pub fn offsets(self, x: u32, y: u32) -> &'static [(i32, i32); 6] {
        const POINTY_EVEN: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1)];
        const POINTY_ODD: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (0, -1), (1, -1)];
        const FLAT_EVEN: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)];
        const FLAT_ODD: [(i32, i32); 6] = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)];
        match (self, self.shifted(x, y)) {
            (HexOrientation::Pointy, false) => &POINTY_EVEN,
            (HexOrientation::Pointy, true) => &POINTY_ODD,
            (HexOrientation::Flat, false) => &FLAT_EVEN,
            (HexOrientation::Flat, true) => &FLAT_ODD,
        }
    }

    /// True when hex (x, y) sits in a shifted row (pointy) or column (flat).
    #[inline(always)]
    fn shifted(self, x: u32, y: u32) -> bool {
        match self {
            HexOrientation::Pointy => y & 1 == 1,
            HexOrientation::Flat => x & 1 == 1,
        }
    }

    /// Axial coordinates (q, r) of offset (x, y).
    #[inline(always)]
    pub fn axial(self, x: u32, y: u32) -> (i64, i64) {
        let (x, y) = (x as i64, y as i64);
        match self {
            HexOrientation::Pointy => (x - (y - (y & 1)) / 2, y),
            HexOrientation::Flat => (x, y - (x - (x & 1)) / 2),
        }
    }

    /// Steps between two hexes on an open map.
    #[inline(always)]
    pub fn distance(self, a: (u32, u32), b: (u32, u32)) -> u64 {
        let (aq, ar) = self.axial(a.0, a.1);
        let (bq, br) = self.axial(b.0, b.1);
        let (dq, dr) = (aq - bq, ar - br);
        ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as u64
    }

    /// Centre of hex (x, y) for hexes `pitch` apart (centre to centre), in the same units, with
    /// the map's top-left corner at the origin.
    pub fn centre(self, x: u32, y: u32, pitch: f64) -> (f64, f64) {
        let half_shift = if self.shifted(x, y) { 0.5 } else { 0.0 };
        // Circumradius: centre to corner.
        let r = pitch / 3f64.sqrt();
        let across = pitch * 3f64.sqrt() / 2.0;
        match self {
            HexOrientation::Pointy => (
                pitch * (x as f64 + half_shift) + pitch / 2.0,
                across * y as f64 + r,
            ),
            HexOrientation::Flat => (
                across * x as f64 + r,
                pitch * (y as f64 + half_shift) + pitch / 2.0,
            ),
        }
    }

    /// The six corners of hex (x, y), clockwise.
    pub fn corners(self, x: u32, y: u32, pitch: f64) -> [(f64, f64); 6] {
        let (cx, cy) = self.centre(x, y, pitch);
        let r = pitch / 3f64.sqrt();
        let start = match self {
            HexOrientation::Pointy => -90.0f64,
            HexOrientation::Flat => 0.0,
        };
        std::array::from_fn(|i| {
            let a = (start + 60.0 * i as f64).to_radians();
            (cx + r * a.cos(), cy + r * a.sin())
        })
    }

    /// Width and height, in the same units as `pitch`, of a `w × h` hex map's bounding box.
    pub fn extent(self, w: u32, h: u32, pitch: f64) -> (f64, f64) {
        let r = pitch / 3f64.sqrt();
        let across = pitch * 3f64.sqrt() / 2.0;
        let (w, h) = (w as f64, h as f64);
        match self {
            HexOrientation::Pointy => (pitch * (w + 0.5), across * (h - 1.0) + 2.0 * r),
            HexOrientation::Flat => (across * (w - 1.0) + 2.0 * r, pitch * (h + 0.5)),
        }
    }

    /// The hex whose cell contains point (px, py) (same units as `pitch`), if on the map.
    pub fn hex_at(self, px: f64, py: f64, pitch: f64, w: u32, h: u32) -> Option<(u32, u32)> {
        // The nearest centre is the containing hex; search the few candidates around the guess.
        let across = pitch * 3f64.sqrt() / 2.0;
        let (gx, gy) = match self {
            HexOrientation::Pointy => (px / pitch, py / across),
            HexOrientation::Flat => (px / across, py / pitch),
        };
        let mut best: Option<((u32, u32), f64)> = None;
        for dy in -1..=1i64 {
            for dx in -1..=1i64 {
                let (x, y) = (gx.floor() as i64 + dx, gy.floor() as i64 + dy);
                if x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
                    continue;
                }
                let (cx, cy) = self.centre(x as u32, y as u32, pitch);
                let d = (cx - px).powi(2) + (cy - py).powi(2);
                if best.is_none_or(|b| d < b.1) {
                    best = Some(((x as u32, y as u32), d));
                }
            }
        }
        // A point past the outer edge belongs to no hex.
        best.filter(|b| b.1.sqrt() <= pitch / 3f64.sqrt())
            .map(|b| b.0)
    }
}

/// Which moves a voxel world allows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum VoxelMoves {
    /// Across faces only (cost 1).
    Six,
    /// Across faces and edges (1, √2).
    Eighteen,
    /// Across faces, edges and corners (1, √2, √3): the Warframe benchmark's setting.
    #[default]
    TwentySix,
}

impl VoxelMoves {
    pub const ALL: [VoxelMoves; 3] = [VoxelMoves::Six, VoxelMoves::Eighteen, VoxelMoves::TwentySix];

    /// Reads "6", "18" or "26".
    pub fn from_name(s: &str) -> Option<VoxelMoves> {
        VoxelMoves::ALL.into_iter().find(|m| m.name() == s)
    }

    pub fn name(self) -> &'static str {
        match self {
            VoxelMoves::Six => "6",
            VoxelMoves::Eighteen => "18",
            VoxelMoves::TwentySix => "26",
        }
    }
}

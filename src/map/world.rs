//! Hexes made from a square map. A hex world keeps its hexes in a [`Grid`] too (offset
//! coordinates, see `space::hex`), so storage, edits, generators and readers are shared; only
//! the space and the view differ (the family itself is `world::Family`).

use super::{Cell, Grid};
use crate::map::{HexOrientation, TerrainRule};
use serde::{Deserialize, Serialize};

/// How a hex takes its terrain from the square cells it covers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum HexFill {
    /// Blocked when the hexagon overlaps any blocked cell; else as `Centre`. Walls stay walls
    /// (see [`super::hex_fill`]); passages narrower than a hex close.
    #[default]
    Walls,
    /// The terrain of the square cell under the hex's centre (thin walls may leak).
    Centre,
    /// Blocked when any square cell whose centre the hex covers is blocked; else as `Centre`.
    AnyBlocked,
}

impl HexFill {
    pub fn name(self) -> &'static str {
        match self {
            HexFill::Walls => "walls",
            HexFill::Centre => "centre",
            HexFill::AnyBlocked => "any-blocked",
        }
    }

    pub fn from_name(s: &str) -> Option<HexFill> {
        match s {
            "walls" => Some(HexFill::Walls),
            "centre" | "center" => Some(HexFill::Centre),
            "any-blocked" => Some(HexFill::AnyBlocked),
            _ => None,
        }
    }
}

/// The hexes, `pitch` cells apart, whose centres lie on a `w × h` square map.
pub fn hex_dims(w: u32, h: u32, o: HexOrientation, pitch: f64) -> (u32, u32) {
    let inside = |x: u32, y: u32| {
        let (cx, cy) = o.centre(x, y, pitch);
        cx < w as f64 && cy < h as f64
    };
    // The shifted row or column reaches furthest: count along both parities.
    let mut hw = 0;
    while inside(hw, 0) && inside(hw, 1.min(h)) && hw <= w {
        hw += 1;
    }
    let mut hh = 0;
    while inside(0, hh) && inside(1.min(w), hh) && hh <= h {
        hh += 1;
    }
    (hw, hh)
}

/// The hex map over square map `grid`, hexes `pitch` cells apart. Refused when the pitch is not
/// a number from 1 to the map's shorter side, or no whole hex fits.
pub fn hexes_from_square(
    grid: &Grid,
    o: HexOrientation,
    pitch: f64,
    fill: HexFill,
) -> Result<Grid, String> {
    let (w, h) = (grid.width(), grid.height());
    let side = w.min(h) as f64;
    if !(pitch.is_finite() && pitch >= 1.0 && pitch <= side) {
        return Err(format!(
            "hex size {pitch} must be from 1 to the map's shorter side ({side})"
        ));
    }
    let (hw, hh) = hex_dims(w, h, o, pitch);
    if hw == 0 || hh == 0 {
        return Err(format!(
            "hex size {pitch} leaves no whole hex on a {w}×{h} map"
        ));
    }
    let blocked = |t: u8| TerrainRule::Class.class(t) == 0;
    let mut tiles = Vec::with_capacity((hw * hh) as usize);
    let mut costs = Vec::with_capacity((hw * hh) as usize);
    let r = pitch / 3f64.sqrt();
    for y in 0..hh {
        for x in 0..hw {
            let (cx, cy) = o.centre(x, y, pitch);
            let (sx, sy) = (cx.floor() as u32, cy.floor() as u32);
            let i = grid.index(sx.min(w - 1), sy.min(h - 1));
            let mut tile = grid.tiles()[i];
            if fill == HexFill::Walls
                && !blocked(tile)
                && super::hex_fill::hex_overlaps_wall(grid, &o.corners(x, y, pitch))
            {
                tile = Cell::WALL.tile;
            }
            if fill == HexFill::AnyBlocked && !blocked(tile) {
                let (x0, x1) = (
                    (cx - r).floor().max(0.0) as u32,
                    ((cx + r).ceil() as u32).min(w),
                );
                let (y0, y1) = (
                    (cy - r).floor().max(0.0) as u32,
                    ((cy + r).ceil() as u32).min(h),
                );
                'cells: for j in y0..y1 {
                    for k in x0..x1 {
                        let here = o.hex_at(k as f64 + 0.5, j as f64 + 0.5, pitch, hw, hh);
                        if here == Some((x, y)) && blocked(grid.tiles()[grid.index(k, j)]) {
                            tile = Cell::WALL.tile;
                            break 'cells;
                        }
                    }
                }
            }
            tiles.push(tile);
            costs.push(grid.costs()[i]);
        }
    }
    let mut out = Grid::from_tiles(hw, hh, tiles);
    out.set_costs(costs)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hexes_take_the_centre_cell_or_any_blocked_cell() {
        // A wall column at x = 4 on an open 12×10 map.
        let mut g = Grid::new(12, 10, Cell::FREE);
        for y in 0..10 {
            g.set(4, y, Cell::WALL);
        }
        for o in [HexOrientation::Flat, HexOrientation::Pointy] {
            let centre = hexes_from_square(&g, o, 2.0, HexFill::Centre).unwrap();
            let any = hexes_from_square(&g, o, 2.0, HexFill::AnyBlocked).unwrap();
            assert_eq!(
                (centre.width(), centre.height()),
                (any.width(), any.height())
            );
            let walls = |m: &Grid| m.tiles().iter().filter(|&&t| t == b'@').count();
            assert!(walls(&any) >= walls(&centre) && walls(&centre) > 0, "{o:?}");
            // Every hex whose centre lies in the wall column is a wall in both.
            for y in 0..centre.height() {
                for x in 0..centre.width() {
                    let (cx, _) = o.centre(x, y, 2.0);
                    if cx.floor() == 4.0 {
                        assert_eq!(centre.get(x, y).unwrap().tile, b'@');
                        assert_eq!(any.get(x, y).unwrap().tile, b'@');
                    }
                }
            }
            // Every hex centre lies on the square map.
            for y in 0..centre.height() {
                for x in 0..centre.width() {
                    let (cx, cy) = o.centre(x, y, 2.0);
                    assert!(cx < 12.0 && cy < 10.0);
                }
            }
        }
        assert!(hexes_from_square(&g, HexOrientation::Flat, 0.0, HexFill::Centre).is_err());
        assert!(hexes_from_square(&g, HexOrientation::Flat, 11.0, HexFill::Centre).is_err());
    }
}

//! How hexes laid over a square map take its walls: which hexes a wall blocks, and which hex
//! moves a looser rule lets through a wall.
//!
//! The default, [`HexFill::Walls`], blocks every hex whose hexagon overlaps a blocked cell (with
//! area, not at a corner). Walls then stay walls: a move between two free, adjacent hexes runs
//! along the segment between their centres, and that segment lies inside the two hexagons, so
//! it touches no blocked cell. A passage narrower than a hex closes, as it would for an agent a
//! hex wide. The looser rules keep narrow doors but may open passages through thin walls;
//! [`wall_crossings`] counts them.

use super::Grid;
use crate::map::{HexOrientation, TerrainRule};

/// Whether a tile blocks (under the benchmark's class rule, the hexes' own).
pub(crate) fn blocked(t: u8) -> bool {
    TerrainRule::Class.class(t) == 0
}

/// True when the hexagon with these corners overlaps the unit cell at (`cx`, `cy`) with area
/// (separating axes: the cell's two, the hexagon's three).
pub(crate) fn hex_overlaps_cell(corners: &[(f64, f64); 6], cx: u32, cy: u32) -> bool {
    const EPS: f64 = 1e-9;
    let (x0, y0) = (cx as f64, cy as f64);
    let square = [
        (x0, y0),
        (x0 + 1.0, y0),
        (x0 + 1.0, y0 + 1.0),
        (x0, y0 + 1.0),
    ];
    let apart = |ax: f64, ay: f64| {
        let span = |pts: &mut dyn Iterator<Item = (f64, f64)>| {
            pts.map(|(x, y)| x * ax + y * ay)
                .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
        };
        let (a0, a1) = span(&mut corners.iter().copied());
        let (b0, b1) = span(&mut square.iter().copied());
        a1.min(b1) - a0.max(b0) <= EPS
    };
    if apart(1.0, 0.0) || apart(0.0, 1.0) {
        return false;
    }
    (0..3).all(|i| {
        let (p, q) = (corners[i], corners[i + 1]);
        // The edge's normal.
        !apart(q.1 - p.1, p.0 - q.0)
    })
}

/// True when any blocked cell of `grid` overlaps the hexagon with these corners.
pub(crate) fn hex_overlaps_wall(grid: &Grid, corners: &[(f64, f64); 6]) -> bool {
    let (w, h) = (grid.width(), grid.height());
    let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in corners {
        (lo_x, lo_y, hi_x, hi_y) = (lo_x.min(x), lo_y.min(y), hi_x.max(x), hi_y.max(y));
    }
    let x0 = lo_x.floor().max(0.0) as u32;
    let y0 = lo_y.floor().max(0.0) as u32;
    let x1 = (hi_x.ceil().max(0.0) as u32).min(w);
    let y1 = (hi_y.ceil().max(0.0) as u32).min(h);
    (y0..y1).any(|y| {
        (x0..x1)
            .any(|x| blocked(grid.tiles()[grid.index(x, y)]) && hex_overlaps_cell(corners, x, y))
    })
}

/// True when the segment from `a` to `b` passes through the unit cell at (`cx`, `cy`) for a
/// positive length (Liang–Barsky clipping).
fn segment_crosses_cell(a: (f64, f64), b: (f64, f64), cx: u32, cy: u32) -> bool {
    const EPS: f64 = 1e-9;
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - cx as f64),
        (dx, cx as f64 + 1.0 - a.0),
        (-dy, a.1 - cy as f64),
        (dy, cy as f64 + 1.0 - a.1),
    ] {
        if p.abs() < EPS {
            if q <= EPS {
                return false;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t1 - t0) * dx.hypot(dy) > EPS
}

/// Hex moves that pass through a wall of `square`: pairs of adjacent passable hexes of `hexes`
/// (laid over `square` as `o`, `pitch`) whose centre-to-centre segment crosses a blocked cell.
/// Zero under [`HexFill::Walls`](super::HexFill::Walls).
pub fn wall_crossings(square: &Grid, hexes: &Grid, o: HexOrientation, pitch: f64) -> usize {
    let (w, h) = (square.width(), square.height());
    let free = |x: u32, y: u32| !blocked(hexes.tiles()[hexes.index(x, y)]);
    let mut count = 0;
    for y in 0..hexes.height() {
        for x in 0..hexes.width() {
            if !free(x, y) {
                continue;
            }
            let a = o.centre(x, y, pitch);
            for &(dx, dy) in o.offsets(x, y) {
                let (nx, ny) = (x as i64 + dx as i64, y as i64 + dy as i64);
                // Each pair once: from its first hex in row-major order.
                if (ny, nx) <= (y as i64, x as i64)
                    || nx < 0
                    || ny < 0
                    || nx >= hexes.width() as i64
                    || ny >= hexes.height() as i64
                    || !free(nx as u32, ny as u32)
                {
                    continue;
                }
                let b = o.centre(nx as u32, ny as u32, pitch);
                let (cx0, cx1) = (a.0.min(b.0).floor().max(0.0) as u32, a.0.max(b.0).ceil());
                let (cy0, cy1) = (a.1.min(b.1).floor().max(0.0) as u32, a.1.max(b.1).ceil());
                let (cx1, cy1) = ((cx1 as u32).min(w), (cy1 as u32).min(h));
                let crosses = (cy0..cy1).any(|cy| {
                    (cx0..cx1).any(|cx| {
                        blocked(square.tiles()[square.index(cx, cy)])
                            && segment_crosses_cell(a, b, cx, cy)
                    })
                });
                count += crosses as usize;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{hexes_from_square, Cell, HexFill};

    /// A map of thin walls in every direction: a vertical, a horizontal and a diagonal line.
    fn thin_walls() -> Grid {
        let mut g = Grid::new(30, 24, Cell::FREE);
        for i in 0..24 {
            g.set(9, i, Cell::WALL);
        }
        for i in 0..30 {
            g.set(i, 15, Cell::WALL);
        }
        for i in 0..14 {
            g.set(14 + i, i, Cell::WALL);
        }
        g
    }

    #[test]
    fn walls_stay_walls_under_the_default_fill_and_leak_under_the_centre_fill() {
        let g = thin_walls();
        assert_eq!(HexFill::default(), HexFill::Walls);
        let mut leaked = 0;
        for o in [HexOrientation::Pointy, HexOrientation::Flat] {
            for pitch in [1.0, 1.5, 2.0, 3.0] {
                let walls = hexes_from_square(&g, o, pitch, HexFill::Walls).unwrap();
                assert_eq!(wall_crossings(&g, &walls, o, pitch), 0, "{o:?} {pitch}");
                let centre = hexes_from_square(&g, o, pitch, HexFill::Centre).unwrap();
                leaked += wall_crossings(&g, &centre, o, pitch);
            }
        }
        // The looser rule lets moves through thin walls, and the count sees them.
        assert!(leaked > 0);
    }

    #[test]
    fn overlap_needs_area_not_a_touch() {
        // A pointy hex of pitch 1 centred at (0.5, 0.577): it overlaps its own cell and the
        // cell below (its lower corners reach y = 0.866), not the cell two to the right.
        let o = HexOrientation::Pointy;
        let c = o.corners(0, 0, 1.0);
        assert!(hex_overlaps_cell(&c, 0, 0));
        assert!(hex_overlaps_cell(&c, 0, 1));
        assert!(!hex_overlaps_cell(&c, 2, 0));
        // Its right edge lies on x = 1: touching the next cell is no overlap.
        assert!(!hex_overlaps_cell(&c, 1, 0));
        assert!(segment_crosses_cell((0.5, 0.5), (2.5, 0.5), 1, 0));
        assert!(!segment_crosses_cell((0.5, 1.0), (2.5, 1.0), 1, 1));
    }
}

//! Field D*'s static grids: cell costs and corner flags with a border of padding, so that an
//! expansion reaches its corner's eight neighbours and their cells by fixed index offsets,
//! with no bounds test and no case analysis per neighbour (the search's inner loop; they were
//! half its time when each neighbour pair worked out its cells from coordinates).

use super::field_dstar::INF;
use crate::space::{GridSpace, Space};

const SQRT_2: f64 = std::f64::consts::SQRT_2;

/// A corner's eight neighbours in circular order: consecutive entries (and the last with the
/// first) are the pairs whose edge a path from the corner may cross.
pub(super) const RING: [(i64, i64); 8] = [
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The corner lies on the map.
pub(super) const IN_MAP: u8 = 1;
/// The corner may hold a value: on the map, touching an open cell, and not pinched between
/// two diagonally blocked cells.
pub(super) const USABLE: u8 = 2;

/// One of the two neighbour pairs around a neighbour `s` of the expanded corner `k` that hold
/// `k`: the other corner of the pair (as an index into `k`'s ring), which of the pair is the
/// orthogonal one (`s1` of `ComputeCost`), and the pair's two cells as offsets from `k`'s cell.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Pair {
    pub other: usize,
    pub k_is_s1: bool,
    pub c: isize,
    pub b: isize,
}

/// The cells and corners of one world, padded by one on every side.
#[derive(Clone, Debug, Default)]
pub(super) struct CornerGrid {
    pub w: i64,
    pub h: i64,
    /// Cost per unit length of each cell, (w + 2) × (h + 2) with an infinite border; infinite
    /// where blocked or of another class.
    pub cost: Vec<f64>,
    /// The cheapest cell cost: h's scale, so h never overestimates.
    pub min_cost: f64,
    /// Per corner, (w + 3) × (h + 3): [`IN_MAP`] and [`USABLE`].
    pub flags: Vec<u8>,
    /// Index offsets of the ring's corners.
    pub ring: [isize; 8],
    /// For each ring neighbour of an expanded corner, the two pairs around it that hold the
    /// expanded corner.
    pub pairs: [[Pair; 2]; 8],
}

impl CornerGrid {
    /// Reads the world's cells for a start of terrain class `class` (0: no path anywhere).
    pub fn build(space: &GridSpace, class: u8) -> CornerGrid {
        let (w, h) = (space.width() as i64, space.height() as i64);
        let mut g = CornerGrid {
            w,
            h,
            cost: vec![INF; ((w + 2) * (h + 2)) as usize],
            min_cost: INF,
            flags: vec![0; ((w + 3) * (h + 3)) as usize],
            ..CornerGrid::default()
        };
        for n in 0..space.num_nodes() as u32 {
            let c = if class != 0 && space.class_of(n) == class {
                space.cell_cost(n) as f64
            } else {
                INF
            };
            g.min_cost = g.min_cost.min(c);
            let (x, y) = (n as i64 % w, n as i64 / w);
            let i = g.cell_index(x, y);
            g.cost[i] = c;
        }
        if g.min_cost == INF {
            g.min_cost = 1.0;
        }
        for y in 0..=h {
            for x in 0..=w {
                let blocked = |dx, dy| g.cell(x + dx, y + dy) == INF;
                let (nw, ne, sw, se) = (
                    blocked(-1, -1),
                    blocked(0, -1),
                    blocked(-1, 0),
                    blocked(0, 0),
                );
                let pinched = (nw && se && !ne && !sw) || (ne && sw && !nw && !se);
                let open = !(nw && ne && sw && se);
                let k = g.corner_index(x, y);
                g.flags[k] = IN_MAP | if open && !pinched { USABLE } else { 0 };
            }
        }
        let (cw, rw) = ((w + 3) as isize, (w + 2) as isize);
        for (o, &(dx, dy)) in RING.iter().enumerate() {
            g.ring[o] = dy as isize * cw + dx as isize;
        }
        let ring_of = |p: (i64, i64)| RING.iter().position(|&r| r == p).expect("in the ring");
        for (i, &(sx, sy)) in RING.iter().enumerate() {
            // Seen from s, the expanded corner lies at the opposite offset j, and the pairs
            // that hold it are (j, j + 1) and (j + 7, j).
            let j = (i + 4) % 8;
            for (slot, (a, b)) in [(j, (j + 1) % 8), ((j + 7) % 8, j)].into_iter().enumerate() {
                let (a, b) = (RING[a], RING[b]);
                let diagonal = |p: (i64, i64)| p.0 != 0 && p.1 != 0;
                let (s1, s2) = if diagonal(a) { (b, a) } else { (a, b) };
                // c: the cell with corners s, s1, s2; b: across the edge s–s1 from it (both
                // relative to s; a cell (x, y) spans corners x..x+1, y..y+1).
                let (cx, cy) = (s2.0.min(0), s2.1.min(0));
                let (bx, by) = if s1.1 == 0 {
                    (cx, if cy == 0 { -1 } else { 0 })
                } else {
                    (if cx == 0 { -1 } else { 0 }, cy)
                };
                let other = if s1 == RING[j] { s2 } else { s1 };
                let cell = |(x, y): (i64, i64)| (sy + y) as isize * rw + (sx + x) as isize;
                g.pairs[i][slot] = Pair {
                    other: ring_of((sx + other.0, sy + other.1)),
                    k_is_s1: s1 == RING[j],
                    c: cell((cx, cy)),
                    b: cell((bx, by)),
                };
            }
        }
        g
    }

    /// Index of cell (x, y), for -1 ≤ x ≤ w and -1 ≤ y ≤ h.
    #[inline]
    pub fn cell_index(&self, x: i64, y: i64) -> usize {
        ((y + 1) * (self.w + 2) + x + 1) as usize
    }

    /// Cost of cell (x, y); infinite outside the map and where blocked.
    #[inline]
    pub fn cell(&self, x: i64, y: i64) -> f64 {
        if x < -1 || y < -1 || x > self.w || y > self.h {
            return INF;
        }
        self.cost[self.cell_index(x, y)]
    }

    /// Index of corner (x, y), for -1 ≤ x ≤ w + 1 and -1 ≤ y ≤ h + 1.
    #[inline]
    pub fn corner_index(&self, x: i64, y: i64) -> usize {
        ((y + 1) * (self.w + 3) + x + 1) as usize
    }

    /// The corner at index `k`.
    #[inline]
    pub fn corner_xy(&self, k: usize) -> (i64, i64) {
        // In u32, whose division is several times quicker than u64's: every expansion pays one.
        let (k, row) = (k as u32, (self.w + 3) as u32);
        ((k % row) as i64 - 1, (k / row) as i64 - 1)
    }

    /// Corners on the map, row by row, as the trace numbers them.
    pub fn corners(&self) -> usize {
        ((self.w + 1) * (self.h + 1)) as usize
    }
}

/// The lesser of two values, neither of them NaN (no value here is): one `minsd`, where
/// `f64::min`, which must also pass NaN over, takes four instructions (the search's inner loop
/// takes some forty minima per expansion).
#[inline(always)]
pub(super) fn least(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// ComputeCost of the digest (Krafft 2019 Fig. 16, indentation corrected, and eq. 8 with its
/// factor c) once the corners and cells are known: the cost from a corner s across the edge
/// between its orthogonal neighbour s1 (value `g1`) and diagonal neighbour s2 (`g2`), through
/// cell `c` (corners s, s1, s2) or along the edge s–s1 beside `bc`, the cell across it. A
/// blocked interior leaves only the edge along the open side.
///
/// The two interior branches in closed form. Fig. 16 crosses to the point y = f / √(c² − f²)
/// up the edge (clamped to 1) and adds c·√(1 + y²) + f·(1 − y); with t = √(c² − f²) that sum
/// is c²/t + f − f²/t = t + f, and y ≤ 1 exactly when 2f² ≤ c². The branch along the edge
/// beside `bc` is the same with bc for f. One square root and no division where the figure
/// takes two and a division (this is the search's inner loop); `compute_cost_as_written` in
/// the tests holds the two to 10⁻¹².
#[inline]
pub(super) fn compute_cost(c: f64, bc: f64, g1: f64, g2: f64) -> f64 {
    if least(c, bc) == INF {
        return INF;
    }
    if c == INF {
        return bc + g1;
    }
    if g1 <= g2 {
        return least(c, bc) + g1;
    }
    let f = g1 - g2;
    // The cheaper of crossing at the point f sets (f ≤ bc) or running along the edge for
    // the part bc sets, then crossing; straight to s2 when that point lies past it.
    let a = if f <= bc { f } else { bc };
    if c <= a || 2.0 * a * a > c * c {
        c * SQRT_2 + g2
    } else {
        (c * c - a * a).sqrt() + a + g2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::{Connectivity, TerrainRule};

    /// Fig. 16's interior branches as the digest writes them (the search's form before the
    /// closed one).
    fn compute_cost_as_written(c: f64, bc: f64, g1: f64, g2: f64) -> f64 {
        if c.min(bc) == INF {
            return INF;
        }
        if c == INF {
            return bc + g1;
        }
        if g1 <= g2 {
            return c.min(bc) + g1;
        }
        let f = g1 - g2;
        if f <= bc {
            if c <= f {
                c * SQRT_2 + g2
            } else {
                let y = (f / (c * c - f * f).sqrt()).min(1.0);
                c * (1.0 + y * y).sqrt() + f * (1.0 - y) + g2
            }
        } else if c <= bc {
            c * SQRT_2 + g2
        } else {
            let x = 1.0 - (bc / (c * c - bc * bc).sqrt()).min(1.0);
            c * (1.0 + (1.0 - x) * (1.0 - x)).sqrt() + bc * x + g2
        }
    }

    /// The closed form against the figure's, on costs and values of every size and on the
    /// branches' borders (f or bc at c/√2 and at c, met exactly), to 10⁻¹².
    #[test]
    fn the_closed_form_costs_what_the_figure_costs() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(16);
        let mut cases = vec![];
        for _ in 0..200_000 {
            let cost = |rng: &mut rand_chacha::ChaCha8Rng| match rng.random_range(0..6) {
                0 => INF,
                1 => 1.0,
                _ => rng.random_range(0.1..20.0),
            };
            let c = cost(&mut rng);
            // bc on the other branch's borders now and then.
            let bc = match rng.random_range(0..8) {
                0 => c / SQRT_2,
                1 => c,
                _ => cost(&mut rng),
            };
            // g2 = 0 makes f = g1 − g2 exact, so the borders are met, not merely neared.
            let g2 = if rng.random_bool(0.3) {
                0.0
            } else {
                rng.random_range(0.0..500.0)
            };
            let f = match rng.random_range(0..5) {
                0 => c.min(bc) / SQRT_2,
                1 => c.min(bc),
                2 => bc * rng.random_range(1.0..3.0),
                _ => rng.random_range(-2.0..2.0) * c.min(bc).min(30.0),
            };
            cases.push((c, bc, g2 + f, g2));
        }
        for (c, bc, g1, g2) in cases {
            let (new, old) = (
                compute_cost(c, bc, g1, g2),
                compute_cost_as_written(c, bc, g1, g2),
            );
            if old == INF || new == INF {
                assert_eq!(new, old, "{c} {bc} {g1} {g2}");
            } else {
                let tol = 1e-12 * old.abs().max(1.0);
                assert!(
                    (new - old).abs() <= tol,
                    "{c} {bc} {g1} {g2}: {new} against {old}"
                );
            }
        }
    }

    /// The pair table against the pairs worked out from coordinates, as `ComputeCost(s, a, b)`
    /// names them: for every corner k of a small world, every ring neighbour s and both pairs
    /// around s that hold k, the same orthogonal and diagonal corners and the same two cells.
    #[test]
    fn the_pair_table_names_the_cells_and_corners_that_coordinates_give() {
        let space = GridSpace::from_rows(
            &[".@...", "..@..", "....."],
            Connectivity::Eight,
            TerrainRule::Class,
        );
        let g = CornerGrid::build(&space, space.class_of(0));
        for ky in 0..=g.h {
            for kx in 0..=g.w {
                let k = g.corner_index(kx, ky);
                let cell_k = g.cell_index(kx, ky) as isize;
                for (i, &(dx, dy)) in RING.iter().enumerate() {
                    let s = (kx + dx, ky + dy);
                    let j = (i + 4) % 8;
                    let at = |o: usize| (s.0 + RING[o % 8].0, s.1 + RING[o % 8].1);
                    for (slot, (a, b)) in [(at(j), at(j + 1)), (at(j + 7), at(j))]
                        .into_iter()
                        .enumerate()
                    {
                        let diagonal = |p: (i64, i64)| p.0 != s.0 && p.1 != s.1;
                        let (s1, s2) = if diagonal(a) { (b, a) } else { (a, b) };
                        let (cx, cy) = (s.0.min(s2.0), s.1.min(s2.1));
                        let (bx, by) = if s1.1 == s.1 {
                            (cx, if cy == s.1 { s.1 - 1 } else { s.1 })
                        } else {
                            (if cx == s.0 { s.0 - 1 } else { s.0 }, cy)
                        };
                        let p = g.pairs[i][slot];
                        let other = (k as isize + g.ring[p.other]) as usize;
                        let (k_s1, k_s2) = ((kx, ky) == s1, (kx, ky) == s2);
                        assert!(k_s1 || k_s2, "k is in its neighbour's pair");
                        assert_eq!(p.k_is_s1, k_s1);
                        let want_other = if k_s1 { s2 } else { s1 };
                        assert_eq!(g.corner_xy(other), want_other);
                        let cell = |o: isize| (cell_k + o) as usize;
                        assert_eq!(cell(p.c), g.cell_index(cx, cy), "c of pair {i}/{slot}");
                        assert_eq!(cell(p.b), g.cell_index(bx, by), "b of pair {i}/{slot}");
                    }
                }
            }
        }
        // The padding reads as blocked, and the flags follow the cells.
        assert_eq!(g.cell(-1, 0), INF);
        assert_eq!(g.cell(1, 0), INF);
        assert_eq!(g.cell(0, 0), 1.0);
        assert_eq!(g.flags[g.corner_index(-1, 0)], 0);
        // (2, 1) lies between the blocked (1, 0) and (2, 1), with (1, 1) and (2, 0) open.
        assert_eq!(g.flags[g.corner_index(2, 1)], IN_MAP);
        assert_eq!(g.flags[g.corner_index(0, 0)], IN_MAP | USABLE);
    }
}

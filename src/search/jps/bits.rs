//! A square grid as padded bit rows, read 64 cells at a time: what makes a jump cheap (Harabor &
//! Grastien 2014's block-based jumps). A second copy, transposed, turns vertical jumps into row
//! scans too. Beside the free cells each copy keeps, per direction along its rows, the cells
//! where a scan stops (a wall, or a cell the rule makes a jump point), worked out from the rows
//! above and below once: a scan then reads one row per 64 cells instead of three.

/// Free cells of one terrain class, one bit each. Cell (x, y) is bit `x + 64` of row `y + 1`: a
/// word of blocked cells left of every row, at least one right of it, and a blocked row above and
/// below, so reads near the border need no bounds checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bits {
    width: u32,
    height: u32,
    stride: usize,
    words: Vec<u64>,
    /// Stops of a scan towards higher x: blocked, or free where the cell above or below is
    /// free and the one before it blocked.
    east: Vec<u64>,
    /// The same towards lower x.
    west: Vec<u64>,
}

/// The bit position of column `x` of a row, or `usize::MAX` for `u32::MAX` (no goal there).
#[inline(always)]
fn padded(x: u32) -> usize {
    if x == u32::MAX {
        usize::MAX
    } else {
        x as usize + 64
    }
}

/// Where a straight scan ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scan {
    /// The cell the scan stopped at, along its line: a jump point, the goal, or the last free cell
    /// before a wall.
    pub end: u32,
    /// True for a jump point or the goal; false at a dead end.
    pub found: bool,
}

impl Bits {
    /// A `width × height` grid of blocked cells.
    pub fn new(width: u32, height: u32) -> Bits {
        let stride = (width as usize).div_ceil(64) + 2;
        let n = stride * (height as usize + 2);
        Bits {
            width,
            height,
            stride,
            words: vec![0; n],
            east: vec![!0; n],
            west: vec![!0; n],
        }
    }

    /// The free cells of a `width × height` grid as `free(x, y)` says.
    pub fn from_fn(width: u32, height: u32, free: impl Fn(u32, u32) -> bool) -> Bits {
        let mut b = Bits::new(width, height);
        for y in 0..height {
            for x in 0..width {
                if free(x, y) {
                    b.set_bit(x, y, true);
                }
            }
        }
        for r in 1..=height as usize {
            b.stops_row(r);
        }
        b
    }

    /// Works out the stop masks of padded row `r` from rows `r - 1`, `r` and `r + 1`.
    fn stops_row(&mut self, r: usize) {
        let st = self.stride;
        let row = |k: isize, off: usize| -> u64 {
            if k < 0 || k as usize >= st {
                0
            } else {
                self.words[off * st + k as usize]
            }
        };
        for k in 0..st as isize {
            let (a, m, c) = (row(k, r - 1), row(k, r), row(k, r + 1));
            // Bit i of `before` is the cell at i - 1, of `after` the cell at i + 1.
            let before = |v: u64, off: usize| (v << 1) | (row(k - 1, off) >> 63);
            let after = |v: u64, off: usize| (v >> 1) | (row(k + 1, off) << 63);
            let fe = (a & !before(a, r - 1)) | (c & !before(c, r + 1));
            let fw = (a & !after(a, r - 1)) | (c & !after(c, r + 1));
            self.east[r * st + k as usize] = !m | fe;
            self.west[r * st + k as usize] = !m | fw;
        }
    }

    fn set_bit(&mut self, x: u32, y: u32, free: bool) {
        let p = x as usize + 64;
        let w = (y as usize + 1) * self.stride + p / 64;
        let bit = 1u64 << (p % 64);
        if free {
            self.words[w] |= bit;
        } else {
            self.words[w] &= !bit;
        }
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Marks (x, y) free or blocked, and brings the stops of its row and the rows beside it up
    /// to date.
    pub fn set(&mut self, x: u32, y: u32, free: bool) {
        self.set_bit(x, y, free);
        let r = y as usize + 1;
        for row in r - 1..=r + 1 {
            if (1..=self.height as usize).contains(&row) {
                self.stops_row(row);
            }
        }
    }

    /// Whether (x, y) is free; cells up to one outside the grid read as blocked.
    #[inline(always)]
    pub fn free(&self, x: i64, y: i64) -> bool {
        let p = (x + 64) as usize;
        let w = (y + 1) as usize * self.stride + p / 64;
        self.words[w] >> (p % 64) & 1 == 1
    }

    /// 64 bits of `words` (the free cells or a stop mask) in padded row `row` from bit
    /// position `p` on: bit i is position p + i.
    #[inline(always)]
    fn read(&self, words: &[u64], row: usize, p: usize) -> u64 {
        let w = row * self.stride + p / 64;
        let s = p % 64;
        let (lo, hi) = (words[w], words[w + 1]);
        // `<< 1 << (63 - s)` is `<< (64 - s)` without the undefined shift by 64 when s = 0.
        (lo >> s) | ((hi << 1) << (63 - s))
    }

    /// Whether padded position `p` of padded row `row` is free.
    #[inline(always)]
    fn bit(&self, row: usize, p: usize) -> bool {
        self.words[row * self.stride + p / 64] >> (p % 64) & 1 == 1
    }

    /// Scans east from (x, y) (exclusive) to the first jump point: a free cell whose neighbour
    /// above or below is free where the cell before it there is blocked (the rule without
    /// corner cutting), the goal column `gx` if the row holds the goal (`u32::MAX`: it does
    /// not), or the last free cell before a wall.
    #[inline(always)]
    pub fn jump_east(&self, x: u32, y: u32, gx: u32) -> Scan {
        let (r, start, goal) = (y as usize + 1, x as usize + 64, padded(gx));
        // The first block starts at the cell scanned from, which is no stop of this scan.
        let (mut p, mut mask) = (start, !1u64);
        loop {
            let stop = self.read(&self.east, r, p) & mask;
            if stop != 0 {
                let at = p + stop.trailing_zeros() as usize;
                let dead = !self.bit(r, at);
                // The goal counts up to the stop, the stop itself only when it is free.
                if goal > start && goal <= at - dead as usize {
                    return Scan {
                        end: gx,
                        found: true,
                    };
                }
                return Scan {
                    end: (at - 64 - dead as usize) as u32,
                    found: !dead,
                };
            }
            p += 64;
            mask = !0;
        }
    }

    /// [`Bits::jump_east`] towards lower x.
    #[inline(always)]
    pub fn jump_west(&self, x: u32, y: u32, gx: u32) -> Scan {
        let (r, start, goal) = (y as usize + 1, x as usize + 64, padded(gx));
        // Bit 63 of a block is its position p, bit 63 - i is p - i.
        let (mut p, mut mask) = (start, !(1u64 << 63));
        loop {
            let stop = self.read(&self.west, r, p - 63) & mask;
            if stop != 0 {
                let at = p - stop.leading_zeros() as usize;
                let dead = !self.bit(r, at);
                if goal < start && goal >= at + dead as usize {
                    return Scan {
                        end: gx,
                        found: true,
                    };
                }
                return Scan {
                    end: (at - 64 + dead as usize) as u32,
                    found: !dead,
                };
            }
            p -= 64;
            mask = !0;
        }
    }

    /// The same cells with x and y swapped: vertical scans become row scans.
    pub fn transposed(&self) -> Bits {
        Bits::from_fn(self.height, self.width, |x, y| {
            self.free(y as i64, x as i64)
        })
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        (self.words.len() + self.east.len() + self.west.len()) * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan cell by cell, as the rule reads.
    fn slow_east(b: &Bits, x: u32, y: u32, gx: u32) -> Scan {
        let (x, y) = (x as i64, y as i64);
        let mut c = x;
        loop {
            let n = c + 1;
            if !b.free(n, y) {
                return Scan {
                    end: c as u32,
                    found: false,
                };
            }
            let forced =
                (b.free(n, y - 1) && !b.free(c, y - 1)) || (b.free(n, y + 1) && !b.free(c, y + 1));
            if n as u32 == gx || forced {
                return Scan {
                    end: n as u32,
                    found: true,
                };
            }
            c = n;
        }
    }

    fn mirrored(b: &Bits) -> Bits {
        let mut m = Bits::new(b.width, b.height);
        for y in 0..b.height {
            for x in 0..b.width {
                m.set(b.width - 1 - x, y, b.free(x as i64, y as i64));
            }
        }
        m
    }

    #[test]
    fn block_scans_agree_with_the_rule_cell_by_cell() {
        let mut seed = 7u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..200 {
            let w = 1 + (rnd() % 300) as u32;
            let h = 1 + (rnd() % 5) as u32;
            let density = rnd() % 40;
            let mut b = Bits::new(w, h);
            for y in 0..h {
                for x in 0..w {
                    b.set(x, y, rnd() % 100 >= density);
                }
            }
            let m = mirrored(&b);
            for y in 0..h {
                for x in 0..w {
                    if !b.free(x as i64, y as i64) {
                        continue;
                    }
                    let gx = if round % 2 == 0 {
                        (rnd() % w as u64) as u32
                    } else {
                        u32::MAX
                    };
                    assert_eq!(
                        b.jump_east(x, y, gx),
                        slow_east(&b, x, y, gx),
                        "east {x},{y}"
                    );
                    let mx = w - 1 - x;
                    let mg = if gx == u32::MAX { gx } else { w - 1 - gx };
                    let want = slow_east(&m, mx, y, mg);
                    let got = b.jump_west(x, y, gx);
                    assert_eq!(got.found, want.found, "west {x},{y}");
                    assert_eq!(got.end, w - 1 - want.end, "west {x},{y}");
                }
            }
            let t = b.transposed();
            assert_eq!(t.transposed(), b);
        }
    }
}

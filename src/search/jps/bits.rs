//! A square grid as padded bit rows, read 64 cells at a time: what makes a jump cheap (Harabor &
//! Grastien 2014's block-based jumps). A second copy, transposed, turns vertical jumps into row
//! scans too.

/// Free cells of one terrain class, one bit each. Cell (x, y) is bit `x + 64` of row `y + 1`: a
/// word of blocked cells left of every row, at least one right of it, and a blocked row above and
/// below, so reads near the border need no bounds checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bits {
    width: u32,
    height: u32,
    stride: usize,
    words: Vec<u64>,
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
        Bits {
            width,
            height,
            stride,
            words: vec![0; stride * (height as usize + 2)],
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

    /// Marks (x, y) free or blocked.
    pub fn set(&mut self, x: u32, y: u32, free: bool) {
        let p = x as usize + 64;
        let w = (y as usize + 1) * self.stride + p / 64;
        let bit = 1u64 << (p % 64);
        if free {
            self.words[w] |= bit;
        } else {
            self.words[w] &= !bit;
        }
    }

    /// Whether (x, y) is free; cells up to one outside the grid read as blocked.
    #[inline(always)]
    pub fn free(&self, x: i64, y: i64) -> bool {
        let p = (x + 64) as usize;
        let w = (y + 1) as usize * self.stride + p / 64;
        self.words[w] >> (p % 64) & 1 == 1
    }

    /// The 64 cells of padded row `row` from bit position `p` on: bit i is position p + i.
    #[inline(always)]
    fn read(&self, row: usize, p: usize) -> u64 {
        let w = row * self.stride + p / 64;
        let s = p % 64;
        assert!(w + 1 < self.words.len());
        // SAFETY: checked just above. (Scans read three rows per block of 64 cells; the
        // compiler keeps one check per read this way, where indexing kept two.)
        let (lo, hi) = unsafe {
            (
                *self.words.get_unchecked(w),
                *self.words.get_unchecked(w + 1),
            )
        };
        // `<< 1 << (63 - s)` is `<< (64 - s)` without the undefined shift by 64 when s = 0.
        (lo >> s) | ((hi << 1) << (63 - s))
    }

    /// Scans east from (x, y) (exclusive) to the first jump point: a free cell whose neighbour
    /// above or below is free where the cell before it there is blocked (the rule without
    /// corner cutting), the goal column `gx` if the row holds the goal (`u32::MAX`: it does
    /// not), or the last free cell before a wall.
    #[inline(always)]
    pub fn jump_east(&self, x: u32, y: u32, gx: u32) -> Scan {
        let r = y as usize + 1;
        let mut p = x as usize + 64;
        let goal = if gx == u32::MAX {
            usize::MAX
        } else {
            gx as usize + 64
        };
        loop {
            let a = self.read(r - 1, p);
            let m = self.read(r, p);
            let c = self.read(r + 1, p);
            let stop = ((!a << 1) & a) | ((!c << 1) & c) | !m;
            if stop != 0 {
                // Bit 0 is a free cell already scanned and never a forced one: i ≥ 1.
                let i = stop.trailing_zeros() as usize;
                let dead = m >> i & 1 == 0;
                // The goal counts up to the stop, the stop itself only when it is free.
                if goal.wrapping_sub(p + 1) < i - dead as usize {
                    return Scan {
                        end: gx,
                        found: true,
                    };
                }
                return Scan {
                    end: (p + i - 64 - dead as usize) as u32,
                    found: !dead,
                };
            }
            if goal.wrapping_sub(p + 1) < 63 {
                return Scan {
                    end: gx,
                    found: true,
                };
            }
            p += 63;
        }
    }

    /// [`Bits::jump_east`] towards lower x.
    #[inline(always)]
    pub fn jump_west(&self, x: u32, y: u32, gx: u32) -> Scan {
        let r = y as usize + 1;
        let mut p = x as usize + 64;
        let goal = if gx == u32::MAX {
            usize::MAX
        } else {
            gx as usize + 64
        };
        loop {
            // Bit 63 is position p, bit 63 - i is p - i.
            let q = p - 63;
            let a = self.read(r - 1, q);
            let m = self.read(r, q);
            let c = self.read(r + 1, q);
            let stop = ((!a >> 1) & a) | ((!c >> 1) & c) | !m;
            if stop != 0 {
                let i = stop.leading_zeros() as usize;
                let dead = m >> (63 - i) & 1 == 0;
                if p.wrapping_sub(goal).wrapping_sub(1) < i - dead as usize {
                    return Scan {
                        end: gx,
                        found: true,
                    };
                }
                return Scan {
                    end: (p - i - 64 + dead as usize) as u32,
                    found: !dead,
                };
            }
            if p.wrapping_sub(goal).wrapping_sub(1) < 63 {
                return Scan {
                    end: gx,
                    found: true,
                };
            }
            p -= 63;
        }
    }

    /// The same cells with x and y swapped: vertical scans become row scans.
    pub fn transposed(&self) -> Bits {
        let mut t = Bits::new(self.height, self.width);
        for y in 0..self.height {
            for x in 0..self.width {
                if self.free(x as i64, y as i64) {
                    t.set(y, x, true);
                }
            }
        }
        t
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
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

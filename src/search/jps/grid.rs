//! The bit rows jump point search scans: one pair (rows and their transpose) per terrain class,
//! since a move joins cells of one class only.

use super::bits::Bits;
use crate::search::params::Params;
use crate::search::prepared::Prepared;
use crate::space::{GridSpace, NodeId, Space};

/// Free cells of every terrain class of a square grid, as bit rows and transposed bit rows.
#[derive(Clone, Debug)]
pub struct JumpGrid {
    revision: u64,
    classes: Vec<u8>,
    bits: Vec<(Bits, Bits)>,
}

impl JumpGrid {
    /// The revision of the space it was built on.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Which of the pairs holds class `c` (the first for a class the map lacks).
    #[inline]
    pub fn class_index(&self, c: u8) -> usize {
        self.classes.iter().position(|&k| k == c).unwrap_or(0)
    }

    /// The terrain classes it holds rows for.
    pub fn classes(&self) -> &[u8] {
        &self.classes
    }

    /// The rows and transposed rows of pair `i`.
    #[inline(always)]
    pub fn bits(&self, i: usize) -> (&Bits, &Bits) {
        let (b, t) = &self.bits[i];
        (b, t)
    }

    /// The pair for class `c` of `space`, with `c`'s cells free.
    fn class_bits(space: &GridSpace, c: u8) -> (Bits, Bits) {
        let w = space.width();
        let b = Bits::from_fn(w, space.height(), |x, y| space.class_of(y * w + x) == c);
        let t = b.transposed();
        (b, t)
    }
}

impl Prepared<GridSpace> for JumpGrid {
    const WHAT: &'static str = "bit rows";

    fn build(space: &GridSpace, _: &Params) -> JumpGrid {
        let mut classes: Vec<u8> = vec![];
        for n in 0..space.num_nodes() as NodeId {
            let c = space.class_of(n);
            if c != 0 && !classes.contains(&c) {
                classes.push(c);
            }
        }
        if classes.is_empty() {
            classes.push(1);
        }
        classes.sort_unstable();
        let bits = classes
            .iter()
            .map(|&c| JumpGrid::class_bits(space, c))
            .collect();
        JumpGrid {
            revision: space.revision(),
            classes,
            bits,
        }
    }

    /// Sets the changed cells' bits; a class the map did not have means a rebuild.
    fn patch(&mut self, space: &GridSpace, changed: &[NodeId]) -> Option<String> {
        if self.bits[0].0.width() != space.width() || self.bits[0].0.height() != space.height() {
            return None;
        }
        for &n in changed {
            let c = space.class_of(n);
            if c != 0 && !self.classes.contains(&c) {
                return None;
            }
            let (x, y) = space.xy(n);
            for (k, (b, t)) in self.classes.iter().zip(self.bits.iter_mut()) {
                b.set(x, y, *k == c);
                t.set(y, x, *k == c);
            }
        }
        self.revision = space.revision();
        Some(format!("{} cells", changed.len()))
    }

    fn revision(&self) -> u64 {
        self.revision
    }

    fn bytes(&self) -> usize {
        self.bits.iter().map(|(b, t)| b.bytes() + t.bytes()).sum()
    }
}

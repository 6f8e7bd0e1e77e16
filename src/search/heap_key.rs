//! Open-list keys: costs in fixed point, and the one 64-bit key of an entry (f, then a
//! tie-break from g), so the heap orders entries by a single integer compare.

/// Fixed-point scale of heap keys.
pub(super) const SCALE: f64 = (1u64 << 20) as f64;
pub(super) const MAX48: u64 = (1 << 48) - 1;

/// A cost as a 48-bit key: x · 2²⁰ rounded to the nearest integer (saturating at 2²⁸ cost
/// units; negative costs never occur).
#[inline(always)]
pub fn key(x: f64) -> u64 {
    // Adding 2³² leaves exactly 20 fraction bits in the mantissa, so the float unit rounds x to
    // a multiple of 2⁻²⁰ and the bits are the key: no float-to-integer conversion, which was a
    // tenth of A*'s time.
    const BIAS: f64 = 4_294_967_296.0;
    ((x + BIAS).to_bits() - BIAS.to_bits()).min(MAX48)
}

/// [`key`], with infinity (an unreached node's g) above every finite cost: the exact compare
/// of D* Lite, ARA* and AD*, whose g and rhs may be infinite.
#[inline(always)]
pub fn key_or_inf(x: f64) -> u64 {
    if x.is_finite() {
        key(x)
    } else {
        u64::MAX
    }
}

/// One open-list entry: a 64-bit sort key (f in the high 48 bits, a tie-break from g in the low
/// 16: see [`Ties`]) and the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub(super) key: u64,
    pub(super) node: u32,
}

impl Entry {
    #[inline(always)]
    pub(super) fn new(f: u64, g: u64, node: u32, ties: Ties) -> Entry {
        let (shift, flip) = match ties {
            Ties::Dive => (20, 0),
            Ties::Deepest => (15, 0xFFFF),
        };
        Entry {
            key: (f << 16) | ((g >> shift).min(0xFFFF) ^ flip),
            node,
        }
    }

    /// The node.
    #[inline(always)]
    pub fn node(&self) -> u32 {
        self.node
    }

    /// Priority (f) as a key.
    #[inline(always)]
    pub fn f_key(&self) -> u64 {
        self.key >> 16
    }

    /// The tie-break among equal f (lower first).
    #[inline(always)]
    pub fn tie(&self) -> u64 {
        self.key & 0xFFFF
    }

    /// f as a cost.
    pub fn f_cost(&self) -> f64 {
        self.f_key() as f64 / SCALE
    }

    #[inline(always)]
    pub(super) fn lt(self, o: Entry) -> bool {
        self.key < o.key
    }
}

/// How an open list orders entries of equal f.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ties {
    /// Through the lane (below), newest first; in the heap, lower g (its integer part) first.
    #[default]
    Dive,
    /// No lane; higher g first, to 1/32 of a cost unit (saturating at g = 2048). On voxel worlds
    /// the f of an optimal path is shared by a wide plateau, and the lane's newest-first order
    /// wandered over it: on one Warframe DC3 problem it expanded 17,782 voxels where deepest-first
    /// expands 340, and over 40 A1 problems it took twice the time.
    Deepest,
}

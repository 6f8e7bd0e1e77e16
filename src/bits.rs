//! Bit-set reads shared by the worlds' storage and the searches' per-node state.

/// Bits `i - 1`, `i` and `i + 1` of a bit set (bit `i % 64` of word `i / 64`), lowest first;
/// `i - 1` and `i + 1` must lie inside it.
#[inline(always)]
pub fn three_bits(bits: &[u64], i: usize) -> u32 {
    let j = i - 1;
    let (w, o) = (j >> 6, j & 63);
    let mut v = bits[w] >> o;
    if o > 61 {
        v |= bits[w + 1] << (64 - o);
    }
    (v & 7) as u32
}

//! Plot lines for million-step runs: a min/max envelope per bucket of steps, so a line has a few
//! hundred points however long the run is. Tessellating and rasterising thousands of line
//! segments every frame cost a software renderer several milliseconds; an envelope keeps the
//! peaks that plain sampling every k-th step drops.

/// Points `[step, value]` (steps counted from 1) tracing the lowest and highest value of each of
/// `buckets` equal runs of steps, in step order. At most `reads` values are read (evenly spaced),
/// so the cost per frame is bounded while a run is still growing. Values that are not finite
/// (invalidated nodes expand with f = ∞) are left out.
pub fn envelope(
    len: usize,
    value: impl Fn(usize) -> f64,
    buckets: usize,
    reads: usize,
) -> Vec<[f64; 2]> {
    let buckets = buckets.max(1);
    let stride = (len / reads.max(1)).max(1);
    let mut out = Vec::with_capacity(2 * buckets.min(len));
    // (step, value) of the current bucket's minimum and maximum.
    let mut lo: Option<(usize, f64)> = None;
    let mut hi: Option<(usize, f64)> = None;
    let mut bucket = 0;
    let flush =
        |out: &mut Vec<[f64; 2]>, lo: &mut Option<(usize, f64)>, hi: &mut Option<(usize, f64)>| {
            let mut pair = [lo.take(), hi.take()];
            pair.sort_by_key(|p| p.map(|(k, _)| k));
            let mut last = None;
            for (k, v) in pair.into_iter().flatten() {
                if last != Some(k) {
                    out.push([k as f64 + 1.0, v]);
                    last = Some(k);
                }
            }
        };
    for k in (0..len)
        .step_by(stride)
        .chain((len > 0 && !(len - 1).is_multiple_of(stride)).then(|| len - 1))
    {
        let v = value(k);
        if !v.is_finite() {
            continue;
        }
        let b = k * buckets / len;
        if b != bucket {
            flush(&mut out, &mut lo, &mut hi);
            bucket = b;
        }
        if lo.is_none_or(|(_, m)| v < m) {
            lo = Some((k, v));
        }
        if hi.is_none_or(|(_, m)| v > m) {
            hi = Some((k, v));
        }
    }
    flush(&mut out, &mut lo, &mut hi);
    out
}

#[cfg(test)]
mod tests {
    use super::envelope;

    #[test]
    fn keeps_every_bucket_extreme_and_the_order() {
        // A spike at one step survives; sampling every 100th step would miss it.
        let len = 100_000;
        let value = |k: usize| if k == 54_321 { 1e6 } else { (k % 7) as f64 };
        let pts = envelope(len, value, 250, len);
        assert!(pts.len() <= 500);
        assert!(pts.contains(&[54_322.0, 1e6]));
        assert!(pts.windows(2).all(|w| w[0][0] < w[1][0]));
        // Each bucket's minimum (0) and maximum (6, or the spike) are there.
        for b in 0..250 {
            let (from, to) = (b * len / 250, (b + 1) * len / 250);
            let inside: Vec<f64> = pts
                .iter()
                .filter(|p| p[0] as usize > from && p[0] as usize <= to)
                .map(|p| p[1])
                .collect();
            assert!(inside.contains(&0.0), "bucket {b}");
            let top = if (from..to).contains(&54_321) {
                1e6
            } else {
                6.0
            };
            assert!(inside.contains(&top), "bucket {b}");
        }
    }

    #[test]
    fn short_series_and_gaps() {
        assert!(envelope(0, |_| 1.0, 10, 10).is_empty());
        // Fewer steps than buckets: every step once.
        let pts = envelope(3, |k| k as f64 * 2.0, 10, 10);
        assert_eq!(pts, vec![[1.0, 0.0], [2.0, 2.0], [3.0, 4.0]]);
        // Not-finite values are skipped.
        let pts = envelope(4, |k| if k == 1 { f64::INFINITY } else { 1.0 }, 10, 10);
        assert_eq!(
            pts.iter().map(|p| p[0]).collect::<Vec<_>>(),
            vec![1.0, 3.0, 4.0]
        );
        // Reading at most `reads` values still ends on the last step.
        let pts = envelope(1_000, |k| k as f64, 5, 10);
        assert_eq!(pts.last(), Some(&[1_000.0, 999.0]));
        assert!(pts.len() <= 10);
    }
}

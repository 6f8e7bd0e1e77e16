//! Heatmaps of a batch: a count per cell (paths crossing it, expansions on it) or the
//! difference of two runs' counts, drawn with one colour scale, exported as PNG and CSV.
//!
//! Counts are integers summed cell by cell, so a batch's totals do not depend on how many
//! threads planned it or in what order.

use super::digits;
use crate::space::{GridSpace, Space};
use image::{Rgb, RgbImage};

/// A value per cell of a `width` × `height` grid.
///
/// Four bytes a cell: a batch's counts are summed into the memory of a worker's own `u32`
/// counts and kept there (see [`Heat::from_counts`]), where eight-byte values took two fresh
/// map-sized arrays per batch, whose first touch (page faults) was a serial tenth of a
/// 10,000-agent batch. A count or a difference of two stays far below 2³¹ (the CLI plans at
/// most 10,000,000 agents, and a cell is counted at most a few times per agent); sums saturate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heat {
    pub width: u32,
    pub height: u32,
    pub values: Vec<i32>,
}

/// How a heat view colours its values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// 0 to `max` on inferno, logarithmically (traffic is heavy-tailed: a few corridors carry
    /// most agents).
    Counts { max: i64 },
    /// −`max` to +`max` on a blue–white–red map (the difference of two runs), on a symmetric
    /// log scale: a difference is as heavy-tailed as the traffic it is taken from, and on a
    /// linear scale a few corridors' hundreds leave the ones and tens white.
    Signed { max: i64 },
}

impl Scale {
    /// A scale for counts that fits every one of `heats`: views side by side share it.
    pub fn counts(heats: &[&Heat]) -> Scale {
        let max = heats.iter().map(|h| h.max()).max().unwrap_or(0).max(1);
        Scale::Counts { max }
    }

    /// A signed scale for `diff`.
    pub fn signed(diff: &Heat) -> Scale {
        let max = diff
            .values
            .iter()
            .map(|v| i64::from(v.unsigned_abs()))
            .max()
            .unwrap_or(0)
            .max(1);
        Scale::Signed { max }
    }

    /// The colour of `v`, or `None` for 0 (drawn as a free cell, so the map shows through).
    pub fn colour(self, v: i64) -> Option<[u8; 3]> {
        if v == 0 {
            return None;
        }
        Some(match self {
            Scale::Counts { max } => {
                let t = (v.max(0) as f64).ln_1p() / (max as f64).ln_1p();
                // From a fifth of the way up inferno: its first colours are too close to
                // the walls' near-black for a cell crossed once to read as crossed.
                inferno(LOWEST + (1.0 - LOWEST) * t.clamp(0.0, 1.0))
            }
            Scale::Signed { max } => diverging(symlog(v as f64, max)),
        })
    }

    /// The value at fraction `t` ∈ [0, 1] of the legend: counts from 1 (0 is drawn as a free
    /// cell, not on the ramp) to the top, logarithmically; signed values from −max through 0
    /// (the middle) to max, logarithmically either side.
    pub fn value_at(self, t: f64) -> f64 {
        match self {
            Scale::Counts { max } => {
                let (lo, hi) = (2f64.ln(), (max.max(1) as f64).ln_1p());
                (lo + (hi - lo) * t).exp() - 1.0
            }
            Scale::Signed { max } => {
                let u = (2.0 * t - 1.0).clamp(-1.0, 1.0);
                u.signum() * ((u.abs() * (max.max(1) as f64).ln_1p()).exp() - 1.0)
            }
        }
    }

    /// The legend's colour at fraction `t` (that of [`Scale::value_at`]).
    pub fn ramp(self, t: f64) -> [u8; 3] {
        match self {
            Scale::Counts { max } => {
                let v = self.value_at(t);
                let u = v.ln_1p() / (max.max(1) as f64).ln_1p();
                inferno(LOWEST + (1.0 - LOWEST) * u.clamp(0.0, 1.0))
            }
            Scale::Signed { .. } => diverging(2.0 * t - 1.0),
        }
    }
}

impl Heat {
    /// Counts per cell of `space`, kept in the counts' own memory (same size and alignment, so
    /// the conversion reuses the allocation: no fresh map-sized array to fault in).
    pub fn from_counts(space: &GridSpace, counts: Vec<u32>) -> Heat {
        debug_assert_eq!(counts.len(), space.num_nodes());
        Heat {
            width: space.width(),
            height: space.height(),
            values: counts
                .into_iter()
                .map(|c| c.min(i32::MAX as u32) as i32)
                .collect(),
        }
    }

    /// The largest value.
    pub fn max(&self) -> i64 {
        self.values.iter().copied().max().unwrap_or(0).into()
    }

    /// The sum of all values.
    pub fn total(&self) -> i64 {
        self.values.iter().map(|&v| i64::from(v)).sum()
    }

    /// `self − other`, cell by cell.
    pub fn minus(&self, other: &Heat) -> Heat {
        Heat {
            width: self.width,
            height: self.height,
            values: self
                .values
                .iter()
                .zip(&other.values)
                .map(|(a, b)| a.saturating_sub(*b))
                .collect(),
        }
    }

    /// CSV of the non-zero cells: `x,y,value`, row by row.
    pub fn to_csv(&self, column: &str) -> String {
        let mut out = format!("x,y,{column}\n");
        for (i, &v) in self.values.iter().enumerate() {
            if v != 0 {
                let (x, y) = (i as u32 % self.width, i as u32 / self.width);
                out.push_str(&format!("{x},{y},{v}\n"));
            }
        }
        out
    }

    /// The map alone, one pixel a cell: walls near-black, untouched cells near-white, the
    /// rest coloured by `scale` (the app's texture).
    pub fn to_pixels(&self, space: &GridSpace, scale: Scale) -> RgbImage {
        RgbImage::from_fn(self.width, self.height, |x, y| {
            let n = y * self.width + x;
            Rgb(if !space.is_passable(n) {
                WALL
            } else {
                scale.colour(self.values[n as usize].into()).unwrap_or(FREE)
            })
        })
    }

    /// The heatmap over `space`, `cell` pixels a cell, under a title line and over a legend
    /// strip: the colour ramp and its end and middle values.
    pub fn to_image(&self, space: &GridSpace, scale: Scale, cell: u32, title: &str) -> RgbImage {
        let cell = cell.max(1);
        let map = image::imageops::resize(
            &self.to_pixels(space, scale),
            self.width * cell,
            self.height * cell,
            image::imageops::FilterType::Nearest,
        );
        let (head, legend) = (16, 28);
        let mut img = RgbImage::from_pixel(
            map.width().max(160),
            head + map.height() + legend,
            Rgb(FREE),
        );
        image::imageops::replace(&mut img, &map, 0, head as i64);
        digits::draw(&mut img, title, 4, 3, Rgb(WALL));
        draw_legend(&mut img, scale, head + map.height() + 2);
        img
    }
}

/// Panels side by side, 8 pixels apart, each `heat` titled and drawn on the one `scale`, about
/// 512 pixels a side: what `pathlab agents --heatmap` and the app's export write.
pub fn side_by_side(panels: &[(&Heat, String)], space: &GridSpace, scale: Scale) -> RgbImage {
    let side = space.width().max(space.height()).max(1);
    let cell = (512 / side).max(1);
    let images: Vec<RgbImage> = panels
        .iter()
        .map(|(h, title)| h.to_image(space, scale, cell, title))
        .collect();
    let gap = 8;
    let w = images
        .iter()
        .map(|p| p.width() + gap)
        .sum::<u32>()
        .saturating_sub(gap);
    let h = images.iter().map(|p| p.height()).max().unwrap_or(1);
    let mut img = RgbImage::from_pixel(w.max(1), h, Rgb([255, 255, 255]));
    let mut x = 0;
    for p in &images {
        image::imageops::replace(&mut img, p, x as i64, 0);
        x += p.width() + gap;
    }
    img
}

/// Writes `img` as a PNG at `path` (atomically: a failed write leaves no half file).
pub fn write_png(path: &std::path::Path, img: &RgbImage) -> Result<(), String> {
    let png = png_bytes(img).map_err(|e| format!("{}: {e}", path.display()))?;
    crate::map::io::write_atomic(path, &png).map_err(|e| e.to_string())
}

/// `img` encoded as a PNG file.
pub fn png_bytes(img: &RgbImage) -> Result<Vec<u8>, String> {
    let mut png = std::io::Cursor::new(Vec::new());
    img.write_to(&mut png, image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(png.into_inner())
}

/// `v` on the symmetric log scale up to ±`max`: ln(1 + |v|) / ln(1 + max), with `v`'s sign,
/// in [−1, 1].
fn symlog(v: f64, max: i64) -> f64 {
    let t = v.abs().ln_1p() / (max.max(1) as f64).ln_1p();
    (v.signum() * t).clamp(-1.0, 1.0)
}

/// Where on inferno the counts begin (a count of 1).
const LOWEST: f64 = 0.2;

/// Near-white free cells and near-black walls, as the app draws them.
pub const FREE: [u8; 3] = [245, 244, 238];
pub const WALL: [u8; 3] = [34, 34, 38];

/// The ramp and three labels (low end, middle, high end) in a strip from row `top`.
fn draw_legend(img: &mut RgbImage, scale: Scale, top: u32) {
    let (x0, x1) = (4, img.width() - 4);
    for x in x0..x1 {
        let t = (x - x0) as f64 / (x1 - x0 - 1).max(1) as f64;
        let c = scale.ramp(t);
        for y in top..top + 10 {
            img.put_pixel(x, y, Rgb(c));
        }
    }
    let labels = [0.0, 0.5, 1.0].map(|t| (t, digits::label(scale.value_at(t))));
    for (t, text) in labels {
        let width = digits::width(&text);
        let centre = x0 as f64 + t * (x1 - x0) as f64;
        let left = (centre - width as f64 / 2.0).clamp(x0 as f64, (x1 - width) as f64) as u32;
        digits::draw(img, &text, left, top + 13, Rgb(WALL.map(|c| c / 2)));
    }
}

/// Inferno (perceptually uniform, dark to light), interpolated between nine of its colours.
pub fn inferno(t: f64) -> [u8; 3] {
    const STOPS: [[f64; 3]; 9] = [
        [0.0, 0.0, 4.0],
        [31.0, 12.0, 72.0],
        [85.0, 15.0, 109.0],
        [136.0, 34.0, 106.0],
        [186.0, 54.0, 85.0],
        [227.0, 89.0, 51.0],
        [249.0, 140.0, 10.0],
        [249.0, 201.0, 50.0],
        [252.0, 255.0, 164.0],
    ];
    ramp(&STOPS, t)
}

/// Blue through white to red, for signed differences (−1 to 1).
pub fn diverging(t: f64) -> [u8; 3] {
    const STOPS: [[f64; 3]; 5] = [
        [33.0, 102.0, 172.0],
        [146.0, 197.0, 222.0],
        [247.0, 247.0, 247.0],
        [244.0, 165.0, 130.0],
        [178.0, 24.0, 43.0],
    ];
    ramp(&STOPS, (t + 1.0) / 2.0)
}

fn ramp(stops: &[[f64; 3]], t: f64) -> [u8; 3] {
    let x = t.clamp(0.0, 1.0) * (stops.len() - 1) as f64;
    let i = (x.floor() as usize).min(stops.len() - 2);
    let f = x - i as f64;
    let (a, b) = (stops[i], stops[i + 1]);
    [0, 1, 2].map(|k| (a[k] + (b[k] - a[k]) * f).round() as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_put_zero_on_the_map_and_share_their_top() {
        let a = Heat {
            width: 2,
            height: 1,
            values: vec![0, 10],
        };
        let b = Heat {
            width: 2,
            height: 1,
            values: vec![100, 1],
        };
        let s = Scale::counts(&[&a, &b]);
        assert_eq!(s, Scale::Counts { max: 100 });
        assert_eq!(s.colour(0), None);
        assert_eq!(s.colour(100), Some(inferno(1.0)));
        assert_eq!(inferno(1.0), [252, 255, 164]);
        // A count of 1 sits well clear of the walls' near-black.
        let one = s.colour(1).unwrap();
        assert!(
            one.iter()
                .zip(WALL)
                .map(|(a, b)| a.abs_diff(b) as u32)
                .sum::<u32>()
                > 60
        );
        assert_eq!(s.ramp(0.0), one);
        assert!((s.value_at(0.0) - 1.0).abs() < 1e-9);
        let d = b.minus(&a);
        assert_eq!(d.values, vec![100, -9]);
        assert_eq!(Scale::signed(&d), Scale::Signed { max: 100 });
        assert_eq!(Scale::signed(&d).colour(-100), Some([33, 102, 172]));
        assert!((s.value_at(1.0) - 100.0).abs() < 1e-9);
        assert_eq!(d.to_csv("traffic"), "x,y,traffic\n0,0,100\n1,0,-9\n");
    }

    #[test]
    fn counts_become_a_heat_in_their_own_memory() {
        use crate::space::{Connectivity, TerrainRule};
        let space = GridSpace::from_rows(&["...", "..."], Connectivity::Eight, TerrainRule::Class);
        let counts = vec![0, 1, 2, 3, u32::MAX, 7];
        let at = counts.as_ptr() as usize;
        let h = Heat::from_counts(&space, counts);
        assert_eq!(h.values, vec![0, 1, 2, 3, i32::MAX, 7]);
        assert_eq!((h.width, h.height), (3, 2));
        // The point of it: no second map-sized array (std collects a same-layout map in place).
        assert_eq!(h.values.as_ptr() as usize, at);
        assert_eq!(h.total(), i64::from(i32::MAX) + 13);
    }
}

//! Numbers and short lowercase labels drawn into exported PNGs (a heatmap's legend and panel
//! titles) with a 3 × 5 pixel font, scaled ×2: the image crate draws no text, and a font
//! crate for a few dozen glyphs would be more than the glyphs themselves.

use image::{Rgb, RgbImage};

/// Rows of each glyph, three bits a row (leftmost pixel in the high bit).
fn glyph(c: char) -> Option<[u8; 5]> {
    Some(match c {
        '0' => [0b111, 0b101, 0b101, 0b101, 0b111],
        '1' => [0b010, 0b110, 0b010, 0b010, 0b111],
        '2' => [0b111, 0b001, 0b111, 0b100, 0b111],
        '3' => [0b111, 0b001, 0b111, 0b001, 0b111],
        '4' => [0b101, 0b101, 0b111, 0b001, 0b001],
        '5' => [0b111, 0b100, 0b111, 0b001, 0b111],
        '6' => [0b111, 0b100, 0b111, 0b101, 0b111],
        '7' => [0b111, 0b001, 0b010, 0b010, 0b010],
        '8' => [0b111, 0b101, 0b111, 0b101, 0b111],
        '9' => [0b111, 0b101, 0b111, 0b001, 0b111],
        '.' => [0b000, 0b000, 0b000, 0b000, 0b010],
        '-' => [0b000, 0b000, 0b111, 0b000, 0b000],
        '+' => [0b000, 0b010, 0b111, 0b010, 0b000],
        'k' => [0b100, 0b101, 0b110, 0b101, 0b101],
        'M' => [0b101, 0b111, 0b111, 0b101, 0b101],
        'a' => [0b000, 0b011, 0b101, 0b101, 0b011],
        'b' => [0b100, 0b110, 0b101, 0b101, 0b110],
        'c' => [0b000, 0b011, 0b100, 0b100, 0b011],
        'd' => [0b001, 0b011, 0b101, 0b101, 0b011],
        'e' => [0b000, 0b010, 0b111, 0b100, 0b011],
        'f' => [0b011, 0b100, 0b110, 0b100, 0b100],
        'g' => [0b000, 0b011, 0b101, 0b011, 0b110],
        'h' => [0b100, 0b110, 0b101, 0b101, 0b101],
        'i' => [0b010, 0b000, 0b010, 0b010, 0b010],
        'l' => [0b110, 0b010, 0b010, 0b010, 0b111],
        'm' => [0b000, 0b110, 0b111, 0b111, 0b101],
        'n' => [0b000, 0b110, 0b101, 0b101, 0b101],
        'o' => [0b000, 0b010, 0b101, 0b101, 0b010],
        'p' => [0b000, 0b110, 0b101, 0b110, 0b100],
        'r' => [0b000, 0b101, 0b110, 0b100, 0b100],
        's' => [0b000, 0b011, 0b110, 0b001, 0b110],
        't' => [0b010, 0b111, 0b010, 0b010, 0b001],
        'u' => [0b000, 0b101, 0b101, 0b101, 0b011],
        'v' => [0b000, 0b101, 0b101, 0b101, 0b010],
        'w' => [0b000, 0b101, 0b111, 0b111, 0b010],
        'x' => [0b000, 0b101, 0b010, 0b010, 0b101],
        'y' => [0b000, 0b101, 0b011, 0b001, 0b110],
        ',' => [0b000, 0b000, 0b000, 0b010, 0b100],
        ':' => [0b000, 0b010, 0b000, 0b010, 0b000],
        '(' => [0b001, 0b010, 0b010, 0b010, 0b001],
        ')' => [0b100, 0b010, 0b010, 0b010, 0b100],
        ' ' => [0; 5],
        _ => return None,
    })
}

/// Pixels per font pixel.
const SCALE: u32 = 2;

/// A legend value as a short label: 0.5, 12, 3.4k, 1.2M (signed values keep their sign).
pub fn label(v: f64) -> String {
    let a = v.abs();
    let sign = if v < -1e-9 { "-" } else { "" };
    let body = if a >= 1e6 {
        format!("{:.1}M", a / 1e6)
    } else if a >= 1e4 {
        format!("{:.0}k", a / 1e3)
    } else if a >= 1e3 {
        format!("{:.1}k", a / 1e3)
    } else if a >= 10.0 || a == a.round() {
        format!("{a:.0}")
    } else {
        format!("{a:.1}")
    };
    format!("{sign}{body}")
}

/// The width in pixels of `text` as drawn.
pub fn width(text: &str) -> u32 {
    (text.chars().count() as u32 * 4).saturating_sub(1) * SCALE
}

/// Draws `text` with its top-left corner at (x, y), clipped to the image.
pub fn draw(img: &mut RgbImage, text: &str, x: u32, y: u32, colour: Rgb<u8>) {
    for (i, c) in text.chars().enumerate() {
        let Some(rows) = glyph(c) else { continue };
        let left = x + i as u32 * 4 * SCALE;
        for (r, bits) in rows.iter().enumerate() {
            for col in 0..3 {
                if bits & (0b100 >> col) == 0 {
                    continue;
                }
                for dy in 0..SCALE {
                    for dx in 0..SCALE {
                        let (px, py) = (left + col * SCALE + dx, y + r as u32 * SCALE + dy);
                        if px < img.width() && py < img.height() {
                            img.put_pixel(px, py, colour);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_short_and_drawn_where_asked() {
        assert_eq!(label(0.0), "0");
        assert_eq!(label(0.45), "0.5");
        assert_eq!(label(37.2), "37");
        assert_eq!(label(1234.0), "1.2k");
        assert_eq!(label(56_000.0), "56k");
        assert_eq!(label(-2_500_000.0), "-2.5M");
        let mut img = RgbImage::new(20, 12);
        draw(&mut img, "1", 0, 0, Rgb([255, 0, 0]));
        // The 1's stem: middle column, every row.
        assert_eq!(img.get_pixel(2, 0), &Rgb([255, 0, 0]));
        assert_eq!(img.get_pixel(0, 0), &Rgb([0, 0, 0]));
        assert_eq!(width("12"), 14);
    }
}

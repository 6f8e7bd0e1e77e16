//! PNG import: each pixel becomes a cell; dark pixels are walls.

use super::IoError;
use crate::map::{Cell, Grid};
use std::path::Path;

/// Pixels with luminance (0–255) below this, or mostly transparent, become walls.
pub const PNG_DARK_THRESHOLD: u8 = 128;

/// Reads a PNG as a grid: dark (or transparent) pixels are `@`, the rest `.`.
pub fn read_png(path: &Path) -> Result<Grid, IoError> {
    let fmt = |msg: String| IoError::Format {
        file: path.to_path_buf(),
        msg,
    };
    let bytes = std::fs::read(path).map_err(|source| IoError::Os {
        file: path.to_path_buf(),
        source,
    })?;
    let img = image::load_from_memory_with_format(&bytes, image::ImageFormat::Png)
        .map_err(|e| fmt(format!("not a readable PNG image: {e}")))?
        .to_luma_alpha8();
    let (w, h) = img.dimensions();
    if w == 0 || h == 0 || w > 1 << 15 || h > 1 << 15 {
        return Err(fmt(format!(
            "a {w}×{h} image cannot be a map (1 to 32768 pixels a side)"
        )));
    }
    let mut g = Grid::new(w, h, Cell::FREE);
    for (x, y, p) in img.enumerate_pixels() {
        let [l, a] = p.0;
        if l < PNG_DARK_THRESHOLD || a < 128 {
            g.set(x, y, Cell::WALL);
        }
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dark_pixels_become_walls_and_garbage_is_an_error() {
        let dir = std::env::temp_dir().join(format!("pathlab-png-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("m.png");
        let mut img = image::GrayImage::new(3, 2);
        img.put_pixel(1, 0, image::Luma([10]));
        img.put_pixel(0, 1, image::Luma([200]));
        img.put_pixel(0, 0, image::Luma([255]));
        img.save(&file).unwrap();
        let g = read_png(&file).unwrap();
        assert_eq!(g.rows().collect::<Vec<_>>(), [".@@", ".@@"]);
        std::fs::write(&file, b"\x89PNG\r\n\x1a\ngarbage").unwrap();
        let e = read_png(&file).unwrap_err().to_string();
        assert!(e.contains("m.png: not a readable PNG"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

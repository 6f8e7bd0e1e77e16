//! PNG import: each pixel becomes a cell; dark pixels are walls.

use super::IoError;
use crate::map::{Cell, Grid};
use std::path::Path;

/// Pixels with luminance (0–255) below this, or mostly transparent, become walls.
pub const PNG_DARK_THRESHOLD: u8 = 128;

/// Reads a PNG as a grid: dark (or transparent) pixels are `@`, the rest `.`.
pub fn read_png(path: &Path) -> Result<Grid, IoError> {
    decode_png(&super::read_bytes(path)?, path)
}

/// Decodes PNG bytes as [`read_png`] does; `path` is only used in error messages.
pub fn decode_png(bytes: &[u8], path: &Path) -> Result<Grid, IoError> {
    let fmt = |msg: String| IoError::Format {
        file: path.to_path_buf(),
        msg,
    };
    let unreadable = |e: image::ImageError| fmt(format!("not a readable PNG image: {e}"));
    let reader =
        || image::ImageReader::with_format(std::io::Cursor::new(bytes), image::ImageFormat::Png);
    // The size from the header first: a small file can declare a huge image, and decoding it
    // would allocate before anything could refuse it.
    let (w, h) = reader().into_dimensions().map_err(unreadable)?;
    if let Some(msg) = crate::limits::grid_size_error(w as u64, h as u64) {
        return Err(fmt(format!("a {w}×{h} image cannot be a map: {msg}")));
    }
    let img = reader().decode().map_err(unreadable)?.to_luma_alpha8();
    let (w, h) = img.dimensions();
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

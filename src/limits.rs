//! The limits of every world and file pathlab reads, in one place. Readers check them before
//! they allocate, so an absurd header or a huge file is refused in one line instead of aborting
//! the process; the README's "Limits" table lists the same numbers.

use std::path::Path;

/// Largest side of a square grid, in cells, in every format (`.map`, `.png`, project).
pub const MAX_SIDE: u32 = 1 << 15;

/// Largest number of cells of a square grid (8192 × 8192). The binding costs are the search
/// arrays (about 17 bytes a cell for A*: g, parent, heap position and flags, 1.1 GiB here) and
/// in the app a colour per cell per view (4 bytes) and the recorder's per-node index (4 bytes);
/// it also keeps every node id inside the recorder's packed range (2²⁷).
pub const MAX_CELLS: u64 = 1 << 26;

/// Largest file read, in bytes. A `.map` at [`MAX_CELLS`] is 64 MiB; a project with per-cell
/// costs at that size is about 400 MiB of RON.
pub const MAX_FILE_BYTES: u64 = 512 << 20;

/// Events one recorder keeps (16 bytes each, 2 GiB of events, plus a 4-byte index each for the
/// inspector). Later events are counted, not kept, and every reader of the trace says how many.
pub const MAX_EVENTS: usize = 1 << 27;

/// Why a world of `width × height` cells cannot be made, or `None` when it can.
pub fn grid_size_error(width: u64, height: u64) -> Option<String> {
    if width == 0 || height == 0 {
        return Some(format!("a {width}×{height} map has no cells"));
    }
    if width > MAX_SIDE as u64 || height > MAX_SIDE as u64 {
        return Some(format!(
            "a {width}×{height} map is larger than pathlab's limit of {MAX_SIDE} cells a side"
        ));
    }
    let cells = width * height;
    if cells > MAX_CELLS {
        return Some(format!(
            "a {width}×{height} map has {cells} cells, more than pathlab's limit of {MAX_CELLS} \
             (8192 × 8192)"
        ));
    }
    None
}

/// Why `path` cannot be read as an input file, or `None` when it can: it must be a regular file
/// (a FIFO would block the reader forever, a device never ends) no larger than
/// [`MAX_FILE_BYTES`]. Checked before the file is opened, since opening a FIFO blocks.
pub fn input_file_error(path: &Path) -> Option<std::io::Error> {
    use std::io::{Error, ErrorKind};
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => return Some(e),
    };
    if meta.is_dir() {
        return Some(Error::new(
            ErrorKind::InvalidInput,
            "is a folder, not a file",
        ));
    }
    if !meta.is_file() {
        return Some(Error::new(
            ErrorKind::InvalidInput,
            "is not a regular file (a pipe, socket or device); pathlab reads only files",
        ));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Some(Error::new(
            ErrorKind::InvalidInput,
            format!(
                "is {} MiB, more than pathlab's limit of {} MiB for one file",
                meta.len() >> 20,
                MAX_FILE_BYTES >> 20
            ),
        ));
    }
    None
}

/// Reads a whole input file after [`input_file_error`]'s checks; a file that grows past the
/// limit while being read is refused too.
pub fn read_input(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    if let Some(e) = input_file_error(path) {
        return Err(e);
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "is more than pathlab's limit of {} MiB for one file",
                MAX_FILE_BYTES >> 20
            ),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_at_and_past_each_limit() {
        assert_eq!(grid_size_error(MAX_SIDE as u64, 2), None);
        assert_eq!(grid_size_error(8192, 8192), None);
        assert!(grid_size_error(MAX_SIDE as u64 + 1, 1)
            .unwrap()
            .contains("32768 cells a side"));
        assert!(grid_size_error(8192, 8193).unwrap().contains("67108864"));
        assert!(grid_size_error(0, 5).unwrap().contains("no cells"));
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_folders_are_refused_before_reading() {
        let e = read_input(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        let e = read_input(Path::new("/")).unwrap_err().to_string();
        assert!(e.contains("folder"), "{e}");
    }
}

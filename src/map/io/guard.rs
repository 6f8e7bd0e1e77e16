//! Outputs never replace inputs. A command (and the app's `--screenshot`) turns the guard on;
//! from then on every file read through this module is noted, and every write refuses a path
//! that was read, however it is spelled (`./m.map`, a link to it) and however it was reached
//! (the map a scenario names, the map beside a `.3dscen`). One check at the one writer covers
//! every output of every entry. The app's own Save is off the guard: saving over the file you
//! opened is what Save is for.

use super::IoError;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The files read so far, resolved; `None` while the guard is off.
static READ: Mutex<Option<Vec<PathBuf>>> = Mutex::new(None);

/// Turns the guard on for the rest of the process.
pub fn guard_inputs() {
    if let Ok(mut r) = READ.lock() {
        r.get_or_insert_with(Vec::new);
    }
}

/// Notes a file that was read (only while the guard is on).
pub(crate) fn note_read(path: &Path) {
    if let Ok(mut r) = READ.lock() {
        if let Some(read) = r.as_mut() {
            let p = resolve(path);
            if !read.contains(&p) {
                read.push(p);
            }
        }
    }
}

/// Refuses `path` as an output when the guard is on and it names a file this run read. Every
/// writer asks; a command with several outputs also asks before its work, so that a refused
/// output costs no time and leaves no other output behind.
pub fn check_output(path: &Path) -> Result<(), IoError> {
    let Ok(r) = READ.lock() else { return Ok(()) };
    let Some(read) = r.as_ref() else {
        return Ok(());
    };
    if read.contains(&resolve(path)) {
        return Err(IoError::Overwrite {
            file: path.to_path_buf(),
        });
    }
    Ok(())
}

/// A path as the file system resolves it; one that does not exist yet by its folder resolved,
/// then its name.
pub fn resolve(p: &Path) -> PathBuf {
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    let dir = p.parent().filter(|d| !d.as_os_str().is_empty());
    let dir = dir.map_or_else(|| Path::new(".").canonicalize(), |d| d.canonicalize());
    match (dir, p.file_name()) {
        (Ok(d), Some(n)) => d.join(n),
        _ => p.to_path_buf(),
    }
}

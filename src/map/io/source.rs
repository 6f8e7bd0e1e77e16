//! Where input files come from: the disk, or files handed over in memory. A browser page has no
//! file system: a file the user picks or drops arrives as a name and its bytes. While such files
//! are given ([`reading_given`]), every reader of this module reads them instead of the disk,
//! with the same checks (size limit, UTF-8, the file named in errors), so every format and
//! every caller (a project, a scenario finding its map among the files dropped with it, a run
//! file, a trace) works on them unchanged.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// Files by name and contents.
pub type GivenFiles = Vec<(PathBuf, Vec<u8>)>;

thread_local! {
    /// The files given for the read in progress on this thread; `None`: the disk.
    static GIVEN: RefCell<Option<GivenFiles>> = const { RefCell::new(None) };
}

/// Runs `read` with `files` (names and contents) standing in for the disk: a path is found
/// by its full name, else by its file name (a page's files have no folders), and a path not
/// among them does not exist.
pub fn reading_given<T>(files: GivenFiles, read: impl FnOnce() -> T) -> T {
    /// Puts back what was given before, also when `read` panics.
    struct Restore(Option<GivenFiles>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            GIVEN.with(|g| *g.borrow_mut() = before);
        }
    }
    let _restore = Restore(GIVEN.with(|g| g.replace(Some(files))));
    read()
}

fn find(files: &[(PathBuf, Vec<u8>)], path: &Path) -> Option<usize> {
    files.iter().position(|(p, _)| p == path).or_else(|| {
        let name = path.file_name()?;
        files.iter().position(|(p, _)| p.file_name() == Some(name))
    })
}

/// Whether `path` names an input file: among the files given, or on disk when none are.
pub fn input_exists(path: &Path) -> bool {
    GIVEN.with(|g| match &*g.borrow() {
        Some(files) => find(files, path).is_some(),
        None => path.is_file(),
    })
}

/// The given file at `path`, within [`crate::limits::MAX_FILE_BYTES`]; `None` when no files
/// are given (read the disk).
pub(super) fn given_bytes(path: &Path) -> Option<std::io::Result<Vec<u8>>> {
    GIVEN.with(|g| {
        let g = g.borrow();
        let files = g.as_ref()?;
        Some(match find(files, path) {
            None => Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "was not among the files given (drop or pick it together with this one)",
            )),
            Some(i) if files[i].1.len() as u64 > crate::limits::MAX_FILE_BYTES => {
                Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!(
                        "is more than pathlab's limit of {} MiB for one file",
                        crate::limits::MAX_FILE_BYTES >> 20
                    ),
                ))
            }
            Some(i) => Ok(files[i].1.clone()),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_files_stand_in_for_the_disk_with_its_checks() {
        let dir = std::env::temp_dir().join(format!("pathlab-given-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let on_disk = dir.join("maze.map");
        std::fs::write(&on_disk, "type octile\nheight 1\nwidth 2\nmap\n..\n").unwrap();
        let files = vec![
            (
                PathBuf::from("maze.map"),
                b"type octile\nheight 1\nwidth 3\nmap\n.@.\n".to_vec(),
            ),
            (PathBuf::from("bad.map"), b"type octile\n\xff\n".to_vec()),
        ];
        reading_given(files, || {
            // Found by its file name, whatever folder is asked for; not read from the disk.
            assert!(input_exists(Path::new("maze.map")));
            assert!(input_exists(&on_disk));
            assert_eq!(super::super::read_map(&on_disk).unwrap().width(), 3);
            assert!(!input_exists(Path::new("other.map")));
            let e = super::super::read_text_file(Path::new("bad.map")).unwrap_err();
            assert_eq!(e.to_string(), "bad.map:2: the file is not UTF-8 text");
            let e = super::super::read_text_file(Path::new("other.map")).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with("other.map: was not among the files given"),
                "{e}"
            );
        });
        // Afterwards the disk again.
        assert!(input_exists(&on_disk));
        assert_eq!(super::super::read_map(&on_disk).unwrap().width(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

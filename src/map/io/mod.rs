//! Reading and writing maps, scenarios and projects. Every error names the file and, for text
//! formats, the line; nothing here panics on bad input.

mod guard;
mod movingai;
mod open;
mod png;
mod project;
mod scen;
mod warframe;

#[cfg(feature = "gui")]
pub(crate) use guard::check_output;
pub use guard::{guard_inputs, resolve};
pub use movingai::{parse_map, read_map, write_map, write_map_file};
pub use open::{
    check_algorithm, check_problem, check_runs_on, extension, open_world, project_world, Opened,
};
pub use png::{decode_png, read_png, PNG_DARK_THRESHOLD};
pub use project::{
    parse_project, read_project, write_project, AlgoSettings, Project, PROJECT_VERSION,
};
pub use scen::{parse_scen, read_scen, write_scen, write_scen_file, Problem};
pub use warframe::{
    check_problem3, parse_3dmap, parse_3dscen, read_3dmap, read_3dscen, write_3dmap,
    write_3dmap_file, write_3dscen, Problem3,
};

use std::path::{Path, PathBuf};

/// A failure to read or write a file.
#[derive(Debug, thiserror::Error)]
pub enum IoError {
    /// The file could not be opened, read or written. The OS error is part of the message and
    /// deliberately not a `source`: error chains would print it a second time.
    #[error("{file}: {error}")]
    Os {
        file: PathBuf,
        error: std::io::Error,
    },
    /// The contents are wrong at a given line (1-based).
    #[error("{file}:{line}: {msg}")]
    Parse {
        file: PathBuf,
        line: usize,
        msg: String,
    },
    /// The contents are wrong in a way that has no line (binary formats).
    #[error("{file}: {msg}")]
    Format { file: PathBuf, msg: String },
    /// An output names a file this run read: pathlab never replaces an input.
    #[error("{file}: is an input of this run; pathlab never replaces an input with an output (name another file)")]
    Overwrite { file: PathBuf },
}

impl IoError {
    pub(crate) fn parse(file: &Path, line: usize, msg: impl Into<String>) -> IoError {
        IoError::Parse {
            file: file.to_path_buf(),
            line,
            msg: msg.into(),
        }
    }
}

/// Reads a whole file as text, naming the file on failure.
pub fn read_text_file(path: &Path) -> Result<String, IoError> {
    read_text(path)
}

pub(crate) fn read_text(path: &Path) -> Result<String, IoError> {
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| {
        let upto = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
        IoError::parse(path, line, "the file is not UTF-8 text")
    })
}

/// Reads a whole input file: a regular file within [`crate::limits::MAX_FILE_BYTES`].
pub(crate) fn read_bytes(path: &Path) -> Result<Vec<u8>, IoError> {
    guard::note_read(path);
    crate::limits::read_input(path).map_err(|error| IoError::Os {
        file: path.to_path_buf(),
        error,
    })
}

/// Writes a file atomically: a temporary file beside it, then a rename, so a crash never leaves
/// a half-written file in place of the user's.
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<(), IoError> {
    write_all_atomic(&[(path, data)])
}

/// Writes several files all or nothing: every one to a temporary file beside it first, and only
/// when all of those are written, each renamed into place. A failure before the renames leaves
/// no file touched and no temporary file behind.
pub fn write_all_atomic(files: &[(&Path, &[u8])]) -> Result<(), IoError> {
    let os = |path: &Path, error| IoError::Os {
        file: path.to_path_buf(),
        error,
    };
    for (path, _) in files {
        guard::check_output(path)?;
    }
    let mut temps: Vec<PathBuf> = Vec::with_capacity(files.len());
    let clean = |temps: &[PathBuf]| {
        for t in temps {
            let _ = std::fs::remove_file(t);
        }
    };
    for (path, data) in files {
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        if let Err(e) = std::fs::write(&tmp, data) {
            let _ = std::fs::remove_file(&tmp);
            clean(&temps);
            return Err(os(path, e));
        }
        temps.push(tmp);
    }
    for (i, ((path, _), tmp)) in files.iter().zip(&temps).enumerate() {
        if let Err(e) = std::fs::rename(tmp, path) {
            clean(&temps[i..]);
            return Err(os(path, e));
        }
    }
    Ok(())
}

/// Splits text into lines with their 1-based numbers, dropping `\r` of CRLF files.
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    // A final newline ends the last line; it does not start an empty one.
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
}

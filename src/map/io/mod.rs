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
pub use guard::check_output;
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
///
/// A target that exists and is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO) is
/// written in place after the temporary files are written, never replaced: a rename over a
/// device would put a plain file where the device was. A link is followed to the file it names,
/// so the link stays a link.
pub fn write_all_atomic(files: &[(&Path, &[u8])]) -> Result<(), IoError> {
    let os = |path: &Path, error| IoError::Os {
        file: path.to_path_buf(),
        error,
    };
    for (path, _) in files {
        guard::check_output(path)?;
    }
    let targets: Vec<Target> = (files.iter())
        .map(|(path, _)| Target::of(path).map_err(|e| os(path, e)))
        .collect::<Result<_, _>>()?;
    let mut temps: Vec<Option<PathBuf>> = Vec::with_capacity(files.len());
    let clean = |temps: &[Option<PathBuf>]| {
        for t in temps.iter().flatten() {
            let _ = std::fs::remove_file(t);
        }
    };
    for ((path, data), target) in files.iter().zip(&targets) {
        let Target::File(real) = target else {
            temps.push(None);
            continue;
        };
        let dir = real
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = real
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        if let Err(e) = std::fs::write(&tmp, data) {
            let _ = std::fs::remove_file(&tmp);
            clean(&temps);
            return Err(os(path, e));
        }
        temps.push(Some(tmp));
    }
    for (i, (((path, data), target), tmp)) in files.iter().zip(&targets).zip(&temps).enumerate() {
        let done = match (target, tmp) {
            (Target::File(real), Some(tmp)) => std::fs::rename(tmp, real),
            (Target::InPlace(real), _) => write_in_place(real, data),
            (Target::File(_), None) => unreachable!("every file target has its temporary file"),
        };
        if let Err(e) = done {
            clean(&temps[i..]);
            return Err(os(path, e));
        }
    }
    Ok(())
}

/// Where a write goes.
enum Target {
    /// A regular file, existing or not: replaced by rename.
    File(PathBuf),
    /// A device, FIFO or socket that exists: written in place.
    InPlace(PathBuf),
}

impl Target {
    fn of(path: &Path) -> std::io::Result<Target> {
        use std::io::{Error, ErrorKind};
        // A link names the file to write; a dangling one is replaced like a missing file.
        let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        let real = match is_link {
            true => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
            false => path.to_path_buf(),
        };
        match std::fs::metadata(&real) {
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(Target::File(real)),
            Err(e) => Err(e),
            Ok(m) if m.is_dir() => Err(Error::new(
                ErrorKind::InvalidInput,
                "is a folder, not a file",
            )),
            Ok(m) if m.is_file() => Ok(Target::File(real)),
            Ok(_) => Ok(Target::InPlace(real)),
        }
    }
}

/// Writes `data` into an existing device or FIFO. A FIFO nobody reads is refused at once
/// rather than waited on (opening it for writing would block until a reader came).
fn write_in_place(path: &Path, data: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let mut f = options.open(path).map_err(|e| {
        if e.raw_os_error() == Some(6) {
            // ENXIO: a FIFO with no reader.
            std::io::Error::new(std::io::ErrorKind::WouldBlock, "a pipe that nobody reads")
        } else {
            e
        }
    })?;
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // Blocking again for the write itself: a reader that is slow is waited for.
        let fd = f.as_raw_fd();
        // SAFETY: fcntl on a descriptor this function owns, with flags read from it.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
            }
        }
    }
    f.write_all(data)?;
    f.flush()
}

/// Splits text into lines with their 1-based numbers, dropping `\r` of CRLF files.
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    // A final newline ends the last line; it does not start an empty one.
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
}

//! Reading and writing maps, scenarios and projects. Every error names the file and, for text
//! formats, the line; nothing here panics on bad input.

mod guard;
mod movingai;
mod png;
mod scen;
mod source;
mod warframe;

pub use guard::{check_output, guard_inputs, resolve};
pub use movingai::{parse_map, read_map, write_map, write_map_file};
pub use png::{decode_png, read_png, PNG_DARK_THRESHOLD};
pub use scen::{check_problem, parse_scen, read_scen, write_scen, write_scen_file, Problem};
pub use source::{input_exists, reading_given, GivenFiles};
pub use warframe::{
    check_problem3, parse_3dmap, parse_3dscen, read_3dmap, read_3dscen, write_3dmap,
    write_3dmap_file, write_3dscen, Problem3,
};

use std::path::{Path, PathBuf};

/// The lower-case extension of `path`.
pub fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

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
    utf8(read_bytes(path)?, path)
}

/// `bytes` as text, or the line of `path` where they stop being UTF-8.
pub(crate) fn utf8(bytes: Vec<u8>, path: &Path) -> Result<String, IoError> {
    String::from_utf8(bytes).map_err(|e| {
        let upto = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
        IoError::parse(path, line, "the file is not UTF-8 text")
    })
}

/// Reads a whole input file: a regular file within [`crate::limits::MAX_FILE_BYTES`].
pub(crate) fn read_bytes(path: &Path) -> Result<Vec<u8>, IoError> {
    let given = source::given_bytes(path);
    if given.is_none() {
        guard::note_read(path);
    }
    given
        .unwrap_or_else(|| crate::limits::read_input(path))
        .map_err(|error| IoError::Os {
            file: path.to_path_buf(),
            error,
        })
}

/// Writes a file atomically: a temporary file beside it, then a rename, so a crash never leaves
/// a half-written file in place of the user's.
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<(), IoError> {
    write_all_atomic(&[(path, data)])
}

/// Where written files go instead of the disk, once set: a browser page has no file system, so
/// the web app hands each file it writes (a save, an export) to the browser as a download.
static HAND_OVER: std::sync::OnceLock<HandOver> = std::sync::OnceLock::new();

/// Takes a written file (its name and contents) instead of the disk.
pub type HandOver = fn(&Path, &[u8]) -> Result<(), String>;

/// Sends every file written from now on to `hand_over` (its name and contents) instead of the
/// disk; the first call wins. The web app calls this once, at its start.
pub fn write_files_to(hand_over: HandOver) {
    let _ = HAND_OVER.set(hand_over);
}

/// Writes several files all or nothing: every one to a temporary file beside it first, and only
/// when all of those are written, each renamed into place. A failure before the renames leaves
/// no file touched and no temporary file behind.
///
/// A target that exists and is not a regular file (`/dev/null`, a FIFO) is written in place,
/// never replaced: a rename over a device would put a plain file where the device was. Such
/// targets are opened before any rename (a FIFO nobody reads is refused then, with nothing
/// written) and written after. `/dev/stdout` and `/dev/stderr` are this process's own streams,
/// whatever they lead to. A link is followed to the file it names, so the link stays a link.
pub fn write_all_atomic(files: &[(&Path, &[u8])]) -> Result<(), IoError> {
    let os = |path: &Path, error| IoError::Os {
        file: path.to_path_buf(),
        error,
    };
    for (path, _) in files {
        guard::check_output(path)?;
    }
    if let Some(hand_over) = HAND_OVER.get() {
        for (path, data) in files {
            hand_over(path, data).map_err(|msg| IoError::Format {
                file: path.to_path_buf(),
                msg,
            })?;
        }
        return Ok(());
    }
    let targets: Vec<Target> = (files.iter())
        .map(|(path, _)| Target::of(path).map_err(|e| os(path, e)))
        .collect::<Result<_, _>>()?;
    // Every in-place target opened first: one that cannot be costs nothing yet.
    let mut opened: Vec<Option<Sink>> = Vec::with_capacity(files.len());
    for ((path, _), target) in files.iter().zip(&targets) {
        opened.push(match target {
            Target::InPlace(real) => Some(Sink::open(real).map_err(|e| os(path, e))?),
            Target::Stream(which) => Some(Sink::Stream(*which)),
            Target::File(_) => None,
        });
    }
    let mut temps: Vec<Option<PathBuf>> = Vec::with_capacity(files.len());
    let clean = |temps: &[Option<PathBuf>]| {
        for t in temps.iter().flatten() {
            let _ = std::fs::remove_file(t);
        }
    };
    for (i, ((path, data), target)) in files.iter().zip(&targets).enumerate() {
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
        // The index too: two outputs naming one file must not share a temporary file.
        let tmp = dir.join(format!(".{name}.{}.{i}.tmp", std::process::id()));
        if let Err(e) = std::fs::write(&tmp, data) {
            let _ = std::fs::remove_file(&tmp);
            clean(&temps);
            return Err(os(path, e));
        }
        temps.push(Some(tmp));
    }
    for (i, ((path, target), tmp)) in files
        .iter()
        .map(|f| f.0)
        .zip(&targets)
        .zip(&temps)
        .enumerate()
    {
        if let (Target::File(real), Some(tmp)) = (target, tmp) {
            if let Err(e) = std::fs::rename(tmp, real) {
                clean(&temps[i..]);
                return Err(os(path, e));
            }
        }
    }
    for ((path, data), sink) in files.iter().zip(opened) {
        if let Some(sink) = sink {
            sink.write(data).map_err(|e| os(path, e))?;
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
    /// This process's standard output (1) or error (2).
    Stream(u8),
}

impl Target {
    fn of(path: &Path) -> std::io::Result<Target> {
        use std::io::{Error, ErrorKind};
        // Names of this process's own streams: opened anew they would start at the file's
        // beginning (or, resolved, be replaced by rename), losing what was printed before.
        match path.to_str() {
            Some("/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1") => return Ok(Target::Stream(1)),
            Some("/dev/stderr" | "/dev/fd/2" | "/proc/self/fd/2") => return Ok(Target::Stream(2)),
            _ => {}
        }
        // A link names the file to write, even one that does not exist yet.
        let mut real = path.to_path_buf();
        for _ in 0..40 {
            let Ok(to) = std::fs::read_link(&real) else {
                break;
            };
            let dir = real.parent().map(Path::to_path_buf).unwrap_or_default();
            real = dir.join(to);
        }
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

/// An in-place target, open.
enum Sink {
    File(std::fs::File),
    Stream(u8),
}

impl Sink {
    /// Opens an existing device or FIFO for writing. A FIFO or socket nobody reads is refused
    /// at once rather than waited on (opening it would block until a reader came).
    fn open(path: &Path) -> std::io::Result<Sink> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true);
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NONBLOCK);
        }
        let f = options.open(path).map_err(|e| {
            if e.raw_os_error() == Some(6) {
                // ENXIO: a FIFO with no reader, or a socket.
                std::io::Error::new(
                    std::io::ErrorKind::WouldBlock,
                    "a pipe or socket that nobody reads",
                )
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
        Ok(Sink::File(f))
    }

    fn write(self, data: &[u8]) -> std::io::Result<()> {
        use std::io::Write;
        match self {
            Sink::File(mut f) => {
                f.write_all(data)?;
                f.flush()
            }
            Sink::Stream(1) => {
                let mut out = std::io::stdout().lock();
                out.write_all(data)?;
                out.flush()
            }
            Sink::Stream(_) => std::io::stderr().lock().write_all(data),
        }
    }
}

/// Splits text into lines with their 1-based numbers, dropping `\r` of CRLF files.
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    // A final newline ends the last line; it does not start an empty one.
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
}

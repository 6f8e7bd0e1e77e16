//! Files in the app: loading any supported file, native dialogs off the UI thread, atomic saves,
//! the recovery file, and exports.

use crate::app::jobs::{Job, Polled};
use crate::map::io;
use crate::map::Grid;
use crate::open::Opened;
use std::path::{Path, PathBuf};

/// Reads a `.map`, `.scen` (with its map), pathlab project `.ron` or `.png`, checked by the
/// core under the document's current `rules` (a project brings its own).
pub fn load(
    path: &Path,
    rules: (crate::space::Connectivity, crate::space::TerrainRule),
) -> Result<Opened, String> {
    crate::open::open_world(path, rules).map_err(|e| e.to_string())
}

/// The run file (`pathlab trace --out`) at `path`, if it is one: a `.ron` that reads as a run.
pub fn run_file(path: &Path) -> Option<crate::trace::run_file::RunFile> {
    if ext(path) != "ron" {
        return None;
    }
    crate::trace::run_file::RunFile::read(path).ok()
}

/// The map a run file names: as written beside the run file, as written from here, or its
/// file name beside the run file.
pub fn run_map(run: &Path, map: &str) -> Option<PathBuf> {
    let dir = run.parent().unwrap_or(Path::new(""));
    let named = Path::new(map);
    [
        dir.join(named),
        named.to_path_buf(),
        dir.join(named.file_name().unwrap_or_default()),
    ]
    .into_iter()
    .find(|p| io::input_exists(p))
}

/// The file of several given together that is opened: the first scenario (its map is among
/// the others), else the first.
pub fn main_file(given: &[(PathBuf, Vec<u8>)]) -> Option<PathBuf> {
    let scenario = given
        .iter()
        .find(|(p, _)| matches!(ext(p).as_str(), "scen" | "3dscen"));
    scenario.or(given.first()).map(|(p, _)| p.clone())
}

/// Whether `path` is a search trace (Posthoc's YAML, or its JSON), opened as a view.
pub fn is_trace(path: &Path) -> bool {
    matches!(ext(path).as_str(), "yaml" | "yml" | "json")
}

fn ext(path: &Path) -> String {
    io::extension(path)
}

/// Saves the grid (and for projects, everything else) to `path`, atomically.
pub fn save(path: &Path, project: &crate::project::Project, grid: &Grid) -> Result<(), String> {
    let r = match ext(path).as_str() {
        "ron" => crate::project::write_project(project, path),
        _ => io::write_map_file(grid, path),
    };
    r.map_err(|e| e.to_string())
}

/// What a dialog is for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DialogPurpose {
    Open,
    SaveAs,
    ExportRun,
    ExportPosthoc,
    ExportPng,
    ExportCsv,
    /// The crowd window's heat views as one PNG, and its counts as CSV.
    ExportHeatPng,
    ExportHeatCsv,
    SaveTape,
    OpenTape,
    OpenTrace,
    ExportSvg,
}

impl DialogPurpose {
    /// True for dialogs that pick an existing file.
    pub fn opens(self) -> bool {
        matches!(
            self,
            DialogPurpose::Open | DialogPurpose::OpenTape | DialogPurpose::OpenTrace
        )
    }

    /// The title of the dialog (and of the path field that stands in for it).
    pub fn title(self) -> &'static str {
        match self {
            DialogPurpose::Open => "Open a map, scenario, project or image",
            DialogPurpose::SaveAs => "Save the map (.map) or project (.ron)",
            DialogPurpose::ExportRun => "Export the run (RON)",
            DialogPurpose::ExportPosthoc => "Export a Posthoc trace (.yaml)",
            DialogPurpose::ExportPng => "Export the canvas as PNG",
            DialogPurpose::ExportSvg => "Export the view as SVG",
            DialogPurpose::ExportCsv => "Save the experiment as CSV",
            DialogPurpose::ExportHeatPng => "Export the heatmaps as PNG",
            DialogPurpose::ExportHeatCsv => "Export the counts per cell as CSV",
            DialogPurpose::SaveTape => "Save the change tape (RON)",
            DialogPurpose::OpenTape => "Load a change tape (RON)",
            DialogPurpose::OpenTrace => "Open a search trace (Posthoc: .trace.yaml, .trace.json)",
        }
    }

    /// File extensions listed for this purpose (lower case, no dot).
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            DialogPurpose::Open => &["map", "scen", "ron", "png"],
            DialogPurpose::SaveAs => &["map", "ron"],
            DialogPurpose::ExportRun | DialogPurpose::SaveTape | DialogPurpose::OpenTape => {
                &["ron"]
            }
            DialogPurpose::ExportPosthoc => &["yaml"],
            DialogPurpose::OpenTrace => &["yaml", "yml", "json"],
            DialogPurpose::ExportPng | DialogPurpose::ExportHeatPng => &["png"],
            DialogPurpose::ExportSvg => &["svg"],
            DialogPurpose::ExportCsv | DialogPurpose::ExportHeatCsv => &["csv"],
        }
    }
}

/// How a native dialog ended (a page asks the browser's file picker instead: `web_files`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub enum DialogResult {
    Chosen(PathBuf),
    Cancelled,
    /// No dialog could open (no desktop portal): the path field stands in.
    Unavailable,
}

#[cfg(not(target_arch = "wasm32"))]
/// A dialog that answers faster than this without a file did not open: nobody cancels a
/// file dialog within a quarter second, while a missing desktop portal answers at once.
const NO_DIALOG_WITHIN: std::time::Duration = std::time::Duration::from_millis(250);

/// True when no native dialog can open here: without a session bus there is no desktop
/// portal to ask (`PATHLAB_NO_PORTAL=1` forces this).
pub fn portal_missing() -> bool {
    std::env::var_os("PATHLAB_NO_PORTAL").is_some_and(|v| v != "0")
        || std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none()
}

/// A native file dialog running on its own thread, so the UI keeps drawing.
pub struct PendingDialog {
    pub purpose: DialogPurpose,
    /// The name suggested, for the path field if no dialog opens.
    pub suggested: String,
    job: Job<DialogResult>,
}

impl PendingDialog {
    /// Opens a dialog for `purpose`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn spawn(purpose: DialogPurpose, suggested: &str) -> PendingDialog {
        let name = suggested.to_string();
        let asked = web_time::Instant::now();
        let job = Job::spawn("file dialog", 0, move |_| {
            let d = rfd::AsyncFileDialog::new();
            let fut = async move {
                let h = match purpose {
                    DialogPurpose::Open => {
                        d.add_filter(
                            "maps, scenarios, projects, images",
                            &["map", "scen", "ron", "png"],
                        )
                        .add_filter("all files", &["*"])
                        .pick_file()
                        .await
                    }
                    DialogPurpose::OpenTrace => {
                        d.add_filter("search traces (Posthoc)", &["yaml", "yml", "json"])
                            .add_filter("all files", &["*"])
                            .pick_file()
                            .await
                    }
                    DialogPurpose::SaveAs => {
                        d.add_filter("MovingAI map", &["map"])
                            .add_filter("pathlab project", &["ron"])
                            .set_file_name(name)
                            .save_file()
                            .await
                    }
                    DialogPurpose::ExportRun => {
                        d.add_filter("run (RON)", &["ron"])
                            .set_file_name(name)
                            .save_file()
                            .await
                    }
                    DialogPurpose::ExportPosthoc => {
                        d.add_filter("Posthoc trace", &["yaml"])
                            .set_file_name(name)
                            .save_file()
                            .await
                    }
                    DialogPurpose::ExportSvg => {
                        d.add_filter("SVG image", &["svg"])
                            .set_file_name(name)
                            .save_file()
                            .await
                    }
                    DialogPurpose::ExportPng | DialogPurpose::ExportHeatPng => {
                        d.add_filter("PNG image", &["png"])
                            .set_file_name(name)
                            .save_file()
                            .await
                    }
                    DialogPurpose::SaveTape => {
                        d.add_filter("change tape (RON)", &["ron"])
                            .set_file_name(name)
                            .save_file()
                            .await
                    }
                    DialogPurpose::OpenTape => {
                        d.add_filter("change tape (RON)", &["ron"])
                            .add_filter("all files", &["*"])
                            .pick_file()
                            .await
                    }
                    DialogPurpose::ExportCsv | DialogPurpose::ExportHeatCsv => {
                        d.add_filter("CSV", &["csv"])
                            .set_file_name(name)
                            .save_file()
                            .await
                    }
                };
                h.map(|h| h.path().to_path_buf())
            };
            match pollster::block_on(fut) {
                Some(p) => DialogResult::Chosen(p),
                None if asked.elapsed() < NO_DIALOG_WITHIN => DialogResult::Unavailable,
                None => DialogResult::Cancelled,
            }
        });
        PendingDialog {
            purpose,
            suggested: suggested.to_string(),
            job,
        }
    }

    /// How the dialog ended, once it has.
    pub fn poll(&mut self) -> Option<DialogResult> {
        match self.job.poll() {
            Polled::Done(r) => Some(r),
            Polled::Running => None,
            // The dialog's thread died (rfd panicked): treat as no dialog.
            Polled::Lost => Some(DialogResult::Unavailable),
        }
    }
}

/// The recovery file this instance owns and the lock that says so. The first instance takes
/// `recovery.ron`, a second one running beside it `recovery-1.ron`, and so on: each offers to
/// restore only its own slot's work, and a slot frees itself when its instance exits (or
/// crashes: the operating system drops the lock).
pub struct RecoverySlot {
    pub path: PathBuf,
    lock: Option<std::fs::File>,
}

/// The lock file goes with the instance: otherwise every instance that ever ran (each test of
/// the app's, with a slot of its own in the temporary folder) leaves one behind. Removed
/// before the lock is let go, so an instance that opens it next either finds the lock held or,
/// once it gets the lock, finds that the name no longer leads to its file
/// ([`claim_recovery`] then tries again).
impl Drop for RecoverySlot {
    fn drop(&mut self) {
        if self.lock.is_some() {
            let _ = std::fs::remove_file(self.path.with_extension("lock"));
        }
    }
}

/// Whether `path` still names the open file `f` (on systems without inode numbers: assumed).
fn still_named(f: &std::fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (f.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (f, path);
        true
    }
}

/// Claims the first free recovery slot next to `base` (`recovery.ron` → `recovery-1.ron` …).
pub fn claim_recovery(base: &Path) -> RecoverySlot {
    let dir = base.parent().unwrap_or(Path::new("."));
    let _ = std::fs::create_dir_all(dir);
    let stem = base
        .file_stem()
        .map_or("recovery".into(), |s| s.to_string_lossy().into_owned());
    for k in 0..32 {
        let path = if k == 0 {
            base.to_path_buf()
        } else {
            dir.join(format!("{stem}-{k}.ron"))
        };
        let lock_path = path.with_extension("lock");
        // A few tries: an owner exiting removes its lock file, and one this instance opened
        // just before that is then locked under no name (see `Drop`).
        for _ in 0..4 {
            let Ok(f) = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&lock_path)
            else {
                // A folder we cannot write: recovery writes will fail and say so.
                return RecoverySlot { path, lock: None };
            };
            if f.try_lock().is_err() {
                break;
            }
            if still_named(&f, &lock_path) {
                return RecoverySlot {
                    path,
                    lock: Some(f),
                };
            }
        }
    }
    RecoverySlot {
        path: dir.join(format!("{stem}-{}.ron", std::process::id())),
        lock: None,
    }
}

/// Where unsaved work is kept between crashes: `$PATHLAB_RECOVERY`, or the user's data folder.
pub fn recovery_path() -> PathBuf {
    // A page has no folders (and `temp_dir` panics there): the name its entry in local
    // storage is read under.
    if cfg!(target_arch = "wasm32") {
        return PathBuf::from("recovery.ron");
    }
    if let Some(p) = std::env::var_os("PATHLAB_RECOVERY") {
        return PathBuf::from(p);
    }
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("pathlab").join("recovery.ron")
}

/// Writes the recovery file (a project holding the unsaved map) to `p`, atomically.
#[cfg(not(target_arch = "wasm32"))]
pub fn write_recovery(p: &Path, project: &crate::project::Project) -> Result<(), String> {
    if let Some(dir) = p.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    crate::project::write_project(project, p).map_err(|e| e.to_string())
}

/// Writes an RGBA image as PNG.
pub fn write_png(path: &Path, image: &eframe::egui::ColorImage) -> Result<(), String> {
    let [w, h] = image.size;
    let mut bytes = Vec::with_capacity(w * h * 4);
    for p in &image.pixels {
        bytes.extend_from_slice(&p.to_array());
    }
    let img = image::RgbaImage::from_raw(w as u32, h as u32, bytes)
        .ok_or_else(|| "screenshot has the wrong size".to_string())?;
    let mut buf = std::io::Cursor::new(Vec::new());
    img.write_to(&mut buf, image::ImageFormat::Png)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    io::write_atomic(path, buf.get_ref()).map_err(|e| e.to_string())
}

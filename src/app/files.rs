//! Files in the app: loading any supported file, native dialogs off the UI thread, atomic saves,
//! the recovery file, and exports.

use crate::map::io::{self, read_map, read_png, read_project, read_scen, Problem};
use crate::map::Grid;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};

/// A file read into what the app needs.
pub struct Loaded {
    pub grid: Grid,
    pub start: Option<(u32, u32)>,
    pub goal: Option<(u32, u32)>,
    pub problems: Vec<Problem>,
    /// The file to save back to (`None` for PNG imports and scenarios: saving asks where).
    pub path: Option<PathBuf>,
    pub algorithms: Vec<crate::map::io::AlgoSettings>,
    /// Moves and terrain rule, from a project file (other files carry none).
    pub rules: Option<(crate::space::Connectivity, crate::space::TerrainRule)>,
}

fn ext(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// Reads a `.map`, `.scen` (with its map), pathlab project `.ron` or `.png`.
pub fn load(path: &Path) -> Result<Loaded, String> {
    let e = ext(path);
    let plain = |grid: Grid, keep: bool| Loaded {
        grid,
        start: None,
        goal: None,
        problems: vec![],
        path: keep.then(|| path.to_path_buf()),
        algorithms: vec![],
        rules: None,
    };
    match e.as_str() {
        "map" => Ok(plain(read_map(path).map_err(|e| e.to_string())?, true)),
        "png" => Ok(plain(read_png(path).map_err(|e| e.to_string())?, false)),
        "ron" => {
            let (p, grid) = read_project(path).map_err(|e| e.to_string())?;
            Ok(Loaded {
                grid,
                start: p.start,
                goal: p.goal,
                problems: p.scenarios,
                path: Some(path.to_path_buf()),
                algorithms: p.algorithms,
                rules: Some((p.connectivity, p.terrain_rule)),
            })
        }
        "scen" => {
            let problems = read_scen(path).map_err(|e| e.to_string())?;
            let map = scen_map(path, problems.first()).ok_or_else(|| {
                format!(
                    "{}: cannot find the map this scenario names (looked beside it)",
                    path.display()
                )
            })?;
            let grid = read_map(&map).map_err(|e| e.to_string())?;
            let first = problems.first().map(|p| (p.start, p.goal));
            Ok(Loaded {
                grid,
                start: first.map(|f| f.0),
                goal: first.map(|f| f.1),
                problems,
                path: Some(map),
                algorithms: vec![],
                rules: None,
            })
        }
        _ => Err(format!(
            "{}: pathlab opens .map, .scen, .ron (project) and .png files",
            path.display()
        )),
    }
}

/// The map a scenario belongs to: the file its first problem names, beside the scenario, or
/// the scenario's own name without `.scen`.
fn scen_map(scen: &Path, first: Option<&Problem>) -> Option<PathBuf> {
    let dir = scen.parent().unwrap_or(Path::new("."));
    let named = first.map(|p| dir.join(p.map_file_name()));
    let stripped = scen
        .to_string_lossy()
        .strip_suffix(".scen")
        .map(PathBuf::from);
    named.into_iter().chain(stripped).find(|p| p.is_file())
}

/// Saves the grid (and for projects, everything else) to `path`, atomically.
pub fn save(path: &Path, project: &crate::map::io::Project, grid: &Grid) -> Result<(), String> {
    let r = match ext(path).as_str() {
        "ron" => io::write_project(project, path),
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
    SaveTape,
    OpenTape,
}

/// A native file dialog running on its own thread, so the UI keeps drawing.
pub struct PendingDialog {
    pub purpose: DialogPurpose,
    rx: Receiver<Option<PathBuf>>,
}

impl PendingDialog {
    /// Opens a dialog for `purpose`.
    pub fn spawn(purpose: DialogPurpose, suggested: &str) -> PendingDialog {
        let (tx, rx) = channel();
        let name = suggested.to_string();
        std::thread::spawn(move || {
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
                    DialogPurpose::ExportPng => {
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
                    DialogPurpose::ExportCsv => {
                        d.add_filter("CSV", &["csv"])
                            .set_file_name(name)
                            .save_file()
                            .await
                    }
                };
                h.map(|h| h.path().to_path_buf())
            };
            let _ = tx.send(pollster::block_on(fut));
        });
        PendingDialog { purpose, rx }
    }

    /// The chosen path once the dialog has closed: `Some(None)` if cancelled.
    pub fn poll(&self) -> Option<Option<PathBuf>> {
        match self.rx.try_recv() {
            Ok(p) => Some(p),
            Err(std::sync::mpsc::TryRecvError::Empty) => None,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => Some(None),
        }
    }
}

/// Where unsaved work is kept between crashes: `$PATHLAB_RECOVERY`, or the user's data folder.
pub fn recovery_path() -> PathBuf {
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
pub fn write_recovery(p: &Path, project: &crate::map::io::Project) -> Result<(), String> {
    if let Some(dir) = p.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    io::write_project(project, p).map_err(|e| e.to_string())
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

//! The app's own state apart from its parts, grouped by what it serves: editing the map,
//! playing the runs, how the views are shown, the generator's settings, files and the
//! scripted screenshot. [`PathlabApp`](crate::app::PathlabApp) holds one of each.

use crate::app::files::{PendingDialog, RecoverySlot};
use crate::app::jobs::Job;
use crate::app::path_prompt::PathPrompt;
use crate::app::scripted::FrameLog;
use crate::app::{Breakpoints, Sync, Tool};
use crate::map::Cell;
use eframe::egui;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use web_time::Instant;

/// Cells and their values, as a brush stroke collects them.
pub(crate) type CellList = Vec<(u32, u32, Cell)>;

/// The open-list view's rows (node, f, g), cached for one (run serial, step).
pub(crate) type BestOpen = ((u64, usize), Vec<(u32, f32, f32)>);

/// Expansions per second while playing, at first.
const SPEED_DEFAULT: f32 = 20.0;

/// Editing the map: the tool, the material, the cells pointed at and the drag under way.
pub(crate) struct Editing {
    pub tool: Tool,
    pub material: u8,
    pub selected: Option<(u32, u32)>,
    pub hover: Option<(u32, u32)>,
    /// The cell under the pointer, and the one clicked, in a view of its own world (hexes of
    /// the square map, a knowledge level): its index and the cell in its own grid.
    pub world_hover: Option<(usize, (u32, u32))>,
    pub world_selected: Option<(usize, (u32, u32))>,
    /// Cells painted by the current drag, and what they were.
    pub stroke: Option<(CellList, CellList)>,
    pub rect_from: Option<(u32, u32)>,
    /// Pointer cell of the brush stroke's last frame.
    pub brush_last: Option<(u32, u32)>,
    pub dragging_endpoint: Option<bool>,
    /// Where the dragged endpoint would land: its disc follows the pointer there.
    pub drag_to: Option<(bool, (u32, u32))>,
    /// Cells the world changed last (agents walking), and when: the canvas flashes them.
    pub flash: (Vec<(u32, u32)>, Instant),
}

impl Default for Editing {
    fn default() -> Self {
        Editing {
            tool: Tool::Select,
            material: b'@',
            selected: None,
            hover: None,
            world_hover: None,
            world_selected: None,
            stroke: None,
            rect_from: None,
            brush_last: None,
            dragging_endpoint: None,
            drag_to: None,
            flash: (vec![], Instant::now()),
        }
    }
}

/// Playing the runs: whether, how fast, and where to stop.
pub(crate) struct Playback {
    pub playing: bool,
    /// Expansions per second while playing.
    pub speed: f32,
    pub max_speed: bool,
    /// Steps taken by the ×N buttons and Shift+arrows.
    pub step_n: usize,
    pub sync: Sync,
    pub breakpoints: Breakpoints,
    pub play_acc: f64,
    /// Microseconds of each frame given to searching (see `pump_runs`).
    pub search_budget_us: u64,
}

impl Default for Playback {
    fn default() -> Self {
        Playback {
            playing: false,
            speed: SPEED_DEFAULT,
            max_speed: false,
            step_n: 10,
            sync: Sync::Shared,
            breakpoints: Breakpoints::default(),
            play_acc: 0.0,
            search_budget_us: 4000,
        }
    }
}

/// How the views are shown, and where things were drawn on the last frame.
pub(crate) struct Display {
    /// The view the inspector, the open list and the status line speak of: the one under the
    /// pointer, else the last one hovered or clicked.
    pub active: usize,
    pub diff: bool,
    /// Draw each found path rubber-banded too (View menu).
    pub smoothed: bool,
    pub show_help: bool,
    pub show_legend: bool,
    /// Bottom edge of the menu bar: windows open below it.
    pub menu_bottom: f32,
    pub canvas_rect: Option<egui::Rect>,
    /// Where each view was drawn on the last frame.
    pub view_rects: Vec<egui::Rect>,
    /// Where the legend strip was drawn on the last frame.
    pub legend_rect: Option<egui::Rect>,
    pub space_panned: bool,
    pub best_open_cache: Option<BestOpen>,
    /// The window title last sent: sending one asks for a repaint, so it goes only on change.
    pub title_sent: String,
}

impl Default for Display {
    fn default() -> Self {
        Display {
            active: 0,
            diff: false,
            smoothed: false,
            show_help: false,
            show_legend: true,
            menu_bottom: 24.0,
            canvas_rect: None,
            view_rects: vec![],
            legend_rect: None,
            space_panned: false,
            best_open_cache: None,
            title_sent: String::new(),
        }
    }
}

/// The map generator's settings (left panel).
pub(crate) struct Generator {
    pub seed: u64,
    pub size: (u32, u32),
    pub density: f64,
    pub room: u32,
    pub corridor: u32,
}

impl Default for Generator {
    fn default() -> Self {
        Generator {
            seed: 1,
            size: (64, 48),
            density: 0.3,
            room: 8,
            corridor: 2,
        }
    }
}

/// Files: the recent ones, the dialog asked, the recovery file this instance owns.
pub(crate) struct FileState {
    pub recent: Vec<PathBuf>,
    pub dialog: Option<PendingDialog>,
    /// The path field standing in for the native dialog.
    pub path_prompt: Option<PathPrompt>,
    /// No native dialog can open in this session: file questions go to the path field.
    pub no_portal: bool,
    /// The recovery slot this instance owns (locked while it runs).
    pub recovery: Option<RecoverySlot>,
    pub recovery_written: u64,
    pub recovery_at: Instant,
    pub recovery_job: Option<Job<Result<(), String>>>,
    /// Files the browser is reading for the app: picked for this purpose, or dropped (`None`).
    #[cfg(target_arch = "wasm32")]
    pub arriving: Option<(
        Option<crate::app::DialogPurpose>,
        crate::app::web_files::Arriving,
    )>,
}

impl FileState {
    pub fn new(no_portal: bool) -> FileState {
        FileState {
            recent: vec![],
            dialog: None,
            path_prompt: None,
            no_portal,
            recovery: None,
            recovery_written: 0,
            recovery_at: Instant::now(),
            recovery_job: None,
            #[cfg(target_arch = "wasm32")]
            arriving: None,
        }
    }
}

/// The scripted screenshot and frame log (`--screenshot`, `--frame-log`).
#[derive(Default)]
pub(crate) struct Shots {
    pub shot: Arc<Mutex<Option<Arc<egui::ColorImage>>>>,
    pub shot_target: Option<(PathBuf, Option<egui::Rect>)>,
    pub shot_requested: bool,
    pub failure: Arc<Mutex<Option<String>>>,
    pub frame_log: FrameLog,
}

//! A recorded run saved as RON: what was searched, how, the outcome, and every event.

use super::{Event, Recorder};
use crate::map::io::{write_atomic, IoError};
use crate::search::Stats;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The run file format this build writes.
pub const RUN_VERSION: u32 = 1;

/// Counters of a run, as saved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedStats {
    pub expanded: u64,
    pub generated: u64,
    pub reopened: u64,
    pub updated: u64,
    pub max_open: u64,
}

impl From<Stats> for SavedStats {
    fn from(s: Stats) -> Self {
        SavedStats {
            expanded: s.expanded,
            generated: s.generated,
            reopened: s.reopened,
            updated: s.updated,
            max_open: s.max_open,
        }
    }
}

/// One saved run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunFile {
    pub version: u32,
    /// The map file searched, as given.
    pub map: String,
    /// Algorithm spec (`name:key=value,...`).
    pub algorithm: String,
    pub start: (u32, u32),
    pub goal: (u32, u32),
    /// `found`, `no-path` or `running`.
    pub status: String,
    pub cost: Option<f64>,
    /// Path as cells, start to goal.
    pub path: Vec<(u32, u32)>,
    pub stats: SavedStats,
    pub events: Vec<Event>,
    /// On a voxel world: its size and the z of start, goal and each path cell (x and y are
    /// in `start`, `goal` and `path`; node ids in events are voxel indices).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub voxel: Option<VoxelRun>,
}

/// The third coordinate of a run on voxels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VoxelRun {
    pub dims: [u32; 3],
    pub start_z: u32,
    pub goal_z: u32,
    pub path_z: Vec<u32>,
}

impl RunFile {
    /// Collects the events of a recorder.
    pub fn events_of(rec: &Recorder) -> Vec<Event> {
        rec.iter().collect()
    }

    /// Writes the run atomically.
    pub fn write(&self, path: &Path) -> Result<(), IoError> {
        write_atomic(path, self.to_text(path)?.as_bytes())
    }

    /// The run as RON text; `path` names the file in errors.
    pub fn to_text(&self, path: &Path) -> Result<String, IoError> {
        ron::ser::to_string(self).map_err(|e| IoError::Format {
            file: path.to_path_buf(),
            msg: e.to_string(),
        })
    }

    /// Reads a run file.
    pub fn read(path: &Path) -> Result<RunFile, IoError> {
        RunFile::parse(&crate::map::io::read_text_file(path)?, path)
    }

    /// Parses run file text; `path` is only used in error messages.
    pub fn parse(text: &str, path: &Path) -> Result<RunFile, IoError> {
        let run: RunFile = ron::from_str(text).map_err(|e| IoError::Parse {
            file: path.to_path_buf(),
            line: e.span.start.line,
            msg: e.code.to_string(),
        })?;
        if run.version > RUN_VERSION {
            return Err(IoError::Parse {
                file: path.to_path_buf(),
                line: 1,
                msg: format!(
                    "run file version {} is newer than this pathlab reads ({RUN_VERSION})",
                    run.version
                ),
            });
        }
        Ok(run)
    }
}

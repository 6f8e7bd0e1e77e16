//! pathlab's project file (RON): the map, its scenarios and the algorithm settings, versioned.

use super::{read_text, write_atomic, IoError, Problem};
use crate::map::Grid;
use crate::map::{Connectivity, TerrainRule};
use crate::world::Family;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The project format this build writes; it reads this version and older.
pub const PROJECT_VERSION: u32 = 1;

/// The chosen algorithm and its parameter values (names from the registry).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlgoSettings {
    pub name: String,
    #[serde(default)]
    pub params: BTreeMap<String, f64>,
    /// A compare view that searches the map as another world (hexes of a square map), with
    /// how its hexes take their terrain; `None`: the project's own world.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub world: Option<(Family, crate::map::HexFill)>,
    /// A view playing back a trace file (the algorithm is then `trace`): the file, relative to
    /// the project's folder or absolute. It is read again when the project opens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<std::path::PathBuf>,
}

impl Default for AlgoSettings {
    fn default() -> Self {
        AlgoSettings {
            name: "astar".into(),
            params: BTreeMap::new(),
            world: None,
            trace: None,
        }
    }
}

/// Everything a user saves: the world, its problems and how to search it. A field this build
/// does not know is refused (a misspelt `goal` must not be dropped in silence).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Project {
    pub version: u32,
    /// Map rows as text, one string per row (readable and diffable).
    pub rows: Vec<String>,
    /// Per-cell cost multipliers, row-major; absent when every cost is 1.
    #[serde(default)]
    pub costs: Option<Vec<f32>>,
    #[serde(default)]
    pub connectivity: Connectivity,
    #[serde(default)]
    pub terrain_rule: TerrainRule,
    #[serde(default)]
    pub start: Option<(u32, u32)>,
    #[serde(default)]
    pub goal: Option<(u32, u32)>,
    #[serde(default)]
    pub scenarios: Vec<Problem>,
    #[serde(default)]
    pub algorithms: Vec<AlgoSettings>,
    /// Square cells or hexes (`rows` then hold the hexes in offset coordinates); files from
    /// before hex worlds have none and are square.
    #[serde(default)]
    pub world: Family,
    /// A voxel world's voxels ([`crate::map::voxel::VoxelGrid::to_runs`]); `rows` then hold
    /// the layer shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub voxels: Option<String>,
    /// A voxel world's terrain costs ([`crate::map::voxel::VoxelGrid::costs_to_runs`]),
    /// absent when every voxel costs 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub voxel_costs: Option<String>,
    /// The layer shown, and the start's and goal's layers (voxel worlds).
    #[serde(default)]
    pub layer: u32,
    #[serde(default)]
    pub start_z: u32,
    #[serde(default)]
    pub goal_z: u32,
    /// A hex world's cognitive map: a visit counter per hex, row-major, and C_max.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knowledge: Option<crate::map::CognitiveMap>,
}

impl Project {
    /// A project holding `grid` with default settings.
    pub fn new(grid: &Grid) -> Project {
        let costs = grid
            .costs()
            .iter()
            .any(|&c| c != 1.0)
            .then(|| grid.costs().to_vec());
        Project {
            version: PROJECT_VERSION,
            rows: grid.rows().map(str::to_string).collect(),
            costs,
            connectivity: Connectivity::default(),
            terrain_rule: TerrainRule::default(),
            start: None,
            goal: None,
            scenarios: vec![],
            algorithms: vec![AlgoSettings::default()],
            world: Family::default(),
            voxels: None,
            voxel_costs: None,
            layer: 0,
            start_z: 0,
            goal_z: 0,
            knowledge: None,
        }
    }

    /// Holds the voxel world `v`: its voxels, terrain costs and layers.
    pub fn set_volume(&mut self, v: &crate::map::volume::Volume) {
        self.voxels = Some(v.voxels.to_runs());
        self.voxel_costs = v.voxels.costs_to_runs();
        (self.layer, self.start_z, self.goal_z) = (v.z, v.start_z, v.goal_z);
    }

    /// The map as a grid; errors say what is inconsistent.
    pub fn grid(&self) -> Result<Grid, String> {
        let w = self.rows.first().map_or(0, |r| r.len());
        if w == 0 {
            return Err("the map has no cells".into());
        }
        if let Some(msg) = crate::limits::grid_size_error(w as u64, self.rows.len() as u64) {
            return Err(msg);
        }
        if let Some((i, r)) = self.rows.iter().enumerate().find(|(_, r)| r.len() != w) {
            return Err(format!(
                "map row {} has {} characters, row 1 has {w}",
                i + 1,
                r.len()
            ));
        }
        if let Some(r) = self
            .rows
            .iter()
            .position(|r| r.bytes().any(|b| !b.is_ascii_graphic()))
        {
            return Err(format!(
                "map row {} holds a character that is not a map tile",
                r + 1
            ));
        }
        self.world.check()?;
        let tiles: Vec<u8> = self.rows.iter().flat_map(|r| r.bytes()).collect();
        let mut g = Grid::from_tiles(w as u32, self.rows.len() as u32, tiles);
        if let Some(c) = &self.costs {
            g.set_costs(c.clone())?;
        }
        for (what, p) in [("start", self.start), ("goal", self.goal)] {
            if let Some((x, y)) = p {
                if x >= g.width() || y >= g.height() {
                    return Err(format!(
                        "{what} ({x}, {y}) is outside the {}×{} map",
                        g.width(),
                        g.height()
                    ));
                }
            }
        }
        Ok(g)
    }
}

/// Reads a project file; the map inside is checked too.
pub fn read_project(path: &Path) -> Result<(Project, Grid), IoError> {
    parse_project(&read_text(path)?, path)
}

/// Parses project text; `path` is only used in error messages.
pub fn parse_project(text: &str, path: &Path) -> Result<(Project, Grid), IoError> {
    // The version first: a newer file's new fields are "newer", not "unknown".
    #[derive(Deserialize)]
    struct Versioned {
        version: u32,
    }
    if let Ok(v) = ron::from_str::<Versioned>(text) {
        if v.version > PROJECT_VERSION {
            return Err(IoError::parse(
                path,
                1,
                format!(
                    "project version {} is newer than this pathlab reads ({PROJECT_VERSION})",
                    v.version
                ),
            ));
        }
    }
    let project: Project = ron::from_str(text)
        .map_err(|e| IoError::parse(path, e.span.start.line, e.code.to_string()))?;
    let grid = project.grid().map_err(|msg| IoError::Format {
        file: path.to_path_buf(),
        msg,
    })?;
    Ok((project, grid))
}

/// Writes a project file atomically.
pub fn write_project(project: &Project, path: &Path) -> Result<(), IoError> {
    let text =
        ron::ser::to_string_pretty(project, ron::ser::PrettyConfig::default()).map_err(|e| {
            IoError::Format {
                file: path.to_path_buf(),
                msg: e.to_string(),
            }
        })?;
    write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Cell;

    #[test]
    fn round_trip_and_errors() {
        let dir = std::env::temp_dir().join(format!("pathlab-proj-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("p.ron");
        let mut g = Grid::from_rows(&["..@", "S.."]);
        g.set(
            0,
            0,
            Cell {
                tile: b'.',
                cost: 3.0,
            },
        );
        let mut p = Project::new(&g);
        p.start = Some((0, 0));
        p.goal = Some((2, 1));
        p.algorithms[0].params.insert("weight".into(), 1.5);
        write_project(&p, &file).unwrap();
        let (q, g2) = read_project(&file).unwrap();
        assert_eq!((q, g2), (p, g));

        std::fs::write(&file, "(version: 1, rows: [\"..\",\n \".\"])").unwrap();
        let e = read_project(&file).unwrap_err().to_string();
        assert!(e.contains("map row 2 has 1 characters"), "{e}");
        std::fs::write(&file, "(version: 1,\n rows: [\"..\"\n").unwrap();
        let e = read_project(&file).unwrap_err().to_string();
        assert!(e.starts_with(&format!("{}:", file.display())), "{e}");
        std::fs::write(&file, "(version: 9, rows: [\"..\"])").unwrap();
        assert!(read_project(&file)
            .unwrap_err()
            .to_string()
            .contains("newer"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

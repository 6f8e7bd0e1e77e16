//! pathlab's project file (RON): the map, its scenarios and the algorithm settings, versioned.
//! Above `world/` (it names the family) and below `open.rs` (which checks what it names against
//! the families and the list of algorithms).

use crate::map::io::{read_text, write_atomic, IoError, Problem};
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

/// Everything a user saves: the world, its problems and how to search it. It is written and
/// read as [`ProjectFile`], whose keys every earlier project file used.
#[derive(Clone, Debug, PartialEq)]
pub struct Project {
    pub version: u32,
    /// Map rows as text, one string per row (readable and diffable).
    pub rows: Vec<String>,
    /// Per-cell cost multipliers, row-major; absent when every cost is 1.
    pub costs: Option<Vec<f32>>,
    pub connectivity: Connectivity,
    pub terrain_rule: TerrainRule,
    pub start: Option<(u32, u32)>,
    pub goal: Option<(u32, u32)>,
    pub scenarios: Vec<Problem>,
    pub algorithms: Vec<AlgoSettings>,
    /// Square cells, hexes (`rows` then hold the hexes in offset coordinates), voxels (`rows`
    /// hold the layer shown), a navmesh or a lattice; files from before hex worlds are square.
    pub world: Family,
    /// What the world's family keeps beside its cells, as the file holds it.
    pub data: Option<FamilyData>,
}

/// A family's own payload as a project file holds it, under the keys earlier files used. The
/// world's family decodes it (`open.rs`), checked against the family the file names.
#[derive(Clone, Debug, PartialEq)]
pub enum FamilyData {
    /// A voxel world: its voxels ([`crate::map::voxel::VoxelGrid::to_runs`]), their terrain
    /// costs (absent when every voxel costs 1), the layer shown and the start's and goal's
    /// layers. Any of the keys makes one, so a stray key is named (`voxels` may be missing).
    Voxels(VoxelRuns),
    /// A hex world's cognitive map: a visit counter per hex, row-major, and C_max.
    Knowledge(crate::map::CognitiveMap),
}

/// A voxel world's keys in a project file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VoxelRuns {
    pub voxels: Option<String>,
    pub voxel_costs: Option<String>,
    pub layer: u32,
    pub start_z: u32,
    pub goal_z: u32,
}

impl VoxelRuns {
    /// The keys present (non-zero layers count as present), in the file's order.
    pub fn keys(&self) -> Vec<&'static str> {
        [
            ("voxels", self.voxels.is_some()),
            ("voxel_costs", self.voxel_costs.is_some()),
            ("layer", self.layer != 0),
            ("start_z", self.start_z != 0),
            ("goal_z", self.goal_z != 0),
        ]
        .iter()
        .filter(|k| k.1)
        .map(|k| k.0)
        .collect()
    }
}

/// The project file as written: [`Project`] with each family's payload under its own keys. A
/// field this build does not know is refused (a misspelt `goal` must not be dropped in
/// silence).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProjectFile {
    version: u32,
    rows: Vec<String>,
    #[serde(default)]
    costs: Option<Vec<f32>>,
    #[serde(default)]
    connectivity: Connectivity,
    #[serde(default)]
    terrain_rule: TerrainRule,
    #[serde(default)]
    start: Option<(u32, u32)>,
    #[serde(default)]
    goal: Option<(u32, u32)>,
    #[serde(default)]
    scenarios: Vec<Problem>,
    #[serde(default)]
    algorithms: Vec<AlgoSettings>,
    #[serde(default)]
    world: Family,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    voxels: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    voxel_costs: Option<String>,
    #[serde(default)]
    layer: u32,
    #[serde(default)]
    start_z: u32,
    #[serde(default)]
    goal_z: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    knowledge: Option<crate::map::CognitiveMap>,
}

impl ProjectFile {
    /// The project the file holds; a file cannot hold both voxels and a cognitive map.
    fn into_project(self) -> Result<Project, String> {
        let runs = VoxelRuns {
            voxels: self.voxels,
            voxel_costs: self.voxel_costs,
            layer: self.layer,
            start_z: self.start_z,
            goal_z: self.goal_z,
        };
        let data = match (runs.keys().is_empty(), self.knowledge) {
            (true, None) => None,
            (false, None) => Some(FamilyData::Voxels(runs)),
            (true, Some(k)) => Some(FamilyData::Knowledge(k)),
            (false, Some(_)) => {
                return Err(format!(
                    "`knowledge` (a hex world's) and `{}` (a voxel world's) cannot both be in one project",
                    runs.keys()[0]
                ))
            }
        };
        Ok(Project {
            version: self.version,
            rows: self.rows,
            costs: self.costs,
            connectivity: self.connectivity,
            terrain_rule: self.terrain_rule,
            start: self.start,
            goal: self.goal,
            scenarios: self.scenarios,
            algorithms: self.algorithms,
            world: self.world,
            data,
        })
    }

    fn of(p: &Project) -> ProjectFile {
        let (runs, knowledge) = match &p.data {
            Some(FamilyData::Voxels(r)) => (r.clone(), None),
            Some(FamilyData::Knowledge(k)) => (VoxelRuns::default(), Some(k.clone())),
            None => (VoxelRuns::default(), None),
        };
        ProjectFile {
            version: p.version,
            rows: p.rows.clone(),
            costs: p.costs.clone(),
            connectivity: p.connectivity,
            terrain_rule: p.terrain_rule,
            start: p.start,
            goal: p.goal,
            scenarios: p.scenarios.clone(),
            algorithms: p.algorithms.clone(),
            world: p.world,
            voxels: runs.voxels,
            voxel_costs: runs.voxel_costs,
            layer: runs.layer,
            start_z: runs.start_z,
            goal_z: runs.goal_z,
            knowledge,
        }
    }
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
            data: None,
        }
    }

    /// Holds the voxel world `v`: its voxels, terrain costs and layers.
    pub fn set_volume(&mut self, v: &crate::map::volume::Volume) {
        self.data = Some(FamilyData::Voxels(VoxelRuns {
            voxels: Some(v.voxels.to_runs()),
            voxel_costs: v.voxels.costs_to_runs(),
            layer: v.z,
            start_z: v.start_z,
            goal_z: v.goal_z,
        }));
    }

    /// Holds the cognitive map `k` (hex worlds), or none.
    pub fn set_knowledge(&mut self, k: Option<&crate::map::CognitiveMap>) {
        self.data = k.cloned().map(FamilyData::Knowledge);
    }

    /// The cognitive map the project holds, if any.
    pub fn knowledge(&self) -> Option<&crate::map::CognitiveMap> {
        match &self.data {
            Some(FamilyData::Knowledge(k)) => Some(k),
            _ => None,
        }
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
    let file: ProjectFile = ron::from_str(text)
        .map_err(|e| IoError::parse(path, e.span.start.line, e.code.to_string()))?;
    let format = |msg| IoError::Format {
        file: path.to_path_buf(),
        msg,
    };
    let project = file.into_project().map_err(format)?;
    let grid = project.grid().map_err(format)?;
    Ok((project, grid))
}

impl Project {
    /// The project as the file's text.
    pub fn to_text(&self) -> Result<String, String> {
        ron::ser::to_string_pretty(&ProjectFile::of(self), ron::ser::PrettyConfig::default())
            .map_err(|e| e.to_string())
    }
}

/// Writes a project file atomically.
pub fn write_project(project: &Project, path: &Path) -> Result<(), IoError> {
    let text = project.to_text().map_err(|msg| IoError::Format {
        file: path.to_path_buf(),
        msg,
    })?;
    write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Cell;

    /// A hex project as files have held it since cognitive maps came, and a voxel one: each
    /// family's payload under its own keys, read into `data` and written back under them.
    #[test]
    fn old_files_keep_their_keys_and_families_their_payloads() {
        let hex = r#"(
    version: 1,
    rows: ["...", "..."],
    world: Hex(orientation: Pointy, pitch: 1.0),
    knowledge: Some((counters: [0, 1, 2, 0, 5, 0], c_max: 5)),
)"#;
        let (p, _) = parse_project(hex, Path::new("h.ron")).unwrap();
        let want = crate::map::CognitiveMap {
            counters: vec![0, 1, 2, 0, 5, 0],
            c_max: 5,
        };
        assert_eq!(p.data, Some(FamilyData::Knowledge(want.clone())));
        assert_eq!(p.knowledge(), Some(&want));
        let text = p.to_text().unwrap();
        assert!(
            text.contains("knowledge:") && !text.contains("data"),
            "{text}"
        );
        assert_eq!(parse_project(&text, Path::new("h.ron")).unwrap().0, p);

        let voxels = r#"(
    version: 1,
    rows: ["..", ".."],
    layer: 1,
    voxels: Some("2 2 2"),
)"#;
        let (p, _) = parse_project(voxels, Path::new("v.ron")).unwrap();
        let runs = VoxelRuns {
            voxels: Some("2 2 2".into()),
            layer: 1,
            ..VoxelRuns::default()
        };
        assert_eq!(runs.keys(), ["voxels", "layer"]);
        assert_eq!(p.data, Some(FamilyData::Voxels(runs)));
        let text = p.to_text().unwrap();
        assert!(
            text.contains("voxels:") && text.contains("layer: 1"),
            "{text}"
        );
        assert_eq!(parse_project(&text, Path::new("v.ron")).unwrap().0, p);

        // One family's payload at a time.
        let both = voxels.replace(
            "layer: 1,",
            "layer: 1,\n    knowledge: Some((counters: [0, 0, 0, 0], c_max: 5)),",
        );
        let e = parse_project(&both, Path::new("b.ron"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("b.ron") && e.contains("`knowledge`") && e.contains("`voxels`"),
            "{e}"
        );
    }

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

//! Opening any file pathlab reads as a world, with everything in it checked once, here, for every
//! entry point (the app's Open, a file on the command line, `convert`): the map within the
//! limits, every problem inside the map and on passable cells, every algorithm known with
//! parameters in range. The formats are read by `map::io`, which knows no algorithm; the
//! algorithms a project names are checked here, against the list ([`crate::algorithms`]),
//! above the worlds they run on.

use crate::map::io::{
    check_problem, check_problem3, extension, input_exists, read_3dmap, read_3dscen, read_map,
    read_png, read_scen, read_text, IoError, Problem, Problem3,
};
use crate::map::voxel::VoxelGrid;
use crate::map::{Connectivity, Grid, TerrainRule};
use crate::project::{parse_project, AlgoSettings, Project};
use crate::project::{FamilyData, VoxelRuns};
use crate::search::params::Params;
use crate::search::registry;
use std::path::{Path, PathBuf};

/// A world read from a file.
#[derive(Clone, Debug)]
pub struct Opened {
    pub grid: Grid,
    pub start: Option<(u32, u32)>,
    pub goal: Option<(u32, u32)>,
    pub problems: Vec<Problem>,
    /// The file to save back to (`None` for PNG imports: saving asks where). For a scenario,
    /// its map.
    pub path: Option<PathBuf>,
    pub algorithms: Vec<AlgoSettings>,
    /// Moves and terrain rule, from a project file (other files carry none).
    pub rules: Option<(Connectivity, TerrainRule)>,
    /// Square or hex (only a project can hold hexes), or voxels.
    pub world: crate::world::Family,
    /// What the world's family keeps beside the cells: a voxel world's volume (`grid` is
    /// then the layer shown), a hex world's cognitive map (Rahmani 2020, from a project).
    pub data: Option<crate::world::AnyData>,
}

/// Reads a `.map`, `.scen` (with its map), pathlab project `.ron` or `.png`. `rules` are the
/// moves and terrain rule problems are checked under when the file brings none (a project
/// brings its own).
pub fn open_world(path: &Path, rules: (Connectivity, TerrainRule)) -> Result<Opened, IoError> {
    let plain = |grid: Grid, keep: bool| Opened {
        grid,
        start: None,
        goal: None,
        problems: vec![],
        path: keep.then(|| path.to_path_buf()),
        algorithms: vec![],
        rules: None,
        world: crate::world::Family::default(),
        data: None,
    };
    let format = |msg: String| IoError::Format {
        file: path.to_path_buf(),
        msg,
    };
    match extension(path).as_str() {
        "map" => Ok(plain(read_map(path)?, true)),
        "png" => Ok(plain(read_png(path)?, false)),
        "ron" => project_world(&read_text(path)?, path),
        "scen" => {
            let problems = read_scen(path)?;
            let map = scen_map(path, problems.first()).ok_or_else(|| {
                format("cannot find the map this scenario names (looked beside it)".into())
            })?;
            let grid = read_map(&map)?;
            for p in &problems {
                check_problem(p, &grid, rules.1)
                    .map_err(|msg| IoError::parse(path, p.line, msg))?;
            }
            let first = problems.first().map(|p| (p.start, p.goal));
            Ok(Opened {
                grid,
                start: first.map(|f| f.0),
                goal: first.map(|f| f.1),
                problems,
                path: Some(map),
                algorithms: vec![],
                rules: None,
                world: crate::world::Family::default(),
                data: None,
            })
        }
        "3dmap" => Ok(voxel_world(read_3dmap(path)?, vec![], path)),
        "3dscen" => {
            let (name, problems) = read_3dscen(path)?;
            let dir = path.parent().unwrap_or(Path::new("."));
            let stripped = path
                .to_string_lossy()
                .strip_suffix(".3dscen")
                .map(PathBuf::from);
            let map = std::iter::once(dir.join(&name))
                .chain(stripped)
                .find(|p| input_exists(p))
                .ok_or_else(|| {
                    format(format!(
                        "cannot find {name}, the map this scenario names (looked beside it)"
                    ))
                })?;
            let voxels = read_3dmap(&map)?;
            for p in &problems {
                check_problem3(p, &voxels).map_err(|msg| IoError::parse(path, p.line, msg))?;
            }
            Ok(voxel_world(voxels, problems, &map))
        }
        e => Err(format(format!(
            "pathlab opens .map, .scen, .3dmap, .3dscen, .ron (project) and .png files, not .{e}"
        ))),
    }
}

/// A voxel world read from `path` (a `.3dmap`), 26-connected as the Warframe benchmark, shown
/// at its start's layer.
fn voxel_world(voxels: VoxelGrid, problems: Vec<Problem3>, path: &Path) -> Opened {
    let moves = crate::map::VoxelMoves::TwentySix;
    let (volume, start, goal) = crate::map::volume::Volume::new(voxels, moves, problems);
    Opened {
        grid: volume.voxels.slice(volume.z),
        start: Some((start[0], start[1])),
        goal: Some((goal[0], goal[1])),
        problems: vec![],
        path: Some(path.to_path_buf()),
        algorithms: vec![],
        rules: None,
        world: crate::world::Family::Voxel { moves },
        data: Some(crate::world::AnyData::Voxel(volume)),
    }
}

/// A project's text as a world, checked: its map, its algorithms, its embedded scenarios under
/// its own terrain rule. `path` is only used in error messages.
pub fn project_world(text: &str, path: &Path) -> Result<Opened, IoError> {
    let format = |msg: String| IoError::Format {
        file: path.to_path_buf(),
        msg,
    };
    let (p, mut grid) = parse_project(text, path)?;
    let runs = match &p.data {
        Some(FamilyData::Voxels(r)) => Some(r),
        _ => None,
    };
    let mut data = match p.world.volume_moves() {
        Some(moves) => {
            let v = project_volume(&p, runs, moves).map_err(format)?;
            grid = v.voxels.slice(v.z);
            Some(crate::world::AnyData::Voxel(v))
        }
        None => {
            // Voxels in a project of another world would be dropped by the next save, and
            // nothing would search them: a voxel world says so in its `world`.
            if let Some(field) = runs.and_then(|r| r.keys().first().copied()) {
                let msg = format!(
                    "`{field}` belongs to a voxel world, and this project's world is {} (give it `world: Voxel(moves: …)` or remove `{field}`)",
                    p.world.name()
                );
                let key = format!("{field}:");
                return Err(match text.lines().position(|l| l.contains(&key)) {
                    Some(i) => IoError::parse(path, i + 1, msg),
                    None => format(msg),
                });
            }
            None
        }
    };
    for a in &p.algorithms {
        // The world this view searches: the project's, or the map as hexes.
        let world = a.world.map_or(p.world, |w| w.0);
        let own_world = || {
            match a.world {
            Some((w, fill)) if w != p.world => w
                .from_square(p.world, &grid, fill)
                .map(|_| ())
                .map_err(|e| format!("algorithm `{}`: its own world: {e}", a.name)),
            Some(_) => Err(format!(
                "algorithm `{}`: a view's own world must differ from the map's (hexes of a square map)",
                a.name
            )),
            None => Ok(()),
        }
        };
        // The heuristics that fit its world (octile would overestimate on hexes).
        let fits = world.heuristics();
        let fitting = || match a.params.get("heuristic") {
            Some(&v) => {
                let h = crate::space::Heuristic::ALL
                    .get(v as usize)
                    .copied()
                    .unwrap_or_default();
                if fits.contains(&h) {
                    Ok(())
                } else {
                    Err(format!(
                        "algorithm `{}`: heuristic `{}` does not fit a {} world",
                        a.name,
                        h.name(),
                        world.name()
                    ))
                }
            }
            None => Ok(()),
        };
        check_algorithm(a)
            .and_then(|_| check_runs_on(&a.name, world))
            .and_then(|_| fitting())
            .and_then(|_| own_world())
            .map_err(|msg| {
                // The line that names it, where the text has one.
                let quoted = format!("\"{}\"", a.name);
                match text.lines().position(|l| l.contains(&quoted)) {
                    Some(i) => IoError::parse(path, i + 1, msg),
                    None => format(msg),
                }
            })?;
    }
    if let Some(k) = p.knowledge() {
        if !p.world.keeps_knowledge() {
            return Err(format("a cognitive map needs a hex world".into()));
        }
        k.check((grid.width() * grid.height()) as usize)
            .map_err(format)?;
        data = Some(crate::world::AnyData::Hex(k.clone()));
    }
    for (i, s) in p.scenarios.iter().enumerate() {
        check_problem(s, &grid, p.terrain_rule)
            .map_err(|msg| format(format!("embedded scenario {}: {msg}", i + 1)))?;
    }
    Ok(Opened {
        grid,
        start: p.start,
        goal: p.goal,
        problems: p.scenarios,
        path: Some(path.to_path_buf()),
        algorithms: p.algorithms,
        rules: Some((p.connectivity, p.terrain_rule)),
        world: p.world,
        data,
    })
}

/// A voxel project's volume, checked: voxels present and readable, the layer and the start's
/// and goal's layers inside, start and goal on free voxels.
fn project_volume(
    p: &Project,
    runs: Option<&VoxelRuns>,
    moves: crate::map::VoxelMoves,
) -> Result<crate::map::volume::Volume, String> {
    let none = VoxelRuns::default();
    let r = runs.unwrap_or(&none);
    let text = r
        .voxels
        .as_deref()
        .ok_or("a voxel project holds no `voxels`")?;
    let mut voxels = VoxelGrid::from_runs(text).map_err(|e| format!("its voxels: {e}"))?;
    if let Some(c) = &r.voxel_costs {
        voxels
            .set_costs_from_runs(c)
            .map_err(|e| format!("its voxel costs: {e}"))?;
    }
    let [w, h, d] = voxels.dims();
    let (rw, rh) = (
        p.rows.first().map_or(0, |r| r.len()) as u32,
        p.rows.len() as u32,
    );
    if (rw, rh) != (w, h) {
        return Err(format!(
            "its map is {rw}×{rh} but its voxels are {w}×{h}×{d}"
        ));
    }
    for (what, z) in [
        ("layer", r.layer),
        ("start's layer", r.start_z),
        ("goal's layer", r.goal_z),
    ] {
        if z >= d {
            return Err(format!("the {what} {z} is outside the {d} layers"));
        }
    }
    for (what, xy, z) in [("start", p.start, r.start_z), ("goal", p.goal, r.goal_z)] {
        if let Some((x, y)) = xy {
            if voxels.is_blocked(x as i64, y as i64, z as i64) {
                return Err(format!("the {what} ({x}, {y}, {z}) is on a blocked voxel"));
            }
        }
    }
    Ok(crate::map::volume::Volume {
        voxels,
        moves,
        problems: vec![],
        z: r.layer,
        start_z: r.start_z,
        goal_z: r.goal_z,
    })
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
    named.into_iter().chain(stripped).find(|p| input_exists(p))
}

/// Refuses an algorithm the registry does not offer on `world` (GPS of the brain on squares).
pub fn check_runs_on(name: &str, world: crate::world::Family) -> Result<(), String> {
    let Some(info) = crate::algorithms::find(name) else {
        return Ok(());
    };
    let kinds = info.spaces();
    if kinds.contains(&world.space_kind()) {
        return Ok(());
    }
    let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    Err(format!(
        "algorithm `{name}` does not run on a {} world (it runs on: {})",
        world.name(),
        names.join(", ")
    ))
}

/// Why `a` names no algorithm of the registry or carries a parameter it does not take or out of
/// its range, or `Ok`.
pub fn check_algorithm(a: &AlgoSettings) -> Result<(), String> {
    // A trace view names its file and nothing else; no other view names one.
    match (a.name == registry::TRACE.name, &a.trace) {
        (true, None) => {
            return Err("algorithm `trace` names no trace file (`trace: Some(\"…\")`)".into())
        }
        (true, Some(_)) if !a.params.is_empty() || a.world.is_some() => {
            return Err("algorithm `trace` takes no parameters and no world of its own".into())
        }
        (true, Some(_)) => return Ok(()),
        (false, Some(_)) => {
            return Err(format!(
                "algorithm `{}` plays no trace file (only algorithm `trace` does)",
                a.name
            ))
        }
        (false, None) => {}
    }
    let info = crate::algorithms::find(&a.name).ok_or_else(|| {
        let names: Vec<_> = crate::algorithms::all().iter().map(|i| i.name).collect();
        format!(
            "unknown algorithm `{}` (pathlab has: {})",
            a.name,
            names.join(", ")
        )
    })?;
    Params::resolve(info.params, &a.params)
        .map(|_| ())
        .map_err(|e| format!("algorithm `{}`: {e}", a.name))
}

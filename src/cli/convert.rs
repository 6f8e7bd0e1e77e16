//! `convert`: maps between formats, square maps into hex projects or voxel worlds.

use super::*;
use pathlab::map::volume::Volume;

/// `convert` to a `.3dmap`: from a `.3dmap`, a square map extruded to `height`, or a folder of
/// PNG slices (z = 0 first, by file name).
pub(super) fn to_voxels(input: &Path, output: &Path, height: Option<u32>) -> Result<i32> {
    use pathlab::map::io::{read_3dmap, read_png, write_3dmap_file};
    use pathlab::map::voxel::VoxelGrid;
    refuse_overwrite(&[input], &[output])?;
    let fail = |e: String| anyhow::anyhow!("{}: {e}", input.display());
    let voxels = if input.is_dir() {
        let mut pngs: Vec<PathBuf> = std::fs::read_dir(input)
            .map_err(|e| fail(e.to_string()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| ext(p) == "png")
            .collect();
        pngs.sort();
        if pngs.is_empty() {
            bail!("{}: no .png slices in this folder", input.display());
        }
        let layers = pngs
            .iter()
            .map(|p| read_png(p))
            .collect::<Result<Vec<_>, _>>()?;
        VoxelGrid::from_slices(&layers).map_err(fail)?
    } else if Family::of_map_file(input) == Some(SpaceKind::Voxel) {
        read_3dmap(input)?
    } else if let Some(v) = open_world(input, (Connectivity::default(), TerrainRule::default()))
        .ok()
        .and_then(|o| o.data)
        .and_then(|d| d.get::<Volume>().map(|v| v.voxels.clone()))
    {
        // A voxel project.
        v
    } else {
        let Some(h) = height else {
            bail!(
                "{}: a square map becomes voxels with --height H (the voxels it is extruded to)",
                input.display()
            );
        };
        let grid = open_world(input, (Connectivity::default(), TerrainRule::default()))?.grid;
        VoxelGrid::extrude(&grid, h).map_err(fail)?
    };
    if voxels.costs().is_some() {
        eprintln!(
            "note: {} holds no terrain costs (the .3dmap format has none); a project (.ron) keeps them",
            output.display()
        );
    }
    write_3dmap_file(&voxels, output)?;
    Ok(0)
}

pub(super) fn convert(input: &Path, output: &Path, rules: &RuleArgs) -> Result<i32> {
    refuse_overwrite(&[input], &[output])?;
    let family = rules.family()?;
    // Square maps, images and projects, and the families' own formats (voxels' .3dmap and
    // .3dscen, as the family list says).
    let mut endings = vec!["map", "png", "ron"];
    endings.extend(Family::own_endings());
    let e = ext(input);
    if !endings.contains(&e.as_str()) {
        let (last, rest) = endings.split_last().expect("square maps are always read");
        bail!(
            "{}: cannot read .{e} files (use .{} or .{last})",
            input.display(),
            rest.join(", .")
        );
    }
    // Through the app's reader, so a project is checked as fully as when it is opened.
    let opened = open_world(input, rules.rules())?;
    if let Some(v) = opened.data.as_ref().and_then(|d| d.get::<Volume>()) {
        rules.refuse_all(&input.display().to_string())?;
        // A voxel world: only a project holds it with its layer, start and goal.
        if ext(output) != "ron" {
            bail!(
                "{}: a voxel world is written as a project (.ron) or a .3dmap",
                output.display()
            );
        }
        let mut p = Project::new(&opened.grid);
        p.world = opened.world;
        p.set_volume(v);
        (p.start, p.goal) = (opened.start, opened.goal);
        write_project(&p, output)?;
        return Ok(0);
    }
    // Without --world the input keeps its own; with it, the map is made into that family.
    let (grid, world) = if family == Family::default() {
        (opened.grid, opened.world)
    } else {
        let fill = rules.hex_fill();
        let cells = family
            .from_square(opened.world, &opened.grid, fill)
            .map_err(|e| anyhow::anyhow!("{}: {e}", input.display()))?;
        let leaks = family.moves_through_walls(&opened.grid, &cells);
        if leaks > 0 {
            eprintln!(
                "note: {}: {leaks} {} moves pass through walls of the square map (--hex-fill {}); --hex-fill walls keeps walls walls",
                output.display(),
                family.name(),
                fill.name()
            );
        }
        (cells, family)
    };
    match ext(output).as_str() {
        "map" if !world.saves_as_map() => bail!(
            "{}: a {} world is saved as a project (.ron); .map files hold square cells",
            output.display(),
            world.name()
        ),
        "map" => write_map_file(&grid, output)?,
        "ron" => {
            let mut p = Project::new(&grid);
            p.world = world;
            (p.connectivity, p.terrain_rule) = rules.rules();
            write_project(&p, output)?
        }
        e => bail!(
            "{}: cannot write .{e} files (use .map or .ron)",
            output.display()
        ),
    }
    Ok(0)
}

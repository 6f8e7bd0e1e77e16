//! `pathlab trace`: one search recorded to a run file (RON) and optionally a Posthoc trace, on
//! a square map, its hexes, or a Warframe voxel map.

use super::{refuse_overwrite, RuleArgs};
use anyhow::{bail, Result};
use pathlab::map::io::read_map;
use pathlab::search::registry::Family as SpaceFamily;
use pathlab::search::Status;
use pathlab::space::{HexOrientation, Space, SpaceKind, VoxelMoves, VoxelSpace};
use pathlab::trace::run_file::{RunFile, VoxelRun, RUN_VERSION};
use pathlab::trace::{posthoc, posthoc_in, Recorder};
use pathlab::world::Family;
use std::path::Path;

/// A cell as given on the command line: X,Y or X,Y,Z.
#[derive(Clone, Copy, Debug)]
pub struct Point(u32, u32, Option<u32>);

impl Point {
    /// The cell of a 2D map; a z here is a mistake worth a message.
    fn xy(self, map: &Path, what: &str) -> Result<(u32, u32)> {
        if self.2.is_some() {
            bail!(
                "{}: the {what} has three coordinates, but this is a 2D map (X,Y)",
                map.display()
            );
        }
        Ok((self.0, self.1))
    }
}

pub fn parse_point(s: &str) -> Result<Point, String> {
    let parts: Vec<&str> = s.split(',').collect();
    let n = |v: &str| {
        v.trim()
            .parse::<u32>()
            .map_err(|_| format!("`{v}` is not a cell coordinate"))
    };
    match parts[..] {
        [x, y] => Ok(Point(n(x)?, n(y)?, None)),
        [x, y, z] => Ok(Point(n(x)?, n(y)?, Some(n(z)?))),
        _ => Err(format!("`{s}` should be X,Y (or X,Y,Z on a voxel map)")),
    }
}

/// One search on a `.3dmap`, 26-connected as the Warframe benchmark.
fn trace_voxels(
    map: &Path,
    (start, goal): (Point, Point),
    algo: &str,
    out: &Path,
    ph: Option<&Path>,
) -> Result<i32> {
    if ph.is_some() {
        bail!(
            "{}: Posthoc traces are 2D; leave out --posthoc on a voxel map",
            map.display()
        );
    }
    let voxels = pathlab::map::io::read_3dmap(map)?;
    let dims = voxels.dims();
    let space = VoxelSpace::new(voxels, VoxelMoves::TwentySix);
    let node = |p: Point, what: &str| -> Result<u32> {
        let Some(z) = p.2 else {
            bail!("{}: the {what} needs X,Y,Z on a voxel map", map.display());
        };
        let n = space.node(p.0, p.1, z).ok_or_else(|| {
            anyhow::anyhow!(
                "{}: the {what} ({}, {}, {z}) is outside the {}×{}×{} map",
                map.display(),
                p.0,
                p.1,
                dims[0],
                dims[1],
                dims[2]
            )
        })?;
        if !space.is_passable(n) {
            bail!(
                "{}: the {what} ({}, {}, {z}) is a blocked voxel",
                map.display(),
                p.0,
                p.1
            );
        }
        Ok(n)
    };
    let q = pathlab::search::Query {
        start: node(start, "start")?,
        goal: node(goal, "goal")?,
    };
    let xyz = |n: u32| space.xyz(n);
    let z = |n: u32| xyz(n)[2];
    trace_in(
        &space,
        q,
        (
            |n| {
                let p = xyz(n);
                (p[0], p[1])
            },
            Some((dims, &z)),
            None,
        ),
        map,
        algo,
        (out, None),
    )
}

pub(super) fn trace(
    map: &Path,
    (start, goal): (Point, Point),
    algo: &str,
    out: &Path,
    ph: Option<&Path>,
    rules: RuleArgs,
) -> Result<i32> {
    pathlab::algorithms::parse_spec(algo).map_err(anyhow::Error::msg)?;
    if let Some(ph) = ph {
        posthoc::check_name(ph).map_err(anyhow::Error::msg)?;
    }
    let outputs: Vec<&Path> = std::iter::once(out).chain(ph).collect();
    refuse_overwrite(&[map], &outputs)?;
    if Family::of_map_file(map) == Some(SpaceKind::Voxel) {
        rules.refuse_all(&map.display().to_string())?;
        return trace_voxels(map, (start, goal), algo, out, ph);
    }
    let (start, goal) = (start.xy(map, "start")?, goal.xy(map, "goal")?);
    let grid = read_map(map)?;
    let (c, r) = rules.rules();
    let family = rules.family()?;
    pathlab::world::dispatch(
        family.space_kind(),
        TraceIn {
            grid: &grid,
            family,
            rules: ((c, r), rules.hex_fill()),
            ends: (start, goal),
            map,
            algo,
            outs: (out, ph),
        },
    )
}

/// One search recorded in a family's world made from the square map.
struct TraceIn<'a> {
    grid: &'a pathlab::map::Grid,
    family: Family,
    rules: (
        (pathlab::space::Connectivity, pathlab::space::TerrainRule),
        pathlab::map::HexFill,
    ),
    ends: ((u32, u32), (u32, u32)),
    map: &'a Path,
    algo: &'a str,
    outs: (&'a Path, Option<&'a Path>),
}

impl pathlab::world::FamilyFn for TraceIn<'_> {
    type Out = Result<i32>;
    fn call<W: pathlab::world::WorldFamily>(self) -> Result<i32> {
        let map = self.map;
        let (world, _) = W::from_square_map(self.grid, self.family, self.rules.0, self.rules.1)
            .map_err(|e| anyhow::anyhow!("{}: {e}", map.display()))?;
        let space = world.space();
        let node = |what: &str, (x, y): (u32, u32)| -> Result<u32> {
            let n = world.node_under(x, y).ok_or_else(|| {
                anyhow::anyhow!(
                    "{}: {what} ({x}, {y}) is on no {} cell",
                    map.display(),
                    self.family.name()
                )
            })?;
            if space.is_passable(n) {
                Ok(n)
            } else {
                bail!("{}: {what} ({x}, {y}) is on a blocked cell", map.display())
            }
        };
        let q = pathlab::search::Query {
            start: node("start", self.ends.0)?,
            goal: node("goal", self.ends.1)?,
        };
        let layout = world.hex_layout();
        trace_in(
            space,
            q,
            (|n| world.xy(n), None, layout),
            map,
            self.algo,
            self.outs,
        )
    }
}

/// A voxel world's size and each node's z.
type Layers<'a> = Option<([u32; 3], &'a dyn Fn(u32) -> u32)>;

/// Records one search on `space` and writes the run file (and the Posthoc trace); `xy` names a
/// node's cell or hex in the files, on voxels `layers` the world's size and each node's z, and on
/// hexes `hex` their orientation and pitch.
fn trace_in<S: SpaceFamily>(
    space: &S,
    q: pathlab::search::Query,
    (xy, layers, hex): (
        impl Fn(u32) -> (u32, u32),
        Layers,
        Option<(HexOrientation, f64)>,
    ),
    map: &Path,
    algo: &str,
    (out, ph): (&Path, Option<&Path>),
) -> Result<i32> {
    let (start, goal) = (xy(q.start), xy(q.goal));
    let mut search = pathlab::algorithms::build(algo, space, q).map_err(anyhow::Error::msg)?;
    // Data prepared on a thread (a hierarchy) first: its layers are known once it is built,
    // and the steps until then record nothing.
    while search.preparing().is_some() {
        search.step_null(space);
    }
    let mut rec = Recorder::for_space(space, &search.layers());
    let status = search.run_record(space, &mut rec);
    let run = RunFile {
        version: RUN_VERSION,
        map: map.display().to_string(),
        algorithm: algo.to_string(),
        start,
        goal,
        status: match status {
            Status::Found => "found",
            Status::NoPath => "no-path",
            _ => "running",
        }
        .into(),
        cost: search.cost(),
        path: search
            .path()
            .unwrap_or(&[])
            .iter()
            .map(|&n| xy(n))
            .collect(),
        stats: search.stats().into(),
        events: RunFile::events_of(&rec),
        voxel: layers.map(|(dims, z)| VoxelRun {
            dims,
            start_z: z(q.start),
            goal_z: z(q.goal),
            path_z: search.path().unwrap_or(&[]).iter().map(|&n| z(n)).collect(),
        }),
    };
    if rec.dropped() > 0 {
        bail!(
            "{}: the run has {} events, more than pathlab records ({}); nothing was written",
            map.display(),
            rec.len() as u64 + rec.dropped(),
            pathlab::limits::MAX_EVENTS
        );
    }
    // Both files or neither.
    let text = run.to_text(out)?;
    let places = posthoc::places(space, &*search);
    let trace = ph.map(|p| {
        let layout = posthoc::Layout { cell: &xy, hex };
        posthoc::write(&rec, layout, Some(&places), posthoc::Format::of(p))
    });
    let mut files: Vec<(&Path, &[u8])> = vec![(out, text.as_bytes())];
    if let (Some(ph), Some(trace)) = (ph, &trace) {
        files.push((ph, trace.as_bytes()));
    }
    pathlab::map::io::write_all_atomic(&files)?;
    eprintln!(
        "{}: {} events, {} expanded, cost {}",
        out.display(),
        rec.len(),
        run.stats.expanded,
        run.cost
            .map_or("none (no path)".into(), |c| format!("{c:.6}"))
    );
    Ok(if status == Status::Found { 0 } else { 1 })
}

/// `pathlab trace --compare A B`: where two Posthoc traces first differ.
pub(super) fn compare(a: &Path, b: &Path) -> Result<i32> {
    match posthoc_in::compare(a, b).map_err(anyhow::Error::msg)? {
        None => {
            println!("{} and {} hold the same events", a.display(), b.display());
            Ok(0)
        }
        Some(diff) => {
            println!("{diff}");
            Ok(1)
        }
    }
}

/// `pathlab trace --check FILE [--map M]`: what pathlab reads of a Posthoc trace.
pub(super) fn check(file: &Path, map: Option<&Path>) -> Result<i32> {
    let target = match map {
        Some(m) => {
            let grid = read_map(m)?;
            posthoc_in::Target::squares(grid.width(), grid.height())
        }
        None => posthoc_in::Target::none(),
    };
    let t = posthoc_in::read(file, &target).map_err(anyhow::Error::msg)?;
    let version = if t.version.is_empty() {
        "no version"
    } else {
        &t.version
    };
    let own = t.events.len() - t.rebuilt_path;
    println!("{}: {own} events ({version})", file.display());
    let mut counts = std::collections::BTreeMap::new();
    for e in &t.events {
        let name = match e.kind {
            pathlab::trace::EventKind::Other => t.others[e.a as usize].as_str(),
            k => k.name(),
        };
        *counts.entry(name).or_insert(0usize) += 1;
    }
    // The path rebuilt from an end's parents is pathlab's, not the trace's.
    if let Some(n) = counts.get_mut("path") {
        *n -= t.rebuilt_path;
    }
    counts.retain(|_, n| *n > 0);
    for (name, n) in counts {
        println!("  {name}: {n}");
    }
    match map {
        Some(m) => println!(
            "placed on {}: {} of {} events about a node; {} could not be placed{}",
            m.display(),
            t.placed,
            t.about_nodes,
            t.about_nodes - t.placed,
            match t.off_map {
                0 => String::new(),
                o => format!(" ({o} drawn outside the map)"),
            }
        ),
        None => println!(
            "placed: none ({} of {own} events drawn; give --map to place them)",
            t.drawn
        ),
    }
    for n in &t.notes {
        println!("note: {n}");
    }
    Ok(0)
}

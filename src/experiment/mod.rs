//! Scenario suites: a map with its problems, solved by any registered algorithm. The CLI's
//! `solve` and `bench`, the benchmark tests and the criterion benches all go through here.

pub mod aipath;
pub mod anyangle;
pub mod behaviour;
pub mod dynamic;
pub mod dynamic_maps;
mod dynamic_runs;
pub mod gps_run;
pub mod heap_astar;
pub mod mantysalo2024;
mod mantysalo2024_tables;
pub mod scene3d;
pub mod scene3d_cells;
pub mod scene3d_run;
pub mod voxel_suite;

use crate::map::io::{read_map, read_scen, Problem};
use crate::map::{Grid, HexFill};
use crate::search::registry::{self, Family};
use crate::search::{DynSearch, Query, Status};
use crate::space::{Connectivity, GridSpace, HexOrientation, HexSpace, Space, TerrainRule};
use crate::world::WorldFamily;
use std::path::{Path, PathBuf};
use web_time::Instant;

/// A failure to set up a suite; messages name the file and line.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    #[error(transparent)]
    Io(#[from] crate::map::io::IoError),
    #[error("{file}:{line}: {msg}")]
    Problem {
        file: PathBuf,
        line: usize,
        msg: String,
    },
    #[error("{0}")]
    Algorithm(String),
}

/// A map, its search graph and the problems to solve on it.
pub struct Suite<S = GridSpace> {
    pub grid: Grid,
    pub space: S,
    pub problems: Vec<Problem>,
    /// One query per problem, same order.
    pub queries: Vec<Query>,
}

/// Which problems of a file to take.
#[derive(Clone, Copy, Debug)]
pub struct Selection {
    /// Take every k-th problem (1 = all).
    pub every: usize,
    /// Stop after this many (after `every`).
    pub limit: Option<usize>,
}

impl Default for Selection {
    fn default() -> Self {
        Selection {
            every: 1,
            limit: None,
        }
    }
}

impl Suite<GridSpace> {
    /// Loads `map` and `scen` (default rules: 8-connected, class rule) and checks every selected
    /// problem: map size, and start and goal on passable cells.
    pub fn load(map: &Path, scen: &Path, sel: Selection) -> Result<Suite, SuiteError> {
        Suite::load_with(map, scen, sel, Connectivity::Eight, TerrainRule::Class)
    }

    /// Same, with chosen rules.
    pub fn load_with(
        map: &Path,
        scen: &Path,
        sel: Selection,
        c: Connectivity,
        r: TerrainRule,
    ) -> Result<Suite, SuiteError> {
        let (suite, _) = Suite::load_world::<GridSpace>(
            map,
            scen,
            sel,
            (crate::world::Family::Square, HexFill::default()),
            (c, r),
        )?;
        Ok(suite)
    }
}

impl<S: Family> Suite<S> {
    /// Loads square `map` and `scen` as a world of `family` with world type `W` (hexes under
    /// the square cells with `fill`, for a hex family), under `rules`, and checks every
    /// selected problem. Each problem runs from the node under its start cell's centre to the
    /// node under its goal's. Where the file's lengths are the family's optima (squares), a
    /// problem that starts or ends off the world is an error; elsewhere (hexes) each optimum
    /// is found here by Dijkstra and such problems are left out, the second value counting
    /// them.
    pub fn load_world<W: WorldFamily<Space = S>>(
        map: &Path,
        scen: &Path,
        sel: Selection,
        (family, fill): (crate::world::Family, HexFill),
        rules: (Connectivity, TerrainRule),
    ) -> Result<(Suite<S>, usize), SuiteError> {
        let square = read_map(map)?;
        let all = read_scen(scen)?;
        check_scen_map(map, scen, &all)?;
        let (world, grid) = W::from_square_map(&square, family, rules, fill)
            .map_err(|msg| SuiteError::Algorithm(format!("{}: {msg}", map.display())))?;
        let space = world.space();
        // Optima found again only where the file's are not this family's.
        let mut dijkstra = if W::FILE_OPTIMA {
            None
        } else {
            let q = Query { start: 0, goal: 0 };
            Some(crate::algorithms::build("dijkstra", space, q).map_err(SuiteError::Algorithm)?)
        };
        let (mut problems, mut queries, mut skipped) = (vec![], vec![], 0);
        for p in all
            .into_iter()
            .step_by(sel.every.max(1))
            .take(sel.limit.unwrap_or(usize::MAX))
        {
            let bad = |msg: String| SuiteError::Problem {
                file: scen.to_path_buf(),
                line: p.line,
                msg,
            };
            crate::map::io::check_problem(&p, &square, rules.1).map_err(bad)?;
            let node = |what: &str, (x, y): (u32, u32)| {
                world
                    .node_under(x, y)
                    .filter(|&n| space.is_passable(n))
                    .ok_or_else(|| {
                        format!("{what} ({x}, {y}) is on no passable {} cell", family.name())
                    })
            };
            let q = match (node("start", p.start), node("goal", p.goal)) {
                (Ok(start), Ok(goal)) => Query { start, goal },
                (Err(e), _) | (_, Err(e)) if W::FILE_OPTIMA => return Err(bad(e)),
                _ => {
                    skipped += 1;
                    continue;
                }
            };
            let Some(dijkstra) = dijkstra.as_mut() else {
                queries.push(q);
                problems.push(p);
                continue;
            };
            dijkstra.reset(space, q);
            dijkstra.run_null(space);
            let Some(optimal) = dijkstra.cost() else {
                skipped += 1;
                continue;
            };
            queries.push(q);
            problems.push(crate::map::io::Problem {
                start: world.xy(q.start),
                goal: world.xy(q.goal),
                optimal,
                tolerance: 1e-9 * optimal.max(1.0),
                map_width: grid.width(),
                map_height: grid.height(),
                ..p
            });
        }
        Ok((
            Suite {
                grid,
                space: world.into_space(),
                problems,
                queries,
            },
            skipped,
        ))
    }
}

impl Suite<HexSpace> {
    /// Loads square `map` and `scen` as a hex world: the map becomes hexes `pitch` cells apart
    /// (see [`hexes_from_square`]) and each problem runs from the hex under its start cell's
    /// centre to the hex under its goal's. The file's optimal lengths are for squares, so each
    /// problem's optimum is found here by Dijkstra. Problems whose start or goal falls on no hex
    /// or a blocked one are left out; the second value counts them.
    pub fn load_hex(
        map: &Path,
        scen: &Path,
        sel: Selection,
        (o, pitch, fill): (HexOrientation, f64, HexFill),
        r: TerrainRule,
    ) -> Result<(Suite<HexSpace>, usize), SuiteError> {
        let family = crate::world::Family::Hex {
            orientation: o,
            pitch,
        };
        Suite::load_world::<HexSpace>(map, scen, sel, (family, fill), (Connectivity::Eight, r))
    }
}

/// Refuses a scenario whose problems name another map than `map` (compared by file name: the
/// column may hold the folders of the author's machine).
pub fn check_scen_map(map: &Path, scen: &Path, problems: &[Problem]) -> Result<(), SuiteError> {
    let file = map.file_name().map(|f| f.to_string_lossy().into_owned());
    match problems
        .iter()
        .find(|p| file.as_deref() != Some(p.map_file_name()))
    {
        Some(p) => Err(SuiteError::Problem {
            file: scen.to_path_buf(),
            line: p.line,
            msg: format!(
                "this scenario is for `{}`, not {} (give --map the map it names)",
                p.map,
                map.display()
            ),
        }),
        None => Ok(()),
    }
}

/// The query from cell `start` to cell `goal`, or why there is none.
pub fn query_at(space: &GridSpace, start: (u32, u32), goal: (u32, u32)) -> Result<Query, String> {
    let node = |what: &str, (x, y): (u32, u32)| {
        let n = space.node(x, y).ok_or_else(|| {
            format!(
                "{what} ({x}, {y}) is outside the {}×{} map",
                space.width(),
                space.height()
            )
        })?;
        if space.is_passable(n) {
            Ok(n)
        } else {
            Err(format!("{what} ({x}, {y}) is on a blocked cell"))
        }
    };
    Ok(Query {
        start: node("start", start)?,
        goal: node("goal", goal)?,
    })
}

/// The result of one problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Index of the problem in the suite.
    pub id: usize,
    /// Path cost, `None` if no path was found.
    pub length: Option<f64>,
    pub expanded: u64,
    pub generated: u64,
    /// Search time alone (reset and run), microseconds.
    pub micros: f64,
    /// Whether the length matches the problem's optimal length.
    pub ok: bool,
}

/// Solves problems one by one with a single search object (reset between queries).
pub struct Solver<S: Space = GridSpace> {
    search: Box<dyn DynSearch<S>>,
    /// Any-angle (Theta*): a length is right when it lies between the straight line and the
    /// grid's optimum.
    any_angle: bool,
    /// What the algorithm built once for the world (a jump table), kept for its statistics.
    prepared: crate::search::prepared::PreparedCache,
}

/// Whether `length` is right for a problem of grid optimum `grid_optimum` from `q.start` to
/// `q.goal`: `optimal` (the optimum as the file printed it), or for an any-angle search at least
/// the straight line and at most the grid optimum. An any-angle path may be shorter than the
/// grid's optimum, never longer; "at most" holds within 1e-4 relative or at the file's printed
/// precision (a path of 3 + √2 = 4.41421… is the optimum a file prints as 4.41).
pub fn length_ok<S: Space>(
    space: &S,
    q: Query,
    any_angle: bool,
    optimal: impl Fn(f64) -> bool,
    grid_optimum: f64,
) -> impl Fn(f64) -> bool {
    let straight = crate::search::distance(space, q.start, q.goal);
    move |l| {
        if any_angle {
            (l <= grid_optimum * (1.0 + 1e-4) + 1e-6 || optimal(l))
                && l >= straight * (1.0 - 1e-6) - 1e-6
        } else {
            optimal(l)
        }
    }
}

/// True for algorithms whose paths are any-angle segments.
pub fn is_any_angle(spec: &str) -> bool {
    crate::algorithms::parse_spec(spec)
        .is_ok_and(|(i, _)| i.guarantee == crate::search::registry::Guarantee::AnyAngle)
}

impl<S: Family> Solver<S> {
    /// A solver for `spec` (`name` or `name:key=value,...`) on the suite's space.
    pub fn new(suite: &Suite<S>, spec: &str) -> Result<Solver<S>, SuiteError> {
        let q = suite
            .queries
            .first()
            .copied()
            .unwrap_or(Query { start: 0, goal: 0 });
        let (info, params) = crate::algorithms::parse_spec(spec).map_err(SuiteError::Algorithm)?;
        let mut prepared = crate::search::prepared::PreparedCache::default();
        let search = registry::build_cached(info, &params, &suite.space, q, &mut prepared)
            .map_err(SuiteError::Algorithm)?;
        Ok(Solver {
            search,
            any_angle: is_any_angle(spec),
            prepared,
        })
    }

    /// What the algorithm prepared once for the suite's world (build time and bytes, apart
    /// from every query's time).
    pub fn prepared(&self) -> Vec<crate::search::prepared::PreparedInfo> {
        self.prepared.infos().collect()
    }

    /// Solves problem `i` of the suite.
    pub fn solve(&mut self, suite: &Suite<S>, i: usize) -> Row {
        let p = &suite.problems[i];
        let q = suite.queries[i];
        let ok = length_ok(
            &suite.space,
            q,
            self.any_angle,
            |l| p.is_optimal(l),
            p.optimal,
        );
        solve_timed(self.search.as_mut(), &suite.space, q, i, ok)
    }
}

/// One problem with `search`, reset and run timed (nothing else in the time), its length
/// checked by `optimal`: the row of `solve` and `bench` on any world.
pub(crate) fn solve_timed<S: Space>(
    search: &mut dyn DynSearch<S>,
    space: &S,
    q: Query,
    id: usize,
    optimal: impl Fn(f64) -> bool,
) -> Row {
    let t = Instant::now();
    search.reset(space, q);
    let status = search.run_null(space);
    let micros = t.elapsed().as_secs_f64() * 1e6;
    let length = (status == Status::Found).then(|| search.cost()).flatten();
    let stats = search.stats();
    Row {
        id,
        length,
        expanded: stats.expanded,
        generated: stats.generated,
        micros,
        ok: length.is_some_and(optimal),
    }
}

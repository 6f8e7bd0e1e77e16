//! Warframe scenario suites: a `.3dmap` with its `.3dscen` problems, checked, solved by any
//! registered algorithm (the CLI's `solve` and `bench` on voxel maps, the tests).

use super::{Row, Selection, SuiteError};
use crate::map::io::{check_problem3, read_3dmap, read_3dscen, Problem3};
use crate::search::{DynSearch, Query};
use crate::space::{VoxelMoves, VoxelSpace};
use std::path::Path;

/// A voxel map, its graph and the problems to solve on it.
pub struct VoxelSuite {
    pub space: VoxelSpace,
    pub problems: Vec<Problem3>,
    pub queries: Vec<Query>,
}

impl VoxelSuite {
    /// Loads `map` and `scen` and checks each selected problem (start and goal inside and on
    /// free voxels); a scenario naming another map is refused.
    pub fn load(
        map: &Path,
        scen: &Path,
        sel: Selection,
        moves: VoxelMoves,
    ) -> Result<VoxelSuite, SuiteError> {
        let (named, all) = read_3dscen(scen)?;
        let file = map.file_name().map(|f| f.to_string_lossy().into_owned());
        let named_file = named.rsplit(['/', '\\']).next().unwrap_or(&named);
        if file.as_deref() != Some(named_file) {
            return Err(SuiteError::Problem {
                file: scen.to_path_buf(),
                line: 2,
                msg: format!("this scenario is for `{named}`, not {}", map.display()),
            });
        }
        let space = VoxelSpace::new(read_3dmap(map)?, moves);
        let (mut problems, mut queries) = (vec![], vec![]);
        for p in all
            .into_iter()
            .step_by(sel.every.max(1))
            .take(sel.limit.unwrap_or(usize::MAX))
        {
            check_problem3(&p, space.grid()).map_err(|msg| SuiteError::Problem {
                file: scen.to_path_buf(),
                line: p.line,
                msg,
            })?;
            let node = |v: [u32; 3]| space.node(v[0], v[1], v[2]).unwrap_or(0);
            queries.push(Query {
                start: node(p.start),
                goal: node(p.goal),
            });
            problems.push(p);
        }
        Ok(VoxelSuite {
            space,
            problems,
            queries,
        })
    }
}

/// Solves the problems of a [`VoxelSuite`] one by one with one search object.
pub struct VoxelSolver {
    search: Box<dyn DynSearch<VoxelSpace>>,
    /// Any-angle: lengths between the straight line and the optimum are right.
    any_angle: bool,
}

impl VoxelSolver {
    pub fn new(suite: &VoxelSuite, spec: &str) -> Result<VoxelSolver, SuiteError> {
        let q = suite
            .queries
            .first()
            .copied()
            .unwrap_or(Query { start: 0, goal: 0 });
        let search =
            crate::algorithms::build(spec, &suite.space, q).map_err(SuiteError::Algorithm)?;
        Ok(VoxelSolver {
            search,
            any_angle: super::is_any_angle(spec),
        })
    }

    /// Solves problem `i`: its length against the published optimum (1e-4 relative).
    pub fn solve(&mut self, suite: &VoxelSuite, i: usize) -> Row {
        let p = &suite.problems[i];
        let q = suite.queries[i];
        let ok = super::length_ok(
            &suite.space,
            q,
            self.any_angle,
            |l| p.is_optimal(l),
            p.optimal,
        );
        super::solve_timed(self.search.as_mut(), &suite.space, q, i, ok)
    }
}

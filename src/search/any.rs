//! A search on a world of any family, for the layers that hold "the world" without knowing its
//! family (the app's runs): one match on the family per call, the algorithm itself generic.

use super::params::Params;
use super::registry::{build_with, AlgoInfo};
use super::{DynSearch, Query, SearchState, Status};
use crate::map::AnySpace;
use crate::space::{GridSpace, HexSpace, NodeId, VoxelSpace};
use crate::trace::Recorder;

/// A boxed search for the family of the space it was built on.
pub enum AnySearch {
    Square(Box<dyn DynSearch<GridSpace>>),
    Hex(Box<dyn DynSearch<HexSpace>>),
    Voxel(Box<dyn DynSearch<VoxelSpace>>),
}

/// Runs `$body` with `$a` the search and `$s` the space when their families match; else `$else`.
macro_rules! pair {
    ($me:expr, $space:expr, ($a:ident, $s:ident) => $body:expr, $else:expr) => {
        match ($me, $space) {
            (AnySearch::Square($a), AnySpace::Square($s)) => $body,
            (AnySearch::Hex($a), AnySpace::Hex($s)) => $body,
            (AnySearch::Voxel($a), AnySpace::Voxel { space: $s, .. }) => $body,
            // A run built for another world: the caller rebuilds it (never silently searches).
            _ => $else,
        }
    };
}

impl AnySearch {
    /// `info` with checked `params` on `space`, for `query`.
    pub fn build(
        info: &AlgoInfo,
        params: &Params,
        space: &AnySpace,
        query: Query,
    ) -> Result<AnySearch, String> {
        Ok(match space {
            AnySpace::Square(s) => AnySearch::Square(build_with(info, params, s, query)?),
            AnySpace::Hex(s) => AnySearch::Hex(build_with(info, params, s, query)?),
            AnySpace::Voxel { space, .. } => {
                AnySearch::Voxel(build_with(info, params, space, query)?)
            }
        })
    }

    /// True when this search was built for `space`'s family.
    pub fn fits(&self, space: &AnySpace) -> bool {
        matches!(
            (self, space),
            (AnySearch::Square(_), AnySpace::Square(_))
                | (AnySearch::Hex(_), AnySpace::Hex(_))
                | (AnySearch::Voxel(_), AnySpace::Voxel { .. })
        )
    }

    pub fn reset(&mut self, space: &AnySpace, query: Query) {
        pair!(self, space, (a, s) => a.reset(s, query), ())
    }

    pub fn step_record(&mut self, space: &AnySpace, rec: &mut Recorder) -> Status {
        pair!(self, space, (a, s) => a.step_record(s, rec), Status::NoPath)
    }

    pub fn run_null(&mut self, space: &AnySpace) -> Status {
        pair!(self, space, (a, s) => a.run_null(s), Status::NoPath)
    }

    pub fn repair_record(
        &mut self,
        space: &AnySpace,
        around: &[NodeId],
        rec: &mut Recorder,
    ) -> bool {
        pair!(self, space, (a, s) => a.repair_record(s, around, rec), false)
    }

    pub fn move_start(&mut self, space: &AnySpace, start: NodeId) -> bool {
        pair!(self, space, (a, s) => a.move_start_dyn(s, start), false)
    }

    /// Status, path, cost, counters and per-node values.
    pub fn state(&self) -> &dyn SearchState {
        match self {
            AnySearch::Square(a) => a.as_ref(),
            AnySearch::Hex(a) => a.as_ref(),
            AnySearch::Voxel(a) => a.as_ref(),
        }
    }
}

//! A search on a world of any family, for the layers that hold "the world" without knowing its
//! family (the app's runs): one match on the family per call, the algorithm itself generic.

use super::{AnySpace, WorldFamily};
use crate::search::params::Params;
use crate::search::prepared::PreparedCache;
use crate::search::registry::{build_cached, AlgoInfo};
use crate::search::{DynSearch, Query, SearchState, Status};
use crate::space::NodeId;
use crate::trace::Recorder;

/// Generates [`AnySearch`] from the family list.
macro_rules! declare_any_search {
    ($d:tt ; $($v:ident $({ $($pf:ident : $pt:ty),* })? / $f:ident : $world:ty => $space:ty, $name:literal, $title:literal;)*) => {
        /// A boxed search for the family of the world it was built on.
        pub enum AnySearch {
            $($v(Box<dyn DynSearch<$space>>),)*
        }

        /// Runs `$body` with `$a` the search and `$s` the graph when their families match;
        /// else `$else` (a run built for another world: the caller rebuilds it, never
        /// silently searches).
        macro_rules! pair {
            ($d me:expr, $d sp:expr, ($d a:ident, $d s:ident) => $d body:expr, $d els:expr) => {
                match ($d me, $d sp) {
                    $((AnySearch::$v($d a), AnySpace::$v(w)) => {
                        let $d s = WorldFamily::space(w);
                        $d body
                    })*
                    #[allow(unreachable_patterns)]
                    _ => $d els,
                }
            };
        }

        impl AnySearch {
            /// `info` with checked `params` on `space`, for `query`, taking what it prepares
            /// once per world from `cache`.
            pub fn build_cached(
                info: &AlgoInfo,
                params: &Params,
                space: &AnySpace,
                query: Query,
                cache: &mut PreparedCache,
            ) -> Result<AnySearch, String> {
                Ok(match space {
                    $(AnySpace::$v(w) => AnySearch::$v(build_cached(info, params, w.space(), query, cache)?),)*
                })
            }

            /// A recorded trace played back on `space`'s family.
            pub fn replay(space: &AnySpace, r: crate::search::replay::Replay) -> AnySearch {
                match space {
                    $(AnySpace::$v(_) => AnySearch::$v(Box::new(r)),)*
                }
            }

            /// True when this search was built for `space`'s family.
            pub fn fits(&self, space: &AnySpace) -> bool {
                matches!((self, space), $((AnySearch::$v(_), AnySpace::$v(_)))|*)
            }

            /// Status, path, cost, counters and per-node values.
            pub fn state(&self) -> &dyn SearchState {
                match self {
                    $(AnySearch::$v(a) => a.as_ref(),)*
                }
            }
        }
    };
}

crate::for_each_family!(declare_any_search, $);

impl AnySearch {
    /// [`AnySearch::build_cached`] with nothing prepared beforehand.
    pub fn build(
        info: &AlgoInfo,
        params: &Params,
        space: &AnySpace,
        query: Query,
    ) -> Result<AnySearch, String> {
        AnySearch::build_cached(info, params, space, query, &mut PreparedCache::default())
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
}

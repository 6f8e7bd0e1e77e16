//! An object-safe face of [`Search`], so the registry can hand out any algorithm for a space as a
//! box. Whole runs are monomorphised inside (`run_*`), so only a call per run, or per step when
//! stepping, goes through the vtable.

use super::{Query, Search, SearchState, Status};
use crate::space::Space;
use crate::trace::{NullTracer, Recorder};

/// Any search on a space `S`, behind a box.
pub trait DynSearch<S: Space>: SearchState {
    /// Starts over on a new query.
    fn reset(&mut self, space: &S, query: Query);
    /// One step, recording nothing.
    fn step_null(&mut self, space: &S) -> Status;
    /// One step, recording its events.
    fn step_record(&mut self, space: &S, rec: &mut Recorder) -> Status;
    /// Runs to the end, recording nothing.
    fn run_null(&mut self, space: &S) -> Status;
    /// Runs to the end, recording every event.
    fn run_record(&mut self, space: &S, rec: &mut Recorder) -> Status;
    /// Repairs after a world change, recording it; false if the search must restart instead.
    fn repair_record(
        &mut self,
        space: &S,
        around: &[crate::space::NodeId],
        rec: &mut Recorder,
    ) -> bool;
    /// Moves the start (an agent's step); false if the search must restart instead.
    fn move_start_dyn(&mut self, space: &S, start: crate::space::NodeId) -> bool;
}

impl<S: Space, A: Search<S>> DynSearch<S> for A {
    fn reset(&mut self, space: &S, query: Query) {
        Search::reset(self, space, query)
    }
    fn step_null(&mut self, space: &S) -> Status {
        Search::step(self, space, &mut NullTracer)
    }
    fn step_record(&mut self, space: &S, rec: &mut Recorder) -> Status {
        Search::step(self, space, rec)
    }
    fn run_null(&mut self, space: &S) -> Status {
        Search::run(self, space, &mut NullTracer)
    }
    fn run_record(&mut self, space: &S, rec: &mut Recorder) -> Status {
        Search::run(self, space, rec)
    }
    fn repair_record(
        &mut self,
        space: &S,
        around: &[crate::space::NodeId],
        rec: &mut Recorder,
    ) -> bool {
        Search::repair(self, space, around, rec)
    }
    fn move_start_dyn(&mut self, space: &S, start: crate::space::NodeId) -> bool {
        Search::start_moved(self, space, start)
    }
}

//! An object-safe face of [`Search`], so the registry can hand out any algorithm for a space as a
//! box. Whole runs are monomorphised inside (`run_*`), so only a call per run, or per step when
//! stepping, goes through the vtable.

use super::{Query, Search, Stats, Status};
use crate::space::{NodeId, Space};
use crate::trace::{NullTracer, Recorder};

/// Any search on a space `S`, behind a box.
pub trait DynSearch<S: Space> {
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
    /// The current status.
    fn status(&self) -> Status;
    /// The path once found.
    fn path(&self) -> Option<&[NodeId]>;
    /// The path's cost once found.
    fn cost(&self) -> Option<f64>;
    /// Counters so far.
    fn stats(&self) -> Stats;
    /// Nodes on the open list.
    fn open_len(&self) -> usize;
    /// g of a node this search reached.
    fn g(&self, n: NodeId) -> Option<f64>;
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
    fn status(&self) -> Status {
        Search::status(self)
    }
    fn path(&self) -> Option<&[NodeId]> {
        Search::path(self)
    }
    fn cost(&self) -> Option<f64> {
        Search::cost(self)
    }
    fn stats(&self) -> Stats {
        Search::stats(self)
    }
    fn open_len(&self) -> usize {
        Search::open_len(self)
    }
    fn g(&self, n: NodeId) -> Option<f64> {
        Search::g(self, n)
    }
}

//! Events, the `Tracer` type parameter, the seekable recorder and trace export.

mod event;
pub mod posthoc;
mod posthoc_expr;
mod posthoc_fast;
pub mod posthoc_in;
mod posthoc_text;
mod posthoc_yaml;
mod recorder;
pub mod run_file;
mod states;

pub use event::{Event, EventKind, PackedEvent, NONE, PACKED_NODE_LIMIT};
pub use recorder::{state_after, NodeInfo, Recorder};
pub use states::{NodeState, NodeStates};

/// Receives the events of a search. Algorithms are generic over it, so a tracer that is off
/// (`ENABLED = false`) compiles to nothing: benchmarks measure the same code users watch.
pub trait Tracer {
    /// False for tracers that ignore every event; algorithms skip building events then.
    const ENABLED: bool;
    /// Takes one event.
    fn event(&mut self, e: Event);
}

/// The tracer that records nothing and costs nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NullTracer;

impl Tracer for NullTracer {
    const ENABLED: bool = false;
    #[inline(always)]
    fn event(&mut self, _e: Event) {}
}

/// Counts events by kind; useful for statistics without storing a trace.
#[derive(Clone, Debug, Default)]
pub struct CountingTracer {
    /// Events seen, indexed by `EventKind as usize`.
    pub counts: [u64; EventKind::ALL.len()],
}

impl Tracer for CountingTracer {
    const ENABLED: bool = true;
    #[inline(always)]
    fn event(&mut self, e: Event) {
        self.counts[e.kind as usize] += 1;
    }
}

impl<T: Tracer> Tracer for &mut T {
    const ENABLED: bool = T::ENABLED;
    #[inline(always)]
    fn event(&mut self, e: Event) {
        (**self).event(e)
    }
}

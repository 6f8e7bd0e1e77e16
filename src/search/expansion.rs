//! Expansion policies: how the best-first engine gets a node's successors (the space's own
//! edges, or JPS's jumps), and how a path of expanded nodes becomes the space's own steps.

use super::Query;
use crate::space::{NodeId, Space};
use crate::trace::Tracer;

/// How an expansion produces a node's successors (Warthog's expansion policy): the space's own
/// edges ([`Edges`]), or jumps over a grid (JPS), with one engine behind both.
pub trait Expansion<S: Space>: Refine {
    /// True when the successors are the space's own edges, read by the engine itself (and the
    /// closed-node skipping of [`Space::skip_mask`] applies).
    const EDGES: bool;

    /// Gets ready for `query` on `space`.
    fn reset(&mut self, space: &S, query: Query);

    /// The successors of `n`, whose g came from `parent` (`NONE` at the start), as (node, cost
    /// from `n`) into `out`; what it scanned goes to `tracer`.
    fn successors<T: Tracer>(
        &mut self,
        space: &S,
        n: NodeId,
        parent: NodeId,
        out: &mut Vec<(NodeId, f64)>,
        tracer: &mut T,
    );
}

/// How a policy's path of expanded nodes becomes the space's own steps (jump points to cells).
pub trait Refine {
    /// True when expanded nodes are the space's steps already ([`Edges`]).
    const IDENTITY: bool = false;
    /// Appends to `out` the steps of `path`, a path of expanded nodes.
    fn refine(&self, path: &[NodeId], out: &mut Vec<NodeId>);
}

impl Refine for Edges {
    const IDENTITY: bool = true;
    fn refine(&self, path: &[NodeId], out: &mut Vec<NodeId>) {
        out.extend_from_slice(path);
    }
}

/// The space's own edges: the policy of Dijkstra, A*, weighted A* and greedy.
#[derive(Clone, Copy, Debug, Default)]
pub struct Edges;

impl<S: Space> Expansion<S> for Edges {
    const EDGES: bool = true;
    fn reset(&mut self, _: &S, _: Query) {}
    fn successors<T: Tracer>(
        &mut self,
        space: &S,
        n: NodeId,
        _: NodeId,
        out: &mut Vec<(NodeId, f64)>,
        _: &mut T,
    ) {
        out.extend(space.neighbours(n));
    }
}

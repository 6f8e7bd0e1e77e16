//! What the incremental searches (D* Lite, AD*, RTD*'s global search) share: the trait by which
//! they repair after the world changes and follow a moving start, the changed edges they are
//! handed, their one-step lookahead, and D* Lite's key and step rules.

use crate::space::{NodeId, Space};
use crate::trace::{Tracer, NONE};

const INF: f64 = f64::INFINITY;

/// The one-step lookahead of the backward searches (D* Lite, AD*): min over successors s of
/// c(u, s) + g(s), and the s giving it (NONE when every successor is unreached).
#[inline]
pub(super) fn lookahead<S: Space>(space: &S, g: &[f64], u: NodeId) -> (f64, NodeId) {
    let mut best = (INF, NONE);
    for (s, c) in space.neighbours(u) {
        let v = c + g[s as usize];
        if v < best.0 {
            best = (v, s);
        }
    }
    best
}

/// How D* Lite makes its keys when the heuristic is inflated (they agree at ε = 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyRule {
    /// Krafft 2019's: ε inflates h only for over-consistent nodes, as AD* does. With the original
    /// key and ε > 1, under-consistent nodes queued after a change sort too low, the search
    /// stops early and the path can fail to reach the goal (Krafft 2019, Fig. 46).
    Krafft2019,
    /// Koenig & Likhachev's key with h inflated everywhere.
    Original,
}

/// How the path picks among successors of equal c + g.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StepTies {
    /// The first in neighbour order (N, E, S, W, then diagonals): no tie-breaking, as
    /// Mäntysalo 2024 ran D* Lite.
    #[default]
    First,
    /// The one nearest the goal in a straight line: the remedy Mäntysalo 2024 suggests (citing
    /// Koenig & Likhachev 2005: "the lowest heuristic cost") and did not use. Euclidean, since
    /// on a 4-connected path every optimal successor is one Manhattan unit nearer the goal,
    /// and Manhattan would never break the tie.
    NearestGoal,
}

/// A directed edge whose cost changed: `old` and `new` costs, ∞ where there is no edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeChange {
    pub from: NodeId,
    pub to: NodeId,
    pub old: f64,
    pub new: f64,
}

/// What an incremental search offers beyond [`Search`](super::Search): repairs after the world changes, and
/// a start that moves with the agent.
pub trait Incremental<S: Space> {
    /// The space has been updated; `around` holds every node an edge into or out of which may
    /// have changed (for a grid: the changed cells and their eight neighbours). The search is
    /// running again afterwards.
    fn world_changed<T: Tracer>(&mut self, space: &S, around: &[NodeId], tracer: &mut T);

    /// The space has been updated and these directed edges changed cost (∞: no edge). By
    /// default every changed edge's source is updated as by [`Incremental::world_changed`].
    fn edges_changed<T: Tracer>(&mut self, space: &S, edges: &[EdgeChange], tracer: &mut T) {
        let mut from: Vec<NodeId> = edges.iter().map(|e| e.from).collect();
        from.sort_unstable();
        from.dedup();
        self.world_changed(space, &from, tracer);
    }

    /// The agent now stands at `start`.
    fn move_start(&mut self, space: &S, start: NodeId);
}

//! What runs carry beyond open, closed and path, for the views to draw: line-of-sight checks
//! and jumps of the step shown.

pub(crate) mod gps;

use crate::app::run::{Run, Scan};
use crate::space::NodeId;

impl Run {
    /// Jump point search's jumps up to the step shown: the jumps that generated or improved a
    /// node (parent to jump point), and the scans of the step shown (start, end, whether they
    /// ended at a jump point). Empty for runs that record no jumps (at most 8,192 jumps).
    pub fn jumps(&mut self) -> (Vec<(NodeId, NodeId)>, Vec<Scan>) {
        use crate::trace::EventKind;
        // A jump search scans from its start right after the first expansion: a run with no
        // jump among its first events has none.
        let head = self.rec.len().min(64);
        if self.shown == 0
            || !(0..head).any(|i| self.rec.get(i).is_some_and(|e| e.kind == EventKind::Jump))
        {
            return (vec![], vec![]);
        }
        let step = self.rec.step_start(self.shown - 1);
        let to = self.event_cursor();
        let (mut tree, mut scans) = (vec![], vec![]);
        for i in 0..to {
            let Some(e) = self.rec.get(i) else { break };
            match e.kind {
                EventKind::Generate | EventKind::Update if e.other != crate::trace::NONE => {
                    tree.push((e.other, e.node))
                }
                EventKind::Jump if i >= step => scans.push((e.other, e.node, e.a > 0.5)),
                _ => {}
            }
            if tree.len() + scans.len() >= 8192 {
                break;
            }
        }
        (tree, scans)
    }

    /// The line-of-sight checks of the step shown (any-angle searches): from, to and whether
    /// the segment was clear; Lazy Theta*'s check of the node just before its expansion
    /// included. At most 256.
    pub fn sight_checks(&mut self) -> Vec<(NodeId, NodeId, bool)> {
        if self.shown == 0 || self.stats().los_checks == 0 {
            return vec![];
        }
        let from = self.rec.step_start(self.shown - 1);
        let to = self.event_cursor();
        let mut out = vec![];
        let los = |e: crate::trace::Event| {
            (e.kind == crate::trace::EventKind::LineOfSight).then_some((e.other, e.node, e.a > 0.5))
        };
        // Just before the expansion: Lazy Theta*'s check of the node it expands.
        let mut i = from;
        while i > 0 {
            match self.rec.get(i - 1).and_then(los) {
                Some(c) => out.push(c),
                None => break,
            }
            i -= 1;
        }
        for i in from..to {
            if out.len() >= 256 {
                break;
            }
            if let Some(c) = self.rec.get(i).and_then(los) {
                out.push(c);
            }
        }
        out
    }
}

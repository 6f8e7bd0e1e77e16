//! Jump point search's overlay: every jump that reached a jump point so far, and the scans of
//! the step shown (green when they found a jump point, red where they ran into a wall).

use super::{OverlayPart, Scene};
use crate::app::legend::{self, Extras};
use crate::app::palette;
use crate::app::run::{Run, Scan};
use crate::space::NodeId;
use eframe::egui::Stroke;

pub(super) struct Jumps;

impl OverlayPart for Jumps {
    fn draw(&self, s: &Scene, run: &mut Run) {
        let (tree, scans) = run.jumps();
        let width = (s.cam.zoom * 0.08).clamp(1.0, 2.0);
        for (a, b) in tree {
            let end = s.at(b);
            s.painter
                .line_segment([s.at(a), end], Stroke::new(width, palette::JUMP));
            // Jump points are few and far apart: a dot keeps them visible at any zoom.
            s.painter
                .circle_filled(end, (s.cam.zoom * 0.35).clamp(2.0, 5.0), palette::JUMP);
        }
        for (a, b, found) in scans {
            let colour = if found {
                palette::SIGHT_CLEAR
            } else {
                palette::SIGHT_BLOCKED
            };
            s.painter
                .line_segment([s.at(a), s.at(b)], Stroke::new(width * 1.6, colour));
        }
    }

    fn legend(&self) -> Extras {
        legend::jump_extras()
    }
}

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
}

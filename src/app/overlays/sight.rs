//! The any-angle searches' overlay: the line-of-sight checks of the step shown, green when
//! the segment was clear, red when not.

use super::{OverlayPart, Scene};
use crate::app::legend::{self, Extras};
use crate::app::palette;
use crate::app::run::Run;
use crate::space::NodeId;
use eframe::egui::Stroke;

pub(super) struct Sight;

impl OverlayPart for Sight {
    fn draw(&self, s: &Scene, run: &mut Run) {
        let width = (s.cam.zoom * 0.12).clamp(1.5, 3.0);
        for (a, b, clear) in run.sight_checks() {
            let colour = if clear {
                palette::SIGHT_CLEAR
            } else {
                palette::SIGHT_BLOCKED
            };
            s.painter
                .line_segment([s.at(a), s.at(b)], Stroke::new(width, colour));
        }
    }

    fn legend(&self) -> Extras {
        legend::sight_extras()
    }
}

impl Run {
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

//! Overlays per algorithm: what a run draws beyond open, closed and path — jump point
//! search's jumps, the any-angle searches' line-of-sight checks, the GPS of the brain's walk
//! and cone, a hierarchy's nodes and navigation graph. A view finds them through its algorithm's registry entry (`overlays`), never by
//! the algorithm's name.

mod corners;
pub(crate) mod gps;
mod hierarchy;
pub(crate) use hierarchy::CLUSTER_LINE;
mod jumps;
mod sight;

use crate::app::camera::Camera;
use crate::app::legend::Extras;
use crate::app::run::Run;
use crate::search::registry::Overlay;
use crate::space::NodeId;
use eframe::egui::{Painter, Pos2, Rect};

/// Where an overlay draws: the view's painter and camera, the world, and what the
/// view prepared for overlays that need more than the run (the GPS walk's marks).
pub(crate) struct Scene<'a> {
    pub painter: &'a Painter,
    pub cam: &'a Camera,
    pub view: Rect,
    pub space: &'a crate::world::AnySpace,
    pub gps: Option<&'a gps::GpsMarks>,
    /// The cell under the pointer, if any.
    pub pointer: Option<(u32, u32)>,
    /// The hierarchy level a hierarchy overlay shows (1-based; past the top shows the top).
    pub hier_level: usize,
}

impl Scene<'_> {
    /// Screen position of node `n`'s cell centre (nodes of other layers where they lie from
    /// above).
    pub fn at(&self, n: NodeId) -> Pos2 {
        self.cam.centre(self.view, self.space.xy(n))
    }
}

/// The hierarchy level hierarchical runs draw (1-based; past the top draws the top): the
/// hierarchy overlay's one setting, shared by every view.
pub(crate) struct HierLevel(pub usize);

impl Default for HierLevel {
    fn default() -> Self {
        HierLevel(usize::MAX)
    }
}

impl crate::app::parts::Part for HierLevel {
    crate::app::parts::part_any!();
}

/// One kind of overlay: how it draws a run's step and what the legend says of it.
pub(crate) trait OverlayPart: Sync {
    fn draw(&self, scene: &Scene, run: &mut Run);
    fn legend(&self) -> Extras;
}

/// The part that draws overlay `o`.
pub(crate) fn part(o: Overlay) -> &'static dyn OverlayPart {
    match o {
        Overlay::LineOfSight => &sight::Sight,
        Overlay::Jumps => &jumps::Jumps,
        Overlay::Walk => &gps::Walk,
        Overlay::Hierarchy => &hierarchy::Hierarchy,
        Overlay::Corners => &corners::Corners,
    }
}

/// Draws every overlay of the run's algorithm.
pub(crate) fn draw(scene: &Scene, run: &mut Run) {
    for &o in run.choice.info.overlays {
        part(o).draw(scene, run);
    }
}

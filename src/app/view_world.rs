//! A compare view's own world: the document's square map as hexes, searched beside it.

use super::{Camera, Document};
use crate::map::AnySpace;

/// A compare view's own world, rebuilt from the document after every edit: the searches run
/// on it, the view draws it with its own camera. Edits are made in the document's views.
pub struct ViewWorld {
    pub family: crate::map::Family,
    pub fill: crate::map::HexFill,
    pub grid: crate::map::Grid,
    pub space: AnySpace,
    pub start: (u32, u32),
    pub goal: (u32, u32),
    pub cam: Camera,
}

impl ViewWorld {
    /// `doc`'s square map as hexes (the only other family a document can be shown as today):
    /// start and goal on the hexes under their cells' centres.
    pub fn of(
        doc: &Document,
        family: crate::map::Family,
        fill: crate::map::HexFill,
    ) -> Result<ViewWorld, String> {
        let crate::map::Family::Hex { orientation, pitch } = family else {
            return Err("a compare view's own world is a hex world".into());
        };
        if doc.world != crate::map::Family::Square {
            return Err("the map is hexes already".into());
        }
        let grid = crate::map::hexes_from_square(&doc.grid, orientation, pitch, fill)?;
        let at = |(x, y): (u32, u32)| {
            orientation
                .hex_at(
                    x as f64 + 0.5,
                    y as f64 + 0.5,
                    pitch,
                    grid.width(),
                    grid.height(),
                )
                .unwrap_or((
                    ((x as f64 / pitch) as u32).min(grid.width() - 1),
                    ((y as f64 / pitch) as u32).min(grid.height() - 1),
                ))
        };
        let (start, goal) = (at(doc.start), at(doc.goal));
        let space = AnySpace::new(&grid, family, (doc.moves, doc.rule));
        Ok(ViewWorld {
            family,
            fill,
            grid,
            space,
            start,
            goal,
            cam: Camera::default(),
        })
    }

    /// Start to goal on this world.
    pub fn query(&self) -> crate::search::Query {
        let node = |p: (u32, u32)| self.space.node(p.0, p.1).unwrap_or(0);
        crate::search::Query {
            start: node(self.start),
            goal: node(self.goal),
        }
    }
}

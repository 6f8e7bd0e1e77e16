//! A compare view's own world: the document's square map as hexes, searched beside it; or the
//! document's hexes with a cognitive map of their own (a knowledge level, Rahmani 2020).

use crate::app::{Camera, Document};
use crate::world::AnySpace;

/// A compare view's own world, rebuilt from the document after every edit: the searches run
/// on it, the view draws it with its own camera. Edits are made in the document's views.
pub struct ViewWorld {
    pub family: crate::world::Family,
    pub fill: crate::map::HexFill,
    pub grid: crate::map::Grid,
    pub space: AnySpace,
    pub start: (u32, u32),
    pub goal: (u32, u32),
    pub cam: Camera,
    /// A knowledge level's view: the share known (%) and its cognitive map, on the
    /// document's own hexes.
    pub knowledge: Option<(u32, std::sync::Arc<crate::space::CognitiveMap>)>,
}

impl ViewWorld {
    /// `doc`'s square map as another family's world (hexes, a navmesh): start and goal on the
    /// cells under their square cells' centres.
    pub fn of(
        doc: &Document,
        family: crate::world::Family,
        fill: crate::map::HexFill,
    ) -> Result<ViewWorld, String> {
        let grid = family.from_square(doc.world, &doc.grid, fill)?;
        let space = AnySpace::new(&grid, family, (doc.moves, doc.rule));
        let at = |(x, y): (u32, u32)| {
            space.cell_under(x, y).unwrap_or((
                (x as u64 * grid.width() as u64 / doc.grid.width().max(1) as u64) as u32,
                (y as u64 * grid.height() as u64 / doc.grid.height().max(1) as u64) as u32,
            ))
        };
        let (start, goal) = (at(doc.start), at(doc.goal));
        Ok(ViewWorld {
            family,
            fill,
            grid,
            space,
            start,
            goal,
            cam: Camera::default(),
            knowledge: None,
        })
    }

    /// Hex moves of this world that pass through walls of the square map `square` it was made
    /// from (none under the default fill).
    pub fn wall_crossings(&self, square: &crate::map::Grid) -> usize {
        self.family.moves_through_walls(square, &self.grid)
    }

    /// The document's hex world with cognitive map `map` (`level`% known) instead of its own.
    pub fn knowing(
        doc: &Document,
        level: u32,
        map: std::sync::Arc<crate::space::CognitiveMap>,
    ) -> Result<ViewWorld, String> {
        if !doc.world.keeps_knowledge() {
            return Err("knowledge levels need a hex world".into());
        }
        let mut space = AnySpace::new(&doc.grid, doc.world, (doc.moves, doc.rule));
        space.set_knowledge(Some(&map));
        Ok(ViewWorld {
            family: doc.world,
            fill: crate::map::HexFill::default(),
            grid: doc.grid.clone(),
            space,
            start: doc.start,
            goal: doc.goal,
            cam: Camera::default(),
            knowledge: Some((level, map)),
        })
    }

    /// This world made again from the document after an edit.
    pub fn rebuilt(&self, doc: &Document) -> Result<ViewWorld, String> {
        let mut fresh = match &self.knowledge {
            Some((level, map)) => ViewWorld::knowing(doc, *level, map.clone()),
            None => ViewWorld::of(doc, self.family, self.fill),
        }?;
        fresh.cam = self.cam;
        Ok(fresh)
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

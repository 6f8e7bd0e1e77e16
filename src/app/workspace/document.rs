//! The map being edited: grid, start, goal, where it came from, and the undo history.

use crate::map::io::Problem;
use crate::map::volume::Volume;
use crate::map::CognitiveMap;
use crate::map::{Edit, Grid, Rect};
use crate::project::Project;
use crate::space::{Connectivity, TerrainRule};
use crate::world::{data_of, data_of_mut, AnyData};
use std::path::PathBuf;

/// A change the user made; undo applies its inverse.
#[derive(Clone, Debug)]
pub enum Change {
    /// Cells changed (the edit that restores them is kept for undo).
    /// On a voxel world, `z` is the layer the cells are in.
    Grid { redo: Edit, undo: Edit, z: u32 },
    /// Start moved from → to (x, y and, on voxels, the layer).
    Start(At, At),
    /// Goal moved from → to.
    Goal(At, At),
    /// The cognitive map changed; this is the one to put back.
    Knowledge(Option<Box<CognitiveMap>>),
}

/// A cell and its layer (0 but on voxel worlds).
pub type At = (u32, u32, u32);

/// What an edit touched, so views know what to redraw and whether runs restart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Touched {
    /// These cells (or every cell when `None`: the size changed).
    Cells(Option<Rect>),
    /// Only start or goal.
    Endpoints,
    /// The cognitive map (hex worlds): the space reads it anew, runs restart.
    Knowledge,
}

/// The open map.
pub struct Document {
    pub grid: Grid,
    pub start: (u32, u32),
    pub goal: (u32, u32),
    /// Where it was loaded from or last saved to.
    pub path: Option<PathBuf>,
    /// Problems of a `.scen` file opened for this map.
    pub problems: Vec<Problem>,
    /// Moves the searches may make (saved with the project).
    pub moves: Connectivity,
    /// Which terrain the searches may cross (saved with the project).
    pub rule: TerrainRule,
    /// Square cells or hexes (the grid then holds hexes in offset coordinates), or voxels.
    pub world: crate::world::Family,
    /// What the world's family keeps beside the cells (saved with the project): a voxel
    /// world's volume (`grid` is then its layer shown, written back after every edit), a hex
    /// world's cognitive map (Rahmani 2020: the counter heuristic and the GPS planner read it).
    pub data: Option<AnyData>,
    /// Changed since the last save.
    pub dirty: bool,
    /// Bumped on every change, so the recovery writer knows when to write.
    pub revision: u64,
    undo: Vec<Change>,
    redo: Vec<Change>,
}

impl Document {
    /// A document for a grid; start and goal are moved to free cells if needed.
    pub fn new(grid: Grid, start: (u32, u32), goal: (u32, u32), path: Option<PathBuf>) -> Self {
        let mut d = Document {
            grid,
            start,
            goal,
            path,
            problems: vec![],
            moves: Connectivity::Eight,
            rule: TerrainRule::Class,
            world: crate::world::Family::default(),
            data: None,
            dirty: false,
            revision: 0,
            undo: vec![],
            redo: vec![],
        };
        d.start = d.nearest_free(start, None);
        d.goal = d.nearest_free(goal, Some(d.start));
        d
    }

    /// The file name shown in the title bar.
    pub fn title(&self) -> String {
        let name = self
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or("built-in map".to_string(), |n| n.to_string_lossy().into());
        format!("{name}{}", if self.dirty { " •" } else { "" })
    }

    /// True if a search may pass through (x, y) (MovingAI passable characters).
    pub fn is_free(&self, x: u32, y: u32) -> bool {
        self.grid
            .get(x, y)
            .is_some_and(|c| crate::space::TerrainRule::Class.class(c.tile) != 0)
    }

    /// The free cell closest to `p` (scanning outwards), other than `not`; `p` itself if the map
    /// has no free cell.
    pub fn nearest_free(&self, p: (u32, u32), not: Option<(u32, u32)>) -> (u32, u32) {
        let (w, h) = (self.grid.width() as i64, self.grid.height() as i64);
        let (px, py) = (
            (p.0 as i64).min(w - 1).max(0),
            (p.1 as i64).min(h - 1).max(0),
        );
        for r in 0..w.max(h) {
            for dy in -r..=r {
                for dx in -r..=r {
                    if dx.abs() != r && dy.abs() != r {
                        continue;
                    }
                    let (x, y) = (px + dx, py + dy);
                    if x < 0 || y < 0 || x >= w || y >= h {
                        continue;
                    }
                    let c = (x as u32, y as u32);
                    if self.is_free(c.0, c.1) && Some(c) != not {
                        return c;
                    }
                }
            }
        }
        (px as u32, py as u32)
    }

    /// Applies an edit as one undoable step. Start and goal stay where they are; the views show
    /// them on a wall until the user moves them (the search reports no path).
    pub fn apply(&mut self, edit: Edit) -> Result<Touched, String> {
        self.keeps_layer_size(&edit)?;
        let applied = edit.apply(&mut self.grid).map_err(|e| e.to_string())?;
        self.store_layer();
        let touched = Touched::Cells(applied.changed);
        self.record(Change::Grid {
            redo: edit,
            undo: applied.inverse,
            z: self.layer(),
        });
        self.clamp_endpoints();
        Ok(touched)
    }

    /// Records cells already changed during a brush stroke (applied one by one as the mouse
    /// moved) as a single undo step.
    pub fn record_stroke(&mut self, redo: Edit, undo: Edit) {
        let z = self.layer();
        self.record(Change::Grid { redo, undo, z });
    }

    /// Applies an edit without recording it (the strokes of a drag, recorded once at release).
    pub fn apply_unrecorded(&mut self, edit: &Edit) -> Result<(Edit, Option<Rect>), String> {
        self.keeps_layer_size(edit)?;
        let a = edit.apply(&mut self.grid).map_err(|e| e.to_string())?;
        self.store_layer();
        self.revision += 1;
        self.dirty = true;
        Ok((a.inverse, a.changed))
    }

    /// Moves the start (undoable); on voxels, to the layer shown.
    pub fn set_start(&mut self, p: (u32, u32)) {
        let (from, to) = (self.start_at(), (p.0, p.1, self.layer()));
        if to != from && to != self.goal_at() {
            self.record(Change::Start(from, to));
            self.put_start(to);
        }
    }

    /// Moves the goal (undoable); on voxels, to the layer shown.
    pub fn set_goal(&mut self, p: (u32, u32)) {
        let (from, to) = (self.goal_at(), (p.0, p.1, self.layer()));
        if to != from && to != self.start_at() {
            self.record(Change::Goal(from, to));
            self.put_goal(to);
        }
    }

    /// A layer of a voxel world is edited in place: an edit that would give it another size
    /// (resize, a generated map of another size) is refused.
    fn keeps_layer_size(&self, edit: &Edit) -> Result<(), String> {
        let Some(v) = self.volume() else {
            return Ok(());
        };
        let [w, h, _] = v.voxels.dims();
        let size = match edit {
            Edit::Resize { width, height, .. } => Some((*width, *height)),
            Edit::Replace(g) => Some((g.width(), g.height())),
            _ => None,
        };
        match size {
            Some((nw, nh)) if (nw, nh) != (w, h) => Err(format!(
                "A voxel world's layers stay {w}×{h}: generate a map of that size, or open another world"
            )),
            _ => Ok(()),
        }
    }

    /// A voxel world's voxels, problems and layers.
    pub fn volume(&self) -> Option<&Volume> {
        data_of(&self.data)
    }

    pub fn volume_mut(&mut self) -> Option<&mut Volume> {
        data_of_mut(&mut self.data)
    }

    /// A hex world's cognitive map.
    pub fn knowledge(&self) -> Option<&CognitiveMap> {
        data_of(&self.data)
    }

    /// The layer shown and edited (0 but on voxel worlds).
    pub fn layer(&self) -> u32 {
        self.volume().map_or(0, |v| v.z)
    }

    /// Start with its layer.
    pub fn start_at(&self) -> At {
        let z = self.volume().map_or(0, |v| v.start_z);
        (self.start.0, self.start.1, z)
    }

    /// Goal with its layer.
    pub fn goal_at(&self) -> At {
        let z = self.volume().map_or(0, |v| v.goal_z);
        (self.goal.0, self.goal.1, z)
    }

    fn put_start(&mut self, p: At) {
        self.start = (p.0, p.1);
        if let Some(v) = self.volume_mut() {
            v.start_z = p.2;
        }
    }

    fn put_goal(&mut self, p: At) {
        self.goal = (p.0, p.1);
        if let Some(v) = self.volume_mut() {
            v.goal_z = p.2;
        }
    }

    /// Puts start and goal on voxels (a `.3dscen` problem): not an edit, like
    /// [`Self::set_endpoints_quiet`].
    pub fn set_endpoints_3d(&mut self, start: [u32; 3], goal: [u32; 3]) {
        if start != goal {
            self.put_start((start[0], start[1], start[2]));
            self.put_goal((goal[0], goal[1], goal[2]));
        }
    }

    /// Shows and edits layer `z` of a voxel world in 2D (not an edit: nothing to save).
    /// Returns false when there is no such layer.
    pub fn set_layer(&mut self, z: u32) -> bool {
        let Some(v) = self.volume_mut() else {
            return false;
        };
        if z >= v.voxels.dims()[2] {
            return false;
        }
        if z != v.z {
            v.z = z;
            self.grid = v.voxels.slice(z);
            self.revision += 1;
        }
        true
    }

    /// Replaces the cognitive map (undoable).
    pub fn set_knowledge(&mut self, k: Option<CognitiveMap>) {
        let before = self.swap_knowledge(k);
        self.record(Change::Knowledge(before.map(Box::new)));
    }

    /// The cognitive map to change in place (a Know stroke), made by `new` if there is none;
    /// not an edit until [`Self::set_knowledge`] records it.
    pub fn knowledge_mut(&mut self, new: impl FnOnce() -> CognitiveMap) -> &mut CognitiveMap {
        if self.knowledge().is_none() {
            self.data = Some(AnyData::Hex(new()));
        }
        data_of_mut(&mut self.data).expect("a cognitive map, just made")
    }

    /// Puts `k` in place of the cognitive map, not as an edit; the one it replaces.
    pub fn swap_knowledge(&mut self, k: Option<CognitiveMap>) -> Option<CognitiveMap> {
        let before = self.knowledge().cloned();
        self.data = k.map(AnyData::Hex);
        before
    }

    /// Writes the layer shown back into the voxels after an edit.
    fn store_layer(&mut self) {
        if let Some(v) = data_of_mut::<Volume>(&mut self.data) {
            v.voxels.store_slice(v.z, &self.grid);
        }
    }

    /// The search graph of this document's world.
    pub fn space(&self) -> crate::world::AnySpace {
        match self.volume() {
            Some(v) => crate::world::AnySpace::of_volume(v),
            None => {
                let mut s =
                    crate::world::AnySpace::new(&self.grid, self.world, (self.moves, self.rule));
                s.set_knowledge(self.knowledge());
                s
            }
        }
    }

    /// Puts start and goal on a scenario's problem: a choice of what to search, not an edit,
    /// so neither undoable nor unsaved (a `.map` does not hold them).
    pub fn set_endpoints_quiet(&mut self, start: (u32, u32), goal: (u32, u32)) {
        if start != goal {
            self.start = start;
            self.goal = goal;
        }
    }

    fn record(&mut self, c: Change) {
        self.undo.push(c);
        self.redo.clear();
        self.dirty = true;
        self.revision += 1;
    }

    fn clamp_endpoints(&mut self) {
        let (w, h) = (self.grid.width(), self.grid.height());
        let clamp = |p: (u32, u32)| (p.0.min(w - 1), p.1.min(h - 1));
        self.start = clamp(self.start);
        self.goal = clamp(self.goal);
    }

    /// True if there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// True if there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Undoes the last change; returns what it touched.
    pub fn undo(&mut self) -> Option<Touched> {
        let c = self.undo.pop()?;
        let (t, back) = self.revert(c);
        self.redo.push(back);
        Some(t)
    }

    /// Redoes the last undone change.
    pub fn redo(&mut self) -> Option<Touched> {
        let c = self.redo.pop()?;
        let (t, back) = self.revert(c);
        self.undo.push(back);
        Some(t)
    }

    /// Applies the backward half of `c`; returns what it touched and the change that goes the
    /// other way.
    fn revert(&mut self, c: Change) -> (Touched, Change) {
        self.dirty = true;
        self.revision += 1;
        match c {
            Change::Grid { redo, undo, z } => {
                // On voxels, undo goes to the layer the edit was made in first.
                let moved = z != self.layer() && self.set_layer(z);
                // Inverses made by `Edit::apply` always apply to the grid they came from.
                let changed = undo.apply(&mut self.grid).ok().and_then(|a| a.changed);
                self.store_layer();
                self.clamp_endpoints();
                (
                    Touched::Cells(if moved { None } else { changed }),
                    Change::Grid {
                        redo: undo,
                        undo: redo,
                        z,
                    },
                )
            }
            Change::Start(from, to) => {
                self.put_start(from);
                (Touched::Endpoints, Change::Start(to, from))
            }
            Change::Goal(from, to) => {
                self.put_goal(from);
                (Touched::Endpoints, Change::Goal(to, from))
            }
            Change::Knowledge(back) => {
                let now = self.swap_knowledge(back.map(|b| *b));
                (Touched::Knowledge, Change::Knowledge(now.map(Box::new)))
            }
        }
    }

    /// The document as a pathlab project (map, start, goal, problems, algorithms).
    pub fn to_project(
        &self,
        grid: &Grid,
        algorithms: Vec<crate::project::AlgoSettings>,
    ) -> Project {
        let mut p = Project::new(grid);
        p.start = Some(self.start);
        p.goal = Some(self.goal);
        p.scenarios = self.problems.clone();
        p.connectivity = self.moves;
        p.terrain_rule = self.rule;
        p.world = self.world;
        p.algorithms = algorithms;
        if self.world.keeps_knowledge() {
            p.set_knowledge(self.knowledge());
        }
        if let Some(v) = self.volume() {
            p.set_volume(v);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Cell;

    #[test]
    fn undo_redo_round_trip() {
        let (g, s, t) = crate::builtin::default_world();
        let mut d = Document::new(g.clone(), s, t, None);
        d.apply(Edit::SetCell {
            x: 1,
            y: 1,
            cell: Cell::WALL,
        })
        .unwrap();
        d.set_goal((2, 2));
        assert_ne!(d.grid, g);
        d.undo();
        assert_eq!(d.goal, t);
        d.undo();
        assert_eq!(d.grid, g);
        assert!(!d.can_undo());
        d.redo();
        d.redo();
        assert_eq!(d.goal, (2, 2));
        assert_eq!(d.grid.get(1, 1), Some(Cell::WALL));
    }
}

//! What changes do to the runs: views added or given another algorithm, edits, undo and
//! redo, a new document, a scenario problem, other moves or terrain rule. Incremental
//! searches repair; the others restart and the timeline cursor returns where it was.

use crate::app::agent::AgentSim;
use crate::app::timeline::Resume;
use crate::app::{
    moves_name, rule_name, AlgoChoice, Document, MapTexture, PathlabApp, Run, Touched, View,
};
use crate::map::Edit;
use crate::search::Query;
use crate::space::{Connectivity, TerrainRule};
use crate::world::AnySpace;

impl PathlabApp {
    pub(in crate::app) fn query(&self) -> Query {
        let node =
            |p: crate::app::document::At| self.work.space.node_at([p.0, p.1, p.2]).unwrap_or(0);
        Query {
            start: node(self.work.doc.start_at()),
            goal: node(self.work.doc.goal_at()),
        }
    }

    /// Adds a view running `choice` (at most four).
    pub fn add_view(&mut self, choice: AlgoChoice) {
        if self.work.views.len() >= 4 {
            return;
        }
        match Run::new(choice, &self.work.space, self.query()) {
            Ok(run) => {
                let serial = self.bump();
                self.work.views.push(View {
                    run,
                    tex: MapTexture::default(),
                    serial,
                    world: None,
                    gps: Default::default(),
                });
            }
            Err(e) => self.status = e,
        }
    }

    /// Adds a view running `choice` on the map as another world (`family`: hexes of a size),
    /// beside the document's own views.
    pub fn add_world_view(
        &mut self,
        choice: AlgoChoice,
        family: crate::world::Family,
        fill: crate::map::HexFill,
    ) {
        if self.work.views.len() >= 4 {
            self.status = "Four views at most: close one first".into();
            return;
        }
        let built = crate::app::ViewWorld::of(&self.work.doc, family, fill).and_then(|w| {
            // The active view's algorithm when it runs on that world; else the first of its
            // group there (HPA* on squares: HNA* on a navmesh), else A*, and the status says so.
            let kind = w.space.kind();
            let (choice, swapped) = match Run::new(choice.clone(), &w.space, w.query()) {
                Ok(run) => return Ok((w, run, None)),
                Err(_) => {
                    let instead = crate::algorithms::all()
                        .iter()
                        .find(|a| a.group == choice.info.group && a.spaces().contains(&kind))
                        .map_or_else(|| AlgoChoice::named("astar"), |a| AlgoChoice::named(a.name));
                    let note = format!(
                        "; {} does not run on {}, so it runs {} (its list offers that world's algorithms)",
                        choice.info.title,
                        family.name(),
                        instead.info.title
                    );
                    (instead, note)
                }
            };
            let run = Run::new(choice, &w.space, w.query())?;
            Ok((w, run, Some(swapped)))
        });
        match built {
            Ok((w, run, swapped)) => {
                let serial = self.bump();
                self.status = format!(
                    "View {} searches the map as {}{}{}",
                    self.work.views.len() + 1,
                    crate::app::worlds::ui_of(&family).describe(&w.space),
                    crate::app::file_actions::leak_note(
                        w.wall_crossings(&self.work.doc.grid),
                        fill
                    ),
                    swapped.unwrap_or_default()
                );
                self.work.views.push(View {
                    run,
                    tex: MapTexture::default(),
                    serial,
                    world: Some(Box::new(w)),
                    gps: Default::default(),
                });
                self.display.active = self.work.views.len() - 1;
                self.restart_all();
            }
            Err(e) => self.report_error(&format!("Could not show the map as {}", family.name()), e),
        }
    }

    pub(in crate::app) fn bump(&mut self) -> u64 {
        self.work.next_serial += 1;
        self.work.next_serial
    }

    /// Sets the algorithm of view `i` and restarts it.
    pub fn set_algorithm(&mut self, i: usize, choice: AlgoChoice) {
        if i < self.work.views.len() {
            let was = std::mem::replace(&mut self.work.views[i].run.choice, choice);
            if !self.restart_view(i) {
                // Refused (it does not run on this world): the view keeps its algorithm.
                self.work.views[i].run.choice = was;
            }
        }
    }

    /// Restarts view `i`'s search on the current map, reusing its memory; what it says when
    /// its algorithm gave way to another (also in the status line).
    pub(in crate::app) fn rerun_view(&mut self, i: usize) -> Option<String> {
        let q = self.query();
        let serial = self.bump();
        // A view of its own world rebuilds it from the document first.
        if let Some(w) = &self.work.views[i].world {
            match w.rebuilt(&self.work.doc) {
                Ok(fresh) => self.work.views[i].world = Some(Box::new(fresh)),
                Err(_) => self.work.views[i].world = None,
            }
        }
        let v = &mut self.work.views[i];
        let notice = match &v.world {
            Some(w) => v.run.restart(&w.space, w.query()),
            None => v.run.restart(&self.work.space, q),
        };
        v.serial = serial;
        let n = notice?;
        v.gps = Default::default();
        let n = format!("View {}: {n}", i + 1);
        self.status = n.clone();
        Some(n)
    }

    /// Builds view `i`'s run anew; false (and the reason in the status line) when refused.
    pub(in crate::app) fn restart_view(&mut self, i: usize) -> bool {
        let target = self.resume_target();
        let q = self.query();
        let choice = self.work.views[i].run.choice.clone();
        let built = match &self.work.views[i].world {
            Some(w) => Run::new(choice, &w.space, w.query()),
            None => Run::new(choice, &self.work.space, q),
        };
        let ok = match built {
            Ok(run) => {
                self.work.views[i].run = run;
                self.work.views[i].serial = self.bump();
                true
            }
            Err(e) => {
                self.status = e;
                false
            }
        };
        self.work.resume = Some(target);
        self.settle_cursor();
        ok
    }

    /// Restarts every run (after an edit): the step cursor returns to where it was (or to the
    /// end, if it was there) as the new runs record.
    pub fn restart_all(&mut self) {
        let target = self.resume_target();
        self.work.seen_tiles = self.work.doc.grid.tiles().to_vec();
        // Every view that gave way is named, not only the last.
        let notices: Vec<String> = (0..self.work.views.len())
            .filter_map(|i| self.rerun_view(i))
            .collect();
        if notices.len() > 1 {
            self.status = notices.join("; ");
        }
        self.display.best_open_cache = None;
        self.work.resume = Some(target);
        self.settle_cursor();
    }

    /// Reacts to a document change: rebuilds the affected part of the space, restarts runs.
    pub(in crate::app) fn touched(&mut self, t: Touched) {
        match t {
            Touched::Cells(Some(r))
                if self.work.space.width() == self.work.doc.grid.width()
                    && self.work.space.height() == self.work.doc.grid.height() =>
            {
                self.cells_changed(r);
                return;
            }
            Touched::Cells(_) => {
                self.work.space = self.work.doc.space();
                self.cam.fit_pending = true;
            }
            Touched::Knowledge => self.work.space = self.work.doc.space(),
            Touched::Endpoints => {}
        }
        self.restart_all();
    }

    /// Cells inside `r` changed (same map size): the space is updated; incremental algorithms
    /// repair in place, the change and the repair joining their timeline; the others start
    /// again. A cursor that was at the end stays at the end.
    pub(in crate::app) fn cells_changed(&mut self, r: crate::map::Rect) {
        self.agents_user_edited(r);
        let before = self.work.space.revision();
        let around = self.work.space.update(&self.work.doc.grid, Some(r));
        if let Some(note) =
            crate::app::prepared::world_changed(before, &self.work.space, Some(&around))
        {
            self.status = note;
        }
        let target = self.resume_target();
        let tiles = self.work.doc.grid.tiles();
        if self.work.seen_tiles.len() != tiles.len() {
            self.work.seen_tiles = tiles.to_vec();
        }
        let w = self.work.doc.grid.width() as usize;
        let mut cells = vec![];
        for y in r.y as usize..(r.y + r.h) as usize {
            for x in r.x as usize..(r.x + r.w) as usize {
                let i = y * w + x;
                if let (Some(&new), Some(old)) = (tiles.get(i), self.work.seen_tiles.get_mut(i)) {
                    if *old != new {
                        cells.push((i, *old, new));
                        *old = new;
                    }
                }
            }
        }
        for i in 0..self.work.views.len() {
            // A view of its own world is rebuilt from the changed map and searched again.
            if self.work.views[i].world.is_some()
                || !self.work.views[i]
                    .run
                    .repair(&self.work.space, &around, cells.clone())
            {
                self.rerun_view(i);
            }
        }
        self.display.best_open_cache = None;
        self.work.resume = Some(target);
        if target == Resume::End {
            self.to_end();
        } else {
            self.settle_cursor();
        }
    }

    /// Replaces the document (open, new, generate).
    /// Makes `doc` the document; returns the one it replaces. What a conversion replaced is
    /// kept by the caller for undo; any other document change forgets it.
    pub(in crate::app) fn set_document(&mut self, doc: Document) -> Document {
        self.agents_stop();
        self.parts.of_mut::<AgentSim>().blocks = None;
        self.parts
            .of_mut::<crate::app::flight::MovingScene>()
            .flight = None;
        self.work.converted_from.clear();
        let old = std::mem::replace(&mut self.work.doc, doc);
        self.work.doc_serial += 1;
        self.problems.chosen = None;
        self.work.space = self.work.doc.space();
        self.cam.fit_pending = true;
        self.work.cursor = 0;
        self.work.resume = None;
        self.play.playing = false;
        self.edit.selected = None;
        self.display.active = 0;
        self.restart_all();
        old
    }

    /// Makes `doc`, a conversion of the document (to hexes, to voxels), the document; undo
    /// brings the replaced one back, with its views as they were. The views go on with their
    /// algorithms where the new world runs them; one that does not gives way to A*, and what
    /// is returned (also in the status line) says so, view by view.
    pub(in crate::app) fn set_converted(&mut self, doc: Document) -> String {
        let before = std::mem::take(&mut self.work.converted_from);
        let views = std::mem::take(&mut self.work.views);
        let family = doc.world;
        let old = self.set_document(doc);
        let mut notes = vec![];
        for v in &views {
            let choice = v.run.choice.clone();
            let n = self.work.views.len() + 1;
            // A view searching the map as another world beside the squares keeps doing so
            // where that world can still be made from the new document; one of the new
            // document's own family becomes a plain view, or goes when it repeats one.
            let beside = v
                .world
                .as_ref()
                .filter(|w| w.family != family && w.knowledge.is_none());
            if let Some(w) = beside {
                if crate::app::ViewWorld::of(&self.work.doc, w.family, w.fill).is_ok() {
                    self.add_world_view(choice, w.family, w.fill);
                    continue;
                }
            }
            if v.world.is_some() && self.work.views.iter().any(|o| o.run.choice == choice) {
                continue;
            }
            let title = choice.info.title;
            match Run::new(choice, &self.work.space, self.query()) {
                Ok(_) => self.add_view(v.run.choice.clone()),
                Err(e) => {
                    self.add_view(AlgoChoice::named("astar"));
                    notes.push(format!("view {n}: {title} does not run here ({e}), so it runs A* (Undo brings {title} back)"));
                }
            }
        }
        self.work.converted_from = before;
        self.work.converted_from.push((old, views));
        self.display.active = 0;
        self.restart_all();
        let notes = notes.join("; ");
        self.status = notes.clone();
        notes
    }

    /// Searches problem `i` of the scenario: start and goal move there (not an edit: the map
    /// stays saved), and every run starts again.
    pub fn choose_problem(&mut self, i: usize) {
        let Some(p) = self.work.doc.problems.get(i) else {
            return;
        };
        let (s, g, opt) = (p.start, p.goal, p.optimal);
        self.agents_stop();
        self.work.doc.set_endpoints_quiet(s, g);
        self.problems.chosen = Some(i);
        self.touched(Touched::Endpoints);
        self.status = format!(
            "Problem #{i}: ({}, {}) to ({}, {}), optimal length {opt:.3}",
            s.0, s.1, g.0, g.1
        );
    }

    /// Sets the moves and terrain rule the searches use: the space is rebuilt and every run
    /// restarts. A setting saved with the project, so the document counts as changed.
    pub fn set_rules(&mut self, moves: Connectivity, rule: TerrainRule) {
        if (moves, rule) == (self.work.doc.moves, self.work.doc.rule) {
            return;
        }
        self.agents_stop();
        (self.work.doc.moves, self.work.doc.rule) = (moves, rule);
        self.work.doc.dirty = true;
        self.work.doc.revision += 1;
        self.work.space = AnySpace::new(&self.work.doc.grid, self.work.doc.world, (moves, rule));
        self.restart_all();
        self.status = format!(
            "Searches now use {} and {}",
            moves_name(moves),
            rule_name(rule)
        );
    }

    /// Applies an edit from the editor (undoable) and restarts the runs.
    pub fn edit(&mut self, e: Edit) {
        match self.work.doc.apply(e) {
            Ok(t) => self.touched(t),
            Err(e) => self.status = e,
        }
    }

    /// Undo the last change.
    /// Whether Undo has something to undo: an edit, or a conversion.
    pub fn can_undo(&self) -> bool {
        self.work.doc.can_undo() || !self.work.converted_from.is_empty()
    }

    pub fn undo(&mut self) {
        match self.work.doc.undo() {
            Some(t) => {
                self.touched(t);
                self.status = "Undone".into();
            }
            None => match self.work.converted_from.pop() {
                // Past the conversion's first edit: the map it was made from.
                Some((before, views)) => {
                    let rest = std::mem::take(&mut self.work.converted_from);
                    // The views as they were before it, algorithms and worlds beside.
                    self.work.views = views;
                    let _ = self.set_document(before);
                    self.work.converted_from = rest;
                    self.status = format!("Undone: back to the {} map", self.work.doc.world.name());
                }
                None => self.status = "Nothing to undo".into(),
            },
        }
    }

    /// Redo the last undone change.
    pub fn redo(&mut self) {
        match self.work.doc.redo() {
            Some(t) => {
                self.touched(t);
                self.status = "Redone".into();
            }
            None => self.status = "Nothing to redo".into(),
        }
    }
}

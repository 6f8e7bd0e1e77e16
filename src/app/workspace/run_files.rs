//! A run's files: its recording exported (a run file, a Posthoc trace) and traces opened into
//! the views.

use crate::app::PathlabApp;

impl PathlabApp {
    pub(in crate::app) fn export_run(&mut self, p: &std::path::Path) {
        let Some(v) = self.work.views.first() else {
            return;
        };
        let r = &v.run;
        let xy = |n: u32| self.work.space.xy(n);
        let file = crate::trace::run_file::RunFile {
            version: crate::trace::run_file::RUN_VERSION,
            map: self
                .work
                .doc
                .path
                .as_ref()
                .map_or("built-in".into(), |p| p.display().to_string()),
            algorithm: r.choice.spec(),
            start: self.work.doc.start,
            goal: self.work.doc.goal,
            status: match r.status() {
                crate::search::Status::Found => "found",
                crate::search::Status::NoPath => "no-path",
                crate::search::Status::Running | crate::search::Status::NeedsReplan => "running",
            }
            .into(),
            cost: r.cost(),
            path: r.path().unwrap_or(&[]).iter().map(|&n| xy(n)).collect(),
            stats: r.stats().into(),
            events: crate::trace::run_file::RunFile::events_of(&r.rec),
            voxel: self.work.space.volume().map(|dims| {
                let z = |n: u32| self.work.space.coords(n)[2];
                crate::trace::run_file::VoxelRun {
                    dims,
                    start_z: z(r.query.start),
                    goal_z: z(r.query.goal),
                    path_z: r.path().unwrap_or(&[]).iter().map(|&n| z(n)).collect(),
                }
            }),
        };
        self.status = match file.write(p) {
            Ok(()) => format!("Run written to {}", p.display()),
            Err(e) => format!("Not written: {e}"),
        };
    }

    /// Reads a trace file onto the open map and plays it back in a view beside the others.
    pub(in crate::app) fn open_trace(&mut self, p: &std::path::Path) {
        use crate::space::SpaceKind;
        use crate::trace::posthoc_in::{self, Place};
        use crate::trace::EventKind;
        if self.work.views.len() >= 4 {
            let why = "Four views already: remove one (View ▸ Remove view) to open a trace";
            if self.opts.screenshot.is_some() {
                *self.shots.failure.lock().expect("not poisoned") = Some(format!("--trace: {why}"));
            }
            self.status = why.into();
            return;
        }
        let space = &self.work.space;
        let (w, h) = (space.width(), space.height());
        let target = posthoc_in::Target {
            nodes: space.num_nodes(),
            square: (space.kind() == SpaceKind::Square).then_some((w, h)),
            place: space.trace_place(),
        };
        let read = if matches!(target.place, Place::Nowhere) {
            Err(format!(
                "{}: Posthoc traces are 2D; open it on a 2D world, not {}",
                p.display(),
                space.kind().title()
            ))
        } else {
            posthoc_in::read(p, &target)
        };
        // A trace recorded on another world (another map, size or family) is refused rather
        // than drawn wrong: its events fall outside this map, on its walls, or nowhere on it.
        let read = read.and_then(|t| {
            let on_walls = if t.events.iter().any(|e| e.kind == EventKind::WorldChange)
                || !matches!(space.kind(), SpaceKind::Square | SpaceKind::Hex)
            {
                // A repair's walls came after its search; other worlds' nodes are no cells.
                0
            } else {
                t.events
                    .iter()
                    .filter(|e| {
                        matches!(
                            e.kind,
                            EventKind::Source
                                | EventKind::Generate
                                | EventKind::Expand
                                | EventKind::Reopen
                        ) && e.node != crate::trace::NONE
                            && (e.node as usize) < space.num_nodes()
                            && !space.is_passable(e.node)
                    })
                    .count()
            };
            let world = format!("this {w}×{h} map of {}", space.kind().title());
            let why = if t.off_map > 0 {
                format!("{} of its events are drawn outside {world}", t.off_map)
            } else if on_walls > 0 {
                format!("it searches {on_walls} nodes that are walls of {world}")
            } else if t.placed == 0 && t.about_nodes > 0 {
                format!(
                    "none of its {} events is drawn on a node of {world}",
                    t.about_nodes
                )
            } else {
                return Ok(t);
            };
            Err(format!(
                "{}: not opened: {why}, so it was recorded on another world; open it on that world's map",
                p.display()
            ))
        });
        match read {
            Ok(t) => {
                let name = p
                    .file_name()
                    .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into());
                let n = t.events.len();
                let notes = t.notes.join("; ");
                let choice = crate::app::choice::AlgoChoice::trace(crate::app::choice::TraceFile {
                    name,
                    path: std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()),
                    events: std::sync::Arc::new(t.events),
                    notes: t.notes,
                    target,
                });
                let before = self.work.views.len();
                self.add_view(choice);
                if self.work.views.len() > before {
                    self.display.active = before;
                    self.status = format!("Trace of {n} events from {}; {notes}", p.display());
                }
            }
            Err(e) => {
                // A scripted run (`--screenshot --trace`) fails with it rather than draw
                // without the trace.
                if self.opts.screenshot.is_some() {
                    *self.shots.failure.lock().expect("not poisoned") = Some(e.clone());
                }
                self.report_error("Could not read the trace", e)
            }
        }
    }

    pub(in crate::app) fn export_posthoc(&mut self, p: &std::path::Path) {
        let Some(v) = self.work.views.first() else {
            return;
        };
        if self.work.space.volume().is_some() {
            self.status = "Posthoc traces are 2D: export the run (RON) of a voxel world".into();
            return;
        }
        if let Err(e) = crate::trace::posthoc::check_name(p) {
            self.status = format!("Not written: {e}");
            return;
        }
        use crate::trace::posthoc;
        let (run, format) = (&v.run, posthoc::Format::of(p));
        let trace = posthoc::write_world(&run.rec, &self.work.space, run.search_state(), format);
        self.status = match crate::map::io::write_atomic(p, trace.as_bytes()) {
            Ok(()) => format!("Posthoc trace written to {}", p.display()),
            Err(e) => format!("Not written: {e}"),
        };
    }
}

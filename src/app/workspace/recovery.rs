//! The recovery file: unsaved work written every few seconds (off the UI thread on the desktop,
//! to local storage in a page), offered back at the next start, removed once saved or discarded.

#[cfg(not(target_arch = "wasm32"))]
use crate::app::jobs::Job;
use crate::app::jobs::Polled;
use crate::app::workspace::files;
use crate::app::{Document, PathlabApp};
use std::time::Duration;
use web_time::Instant;

impl PathlabApp {
    /// Removes the recovery file (after a save, or when the user discards it).
    pub fn clear_recovery(&mut self) {
        #[cfg(target_arch = "wasm32")]
        crate::app::web_files::forget(crate::app::web_files::RECOVERY_KEY);
        self.flush_recovery();
        #[cfg(not(target_arch = "wasm32"))]
        let _ = std::fs::remove_file(self.recovery_file());
    }

    /// Writes the recovery file every few seconds while there are unsaved changes.
    pub(in crate::app) fn write_recovery(&mut self) {
        // One write at a time, off the UI thread (a 1024×1024 map is a megabyte of RON). The
        // last write's outcome is taken every frame, so a failure shows when it happens rather
        // than at the next edit.
        if let Some(job) = &mut self.files.recovery_job {
            match job.poll() {
                Polled::Running => return,
                Polled::Done(Err(e)) => {
                    self.status = format!("Cannot write the recovery file: {e}")
                }
                Polled::Done(Ok(())) => {}
                Polled::Lost => self.status = "Cannot write the recovery file".into(),
            }
            self.files.recovery_job = None;
        }
        if !self.work.doc.dirty
            || self.work.doc.revision == self.files.recovery_written
            || self.files.recovery_at.elapsed() < Duration::from_secs(2)
            || self.opts.screenshot.is_some()
        {
            return;
        }
        let project = self
            .work
            .doc
            .to_project(&self.user_grid(), self.algo_settings(None));
        // A page keeps it in local storage, written here: a page has no thread to hand it to,
        // and storing a megabyte takes a few milliseconds.
        #[cfg(target_arch = "wasm32")]
        {
            use crate::app::web_files::{store, RECOVERY_KEY};
            if let Err(e) = project.to_text().and_then(|t| store(RECOVERY_KEY, &t)) {
                self.status = format!("Cannot keep the unsaved work in the page: {e}");
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let path = self.recovery_file();
            self.files.recovery_job = Some(Job::spawn("recovery file", 0, move |_| {
                files::write_recovery(&path, &project)
            }));
        }
        self.files.recovery_written = self.work.doc.revision;
        self.files.recovery_at = Instant::now();
    }

    /// Waits for a recovery write in progress (tests, and before removing the file).
    pub fn flush_recovery(&mut self) {
        if let Some(job) = self.files.recovery_job.take() {
            let _ = job.wait();
        }
    }

    /// Restores the recovery file as an unsaved document.
    pub(in crate::app) fn recover(&mut self) {
        let p = self.recovery_file();
        let rules = (self.work.doc.moves, self.work.doc.rule);
        #[cfg(target_arch = "wasm32")]
        let loaded = {
            use crate::app::web_files::{stored, RECOVERY_KEY};
            let text = stored(RECOVERY_KEY).unwrap_or_default();
            let given = vec![(p.clone(), text.into_bytes())];
            crate::map::io::reading_given(given, || files::load(&p, rules))
        };
        #[cfg(not(target_arch = "wasm32"))]
        let loaded = files::load(&p, rules);
        match loaded {
            Ok(l) => {
                let s = l.start.unwrap_or((0, 0));
                let g = l.goal.unwrap_or((1, 0));
                let mut doc = Document::new(l.grid, s, g, None);
                doc.problems = l.problems;
                (doc.moves, doc.rule) =
                    l.rules.unwrap_or((self.work.doc.moves, self.work.doc.rule));
                doc.world = l.world;
                doc.data = l.data;
                doc.dirty = true;
                doc.revision = 1;
                self.set_document(doc);
                self.status = "Restored unsaved work from the recovery file".into();
            }
            Err(e) => self.report_error(
                "Could not restore",
                format!("Recovery file unreadable: {e}"),
            ),
        }
    }
}

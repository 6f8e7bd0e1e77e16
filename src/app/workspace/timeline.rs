//! The timeline: the one step cursor every view, the slider, the status line and the plots
//! read, playing, stepping, and where the cursor returns when runs restart.

use crate::app::{PathlabApp, Sync, View};
use std::time::Duration;

/// Where the shared step cursor goes while restarted runs record again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Resume {
    /// Back to this step, or as far as the new runs get.
    Step(usize),
    /// To the end of the new runs (the cursor was at the end of the old ones).
    End,
}

impl PathlabApp {
    /// Where the cursor should return once runs restart: the end if it was at the end of
    /// finished runs, else the step it was at.
    pub(in crate::app) fn resume_target(&self) -> Resume {
        match self.work.resume {
            Some(r) => r,
            None if self.work.cursor > 0
                && self.work.cursor >= self.max_steps()
                && !self.searching() =>
            {
                Resume::End
            }
            None => Resume::Step(self.work.cursor),
        }
    }

    /// Restores the timeline's one truth: the cursor follows a pending [`Resume`] (or is
    /// clamped to what is recorded), and every view shows `min(cursor, its steps)`.
    pub(in crate::app) fn settle_cursor(&mut self) {
        let max = self.max_steps();
        match self.work.resume {
            Some(Resume::End) => {
                self.work.cursor = max;
                if !self.searching() {
                    self.work.resume = None;
                }
            }
            Some(Resume::Step(n)) => {
                self.work.cursor = n.min(max);
                if max >= n || !self.searching() {
                    self.work.resume = None;
                }
            }
            None => self.work.cursor = self.work.cursor.min(max),
        }
        if self.play.sync == Sync::Completed {
            self.work.cursor = max;
            for v in &mut self.work.views {
                let end = v.run.steps();
                v.run.set_shown(end);
            }
        } else {
            for v in &mut self.work.views {
                v.run.set_shown(self.work.cursor);
            }
        }
    }

    /// The largest step any view has recorded.
    pub fn max_steps(&self) -> usize {
        self.work
            .views
            .iter()
            .map(|v| v.run.steps())
            .max()
            .unwrap_or(0)
    }

    /// True while some run is still searching.
    pub fn searching(&self) -> bool {
        self.work.views.iter().any(|v| !v.run.finished())
    }

    /// Moves the shared cursor to step `s` (clamped), stopping at breakpoints when moving
    /// forward by more than one step if `check` is set.
    pub fn go_to(&mut self, s: usize, check: bool) {
        // The user moved the cursor: a pending return after a restart is dropped.
        self.work.resume = None;
        let s = s.min(self.max_steps());
        let mut target = s;
        if check && s > self.work.cursor {
            let mut hit: Option<(usize, String)> = None;
            for v in &self.work.views {
                if let Some(b) = v
                    .run
                    .first_break(self.work.cursor, s, &self.play.breakpoints)
                {
                    if hit.as_ref().is_none_or(|h| b.0 < h.0) {
                        hit = Some(b);
                    }
                }
            }
            if let Some((at, why)) = hit {
                target = at;
                self.play.playing = false;
                self.status = format!("Stopped at step {at}: {why}");
            }
        }
        self.work.cursor = target;
        self.settle_cursor();
    }

    /// Steps forward `n` expansions (searching further if needed).
    pub fn step_forward(&mut self, n: usize) {
        let want = self.work.cursor + n;
        for v in &mut self.work.views {
            let space = v.world.as_ref().map_or(&self.work.space, |w| &w.space);
            while !v.run.finished() && v.run.steps() < want {
                v.run.pump(space, Duration::from_millis(20));
            }
        }
        self.go_to(want, true);
    }

    /// Steps back `n` expansions.
    pub fn step_back(&mut self, n: usize) {
        self.go_to(self.work.cursor.saturating_sub(n), false);
    }

    /// Runs every search to its end and shows the end.
    pub fn to_end(&mut self) {
        for v in &mut self.work.views {
            let space = v.world.as_ref().map_or(&self.work.space, |w| &w.space);
            v.run.finish(space);
        }
        self.go_to(self.max_steps(), false);
        self.play.playing = false;
    }

    /// The view the inspector and the status line speak of.
    pub fn active_view(&self) -> Option<&View> {
        self.work
            .views
            .get(self.display.active)
            .or(self.work.views.first())
    }

    /// How the active view is named on screen: its algorithm, with its number when several
    /// views are open.
    pub fn view_name(&self, i: usize) -> String {
        let Some(v) = self.work.views.get(i) else {
            return String::new();
        };
        if self.work.views.len() > 1 {
            format!("view {} {}", i + 1, v.run.choice.label())
        } else {
            v.run.choice.label()
        }
    }

    /// A one-line summary of the shared step and the active view, as in the status bar.
    pub fn summary(&self) -> String {
        let Some(v) = self.active_view() else {
            return "no algorithm".into();
        };
        let i = self.display.active.min(self.work.views.len() - 1);
        let r = &v.run;
        let at_end = r.shown >= r.steps();
        let state = match r.status() {
            crate::search::Status::Running => "searching…".to_string(),
            crate::search::Status::NeedsReplan => "needs replanning".to_string(),
            crate::search::Status::Found if at_end => match r.cost() {
                Some(c) => format!("path found, cost {c:.3}"),
                None => "path found".to_string(),
            },
            crate::search::Status::NoPath if at_end => "no path".to_string(),
            crate::search::Status::Found | crate::search::Status::NoPath if r.shown == 0 => {
                "at its start".into()
            }
            crate::search::Status::Found | crate::search::Status::NoPath => r.doing().into(),
        };
        // A search that could not run (its hierarchy was not built) says why, not "no path".
        let state = r.failure().map_or(state, |why| format!("not run: {why}"));
        let own = if self.work.views.len() > 1 && r.steps() != self.max_steps() {
            format!(" (its step {} of {})", r.shown, r.steps())
        } else {
            String::new()
        };
        format!(
            "Step {} of {} — {}{own}: {state}",
            self.work.cursor,
            self.max_steps(),
            self.view_name(i)
        )
    }

    /// Searches a slice of each frame. The slice adapts to the last frame's length: it shrinks
    /// while frames take longer than 14 ms (a 60 Hz frame, with a margin for the frames that run
    /// long) and grows back when they are faster, so a big search after an edit slows down
    /// before the window does.
    pub(in crate::app) fn pump_runs(&mut self, last_frame: f32) {
        if self.searching() {
            self.play.search_budget_us = if last_frame > 0.014 {
                (self.play.search_budget_us * 3 / 4).max(500)
            } else {
                (self.play.search_budget_us + 250).min(8000)
            };
        }
        let budget =
            Duration::from_micros(self.play.search_budget_us / self.work.views.len().max(1) as u64);
        for v in &mut self.work.views {
            let space = v.world.as_ref().map_or(&self.work.space, |w| &w.space);
            v.run.pump(space, budget);
        }
        self.settle_cursor();
    }

    pub(in crate::app) fn advance_play(&mut self, dt: f32) {
        if !self.play.playing {
            self.play.play_acc = 0.0;
            return;
        }
        if self.play.max_speed {
            self.play.play_acc += 1e9;
        } else {
            self.play.play_acc += (self.play.speed * dt) as f64;
        }
        let n = self.play.play_acc.floor() as usize;
        if n > 0 {
            self.play.play_acc -= n as f64;
            let before = self.work.cursor;
            let want = (self.work.cursor + n).min(self.max_steps());
            self.go_to(want, true);
            if self.work.cursor == before && !self.searching() {
                self.play.playing = false;
                self.status = "End of run".into();
            }
        }
    }

    /// Play or pause; playing from the end starts over.
    pub fn toggle_play(&mut self) {
        if !self.play.playing && self.work.cursor >= self.max_steps() && !self.searching() {
            self.go_to(0, false);
        }
        self.play.playing = !self.play.playing;
    }
}

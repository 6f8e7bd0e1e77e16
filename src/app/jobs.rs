//! Background work: every job the app starts off the UI thread (the dynamic experiment, the
//! native file dialog, the recovery file, the timing of a finished run, the 3D view's meshes)
//! runs as a [`Job`] — a named worker thread with progress and a cancel flag, whose result the
//! owner polls once a frame and never waits for on the UI thread. In a browser there are no
//! threads: a job's work runs within [`Job::spawn`] (see there).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::sync::{Arc, Weak};

thread_local! {
    /// The jobs started on this thread whose result has not been taken yet, by name. The app
    /// runs on one thread, so this is the app's outstanding work: whoever drives the app
    /// (a headless test stepping frames) waits on it rather than on a count of frames, which
    /// would depend on how fast the worker threads run on a loaded machine.
    static OUTSTANDING: RefCell<Vec<(&'static str, Weak<AtomicBool>)>> =
        const { RefCell::new(Vec::new()) };
}

/// The names of the jobs started on this thread that are still running, or whose result has
/// come but not been taken by a poll. A dropped job is not outstanding.
pub fn outstanding() -> Vec<&'static str> {
    OUTSTANDING.with(|o| {
        let mut o = o.borrow_mut();
        o.retain(|(_, w)| w.upgrade().is_some_and(|t| !t.load(Ordering::Relaxed)));
        o.iter().map(|(n, _)| *n).collect()
    })
}

/// What a job's work sees: where to report progress and whether it was cancelled.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicU64,
    cancel: AtomicBool,
}

impl Progress {
    /// Adds `n` units of work done.
    pub fn add(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }

    /// Units of work done so far.
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// Whether the owner asked the work to stop (work that can stop early checks this).
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The flag itself, for library code that takes one.
    pub fn cancel_flag(&self) -> &AtomicBool {
        &self.cancel
    }
}

/// What polling a job found.
#[derive(Debug)]
pub enum Polled<T> {
    /// Still working.
    Running,
    /// Finished with this result.
    Done(T),
    /// The work panicked: no result will come.
    Lost,
}

/// One piece of background work and its result to come.
pub struct Job<T> {
    name: &'static str,
    total: u64,
    progress: Arc<Progress>,
    rx: Receiver<T>,
    /// Set once a poll has taken the result (or found the work lost).
    taken: Arc<AtomicBool>,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a thread of its own; `total` is how many units of progress make it
    /// whole (0 when it reports none).
    pub fn spawn(
        name: &'static str,
        total: u64,
        work: impl FnOnce(&Progress) -> T + Send + 'static,
    ) -> Job<T> {
        let progress = Arc::new(Progress::default());
        let (tx, rx) = channel();
        let p = progress.clone();
        #[cfg(not(target_arch = "wasm32"))]
        std::thread::Builder::new()
            .name(format!("pathlab: {name}"))
            .spawn(move || {
                // The owner may have dropped the job: its result is not wanted then.
                let _ = tx.send(work(&p));
            })
            .expect("the system starts a thread");
        // A page has no threads (`wasm32-unknown-unknown`): the work runs here, to the end,
        // before `spawn` returns, and its result waits for the first poll. The frame that
        // starts a long job stalls for its length (no progress shows meanwhile), but every
        // owner sees what it sees on the desktop: a job, then its result on a poll.
        #[cfg(target_arch = "wasm32")]
        let _ = tx.send(work(&p));
        let taken = Arc::new(AtomicBool::new(false));
        OUTSTANDING.with(|o| o.borrow_mut().push((name, Arc::downgrade(&taken))));
        Job {
            name,
            total,
            progress,
            rx,
            taken,
        }
    }
}

/// A job whose owner lets it go (a window closed, a newer job started) is asked to stop: its
/// result is not wanted, and work that checks the flag stops instead of running on unseen.
impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        self.progress.cancel.store(true, Ordering::Relaxed);
    }
}

impl<T> Job<T> {
    /// Takes the result if it has come (call once a frame; it never blocks).
    pub fn poll(&mut self) -> Polled<T> {
        let polled = match self.rx.try_recv() {
            Ok(t) => Polled::Done(t),
            Err(TryRecvError::Empty) => Polled::Running,
            Err(TryRecvError::Disconnected) => Polled::Lost,
        };
        if !matches!(polled, Polled::Running) {
            self.taken.store(true, Ordering::Relaxed);
        }
        polled
    }

    /// Blocks until the result comes (tests, and before the app removes what the job writes);
    /// `None` when the work panicked.
    pub fn wait(self) -> Option<T> {
        self.rx.recv().ok()
    }

    /// Asks the work to stop; it still sends what it has.
    pub fn cancel(&self) {
        self.progress.cancel.store(true, Ordering::Relaxed);
    }

    /// Whether the job was asked to stop.
    pub fn cancelled(&self) -> bool {
        self.progress.cancelled()
    }

    /// Units done, and how many make the job whole.
    pub fn progress(&self) -> (u64, u64) {
        (self.progress.done(), self.total)
    }

    /// The job's name, as the UI shows it.
    pub fn name(&self) -> &'static str {
        self.name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_progress_cancels_and_delivers_its_result() {
        let (go, wait) = channel::<()>();
        let mut job = Job::spawn("count", 10, move |p| {
            p.add(3);
            // Held until the test has seen the progress and cancelled.
            wait.recv().unwrap();
            if p.cancelled() {
                -1
            } else {
                p.done() as i64
            }
        });
        while job.progress().0 < 3 {
            std::thread::yield_now();
        }
        assert!(matches!(job.poll(), Polled::Running));
        assert_eq!(job.progress(), (3, 10));
        job.cancel();
        assert!(job.cancelled());
        go.send(()).unwrap();
        assert_eq!(job.wait(), Some(-1));
    }

    #[test]
    fn a_panicking_job_is_lost_not_waited_for() {
        let mut job: Job<u32> = Job::spawn("panics", 0, |_| panic!("on purpose"));
        let r = loop {
            match job.poll() {
                Polled::Running => std::thread::yield_now(),
                r => break r,
            }
        };
        assert!(matches!(r, Polled::Lost));
    }

    #[test]
    fn a_job_is_outstanding_until_its_result_is_taken_or_it_is_dropped() {
        let (go, wait) = channel::<()>();
        let mut job = Job::spawn("held", 0, move |_| wait.recv().is_ok());
        let dropped = Job::spawn("dropped", 0, |_| ());
        assert_eq!(outstanding(), ["held", "dropped"]);
        drop(dropped);
        assert_eq!(outstanding(), ["held"]);
        go.send(()).unwrap();
        // Finished but not polled: the owner has not seen the result, so it is still owed.
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert_eq!(outstanding(), ["held"]);
        while matches!(job.poll(), Polled::Running) {
            std::thread::yield_now();
        }
        assert!(outstanding().is_empty());
        // On another thread, this thread's jobs are not counted.
        let _job = Job::spawn("here", 0, |_| ());
        let there = std::thread::spawn(outstanding).join().unwrap();
        assert!(there.is_empty());
    }
}

//! Background work: every job the app starts off the UI thread (the dynamic experiment, the
//! native file dialog, the recovery file, the timing of a finished run, the 3D view's meshes)
//! runs as a [`Job`] — a named worker thread with progress and a cancel flag, whose result the
//! owner polls once a frame and never waits for on the UI thread. In a browser there are no
//! threads: work written in slices ([`Job::sliced`]) runs a few milliseconds of slices in each
//! frame's poll, with the same progress and Cancel; other work runs within [`Job::spawn`].

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
    // A page runs the experiment in slices and checks `cancelled` between them.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
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
    /// Work run in slices within the polls (a page's frames) rather than on a thread.
    in_frames: Option<InFrames<T>>,
}

/// How long a poll runs a job's slices in a page: a frame's work for the job, leaving the
/// rest of a 60 Hz frame for drawing.
// The desktop runs slices on a thread; only a page (and this module's tests) polls them.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
const SLICE_BUDGET: std::time::Duration = std::time::Duration::from_millis(8);

/// One slice of sliced work: the result once the work is done.
type Step<T> = Box<dyn FnMut(&Progress) -> Option<T>>;

/// Sliced work run within polls: each poll runs slices until the work ends or the budget is
/// spent.
struct InFrames<T> {
    step: Step<T>,
    budget: std::time::Duration,
}

thread_local! {
    /// Wakes the app for the next frame while sliced work remains (set by the page).
    static WAKE: RefCell<Option<Box<dyn Fn()>>> = const { RefCell::new(None) };
}

/// How the page asks for the next frame while sliced work remains.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn wake_with(wake: impl Fn() + 'static) {
    WAKE.with(|w| *w.borrow_mut() = Some(Box::new(wake)));
}

impl<T: Send + 'static> Job<T> {
    /// Starts work written in slices: `step` does a bounded piece of it (reporting progress,
    /// checking Cancel) and returns the result once the work is done. On the desktop the
    /// slices run one after another on a thread of their own; in a page, each poll runs slices
    /// for a few milliseconds, so the page keeps drawing and the progress bar moves.
    pub fn sliced<S: Send + 'static>(
        name: &'static str,
        total: u64,
        mut state: S,
        mut step: impl FnMut(&mut S, &Progress) -> Option<T> + Send + 'static,
    ) -> Job<T> {
        #[cfg(target_arch = "wasm32")]
        return Job::in_frames(name, total, SLICE_BUDGET, move |p| step(&mut state, p));
        #[cfg(not(target_arch = "wasm32"))]
        Job::spawn(name, total, move |p| loop {
            if let Some(t) = step(&mut state, p) {
                break t;
            }
        })
    }
}

impl<T: 'static> Job<T> {
    /// Sliced work run within polls, `budget` per poll.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    fn in_frames(
        name: &'static str,
        total: u64,
        budget: std::time::Duration,
        step: impl FnMut(&Progress) -> Option<T> + 'static,
    ) -> Job<T> {
        let (_tx, rx) = channel();
        let taken = Arc::new(AtomicBool::new(false));
        OUTSTANDING.with(|o| o.borrow_mut().push((name, Arc::downgrade(&taken))));
        Job {
            name,
            total,
            progress: Arc::new(Progress::default()),
            rx,
            taken,
            in_frames: Some(InFrames {
                step: Box::new(step),
                budget,
            }),
        }
    }
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
            in_frames: None,
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
        if let Some(work) = &mut self.in_frames {
            let start = web_time::Instant::now();
            loop {
                if let Some(t) = (work.step)(&self.progress) {
                    self.in_frames = None;
                    self.taken.store(true, Ordering::Relaxed);
                    return Polled::Done(t);
                }
                if start.elapsed() >= work.budget {
                    WAKE.with(|w| w.borrow().as_ref().map(|wake| wake()));
                    return Polled::Running;
                }
            }
        }
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
    pub fn wait(mut self) -> Option<T> {
        if let Some(work) = &mut self.in_frames {
            loop {
                if let Some(t) = (work.step)(&self.progress) {
                    return Some(t);
                }
            }
        }
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
    fn sliced_work_in_frames_moves_on_a_budget_per_poll_and_stops_when_cancelled() {
        // 1,000 slices of 1 ms: a poll with a 5 ms budget runs a few, not all.
        let slices = |n: u64| {
            move |p: &Progress| {
                if p.cancelled() {
                    return Some(None);
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
                p.add(1);
                (p.done() == n).then_some(Some(p.done()))
            }
        };
        let budget = std::time::Duration::from_millis(5);
        let mut job = Job::in_frames("slices", 1000, budget, slices(1000));
        assert_eq!(outstanding(), ["slices"]);
        assert!(matches!(job.poll(), Polled::Running));
        let (after_one, _) = job.progress();
        assert!(
            (1..100).contains(&after_one),
            "{after_one} slices in one poll"
        );
        assert!(matches!(job.poll(), Polled::Running));
        assert!(job.progress().0 > after_one, "the next poll goes on");
        job.cancel();
        assert!(matches!(job.poll(), Polled::Done(None)));
        assert!(outstanding().is_empty());
        // To the end, a poll at a time; and waited for.
        let mut job = Job::in_frames("slices", 20, budget, slices(20));
        let polls = (1..).find(|_| matches!(job.poll(), Polled::Done(Some(20))));
        assert!(polls.unwrap() >= 2, "20 ms of work takes several polls");
        let job = Job::in_frames("slices", 20, budget, slices(20));
        assert_eq!(job.wait(), Some(Some(20)));
        // On the desktop, sliced work runs on its own thread, to the same result.
        let job = Job::sliced("slices", 5, 0u64, |n, _| {
            *n += 1;
            (*n == 5).then_some(*n)
        });
        assert_eq!(job.wait(), Some(5));
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

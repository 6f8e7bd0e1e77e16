//! Prepared data built on a thread of its own (a hierarchy over a large world takes a second):
//! the cache hands out a [`Pending`] at once, the thread fills it and reports its progress,
//! and every search and view that asks again gets the same one. A search waiting on it takes
//! steps that do nothing until it is ready; the statistics show the build's progress.

use super::params::Params;
use super::prepared::{Entry, Freshness, Prepared, PreparedCache, PreparedInfo};
use crate::space::{NodeId, Space};
use std::any::Any;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use web_time::Instant;

/// Prepared data that reports its progress while it is built.
pub trait Background<S: Space>: Prepared<S> {
    /// Builds it, telling `progress` the fraction done now and then; it may give up early
    /// once `stop` says so (what it returns then is never used).
    fn build_with_progress(
        space: &S,
        params: &Params,
        progress: &dyn Fn(f32),
        stop: &dyn Fn() -> bool,
    ) -> Self;
}

/// Something being built on another thread.
pub struct Pending<T> {
    done: OnceLock<(Arc<T>, f64)>,
    /// Why the build stopped without a result (it panicked).
    failed: OnceLock<String>,
    progress: AtomicU32,
    /// Set when the world it is built for changed: the build may give up.
    stop: AtomicBool,
}

impl<T> Pending<T> {
    /// The result, once built.
    pub fn get(&self) -> Option<Arc<T>> {
        self.done.get().map(|d| d.0.clone())
    }

    /// Why the build ended without a result, if it did.
    pub fn failure(&self) -> Option<&str> {
        self.failed.get().map(String::as_str)
    }

    /// The fraction done (1 once built).
    pub fn progress(&self) -> f32 {
        if self.done.get().is_some() {
            1.0
        } else {
            f32::from_bits(self.progress.load(Ordering::Relaxed))
        }
    }

    /// Waits until it is built (for callers with nothing else to do, the command line), or
    /// says why it could not be.
    pub fn wait(&self) -> Result<Arc<T>, String> {
        loop {
            if let Some(t) = self.get() {
                return Ok(t);
            }
            if let Some(why) = self.failure() {
                return Err(why.to_string());
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}

fn refresh_as<T: Prepared<S> + Send + Sync + 'static, S: Space>(
    data: &Arc<dyn Any + Send + Sync>,
    info: &mut PreparedInfo,
) {
    let Some(p) = data.downcast_ref::<Pending<T>>() else {
        return;
    };
    match (p.done.get(), p.failure()) {
        (Some((t, ms)), _) => {
            info.bytes = t.bytes();
            info.ms = *ms;
            if matches!(info.freshness, Freshness::Building(_)) {
                info.freshness = t
                    .failure()
                    .map_or(Freshness::Built, |why| Freshness::Failed(why.into()));
            }
        }
        (None, Some(why)) => info.freshness = Freshness::Failed(why.into()),
        (None, None) => info.freshness = Freshness::Building(p.progress()),
    }
}

/// A build on a thread cannot be patched: an edit marks it stale and the next query builds
/// it anew.
fn no_patch(_: &mut Arc<dyn Any + Send + Sync>, _: &dyn Any, _: &[NodeId]) -> Option<String> {
    None
}

impl PreparedCache {
    /// The `T` for `algo` with `params` on `space` as it is now: the one held (built or being
    /// built), or one whose build starts now on a thread of its own.
    pub fn background<T, S>(
        &mut self,
        algo: &'static str,
        space: &S,
        params: &Params,
    ) -> Arc<Pending<T>>
    where
        T: Background<S>,
        S: Space + Clone + Send + Sync + 'static,
    {
        let key = format!("{algo} {} (background)", T::build_key(params));
        let rev = space.revision();
        // Revision 0 is a world that does not keep track of its edits: nothing is reused.
        if let Some(e) = self.entries.iter().find(|e| {
            e.key == key && e.revision == rev && rev != 0 && e.info.freshness != Freshness::Stale
        }) {
            if let Ok(p) = e.data.clone().downcast::<Pending<T>>() {
                return p;
            }
        }
        self.make_room(&key, rev);
        let pending = Arc::new(Pending {
            done: OnceLock::new(),
            failed: OnceLock::new(),
            progress: AtomicU32::new(0f32.to_bits()),
            stop: AtomicBool::new(false),
        });
        let (job, world, owned) = (pending.clone(), space.clone(), params.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("building {}", T::WHAT))
            .spawn(move || {
                let t0 = Instant::now();
                // A build that panics is reported, not waited on for ever.
                let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    T::build_with_progress(
                        &world,
                        &owned,
                        &|f| job.progress.store(f.to_bits(), Ordering::Relaxed),
                        &|| job.stop.load(Ordering::Relaxed),
                    )
                }));
                match built {
                    Ok(t) => {
                        let ms = t0.elapsed().as_secs_f64() * 1e3;
                        let _ = job.done.set((Arc::new(t), ms));
                    }
                    Err(e) => {
                        let why = e
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_else(|| "the build stopped".into());
                        let _ = job.failed.set(format!("building the {}: {why}", T::WHAT));
                    }
                }
            });
        if spawned.is_err() {
            // No thread to be had: build here, as `get` would.
            let t0 = Instant::now();
            let t = T::build(space, params);
            let _ = pending
                .done
                .set((Arc::new(t), t0.elapsed().as_secs_f64() * 1e3));
        }
        self.entries.push(Entry {
            key,
            data: pending.clone(),
            revision: rev,
            info: PreparedInfo {
                algo,
                what: T::WHAT,
                ms: 0.0,
                bytes: 0,
                freshness: Freshness::Building(0.0),
                revision: rev,
            },
            patch: no_patch,
            refresh: Some(refresh_as::<T, S>),
            stop: Some(|data| {
                if let Some(p) = data.downcast_ref::<Pending<T>>() {
                    p.stop.store(true, Ordering::Relaxed);
                }
            }),
        });
        pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::{Connectivity, GridSpace, TerrainRule};

    /// Builds the number of cells, or panics on a world of one row.
    #[derive(Clone, Debug)]
    struct Cells(usize, u64);

    impl Prepared<GridSpace> for Cells {
        const WHAT: &'static str = "cell count";
        fn build(space: &GridSpace, _: &Params) -> Self {
            assert!(space.height() > 1, "one row");
            Cells(space.num_nodes(), space.revision())
        }
        fn revision(&self) -> u64 {
            self.1
        }
        fn bytes(&self) -> usize {
            16
        }
    }

    impl Background<GridSpace> for Cells {
        fn build_with_progress(
            space: &GridSpace,
            p: &Params,
            progress: &dyn Fn(f32),
            _: &dyn Fn() -> bool,
        ) -> Self {
            progress(0.5);
            Cells::build(space, p)
        }
    }

    #[test]
    fn a_background_build_is_shared_reported_and_its_panic_told() {
        let mut cache = PreparedCache::default();
        let p = Params::default();
        let world = GridSpace::from_rows(&["...", "..."], Connectivity::Eight, TerrainRule::Class);
        let a = cache.background::<Cells, _>("cells", &world, &p);
        let b = cache.background::<Cells, _>("cells", &world, &p);
        assert!(Arc::ptr_eq(&a, &b), "one build for one key");
        assert_eq!(a.wait().unwrap().0, 6);
        let info = cache.info("cells").unwrap();
        assert_eq!((info.freshness, info.bytes), (Freshness::Built, 16));
        let row = GridSpace::from_rows(&["..."], Connectivity::Eight, TerrainRule::Class);
        let bad = cache.background::<Cells, _>("cells", &row, &p);
        let why = bad.wait().unwrap_err();
        assert!(
            why.contains("cell count") && why.contains("one row"),
            "{why}"
        );
        // The statistics say so too, rather than "being built" for ever.
        let info = cache
            .infos()
            .find(|i| i.revision == row.revision())
            .unwrap();
        assert_eq!(info.freshness, Freshness::Failed(why));
    }
}

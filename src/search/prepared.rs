//! Prepared data: structures built once per world and shared by every query on it (a jump table
//! now; hierarchies and connecting-path tables next), kept in a cache keyed by algorithm, build
//! parameters and the world's revision. After an edit an entry is patched where its type knows
//! how, or marked stale and rebuilt by the next query that asks for it; either way the cache
//! says which, so the app and the command line can.

use super::params::Params;
use crate::space::{NodeId, Space};
use std::any::Any;
use std::sync::Arc;
use web_time::Instant;

/// A structure built once per world for an algorithm's queries. Kept in flat arrays behind an
/// `Arc`, so threads (and, for the GPU's, buffers) read it as it is.
pub trait Prepared<S: Space>: Clone + Send + Sync + 'static {
    /// What it is, in statistics ("jump table").
    const WHAT: &'static str;

    /// The parameters it is built from, as text: entries with other values are other entries
    /// (none by default: queries' own parameters, like the heuristic, share one).
    fn build_key(params: &Params) -> String {
        let _ = params;
        String::new()
    }

    /// Builds it for `space` as it is now.
    fn build(space: &S, params: &Params) -> Self;

    /// Brings it up to date with `space` after the nodes `changed` changed (their cells, not
    /// their neighbours); returns a note on what was redone, or `None` where it cannot patch
    /// (it is then rebuilt).
    fn patch(&mut self, space: &S, changed: &[NodeId]) -> Option<String> {
        let _ = (space, changed);
        None
    }

    /// Why it could not be built, where its build ends in a named failure it keeps (a
    /// hierarchy whose partition failed); `None` for a usable one.
    fn failure(&self) -> Option<&str> {
        None
    }

    /// The revision of the space it describes ([`Space::revision`]).
    fn revision(&self) -> u64;

    /// Bytes held.
    fn bytes(&self) -> usize;
}

/// Where a cache entry stands against the world.
#[derive(Clone, Debug, PartialEq)]
pub enum Freshness {
    /// Built for the world as it is.
    Built,
    /// Patched after an edit: what was redone.
    Patched(String),
    /// The world changed and it could not be patched: the next query rebuilds it.
    Stale,
    /// Being built on a thread of its own: the fraction done.
    Building(f32),
    /// Its build ended without a usable result: why.
    Failed(String),
}

/// What the statistics show about one prepared structure.
#[derive(Clone, Debug, PartialEq)]
pub struct PreparedInfo {
    /// The algorithm it serves.
    pub algo: &'static str,
    /// What it is.
    pub what: &'static str,
    /// Time of its last build or patch, in milliseconds.
    pub ms: f64,
    /// Bytes held.
    pub bytes: usize,
    pub freshness: Freshness,
    /// The revision of the world it describes now.
    pub revision: u64,
}

pub(super) type Patcher =
    fn(&mut Arc<dyn Any + Send + Sync>, &dyn Any, &[NodeId]) -> Option<String>;

/// Brings an entry's statistics up to date with its data (one built on a thread).
pub(super) type Refresher = fn(&Arc<dyn Any + Send + Sync>, &mut PreparedInfo);

pub(super) struct Entry {
    pub(super) key: String,
    pub(super) data: Arc<dyn Any + Send + Sync>,
    pub(super) revision: u64,
    pub(super) info: PreparedInfo,
    pub(super) patch: Patcher,
    pub(super) refresh: Option<Refresher>,
    /// Tells a build still running on a thread that the world it is for changed.
    pub(super) stop: Option<fn(&Arc<dyn Any + Send + Sync>)>,
}

/// Prepared structures by algorithm, parameters and world revision.
#[derive(Default)]
pub struct PreparedCache {
    pub(super) entries: Vec<Entry>,
}

impl std::fmt::Debug for PreparedCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|e| &e.info))
            .finish()
    }
}

fn patch_as<S: Space + 'static, T: Prepared<S>>(
    data: &mut Arc<dyn Any + Send + Sync>,
    space: &dyn Any,
    changed: &[NodeId],
) -> Option<String> {
    let space = space.downcast_ref::<S>()?;
    let mut t: T = data.downcast_ref::<T>()?.clone();
    let note = t.patch(space, changed)?;
    *data = Arc::new(t);
    Some(note)
}

impl PreparedCache {
    /// The `T` for `algo` with `params` on `space` as it is now: the cached one, or one built
    /// now (and kept).
    pub fn get<T: Prepared<S>, S: Space + 'static>(
        &mut self,
        algo: &'static str,
        space: &S,
        params: &Params,
    ) -> Arc<T> {
        let key = format!("{algo} {}", T::build_key(params));
        let rev = space.revision();
        if let Some(e) = self
            .entries
            .iter()
            .find(|e| e.key == key && e.revision == rev)
        {
            if let Ok(t) = e.data.clone().downcast::<T>() {
                if rev != 0 {
                    return t;
                }
            }
        }
        self.make_room(&key, rev);
        let t0 = Instant::now();
        let t = Arc::new(T::build(space, params));
        let info = PreparedInfo {
            algo,
            what: T::WHAT,
            ms: t0.elapsed().as_secs_f64() * 1e3,
            bytes: t.bytes(),
            freshness: t
                .failure()
                .map_or(Freshness::Built, |why| Freshness::Failed(why.into())),
            revision: rev,
        };
        self.entries.push(Entry {
            key,
            data: t.clone(),
            revision: rev,
            info,
            patch: patch_as::<S, T>,
            refresh: None,
            stop: None,
        });
        t
    }

    /// Drops the entry `key` of revision `rev`, and the oldest entry past the number kept.
    pub(super) fn make_room(&mut self, key: &str, rev: u64) {
        // Several worlds (a view's own world, other documents) keep an entry each; the oldest
        // goes past this many.
        const KEEP: usize = 8;
        self.entries
            .retain(|e| !(e.key == key && e.revision == rev));
        if self.entries.len() >= KEEP {
            // A stale entry goes first, else the oldest.
            let stale = self
                .entries
                .iter()
                .position(|e| e.info.freshness == Freshness::Stale);
            self.entries.remove(stale.unwrap_or(0));
        }
    }

    /// The world changed at `changed` and is now `space`: every entry built on the revision
    /// before is patched, or marked stale where it cannot be. Entries of other worlds are
    /// left alone.
    pub fn world_changed<S: Space + 'static>(
        &mut self,
        before: u64,
        space: &S,
        changed: &[NodeId],
    ) {
        for e in self.entries.iter_mut().filter(|e| e.revision == before) {
            let t0 = Instant::now();
            match (e.patch)(&mut e.data, space, changed) {
                Some(note) => {
                    e.revision = space.revision();
                    e.info.revision = e.revision;
                    e.info.ms = t0.elapsed().as_secs_f64() * 1e3;
                    e.info.freshness = Freshness::Patched(note);
                }
                None => {
                    e.info.freshness = Freshness::Stale;
                    if let Some(stop) = e.stop {
                        stop(&e.data);
                    }
                }
            }
        }
    }

    /// The world of revision `before` changed all over: what was built for it is stale.
    pub fn mark_stale(&mut self, before: u64) {
        for e in self.entries.iter_mut().filter(|e| e.revision == before) {
            e.info.freshness = Freshness::Stale;
            if let Some(stop) = e.stop {
                stop(&e.data);
            }
        }
    }

    /// What is held, in the order it was built (what is being built, with its progress).
    pub fn infos(&self) -> impl Iterator<Item = PreparedInfo> + '_ {
        self.entries.iter().map(|e| {
            let mut info = e.info.clone();
            if let Some(refresh) = e.refresh {
                if info.freshness != Freshness::Stale {
                    refresh(&e.data, &mut info);
                }
            }
            info
        })
    }

    /// What is held for `algo`.
    pub fn info(&self, algo: &str) -> Option<PreparedInfo> {
        self.infos().find(|i| i.algo == algo)
    }
}

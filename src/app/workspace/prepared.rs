//! What algorithms prepare once per world (JPS+'s jump table, JPS's bit rows), kept for every
//! run of the app: a view added, a run restarted after an edit and the timing thread all take
//! the same data, and an edit patches it (or marks it stale) instead of every run rebuilding it.

use crate::search::params::Params;
use crate::search::prepared::{Freshness, PreparedCache, PreparedInfo};
use crate::search::registry::{AlgoInfo, Family};
use crate::search::Query;
use crate::space::NodeId;
use crate::world::{AnySearch, AnySpace, SpaceFn};
use std::sync::{Mutex, MutexGuard};

/// One cache for the process: entries are keyed by the world's revision, which no two
/// different worlds share, so several documents (and the app tests) never see each other's.
static CACHE: Mutex<Option<PreparedCache>> = Mutex::new(None);

fn cache() -> MutexGuard<'static, Option<PreparedCache>> {
    // A panic while holding it left nothing half-written that matters: take it anyway.
    CACHE.lock().unwrap_or_else(|e| e.into_inner())
}

/// `info` with `params` on `space`, its prepared data from the cache.
pub fn build(
    info: &AlgoInfo,
    params: &Params,
    space: &AnySpace,
    q: Query,
) -> Result<AnySearch, String> {
    let mut c = cache();
    AnySearch::build_cached(
        info,
        params,
        space,
        q,
        c.get_or_insert_with(Default::default),
    )
}

struct Changed<'a> {
    before: u64,
    nodes: &'a [NodeId],
    cache: &'a mut PreparedCache,
}

impl SpaceFn for Changed<'_> {
    type Out = ();
    fn call<S: Family>(self, s: &S) {
        self.cache.world_changed(self.before, s, self.nodes);
    }
}

/// The world that was revision `before` is now `space`, changed at `nodes` (`None`: all over):
/// what was prepared for it is patched, or marked stale. Returns a line saying which, if any.
pub fn world_changed(before: u64, space: &AnySpace, nodes: Option<&[NodeId]>) -> Option<String> {
    let mut guard = cache();
    let c = guard.as_mut()?;
    match nodes {
        Some(nodes) => space.with(Changed {
            before,
            nodes,
            cache: c,
        }),
        None => c.mark_stale(before),
    }
    let notes: Vec<String> = c
        .infos()
        .filter(|i| i.revision == space.revision() || i.revision == before)
        .map(|i| describe(&i))
        .collect();
    (!notes.is_empty()).then(|| notes.join("; "))
}

/// What is held for the algorithms named on the world of revision `revision`, for the
/// statistics.
pub fn infos(algos: &[&str], revision: u64) -> Vec<PreparedInfo> {
    let guard = cache();
    let Some(c) = guard.as_ref() else {
        return vec![];
    };
    c.infos()
        .filter(|i| algos.contains(&i.algo) && i.revision == revision)
        .collect()
}

/// One line about a prepared structure: what it is, its size, and how it stands.
pub fn describe(i: &PreparedInfo) -> String {
    let size = if i.bytes >= 1 << 20 {
        format!("{:.1} MiB", i.bytes as f64 / (1 << 20) as f64)
    } else {
        format!("{:.0} KiB", i.bytes as f64 / 1024.0)
    };
    match &i.freshness {
        Freshness::Built => format!("{} {}: {size}, built in {:.1} ms", i.algo, i.what, i.ms),
        Freshness::Patched(what) => format!(
            "{} {}: {size}, patched after the edit ({what}) in {:.2} ms",
            i.algo, i.what, i.ms
        ),
        Freshness::Building(f) => format!(
            "{} {}: being built in the background, {:.0}% done",
            i.algo,
            i.what,
            100.0 * f
        ),
        Freshness::Stale => format!(
            "{} {}: stale after the edit, rebuilt by the next run",
            i.algo, i.what
        ),
        Freshness::Failed(why) => format!("{} {}: not built ({why})", i.algo, i.what),
    }
}

/// The abstraction a hierarchical run searches, for its overlay.
pub enum Abstraction {
    /// A navmesh hierarchy (its levels, and the top level's graph).
    Navmesh(std::sync::Arc<crate::hier::search::PreparedHierarchy>),
    /// HPA*'s clusters over a grid.
    Clusters(std::sync::Arc<crate::hier::hpa::Hpa>),
}

/// The abstraction `choice` prepared on `space`, once built (its build starts if the cache
/// lost it), or none where the world is not one hierarchies run on.
pub fn abstraction(
    choice: &crate::app::choice::AlgoChoice,
    space: &AnySpace,
) -> Option<Abstraction> {
    let params = Params::resolve(choice.info.params, &choice.values).ok()?;
    let mut guard = cache();
    let c = guard.get_or_insert_with(Default::default);
    if let Some(mesh) = space.as_navmesh() {
        let pending = c.background(choice.info.name, mesh, &params);
        return pending.get().map(Abstraction::Navmesh);
    }
    let grid = space.as_square()?;
    c.background(choice.info.name, grid, &params)
        .get()
        .map(Abstraction::Clusters)
}

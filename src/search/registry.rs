//! The words the list of algorithms is written in: an algorithm's description ([`AlgoInfo`]:
//! names, parameters, guarantee, what it needs of a world, what views draw for it), its
//! constructors per world family ([`Makers`]), and building one on a space. The list itself
//! is `algorithms` at the crate's root, above every module whose searches it names.

use super::params::{ParamSpec, Params};
use super::prepared::PreparedCache;
use super::{DynSearch, Query};
use crate::space::{Heuristic, Space};

pub use super::algo_traits::{Estimate, Group, Guarantee, Needs, Overlay};

/// Builds the search for one kind of space, taking what it prepares once per world from the
/// cache; refused (with the reason) where the world lacks what the algorithm needs.
pub type Maker<S> =
    fn(&S, Query, &Params, &mut PreparedCache) -> Result<Box<dyn DynSearch<S>>, String>;

/// A space type the registry builds algorithms for.
pub trait Family: Space + Sized + 'static {
    /// The family's name in messages ("square grids").
    const NAME: &'static str;
    /// This family's constructor among an algorithm's.
    fn maker(m: &Makers) -> Option<Maker<Self>>;
}

/// Generates [`Makers`] and the [`Family`] impls from the family list
/// ([`crate::for_each_family`]).
macro_rules! declare_makers {
    (; $($v:ident $({ $($pf:ident : $pt:ty),* })? / $f:ident : $world:ty => $space:ty, $name:literal, $title:literal;)*) => {
        /// An algorithm's constructors, one per world family it runs on (a field per line of
        /// the family list). A generic algorithm fills every field through `generic!`; one
        /// that runs on some families names those and takes `..Makers::NONE` for the rest.
        #[derive(Clone, Copy)]
        pub struct Makers {
            $(pub $f: Option<Maker<$space>>,)*
        }

        impl Makers {
            /// No family.
            pub const NONE: Makers = Makers { $($f: None,)* };
        }

        $(impl Family for $space {
            const NAME: &'static str = $title;
            fn maker(m: &Makers) -> Option<Maker<Self>> {
                m.$f
            }
        })*
    };
}

crate::for_each_family!(declare_makers);

/// One registered algorithm.
#[derive(Clone, Copy)]
pub struct AlgoInfo {
    /// Name on the command line and in files.
    pub name: &'static str,
    /// Name in the GUI.
    pub title: &'static str,
    /// One line for tooltips and `--help`.
    pub summary: &'static str,
    pub params: &'static [ParamSpec],
    pub guarantee: Guarantee,
    /// The family of methods it belongs to, for menus that group them.
    pub group: Group,
    /// Its constructor on each world family it runs on.
    pub makers: Makers,
    /// What views draw over the map for it, beside the search's nodes.
    pub overlays: &'static [Overlay],
    /// What it needs of a world; the registry refuses it elsewhere, with one line.
    pub needs: Needs,
    /// Names of its phases (a `Phase` event's number indexes them; the last one repeats).
    pub phases: &'static [&'static str],
    /// What its h estimates, for the inspector.
    pub estimate: Estimate,
}

impl AlgoInfo {
    /// Whether its views draw this overlay.
    pub fn draws(&self, o: Overlay) -> bool {
        self.overlays.contains(&o)
    }
}

impl std::fmt::Debug for AlgoInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlgoInfo")
            .field("name", &self.name)
            .finish()
    }
}

/// What a view playing back a trace file shows in place of an algorithm (never listed among
/// the algorithms: it is built from the file, not from parameters).
pub static TRACE: AlgoInfo = AlgoInfo {
    name: "trace",
    title: "Trace",
    summary: "a search trace read from a file (Posthoc's format), played back step by step",
    params: &[],
    guarantee: Guarantee::Valid,
    group: Group::Classic,
    makers: Makers::NONE,
    overlays: &[],
    needs: Needs::NONE,
    phases: &[],
    estimate: Estimate::None,
};

/// Builds `info` with checked `params` on `space`: refused where the algorithm does not run on
/// the family, or its heuristic does not fit the world (octile on hexes overestimates).
pub fn build_with<S: Family>(
    info: &AlgoInfo,
    params: &Params,
    space: &S,
    query: Query,
) -> Result<Box<dyn DynSearch<S>>, String> {
    build_cached(info, params, space, query, &mut PreparedCache::default())
}

/// [`build_with`], taking prepared data from `cache` (and leaving what it builds there).
pub fn build_cached<S: Family>(
    info: &AlgoInfo,
    params: &Params,
    space: &S,
    query: Query,
    cache: &mut PreparedCache,
) -> Result<Box<dyn DynSearch<S>>, String> {
    let make = S::maker(&info.makers)
        .ok_or_else(|| format!("{} does not run on {}", info.name, S::NAME))?;
    if let Some(why) = info.needs.refusal(info.name, space) {
        return Err(why);
    }
    if info.params.iter().any(|p| p.name == "heuristic") {
        let h = params.heuristic();
        let fits = space.heuristics();
        if !fits.contains(&h) {
            let names: Vec<&str> = fits.iter().map(|h| h.name()).collect();
            return Err(format!(
                "{}: heuristic `{}` does not fit {} (choose from {})",
                info.name,
                h.name(),
                S::NAME,
                names.join(", ")
            ));
        }
    }
    make(space, query, params, cache)
}
/// The heuristic names that fit `space`, for menus ([`Heuristic::Native`] first).
pub fn heuristic_names<S: Space>(space: &S) -> Vec<&'static str> {
    space
        .heuristics()
        .iter()
        .map(|h: &Heuristic| h.name())
        .collect()
}

//! What the list knows of each world family before a world is built: which families an
//! algorithm accepts, and why it refuses one.

use crate::search::registry::{AlgoInfo, Family};
use crate::space::SpaceKind;

/// Generates [`AlgoInfo::spaces`] from the family list ([`crate::for_each_family`]).
macro_rules! declare_spaces {
    (; $($v:ident $({ $($pf:ident : $pt:ty),* })? / $f:ident : $world:ty => $space:ty, $name:literal, $title:literal;)*) => {
        impl AlgoInfo {
            /// The world families this algorithm accepts: those it has a constructor for,
            /// less those whose edges are always directed where it needs them undirected,
            /// that have no line of sight where it needs it, or that number their nodes anew
            /// after an edit where it repairs what it knows.
            pub fn spaces(&self) -> Vec<SpaceKind> {
                let mut v = vec![];
                $(if self.makers.$f.is_some()
                    && !(self.needs.undirected && <$world as crate::world::WorldFamily>::DIRECTED)
                    && !(self.needs.sight && <$world as crate::world::WorldFamily>::SIGHTLESS)
                    && !(self.needs.stable_ids && <$world as crate::world::WorldFamily>::RENUMBERS)
                {
                    v.push(SpaceKind::$v);
                })*
                v
            }
        }
    };
}

crate::for_each_family!(declare_spaces);

/// Why `info` cannot run on any world of family `W`, known before one is built (a suite is
/// loaded): no constructor for it, or its edges or sight are not what the algorithm needs.
pub fn family_refusal<W: crate::world::WorldFamily>(info: &AlgoInfo) -> Option<String> {
    let title = <W::Space as Family>::NAME;
    if <W::Space as Family>::maker(&info.makers).is_none() {
        return Some(format!("{} does not run on {title}", info.name));
    }
    if info.needs.undirected && W::DIRECTED {
        return Some(format!(
            "{} needs undirected edges; the edges of {title} are directed",
            info.name
        ));
    }
    if info.needs.stable_ids && W::RENUMBERS {
        return Some(format!(
            "{} needs node ids that survive edits; {title} number their nodes anew after each edit (use astar)",
            info.name
        ));
    }
    if info.needs.sight && W::SIGHTLESS {
        return Some(format!(
            "{} needs line of sight between nodes; {title} have none (use astar)",
            info.name
        ));
    }
    None
}

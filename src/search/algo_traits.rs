//! What the registry says of each algorithm beside its constructors: its promise about paths,
//! what it needs of a world, what its views draw, what its h estimates, its menu group.

use crate::space::Space;

/// What an algorithm promises about the paths it returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guarantee {
    /// Lowest cost, given an admissible heuristic.
    Optimal,
    /// At most the named parameter times the lowest cost, given an admissible heuristic.
    BoundedBy(&'static str),
    /// Fewest moves (BFS): a valid path, optimal only when every move costs the same.
    FewestMoves,
    /// A valid path, no bound.
    Valid,
    /// Any-angle: straight segments between cells with line of sight, not restricted to the
    /// grid's moves; no bound, usually shorter than the grid's optimum.
    AnyAngle,
}

/// What an algorithm's h is an estimate of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Estimate {
    /// No heuristic (Dijkstra, breadth-first).
    None,
    /// The cost to the goal, by its `heuristic` parameter.
    ToGoal,
    /// The cost to the start: the search runs backwards (D* Lite and the searches on it).
    ToStart,
    /// A heuristic of its own in each plan: what a node's f holds beyond its g (the GPS's
    /// counter heuristic over the map as known then).
    PlanCounter,
}

/// What an algorithm needs of the world it runs on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// Edges that can be walked both ways at one cost (searches that walk edges backwards or
    /// repair around changes: D* Lite, AD*, RTD*).
    pub undirected: bool,
    /// No terrain costs: every move costs its length (jump point search).
    pub uniform_costs: bool,
    /// Node ids that survive edits (searches that repair what they know after a change).
    pub stable_ids: bool,
    /// Line of sight between nodes (the any-angle searches).
    pub sight: bool,
    /// Arrays over every node of the world (ARA*): refused on worlds of more nodes than the
    /// segmented tables start at (a vehicle lattice of a large map).
    pub dense: bool,
}

impl Needs {
    /// Nothing beyond a graph.
    pub const NONE: Needs = Needs {
        undirected: false,
        uniform_costs: false,
        stable_ids: false,
        sight: false,
        dense: false,
    };

    /// What searches that repair after a change need: edges both ways, ids that stay.
    pub const REPAIRS: Needs = Needs {
        undirected: true,
        uniform_costs: false,
        stable_ids: true,
        sight: false,
        dense: false,
    };

    /// What jump point search needs: every move costs its length.
    pub const UNIFORM: Needs = Needs {
        undirected: false,
        uniform_costs: true,
        stable_ids: false,
        sight: false,
        dense: false,
    };

    /// What the any-angle searches need: straight segments between nodes to check.
    pub const SIGHT: Needs = Needs {
        undirected: false,
        uniform_costs: false,
        stable_ids: false,
        sight: true,
        dense: false,
    };

    /// Why `algo` cannot run on `space`, if it cannot.
    pub fn refusal<S: Space>(self, algo: &str, space: &S) -> Option<String> {
        if self.undirected && space.directed() {
            return Some(format!(
                "{algo} needs undirected edges; this world's edges are directed"
            ));
        }
        if self.stable_ids && !space.stable_ids() {
            return Some(format!(
                "{algo} needs node ids that survive edits; this world renumbers its nodes when it changes"
            ));
        }
        if self.sight && !space.has_line_of_sight() {
            return Some(format!(
                "{algo} needs line of sight between nodes; this world has no segments to check (use astar)"
            ));
        }
        if self.dense && space.num_nodes() > super::best_first::SEGMENTED_ABOVE {
            return Some(format!(
                "{algo} keeps arrays over every node; this world has {} nodes, more than {} (use astar)",
                space.num_nodes(),
                super::best_first::SEGMENTED_ABOVE
            ));
        }
        if self.uniform_costs && !space.uniform_costs() {
            return Some(format!(
                "{algo} needs uniform costs; this map has terrain costs (use astar)"
            ));
        }
        None
    }
}

/// Drawings an algorithm's runs carry beyond open, closed and path: views find them here, not by
/// the algorithm's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// Line-of-sight checks (the any-angle searches).
    LineOfSight,
    /// Jumps and jump points (jump point search).
    Jumps,
    /// A walking agent's legs, choices and cone (the GPS of the brain).
    Walk,
    /// A hierarchy's nodes, inter-edges, intra-edges and a query's temporary edges.
    Hierarchy,
    /// The corners a search on cell corners reached (Field D*), in their open and closed
    /// colours, and its path through them.
    Corners,
}

/// Families of methods, in the order menus list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Best-first and breadth-first searches over the graph's edges.
    Classic,
    /// Paths of straight segments between nodes in sight of each other.
    AnyAngle,
    /// Searches that repair or refine their answer as the world or the time budget changes.
    Dynamic,
    /// Walks that model a person's knowledge of the map.
    HumanLike,
    /// Searches on an abstraction of the world built once per world (hierarchies).
    Hierarchical,
}

impl Group {
    pub const ALL: [Group; 5] = [
        Group::Classic,
        Group::AnyAngle,
        Group::Dynamic,
        Group::HumanLike,
        Group::Hierarchical,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Group::Classic => "Best-first and breadth-first",
            Group::AnyAngle => "Any-angle",
            Group::Dynamic => "Incremental, anytime and real-time",
            Group::HumanLike => "Human-like",
            Group::Hierarchical => "Hierarchical",
        }
    }
}

//! Crowds (Rahmani 2020, ch. 4): batches of agents, each planning its own path on one map with
//! no conflict constraints, on the CPU (rayon over agents, one search state per thread); the
//! paths summed into heatmaps of traffic and expansions per cell.
//!
//! Methods: grid A* (the thesis's multi-agent A* baseline), the navmesh hierarchy with PCCP
//! (MA-HNA* on the CPU) and flow fields for agents that share a goal (one integration field per
//! goal, every agent following it downhill). Flow fields work in the fixed-point costs of
//! [`twin`], the same numbers the GPU kernel computes, so the two backends' fields, costs and
//! traffic are identical.

pub mod batch;
mod count;
pub mod cpu;
mod digits;
pub mod grow;
pub mod heat;
mod raster;
pub mod tally;
pub mod twin;
pub mod twin_astar;
pub mod twin_hna;

pub use batch::{Agent, Batch, BatchError};
pub use cpu::{plan, Outcome};
pub use heat::{Heat, Scale};

use crate::hier::hna::Hierarchy;
use crate::map::Grid;
use crate::space::{GridSpace, NavmeshSpace, TerrainRule};

/// How each agent plans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// A* on the square grid, octile heuristic.
    Astar,
    /// HNA* on the navmesh with pre-calculated connecting paths (MA-HNA*'s PCCP variant).
    Pccp,
    /// A flow field per distinct goal.
    Flow,
}

impl Method {
    pub const ALL: [Method; 3] = [Method::Astar, Method::Pccp, Method::Flow];

    /// The name the command line and the CSV use.
    pub fn name(self) -> &'static str {
        match self {
            Method::Astar => "astar",
            Method::Pccp => "pccp",
            Method::Flow => "flow",
        }
    }

    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// Goals past which a flow-field batch says why it is slow.
pub const MANY_FLOW_GOALS: usize = 64;

/// Why a flow-field batch of `batch` will be slow, in one line, or `None`: a field is a search
/// of the whole map, built once per distinct goal, so agents with goals of their own each pay
/// for a whole field where A* searches only towards its goal. Shared goals are the fix.
pub fn flow_goals_note(batch: &Batch) -> Option<String> {
    let goals = distinct_goals(batch);
    (goals > MANY_FLOW_GOALS).then(|| {
        format!(
            "flow fields: {} agents have {goals} different goals, so {goals} fields are built, \
             each a search of the whole map; shared goals (--goals K, or \"shared goals\" in the \
             window) build K",
            batch.agents.len()
        )
    })
}

fn distinct_goals(batch: &Batch) -> usize {
    let mut goals: Vec<_> = batch.agents.iter().map(|a| a.goal).collect();
    goals.sort_unstable();
    goals.dedup();
    goals.len()
}

/// The map a crowd walks, with what its methods need prepared: the square grid always, and the
/// navmesh with its hierarchy (μ, levels, PCCP) for [`Method::Pccp`].
pub struct World {
    pub grid: GridSpace,
    /// The grid's fixed-point move costs (flow fields, and every GPU kernel).
    pub fixed: twin::FixedGrid,
    pub mesh: Option<NavmeshSpace>,
    pub hierarchy: Option<Hierarchy>,
}

/// The hierarchy the thesis's multi-agent runs use when none is asked for: μ = 10, 2 levels.
pub const MU: usize = 10;
pub const LEVELS: usize = 2;

impl World {
    /// The grid of `map` (8-connected, no corner cutting), with the hierarchy built when
    /// `methods` include PCCP.
    pub fn new(
        map: &Grid,
        methods: &[Method],
        mu: usize,
        levels: usize,
        progress: &dyn Fn(&str, f64),
    ) -> Result<World, String> {
        let grid = GridSpace::octile(map);
        let (mesh, hierarchy) = if methods.contains(&Method::Pccp) {
            let mesh = NavmeshSpace::new(map, TerrainRule::Class);
            let h = Hierarchy::build(&mesh, mu, levels, true, progress)?;
            (Some(mesh), Some(h))
        } else {
            (None, None)
        };
        Ok(World {
            fixed: twin::FixedGrid::of(&grid),
            grid,
            mesh,
            hierarchy,
        })
    }
}

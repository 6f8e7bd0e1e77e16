//! A car (Schnieders 2014): its physics and actions ([`model`]) and the least time it needs
//! between two poses ([`heuristic`]). Pure geometry and physics over a square map, below the
//! spaces: the vehicle lattice (`space`) is built from it, and the planner (`vehicle`) searches
//! with it.

pub mod heuristic;
pub mod model;

pub use heuristic::{Estimate, Heuristic, TimeModel, Words};
pub use model::{Discretisation, Model, Pose, Vehicle};

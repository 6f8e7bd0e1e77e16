//! Vehicles (Schnieders 2014, AIPATH): planning in a car's own state space (x, y, heading,
//! speed) with time as the cost, so that every path found can be driven: the physics and the
//! actions and the heuristic (in [`crate::car`]), the probe and A* ([`search`]) and a
//! checker that replays a path through the physics ([`check`]).

pub mod check;
pub mod registered;
pub mod search;
pub mod states;

// The car itself sits below the spaces (`crate::car`); the planner here searches with it.
pub use crate::car::{heuristic, model};
pub use crate::car::{Discretisation, Estimate, Heuristic, Model, Pose, TimeModel, Vehicle, Words};
pub use search::{Arrival, Goal, Keys, Phase, Planner};

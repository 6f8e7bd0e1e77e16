//! Vehicles (Schnieders 2014, AIPATH): planning in a car's own state space (x, y, heading,
//! speed) with time as the cost, so that every path found can be driven: the physics and the
//! actions ([`model`]), the heuristic ([`heuristic`]), the probe and A* ([`search`]) and a
//! checker that replays a path through the physics ([`check`]).

pub mod check;
pub mod heuristic;
pub mod model;
pub mod registered;
pub mod search;
pub mod states;

pub use heuristic::{Estimate, Heuristic, TimeModel, Words};
pub use model::{Discretisation, Model, Pose, Vehicle};
pub use search::{Arrival, Goal, Keys, Phase, Planner};

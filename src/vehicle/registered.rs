//! AIPATH as a registered search of the vehicle lattice family (`aipath`): the planner of
//! [`super::Planner`], one exact pose per node, run between two lattice nodes, so the main
//! views, the timeline, `solve` and `trace` step it as any other search. Its events name the
//! planner's nodes by the lattice node of their key (a key and a lattice node are the same
//! cell, heading bin and speed bin); its path is its arrivals' nodes. A path of exact poses is
//! not a chain of lattice edges: each action starts where the last one really ended, not at a
//! node's centre.

use super::{Goal, Heuristic, Planner, Pose};
use crate::search::params::{ParamKind, ParamSpec, Params};
use crate::search::{Query, Search, SearchState, Stats, Status};
use crate::space::{NodeId, VehicleSpace};
use crate::trace::{Event, EventKind, Tracer, NONE};

/// AIPATH between two nodes of a vehicle lattice.
pub struct Aipath {
    planner: Planner,
    query: Query,
    params: Settings,
    path: Option<Vec<NodeId>>,
    /// The planner's events of one step, before their nodes are named as the lattice's.
    buffer: Vec<Event>,
}

#[derive(Clone, Copy)]
struct Settings {
    probe: bool,
    walls: bool,
    cap: u64,
}

/// Collects a step's events.
struct Collect<'a>(&'a mut Vec<Event>);

impl Tracer for Collect<'_> {
    const ENABLED: bool = true;
    fn event(&mut self, e: Event) {
        self.0.push(e);
    }
}

impl Aipath {
    /// Registry parameters.
    pub const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "probe",
            help: "run the greedy probe (Algorithm 6) first and seed A* with its nodes (Algorithm 1); off: A* alone",
            kind: ParamKind::Choice(&["off", "on"]),
            default: 1.0,
            min: 0.0,
            max: 1.0,
        },
        ParamSpec {
            name: "walls",
            help: "also bound the estimate by the time to drive around the map's walls at top speed (pathlab's; the thesis's estimate sees no obstacles)",
            kind: ParamKind::Choice(&["off", "on"]),
            default: 1.0,
            min: 0.0,
            max: 1.0,
        },
        ParamSpec {
            name: "cap",
            help: "iterations before the search gives up and ends without a path (the thesis: 100,000)",
            kind: ParamKind::Int,
            default: 100_000.0,
            min: 100.0,
            max: 2_000_000.0,
        },
    ];

    pub fn from_params(space: &VehicleSpace, query: Query, p: &Params) -> Aipath {
        let params = Settings {
            probe: p.get("probe") == 1.0,
            walls: p.get("walls") == 1.0,
            cap: p.get("cap") as u64,
        };
        Aipath {
            planner: planner(space, query, params),
            query,
            params,
            path: None,
            buffer: vec![],
        }
    }

    /// The planner inside (its exact poses, for views that draw them).
    pub fn planner(&self) -> &Planner {
        &self.planner
    }

    /// The lattice node of planner node `n`: the node of its key, the query's goal for the
    /// goal node.
    fn node(&self, space: &VehicleSpace, n: u32) -> u32 {
        if n == NONE {
            return NONE;
        }
        match self.planner.key(n).map(|k| self.planner.keys.parts(k)) {
            Some(Some((x, y, h, v))) => {
                let on = |c: i64| u32::try_from(c).ok();
                match (on(x), on(y)) {
                    (Some(x), Some(y)) => space.node(x, y, h, v).unwrap_or(NONE),
                    _ => NONE,
                }
            }
            Some(None) => self.query.goal,
            None => NONE,
        }
    }
}

/// The planner from `query.start`'s pose to one near `query.goal`'s: within half a cell of its
/// centre, one heading step and one speed step (the Vehicle planner window's tolerance on
/// small maps; half steps, the goal's own bins, left A* at its cap on the built-in map). A goal
/// at rest is met slow enough to brake to a halt within one more cell (v² ≤ 2·d·cell): every
/// action drives a whole cell, so an exact pose almost never arrives within a step of 0, and
/// the path's cost leaves out that last braking (at most v/d).
fn planner(space: &VehicleSpace, query: Query, s: Settings) -> Planner {
    let model = space.model().clone();
    let (heading, speed) = space.steps();
    let goal = Goal {
        pose: space.pose(query.goal),
        within: 0.5 * model.grid.cell,
        heading: heading.to_radians(),
        speed: if space.pose(query.goal).v == 0.0 {
            (2.0 * model.vehicle.decel * model.grid.cell).sqrt()
        } else {
            speed
        },
    };
    let start: Pose = space.pose(query.start);
    let mut p = Planner::new(model, Heuristic::SOUND, start, goal, s.probe);
    if s.walls {
        p = p.around_walls();
    }
    p.set_cap(s.cap);
    p
}

impl SearchState for Aipath {
    fn status(&self) -> Status {
        self.planner.status()
    }
    fn path(&self) -> Option<&[NodeId]> {
        self.path.as_deref()
    }
    fn cost(&self) -> Option<f64> {
        self.planner.cost()
    }
    fn stats(&self) -> Stats {
        self.planner.stats
    }
    fn open_len(&self) -> usize {
        self.planner.open_len()
    }
    /// The planner numbers its own nodes; a lattice node's g is not kept apart.
    fn g(&self, _n: NodeId) -> Option<f64> {
        None
    }
}

impl Search<VehicleSpace> for Aipath {
    fn reset(&mut self, space: &VehicleSpace, query: Query) {
        self.planner = planner(space, query, self.params);
        self.query = query;
        self.path = None;
    }

    fn step<T: Tracer>(&mut self, space: &VehicleSpace, tracer: &mut T) -> Status {
        let mut buffer = std::mem::take(&mut self.buffer);
        buffer.clear();
        let status = if T::ENABLED {
            self.planner.step(&mut Collect(&mut buffer))
        } else {
            self.planner.step(&mut crate::trace::NullTracer)
        };
        for e in &buffer {
            let mut e = *e;
            if e.kind != EventKind::Phase {
                e.node = self.node(space, e.node);
            }
            e.other = self.node(space, e.other);
            tracer.event(e);
        }
        self.buffer = buffer;
        if status == Status::Found && self.path.is_none() {
            let path = self.planner.path().unwrap_or_default();
            self.path = Some(path.iter().map(|a| self.node(space, a.key)).collect());
        }
        status
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::Space;
    use crate::vehicle::Vehicle;

    #[test]
    fn events_name_lattice_nodes_and_the_path_ends_at_the_goal_node() {
        let map = crate::map::Grid::from_rows(&[
            "................",
            "................",
            "................",
            "................",
            "................",
            "................",
        ]);
        let space = VehicleSpace::new(&map, Vehicle::ROBOT, 10.0, 0.5);
        let q = Query {
            start: space.node(1, 2, 0, 1).unwrap(),
            goal: space.node(13, 3, 0, 1).unwrap(),
        };
        let p = Params::resolve(Aipath::PARAMS, &Default::default()).unwrap();
        let mut s = Aipath::from_params(&space, q, &p);
        let mut events = vec![];
        assert_eq!(s.run(&space, &mut Collect(&mut events)), Status::Found);
        let path = s.path().unwrap();
        assert_eq!(path.first(), Some(&q.start));
        assert_eq!(path.last(), Some(&q.goal));
        for e in events.iter().filter(|e| e.kind != EventKind::Phase) {
            assert!(
                e.node == NONE || (e.node as usize) < space.num_nodes(),
                "{e:?}"
            );
        }
        let expands = events
            .iter()
            .filter(|e| e.kind == EventKind::Expand)
            .count();
        assert_eq!(expands as u64, s.stats().expanded);
        // The path's poses are the car's: it replays through the physics.
        crate::vehicle::check::drivable(&s.planner().model, &s.planner().path().unwrap()).unwrap();
    }
}

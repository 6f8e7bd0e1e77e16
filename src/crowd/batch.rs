//! Agent batches: who starts where and goes where. Agents plan independently (no conflict
//! constraints, as in Rahmani 2020 ch. 4), so a batch is only a list of start and goal cells.
//!
//! Random draws pick from reachable pairs only: a start among the cells whose connected part of
//! the map holds another cell, and a goal in the same part, so every agent has a path and a
//! missing one is a fault of the method, never of the draw.

use crate::map::io::Problem;
use crate::space::{GridSpace, NodeId, Space};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One agent: its start and goal cells (node ids of the square grid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agent {
    pub start: NodeId,
    pub goal: NodeId,
}

/// A batch of agents and where they came from (shown beside its results).
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    pub agents: Vec<Agent>,
    pub source: String,
}

/// Why a batch could not be made.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum BatchError {
    #[error("the map has no two connected open cells: no agent can move")]
    NoRoom,
    #[error("{file}:{line}: the problem is for a {w}×{h} map; the map is {mw}×{mh}")]
    WrongMap {
        file: String,
        line: usize,
        w: u32,
        h: u32,
        mw: u32,
        mh: u32,
    },
    #[error("{file}:{line}: cell ({x}, {y}) is blocked or outside the map")]
    Blocked {
        file: String,
        line: usize,
        x: u32,
        y: u32,
    },
    #[error("{0}: the scenario holds no problem")]
    Empty(String),
}

/// The connected parts of a grid: a label per cell (`u32::MAX` on blocked cells) and each
/// part's cells, listed part by part.
pub struct Parts {
    pub label: Vec<u32>,
    /// Cells of part `p`: `cells[first[p]..first[p + 1]]`.
    pub first: Vec<u32>,
    pub cells: Vec<NodeId>,
}

impl Parts {
    /// Labels the parts by breadth-first search over the grid's moves.
    pub fn of(space: &GridSpace) -> Parts {
        let n = space.num_nodes();
        let mut label = vec![u32::MAX; n];
        let mut first = vec![0u32];
        let mut cells = Vec::new();
        for s in 0..n as NodeId {
            if label[s as usize] != u32::MAX || !space.is_passable(s) {
                continue;
            }
            let part = first.len() as u32 - 1;
            label[s as usize] = part;
            let begin = cells.len();
            cells.push(s);
            let mut i = begin;
            while i < cells.len() {
                let c = cells[i];
                i += 1;
                space.for_each_neighbour(c, |m, _| {
                    if label[m as usize] == u32::MAX {
                        label[m as usize] = part;
                        cells.push(m);
                    }
                });
            }
            first.push(cells.len() as u32);
        }
        Parts {
            label,
            first,
            cells,
        }
    }

    /// The cells of the part holding `cell`.
    pub fn part_of(&self, cell: NodeId) -> &[NodeId] {
        let p = self.label[cell as usize] as usize;
        &self.cells[self.first[p] as usize..self.first[p + 1] as usize]
    }

    /// The cells that lie in a part of two or more: the possible starts.
    fn movable(&self) -> Vec<NodeId> {
        (0..self.first.len() - 1)
            .filter(|&p| self.first[p + 1] - self.first[p] >= 2)
            .flat_map(|p| self.cells[self.first[p] as usize..self.first[p + 1] as usize].to_vec())
            .collect()
    }
}

impl Batch {
    /// `n` agents, each with a start drawn uniformly from the cells that can reach another
    /// cell (no two agents on one start while the map has room) and a different goal drawn
    /// uniformly from the cells its start reaches.
    pub fn random(space: &GridSpace, n: usize, seed: u64) -> Result<Batch, BatchError> {
        let parts = Parts::of(space);
        let starts = parts.movable();
        if starts.is_empty() {
            return Err(BatchError::NoRoom);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Distinct starts while the map has room for them, then with repeats.
        let distinct = if n <= starts.len() {
            rand::seq::index::sample(&mut rng, starts.len(), n).into_vec()
        } else {
            vec![]
        };
        let agents = (0..n)
            .map(|i| {
                let start = match distinct.get(i) {
                    Some(&k) => starts[k],
                    None => starts[rng.random_range(0..starts.len())],
                };
                let part = parts.part_of(start);
                let goal = loop {
                    let g = part[rng.random_range(0..part.len())];
                    if g != start {
                        break g;
                    }
                };
                Agent { start, goal }
            })
            .collect();
        Ok(Batch {
            agents,
            source: format!("{n} random agents, seed {seed}"),
        })
    }

    /// `n` agents sharing `k` goals (drawn first, distinct where the map allows), each agent a
    /// random start that reaches its goal: the crowd a flow field serves.
    pub fn shared_goals(
        space: &GridSpace,
        n: usize,
        k: usize,
        seed: u64,
    ) -> Result<Batch, BatchError> {
        let parts = Parts::of(space);
        let movable = parts.movable();
        if movable.is_empty() || k == 0 {
            return Err(BatchError::NoRoom);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut goals: Vec<NodeId> = Vec::with_capacity(k);
        while goals.len() < k.min(movable.len()) {
            let g = movable[rng.random_range(0..movable.len())];
            if !goals.contains(&g) {
                goals.push(g);
            }
        }
        let agents = (0..n)
            .map(|i| {
                let goal = goals[i % goals.len()];
                let part = parts.part_of(goal);
                let start = loop {
                    let s = part[rng.random_range(0..part.len())];
                    if s != goal {
                        break s;
                    }
                };
                Agent { start, goal }
            })
            .collect();
        Ok(Batch {
            agents,
            source: format!("{n} agents to {} shared goals, seed {seed}", goals.len()),
        })
    }

    /// One agent per problem of a scenario (`file` names it in errors): the MAPF benchmark's
    /// agents, planned independently.
    pub fn from_problems(
        space: &GridSpace,
        problems: &[Problem],
        file: &str,
    ) -> Result<Batch, BatchError> {
        if problems.is_empty() {
            return Err(BatchError::Empty(file.to_string()));
        }
        let (mw, mh) = (space.width(), space.height());
        let agents = problems
            .iter()
            .map(|p| {
                if (p.map_width, p.map_height) != (mw, mh) {
                    return Err(BatchError::WrongMap {
                        file: file.to_string(),
                        line: p.line,
                        w: p.map_width,
                        h: p.map_height,
                        mw,
                        mh,
                    });
                }
                let cell = |(x, y): (u32, u32)| {
                    space
                        .node(x, y)
                        .filter(|&n| space.is_passable(n))
                        .ok_or(BatchError::Blocked {
                            file: file.to_string(),
                            line: p.line,
                            x,
                            y,
                        })
                };
                Ok(Agent {
                    start: cell(p.start)?,
                    goal: cell(p.goal)?,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Batch {
            source: format!("{} agents of {file}", agents.len()),
            agents,
        })
    }

    /// `n` agents with starts drawn in one rectangle of cells and goals in another (as painted
    /// in the app; corners inclusive, in any order), each goal reachable from its start.
    pub fn areas(
        space: &GridSpace,
        n: usize,
        from: [(u32, u32); 2],
        to: [(u32, u32); 2],
        seed: u64,
    ) -> Result<Batch, BatchError> {
        let parts = Parts::of(space);
        let cells_in = |r: [(u32, u32); 2]| -> Vec<NodeId> {
            let (x0, x1) = (r[0].0.min(r[1].0), r[0].0.max(r[1].0));
            let (y0, y1) = (r[0].1.min(r[1].1), r[0].1.max(r[1].1));
            (y0..=y1.min(space.height().saturating_sub(1)))
                .flat_map(|y| (x0..=x1.min(space.width().saturating_sub(1))).map(move |x| (x, y)))
                .filter_map(|(x, y)| space.node(x, y))
                .filter(|&c| space.is_passable(c))
                .collect()
        };
        let goals = cells_in(to);
        // Only starts with some goal in their part.
        let starts: Vec<NodeId> = cells_in(from)
            .into_iter()
            .filter(|&s| {
                goals
                    .iter()
                    .any(|&g| g != s && parts.label[g as usize] == parts.label[s as usize])
            })
            .collect();
        if starts.is_empty() {
            return Err(BatchError::NoRoom);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let agents = (0..n)
            .map(|_| {
                let start = starts[rng.random_range(0..starts.len())];
                let reach: Vec<NodeId> = goals
                    .iter()
                    .copied()
                    .filter(|&g| {
                        g != start && parts.label[g as usize] == parts.label[start as usize]
                    })
                    .collect();
                Agent {
                    start,
                    goal: reach[rng.random_range(0..reach.len())],
                }
            })
            .collect();
        Ok(Batch {
            agents,
            source: format!("{n} agents between two painted areas, seed {seed}"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_rooms() -> GridSpace {
        // Two open parts split by a wall, and a lone cell walled in.
        let text = "type octile\nheight 4\nwidth 7\nmap\n...@...\n...@...\n...@@@@\n...@.@@\n";
        let grid = crate::map::io::parse_map(text, std::path::Path::new("t.map")).unwrap();
        GridSpace::octile(&grid)
    }

    #[test]
    fn random_agents_reach_their_goals_and_repeat_with_the_seed() {
        let s = two_rooms();
        let parts = Parts::of(&s);
        let a = Batch::random(&s, 500, 7).unwrap();
        assert_eq!(a.agents.len(), 500);
        let few = Batch::random(&s, 15, 7).unwrap();
        let starts: std::collections::BTreeSet<_> = few.agents.iter().map(|a| a.start).collect();
        assert_eq!(starts.len(), 15, "distinct while the 18 open cells allow");
        for ag in &a.agents {
            assert_ne!(ag.start, ag.goal);
            assert_eq!(
                parts.label[ag.start as usize],
                parts.label[ag.goal as usize]
            );
            // The walled-in cell (4, 3) is a part of one: never drawn.
            assert_ne!(ag.start, s.node(4, 3).unwrap());
        }
        assert_eq!(a, Batch::random(&s, 500, 7).unwrap());
        assert_ne!(a.agents, Batch::random(&s, 500, 8).unwrap().agents);
    }

    #[test]
    fn shared_goals_and_areas_keep_to_their_cells() {
        let s = two_rooms();
        let b = Batch::shared_goals(&s, 30, 3, 1).unwrap();
        let goals: std::collections::BTreeSet<_> = b.agents.iter().map(|a| a.goal).collect();
        assert_eq!(goals.len(), 3);
        let c = Batch::areas(&s, 20, [(0, 0), (1, 1)], [(2, 3), (0, 2)], 3).unwrap();
        for a in &c.agents {
            let ((sx, sy), (gx, gy)) = (s.xy(a.start), s.xy(a.goal));
            assert!(sx <= 1 && sy <= 1 && gx <= 2 && gy >= 2);
        }
        assert_eq!(
            Batch::areas(&s, 5, [(0, 0), (1, 1)], [(5, 0), (6, 1)], 3),
            Err(BatchError::NoRoom)
        );
    }

    #[test]
    fn a_scenario_names_its_bad_line() {
        let s = two_rooms();
        let p = |line, start| Problem {
            bucket: 0,
            map: "t.map".into(),
            map_width: 7,
            map_height: 4,
            start,
            goal: (0, 0),
            optimal: 1.0,
            tolerance: 1e-4,
            line,
        };
        let ok = Batch::from_problems(&s, &[p(2, (1, 1))], "t.scen").unwrap();
        assert_eq!(ok.agents[0].start, s.node(1, 1).unwrap());
        let e = Batch::from_problems(&s, &[p(2, (1, 1)), p(3, (3, 0))], "t.scen").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.scen:3: cell (3, 0) is blocked or outside the map"
        );
    }
}

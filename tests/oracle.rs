//! Every registered algorithm against a plain Dijkstra written here from scratch, on 1,000 seeded
//! random worlds: optimal algorithms must match its cost, weighted A* must stay within its bound,
//! BFS must find a fewest-moves path, greedy a valid one, and all must agree when there is no path.

use crate::support;
use pathlab::algorithms;
use pathlab::map::{Cell, Grid};
use pathlab::search::registry::{self, Guarantee};
use pathlab::search::{path_cost, Query, Status};
use pathlab::space::{
    CellWorld, Connectivity, GridSpace, Heuristic, HexOrientation, HexSpace, NodeId, Space,
    TerrainRule,
};
use pathlab::trace::{EventKind, Recorder};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use support::random_map;

#[derive(PartialEq)]
struct Item(f64, NodeId);
impl Eq for Item {}
impl PartialOrd for Item {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Item {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0)
    }
}

/// Textbook Dijkstra over the space's edges: the oracle.
fn oracle_cost<S: Space>(space: &S, s: NodeId, t: NodeId) -> Option<f64> {
    let mut dist = vec![f64::INFINITY; space.num_nodes()];
    let mut heap = BinaryHeap::new();
    dist[s as usize] = 0.0;
    heap.push(Item(0.0, s));
    while let Some(Item(d, n)) = heap.pop() {
        if n == t {
            return Some(d);
        }
        if d > dist[n as usize] {
            continue;
        }
        space.for_each_neighbour(n, |m, c| {
            if d + c < dist[m as usize] {
                dist[m as usize] = d + c;
                heap.push(Item(d + c, m));
            }
        });
    }
    None
}

/// Fewest moves from s to t (plain BFS).
fn oracle_moves<S: Space>(space: &S, s: NodeId, t: NodeId) -> Option<usize> {
    let mut depth = vec![usize::MAX; space.num_nodes()];
    let mut q = VecDeque::from([s]);
    depth[s as usize] = 0;
    while let Some(n) = q.pop_front() {
        if n == t {
            return Some(depth[n as usize]);
        }
        space.for_each_neighbour(n, |m, _| {
            if depth[m as usize] == usize::MAX {
                depth[m as usize] = depth[n as usize] + 1;
                q.push_back(m);
            }
        });
    }
    None
}

fn random_world(rng: &mut ChaCha8Rng) -> Grid {
    random_map(rng, 2..28, |r| r.random_range(1..5) as f32 * 0.5 + 0.5)
}

/// A random hex world: flat on even `world`s, pointy on odd ones, pitch 1, 1.5 or 3.
fn random_hex_world(rng: &mut ChaCha8Rng, world: usize) -> (HexSpace, HexOrientation, f64) {
    let grid = random_world(rng);
    let o = if world.is_multiple_of(2) {
        HexOrientation::Flat
    } else {
        HexOrientation::Pointy
    };
    let pitch = [1.0, 1.5, 3.0][rng.random_range(0..3)];
    (HexSpace::new(&grid, o, pitch, TerrainRule::Class), o, pitch)
}

fn random_passable<S: Space>(rng: &mut ChaCha8Rng, s: &S) -> Option<NodeId> {
    let free: Vec<NodeId> = (0..s.num_nodes() as NodeId)
        .filter(|&n| s.is_passable(n))
        .collect();
    (!free.is_empty()).then(|| free[rng.random_range(0..free.len())])
}

/// A start and a goal on passable cells, if the world has any.
fn random_query<S: Space>(rng: &mut ChaCha8Rng, s: &S) -> Option<Query> {
    Some(Query {
        start: random_passable(rng, s)?,
        goal: random_passable(rng, s)?,
    })
}

/// Every registered algorithm on `space` from `q.start` to `q.goal` against the oracles:
/// optimal ones equal Dijkstra's cost, bounded ones within their bound (a random weight from
/// `rng`), BFS fewest moves, the rest valid; each path's ends, edges and reported cost checked;
/// all agree when there is no path. Returns the runs checked, and whether the goal was
/// unreachable.
fn check_every_algorithm<S: registry::Family>(
    space: &S,
    q: Query,
    rng: &mut ChaCha8Rng,
    world: &str,
) -> (usize, bool) {
    let (s, t) = (q.start, q.goal);
    let best = oracle_cost(space, s, t);
    let moves = oracle_moves(space, s, t);
    let mut checked = 0;
    // Any-angle searches leave the grid's edges: tests/any_angle.rs checks them.
    // (and only those of this world: the GPS planner walks hexes only).
    for info in algorithms::all()
        .iter()
        .filter(|i| i.guarantee != Guarantee::AnyAngle && S::maker(&i.makers).is_some())
    {
        let weight = 1.0 + rng.random_range(0..5) as f64 * 0.5;
        let spec = match info.guarantee {
            Guarantee::BoundedBy(p) => format!("{}:{p}={weight}", info.name),
            _ => info.name.to_string(),
        };
        // Refused where the world lacks what it needs (JPS: 8 moves, uniform costs).
        let mut search = match algorithms::build(&spec, space, q) {
            Ok(s) => s,
            Err(why) if why.contains(" needs ") => continue,
            Err(why) => panic!("{why}"),
        };
        let status = search.run_null(space);
        let ctx = format!("{world}, {spec}");
        let Some(opt) = best else {
            assert_eq!(status, Status::NoPath, "{ctx}: the oracle finds no path");
            continue;
        };
        assert_eq!(
            status,
            Status::Found,
            "{ctx}: the oracle finds a path of cost {opt}"
        );
        let path = search.path().unwrap();
        assert_eq!((path[0], *path.last().unwrap()), (s, t), "{ctx}: path ends");
        let walked = path_cost(space, path).unwrap_or_else(|| panic!("{ctx}: path has a non-edge"));
        let cost = search.cost().unwrap();
        assert!(
            (walked - cost).abs() < 1e-9,
            "{ctx}: reported {cost}, walked {walked}"
        );
        match info.guarantee {
            Guarantee::Optimal => assert!(
                (cost - opt).abs() < 1e-6,
                "{ctx}: cost {cost}, optimal {opt}"
            ),
            Guarantee::BoundedBy(_) => assert!(
                cost <= weight * opt + 1e-6,
                "{ctx}: cost {cost} > {weight} × {opt}"
            ),
            Guarantee::FewestMoves => {
                assert_eq!(Some(path.len() - 1), moves, "{ctx}: not fewest moves")
            }
            Guarantee::Valid => assert!(cost >= opt - 1e-6, "{ctx}: cheaper than optimal?"),
            Guarantee::AnyAngle => unreachable!("filtered out above"),
        }
        checked += 1;
    }
    (checked, best.is_none())
}

#[test]
fn every_algorithm_agrees_with_the_oracle_on_1000_random_worlds() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut checked = 0;
    let mut no_path = 0;
    for world in 0..1000 {
        let grid = random_world(&mut rng);
        let conn = if rng.random_bool(0.25) {
            Connectivity::Four
        } else {
            Connectivity::Eight
        };
        let rule = if rng.random_bool(0.2) {
            TerrainRule::GroundOnly
        } else {
            TerrainRule::Class
        };
        let space = GridSpace::new(&grid, conn, rule);
        let Some(q) = random_query(&mut rng, &space) else {
            continue;
        };
        let ctx = format!(
            "world {world}, {conn:?} {rule:?}, {:?} -> {:?}",
            space.xy(q.start),
            space.xy(q.goal)
        );
        let (n, unreachable) = check_every_algorithm(&space, q, &mut rng, &ctx);
        checked += n;
        no_path += unreachable as usize;
    }
    assert!(checked > 3000, "only {checked} runs checked");
    assert!(
        no_path > 10,
        "the worlds should include unreachable goals too ({no_path})"
    );
}

#[test]
fn a_wall_across_the_map_means_no_path() {
    let grid = Grid::from_rows(&["..@..", "..@..", "..@.."]);
    let space = GridSpace::octile(&grid);
    let q = Query {
        start: space.node(0, 1).unwrap(),
        goal: space.node(4, 1).unwrap(),
    };
    for info in algorithms::all()
        .iter()
        .filter(|i| i.makers.square.is_some())
    {
        let mut s = algorithms::build_grid(info.name, &space, q).unwrap();
        assert_eq!(s.run_null(&space), Status::NoPath, "{}", info.name);
    }
}

/// Stepping one expansion at a time (the app) and running to the end in one call (the CLI and
/// benchmarks) are the same search: same events in the same order, same answer.
#[test]
fn stepping_and_running_record_the_same_events() {
    use pathlab::trace::Recorder;
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut compared = 0;
    for _ in 0..200 {
        let grid = random_world(&mut rng);
        let space = GridSpace::new(&grid, Connectivity::Eight, TerrainRule::Class);
        let Some(q) = random_query(&mut rng, &space) else {
            continue;
        };
        for info in algorithms::all()
            .iter()
            .filter(|i| i.makers.square.is_some())
        {
            let mut whole = Recorder::new(space.num_nodes());
            let Ok(mut a) = algorithms::build_grid(info.name, &space, q) else {
                // Refused on this world (JPS on terrain costs): checked where it runs.
                continue;
            };
            let end = a.run_record(&space, &mut whole);
            let mut stepped = Recorder::new(space.num_nodes());
            let mut b = algorithms::build_grid(info.name, &space, q).unwrap();
            while b.step_record(&space, &mut stepped) == Status::Running {}
            let name = info.name;
            assert_eq!(b.status(), end, "{name}");
            assert_eq!(b.cost(), a.cost(), "{name}");
            assert_eq!(b.stats().expanded, a.stats().expanded, "{name}");
            // Bit patterns, so that the NaN values of marker events compare equal.
            let bits = |r: &Recorder| -> Vec<_> {
                r.iter()
                    .map(|e| (e.kind, e.node, e.other, e.a.to_bits(), e.b.to_bits()))
                    .collect()
            };
            assert_eq!(bits(&whole), bits(&stepped), "{name}: events differ");
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// A* runs a loop of its own for each heuristic it knows at compile time (octile) and one for
/// the rest; every heuristic that is consistent on the world must give the oracle's cost.
#[test]
fn astar_with_every_consistent_heuristic_matches_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut checked = 0;
    for world in 0..300 {
        let grid = random_world(&mut rng);
        let conn = if world % 3 == 0 {
            Connectivity::Four
        } else {
            Connectivity::Eight
        };
        let space = GridSpace::new(&grid, conn, TerrainRule::Class);
        let Some(q) = random_query(&mut rng, &space) else {
            continue;
        };
        let best = oracle_cost(&space, q.start, q.goal);
        // Manhattan overestimates diagonal moves, so it is consistent on 4-connected grids only.
        let heuristics: &[&str] = match conn {
            Connectivity::Four => &["octile", "manhattan", "euclidean", "zero"],
            Connectivity::Eight => &["octile", "euclidean", "zero"],
        };
        for name in heuristics {
            let spec = format!("astar:heuristic={name}");
            let mut search = algorithms::build_grid(&spec, &space, q).unwrap();
            let mut rec = Recorder::new(space.num_nodes());
            let status = search.run_record(&space, &mut rec);
            // Every expansion's f is g plus this heuristic, not another one.
            let h = Heuristic::from_name(name).unwrap();
            for e in (0..rec.len()).filter_map(|i| rec.get(i)) {
                if e.kind == EventKind::Expand {
                    let want = space.heuristic(h, e.node, q.goal) as f32;
                    let got = e.b - e.a;
                    assert!(
                        (got - want).abs() <= 1e-3 * (1.0 + e.b.abs()),
                        "world {world}, {spec}: node {} expanded with h {got}, want {want}",
                        e.node
                    );
                }
            }
            match best {
                None => assert_eq!(status, Status::NoPath, "world {world}, {spec}"),
                Some(opt) => {
                    let cost = search.cost().unwrap_or(f64::NAN);
                    assert!(
                        (cost - opt).abs() < 1e-6,
                        "world {world}, {spec}, {conn:?}: cost {cost}, optimal {opt}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 600, "only {checked} runs checked");
}

/// Hex worlds: every algorithm of the registry, built through the same entry as on squares,
/// against the oracle on 1,000 random hex worlds of both orientations, with terrain classes,
/// terrain costs and pitches other than 1.
#[test]
fn every_algorithm_agrees_with_the_oracle_on_1000_random_hex_worlds() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let (mut checked, mut no_path) = (0, 0);
    for world in 0..1000 {
        let (space, o, pitch) = random_hex_world(&mut rng, world);
        let Some(q) = random_query(&mut rng, &space) else {
            continue;
        };
        // Every algorithm but the jump searches and Field D* (squares only), the hierarchies
        // (navmeshes and squares) and the car planner (vehicle lattices) runs on hexes.
        assert!(algorithms::all()
            .iter()
            .filter(|i| !i.name.starts_with("jps")
                && i.name != "aipath"
                && i.name != "field-dstar"
                && i.group != registry::Group::Hierarchical)
            .all(|i| i.spaces().contains(&pathlab::space::SpaceKind::Hex)));
        let ctx = format!("hex world {world}, {o:?} pitch {pitch}, {q:?}");
        let (n, unreachable) = check_every_algorithm(&space, q, &mut rng, &ctx);
        checked += n;
        no_path += unreachable as usize;
    }
    assert!(checked > 3000, "only {checked} runs checked");
    assert!(no_path > 10, "unreachable goals too ({no_path})");
}

/// The square metrics would overestimate on hexes: the registry refuses them there, and every
/// heuristic it accepts gives the oracle's cost.
#[test]
fn hex_worlds_take_only_their_own_heuristics() {
    let grid = Grid::new(9, 9, Cell::FREE);
    let space = HexSpace::new(&grid, HexOrientation::Pointy, 2.0, TerrainRule::Class);
    let q = Query { start: 0, goal: 80 };
    for h in ["octile", "manhattan"] {
        let e = algorithms::build(&format!("astar:heuristic={h}"), &space, q)
            .err()
            .unwrap();
        assert!(e.contains("does not fit hex grids"), "{e}");
    }
    let opt = oracle_cost(&space, q.start, q.goal).unwrap();
    for h in ["native", "hex", "euclidean", "zero"] {
        let mut s = algorithms::build(&format!("astar:heuristic={h}"), &space, q).unwrap();
        s.run_null(&space);
        assert!((s.cost().unwrap() - opt).abs() < 1e-9, "{h}");
    }
    // Hex distance is exact on an open map: A* expands the path's nodes and nothing else (the
    // goal's expansion included), where Euclidean h strays.
    let mut s = algorithms::build("astar", &space, q).unwrap();
    s.run_null(&space);
    assert_eq!(s.stats().expanded as usize, s.path().unwrap().len());
    let mut e = algorithms::build("astar:heuristic=euclidean", &space, q).unwrap();
    e.run_null(&space);
    assert!(e.stats().expanded > s.stats().expanded);
}

/// D* Lite and AD* repair on hex worlds as on squares: over 300 random change tapes, every
/// repaired plan costs what A* from scratch finds (AD* within its ε).
#[test]
fn incremental_repairs_on_hex_worlds_match_search_from_scratch_on_300_tapes() {
    let mut rng = ChaCha8Rng::seed_from_u64(300);
    let mut repairs = 0;
    for tape in 0..300 {
        let mut grid = random_world(&mut rng);
        let o = if tape % 2 == 0 {
            HexOrientation::Flat
        } else {
            HexOrientation::Pointy
        };
        let mut space = HexSpace::new(&grid, o, 1.0, TerrainRule::Class);
        let Some(q) = random_query(&mut rng, &space) else {
            continue;
        };
        let eps = 2.0;
        let mut searches = [
            algorithms::build("dstar-lite", &space, q).unwrap(),
            algorithms::build(&format!("ad-star:epsilon={eps}"), &space, q).unwrap(),
        ];
        for s in &mut searches {
            s.run_null(&space);
        }
        for round in 0..6 {
            // Toggle a few cells, never the start or the goal.
            let mut cells = vec![];
            for _ in 0..rng.random_range(1..6) {
                let (x, y) = (
                    rng.random_range(0..grid.width()),
                    rng.random_range(0..grid.height()),
                );
                let n = space.node(x, y).unwrap();
                if n == q.start || n == q.goal {
                    continue;
                }
                let now = grid.get(x, y).unwrap();
                let tile = if now.tile == b'@' { b'.' } else { b'@' };
                grid.set(x, y, Cell { tile, ..now });
                cells.push((x, y));
            }
            let around = space.apply_cells(&grid, &cells);
            let opt = oracle_cost(&space, q.start, q.goal);
            for (i, s) in searches.iter_mut().enumerate() {
                let mut rec = Recorder::new(space.num_nodes());
                assert!(s.repair_record(&space, &around, &mut rec), "repairs");
                s.run_null(&space);
                let ctx = format!("tape {tape} round {round} search {i}");
                match opt {
                    None => assert_eq!(s.status(), Status::NoPath, "{ctx}"),
                    Some(opt) => {
                        let cost = s.cost().unwrap_or(f64::NAN);
                        let bound = if i == 0 { 1.0 } else { eps };
                        assert!(
                            cost >= opt - 1e-6 && cost <= bound * opt + 1e-6,
                            "{ctx}: {cost} vs optimal {opt}"
                        );
                        let walked = path_cost(&space, s.path().unwrap()).unwrap();
                        assert!((walked - cost).abs() < 1e-6, "{ctx}");
                        repairs += 1;
                    }
                }
            }
        }
    }
    assert!(repairs > 2000, "only {repairs} repairs checked");
}

/// Rahmani 2020's equivalence claim: with every counter at C_max the counter heuristic adds
/// the same λ everywhere, so A* with it finds the optimal length; against the oracle on 1,000
/// random hex worlds (terrain classes and costs, both orientations, three pitches, C_max 1 to
/// 11).
#[test]
fn the_counter_a_star_with_every_counter_at_c_max_is_optimal_on_1000_hex_worlds() {
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let (mut checked, mut none) = (0, 0);
    for world in 0..1000 {
        let (mut space, _, _) = random_hex_world(&mut rng, world);
        let Some(q) = random_query(&mut rng, &space) else {
            continue;
        };
        let c_max = rng.random_range(1..12);
        let mut map = pathlab::space::CognitiveMap::new(space.num_nodes(), c_max);
        map.counters.iter_mut().for_each(|c| *c = c_max);
        space.set_knowledge(Some(std::sync::Arc::new(map)));
        let mut a = algorithms::build("astar:heuristic=counter", &space, q).unwrap();
        a.run_null(&space);
        match (a.cost(), oracle_cost(&space, q.start, q.goal)) {
            (None, None) => none += 1,
            (Some(c), Some(opt)) => {
                assert!((c - opt).abs() < 1e-6, "world {world}: {c} vs {opt}");
                let path = a.path().unwrap();
                assert_eq!(path_cost(&space, path), Some(c), "world {world}");
                checked += 1;
            }
            (c, opt) => panic!("world {world}: counter A* {c:?}, oracle {opt:?}"),
        }
    }
    assert!(
        checked > 800 && none > 5,
        "{checked} paths, {none} unreachable"
    );
}

//! Jump point search against A* on random maps, stepping against running, refusals, and JPS+'s
//! patched table against one rebuilt from scratch.

use pathlab::algorithms;
use pathlab::map::{Cell, Grid};
use pathlab::search::jps::{refusal, Jps, JpsPlus, JumpTable};
use pathlab::search::params::Params;
use pathlab::search::prepared::{Prepared, PreparedCache};
use pathlab::search::{path_cost, AStar, DynSearch, Query, Search, SearchState, Status};
use pathlab::space::{Connectivity, GridSpace, Heuristic, Space, TerrainRule};
use pathlab::trace::{EventKind, NullTracer, Recorder};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

fn random_grid(rng: &mut ChaCha8Rng, w: u32, h: u32, density: f64, water: bool) -> Grid {
    let mut g = Grid::new(w, h, Cell::FREE);
    for y in 0..h {
        for x in 0..w {
            let r: f64 = rng.random();
            if r < density {
                g.set(x, y, Cell::WALL);
            } else if water && r < density * 1.5 {
                g.set(x, y, Cell::tile(b'W'));
            }
        }
    }
    g
}

fn astar_cost(space: &GridSpace, q: Query) -> Option<f64> {
    let mut a = AStar::new(space, q, Heuristic::Octile);
    a.run(space, &mut NullTracer);
    a.cost()
}

/// Both jump searches find A*'s cost, their paths are cell by cell with that cost, and a run
/// stepped with a recorder ends where the unrecorded run does.
#[test]
fn jps_and_jps_plus_match_astar_on_random_maps() {
    let mut rng = ChaCha8Rng::seed_from_u64(30);
    let p = Params::default();
    for round in 0..300 {
        let (w, h) = (rng.random_range(1..70), rng.random_range(1..70));
        let density = [0.0, 0.1, 0.25, 0.4][round % 4];
        let grid = random_grid(&mut rng, w, h, density, round % 5 == 0);
        let space = GridSpace::new(&grid, Connectivity::Eight, TerrainRule::Class);
        let mut cache = PreparedCache::default();
        let q0 = Query { start: 0, goal: 0 };
        let mut jps = Jps::<false>::from_cache(&space, q0, &p, &mut cache);
        let mut plus = JpsPlus::plus_from_cache(&space, q0, &p, &mut cache);
        for _ in 0..20 {
            let n = space.num_nodes() as u32;
            let q = Query {
                start: rng.random_range(0..n),
                goal: rng.random_range(0..n),
            };
            let want = astar_cost(&space, q);
            for (name, s) in [
                ("jps", &mut jps as &mut dyn DynSearch<GridSpace>),
                ("jps-plus", &mut plus),
            ] {
                s.reset(&space, q);
                s.run_null(&space);
                let got = s.cost();
                match (want, got) {
                    (None, None) => {}
                    (Some(a), Some(b)) => {
                        assert!(
                            (a - b).abs() < 1e-9,
                            "{name} round {round} {q:?}: {b} vs {a}"
                        );
                        let path = s.path().unwrap().to_vec();
                        assert_eq!(path.first(), Some(&q.start));
                        assert_eq!(path.last(), Some(&q.goal));
                        let c = path_cost(&space, &path).expect("cells adjacent");
                        assert!((c - a).abs() < 1e-9, "{name}: path costs {c}, not {a}");
                    }
                    _ => panic!("{name} round {round} {q:?}: {got:?} vs A*'s {want:?}"),
                }
                let mut rec = Recorder::new(space.num_nodes());
                s.reset(&space, q);
                while s.step_record(&space, &mut rec) == Status::Running {}
                assert_eq!(s.cost(), got, "{name}: stepped and run differ");
                if got.is_some() && q.start != q.goal {
                    assert!(rec.iter().any(|e| e.kind == EventKind::Jump));
                }
            }
        }
    }
}

#[test]
fn refused_on_four_connected_moves_and_terrain_costs() {
    let grid = Grid::new(8, 8, Cell::FREE);
    let four = GridSpace::new(&grid, Connectivity::Four, TerrainRule::Class);
    let why = refusal("jps", &four).expect("refused");
    assert!(why.contains("8-connected"), "{why}");
    let mut costly = Grid::new(8, 8, Cell::FREE);
    let mut costs = vec![1.0; 64];
    costs[9] = 3.0;
    costly.set_costs(costs).unwrap();
    let why = refusal("jps-plus", &GridSpace::octile(&costly)).expect("refused");
    assert!(why.contains("uniform costs"), "{why}");
    let q = Query { start: 0, goal: 63 };
    let why = algorithms::build("jps", &GridSpace::octile(&costly), q);
    assert!(why.err().is_some_and(|w| w.contains("uniform costs")));
    assert_eq!(refusal("jps", &GridSpace::octile(&grid)), None);
}

/// A search handed data of another revision rebuilds it rather than search a stale world.
#[test]
fn stale_prepared_data_is_never_searched() {
    let mut grid = Grid::new(10, 3, Cell::FREE);
    let space = GridSpace::octile(&grid);
    let q = Query {
        start: 10,
        goal: 19,
    };
    let mut plus = JpsPlus::plus(&space, q, &Params::default(), {
        Arc::new(JumpTable::build(&space, &Params::default()))
    });
    for y in 0..3 {
        grid.set(5, y, Cell::WALL);
    }
    let mut walled = space.clone();
    walled.update(&grid, None);
    Search::reset(&mut plus, &walled, q);
    plus.run(&walled, &mut NullTracer);
    assert_eq!(plus.status(), Status::NoPath);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, .. ProptestConfig::default() })]

    /// After any sequence of edits, the patched table equals one built from scratch.
    #[test]
    fn patched_table_equals_rebuilt(
        seed in any::<u64>(),
        w in 1u32..24,
        h in 1u32..24,
        edits in proptest::collection::vec((any::<u16>(), any::<u16>(), 0u8..3), 1..8),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut grid = random_grid(&mut rng, w, h, 0.3, seed % 3 == 0);
        let mut space = GridSpace::octile(&grid);
        let p = Params::default();
        let mut table = JumpTable::build(&space, &p);
        for (x, y, kind) in edits {
            let (x, y) = (x as u32 % w, y as u32 % h);
            let cell = [Cell::WALL, Cell::FREE, Cell::tile(b'W')][kind as usize];
            grid.set(x, y, cell);
            space.update_cells(&grid, &[(x, y)]);
            let n = space.node(x, y).unwrap();
            let rebuilt = JumpTable::build(&space, &p);
            // A terrain class the map did not have needs rows of its own: rebuilt, not patched.
            if table.patch(&space, &[n]).is_none() {
                prop_assert!(table.grid().classes() != rebuilt.grid().classes());
                table = rebuilt;
                continue;
            }
            prop_assert!(table == rebuilt, "patched differs after setting ({x}, {y})");
        }
    }
}

#[test]
fn jump_searches_are_refused_on_terrain_costs_by_the_registry() {
    let mut g = Grid::new(6, 6, Cell::FREE);
    let mut costs = vec![1.0; 36];
    costs[7] = 2.0;
    g.set_costs(costs).unwrap();
    let space = GridSpace::octile(&g);
    let q = Query { start: 0, goal: 35 };
    for name in ["jps", "jps-plus"] {
        let why = algorithms::build(name, &space, q).err().expect("refused");
        assert!(why.contains("uniform costs"), "{why}");
    }
    assert!(algorithms::build("astar", &space, q).is_ok());
}

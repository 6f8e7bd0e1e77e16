//! HNA* queries (Rahmani 2020 Algorithm 1) against oracles: on 1,000 seeded random maps with
//! one to three levels and μ from 2 to 6, every variant (sequential, rayon, PCCP) finds a path
//! exactly when grid A* does; each path is a chain of adjacent polygons from the start's to the
//! goal's, costs what its polygons cost and no less than Dijkstra's optimum, and its funnel
//! stays on walkable cells; stepped with a recorder it passes the four phases in order and ends
//! with the same path. On the 29 MovingAI maps every sampled problem is found and valid.

use crate::support;
use pathlab::algorithms;
use pathlab::hier::hna::Hierarchy;
use pathlab::hier::query::{Connect, HierQuery};
use pathlab::map::Grid;
use pathlab::search::{path_cost, Query, Status};
use pathlab::space::{Connectivity, GridSpace, NavmeshSpace, NodeId, Space, TerrainRule};
use pathlab::trace::{NullTracer, Recorder};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::{check_walkable, movingai_maps, random_map};

const VARIANTS: [Connect; 3] = [Connect::Sequential, Connect::Parallel, Connect::Pccp];

/// A path is a chain of adjacent polygons from `s` to `t`.
fn check_chain(mesh: &NavmeshSpace, path: &[NodeId], s: NodeId, t: NodeId, what: &str) {
    assert_eq!(path.first(), Some(&s), "{what}: starts elsewhere");
    assert_eq!(path.last(), Some(&t), "{what}: ends elsewhere");
    for w in path.windows(2) {
        assert!(
            mesh.portal(w[0], w[1]).is_some(),
            "{what}: {} and {} are not adjacent",
            w[0],
            w[1]
        );
    }
}

fn cell_of(g: &Grid, mesh: &NavmeshSpace, rng: &mut ChaCha8Rng) -> Option<(u32, u32)> {
    for _ in 0..50 {
        let (x, y) = (
            rng.random_range(0..g.width()),
            rng.random_range(0..g.height()),
        );
        if mesh.polygon_at(x, y).is_some() {
            return Some((x, y));
        }
    }
    None
}

#[test]
fn hna_finds_what_grid_astar_finds_on_1000_random_maps() {
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    let (mut found, mut queries, mut stepped) = (0, 0, 0);
    for map in 0..1000 {
        let g = random_map(&mut rng, 6..36, |r| r.random_range(1.0..4.0));
        let mesh = NavmeshSpace::new(&g, TerrainRule::Class);
        let squares = GridSpace::new(&g, Connectivity::Eight, TerrainRule::Class);
        if mesh.num_nodes() < 2 {
            continue;
        }
        let mu = rng.random_range(2..7);
        let levels = rng.random_range(1..4);
        let h = Hierarchy::build(&mesh, mu, levels, true, &|_, _| {}).unwrap();
        let mut qs: Vec<HierQuery> = VARIANTS.iter().map(|&c| h.query(&mesh, c)).collect();
        for _ in 0..4 {
            let (Some(a), Some(b)) = (cell_of(&g, &mesh, &mut rng), cell_of(&g, &mesh, &mut rng))
            else {
                continue;
            };
            let node = |c: (u32, u32)| squares.node(c.0, c.1).unwrap();
            let mut grid = algorithms::build(
                "astar",
                &squares,
                Query {
                    start: node(a),
                    goal: node(b),
                },
            )
            .unwrap();
            let reachable = grid.run_null(&squares) == Status::Found;
            let (s, t) = (
                mesh.polygon_at(a.0, a.1).unwrap(),
                mesh.polygon_at(b.0, b.1).unwrap(),
            );
            let mut dijkstra =
                algorithms::build("dijkstra", &mesh, Query { start: s, goal: t }).unwrap();
            dijkstra.run_null(&mesh);
            let optimum = dijkstra.cost();
            queries += 1;
            found += usize::from(reachable);
            let mut costs = vec![];
            for (q, c) in qs.iter_mut().zip(VARIANTS) {
                let what = format!("map {map} μ {mu} L{levels} {c:?} {a:?}→{b:?}");
                // From the polygons' centres, then from the cells themselves.
                for points in [[None, None], [Some(centre(a)), Some(centre(b))]] {
                    q.reset(&mesh, s, t, points);
                    let status = q.run(&mesh, &mut NullTracer);
                    assert_eq!(status == Status::Found, reachable, "{what}");
                    if !reachable {
                        continue;
                    }
                    let path = q.path().unwrap().to_vec();
                    check_chain(&mesh, &path, s, t, &what);
                    check_walkable(&g, &mesh, &mesh.funnel(&path, centre(a), centre(b)));
                    if points[0].is_none() || c == Connect::Pccp {
                        let cost = q.cost().unwrap();
                        let along = path_cost(&mesh, &path).unwrap();
                        assert!((cost - along).abs() < 1e-9 * (1.0 + cost), "{what}");
                        assert!(cost >= optimum.unwrap() - 1e-9, "{what}");
                        costs.push(cost);
                    }
                }
            }
            // The same connecting costs, however they were found.
            for w in costs.windows(2) {
                assert!(
                    (w[0] - w[1]).abs() < 1e-9 * (1.0 + w[0]),
                    "map {map}: {costs:?}"
                );
            }
            if reachable && stepped < 300 {
                stepped += 1;
                check_steps(&h, &mesh, s, t);
            }
        }
    }
    assert!(found > 2000 && queries - found > 50, "{found} of {queries}");
}

fn centre(c: (u32, u32)) -> [f64; 2] {
    [c.0 as f64 + 0.5, c.1 as f64 + 0.5]
}

/// Stepped with a recorder: the four phases in order, the abstract graph's events in its own
/// layer, the same path as a run without one.
fn check_steps(h: &Hierarchy, mesh: &NavmeshSpace, s: NodeId, t: NodeId) {
    for c in VARIANTS {
        let mut q = h.query(mesh, c);
        q.reset(mesh, s, t, [None, None]);
        let mut rec = Recorder::with_layers(mesh.num_nodes(), &q.layers());
        let mut phases = vec![q.phase()];
        while q.step(mesh, &mut rec) == Status::Running {
            if phases.last() != Some(&q.phase()) {
                phases.push(q.phase());
            }
        }
        assert_eq!(phases, vec![0, 1, 2, 3], "{c:?}");
        let stepped = q.path().unwrap().to_vec();
        assert_eq!(
            rec.phase_changes().iter().map(|p| p.1).collect::<Vec<_>>(),
            vec![0, 1, 2, 3]
        );
        let layer = &rec.layers()[1];
        assert_eq!(
            (layer.name.as_str(), layer.len as usize),
            ("abstract graph", h.graph.vertices() + 2)
        );
        q.reset(mesh, s, t, [None, None]);
        q.run(mesh, &mut NullTracer);
        assert_eq!(q.path().unwrap(), &stepped[..], "{c:?}");
    }
}

#[test]
fn hna_answers_every_sampled_problem_of_the_benchmark_maps() {
    let Some((_, maps)) = movingai_maps() else {
        return;
    };
    for m in maps {
        let g = pathlab::map::io::read_map(&m).unwrap();
        let problems = pathlab::map::io::read_scen(&m.with_extension("map.scen")).unwrap();
        let mesh = NavmeshSpace::new(&g, TerrainRule::Class);
        let h = Hierarchy::build(&mesh, 10, 2, true, &|_, _| {}).unwrap();
        let mut qs: Vec<HierQuery> = VARIANTS.iter().map(|&c| h.query(&mesh, c)).collect();
        for p in problems.iter().step_by(20) {
            let s = mesh.polygon_at(p.start.0, p.start.1).unwrap();
            let t = mesh.polygon_at(p.goal.0, p.goal.1).unwrap();
            for (q, c) in qs.iter_mut().zip(VARIANTS) {
                let what = format!("{}:{} {c:?}", m.display(), p.line);
                let points = [Some(centre(p.start)), Some(centre(p.goal))];
                q.reset(&mesh, s, t, points);
                assert_eq!(q.run(&mesh, &mut NullTracer), Status::Found, "{what}");
                let path = q.path().unwrap().to_vec();
                check_chain(&mesh, &path, s, t, &what);
                let line = mesh.funnel(&path, centre(p.start), centre(p.goal));
                check_walkable(&g, &mesh, &line);
                // No walk between the cells is shorter than the straight line.
                let straight = pathlab::space::plane_distance(centre(p.start), centre(p.goal));
                let length: f64 = line
                    .windows(2)
                    .map(|w| pathlab::space::plane_distance(w[0], w[1]))
                    .sum();
                assert!(length >= straight - 1e-9, "{what}");
            }
        }
    }
}

/// Through the registry (the abstraction built on a thread, the steps until then recording
/// nothing): the same path as the query straight from the hierarchy, and the temporary edges
/// recorded as vertices generated from the two temporary vertices.
#[test]
fn the_registry_runs_hierarchies_built_in_the_background() {
    let (grid, start, goal) = pathlab::builtin::default_world();
    let mesh = NavmeshSpace::new(&grid, TerrainRule::Class);
    let (s, t) = (
        mesh.polygon_at(start.0, start.1).unwrap(),
        mesh.polygon_at(goal.0, goal.1).unwrap(),
    );
    let h = Hierarchy::build(&mesh, 10, 2, true, &|_, _| {}).unwrap();
    for (name, c) in [("hna", Connect::Sequential), ("pccp", Connect::Pccp)] {
        let mut search = algorithms::build(name, &mesh, Query { start: s, goal: t }).unwrap();
        while search.preparing().is_some() {
            search.step_null(&mesh);
        }
        let mut rec = Recorder::with_layers(mesh.num_nodes(), &search.layers());
        assert_eq!(search.run_record(&mesh, &mut rec), Status::Found, "{name}");
        let mut q = h.query(&mesh, c);
        q.reset(&mesh, s, t, [None, None]);
        q.run(&mesh, &mut NullTracer);
        assert_eq!(search.path(), q.path(), "{name}");
        let v = h.graph.vertices() as u32;
        let base = mesh.num_nodes() as u32;
        let temps = (0..rec.len())
            .filter_map(|i| rec.get(i))
            .filter(|e| {
                e.kind == pathlab::trace::EventKind::Generate
                    && (e.other == base + v || e.other == base + v + 1)
            })
            .count();
        assert!(temps >= 2, "{name}: {temps} temporary edges");
    }
}

/// Hierarchies built on several threads at once (views built in the background side by side)
/// are the hierarchy built alone: METIS's shared random generator is used one build at a time.
#[test]
fn hierarchies_built_at_once_on_threads_are_the_same() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let g = random_map(&mut rng, 60..61, |_| 1.0);
    let mesh = NavmeshSpace::new(&g, TerrainRule::Class);
    let alone = Hierarchy::build(&mesh, 4, 2, false, &|_, _| {}).unwrap();
    let together: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| s.spawn(|| Hierarchy::build(&mesh, 4, 2, false, &|_, _| {}).unwrap()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for h in together {
        assert_eq!(h.levels, alone.levels);
    }
}

/// A build told to stop (its world changed) gives up between stages, saying so.
#[test]
fn a_hierarchy_build_gives_up_when_told() {
    let (grid, _, _) = pathlab::builtin::default_world();
    let mesh = NavmeshSpace::new(&grid, TerrainRule::Class);
    let stopped = Hierarchy::build_until(&mesh, 4, 2, true, &|_, _| {}, &|| true);
    assert!(stopped.is_err_and(|e| e.contains("given up")));
    let calls = std::cell::Cell::new(0);
    let built = Hierarchy::build_until(&mesh, 4, 2, true, &|_, _| {}, &|| {
        calls.set(calls.get() + 1);
        false
    });
    assert!(built.is_ok() && calls.get() >= 3, "asked between stages");
}

//! Voxel worlds: every registered algorithm against a 3D Dijkstra written here from the
//! voxels alone (its own moves, bounding-box rule and terrain costs, not the space's), on 1,000
//! seeded random worlds, half of them with terrain; and the Warframe benchmark's published
//! optima.

use pathlab::algorithms;
use pathlab::map::io::{read_3dmap, read_3dscen};
use pathlab::map::voxel::VoxelGrid;
use pathlab::project::FamilyData;
use pathlab::search::registry::Guarantee;
use pathlab::search::{path_cost, Query, Status};
use pathlab::space::{NodeId, Space, VoxelMoves, VoxelSpace};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Dijkstra over the voxels: a move of `axes` non-zero offsets costs √axes times the mean of
/// its two voxels' terrain costs, and needs every voxel of its bounding box free and inside the
/// world.
fn oracle(g: &VoxelGrid, moves: VoxelMoves, s: [u32; 3], t: [u32; 3]) -> Option<f64> {
    let max_axes = match moves {
        VoxelMoves::Six => 1,
        VoxelMoves::Eighteen => 2,
        VoxelMoves::TwentySix => 3,
    };
    let [w, h, d] = g.dims();
    let id = |p: [u32; 3]| ((p[2] * h + p[1]) * w + p[0]) as usize;
    let mut dist = vec![f64::INFINITY; (w * h * d) as usize];
    let mut heap = BinaryHeap::new();
    dist[id(s)] = 0.0;
    heap.push(Reverse((0u64, s)));
    while let Some(Reverse((_, p))) = heap.pop() {
        let dp = dist[id(p)];
        if p == t {
            return Some(dp);
        }
        for dz in -1i64..=1 {
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    let axes = (dx != 0) as u32 + (dy != 0) as u32 + (dz != 0) as u32;
                    if axes == 0 || axes > max_axes {
                        continue;
                    }
                    let (x, y, z) = (p[0] as i64, p[1] as i64, p[2] as i64);
                    let mut free = true;
                    for bz in [0, dz] {
                        for by in [0, dy] {
                            for bx in [0, dx] {
                                free &= !g.is_blocked(x + bx, y + by, z + bz);
                            }
                        }
                    }
                    if !free {
                        continue;
                    }
                    let q = [(x + dx) as u32, (y + dy) as u32, (z + dz) as u32];
                    let terrain = 0.5 * (g.cost_at(id(p)) + g.cost_at(id(q))) as f64;
                    let nd = dp + (axes as f64).sqrt() * terrain;
                    if nd < dist[id(q)] - 1e-12 {
                        dist[id(q)] = nd;
                        heap.push(Reverse(((nd * 1e9) as u64, q)));
                    }
                }
            }
        }
    }
    None
}

fn random_world(rng: &mut ChaCha8Rng) -> VoxelGrid {
    let dims = [(); 3].map(|_| rng.random_range(1..11u32));
    let mut g = VoxelGrid::new(dims[0], dims[1], dims[2]).unwrap();
    let density = rng.random_range(0.0..0.4);
    let terrain = rng.random_bool(0.5);
    for z in 0..dims[2] {
        for y in 0..dims[1] {
            for x in 0..dims[0] {
                if rng.random_bool(density) {
                    g.set(x, y, z, true);
                } else if terrain && rng.random_bool(0.4) {
                    let cost = [0.5, 2.0, 3.5, 9.0][rng.random_range(0..4)];
                    g.set_cost(x, y, z, cost).unwrap();
                }
            }
        }
    }
    g
}

#[test]
fn every_algorithm_agrees_with_a_3d_dijkstra_on_1000_random_voxel_worlds() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let (mut checked, mut no_path, mut with_terrain) = (0, 0, 0);
    for world in 0..1000 {
        let g = random_world(&mut rng);
        with_terrain += g.costs().is_some() as usize;
        let moves = [VoxelMoves::Six, VoxelMoves::Eighteen, VoxelMoves::TwentySix][world % 3];
        let sp = VoxelSpace::new(g.clone(), moves);
        let free: Vec<NodeId> = (0..sp.num_nodes() as NodeId)
            .filter(|&n| sp.is_passable(n))
            .collect();
        if free.is_empty() {
            continue;
        }
        let q = Query {
            start: free[rng.random_range(0..free.len())],
            goal: free[rng.random_range(0..free.len())],
        };
        let best = oracle(&g, moves, sp.xyz(q.start), sp.xyz(q.goal));
        no_path += best.is_none() as usize;
        // Any-angle searches leave the grid's edges: tests/any_angle.rs checks them.
        for info in algorithms::all()
            .iter()
            .filter(|i| i.guarantee != Guarantee::AnyAngle && i.makers.voxel.is_some())
        {
            let weight = 1.0 + rng.random_range(0..4) as f64 * 0.5;
            let spec = match info.guarantee {
                Guarantee::BoundedBy(p) => format!("{}:{p}={weight}", info.name),
                _ => info.name.to_string(),
            };
            let mut s = algorithms::build(&spec, &sp, q).unwrap();
            let status = s.run_null(&sp);
            let ctx = format!("voxel world {world} {:?}, {spec}, {moves:?}", g.dims());
            let Some(opt) = best else {
                assert_eq!(status, Status::NoPath, "{ctx}");
                continue;
            };
            assert_eq!(status, Status::Found, "{ctx}: the oracle finds {opt}");
            let path = s.path().unwrap();
            let walked = path_cost(&sp, path).unwrap_or_else(|| panic!("{ctx}: a non-edge"));
            let cost = s.cost().unwrap();
            assert!((walked - cost).abs() < 1e-9, "{ctx}");
            match info.guarantee {
                Guarantee::Optimal => assert!((cost - opt).abs() < 1e-6, "{ctx}: {cost} vs {opt}"),
                Guarantee::BoundedBy(_) => assert!(cost <= weight * opt + 1e-6, "{ctx}"),
                _ => assert!(cost >= opt - 1e-6, "{ctx}"),
            }
            checked += 1;
        }
    }
    assert!(checked > 3000, "only {checked} runs");
    assert!(
        with_terrain > 300,
        "only {with_terrain} worlds with terrain"
    );
    assert!(no_path > 10, "unreachable goals too ({no_path})");
}

/// The Warframe maps' problems, sampled: A* matches the published optimum on every one;
/// Dijkstra and D* Lite on a smaller sample. Needs `../shared/benchmarks/warframe-3d`: in CI its
/// absence fails the test, elsewhere it is skipped with a reason.
#[test]
fn warframe_problems_are_solved_optimally() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/warframe-3d");
    if !dir.is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs {}",
            dir.display()
        );
        eprintln!("skipped: {} is absent", dir.display());
        return;
    }
    // (map, A* on every k-th problem, Dijkstra and D* Lite on every m-th; Dijkstra is left
    // out on A1, where one problem expands 58M voxels and takes 45 s).
    let mut worlds = vec![];
    let mut tasks = vec![];
    for (name, every, other_every, dijkstra) in [
        ("Simple", 50, 500, true),
        ("Complex", 50, 1000, true),
        ("DA1", 50, 2500, true),
        ("A1", 500, 5000, false),
        ("DC3", 500, 10000, true),
    ] {
        let map = dir.join(format!("{name}.3dmap"));
        let grid = read_3dmap(&map).unwrap();
        let (named, problems) = read_3dscen(&dir.join(format!("{name}.3dmap.3dscen"))).unwrap();
        assert_eq!(named, format!("{name}.3dmap"));
        let w = worlds.len();
        for i in (0..problems.len()).step_by(every) {
            tasks.push((w, i, "astar"));
            if i % other_every == 0 {
                tasks.push((w, i, "dstar-lite"));
                if dijkstra {
                    tasks.push((w, i, "dijkstra"));
                }
            }
        }
        worlds.push((name, VoxelSpace::new(grid, VoxelMoves::TwentySix), problems));
    }
    // On every core: workers take the next problem, the slow searches (Dijkstra, D* Lite)
    // first, each worker with one search of each kind a world.
    tasks.sort_by_key(|&(_, _, algo)| algo == "astar");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let solved: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut searches = std::collections::HashMap::new();
                    let mut solved = 0;
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&(w, i, algo)) = tasks.get(k) else {
                            return solved;
                        };
                        let (name, sp, problems) = &worlds[w];
                        let node = |v: [u32; 3]| sp.node(v[0], v[1], v[2]).unwrap();
                        let p = &problems[i];
                        let q = Query {
                            start: node(p.start),
                            goal: node(p.goal),
                        };
                        let s = searches
                            .entry((w, algo))
                            .or_insert_with(|| algorithms::build(algo, sp, q).unwrap());
                        s.reset(sp, q);
                        assert_eq!(s.run_null(sp), Status::Found, "{name} #{i} {algo}");
                        let cost = s.cost().unwrap();
                        assert!(
                            p.is_optimal(cost),
                            "{name} #{i} (line {}) {algo}: {cost} vs {}",
                            p.line,
                            p.optimal
                        );
                        solved += 1;
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert!(solved > 500, "{solved}");
}

/// A square map with terrain costs, extruded: every layer has the map's costs, and A* on the
/// voxels costs what it costs on the map (climbing only lengthens a move over the same
/// columns). Then the voxel world with its costs survives a project file, and a project whose
/// costs are damaged is refused with one line naming them.
#[test]
fn extruded_terrain_costs_match_the_square_map_and_survive_a_project() {
    use pathlab::map::volume::Volume;
    use pathlab::map::Grid;
    use pathlab::open::project_world;
    use pathlab::project::Project;
    use pathlab::space::GridSpace;
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut compared = 0;
    for world in 0..60 {
        let (w, h) = (rng.random_range(3..14u32), rng.random_range(3..12u32));
        let rows: Vec<String> = (0..h)
            .map(|_| {
                (0..w)
                    .map(|_| if rng.random_bool(0.2) { '@' } else { '.' })
                    .collect()
            })
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let mut grid = Grid::from_rows(&rows);
        let costs = (0..w * h)
            .map(|_| [1.0, 0.5, 2.0, 4.0][rng.random_range(0..4)])
            .collect();
        grid.set_costs(costs).unwrap();
        let height = rng.random_range(1..4u32);
        let v = VoxelGrid::extrude(&grid, height).unwrap();
        for z in 0..height {
            assert_eq!(v.slice(z).costs(), grid.costs(), "world {world} layer {z}");
        }
        let sq = GridSpace::octile(&grid);
        let vs = VoxelSpace::new(v.clone(), VoxelMoves::TwentySix);
        let free: Vec<NodeId> = (0..sq.num_nodes() as NodeId)
            .filter(|&n| sq.is_passable(n))
            .collect();
        if free.len() < 2 {
            continue;
        }
        for _ in 0..5 {
            let (a, b) = (
                free[rng.random_range(0..free.len())],
                free[rng.random_range(0..free.len())],
            );
            let (ax, ay) = sq.xy(a);
            let (bx, by) = sq.xy(b);
            let (az, bz) = (rng.random_range(0..height), rng.random_range(0..height));
            let mut s2 = algorithms::build("astar", &sq, Query { start: a, goal: b }).unwrap();
            s2.run_null(&sq);
            let q3 = Query {
                start: vs.node(ax, ay, az).unwrap(),
                goal: vs.node(bx, by, bz).unwrap(),
            };
            let mut s3 = algorithms::build("astar", &vs, q3).unwrap();
            s3.run_null(&vs);
            let want = oracle(&v, VoxelMoves::TwentySix, [ax, ay, az], [bx, by, bz]);
            assert_eq!(s3.cost().is_some(), want.is_some(), "world {world}");
            if let (Some(c3), Some(o)) = (s3.cost(), want) {
                assert!((c3 - o).abs() < 1e-6, "world {world}: {c3} vs {o}");
                if az == bz {
                    let c2 = s2.cost().expect("the map connects what its voxels connect");
                    assert!((c3 - c2).abs() < 1e-6, "world {world}: {c3} vs {c2}");
                    compared += 1;
                }
            }
        }
        // Through a project file and back.
        let (vol, _, _) = Volume::new(v.clone(), VoxelMoves::TwentySix, vec![]);
        let mut p = Project::new(&vol.voxels.slice(vol.z));
        p.world = pathlab::world::Family::Voxel {
            moves: VoxelMoves::TwentySix,
        };
        p.set_volume(&vol);
        fn voxel_costs(p: &mut Project) -> &mut Option<String> {
            match &mut p.data {
                Some(FamilyData::Voxels(runs)) => &mut runs.voxel_costs,
                _ => panic!("a voxel project holds voxels"),
            }
        }
        assert_eq!(voxel_costs(&mut p).is_some(), v.costs().is_some());
        let path = std::path::Path::new("terrain.ron");
        let text = p.to_text().unwrap();
        let back = project_world(&text, path).unwrap().data.unwrap();
        let back: &Volume = back.get().expect("a volume");
        assert_eq!(back.voxels, v, "world {world}");
        if let Some(c) = voxel_costs(&mut p).clone() {
            *voxel_costs(&mut p) = Some(format!("{c} 2 1"));
            let text = p.to_text().unwrap();
            let e = project_world(&text, path).unwrap_err().to_string();
            assert!(
                e.contains("voxel costs") && e.contains("terrain.ron"),
                "{e}"
            );
            assert_eq!(e.lines().count(), 1, "{e}");
        }
    }
    assert!(compared > 50, "only {compared} same-layer problems");
}

/// Collects every event.
struct Events(Vec<pathlab::trace::Event>);

impl pathlab::trace::Tracer for Events {
    const ENABLED: bool = true;
    fn event(&mut self, e: pathlab::trace::Event) {
        self.0.push(e);
    }
}

/// Search state kept segment by segment (as on the largest voxel worlds) changes nothing a
/// search does: on 300 random voxel worlds, with terrain on half, A*, Dijkstra and weighted A*
/// emit the same events, stepped or run whole, as with arrays over every node, and report the
/// same g for every node.
#[test]
fn segmented_search_state_equals_arrays_over_every_node() {
    use pathlab::search::{AStar, Dijkstra, Search, SearchState, WeightedAStar};
    use pathlab::space::Heuristic;
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let mut compared = 0;
    for world in 0..300 {
        let Some((sp, q)) = random_world_and_query(&mut rng, world) else {
            continue;
        };
        let engines = [
            AStar::new(&sp, q, Heuristic::Native).0,
            Dijkstra::new(&sp, q).0,
            WeightedAStar::new(&sp, q, 1.5, Heuristic::Native).0,
        ];
        for (k, mut direct) in engines.into_iter().enumerate() {
            let mut seg = direct.clone();
            seg.set_segmented_above(0);
            Search::reset(&mut seg, &sp, q);
            Search::reset(&mut direct, &sp, q);
            let (mut a, mut b) = (Events(vec![]), Events(vec![]));
            direct.run(&sp, &mut a);
            // Stepped, so the table is taken out and put back between expansions too.
            while seg.step(&sp, &mut b) == pathlab::search::Status::Running {}
            // Bit patterns: a marker event's NaN never equals itself as a number.
            let bits =
                |e: &pathlab::trace::Event| (e.kind, e.node, e.other, e.a.to_bits(), e.b.to_bits());
            let first_diff = a.0.iter().zip(&b.0).position(|(x, y)| bits(x) != bits(y));
            assert_eq!(first_diff, None, "world {world}, engine {k}: events differ");
            assert_eq!(a.0.len(), b.0.len(), "world {world}, engine {k}");
            assert_eq!(direct.cost(), seg.cost());
            for n in 0..sp.num_nodes() as NodeId {
                assert_eq!(direct.g(n), seg.g(n), "world {world}, engine {k}, node {n}");
                assert_eq!(direct.mark(n), seg.mark(n));
            }
            compared += 1;
        }
    }
    assert!(compared > 600, "only {compared}");
}

/// A random world of the test's kind (6-, 18- and 26-connected in turn) and a query between
/// two of its free voxels; `None` when it has fewer than two.
fn random_world_and_query(rng: &mut ChaCha8Rng, world: usize) -> Option<(VoxelSpace, Query)> {
    let g = random_world(rng);
    let moves = [VoxelMoves::Six, VoxelMoves::Eighteen, VoxelMoves::TwentySix][world % 3];
    let sp = VoxelSpace::new(g, moves);
    let free: Vec<NodeId> = (0..sp.num_nodes() as NodeId)
        .filter(|&n| sp.is_passable(n))
        .collect();
    if free.len() < 2 {
        return None;
    }
    let q = Query {
        start: free[rng.random_range(0..free.len())],
        goal: free[rng.random_range(0..free.len())],
    };
    Some((sp, q))
}

/// Theta* and Lazy Theta* keep their state in segments as A* does: event for event the
/// same search as with arrays over every node, on 200 random voxel worlds.
#[test]
fn segmented_theta_star_equals_arrays() {
    use pathlab::search::{Search, SearchState, ThetaStar};
    use pathlab::space::Heuristic;
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut compared = 0;
    for world in 0..200 {
        let Some((sp, q)) = random_world_and_query(&mut rng, world) else {
            continue;
        };
        for lazy in [false, true] {
            let mut direct = ThetaStar::new(&sp, q, lazy, Heuristic::Euclidean);
            let mut seg = ThetaStar::new(&sp, q, lazy, Heuristic::Euclidean);
            seg.set_segmented_above(0);
            Search::reset(&mut seg, &sp, q);
            let (mut a, mut b) = (Events(vec![]), Events(vec![]));
            direct.run(&sp, &mut a);
            while seg.step(&sp, &mut b) == pathlab::search::Status::Running {}
            let bits =
                |e: &pathlab::trace::Event| (e.kind, e.node, e.other, e.a.to_bits(), e.b.to_bits());
            let first_diff = a.0.iter().zip(&b.0).position(|(x, y)| bits(x) != bits(y));
            assert_eq!(
                first_diff, None,
                "world {world}, lazy {lazy}: events differ"
            );
            assert_eq!(a.0.len(), b.0.len(), "world {world}, lazy {lazy}");
            assert_eq!(direct.cost(), seg.cost());
            for n in 0..sp.num_nodes() as NodeId {
                assert_eq!(direct.g(n), seg.g(n), "world {world}, node {n}");
            }
            compared += 1;
        }
    }
    assert!(compared > 300, "only {compared}");
}

/// Theta* answers a check of a segment it already found blocked from memory: event for event
/// (every check still traced, with its answer) the same search as walking each check again,
/// on 200 random voxel worlds, with segments at their length and at one voxel.
#[test]
fn theta_star_remembering_blocked_segments_changes_nothing() {
    use pathlab::search::{AnyAngleKind, Search, SearchState, SegmentCost, ThetaStar};
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    let (mut compared, mut recalled) = (0, 0);
    for world in 0..200 {
        let Some((sp, q)) = random_world_and_query(&mut rng, world) else {
            continue;
        };
        for cost in [SegmentCost::Length, SegmentCost::Unit] {
            let mut walked = ThetaStar::yu_novitch(&sp, q, AnyAngleKind::Theta, cost);
            walked.set_remember_blocked(false);
            let mut kept = ThetaStar::yu_novitch(&sp, q, AnyAngleKind::Theta, cost);
            let (mut a, mut b) = (Events(vec![]), Events(vec![]));
            walked.run(&sp, &mut a);
            kept.run(&sp, &mut b);
            let bits =
                |e: &pathlab::trace::Event| (e.kind, e.node, e.other, e.a.to_bits(), e.b.to_bits());
            let first_diff = a.0.iter().zip(&b.0).position(|(x, y)| bits(x) != bits(y));
            assert_eq!(first_diff, None, "world {world}, {cost:?}: events differ");
            assert_eq!(a.0.len(), b.0.len(), "world {world}, {cost:?}");
            assert_eq!(walked.cost(), kept.cost());
            assert_eq!(walked.stats(), kept.stats(), "world {world}, {cost:?}");
            assert_eq!(walked.recalled_checks(), 0);
            recalled += kept.recalled_checks();
            compared += 1;
        }
    }
    assert!(compared > 300, "only {compared}");
    // The memory answered checks: the comparison above compared something.
    assert!(recalled > 1000, "only {recalled} checks recalled");
}

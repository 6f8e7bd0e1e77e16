//! Navmeshes made from square maps, on 1,000 seeded random maps: every walkable cell in exactly
//! one rectangle of one terrain class and cost, portals on the sides rectangles share, the same
//! places reachable as on the square grid, A* on the navmesh equal to a plain Dijkstra on it,
//! and funnelled paths that stay on walkable cells, no longer than the path through portal
//! midpoints and no shorter than the straight line.

use crate::support;
use pathlab::algorithms;
use pathlab::map::Grid;
use pathlab::search::{Query, Status};
use pathlab::space::{
    Connectivity, GridSpace, NavmeshSpace, NodeId, Space, TerrainRule, NO_POLYGON,
};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BinaryHeap, VecDeque};
use support::{check_walkable, random_map};

/// Dijkstra written here: the oracle for A* on the navmesh.
fn dijkstra(space: &NavmeshSpace, s: NodeId, t: NodeId) -> Option<f64> {
    #[derive(PartialEq)]
    struct Item(f64, NodeId);
    impl Eq for Item {}
    impl PartialOrd for Item {
        fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(o))
        }
    }
    impl Ord for Item {
        fn cmp(&self, o: &Self) -> std::cmp::Ordering {
            o.0.total_cmp(&self.0)
        }
    }
    let mut dist = vec![f64::INFINITY; space.num_nodes()];
    let mut heap = BinaryHeap::from([Item(0.0, s)]);
    dist[s as usize] = 0.0;
    while let Some(Item(d, n)) = heap.pop() {
        if n == t {
            return Some(d);
        }
        if d > dist[n as usize] {
            continue;
        }
        for (m, c) in space.neighbours(n) {
            if d + c < dist[m as usize] {
                dist[m as usize] = d + c;
                heap.push(Item(d + c, m));
            }
        }
    }
    None
}

/// Nodes reachable from `s` (breadth-first over the space's edges).
fn reach<S: Space>(space: &S, s: NodeId) -> Vec<bool> {
    let mut seen = vec![false; space.num_nodes()];
    let mut q = VecDeque::from([s]);
    seen[s as usize] = true;
    while let Some(n) = q.pop_front() {
        for (m, _) in space.neighbours(n) {
            if !seen[m as usize] {
                seen[m as usize] = true;
                q.push_back(m);
            }
        }
    }
    seen
}

fn check_decomposition(g: &Grid, m: &NavmeshSpace, rule: TerrainRule) {
    let (w, h) = (g.width(), g.height());
    let polys = m.polygon_of_cells();
    for y in 0..h {
        for x in 0..w {
            let i = (y * w + x) as usize;
            let walkable = rule.class(g.tiles()[i]) != 0;
            assert_eq!(polys[i] != NO_POLYGON, walkable, "cell ({x}, {y})");
            if walkable {
                let [x0, y0, x1, y1] = m.rect(polys[i]);
                assert!((x0..x1).contains(&x) && (y0..y1).contains(&y));
            }
        }
    }
    for n in 0..m.num_nodes() as NodeId {
        let [x0, y0, x1, y1] = m.rect(n);
        assert!(x0 < x1 && y0 < y1);
        let first = (y0 * w + x0) as usize;
        let key = |i: usize| (rule.class(g.tiles()[i]), g.costs()[i]);
        for y in y0..y1 {
            for x in x0..x1 {
                let i = (y * w + x) as usize;
                assert_eq!(polys[i], n, "the rectangle's cells are its own");
                assert_eq!(key(i), key(first), "one class and one cost per polygon");
            }
        }
        for (k, p) in m.portals_of(n) {
            // One side, shared both ways, each copy left to right as seen from its polygon.
            let back = m.portal(k, n).expect("portals are shared both ways");
            assert_eq!((back.a, back.b), (p.b, p.a), "the copies run opposite ways");
            let centre = m.centre(n);
            let cross = (p.a[0] - centre[0]) * (p.b[1] - centre[1])
                - (p.a[1] - centre[1]) * (p.b[0] - centre[0]);
            assert!(cross < 0.0, "polygon {n}: its copy runs the funnel's way");
            let [a0, b0, a1, b1] = m.rect(k);
            // The portal lies on both rectangles' boundaries.
            for q in [p.a, p.b] {
                let on = |r: [u32; 4], q: [f64; 2]| {
                    let [x0, y0, x1, y1] = r.map(|v| v as f64);
                    (q[0] == x0 || q[0] == x1) && (y0..=y1).contains(&q[1])
                        || (q[1] == y0 || q[1] == y1) && (x0..=x1).contains(&q[0])
                };
                assert!(on([x0, y0, x1, y1], q) && on([a0, b0, a1, b1], q));
            }
            assert!(p.a != p.b, "a portal has length");
        }
    }
}

#[test]
fn navmeshes_of_1000_random_maps_search_like_their_grids() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut polygons, mut cells, mut queries, mut found) = (0, 0, 0, 0);
    for map in 0..1000 {
        let g = random_map(&mut rng, 1..40, |r| r.random_range(1..4) as f32);
        let rule = if map % 5 == 4 {
            TerrainRule::GroundOnly
        } else {
            TerrainRule::Class
        };
        let mesh = NavmeshSpace::new(&g, rule);
        check_decomposition(&g, &mesh, rule);
        polygons += mesh.num_nodes();
        cells += g.tiles().iter().filter(|&&t| rule.class(t) != 0).count();
        if mesh.num_nodes() == 0 {
            continue;
        }
        // The same places reachable as on the 4- and the 8-connected grid (no corner cutting
        // makes a diagonal move two orthogonal ones).
        let moves = if map % 2 == 0 {
            Connectivity::Four
        } else {
            Connectivity::Eight
        };
        let grid = GridSpace::new(&g, moves, rule);
        for _ in 0..3 {
            let n = rng.random_range(0..mesh.num_nodes()) as NodeId;
            let (x, y) = {
                let [x0, y0, x1, y1] = mesh.rect(n);
                (rng.random_range(x0..x1), rng.random_range(y0..y1))
            };
            let on_grid = reach(&grid, grid.node(x, y).unwrap());
            let on_mesh = reach(&mesh, n);
            for (i, &p) in mesh.polygon_of_cells().iter().enumerate() {
                if p != NO_POLYGON {
                    assert_eq!(on_grid[i], on_mesh[p as usize], "map {map}: cell {i}");
                }
            }
        }
        // A* on the navmesh costs what Dijkstra finds; its funnelled path stays on the mesh.
        for _ in 0..4 {
            let s = rng.random_range(0..mesh.num_nodes()) as NodeId;
            let t = rng.random_range(0..mesh.num_nodes()) as NodeId;
            let q = Query { start: s, goal: t };
            let mut a = algorithms::build("astar", &mesh, q).unwrap();
            let status = a.run_null(&mesh);
            let want = dijkstra(&mesh, s, t);
            queries += 1;
            match want {
                None => assert_eq!(status, Status::NoPath, "map {map}"),
                Some(c) => {
                    found += 1;
                    assert_eq!(status, Status::Found, "map {map}");
                    let got = a.cost().unwrap();
                    assert!((got - c).abs() < 1e-9, "map {map}: A* {got}, Dijkstra {c}");
                    let path = a.path().unwrap().to_vec();
                    let (from, to) = (mesh.centre(s), mesh.centre(t));
                    let pulled = mesh.funnel(&path, from, to);
                    check_walkable(&g, &mesh, &pulled);
                    let length = |p: &[[f64; 2]]| -> f64 {
                        p.windows(2)
                            .map(|w| (w[1][0] - w[0][0]).hypot(w[1][1] - w[0][1]))
                            .sum()
                    };
                    let mut through: Vec<[f64; 2]> = vec![from];
                    for w in path.windows(2) {
                        through.push(mesh.portal(w[0], w[1]).unwrap().mid());
                    }
                    through.push(to);
                    let straight = (to[0] - from[0]).hypot(to[1] - from[1]);
                    assert!(length(&pulled) <= length(&through) + 1e-9, "map {map}");
                    assert!(length(&pulled) >= straight - 1e-9, "map {map}");
                }
            }
        }
    }
    assert!(
        found > 2000 && queries - found > 50,
        "{found} of {queries} found"
    );
    // Rectangles merge cells: on these maps about a third as many polygons as cells.
    assert!(
        polygons * 2 < cells,
        "{polygons} polygons for {cells} cells"
    );
}

#[test]
fn an_open_room_is_one_polygon_and_a_wall_splits_it() {
    let g = Grid::from_rows(&["....", "....", "...."]);
    let m = NavmeshSpace::new(&g, TerrainRule::Class);
    assert_eq!((m.num_nodes(), m.rect(0)), (1, [0, 0, 4, 3]));
    // A wall in the middle column's top two cells: the left part, the right part, and the
    // bottom row under the wall's end joining them.
    let g = Grid::from_rows(&["..@.", "..@.", "...."]);
    let m = NavmeshSpace::new(&g, TerrainRule::Class);
    let rects: Vec<[u32; 4]> = (0..m.num_nodes() as NodeId).map(|n| m.rect(n)).collect();
    assert_eq!(rects, vec![[0, 0, 2, 3], [3, 0, 4, 3], [2, 2, 3, 3]]);
    assert_eq!(m.portal_count(), 2);
    // From the left part to the right one: through the bottom middle cell; the funnel bends
    // at the wall's lower corners.
    let q = Query { start: 0, goal: 1 };
    let mut a = algorithms::build("astar", &m, q).unwrap();
    assert_eq!(a.run_null(&m), Status::Found);
    assert_eq!(a.path().unwrap(), &[0, 2, 1]);
    let pulled = m.funnel(&[0, 2, 1], [0.5, 0.5], [3.5, 0.5]);
    assert_eq!(pulled, vec![[0.5, 0.5], [2.0, 2.0], [3.0, 2.0], [3.5, 0.5]]);
}

#[test]
fn benchmark_maps_decompose_and_keep_their_connections() {
    let Some((dir, maps)) = support::movingai_maps() else {
        return;
    };
    for p in &maps {
        let g = pathlab::map::io::read_map(p).unwrap();
        let rule = TerrainRule::Class;
        let mesh = NavmeshSpace::new(&g, rule);
        check_decomposition(&g, &mesh, rule);
        let walkable = g.tiles().iter().filter(|&&t| rule.class(t) != 0).count();
        // Components: the grid's (4-connected) and the mesh's agree cell by cell.
        let grid = GridSpace::new(&g, Connectivity::Four, rule);
        let mut comp_grid = vec![u32::MAX; grid.num_nodes()];
        let mut comp_mesh = vec![u32::MAX; mesh.num_nodes()];
        let mut next = 0;
        for n in 0..mesh.num_nodes() as NodeId {
            if comp_mesh[n as usize] != u32::MAX {
                continue;
            }
            for (k, &r) in reach(&mesh, n).iter().enumerate() {
                if r {
                    comp_mesh[k] = next;
                }
            }
            let (x, y) = {
                let [x0, y0, ..] = mesh.rect(n);
                (x0, y0)
            };
            for (k, &r) in reach(&grid, grid.node(x, y).unwrap()).iter().enumerate() {
                if r {
                    comp_grid[k] = next;
                }
            }
            next += 1;
        }
        for (i, &poly) in mesh.polygon_of_cells().iter().enumerate() {
            if poly != NO_POLYGON {
                assert_eq!(
                    comp_grid[i],
                    comp_mesh[poly as usize],
                    "{}: cell {i}",
                    p.display()
                );
            }
        }
        eprintln!(
            "{}: {} walkable cells, {} polygons, {} portals",
            p.strip_prefix(&dir).unwrap().display(),
            walkable,
            mesh.num_nodes(),
            mesh.portal_count()
        );
        // Corridors one cell wide (maze512-1) merge least: three cells a polygon.
        assert!(mesh.num_nodes() * 2 < walkable, "{}", p.display());
    }
}

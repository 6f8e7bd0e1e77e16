//! The partitioners a hierarchy's levels are built with: every node in exactly one connected
//! part, on 300 random navmeshes; and on the MovingAI maps' navmeshes at μ = 10, METIS's
//! multilevel k-way against breadth-first region growing by edge cut and balance (the numbers
//! docs/hierarchy.md reports).

use crate::support;

use pathlab::hier::navmesh_graph;
use pathlab::hier::partition::{connected_parts, grow, kway, quality, Csr};
use pathlab::space::{NavmeshSpace, TerrainRule};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::random_map;

/// Every node has a part, every part is connected, and parts are numbered 0..parts.
fn check(g: &Csr, part: &[u32]) {
    assert_eq!(part.len(), g.len());
    let q = quality(g, part);
    let mut seen = vec![false; q.parts];
    for &p in part {
        seen[p as usize] = true;
    }
    assert!(seen.iter().all(|&s| s), "parts are numbered without gaps");
    // Splitting parts into their connected pieces changes nothing.
    assert_eq!(quality(g, &connected_parts(g, part)).parts, q.parts);
}

#[test]
fn parts_of_random_navmeshes_are_connected_and_cover_every_polygon() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..300 {
        let map = random_map(&mut rng, 4..60, |r| r.random_range(1..3) as f32);
        let mesh = NavmeshSpace::new(&map, TerrainRule::Class);
        let g = navmesh_graph(&mesh);
        let mu = rng.random_range(2..12);
        let grown = grow(&g, mu);
        check(&g, &grown);
        assert!(
            quality(&g, &grown).largest <= mu,
            "region growing stops at μ"
        );
        let k = kway(&g, mu).expect("METIS partitions");
        check(&g, &k);
    }
}

#[test]
fn metis_cuts_fewer_portals_than_region_growing_on_the_benchmark_maps() {
    let Some((dir, maps)) = support::movingai_maps() else {
        return;
    };
    let (mut cut_k, mut cut_g) = (0, 0);
    for p in &maps {
        let map = pathlab::map::io::read_map(p).unwrap();
        let mesh = NavmeshSpace::new(&map, TerrainRule::Class);
        let g = navmesh_graph(&mesh);
        let k = kway(&g, 10).unwrap();
        let grown = grow(&g, 10);
        check(&g, &k);
        let (qk, qg) = (quality(&g, &k), quality(&g, &grown));
        eprintln!(
            "{}: {} polygons; metis {} parts, cut {}, largest {}, balance {:.2}; grow {} parts, cut {}, largest {}, balance {:.2}",
            p.strip_prefix(&dir).unwrap().display(),
            g.len(),
            qk.parts,
            qk.edge_cut,
            qk.largest,
            qk.balance,
            qg.parts,
            qg.edge_cut,
            qg.largest,
            qg.balance
        );
        cut_k += qk.edge_cut;
        cut_g += qg.edge_cut;
    }
    eprintln!("total cut: metis {cut_k}, grow {cut_g}");
    assert!(cut_k < cut_g, "metis {cut_k}, grow {cut_g}");
}

#[test]
fn levels_nest_keep_their_nodes_connected_and_list_each_inter_edge_under_both_nodes() {
    use pathlab::hier::levels::Levels;
    use pathlab::space::{NodeId, Space};
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    for _ in 0..100 {
        let map = random_map(&mut rng, 8..64, |r| r.random_range(1..3) as f32);
        let mesh = NavmeshSpace::new(&map, TerrainRule::Class);
        if mesh.num_nodes() == 0 {
            continue;
        }
        let mu = rng.random_range(2..8);
        let levels = Levels::build(&mesh, mu, 3, &|_| {}).expect("built");
        let g = navmesh_graph(&mesh);
        let portals: Vec<(NodeId, NodeId)> = (0..mesh.num_nodes() as NodeId)
            .flat_map(|a| mesh.neighbours(a).map(move |(b, _)| (a, b)))
            .filter(|&(a, b)| a < b)
            .collect();
        let mut below: Vec<u32> = (0..mesh.num_nodes() as u32).collect();
        let mut below_inter = portals.clone();
        for level in &levels.levels {
            // A node of this level is a union of nodes of the level below, and its polygons
            // are connected through its own portals.
            for p in 0..mesh.num_nodes() {
                for q in 0..mesh.num_nodes() {
                    if below[p] == below[q] {
                        assert_eq!(level.node_of[p], level.node_of[q]);
                    }
                }
            }
            check(&g, &level.node_of);
            // Its inter-edges: exactly the portals between its different nodes, a subset of
            // the level below's.
            let want: Vec<(NodeId, NodeId)> = portals
                .iter()
                .copied()
                .filter(|&(a, b)| level.node_of[a as usize] != level.node_of[b as usize])
                .collect();
            assert_eq!(level.inter, want);
            assert!(want.iter().all(|e| below_inter.contains(e)));
            for n in 0..level.nodes as u32 {
                for &i in level.inter_of(n) {
                    let (a, b) = level.inter[i as usize];
                    assert!(level.node_of[a as usize] == n || level.node_of[b as usize] == n);
                }
            }
            assert_eq!(level.node_inter.len(), 2 * level.inter.len());
            below = level.node_of.clone();
            below_inter = want;
        }
    }
}

/// Dijkstra over the polygons of one node, written here: the oracle for intra-edges.
fn within(mesh: &NavmeshSpace, node_of: &[u32], n: u32, s: u32, t: u32) -> Option<f64> {
    use pathlab::space::Space;
    let mut dist = vec![f64::INFINITY; mesh.num_nodes()];
    dist[s as usize] = 0.0;
    let mut todo = vec![s];
    // Few polygons per node: a label-correcting sweep is enough for an oracle.
    while let Some(p) = todo.pop() {
        for (q, c) in mesh.neighbours(p) {
            if node_of[q as usize] == n && dist[p as usize] + c < dist[q as usize] - 1e-12 {
                dist[q as usize] = dist[p as usize] + c;
                todo.push(q);
            }
        }
    }
    dist[t as usize].is_finite().then_some(dist[t as usize])
}

#[test]
fn intra_edges_are_the_optimal_paths_across_each_node_between_its_inter_edges() {
    use pathlab::hier::intra::{build, inside};
    use pathlab::hier::levels::Levels;
    use pathlab::space::Space;
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut checked = 0;
    for _ in 0..100 {
        let map = random_map(&mut rng, 8..48, |r| r.random_range(1..3) as f32);
        let mesh = NavmeshSpace::new(&map, TerrainRule::Class);
        if mesh.num_nodes() == 0 {
            continue;
        }
        let mu = rng.random_range(2..8);
        let levels = Levels::build(&mesh, mu, 2, &|_| {}).unwrap();
        for level in &levels.levels {
            let intra = build(&mesh, level);
            for n in 0..level.nodes as u32 {
                let edges = intra.of(n);
                for &i in level.inter_of(n) {
                    for &j in level.inter_of(n).iter().filter(|&&j| j != i) {
                        let (s, t) = (inside(level, i, n), inside(level, j, n));
                        let found = edges.iter().find(|e| (e.from, e.to) == (i, j));
                        let Some(want) = within(&mesh, &level.node_of, n, s, t) else {
                            assert!(found.is_none(), "no way across, no intra-edge");
                            continue;
                        };
                        let e = found.expect("an intra-edge for every pair joined inside");
                        let half = |k: u32, p: u32| {
                            let (a, b) = level.inter[k as usize];
                            mesh.half_cost(p, mesh.portal(a, b).unwrap())
                        };
                        let want = half(i, s) + want + half(j, t);
                        assert!((e.cost - want).abs() < 1e-9, "{} vs {want}", e.cost);
                        // Its polygons: from one inter-edge's polygon to the other's, inside
                        // the node, each joined to the next, costing what the edge says.
                        let path = intra.path(e);
                        assert_eq!((path[0], *path.last().unwrap()), (s, t));
                        let mut cost = half(i, s) + half(j, t);
                        for w in path.windows(2) {
                            assert_eq!(level.node_of[w[1] as usize], n);
                            let c = mesh.neighbours(w[0]).find(|m| m.0 == w[1]).unwrap().1;
                            cost += c;
                        }
                        assert!((cost - e.cost).abs() < 1e-9);
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked} intra-edges checked");
}

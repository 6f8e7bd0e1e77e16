//! Tests of the voxel space: moves and the bounding-box rule, skipping, and leaving out what
//! the parent offered.

use super::*;

#[test]
fn moves_and_the_bounding_box_rule() {
    assert_eq!(moves(VoxelMoves::Six).len(), 6);
    assert_eq!(moves(VoxelMoves::Eighteen).len(), 18);
    assert_eq!(moves(VoxelMoves::TwentySix).len(), 26);
    let mut g = VoxelGrid::new(3, 3, 3).unwrap();
    let open = VoxelSpace::new(g.clone(), VoxelMoves::TwentySix);
    let centre = open.node(1, 1, 1).unwrap();
    assert_eq!(open.neighbours(centre).count(), 26);
    // One blocked voxel beside the centre removes every move whose box holds it: the face
    // move itself, 4 edge moves and 4 corner moves.
    g.set(2, 1, 1, true);
    let sp = VoxelSpace::new(g, VoxelMoves::TwentySix);
    assert_eq!(sp.neighbours(centre).count(), 26 - 9);
    // A corner voxel of the box has only outward moves blocked by the outside.
    let c = sp.node(0, 0, 0).unwrap();
    assert!(sp
        .neighbours(c)
        .all(|(m, _)| sp.xyz(m).iter().all(|&v| v <= 1)));
}

/// A set of voxels as one bool each, read the plain way.
struct Set(Vec<bool>);

impl NodeSet for Set {
    fn three(&self, i: usize) -> u32 {
        (0..3).map(|k| (self.0[i + k - 1] as u32) << k).sum()
    }
    fn contains(&self, i: usize) -> bool {
        self.0[i]
    }
}

/// The moves of voxel `n` found one by one: every offset of the kind whose bounding box
/// with `n` is inside and free (but for `n`) and whose target is not in `skip`, in offset
/// order.
fn moves_by_hand(sp: &VoxelSpace, n: NodeId, skip: &Set) -> Vec<(NodeId, f64)> {
    let [x, y, z] = sp.xyz(n).map(i64::from);
    let most = match sp.moves_kind() {
        VoxelMoves::Six => 1,
        VoxelMoves::Eighteen => 2,
        VoxelMoves::TwentySix => 3,
    };
    let mut out = vec![];
    for dz in -1..=1i64 {
        for dy in -1..=1i64 {
            for dx in -1..=1i64 {
                let axes = (dx != 0) as usize + (dy != 0) as usize + (dz != 0) as usize;
                if axes == 0 || axes > most {
                    continue;
                }
                let mut free = true;
                for bz in [0, dz] {
                    for by in [0, dy] {
                        for bx in [0, dx] {
                            let other = (bx, by, bz) != (0, 0, 0);
                            free &= !(other && sp.grid.is_blocked(x + bx, y + by, z + bz));
                        }
                    }
                }
                let m = sp.grid.index(x + dx, y + dy, z + dz);
                if let Some(m) = m.filter(|&m| free && !skip.0[m]) {
                    out.push((m as NodeId, (axes as f64).sqrt()));
                }
            }
        }
    }
    out
}

/// A box of 1 to 6 voxels a side (thin ones too, whose every voxel is on a face), each voxel
/// blocked with probability `p`.
fn random_box(rng: &mut impl rand::Rng, p: f64) -> VoxelGrid {
    let [w, h, d] = [0, 0, 0].map(|_| rng.random_range(1..=6u32));
    let mut g = VoxelGrid::new(w, h, d).unwrap();
    for i in 0..g.len() {
        if rng.random_bool(p) {
            let [x, y, z] = g.coords(i);
            g.set(x, y, z, true);
        }
    }
    g
}

/// The neighbours, and those left after skipping a set's voxels through the mask, are the
/// moves found one by one, with their costs, in order, for voxels inside the box and on
/// its faces, edges and corners, with every kind of moves.
#[test]
fn neighbours_and_skipping_match_moves_found_by_hand() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
    for round in 0..200 {
        let g = random_box(&mut rng, 0.2);
        let moves = VoxelMoves::ALL[round % 3];
        let sp = VoxelSpace::new(g, moves);
        let set = Set((0..sp.num_nodes()).map(|_| rng.random_bool(0.4)).collect());
        let none = Set(vec![false; sp.num_nodes()]);
        for n in 0..sp.num_nodes() as NodeId {
            let all: Vec<_> = sp.neighbours(n).collect();
            assert_eq!(
                all,
                moves_by_hand(&sp, n, &none),
                "round {round}, {:?}",
                sp.xyz(n)
            );
            let got: Vec<_> = sp
                .neighbours_masked(n, sp.skip_mask(n, NONE, &set))
                .collect();
            let want = moves_by_hand(&sp, n, &set);
            assert_eq!(got, want, "round {round}, voxel {:?}", sp.xyz(n));
        }
    }
}

/// Given the voxel a search reached `n` from, the mask leaves out exactly the moves of `n`
/// (found by hand) to voxels that voxel could move to itself, found by hand too, and each of
/// those moves is longer by 0.58 at least than the voxel's own: `n` could never better what it
/// offered. With terrain costs nothing more is left out.
#[test]
fn moves_the_parent_offered_are_left_out() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let none = Set(vec![false; 6 * 6 * 6]);
    for round in 0..300 {
        let mut g = random_box(&mut rng, 0.25);
        let terrain = round % 10 == 9;
        if terrain {
            g.put_cost(0, 0, 0, 2.0).unwrap();
            g.settle_costs();
        }
        let moves = VoxelMoves::ALL[round % 3];
        let sp = VoxelSpace::new(g, moves);
        let dist = |a: NodeId, b: NodeId| {
            let (p, q) = (sp.xyz(a), sp.xyz(b));
            (0..3)
                .map(|k| p[k].abs_diff(q[k]) as f64)
                .sum::<f64>()
                .sqrt()
        };
        for n in (0..sp.num_nodes() as NodeId).filter(|&n| sp.is_passable(n)) {
            let all = moves_by_hand(&sp, n, &none);
            for &(from, _) in &all {
                let theirs: Vec<NodeId> = moves_by_hand(&sp, from, &none)
                    .into_iter()
                    .map(|m| m.0)
                    .collect();
                let want: Vec<NodeId> = all
                    .iter()
                    .map(|e| e.0)
                    .filter(|m| terrain || !theirs.contains(m))
                    .collect();
                // (Ids only: terrain scales the costs the space gives.)
                let got: Vec<NodeId> = sp
                    .neighbours_masked(n, sp.skip_mask(n, from, &none))
                    .map(|e| e.0)
                    .collect();
                let at = (sp.xyz(n), sp.xyz(from));
                assert_eq!(got, want, "round {round}, voxel and parent {at:?}");
                for &(m, c) in all.iter().filter(|e| !got.contains(&e.0)) {
                    assert!(dist(from, m) + 0.58 < dist(from, n) + c, "{at:?} → {m}");
                }
            }
        }
    }
}

/// Line of sight through the clearance table follows edits: a wall drawn across a free
/// segment after the table was made blocks it, and rubbing the wall out frees it again (the
/// table is updated in a box around the edit, not made anew).
#[test]
fn line_of_sight_follows_edits_made_after_the_first_question() {
    use crate::map::{Cell, Grid};
    let g = VoxelGrid::new(80, 60, 5).unwrap();
    let mut sp = VoxelSpace::new(g, VoxelMoves::TwentySix).with_clearance_above(0);
    let (a, b) = (sp.node(2, 30, 2).unwrap(), sp.node(77, 33, 2).unwrap());
    // A world this small walks voxel by voxel unless told otherwise.
    let plain = VoxelSpace::new(sp.grid().clone(), VoxelMoves::TwentySix);
    assert_eq!(plain.line_of_sight(a, b), Some(true));
    assert!(format!("{plain:?}").contains("Clearance(not made)"));
    assert_eq!(sp.line_of_sight(a, b), Some(true));
    assert!(format!("{sp:?}").contains("Clearance(24000 voxels)"));
    // A wall across layer 2 at x = 40, drawn as a layer map is.
    let mut layer = Grid::new(80, 60, Cell::FREE);
    let wall: Vec<(u32, u32)> = (0..60).map(|y| (40, y)).collect();
    for &(x, y) in &wall {
        layer.set(x, y, Cell::WALL);
    }
    // A copy made before the edit shares the table and keeps seeing the world it copied.
    let before = sp.clone();
    sp.apply_layer_cells(2, &layer, &wall);
    assert_eq!(sp.line_of_sight(a, b), Some(false));
    assert_eq!(before.line_of_sight(a, b), Some(true));
    assert_eq!(
        before.line_of_sight(a, sp.node(40, 31, 2).unwrap()),
        Some(true)
    );
    // Either side of the wall still sees across its own half, and past it in layer 3.
    assert_eq!(sp.line_of_sight(a, sp.node(39, 59, 2).unwrap()), Some(true));
    let (a3, b3) = (sp.node(2, 30, 3).unwrap(), sp.node(77, 33, 3).unwrap());
    assert_eq!(sp.line_of_sight(a3, b3), Some(true));
    // One voxel of the wall rubbed out where the segment crosses it: free again.
    let gap: Vec<(u32, u32)> = (30..=33).map(|y| (40, y)).collect();
    for &(x, y) in &gap {
        layer.set(x, y, Cell::FREE);
    }
    sp.apply_layer_cells(2, &layer, &gap);
    assert_eq!(sp.line_of_sight(a, b), Some(true));
    // The same answers as a world made afresh and walked voxel by voxel, for segments all
    // over it.
    let fresh = VoxelSpace::new(sp.grid().clone(), VoxelMoves::TwentySix);
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
    for _ in 0..2000 {
        use rand::Rng;
        let mut p = || rng.random_range(0..sp.num_nodes()) as NodeId;
        let (p, q) = (p(), p());
        assert_eq!(sp.line_of_sight(p, q), fresh.line_of_sight(p, q));
    }
}

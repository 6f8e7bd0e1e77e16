//! View ▸ Map statistics on a small map whose numbers are counted here from its text: open
//! cells, components under 8 moves without corner cutting, mean branching; and again after an
//! edit opens the walled room.

use crate::common;

use common::{app_for, harness};
use egui_kittest::kittest::Queryable;
use pathlab::app::Command;
use pathlab::map::{Cell, Edit};

/// A walled room of two cells in an 8 × 6 field.
const ROWS: [&str; 6] = [
    "........", ".@@@@...", ".@..@...", ".@@@@...", "........", "........",
];

/// Open cells, components and moves of `rows` under 8 moves without corner cutting, counted
/// by a flood fill (the window uses union–find over the world's graph).
fn counted(rows: &[Vec<u8>]) -> (usize, usize, usize, usize) {
    let (w, h) = (rows[0].len() as i32, rows.len() as i32);
    let open =
        |x: i32, y: i32| x >= 0 && y >= 0 && x < w && y < h && rows[y as usize][x as usize] == b'.';
    let moves_from = |x: i32, y: i32| {
        let mut out = vec![];
        for (dx, dy) in [
            (-1, -1),
            (0, -1),
            (1, -1),
            (-1, 0),
            (1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
        ] {
            let diagonal = dx != 0 && dy != 0;
            if open(x + dx, y + dy) && (!diagonal || (open(x + dx, y) && open(x, y + dy))) {
                out.push((x + dx, y + dy));
            }
        }
        out
    };
    let mut seen = vec![vec![false; w as usize]; h as usize];
    let (mut cells, mut moves, mut components, mut largest) = (0, 0, 0, 0);
    for y in 0..h {
        for x in 0..w {
            if !open(x, y) {
                continue;
            }
            cells += 1;
            moves += moves_from(x, y).len();
            if seen[y as usize][x as usize] {
                continue;
            }
            components += 1;
            let (mut size, mut stack) = (0, vec![(x, y)]);
            seen[y as usize][x as usize] = true;
            while let Some((a, b)) = stack.pop() {
                size += 1;
                for (c, d) in moves_from(a, b) {
                    if !seen[d as usize][c as usize] {
                        seen[d as usize][c as usize] = true;
                        stack.push((c, d));
                    }
                }
            }
            largest = largest.max(size);
        }
    }
    (cells, components, largest, moves)
}

#[test]
fn map_statistics_count_the_open_world_and_follow_its_edits() {
    let dir = crate::support::scratch_root().join("pathlab-map-stats");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("room.map");
    let text = format!("type octile\nheight 6\nwidth 8\nmap\n{}\n", ROWS.join("\n"));
    std::fs::write(&file, text).unwrap();
    let mut rows: Vec<Vec<u8>> = ROWS.iter().map(|r| r.as_bytes().to_vec()).collect();

    let mut app = app_for("map-stats");
    app.apply(Command::Open(Some(file)));
    assert_eq!(app.doc().grid.width(), 8, "the map opened");
    app.apply(Command::OpenPart("map-stats"));
    let mut h = harness(app);
    h.run();
    let check = |h: &mut common::AppHarness, rows: &[Vec<u8>]| {
        let (cells, components, largest, moves) = counted(rows);
        h.get_by_label(&format!("{cells} of 48"));
        h.get_by_label(&format!("{components} (largest {largest})"));
        h.get_by_label(&format!("{:.3} moves", moves as f64 / cells as f64));
    };
    // 38 open cells: the room's two and the field's 36, apart.
    let (cells, components, largest, _) = counted(&rows);
    assert_eq!((cells, components, largest), (38, 2, 36));
    check(&mut h, &rows);

    // A door in the room's top wall: one component.
    h.state_mut()
        .apply(Command::Edit(Edit::Cells(vec![(2, 1, Cell::FREE)])));
    rows[1][2] = b'.';
    h.run();
    assert_eq!(counted(&rows).1, 1);
    check(&mut h, &rows);
    let _ = std::fs::remove_dir_all(&dir);
}

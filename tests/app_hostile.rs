//! The app against hostile input: maps past the GPU's texture limit, files that do not load.

use crate::common;

use common::*;
use egui_kittest::kittest::Queryable;
use pathlab::map::{Cell, Grid};
use pathlab::search::{Query, Search, SearchState};
use pathlab::space::{GridSpace, Heuristic, Space};
use pathlab::trace::NullTracer;

fn temp_dir(test: &str) -> std::path::PathBuf {
    let d = crate::support::scratch_root().join(format!("pathlab-hostile-{test}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Maps wider or taller than one texture may be (16,385 × 2, 2 × 17,000: the GPU limit here is
/// 8192 or 16384) open, draw every cell in tiles and search to the core's cost.
#[test]
fn maps_past_the_texture_limit_open_draw_and_search() {
    let dir = temp_dir("wide");
    for (w, h) in [(16385u32, 2u32), (2, 17000)] {
        let mut grid = Grid::new(w, h, Cell::FREE);
        // A wall near the far end, so a wrong tile offset shows as a wrong colour there.
        grid.set(w - 1, 0, Cell::WALL);
        let file = dir.join(format!("{w}x{h}.map"));
        pathlab::map::io::write_map_file(&grid, &file).unwrap();
        let mut app = default_app();
        app.open_now(&file).unwrap();
        let mut hs = harness(app);
        hs.run();
        hs.get_by_label(">|").click();
        for _ in 0..200 {
            hs.run();
            if hs.state().views()[0].run.path_visible() {
                break;
            }
        }
        // Drawn by the GPU (wgpu, its texture limit 8192): one texture this size would fail.
        let shot = hs.render().expect("the map renders");
        assert_eq!((shot.width(), shot.height()), (1280, 800));
        let app = hs.state();
        let (start, goal) = (app.doc().start, app.doc().goal);
        let sp = GridSpace::octile(&grid);
        let q = Query {
            start: sp.node(start.0, start.1).unwrap(),
            goal: sp.node(goal.0, goal.1).unwrap(),
        };
        let mut a = pathlab::search::AStar::new(&sp, q, Heuristic::Octile);
        a.run(&sp, &mut NullTracer);
        let cost = app.views()[0].run.cost().expect("the app found a path");
        assert!((cost - a.cost().unwrap()).abs() < 1e-9, "{w}×{h}: {cost}");
        // The wall's colour and a free cell's differ, wherever their tile is.
        let view = &app.views()[0];
        let (wall, free) = (view.pixel(w - 1, 0), view.pixel(0, h - 1));
        assert!(wall.is_some() && free.is_some() && wall != free, "{w}×{h}");
        assert!(sp.num_nodes() == (w * h) as usize);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file that does not load, opened in the app, is said in a dialog that stays until closed,
/// and the document is left as it was; a project naming an unknown algorithm is one of them.
#[test]
fn a_file_that_does_not_load_is_shown_in_a_dialog() {
    let dir = temp_dir("dialog");
    let bad = dir.join("unknown.ron");
    std::fs::write(
        &bad,
        "(version: 1, rows: [\"..\"],\n algorithms: [(name: \"nosuch\")])",
    )
    .unwrap();
    let mut h = harness(default_app());
    h.run();
    let before = h.state().doc().grid.clone();
    drop_file(&mut h, &bad);
    h.run();
    h.get_by_label("Could not open the file");
    assert_eq!(
        h.query_all_by_label_contains("unknown.ron:2: unknown algorithm `nosuch`")
            .count(),
        2,
        "the dialog and the status line"
    );
    assert_eq!(h.state().doc().grid, before);
    assert_eq!(h.state().views().len(), 1, "the views stay");
    // It stays over later frames, until OK.
    h.run();
    h.get_by_label("OK").click();
    h.run();
    assert!(h.query_by_label("Could not open the file").is_none());
    // A scenario problem on a blocked cell, and one far outside the map, are refused too.
    let map = dir.join("s.map");
    std::fs::write(&map, "type octile\nheight 2\nwidth 2\nmap\n.@\n..\n").unwrap();
    for (name, line, why) in [
        (
            "blocked.scen",
            "0\ts.map\t2\t2\t1\t0\t0\t1\t1",
            "start (1, 0) is on a blocked cell",
        ),
        (
            "far.scen",
            "0\ts.map\t2\t2\t0\t0\t4294967295\t4294967295\t1",
            "goal (4294967295, 4294967295) is outside the 2×2 map",
        ),
    ] {
        let scen = dir.join(name);
        std::fs::write(&scen, format!("version 1\n{line}\n")).unwrap();
        drop_file(&mut h, &scen);
        h.run();
        let said = format!("{name}:2: {why}");
        assert_eq!(h.query_all_by_label_contains(&said).count(), 2, "{said}");
        assert!(h.state().doc().problems.is_empty());
        h.get_by_label("OK").click();
        h.run();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

//! Files as a browser page has them: given by name and contents (picked or dropped, no folder,
//! no disk), and written by handing them over (a page downloads them). The page's own glue
//! (the picker, the download) needs a browser; this is everything behind it, run natively.

use crate::common;

use common::{app_for, harness};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What the app handed over instead of writing to disk: name and contents.
static HANDED: Mutex<Vec<(PathBuf, Vec<u8>)>> = Mutex::new(Vec::new());

fn hand_over(path: &Path, data: &[u8]) -> Result<(), String> {
    HANDED
        .lock()
        .unwrap()
        .push((path.to_path_buf(), data.to_vec()));
    Ok(())
}

const MAP: &str = "type octile\nheight 3\nwidth 5\nmap\n.....\n.@@@.\n.....\n";

#[test]
fn a_scenario_given_with_its_map_opens_and_a_save_is_handed_over_not_written() {
    // Neither file exists on disk: the scenario finds its map among the files given with it.
    let scen = "version 1\n0\tgiven.map\t5\t3\t0\t1\t4\t1\t4.82842712\n\
                0\tgiven.map\t5\t3\t0\t0\t4\t2\t4.82842712\n";
    assert!(!Path::new("given.map").exists());
    let given = vec![
        (PathBuf::from("given.map"), MAP.as_bytes().to_vec()),
        (PathBuf::from("given.map.scen"), scen.as_bytes().to_vec()),
    ];
    let mut app = app_for("web-files");
    app.open_given(given);
    assert_eq!(
        (app.doc().grid.width(), app.doc().grid.height()),
        (5, 3),
        "{}",
        app.status()
    );
    assert_eq!(app.doc().problems.len(), 2, "{}", app.status());
    assert_eq!((app.doc().start, app.doc().goal), ((0, 1), (4, 1)));

    // A scenario given without its map says which file is missing and how to give it.
    let lone = vec![(PathBuf::from("given.map.scen"), scen.as_bytes().to_vec())];
    app.open_given(lone);
    assert!(
        app.status()
            .contains("cannot find the map this scenario names"),
        "{}",
        app.status()
    );
    assert_eq!(app.doc().problems.len(), 2, "the open document stays");

    // Every write goes to the hand-over, none to the disk.
    pathlab::map::io::write_files_to(hand_over);
    let out = crate::support::scratch_root().join("pathlab-web-files.map");
    app.save_to(&out);
    assert!(!out.exists(), "nothing is written to disk");
    let handed = HANDED.lock().unwrap().clone();
    assert_eq!(handed.len(), 1, "{}", app.status());
    assert_eq!(handed[0].0, out);
    assert_eq!(String::from_utf8(handed[0].1.clone()).unwrap(), MAP);

    // The app draws and settles on the given world.
    let mut h = harness(app);
    h.run();
}

//! File ▸ Open trace: the app's own run exported as a Posthoc trace and opened again plays
//! back in a view beside the live run, step for step the same events, the same path and cost;
//! a project saved with it opens it again (and refuses it, saying why, once the file is gone);
//! a malformed trace is refused with its file and line, and no view is added.

use crate::common;

use common::{default_app, harness};
use pathlab::app::{AlgoChoice, Command};

#[test]
fn an_exported_trace_plays_back_beside_the_run() {
    let dir = crate::support::scratch_root().join("pathlab-app-trace");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("run.trace.yaml");
    let mut h = harness(default_app());
    h.run();
    h.state_mut()
        .set_algorithm(0, AlgoChoice::named("theta-star"));
    h.state_mut().apply(Command::ToEnd);
    h.run();
    // What File ▸ Export Posthoc trace writes.
    let yaml = common::posthoc_yaml(&mut h);
    std::fs::write(&file, yaml).unwrap();
    h.state_mut().apply(Command::OpenTrace(Some(file.clone())));
    h.run();
    assert_eq!(h.state().views().len(), 2);
    assert_eq!(
        h.state().views()[1].run.choice.label(),
        "Trace: run.trace.yaml"
    );
    h.state_mut().apply(Command::ToEnd);
    h.run();
    let (live, played) = (
        h.state_mut().run_mut(0).rec.clone(),
        h.state_mut().run_mut(1).rec.clone(),
    );
    assert_eq!(live.len(), played.len());
    for (i, (a, b)) in live.iter().zip(played.iter()).enumerate() {
        let same_f = |x: f32, y: f32| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
        assert!(
            a.kind == b.kind
                && a.node == b.node
                && a.other == b.other
                && same_f(a.a, b.a)
                && same_f(a.b, b.b),
            "event {i}: {a:?} played as {b:?}"
        );
    }
    assert_eq!(
        h.state_mut().run_mut(0).steps(),
        h.state_mut().run_mut(1).steps()
    );
    let (p0, p1) = (
        h.state_mut().run_mut(0).path().map(|p| p.to_vec()),
        h.state_mut().run_mut(1).path().map(|p| p.to_vec()),
    );
    assert!(p0.is_some());
    assert_eq!(p0, p1);
    // Stepping moves both views together.
    h.state_mut().apply(Command::GoTo(5));
    h.run();
    let cur: Vec<_> = (0..2)
        .map(|i| h.state_mut().run_mut(i).current_node())
        .collect();
    assert_eq!(cur[0], cur[1]);

    // Saved as a project, the trace view names its file beside the project and opens again
    // as the same trace; once the file is gone, the project opens without it and says why.
    let project = dir.join("with-trace.ron");
    h.state_mut().save_to(&project);
    let text = std::fs::read_to_string(&project).unwrap();
    assert!(text.contains(r#"trace: Some("run.trace.yaml")"#), "{text}");
    h.state_mut().open_now(&project).unwrap();
    h.run();
    let names: Vec<String> = (h.state().views().iter())
        .map(|v| v.run.choice.label())
        .collect();
    assert_eq!(names, ["Theta*", "Trace: run.trace.yaml"]);
    h.state_mut().apply(Command::ToEnd);
    h.run();
    assert_eq!(h.state_mut().run_mut(1).rec.len(), live.len());
    let moved = dir.join("moved.trace.yaml");
    std::fs::rename(&file, &moved).unwrap();
    h.state_mut().open_now(&project).unwrap();
    h.run();
    assert_eq!(
        h.state().views().len(),
        1,
        "no stand-in for the missing trace"
    );
    let status = h.state().status().to_string();
    assert!(status.contains("run.trace.yaml"), "{status}");
    std::fs::rename(&moved, &file).unwrap();
    h.state_mut().apply(Command::OpenTrace(Some(file.clone())));
    h.run();

    let bad = dir.join("bad.trace.yaml");
    std::fs::write(&bad, "events:\n  - { type: expanding, id: 1, g: lots }\n").unwrap();
    h.state_mut().apply(Command::OpenTrace(Some(bad.clone())));
    h.run();
    assert_eq!(h.state().views().len(), 2, "no view for a bad trace");
    let status = h.state().status().to_string();
    assert!(
        status.contains(&format!("{}:2:", bad.display())),
        "{status}"
    );
}

#[test]
fn a_view_exports_as_svg_with_its_cells_path_and_legend() {
    let mut h = harness(default_app());
    h.run();
    h.state_mut().apply(Command::ToEnd);
    h.run();
    let svg = h.state_mut().view_svg(0).unwrap();
    let (w, hgt) = {
        let s = h.state().space();
        (s.width() as usize, s.height() as usize)
    };
    let rects = svg.matches("<rect").count();
    assert!(
        rects < w * hgt / 4,
        "{rects} rectangles for {w}×{hgt} cells"
    );
    // The path: one polyline (and its outline) through as many points as the path has nodes.
    let path_len = h.state_mut().run_mut(0).path().unwrap().len();
    let line = svg
        .lines()
        .find(|l| l.starts_with("<polyline"))
        .expect("the path");
    let pts = line.split('"').nth(1).unwrap().split(' ').count();
    assert_eq!(pts, path_len);
    assert_eq!(svg.matches("<polyline").count(), 2);
    for label in [
        "closed (expanded)",
        "open (waiting)",
        "path",
        "start",
        "goal",
        "wall",
    ] {
        assert!(svg.contains(&format!(">{label}</text>")), "legend: {label}");
    }
    assert!(svg.trim_end().ends_with("</svg>"));
}

/// A trace dropped on the window (or opened from the recent files: both go through `Open`, not
/// `Open trace`) is still a view on the map that is open: over unsaved edits it asks nothing
/// and the edits stay.
#[test]
fn a_trace_opened_over_unsaved_edits_asks_nothing_and_keeps_them() {
    use egui_kittest::kittest::Queryable;
    use pathlab::map::{Cell, Edit};
    let dir = crate::support::scratch_root().join("pathlab-app-trace-dirty");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("run.trace.yaml");
    let mut h = harness(default_app());
    h.run();
    h.state_mut().apply(Command::ToEnd);
    h.run();
    let yaml = common::posthoc_yaml(&mut h);
    std::fs::write(&file, yaml).unwrap();
    // An unsaved edit on a cell the run never touched (so the trace's events stay off walls).
    let touched: std::collections::HashSet<u32> = h
        .state_mut()
        .run_mut(0)
        .rec
        .iter()
        .flat_map(|e| [e.node, e.other])
        .collect();
    let (x, y) = {
        let grid = &h.state().doc().grid;
        let w = grid.width();
        (0..w * grid.height())
            .rev()
            .find(|n| !touched.contains(n) && grid.get(n % w, n / w) == Some(Cell::FREE))
            .map(|n| (n % w, n / w))
            .expect("a free cell the run never touched")
    };
    h.state_mut().edit(Edit::SetCell {
        x,
        y,
        cell: Cell::WALL,
    });
    h.run();
    let edited = h.state().doc().grid.clone();
    assert!(h.state().doc().dirty);
    common::drop_file(&mut h, &file);
    h.run();
    assert!(
        h.query_by_label("Discard").is_none(),
        "opening a trace asked to discard the map"
    );
    assert_eq!(h.state().views().len(), 2, "{}", h.state().status());
    assert!(h.state().doc().dirty);
    assert_eq!(h.state().doc().grid, edited);
    std::fs::remove_dir_all(&dir).ok();
}

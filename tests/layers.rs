//! The layers of `src/` point one way (docs/architecture.md, "Layers"): each rule names a
//! folder or file and the modules it must not import, read from the source text, so an arrow
//! pointing up fails here rather than in a review.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `path` (or `path` itself).
fn sources(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut out = vec![];
    for e in std::fs::read_dir(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())) {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(sources(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out
}

/// The lines of the files under `path` that name `crate::{module}` outside comments.
fn imports(path: &str, module: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let needle = format!("crate::{module}");
    let mut found = vec![];
    for file in sources(&root.join(path)) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let hit = code.match_indices(&needle).any(|(at, _)| {
                // `crate::map` names map, not `crate::mapping`.
                !code[at + needle.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            });
            if hit {
                let rel = file.strip_prefix(&root).unwrap().display();
                found.push(format!("src/{rel}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn layers_point_one_way() {
    // (folder or file under src/, modules it must not import, why)
    let rules: &[(&str, &[&str], &str)] = &[
        (
            "search/registry.rs",
            &["hier", "vehicle", "world", "algorithms"],
            "the registry's words sit below the list of algorithms that uses them",
        ),
        (
            "map",
            &["space", "search", "world", "project", "algorithms", "app"],
            "maps and their formats sit below the graphs made of them",
        ),
        (
            "map/io",
            &["search", "algorithms", "world", "open"],
            "file formats ask nothing of the searches or the worlds",
        ),
        (
            "car",
            &["space", "search", "vehicle", "world"],
            "the car's physics sit below the lattice built from it",
        ),
        (
            "space",
            &["vehicle", "world", "algorithms", "hier", "app"],
            "graphs sit below the families and the planner",
        ),
        (
            "search",
            &["algorithms", "hier", "vehicle", "world", "app"],
            "searches sit below the list that names them",
        ),
        (
            "hier",
            &["algorithms", "world", "app"],
            "hierarchies' searches are named by the list above them",
        ),
        (
            "vehicle",
            &["algorithms", "world", "app"],
            "the planner is named by the list above it",
        ),
        (
            "world",
            &["algorithms", "app"],
            "the list of algorithms reads the families",
        ),
        (
            "project.rs",
            &["algorithms", "open", "app"],
            "the project file names families and algorithms; open.rs checks them",
        ),
        (
            "algorithms",
            &["app", "open"],
            "the list sits below the files and the app",
        ),
    ];
    let mut broken = vec![];
    for (path, banned, why) in rules {
        for m in *banned {
            for line in imports(path, m) {
                broken.push(format!("{line}\n    ({path} must not import {m}: {why})"));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "arrows pointing up:\n{}",
        broken.join("\n")
    );
}

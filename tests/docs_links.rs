//! The documentation's relative links resolve, and the README stays a front door.

use std::path::{Path, PathBuf};

/// Every markdown page of the repository's documentation.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("README.md"), root.join("shaders/README.md")];
    for e in std::fs::read_dir(root.join("docs")).expect("docs/ exists") {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
    out
}

/// The targets of `[text](target)` links on a page (code spans included: a path quoted as a
/// link there must resolve too).
fn links(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(j) = rest.find(')') {
            out.push(rest[..j].to_string());
            rest = &rest[j..];
        }
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = vec![];
    let mut checked = 0;
    for page in pages(root) {
        let text = std::fs::read_to_string(&page).unwrap();
        for l in links(&text) {
            let target = l.split('#').next().unwrap_or("").trim();
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let p = page.parent().unwrap().join(target);
            if !p.exists() {
                broken.push(format!("{}: {l}", page.display()));
            }
        }
    }
    assert!(
        checked >= 20,
        "only {checked} relative links found: is the scan broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_readme_is_a_front_door() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines <= 250,
        "README.md has {lines} lines: move detail into docs/"
    );
    // The two commands a fresh machine needs come first.
    let head: String = text.lines().take(30).collect::<Vec<_>>().join("\n");
    assert!(head.contains("cargo run --release"), "{head}");
    assert!(head.contains("cargo test --release"), "{head}");
}

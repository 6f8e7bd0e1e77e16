//! `pathlab hier build` on maps it cannot afford: the memory it will take is printed before the
//! build and a build over the cap is refused in one line; a partition that fails ends the
//! command in one line. Small generated maps keep these fast; the big ones the figures in
//! docs/hierarchy.md come from are written by the ignored `write_random_map` below.

use pathlab::map::Generator;
use std::path::PathBuf;
use std::process::Command;

fn scratch(test: &str) -> PathBuf {
    let d = crate::support::scratch_root().join(format!("pathlab-hier-build-{test}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A `side × side` map with 25% random blocks from the project's generator.
fn random_map(dir: &std::path::Path, side: u32, seed: u64) -> PathBuf {
    let path = dir.join(format!("random{side}-25-{seed}.map"));
    let grid = Generator::RandomBlocks { density: 0.25 }.generate(side, side, seed);
    pathlab::map::io::write_map_file(&grid, &path).unwrap();
    path
}

/// Writes the map the hand measurements use: `PATHLAB_MAP_SIDE` (e.g. 4096) cells square, 25%
/// random blocks, seed `PATHLAB_MAP_SEED` (default 1), to `PATHLAB_MAP_OUT`.
#[test]
#[ignore = "writes a big map for hand measurements"]
fn write_random_map() {
    let side: u32 = std::env::var("PATHLAB_MAP_SIDE").unwrap().parse().unwrap();
    let seed: u64 = std::env::var("PATHLAB_MAP_SEED").map_or(1, |s| s.parse().unwrap());
    let out = PathBuf::from(std::env::var("PATHLAB_MAP_OUT").unwrap());
    let grid = Generator::RandomBlocks { density: 0.25 }.generate(side, side, seed);
    pathlab::map::io::write_map_file(&grid, &out).unwrap();
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn pathlab(args: &[&str], env: &[(&str, &str)]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    Run {
        code: out.status.code().expect("not killed by a signal"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The one line of a refusal on stderr.
fn one_line(r: &Run, what: &str) -> String {
    assert_eq!(r.code, 2, "{what}: exit {}: {}", r.code, r.stderr);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{what}: not one line: {:?}", r.stderr);
    assert!(lines[0].starts_with("pathlab: "), "{what}: {}", lines[0]);
    lines[0].to_string()
}

/// The number after `key` in `text` (`key 12` or `key: 12`).
fn number_after(text: &str, key: &str) -> usize {
    let at = text
        .find(key)
        .unwrap_or_else(|| panic!("no `{key}` in {text}"))
        + key.len();
    text[at..]
        .trim_start_matches([':', ' '])
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("no number after `{key}` in {text}"))
}

#[test]
fn the_memory_a_build_takes_is_stated_first_and_a_build_over_the_cap_is_refused() {
    let dir = scratch("estimate");
    let map = random_map(&dir, 256, 3);
    let m = map.to_str().unwrap();
    // Under the cap: the estimate comes first (stderr), and it is not below what was built.
    let r = pathlab(&["hier", "build", "--map", m, "--pccp"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let said = r
        .stdout
        .lines()
        .find(|l| l.starts_with("memory: about "))
        .unwrap_or_else(|| panic!("no estimate: {}", r.stdout));
    let (hier_mb, pccp_mb) = (
        number_after(said, "hierarchy "),
        number_after(said, "PCCP "),
    );
    let bytes = number_after(&r.stdout, "\nbytes");
    let table = r.stdout.lines().find(|l| l.starts_with("pccp: ")).unwrap();
    let table_bytes: usize = table
        .split(", ")
        .nth(2)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(hier_mb * 1_000_000 >= bytes, "{said} against {bytes} bytes");
    assert!(pccp_mb * 1_000_000 >= table_bytes, "{said} against {table}");
    assert!(said.contains("the cap is 4000 MB"), "{said}");
    // Over it: one line, naming the map, the need and the flag, before any work.
    let r = pathlab(
        &["hier", "build", "--map", m, "--pccp", "--max-memory", "1"],
        &[],
    );
    let line = one_line(&r, "--max-memory 1");
    for says in [m, "refusing to build", "MB", "--max-memory"] {
        assert!(line.contains(says), "{line} does not say {says}");
    }
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The build itself never holds more than its budget: PCCP's table is weighed before it is
/// built, and one byte less than the whole hierarchy needs stops it with the reason.
#[test]
fn a_build_stops_before_it_holds_more_than_its_budget() {
    use pathlab::hier::hna::{Budget, Hierarchy};
    use pathlab::space::{NavmeshSpace, TerrainRule};
    let grid = Generator::RandomBlocks { density: 0.25 }.generate(96, 80, 7);
    let mesh = NavmeshSpace::new(&grid, TerrainRule::Class);
    let whole = Hierarchy::build(&mesh, 4, 2, true, &|_, _| {}).unwrap();
    let need = whole.bytes() + whole.pccp.as_ref().unwrap().bytes();
    let within = |max_bytes| {
        let budget = Budget {
            max_bytes,
            progress: &|_, _| {},
            stop: &|| false,
        };
        Hierarchy::build_within(&mesh, 4, 2, true, &budget)
    };
    let fits = within(need).unwrap();
    assert_eq!(fits.bytes(), whole.bytes());
    assert_eq!(fits.pccp, whole.pccp);
    let e = within(need - 1).unwrap_err();
    assert!(e.contains("PCCP's table") && e.contains("more than"), "{e}");
    // Intra-edges are weighed as they grow.
    let e = within(whole.levels.bytes() + 1).unwrap_err();
    assert!(e.contains("L1 intra-edges"), "{e}");
}

/// PCCP's entries link to the next polygon's entry: every path so read runs from the entry's
/// polygon through adjacent polygons of its region to the crossing's side, and costs what
/// the entry says.
#[test]
fn pccp_paths_read_through_their_links_are_the_connecting_paths() {
    use pathlab::hier::hna::Hierarchy;
    use pathlab::space::{NavmeshSpace, Space, TerrainRule};
    let mut checked = 0;
    for seed in 0..20 {
        let grid = Generator::RandomBlocks { density: 0.2 }.generate(40, 30, seed);
        let mesh = NavmeshSpace::new(&grid, TerrainRule::Class);
        if mesh.polygons() < 2 {
            continue;
        }
        let h = Hierarchy::build(&mesh, 3, 2, true, &|_, _| {}).unwrap();
        let (g, table) = (&h.graph, h.pccp.as_ref().unwrap());
        for n in 0..mesh.num_nodes() as u32 {
            let r = g.region_of(n);
            // Each crossing of the region once, in the region's order (regions are connected).
            let crossings: Vec<u32> = table.of(n).iter().map(|e| e.vertex).collect();
            assert_eq!(crossings, g.vertices_of(r), "polygon {n}");
            for e in table.of(n) {
                let path = table.path(e);
                assert_eq!(path[0], n);
                assert_eq!(*path.last().unwrap(), g.inside(e.vertex, r));
                let mut cost = g.half_at(e.vertex, *path.last().unwrap());
                for w in path.windows(2) {
                    assert_eq!(g.region_of(w[1]), r, "left the region");
                    cost += mesh
                        .neighbours(w[0])
                        .find(|&(m, _)| m == w[1])
                        .unwrap_or_else(|| panic!("{} and {} are not adjacent", w[0], w[1]))
                        .1;
                }
                assert!(
                    (cost - e.cost).abs() <= 1e-9 * cost.max(1.0),
                    "{cost} {}",
                    e.cost
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked} entries checked");
}

/// A partition METIS fails ends the command in one line naming the map and the level; no
/// hierarchy of another partitioner is made in its place.
#[test]
fn a_failed_partition_ends_the_build_in_one_line() {
    let dir = scratch("metis");
    let map = random_map(&dir, 64, 5);
    let m = map.to_str().unwrap();
    let var = pathlab::hier::partition::FAIL_METIS_VAR;
    for extra in [&[][..], &["--pccp"]] {
        let r = pathlab(
            &[&["hier", "build", "--map", m][..], extra].concat(),
            &[(var, "1")],
        );
        let line = one_line(&r, "a failed partition");
        for says in [m, "partitioning L1", "METIS", "parts"] {
            assert!(line.contains(says), "{line} does not say {says}");
        }
        // What was stated before the build, and nothing of a hierarchy.
        assert!(r.stdout.contains("memory: about"), "{}", r.stdout);
        assert!(!r.stdout.contains("graph:"), "{}", r.stdout);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

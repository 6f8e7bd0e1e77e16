//! The command-line contract: output forms, exit codes, and one-line errors (never a panic).

use crate::cli_support;

use cli_support::*;

#[test]
fn solve_prints_the_agreed_csv_and_exits_0_when_all_optimal() {
    let m = write("s.map", MAP);
    let s = write(
        "s.scen",
        "version 1\n0\ts.map\t4\t3\t0\t0\t3\t2\t5\n0\ts.map\t4\t3\t0\t0\t3\t1\t4\n",
    );
    let out = pathlab(&["solve", "--map", &m, "--scen", &s]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "id,sx,sy,gx,gy,optimal,length,expanded,generated,micros,ok"
    );
    assert_eq!(lines.len(), 3);
    let row: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(&row[..7], ["0", "0", "0", "3", "2", "5", "5.00000000"]);
    assert_eq!(row[10], "true");
    assert!(out.status.success());
    // --every 2 takes problems 0, 2, ...; a wrong optimum makes the exit code 1.
    let s2 = write(
        "s2.scen",
        "version 1\n0\ts.map\t4\t3\t0\t0\t3\t2\t4.9\n0\ts.map\t4\t3\t0\t1\t3\t1\t5\n",
    );
    let out = pathlab(&["solve", "--map", &m, "--scen", &s2, "--every", "2"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
}

#[test]
fn bad_input_gets_one_line_naming_the_file_and_line() {
    let m = write("b.map", MAP);
    let truncated = write("t.map", "type octile\nheight 3\nwidth 4\nmap\n....\n.@\n");
    let s = write("b.scen", "version 1\n0\tb.map\t4\t3\t0\t0\t1\t1\t1\n");
    let err = one_clean_line(&pathlab(&["solve", "--map", &truncated, "--scen", &s]));
    assert!(err.contains("t.map:6:"), "{err}");
    let blocked = write("blocked.scen", "version 1\n0\tb.map\t4\t3\t0\t0\t1\t1\t1\n");
    let err = one_clean_line(&pathlab(&["solve", "--map", &m, "--scen", &blocked]));
    assert!(
        err.contains("blocked.scen:2:") && err.contains("blocked"),
        "{err}"
    );
    let err = one_clean_line(&pathlab(&[
        "solve", "--map", &m, "--scen", &s, "--algo", "nope",
    ]));
    assert!(err.contains("unknown algorithm `nope`"), "{err}");
    let err = one_clean_line(&pathlab(&["solve", "--map", "/no/such.map", "--scen", &s]));
    assert!(err.contains("/no/such.map"), "{err}");
    let err = one_clean_line(&pathlab(&[
        "trace", "--map", &m, "--start", "1,1", "--goal", "0,0", "--out", "x.ron",
    ]));
    assert!(err.contains("start (1, 1) is on a blocked cell"), "{err}");
    let garbage = write("g.scen", "version 1\n0\tb.map\t4\t3\t0\t0\t3\tx\t1\n");
    let err = one_clean_line(&pathlab(&["solve", "--map", &m, "--scen", &garbage]));
    assert!(err.contains("g.scen:2:"), "{err}");
}

#[test]
fn trace_writes_a_run_and_a_posthoc_trace() {
    let m = write("tr.map", MAP);
    let run = tmp("run.ron");
    let ph = tmp("run.trace.yaml");
    let out = pathlab(&[
        "trace",
        "--map",
        &m,
        "--start",
        "0,1",
        "--goal",
        "3,1",
        "--algo",
        "astar",
        "--out",
        run.to_str().unwrap(),
        "--posthoc",
        ph.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = pathlab::trace::run_file::RunFile::read(&run).unwrap();
    assert_eq!(
        (r.status.as_str(), r.start, r.goal),
        ("found", (0, 1), (3, 1))
    );
    assert!(
        (r.cost.unwrap() - 5.0).abs() < 1e-9,
        "walls force five straight moves"
    );
    assert_eq!(r.path.first(), Some(&(0, 1)));
    assert_eq!(
        r.stats.expanded as usize,
        r.events
            .iter()
            .filter(|e| e.kind == pathlab::trace::EventKind::Expand)
            .count()
    );
    let yaml = std::fs::read_to_string(&ph).unwrap();
    assert!(yaml.starts_with("version: 1.4.0\n"));
    assert!(yaml.contains("type: expanding") && yaml.contains("pId:"));
}

#[test]
fn convert_round_trips_map_and_project() {
    let m = write("c.map", MAP);
    let ron = tmp("c.ron");
    let back = tmp("c2.map");
    assert!(pathlab(&["convert", &m, ron.to_str().unwrap()])
        .status
        .success());
    assert!(
        pathlab(&["convert", ron.to_str().unwrap(), back.to_str().unwrap()])
            .status
            .success()
    );
    assert_eq!(std::fs::read_to_string(back).unwrap(), MAP);
}

#[test]
fn connectivity_and_terrain_rule_flags_change_the_graph() {
    // Four moves: the 3-step diagonal route becomes 6 straight moves.
    let m = write(
        "r.map",
        "type octile\nheight 4\nwidth 4\nmap\n....\n....\n....\n....\n",
    );
    let s = write("r.scen", "version 1\n0\tr.map\t4\t4\t0\t0\t3\t3\t6\n");
    assert_eq!(
        pathlab(&["solve", "--map", &m, "--scen", &s]).status.code(),
        Some(1)
    );
    assert!(
        pathlab(&["solve", "--map", &m, "--scen", &s, "--connectivity", "4"])
            .status
            .success()
    );
    // Swamp is passable under the class rule, a wall under `ground`.
    let sw = write("sw.map", "type octile\nheight 1\nwidth 3\nmap\n.S.\n");
    let ss = write("sw.scen", "version 1\n0\tsw.map\t3\t1\t0\t0\t2\t0\t2\n");
    assert!(pathlab(&["solve", "--map", &sw, "--scen", &ss])
        .status
        .success());
    let out = pathlab(&["solve", "--map", &sw, "--scen", &ss, "--terrain", "ground"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains(",inf,"));
}

/// `--world hex`: the map becomes hexes; `solve` checks each length against a Dijkstra on the
/// hexes (the file's optima are for squares), `convert` writes a hex project that reads back,
/// and bad hex flags or a bad hex project are one clean line each.
#[test]
fn hex_worlds_from_the_command_line() {
    let map = "type octile\nheight 8\nwidth 12\nmap\n............\n............\n.....@......\n.....@......\n.....@......\n............\n............\n............\n";
    let m = write("hex.map", map);
    let s = write(
        "hex.scen",
        "version 1\n0\thex.map\t12\t8\t1\t3\t10\t3\t9\n0\thex.map\t12\t8\t1\t1\t9\t6\t10\n",
    );
    for o in ["pointy", "flat"] {
        for algo in ["astar", "dijkstra", "dstar-lite", "ad-star"] {
            let out = pathlab(&[
                "solve",
                "--map",
                &m,
                "--scen",
                &s,
                "--world",
                "hex",
                "--hex-size",
                "1.5",
                "--hex-orientation",
                o,
                "--algo",
                algo,
            ]);
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{o} {algo}: {text}");
            let rows: Vec<&str> = text.lines().skip(1).collect();
            assert_eq!(rows.len(), 2, "{text}");
            assert!(rows.iter().all(|r| r.ends_with(",true")), "{text}");
        }
    }
    // Octile overestimates on hexes: refused, naming the fitting ones.
    let out = pathlab(&[
        "solve",
        "--map",
        &m,
        "--scen",
        &s,
        "--world",
        "hex",
        "--algo",
        "astar:heuristic=octile",
    ]);
    assert!(one_clean_line(&out).contains("does not fit hex grids"));
    for (flags, want) in [
        (vec!["--world", "hex", "--hex-size", "0"], "above 0"),
        (vec!["--world", "hex", "--hex-size", "40"], "shorter side"),
    ] {
        let mut args = vec!["solve", "--map", &m, "--scen", &s];
        args.extend(flags);
        let e = one_clean_line(&pathlab(&args));
        assert!(e.contains(want), "{e}");
    }
    // Unknown names are clap's to refuse, with the known ones listed.
    for (flag, bad) in [("--world", "voxel"), ("--hex-orientation", "up")] {
        let out = pathlab(&["solve", "--map", &m, "--scen", &s, flag, bad]);
        let e = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{e}");
        assert!(e.contains(bad) && e.contains("possible values") && !e.contains("panicked"));
    }
    // A hex project: written, read back by convert, and refused as a .map.
    let p = tmp("hex.ron");
    let out = pathlab(&[
        "convert",
        &m,
        p.to_str().unwrap(),
        "--world",
        "hex",
        "--hex-size",
        "2",
        "--hex-orientation",
        "flat",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(
        text.contains("world: Hex(") && text.contains("orientation: Flat"),
        "{text}"
    );
    let back = tmp("hex-again.ron");
    assert!(
        pathlab(&["convert", p.to_str().unwrap(), back.to_str().unwrap()])
            .status
            .success()
    );
    assert_eq!(std::fs::read_to_string(&back).unwrap(), text);
    let e = one_clean_line(&pathlab(&[
        "convert",
        p.to_str().unwrap(),
        tmp("hex-out.map").to_str().unwrap(),
    ]));
    assert!(e.contains("saved as a project"), "{e}");
    // Malformed hex projects: an unknown family, a pitch of 0, octile on hexes.
    for (bad, want) in [
        (text.replace("Hex(", "Voxel("), "Voxel"),
        (text.replace("pitch: 2.0", "pitch: 0.0"), "pitch 0"),
        (
            text.replace(
                "name: \"astar\",\n            params: {}",
                "name: \"astar\",\n            params: {\"heuristic\": 0.0}",
            ),
            "does not fit a hex world",
        ),
    ] {
        assert_ne!(bad, text, "the corruption applies");
        let f = write("bad-hex.ron", &bad);
        let e = one_clean_line(&pathlab(&["convert", &f, tmp("x.map").to_str().unwrap()]));
        assert!(e.contains(want) && e.contains("bad-hex.ron"), "{e}");
    }
}

/// Voxel maps: `solve` prints the 3D CSV and checks the published optima; a truncated `.3dmap`,
/// a voxel outside the declared size, a size past the limit and a scenario naming another map
/// are one line each, naming the file (and line).
#[test]
fn voxel_maps_solve_and_bad_voxel_files_are_one_line() {
    // A 4×3×2 box with a wall across x = 1 but for a gap at y = 2, z = 1.
    let m = write(
        "v.3dmap",
        "voxel 4 3 2\n1 0 0\n1 1 0\n1 2 0\n1 0 1\n1 1 1\n",
    );
    let s = write(
        "v.3dscen",
        // Around the wall through the gap: √2 + 1 + 1 + 1 + √3 + 1 (worked out by hand).
        "version 1\nv.3dmap\n0 0 0 3 0 0 7.14626437 2.382\n0 2 1 3 2 1 3.00000000 1.000\n",
    );
    let out = pathlab(&["solve", "--map", &m, "--scen", &s]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "id,sx,sy,sz,gx,gy,gz,optimal,length,expanded,generated,micros,ok"
    );
    assert!(
        lines[1].starts_with("0,0,0,0,3,0,0,7.14626437,7.14626437,"),
        "{text}"
    );
    assert!(lines.iter().skip(1).all(|l| l.ends_with(",true")), "{text}");
    for (name, map, want) in [
        (
            "trunc.3dmap",
            "voxel 4 3 2\n1 0 0\n1 1\n",
            "trunc.3dmap:3: expected a voxel",
        ),
        (
            "outside.3dmap",
            "voxel 4 3 2\n1 0 0\n1 3 0\n",
            "outside.3dmap:3: voxel (1, 3, 0) is outside",
        ),
        (
            "huge.3dmap",
            "voxel 100000 100000 100000\n",
            "huge.3dmap:1: a voxel world of",
        ),
    ] {
        let bad = write(name, map);
        let scen = write(
            &format!("{name}.3dscen"),
            &format!("version 1\n{name}\n0 0 0 3 0 0 4.82842712 1.207\n"),
        );
        let e = one_clean_line(&pathlab(&["solve", "--map", &bad, "--scen", &scen]));
        assert!(e.contains(want), "{e}");
    }
    let other = write(
        "other.3dscen",
        "version 1\nelse.3dmap\n0 0 0 3 0 0 4.8 1.2\n",
    );
    let e = one_clean_line(&pathlab(&["solve", "--map", &m, "--scen", &other]));
    assert!(
        e.contains("other.3dscen:2: this scenario is for `else.3dmap`"),
        "{e}"
    );
    let blocked = write(
        "blocked.3dscen",
        "version 1\nv.3dmap\n1 0 0 3 0 0 4.8 1.2\n",
    );
    let e = one_clean_line(&pathlab(&["solve", "--map", &m, "--scen", &blocked]));
    assert!(
        e.contains("blocked.3dscen:3: start (1, 0, 0) is on a blocked voxel"),
        "{e}"
    );

    // `trace` on the voxels: the run file holds the optimal cost, the path's z and the
    // voxel-index events; 2D points and blocked voxels are one line.
    let run = tmp("v.run.ron");
    let r = pathlab(&[
        "trace",
        "--map",
        &m,
        "--start",
        "0,0,0",
        "--goal",
        "3,0,0",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let file = pathlab::trace::run_file::RunFile::read(&run).unwrap();
    assert!((file.cost.unwrap() - 7.14626437).abs() < 1e-6);
    let v = file.voxel.expect("a voxel run");
    assert_eq!(v.dims, [4, 3, 2]);
    assert_eq!(v.path_z.len(), file.path.len());
    assert!(v.path_z.contains(&1), "the gap is at z = 1");
    assert!(file.events.iter().all(|e| (e.node as usize) < 4 * 3 * 2));
    for (start, want) in [
        ("0,0", "needs X,Y,Z"),
        ("1,0,0", "(1, 0, 0) is a blocked voxel"),
        ("0,0,2", "outside the 4×3×2 map"),
    ] {
        let e = one_clean_line(&pathlab(&[
            "trace",
            "--map",
            &m,
            "--start",
            start,
            "--goal",
            "3,0,0",
            "--out",
            tmp("v2.run.ron").to_str().unwrap(),
        ]));
        assert!(e.contains(want), "{start}: {e}");
    }

    // `convert` writes the scenario's voxel world as a project, start and goal included, and
    // the project back as a .3dmap; a voxel world as .map is one line.
    let ron = tmp("v.ron");
    let r = pathlab(&["convert", &s, ron.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let opened = pathlab::open::open_world(&ron, Default::default()).unwrap();
    let data = opened.data.expect("a voxel project");
    let vol: &pathlab::map::volume::Volume = data.get().expect("a volume");
    let original = pathlab::map::io::read_3dmap(std::path::Path::new(&m)).unwrap();
    assert_eq!(vol.voxels, original);
    assert_eq!((opened.start, vol.start_z), (Some((0, 0)), 0));
    let back = tmp("v-back.3dmap");
    let r = pathlab(&["convert", ron.to_str().unwrap(), back.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(pathlab::map::io::read_3dmap(&back).unwrap(), original);
    let e = one_clean_line(&pathlab(&["convert", &s, tmp("v.map").to_str().unwrap()]));
    assert!(e.contains("written as a project"), "{e}");
}

/// Voxel worlds made by `convert`: a square map extruded to a height, and a folder of PNG
/// slices, one z layer each; a square map without --height is one clean line.
#[test]
fn convert_makes_voxel_worlds_from_maps_and_png_slices() {
    let m = write("ex.map", MAP);
    let out = tmp("ex.3dmap");
    let r = pathlab(&["convert", &m, out.to_str().unwrap(), "--height", "3"]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    // MAP has two walls, so 2 × 3 blocked voxels under a 4×3×3 header.
    assert!(text.starts_with("voxel 4 3 3\n"), "{text}");
    assert_eq!(text.lines().count(), 1 + 6, "{text}");
    let e = one_clean_line(&pathlab(&[
        "convert",
        &m,
        tmp("ex2.3dmap").to_str().unwrap(),
    ]));
    assert!(e.contains("--height"), "{e}");
    // Two 3×2 slices: a dark pixel is a wall.
    let dir = tmp("slices");
    std::fs::create_dir_all(&dir).unwrap();
    for (z, dark) in [(0, (0u32, 0u32)), (1, (2, 1))] {
        let mut img = image::RgbaImage::from_pixel(3, 2, image::Rgba([255, 255, 255, 255]));
        img.put_pixel(dark.0, dark.1, image::Rgba([0, 0, 0, 255]));
        img.save(dir.join(format!("z{z}.png"))).unwrap();
    }
    let out = tmp("slices.3dmap");
    let r = pathlab(&["convert", dir.to_str().unwrap(), out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "voxel 3 2 2\n0 0 0\n2 1 1\n"
    );
    // A map with terrain costs: the .3dmap cannot hold them, and the user is told so.
    let mut grid = pathlab::map::Grid::from_rows(&["..@", "..."]);
    grid.set_costs(vec![1.0, 2.0, 1.0, 1.0, 1.0, 3.0]).unwrap();
    let proj = tmp("terrain.ron");
    pathlab::project::write_project(&pathlab::project::Project::new(&grid), &proj).unwrap();
    let out = tmp("terrain.3dmap");
    let r = pathlab(&[
        "convert",
        proj.to_str().unwrap(),
        out.to_str().unwrap(),
        "--height",
        "2",
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let note = String::from_utf8_lossy(&r.stderr);
    assert!(note.contains("holds no terrain costs"), "{note}");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "voxel 3 2 2\n2 0 0\n2 0 1\n"
    );
}

/// `convert` reads square maps, images, projects and the formats the family list names (the
/// voxels' `.3dmap` and `.3dscen`); any other ending is one line listing them.
#[test]
fn convert_names_the_endings_it_reads() {
    let input = tmp("odd.txt");
    std::fs::write(&input, "type octile\n").unwrap();
    let err = one_clean_line(&pathlab(&[
        "convert",
        input.to_str().unwrap(),
        tmp("odd-out.map").to_str().unwrap(),
    ]));
    assert_eq!(
        err.trim_end(),
        format!(
            "pathlab: {}: cannot read .txt files (use .map, .png, .ron, .3dmap or .3dscen)",
            input.display()
        ),
    );
}

/// The app's `--algo` is checked before a window opens: an unknown algorithm or a bad
/// parameter is one line naming the flag, exit 2.
#[test]
fn the_apps_algo_flag_refuses_what_the_registry_does_not_know() {
    for (spec, says) in [
        ("nonsense", "unknown algorithm `nonsense`"),
        ("weighted-astar:weight=x", "weighted-astar"),
    ] {
        let out = pathlab(&["--algo", spec, "--screenshot", "/nonexistent/x.png"]);
        assert_eq!(out.status.code(), Some(2), "{spec}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("pathlab: --algo: ") && err.contains(says),
            "{err}"
        );
    }
}

/// `pathlab gpu` names the adapter wgpu would compute on (on CI: Mesa's lavapipe, installed
/// by `.ci/run`), or says in one line why there is none and exits 1: never a silent fallback.
#[test]
fn gpu_names_its_adapter_or_says_why_not() {
    let out = pathlab(&["gpu"]);
    let text = String::from_utf8_lossy(&out.stdout);
    if out.status.success() {
        let line = text.lines().next().unwrap_or("");
        assert!(line.starts_with("adapter: ") && line.len() > 12, "{text}");
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "no adapter on CI: lavapipe missing?"
        );
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("pathlab: no GPU adapter"), "{err}");
    }
}

/// A small map with walls for the hierarchy commands.
const HIER_ROWS: [&str; 7] = [
    "..........@.........",
    "..@@@.....@....@@...",
    "..@.......@.........",
    "..@...@@@@@....@....",
    "......@.............",
    "......@....@@@@@....",
    "...........@........",
];

/// [`HIER_ROWS`] written as a MovingAI map named `name`; its path.
fn hier_map(name: &str) -> String {
    map_file(name, &HIER_ROWS)
}

#[test]
fn hier_build_prints_the_levels_of_the_library_and_refuses_bad_input() {
    use pathlab::hier::levels::{inter_edge_bound, Levels};
    use pathlab::space::{NavmeshSpace, TerrainRule};
    let m = hier_map("hier.map");
    let out = succeeded(&pathlab(&[
        "hier", "build", "--map", &m, "--mu", "3", "--levels", "2",
    ]));
    let grid = pathlab::map::Grid::from_rows(&HIER_ROWS);
    let mesh = NavmeshSpace::new(&grid, TerrainRule::Class);
    let levels = Levels::build(&mesh, 3, 2, &|_| {}).unwrap();
    assert!(out.contains(&format!(
        "navmesh: {} polygons, {} portals",
        mesh.polygons(),
        mesh.portal_count()
    )));
    for (i, l) in levels.levels.iter().enumerate() {
        let (mean, most) = l.inter_per_node();
        let line = format!(
            "L{}: {} nodes, {} inter-edges, per node mean {mean:.2} max {most} (bound {:.0} with s = 4)",
            i + 1,
            l.nodes,
            l.inter.len(),
            inter_edge_bound(3, i as u32 + 1, 4)
        );
        assert!(out.contains(&line), "{line}\n{out}");
    }
    let intra: Vec<_> = levels
        .levels
        .iter()
        .map(|l| pathlab::hier::intra::build(&mesh, l))
        .collect();
    for (i, e) in intra.iter().enumerate() {
        let line = format!(
            "L{} intra-edges: {}, {} polygons on their paths",
            i + 1,
            e.edges.len(),
            e.polygons.len()
        );
        assert!(out.contains(&line), "{line}\n{out}");
    }
    let h = pathlab::hier::hna::Hierarchy::build(&mesh, 3, 2, false, &|_, _| {}).unwrap();
    assert_eq!(h.levels, levels);
    assert!(out.contains(&format!("bytes: {}", h.bytes())), "{out}");
    // A missing map: one line naming it.
    let err = one_clean_line(&pathlab(&["hier", "build", "--map", "/nonexistent/x.map"]));
    assert!(err.contains("/nonexistent/x.map"), "{err}");
    // μ below 2 means nothing to merge.
    assert!(!pathlab(&["hier", "build", "--map", &m, "--mu", "1"])
        .status
        .success());
}

#[test]
fn hier_bench_prints_one_row_per_problem_and_method_and_refuses_a_mismatch() {
    let m = hier_map("hier_bench.map");
    // The scenario's optima from A* on the grid (the registry's, the oracle of other suites).
    let space = pathlab::space::GridSpace::from_rows(
        &HIER_ROWS,
        pathlab::space::Connectivity::Eight,
        pathlab::space::TerrainRule::Class,
    );
    let mut scen = String::from("version 1\n");
    for (a, b) in [((0, 0), (19, 0)), ((0, 6), (19, 6)), ((0, 0), (13, 6))] {
        let q = pathlab::search::Query {
            start: space.node(a.0, a.1).unwrap(),
            goal: space.node(b.0, b.1).unwrap(),
        };
        let mut astar = pathlab::algorithms::build("astar", &space, q).unwrap();
        astar.run_null(&space);
        scen += &format!(
            "0\thier_bench.map\t20\t7\t{}\t{}\t{}\t{}\t{:.8}\n",
            a.0,
            a.1,
            b.0,
            b.1,
            astar.cost().unwrap()
        );
    }
    let s = write("hier_bench.map.scen", &scen);
    let out = succeeded(&pathlab(&[
        "hier",
        "bench",
        "--map",
        &m,
        "--scen",
        &s,
        "--mu",
        "3",
        "--method",
        "astar,grid-astar,hna,hna-parallel,pccp,hpa",
    ]));
    let mut lines = out
        .lines()
        .skip_while(|l| !l.starts_with("id,"))
        .take_while(|l| !l.starts_with("summary"));
    assert_eq!(
        lines.next(),
        Some("id,method,length,optimal,overhead,expanded,micros")
    );
    let body: Vec<&str> = lines.collect();
    assert_eq!(body.len(), 3 * 6, "{out}");
    for row in &body {
        let f: Vec<&str> = row.split(',').collect();
        let [length, optimal, overhead]: [f64; 3] = [2, 3, 4].map(|i| f[i].parse().unwrap());
        assert!(length > 0.0, "{row}");
        assert!((overhead - (length / optimal - 1.0)).abs() < 1e-3, "{row}");
        // Grid A* is optimal; HPA* on the same grid is no shorter.
        match f[1] {
            "grid-astar" => assert!((length - optimal).abs() < 1e-3, "{row}"),
            "hpa" => assert!(length >= optimal - 1e-3, "{row}"),
            _ => {}
        }
    }
    assert!(out.contains("summary:"), "{out}");
    // A scenario for another map size: one line naming the scenario's line.
    let bad = write(
        "hier_bench_bad.map.scen",
        "version 1\n0\tx.map\t30\t7\t0\t0\t1\t0\t1.0\n",
    );
    let err = one_clean_line(&pathlab(&[
        "hier", "bench", "--map", &m, "--scen", &bad, "--method", "pccp",
    ]));
    assert!(err.contains("hier_bench_bad.map.scen:2"), "{err}");
    // One scenario per map.
    assert!(
        !pathlab(&["hier", "bench", "--map", &m, "--map", &m, "--scen", &s])
            .status
            .success()
    );
}

#[test]
fn a_hierarchical_trace_names_its_abstract_vertices_in_posthoc() {
    let m = hier_map("hier_trace.map");
    let dir = crate::support::scratch_root().join("pathlab-hier-trace");
    std::fs::create_dir_all(&dir).unwrap();
    let (run, yaml) = (dir.join("pccp.ron"), dir.join("pccp.trace.yaml"));
    succeeded(&pathlab(&[
        "trace",
        "--map",
        &m,
        "--start",
        "0,0",
        "--goal",
        "19,6",
        "--world",
        "navmesh",
        "--algo",
        "pccp:mu=3",
        "--out",
        run.to_str().unwrap(),
        "--posthoc",
        yaml.to_str().unwrap(),
    ]));
    let text = std::fs::read_to_string(&yaml).unwrap();
    // The graph search's vertices carry their layer instead of a cell; the polygons their cells.
    assert!(text.contains("layer: \"abstract graph\""), "{text}");
    assert!(text.contains(", x: "), "{text}");
    assert!(text.contains("phase: 3"), "{text}");
}

/// `hier bench` keeps `solve`'s contracts: an end on a blocked cell is named with its line, a
/// scenario for another map is refused, and a run that checked no problem does not exit 0.
#[test]
fn hier_bench_refuses_blocked_ends_other_maps_and_vacuous_runs() {
    let m = hier_map("hier_contract.map");
    // (2, 1) is a wall of HIER_ROWS.
    let blocked = write(
        "hier_contract_blocked.scen",
        "version 1\n0\thier_contract.map\t20\t7\t0\t0\t19\t0\t19\n0\thier_contract.map\t20\t7\t2\t1\t0\t0\t2.41421356\n",
    );
    let err = one_clean_line(&pathlab(&[
        "hier", "bench", "--map", &m, "--scen", &blocked, "--method", "pccp",
    ]));
    assert!(
        err.contains("hier_contract_blocked.scen:3:")
            && err.contains("start (2, 1) is on a blocked cell"),
        "{err}"
    );
    // Same size, another map's name.
    let other = write(
        "hier_contract_other.scen",
        "version 1\n0\tsomewhere_else.map\t20\t7\t0\t0\t19\t0\t19\n",
    );
    let err = one_clean_line(&pathlab(&[
        "hier", "bench", "--map", &m, "--scen", &other, "--method", "astar",
    ]));
    assert!(
        err.contains("hier_contract_other.scen:2:") && err.contains("somewhere_else.map"),
        "{err}"
    );
    // No problem at all.
    let empty = write("hier_contract_empty.scen", "version 1\n");
    let err = one_clean_line(&pathlab(&[
        "hier", "bench", "--map", &m, "--scen", &empty, "--method", "hna",
    ]));
    assert!(
        err.contains("hier_contract_empty.scen") && err.contains("no problem to check"),
        "{err}"
    );
}

/// An any-angle path is checked against the grid optimum at the precision the scenario prints
/// it: Field D*'s 2 + √2 = 3.41421… is the optimum AR0011SR's scenario prints as 3.41 (two
/// decimals), not a path longer than it.
#[test]
fn any_angle_lengths_meet_the_optimum_at_the_printed_precision() {
    let bench = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/benchmarks/movingai-grid/bg512");
    let (map, scen) = (bench.join("AR0011SR.map"), bench.join("AR0011SR.map.scen"));
    let text = std::fs::read_to_string(&scen)
        .unwrap_or_else(|e| panic!("{}: {e} (the benchmark maps are needed)", scen.display()));
    // Problems whose optimum is a whole number of diagonal steps or one straight step beside
    // them, printed with two decimals: any-angle lengths equal the optimum's exact value.
    // The file's first optimum ending in 0 keeps the subset read as the fixed-point file it
    // is (two decimals throughout), not as `%g`.
    let want = |l: &str| l.split_whitespace().last().unwrap_or("").to_string();
    let fixed = text
        .lines()
        .skip(1)
        .find(|l| want(l).ends_with('0'))
        .unwrap();
    let mut picked: Vec<&str> = text
        .lines()
        .filter(|l| ["3.41", "7.07", "11.31"].contains(&want(l).as_str()))
        .take(6)
        .collect();
    assert!(picked.len() >= 3, "{picked:?}");
    picked.push(fixed);
    let s = write(
        "AR0011SR_printed.scen",
        &format!("version 1.0\n{}\n", picked.join("\n")),
    );
    let out = pathlab(&[
        "solve",
        "--map",
        map.to_str().unwrap(),
        "--scen",
        &s,
        "--algo",
        "field-dstar",
    ]);
    let csv = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{csv}");
    assert_eq!(
        csv.lines().filter(|l| l.ends_with(",true")).count(),
        picked.len(),
        "{csv}"
    );
    // Longer than the optimum at that precision is still wrong.
    let longer: Vec<String> = picked
        .iter()
        .map(|l| {
            let (head, want) = l.rsplit_once(' ').unwrap();
            let want: f64 = want.parse().unwrap();
            format!("{head} {:.2}", want - 0.02)
        })
        .collect();
    let s = write(
        "AR0011SR_shorter.scen",
        &format!("version 1.0\n{}\n", longer.join("\n")),
    );
    let out = pathlab(&[
        "solve",
        "--map",
        map.to_str().unwrap(),
        "--scen",
        &s,
        "--algo",
        "field-dstar",
    ]);
    assert_eq!(out.status.code(), Some(1));
}

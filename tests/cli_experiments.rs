//! The command line's experiments: their CSV headers and rows, presets and the one-line
//! refusals of bad settings.

use crate::cli_support;

use cli_support::*;
use std::path::PathBuf;

#[test]
fn experiment_dynamic_writes_the_agreed_csv() {
    let csv = tmp("dyn.csv");
    let out = pathlab(&[
        "experiment",
        "dynamic",
        "--map-kind",
        "room",
        "--size",
        "48",
        "--magnitude",
        "10",
        "--runs",
        "3",
        "--algos",
        "astar,dstar-lite",
        "--seed",
        "7",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("algo,map_kind,size,magnitude,run,success,path_length,replans,expanded,recompute_ms_avg,total_ms,settled")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 6);
    for r in &rows {
        assert_eq!(r.len(), 12);
        assert_eq!((r[1], r[2], r[5]), ("room", "48", "true"));
        // Settled nodes are a part of the expanded ones, all of them for A*.
        let (expanded, settled) = (r[8].parse::<u64>().unwrap(), r[11].parse::<u64>().unwrap());
        assert!(settled <= expanded && (r[0] != "astar" || settled == expanded));
        // A corner-to-corner walk on a 4-connected 48×48 map takes at least 94 steps.
        assert!(r[6].parse::<u64>().unwrap() >= 94);
        assert_eq!(
            r[7].parse::<u64>().unwrap(),
            r[6].parse::<u64>().unwrap() / 10
        );
    }
    // Same seed, same tapes: both algorithms walk optimal-length plans of the same world, and
    // the run is reproducible.
    let again = pathlab(&[
        "experiment",
        "dynamic",
        "--map-kind",
        "room",
        "--size",
        "48",
        "--magnitude",
        "10",
        "--runs",
        "3",
        "--algos",
        "astar,dstar-lite",
        "--seed",
        "7",
    ]);
    let strip = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| l.split(',').take(9).collect::<Vec<_>>().join(","))
            .collect()
    };
    assert_eq!(strip(&String::from_utf8_lossy(&again.stdout)), strip(&text));
    // Bad entries are refused with one line naming them, not run as something else.
    for bad in ["rtd:1", "ad:0.5", "lpa"] {
        let e = one_clean_line(&pathlab(&[
            "experiment",
            "dynamic",
            "--map-kind",
            "random",
            "--size",
            "32",
            "--magnitude",
            "2",
            "--algos",
            &format!("astar,{bad}"),
        ]));
        assert!(e.contains(bad), "{e}");
    }
}

/// The thesis's preset: its variants on the chosen scenarios, shards that concatenate to the
/// whole, and a summary that sets the means beside Appendix A.
#[test]
fn the_mantysalo2024_preset_shards_and_summarises() {
    let whole = tmp("preset-whole.csv");
    let scen = "room-128-2,random-128-20";
    let base = [
        "experiment",
        "dynamic",
        "--preset",
        "mantysalo2024",
        "--runs",
        "1",
    ];
    let run = |extra: &[&str], out: &PathBuf| {
        let o = pathlab(
            &[
                &base[..],
                extra,
                &["--scenarios", scen, "--csv", out.to_str().unwrap()],
            ]
            .concat(),
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(out).unwrap()
    };
    let text = run(&[], &whole);
    let rows: Vec<&str> = text.lines().skip(1).collect();
    // A row with its two time columns (recompute_ms_avg, total_ms) left out.
    let without_times = |l: &str| -> String {
        let f: Vec<&str> = l.split(',').collect();
        [&f[..9], &f[11..]].concat().join(",")
    };
    assert_eq!(
        rows.len(),
        2 * 11,
        "two scenarios × the thesis's 11 variants"
    );
    assert!(rows.iter().any(|r| r.starts_with("rtd:256,room,128,2,0,")));
    // Two shards hold the same rows as the whole.
    let (a, b) = (tmp("preset-1.csv"), tmp("preset-2.csv"));
    let mut shards: Vec<String> = [run(&["--shard", "1/2"], &a), run(&["--shard", "2/2"], &b)]
        .iter()
        .flat_map(|t| t.lines().skip(1).map(without_times))
        .collect();
    let mut want: Vec<String> = rows.iter().map(|l| without_times(l)).collect();
    shards.sort();
    want.sort();
    assert_eq!(shards, want, "everything but the times");
    let o = pathlab(&[
        "experiment",
        "summary",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let md = String::from_utf8(o.stdout).unwrap();
    assert!(md.contains("### Table A.1: Room 128, 2% (1 runs)"), "{md}");
    assert!(
        md.contains("### Table A.16: Random 128, 20% (1 runs)"),
        "{md}"
    );
    assert!(md.contains("D* Lite recomputes faster than A* at 2% (except room-512-2, as the thesis says) and slower at 20%: holds in"));
    let bad = pathlab(&[
        "experiment",
        "dynamic",
        "--preset",
        "mantysalo2024",
        "--scenarios",
        "room-64-2",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

/// `experiment anyangle`: the CSV contract, the three algorithms per problem, any-angle
/// lengths at most A*'s with fewer line-of-sight checks for Lazy Theta*, rubber banding never
/// longer; a bad algorithm name is one line.
#[test]
fn experiment_anyangle_writes_its_csv_and_means() {
    // An open room with a pillar, and a scenario of two problems across it.
    let m = write(
        "aa.map",
        "type octile\nheight 5\nwidth 10\nmap\n..........\n..........\n....@@....\n....@@....\n..........\n",
    );
    let s = write(
        "aa.map.scen",
        "version 1\n0\taa.map\t10\t5\t0\t3\t9\t1\t9.82842712\n0\taa.map\t10\t5\t0\t0\t9\t4\t10.65685425\n",
    );
    let out = pathlab(&[
        "experiment",
        "anyangle",
        "--map",
        &m,
        "--scen",
        &s,
        "--every",
        "1",
        "--smooth",
    ]);
    let text = succeeded(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "algo,problem,length,expanded,los_checks,micros,smoothed_length,smooth_checks"
    );
    assert_eq!(lines.len(), 1 + 2 * 3, "{text}");
    let field = |algo: &str, p: &str, k: usize| -> f64 {
        let l = lines
            .iter()
            .find(|l| l.starts_with(&format!("{algo},{p},")))
            .unwrap();
        l.split(',').nth(k).unwrap().parse().unwrap()
    };
    for p in ["0", "1"] {
        let a = field("astar", p, 2);
        assert!(field("theta-star", p, 2) <= a + 1e-9);
        assert!(field("lazy-theta-star", p, 4) < field("theta-star", p, 4));
        for algo in ["astar", "theta-star", "lazy-theta-star"] {
            assert!(field(algo, p, 6) <= field(algo, p, 2) + 1e-9);
        }
    }
    let means = String::from_utf8_lossy(&out.stderr);
    assert!(means.contains("| lazy-theta-star | 2 |"), "{means}");
    let e = one_clean_line(&pathlab(&[
        "experiment",
        "anyangle",
        "--map",
        &m,
        "--scen",
        &s,
        "--algos",
        "astar,dijkstra",
    ]));
    assert!(e.contains("unknown algorithm `dijkstra`"), "{e}");
}

/// `experiment scene3d`: the CSV contract (the spec quoted, as it holds commas), one row per
/// algorithm and run; an unknown algorithm is one line.
#[test]
fn experiment_scene3d_writes_its_csv() {
    let out = pathlab(&[
        "experiment",
        "scene3d",
        "--runs",
        "1",
        "--algos",
        "astar,dstar-lite",
        "--static-destination",
    ]);
    let text = succeeded(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "algo,run,success,distance,expanded,millis,replans,oracle_misses"
    );
    assert_eq!(lines.len(), 3, "{text}");
    for l in &lines[1..] {
        let (spec, rest) = l[1..].split_once("\",").expect("a quoted spec");
        assert!(
            spec.contains("weight=2") || spec.contains("key=krafft2019"),
            "{l}"
        );
        let f: Vec<&str> = rest.split(',').collect();
        assert_eq!(f.len(), 7, "{l}");
        // A* crosses. D* Lite may wait out its time beside a timed block that Krafft 2019's
        // rule holds while the agent is near (tests/dynamic.rs checks such a block is there).
        if spec.contains("weight=2") {
            assert_eq!(f[1], "true", "crossed: {l}");
        } else {
            assert!(matches!(f[1], "true" | "false"), "success is a bool: {l}");
        }
        assert_eq!(f[6], "0", "repairs agree with A*: {l}");
    }
    assert!(String::from_utf8_lossy(&out.stderr).contains("success rate"));
    let e = one_clean_line(&pathlab(&["experiment", "scene3d", "--algos", "bfs"]));
    assert!(e.contains("unknown algorithm `bfs`"), "{e}");
}

/// `experiment gps`: the CSV header, a row per level and run, the summary table on
/// stderr; out-of-range δ, knowledge and hex size refused in one line.
#[test]
fn experiment_gps_prints_its_csv_and_refuses_bad_settings() {
    let out = pathlab(&[
        "experiment",
        "gps",
        "--room",
        "64",
        "--hex-size",
        "1",
        "--runs",
        "3",
        "--knowledge",
        "0,50,100",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "knowledge,run,start_x,start_y,goal_x,goal_y,astar_length,gps_length,ratio,\
         explored_cells,known_share"
    );
    assert_eq!(lines.len(), 1 + 9);
    // The start and goal columns name the run's own hexes: A* between them, on the same hex
    // world, costs the row's A* length (and the run's draw gives the same pair).
    use pathlab::experiment::gps_run::{endpoints, room_map, HexWorld};
    use rand::SeedableRng;
    let world = HexWorld::from_square(&room_map(64, 1.0, 1), 1.0).unwrap();
    for l in &lines[1..] {
        let f: Vec<f64> = l.split(',').map(|v| v.parse().unwrap()).collect();
        assert!(
            f[7] >= f[6] - 1e-6 && (f[8] - f[7] / f[6]).abs() < 1e-3,
            "{l}"
        );
        let (s, g) = (
            world.space.node(f[2] as u32, f[3] as u32).unwrap(),
            world.space.node(f[4] as u32, f[5] as u32).unwrap(),
        );
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1 + f[1] as u64);
        assert_eq!(endpoints(&world, &mut rng).unwrap(), (s, g), "{l}");
        let q = pathlab::search::Query { start: s, goal: g };
        let mut a = pathlab::algorithms::build("astar", &world.space, q).unwrap();
        a.run_null(&world.space);
        assert!((a.cost().unwrap() - f[6]).abs() < 1e-3, "{l}");
    }
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("| 100% |") && err.contains("mean ratio to A*"),
        "{err}"
    );
    for (args, says) in [
        (vec!["--delta", "0.9"], "--delta"),
        (vec!["--knowledge", "0,120"], "--knowledge"),
        (vec!["--hex-size", "0"], "--hex-size"),
        (vec!["--room", "8"], "--room"),
    ] {
        let mut a = vec!["experiment", "gps", "--room", "64"];
        if args[0] == "--room" {
            a.truncate(2);
        }
        a.extend(args.iter().copied());
        let out = pathlab(&a);
        assert_eq!(out.status.code(), Some(2), "{a:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
}

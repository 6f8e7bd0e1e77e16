//! `pathlab hier bench`: hierarchical queries against flat A* on a MovingAI scenario, one row
//! per problem and method, then a summary of medians.

use anyhow::{anyhow, Result};
use pathlab::hier::hna::Hierarchy;
use pathlab::hier::hpa::Hpa;
use pathlab::hier::query::{Connect, HierQuery};
use pathlab::map::io::Problem;
use pathlab::search::AStar;
use pathlab::search::{path_cost, Query, Search, SearchState, Status};
use pathlab::space::{GridSpace, Heuristic, NavmeshSpace, NodeId, TerrainRule};
use pathlab::trace::NullTracer;
use std::fmt::Write as _;
use std::path::PathBuf;
use web_time::Instant;

/// The methods, as `--method` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// A* on the L0 navmesh.
    Astar,
    /// A* on the square grid (8-connected, octile).
    GridAstar,
    /// HNA*, connecting searches one after another.
    Hna,
    /// HNA*, connecting searches on rayon's threads.
    HnaParallel,
    /// HNA* with pre-calculated connecting paths.
    Pccp,
    /// HPA* on the square grid (10 × 10 clusters), smoothed.
    Hpa,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::Astar => "astar",
            Method::GridAstar => "grid-astar",
            Method::Hna => "hna",
            Method::HnaParallel => "hna-parallel",
            Method::Pccp => "pccp",
            Method::Hpa => "hpa",
        }
    }
}

/// What `hier bench` was asked.
pub struct BenchArgs {
    /// Maps and their scenarios, in pairs.
    pub maps: Vec<(PathBuf, PathBuf)>,
    pub mu: usize,
    pub levels: usize,
    pub methods: Vec<Method>,
    pub every: usize,
    pub csv: Option<PathBuf>,
}

/// One method's answer to one problem.
#[derive(Clone)]
struct Row {
    found: bool,
    length: f64,
    overhead: f64,
    expanded: u64,
    micros: f64,
}

/// Runs the bench; its exit code (1 when a method missed a path grid A* would find).
pub fn bench(args: &BenchArgs) -> Result<i32> {
    let mut csv = String::from("id,method,length,optimal,overhead,expanded,micros\n");
    let mut all: Vec<Vec<Row>> = vec![vec![]; args.methods.len()];
    let mut missed = 0;
    for (map, scen) in &args.maps {
        let label = (args.maps.len() > 1).then(|| {
            map.file_stem()
                .map_or(String::new(), |s| s.to_string_lossy().into_owned())
        });
        let rows = bench_map(args, map, scen, label.as_deref(), &mut csv, &mut missed)?;
        summary(args, &scen.display().to_string(), &rows);
        for (k, r) in rows.into_iter().enumerate() {
            all[k].extend(r);
        }
    }
    if args.maps.len() > 1 {
        summary(args, "all maps", &all);
    }
    if let Some(out) = &args.csv {
        pathlab::map::io::write_atomic(out, csv.as_bytes()).map_err(|e| anyhow!("{e}"))?;
    } else {
        print!("{csv}");
    }
    Ok(i32::from(missed > 0))
}

/// One map's problems with every method: rows by method; CSV lines appended to `csv`.
fn bench_map(
    args: &BenchArgs,
    map: &std::path::Path,
    scen: &std::path::Path,
    label: Option<&str>,
    csv: &mut String,
    missed: &mut usize,
) -> Result<Vec<Vec<Row>>> {
    // Loaded and checked as `solve` loads its suite: a scenario naming another map, a problem
    // for another size, an end on a blocked cell are refused with the file and line.
    let sel = pathlab::experiment::Selection {
        every: args.every.max(1),
        limit: None,
    };
    let suite = pathlab::experiment::Suite::load(map, scen, sel)?;
    if suite.problems.is_empty() {
        return Err(super::suites::nothing_to_check(scen));
    }
    let (grid, squares, problems) = (&suite.grid, &suite.space, &suite.problems);
    let mesh = NavmeshSpace::new(grid, TerrainRule::Class);
    let wants = |m: Method| args.methods.contains(&m);
    let hierarchical = wants(Method::Hna) || wants(Method::HnaParallel) || wants(Method::Pccp);
    let hierarchy = if hierarchical {
        let h = Hierarchy::build(&mesh, args.mu, args.levels, wants(Method::Pccp), &|_, _| {})
            .map_err(|e| anyhow!("{}: {e}", map.display()))?;
        println!(
            "hierarchy of {}: {} polygons, μ = {}, {} levels, top level {} nodes, {} vertices; \
             built in {:.1} ms ({} bytes); PCCP {}",
            map.display(),
            mesh.polygons(),
            args.mu,
            args.levels,
            h.graph.level.nodes,
            h.graph.vertices(),
            h.times.levels + h.times.intra,
            h.bytes(),
            h.pccp.as_ref().map_or("not built".into(), |p| format!(
                "{} entries, {} bytes, built in {:.1} ms",
                p.entries.len(),
                p.bytes(),
                h.times.pccp
            ))
        );
        Some(h)
    } else {
        None
    };
    let hpa = wants(Method::Hpa).then(|| {
        let h = Hpa::build(squares, HPA_CLUSTER);
        println!(
            "hpa of {}: {} clusters of {}×{}, {} transitions, {} intra-edges; built in {:.1} ms ({} bytes)",
            map.display(),
            h.graph.level.nodes,
            h.cluster,
            h.cluster,
            h.graph.vertices(),
            h.graph.intra.edges.len(),
            h.build_ms,
            h.bytes()
        );
        h
    });
    // Every method keeps its search state from one problem to the next.
    let first = Query { start: 0, goal: 0 };
    let mut queries: Vec<(Method, Solver)> = args
        .methods
        .iter()
        .map(|&m| {
            let connect = match m {
                Method::Hna => Connect::Sequential,
                Method::HnaParallel => Connect::Parallel,
                Method::Pccp => Connect::Pccp,
                Method::GridAstar => {
                    let s = AStar::new(squares, first, Heuristic::Octile);
                    return (m, Solver::Flat(Box::new(s)));
                }
                Method::Astar => {
                    let s = AStar::new(&mesh, first, Heuristic::Euclidean);
                    return (m, Solver::Flat(Box::new(s)));
                }
                Method::Hpa => {
                    let q = hpa.as_ref().expect("built for hpa").query(squares);
                    return (m, Solver::Grid(Box::new(q)));
                }
            };
            let h = hierarchy.as_ref().expect("built for hierarchical methods");
            (m, Solver::Hier(Box::new(h.query(&mesh, connect))))
        })
        .collect();
    let mut rows: Vec<Vec<Row>> = vec![vec![]; args.methods.len()];
    for (i, p) in problems.iter().enumerate() {
        // The problem's place in the file, as the rows have always named it.
        let id = i * sel.every;
        for (k, (m, q)) in queries.iter_mut().enumerate() {
            let row = solve(*m, q, squares, &mesh, p);
            if !row.found && p.optimal > 0.0 {
                *missed += 1;
                eprintln!("{}:{}: {} found no path", scen.display(), p.line, m.name());
            }
            let id = label.map_or(id.to_string(), |l| format!("{l}:{id}"));
            let _ = writeln!(
                csv,
                "{id},{},{:.4},{:.4},{:.4},{},{:.1}",
                m.name(),
                row.length,
                p.optimal,
                row.overhead,
                row.expanded,
                row.micros
            );
            rows[k].push(row);
        }
    }
    Ok(rows)
}

fn overhead(length: f64, optimal: f64) -> f64 {
    if optimal > 0.0 {
        length / optimal - 1.0
    } else {
        0.0
    }
}

fn centre(c: (u32, u32)) -> [f64; 2] {
    [c.0 as f64 + 0.5, c.1 as f64 + 0.5]
}

/// A method's search state.
enum Solver {
    Flat(Box<AStar>),
    Hier(Box<HierQuery>),
    /// HPA* on the grid.
    Grid(Box<HierQuery>),
}

/// HPA*'s cluster side (Botea et al.'s usual 10).
pub const HPA_CLUSTER: u32 = 10;

fn solve(
    m: Method,
    solver: &mut Solver,
    squares: &GridSpace,
    mesh: &NavmeshSpace,
    p: &Problem,
) -> Row {
    let none = Row {
        found: false,
        length: 0.0,
        overhead: 0.0,
        expanded: 0,
        micros: 0.0,
    };
    let t = Instant::now();
    let w = squares.width();
    let id = |c: (u32, u32)| (c.1 * w + c.0) as NodeId;
    let query = Query {
        start: id(p.start),
        goal: id(p.goal),
    };
    if let Solver::Grid(q) = solver {
        q.reset(squares, query.start, query.goal, [None, None]);
        if q.run(squares, &mut NullTracer) != Status::Found {
            return none;
        }
        let path = q.path().unwrap_or(&[]).to_vec();
        let micros = t.elapsed().as_secs_f64() * 1e6;
        let length = path_cost(squares, &path).unwrap_or(f64::NAN);
        return Row {
            found: true,
            length,
            overhead: overhead(length, p.optimal),
            expanded: q.stats().expanded,
            micros,
        };
    }
    if m == Method::GridAstar {
        let Solver::Flat(s) = solver else {
            unreachable!("grid A* is flat")
        };
        s.reset(squares, query);
        let status = s.run(squares, &mut NullTracer);
        let micros = t.elapsed().as_secs_f64() * 1e6;
        let length = s.cost().unwrap_or(0.0);
        return Row {
            found: status == Status::Found,
            length,
            overhead: overhead(length, p.optimal),
            expanded: s.stats().expanded,
            micros,
        };
    }
    let (Some(ps), Some(pg)) = (
        mesh.polygon_at(p.start.0, p.start.1),
        mesh.polygon_at(p.goal.0, p.goal.1),
    ) else {
        return none;
    };
    let (path, expanded): (Vec<NodeId>, u64) = match solver {
        Solver::Grid(_) => unreachable!("answered above"),
        Solver::Hier(q) => {
            q.reset(mesh, ps, pg, [Some(centre(p.start)), Some(centre(p.goal))]);
            if q.run(mesh, &mut NullTracer) != Status::Found {
                return none;
            }
            (q.path().unwrap_or(&[]).to_vec(), q.stats().expanded)
        }
        Solver::Flat(s) => {
            let query = Query {
                start: ps,
                goal: pg,
            };
            s.reset(mesh, query);
            if s.run(mesh, &mut NullTracer) != Status::Found {
                return none;
            }
            (s.path().unwrap_or(&[]).to_vec(), s.stats().expanded)
        }
    };
    // The query ends with its polygons; the funnel that gives the walked length is the same
    // work for every navmesh method, so it is not timed.
    let micros = t.elapsed().as_secs_f64() * 1e6;
    let line = mesh.funnel(&path, centre(p.start), centre(p.goal));
    let length = polyline_length(&line);
    Row {
        found: true,
        length,
        overhead: overhead(length, p.optimal),
        expanded,
        micros,
    }
}

/// The length of a polyline.
pub fn polyline_length(line: &[[f64; 2]]) -> f64 {
    line.windows(2)
        .map(|w| pathlab::space::plane_distance(w[0], w[1]))
        .sum()
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn summary(args: &BenchArgs, what: &str, rows: &[Vec<Row>]) {
    let medians: Vec<f64> = rows
        .iter()
        .map(|r| median(r.iter().map(|row| row.micros).collect()))
        .collect();
    let of = |m: Method| {
        args.methods
            .iter()
            .position(|&x| x == m)
            .map(|i| medians[i])
    };
    println!(
        "summary: {what} ({} problems, every {}th)",
        rows.first().map_or(0, Vec::len),
        args.every
    );
    for (k, m) in args.methods.iter().enumerate() {
        let found: Vec<&Row> = rows[k].iter().filter(|r| r.found).collect();
        let mean_overhead =
            found.iter().map(|r| r.overhead).sum::<f64>() / found.len().max(1) as f64;
        let mut line = format!(
            "{:<12} found {}/{}  median {:.1} µs  median expanded {:.0}  mean overhead {:+.2}%",
            m.name(),
            found.len(),
            rows[k].len(),
            medians[k],
            median(found.iter().map(|r| r.expanded as f64).collect()),
            100.0 * mean_overhead
        );
        for base in [Method::Astar, Method::GridAstar] {
            if let Some(b) = of(base).filter(|_| base != *m) {
                let _ = write!(line, "  {:.1}× {}", b / medians[k], base.name());
            }
        }
        println!("{line}");
    }
    centre_offset(args, rows);
}

/// PCCP's start and goal count from their polygons' centres, HNA*'s from the points
/// themselves: the mean relative length difference of PCCP's paths against HNA*'s on the same
/// problems, for paths over 100 cells and shorter (the thesis: 3% and 5%).
fn centre_offset(args: &BenchArgs, rows: &[Vec<Row>]) {
    let at = |m: Method| args.methods.iter().position(|&x| x == m);
    let (Some(p), Some(h)) = (
        at(Method::Pccp),
        at(Method::Hna).or(at(Method::HnaParallel)),
    ) else {
        return;
    };
    let mut sums = [(0.0, 0usize); 2];
    for (a, b) in rows[p].iter().zip(&rows[h]) {
        if a.found && b.found && b.length > 0.0 {
            let s = &mut sums[usize::from(b.length <= 100.0)];
            s.0 += (a.length / b.length - 1.0).abs();
            s.1 += 1;
        }
    }
    let mean = |(s, n): (f64, usize)| 100.0 * s / n.max(1) as f64;
    println!(
        "centre offset (pccp against hna): mean |length difference| {:.2}% over 100 cells ({} paths), {:.2}% shorter ({} paths)",
        mean(sums[0]),
        sums[0].1,
        mean(sums[1]),
        sums[1].1
    );
}

/// Reads `--method` lists ("astar,pccp").
pub fn methods(text: &str) -> Result<Vec<Method>> {
    use clap::ValueEnum;
    text.split(',')
        .map(|s| {
            Method::from_str(s.trim(), false).map_err(|_| {
                anyhow!("unknown method {s:?}: astar, grid-astar, hna, hna-parallel, pccp or hpa")
            })
        })
        .collect()
}

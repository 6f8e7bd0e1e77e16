//! `solve` and `bench`: a scenario suite of any world family, solved problem by problem.

use super::*;

/// Runs `then` on the suite the arguments name, in the world family they ask for.
fn with_suite(args: &SuiteArgs, then: &mut dyn FnMut(&dyn SuiteRun) -> Result<i32>) -> Result<i32> {
    // Check the algorithm and the world before reading big files.
    pathlab::algorithms::parse_spec(&args.algo).map_err(anyhow::Error::msg)?;
    let family = args.rules.family()?;
    let sel = Selection {
        every: args.every as usize,
        limit: args.limit.map(|l| l as usize),
    };
    let (c, r) = args.rules.rules();
    if Family::of_map_file(&args.map) == Some(SpaceKind::Voxel) {
        // A Warframe voxel map: 26-connected, the benchmark's rule.
        args.rules.refuse_all(&args.map.display().to_string())?;
        let suite = VoxelSuite::load(&args.map, &args.scen, sel, VoxelMoves::TwentySix)?;
        let solver = VoxelSolver::new(&suite, &args.algo)?;
        return then(&Voxels(suite, std::cell::RefCell::new(solver)));
    }
    pathlab::world::dispatch(
        family.space_kind(),
        LoadSuite {
            args,
            sel,
            family,
            rules: (c, r),
            then,
        },
    )
}

/// Loads the suite in a family's world type, and runs `then` on it.
struct LoadSuite<'a> {
    args: &'a SuiteArgs,
    sel: Selection,
    family: Family,
    rules: (pathlab::space::Connectivity, pathlab::space::TerrainRule),
    then: &'a mut dyn FnMut(&dyn SuiteRun) -> Result<i32>,
}

impl pathlab::world::FamilyFn for LoadSuite<'_> {
    type Out = Result<i32>;
    fn call<W: pathlab::world::WorldFamily>(self) -> Result<i32> {
        let a = self.args;
        // Refused before the suite (and on some worlds its optima) is loaded.
        let (info, _) = pathlab::algorithms::parse_spec(&a.algo).map_err(anyhow::Error::msg)?;
        if let Some(why) = pathlab::algorithms::family_refusal::<W>(info) {
            bail!("{why}");
        }
        let fill = a.rules.hex_fill();
        let (suite, skipped) = Suite::<W::Space>::load_world::<W>(
            &a.map,
            &a.scen,
            self.sel,
            (self.family, fill),
            self.rules,
        )?;
        if skipped > 0 {
            eprintln!(
                "{}: {skipped} problems left out: their start or goal is on no passable {} cell, or they have no path there",
                a.scen.display(),
                self.family.name()
            );
        }
        let solver = Solver::new(&suite, &a.algo)?;
        (self.then)(&Loaded(suite, std::cell::RefCell::new(solver)))
    }
}

/// A loaded suite and its solver, of any world family.
trait SuiteRun {
    fn len(&self) -> usize;
    /// `solve`'s CSV header.
    fn header(&self) -> &'static str;
    /// Problem `i`'s start, goal and optimum as CSV fields.
    fn problem_fields(&self, i: usize) -> String;
    fn solve(&self, i: usize) -> pathlab::experiment::Row;
    /// What the algorithm built once for the world, apart from the queries' times.
    fn prepared(&self) -> Vec<pathlab::search::prepared::PreparedInfo> {
        vec![]
    }
}

struct Voxels(VoxelSuite, std::cell::RefCell<VoxelSolver>);

impl SuiteRun for Voxels {
    fn len(&self) -> usize {
        self.0.problems.len()
    }
    fn header(&self) -> &'static str {
        "id,sx,sy,sz,gx,gy,gz,optimal,length,expanded,generated,micros,ok"
    }
    fn problem_fields(&self, i: usize) -> String {
        let p = &self.0.problems[i];
        let [a, b, c] = p.start;
        let [d, e, f] = p.goal;
        format!("{a},{b},{c},{d},{e},{f},{}", p.optimal)
    }
    fn solve(&self, i: usize) -> pathlab::experiment::Row {
        self.1.borrow_mut().solve(&self.0, i)
    }
}

struct Loaded<S: SpaceFamily>(Suite<S>, std::cell::RefCell<Solver<S>>);

impl<S: SpaceFamily> SuiteRun for Loaded<S> {
    fn len(&self) -> usize {
        self.0.problems.len()
    }
    fn header(&self) -> &'static str {
        "id,sx,sy,gx,gy,optimal,length,expanded,generated,micros,ok"
    }
    fn problem_fields(&self, i: usize) -> String {
        let p = &self.0.problems[i];
        format!(
            "{},{},{},{},{}",
            p.start.0, p.start.1, p.goal.0, p.goal.1, p.optimal
        )
    }
    fn solve(&self, i: usize) -> pathlab::experiment::Row {
        self.1.borrow_mut().solve(&self.0, i)
    }
    fn prepared(&self) -> Vec<pathlab::search::prepared::PreparedInfo> {
        self.1.borrow().prepared()
    }
}

/// The refusal of a run that would check no problem of `scen` (its exit 0 would say nothing).
pub(super) fn nothing_to_check(scen: &Path) -> anyhow::Error {
    anyhow::anyhow!(
        "{}: no problem to check (the file has none, or none was kept)",
        scen.display()
    )
}

pub(super) fn solve(args: &SuiteArgs) -> Result<i32> {
    with_suite(args, &mut |suite| solve_suite(args, suite))
}

fn solve_suite(args: &SuiteArgs, suite: &dyn SuiteRun) -> Result<i32> {
    // Having checked nothing is no success.
    if suite.len() == 0 {
        return Err(nothing_to_check(&args.scen));
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    writeln!(out, "{}", suite.header())?;
    let mut all_ok = true;
    let mut progress = LateProgress::new(suite.len());
    for i in 0..suite.len() {
        let r = suite.solve(i);
        let length = r.length.map_or("inf".to_string(), |l| format!("{l:.8}"));
        writeln!(
            out,
            "{},{},{},{},{},{:.2},{}",
            i,
            suite.problem_fields(i),
            length,
            r.expanded,
            r.generated,
            r.micros,
            r.ok
        )?;
        all_ok &= r.ok;
        progress.inc();
    }
    out.flush()?;
    Ok(if all_ok { 0 } else { 1 })
}

pub(super) fn bench(args: &SuiteArgs, repeat: usize) -> Result<i32> {
    with_suite(args, &mut |suite| bench_suite(args, suite, repeat))
}

fn bench_suite(args: &SuiteArgs, suite: &dyn SuiteRun, repeat: usize) -> Result<i32> {
    if suite.len() == 0 {
        bail!("{}: no problems selected", args.scen.display());
    }
    let rounds = repeat.max(1);
    let mut times = Vec::new();
    let (mut expanded, mut total_s) = (0u64, 0f64);
    let mut progress = LateProgress::new(suite.len() * rounds);
    let (mut no_path, mut wrong) = (0usize, 0usize);
    for round in 0..rounds {
        for i in 0..suite.len() {
            let r = suite.solve(i);
            progress.inc();
            if round == 0 {
                if r.length.is_none() {
                    no_path += 1;
                } else if !r.ok {
                    wrong += 1;
                }
            }
            if rounds > 1 && round == 0 {
                continue; // warm-up round
            }
            times.push(r.micros);
            expanded += r.expanded;
            total_s += r.micros / 1e6;
        }
    }
    drop(progress);
    // Times of failed searches are not times of the algorithm at work: say so beside them.
    if no_path + wrong > 0 {
        eprintln!(
            "note: {}: {no_path} of {} problems found no path and {wrong} a length other than the file's optimum; their times are in the figures",
            args.scen.display(),
            suite.len()
        );
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let median = times[times.len() / 2];
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!("map: {}", args.map.display());
    println!("algorithm: {}", args.algo);
    println!("world: {}", args.rules.world());
    println!("queries: {}", times.len());
    println!("median_us: {median:.2}");
    println!("mean_us: {mean:.2}");
    println!(
        "expansions_per_s: {:.0}",
        expanded as f64 / total_s.max(1e-12)
    );
    println!(
        "us_per_expansion: {:.4}",
        total_s * 1e6 / (expanded.max(1) as f64)
    );
    // Built once for the world, not part of any query's time above.
    for p in suite.prepared() {
        let what = p.what.replace(' ', "_");
        println!("prepared_{what}_ms: {:.3}", p.ms);
        println!("prepared_{what}_bytes: {}", p.bytes);
    }
    Ok(0)
}

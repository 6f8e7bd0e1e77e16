//! Rahmani 2020's experiment on the GPS of the brain (§5.6, Fig. 5.9): cognitive maps at
//! knowledge levels 𝒫, and per level walks between random hexes compared with A*.
//!
//! How a cognitive map at 𝒫% is made (the thesis does not say): starting from nothing known,
//! prior naive explorations (the walk's δ and C) run between random pairs of walkable hexes,
//! each hex walked counting a visit, until 𝒫% of the walkable hexes (those of the largest
//! connected part) have been visited at least once; the last exploration stops at the hex that
//! reaches the share. At 100% explorations run until every hex is visited or 200 steps per
//! hex have been walked; hexes still unknown then get one visit, and the report says how many.

use crate::map::Grid;
use crate::map::{hexes_from_square, HexFill};
use crate::search::gps::{self, Exploring, Options};
use crate::search::Query;
use crate::space::CognitiveMap;
use crate::space::{HexOrientation, HexSpace, NodeId, Space, TerrainRule};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A hex world made from a square map, with its walkable hexes (the largest connected part).
#[derive(Clone, Debug)]
pub struct HexWorld {
    pub space: HexSpace,
    pub cells: Vec<NodeId>,
}

impl HexWorld {
    /// The hexes `hex_size` cells apart over `grid` (pointy-top; a hex overlapping a blocked
    /// cell is blocked, so no hex move crosses a wall: [`HexFill::Walls`]).
    pub fn from_square(grid: &Grid, hex_size: f64) -> Result<HexWorld, String> {
        let o = HexOrientation::Pointy;
        let hexes = hexes_from_square(grid, o, hex_size, HexFill::Walls)?;
        let space = HexSpace::new(&hexes, o, hex_size, TerrainRule::Class);
        Ok(HexWorld::of(space))
    }

    /// `space` with its largest connected part.
    pub fn of(space: HexSpace) -> HexWorld {
        let n = space.num_nodes();
        let mut part = vec![u32::MAX; n];
        let mut best: Vec<NodeId> = vec![];
        for s in 0..n as NodeId {
            if part[s as usize] != u32::MAX || !space.is_passable(s) {
                continue;
            }
            let mut cells = vec![s];
            part[s as usize] = s;
            let mut i = 0;
            while i < cells.len() {
                let x = cells[i];
                i += 1;
                for (m, _) in space.neighbours(x) {
                    if part[m as usize] == u32::MAX {
                        part[m as usize] = s;
                        cells.push(m);
                    }
                }
            }
            if cells.len() > best.len() {
                best = cells;
            }
        }
        best.sort_unstable();
        HexWorld { space, cells: best }
    }
}

/// Mäntysalo 2024's room map (its generator, every dynamic door in its initial state) for
/// hexes `hex_size` cells apart: its one-cell doors widened along their walls to
/// ⌈3 · hex_size⌉ cells (at most the room's side), so a hex fits through every door; with
/// one-cell doors every room was an island of hexes. The door width is pathlab's choice: the
/// map is not Rahmani 2020's, whose maps are hexes from the start.
pub fn room_map(side: u32, hex_size: f64, seed: u64) -> Grid {
    use crate::experiment::dynamic::{DynamicMap, MapKind};
    let g = DynamicMap::generate(MapKind::Room, side, seed).initial_grid();
    widen_doors(&g, (3.0 * hex_size).ceil() as u32)
}

/// Each door of a one-cell wall (a free wall cell between two free room cells) widened to
/// `width` cells along its wall; wall crossings stay.
fn widen_doors(g: &Grid, width: u32) -> Grid {
    use crate::map::Cell;
    let free = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && (x as u32) < g.width()
            && (y as u32) < g.height()
            && g.get(x as u32, y as u32).is_some_and(|c| c.tile != b'@')
    };
    let wall = |x: i64, y: i64| !free(x, y);
    let mut out = g.clone();
    let r = (width.saturating_sub(1) / 2) as i64;
    for y in 0..g.height() as i64 {
        for x in 0..g.width() as i64 {
            if !free(x, y) {
                continue;
            }
            // Through a vertical wall (rooms left and right), or a horizontal one.
            let axes: [((i64, i64), (i64, i64)); 2] = [((0, 1), (1, 0)), ((1, 0), (0, 1))];
            for ((ax, ay), (px, py)) in axes {
                let door = wall(x + ax, y + ay)
                    && wall(x - ax, y - ay)
                    && free(x + px, y + py)
                    && free(x - px, y - py);
                if !door {
                    continue;
                }
                for dir in [-1i64, 1] {
                    for d in 1..=r {
                        let (cx, cy) = (x + ax * d * dir, y + ay * d * dir);
                        // Only a wall cell between two room cells opens.
                        if !(free(cx + px, cy + py) && free(cx - px, cy - py)) {
                            break;
                        }
                        out.set(cx as u32, cy as u32, Cell::FREE);
                    }
                }
            }
        }
    }
    out
}

/// How a cognitive map was built.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Built {
    pub walks: u32,
    pub steps: u64,
    /// Hexes given one visit at the end (100% only).
    pub filled: usize,
}

/// A cognitive map with `share` (0 to 1) of the walkable hexes known (see the module's text).
pub fn build_knowledge(
    w: &HexWorld,
    share: f64,
    p: Exploring,
    c_max: u32,
    seed: u64,
) -> (CognitiveMap, Built) {
    let mut map = CognitiveMap::new(w.space.num_nodes(), c_max);
    let mut built = Built::default();
    let target =
        ((share.clamp(0.0, 1.0) * w.cells.len() as f64).round() as usize).min(w.cells.len());
    if target == 0 || w.cells.len() < 2 {
        return (map, built);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut known = 0usize;
    let budget = 200 * w.cells.len() as u64;
    let visit = |map: &mut CognitiveMap, x: NodeId, known: &mut usize| {
        if !map.known(x) {
            *known += 1;
        }
        map.visit(x);
    };
    'walks: while known < target && built.steps < budget {
        let a = w.cells[rng.random_range(0..w.cells.len())];
        let b = w.cells[rng.random_range(0..w.cells.len())];
        if a == b {
            continue;
        }
        built.walks += 1;
        let mut x = a;
        visit(&mut map, x, &mut known);
        // One exploration from a to b, at most as many steps as there are hexes.
        for _ in 0..w.cells.len() {
            if x == b || known >= target {
                break;
            }
            let Some(ch) = gps::choose(&w.space, x, b, p.delta, &mut rng) else {
                break;
            };
            for _ in 0..p.c.max(1) {
                let Some(y) = w.space.neighbour_in(x, ch.chosen) else {
                    break;
                };
                x = y;
                built.steps += 1;
                visit(&mut map, x, &mut known);
                if x == b || known >= target {
                    continue 'walks;
                }
            }
        }
    }
    if known < target {
        for &c in &w.cells {
            if !map.known(c) && known < target {
                map.visit(c);
                known += 1;
                built.filled += 1;
            }
        }
    }
    (map, built)
}

/// One run's outcome (a row of the CSV).
#[derive(Clone, Debug, PartialEq)]
pub struct GpsRow {
    pub knowledge: u32,
    pub run: u32,
    /// The walk's start and goal hexes, as (column, row) of the hex world.
    pub start: (u32, u32),
    pub goal: (u32, u32),
    pub astar_length: f64,
    pub gps_length: f64,
    pub explored_cells: usize,
    pub known_share: f64,
    pub gave_up: bool,
}

impl GpsRow {
    pub fn ratio(&self) -> f64 {
        self.gps_length / self.astar_length
    }
}

/// Start and goal are hex (column, row) pairs, so a run can be walked again on its own.
pub const CSV_HEADER: &str = "knowledge,run,start_x,start_y,goal_x,goal_y,astar_length,\
gps_length,ratio,explored_cells,known_share";

/// The experiment's settings.
#[derive(Clone, Debug)]
pub struct Setup {
    pub knowledge: Vec<u32>,
    pub runs: u32,
    pub params: Exploring,
    pub c_max: u32,
    pub seed: u64,
    pub options: Options,
    /// A walk may take this many times the A* path's steps, plus 100, before it stops
    /// exploring and finishes on the counter A*'s plan.
    pub limit_factor: usize,
}

/// Start and goal of run `run`: two walkable hexes at least a quarter of the map's extent
/// apart (straight line), drawn from the run's seed; an error when 1,000 draws find none
/// (a world of one small part), never a fixed pair in their place.
pub fn endpoints(w: &HexWorld, rng: &mut ChaCha8Rng) -> Result<(NodeId, NodeId), String> {
    let (ww, hh) = (w.space.width() as f64, w.space.height() as f64);
    let far = 0.25 * (ww * ww + hh * hh).sqrt() * w.space.pitch();
    for _ in 0..1000 {
        let a = w.cells[rng.random_range(0..w.cells.len())];
        let b = w.cells[rng.random_range(0..w.cells.len())];
        let (p, q) = (w.space.centre(a), w.space.centre(b));
        if ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt() >= far {
            return Ok((a, b));
        }
    }
    Err(format!(
        "no two walkable hexes a quarter of the map's diagonal ({far:.0} cells) apart in 1,000 \
         draws: the largest connected part has {} hexes",
        w.cells.len()
    ))
}

/// How each knowledge level's cognitive map was built.
pub type Builds = Vec<(u32, Built)>;

/// Every level's cognitive map, then `runs` walks on a copy of it each.
pub fn run(w: &HexWorld, s: &Setup) -> Result<(Vec<GpsRow>, Builds), String> {
    if w.cells.len() < 2 {
        return Err("the hex world has fewer than two walkable hexes".into());
    }
    let mut rows = vec![];
    let mut builds = vec![];
    for &k in &s.knowledge {
        let build_seed = s.seed ^ (0x9E37_79B9 * (k as u64 + 1));
        let (map, built) = build_knowledge(w, k as f64 / 100.0, s.params, s.c_max, build_seed);
        builds.push((k, built));
        let share = map.known_share(&w.cells);
        for r in 0..s.runs {
            let mut rng = ChaCha8Rng::seed_from_u64(s.seed.wrapping_add(r as u64));
            let (a, b) = endpoints(w, &mut rng)?;
            let q = Query { start: a, goal: b };
            let mut astar = crate::algorithms::build("astar", &w.space, q)?;
            astar.run_null(&w.space);
            let (Some(opt), Some(steps)) = (astar.cost(), astar.path().map(|p| p.len())) else {
                return Err("no A* path inside the largest connected part".into());
            };
            let mut mine = map.clone();
            let how = gps::Walking {
                exploring: s.params,
                options: s.options,
                limit: s.limit_factor * steps + 100,
            };
            let seed = build_seed.wrapping_add(r as u64 + 1);
            let walk = gps::gps_walk(&w.space, &mut mine, a, b, how, seed);
            if !walk.reached {
                return Err(format!("run {r} at {k}%: the walk did not reach its goal"));
            }
            rows.push(GpsRow {
                knowledge: k,
                run: r,
                start: w.space.xy(a),
                goal: w.space.xy(b),
                astar_length: opt,
                gps_length: walk.length,
                explored_cells: walk.explored(),
                known_share: share,
                gave_up: walk.gave_up,
            });
        }
    }
    Ok((rows, builds))
}

/// The rows as CSV.
pub fn csv(rows: &[GpsRow]) -> String {
    use std::fmt::Write;
    let mut s = format!("{CSV_HEADER}\n");
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{:.3},{:.3},{:.4},{},{:.4}",
            r.knowledge,
            r.run,
            r.start.0,
            r.start.1,
            r.goal.0,
            r.goal.1,
            r.astar_length,
            r.gps_length,
            r.ratio(),
            r.explored_cells,
            r.known_share
        );
    }
    s
}

/// Mean ratio to A* per knowledge level, in the order given.
pub fn mean_ratios(rows: &[GpsRow], levels: &[u32]) -> Vec<(u32, f64)> {
    levels
        .iter()
        .map(|&k| {
            let v: Vec<f64> = rows
                .iter()
                .filter(|r| r.knowledge == k)
                .map(|r| r.ratio())
                .collect();
            (k, v.iter().sum::<f64>() / v.len().max(1) as f64)
        })
        .collect()
}

/// The summary: mean ratio, explored hexes and walks that gave up per level; Markdown.
pub fn table(rows: &[GpsRow], levels: &[u32]) -> String {
    use std::fmt::Write;
    let mut s = String::from(
        "| knowledge | known share | runs | mean ratio to A* | max ratio | explored hexes | walks past the limit |\n|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (k, mean) in mean_ratios(rows, levels) {
        let mine: Vec<&GpsRow> = rows.iter().filter(|r| r.knowledge == k).collect();
        let n = mine.len().max(1) as f64;
        let _ = writeln!(
            s,
            "| {k}% | {:.1}% | {} | {mean:.3} | {:.3} | {:.0} | {} |",
            100.0 * mine.first().map_or(0.0, |r| r.known_share),
            mine.len(),
            mine.iter().map(|r| r.ratio()).fold(0.0, f64::max),
            mine.iter().map(|r| r.explored_cells as f64).sum::<f64>() / n,
            mine.iter().filter(|r| r.gave_up).count()
        );
    }
    s
}

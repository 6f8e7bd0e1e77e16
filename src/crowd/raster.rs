//! The cells a straight segment crosses: how a navmesh path, a polyline through portals, lands
//! on the square cells a heatmap counts.
//!
//! A funnelled line hugs the corners of obstacles and runs along their sides, so it often lies
//! exactly on a cell boundary, where either neighbouring cell could claim it. A traversal that
//! picked a side by a fixed rule would sometimes count a wall. Instead a piece of the line on a
//! boundary goes to an open cell touching it (the previous cell when that one touches it), and
//! a corner the line passes through is crossed diagonally: consecutive cells are then always
//! 8-adjacent and open wherever the line is walkable.

use super::count::Traffic;
use super::Agent;
use crate::space::{GridSpace, NavmeshSpace, NodeId, Space};

/// Buffers [`walk_into`] reuses from agent to agent.
#[derive(Default)]
pub struct Scratch {
    gates: Vec<([f64; 2], [f64; 2])>,
    line: Vec<[f64; 2]>,
}

/// What `agent` walks along the polygon path `polygons`: the funnelled line from its start
/// cell's centre to its goal cell's, as the cells it crosses, into `out` (cleared first; its
/// start cell alone when the line has no length). Returns the line's length; `scratch` keeps
/// the funnel's buffers between agents.
pub fn walk_into(
    grid: &GridSpace,
    mesh: &NavmeshSpace,
    polygons: &[NodeId],
    agent: Agent,
    scratch: &mut Scratch,
    out: &mut Vec<NodeId>,
) -> f64 {
    out.clear();
    walk_cells(grid, mesh, polygons, agent, scratch, |c| out.push(c))
}

/// Walks an agent's line as [`walk_cells`] does and counts it in `traffic`, returning the
/// line's length and, when `keep`, its cells (the app animates the first agents' paths).
pub fn walk_counted(
    grid: &GridSpace,
    mesh: &NavmeshSpace,
    polygons: &[NodeId],
    agent: Agent,
    scratch: &mut Scratch,
    traffic: &mut Traffic,
    keep: bool,
) -> (f64, Option<Vec<NodeId>>) {
    if keep {
        let mut cells = vec![];
        let length = walk_into(grid, mesh, polygons, agent, scratch, &mut cells);
        traffic.path(&cells);
        return (length, Some(cells));
    }
    // Counted as the line is walked, with no list in between.
    let stamp = traffic.begin();
    let length = walk_cells(grid, mesh, polygons, agent, scratch, |c| {
        traffic.cross(stamp, c)
    });
    (length, None)
}

/// [`walk_into`] handing each cell to `emit` as the line reaches it (a cell once per visit, never
/// twice in a row), returning the line's length.
pub fn walk_cells(
    grid: &GridSpace,
    mesh: &NavmeshSpace,
    polygons: &[NodeId],
    agent: Agent,
    scratch: &mut Scratch,
    emit: impl FnMut(NodeId),
) -> f64 {
    let centre = |c: NodeId| {
        let (x, y) = grid.xy(c);
        [x as f64 + 0.5, y as f64 + 0.5]
    };
    let line = &mut scratch.line;
    mesh.funnel_into(
        polygons,
        centre(agent.start),
        centre(agent.goal),
        &mut scratch.gates,
        line,
    );
    walk_line(grid, line, agent.start, emit);
    line.windows(2)
        .map(|w| ((w[1][0] - w[0][0]).powi(2) + (w[1][1] - w[0][1]).powi(2)).sqrt())
        .sum()
}

/// The cells of the polyline `line` on `grid`, handed to `emit` as [`walk_cells`] says (the
/// cell `start` alone when the line has no length): each segment's by the rules `cells` (the
/// tests' reference) sets out, a cell the segment before ended on not handed twice.
fn walk_line(grid: &GridSpace, line: &[[f64; 2]], start: NodeId, mut emit: impl FnMut(NodeId)) {
    let open = |x, y| is_open(grid, x, y);
    let mut last = None;
    let mut from = None;
    let width = grid.width() as isize;
    for w in line.windows(2) {
        let came_from = from;
        let mut emit_xy = |x: i64, y: i64| {
            from = Some((x, y));
            if let Some(c) = grid.node(x as u32, y as u32) {
                if last != Some(c) {
                    emit(c);
                    last = Some(c);
                }
            }
        };
        let Some(head) = head(w[0], w[1], came_from, open, &mut emit_xy) else {
            continue;
        };
        let c = head.cell;
        match Lattice::of(w[0], w[1], head.next) {
            // On the map (as every cell after a first piece on it is: a piece of positive
            // length of a segment on no axis lies inside the map's rectangle), the rest steps
            // by index: one add a cell and no test of bounds or of the cell before, which the
            // (x, y) walk's closure did for every cell (a tight loop, one pass per cell of
            // every agent's path, whose state then fits in registers).
            Some(l) => match grid.node(c.0 as u32, c.1 as u32) {
                Some(at) => {
                    let delta = [head.sign[0] as isize, head.sign[1] as isize * width];
                    let end = l.step_index(at as isize, delta, |i| emit(i as NodeId));
                    let end = end as NodeId;
                    let (x, y) = grid.xy(end);
                    from = Some((x as i64, y as i64));
                    last = Some(end);
                }
                // A first piece off the map, which a line inside it never has.
                None => l.step(c, head.sign, emit_xy),
            },
            None => step_float(head.next, head.step, head.merge, c, head.sign, emit_xy),
        }
    }
    if last.is_none() {
        // Start and goal on one cell: the agent stands there, as on the grid.
        emit(start);
    }
}

/// Whether cell (x, y) lies on `grid` and is open: where a point on a cell boundary may go.
fn is_open(grid: &GridSpace, x: i64, y: i64) -> bool {
    x >= 0
        && y >= 0
        && grid
            .node(x as u32, y as u32)
            .is_some_and(|c| grid.is_passable(c))
}

/// Calls `f(x, y)` for each cell along the segment from `a` to `b` (cell (x, y) being the
/// square [x, x + 1) × [y, y + 1)), once per run, in order; `open(x, y)` says which cells a
/// point on a boundary may go to, and `from` is the cell the line came from, kept at the start
/// when it touches `a` (so a polyline's corner on a cell boundary adds no cell the line only
/// touches there).
///
/// The segment is cut where it crosses a grid line (crossings closer than EPS merge, as where
/// it passes through a corner), and each piece goes to the cell holding its midpoint: the one
/// cell whose interior it crosses, or, for a piece lying along a grid line, an open cell beside
/// it (the previous cell when it is one). So every cell the line passes through counts, a
/// corner only grazed counts for nothing, and the work is one step per cell crossed. (Sampling
/// every quarter cell took eight times the rest of a PCCP batch, and missed cells a line cuts
/// across near their corner.)
///
/// [`walk_line`] walks a polyline's segments by these rules; this segment-by-segment form is
/// the tests' reference.
#[cfg(test)]
pub fn cells(
    a: [f64; 2],
    b: [f64; 2],
    from: Option<(i64, i64)>,
    open: impl Fn(i64, i64) -> bool,
    f: impl FnMut(i64, i64),
) {
    cells_by::<true>(a, b, from, open, f)
}

/// [`cells`], stepping in integers on the half-cell lattice when `LATTICE` (the float loop
/// alone otherwise, which the tests hold it to).
#[cfg(test)]
fn cells_by<const LATTICE: bool>(
    a: [f64; 2],
    b: [f64; 2],
    from: Option<(i64, i64)>,
    open: impl Fn(i64, i64) -> bool,
    mut f: impl FnMut(i64, i64),
) {
    let Some(h) = head(a, b, from, open, &mut f) else {
        return;
    };
    // The rest of a segment that is not parallel to an axis, by stepping alone: every piece
    // after a crossing is a new cell (a hot loop: one pass per cell of every agent's path).
    match Lattice::of(a, b, h.next).filter(|_| LATTICE) {
        Some(l) => l.step(h.cell, h.sign, f),
        None => step_float(h.next, h.step, h.merge, h.cell, h.sign, f),
    }
}

/// Where [`head`] leaves a segment that is not parallel to an axis: the first piece's cell,
/// already handed on, and the state the stepping goes on from.
struct Head {
    cell: (i64, i64),
    sign: [i64; 2],
    /// Per axis, the parameter t of the next grid line crossed.
    next: [f64; 2],
    /// Per axis, the step in t between lines.
    step: [f64; 2],
    /// Crossings closer than this in t are one.
    merge: f64,
}

/// The start of [`cells`]: the cell at `a`, then the pieces up to the first one's cell on a
/// segment that is not parallel to an axis (whose stepping the caller goes on with), or every
/// piece of one that is (then `None`, as for a segment without length).
#[inline(always)]
fn head(
    a: [f64; 2],
    b: [f64; 2],
    from: Option<(i64, i64)>,
    open: impl Fn(i64, i64) -> bool,
    f: &mut impl FnMut(i64, i64),
) -> Option<Head> {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
    let mut last = cell_at(a, from, &open);
    f(last.0, last.1);
    if len < EPS {
        return None;
    }
    // Per axis: the parameter t of the next grid line crossed, and the step in t between lines
    // (never, along an axis the segment does not move on). A line within EPS of the start
    // is behind it.
    let mut next = [f64::INFINITY; 2];
    let mut step = [f64::INFINITY; 2];
    for i in 0..2 {
        if d[i].abs() * 1e12 <= len {
            continue;
        }
        step[i] = 1.0 / d[i].abs();
        let line = if d[i] > 0.0 {
            floor(a[i] + EPS) as f64 + 1.0
        } else {
            -(floor(-(a[i] - EPS)) as f64) - 1.0
        };
        next[i] = (line - a[i]) / d[i];
    }
    let merge = EPS / len;
    // A piece can lie along a grid line only when the segment is parallel to an axis: there
    // each piece goes to the cell at its midpoint. On any other segment only the first piece
    // needs that; after it, each crossing moves the cell along the axes crossed.
    let parallel = next[0] == f64::INFINITY || next[1] == f64::INFINITY;
    let sign = [d[0].signum() as i64, d[1].signum() as i64];
    let mut t = 0.0;
    loop {
        let cut = next[0].min(next[1]).min(1.0);
        if cut - t > merge {
            let m = 0.5 * (t + cut);
            let p = [a[0] + d[0] * m, a[1] + d[1] * m];
            let c = interior(p).unwrap_or_else(|| cell_at(p, Some(last), &open));
            if c != last {
                f(c.0, c.1);
                last = c;
            }
            if !parallel {
                return Some(Head {
                    cell: c,
                    sign,
                    next,
                    step,
                    merge,
                });
            }
        }
        if cut >= 1.0 - merge {
            return None;
        }
        t = cut;
        for i in 0..2 {
            if next[i] <= cut + merge {
                next[i] += step[i];
            }
        }
    }
}

/// [`cells`]' stepping after the first piece, in floating point: `next` the parameter t of
/// each axis's next grid line, `step` the t between lines, `c` the cell of the piece before.
fn step_float(
    mut next: [f64; 2],
    step: [f64; 2],
    merge: f64,
    mut c: (i64, i64),
    sign: [i64; 2],
    mut f: impl FnMut(i64, i64),
) {
    let mut cut = next[0].min(next[1]).min(1.0);
    while cut < 1.0 - merge {
        if next[0] <= cut + merge {
            next[0] += step[0];
            c.0 += sign[0];
        }
        if next[1] <= cut + merge {
            next[1] += step[1];
            c.1 += sign[1];
        }
        let t = cut;
        cut = if next[0] < next[1] { next[0] } else { next[1] };
        if cut > 1.0 {
            cut = 1.0;
        }
        if cut - t > merge {
            f(c.0, c.1);
        }
    }
}

/// The same stepping in integers, for a segment whose ends lie on the half-cell lattice: every
/// funnelled line on a grid's navmesh, whose corners are polygon corners (integers) and whose
/// ends are cell centres. Measured in units of 1 / (2 |dx| · 2 |dy|) of the segment, every
/// crossing's t is an integer, so comparisons are exact, and crossings at one point (a corner)
/// are equal where the float loop merges those closer than EPS. Distinct crossings are at
/// least one unit apart, far more than EPS for any map pathlab reads. The float loop's
/// rounding grows with the segment's length and stays far below EPS on segments of a few
/// hundred cells (the test's are up to 60, a crowd's a few hundred); on a segment thousands of
/// cells long it could merge or split a corner the integer walk, which is exact, gets right.
/// The integer loop has no chain of float additions and comparisons from cell to cell.
struct Lattice {
    /// Each axis's next grid line crossed, as t in units.
    next: [i64; 2],
    /// Units between lines along each axis.
    step: [i64; 2],
    /// The segment's end, t = 1.
    end: i64,
}

impl Lattice {
    /// `a` to `b` on the lattice (a segment on no axis), `next` being the float loop's state.
    #[inline(always)]
    fn of(a: [f64; 2], b: [f64; 2], next: [f64; 2]) -> Option<Lattice> {
        // Twice each coordinate, when that is an integer small enough that products of two
        // stay exact.
        let twice = |v: f64| {
            let w = 2.0 * v;
            (w == (w as i64) as f64 && w.abs() < (1u64 << 28) as f64).then_some(w as i64)
        };
        let (a2, b2) = ([twice(a[0])?, twice(a[1])?], [twice(b[0])?, twice(b[1])?]);
        let d = [b2[0] - a2[0], b2[1] - a2[1]];
        let span = [d[0].abs(), d[1].abs()];
        if span[0] == 0 || span[1] == 0 {
            return None;
        }
        let mut l = Lattice {
            next: [0; 2],
            step: [2 * span[1], 2 * span[0]],
            end: span[0] * span[1],
        };
        for i in 0..2 {
            // The grid line the float loop is at (next t is within rounding of it), twice.
            let line = 2 * floor(a[i] + next[i] * (b[i] - a[i]) + 0.5);
            let ahead = (line - a2[i]) * d[i].signum();
            l.next[i] = ahead * span[1 - i];
        }
        Some(l)
    }

    #[inline(always)]
    fn step(mut self, mut c: (i64, i64), sign: [i64; 2], mut f: impl FnMut(i64, i64)) {
        let mut cut = self.next[0].min(self.next[1]);
        while cut < self.end {
            // Branch-free: which axis (or both, at a corner) the crossing is on.
            let x = (self.next[0] == cut) as i64;
            let y = (self.next[1] == cut) as i64;
            self.next[0] += x * self.step[0];
            self.next[1] += y * self.step[1];
            c.0 += x * sign[0];
            c.1 += y * sign[1];
            f(c.0, c.1);
            cut = self.next[0].min(self.next[1]);
        }
    }

    /// [`Lattice::step`] by index: from cell index `at`, moving `delta[axis]` for each
    /// crossing of that axis's lines; returns the last cell's index.
    #[inline(always)]
    fn step_index(mut self, mut at: isize, delta: [isize; 2], mut f: impl FnMut(isize)) -> isize {
        let mut cut = self.next[0].min(self.next[1]);
        while cut < self.end {
            let x = self.next[0] == cut;
            let y = self.next[1] == cut;
            self.next[0] += x as i64 * self.step[0];
            self.next[1] += y as i64 * self.step[1];
            at += x as isize * delta[0] + y as isize * delta[1];
            f(at);
            cut = self.next[0].min(self.next[1]);
        }
        at
    }
}

/// Boundaries closer than this count as touched.
const EPS: f64 = 1e-9;

/// The cell whose interior holds `p` (every coordinate at least EPS from an integer), if any.
#[inline(always)]
fn interior(p: [f64; 2]) -> Option<(i64, i64)> {
    match (sides(p[0]), sides(p[1])) {
        ([x0, x1], [y0, y1]) if x0 == x1 && y0 == y1 => Some((x0, y0)),
        _ => None,
    }
}

/// The cells on either side of `v` along one axis: the two around an integer `v` is within
/// EPS of (the higher first), else the one holding `v` twice.
#[inline(always)]
fn sides(v: f64) -> [i64; 2] {
    // Integer conversions rather than f64::round and floor, which compile to calls into libm
    // on the baseline x86-64 target. `nearest` may differ from `round` only halfway between
    // integers, where neither is within EPS; `floor` is exact for every value.
    let nearest = (v + 0.5) as i64 - (v < -0.5) as i64;
    if (v - nearest as f64).abs() < EPS {
        [nearest, nearest - 1]
    } else {
        [floor(v); 2]
    }
}

/// ⌊v⌋, by integer conversion (f64::floor is a call into libm on baseline x86-64).
#[inline(always)]
fn floor(v: f64) -> i64 {
    let t = v as i64;
    t - ((t as f64) > v) as i64
}

/// The cell for point `p`: among the cells touching it, `last` if open, else the first open
/// one, else the cell below-left of the boundary.
fn cell_at(p: [f64; 2], last: Option<(i64, i64)>, open: &impl Fn(i64, i64) -> bool) -> (i64, i64) {
    let (xs, ys) = (sides(p[0]), sides(p[1]));
    let candidates = [
        (xs[0], ys[0]),
        (xs[1], ys[0]),
        (xs[0], ys[1]),
        (xs[1], ys[1]),
    ];
    if let Some(l) = last.filter(|l| candidates.contains(l) && open(l.0, l.1)) {
        return l;
    }
    candidates
        .into_iter()
        .find(|&(x, y)| open(x, y))
        .unwrap_or(candidates[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(a: [f64; 2], b: [f64; 2], open: impl Fn(i64, i64) -> bool) -> Vec<(i64, i64)> {
        let mut v = vec![];
        cells(a, b, None, open, |x, y| v.push((x, y)));
        v
    }

    #[test]
    fn segments_cross_the_cells_they_touch_and_keep_off_walls() {
        let any = |_, _| true;
        assert_eq!(all([0.5, 0.5], [0.7, 0.2], any), vec![(0, 0)]);
        assert_eq!(
            all([0.5, 0.5], [3.5, 0.5], any),
            vec![(0, 0), (1, 0), (2, 0), (3, 0)]
        );
        assert_eq!(
            all([3.5, 2.5], [3.5, 0.5], any),
            vec![(3, 2), (3, 1), (3, 0)]
        );
        let v = all([0.5, 0.5], [4.5, 1.5], any);
        assert_eq!((v.first(), v.last()), (Some(&(0, 0)), Some(&(4, 1))));
        for w in v.windows(2) {
            assert!((w[0].0 - w[1].0).abs() <= 1 && (w[0].1 - w[1].1).abs() <= 1);
        }
        // Along the line y = 1 between an open row 0 and a walled row 1: row 0.
        let row0 = |_: i64, y: i64| y == 0;
        assert_eq!(all([0.5, 0.5], [2.0, 1.0], row0).last(), Some(&(1, 0)));
        assert!(all([1.0, 1.0], [3.0, 1.0], row0).iter().all(|c| c.1 == 0));
        // Through a corner between two walls, diagonally.
        let diag = |x: i64, y: i64| x == y;
        assert_eq!(all([0.5, 0.5], [1.5, 1.5], diag), vec![(0, 0), (1, 1)]);
    }

    /// On random segments between cell centres and cell corners (what funnelled lines join),
    /// near walls and through corners, the integer stepping gives the float loop's cells.
    #[test]
    fn integer_stepping_gives_the_float_loops_cells() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let open = |x: i64, y: i64| (x * 7 + y * 3) % 5 != 0;
        let point = |rng: &mut rand::rngs::StdRng| {
            let v = |rng: &mut rand::rngs::StdRng| rng.random_range(-6..80) as f64 * 0.5;
            [v(rng), v(rng)]
        };
        let (mut lattice, mut float) = (vec![], vec![]);
        let mut corners = 0;
        for k in 0..20_000 {
            let (a, b) = (point(&mut rng), point(&mut rng));
            let from = (k % 3 == 0).then_some((a[0] as i64, a[1] as i64));
            lattice.clear();
            float.clear();
            cells_by::<true>(a, b, from, open, |x, y| lattice.push((x, y)));
            cells_by::<false>(a, b, from, open, |x, y| float.push((x, y)));
            assert_eq!(lattice, float, "{a:?} to {b:?}");
            corners += lattice
                .windows(2)
                .filter(|w| w[0].0 != w[1].0 && w[0].1 != w[1].1)
                .count();
        }
        assert!(corners > 1000, "segments pass through corners: {corners}");
    }

    /// A polyline walked as the counting does (the first piece of each segment by its rules,
    /// the rest by index) gives the cells of its segments walked one by one in floats, on
    /// random maps with walls, through corners and along the map's edges.
    #[test]
    fn walking_by_index_gives_each_segments_float_cells() {
        use crate::map::Generator;
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let (mut walked, mut reference) = (vec![], vec![]);
        let mut cells_seen = 0;
        for k in 0..400 {
            let (w, h) = (rng.random_range(1..40), rng.random_range(1..40));
            let map = Generator::RandomBlocks { density: 0.2 }.generate(w, h, k);
            let grid = GridSpace::octile(&map);
            let open = |x, y| is_open(&grid, x, y);
            // Points on the half-cell lattice, the map's edges included.
            let n = rng.random_range(1..6);
            let mut point = || {
                [
                    rng.random_range(0..=2 * w) as f64 * 0.5,
                    rng.random_range(0..=2 * h) as f64 * 0.5,
                ]
            };
            let line: Vec<[f64; 2]> = (0..n).map(|_| point()).collect();
            walked.clear();
            walk_line(&grid, &line, 0, |c| walked.push(c));
            reference.clear();
            let (mut from, mut last) = (None, None);
            for s in line.windows(2) {
                cells_by::<false>(s[0], s[1], from, open, |x, y| {
                    from = Some((x, y));
                    if let Some(c) = grid.node(x as u32, y as u32) {
                        if last != Some(c) {
                            reference.push(c);
                            last = Some(c);
                        }
                    }
                });
            }
            if last.is_none() {
                reference.push(0);
            }
            assert_eq!(walked, reference, "{w} x {h}, line {line:?}");
            cells_seen += walked.len();
        }
        assert!(cells_seen > 5000, "the lines cross cells: {cells_seen}");
    }
}

//! The jump policy: successors of a node are the jump points its scans reach.

use super::bits::Bits;
use super::{JumpGrid, JumpTable};
use crate::search::best_first::{Expansion, Refine};
use crate::search::params::Params;
use crate::search::prepared::Prepared;
use crate::search::Query;
use crate::space::{GridSpace, NodeId, Space};
use crate::trace::{Event, EventKind, Tracer, NONE};
use std::sync::Arc;

const SQRT2: f64 = std::f64::consts::SQRT_2;

/// Where a scan reads: bit rows (JPS, `PLUS` false) or the jump table (JPS+), and the query's
/// goal. `PLUS` is a constant so each search compiles to one kind of scan.
#[derive(Clone, Debug)]
pub struct Jumps<const PLUS: bool> {
    grid: Arc<JumpGrid>,
    table: Option<Arc<JumpTable>>,
    /// The bit rows of the start's terrain class (moves never leave a class).
    class: usize,
    goal: (u32, u32),
}

/// What one expansion's scans read, fetched once per expansion.
struct Ctx<'a, const PLUS: bool> {
    b: &'a Bits,
    tb: &'a Bits,
    t: Option<&'a JumpTable>,
    gx: u32,
    gy: u32,
    w: u32,
}

impl<const PLUS: bool> Ctx<'_, PLUS> {
    /// Scans straight from (x, y) in direction `d` (0 N, 1 E, 2 S, 3 W), pushing what it
    /// finds at `base` plus the way there.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn straight<T: Tracer>(
        &self,
        x: u32,
        y: u32,
        d: u8,
        base: f64,
        out: &mut Vec<(NodeId, f64)>,
        tracer: &mut T,
    ) -> u32 {
        let (gx, gy) = (self.gx, self.gy);
        let scan = match self.t {
            Some(t) if PLUS => t.straight(x, y, d, gx, gy),
            _ => match d {
                0 => self.tb.jump_west(y, x, if gx == x { gy } else { u32::MAX }),
                1 => self.b.jump_east(x, y, if gy == y { gx } else { u32::MAX }),
                2 => self.tb.jump_east(y, x, if gx == x { gy } else { u32::MAX }),
                _ => self.b.jump_west(x, y, if gy == y { gx } else { u32::MAX }),
            },
        };
        let (ex, ey) = if d.is_multiple_of(2) {
            (x, scan.end)
        } else {
            (scan.end, y)
        };
        if scan.found {
            let dist = (ex.abs_diff(x) + ey.abs_diff(y)) as f64;
            out.push((ey * self.w + ex, base + dist));
        }
        if T::ENABLED {
            let (from, to) = (y * self.w + x, ey * self.w + ex);
            let found = scan.found as u8 as f64;
            tracer.event(Event::new(EventKind::Jump, to, from, found, 0.0));
        }
        scan.end
    }

    /// Walks diagonally from (x, y) by (dx, dy), pushing what the straight scans from every
    /// cell on the way find, and the goal if the walk reaches it.
    #[inline(always)]
    fn diagonal<T: Tracer>(
        &self,
        x: u32,
        y: u32,
        dx: i32,
        dy: i32,
        out: &mut Vec<(NodeId, f64)>,
        tracer: &mut T,
    ) {
        let (vert, horiz) = (if dy < 0 { 0 } else { 2 }, if dx > 0 { 1 } else { 3 });
        let (gx, gy, w) = (self.gx, self.gy, self.w);
        let (mut cx, mut cy, mut k) = (x as i64, y as i64, 0u32);
        let (dx, dy) = (dx as i64, dy as i64);
        match self.t {
            Some(t) if PLUS => {
                // The table says how far the next cell with a straight jump point is, or how
                // far the walk goes; the goal's row or column is a stop of its own.
                loop {
                    let d = t.diagonal(cx as u32, cy as u32, dx, dy);
                    let (reach, stops) = (d.unsigned_abs() as u32, d > 0);
                    let (ex, ey) = ((gx as i64 - cx) * dx, (gy as i64 - cy) * dy);
                    let to_goal = if ex > 0 && ey > 0 {
                        ex.min(ey) as u32
                    } else {
                        u32::MAX
                    };
                    let step = if to_goal <= reach {
                        to_goal
                    } else if stops {
                        reach
                    } else {
                        break;
                    };
                    cx += dx * step as i64;
                    cy += dy * step as i64;
                    k += step;
                    let base = k as f64 * SQRT2;
                    let (ux, uy) = (cx as u32, cy as u32);
                    if (ux, uy) == (gx, gy) {
                        out.push((uy * w + ux, base));
                        break;
                    }
                    self.straight(ux, uy, vert, base, out, tracer);
                    self.straight(ux, uy, horiz, base, out, tracer);
                }
            }
            _ => {
                let b = self.b;
                let mut ok = b.free(cx + dx, cy) && b.free(cx, cy + dy);
                // A step needs both cells beside it free, and the straight scans from each cell
                // say whether they are: only the diagonal cell itself is read here.
                while ok && b.free(cx + dx, cy + dy) {
                    cx += dx;
                    cy += dy;
                    k += 1;
                    let base = k as f64 * SQRT2;
                    let (ux, uy) = (cx as u32, cy as u32);
                    if (ux, uy) == (gx, gy) {
                        out.push((uy * w + ux, base));
                        break;
                    }
                    let v = self.straight(ux, uy, vert, base, out, tracer);
                    let h = self.straight(ux, uy, horiz, base, out, tracer);
                    ok = v != uy && h != ux;
                }
            }
        }
        if T::ENABLED {
            let end = cy as u32 * w + cx as u32;
            tracer.event(Event::new(EventKind::Jump, end, y * w + x, 0.0, 0.0));
        }
    }
}

impl Jumps<false> {
    /// Online jumps over `grid`'s bit rows (JPS).
    pub fn online(grid: Arc<JumpGrid>) -> Jumps<false> {
        Jumps {
            grid,
            table: None,
            class: 0,
            goal: (u32::MAX, u32::MAX),
        }
    }
}

impl Jumps<true> {
    /// Jumps read from `table` (JPS+).
    pub fn table(table: Arc<JumpTable>) -> Jumps<true> {
        Jumps {
            grid: table.grid().clone(),
            table: Some(table),
            class: 0,
            goal: (u32::MAX, u32::MAX),
        }
    }
}

impl<const PLUS: bool> Jumps<PLUS> {
    /// The world revision its prepared data describes.
    pub fn built_on(&self) -> u64 {
        match &self.table {
            Some(t) => t.revision(),
            None => self.grid.revision(),
        }
    }

    /// Whether the prepared data was built on `space` as it is now.
    fn current(&self, space: &GridSpace) -> bool {
        self.built_on() == space.revision()
    }

    fn ctx(&self, w: u32) -> Ctx<'_, PLUS> {
        let (b, tb) = self.grid.bits(self.class);
        Ctx {
            b,
            tb,
            t: self.table.as_deref(),
            gx: self.goal.0,
            gy: self.goal.1,
            w,
        }
    }
}

/// Direction of a jump from `p` to `n`, as the move that ends it: a jump found by a straight
/// scan from a diagonal walk ends straight.
#[inline(always)]
fn arrival(p: (u32, u32), n: (u32, u32)) -> (i32, i32) {
    let (dx, dy) = (n.0 as i64 - p.0 as i64, n.1 as i64 - p.1 as i64);
    let (ax, ay) = (dx.abs(), dy.abs());
    let (sx, sy) = (dx.signum() as i32, dy.signum() as i32);
    if ax > ay {
        (sx, 0)
    } else if ay > ax {
        (0, sy)
    } else {
        (sx, sy)
    }
}

/// Direction number of a straight move: 0 N, 1 E, 2 S, 3 W.
#[inline(always)]
fn dir(dx: i32, dy: i32) -> u8 {
    match (dx, dy) {
        (0, -1) => 0,
        (1, 0) => 1,
        (0, 1) => 2,
        _ => 3,
    }
}

impl<const PLUS: bool> Expansion<GridSpace> for Jumps<PLUS> {
    const EDGES: bool = false;

    fn reset(&mut self, space: &GridSpace, query: Query) {
        if !self.current(space) {
            // Built on another revision of the world: never search stale data. The caller's
            // cache should have handed over a fresh one; rebuild here rather than be wrong.
            if self.table.is_some() {
                let t = Arc::new(JumpTable::build(space, &Params::default()));
                self.grid = t.grid().clone();
                self.table = Some(t);
            } else {
                self.grid = Arc::new(JumpGrid::build(space, &Params::default()));
            }
        }
        self.goal = space.xy(query.goal);
        self.class = self.grid.class_index(space.class_of(query.start));
    }

    #[inline]
    fn successors<T: Tracer>(
        &mut self,
        space: &GridSpace,
        n: NodeId,
        parent: NodeId,
        out: &mut Vec<(NodeId, f64)>,
        tracer: &mut T,
    ) {
        let (x, y) = space.xy(n);
        let c = self.ctx(space.width());
        if parent == NONE {
            for d in 0..4 {
                c.straight(x, y, d, 0.0, out, tracer);
            }
            for (dx, dy) in [(1, -1), (1, 1), (-1, 1), (-1, -1)] {
                c.diagonal(x, y, dx, dy, out, tracer);
            }
            return;
        }
        let (dx, dy) = arrival(space.xy(parent), (x, y));
        let free = |ox: i64, oy: i64| c.b.free(x as i64 + ox, y as i64 + oy);
        let (xi, yi) = (dx as i64, dy as i64);
        if dx != 0 && dy != 0 {
            c.straight(x, y, dir(0, dy), 0.0, out, tracer);
            c.straight(x, y, dir(dx, 0), 0.0, out, tracer);
            c.diagonal(x, y, dx, dy, out, tracer);
        } else if dy == 0 {
            // Along a row: a side cell is forced when the cell behind it is blocked.
            c.straight(x, y, dir(dx, 0), 0.0, out, tracer);
            for sy in [-1i32, 1] {
                if !free(-xi, sy as i64) && free(0, sy as i64) {
                    c.straight(x, y, dir(0, sy), 0.0, out, tracer);
                    c.diagonal(x, y, dx, sy, out, tracer);
                }
            }
        } else {
            c.straight(x, y, dir(0, dy), 0.0, out, tracer);
            for sx in [-1i32, 1] {
                if !free(sx as i64, -yi) && free(sx as i64, 0) {
                    c.straight(x, y, dir(sx, 0), 0.0, out, tracer);
                    c.diagonal(x, y, sx, dy, out, tracer);
                }
            }
        }
    }
}

impl<const PLUS: bool> Refine for Jumps<PLUS> {
    /// Jump points to cells: diagonal first, then straight, as every jump is made.
    fn refine(&self, jumps: &[NodeId], path: &mut Vec<NodeId>) {
        let w = self.grid.bits(0).0.width();
        let xy = |n: NodeId| (n % w, n / w);
        path.extend(jumps.first());
        for pair in jumps.windows(2) {
            let (mut x, mut y) = xy(pair[0]);
            let (tx, ty) = xy(pair[1]);
            while (x, y) != (tx, ty) {
                x = (x as i64 + (tx as i64 - x as i64).signum()) as u32;
                y = (y as i64 + (ty as i64 - y as i64).signum()) as u32;
                path.push(y * w + x);
            }
        }
    }
}

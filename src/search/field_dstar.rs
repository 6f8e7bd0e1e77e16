//! Field D* (Ferguson & Stentz 2005) on square grids, as Krafft 2019 describes it (§3.6 of our
//! digest) with its errata: nodes on cell corners, a corner's cost interpolated linearly along
//! each edge joining two consecutive neighbours, so paths cross cells at any angle and through
//! cells of any cost.
//!
//! The search runs backwards, as D* Lite does (the goal seeds it), one corner per step: a
//! corner popped with rhs < g becomes consistent (g = rhs) and recomputes rhs of its eight
//! neighbours by `ComputeCost` over the two neighbour pairs it belongs to. A consistent corner
//! whose rhs later drops is queued again (a reopening): interpolation lets a corner improve
//! after it was expanded, and D* Lite's rule keeps g exact under it. Keys are rhs + h, h the
//! straight line to the start times the cheapest cell cost, over √2 (see [`FieldDStar::h`]).
//!
//! Start and goal are cell centres, not corners (pathlab's problems join cells): the goal
//! seeds the four corners of its cell with their straight distance, and the start takes the
//! cheapest point of its cell's border. Choices where the description is silent, written here
//! and in docs/krafft2019.md: a corner between two diagonally blocked cells is blocked (as the
//! grid's move rule forbids squeezing between them), and cells of another terrain class than
//! the start's are blocked (the class rule: a path never changes class).

use super::field_dstar_heap::CornerHeap;
use super::params::{ParamSpec, Params};
use super::{NodeId, Query, Search, SearchState, Stats, Status};
use crate::space::{GridSpace, Space};
use crate::trace::{Event, EventKind, Tracer, NONE};

pub(super) const INF: f64 = f64::INFINITY;
const SQRT_2: f64 = std::f64::consts::SQRT_2;

/// A corner's eight neighbours in circular order: consecutive entries (and the last with the
/// first) are the pairs whose edge a path from the corner may cross.
const RING: [(i64, i64); 8] = [
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Field D*: see the module's text.
#[derive(Clone, Debug)]
pub struct FieldDStar {
    pub(super) w: i64,
    pub(super) h: i64,
    pub(super) query: Query,
    /// Cost per unit length of each cell; infinite where blocked or of another class.
    pub(super) cost: Vec<f64>,
    /// The cheapest cell cost: h's scale, so h never overestimates.
    min_cost: f64,
    /// What `cost` and `min_cost` were built for: the space's revision and the start's class
    /// (rebuilt only when either changes: building them read every cell, a floor of ~290 µs
    /// per query on den520d however short the query).
    cost_for: Option<(u64, u8, i64, i64)>,
    /// Corners, (w + 1) × (h + 1), row by row: each one's state, valid only where its stamp
    /// is this query's (so a query costs what it touches, not the map's size).
    state: Vec<Corner>,
    epoch: u32,
    heap: CornerHeap,
    /// Corners queued.
    open_count: u64,
    status: Status,
    stats: Stats,
    /// The start cell's centre, which h measures from.
    start_centre: (f64, f64),
    /// The start's cost by interpolation over its cell's corners (∞ until one is reached).
    start_value: f64,
    /// The path drawn: points in cell units (cell (x, y) spans x..x+1, y..y+1).
    pub(super) points: Vec<[f64; 2]>,
    /// The cells the drawn path crosses, in order.
    pub(super) cells: Vec<NodeId>,
    /// Cost of the drawn path up to where it leaves each of those cells.
    pub(super) cell_g: Vec<f64>,
    /// What the drawn path costs, each piece by the cell it crosses.
    pub(super) length: f64,
    /// What the search estimated the path to cost (the start's interpolated value).
    pub(super) estimate: f64,
    started: bool,
}

/// One corner's search state.
#[derive(Clone, Copy, Debug)]
struct Corner {
    g: f64,
    rhs: f64,
    /// The neighbour whose expansion last lowered its rhs (its parent in the trace).
    via: u32,
    /// The query it belongs to (its epoch): another query's record reads as untouched.
    stamp: u32,
    queued: bool,
}

impl Corner {
    const UNTOUCHED: Corner = Corner {
        g: INF,
        rhs: INF,
        via: NONE,
        stamp: 0,
        queued: false,
    };
}

/// A key's bits: non-negative floats order as their bits do.
fn bits(v: f64) -> u64 {
    v.max(0.0).to_bits()
}

impl FieldDStar {
    /// Registry parameters: none (h is the straight line, the only one that fits corners).
    pub const PARAMS: &'static [ParamSpec] = &[];

    pub fn from_params(space: &GridSpace, query: Query, _p: &Params) -> FieldDStar {
        FieldDStar::new(space, query)
    }

    pub fn new(space: &GridSpace, query: Query) -> FieldDStar {
        let mut s = FieldDStar {
            w: 0,
            h: 0,
            query,
            cost: vec![],
            min_cost: 1.0,
            cost_for: None,
            state: vec![],
            epoch: 0,
            heap: CornerHeap::default(),
            open_count: 0,
            status: Status::Running,
            stats: Stats::default(),
            start_value: INF,
            start_centre: (0.0, 0.0),
            points: vec![],
            cells: vec![],
            cell_g: vec![],
            length: 0.0,
            estimate: INF,
            started: false,
        };
        s.reset(space, query);
        s
    }

    /// The corners' layer size.
    pub fn corners(space: &GridSpace) -> usize {
        (space.width() as usize + 1) * (space.height() as usize + 1)
    }

    /// What the search estimated the path to cost: the start's interpolated value (the drawn
    /// path's cost is [`SearchState::cost`]).
    pub fn estimate(&self) -> f64 {
        self.estimate
    }

    /// Corner `k`'s state in this query.
    #[inline]
    fn at(&self, k: usize) -> Corner {
        let c = self.state[k];
        if c.stamp == self.epoch {
            c
        } else {
            Corner::UNTOUCHED
        }
    }

    /// Corner `k`'s state, to change: made this query's first if it is not.
    #[inline]
    fn at_mut(&mut self, k: usize) -> &mut Corner {
        let epoch = self.epoch;
        let c = &mut self.state[k];
        if c.stamp != epoch {
            *c = Corner {
                stamp: epoch,
                ..Corner::UNTOUCHED
            };
        }
        c
    }

    /// g of corner `k` (infinite until expanded).
    #[inline]
    pub(super) fn g_at(&self, k: usize) -> f64 {
        self.at(k).g
    }

    /// The drawn path's points, in cell units, once found.
    pub fn points(&self) -> &[[f64; 2]] {
        &self.points
    }

    /// Cost of cell (x, y); infinite outside the map and where blocked.
    #[inline]
    pub(super) fn cell(&self, x: i64, y: i64) -> f64 {
        if x < 0 || y < 0 || x >= self.w || y >= self.h {
            return INF;
        }
        self.cost[(y * self.w + x) as usize]
    }

    #[inline]
    pub(super) fn corner(&self, x: i64, y: i64) -> Option<usize> {
        (x >= 0 && y >= 0 && x <= self.w && y <= self.h).then(|| (y * (self.w + 1) + x) as usize)
    }

    #[inline]
    pub(super) fn corner_xy(&self, k: usize) -> (i64, i64) {
        let k = k as i64;
        (k % (self.w + 1), k / (self.w + 1))
    }

    /// The world node of a corner in the trace: after the world's cells.
    fn id(&self, k: usize) -> u32 {
        (self.w * self.h) as u32 + k as u32
    }

    /// A corner between two diagonally blocked cells, whose other two are open: blocked, as
    /// the grid forbids a move between the open two.
    fn pinched(&self, x: i64, y: i64) -> bool {
        let b = |dx, dy| self.cell(x + dx, y + dy) == INF;
        let (nw, ne, sw, se) = (b(-1, -1), b(0, -1), b(-1, 0), b(0, 0));
        (nw && se && !ne && !sw) || (ne && sw && !nw && !se)
    }

    /// h of the corner at (x, y): the straight line to the start's centre at the cheapest cost, over √2.
    ///
    /// The full straight line is admissible but not consistent under interpolation: a corner
    /// costs at least one cell's width more than the lesser corner of the edge it crosses, yet
    /// that corner may be its diagonal neighbour, √2 away, so keys could fall along a path and
    /// corners be expanded before their value is final (on den520d one problem reopened
    /// 917,726 corners). Over √2 a key never falls: no corner is expanded twice, and the
    /// search stops as soon as the top key reaches the start's value (a start corner's h is
    /// then half a cell, the start's own distance to its cell's border).
    fn h(&self, (x, y): (i64, i64)) -> f64 {
        let (sx, sy) = self.start_centre;
        self.min_cost * ((x as f64 - sx).powi(2) + (y as f64 - sy).powi(2)).sqrt() / SQRT_2
    }

    /// Centre of cell node `n`, in cell units.
    pub(super) fn centre(&self, n: NodeId) -> (f64, f64) {
        let n = n as i64;
        ((n % self.w) as f64 + 0.5, (n / self.w) as f64 + 0.5)
    }

    /// ComputeCost(s, s_a, s_b) of the digest (Krafft 2019 Fig. 16, indentation corrected, and
    /// eq. 8 with its factor c): the cost from corner s across the edge between its
    /// consecutive neighbours s_a and s_b, by the g of those two. A blocked interior leaves
    /// only the edge along the open side.
    fn compute_cost(&self, s: (i64, i64), a: (i64, i64), b: (i64, i64)) -> f64 {
        // s1 the orthogonal neighbour, s2 the diagonal one.
        let diagonal = |p: (i64, i64)| p.0 != s.0 && p.1 != s.1;
        let (s1, s2) = if diagonal(a) { (b, a) } else { (a, b) };
        let (Some(k1), Some(k2)) = (self.corner(s1.0, s1.1), self.corner(s2.0, s2.1)) else {
            return INF;
        };
        // c: the cell with corners s, s1, s2; b: across the edge s–s1 from it.
        let (cx, cy) = (s.0.min(s2.0), s.1.min(s2.1));
        let c = self.cell(cx, cy);
        let bc = if s1.1 == s.1 {
            // A horizontal edge: the cell across is the other row.
            self.cell(cx, if cy == s.1 { s.1 - 1 } else { s.1 })
        } else {
            self.cell(if cx == s.0 { s.0 - 1 } else { s.0 }, cy)
        };
        let (g1, g2) = (self.g_at(k1), self.g_at(k2));
        if c.min(bc) == INF {
            return INF;
        }
        if c == INF {
            return bc + g1;
        }
        if g1 <= g2 {
            return c.min(bc) + g1;
        }
        let f = g1 - g2;
        if f <= bc {
            if c <= f {
                c * SQRT_2 + g2
            } else {
                let y = (f / (c * c - f * f).sqrt()).min(1.0);
                c * (1.0 + y * y).sqrt() + f * (1.0 - y) + g2
            }
        } else if c <= bc {
            c * SQRT_2 + g2
        } else {
            let x = 1.0 - (bc / (c * c - bc * bc).sqrt()).min(1.0);
            c * (1.0 + (1.0 - x) * (1.0 - x)).sqrt() + bc * x + g2
        }
    }

    /// Queues corner `k`, at `xy`, under its rhs.
    fn push<T: Tracer>(&mut self, k: usize, xy: (i64, i64), from: u32, tracer: &mut T) {
        let c = self.at(k);
        let key = c.rhs + self.h(xy);
        self.heap
            .push((bits(key) as u128) << 64 | bits(c.rhs) as u128, k as u32);
        self.stats.generated += 1;
        let kind = if c.g < INF {
            self.stats.reopened += 1;
            EventKind::Reopen
        } else if c.queued {
            self.stats.updated += 1;
            EventKind::Update
        } else {
            EventKind::Generate
        };
        if !c.queued {
            self.at_mut(k).queued = true;
            self.open_count += 1;
        }
        if T::ENABLED {
            tracer.event(Event::new(kind, self.id(k), from, c.rhs, key));
        }
    }

    /// The start's value now: the cheapest way across its cell's border.
    fn refresh_start(&mut self) {
        let (sx, sy) = self.centre(self.query.start);
        self.start_value = self.best_step([sx, sy]).map_or(INF, |(_, v)| v);
    }
}

impl Search<GridSpace> for FieldDStar {
    fn reset(&mut self, space: &GridSpace, query: Query) {
        self.query = query;
        self.w = space.width() as i64;
        self.h = space.height() as i64;
        self.start_centre = self.centre(query.start);
        let class = space.class_of(query.start);
        let want = (space.revision(), class, self.w, self.h);
        // Revision 0 promises nothing: build every time.
        if self.cost_for != Some(want) || want.0 == 0 {
            self.cost.clear();
            self.min_cost = INF;
            for n in 0..space.num_nodes() as NodeId {
                let c = if class != 0 && space.class_of(n) == class {
                    space.cell_cost(n) as f64
                } else {
                    INF
                };
                self.min_cost = self.min_cost.min(c);
                self.cost.push(c);
            }
            if self.min_cost == INF {
                self.min_cost = 1.0;
            }
            self.cost_for = Some(want);
        }
        let corners = Self::corners(space);
        if self.state.len() != corners {
            self.state.clear();
            self.state.resize(corners, Corner::UNTOUCHED);
            self.epoch = 0;
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // Stamps of 2³² queries ago would read as this query's: clear them once.
            self.state.fill(Corner::UNTOUCHED);
            self.epoch = 1;
        }
        self.heap.reset(corners);
        self.open_count = 0;
        self.stats = Stats::default();
        self.status = Status::Running;
        self.start_value = INF;
        self.points.clear();
        self.cells.clear();
        self.cell_g.clear();
        self.length = 0.0;
        self.estimate = INF;
        self.started = false;
    }

    fn step<T: Tracer>(&mut self, _space: &GridSpace, tracer: &mut T) -> Status {
        if self.status != Status::Running {
            return self.status;
        }
        let (start, goal) = (self.query.start, self.query.goal);
        if !self.started {
            self.started = true;
            if T::ENABLED {
                let (sx, sy) = self.centre(start);
                let (gx, gy) = self.centre(goal);
                let straight = ((sx - gx).powi(2) + (sy - gy).powi(2)).sqrt() * self.min_cost;
                tracer.event(Event::new(EventKind::Source, start, NONE, 0.0, straight));
                tracer.event(Event::marker(EventKind::Destination, goal));
            }
            let open = |n: NodeId| self.cost.get(n as usize).is_some_and(|c| *c < INF);
            if !open(start) || !open(goal) {
                return self.no_path(tracer);
            }
            if start == goal {
                return self.finish(tracer);
            }
            // The goal's cell: its four corners at their straight distance from its centre.
            let (x, y) = ((goal as i64) % self.w, (goal as i64) / self.w);
            let c = self.cell(x, y);
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let (cx, cy) = (x + dx, y + dy);
                let k = self.corner(cx, cy).expect("a cell's corner");
                if self.pinched(cx, cy) {
                    continue;
                }
                let corner = self.at_mut(k);
                corner.rhs = c * SQRT_2 / 2.0;
                corner.via = goal;
                self.push(k, (cx, cy), goal, tracer);
            }
            self.stats.max_open = self.open_count;
            return Status::Running;
        }
        // The next corner whose rhs is below its g (every queued corner's is: its entry moved
        // with each fall of its rhs; the check stays as the invariant's guard).
        let k = loop {
            let top = self
                .heap
                .peek()
                .map(|(key, _)| f64::from_bits((key >> 64) as u64));
            match top {
                None => {
                    return if self.start_value < INF {
                        self.finish(tracer)
                    } else {
                        self.no_path(tracer)
                    };
                }
                Some(key) if key >= self.start_value => return self.finish(tracer),
                Some(_) => {}
            }
            let (key, k) = self.heap.pop().expect("peeked");
            let k = k as usize;
            let c = self.at(k);
            if f64::from_bits(key as u64) == c.rhs && c.rhs < c.g {
                break k;
            }
        };
        let c = self.at_mut(k);
        c.queued = false;
        c.g = c.rhs;
        let (g, via) = (c.g, c.via);
        self.open_count -= 1;
        self.stats.expanded += 1;
        let id = self.id(k);
        if T::ENABLED {
            let key = g + self.h(self.corner_xy(k));
            tracer.event(Event::new(EventKind::Expand, id, via, g, key));
        }
        let (x, y) = self.corner_xy(k);
        // Every value ComputeCost gives below is at least the lesser g of its two corners plus
        // the cheapest cell cost (each of its branches adds a cell's cost, or more, to g1 or
        // g2, and float rounding keeps that order), and all those corners lie in this corner's
        // 3 × 3 block: a neighbour whose rhs is already at or below that floor cannot improve,
        // and is passed over without the sixteen ComputeCosts' square roots. (On den520d most
        // neighbours are: they were expanded before this corner.)
        let mut floor = g;
        for &(dx, dy) in &RING {
            if let Some(n) = self.corner(x + dx, y + dy) {
                floor = floor.min(self.g_at(n));
            }
        }
        let floor = floor + self.min_cost;
        for (i, &(dx, dy)) in RING.iter().enumerate() {
            let s = (x + dx, y + dy);
            let Some(ks) = self.corner(s.0, s.1) else {
                continue;
            };
            if floor >= self.at(ks).rhs * (1.0 - 1e-6) || self.pinched(s.0, s.1) {
                continue;
            }
            // The two pairs around s that hold this corner: seen from s, this corner lies at
            // the opposite offset, between its ring neighbours.
            let j = (i + 4) % 8;
            let at = |o: usize| {
                let (ox, oy) = RING[o % 8];
                (s.0 + ox, s.1 + oy)
            };
            let v = self
                .compute_cost(s, at(j), at(j + 1))
                .min(self.compute_cost(s, at(j + 7), at(j)));
            if v < self.at(ks).rhs * (1.0 - 1e-6) {
                let c = self.at_mut(ks);
                c.rhs = v;
                c.via = id;
                self.push(ks, s, id, tracer);
            }
        }
        self.stats.max_open = self.stats.max_open.max(self.open_count);
        let (sx, sy) = {
            let s = self.query.start as i64;
            (s % self.w, s / self.w)
        };
        if (x - sx == 0 || x - sx == 1) && (y - sy == 0 || y - sy == 1) {
            self.refresh_start();
        }
        Status::Running
    }
}

impl FieldDStar {
    fn no_path<T: Tracer>(&mut self, tracer: &mut T) -> Status {
        self.status = Status::NoPath;
        if T::ENABLED {
            tracer.event(Event::marker(EventKind::NoPath, self.query.goal));
        }
        self.status
    }

    /// Draws the path from the start, and emits its cells and the end.
    fn finish<T: Tracer>(&mut self, tracer: &mut T) -> Status {
        self.estimate = if self.query.start == self.query.goal {
            0.0
        } else {
            self.start_value
        };
        if let Err(why) = self.extract() {
            // The interpolated field led nowhere: say so rather than draw a path that is not.
            debug_assert!(false, "{why}");
            return self.no_path(tracer);
        }
        self.status = Status::Found;
        if T::ENABLED {
            let mut prev = NONE;
            for (i, &c) in self.cells.iter().enumerate() {
                let g = self.cell_g[i];
                tracer.event(Event::new(EventKind::PathNode, c, prev, g, 0.0));
                prev = c;
            }
            tracer.event(Event::new(
                EventKind::Found,
                self.query.goal,
                NONE,
                self.length,
                0.0,
            ));
        }
        self.status
    }
}

impl SearchState for FieldDStar {
    fn status(&self) -> Status {
        self.status
    }

    fn path(&self) -> Option<&[NodeId]> {
        (self.status == Status::Found).then_some(&self.cells[..])
    }

    /// What the drawn path costs, each piece at the cost of the cell it crosses.
    fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then_some(self.length)
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn open_len(&self) -> usize {
        self.open_count as usize
    }

    /// g of a corner (ids after the world's cells); cells have none.
    fn g(&self, n: NodeId) -> Option<f64> {
        let k = (n as i64).checked_sub(self.w * self.h)? as usize;
        (k < self.state.len())
            .then(|| self.g_at(k))
            .filter(|g| *g < INF)
    }

    fn layers(&self) -> Vec<(&'static str, usize)> {
        vec![("corners", self.state.len())]
    }

    /// A corner is the point where its cells meet.
    fn layer_point(&self, n: NodeId) -> Option<[f64; 2]> {
        let k = (n as i64).checked_sub(self.w * self.h)? as usize;
        (k < self.state.len()).then(|| {
            let (x, y) = self.corner_xy(k);
            [x as f64, y as f64]
        })
    }

    fn polyline(&self) -> Option<Vec<[f64; 2]>> {
        (self.status == Status::Found).then(|| self.points.clone())
    }
}

#[cfg(test)]
#[path = "field_dstar_tests.rs"]
mod tests;

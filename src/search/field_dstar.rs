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
//! distance to the start at the cheapest cell cost, in a norm that counts a step along an axis
//! as 1/√2 and a diagonal step as 1 (see [`FieldDStar::h`]).
//!
//! Start and goal are cell centres, not corners (pathlab's problems join cells): the goal
//! seeds the four corners of its cell with their straight distance, and the start takes the
//! cheapest point of its cell's border. Choices where the description is silent, written here
//! and in docs/krafft2019.md: a corner between two diagonally blocked cells is blocked (as the
//! grid's move rule forbids squeezing between them), and cells of another terrain class than
//! the start's are blocked (the class rule: a path never changes class).

use super::field_dstar_grid::{compute_cost, least, CornerGrid, RING, USABLE};
use super::field_dstar_heap::CornerHeap;
use super::params::{ParamSpec, Params};
use super::{NodeId, Query, Search, SearchState, Stats, Status};
use crate::space::{GridSpace, Space};
use crate::trace::{Event, EventKind, Tracer, NONE};

pub(super) const INF: f64 = f64::INFINITY;
const SQRT_2: f64 = std::f64::consts::SQRT_2;
/// The rhs of a corner that may hold no value (see [`USABLE`]).
const NO_VALUE: f64 = f64::NEG_INFINITY;

/// Field D*: see the module's text.
#[derive(Clone, Debug)]
pub struct FieldDStar {
    pub(super) w: i64,
    pub(super) h: i64,
    pub(super) query: Query,
    /// Cell costs and corner flags (padded; see [`CornerGrid`]).
    grid: CornerGrid,
    /// The cheapest cell cost: h's scale, so h never overestimates.
    min_cost: f64,
    /// What `grid` was built for: the space's revision and the start's class (rebuilt only
    /// when either changes: building it reads every cell, a floor of ~290 µs per query on
    /// den520d however short the query).
    cost_for: Option<(u64, u8, i64, i64)>,
    /// Each corner's g, indexed as [`CornerGrid::corner_index`] (with the padding).
    g: Vec<f64>,
    /// Each corner's rhs: infinite until the corner is reached; [`NO_VALUE`] where the corner
    /// may hold none.
    rhs: Vec<f64>,
    /// The neighbour whose expansion last lowered a corner's rhs (its parent in the trace),
    /// kept only while traced. Never set back: it is read only for a corner expanded, whose
    /// rhs this query lowered.
    via: Vec<u32>,
    /// The corners this query gave a value, set back to infinite by the next reset: a query
    /// costs what it touches, not the map's size, and reads need no stamp test (stamps were
    /// a compare and a select on every one of an expansion's sixteen reads).
    touched: Vec<u32>,
    heap: CornerHeap,
    /// Corners queued.
    open_count: u64,
    status: Status,
    stats: Stats,
    /// The start cell, whose centre h measures from.
    start_cell: (i64, i64),
    /// n / √2 for every n up to the map's longer side and one: h's second part, read rather
    /// than divided (see [`FieldDStar::h`]).
    over_sqrt2: Vec<f64>,
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
            grid: CornerGrid::default(),
            min_cost: 1.0,
            cost_for: None,
            g: vec![],
            rhs: vec![],
            via: vec![],
            touched: vec![],
            heap: CornerHeap::default(),
            open_count: 0,
            status: Status::Running,
            stats: Stats::default(),
            start_value: INF,
            start_cell: (0, 0),
            over_sqrt2: vec![],
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

    /// What the search estimated the path to cost: the start's interpolated value (the drawn
    /// path's cost is [`SearchState::cost`]).
    pub fn estimate(&self) -> f64 {
        self.estimate
    }

    /// g of corner `k` (infinite until expanded).
    #[inline]
    pub(super) fn g_at(&self, k: usize) -> f64 {
        self.g[k]
    }

    /// The drawn path's points, in cell units, once found.
    pub fn points(&self) -> &[[f64; 2]] {
        &self.points
    }

    /// Cost of cell (x, y); infinite outside the map and where blocked.
    #[inline]
    pub(super) fn cell(&self, x: i64, y: i64) -> f64 {
        self.grid.cell(x, y)
    }

    /// Corner (x, y)'s index, if it lies on the map.
    #[inline]
    pub(super) fn corner(&self, x: i64, y: i64) -> Option<usize> {
        (x >= 0 && y >= 0 && x <= self.w && y <= self.h).then(|| self.grid.corner_index(x, y))
    }

    #[inline]
    pub(super) fn corner_xy(&self, k: usize) -> (i64, i64) {
        self.grid.corner_xy(k)
    }

    /// The world node of a corner in the trace: after the world's cells, corners row by row.
    fn id(&self, k: usize) -> u32 {
        self.id_xy(self.corner_xy(k))
    }

    /// [`FieldDStar::id`] of the corner at (x, y).
    #[inline]
    fn id_xy(&self, (x, y): (i64, i64)) -> u32 {
        (self.w * self.h + y * (self.w + 1) + x) as u32
    }

    /// The corner a trace's node names, if it is one.
    fn of_id(&self, n: NodeId) -> Option<usize> {
        // Cells come first and have no corner.
        let k = (n as i64) - self.w * self.h;
        (k >= 0 && k < ((self.w + 1) * (self.h + 1))).then(|| {
            let (x, y) = (k % (self.w + 1), k / (self.w + 1));
            self.grid.corner_index(x, y)
        })
    }

    /// h of the corner at (x, y): its distance to the start's centre at the cheapest cost, in
    /// the norm that counts a step along an axis as 1/√2 and a diagonal step as 1 (so
    /// `lo + (hi − lo)/√2` of the offset's lesser and greater parts).
    ///
    /// The straight line is admissible but not consistent under interpolation: a corner
    /// reached across an edge costs at least the edge's lesser corner plus one cell's cost,
    /// which may be its diagonal neighbour, √2 away, and at least its orthogonal neighbour
    /// plus 1/√2 of a cell's cost (crossing towards a diagonal neighbour lower by that much),
    /// so keys could fall along a path and corners be expanded before their value is final
    /// (on den520d one problem reopened 917,726 corners). A key cannot fall while h changes by
    /// at most 1/√2 of the cheapest cost between orthogonal neighbours and by at most that
    /// cost between diagonal ones: no corner is expanded twice, and the search stops as soon
    /// as the top key reaches the start's value (a start corner's h is then half a cell, the
    /// start's own distance to its cell's border). The straight line over √2 has those steps
    /// too; this norm is the largest that does, up to 8% above it between the axes and the
    /// diagonals, and never above the straight line (so still admissible). On den520d it
    /// expands 6% fewer corners than the line over √2.
    ///
    /// A corner's offsets from the start's centre are odd multiples of a half, so `hi − lo` is
    /// a whole number, and its quotient by √2 is read from a table (the very same division,
    /// done once per map size; a division on every queued corner was a twentieth of the
    /// search).
    #[inline]
    fn h(&self, (x, y): (i64, i64)) -> f64 {
        // Twice the offsets, in integers: odd, and exact (no conversion of x to a float
        // and back to an index on every queued corner).
        let (sx, sy) = self.start_cell;
        let (dx, dy) = ((2 * (x - sx) - 1).abs(), (2 * (y - sy) - 1).abs());
        let (lo, hi) = (dx.min(dy), dx.max(dy));
        self.min_cost * (lo as f64 * 0.5 + self.over_sqrt2[((hi - lo) / 2) as usize])
    }

    /// Centre of cell node `n`, in cell units.
    pub(super) fn centre(&self, n: NodeId) -> (f64, f64) {
        let n = n as i64;
        ((n % self.w) as f64 + 0.5, (n / self.w) as f64 + 0.5)
    }

    /// Lowers corner `k`, at `xy`, to `v`, reached from `from`, and queues it (or moves its
    /// entry) under that value. `old_g` is its g, which the caller has at hand: a reload from
    /// the far array would be a load on every lowering.
    #[inline]
    fn lower<T: Tracer>(
        &mut self,
        k: usize,
        xy: (i64, i64),
        v: f64,
        from: u32,
        old_g: f64,
        tracer: &mut T,
    ) {
        if self.rhs[k] == INF {
            self.touched.push(k as u32);
        }
        self.rhs[k] = v;
        let key = v + self.h(xy);
        let queued = self.heap.push(bits(key), bits(v), k as u32);
        self.stats.generated += 1;
        let kind = if old_g < INF {
            self.stats.reopened += 1;
            EventKind::Reopen
        } else if queued {
            self.stats.updated += 1;
            EventKind::Update
        } else {
            EventKind::Generate
        };
        if !queued {
            self.open_count += 1;
        }
        if T::ENABLED {
            // Only the trace reads a corner's parent: an untraced search keeps no store to a
            // third far array on every lowering.
            self.via[k] = from;
            tracer.event(Event::new(kind, self.id(k), from, v, key));
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
        self.start_cell = (query.start as i64 % self.w, query.start as i64 / self.w);
        let longest = (self.w.max(self.h) + 2) as usize;
        if self.over_sqrt2.len() != longest {
            self.over_sqrt2 = (0..longest).map(|n| n as f64 / SQRT_2).collect();
        }
        let class = space.class_of(query.start);
        let want = (space.revision(), class, self.w, self.h);
        // Revision 0 promises nothing: build every time.
        let rebuilt = self.cost_for != Some(want) || want.0 == 0;
        if rebuilt {
            self.grid = CornerGrid::build(space, class);
            self.min_cost = self.grid.min_cost;
            self.cost_for = Some(want);
        }
        let corners = self.grid.flags.len();
        if self.g.len() != corners {
            self.g = vec![INF; corners];
            self.rhs = vec![INF; corners];
            self.via = vec![NONE; corners];
            self.touched.clear();
        }
        for &k in &self.touched {
            self.g[k as usize] = INF;
            self.rhs[k as usize] = INF;
        }
        self.touched.clear();
        if rebuilt {
            // A corner that may hold no value keeps an rhs of -∞, below every value, so the
            // expansion's test of whether a neighbour's rhs can fall passes it over without
            // reading its flags.
            for (r, &f) in self.rhs.iter_mut().zip(&self.grid.flags) {
                *r = if f & USABLE == 0 { NO_VALUE } else { INF };
            }
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
            let open = |n: NodeId| {
                let (x, y) = ((n as i64) % self.w, (n as i64) / self.w);
                (n as i64) < self.w * self.h && self.cell(x, y) < INF
            };
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
                if self.grid.flags[k] & USABLE == 0 {
                    // Pinched between two diagonally blocked cells.
                    continue;
                }
                let old_g = self.g[k];
                self.lower(k, (cx, cy), c * SQRT_2 / 2.0, goal, old_g, tracer);
            }
            self.stats.max_open = self.open_count;
            return Status::Running;
        }
        // The next corner, whose rhs is below its g: every queued corner's is, as a corner is
        // queued only when its rhs falls, and its entry moves with each later fall, so the
        // entry's rhs is the corner's (read from the entry: the corner's own rhs would be a
        // load from far away, a cache miss on most pops).
        let top = self.heap.peek().map(f64::from_bits);
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
        let (_, rhs, k) = self.heap.pop().expect("peeked");
        let (k, g) = (k as usize, f64::from_bits(rhs));
        debug_assert!(
            g == self.rhs[k] && g < self.g[k],
            "corner {k} queued at its rhs"
        );
        self.g[k] = g;
        self.open_count -= 1;
        self.stats.expanded += 1;
        let (x, y) = self.corner_xy(k);
        let id = self.id_xy((x, y));
        if T::ENABLED {
            let key = g + self.h((x, y));
            tracer.event(Event::new(EventKind::Expand, id, self.via[k], g, key));
        }
        // The floor under every value this expansion can give (see `neighbour_values`).
        let mut ring_g = [INF; 8];
        let mut floor = g;
        for (o, rg) in ring_g.iter_mut().enumerate() {
            *rg = self.g_at((k as isize + self.grid.ring[o]) as usize);
            floor = least(floor, *rg);
        }
        let floor = floor + self.min_cost;
        // First every neighbour's new value (reads only, so the grid's arrays stay in
        // registers and the pairs inline), then the lowering and queueing.
        let lowered = self.neighbour_values(k, (x, y), g, &ring_g, floor);
        for (i, &(dx, dy)) in RING.iter().enumerate() {
            let v = lowered[i];
            if v < INF {
                let ks = (k as isize + self.grid.ring[i]) as usize;
                self.lower(ks, (x + dx, y + dy), v, id, ring_g[i], tracer);
            }
        }
        self.stats.max_open = self.stats.max_open.max(self.open_count);
        // The start cell's corners.
        let (sx, sy) = self.start_cell;
        if (x - sx == 0 || x - sx == 1) && (y - sy == 0 || y - sy == 1) {
            self.refresh_start();
        }
        Status::Running
    }
}

impl FieldDStar {
    /// For each of corner `k`'s eight neighbours, the value `k`'s expansion (at g `g`, ring
    /// values `ring_g`) lowers it to, or ∞ where it does not lower it: the least `ComputeCost`
    /// over the two pairs around the neighbour that hold `k`.
    ///
    /// Every value ComputeCost gives is at least the lesser g of its two corners plus the
    /// cheapest cell cost (each of its branches adds a cell's cost, or more, to g1 or g2, and
    /// float rounding keeps that order), and all those corners lie in this corner's 3 × 3
    /// block: a neighbour whose rhs is already at or below that `floor` cannot improve, and is
    /// passed over without the sixteen ComputeCosts' square roots. (On den520d most neighbours
    /// are: they were expanded before this corner.)
    #[inline]
    fn neighbour_values(
        &self,
        k: usize,
        (x, y): (i64, i64),
        g: f64,
        ring_g: &[f64; 8],
        floor: f64,
    ) -> [f64; 8] {
        let grid = &self.grid;
        let (cost, rhs) = (&grid.cost[..], &self.rhs[..]);
        let min_cost = self.min_cost;
        let cell = grid.cell_index(x, y) as isize;
        let mut out = [INF; 8];
        for (i, v_out) in out.iter_mut().enumerate() {
            let ks = (k as isize + grid.ring[i]) as usize;
            // -∞ where s may hold no value (see `reset`).
            let threshold = rhs[ks] * (1.0 - 1e-6);
            if floor >= threshold {
                continue;
            }
            // The two pairs around s that hold this corner (see `CornerGrid::pairs`). A
            // pair's value is at least the lesser g of its corners plus the cheapest cost (see
            // above), so a pair whose lesser g cannot go under the threshold is passed over
            // unread: a third of the pairs on den520d, whose other corner lies behind this one.
            // A pair whose other corner is off the map needs no test: its cell `c` touches
            // that corner, so it lies in the padding and costs ∞, and the other corner's g is
            // ∞ (never set); what is left is the edge from s to this corner, which the other
            // pair around s prices too, to within one unit in the last place (where the two
            // differ, this edge's price is the correctly rounded one, and the lesser).
            let mut v = INF;
            for p in &grid.pairs[i] {
                let go = ring_g[p.other];
                if least(g, go) + min_cost >= threshold {
                    continue;
                }
                let (c, bc) = (cost[(cell + p.c) as usize], cost[(cell + p.b) as usize]);
                let (g1, g2) = if p.k_is_s1 { (g, go) } else { (go, g) };
                v = least(v, compute_cost(c, bc, g1, g2));
            }
            if v < threshold {
                *v_out = v;
            }
        }
        out
    }

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
        Some(self.g_at(self.of_id(n)?)).filter(|g| *g < INF)
    }

    fn layers(&self) -> Vec<(&'static str, usize)> {
        vec![("corners", self.grid.corners())]
    }

    /// A corner is the point where its cells meet.
    fn layer_point(&self, n: NodeId) -> Option<[f64; 2]> {
        let (x, y) = self.corner_xy(self.of_id(n)?);
        Some([x as f64, y as f64])
    }

    fn polyline(&self) -> Option<Vec<[f64; 2]>> {
        (self.status == Status::Found).then(|| self.points.clone())
    }
}

#[cfg(test)]
#[path = "field_dstar_tests.rs"]
mod tests;

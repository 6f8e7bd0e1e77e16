//! View ▸ Map statistics: how much of the open world can be walked and how it branches — open
//! nodes, connected components, the mean number of moves from an open node and a histogram of
//! those counts — measured on the world's own graph (cells of a square or hex map, voxels,
//! navmesh polygons, lattice states), so it answers for whatever family is open.
//!
//! The measure runs as a job (a vehicle lattice has hundreds of thousands of states), started
//! when the window opens and again whenever the world changes while it is open; closing the
//! window drops, and so cancels, the job.

use crate::app::jobs::{Job, Polled};
use crate::app::parts::{part_any, Cx, Menu, Part};
use crate::app::workspace::Workspace;
use crate::search::registry::Family as Searchable;
use crate::space::NodeId;
use crate::world::SpaceFn;
use eframe::egui;
use egui_plot::{Bar, BarChart, Plot};

/// What the window measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// Nodes of the world, and how many of them are open.
    pub nodes: usize,
    pub open: usize,
    /// Connected components of open nodes (weakly connected where moves are one-way), and
    /// the largest one's size.
    pub components: usize,
    pub largest: usize,
    /// Moves from open nodes to open nodes.
    pub moves: usize,
    /// `degrees[k]`: open nodes with exactly k moves out.
    pub degrees: Vec<usize>,
}

impl Stats {
    /// Moves per open node.
    pub fn mean_branching(&self) -> f64 {
        self.moves as f64 / self.open.max(1) as f64
    }
}

/// What the world it was measured on was: the document, its revision and the family.
type Measured = (u64, u64, String);

/// The window: open or not, the job in flight and the last measure.
#[derive(Default)]
pub struct MapStats {
    pub open: bool,
    job: Option<(Measured, Job<Option<Stats>>)>,
    pub result: Option<(Measured, Stats)>,
}

impl MapStats {
    /// Starts measuring the workspace's world unless that world was measured or is being.
    fn measure(&mut self, work: &Workspace) {
        let key = (
            work.doc_serial,
            work.doc.revision,
            format!("{:?}", work.space.family()),
        );
        let known = self.result.as_ref().map(|r| &r.0) == Some(&key)
            || self.job.as_ref().map(|j| &j.0) == Some(&key);
        if known {
            return;
        }
        let space = work.space.clone();
        let total = space.num_nodes() as u64;
        let start = Measuring {
            parent: vec![],
            next: 0,
            open: 0,
            moves: 0,
            degrees: vec![],
        };
        // In slices, so that a page (no threads) measures between frames with the same bar.
        let job = Job::sliced("map statistics", total, start, move |m, p| {
            if p.cancelled() {
                return Some(None);
            }
            let before = m.next;
            let done = space.with(Slice { m });
            p.add((m.next - before) as u64);
            done.map(Some)
        });
        self.job = Some((key, job));
    }

    fn poll(&mut self) {
        let Some((key, job)) = &mut self.job else {
            return;
        };
        match job.poll() {
            Polled::Running => return,
            Polled::Done(Some(s)) => self.result = Some((key.clone(), s)),
            // Cancelled, or the work failed: nothing to show for this world.
            Polled::Done(None) | Polled::Lost => {}
        }
        self.job = None;
    }

    fn contents(&mut self, ui: &mut egui::Ui) {
        if let Some((_, job)) = &self.job {
            let (done, total) = job.progress();
            ui.horizontal(|ui| {
                ui.add(
                    egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                        .text(format!("measuring: {done} of {total} nodes"))
                        .desired_width(220.0),
                );
                if ui.button("Cancel").clicked() {
                    job.cancel();
                }
            });
        }
        let Some((_, s)) = &self.result else {
            return;
        };
        egui::Grid::new("map-stats").num_columns(2).show(ui, |ui| {
            ui.label("Open nodes")
                .on_hover_text("cells on a grid, voxels, navmesh polygons, lattice states");
            ui.label(format!("{} of {}", s.open, s.nodes));
            ui.end_row();
            ui.label("Components").on_hover_text(
                "groups of open nodes that moves connect; a search never leaves its start's",
            );
            ui.label(format!("{} (largest {})", s.components, s.largest));
            ui.end_row();
            ui.label("Mean branching")
                .on_hover_text("moves from an open node to another, on average");
            ui.label(format!("{:.3} moves", s.mean_branching()));
            ui.end_row();
        });
        let bars: Vec<Bar> = s
            .degrees
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(k, &n)| Bar::new(k as f64, n as f64).width(0.8))
            .collect();
        ui.label("Open nodes by their number of moves:");
        Plot::new("map-stats-degrees")
            .height(160.0)
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .x_axis_label("moves")
            .y_axis_label("nodes")
            .show(ui, |p| p.bar_chart(BarChart::new("open nodes", bars)));
    }
}

impl Part for MapStats {
    fn windows(&mut self, cx: &mut Cx, ctx: &egui::Context) {
        if !self.open {
            return;
        }
        self.measure(cx.work);
        self.poll();
        let mut open = self.open;
        egui::Window::new("Map statistics")
            .open(&mut open)
            // Beside the left panel, over the canvas's corner rather than the tools.
            .default_pos([270.0, 60.0])
            .default_width(320.0)
            .show(ctx, |ui| self.contents(ui));
        if !open {
            self.close();
        }
        if self.job.is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }
    fn menu_entry(&self) -> Option<(Menu, &'static str, &'static str)> {
        Some((
            Menu::View,
            "Map statistics…",
            "open nodes, connected components and branching of the open world",
        ))
    }
    fn name(&self) -> &'static str {
        "map-stats"
    }
    fn open(&mut self, _: &mut Cx) {
        self.open = true;
    }
    /// The measure is the window's: closing it ends the work.
    fn close(&mut self) {
        self.open = false;
        self.job = None;
    }
    part_any!();
}

/// The measure over one family's graph, reporting a node at a time.
/// The measure so far: union–find over the moves, from node `next` on. Components come out
/// weakly connected on one-way moves, where a search from each node would be needed for strong
/// ones.
struct Measuring {
    parent: Vec<NodeId>,
    next: usize,
    open: usize,
    moves: usize,
    degrees: Vec<usize>,
}

/// Nodes measured per slice: a few milliseconds on a big grid, so a page's frame stays short.
const SLICE: usize = 16_384;

fn root(parent: &mut [NodeId], mut a: NodeId) -> NodeId {
    while parent[a as usize] != a {
        let up = parent[parent[a as usize] as usize];
        parent[a as usize] = up;
        a = up;
    }
    a
}

/// One slice of the measure on the world: the next nodes' moves, or, past the last node, the
/// components and the result.
struct Slice<'a> {
    m: &'a mut Measuring,
}

impl SpaceFn for Slice<'_> {
    type Out = Option<Stats>;
    fn call<S: Searchable>(self, space: &S) -> Option<Stats> {
        let m = self.m;
        let n = space.num_nodes();
        if m.parent.len() != n {
            m.parent = (0..n as NodeId).collect();
        }
        let end = (m.next + SLICE).min(n);
        for a in m.next as NodeId..end as NodeId {
            if !space.is_passable(a) {
                continue;
            }
            m.open += 1;
            let mut degree = 0;
            let parent = &mut m.parent;
            space.for_each_neighbour(a, |b, _| {
                if !space.is_passable(b) {
                    return;
                }
                degree += 1;
                let (ra, rb) = (root(parent, a), root(parent, b));
                if ra != rb {
                    parent[ra.max(rb) as usize] = ra.min(rb);
                }
            });
            m.moves += degree;
            if m.degrees.len() <= degree {
                m.degrees.resize(degree + 1, 0);
            }
            m.degrees[degree] += 1;
        }
        m.next = end;
        if end < n {
            return None;
        }
        let mut sizes = vec![0usize; n];
        for a in 0..n as NodeId {
            if space.is_passable(a) {
                sizes[root(&mut m.parent, a) as usize] += 1;
            }
        }
        Some(Stats {
            nodes: n,
            open: m.open,
            components: sizes.iter().filter(|&&s| s > 0).count(),
            largest: sizes.iter().copied().max().unwrap_or(0),
            moves: m.moves,
            degrees: std::mem::take(&mut m.degrees),
        })
    }
}

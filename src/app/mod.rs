//! The desktop app. For now one window that shows the built-in map solved by A*, drawn in
//! pathlab's colours from a recorded run (the full editor and stepper build on this).

use eframe::egui;
use pathlab::builtin::default_world;
use pathlab::map::{Grid, Terrain};
use pathlab::search::{AStar, Query, Search, SearchState};
use pathlab::space::{GridSpace, Heuristic, Space};
use pathlab::trace::{NodeState, NodeStates, Recorder};

/// Opens the window and blocks until it is closed.
pub fn run() -> Result<(), eframe::Error> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("pathlab")
            .with_inner_size([1100.0, 760.0]),
        ..Default::default()
    };
    eframe::run_native(
        "pathlab",
        options,
        Box::new(|_cc| Ok(Box::new(Viewer::new()))),
    )
}

struct Viewer {
    grid: Grid,
    space: GridSpace,
    start: (u32, u32),
    goal: (u32, u32),
    states: NodeStates,
    path: Vec<(u32, u32)>,
    summary: String,
}

impl Viewer {
    fn new() -> Viewer {
        let (grid, start, goal) = default_world();
        let space = GridSpace::octile(&grid);
        let q = Query {
            start: space.node(start.0, start.1).unwrap_or(0),
            goal: space.node(goal.0, goal.1).unwrap_or(0),
        };
        let mut astar = AStar::new(&space, q, Heuristic::Octile);
        let mut rec = Recorder::new(space.num_nodes());
        astar.run(&space, &mut rec);
        let states = rec.seek(rec.len()).clone();
        let path = astar
            .path()
            .unwrap_or(&[])
            .iter()
            .map(|&n| space.xy(n))
            .collect();
        let st = astar.stats();
        let summary = format!(
            "A* (octile) on the built-in map: {} expanded, {} generated, path cost {}, {} events recorded",
            st.expanded,
            st.generated,
            astar.cost().map_or("none".into(), |c| format!("{c:.3}")),
            rec.len()
        );
        Viewer {
            grid,
            space,
            start,
            goal,
            states,
            path,
            summary,
        }
    }
}

fn cell_colour(t: Terrain) -> egui::Color32 {
    match t {
        Terrain::Ground | Terrain::Grass => egui::Color32::from_rgb(245, 245, 240),
        Terrain::Swamp => egui::Color32::from_rgb(170, 160, 120),
        Terrain::Water => egui::Color32::from_rgb(120, 150, 170),
        Terrain::Trees => egui::Color32::from_rgb(95, 120, 80),
        Terrain::OutOfBounds => egui::Color32::from_rgb(30, 30, 32),
    }
}

impl eframe::App for Viewer {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("pathlab");
            ui.label(&self.summary);
            let avail = ui.available_size();
            let (w, h) = (self.grid.width() as f32, self.grid.height() as f32);
            let cell = (avail.x / w).min(avail.y / h).max(1.0);
            let (rect, _) =
                ui.allocate_exact_size(egui::vec2(cell * w, cell * h), egui::Sense::hover());
            let painter = ui.painter_at(rect);
            let at = |x: f32, y: f32| rect.min + egui::vec2(x * cell, y * cell);
            for y in 0..self.grid.height() {
                for x in 0..self.grid.width() {
                    let n = self.space.node(x, y).unwrap_or(0) as usize;
                    let base = cell_colour(self.grid.terrain(x as i64, y as i64));
                    let c = match self.states.get(n) {
                        NodeState::Closed => egui::Color32::from_rgb(245, 180, 120),
                        NodeState::Open => egui::Color32::from_rgb(170, 210, 240),
                        _ => base,
                    };
                    let r =
                        egui::Rect::from_min_size(at(x as f32, y as f32), egui::vec2(cell, cell));
                    painter.rect_filled(r.shrink(0.5), 0.0, c);
                }
            }
            let pts: Vec<egui::Pos2> = self
                .path
                .iter()
                .map(|&(x, y)| at(x as f32 + 0.5, y as f32 + 0.5))
                .collect();
            painter.add(egui::Shape::line(
                pts.clone(),
                egui::Stroke::new(cell * 0.45, egui::Color32::from_rgb(40, 40, 40)),
            ));
            painter.add(egui::Shape::line(
                pts,
                egui::Stroke::new(cell * 0.3, egui::Color32::from_rgb(170, 220, 40)),
            ));
            for (p, c) in [
                (self.start, egui::Color32::from_rgb(40, 170, 70)),
                (self.goal, egui::Color32::from_rgb(220, 50, 50)),
            ] {
                let centre = at(p.0 as f32 + 0.5, p.1 as f32 + 0.5);
                painter.circle(
                    centre,
                    cell * 0.45,
                    c,
                    egui::Stroke::new(2.0, egui::Color32::WHITE),
                );
            }
        });
    }
}

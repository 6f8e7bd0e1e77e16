//! pathlab's colours (docs/ui.md): one table for the canvas, the legend and exported PNGs.

use crate::map::Terrain;
use crate::trace::NodeState;
use eframe::egui::Color32;

pub const FREE: Color32 = Color32::from_rgb(246, 246, 242);
pub const WALL: Color32 = Color32::from_rgb(34, 34, 38);
/// A rubber-banded path (dashed, over the path).
pub const SMOOTHED: Color32 = Color32::from_rgb(120, 40, 160);
/// A line-of-sight check that found the segment clear, and one that found it blocked.
pub const SIGHT_CLEAR: Color32 = Color32::from_rgb(0, 200, 120);
pub const SIGHT_BLOCKED: Color32 = Color32::from_rgb(220, 40, 40);
/// Phase bands on the timeline, alternating, and their names.
pub const PHASE_A: Color32 = Color32::from_rgb(70, 90, 130);
pub const PHASE_B: Color32 = Color32::from_rgb(100, 80, 120);
pub const PHASE_TEXT: Color32 = Color32::from_rgb(235, 235, 240);
/// A jump of jump point search, from the node expanded to the jump point it reached.
pub const JUMP: Color32 = Color32::from_rgb(70, 110, 200);
/// A hierarchy (Rahmani 2020's Fig. 3.2): inter-edges and graph vertices red, intra-edges
/// dark arrows, the temporary edges of a query's start and goal amber, and the tints that
/// tell one node of a level from its neighbours.
pub const INTER_EDGE: Color32 = Color32::from_rgb(215, 35, 35);
pub const INTRA_EDGE: Color32 = Color32::from_rgb(40, 40, 48);
pub const TEMP_EDGE: Color32 = Color32::from_rgb(245, 170, 20);
pub const NODE_TINTS: [Color32; 8] = [
    Color32::from_rgba_premultiplied(60, 20, 20, 60),
    Color32::from_rgba_premultiplied(20, 55, 20, 60),
    Color32::from_rgba_premultiplied(20, 30, 65, 60),
    Color32::from_rgba_premultiplied(60, 50, 10, 60),
    Color32::from_rgba_premultiplied(50, 15, 55, 60),
    Color32::from_rgba_premultiplied(10, 50, 55, 60),
    Color32::from_rgba_premultiplied(65, 35, 10, 60),
    Color32::from_rgba_premultiplied(35, 35, 35, 60),
];
/// Blocked voxels in 3D (lighter than WALL so that their shading shows).
/// A navmesh's polygon outlines, its portals (dotted, as Rahmani 2020's Fig. 3.2 draws L0
/// portals) and its polygon centres.
pub const POLYGON: Color32 = Color32::from_rgb(90, 100, 130);
pub const PORTAL: Color32 = Color32::from_rgb(255, 255, 255);
pub const POLYGON_CENTRE: Color32 = Color32::from_rgb(60, 70, 100);
pub const VOXEL: Color32 = Color32::from_rgb(140, 144, 156);
/// The outline of the layer the 2D view shows, in 3D.
pub const LAYER_FRAME: Color32 = Color32::from_rgb(110, 140, 200);
/// Behind the voxels in 3D.
pub const VIEW3D_BACKGROUND: Color32 = Color32::from_rgb(232, 234, 238);
pub const SWAMP: Color32 = Color32::from_rgb(176, 168, 128);
pub const WATER: Color32 = Color32::from_rgb(130, 160, 180);
pub const TREES: Color32 = Color32::from_rgb(112, 140, 96);
pub const OPEN: Color32 = Color32::from_rgb(150, 200, 245);
pub const CLOSED: Color32 = Color32::from_rgb(250, 186, 120);
pub const INCONSISTENT: Color32 = Color32::from_rgb(170, 120, 210);
pub const CURRENT: Color32 = Color32::from_rgb(220, 30, 200);
pub const PATH: Color32 = Color32::from_rgb(160, 220, 40);
pub const PATH_OUTLINE: Color32 = Color32::from_rgb(30, 40, 20);
pub const START: Color32 = Color32::from_rgb(40, 170, 70);
pub const GOAL: Color32 = Color32::from_rgb(215, 45, 45);
pub const ONLY_A: Color32 = Color32::from_rgb(90, 140, 230);
pub const ONLY_B: Color32 = Color32::from_rgb(240, 150, 60);
pub const BOTH: Color32 = Color32::from_rgb(175, 175, 175);
pub const GRID_LINE: Color32 = Color32::from_rgba_premultiplied(0, 0, 0, 28);
/// The oracle badge: a repair that agrees with A* from scratch, and one that does not.
pub const ORACLE_OK: Color32 = Color32::from_rgb(40, 130, 70);
pub const ORACLE_BAD: Color32 = Color32::from_rgb(200, 30, 40);
/// An agent walking a changing map, and its trail.
/// A hex of the cognitive map (Rahmani 2020), drawn more opaque the more it was visited: a
/// brown of its own (the blue it had read as the open list's, and as the agent's).
pub const KNOWN: Color32 = Color32::from_rgb(110, 70, 20);
/// GPS of the brain: the walk's exploring legs, its steps on a plan, and the direction cone's
/// rays inside it (a gold apart from line-of-sight green) and outside it.
pub const WALK: Color32 = Color32::from_rgb(225, 70, 160);
pub const WALK_PLAN: Color32 = Color32::from_rgb(150, 40, 110);
pub const CONE_IN: Color32 = Color32::from_rgb(200, 160, 0);
pub const CONE_OUT: Color32 = Color32::from_rgb(150, 150, 150);
pub const AGENT: Color32 = Color32::from_rgb(30, 110, 230);
/// The cell under the pointer, outlined in every view.
pub const POINTER: Color32 = Color32::from_rgb(20, 20, 24);
/// The title bar of the view the inspector speaks of.
pub const ACTIVE_TITLE: Color32 = Color32::from_rgb(40, 75, 130);
/// Cells a world change touched: flashed, then outlined (docs/ui.md).
pub const CHANGED: Color32 = Color32::from_rgb(0, 200, 220);
pub const ARROW: Color32 = Color32::from_rgba_premultiplied(60, 60, 60, 160);
/// Labels on cells (g when zoomed in): dark on every fill of the map.
/// The vehicle planner's fans of arcs: each iteration's actions while probing, and in A*.
pub const FAN_PROBE: Color32 = Color32::from_rgb(50, 140, 130);
pub const FAN_ASTAR: Color32 = Color32::from_rgba_unmultiplied_const(120, 120, 130, 90);
pub const LABEL: Color32 = Color32::from_rgb(30, 30, 30);

/// Colour of a terrain with nothing on it.
pub fn terrain(t: Terrain) -> Color32 {
    match t {
        Terrain::Ground | Terrain::Grass => FREE,
        Terrain::Swamp => SWAMP,
        Terrain::Water => WATER,
        Terrain::Trees => TREES,
        Terrain::OutOfBounds => WALL,
    }
}

fn mix(a: Color32, b: Color32, t: f32) -> Color32 {
    let m = |x: u8, y: u8| (x as f32 * (1.0 - t) + y as f32 * t).round() as u8;
    Color32::from_rgb(m(a.r(), b.r()), m(a.g(), b.g()), m(a.b(), b.b()))
}

/// Colour of a cell given its map character and the search state on it. Search colours cover
/// free ground fully and tint other terrain, so swamp and water stay recognisable under them.
/// A wall is a wall whatever was recorded on it: a cell walled after the search closed it (a
/// repair's change) is drawn as the wall it is now.
pub fn cell(tile: u8, state: NodeState) -> Color32 {
    let t = Terrain::of(tile);
    let base = terrain(t);
    let over = match state {
        _ if t == Terrain::OutOfBounds => return base,
        NodeState::Unseen => return base,
        NodeState::Open => OPEN,
        NodeState::Closed => CLOSED,
        NodeState::Inconsistent => INCONSISTENT,
    };
    if matches!(t, Terrain::Ground | Terrain::Grass) {
        over
    } else {
        mix(base, over, 0.6)
    }
}

/// [`cell`] for every map character and state code, so a whole-map recolour is one table
/// lookup per cell.
/// A fixed-size table, so that indexing by (tile, state) needs no bounds check.
pub struct CellTable(Box<[Color32; 1024]>);

impl CellTable {
    pub fn new() -> CellTable {
        CellTable::with_states([
            NodeState::Unseen,
            NodeState::Open,
            NodeState::Closed,
            NodeState::Inconsistent,
        ])
    }

    /// The table before a run's first world change: an incremental search's first search
    /// queues its nodes as inconsistent (g = ∞ ≠ rhs), which is what waiting on the open list
    /// is; "to repair" only means something once the world has changed.
    pub fn before_change() -> CellTable {
        CellTable::with_states([
            NodeState::Unseen,
            NodeState::Open,
            NodeState::Closed,
            NodeState::Open,
        ])
    }

    fn with_states(states: [NodeState; 4]) -> CellTable {
        let mut table = Box::new([Color32::TRANSPARENT; 1024]);
        for t in 0..=255u8 {
            for (s, &state) in states.iter().enumerate() {
                table[(t as usize) << 2 | s] = cell(t, state);
            }
        }
        CellTable(table)
    }

    /// Colour of map character `tile` in state code `state` (0–3).
    #[inline(always)]
    pub fn get(&self, tile: u8, state: u8) -> Color32 {
        self.0[(tile as usize) << 2 | (state as usize & 3)]
    }
}

/// Colour of a cell in the diff of two runs: expanded by the first view's run only (blue), the
/// second's only (orange), or both (grey), the same in both views.
pub fn diff(tile: u8, a: NodeState, b: NodeState) -> Color32 {
    let base = terrain(Terrain::of(tile));
    let (ca, cb) = (a == NodeState::Closed, b == NodeState::Closed);
    match (ca, cb) {
        (true, true) => mix(base, BOTH, 0.85),
        (true, false) => mix(base, ONLY_A, 0.85),
        (false, true) => mix(base, ONLY_B, 0.85),
        (false, false) => base,
    }
}

//! The world family at the app and file boundary: which graph a map of cells becomes. A hex world
//! keeps its hexes in a [`Grid`] too (offset coordinates, see `space::hex`), so storage, edits,
//! generators and readers are shared; only the space and the view differ.

use super::voxel::VoxelGrid;
use super::{Cell, Grid};
use crate::space::{
    CellWorld, Connectivity, GridSpace, HexOrientation, HexSpace, NodeId, Space, TerrainRule,
    VoxelSpace,
};
use serde::{Deserialize, Serialize};

/// Which kind of world a map of cells is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Family {
    /// Square cells, 4- or 8-connected.
    #[default]
    Square,
    /// Hexagons, six neighbours, `pitch` square cells from centre to centre.
    Hex {
        orientation: HexOrientation,
        pitch: f64,
    },
    /// Voxels in a box (the document's [`super::volume::Volume`]); the square map is one layer.
    Voxel { moves: crate::space::VoxelMoves },
}

impl Family {
    /// Name on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Family::Square => "square",
            Family::Hex { .. } => "hex",
            Family::Voxel { .. } => "voxel",
        }
    }

    /// The kind of space the registry lists algorithms by.
    pub fn space_kind(self) -> crate::space::SpaceKind {
        use crate::space::SpaceKind;
        match self {
            Family::Square => SpaceKind::Grid,
            Family::Hex { .. } => SpaceKind::Hex,
            Family::Voxel { .. } => SpaceKind::Voxel,
        }
    }

    /// Reads `--world` with its hex flags; `hex_size` is the pitch.
    pub fn parse(world: &str, hex_size: f64, orientation: &str) -> Result<Family, String> {
        match world {
            "square" => Ok(Family::Square),
            "hex" => {
                let orientation = HexOrientation::from_name(orientation).ok_or_else(|| {
                    format!("unknown hex orientation `{orientation}` (known: flat, pointy)")
                })?;
                if !(hex_size.is_finite() && hex_size > 0.0) {
                    return Err(format!("hex size {hex_size} must be a number above 0"));
                }
                Ok(Family::Hex {
                    orientation,
                    pitch: hex_size,
                })
            }
            other => Err(format!(
                "unknown world family `{other}` (known: square, hex)"
            )),
        }
    }
}

/// How a hex takes its terrain from the square cells it covers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum HexFill {
    /// Blocked when the hexagon overlaps any blocked cell; else as `Centre`. Walls stay walls
    /// (see [`super::hex_fill`]); passages narrower than a hex close.
    #[default]
    Walls,
    /// The terrain of the square cell under the hex's centre (thin walls may leak).
    Centre,
    /// Blocked when any square cell whose centre the hex covers is blocked; else as `Centre`.
    AnyBlocked,
}

impl HexFill {
    pub fn name(self) -> &'static str {
        match self {
            HexFill::Walls => "walls",
            HexFill::Centre => "centre",
            HexFill::AnyBlocked => "any-blocked",
        }
    }

    pub fn from_name(s: &str) -> Option<HexFill> {
        match s {
            "walls" => Some(HexFill::Walls),
            "centre" | "center" => Some(HexFill::Centre),
            "any-blocked" => Some(HexFill::AnyBlocked),
            _ => None,
        }
    }
}

/// The hexes, `pitch` cells apart, whose centres lie on a `w × h` square map.
pub fn hex_dims(w: u32, h: u32, o: HexOrientation, pitch: f64) -> (u32, u32) {
    let inside = |x: u32, y: u32| {
        let (cx, cy) = o.centre(x, y, pitch);
        cx < w as f64 && cy < h as f64
    };
    // The shifted row or column reaches furthest: count along both parities.
    let mut hw = 0;
    while inside(hw, 0) && inside(hw, 1.min(h)) && hw <= w {
        hw += 1;
    }
    let mut hh = 0;
    while inside(0, hh) && inside(1.min(w), hh) && hh <= h {
        hh += 1;
    }
    (hw, hh)
}

/// The hex map over square map `grid`, hexes `pitch` cells apart. Refused when the pitch is not
/// a number from 1 to the map's shorter side, or no whole hex fits.
pub fn hexes_from_square(
    grid: &Grid,
    o: HexOrientation,
    pitch: f64,
    fill: HexFill,
) -> Result<Grid, String> {
    let (w, h) = (grid.width(), grid.height());
    let side = w.min(h) as f64;
    if !(pitch.is_finite() && pitch >= 1.0 && pitch <= side) {
        return Err(format!(
            "hex size {pitch} must be from 1 to the map's shorter side ({side})"
        ));
    }
    let (hw, hh) = hex_dims(w, h, o, pitch);
    if hw == 0 || hh == 0 {
        return Err(format!(
            "hex size {pitch} leaves no whole hex on a {w}×{h} map"
        ));
    }
    let blocked = |t: u8| TerrainRule::Class.class(t) == 0;
    let mut tiles = Vec::with_capacity((hw * hh) as usize);
    let mut costs = Vec::with_capacity((hw * hh) as usize);
    let r = pitch / 3f64.sqrt();
    for y in 0..hh {
        for x in 0..hw {
            let (cx, cy) = o.centre(x, y, pitch);
            let (sx, sy) = (cx.floor() as u32, cy.floor() as u32);
            let i = grid.index(sx.min(w - 1), sy.min(h - 1));
            let mut tile = grid.tiles()[i];
            if fill == HexFill::Walls
                && !blocked(tile)
                && super::hex_fill::hex_overlaps_wall(grid, &o.corners(x, y, pitch))
            {
                tile = Cell::WALL.tile;
            }
            if fill == HexFill::AnyBlocked && !blocked(tile) {
                let (x0, x1) = (
                    (cx - r).floor().max(0.0) as u32,
                    ((cx + r).ceil() as u32).min(w),
                );
                let (y0, y1) = (
                    (cy - r).floor().max(0.0) as u32,
                    ((cy + r).ceil() as u32).min(h),
                );
                'cells: for j in y0..y1 {
                    for k in x0..x1 {
                        let here = o.hex_at(k as f64 + 0.5, j as f64 + 0.5, pitch, hw, hh);
                        if here == Some((x, y)) && blocked(grid.tiles()[grid.index(k, j)]) {
                            tile = Cell::WALL.tile;
                            break 'cells;
                        }
                    }
                }
            }
            tiles.push(tile);
            costs.push(grid.costs()[i]);
        }
    }
    let mut out = Grid::from_tiles(hw, hh, tiles);
    out.set_costs(costs)?;
    Ok(out)
}

/// A world's search graph, of whichever family: the one place that matches on the family to
/// build a space; code above it is generic over `S: Space` or speaks node ids.
#[derive(Clone, Debug)]
pub enum AnySpace {
    Square(GridSpace),
    Hex(HexSpace),
    /// A voxel world and the layer `z` that 2D cell coordinates name (the slice editor's).
    Voxel {
        space: VoxelSpace,
        z: u32,
    },
}

/// Calls `$body` with `$s` bound to the space inside, whichever family it is.
#[macro_export]
macro_rules! with_space {
    ($any:expr, $s:ident => $body:expr) => {
        match $any {
            $crate::map::AnySpace::Square($s) => $body,
            $crate::map::AnySpace::Hex($s) => $body,
            $crate::map::AnySpace::Voxel { space: $s, .. } => $body,
        }
    };
}

impl AnySpace {
    /// The graph of `grid` as a world of `family`.
    pub fn new(grid: &Grid, family: Family, rules: (Connectivity, TerrainRule)) -> AnySpace {
        match family {
            Family::Square => AnySpace::Square(GridSpace::new(grid, rules.0, rules.1)),
            Family::Hex { orientation, pitch } => {
                AnySpace::Hex(HexSpace::new(grid, orientation, pitch, rules.1))
            }
            // A square map alone makes a one-layer voxel world; a document with a volume
            // builds its space from the volume ([`AnySpace::of_volume`]).
            Family::Voxel { moves } => {
                let v = VoxelGrid::extrude(grid, 1)
                    .unwrap_or_else(|_| VoxelGrid::new(1, 1, 1).expect("one voxel always fits"));
                AnySpace::Voxel {
                    space: VoxelSpace::new(v, moves),
                    z: 0,
                }
            }
        }
    }

    /// The search graph of a volume, with 2D coordinates naming its layer `z`.
    pub fn of_volume(v: &super::volume::Volume) -> AnySpace {
        AnySpace::Voxel {
            space: VoxelSpace::new(v.voxels.clone(), v.moves),
            z: v.z,
        }
    }

    /// The voxel world inside and its layer, if this is one.
    pub fn as_voxel(&self) -> Option<(&VoxelSpace, u32)> {
        match self {
            AnySpace::Voxel { space, z } => Some((space, *z)),
            _ => None,
        }
    }

    /// Gives a hex world the cognitive map its counter heuristic reads (other families have
    /// none; a map of another size is not attached).
    pub fn set_knowledge(&mut self, k: Option<&crate::space::CognitiveMap>) {
        if let AnySpace::Hex(h) = self {
            let fits = k.filter(|k| k.counters.len() == h.num_nodes());
            h.set_knowledge(fits.map(|k| std::sync::Arc::new(k.clone())));
        }
    }

    /// Shows layer `z` of a voxel world in 2D (nothing for other families).
    pub fn set_layer(&mut self, layer: u32) {
        if let AnySpace::Voxel { z, .. } = self {
            *z = layer;
        }
    }

    /// Index of the first node of the layer that 2D coordinates name (0 but for voxels).
    pub fn layer_base(&self) -> usize {
        match self {
            AnySpace::Voxel { space, z } => {
                let [w, h, _] = space.grid().dims();
                *z as usize * w as usize * h as usize
            }
            _ => 0,
        }
    }

    /// The square grid inside, if this is one.
    pub fn as_square(&self) -> Option<&GridSpace> {
        match self {
            AnySpace::Square(s) => Some(s),
            _ => None,
        }
    }

    /// The hex grid inside, if this is one.
    pub fn as_hex(&self) -> Option<&HexSpace> {
        match self {
            AnySpace::Hex(h) => Some(h),
            _ => None,
        }
    }

    /// The family this space was built as.
    pub fn family(&self) -> Family {
        match self {
            AnySpace::Square(_) => Family::Square,
            AnySpace::Hex(h) => Family::Hex {
                orientation: h.orientation(),
                pitch: h.pitch(),
            },
            AnySpace::Voxel { space, .. } => Family::Voxel {
                moves: space.moves_kind(),
            },
        }
    }

    /// Moves and terrain rule (hexes have six moves; the connectivity is kept for squares).
    pub fn rules(&self) -> (Connectivity, TerrainRule) {
        match self {
            AnySpace::Square(s) => s.rules(),
            AnySpace::Hex(h) => (Connectivity::default(), h.rule()),
            AnySpace::Voxel { .. } => (Connectivity::default(), TerrainRule::default()),
        }
    }

    pub fn width(&self) -> u32 {
        match self {
            AnySpace::Square(s) => s.width(),
            AnySpace::Hex(s) => s.width(),
            AnySpace::Voxel { space, .. } => space.grid().dims()[0],
        }
    }

    pub fn height(&self) -> u32 {
        match self {
            AnySpace::Square(s) => s.height(),
            AnySpace::Hex(s) => s.height(),
            AnySpace::Voxel { space, .. } => space.grid().dims()[1],
        }
    }

    /// Node of cell or hex (x, y); both families number y · width + x. On voxels, the voxel
    /// (x, y) of the layer shown.
    pub fn node(&self, x: u32, y: u32) -> Option<NodeId> {
        match self {
            AnySpace::Square(s) => s.node(x, y),
            AnySpace::Hex(s) => s.node(x, y),
            AnySpace::Voxel { space, z } => space.node(x, y, *z),
        }
    }

    /// Cell of node `n`; on voxels its (x, y), whatever its layer (a view from above).
    pub fn xy(&self, n: NodeId) -> (u32, u32) {
        match self {
            AnySpace::Square(s) => s.xy(n),
            AnySpace::Hex(s) => s.xy(n),
            AnySpace::Voxel { space, .. } => {
                let [x, y, _] = space.xyz(n);
                (x, y)
            }
        }
    }

    pub fn num_nodes(&self) -> usize {
        with_space!(self, s => s.num_nodes())
    }

    /// The space family, as the registry names it.
    pub fn kind(&self) -> crate::space::SpaceKind {
        with_space!(self, s => s.kind())
    }

    pub fn is_passable(&self, n: NodeId) -> bool {
        with_space!(self, s => s.is_passable(n))
    }

    pub fn heuristic(&self, h: crate::space::Heuristic, a: NodeId, b: NodeId) -> f64 {
        with_space!(self, s => s.heuristic(h, a, b))
    }

    pub fn heuristics(&self) -> &'static [crate::space::Heuristic] {
        with_space!(self, s => s.heuristics())
    }

    pub fn native_heuristic(&self) -> crate::space::Heuristic {
        with_space!(self, s => s.native_heuristic())
    }

    /// Re-reads changed cells (see [`CellWorld::apply_cells`]).
    pub fn apply_cells(&mut self, grid: &Grid, cells: &[(u32, u32)]) -> Vec<NodeId> {
        match self {
            AnySpace::Square(s) => s.apply_cells(grid, cells),
            AnySpace::Hex(s) => s.apply_cells(grid, cells),
            AnySpace::Voxel { space, z } => space.apply_layer_cells(*z, grid, cells),
        }
    }

    /// Brings the graph up to date after `grid` changed inside `rect` (`None`: anywhere, or
    /// the size changed), and returns the nodes whose edges may have changed.
    pub fn update(&mut self, grid: &Grid, rect: Option<super::Rect>) -> Vec<NodeId> {
        let same = grid.width() == self.width() && grid.height() == self.height();
        match (self, rect.filter(|_| same)) {
            (AnySpace::Square(s), Some(r)) => {
                s.update(grid, Some(r));
                s.around(r)
            }
            (AnySpace::Hex(h), Some(r)) => {
                let cells: Vec<(u32, u32)> = (r.y..(r.y + r.h).min(grid.height()))
                    .flat_map(|y| (r.x..(r.x + r.w).min(grid.width())).map(move |x| (x, y)))
                    .collect();
                h.apply_cells(grid, &cells)
            }
            (AnySpace::Voxel { space, z }, Some(r)) => {
                let cells: Vec<(u32, u32)> = (r.y..(r.y + r.h).min(grid.height()))
                    .flat_map(|y| (r.x..(r.x + r.w).min(grid.width())).map(move |x| (x, y)))
                    .collect();
                space.apply_layer_cells(*z, grid, &cells)
            }
            (AnySpace::Voxel { space, z }, None) => {
                // The layer's map is all the voxel world knows here: it is written in whole.
                let mut v = space.grid().clone();
                v.store_slice(*z, grid);
                *space = VoxelSpace::new(v, space.moves_kind());
                (0..space.num_nodes() as NodeId).collect()
            }
            (me, None) => {
                *me = AnySpace::new(grid, me.family(), me.rules());
                (0..me.num_nodes() as NodeId).collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hexes_take_the_centre_cell_or_any_blocked_cell() {
        // A wall column at x = 4 on an open 12×10 map.
        let mut g = Grid::new(12, 10, Cell::FREE);
        for y in 0..10 {
            g.set(4, y, Cell::WALL);
        }
        for o in [HexOrientation::Flat, HexOrientation::Pointy] {
            let centre = hexes_from_square(&g, o, 2.0, HexFill::Centre).unwrap();
            let any = hexes_from_square(&g, o, 2.0, HexFill::AnyBlocked).unwrap();
            assert_eq!(
                (centre.width(), centre.height()),
                (any.width(), any.height())
            );
            let walls = |m: &Grid| m.tiles().iter().filter(|&&t| t == b'@').count();
            assert!(walls(&any) >= walls(&centre) && walls(&centre) > 0, "{o:?}");
            // Every hex whose centre lies in the wall column is a wall in both.
            for y in 0..centre.height() {
                for x in 0..centre.width() {
                    let (cx, _) = o.centre(x, y, 2.0);
                    if cx.floor() == 4.0 {
                        assert_eq!(centre.get(x, y).unwrap().tile, b'@');
                        assert_eq!(any.get(x, y).unwrap().tile, b'@');
                    }
                }
            }
            // Every hex centre lies on the square map.
            for y in 0..centre.height() {
                for x in 0..centre.width() {
                    let (cx, cy) = o.centre(x, y, 2.0);
                    assert!(cx < 12.0 && cy < 10.0);
                }
            }
        }
        assert!(hexes_from_square(&g, HexOrientation::Flat, 0.0, HexFill::Centre).is_err());
        assert!(hexes_from_square(&g, HexOrientation::Flat, 11.0, HexFill::Centre).is_err());
        assert!(Family::parse("hex", 2.0, "sideways").is_err());
        assert!(Family::parse("voxel", 2.0, "flat").is_err());
        assert_eq!(
            Family::parse("hex", 2.0, "flat"),
            Ok(Family::Hex {
                orientation: HexOrientation::Flat,
                pitch: 2.0
            })
        );
    }
}

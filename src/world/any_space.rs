//! A world of any family behind one type, and what every family's world answers.

use super::Family;
use crate::map::{Grid, HexFill, Rect};
use crate::search::registry::Family as Searchable;
use crate::space::{CognitiveMap, Connectivity, Heuristic, NodeId, Space, SpaceKind, TerrainRule};
use crate::trace::posthoc_in::Place;

/// What a family's world answers besides its graph: the cell-shaped questions the app, io and
/// the command line ask, and the changes they make.
pub trait WorldFamily: Clone + std::fmt::Debug {
    /// The graph searches run on.
    type Space: Searchable + Clone;
    /// What the family keeps beside its map of cells, carried in [`crate::world::AnyData`]
    /// ([`crate::world::NoData`] where it keeps nothing).
    type Data: Clone + std::fmt::Debug + PartialEq + 'static;

    /// Builds the world of `family` from a square map.
    fn build(grid: &Grid, family: Family, rules: (Connectivity, TerrainRule)) -> Self;
    /// The graph.
    fn space(&self) -> &Self::Space;
    /// The graph, taken out of the world.
    fn into_space(self) -> Self::Space;
    /// The family and its parameters, as files store them.
    fn family(&self) -> Family;
    /// Moves and terrain rule.
    fn rules(&self) -> (Connectivity, TerrainRule);
    /// Width and height in the cells 2D coordinates name.
    fn dims(&self) -> (u32, u32);
    /// The node at cell (x, y).
    fn node(&self, x: u32, y: u32) -> Option<NodeId>;
    /// The cell of node `n` (seen from above).
    fn xy(&self, n: NodeId) -> (u32, u32);
    /// Node `n`'s coordinates as the user reads them: (x, y), or (x, y, z) in a volume.
    fn coords(&self, n: NodeId) -> Vec<u32> {
        let (x, y) = self.xy(n);
        vec![x, y]
    }
    /// The node at coordinates as [`coords`](WorldFamily::coords) gives them; the layer
    /// coordinate is ignored by worlds of one layer.
    fn node_at(&self, c: [u32; 3]) -> Option<NodeId> {
        self.node(c[0], c[1])
    }
    /// The size of a volume, in worlds of voxels.
    fn volume(&self) -> Option<[u32; 3]> {
        None
    }
    /// Every cell node `n` covers: one for squares, hexes and voxels (seen from above), many
    /// for a navmesh polygon or a hierarchy's cluster.
    fn cells_of(&self, n: NodeId) -> Vec<(u32, u32)> {
        vec![self.xy(n)]
    }
    /// Re-reads `cells` from `grid`; returns the nodes whose edges changed, sorted.
    fn apply_cells(&mut self, grid: &Grid, cells: &[(u32, u32)]) -> Vec<NodeId>;
    /// Brings the graph up to date after `grid` changed inside `rect` (`None`: anywhere);
    /// returns the nodes whose edges may have changed.
    fn update(&mut self, grid: &Grid, rect: Rect) -> Vec<NodeId>;
    /// Rebuilds the graph from `grid` as a whole.
    fn rebuild(&mut self, grid: &Grid);
    /// The layer 2D coordinates name, in worlds of layers.
    fn set_layer(&mut self, _z: u32) {}
    /// Index of the first node of that layer.
    fn layer_base(&self) -> usize {
        0
    }
    /// Attaches the cognitive map a counter heuristic reads, in worlds that have one.
    fn set_knowledge(&mut self, _k: Option<&CognitiveMap>) {}
    /// Which node each cell of the 2D view shows.
    fn cell_nodes(&self) -> CellNodes<'_> {
        CellNodes::From(self.layer_base())
    }

    /// Whether a square map's scenario lengths are this family's optima (squares: yes; hexes
    /// over squares: no, they are found again by Dijkstra).
    const FILE_OPTIMA: bool = true;

    /// The world of `family` over square map `grid` (hexes under its cells with `fill`), and
    /// the map of this family's cells; refused where the family is not made from squares.
    fn from_square_map(
        grid: &Grid,
        family: Family,
        rules: (Connectivity, TerrainRule),
        fill: HexFill,
    ) -> Result<(Self, Grid), String> {
        let cells = family.from_square(Family::Square, grid, fill)?;
        Ok((Self::build(&cells, family, rules), cells))
    }

    /// The node under the centre of square cell (x, y) of the map this world was made from.
    fn node_under(&self, x: u32, y: u32) -> Option<NodeId> {
        self.node(x, y)
    }

    /// The cell of this world under the centre of square cell (x, y) of the map it was made
    /// from.
    fn cell_under(&self, x: u32, y: u32) -> Option<(u32, u32)> {
        let (w, h) = self.dims();
        (x < w && y < h).then_some((x, y))
    }

    /// How an exported trace draws a node: as hexes of this orientation and pitch, or as
    /// square cells (`None`).
    fn hex_layout(&self) -> Option<(crate::space::HexOrientation, f64)> {
        None
    }

    /// How a point a Posthoc trace draws (in square cells of the map) names a node of this
    /// world: a hex by the layout, else the node the 2D view shows on that cell.
    fn trace_place(&self) -> Place {
        let (w, h) = self.dims();
        if let Some((orientation, pitch)) = self.hex_layout() {
            return Place::Hex {
                orientation,
                pitch,
                w,
                h,
            };
        }
        match self.cell_nodes() {
            CellNodes::Map(m) => Place::Cells {
                w,
                h,
                map: Some(m.into()),
            },
            CellNodes::From(_) => Place::Cells { w, h, map: None },
        }
    }

    /// The estimates admissible on worlds of `family` (this family, with its parameters).
    fn heuristics_of(family: Family) -> &'static [Heuristic];

    /// Whether its worlds keep a cognitive map.
    const KEEPS_KNOWLEDGE: bool = false;

    /// Whether its worlds' edges are always directed ([`Space::directed`]), so that the
    /// registry lists it for no search that needs them undirected.
    const DIRECTED: bool = false;

    /// Whether its worlds have no line of sight between nodes ([`Space::has_line_of_sight`]),
    /// so that the registry lists no any-angle search for it.
    const SIGHTLESS: bool = false;

    /// Whether its worlds number their nodes anew after an edit ([`Space::stable_ids`] is
    /// false), so that the registry lists no search that repairs after a change for it.
    const RENUMBERS: bool = false;

    /// Whether crowds (`crate::crowd`, square cells) walk its worlds.
    const WALKED_BY_CROWDS: bool = false;

    /// Whether a `.map` file (square cells only) holds its maps.
    const SAVES_AS_MAP: bool = false;

    /// The ending of the files that hold its maps in a format of its own (voxels: `.3dmap`),
    /// read without a square map to make them from; none where its maps are square maps.
    const MAP_ENDING: Option<&'static str> = None;

    /// The ending of the scenario files for its own map format (voxels: `.3dscen`).
    const SCENARIO_ENDING: Option<&'static str> = None;

    /// The moves of its worlds when a project keeps them as a volume of voxels.
    fn volume_moves(_family: Family) -> Option<crate::space::VoxelMoves> {
        None
    }

    /// Checks the parameters a file gives `family`.
    fn check_params(_family: Family) -> Result<(), String> {
        Ok(())
    }

    /// The map of `family`'s cells made from `grid`, a map of the `base` family.
    fn cells_from(
        family: Family,
        base: Family,
        _grid: &Grid,
        _fill: HexFill,
    ) -> Result<Grid, String> {
        Err(format!(
            "a {} world is not made from a {} map",
            family.name(),
            base.name()
        ))
    }

    /// Moves of `cells` (made from `square`) that pass through the square map's walls.
    fn moves_through_walls(_family: Family, _square: &Grid, _cells: &Grid) -> usize {
        0
    }

    /// The family as `--world` with its flags names it (`None`: not chosen that way).
    fn from_flags(_size: f64, _orientation: &str) -> Option<Result<Family, String>> {
        None
    }
}

/// Something to do with a family's world type, whichever family a run names (see
/// [`dispatch`]): loading a suite, tracing a search.
pub trait FamilyFn {
    type Out;
    fn call<W: WorldFamily>(self) -> Self::Out;
}

/// A function over a world's graph, whatever its family (see [`AnySpace::with`]).
pub trait SpaceFn {
    type Out;
    fn call<S: Searchable>(self, space: &S) -> Self::Out;
}

/// Generates [`AnySpace`] from the family list.
macro_rules! declare_any_space {
    ($d:tt ; $($v:ident $({ $($pf:ident : $pt:ty),* })? / $f:ident : $world:ty => $space:ty, $name:literal, $title:literal;)*) => {
        /// A world's graph, of whichever family.
        #[derive(Clone, Debug)]
        pub enum AnySpace {
            $($v($world),)*
        }

        /// Runs `$body` with `$w` the family's world inside.
        macro_rules! each {
            ($d me:expr, $d w:ident => $d body:expr) => {
                match $d me {
                    $(AnySpace::$v($d w) => $d body,)*
                }
            };
        }

        impl AnySpace {
            /// The graph of `grid` as a world of `family`.
            pub fn new(grid: &Grid, family: Family, rules: (Connectivity, TerrainRule)) -> AnySpace {
                match family.space_kind() {
                    $(SpaceKind::$v => AnySpace::$v(<$world as WorldFamily>::build(grid, family, rules)),)*
                }
            }

            /// The family, as the registry names it.
            pub fn kind(&self) -> SpaceKind {
                match self {
                    $(AnySpace::$v(_) => SpaceKind::$v,)*
                }
            }
        }

        /// `f` with the world type of family `kind`.
        pub fn dispatch<F: FamilyFn>(kind: SpaceKind, f: F) -> F::Out {
            match kind {
                $(SpaceKind::$v => f.call::<$world>(),)*
            }
        }
    };
}

crate::for_each_family!(declare_any_space, $);

impl AnySpace {
    /// `f` on the graph inside.
    pub fn with<F: SpaceFn>(&self, f: F) -> F::Out {
        each!(self, w => f.call(WorldFamily::space(w)))
    }

    /// The family this space was built as, with its parameters.
    pub fn family(&self) -> Family {
        each!(self, w => WorldFamily::family(w))
    }

    /// Moves and terrain rule (hexes have six moves; the connectivity is kept for squares).
    pub fn rules(&self) -> (Connectivity, TerrainRule) {
        each!(self, w => WorldFamily::rules(w))
    }

    pub fn width(&self) -> u32 {
        each!(self, w => WorldFamily::dims(w).0)
    }

    pub fn height(&self) -> u32 {
        each!(self, w => WorldFamily::dims(w).1)
    }

    /// Node of cell (x, y); on voxels, the voxel (x, y) of the layer shown.
    pub fn node(&self, x: u32, y: u32) -> Option<NodeId> {
        each!(self, w => WorldFamily::node(w, x, y))
    }

    /// Cell of node `n`; on voxels its (x, y), whatever its layer (a view from above).
    pub fn xy(&self, n: NodeId) -> (u32, u32) {
        each!(self, w => WorldFamily::xy(w, n))
    }

    /// Node `n`'s coordinates as the user reads them (see [`WorldFamily::coords`]).
    pub fn coords(&self, n: NodeId) -> Vec<u32> {
        each!(self, w => WorldFamily::coords(w, n))
    }

    /// The node at (x, y, z) (see [`WorldFamily::node_at`]).
    pub fn node_at(&self, c: [u32; 3]) -> Option<NodeId> {
        each!(self, w => WorldFamily::node_at(w, c))
    }

    /// The size of a volume, in worlds of voxels.
    pub fn volume(&self) -> Option<[u32; 3]> {
        each!(self, w => WorldFamily::volume(w))
    }

    /// How an exported trace draws a node (see [`WorldFamily::hex_layout`]).
    pub fn hex_layout(&self) -> Option<(crate::space::HexOrientation, f64)> {
        each!(self, w => WorldFamily::hex_layout(w))
    }

    /// How a trace's drawn points name this world's nodes (see [`WorldFamily::trace_place`]).
    pub fn trace_place(&self) -> Place {
        each!(self, w => WorldFamily::trace_place(w))
    }

    /// Every cell node `n` covers (see [`WorldFamily::cells_of`]).
    pub fn cells_of(&self, n: NodeId) -> Vec<(u32, u32)> {
        each!(self, w => WorldFamily::cells_of(w, n))
    }

    /// Shows layer `z` in 2D (worlds of layers only).
    pub fn set_layer(&mut self, z: u32) {
        each!(self, w => WorldFamily::set_layer(w, z))
    }

    /// Index of the first node of the layer that 2D coordinates name (0 but for voxels).
    pub fn layer_base(&self) -> usize {
        each!(self, w => WorldFamily::layer_base(w))
    }

    /// Gives a world the cognitive map its counter heuristic reads (hexes; a map of another
    /// size is not attached).
    pub fn set_knowledge(&mut self, k: Option<&CognitiveMap>) {
        each!(self, w => WorldFamily::set_knowledge(w, k))
    }

    pub fn num_nodes(&self) -> usize {
        each!(self, w => WorldFamily::space(w).num_nodes())
    }

    /// The ids a recording uses where not one per node (see [`Space::recorded_nodes`]).
    pub fn recorded_nodes(&self) -> Option<usize> {
        each!(self, w => WorldFamily::space(w).recorded_nodes())
    }

    /// Ids a recording of this world holds for its own nodes: its nodes, or its cells where
    /// it records on cells.
    pub fn recorded_len(&self) -> usize {
        self.recorded_nodes().unwrap_or_else(|| self.num_nodes())
    }

    /// The id node `n` is recorded under: itself, or its cell where the world records on
    /// cells (see [`Space::recorded_nodes`]).
    pub fn recorded_id(&self, n: NodeId) -> NodeId {
        match self.recorded_nodes() {
            Some(cells) if (n as usize) < self.num_nodes() => n % cells as NodeId,
            _ => n,
        }
    }

    /// The vehicle lattice inside, if this is one.
    pub fn as_vehicle(&self) -> Option<&crate::space::VehicleSpace> {
        match self {
            AnySpace::Vehicle(v) => Some(v),
            _ => None,
        }
    }

    pub fn is_passable(&self, n: NodeId) -> bool {
        each!(self, w => WorldFamily::space(w).is_passable(n))
    }

    pub fn heuristic(&self, h: Heuristic, a: NodeId, b: NodeId) -> f64 {
        each!(self, w => WorldFamily::space(w).heuristic(h, a, b))
    }

    pub fn heuristics(&self) -> &'static [Heuristic] {
        each!(self, w => WorldFamily::space(w).heuristics())
    }

    pub fn native_heuristic(&self) -> Heuristic {
        each!(self, w => WorldFamily::space(w).native_heuristic())
    }

    /// Changes whenever the graph changes (prepared data is checked against it).
    pub fn revision(&self) -> u64 {
        each!(self, w => WorldFamily::space(w).revision())
    }

    /// Re-reads changed cells (see [`WorldFamily::apply_cells`]).
    pub fn apply_cells(&mut self, grid: &Grid, cells: &[(u32, u32)]) -> Vec<NodeId> {
        each!(self, w => WorldFamily::apply_cells(w, grid, cells))
    }

    /// Brings the graph up to date after `grid` changed inside `rect` (`None`: anywhere, or
    /// the size changed), and returns the nodes whose edges may have changed.
    pub fn update(&mut self, grid: &Grid, rect: Option<Rect>) -> Vec<NodeId> {
        let same = grid.width() == self.width() && grid.height() == self.height();
        match rect.filter(|_| same) {
            Some(r) => each!(self, w => WorldFamily::update(w, grid, r)),
            None => {
                each!(self, w => WorldFamily::rebuild(w, grid));
                (0..self.num_nodes() as NodeId).collect()
            }
        }
    }

    /// The cell under square cell (x, y) of the map it was made from (see
    /// [`WorldFamily::cell_under`]).
    pub fn cell_under(&self, x: u32, y: u32) -> Option<(u32, u32)> {
        each!(self, w => WorldFamily::cell_under(w, x, y))
    }

    /// Which node each cell of the 2D view shows (see [`WorldFamily::cell_nodes`]).
    pub fn cell_nodes(&self) -> CellNodes<'_> {
        each!(self, w => WorldFamily::cell_nodes(w))
    }

    /// The navmesh inside, if this is one.
    pub fn as_navmesh(&self) -> Option<&crate::space::NavmeshSpace> {
        match self {
            AnySpace::Navmesh(m) => Some(m),
            _ => None,
        }
    }

    /// The square grid inside, if this is one.
    pub fn as_square(&self) -> Option<&crate::space::GridSpace> {
        match self {
            AnySpace::Square(s) => Some(s),
            _ => None,
        }
    }

    /// The hex grid inside, if this is one.
    pub fn as_hex(&self) -> Option<&crate::space::HexSpace> {
        match self {
            AnySpace::Hex(h) => Some(h),
            _ => None,
        }
    }

    /// The voxel world inside and its layer, if this is one.
    pub fn as_voxel(&self) -> Option<(&crate::space::VoxelSpace, u32)> {
        match self {
            AnySpace::Voxel(v) => Some((&v.space, v.z)),
            _ => None,
        }
    }

    /// The search graph of a volume, with 2D coordinates naming its layer `z`.
    pub fn of_volume(v: &crate::map::volume::Volume) -> AnySpace {
        AnySpace::Voxel(super::VoxelWorld {
            space: crate::space::VoxelSpace::new(v.voxels.clone(), v.moves),
            z: v.z,
        })
    }
}

/// Which node each cell of a world's 2D view shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CellNodes<'a> {
    /// Cell i shows node `base + i` (squares, hexes, a voxel world's layer).
    From(usize),
    /// Cell i shows node `map[i]`, or none where it is `u32::MAX` (a navmesh's polygons).
    Map(&'a [u32]),
}

/// The cells of `r` clipped to `grid`, row by row.
pub(super) fn rect_cells(grid: &Grid, r: Rect) -> Vec<(u32, u32)> {
    (r.y..(r.y + r.h).min(grid.height()))
        .flat_map(|y| (r.x..(r.x + r.w).min(grid.width())).map(move |x| (x, y)))
        .collect()
}

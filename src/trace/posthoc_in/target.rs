//! The world a trace is read onto, and which of its nodes a drawn point lies on.

use super::*;

/// The world a trace is read onto.
#[derive(Clone, Debug)]
pub struct Target {
    /// Node ids the recording holds (the world's and its layers').
    pub nodes: usize,
    /// A square map's width and height, when the world is that map's squares.
    pub square: Option<(u32, u32)>,
    /// Which node a drawn point lies on.
    pub place: Place,
}

/// How a point a trace draws (in square cells of the map, x right, y down) names a node.
#[derive(Clone, Debug)]
pub enum Place {
    /// No drawn point names a node (no map given): no event is placed.
    Nowhere,
    /// The point lies in square cell (x, y) of a `w × h` map, which shows node `y·w + x`, or
    /// with `map` the node `map[y·w + x]` (`u32::MAX`: none, as a navmesh's walls).
    Cells {
        w: u32,
        h: u32,
        map: Option<Arc<[u32]>>,
    },
    /// The point lies in a hex of a `w × h` hex grid, node `y·w + x`.
    Hex {
        orientation: HexOrientation,
        pitch: f64,
        w: u32,
        h: u32,
    },
}

/// Where a drawn point fell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Loc {
    Node(u32),
    /// Inside the map but on no node (a navmesh's wall cell).
    NoNode,
    /// Outside the map.
    Off,
}

impl Target {
    /// The squares of a `w × h` map.
    pub fn squares(w: u32, h: u32) -> Target {
        Target {
            nodes: w as usize * h as usize,
            square: Some((w, h)),
            place: Place::Cells { w, h, map: None },
        }
    }

    /// No world: events are read and counted, none placed.
    pub fn none() -> Target {
        Target {
            nodes: u32::MAX as usize,
            square: None,
            place: Place::Nowhere,
        }
    }

    pub(super) fn locate(&self, p: [f64; 2]) -> Option<Loc> {
        let (x, y) = (p[0], p[1]);
        if !(x.is_finite() && y.is_finite()) {
            return Some(Loc::Off);
        }
        match &self.place {
            Place::Nowhere => None,
            Place::Cells { w, h, map } => {
                let (cx, cy) = (x.floor(), y.floor());
                if cx < 0.0 || cy < 0.0 || cx >= *w as f64 || cy >= *h as f64 {
                    return Some(Loc::Off);
                }
                let i = cy as usize * *w as usize + cx as usize;
                let n = match map {
                    Some(m) => m.get(i).copied().unwrap_or(u32::MAX),
                    None => i as u32,
                };
                Some(if n == u32::MAX {
                    Loc::NoNode
                } else {
                    Loc::Node(n)
                })
            }
            Place::Hex {
                orientation,
                pitch,
                w,
                h,
            } => Some(match orientation.hex_at(x, y, *pitch, *w, *h) {
                Some((hx, hy)) => Loc::Node(hy * w + hx),
                None => Loc::Off,
            }),
        }
    }
}

//! Distance estimates shared by every space that has coordinates.

use serde::{Deserialize, Serialize};

/// Which distance estimate to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Heuristic {
    /// Octile distance: exact on an empty 8-connected grid; admissible for 4-connected too.
    #[default]
    Octile,
    /// Manhattan distance: exact on an empty 4-connected grid; overestimates diagonal moves.
    Manhattan,
    /// Straight-line distance: admissible everywhere, weaker than octile on grids.
    Euclidean,
    /// Zero: turns A* into Dijkstra.
    Zero,
    /// The space's own estimate ([`super::Space::native_heuristic`]): octile on 8-connected
    /// squares, Manhattan on 4-connected ones, hex distance on hexes.
    Native,
    /// Steps between hex centres times their distance: exact on an empty hex grid.
    Hex,
    /// Rahmani 2020's counter heuristic on hexes with a cognitive map: the straight-line
    /// distance plus λ hex steps, λ = 2·C_max on a hex never visited and C_max / c on one
    /// visited c times (eq. 5.1, 5.2). Not admissible: it leads searches through familiar
    /// hexes. Elsewhere it reads as Euclidean.
    Counter,
}

impl Heuristic {
    /// All heuristics, in registry order.
    pub const ALL: [Heuristic; 7] = [
        Heuristic::Octile,
        Heuristic::Manhattan,
        Heuristic::Euclidean,
        Heuristic::Zero,
        Heuristic::Native,
        Heuristic::Hex,
        Heuristic::Counter,
    ];

    /// Those a square grid's project may name: all but the counter heuristic, which needs
    /// hexes (it comes last).
    pub const SQUARE: &'static [Heuristic] = Heuristic::ALL.split_at(6).0;

    /// Name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Octile => "octile",
            Heuristic::Manhattan => "manhattan",
            Heuristic::Euclidean => "euclidean",
            Heuristic::Zero => "zero",
            Heuristic::Native => "native",
            Heuristic::Hex => "hex",
            Heuristic::Counter => "counter",
        }
    }

    /// This heuristic as `space` computes it: [`Heuristic::Native`] becomes the space's own.
    pub fn on<S: super::Space>(self, space: &S) -> Heuristic {
        match self {
            Heuristic::Native => space.native_heuristic(),
            h => h,
        }
    }

    /// The heuristic with this name.
    pub fn from_name(s: &str) -> Option<Heuristic> {
        Self::ALL.into_iter().find(|h| h.name() == s)
    }

    /// The estimate for coordinate differences (absolute values) along up to three axes.
    #[inline(always)]
    pub fn of_deltas(self, d: [f64; 3]) -> f64 {
        match self {
            // A space resolves `Native` before it gets here; octile is admissible on every
            // grid, so it stands in for the two metrics that need a space's own geometry.
            Heuristic::Octile | Heuristic::Native | Heuristic::Hex => {
                // 3D octile: √3 along the shortest axis, √2 for the middle, 1 for the rest
                // (min and max rather than a sort: this runs for every generated voxel).
                // Plain compares, not f64::max and min: those also handle NaN, which never
                // comes here, at the cost of more instructions on every generated voxel.
                let max = |a: f64, b: f64| if a > b { a } else { b };
                let min = |a: f64, b: f64| if a < b { a } else { b };
                let hi = max(max(d[0], d[1]), d[2]);
                let lo = min(min(d[0], d[1]), d[2]);
                let mid = d[0] + d[1] + d[2] - hi - lo;
                (3f64.sqrt() - 2f64.sqrt()) * lo + (2f64.sqrt() - 1.0) * mid + hi
            }
            Heuristic::Manhattan => d[0] + d[1] + d[2],
            Heuristic::Euclidean | Heuristic::Counter => {
                (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
            }
            Heuristic::Zero => 0.0,
        }
    }

    /// The estimate for 2D differences (absolute values); the hot path of grid searches.
    #[inline(always)]
    pub fn of_deltas_2d(self, dx: f64, dy: f64) -> f64 {
        match self {
            Heuristic::Octile | Heuristic::Native | Heuristic::Hex => {
                let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
                hi + (std::f64::consts::SQRT_2 - 1.0) * lo
            }
            Heuristic::Manhattan => dx + dy,
            Heuristic::Euclidean | Heuristic::Counter => (dx * dx + dy * dy).sqrt(),
            Heuristic::Zero => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octile_3d_matches_2d_and_known_values() {
        for (dx, dy) in [(0.0, 0.0), (3.0, 1.0), (1.0, 3.0), (5.0, 5.0)] {
            let a = Heuristic::Octile.of_deltas([dx, dy, 0.0]);
            let b = Heuristic::Octile.of_deltas_2d(dx, dy);
            assert!((a - b).abs() < 1e-12);
        }
        assert!((Heuristic::Octile.of_deltas_2d(3.0, 1.0) - (2.0 + 2f64.sqrt())).abs() < 1e-12);
        let v = Heuristic::Octile.of_deltas([1.0, 2.0, 3.0]);
        assert!((v - (3f64.sqrt() + 2f64.sqrt() + 1.0)).abs() < 1e-12);
        assert_eq!(
            Heuristic::from_name("manhattan"),
            Some(Heuristic::Manhattan)
        );
    }
}

//! A repaired plan checked against A* from scratch on the same world: the badge under a
//! view's title after every repair.

use crate::search::Query;
use crate::space::NodeId;
use crate::world::AnySpace;

/// A repaired plan checked against A* from scratch on the same world: the repair must cost
/// the optimum (D* Lite), or at most ε₀ times it (AD*).
#[derive(Clone, Debug, PartialEq)]
pub struct Oracle {
    /// Cost of the repaired plan; `None` when the repair found no path.
    pub repaired: Option<f64>,
    /// Cost of A* from scratch; `None` when there is no path.
    pub scratch: Option<f64>,
    /// A*'s path, drawn beside the repaired one when they disagree.
    pub scratch_path: Vec<NodeId>,
    /// Allowed factor over the optimum.
    pub bound: f64,
}

impl Oracle {
    /// Compares `repaired` with A* from scratch on `space` for `query`.
    pub fn check(space: &AnySpace, query: Query, repaired: Option<f64>, bound: f64) -> Oracle {
        // The world's own heuristic: exact on open ground, admissible everywhere.
        let astar = crate::algorithms::find("astar").expect("registered");
        let params = crate::search::params::Params::default();
        let mut a = crate::world::AnySearch::build(astar, &params, space, query)
            .expect("A* runs on every world");
        a.run_null(space);
        let s = a.state();
        Oracle {
            repaired,
            scratch: s.cost(),
            scratch_path: s.path().map_or(vec![], |p| p.to_vec()),
            bound,
        }
    }

    /// True when the repair is as good as it must be (both without a path counts as agreeing).
    pub fn agrees(&self) -> bool {
        match (self.repaired, self.scratch) {
            (Some(r), Some(s)) => r >= s - 1e-6 && r <= s * self.bound + 1e-6,
            (None, None) => true,
            _ => false,
        }
    }

    /// One line for the badge.
    pub fn text(&self) -> String {
        let c = |x: Option<f64>| x.map_or("no path".to_string(), |v| format!("{v:.3}"));
        if self.agrees() {
            if self.bound > 1.0 {
                format!(
                    "Repair within ε = {} of A* from scratch ({})",
                    self.bound,
                    c(self.scratch)
                )
            } else {
                format!("Repair = A* from scratch ({})", c(self.scratch))
            }
        } else {
            format!(
                "MISMATCH: repair {}, A* {}",
                c(self.repaired),
                c(self.scratch)
            )
        }
    }
}

#[cfg(test)]
#[cfg(test)]
mod tests {
    use super::Oracle;

    fn oracle(repaired: Option<f64>, scratch: Option<f64>, bound: f64) -> Oracle {
        Oracle {
            repaired,
            scratch,
            scratch_path: vec![],
            bound,
        }
    }

    #[test]
    fn the_oracle_accepts_the_optimum_or_within_epsilon_and_nothing_else() {
        assert!(oracle(Some(10.0), Some(10.0), 1.0).agrees());
        assert!(!oracle(Some(10.5), Some(10.0), 1.0).agrees());
        assert!(oracle(Some(14.0), Some(10.0), 1.5).agrees());
        assert!(!oracle(Some(16.0), Some(10.0), 1.5).agrees());
        // Cheaper than the optimum means the repair's cost is wrong.
        assert!(!oracle(Some(9.0), Some(10.0), 2.0).agrees());
        assert!(oracle(None, None, 1.0).agrees());
        assert!(!oracle(None, Some(3.0), 1.0).agrees());
        assert!(!oracle(Some(3.0), None, 1.0).agrees());
        assert!(oracle(Some(10.0), Some(10.0), 1.0)
            .text()
            .starts_with("Repair = A*"));
        assert!(oracle(None, Some(3.0), 1.0).text().contains("no path"));
    }
}

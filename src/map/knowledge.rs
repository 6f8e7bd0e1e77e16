//! A cognitive map (Rahmani 2020, ch. 5): a visit counter per hex of a hex world. A hex never
//! visited is unknown; the more visits, the better known, up to C_max. The counter heuristic
//! (`Heuristic::Counter` in `space`) and the GPS planner read it.

use serde::{Deserialize, Serialize};

/// A hex's number, as a hex space numbers its nodes (y · width + x).
type NodeId = u32;

/// C_max when none is given (the thesis gives no value).
pub const DEFAULT_C_MAX: u32 = 5;

/// Visit counters over the hexes of a world (0 = never visited), each at most `c_max`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CognitiveMap {
    pub counters: Vec<u32>,
    pub c_max: u32,
}

impl CognitiveMap {
    /// An empty map (nothing known) over `n` hexes.
    pub fn new(n: usize, c_max: u32) -> CognitiveMap {
        CognitiveMap {
            counters: vec![0; n],
            c_max: c_max.max(1),
        }
    }

    /// One more visit of `n`, up to `c_max`.
    pub fn visit(&mut self, n: NodeId) {
        if let Some(c) = self.counters.get_mut(n as usize) {
            *c = (*c + 1).min(self.c_max);
        }
    }

    /// Visited at least once.
    pub fn known(&self, n: NodeId) -> bool {
        self.counters.get(n as usize).is_some_and(|&c| c > 0)
    }

    /// The penalty of eq. 5.2, in hex steps: 2 · C_max unknown, C_max / c known.
    pub fn lambda(&self, n: NodeId) -> f64 {
        match self.counters.get(n as usize).copied().unwrap_or(0) {
            0 => 2.0 * self.c_max as f64,
            c => self.c_max as f64 / c.min(self.c_max) as f64,
        }
    }

    /// Share of `cells` with a counter above 0.
    pub fn known_share(&self, cells: &[NodeId]) -> f64 {
        let k = cells.iter().filter(|&&n| self.known(n)).count();
        k as f64 / cells.len().max(1) as f64
    }

    /// A new cap: counters above it come down to it.
    pub fn set_c_max(&mut self, c_max: u32) {
        self.c_max = c_max.max(1);
        let m = self.c_max;
        self.counters.iter_mut().for_each(|c| *c = (*c).min(m));
    }

    /// Checks a map read from a file against its world: one counter per hex, each at most
    /// C_max, C_max at least 1.
    pub fn check(&self, hexes: usize) -> Result<(), String> {
        if self.c_max == 0 {
            return Err("the cognitive map's C_max is 0".into());
        }
        if self.counters.len() != hexes {
            return Err(format!(
                "the cognitive map has {} counters for {hexes} hexes",
                self.counters.len()
            ));
        }
        match self.counters.iter().position(|&c| c > self.c_max) {
            Some(i) => Err(format!(
                "the cognitive map's counter {i} is {}, above C_max {}",
                self.counters[i], self.c_max
            )),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_cap_and_lambda_follows_eq_5_2() {
        let mut m = CognitiveMap::new(3, 4);
        assert_eq!(m.lambda(0), 8.0);
        for _ in 0..6 {
            m.visit(0);
        }
        m.visit(1);
        assert_eq!(m.counters, vec![4, 1, 0]);
        assert_eq!((m.lambda(0), m.lambda(1), m.lambda(2)), (1.0, 4.0, 8.0));
        assert!((m.known_share(&[0, 1, 2]) - 2.0 / 3.0).abs() < 1e-12);
        m.set_c_max(2);
        assert_eq!(m.counters, vec![2, 1, 0]);
        assert!(m.check(3).is_ok());
        assert!(m.check(4).unwrap_err().contains("3 counters for 4 hexes"));
        m.counters[2] = 9;
        assert!(m.check(3).unwrap_err().contains("above C_max"));
    }
}

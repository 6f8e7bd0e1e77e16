//! Algorithm parameters: what the registry declares, and values checked against it.

use crate::space::Heuristic;
use std::collections::BTreeMap;

/// The type of a parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    /// A real number.
    Float,
    /// A whole number.
    Int,
    /// One of named choices; the value is the index.
    Choice(&'static [&'static str]),
}

/// One parameter of an algorithm: name, help, default and range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub help: &'static str,
    pub kind: ParamKind,
    pub default: f64,
    pub min: f64,
    pub max: f64,
}

/// The heuristic parameter most algorithms share.
pub const HEURISTIC: ParamSpec = ParamSpec {
    name: "heuristic",
    help: "distance estimate; native is the world's own: octile (8 moves) or manhattan (4 moves) on squares, hex on hexes, the least driving time on vehicle lattices (not admissible there: snapping); counter (hexes): distance plus the cognitive map's penalty (Rahmani 2020)",
    // New names go at the end: a choice is stored as its index.
    kind: ParamKind::Choice(&[
        "octile",
        "manhattan",
        "euclidean",
        "zero",
        "native",
        "hex",
        "counter",
    ]),
    default: 4.0,
    min: 0.0,
    max: 6.0,
};

/// The first inflation ε₀ of the anytime searches (ARA*, AD*).
pub const EPSILON: ParamSpec = ParamSpec {
    name: "epsilon",
    help: "first heuristic inflation ε₀ ≥ 1; each solution costs at most ε × optimal",
    kind: ParamKind::Float,
    default: 3.0,
    min: 1.0,
    max: 100.0,
};

/// D* Lite's heuristic inflation (Krafft 2019 ran it with ε > 1); 1 keeps it optimal.
pub const DSTAR_EPSILON: ParamSpec = ParamSpec {
    name: "epsilon",
    help: "heuristic inflation ε ≥ 1; paths cost at most ε × optimal with the Krafft 2019 key",
    kind: ParamKind::Float,
    default: 1.0,
    min: 1.0,
    max: 100.0,
};

/// D* Lite's key: Krafft 2019's inflates h only for over-consistent nodes (what makes ε > 1 safe
/// after a change); the original inflates every key.
pub const DSTAR_KEY: ParamSpec = ParamSpec {
    name: "key",
    help: "krafft2019: [rhs + ε·h + k_m; rhs] if g > rhs, else [g + h + k_m; g]; original: [min(g, rhs) + ε·h + k_m; min(g, rhs)]",
    kind: ParamKind::Choice(&["krafft2019", "original"]),
    default: 0.0,
    min: 0.0,
    max: 1.0,
};

/// Choice names that were renamed: (old, new). Run files and scripts written before the
/// rename still read; the old name is shown nowhere.
const CHOICE_ALIASES: &[(&str, &str)] = &[("seed000", "krafft2019")];

/// How much the anytime searches lower ε after each solution.
pub const DECREMENT: ParamSpec = ParamSpec {
    name: "decrement",
    help: "how much ε falls after each solution",
    kind: ParamKind::Float,
    default: 0.5,
    min: 0.01,
    max: 100.0,
};

/// Parameter values, complete (defaults filled in) and within range.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Params {
    values: BTreeMap<String, f64>,
}

impl Params {
    /// Checks `given` against `specs` and fills in defaults.
    pub fn resolve(specs: &[ParamSpec], given: &BTreeMap<String, f64>) -> Result<Params, String> {
        for k in given.keys() {
            if !specs.iter().any(|s| s.name == k) {
                let names: Vec<_> = specs.iter().map(|s| s.name).collect();
                return Err(if names.is_empty() {
                    format!("unknown parameter `{k}`: this algorithm takes none")
                } else {
                    format!(
                        "unknown parameter `{k}` (expected one of: {})",
                        names.join(", ")
                    )
                });
            }
        }
        let mut values = BTreeMap::new();
        for s in specs {
            let v = given.get(s.name).copied().unwrap_or(s.default);
            if !(v >= s.min && v <= s.max) || (s.kind != ParamKind::Float && v.fract() != 0.0) {
                return Err(format!(
                    "parameter `{}` = {v} is outside {}..={}",
                    s.name, s.min, s.max
                ));
            }
            values.insert(s.name.to_string(), v);
        }
        Ok(Params { values })
    }

    /// Parses `key=value,key=value` text (choices by name) against `specs`.
    pub fn parse(specs: &[ParamSpec], text: &str) -> Result<Params, String> {
        let mut given = BTreeMap::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}` should be name=value"))?;
            let spec = specs
                .iter()
                .find(|s| s.name == k)
                .ok_or_else(|| format!("unknown parameter `{k}`"))?;
            // Earlier names of choices, still read from scripts and run files.
            let v = CHOICE_ALIASES.iter().find(|a| a.0 == v).map_or(v, |a| a.1);
            let value = match spec.kind {
                ParamKind::Choice(names) => names
                    .iter()
                    .position(|n| *n == v)
                    .map(|i| i as f64)
                    .ok_or_else(|| format!("`{k}` must be one of: {}", names.join(", ")))?,
                _ => v
                    .parse::<f64>()
                    .map_err(|_| format!("`{k}` = `{v}` is not a number"))?,
            };
            if given.insert(k.to_string(), value).is_some() {
                return Err(format!("parameter `{k}` is given twice"));
            }
        }
        Params::resolve(specs, &given)
    }

    /// Value of a declared parameter.
    pub fn get(&self, name: &str) -> f64 {
        self.values.get(name).copied().unwrap_or(0.0)
    }

    /// The `heuristic` parameter (the world's own if absent).
    pub fn heuristic(&self) -> Heuristic {
        match self.values.get("heuristic") {
            Some(&v) => Heuristic::ALL[(v as usize).min(Heuristic::ALL.len() - 1)],
            None => Heuristic::Native,
        }
    }

    /// All values.
    pub fn values(&self) -> &BTreeMap<String, f64> {
        &self.values
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_fills_defaults_and_checks_ranges() {
        let w = ParamSpec {
            name: "weight",
            help: "",
            kind: ParamKind::Float,
            default: 1.5,
            min: 1.0,
            max: 10.0,
        };
        let specs = [w, HEURISTIC];
        let p = Params::parse(&specs, "").unwrap();
        assert_eq!((p.get("weight"), p.heuristic()), (1.5, Heuristic::Native));
        let p = Params::parse(&specs, "weight=3,heuristic=manhattan").unwrap();
        assert_eq!(
            (p.get("weight"), p.heuristic()),
            (3.0, Heuristic::Manhattan)
        );
        assert!(Params::parse(&specs, "weight=0.5").is_err());
        assert!(Params::parse(&specs, "weight=NaN").is_err());
        assert!(Params::parse(&specs, "heuristic=chebyshev").is_err());
        assert!(Params::parse(&specs, "speed=2").is_err());
        assert!(Params::parse(&specs, "weight").is_err());
    }

    #[test]
    fn the_old_key_name_still_reads_as_the_new_one() {
        let specs = [DSTAR_KEY];
        let new = Params::parse(&specs, "key=krafft2019").unwrap();
        let old = Params::parse(&specs, "key=seed000").unwrap();
        assert_eq!(new.get("key"), 0.0);
        assert_eq!(old.get("key"), new.get("key"));
        assert_eq!(
            Params::parse(&specs, "key=original").unwrap().get("key"),
            1.0
        );
        assert!(Params::parse(&specs, "key=mantysalo2024").is_err());
    }
}

//! An algorithm chosen for a view, with its parameter values: built from a registry name or a
//! spec, written back as a spec and a title.

use crate::search::params::Params;
use crate::search::registry::{self, AlgoInfo};
use crate::search::Query;
use crate::world::AnySearch;
use crate::world::AnySpace;
use std::collections::BTreeMap;

/// An algorithm and its parameter values.
#[derive(Clone, Debug)]
pub struct AlgoChoice {
    pub info: &'static AlgoInfo,
    pub values: BTreeMap<String, f64>,
    /// A trace file played back instead of an algorithm (`info` is then
    /// [`registry::TRACE`]).
    pub trace: Option<std::sync::Arc<TraceFile>>,
}

/// A trace read from a file, for views that play it back.
#[derive(Debug)]
pub struct TraceFile {
    /// The file's name, for the view's title.
    pub name: String,
    /// The file, absolute: a saved project names it to read it again.
    pub path: std::path::PathBuf,
    pub events: std::sync::Arc<Vec<crate::trace::Event>>,
    /// What is not drawn of it, one line each.
    pub notes: Vec<String>,
    /// The world it was read onto (its node ids name that world's nodes).
    pub target: crate::trace::posthoc_in::Target,
}

impl TraceFile {
    /// The trace's own start and goal, as it names them: its source event, and its
    /// destination (else the node it ended on with a path, else its path's last node).
    pub fn ends(&self) -> (Option<crate::space::NodeId>, Option<crate::space::NodeId>) {
        use crate::trace::{EventKind, NONE};
        let first = |k: EventKind| {
            self.events
                .iter()
                .find(|e| e.kind == k && e.node != NONE)
                .map(|e| e.node)
        };
        let last_path = self
            .events
            .iter()
            .rev()
            .find(|e| e.kind == EventKind::PathNode && e.node != NONE)
            .map(|e| e.node);
        let goal = first(EventKind::Destination)
            .or_else(|| first(EventKind::Found))
            .or(last_path);
        (first(EventKind::Source), goal)
    }
}

impl PartialEq for AlgoChoice {
    fn eq(&self, o: &Self) -> bool {
        // One registry entry each: the same entry is the same algorithm.
        std::ptr::eq(self.info, o.info)
            && self.values == o.values
            && match (&self.trace, &o.trace) {
                (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
                (a, b) => a.is_none() && b.is_none(),
            }
    }
}

impl AlgoChoice {
    /// The registered algorithm `name` with its defaults (A* if the name is unknown).
    pub fn named(name: &str) -> AlgoChoice {
        let info = crate::algorithms::find(name).unwrap_or(&crate::algorithms::all()[0]);
        let values = info
            .params
            .iter()
            .map(|p| (p.name.to_string(), p.default))
            .collect();
        AlgoChoice {
            info,
            values,
            trace: None,
        }
    }

    /// A view playing back a trace read from a file.
    pub fn trace(file: TraceFile) -> AlgoChoice {
        AlgoChoice {
            info: &registry::TRACE,
            values: BTreeMap::new(),
            trace: Some(std::sync::Arc::new(file)),
        }
    }

    /// The algorithm a spec like `weighted-astar:weight=2` names, with its parameters checked.
    pub fn from_spec(spec: &str) -> Result<AlgoChoice, String> {
        let (info, params) = crate::algorithms::parse_spec(spec)?;
        Ok(AlgoChoice {
            info,
            values: params.values().clone(),
            trace: None,
        })
    }

    /// `name:key=value,...`, as the CLI and run files spell it.
    pub fn spec(&self) -> String {
        let non_default: Vec<String> = self
            .info
            .params
            .iter()
            .filter(|p| self.values.get(p.name) != Some(&p.default))
            .map(|p| format!("{}={}", p.name, self.values[p.name]))
            .collect();
        if non_default.is_empty() {
            self.info.name.to_string()
        } else {
            format!("{}:{}", self.info.name, non_default.join(","))
        }
    }

    /// Title for a view: the algorithm and its non-default settings.
    pub fn label(&self) -> String {
        if let Some(t) = &self.trace {
            return format!("Trace: {}", t.name);
        }
        let s = self.spec();
        match s.split_once(':') {
            Some((_, rest)) => format!("{} ({rest})", self.info.title),
            None => self.info.title.to_string(),
        }
    }

    pub(in crate::app) fn build(&self, space: &AnySpace, q: Query) -> Result<AnySearch, String> {
        if let Some(t) = &self.trace {
            // Its node ids name the nodes of the world it was read onto, and no other's.
            let square = (space.kind() == crate::space::SpaceKind::Square)
                .then(|| (space.width(), space.height()));
            if space.num_nodes() != t.target.nodes || square != t.target.square {
                return Err(format!(
                    "the trace {} was read onto another world: open it again on this one",
                    t.name
                ));
            }
            let r = crate::search::replay::Replay::new(t.events.clone());
            return Ok(AnySearch::replay(space, r));
        }
        let params = Params::resolve(self.info.params, &self.values)?;
        crate::app::prepared::build(self.info, &params, space, q)
    }
}

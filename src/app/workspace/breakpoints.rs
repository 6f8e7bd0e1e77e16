//! Breakpoints: where playing stops by itself (a node expanded, f falling, the open list
//! growing past a size, a new phase), read from a run's recorded series.

use crate::app::run::Run;
use crate::space::NodeId;

/// Where playing stops by itself.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Breakpoints {
    /// Stop when this node is expanded.
    pub node: Option<NodeId>,
    /// Stop when the expanded node's f is below the previous one's (a consistent heuristic never
    /// does this).
    pub f_decrease: bool,
    /// Stop when the open list holds more than this many nodes.
    pub open_over: Option<u64>,
    /// Stop at the first step of each new phase (a search that runs in phases: ARA*'s passes,
    /// a hierarchy's connect, search and refine).
    pub phase: bool,
}

impl Run {
    /// The first step in (from, to] where a breakpoint fires, if any.
    pub fn first_break(&self, from: usize, to: usize, bp: &Breakpoints) -> Option<(usize, String)> {
        for s in from + 1..=to.min(self.steps()) {
            let i = s - 1;
            if bp.node == Some(self.series.node[i]) {
                return Some((s, "breakpoint node expanded".into()));
            }
            if bp.f_decrease && i > 0 && self.series.f[i] < self.series.f[i - 1] - 1e-4 {
                return Some((
                    s,
                    format!(
                        "f decreased: {:.3} -> {:.3}",
                        self.series.f[i - 1],
                        self.series.f[i]
                    ),
                ));
            }
            if bp.phase && i > 0 && self.series.phases.iter().any(|p| p.0 == i) {
                let p = self.series.phase_of(i).unwrap_or(0);
                return Some((s, format!("{} begins", self.phase_name(p))));
            }
            if let Some(n) = bp.open_over {
                if self.series.open[i] as u64 > n {
                    return Some((s, format!("open list grew past {n}")));
                }
            }
        }
        None
    }
}

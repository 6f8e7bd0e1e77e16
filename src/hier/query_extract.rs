//! Phases 2 and 3 of a hierarchical query: the base nodes of every edge on the graph path,
//! joined (and smoothed where the base space smooths), then the temporary vertices removed.

use super::{HierQuery, Link, Via};
use crate::hier::graph_search::DIRECT;
use crate::hier::local::HierBase;
use crate::search::Status;
use crate::space::NodeId;
use crate::trace::{Event, EventKind, Tracer, NONE};

impl HierQuery {
    /// A temporary edge's base nodes, from its endpoint to its crossing's side, appended to
    /// `path` (each node once where two pieces meet); backwards (crossing to endpoint) when
    /// `reversed`.
    fn push_link(&self, link: &Link, reversed: bool, path: &mut Vec<NodeId>) {
        match &link.via {
            Via::Own(p) if reversed => push(p.iter().rev().copied(), path),
            Via::Own(p) => push(p.iter().copied(), path),
            Via::Table(i) => {
                let table = self.pccp.as_ref().expect("a table link has its table");
                let nodes = table.path_iter(&table.entries[*i as usize]);
                if reversed {
                    // The table's paths are linked forwards: read, then turned.
                    let at = path.len();
                    path.extend(nodes);
                    path[at..].reverse();
                    if at > 0 && path.len() > at && path[at] == path[at - 1] {
                        path.remove(at);
                    }
                } else {
                    push(nodes, path);
                }
            }
        }
    }

    /// Phase 2: the base nodes of every edge on the graph path, joined.
    pub(super) fn extract<S: HierBase, T: Tracer>(&mut self, space: &S, tracer: &mut T) {
        let (s, goal) = (self.temp(0), self.temp(1));
        // The vertices from the goal's temporary back to the start's.
        let mut chain = vec![goal];
        while *chain.last().expect("not empty") != s {
            chain.push(self.search.parent(*chain.last().expect("not empty")));
        }
        chain.reverse();
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        for w in chain.windows(2) {
            let (from, to) = (w[0], w[1]);
            let arc = self.search.arc(to);
            if arc == DIRECT {
                let d = self.direct.as_ref().expect("the direct link exists");
                self.push_link(d, false, &mut path);
            } else if from == s {
                self.push_link(&self.links[0][arc as usize], false, &mut path);
            } else if to == goal {
                self.push_link(&self.links[1][arc as usize], true, &mut path);
            } else {
                let e = &self.graph.intra.edges[arc as usize];
                push(self.graph.intra.path(e).iter().copied(), &mut path);
            }
        }
        if let Some(smoothed) = self.smoothing.and_then(|r| space.smooth(&path, r)) {
            path = smoothed;
            self.cost = crate::search::path_cost(space, &path).unwrap_or(self.cost);
        }
        if T::ENABLED {
            crate::search::trace_path(space, &path, tracer);
        }
        self.path = path;
        self.phase = 3;
        if T::ENABLED {
            tracer.event(Event::marker(EventKind::Phase, 3));
        }
    }

    /// Phase 3: the temporaries go; the graph is as it was.
    pub(super) fn clean_up<T: Tracer>(&mut self, tracer: &mut T) {
        for l in &self.links[1] {
            self.goal_link[l.vertex as usize] = NONE;
        }
        if T::ENABLED {
            tracer.event(Event::new(
                EventKind::Found,
                self.ends[1],
                NONE,
                self.cost,
                0.0,
            ));
        }
        self.status = Status::Found;
    }
}

/// Appends `nodes` to `path`, each node once where two pieces meet.
fn push(nodes: impl Iterator<Item = NodeId>, path: &mut Vec<NodeId>) {
    for n in nodes {
        if path.last() != Some(&n) {
            path.push(n);
        }
    }
}

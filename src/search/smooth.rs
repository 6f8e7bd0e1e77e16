//! Post-hoc smoothing ("rubber banding", Yu & Novitch 2020 §2.7): from the goal back to the
//! start, each kept node is joined to the earliest node of the path it can see, and the nodes
//! between are dropped. Works on any path of a space with line of sight; the checks it makes
//! are counted.

use crate::space::{NodeId, Space};

/// The path with its redundant visible nodes removed, and the line-of-sight checks made. A
/// path on a space without line of sight comes back whole.
pub fn rubber_band<S: Space>(space: &S, path: &[NodeId]) -> (Vec<NodeId>, u64) {
    let Some(&last) = path.last() else {
        return (vec![], 0);
    };
    let mut out = vec![last];
    let mut checks = 0;
    let mut cur = path.len() - 1;
    while cur > 0 {
        // The earliest node the current one sees; its predecessor on the path always qualifies
        // (an edge), so the loop ends.
        let mut next = cur - 1;
        for i in 0..cur - 1 {
            checks += 1;
            if space.line_of_sight(path[i], path[cur]) == Some(true) {
                next = i;
                break;
            }
        }
        out.push(path[next]);
        cur = next;
    }
    out.reverse();
    (out, checks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::{Connectivity, GridSpace, TerrainRule};

    fn octile(rows: &[&str]) -> GridSpace {
        GridSpace::from_rows(rows, Connectivity::Eight, TerrainRule::Class)
    }

    #[test]
    fn a_staircase_becomes_a_segment_and_a_corner_stays() {
        // An L-shaped corridor: the path from the top-left to the bottom-right must turn once.
        let sp = octile(&["....", "@@@.", "@@@.", "@@@."]);
        let n = |x, y| sp.node(x, y).unwrap();
        let path = [
            n(0, 0),
            n(1, 0),
            n(2, 0),
            n(3, 0),
            n(3, 1),
            n(3, 2),
            n(3, 3),
        ];
        let (out, checks) = rubber_band(&sp, &path);
        assert_eq!(out, vec![n(0, 0), n(3, 0), n(3, 3)]);
        assert!(checks > 0);
        // On an open map the whole path is one segment.
        let open = octile(&["....", "....", "...."]);
        let m = |x, y| open.node(x, y).unwrap();
        let (out, _) = rubber_band(&open, &[m(0, 0), m(1, 1), m(2, 1), m(3, 2)]);
        assert_eq!(out, vec![m(0, 0), m(3, 2)]);
    }
}

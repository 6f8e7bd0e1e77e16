//! The gallery of teaching maps shipped in `maps/` (File ▸ Examples), embedded so they open
//! from anywhere: each a project with its start, goal and the views that show its point.

/// One example: its file name in `maps/`, a title for the menu, what it shows, and its text.
pub struct Example {
    pub file: &'static str,
    pub title: &'static str,
    pub shows: &'static str,
    pub text: &'static str,
}

/// The built-in map first, then the teaching maps.
pub const EXAMPLES: &[Example] = &[
    Example {
        file: "default.map",
        title: "The built-in map",
        shows: "a wall with one gap, a U-shaped trap, swamp, trees and water",
        text: crate::builtin::DEFAULT_MAP,
    },
    Example {
        file: "flood-vs-aim.ron",
        title: "Dijkstra floods, A* aims",
        shows:
            "an open field with one wall: Dijkstra beside A*, the same cost, far fewer expansions",
        text: include_str!("../maps/flood-vs-aim.ron"),
    },
    Example {
        file: "any-angle.ron",
        title: "Grid paths zig-zag",
        shows: "pillars in a room: A*'s 8-direction path beside Theta*'s straight segments",
        text: include_str!("../maps/any-angle.ron"),
    },
    Example {
        file: "terrain.ron",
        title: "Terrain costs",
        shows: "a wide swamp at five times the cost of ground between start and goal, trees and \
                water: A* weighs the detour against the mud",
        text: include_str!("../maps/terrain.ron"),
    },
    Example {
        file: "maze.ron",
        title: "A maze",
        shows:
            "one-cell corridors: breadth-first search beside A*, where the heuristic helps little",
        text: include_str!("../maps/maze.ron"),
    },
    Example {
        file: "rooms.ron",
        title: "Rooms and doors",
        shows:
            "three-cell doors between six rooms: A* beside greedy best-first, fast and not optimal",
        text: include_str!("../maps/rooms.ron"),
    },
];

/// The example as an opened world (parsed as its file would be).
pub fn open(e: &Example) -> Result<crate::open::Opened, crate::map::io::IoError> {
    use crate::map::io::parse_map;
    use crate::open::{project_world, Opened};
    let path = std::path::Path::new("maps").join(e.file);
    let mut opened = if e.file.ends_with(".ron") {
        project_world(e.text, &path)?
    } else {
        let grid = parse_map(e.text, &path)?;
        let (_, start, goal) = crate::builtin::default_world();
        Opened {
            grid,
            start: Some(start),
            goal: Some(goal),
            problems: vec![],
            path: None,
            algorithms: vec![],
            rules: None,
            world: crate::world::Family::Square,
            data: None,
        }
    };
    // Saving an example asks where: the shipped file is not the user's.
    opened.path = None;
    Ok(opened)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{registry, Query, Status};
    use crate::space::GridSpace;

    /// Every example opens, its start and goal are joined, and each of its views runs to a
    /// path whose cost is Dijkstra's for the optimal algorithms.
    #[test]
    fn every_example_opens_and_is_solvable() {
        for e in EXAMPLES {
            let o = open(e).unwrap_or_else(|err| panic!("{}: {err}", e.file));
            let sp = GridSpace::new(&o.grid, Default::default(), Default::default());
            let (s, g) = (o.start.unwrap(), o.goal.unwrap());
            let q = Query {
                start: sp.node(s.0, s.1).unwrap(),
                goal: sp.node(g.0, g.1).unwrap(),
            };
            let mut d = crate::algorithms::build("dijkstra", &sp, q).unwrap();
            assert_eq!(d.run_null(&sp), Status::Found, "{}", e.file);
            let best = d.cost().unwrap();
            for a in &o.algorithms {
                let mut s = crate::algorithms::build(&a.name, &sp, q).unwrap();
                assert_eq!(s.run_null(&sp), Status::Found, "{}", e.file);
                let info = crate::algorithms::find(&a.name).unwrap();
                if matches!(info.guarantee, registry::Guarantee::Optimal) {
                    assert!(
                        (s.cost().unwrap() - best).abs() < 1e-9,
                        "{} {}",
                        e.file,
                        a.name
                    );
                }
            }
            assert!(o.path.is_none());
        }
        assert_eq!(EXAMPLES.len(), 6);
    }
}

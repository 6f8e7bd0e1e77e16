//! Guided lessons: short walks through the app for a class, each a RON file in
//! `assets/lessons/` (embedded in the binary). A lesson is a title and steps; a step is a
//! text, a setup (what the app is set to when the step begins: a map, views and algorithms,
//! endpoints, a step of the timeline, a tool), a control to point at, and a condition to go on
//! (the student stepped far enough, ran the search to its end, moved the goal, drew a wall…).
//! The app plays them (Help ▸ Lessons); the tests play every one through its conditions.

use serde::Deserialize;

/// One thing a step sets up, in the order written.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub enum Do {
    /// A map of File ▸ Examples, by its file name (`flood-vs-aim.ron`; `default.map` is the
    /// built-in map).
    Example(String),
    /// Krafft 2019's moving 3D scene (voxels).
    Scene3d,
    /// The map as another world: `hex` (with the hex size), `navmesh`, `vehicle`.
    World(String, f64),
    /// One view per algorithm spec, in order (the views shown before are replaced).
    Views(Vec<String>),
    /// A parameter of view `.0`'s algorithm.
    Param(usize, String, f64),
    /// Start and goal cells (snapped to the nearest passable one).
    Start(u32, u32),
    Goal(u32, u32),
    /// The shared cursor at this step (0: before the first expansion).
    GoTo(usize),
    /// Every run to its end.
    ToEnd,
    /// Walls on these cells.
    Walls(Vec<(u32, u32)>),
    /// The tool: select, brush, erase, rectangle, fill.
    Tool(String),
    /// Views of the GPS of the brain at these knowledge levels (%), on a hex world.
    Knowledge(Vec<u32>),
    /// Colour cells by which of two views expanded them.
    Diff(bool),
    /// Flies the agent through the moving 3D scene and shows it at `t` seconds.
    FlyTo(f32),
}

/// What lets the student go on.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub enum Until {
    /// Pressing Next.
    #[default]
    Next,
    /// The cursor at this step or later.
    StepAtLeast(usize),
    /// Every run at its end.
    Finished,
    /// The goal moved from where the step put it.
    GoalMoved,
    /// The start moved.
    StartMoved,
    /// A cell of the map changed (a wall drawn, terrain painted).
    MapEdited,
    /// At least this many views.
    Views(usize),
    /// View `.0`'s algorithm parameter `.1` at `.2` or more.
    ParamAtLeast(usize, String, f64),
}

/// One step of a lesson.
#[derive(Clone, Debug, Deserialize)]
pub struct Step {
    pub text: String,
    #[serde(default)]
    pub setup: Vec<Do>,
    /// A control to point at: `step`, `end`, `play`, `slider`, `algorithm`, `compare`,
    /// `params`, `brush`, `statistics`.
    #[serde(default)]
    pub highlight: Option<String>,
    #[serde(default)]
    pub until: Until,
    /// What to do, shown while the condition is unmet.
    #[serde(default)]
    pub hint: String,
}

/// A lesson.
#[derive(Clone, Debug, Deserialize)]
pub struct Lesson {
    pub title: String,
    /// One line for the list.
    pub summary: String,
    pub steps: Vec<Step>,
}

/// The controls a step may point at.
pub const CONTROLS: [&str; 9] = [
    "step",
    "end",
    "play",
    "slider",
    "algorithm",
    "compare",
    "params",
    "brush",
    "statistics",
];

/// The lessons shipped, in teaching order: file name and text.
pub const FILES: &[(&str, &str)] = &[
    (
        "1-flood-and-aim.ron",
        include_str!("../assets/lessons/1-flood-and-aim.ron"),
    ),
    (
        "2-heuristic-weight.ron",
        include_str!("../assets/lessons/2-heuristic-weight.ron"),
    ),
    (
        "3-terrain.ron",
        include_str!("../assets/lessons/3-terrain.ron"),
    ),
    (
        "4-any-angle.ron",
        include_str!("../assets/lessons/4-any-angle.ron"),
    ),
    (
        "5-repair.ron",
        include_str!("../assets/lessons/5-repair.ron"),
    ),
    (
        "6-hexes-and-gps.ron",
        include_str!("../assets/lessons/6-hexes-and-gps.ron"),
    ),
    (
        "7-voxels.ron",
        include_str!("../assets/lessons/7-voxels.ron"),
    ),
    (
        "8-hierarchies.ron",
        include_str!("../assets/lessons/8-hierarchies.ron"),
    ),
];

/// Reads one lesson's text; an error names the file and line.
pub fn parse(name: &str, text: &str) -> Result<Lesson, String> {
    let lesson: Lesson = ron::from_str(text)
        .map_err(|e| format!("assets/lessons/{name}:{}: {}", e.span.start.line, e.code))?;
    if lesson.steps.is_empty() {
        return Err(format!("assets/lessons/{name}: a lesson needs a step"));
    }
    for (i, s) in lesson.steps.iter().enumerate() {
        if let Some(h) = &s.highlight {
            if !CONTROLS.contains(&h.as_str()) {
                return Err(format!(
                    "assets/lessons/{name}: step {} points at `{h}`, not one of {}",
                    i + 1,
                    CONTROLS.join(", ")
                ));
            }
        }
    }
    Ok(lesson)
}

/// Every shipped lesson (they are checked by the tests, so this never fails in a release).
pub fn all() -> Vec<Lesson> {
    FILES
        .iter()
        .filter_map(|(name, text)| parse(name, text).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_lesson_parses_with_known_controls_and_examples() {
        assert!(FILES.len() >= 8);
        for (name, text) in FILES {
            let lesson = parse(name, text).unwrap_or_else(|e| panic!("{e}"));
            for s in &lesson.steps {
                assert!(!s.text.trim().is_empty(), "{name}: a step without text");
                for d in &s.setup {
                    if let Do::Example(f) = d {
                        assert!(
                            crate::examples::EXAMPLES.iter().any(|e| e.file == f),
                            "{name}: no example {f}"
                        );
                    }
                    if let Do::Views(v) = d {
                        for spec in v {
                            crate::algorithms::parse_spec(spec)
                                .unwrap_or_else(|e| panic!("{name}: {e}"));
                        }
                    }
                }
                if s.until != Until::Next {
                    assert!(!s.hint.is_empty(), "{name}: a condition without a hint");
                }
            }
        }
        assert_eq!(all().len(), FILES.len());
    }

    /// Where views stand depends on the map's shape and the window's (a wide map stacks them,
    /// a tall one puts them side by side): a text names a view by its number or algorithm,
    /// never by a side. A key may still be "Right", a level of a hierarchy "above" the mesh.
    #[test]
    fn no_lesson_places_a_view_on_a_side() {
        let sides = ["left", "right", "top", "bottom"];
        let beside_a_view = ["above", "below", "upper", "lower"];
        for (name, text) in FILES {
            let lesson = parse(name, text).unwrap();
            for (k, s) in lesson.steps.iter().enumerate() {
                let all = format!("{} {}", s.text, s.hint).to_lowercase();
                // "right-click" stays one word here.
                let words: Vec<&str> = all
                    .split(|c: char| !c.is_alphanumeric() && c != '-')
                    .filter(|w| !w.is_empty())
                    .collect();
                for (j, w) in words.iter().enumerate() {
                    let w = w.trim_end_matches("-hand");
                    let (before, after) = (
                        j.checked_sub(1).map_or("", |b| words[b]),
                        words.get(j + 1).copied().unwrap_or(""),
                    );
                    let key = w == "right" && after == "key";
                    let of_a_view = before.starts_with("view") || after.starts_with("view");
                    assert!(
                        !(sides.contains(&w) && !key || beside_a_view.contains(&w) && of_a_view),
                        "{name}, step {}: \"{w}\" in {all:?}",
                        k + 1
                    );
                }
            }
        }
    }

    #[test]
    fn a_bad_lesson_names_its_file_and_line() {
        let e = parse(
            "x.ron",
            "(\n  title: \"t\",\n  summary: 3,\n  steps: [],\n)",
        )
        .unwrap_err();
        assert!(e.starts_with("assets/lessons/x.ron:3:"), "{e}");
        let e = parse(
            "y.ron",
            "(title: \"t\", summary: \"s\", steps: [(text: \"a\", highlight: Some(\"nowhere\"))])",
        )
        .unwrap_err();
        assert!(e.contains("nowhere"), "{e}");
    }
}

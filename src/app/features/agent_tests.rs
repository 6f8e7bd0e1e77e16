//! The agents' tests: outings on flipping maps, stopping, replayed tapes, any-angle walks.
use super::*;
use crate::app::{AlgoChoice, Command, Options};

/// Agents sent out while 30% of the blocks flip every 3 ticks (at the app's tick rate).
fn send_agents_on_flips(app: &mut PathlabApp) {
    let ticks_per_sec = app.sim().ticks_per_sec;
    app.apply(Command::Agents(AgentCommand::Settings {
        ticks_per_sec,
        every: 3,
        percent: 30.0,
    }));
    app.apply(Command::Agents(AgentCommand::Start(false)));
}

fn app() -> PathlabApp {
    PathlabApp::new(Options {
        recovery_file: Some(
            std::env::temp_dir().join(format!("pathlab-agent-test-{}.ron", std::process::id())),
        ),
        ..Options::default()
    })
}

/// Agents of D* Lite, A* and RTD* cross the built-in map while blocks flip; every replan of
/// D* Lite agrees with A* from scratch, all arrive, and stopping restores the map.
#[test]
fn agents_cross_a_flipping_map_and_the_map_comes_back() {
    let mut app = app();
    app.set_algorithm(0, AlgoChoice::named("dstar-lite"));
    app.add_view(AlgoChoice::named("astar"));
    app.add_view(AlgoChoice::named("rtd-star"));
    let before = app.doc().grid.clone();
    send_agents_on_flips(&mut app);
    let mut replans = 0;
    for _ in 0..2000 {
        app.agent_tick();
        if let Some(o) = &app.views()[0].run.oracle {
            assert!(o.agrees(), "{}", o.text());
        }
        replans = app.sim().agents[0].recompute_ms.len();
        if app.sim().agents.iter().all(|a| a.arrived) {
            break;
        }
    }
    assert!(
        app.sim().agents.iter().all(|a| a.arrived),
        "{}",
        app.sim().summary()
    );
    assert!(replans > 0, "the world changed on the way");
    assert_eq!(
        app.sim().agents[1].recompute_ms.len(),
        replans,
        "A* replanned at every change too"
    );
    assert!(!app.sim().agents[2].recompute_ms.is_empty(), "and RTD*");
    assert!(
        app.views()[0].run.repaired,
        "D* Lite repaired instead of restarting"
    );
    for a in &app.sim().agents {
        assert!(a
            .trail
            .windows(2)
            .all(|w| { w[0].0.abs_diff(w[1].0) <= 1 && w[0].1.abs_diff(w[1].1) <= 1 }));
    }
    app.agents_stop();
    assert_eq!(app.doc().grid, before);
    assert!(app
        .sim()
        .last_tape
        .as_ref()
        .is_some_and(|t| !t.events.is_empty()));
}

/// A Theta* agent walks its straight segments one move a tick, as a grid path's agent
/// does (it once jumped a whole segment per tick and crossed the map in three).
#[test]
fn any_angle_agents_walk_their_segments_a_move_a_tick() {
    let mut app = app();
    app.set_algorithm(0, AlgoChoice::named("theta-star"));
    app.apply(Command::Agents(AgentCommand::Flips(false)));
    app.agents_start(false);
    let (s, g) = (app.doc().start, app.doc().goal);
    let mut ticks = 0;
    while !app.sim().agents[0].arrived && ticks < 1000 {
        app.agent_tick();
        ticks += 1;
    }
    let a = &app.sim().agents[0];
    assert!(a.arrived);
    let far = s.0.abs_diff(g.0).max(s.1.abs_diff(g.1)) as usize;
    assert!(ticks >= far, "{ticks} ticks for {far} columns");
    assert!(a
        .trail
        .windows(2)
        .all(|w| w[0] != w[1] && w[0].0.abs_diff(w[1].0) <= 1 && w[0].1.abs_diff(w[1].1) <= 1));
    // Every cell walked is free: the straight line stays in the open.
    assert!(a.trail.iter().all(|&(x, y)| app
        .work
        .doc
        .grid
        .get(x, y)
        .is_some_and(|c| c.tile != b'@')));
    assert!(next_cell((0, 0), (0, 0), (6, 3), true) == (1, 1));
    assert!(next_cell((5, 3), (0, 0), (6, 3), true) == (6, 3));
    assert!(next_cell((0, 0), (0, 0), (6, 3), false) == (6, 3));
}

/// Stopping undoes only the world's changes: an undo of an edit made before the outing, an
/// edit made during it, and an edit over a cell the world had changed all stay.
#[test]
fn stopping_keeps_the_users_edits_and_undos() {
    use crate::map::Edit;
    let mut app = app();
    let free: Vec<(u32, u32)> = (0..app.doc().grid.height())
        .flat_map(|y| (0..app.doc().grid.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            app.doc().grid.get(x, y) == Some(Cell::FREE)
                && (x, y) != app.doc().start
                && (x, y) != app.doc().goal
        })
        .collect();
    let (a, b) = (free[0], free[free.len() / 2]);
    let wall_at = |(x, y): (u32, u32)| Edit::SetCell {
        x,
        y,
        cell: Cell::WALL,
    };
    app.edit(wall_at(a));
    let mut expected = app.doc().grid.clone();
    send_agents_on_flips(&mut app);
    for _ in 0..12 {
        app.agent_tick();
    }
    assert!(!app.sim().world_owned.is_empty(), "the world changed cells");
    assert_ne!(app.doc().grid, expected);
    // Undo the edit made before the outing, paint a new wall, and repaint a cell the world
    // changed.
    app.undo();
    expected.set(a.0, a.1, Cell::FREE);
    app.edit(wall_at(b));
    expected.set(b.0, b.1, Cell::WALL);
    let w = app.doc().grid.width() as usize;
    let i = *app.sim().world_owned.iter().min().expect("a world cell");
    let c = ((i % w) as u32, (i / w) as u32);
    // Swamp: neither what the world made of the cell nor what it was before.
    let mine = Cell {
        tile: b'S',
        cost: 1.0,
    };
    assert_ne!(expected.get(c.0, c.1), Some(mine));
    app.edit(Edit::SetCell {
        x: c.0,
        y: c.1,
        cell: mine,
    });
    expected.set(c.0, c.1, mine);
    // Saves and the recovery file see the user's map, not the world's.
    assert_eq!(*app.user_grid(), expected);
    app.agents_stop();
    assert_eq!(app.doc().grid, expected);
    // The undo history still matches the map.
    app.undo();
    app.undo();
    assert_eq!(app.doc().grid.get(b.0, b.1), Some(Cell::FREE));
}

/// A replayed tape makes the same changes at the same ticks.
#[test]
fn a_replayed_tape_gives_the_same_outing() {
    let mut app = app();
    send_agents_on_flips(&mut app);
    for _ in 0..30 {
        app.agent_tick();
    }
    let first = app.doc().grid.clone();
    let trail = app.sim().agents[0].trail.clone();
    app.agents_stop();
    app.agents_start(true);
    for _ in 0..30 {
        app.agent_tick();
    }
    assert_eq!(app.doc().grid, first);
    assert_eq!(app.sim().agents[0].trail, trail);
    // Through a file, in another session.
    app.agents_stop();
    let p = std::env::temp_dir().join(format!("pathlab-tape-app-{}.ron", std::process::id()));
    app.save_tape(&p);
    let mut other = super::tests::app();
    other.open_tape(&p);
    assert!(other.status().starts_with("Loaded"), "{}", other.status());
    other.agents_start(true);
    for _ in 0..30 {
        other.agent_tick();
    }
    assert_eq!(other.doc().grid, first);
    assert_eq!(other.sim().agents[0].trail, trail);
    std::fs::remove_file(&p).ok();
}

/// A JPS+ agent crosses a flipping map: after every change it plans on the table the change
/// patched (of the world's revision, never one it rebuilt for itself), each plan as long as A*'s
/// from the same cell, and it arrives.
#[test]
fn a_jps_plus_agent_replans_on_the_patched_table() {
    let mut app = app();
    app.set_algorithm(0, AlgoChoice::named("jps-plus"));
    send_agents_on_flips(&mut app);
    let astar = crate::algorithms::find("astar").unwrap();
    let params = crate::search::params::Params::default();
    let mut checked = 0;
    for _ in 0..2000 {
        app.agent_tick();
        let run = &app.views()[0].run;
        if run.finished() {
            assert_eq!(run.prepared_revision(), Some(app.space().revision()));
            let mut a =
                crate::world::AnySearch::build(astar, &params, app.space(), run.query).unwrap();
            a.run_null(app.space());
            let (want, got) = (a.state().cost(), run.cost());
            match (want, got) {
                (Some(w), Some(g)) => assert!((w - g).abs() < 1e-6, "{g} vs A*'s {w}"),
                (w, g) => assert_eq!(w.is_some(), g.is_some(), "{g:?} vs A*'s {w:?}"),
            }
            checked += 1;
        }
        if app.sim().agents[0].arrived {
            break;
        }
    }
    assert!(app.sim().agents[0].arrived, "{}", app.sim().summary());
    assert!(
        !app.sim().agents[0].recompute_ms.is_empty(),
        "the world changed on the way"
    );
    assert!(checked > 10);
    // The entry of this world's revision (other tests' worlds share the process's cache).
    let info = crate::app::prepared::infos(&["jps-plus"], app.space().revision());
    assert!(
        matches!(
            info.last().map(|i| &i.freshness),
            Some(crate::search::prepared::Freshness::Patched(_))
        ),
        "{info:?}"
    );
}

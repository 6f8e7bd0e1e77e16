//! `pathlab` with no arguments opens the app; with a subcommand it runs the CLI.

mod cli;

use clap::Parser;

fn main() {
    // Bad input must end in one clear line, never a backtrace; a panic here is a bug, and it
    // still gets one line.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("pathlab: internal error: {info}");
    }));
    let args = cli::Args::parse();
    // A command's outputs, and the app's screenshot, never replace a file the run read (the
    // app's own Save may: saving over the opened file is what it is for).
    if args.command.is_some() || args.app.screenshot.is_some() {
        pathlab::map::io::guard_inputs();
    }
    let code = match args.command {
        None => match args.app.refusal() {
            Some(why) => {
                eprintln!("pathlab: {why}");
                2
            }
            None => run_app(args.app),
        },
        Some(cmd) => match cli::run(cmd) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("pathlab: {}", printable(&format!("{e:#}")));
                2
            }
        },
    };
    std::process::exit(code);
}

#[cfg(feature = "gui")]
fn run_app(a: cli::AppArgs) -> i32 {
    let opts = pathlab::app::Options {
        file: a.file,
        screenshot: a.screenshot,
        svg: a.svg,
        frames: a.frames,
        at_step: a.at_step,
        algo: a.algo,
        beside: a.beside,
        traces: a.trace,
        lesson: a.lesson.map(|n| n as usize),
        scene3d: a.scene3d,
        compare_knowledge: a.compare_knowledge.map(|l| l.0),
        fly_to: a.fly_to,
        frame_log: a.frame_log,
        scrub_test: a.scrub_test,
        crowd: (!a.crowd.is_empty()).then_some((a.crowd, a.crowd_agents)),
        vehicle: a.vehicle,
        windows: a.windows,
        ..Default::default()
    };
    match pathlab::app::run(opts) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("pathlab: {}", printable(&e));
            2
        }
    }
}

#[cfg(not(feature = "gui"))]
fn run_app(_: cli::AppArgs) -> i32 {
    eprintln!(
        "pathlab: this build has no GUI (built without the `gui` feature); see `pathlab --help`"
    );
    2
}

/// An error line as a terminal can show it: control characters from a file's bytes (an escape
/// sequence, a carriage return, a second line) written as escapes, so the message stays one
/// line and cannot restyle or rewrite the terminal.
fn printable(s: &str) -> String {
    s.chars()
        .flat_map(|c| -> Box<dyn Iterator<Item = char>> {
            if c.is_control() {
                Box::new(c.escape_default())
            } else {
                Box::new(std::iter::once(c))
            }
        })
        .collect()
}

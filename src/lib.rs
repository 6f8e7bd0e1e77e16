//! pathlab's core: worlds, search spaces, steppable searches with recorded traces, and file
//! formats. Nothing here needs a display or a GPU; the app (`app`, behind the `gui` feature)
//! and the CLI sit on top.

pub mod algorithms;
#[cfg(feature = "gui")]
pub mod app;
pub mod bits;
pub mod builtin;
pub mod car;
pub mod crowd;
pub mod examples;
pub mod experiment;
#[doc(hidden)]
pub mod fuzz_checks;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod hier;
pub mod huge_pages;
pub mod lessons;
pub mod limits;
pub mod map;
pub mod open;
pub mod project;
pub mod search;
pub mod space;
pub mod trace;
pub mod vehicle;
pub mod world;

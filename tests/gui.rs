//! The app's suites (kittest), one module a file, all in one test binary: one link instead of
//! one a file, and their tests share the machine's threads instead of waiting binary after
//! binary. `cargo test --release --test gui app_views::` runs one file's tests.

mod common;
mod support;

mod app;
mod app_crowd;
mod app_dynamic;
mod app_experiment;
mod app_gps;
mod app_hex;
mod app_hostile;
mod app_jps;
mod app_lesson_claims;
mod app_lessons;
mod app_map_stats;
mod app_navmesh;
mod app_newcomer;
mod app_parts;
mod app_scene3d;
mod app_settle;
mod app_theta;
mod app_trace;
mod app_trace_world;
mod app_vehicle;
mod app_views;
mod app_voxel;
mod app_web_files;

//! The library's and the command line's suites, one module a file, all in one test binary: one
//! link instead of one a file, and their tests share the machine's threads instead of waiting
//! binary after binary. `cargo test --release --test library movingai::` runs one file's tests.
//! `app_hier_failure` stays a binary of its own (Cargo.toml): it sets an environment variable
//! that every app in its process reads.

mod cli_support;
mod refusal;
mod support;

mod any_angle;
mod bad_args;
mod bad_input;
mod best_first;
mod cli;
mod cli_agents;
mod cli_experiments;
mod crowd;
mod docs_links;
mod dynamic;
mod field_dstar;
mod fuzz_readers;
mod gps;
mod gpu_crowd;
mod hier_build;
mod hier_hpa;
mod hier_partition;
mod hier_query;
mod jps;
mod layers;
mod movingai;
mod navmesh;
mod oracle;
mod posthoc;
mod posthoc_compare_memory;
mod posthoc_export;
mod posthoc_foreign;
mod posthoc_guard;
mod posthoc_in;
mod posthoc_limits;
mod recorder;
mod vehicle;
mod vehicle_lattice;
mod voxel;

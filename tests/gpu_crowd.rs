//! The GPU crowd kernels against their CPU twins, on the adapter wgpu finds (Mesa's lavapipe
//! where there is no GPU, as on CI): every agent's cost and every cell's traffic equal. With no
//! adapter at all the test fails on CI and says why elsewhere.
#![cfg(feature = "gpu")]

use pathlab::crowd::twin::{flow_batch, FixedGrid, INF, SCALE};
use pathlab::crowd::twin_astar::astar_batch;
use pathlab::crowd::Batch;
use pathlab::gpu::astar::{slots_for, AstarKernel};
use pathlab::gpu::flow::FlowKernels;
use pathlab::gpu::Gpu;
use pathlab::map::io::read_map;
use pathlab::space::GridSpace;
use std::path::PathBuf;

fn gpu() -> Option<Gpu> {
    match Gpu::new() {
        Ok(g) => Some(g),
        Err(e) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "no GPU adapter on CI: {e}"
            );
            eprintln!("skipped: {e}");
            None
        }
    }
}

fn mapf_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/benchmarks/mapf/maps")
        .join(name)
}

fn mapf(name: &str) -> GridSpace {
    GridSpace::octile(&read_map(&mapf_path(name)).unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn gpu_flow_fields_equal_their_twin_on_10000_agents_over_three_maps() {
    let Some(gpu) = gpu() else { return };
    eprintln!("adapter: {}", gpu.adapter);
    let kernels = FlowKernels::new(&gpu);
    let mut agents = 0;
    for (name, n, goals) in [
        ("random-64-64-20.map", 4000, 6),
        ("maze-32-32-4.map", 3000, 4),
        ("den312d.map", 3000, 4),
    ] {
        let space = mapf(name);
        let grid = FixedGrid::of(&space);
        let batch = Batch::shared_goals(&space, n, goals, 7).unwrap();
        let twin = flow_batch(&grid, &batch);
        let got = kernels.run(&gpu, &grid, &batch).unwrap();
        assert_eq!(got.result.costs, twin.costs, "{name}: costs");
        assert_eq!(got.result.traffic, twin.traffic, "{name}: traffic");
        assert!(twin.costs.iter().all(|&c| c != INF), "{name}");
        assert!(got.updates.iter().any(|&u| u > 0));
        // The CPU backend's flow fields are the twin's: the same costs and traffic.
        let world = pathlab::crowd::World::new(
            &read_map(&mapf_path(name)).unwrap(),
            &[pathlab::crowd::Method::Flow],
            10,
            2,
            &|_, _| {},
        )
        .unwrap();
        let cpu = pathlab::crowd::plan(&world, &batch, pathlab::crowd::Method::Flow, 0, None)
            .unwrap()
            .unwrap();
        let gpu_costs: Vec<f64> = got.result.costs.iter().map(|&c| c as f64 / SCALE).collect();
        assert_eq!(cpu.costs, gpu_costs, "{name}: CPU backend costs");
        let traffic: Vec<i64> = got.result.traffic.iter().map(|&t| t as i64).collect();
        assert_eq!(cpu.traffic.values, traffic, "{name}: CPU backend traffic");
        // And the twin against the registry's A*, to within the fixed point's rounding.
        let want = pathlab::crowd::cpu::reference_costs(&space, &batch);
        for (c, w) in twin.costs.iter().zip(&want) {
            assert!((*c as f64 / SCALE - w).abs() < w * 1e-5 + 1e-3, "{name}");
        }
        agents += n;
    }
    assert_eq!(agents, 10_000);
}

#[test]
fn gpu_astar_equals_its_twin_on_10000_agents_over_three_maps() {
    let Some(gpu) = gpu() else { return };
    let kernel = AstarKernel::new(&gpu);
    let mut agents = 0;
    for (name, n) in [
        ("random-32-32-20.map", 4000),
        ("maze-32-32-4.map", 3000),
        ("room-64-64-8.map", 3000),
    ] {
        let space = mapf(name);
        let grid = FixedGrid::of(&space);
        let batch = Batch::random(&space, n, 5).unwrap();
        let slots = slots_for(&grid);
        let twin = astar_batch(&grid, &batch, slots);
        let (got, _) = kernel.run(&gpu, &grid, &batch, slots).unwrap();
        assert_eq!(got.status, twin.status, "{name}: statuses");
        assert_eq!(got.costs, twin.costs, "{name}: costs");
        assert_eq!(got.traffic, twin.traffic, "{name}: traffic");
        assert_eq!(got.expanded, twin.expanded, "{name}: expansions");
        // Room for every cell: nobody runs out, and the twin is the registry's A* to within
        // the fixed point's rounding.
        assert!(twin.status.iter().all(|&s| s == 0), "{name}");
        let want = pathlab::crowd::cpu::reference_costs(&space, &batch);
        for (c, w) in twin.costs.iter().zip(&want) {
            assert!((*c as f64 / SCALE - w).abs() < w * 1e-5 + 1e-3, "{name}");
        }
        agents += n;
    }
    assert_eq!(agents, 10_000);
}

#[test]
fn gpu_ma_hna_star_with_pccp_equals_its_twin_on_10000_agents_over_three_maps() {
    use pathlab::crowd::twin_hna::{hna_batch, HnaGraph};
    use pathlab::crowd::{plan, Method, World};
    use pathlab::gpu::hna::{HnaKernel, SLOTS};
    let Some(gpu) = gpu() else { return };
    let kernel = HnaKernel::new(&gpu);
    let mut agents = 0;
    for (name, n) in [
        ("den312d.map", 4000),
        ("Berlin_1_256.map", 3000),
        ("room-64-64-8.map", 3000),
    ] {
        let map = read_map(&mapf_path(name)).unwrap();
        let world = World::new(&map, &[Method::Pccp], 10, 2, &|_, _| {}).unwrap();
        let batch = Batch::random(&world.grid, n, 11).unwrap();
        let g = HnaGraph::of(&world).unwrap();
        let twin = hna_batch(&world, &g, &batch, SLOTS);
        let got = kernel
            .run(&gpu, &world, &g, &batch, SLOTS, 0)
            .unwrap()
            .result;
        assert_eq!(got.status, twin.status, "{name}: statuses");
        assert_eq!(got.costs, twin.costs, "{name}: costs");
        assert_eq!(got.traffic, twin.traffic, "{name}: traffic");
        assert_eq!(got.expanded, twin.expanded, "{name}: expansions");
        assert_eq!(got.lengths, twin.lengths, "{name}: lengths");
        // Nobody runs out of memory, and the twin costs what the CPU backend's PCCP query
        // costs, to within the fixed point's rounding.
        assert!(twin.status.iter().all(|&s| s == 0), "{name}");
        let cpu = plan(&world, &batch, Method::Pccp, 0, None)
            .unwrap()
            .unwrap();
        for (k, (c, w)) in twin.costs.iter().zip(&cpu.costs).enumerate() {
            let c = *c as f64 / SCALE;
            assert!(
                (c - w).abs() < w * 1e-5 + 1e-3,
                "{name} agent {k}: {c} against {w}"
            );
        }
        agents += n;
    }
    assert_eq!(agents, 10_000);
}

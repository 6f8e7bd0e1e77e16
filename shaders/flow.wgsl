// Flow fields on the GPU: the integration field by relaxing every cell in parallel until no
// cell's cost drops (its fixed point is the shortest distances, the same numbers the CPU twin
// `crowd::twin::flow_field` finds by Dijkstra), then each cell's step, then every agent of the
// goal walking down it. Costs are fixed point (2^-16 of a unit) in u32, so GPU and CPU agree
// exactly; u32::MAX means "no move" in `edges` and "not reached" in `dist`.

struct Params {
    width: u32,
    cells: u32,
    goal: u32,
    agents: u32,
    // The eight directions' dx and dy, in the order of pathlab's DIRS.
    dx: array<vec4<i32>, 2>,
    dy: array<vec4<i32>, 2>,
}

const INF: u32 = 0xffffffffu;

@group(0) @binding(0) var<uniform> p: Params;
// Eight fixed-point move costs per cell, cell-major.
@group(0) @binding(1) var<storage, read> edges: array<u32>;
@group(0) @binding(2) var<storage, read_write> dist: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> next: array<u32>;
// [0]: set when a relaxation lowered some cell's cost.
@group(0) @binding(4) var<storage, read_write> changed: array<atomic<u32>>;
// The starts of this goal's agents, and where each one's cost goes.
@group(0) @binding(5) var<storage, read> starts: array<u32>;
@group(0) @binding(6) var<storage, read_write> costs: array<u32>;
// Agents crossing each cell, and cost drops on each cell (the work a cell cost).
@group(0) @binding(7) var<storage, read_write> traffic: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read_write> updates: array<atomic<u32>>;

fn neighbour(c: u32, d: u32) -> u32 {
    let dx = p.dx[d / 4u][d % 4u];
    let dy = p.dy[d / 4u][d % 4u];
    return u32(i32(c) + dy * i32(p.width) + dx);
}

fn cell_of(id: vec3<u32>, n: vec3<u32>) -> u32 {
    return id.x + id.y * n.x * 64u;
}

// One round: every cell takes the least of its moves' costs plus the cost where they lead.
@compute @workgroup_size(64)
fn relax(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
    let c = cell_of(id, n);
    if (c >= p.cells) {
        return;
    }
    let old = atomicLoad(&dist[c]);
    var best = old;
    for (var d = 0u; d < 8u; d++) {
        let e = edges[c * 8u + d];
        if (e == INF) {
            continue;
        }
        let dm = atomicLoad(&dist[neighbour(c, d)]);
        if (dm == INF || dm > INF - 1u - e) {
            continue;
        }
        best = min(best, dm + e);
    }
    if (best < old) {
        atomicMin(&dist[c], best);
        atomicStore(&changed[0], 1u);
        atomicAdd(&updates[c], 1u);
    }
}

// Each cell's step: the first direction attaining its least cost.
@compute @workgroup_size(64)
fn direct(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
    let c = cell_of(id, n);
    if (c >= p.cells) {
        return;
    }
    next[c] = INF;
    if (c == p.goal || atomicLoad(&dist[c]) == INF) {
        return;
    }
    var best = INF;
    for (var d = 0u; d < 8u; d++) {
        let e = edges[c * 8u + d];
        if (e == INF) {
            continue;
        }
        let m = neighbour(c, d);
        let dm = atomicLoad(&dist[m]);
        if (dm == INF || dm > INF - 1u - e) {
            continue;
        }
        if (dm + e < best) {
            best = dm + e;
            next[c] = m;
        }
    }
}

// Each agent of the goal walks down the field from its start, counting the cells it crosses.
@compute @workgroup_size(64)
fn follow(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
    let a = cell_of(id, n);
    if (a >= p.agents) {
        return;
    }
    var c = starts[a];
    let cost = atomicLoad(&dist[c]);
    costs[a] = cost;
    if (cost == INF) {
        return;
    }
    // Every step lowers the cost, so no walk is longer than the map has cells.
    for (var k = 0u; k < p.cells; k++) {
        atomicAdd(&traffic[c], 1u);
        if (c == p.goal) {
            return;
        }
        c = next[c];
    }
}

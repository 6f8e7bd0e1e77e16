// Grid A* per agent, one invocation each, in a fixed slice of memory: the GPU side of
// `crowd::twin_astar` (src/crowd/twin_astar.rs), which runs the same operations in the same
// order on the CPU. Costs are fixed point (2^-16 of a unit) in u32; u32::MAX is "none".
//
// Each agent's slice of `scratch` is laid out and used by `bounded.wgsl`, joined to this file.
//
// A dispatch expands at most `budget` nodes per agent and leaves the rest for the next: Mesa's
// llvmpipe ends any invocation's loops after 65,535 iterations in all, which a long search
// passes; the host dispatches again while any agent is still searching.

struct Params {
    width: u32,
    cells: u32,
    // Agents in this wave, and the first agent's index in the batch.
    agents: u32,
    first: u32,
    // A power of two.
    slots: u32,
    straight: u32,
    diagonal: u32,
    // Expansions per agent per dispatch.
    budget: u32,
    dx: array<vec4<i32>, 2>,
    dy: array<vec4<i32>, 2>,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> edges: array<u32>;
// Each agent's start and goal, in pairs, for the whole batch.
@group(0) @binding(2) var<storage, read> ends: array<u32>;
@group(0) @binding(3) var<storage, read_write> scratch: array<u32>;
// Each agent's status (0 found, 1 no path, 2 out of memory) and cost, in pairs.
@group(0) @binding(4) var<storage, read_write> results: array<u32>;
@group(0) @binding(5) var<storage, read_write> traffic: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> expanded: array<atomic<u32>>;
// [0]: agents still searching after this dispatch.
@group(0) @binding(7) var<storage, read_write> pending: array<atomic<u32>>;

fn octile(a: u32, b: u32) -> u32 {
    let ax = a % p.width;
    let ay = a / p.width;
    let bx = b % p.width;
    let by = b / p.width;
    let dx = max(ax, bx) - min(ax, bx);
    let dy = max(ay, by) - min(ay, by);
    let lo = min(dx, dy);
    let hi = max(dx, dy);
    return sat_add((hi - lo) * p.straight, lo * p.diagonal);
}

fn neighbour(c: u32, d: u32) -> u32 {
    let dx = p.dx[d / 4u][d % 4u];
    let dy = p.dy[d / 4u][d % 4u];
    return u32(i32(c) + dy * i32(p.width) + dx);
}

// Starts the search: the table and heap are empty (the buffer was cleared).
fn begin(start: u32, goal: u32) {
    let s0 = slot(start);
    scratch[g_at(s0)] = 0u;
    let pushed = push(vec3<u32>(octile(start, goal), 0u, start));
}

// Expands up to `p.budget` nodes. Returns (status, cost); status 3: not finished yet.
fn search(goal: u32) -> vec2<u32> {
    var expansions = 0u;
    loop {
        if (scratch[len_at()] == 0u) {
            break;
        }
        if (expansions == p.budget) {
            return vec2<u32>(3u, INF);
        }
        let e = pop();
        let gn = e.y;
        let n = e.z;
        let sn = slot(n);
        if (scratch[closed_at(sn)] == 1u || gn != scratch[g_at(sn)]) {
            continue;
        }
        scratch[closed_at(sn)] = 1u;
        atomicAdd(&expanded[n], 1u);
        expansions += 1u;
        if (n == goal) {
            return vec2<u32>(0u, gn);
        }
        for (var d = 0u; d < 8u; d++) {
            let c = edges[n * 8u + d];
            if (c != INF) {
                let m = neighbour(n, d);
                let gm = sat_add(gn, c);
                let sm = slot(m);
                if (sm == INF) {
                    return vec2<u32>(2u, INF);
                }
                if (scratch[closed_at(sm)] == 0u && gm < scratch[g_at(sm)]) {
                    scratch[g_at(sm)] = gm;
                    scratch[parent_at(sm)] = n;
                    let ok = push(vec3<u32>(sat_add(gm, octile(m, goal)), gm, m));
                    if (!ok) {
                        return vec2<u32>(2u, INF);
                    }
                }
            }
        }
    }
    return vec2<u32>(1u, INF);
}

@compute @workgroup_size(64)
fn astar(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
    let k = id.x + id.y * nw.x * 64u;
    if (k >= p.agents) {
        return;
    }
    base = k * (10u * p.slots + 3u);
    if (scratch[state_at()] == 2u) {
        return;
    }
    let a = p.first + k;
    let start = ends[2u * a];
    let goal = ends[2u * a + 1u];
    if (scratch[state_at()] == 0u) {
        begin(start, goal);
        scratch[state_at()] = 1u;
    }
    let r = search(goal);
    if (r.x == 3u) {
        atomicAdd(&pending[0], 1u);
        return;
    }
    scratch[state_at()] = 2u;
    results[2u * a] = r.x;
    results[2u * a + 1u] = r.y;
    if (r.x == 0u) {
        var c = goal;
        atomicAdd(&traffic[c], 1u);
        loop {
            if (c == start) {
                break;
            }
            c = scratch[parent_at(slot(c))];
            atomicAdd(&traffic[c], 1u);
        }
    }
}

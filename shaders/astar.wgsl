// Grid A* per agent, one invocation each, in a fixed slice of memory: the GPU side of
// `crowd::twin_astar` (src/crowd/twin_astar.rs), which runs the same operations in the same
// order on the CPU. Costs are fixed point (2^-16 of a unit) in u32; u32::MAX is "none".
//
// Each agent's slice of `scratch` is laid out and used by `bounded.wgsl`, joined to this file.
//
// A dispatch spends at most `budget` loop rounds per agent (every loop counts, `bounded.wgsl`)
// and leaves the rest for the next: Mesa's llvmpipe ends any invocation's loops after 65,535
// rounds in all, which a long search passes; the host dispatches again while any agent is
// still searching or walking its path back. A loop the driver cuts anyway makes the agent
// report status 4 (cut), never another answer.

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
    // Loop rounds per agent per dispatch.
    budget: u32,
    dx: array<vec4<i32>, 2>,
    dy: array<vec4<i32>, 2>,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> edges: array<u32>;
// Each agent's start and goal, in pairs, for the whole batch.
@group(0) @binding(2) var<storage, read> ends: array<u32>;
@group(0) @binding(3) var<storage, read_write> scratch: array<u32>;
// Each agent's status (0 found, 1 no path, 2 out of memory, 4 cut by the driver) and cost.
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

// The walk back's next cell, after the words `bounded.wgsl` lays out.
fn cursor_at() -> u32 { return base + 10u * p.slots + 3u; }

// Starts the search: the table and heap are empty (the buffer was cleared).
fn begin(start: u32, goal: u32) {
    let s0 = slot(start);
    scratch[g_at(s0)] = 0u;
    let pushed = push(vec3<u32>(octile(start, goal), 0u, start));
}

// Expands nodes until `p.budget` loop rounds are spent. Returns (status, cost); status 3: not
// finished yet. The caller checks `cut` before it believes the answer.
fn search(goal: u32) -> vec2<u32> {
    loop {
        loops += 1u;
        if (scratch[len_at()] == 0u) {
            return vec2<u32>(1u, INF);
        }
        if (loops >= p.budget) {
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
        if (n == goal) {
            return vec2<u32>(0u, gn);
        }
        var d = 0u;
        loop {
            loops += 1u;
            if (d == 8u) {
                break;
            }
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
            d += 1u;
        }
        if (d != 8u) {
            cut = true;
            return vec2<u32>(1u, INF);
        }
    }
    // Reached only when the driver cut the loop.
    cut = true;
    return vec2<u32>(1u, INF);
}

// Walks the found path back from the cursor towards the start, counting each cell's traffic,
// until `p.budget` loop rounds are spent; true when it reached the start.
fn walk(start: u32) -> bool {
    var c = scratch[cursor_at()];
    loop {
        loops += 1u;
        if (c == start) {
            return true;
        }
        if (loops >= p.budget) {
            scratch[cursor_at()] = c;
            return false;
        }
        let s = slot(c);
        if (cut) {
            return false;
        }
        c = scratch[parent_at(s)];
        atomicAdd(&traffic[c], 1u);
    }
    cut = true;
    return false;
}

// Ends agent a's run with status and cost; an agent the driver cut reports status 4.
fn finish(a: u32, r: vec2<u32>) {
    scratch[state_at()] = 2u;
    if (cut) {
        results[2u * a] = 4u;
        results[2u * a + 1u] = INF;
        return;
    }
    results[2u * a] = r.x;
    results[2u * a + 1u] = r.y;
}

// Agent states: 0 not started, 1 searching, 3 walking its path back, 2 done.
@compute @workgroup_size(64)
fn astar(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
    let k = id.x + id.y * nw.x * 64u;
    if (k >= p.agents) {
        return;
    }
    base = k * (10u * p.slots + 4u);
    let state = scratch[state_at()];
    if (state == 2u) {
        return;
    }
    let a = p.first + k;
    let start = ends[2u * a];
    let goal = ends[2u * a + 1u];
    if (state == 0u) {
        begin(start, goal);
        scratch[state_at()] = 1u;
    }
    if (state != 3u) {
        let r = search(goal);
        if (r.x == 3u && !cut) {
            atomicAdd(&pending[0], 1u);
            return;
        }
        if (r.x != 0u || cut) {
            finish(a, r);
            return;
        }
        // Found: the cost is final; the walk back may take more dispatches.
        results[2u * a + 1u] = r.y;
        atomicAdd(&traffic[goal], 1u);
        scratch[cursor_at()] = goal;
        scratch[state_at()] = 3u;
    }
    if (walk(start)) {
        finish(a, vec2<u32>(0u, results[2u * a + 1u]));
    } else if (cut) {
        finish(a, vec2<u32>(4u, INF));
    } else {
        atomicAdd(&pending[0], 1u);
    }
}

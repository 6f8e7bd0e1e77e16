// Grid A* per agent, one invocation each, in a fixed slice of memory: the GPU side of
// `crowd::twin_astar` (src/crowd/twin_astar.rs), which runs the same operations in the same
// order on the CPU. Costs are fixed point (2^-16 of a unit) in u32; u32::MAX is "none".
//
// Each agent's slice of `scratch`: key (node + 1; 0 is empty, so clearing the buffer empties
// every table), g, parent, closed (`slots` words each), the heap (2 · slots entries of f, g,
// node), then the table's count, the heap's length and the agent's state (0 not started,
// 1 searching, 2 done).
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

const INF: u32 = 0xffffffffu;

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

var<private> base: u32;

fn key_at(s: u32) -> u32 { return base + s; }
fn g_at(s: u32) -> u32 { return base + p.slots + s; }
fn parent_at(s: u32) -> u32 { return base + 2u * p.slots + s; }
fn closed_at(s: u32) -> u32 { return base + 3u * p.slots + s; }
fn heap_at(i: u32) -> u32 { return base + 4u * p.slots + 3u * i; }
// The table's count of keys and the heap's length, after the heap.
fn used_at() -> u32 { return base + 10u * p.slots; }
fn len_at() -> u32 { return base + 10u * p.slots + 1u; }
fn state_at() -> u32 { return base + 10u * p.slots + 2u; }

fn sat_add(a: u32, b: u32) -> u32 {
    if (a > INF - b) {
        return INF;
    }
    return a + b;
}

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

// The slot of node n, inserting it if absent; INF when the table is full.
fn slot(n: u32) -> u32 {
    var s = (n * 2654435761u) & (p.slots - 1u);
    loop {
        let k = scratch[key_at(s)];
        if (k == n + 1u) {
            return s;
        }
        if (k == 0u) {
            if (4u * (scratch[used_at()] + 1u) > 3u * p.slots) {
                return INF;
            }
            scratch[key_at(s)] = n + 1u;
            scratch[g_at(s)] = INF;
            scratch[parent_at(s)] = INF;
            scratch[closed_at(s)] = 0u;
            scratch[used_at()] += 1u;
            return s;
        }
        s = (s + 1u) & (p.slots - 1u);
    }
    // Not reached (the table is never full of other keys), but WGSL wants a return here.
    return INF;
}

fn entry(i: u32) -> vec3<u32> {
    let at = heap_at(i);
    return vec3<u32>(scratch[at], scratch[at + 1u], scratch[at + 2u]);
}

fn set_entry(i: u32, e: vec3<u32>) {
    let at = heap_at(i);
    scratch[at] = e.x;
    scratch[at + 1u] = e.y;
    scratch[at + 2u] = e.z;
}

// Lower f, then higher g, then lower node.
fn before(a: vec3<u32>, b: vec3<u32>) -> bool {
    return a.x < b.x || (a.x == b.x && (a.y > b.y || (a.y == b.y && a.z < b.z)));
}

// Sift-up and sift-down move a hole rather than swapping pairs: the same array as the twin's
// swaps, with each entry written once.
fn push(e: vec3<u32>) -> bool {
    let len = scratch[len_at()];
    if (len >= 2u * p.slots) {
        return false;
    }
    scratch[len_at()] = len + 1u;
    var i = len;
    loop {
        if (i == 0u) {
            break;
        }
        let q = (i - 1u) / 2u;
        let eq = entry(q);
        if (!before(e, eq)) {
            break;
        }
        set_entry(i, eq);
        i = q;
    }
    set_entry(i, e);
    return true;
}

fn pop() -> vec3<u32> {
    let top = entry(0u);
    let len = scratch[len_at()] - 1u;
    scratch[len_at()] = len;
    if (len == 0u) {
        return top;
    }
    let last = entry(len);
    var i = 0u;
    loop {
        let l = 2u * i + 1u;
        if (l >= len) {
            break;
        }
        var m = l;
        var em = entry(l);
        let r = l + 1u;
        if (r < len) {
            let er = entry(r);
            if (before(er, em)) {
                m = r;
                em = er;
            }
        }
        if (!before(em, last)) {
            break;
        }
        set_entry(i, em);
        i = m;
    }
    set_entry(i, last);
    return top;
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

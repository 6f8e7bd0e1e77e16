// MA-HNA* with PCCP per agent (Rahmani 2020 §4.4.1), one invocation each: the GPU side of
// `crowd::twin_hna` (src/crowd/twin_hna.rs), the same operations in the same order. The
// thesis gives each agent a CUDA block of four threads (connect S, connect G, synchronise,
// search); with PCCP, connecting is a read of the table, so one invocation does all four.
//
// Nodes: the polygons, then the hierarchy graph's vertices, then the start's and the goal's
// temporaries. The start links to its polygon's PCCP entries (and to its polygon, when the goal
// is in the same top-level region); a vertex in the goal polygon's entries links to the goal.
// Costs are fixed point (2^-16 of a unit) in u32; u32::MAX is "none".
//
// Each agent's slice of `scratch` is laid out and used by `bounded.wgsl`, joined to this file;
// after it come two more words per slot: the arc a node was reached over, and its edge to the
// goal (cost + 1; 0 for none). A dispatch spends at most `budget` loop rounds per agent and
// leaves the rest for the next (Mesa's llvmpipe ends an invocation's loops after 65,535 rounds
// in all); every loop also notes a cut (`bounded.wgsl`), and a cut agent reports status 4.

struct Params {
    // Agents in this wave, and the first agent's index in the batch.
    agents: u32,
    first: u32,
    slots: u32,
    budget: u32,
    polygons: u32,
    vertices: u32,
    hmul: u32,
    // The longest chain handed back.
    chain: u32,
    // Where each array starts in `graph`.
    o_first: u32,
    o_to: u32,
    o_cost: u32,
    o_pos: u32,
    o_cell: u32,
    o_region: u32,
    o_pfirst: u32,
    o_pvertex: u32,
    o_pcost: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
// The hierarchy, flat (`crowd::twin_hna::HnaGraph`), its arrays at the offsets in `p`.
@group(0) @binding(1) var<storage, read> graph: array<u32>;
// Each agent's start and goal polygons, in pairs, for the whole batch (INF: none).
@group(0) @binding(2) var<storage, read> ends: array<u32>;
@group(0) @binding(3) var<storage, read_write> scratch: array<u32>;
// Each agent's status (0 found, 1 no path, 2 out of memory, 4 cut by the driver) and cost.
@group(0) @binding(4) var<storage, read_write> results: array<u32>;
// Each agent of the wave: the chain's length, then (node, arc) pairs from the goal back.
@group(0) @binding(5) var<storage, read_write> chains: array<u32>;
@group(0) @binding(6) var<storage, read_write> expanded: array<atomic<u32>>;
// [0]: agents still searching after this dispatch.
@group(0) @binding(7) var<storage, read_write> pending: array<atomic<u32>>;

fn arc_at(s: u32) -> u32 { return base + 10u * p.slots + 3u + s; }
fn goal_at(s: u32) -> u32 { return base + 11u * p.slots + 3u + s; }

fn start_node() -> u32 { return p.polygons + p.vertices; }
fn goal_node() -> u32 { return p.polygons + p.vertices + 1u; }

// floor(sqrt(x)) exactly, whatever the float square root's rounding.
fn isqrt(x: u32) -> u32 {
    var r = u32(sqrt(f32(x)));
    var down = false;
    loop {
        loops += 1u;
        if (r * r <= x) {
            down = true;
            break;
        }
        r -= 1u;
    }
    var up = false;
    loop {
        loops += 1u;
        if ((r + 1u) * (r + 1u) > x) {
            up = true;
            break;
        }
        r += 1u;
    }
    cut = cut || !down || !up;
    return r;
}

// The straight line to the goal's point, floored, less two units, times the cheapest cost.
fn h(n: u32, t: vec2<u32>) -> u32 {
    if (n >= p.polygons + p.vertices) {
        return 0u;
    }
    let ax = graph[p.o_pos + 2u * n];
    let ay = graph[p.o_pos + 2u * n + 1u];
    let dx = max(ax, t.x) - min(ax, t.x);
    let dy = max(ay, t.y) - min(ay, t.y);
    let r = isqrt(dx * dx + dy * dy);
    if (r < 2u) {
        return 0u;
    }
    return (r - 2u) * p.hmul;
}

// Offers m a path through n (at gn) over an arc costing c; false when memory is full.
fn relax(n: u32, gn: u32, m: u32, c: u32, arc: u32, t: vec2<u32>) -> bool {
    let gm = sat_add(gn, c);
    let sm = slot(m);
    if (sm == INF) {
        return false;
    }
    if (scratch[closed_at(sm)] == 1u || gm >= scratch[g_at(sm)]) {
        return true;
    }
    scratch[g_at(sm)] = gm;
    scratch[parent_at(sm)] = n;
    scratch[arc_at(sm)] = arc;
    return push(vec3<u32>(sat_add(gm, h(m, t)), gm, m));
}

// Reads the goal's links and opens the start. Returns 1 (searching), 2 (out of memory) or
// 3 (no path: an end has no polygon or region).
fn begin(ps: u32, pg: u32) -> u32 {
    if (ps == INF || pg == INF) {
        return 3u;
    }
    if (graph[p.o_region + ps] == INF || graph[p.o_region + pg] == INF) {
        return 3u;
    }
    let end = graph[p.o_pfirst + pg + 1u];
    var e = graph[p.o_pfirst + pg];
    for (; e < end; e++) {
        loops += 1u;
        let s = slot(p.polygons + graph[p.o_pvertex + e]);
        if (s == INF) {
            return 2u;
        }
        let c = graph[p.o_pcost + e] + 1u;
        let was = scratch[goal_at(s)];
        if (was == 0u || c < was) {
            scratch[goal_at(s)] = c;
        }
    }
    cut = cut || e < end;
    let s0 = slot(start_node());
    if (s0 == INF) {
        return 2u;
    }
    scratch[g_at(s0)] = 0u;
    scratch[arc_at(s0)] = INF;
    let pushed = push(vec3<u32>(0u, 0u, start_node()));
    return 1u;
}

// Works until `p.budget` loop rounds are spent. Returns (status, cost); status 3: not
// finished yet. The caller checks `cut` before it believes the answer.
fn search(ps: u32, pg: u32, t: vec2<u32>) -> vec2<u32> {
    let same = graph[p.o_region + ps] == graph[p.o_region + pg];
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
        if (n < p.polygons + p.vertices) {
            let c = graph[p.o_cell + n];
            if (c != INF) {
                atomicAdd(&expanded[c], 1u);
            }
        }
        if (n == goal_node()) {
            return vec2<u32>(0u, gn);
        }
        var ok = true;
        if (n == start_node()) {
            let end = graph[p.o_pfirst + ps + 1u];
            var k = graph[p.o_pfirst + ps];
            for (; k < end; k++) {
                loops += 1u;
                let m = p.polygons + graph[p.o_pvertex + k];
                let r = relax(n, gn, m, graph[p.o_pcost + k], k, t);
                ok = ok && r;
            }
            cut = cut || k < end;
            if (same) {
                let r = relax(n, gn, ps, 0u, INF, t);
                ok = ok && r;
            }
        } else {
            let end = graph[p.o_first + n + 1u];
            var k = graph[p.o_first + n];
            for (; k < end; k++) {
                loops += 1u;
                let r = relax(n, gn, graph[p.o_to + k], graph[p.o_cost + k], k, t);
                ok = ok && r;
            }
            cut = cut || k < end;
            let tg = scratch[goal_at(sn)];
            if (n == pg) {
                let r = relax(n, gn, goal_node(), 0u, INF, t);
                ok = ok && r;
            } else if (tg != 0u) {
                let r = relax(n, gn, goal_node(), tg - 1u, INF, t);
                ok = ok && r;
            }
        }
        if (!ok) {
            return vec2<u32>(2u, INF);
        }
    }
    // Reached only when the driver cut the loop.
    cut = true;
    return vec2<u32>(1u, INF);
}

// Writes the found path's chain for wave agent k; false when longer than `p.chain`.
fn write_chain(k: u32) -> bool {
    let at = k * (2u * p.chain + 1u);
    var n = goal_node();
    var len = 0u;
    var done = false;
    loop {
        loops += 1u;
        let s = slot(n);
        chains[at + 1u + 2u * len] = n;
        chains[at + 2u + 2u * len] = scratch[arc_at(s)];
        len += 1u;
        if (n == start_node()) {
            done = true;
            break;
        }
        if (len == p.chain) {
            return false;
        }
        n = scratch[parent_at(s)];
    }
    cut = cut || !done;
    chains[at] = len;
    return true;
}

@compute @workgroup_size(64)
fn hna(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
    let k = id.x + id.y * nw.x * 64u;
    if (k >= p.agents) {
        return;
    }
    base = k * (12u * p.slots + 3u);
    if (scratch[state_at()] == 2u) {
        return;
    }
    let a = p.first + k;
    let ps = ends[2u * a];
    let pg = ends[2u * a + 1u];
    var r = vec2<u32>(3u, INF);
    if (scratch[state_at()] == 0u) {
        let b = begin(ps, pg);
        if (b == 2u) {
            r = vec2<u32>(2u, INF);
        } else if (b == 3u) {
            r = vec2<u32>(1u, INF);
        }
        scratch[state_at()] = 1u;
    }
    if (r.x == 3u) {
        let t = vec2<u32>(graph[p.o_pos + 2u * pg], graph[p.o_pos + 2u * pg + 1u]);
        r = search(ps, pg, t);
    }
    if (r.x == 3u && !cut) {
        atomicAdd(&pending[0], 1u);
        return;
    }
    if (r.x == 0u && !cut && !write_chain(k)) {
        r = vec2<u32>(2u, INF);
    }
    if (cut) {
        // The host reads no chain of a cut agent.
        chains[k * (2u * p.chain + 1u)] = 0u;
        r = vec2<u32>(4u, INF);
    }
    scratch[state_at()] = 2u;
    results[2u * a] = r.x;
    results[2u * a + 1u] = r.y;
}

// An agent's fixed slice of memory, shared by the per-agent searches (`astar.wgsl`,
// `hna.wgsl`; the host joins this file to each): a hash table of the nodes reached and a binary
// heap of open entries, the operations of `crowd::twin_astar::Scratch` in the same order.
// Each kernel declares `p` (with `slots`, a power of two) and `scratch`, and sets `base` to
// its agent's slice.
//
// The slice: key (node + 1; 0 is empty, so clearing the buffer empties every table), g,
// parent, closed (`slots` words each), the heap (2 · slots entries of f, g, node), then the
// table's count, the heap's length and the agent's state (0 not started, 1 searching, 2 done);
// a kernel may keep more per slot after that.

const INF: u32 = 0xffffffffu;

var<private> base: u32;

// Loop rounds this invocation has run, every loop counted (the kernels stop their work when it
// reaches their budget): Mesa's llvmpipe ends an invocation's loops after 65,535 rounds in all,
// counted per SIMD batch of invocations, and then carries on after the loop as if it had ended.
var<private> loops: u32;
// Set when a loop ended without reaching one of its exits: the driver cut it, and what the
// invocation holds is no longer its twin's. The kernels report such an agent as cut (status 4),
// never with the answer it has.
var<private> cut: bool;

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

// The slot of node n, inserting it if absent; INF when the table is full.
fn slot(n: u32) -> u32 {
    var s = (n * 2654435761u) & (p.slots - 1u);
    loop {
        loops += 1u;
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
    // Reached only when the driver cut the loop: the table is never full of other keys.
    cut = true;
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
    var done = false;
    loop {
        loops += 1u;
        if (i == 0u) {
            done = true;
            break;
        }
        let q = (i - 1u) / 2u;
        let eq = entry(q);
        if (!before(e, eq)) {
            done = true;
            break;
        }
        set_entry(i, eq);
        i = q;
    }
    cut = cut || !done;
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
    var done = false;
    loop {
        loops += 1u;
        let l = 2u * i + 1u;
        if (l >= len) {
            done = true;
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
            done = true;
            break;
        }
        set_entry(i, em);
        i = m;
    }
    cut = cut || !done;
    set_entry(i, last);
    return top;
}


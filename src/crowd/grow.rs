//! Memory that follows the problem. A bounded search (the GPU kernels and their twins) gives
//! each agent a fixed slice of memory; an agent whose search outgrows it stops with
//! [`Status::Overflow`]. Rather than report it, the batch tries those agents again with four
//! times the slots, and again, until the table holds every node of the world or the device
//! gives one agent no more. Only an agent that overflows at the last size reports overflow,
//! named and counted. GPU and twin take the same sizes in the same order, so they still agree
//! on every agent.

use super::twin_astar::{AstarResult, Status};
use super::twin_hna::HnaResult;
use super::Batch;

/// The table sizes (slots, powers of two) an agent is tried at: `first`, then four times as
/// many each time, up to `full` (a table that holds every node of the world) or `cap` (the
/// most the device gives one agent), whichever is smaller.
pub fn sizes(first: u32, full: u32, cap: u32) -> Vec<u32> {
    let last = full.min(cap).max(16);
    let mut s = first.clamp(16, last);
    let mut out = vec![s];
    while s < last {
        s = s.saturating_mul(4).min(last);
        out.push(s);
    }
    out
}

/// Slots that hold every one of `nodes` nodes (the table is full at three quarters).
pub fn full_table(nodes: usize) -> u32 {
    ((nodes as u64 * 4 / 3 + 1).next_power_of_two()).min(1 << 31) as u32
}

/// A batch's per-agent results, merged from the runs at each size.
pub trait Grown: Sized {
    /// Each agent's status ([`Status`] as a number).
    fn status(&self) -> &[u32];
    /// Takes the results of the agents `agents` (indices into the whole batch) from `part`,
    /// a run of those agents alone, and adds its per-cell counts to this one's.
    fn take(&mut self, part: Self, agents: &[usize]);
}

/// Plans `batch` at `sizes[0]`, then each agent that overflowed at one size at the next;
/// `run` plans a batch at a size. Also each agent's last size.
pub fn grow<R: Grown, E>(
    batch: &Batch,
    sizes: &[u32],
    mut run: impl FnMut(&Batch, u32) -> Result<R, E>,
) -> Result<(R, Vec<u32>), E> {
    let mut result = run(batch, sizes[0])?;
    let mut used = vec![sizes[0]; batch.agents.len()];
    for &size in &sizes[1..] {
        let again: Vec<usize> = (result.status().iter().enumerate())
            .filter(|(_, &s)| s == Status::Overflow as u32)
            .map(|(i, _)| i)
            .collect();
        if again.is_empty() {
            break;
        }
        let sub = Batch {
            agents: again.iter().map(|&i| batch.agents[i]).collect(),
            source: batch.source.clone(),
        };
        let part = run(&sub, size)?;
        result.take(part, &again);
        for &i in &again {
            used[i] = size;
        }
    }
    Ok((result, used))
}

fn add(to: &mut [u32], from: &[u32]) {
    for (t, f) in to.iter_mut().zip(from) {
        *t += f;
    }
}

impl Grown for AstarResult {
    fn status(&self) -> &[u32] {
        &self.status
    }

    fn take(&mut self, part: Self, agents: &[usize]) {
        for (j, &i) in agents.iter().enumerate() {
            self.status[i] = part.status[j];
            self.costs[i] = part.costs[j];
        }
        add(&mut self.traffic, &part.traffic);
        add(&mut self.expanded, &part.expanded);
    }
}

impl Grown for HnaResult {
    fn status(&self) -> &[u32] {
        &self.status
    }

    fn take(&mut self, part: Self, agents: &[usize]) {
        for (j, &i) in agents.iter().enumerate() {
            self.status[i] = part.status[j];
            self.costs[i] = part.costs[j];
            self.lengths[i] = part.lengths[j];
        }
        add(&mut self.traffic, &part.traffic);
        add(&mut self.expanded, &part.expanded);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_grow_fourfold_to_the_smaller_of_full_and_cap() {
        assert_eq!(
            sizes(1 << 16, 1 << 19, 1 << 30),
            [1 << 16, 1 << 18, 1 << 19]
        );
        assert_eq!(
            sizes(1 << 16, 1 << 22, 1 << 21),
            [1 << 16, 1 << 18, 1 << 20, 1 << 21]
        );
        assert_eq!(sizes(4096, 1024, 1 << 20), [1024]);
        assert_eq!(full_table(262_144), 1 << 19);
        assert_eq!(full_table(3), 8);
    }
}

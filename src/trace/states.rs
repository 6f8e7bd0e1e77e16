//! Per-node display state, two bits a node, so that seek checkpoints stay small.

/// What a view shows for a node at some point of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum NodeState {
    /// Not touched yet.
    Unseen = 0,
    /// On the open list.
    Open = 1,
    /// Expanded (closed).
    Closed = 2,
    /// Inconsistent (incremental algorithms): on the open list with g ≠ rhs.
    Inconsistent = 3,
}

impl NodeState {
    #[inline(always)]
    /// The state in the low two bits of `b`.
    pub fn from_bits(b: u8) -> NodeState {
        match b & 3 {
            0 => NodeState::Unseen,
            1 => NodeState::Open,
            2 => NodeState::Closed,
            _ => NodeState::Inconsistent,
        }
    }
}

/// Node states packed four to a byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeStates {
    bits: Vec<u8>,
    len: usize,
}

impl NodeStates {
    /// `len` nodes, all unseen.
    pub fn new(len: usize) -> NodeStates {
        NodeStates {
            bits: vec![0; len.div_ceil(4)],
            len,
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// State of node `n` (unseen when out of range).
    #[inline(always)]
    pub fn get(&self, n: usize) -> NodeState {
        match self.bits.get(n >> 2) {
            Some(b) => NodeState::from_bits(b >> ((n & 3) * 2)),
            None => NodeState::Unseen,
        }
    }

    /// Sets the state of node `n`; ignored when out of range.
    #[inline(always)]
    pub fn set(&mut self, n: usize, s: NodeState) {
        if let Some(b) = self.bits.get_mut(n >> 2) {
            let shift = (n & 3) * 2;
            *b = (*b & !(3 << shift)) | ((s as u8) << shift);
        }
    }

    /// The packed codes: node `n`'s state is bits `2 (n % 4)` and up of byte `n / 4`.
    pub fn packed(&self) -> &[u8] {
        &self.bits
    }

    /// Every node's state as its 2-bit code (`NodeState as u8`), in node order: a whole-map
    /// pass (e.g. recolouring a view) without a bounds check per node.
    pub fn codes(&self) -> impl Iterator<Item = u8> + '_ {
        self.bits
            .iter()
            .flat_map(|&b| [b & 3, (b >> 2) & 3, (b >> 4) & 3, b >> 6])
            .take(self.len)
    }

    /// Bytes of storage.
    pub fn bytes(&self) -> usize {
        self.bits.len()
    }

    /// Overwrites self with `other` without reallocating.
    pub fn copy_from(&mut self, other: &NodeStates) {
        self.bits.copy_from_slice(&other.bits);
        self.len = other.len;
    }

    /// How many nodes are in each state, indexed by `NodeState as usize`.
    pub fn counts(&self) -> [usize; 4] {
        let mut c = [0usize; 4];
        for n in 0..self.len {
            c[self.get(n) as usize] += 1;
        }
        c
    }
}

//! Typed search events and their 16-byte packed form.

use serde::{Deserialize, Serialize};

/// A node id with no meaning: "no parent", "no node".
pub const NONE: u32 = u32::MAX;

/// What happened. The numeric values are stable: they are stored in traces.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EventKind {
    /// The start node; `a` = g (0), `b` = f.
    Source = 0,
    /// The goal node.
    Destination = 1,
    /// A node enters the open list for the first time; `other` = parent.
    Generate = 2,
    /// An open node gets a better g (and maybe a new parent).
    Update = 3,
    /// A closed node gets a better g and goes back on the open list.
    Reopen = 4,
    /// A node leaves the open list and is expanded: this event starts a step.
    Expand = 5,
    /// A line-of-sight check from `other` to `node`; `a` = 1 if visible, 0 if blocked.
    LineOfSight = 6,
    /// The algorithm enters another phase; `node` = phase number.
    Phase = 7,
    /// A node became inconsistent (g ≠ rhs); `a` = g, `b` = rhs.
    Inconsistent = 8,
    /// The algorithm starts a new plan after a world change.
    Replan = 9,
    /// A cell of the world changed; `a` = its new cost (infinite when blocked).
    WorldChange = 10,
    /// One node of the solution path, in order from start to goal; `a` = g.
    PathNode = 11,
    /// The search ended with a path; `node` = goal, `a` = cost.
    Found = 12,
    /// The search ended without a path.
    NoPath = 13,
    /// An anytime algorithm published a solution; `a` = cost, `b` = its bound (ε).
    Solution = 14,
    /// A queued inconsistent node became consistent again (g = rhs) without being expanded,
    /// and left the open list; `a` = g. It shows as expanded again, or as unseen when g is
    /// infinite.
    Consistent = 15,
    /// A walking agent chose a direction at `node` (Rahmani 2020's naive exploration):
    /// `other` = the first hex that way; `a` = the directions inside the cone, `b` = the free
    /// ones, as bit masks over the six directions of [`crate::space::HexOrientation::offsets`].
    /// It starts a step.
    Choice = 16,
    /// A walking agent stepped from `other` to `node`; `a` = the distance walked so far, `b` =
    /// 1 while exploring, 0 on a plan. It starts a step.
    Walk = 17,
    /// A jump (jump point search) scanned the cells from `other` to `node` in a straight or
    /// diagonal line; `a` = 1 when it ended at a jump point or the goal, 0 at a wall.
    Jump = 18,
    /// An event of a type pathlab does not know, read from another tool's trace; `a` = the
    /// index of its type's name among the import's.
    Other = 19,
}

impl EventKind {
    /// All kinds, in numeric order.
    pub const ALL: [EventKind; 20] = [
        EventKind::Source,
        EventKind::Destination,
        EventKind::Generate,
        EventKind::Update,
        EventKind::Reopen,
        EventKind::Expand,
        EventKind::LineOfSight,
        EventKind::Phase,
        EventKind::Inconsistent,
        EventKind::Replan,
        EventKind::WorldChange,
        EventKind::PathNode,
        EventKind::Found,
        EventKind::NoPath,
        EventKind::Solution,
        EventKind::Consistent,
        EventKind::Choice,
        EventKind::Walk,
        EventKind::Jump,
        EventKind::Other,
    ];

    /// Whether this event begins a step of the timeline: an expansion, or a walking agent's
    /// choice of direction or step.
    #[inline(always)]
    pub fn starts_step(self) -> bool {
        matches!(
            self,
            EventKind::Expand | EventKind::Choice | EventKind::Walk
        )
    }

    /// The kind with this numeric value.
    pub fn from_u8(v: u8) -> Option<EventKind> {
        Self::ALL.get(v as usize).copied()
    }

    /// Lower-case name used in CLI output and exported traces.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Source => "source",
            EventKind::Destination => "destination",
            EventKind::Generate => "generating",
            EventKind::Update => "updating",
            EventKind::Reopen => "reopening",
            EventKind::Expand => "expanding",
            EventKind::LineOfSight => "line-of-sight",
            EventKind::Phase => "phase",
            EventKind::Inconsistent => "inconsistent",
            EventKind::Replan => "replan",
            EventKind::WorldChange => "world-change",
            EventKind::PathNode => "path",
            EventKind::Found => "end",
            EventKind::NoPath => "no-path",
            EventKind::Solution => "solution",
            EventKind::Consistent => "consistent",
            EventKind::Choice => "choice",
            EventKind::Walk => "walk",
            EventKind::Jump => "jump",
            EventKind::Other => "other",
        }
    }
}

/// One event as algorithms emit it and views read it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub kind: EventKind,
    pub node: u32,
    /// Parent for generate/update/expand events, the source of a line-of-sight check, else NONE.
    pub other: u32,
    /// Usually g.
    pub a: f32,
    /// Usually f.
    pub b: f32,
}

impl Event {
    /// An event about a node alone (no other node, no values): destination, no-path, phase.
    #[inline(always)]
    pub fn marker(kind: EventKind, node: u32) -> Event {
        Event::new(kind, node, NONE, f64::NAN, f64::NAN)
    }

    /// An event with every field given.
    #[inline(always)]
    pub fn new(kind: EventKind, node: u32, other: u32, a: f64, b: f64) -> Event {
        Event {
            kind,
            node,
            other,
            a: a as f32,
            b: b as f32,
        }
    }
}

/// Node ids a packed event can hold: the top 5 bits of the first word carry the kind.
pub const PACKED_NODE_LIMIT: u32 = 1 << 27;
const NODE_MASK: u32 = PACKED_NODE_LIMIT - 1;

/// An event in 16 bytes, the recorder's storage unit.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct PackedEvent {
    head: u32,
    other: u32,
    a: f32,
    b: f32,
}

impl PackedEvent {
    /// Packs `e`; `None` when its node id does not fit in 27 bits.
    #[inline(always)]
    pub fn pack(e: &Event) -> Option<PackedEvent> {
        if e.node >= NODE_MASK && e.node != NONE {
            return None;
        }
        Some(PackedEvent {
            head: ((e.kind as u32) << 27) | (e.node & NODE_MASK),
            other: e.other,
            a: e.a,
            b: e.b,
        })
    }

    /// The kind of event, without unpacking the rest.
    #[inline(always)]
    pub fn kind(&self) -> EventKind {
        // Only `pack` builds these, so the kind bits are always valid.
        EventKind::from_u8((self.head >> 27) as u8).unwrap_or(EventKind::Phase)
    }

    /// The node, without unpacking the rest.
    #[inline(always)]
    pub fn node(&self) -> u32 {
        let n = self.head & NODE_MASK;
        if n == NODE_MASK {
            NONE
        } else {
            n
        }
    }

    /// The full event.
    pub fn unpack(&self) -> Event {
        Event {
            kind: self.kind(),
            node: self.node(),
            other: self.other,
            a: self.a,
            b: self.b,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_event_is_16_bytes_and_round_trips() {
        assert_eq!(std::mem::size_of::<PackedEvent>(), 16);
        for kind in EventKind::ALL {
            for node in [0, 1, 12345, PACKED_NODE_LIMIT - 2, NONE] {
                let e = Event::new(kind, node, 77, 1.5, 2.25);
                assert_eq!(PackedEvent::pack(&e).unwrap().unpack(), e);
            }
        }
        assert!(PackedEvent::pack(&Event::new(
            EventKind::Expand,
            PACKED_NODE_LIMIT,
            NONE,
            0.0,
            0.0
        ))
        .is_none());
    }
}

//! Safety properties, checked whenever a resource changes.
//!
//! The checker reads ghost data the nodes cannot see: the true order of grants
//! (generation), independent of what the token issuer claimed. That is what lets it
//! call a write stale even when a broken issuer gave the stale writer a larger token.

use super::shared_set::SharedSet;
use super::time::Tick;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViolationKind {
    /// A write from an older grant applied after a newer grant's write was applied at that resource.
    StaleOverwrite,
    /// A write from an older grant applied after a newer grant was issued, before the new owner wrote there.
    SupersededWrite,
    /// One operation's effect applied twice.
    DoubleExecution,
    /// A multi-object operation applied to some of its objects and not the others.
    InconsistentObjects,
    /// The current legitimate owner's write was refused as stale.
    OwnerLockedOut,
}

/// Its name as the report and the CLI print it (`stale_overwrite`).
impl std::fmt::Display for ViolationKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ViolationKind {
    pub const ALL: [ViolationKind; 5] = [
        ViolationKind::StaleOverwrite,
        ViolationKind::SupersededWrite,
        ViolationKind::DoubleExecution,
        ViolationKind::InconsistentObjects,
        ViolationKind::OwnerLockedOut,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            ViolationKind::StaleOverwrite => "stale_overwrite",
            ViolationKind::SupersededWrite => "superseded_write",
            ViolationKind::DoubleExecution => "double_execution",
            ViolationKind::InconsistentObjects => "inconsistent_objects",
            ViolationKind::OwnerLockedOut => "owner_locked_out",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// One sentence for people: what went wrong.
    pub fn explain(&self) -> &'static str {
        match self {
            ViolationKind::StaleOverwrite => {
                "an older owner's write replaced state a newer owner had already written"
            }
            ViolationKind::SupersededWrite => {
                "an older owner's write was applied after a newer lease was granted, before the new owner's first write"
            }
            ViolationKind::DoubleExecution => "one operation took effect twice",
            ViolationKind::InconsistentObjects => {
                "one operation changed some of its objects but not the others"
            }
            ViolationKind::OwnerLockedOut => "the current legitimate owner was refused as stale",
        }
    }
}

/// A milestone: something the interesting part of a story needs to happen, checked by the
/// explorer as a reachability ("sometimes") property beside the safety ones. A search whose
/// bounds never let the lock change hands reports every safety property held and means
/// nothing; the milestones it did not reach say so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Milestone {
    /// A protected write took effect somewhere.
    WriteApplied,
    /// A lock was granted a second time: a takeover (or the same worker again).
    GrantedAgain,
    /// A resource refused a request whose token was older than one it had seen.
    StaleRefused,
}

impl Milestone {
    pub const ALL: [Milestone; 3] = [
        Milestone::WriteApplied,
        Milestone::GrantedAgain,
        Milestone::StaleRefused,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            Milestone::WriteApplied => "write_applied",
            Milestone::GrantedAgain => "granted_again",
            Milestone::StaleRefused => "stale_refused",
        }
    }

    /// One sentence for people: what happened.
    pub fn explain(&self) -> &'static str {
        match self {
            Milestone::WriteApplied => "a protected write took effect",
            Milestone::GrantedAgain => {
                "a lock was granted a second time: the lease changed hands (or was taken again)"
            }
            Milestone::StaleRefused => "a resource refused a request carrying an older token",
        }
    }

    /// Whether it has happened, by the ghost's record.
    pub fn reached(&self, g: &Ghost) -> bool {
        match self {
            Milestone::WriteApplied => !g.newest_applied.is_empty(),
            Milestone::GrantedAgain => g.latest_grant.values().any(|&n| n >= 2),
            Milestone::StaleRefused => g.stale_refused,
        }
    }
}

impl std::fmt::Display for Milestone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Violation {
    pub kind: ViolationKind,
    pub tick: Tick,
    pub resource: String,
    /// The request that broke the property, and the earlier one it conflicts with.
    pub request: String,
    pub conflicts_with: Option<String>,
    pub detail: String,
}

/// How one object's part of a multi-object operation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    Changed,
    /// Accepted without change: the object already held what the operation wanted.
    AlreadyThere,
    Refused,
}

/// The truth about ownership, kept beside the nodes for the checker.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ghost {
    /// Generations minted per lock (a grant under fence-on-acquire is minted before it is issued).
    pub minted: BTreeMap<String, u32>,
    /// Newest grant generation issued (announced to its owner) per lock.
    pub latest_grant: BTreeMap<String, u32>,
    /// Per resource: the newest generation whose write was applied there, and that request.
    pub newest_applied: BTreeMap<String, (u32, String)>,
    /// (resource, op id) pairs whose effect has been applied: a set that grows with every
    /// applied write, so it is shared between snapshots (`SharedSet`).
    pub executed: SharedSet<(String, String)>,
    /// Multi-object operations sent as separate writes: op id → per target, its part once known.
    pub multi: BTreeMap<String, BTreeMap<String, Option<Part>>>,
    pub violations: Vec<Violation>,
    /// A resource has refused a stale token (`Milestone::StaleRefused`). Only the explorer
    /// reads it, on every transition, so its state key leaves it out.
    pub stale_refused: bool,
}

impl Ghost {
    pub fn next_generation(&mut self, lock: &str) -> u32 {
        let g = self.minted.entry(lock.to_string()).or_insert(0);
        *g += 1;
        *g
    }

    pub fn has(&self, kind: ViolationKind) -> bool {
        self.violations.iter().any(|v| v.kind == kind)
    }

    /// Which kinds have been violated, as a set of bits in `ViolationKind::ALL`'s order.
    pub fn violated_kinds(&self) -> u8 {
        self.violations
            .iter()
            .fold(0, |bits, v| bits | (1 << v.kind as u8))
    }
}

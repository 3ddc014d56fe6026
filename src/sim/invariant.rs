//! The properties the model is judged by, as data, and the checker that keeps their record.
//!
//! `Property::ALL` is the one table the explorer, the report and the app read: the safety
//! properties (a `ViolationKind` must never happen) and the milestones (a `Milestone` should
//! be reachable). The checker is the `Ghost`: the world tells it facts — a grant minted or
//! issued (from the coordinator, as effects), a write applied or refused (from the world, as
//! a `Judged`) — and it records violations. It reads ghost data the nodes cannot see: the
//! true order of grants (generation), independent of what the token issuer claimed. That is
//! what lets it call a write stale even when a broken issuer gave the stale writer a larger
//! token. It is testable alone: no node, network or log is needed.

use super::name::Name;
use super::request::{Reason, Request};
use super::shared_set::SharedSet;
use super::shared_vec::SharedVec;
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

    /// Its name in words, for people (`as_str` is the id, for files and the command line).
    pub fn title(&self) -> &'static str {
        match self {
            ViolationKind::StaleOverwrite => "stale overwrite",
            ViolationKind::SupersededWrite => "superseded write",
            ViolationKind::DoubleExecution => "double execution",
            ViolationKind::InconsistentObjects => "inconsistent objects",
            ViolationKind::OwnerLockedOut => "owner locked out",
        }
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

    /// Its name in words, for people (`as_str` is the id).
    pub fn title(&self) -> &'static str {
        match self {
            Milestone::WriteApplied => "a write applied",
            Milestone::GrantedAgain => "a lock granted again",
            Milestone::StaleRefused => "a stale token refused",
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

/// One property of the table: a safety property holds while its violation never happens;
/// a milestone is settled once reached. A search's answer for a property is the shortest
/// run that settles it (`witnessed`): a counterexample or a witness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Property {
    Always(ViolationKind),
    Sometimes(Milestone),
}

impl Property {
    pub const ALL: [Property; 8] = [
        Property::Always(ViolationKind::StaleOverwrite),
        Property::Always(ViolationKind::SupersededWrite),
        Property::Always(ViolationKind::DoubleExecution),
        Property::Always(ViolationKind::InconsistentObjects),
        Property::Always(ViolationKind::OwnerLockedOut),
        Property::Sometimes(Milestone::WriteApplied),
        Property::Sometimes(Milestone::GrantedAgain),
        Property::Sometimes(Milestone::StaleRefused),
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            Property::Always(k) => k.as_str(),
            Property::Sometimes(m) => m.as_str(),
        }
    }

    pub fn explain(&self) -> &'static str {
        match self {
            Property::Always(k) => k.explain(),
            Property::Sometimes(m) => m.explain(),
        }
    }

    /// Whether the ghost's record settles it: the violation happened, or the milestone was
    /// reached. Once true it stays true along a run.
    pub fn witnessed(&self, g: &Ghost) -> bool {
        match self {
            Property::Always(k) => g.has(*k),
            Property::Sometimes(m) => m.reached(g),
        }
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
    pub minted: BTreeMap<Name, u32>,
    /// Newest grant generation issued (announced to its owner) per lock.
    pub latest_grant: BTreeMap<Name, u32>,
    /// Per resource: the newest generation whose write was applied there, and that request.
    pub newest_applied: BTreeMap<Name, (u32, Name)>,
    /// (resource, op id) pairs whose effect has been applied: a set that grows with every
    /// applied write, so it is shared between snapshots (`SharedSet`).
    pub executed: SharedSet<(Name, Name)>,
    /// Multi-object operations sent as separate writes: op id → per target, its part once known.
    pub multi: BTreeMap<Name, BTreeMap<Name, Option<Part>>>,
    /// Every violation so far, in order: it grows with the run, so it is shared between
    /// snapshots too (`SharedVec`).
    pub violations: SharedVec<Violation>,
    /// A resource has refused a stale token (`Milestone::StaleRefused`). Only the explorer
    /// reads it, on every transition, so its state key leaves it out.
    pub stale_refused: bool,
}

/// A grant fact the coordinator reports as an effect: the checker's record of true grant
/// order. No node ever reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GrantFact {
    /// A grant of `lock` was minted with this generation (fence-on-acquire mints before it
    /// issues: the grant waits for the fences).
    Minted { lock: Name, generation: u32 },
    /// The grant was issued to its owner: the newest legitimate grant of `lock`.
    Issued { lock: Name, generation: u32 },
}

/// One verdict at one resource, as the checker needs it: facts the world has and no node
/// decides with.
pub struct Judged<'a> {
    pub tick: Tick,
    pub resource: &'a str,
    /// The lock that guards the resource.
    pub lock: &'a str,
    /// An immutable content store: a late write only adds a key, it replaces nothing.
    pub adds_only: bool,
    pub request: &'a Request,
}

/// What a resource did with a write, as the checker sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// Took effect, or found its effect already there (`no_op`).
    Applied { no_op: bool },
    /// Refused. `sender_holds_it`: the coordinator's own record says the sender holds this
    /// very grant now.
    Refused {
        reason: Reason,
        sender_holds_it: bool,
    },
}

/// Tell the checker what a resource did. The ghost sits behind an `Rc` shared between
/// snapshots; most refusals change nothing in it, and then it is not copied.
pub fn observe(ghost: &mut std::rc::Rc<Ghost>, j: &Judged, seen: Seen) {
    if !ghost.is_news(j, seen) {
        return;
    }
    let g = std::rc::Rc::make_mut(ghost);
    match seen {
        Seen::Applied { no_op } => g.on_applied(j, no_op),
        Seen::Refused {
            reason,
            sender_holds_it,
        } => g.on_refused(j, reason, sender_holds_it),
    }
}

impl Judged<'_> {
    /// The true generation the request acted under, as seen from this resource's lock
    /// (0: none).
    fn generation(&self) -> u32 {
        self.request.generation_for(self.lock)
    }
}

impl Ghost {
    /// The generation the next grant of `lock` will carry. The coordinator labels its grant
    /// with it; the grant's `GrantFact::Minted` records it.
    pub fn next_generation(&self, lock: &str) -> u32 {
        self.minted.get(lock).copied().unwrap_or(0) + 1
    }

    pub fn record(&mut self, fact: &GrantFact) {
        match fact {
            GrantFact::Minted { lock, generation } => {
                self.minted.insert(lock.clone(), *generation);
            }
            GrantFact::Issued { lock, generation } => {
                self.latest_grant.insert(lock.clone(), *generation);
            }
        }
    }

    /// Whether telling it `seen` would change its record.
    pub fn is_news(&self, j: &Judged, seen: Seen) -> bool {
        let multi = !j.request.multi.is_empty();
        match seen {
            Seen::Applied { no_op } => !no_op || multi,
            Seen::Refused {
                reason,
                sender_holds_it,
            } => {
                let stale = reason.judges_authority();
                multi
                    || stale && !self.stale_refused
                    || stale && sender_holds_it && j.generation() > 0
            }
        }
    }

    /// A write took effect at a resource, or found its effect already there (`no_op`).
    pub fn on_applied(&mut self, j: &Judged, no_op: bool) {
        let req = j.request;
        if no_op {
            // Already there: nothing changed, but the part of a multi-object operation is done.
            self.note_part(j, Part::AlreadyThere);
            return;
        }
        let g = j.generation();
        let under = |g: u32| {
            if g == 0 {
                "with no grant of this lock".to_string()
            } else {
                format!("under grant #{g}")
            }
        };
        // Every destination that can be overwritten, fenceable or not: an email that cannot
        // check a token still shows its reader the superseded owner's message after the new
        // owner's. An immutable content key is never replaced: a late writer only adds a key.
        if !j.adds_only {
            let newest = self.newest_applied.get(j.resource).cloned();
            let latest = self.latest_grant.get(j.lock).copied().unwrap_or(0);
            match &newest {
                Some((n, by)) if g < *n => {
                    let detail = format!(
                        "{} wrote {} after {by} (grant #{n}) had written",
                        req.id,
                        under(g)
                    );
                    self.violate(
                        ViolationKind::StaleOverwrite,
                        j,
                        Some(by.to_string()),
                        detail,
                    )
                }
                _ if g < latest => {
                    let detail = format!(
                        "{} wrote {} after grant #{latest} was issued",
                        req.id,
                        under(g)
                    );
                    self.violate(ViolationKind::SupersededWrite, j, None, detail)
                }
                _ => {}
            }
            if newest.as_ref().is_none_or(|(n, _)| g > *n) {
                self.newest_applied
                    .insert(j.resource.into(), (g, req.id.clone()));
            }
        }
        if !self.executed.insert((j.resource.into(), req.op_id.clone())) {
            let detail = format!(
                "operation {} took effect at {} again ({})",
                req.op_id, j.resource, req.id
            );
            self.violate(ViolationKind::DoubleExecution, j, None, detail);
        }
        self.note_part(j, Part::Changed);
    }

    /// A resource refused a write. `sender_holds_it`: the coordinator's own record says the
    /// sender holds this very grant now — then, whatever raised the resource's highest token
    /// (a restore, a reused counter), the legitimate owner is locked out.
    pub fn on_refused(&mut self, j: &Judged, reason: Reason, sender_holds_it: bool) {
        if reason.judges_authority() {
            self.stale_refused = true;
            if j.generation() > 0 && sender_holds_it {
                let detail = format!(
                    "{} holds the current lease yet its token was refused",
                    j.request.from
                );
                self.violate(ViolationKind::OwnerLockedOut, j, None, detail);
            }
        }
        self.note_part(j, Part::Refused);
    }

    /// Record how one part of a multi-object operation ended; report a partial application.
    fn note_part(&mut self, j: &Judged, part: Part) {
        let req = j.request;
        if req.multi.is_empty() {
            return;
        }
        let parts = self.multi.entry(req.op_id.clone()).or_insert_with(|| {
            // Inserted one by one: collecting into a map sorts first, a sort the page's
            // WASM would carry for this alone.
            let mut parts = BTreeMap::new();
            for r in &req.multi {
                parts.insert(r.clone(), None);
            }
            parts
        });
        parts.insert(j.resource.into(), Some(part));
        if !parts.values().all(Option::is_some) {
            return;
        }
        let parts = self.multi.remove(&req.op_id).expect("present");
        let done: Vec<&str> = parts
            .iter()
            .filter(|(_, a)| **a == Some(Part::Changed))
            .map(|(r, _)| r.as_str())
            .collect();
        let refused = parts.values().any(|a| *a == Some(Part::Refused));
        if !done.is_empty() && refused {
            let detail = format!(
                "operation {} changed {} but not the rest of {}",
                req.op_id,
                done.join(", "),
                parts.keys().cloned().collect::<Vec<_>>().join(" + ")
            );
            self.violate(ViolationKind::InconsistentObjects, j, None, detail);
        }
    }

    fn violate(
        &mut self,
        kind: ViolationKind,
        j: &Judged,
        conflicts_with: Option<String>,
        detail: String,
    ) {
        self.violations.push(Violation {
            kind,
            tick: j.tick,
            resource: j.resource.to_string(),
            request: j.request.id.to_string(),
            conflicts_with,
            detail,
        });
    }

    pub fn has(&self, kind: ViolationKind) -> bool {
        self.violations.iter().any(|v| v.kind == kind)
    }

    /// Which properties its record settles (`Property::witnessed`), as a set of bits in
    /// `Property::ALL`'s order: the safety properties first, in `ViolationKind::ALL`'s order.
    pub fn witnessed(&self) -> u16 {
        let milestones = Milestone::ALL
            .iter()
            .enumerate()
            .filter(|(_, m)| m.reached(self))
            .fold(0u16, |bits, (i, _)| {
                bits | 1 << (ViolationKind::ALL.len() + i)
            });
        self.violated_kinds() as u16 | milestones
    }

    /// Which kinds have been violated, as a set of bits in `ViolationKind::ALL`'s order.
    pub fn violated_kinds(&self) -> u8 {
        self.violations
            .iter()
            .fold(0, |bits, v| bits | (1 << v.kind as u8))
    }
}

/// The checker alone: facts in, violations out, with no world, node or network.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::Op;

    fn write(id: &str, from: &str, generation: u32) -> Request {
        Request {
            id: id.into(),
            from: from.into(),
            targets: vec!["db".into()],
            token: None,
            op_id: format!("op-{id}").into(),
            op: Op::Set(id.into()),
            grant: (generation > 0).then(|| ("lock".into(), generation)),
            multi: Vec::new(),
            also: Vec::new(),
            if_version: None,
        }
    }

    fn at<'a>(resource: &'a str, request: &'a Request) -> Judged<'a> {
        Judged {
            tick: 7,
            resource,
            lock: "lock",
            adds_only: false,
            request,
        }
    }

    fn grants(g: &mut Ghost, n: u32) {
        for generation in 1..=n {
            assert_eq!(g.next_generation("lock"), generation);
            let lock = Name::from("lock");
            g.record(&GrantFact::Minted {
                lock: lock.as_str().into(),
                generation,
            });
            g.record(&GrantFact::Issued { lock, generation });
        }
    }

    fn kinds(g: &Ghost) -> Vec<ViolationKind> {
        g.violations.iter().map(|v| v.kind).collect()
    }

    #[test]
    fn an_older_grant_writing_after_a_newer_one_is_a_stale_overwrite() {
        let mut g = Ghost::default();
        grants(&mut g, 2);
        let (a, b) = (write("A1", "A", 1), write("B1", "B", 2));
        g.on_applied(&at("db", &b), false);
        assert!(g.violations.is_empty(), "the newest grant's write is fine");
        g.on_applied(&at("db", &a), false);
        assert_eq!(kinds(&g), [ViolationKind::StaleOverwrite]);
        assert_eq!(g.violations[0].conflicts_with.as_deref(), Some("B1"));
        assert_eq!(g.violations[0].tick, 7);
    }

    #[test]
    fn an_older_grant_writing_before_the_new_owner_is_a_superseded_write() {
        let mut g = Ghost::default();
        grants(&mut g, 2);
        g.on_applied(&at("db", &write("A1", "A", 1)), false);
        assert_eq!(kinds(&g), [ViolationKind::SupersededWrite]);
        // An immutable content store only adds a key: nothing is replaced.
        let mut g = Ghost::default();
        grants(&mut g, 2);
        let old = write("A1", "A", 1);
        let judged = Judged {
            adds_only: true,
            ..at("db", &old)
        };
        g.on_applied(&judged, false);
        assert!(g.violations.is_empty());
    }

    #[test]
    fn one_operation_taking_effect_twice_is_a_double_execution() {
        let mut g = Ghost::default();
        grants(&mut g, 1);
        let a = write("A1", "A", 1);
        let retry = Request {
            id: "A1'".into(),
            ..a.clone()
        };
        g.on_applied(&at("db", &a), false);
        g.on_applied(&at("db", &retry), false);
        assert_eq!(kinds(&g), [ViolationKind::DoubleExecution]);
        // Finding its effect already there is not taking effect again.
        let mut g = Ghost::default();
        grants(&mut g, 1);
        g.on_applied(&at("db", &a), false);
        g.on_applied(&at("db", &retry), true);
        assert!(g.violations.is_empty());
    }

    #[test]
    fn a_multi_object_operation_applied_in_part_is_inconsistent() {
        let mut g = Ghost::default();
        grants(&mut g, 1);
        let part = |to: &str| Request {
            targets: vec![to.into()],
            multi: vec!["x".into(), "y".into()],
            op_id: "move".into(),
            ..write(&format!("A-{to}"), "A", 1)
        };
        let (x, y) = (part("x"), part("y"));
        g.on_applied(&at("x", &x), false);
        assert!(g.violations.is_empty(), "the other part is still open");
        g.on_refused(&at("y", &y), Reason::Stale, false);
        assert_eq!(kinds(&g), [ViolationKind::InconsistentObjects]);
        assert!(g.multi.is_empty(), "a finished operation is forgotten");
    }

    #[test]
    fn refusing_the_current_owner_as_stale_locks_it_out() {
        let mut g = Ghost::default();
        grants(&mut g, 1);
        let a = write("A1", "A", 1);
        g.on_refused(&at("db", &a), Reason::Stale, false);
        assert!(
            g.violations.is_empty(),
            "a refused former owner is fencing working"
        );
        assert!(g.stale_refused);
        g.on_refused(&at("db", &a), Reason::Stale, true);
        assert_eq!(kinds(&g), [ViolationKind::OwnerLockedOut]);
    }

    #[test]
    fn a_refusal_that_changes_nothing_does_not_copy_the_shared_record() {
        let mut g = Ghost::default();
        grants(&mut g, 1);
        g.stale_refused = true;
        let shared = std::rc::Rc::new(g);
        let mut mine = std::rc::Rc::clone(&shared);
        let a = write("A1", "A", 1);
        let stale = Seen::Refused {
            reason: Reason::Stale,
            sender_holds_it: false,
        };
        observe(&mut mine, &at("db", &a), stale);
        assert!(
            std::rc::Rc::ptr_eq(&shared, &mine),
            "not news: still shared"
        );
        observe(&mut mine, &at("db", &a), Seen::Applied { no_op: false });
        assert!(
            !std::rc::Rc::ptr_eq(&shared, &mine),
            "a write is news: copied"
        );
        assert_eq!(mine.newest_applied.get("db"), Some(&(1, "A1".into())));
        assert!(
            shared.newest_applied.is_empty(),
            "the other snapshot is untouched"
        );
    }

    #[test]
    fn the_witnessed_bits_follow_the_property_table() {
        let mut g = Ghost::default();
        grants(&mut g, 2);
        g.on_applied(&at("db", &write("A1", "A", 1)), false);
        g.on_refused(&at("db", &write("A2", "A", 1)), Reason::Stale, false);
        let bits = g.witnessed();
        for (i, p) in Property::ALL.into_iter().enumerate() {
            assert_eq!(bits & 1 << i != 0, p.witnessed(&g), "{p:?}");
        }
        assert!(Property::Always(ViolationKind::SupersededWrite).witnessed(&g));
        assert!(Property::Sometimes(Milestone::GrantedAgain).witnessed(&g));
        assert!(Property::Sometimes(Milestone::StaleRefused).witnessed(&g));
        assert!(!Property::Always(ViolationKind::StaleOverwrite).witnessed(&g));
    }
}

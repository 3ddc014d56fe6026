//! What happened: the event log, and metrics that keep the essay's categories apart.

use super::invariant::ViolationKind;
use super::message::MessageKind;
use super::name::Name;
use super::request::{Op, Reason};
use super::resource::Compared;
use super::time::Tick;
use super::token::Token;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One thing that happened, with the ownership generation and operation it concerns.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Event {
    pub tick: Tick,
    /// Who did it: `coordinator`, a worker, a resource, or `network`.
    pub actor: Name,
    pub kind: EventKind,
    pub token: Option<Token>,
    /// The true grant generation concerned, when there is one.
    pub generation: Option<u32>,
    pub op_id: Option<Name>,
    pub request: Option<Name>,
    /// The envelope concerned, when the event is about a message.
    pub message: Option<u32>,
}

/// A conditional write's precondition as the store compared it (S3's If-Match, GCS's
/// ifGenerationMatch): the version the write named, and the one the object was at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Versions {
    pub named: u64,
    pub found: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    // network
    /// `kind` is what the message is, for anything that must tell messages apart; `what`
    /// is its description for people, never parsed.
    Sent {
        to: Name,
        kind: MessageKind,
        what: String,
    },
    Delivered {
        to: Name,
        kind: MessageKind,
        what: String,
    },
    Held {
        until: Option<Tick>,
    },
    /// A held message let go: it travels on, arriving at its due time.
    Released,
    Dropped {
        why: String,
    },
    Duplicated {
        copy: u32,
    },
    LostAtCrashedNode {
        to: Name,
    },
    // coordinator
    AcquireQueued {
        lock: Name,
    },
    LeaseGranted {
        lock: Name,
        expires_local: i64,
    },
    FenceStarted {
        lock: Name,
        resources: Vec<Name>,
    },
    /// Fence-on-acquire: fences not acknowledged in time are sent again.
    FenceRetried {
        lock: Name,
        resources: Vec<Name>,
    },
    LeaseRenewed {
        lock: Name,
        expires_local: i64,
    },
    RenewalDenied {
        lock: Name,
    },
    LeaseExpired {
        lock: Name,
        holder: Name,
    },
    LeaseReleased {
        lock: Name,
    },
    /// Takeover: `by`'s acquire ended `holder`'s grant (Kafka's initTransactions).
    LeaseTakenOver {
        lock: Name,
        holder: Name,
        by: Name,
    },
    /// Bump on expiry: a new token held by nobody, registered at `resources` first where the
    /// receivers register tokens (Kafka's transaction timeout, its abort markers).
    TokenBumped {
        lock: Name,
        resources: Vec<Name>,
    },
    /// The lock is free: everyone waiting for it is told to ask again.
    WaitersNotified {
        lock: Name,
        workers: Vec<Name>,
    },
    CoordinatorRestarted {
        persisted: bool,
    },
    CoordinatorRestored,
    CoordinatorBackedUp,
    FailedOver {
        replica: usize,
        /// Async replication: the replica had only what it last caught up to.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        behind: bool,
    },
    // worker
    AcquireSent {
        lock: Name,
    },
    LeaseAcquired {
        lock: Name,
        valid_until_local: i64,
    },
    LeaseBeliefRenewed {
        valid_until_local: i64,
    },
    RenewalFailed {
        why: String,
    },
    LeaseBeliefExpired {
        lock: Name,
    },
    Prepared {
        op: Op,
        targets: Vec<Name>,
    },
    Paused {
        until: Option<Tick>,
    },
    Resumed,
    Crashed,
    Restarted,
    ReplyReceived {
        outcome: String,
    },
    /// An answer that matches no request the worker is waiting for: logged, never believed.
    ReplyIgnored {
        kind: MessageKind,
        /// The request number it claims to answer.
        req: u32,
        why: String,
    },
    Partitioned,
    Healed,
    ClockJumped {
        by: i64,
        reads: i64,
    },
    // resource
    /// Check-then-write's check, with the comparison it made.
    CheckPassed {
        resource: Name,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        compared: Option<Compared>,
    },
    /// `highest` and `value` are as this write left them; `compared` is the comparison it
    /// passed (made earlier, at its check, under check-then-write), `None` where no token
    /// was compared.
    WriteAccepted {
        resource: Name,
        highest: Option<Token>,
        value: String,
        no_op: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        compared: Option<Compared>,
    },
    /// `highest` and `value` are what the resource kept, as the refusal left them.
    WriteRejected {
        resource: Name,
        reason: Reason,
        highest: Option<Token>,
        #[serde(default)]
        value: String,
        /// A conditional write refused: the version it named and the object's, as compared.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        versions: Option<Versions>,
    },
    WriteReplayed {
        resource: Name,
        recorded: String,
    },
    /// `before`: the token registered when a lower one arrived (a grant's registration late,
    /// or a newer grant with a lower token: the resource cannot tell which). Fence-on-acquire
    /// keeps it; equal-token, which keeps only the latest registration, replaces it.
    FenceRegistered {
        resource: Name,
        highest: Option<Token>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        before: Option<Token>,
    },
    /// A transaction refused at another of its objects: this one is left unchanged.
    TransactionRefused {
        resource: Name,
        because: String,
    },
    ResourceBackedUp {
        resource: Name,
    },
    ResourceRestored {
        resource: Name,
        highest: Option<Token>,
        value: String,
    },
    ResourceRestarted {
        resource: Name,
        lost_checks: usize,
    },
    // checker
    Violation {
        kind: ViolationKind,
        resource: Name,
        detail: String,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t={:<4} {:<12} {}", self.tick, self.actor, self.kind)?;
        // Messages name their token in their description already.
        let described = matches!(
            self.kind,
            EventKind::Sent { .. } | EventKind::Delivered { .. }
        );
        match &self.token {
            Some(t) if !described => write!(f, " [token {t}]"),
            _ => Ok(()),
        }
    }
}

fn tok(t: &Option<Token>) -> String {
    t.as_ref().map_or("none".to_string(), |t| t.short())
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use EventKind::*;
        match self {
            Sent { to, what, .. } => write!(f, "sends {what} to {to}"),
            Delivered { to, what, .. } => write!(f, "delivers {what} to {to}"),
            Held { until: Some(t) } => write!(f, "holds the message until t={t}"),
            Held { until: None } => write!(f, "holds the message indefinitely"),
            Released => write!(f, "lets the held message travel on"),
            Dropped { why } => write!(f, "drops the message ({why})"),
            Duplicated { copy } => write!(f, "duplicates the message as #{copy}"),
            LostAtCrashedNode { to } => write!(f, "message lost: {to} has crashed"),
            AcquireQueued { lock } => write!(f, "queues the request for {lock}"),
            LeaseGranted {
                lock,
                expires_local,
            } => write!(f, "grants {lock}, expiring at its clock {expires_local}"),
            FenceStarted { lock, resources } => {
                write!(f, "fences {} before granting {lock}", resources.join(", "))
            }
            FenceRetried { lock, resources } => write!(
                f,
                "has no acknowledgement yet: fences {} again before granting {lock}",
                resources.join(", ")
            ),
            LeaseRenewed {
                lock,
                expires_local,
            } => write!(f, "renews {lock} until its clock {expires_local}"),
            RenewalDenied { lock } => write!(f, "denies renewal of {lock}: not the holder"),
            LeaseExpired { lock, holder } => write!(f, "expires {holder}'s lease on {lock}"),
            LeaseReleased { lock } => write!(f, "records the release of {lock}"),
            LeaseTakenOver { lock, holder, by } => {
                write!(f, "ends {holder}'s grant of {lock}: {by} takes it over")
            }
            TokenBumped { lock, resources } if resources.is_empty() => {
                write!(f, "moves {lock} on to a new token that nobody holds")
            }
            TokenBumped { lock, resources } => write!(
                f,
                "moves {lock} on to a new token that nobody holds, and fences {} with it",
                resources.join(", ")
            ),
            WaitersNotified { lock, workers } => write!(
                f,
                "tells {} that {lock} is free: ask again",
                workers.join(", ")
            ),
            CoordinatorRestarted { persisted: true } => write!(f, "restarts with its state"),
            CoordinatorRestarted { persisted: false } => {
                write!(f, "restarts without persistence: leases and counter lost")
            }
            CoordinatorRestored => write!(f, "is restored from backup: the counter moves back"),
            CoordinatorBackedUp => write!(f, "takes a backup snapshot"),
            FailedOver {
                replica,
                behind: false,
            } => write!(f, "fails over to replica {replica}"),
            FailedOver {
                replica,
                behind: true,
            } => write!(
                f,
                "fails over to replica {replica}, which has only what it last caught up to: leases and counters since are lost"
            ),
            AcquireSent { lock } => write!(f, "asks for {lock}"),
            LeaseAcquired {
                lock,
                valid_until_local,
            } => write!(
                f,
                "holds {lock}, believing it valid until its clock {valid_until_local}"
            ),
            LeaseBeliefRenewed { valid_until_local } => {
                write!(
                    f,
                    "believes its lease valid until its clock {valid_until_local}"
                )
            }
            RenewalFailed { why } => write!(f, "renewal failed: {why}"),
            LeaseBeliefExpired { lock } => {
                write!(f, "sees by its own clock that {lock} has run out")
            }
            Prepared { op, targets } => write!(f, "prepares {op} for {}", targets.join(" + ")),
            Paused { until: Some(t) } => write!(f, "pauses (stop-the-world) until t={t}"),
            Paused { until: None } => write!(f, "pauses (stop-the-world)"),
            Resumed => write!(f, "resumes where it left off"),
            Crashed => write!(f, "crashes"),
            Restarted => write!(f, "restarts with no lease"),
            ReplyReceived { outcome } => write!(f, "learns its request was {outcome}"),
            ReplyIgnored { kind, req, why } => {
                write!(f, "ignores a {} answering #{req}: {why}", kind.word())
            }
            Partitioned => write!(f, "is cut off from the coordinator"),
            Healed => write!(f, "reaches the coordinator again"),
            ClockJumped { by, reads } => write!(f, "clock jumps by {by:+} to {reads}"),
            CheckPassed { .. } => write!(
                f,
                "checks the token: it passes; the write is a separate, later step"
            ),
            WriteAccepted {
                highest,
                value,
                no_op,
                compared,
                ..
            } => {
                if let Some(c) = compared.as_ref().filter(|c| c.earlier) {
                    write!(
                        f,
                        "writes what it checked at t={} (highest then {}) without comparing again; ",
                        c.at,
                        tok(&c.against)
                    )?;
                }
                if *no_op {
                    write!(f, "accepts: already stored, nothing changes")
                } else {
                    write!(f, "accepts; value “{value}”, highest {}", tok(highest))
                }
            }
            WriteRejected {
                reason,
                versions: Some(v),
                ..
            } => write!(
                f,
                "rejects: {} (the write names version {}, the object is at version {})",
                reason.as_str(),
                v.named,
                v.found
            ),
            WriteRejected {
                reason, highest, ..
            } => {
                write!(f, "rejects: {} (highest {})", reason.as_str(), tok(highest))
            }
            WriteReplayed { recorded, .. } => {
                write!(
                    f,
                    "replays the recorded result ({recorded}) without executing again"
                )
            }
            FenceRegistered {
                highest,
                before: Some(b),
                ..
            } => match highest {
                Some(h) if h == b => write!(
                    f,
                    "keeps {}: the token it is asked to register is lower, so nothing changes",
                    b.short()
                ),
                _ => write!(
                    f,
                    "replaces the registered {} with a lower token: it keeps the latest registration, whatever its order; registered {}",
                    b.short(),
                    tok(highest)
                ),
            },
            FenceRegistered { highest, .. } => {
                write!(
                    f,
                    "registers the new token before its owner is told; highest {}",
                    tok(highest)
                )
            }
            TransactionRefused { because, .. } => {
                write!(
                    f,
                    "leaves its part undone: the transaction was refused at {because}"
                )
            }
            ResourceBackedUp { .. } => write!(f, "takes a backup snapshot"),
            ResourceRestored { highest, value, .. } => {
                write!(
                    f,
                    "is restored from backup: value “{value}”, highest {}",
                    tok(highest)
                )
            }
            ResourceRestarted { lost_checks, .. } => {
                write!(f, "restarts ({lost_checks} unfinished writes lost)")
            }
            Violation { kind, detail, .. } => write!(f, "VIOLATION {}: {detail}", kind.as_str()),
        }
    }
}

/// Evidence, counted from events, with fencing rejections apart from business failures.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Metrics {
    pub lease_acquired: u32,
    pub lease_renewed: u32,
    pub renewal_failed: u32,
    pub lease_expired: u32,
    pub lease_released: u32,
    pub writes_accepted: u32,
    pub fencing_rejected_stale: u32,
    pub fencing_rejected_missing_token: u32,
    pub fencing_rejected_wrong_scope: u32,
    pub business_failed: u32,
    /// Requests refused because their idempotency key was used for another operation.
    #[serde(default)]
    pub key_reused: u32,
    /// Conditional writes refused because the object changed since it was read.
    #[serde(default)]
    pub precondition_failed: u32,
    /// Writes refused by equal-token because their token is not the registered one.
    #[serde(default)]
    pub fencing_rejected_not_registered: u32,
    /// Requests refused because their idempotency key's first request is still executing.
    #[serde(default)]
    pub key_in_flight: u32,
    pub dedup_replayed: u32,
    pub messages_dropped: u32,
    /// Answers a worker could not match to a request it was waiting for.
    pub replies_ignored: u32,
    pub violations: u32,
}

impl Metrics {
    pub fn count(&mut self, kind: &EventKind) {
        use EventKind::*;
        match kind {
            LeaseGranted { .. } => self.lease_acquired += 1,
            LeaseRenewed { .. } => self.lease_renewed += 1,
            RenewalFailed { .. } => self.renewal_failed += 1,
            LeaseExpired { .. } => self.lease_expired += 1,
            LeaseReleased { .. } => self.lease_released += 1,
            WriteAccepted { .. } => self.writes_accepted += 1,
            WriteRejected { reason, .. } => match reason {
                Reason::Stale => self.fencing_rejected_stale += 1,
                Reason::MissingToken => self.fencing_rejected_missing_token += 1,
                Reason::WrongScope => self.fencing_rejected_wrong_scope += 1,
                Reason::Business => self.business_failed += 1,
                Reason::KeyReused => self.key_reused += 1,
                Reason::PreconditionFailed => self.precondition_failed += 1,
                Reason::NotRegistered => self.fencing_rejected_not_registered += 1,
                Reason::InFlight => self.key_in_flight += 1,
            },
            WriteReplayed { .. } => self.dedup_replayed += 1,
            Dropped { .. } => self.messages_dropped += 1,
            ReplyIgnored { .. } => self.replies_ignored += 1,
            Violation { .. } => self.violations += 1,
            _ => {}
        }
    }

    /// Every metric's name as files write it (its field's): what a scenario's
    /// `expect.metrics` may name, checked without serialising a `Metrics` into a
    /// `serde_json::Value` (a serializer the page would carry for this alone).
    pub const NAMES: [&'static str; 18] = [
        "lease_acquired",
        "lease_renewed",
        "renewal_failed",
        "lease_expired",
        "lease_released",
        "writes_accepted",
        "fencing_rejected_stale",
        "fencing_rejected_missing_token",
        "fencing_rejected_wrong_scope",
        "business_failed",
        "key_reused",
        "precondition_failed",
        "fencing_rejected_not_registered",
        "key_in_flight",
        "dedup_replayed",
        "messages_dropped",
        "replies_ignored",
        "violations",
    ];

    /// Name and value of every metric, in a fixed order, for tables.
    pub fn rows(&self) -> Vec<(&'static str, u32)> {
        vec![
            ("lease acquired", self.lease_acquired),
            ("lease renewed", self.lease_renewed),
            ("renewal failed", self.renewal_failed),
            ("lease expired", self.lease_expired),
            ("lease released", self.lease_released),
            ("writes accepted", self.writes_accepted),
            ("fencing rejected: stale", self.fencing_rejected_stale),
            (
                "fencing rejected: missing token",
                self.fencing_rejected_missing_token,
            ),
            (
                "fencing rejected: wrong scope",
                self.fencing_rejected_wrong_scope,
            ),
            ("business failed", self.business_failed),
            ("idempotency key reused", self.key_reused),
            ("precondition failed", self.precondition_failed),
            (
                "fencing rejected: not registered",
                self.fencing_rejected_not_registered,
            ),
            ("idempotency key in flight", self.key_in_flight),
            ("dedup replayed", self.dedup_replayed),
            ("messages dropped", self.messages_dropped),
            ("replies ignored", self.replies_ignored),
            ("violations", self.violations),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::Metrics;

    #[test]
    fn metric_names_are_the_serialised_fields() {
        let json = serde_json::to_value(Metrics::default()).unwrap();
        let fields: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut names = Metrics::NAMES.to_vec();
        names.sort_unstable();
        let mut sorted = fields.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, names);
    }
}

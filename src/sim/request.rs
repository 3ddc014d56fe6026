//! A protected operation as it travels to a resource, and what became of it.

use super::name::Name;
use super::token::Token;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a request asks the resource to do.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Op {
    /// Replace the value (a store), send a message (email), store content (content store), call (API).
    Set(String),
    /// Take money from an account; refused below zero by business validation.
    Debit(i64),
    Credit(i64),
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::Set(v) => write!(f, "“{v}”"),
            Op::Debit(n) => write!(f, "debit {n}"),
            Op::Credit(n) => write!(f, "credit {n}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Request {
    /// A name for this send, unique in the run: `A1`, or the label the script gave it.
    pub id: Name,
    pub from: Name,
    /// The resources it writes. More than one only for a transaction.
    pub targets: Vec<Name>,
    /// `None` when the sender's code path omitted it.
    pub token: Option<Token>,
    /// Stable operation id: a retry carries the same one.
    pub op_id: Name,
    pub op: Op,
    /// Ghost data for the checker: the lock and true grant generation the sender acted under.
    pub grant: Option<(Name, u32)>,
    /// For one part of a multi-object operation sent as separate writes: every object it covers.
    pub multi: Vec<Name>,
    /// A transaction across authority domains: the token of every other lock the sender
    /// held for its targets, each with its ghost generation (one token per lock).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<(Token, u32)>,
    /// Apply only if the object's version is this one (`WriteSpec::if_version`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub if_version: Option<u64>,
}

impl Request {
    /// The token this request presents at a resource of `lock`: that lock's token when it
    /// carries one, else its main token (which a resource that binds scope will refuse).
    pub fn token_for(&self, lock: &str) -> Option<&Token> {
        self.also
            .iter()
            .map(|(t, _)| t)
            .find(|t| t.lock == lock && self.token.as_ref().is_none_or(|m| m.lock != lock))
            .or(self.token.as_ref())
    }

    /// Ghost: the true generation of `lock` the sender acted under (0: no grant of that lock).
    pub fn generation_for(&self, lock: &str) -> u32 {
        match &self.grant {
            Some((l, g)) if l == lock => *g,
            _ => self
                .also
                .iter()
                .find(|(t, _)| t.lock == lock)
                .map_or(0, |(_, g)| *g),
        }
    }
}

/// Why a resource refused a request. Fencing reasons are kept apart from business failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The token is older than (or, under strict, equal to) the highest accepted.
    Stale,
    MissingToken,
    /// The token was minted for another lock.
    WrongScope,
    /// The operation itself was refused (an account may not go below zero).
    Business,
    /// Its idempotency key was used before for another operation (Stripe answers 400: a
    /// key may only be reused with the same parameters).
    KeyReused,
    /// A conditional write whose version is no longer the object's: someone wrote since it
    /// was read (S3 and GCS answer 412 Precondition Failed).
    PreconditionFailed,
    /// Not the token the last grant registered here (equal-token): the receiver cannot
    /// say older or newer, only "not the one I was told about".
    NotRegistered,
    /// Its idempotency key belongs to a request that is still executing (check-then-write:
    /// checked, not yet written). Stripe answers 409 Conflict: a key's result is saved once
    /// execution starts, so a concurrent duplicate is refused rather than run twice.
    InFlight,
}

impl Reason {
    pub fn as_str(&self) -> &'static str {
        match self {
            Reason::Stale => "stale",
            Reason::MissingToken => "missing_token",
            Reason::WrongScope => "wrong_scope",
            Reason::Business => "business",
            Reason::KeyReused => "key_reused",
            Reason::PreconditionFailed => "precondition_failed",
            Reason::NotRegistered => "not_registered",
            Reason::InFlight => "in_flight",
        }
    }

    /// A refusal by the token's authority (too old, or not the registered one): what the
    /// checker holds against the coordinator's own record of who holds the lock.
    pub fn judges_authority(&self) -> bool {
        matches!(self, Reason::Stale | Reason::NotRegistered)
    }

    pub fn is_fencing(&self) -> bool {
        !matches!(
            self,
            Reason::Business | Reason::KeyReused | Reason::InFlight
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Accepted,
    Rejected(Reason),
    /// Deduplicated: the recorded result of the first execution was returned.
    Replayed(Box<Outcome>),
    Dropped,
    Pending,
}

/// How a request ended, as a report says it: the kind of its first verdict, or that it was
/// dropped or is still pending. Reports, expectations and the views compare these, never words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    Accepted,
    Rejected,
    Replayed,
    Dropped,
    Pending,
}

impl Fate {
    /// The word the run output uses: accepted | rejected | replayed | dropped | pending.
    pub fn as_str(self) -> &'static str {
        match self {
            Fate::Accepted => "accepted",
            Fate::Rejected => "rejected",
            Fate::Replayed => "replayed",
            Fate::Dropped => "dropped",
            Fate::Pending => "pending",
        }
    }
}

impl std::fmt::Display for Fate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Outcome {
    pub fn fate(&self) -> Fate {
        match self {
            Outcome::Accepted => Fate::Accepted,
            Outcome::Rejected(_) => Fate::Rejected,
            Outcome::Replayed(_) => Fate::Replayed,
            Outcome::Dropped => Fate::Dropped,
            Outcome::Pending => Fate::Pending,
        }
    }

    /// The word the run output uses: accepted | rejected | replayed | dropped | pending.
    pub fn word(&self) -> &'static str {
        self.fate().as_str()
    }

    pub fn reason(&self) -> Option<Reason> {
        match self {
            Outcome::Rejected(r) => Some(*r),
            _ => None,
        }
    }
}

//! Protected resources: the receivers that accept or refuse each request.
//!
//! A resource decides with what it has: the token in the request, its own highest
//! accepted token, its recorded operation results. The order of checks is the order
//! a careful receiver uses: dedup first (a retry gets its recorded answer), then the
//! fence, then business validation, then the effect.

use super::name::Name;
use super::request::{Op, Outcome, Reason, Request};
use super::shared_map::SharedMap;
use super::shared_vec::SharedVec;
use super::time::Tick;
use super::token::Token;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// How a fenceable resource compares tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// Last write wins; tokens are ignored.
    Unfenced,
    /// Reject a token below the highest accepted; accept an equal one (the essay's `Resource`).
    HighestSeen,
    /// Reject a token at or below the highest accepted: each token writes once.
    Strict,
    /// Highest-seen, but reading, comparing and writing are separate steps that can interleave.
    CheckThenWrite,
    /// Highest-seen, and acquiring registers the new token here before the grant is announced.
    FenceOnAcquire,
    /// Acquiring registers the new token here before the grant is announced, and a write
    /// passes only with exactly that token: compare-and-set by equality, all a receiver can
    /// do with values that have no order (Redlock's random values). A registration always
    /// replaces the last one, since which is newer cannot be told.
    EqualToken,
}

impl Policy {
    pub const ALL: [Policy; 6] = [
        Policy::Unfenced,
        Policy::HighestSeen,
        Policy::Strict,
        Policy::CheckThenWrite,
        Policy::FenceOnAcquire,
        Policy::EqualToken,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            Policy::Unfenced => "unfenced",
            Policy::HighestSeen => "highest-seen",
            Policy::Strict => "strict",
            Policy::CheckThenWrite => "check-then-write",
            Policy::FenceOnAcquire => "fence-on-acquire",
            Policy::EqualToken => "equal-token",
        }
    }

    pub fn parse(s: &str) -> Option<Policy> {
        Self::ALL.into_iter().find(|p| p.as_str() == s)
    }

    pub fn describe(&self) -> &'static str {
        match self {
            Policy::Unfenced => "last write wins; tokens are ignored",
            Policy::HighestSeen => {
                "rejects a token below the highest accepted; an equal token passes"
            }
            Policy::Strict => "rejects a token at or below the highest accepted",
            Policy::CheckThenWrite => {
                "compares like highest-seen, but the check and the write are separate steps"
            }
            Policy::FenceOnAcquire => {
                "highest-seen, and each new token is registered here before its owner is told"
            }
            Policy::EqualToken => {
                "each new token is registered here before its owner is told; only the registered token passes"
            }
        }
    }

    /// Whether a registration replaces the one before whatever its token (equal-token, which
    /// cannot order tokens), rather than only a lower one: then a late registration matters.
    pub fn registration_replaces(&self) -> bool {
        *self == Policy::EqualToken
    }

    /// What the token a receiver keeps is: the highest it accepted, or (equal-token) the one
    /// the latest grant registered.
    pub fn kept_token(&self) -> &'static str {
        if self.registration_replaces() {
            "registered"
        } else {
            "highest"
        }
    }

    /// Whether a grant registers its token at this receiver before the owner hears of it.
    pub fn registers_on_acquire(&self) -> bool {
        matches!(self, Policy::FenceOnAcquire | Policy::EqualToken)
    }
}

/// What sort of destination this is. Only stores and accounts can enforce a fence.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum ResourceKind {
    /// A record holding one value.
    Store {
        #[serde(default)]
        value: String,
    },
    /// A balance; business validation refuses a debit below zero.
    Account { balance: i64 },
    /// Displays whatever arrives; checks nothing.
    Email,
    /// A third-party API that cannot check a token; its only protection is a request-level
    /// idempotency key, which is `options.dedup` keyed by operation id.
    IdempotentApi,
    /// Immutable, content-addressed: a key is written once; writing the same content again changes nothing.
    ContentStore,
}

impl ResourceKind {
    pub fn can_fence(&self) -> bool {
        matches!(
            self,
            ResourceKind::Store { .. } | ResourceKind::Account { .. }
        )
    }

    pub fn name(&self) -> &'static str {
        match self {
            ResourceKind::Store { .. } => "store",
            ResourceKind::Account { .. } => "account",
            ResourceKind::Email => "email",
            ResourceKind::IdempotentApi => "idempotent-api",
            ResourceKind::ContentStore => "content-store",
        }
    }
}

/// Receiver options, each one of the essay's separate requirements.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ResourceOptions {
    /// Refuse a request that carries no token (otherwise it is let through unchecked).
    pub require_token: bool,
    /// Refuse a token minted for another lock (otherwise a bare integer passes).
    pub bind_scope: bool,
    /// Record each operation id's result and replay it to a retry.
    pub dedup: bool,
    /// Forget a recorded result this many ticks after recording it, as Stripe may prune an
    /// idempotency key once it is 24 hours old (never, when absent). Judged by true time:
    /// resources have no clock of their own in the model, so theirs is taken to be exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_expiry: Option<Tick>,
    /// A transactional outbox: every write applied here is also a row that a relay sends on
    /// to this resource (one that cannot fence, such as an email) and marks sent when it is
    /// answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relay_to: Option<Name>,
}

impl Default for ResourceOptions {
    fn default() -> Self {
        ResourceOptions {
            require_token: true,
            bind_scope: true,
            dedup: false,
            key_expiry: None,
            relay_to: None,
        }
    }
}

/// What a deduplicating resource keeps per operation id (an idempotency key): the operation
/// it was used for, its result, and when it was recorded.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Recorded {
    pub op: Op,
    pub outcome: Outcome,
    pub at: Tick,
}

/// Everything a restore brings back.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ResourceData {
    pub highest: Option<Token>,
    pub value: String,
    pub balance: i64,
    /// Content store keys; email outbox; API calls made.
    /// Grows with every email sent or key added, so shared between snapshots (`SharedVec`).
    pub items: SharedVec<String>,
    /// Bumped by every write applied: what a conditional write names (S3's ETag, GCS's
    /// generation, a row version). Starts at 1.
    #[serde(default)]
    pub version: u64,
    /// Recorded results by operation id (dedup and idempotency keys): one per operation,
    /// growing with the run, so shared between snapshots (`SharedMap`).
    pub results: SharedMap<Name, Recorded>,
    /// An outbox's rows not yet marked sent (`options.relay_to`): durable, as the table is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unsent: Vec<Request>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Resource {
    pub name: Name,
    /// The lock whose tokens this resource honours: its authority domain.
    pub lock: Name,
    pub kind: ResourceKind,
    pub policy: Policy,
    pub options: ResourceOptions,
    pub data: ResourceData,
    /// Check-then-write: requests that passed the check and have not written yet.
    pub checked: Vec<Checked>,
    /// Writes bump `data.version` (only where the scenario writes conditionally).
    #[serde(default)]
    pub versioned: bool,
    /// Shared, immutable once taken (see `Coordinator::backup`).
    pub backup: Option<std::rc::Rc<ResourceData>>,
}

/// A check-then-write request between its check and its write: what it was compared with,
/// and when, so the write can be told as what it is (written on an earlier check).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checked {
    pub request: Request,
    /// `None`: let through without a token to compare.
    pub compared: Option<Compared>,
}

/// Only the request: the comparison is the story of the check and changes no future, so
/// worlds that differ only in it are one state to the explorer (`World::state_key`).
impl std::hash::Hash for Checked {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.request.hash(h);
    }
}

/// The token comparison a decision rests on: when it was made and against which kept token
/// (`None`: the resource had none yet). A decision records it as it is made, so its story
/// is told from it, never from the state after the step.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Compared {
    pub at: Tick,
    pub against: Option<Token>,
    /// Made at an earlier check (check-then-write), not as the write was decided.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub earlier: bool,
    /// For a write on an earlier check: the token kept here when it was written, where that
    /// is no longer the one it was compared against (another was recorded in between).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overtaken_by: Option<Token>,
}

/// What a resource did with a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Applied {
        no_op: bool,
    },
    Rejected(Reason),
    Replayed(Outcome),
    /// Check-then-write: the check passed; the write is a later step.
    Checked,
}

impl Verdict {
    pub fn outcome(&self) -> Outcome {
        match self {
            Verdict::Applied { .. } => Outcome::Accepted,
            Verdict::Rejected(r) => Outcome::Rejected(*r),
            Verdict::Replayed(o) => Outcome::Replayed(Box::new(o.clone())),
            Verdict::Checked => Outcome::Pending,
        }
    }
}

impl Resource {
    pub fn new(
        name: &str,
        lock: &str,
        kind: ResourceKind,
        policy: Policy,
        options: ResourceOptions,
    ) -> Self {
        let (value, balance) = match &kind {
            ResourceKind::Store { value } => (value.clone(), 0),
            ResourceKind::Account { balance } => (balance.to_string(), *balance),
            _ => (String::new(), 0),
        };
        let data = ResourceData {
            highest: None,
            value,
            balance,
            items: SharedVec::default(),
            version: 1,
            results: SharedMap::default(),
            unsent: Vec::new(),
        };
        Resource {
            name: name.into(),
            lock: lock.into(),
            kind,
            policy,
            options,
            backup: Some(std::rc::Rc::new(data.clone())),
            data,
            checked: Vec::new(),
            versioned: false,
        }
    }

    pub fn is_fenced(&self) -> bool {
        self.kind.can_fence() && self.policy != Policy::Unfenced
    }

    fn dedups(&self) -> bool {
        self.options.dedup
    }

    /// The fence alone: may this token write here now?
    pub fn fence_check(&self, token: Option<&Token>) -> Result<(), Reason> {
        if !self.is_fenced() {
            return Ok(());
        }
        let Some(token) = token else {
            return if self.options.require_token {
                Err(Reason::MissingToken)
            } else {
                Ok(())
            };
        };
        if self.options.bind_scope && token.lock != self.lock {
            return Err(Reason::WrongScope);
        }
        let Some(highest) = &self.data.highest else {
            return Ok(());
        };
        if self.policy == Policy::EqualToken {
            return if token == highest {
                Ok(())
            } else {
                Err(Reason::NotRegistered)
            };
        }
        let ok = match (self.policy, token.order(highest)) {
            (Policy::Strict, Ordering::Greater) => true,
            (Policy::Strict, _) => false,
            (_, Ordering::Less) => false,
            _ => true,
        };
        if ok {
            Ok(())
        } else {
            Err(Reason::Stale)
        }
    }

    /// Business validation, distinct from fencing.
    pub fn business_check(&self, op: &Op) -> Result<(), Reason> {
        match (&self.kind, op) {
            (ResourceKind::Account { .. }, Op::Debit(n)) if self.data.balance < *n => {
                Err(Reason::Business)
            }
            _ => Ok(()),
        }
    }

    /// Dedup lookup: what was recorded for this operation id at `now`, if it is still kept.
    pub fn recorded(&self, op_id: &str, now: Tick) -> Option<&Recorded> {
        if !self.dedups() {
            return None;
        }
        let r = self.data.results.get(op_id)?;
        let kept = self
            .options
            .key_expiry
            .is_none_or(|e| now < r.at.saturating_add(e));
        kept.then_some(r)
    }

    /// Everything before the effect: dedup (a retry gets the recorded result; the key reused
    /// for another operation is refused; a key whose request is still executing is refused
    /// as in flight), the version precondition, fence, business rule.
    pub fn judge(&self, req: &Request, now: Tick) -> Result<(), Verdict> {
        if let Some(r) = self.recorded(&req.op_id, now) {
            return Err(if r.op == req.op {
                Verdict::Replayed(r.outcome.clone())
            } else {
                Verdict::Rejected(Reason::KeyReused)
            });
        }
        if self.dedups() && self.checked.iter().any(|c| c.request.op_id == req.op_id) {
            return Err(Verdict::Rejected(Reason::InFlight));
        }
        self.version_check(req).map_err(Verdict::Rejected)?;
        self.fence_check(req.token_for(&self.lock))
            .map_err(Verdict::Rejected)?;
        self.business_check(&req.op).map_err(Verdict::Rejected)
    }

    /// A conditional write's precondition: the store enforces it as it writes (S3's If-Match,
    /// GCS's ifGenerationMatch), so check-then-write checks it again at the write.
    fn version_check(&self, req: &Request) -> Result<(), Reason> {
        match req.if_version {
            Some(v) if v != self.data.version => Err(Reason::PreconditionFailed),
            _ => Ok(()),
        }
    }

    /// A request arrives. Check-then-write parks it after the check; others decide and act at once.
    pub fn receive(&mut self, req: &Request, now: Tick) -> Verdict {
        if let Err(v) = self.judge(req, now) {
            self.record(req, &v, now);
            return v;
        }
        if self.policy == Policy::CheckThenWrite && self.kind.can_fence() {
            self.checked.push(Checked {
                request: req.clone(),
                compared: self.compared_now(req, now),
            });
            return Verdict::Checked;
        }
        let v = self.apply(req);
        self.record(req, &v, now);
        v
    }

    /// Check-then-write's second step: write what was checked earlier without comparing its
    /// token again. Only the application's token comparison is split from the write; what the
    /// store itself enforces as it writes (a version precondition, a business rule) still
    /// holds, and an idempotency key was taken when the check began (`Reason::InFlight`).
    pub fn complete(
        &mut self,
        request_id: &str,
        now: Tick,
    ) -> Option<(Request, Verdict, Option<Compared>)> {
        let at = self
            .checked
            .iter()
            .position(|c| c.request.id == request_id)?;
        let Checked {
            request: req,
            mut compared,
        } = self.checked.remove(at);
        if let Some(c) = compared.as_mut() {
            c.earlier = true;
            c.overtaken_by = Some(&self.data.highest)
                .filter(|h| **h != c.against)
                .and_then(|h| h.clone());
        }
        let v = match self
            .version_check(&req)
            .and_then(|()| self.business_check(&req.op))
        {
            Ok(()) => self.apply(&req),
            Err(r) => Verdict::Rejected(r),
        };
        self.record(&req, &v, now);
        Some((req, v, compared))
    }

    /// The comparison a decision made now rests on: the token it presents here against the
    /// token kept here (`None` where no token is compared: an unfenced or unfenceable
    /// destination, or a request let through without one).
    pub fn compared_now(&self, req: &Request, now: Tick) -> Option<Compared> {
        req.token_for(&self.lock)
            .filter(|_| self.is_fenced())
            .map(|_| Compared {
                at: now,
                against: self.data.highest.clone(),
                earlier: false,
                overtaken_by: None,
            })
    }

    /// Keep what an execution decided under its operation id (never a replay or a refusal
    /// that ran nothing, which would overwrite the first result).
    pub fn record(&mut self, req: &Request, v: &Verdict, now: Tick) {
        let keep = matches!(
            v,
            Verdict::Applied { .. } | Verdict::Rejected(Reason::Business)
        );
        if self.dedups() && keep {
            let r = Recorded {
                op: req.op.clone(),
                outcome: v.outcome(),
                at: now,
            };
            self.data.results.insert(req.op_id.clone(), r);
        }
    }

    /// The effect. The token write is a plain assignment: under check-then-write it can move backwards.
    pub fn apply(&mut self, req: &Request) -> Verdict {
        if self.is_fenced() {
            if let Some(t) = req.token_for(&self.lock) {
                // Check-then-write assigns whatever it checked, so it can move backwards;
                // an equal token leaves the register as it is.
                if self.policy == Policy::CheckThenWrite
                    || self.policy != Policy::EqualToken
                        && self
                            .data
                            .highest
                            .as_ref()
                            .is_none_or(|h| t.order(h) == Ordering::Greater)
                {
                    self.data.highest = Some(t.clone());
                }
            }
        }
        let text = match &req.op {
            Op::Set(v) => v.clone(),
            Op::Debit(n) => format!("debit {n}"),
            Op::Credit(n) => format!("credit {n}"),
        };
        match &self.kind {
            ResourceKind::Store { .. } => self.data.value = text,
            ResourceKind::Account { .. } => {
                match req.op {
                    Op::Debit(n) => self.data.balance -= n,
                    Op::Credit(n) => self.data.balance += n,
                    Op::Set(_) => {}
                }
                self.data.value = self.data.balance.to_string();
            }
            ResourceKind::Email | ResourceKind::IdempotentApi => {
                self.data.items.push(text.clone());
                self.data.value = text;
            }
            ResourceKind::ContentStore => {
                let key = content_key(&text);
                if self.data.items.contains(&key) {
                    return Verdict::Applied { no_op: true };
                }
                self.data.items.push(key.clone());
                self.data.value = key;
            }
        }
        if self.versioned {
            self.data.version += 1;
        }
        // The row commits with the write, so only an accepted intent is ever sent; kept as the
        // relay's own request to the destination, with the operation id the destination dedupes
        // on and the token and grant it was written under (the checker judges the email by it).
        if let Some(to) = &self.options.relay_to {
            self.data.unsent.push(Request {
                id: format!("{}:{to}", req.id).into(),
                from: self.name.clone(),
                targets: vec![to.clone()],
                multi: Vec::new(),
                if_version: None,
                ..req.clone()
            });
        }
        Verdict::Applied { no_op: false }
    }

    /// An outbox's relay marks a row sent when the destination's answer comes back.
    pub fn mark_sent(&mut self, request: &str) {
        self.data.unsent.retain(|r| r.id != request);
    }

    /// Register a grant's token without writing a value: a newer one under fence-on-acquire;
    /// any one under equal-token, which cannot tell newer from older.
    pub fn fence(&mut self, token: &Token) {
        if self.policy.registration_replaces()
            || self
                .data
                .highest
                .as_ref()
                .is_none_or(|h| token.order(h) == Ordering::Greater)
        {
            self.data.highest = Some(token.clone());
        }
    }

    pub fn take_backup(&mut self) {
        self.backup = Some(std::rc::Rc::new(self.data.clone()));
    }

    pub fn restore(&mut self) {
        if let Some(b) = &self.backup {
            self.data = (**b).clone();
        }
        self.checked.clear();
    }

    /// A restart keeps durable data; checks in progress are lost.
    pub fn restart(&mut self) -> usize {
        let lost = self.checked.len();
        self.checked.clear();
        lost
    }
}

/// A content address: a short, stable digest of the content (FNV-1a).
pub fn content_key(content: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in content.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("cas:{:08x}", h as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn charge(id: &str, amount: &str) -> Request {
        Request {
            id: id.into(),
            from: "A".into(),
            targets: vec!["api".into()],
            token: None,
            op_id: "order-1001".into(),
            op: Op::Set(format!("charge {amount}")),
            grant: None,
            multi: Vec::new(),
            also: Vec::new(),
            if_version: None,
        }
    }

    fn api(key_expiry: Option<Tick>) -> Resource {
        let options = ResourceOptions {
            dedup: true,
            key_expiry,
            ..ResourceOptions::default()
        };
        let kind = ResourceKind::IdempotentApi;
        Resource::new("api", "lock", kind, Policy::HighestSeen, options)
    }

    /// Equal-token can only ask "is this the registered value?": a late registration replaces
    /// a newer one, where fence-on-acquire keeps the higher token.
    #[test]
    fn equal_token_registers_the_last_value_and_accepts_only_it() {
        let tok = |counter| Token {
            lock: "lock".into(),
            epoch: 0,
            counter,
        };
        let store = |policy| {
            let kind = ResourceKind::Store {
                value: String::new(),
            };
            Resource::new("file", "lock", kind, policy, ResourceOptions::default())
        };
        let mut eq = store(Policy::EqualToken);
        let mut by_size = store(Policy::FenceOnAcquire);
        for r in [&mut eq, &mut by_size] {
            r.fence(&tok(2519)); // B's, the later grant
            r.fence(&tok(9465)); // A's, registered late
        }
        assert_eq!(
            eq.data.highest,
            Some(tok(9465)),
            "the last registration wins"
        );
        assert_eq!(eq.fence_check(Some(&tok(2519))), Err(Reason::NotRegistered));
        assert_eq!(eq.fence_check(Some(&tok(9465))), Ok(()));
        assert_eq!(
            eq.fence_check(Some(&tok(9999))),
            Err(Reason::NotRegistered),
            "not above: other"
        );
        assert_eq!(eq.fence_check(None), Err(Reason::MissingToken));
        assert_eq!(by_size.data.highest, Some(tok(9465)), "kept as the higher");
        let mut ordered = store(Policy::FenceOnAcquire);
        ordered.fence(&tok(42));
        ordered.fence(&tok(41));
        assert_eq!(
            ordered.data.highest,
            Some(tok(42)),
            "a late, lower registration is ignored"
        );
        // An accepted write leaves the register alone.
        let mut w = charge("A1", "x");
        w.token = Some(tok(9465));
        eq.apply(&w);
        assert_eq!(eq.data.highest, Some(tok(9465)));
        assert_eq!(Policy::EqualToken.kept_token(), "registered");
        assert!(
            Policy::EqualToken.registers_on_acquire()
                && !Policy::HighestSeen.registers_on_acquire()
        );
    }

    /// Stripe's rules: the same key and parameters replay, other parameters are refused, and
    /// a forgotten key runs as new.
    #[test]
    fn an_idempotency_key_replays_refuses_other_parameters_and_expires() {
        let mut r = api(Some(8));
        assert_eq!(
            r.receive(&charge("A1", "20"), 2),
            Verdict::Applied { no_op: false }
        );
        let replay = r.receive(&charge("A2", "20"), 5);
        assert_eq!(replay, Verdict::Replayed(Outcome::Accepted));
        let reused = r.receive(&charge("A3", "25"), 9);
        assert_eq!(reused, Verdict::Rejected(Reason::KeyReused));
        // Recorded at t = 2 and kept 8 ticks: at t = 10 it is forgotten.
        assert_eq!(
            r.receive(&charge("A4", "25"), 10),
            Verdict::Applied { no_op: false }
        );
        // With no expiry it is kept for ever.
        let mut kept = api(None);
        kept.receive(&charge("A1", "20"), 0);
        let late = kept.receive(&charge("A2", "25"), 1_000_000);
        assert_eq!(late, Verdict::Rejected(Reason::KeyReused));
    }
}

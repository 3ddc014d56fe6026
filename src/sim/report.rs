//! The outcome of a run as data: every request's fate, violations, metrics, final state.
//! This is the CLI's JSON output and what tests assert on.

use super::event::{EventKind, Metrics, Versions};
use super::invariant::{Violation, ViolationKind};
use super::request::{Fate, Reason};
use super::run::Run;
use super::scenario::{Expectation, ExpectedVerdict};
use super::token::Token;
use super::world::Overlap;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RequestReport {
    pub id: String,
    pub from: String,
    /// The resource it went to (`X+Y` for a transaction).
    pub resource: String,
    /// `null` when the request carried no token.
    pub token: Option<serde_json::Value>,
    pub op_id: String,
    pub outcome: Fate,
    /// Why, for a rejection.
    pub reason: Option<Reason>,
    pub sent_at: u64,
    pub decided_at: Option<u64>,
    /// Every verdict a copy of this request received, in order. `outcome` is the first; a
    /// duplicate delivered later, or each object of a transaction, adds its own.
    pub verdicts: Vec<VerdictReport>,
}

/// One resource's decision on one delivery of a request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerdictReport {
    pub resource: String,
    /// Accepted, rejected or replayed.
    pub outcome: Fate,
    pub reason: Option<Reason>,
    pub at: u64,
    /// A conditional write refused: the version it named and the object's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub versions: Option<Versions>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceReport {
    pub name: String,
    pub kind: String,
    pub policy: String,
    pub highest: Option<serde_json::Value>,
    pub value: String,
    /// The object's version, where writes are conditional (S3's ETag, GCS's generation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    pub scenario: String,
    pub title: String,
    pub variant: Option<String>,
    pub policy: String,
    pub seed: u64,
    pub ticks: u64,
    pub requests: Vec<RequestReport>,
    pub violations: Vec<Violation>,
    pub overlaps: Vec<Overlap>,
    pub metrics: Metrics,
    pub resources: Vec<ResourceReport>,
}

/// A token as JSON: a number, or `"e2:41"` when it has an epoch.
pub fn token_json(t: &Token) -> serde_json::Value {
    if t.epoch == 0 {
        serde_json::Value::from(t.counter)
    } else {
        serde_json::Value::from(t.short())
    }
}

impl Report {
    pub fn of(run: &Run) -> Report {
        let world = run.world();
        let mut requests: Vec<RequestReport> = Vec::new();
        let mut dropped: Vec<String> = Vec::new();
        for e in run.events() {
            let Some(id) = &e.request else { continue };
            match &e.kind {
                EventKind::Sent { to, .. }
                    if e.op_id.is_some() && !requests.iter().any(|r| &r.id == id) =>
                {
                    requests.push(RequestReport {
                        id: id.to_string(),
                        from: e.actor.to_string(),
                        resource: to.to_string(),
                        token: e.token.as_ref().map(token_json),
                        op_id: e.op_id.as_deref().unwrap_or_default().to_string(),
                        outcome: Fate::Pending,
                        reason: None,
                        sent_at: e.tick,
                        decided_at: None,
                        verdicts: Vec::new(),
                    });
                }
                EventKind::Dropped { .. } => dropped.push(id.to_string()),
                EventKind::WriteAccepted { .. }
                | EventKind::WriteRejected { .. }
                | EventKind::WriteReplayed { .. } => {
                    let Some(r) = requests.iter_mut().find(|r| &r.id == id) else {
                        continue;
                    };
                    let (resource, outcome, reason, versions) = match &e.kind {
                        EventKind::WriteAccepted { resource, .. } => {
                            (resource, Fate::Accepted, None, None)
                        }
                        EventKind::WriteRejected {
                            resource,
                            reason,
                            versions,
                            ..
                        } => (resource, Fate::Rejected, Some(*reason), *versions),
                        EventKind::WriteReplayed { resource, .. } => {
                            (resource, Fate::Replayed, None, None)
                        }
                        _ => unreachable!("matched above"),
                    };
                    r.verdicts.push(VerdictReport {
                        resource: resource.to_string(),
                        outcome,
                        reason,
                        at: e.tick,
                        versions,
                    });
                    if r.decided_at.is_some() {
                        if let EventKind::WriteAccepted { resource, .. }
                        | EventKind::WriteRejected { resource, .. } = &e.kind
                        {
                            if !r.resource.split('+').any(|x| x == resource) {
                                r.resource = format!("{}+{resource}", r.resource);
                            }
                        }
                        continue;
                    }
                    r.decided_at = Some(e.tick);
                    r.outcome = outcome;
                    r.reason = reason;
                }
                _ => {}
            }
        }
        for r in requests.iter_mut().filter(|r| r.decided_at.is_none()) {
            let in_flight = world
                .network()
                .in_flight
                .iter()
                .any(|e| e.msg.request().is_some_and(|q| *q == r.id));
            let checking = world
                .resources()
                .iter()
                .any(|x| x.checked.iter().any(|q| q.request.id == r.id));
            if dropped.contains(&r.id) && !in_flight && !checking {
                r.outcome = Fate::Dropped;
            }
        }
        let resources = world
            .resources()
            .iter()
            .map(|r| ResourceReport {
                name: r.name.to_string(),
                kind: r.kind.name().into(),
                policy: if r.kind.can_fence() {
                    r.policy.as_str().into()
                } else {
                    "cannot fence".into()
                },
                highest: r.data.highest.as_ref().map(token_json),
                value: r.data.value.clone(),
                version: r.versioned.then_some(r.data.version),
            })
            .collect();
        Report {
            scenario: run.scenario.id.clone(),
            title: run.scenario.title.clone(),
            variant: run.variant.clone(),
            policy: run.scenario.policy.as_str().into(),
            seed: run.scenario.seed,
            ticks: world.now(),
            requests,
            violations: world.ghost().violations.to_vec(),
            overlaps: world.overlaps().to_vec(),
            metrics: world.metrics().clone(),
            resources,
        }
    }

    /// Requests some copy of which was decided more than once at one resource: a duplicate
    /// or a retry under the same name delivered again.
    pub fn redelivered(&self) -> impl Iterator<Item = &RequestReport> {
        self.requests.iter().filter(|r| {
            r.verdicts
                .iter()
                .enumerate()
                .any(|(i, v)| r.verdicts[..i].iter().any(|w| w.resource == v.resource))
        })
    }

    pub fn request(&self, id: &str) -> Option<&RequestReport> {
        self.requests.iter().find(|r| r.id == id)
    }

    pub fn has(&self, kind: ViolationKind) -> bool {
        self.violations.iter().any(|v| v.kind == kind)
    }

    /// Every way this report differs from what the variant promised; empty when it matches.
    pub fn mismatches(&self, expect: &Expectation) -> Vec<String> {
        let mut out = Vec::new();
        for (id, want) in &expect.requests {
            match self.request(id) {
                None => out.push(format!("request {id}: never sent")),
                Some(r) => {
                    if r.outcome != want.outcome {
                        out.push(format!(
                            "request {id}: expected {}, got {}",
                            want.outcome, r.outcome
                        ));
                    }
                    if want.reason.is_some() && r.reason != want.reason {
                        let word = |x: Option<Reason>| x.map_or("none", |x| x.as_str());
                        out.push(format!(
                            "request {id}: expected reason {}, got {}",
                            word(want.reason),
                            word(r.reason)
                        ));
                    }
                    if !want.verdicts.is_empty() {
                        let got: Vec<String> = r.verdicts.iter().map(VerdictReport::word).collect();
                        let wanted: Vec<String> =
                            want.verdicts.iter().map(ExpectedVerdict::word).collect();
                        let same = r.verdicts.len() == want.verdicts.len()
                            && r.verdicts
                                .iter()
                                .zip(&want.verdicts)
                                .all(|(g, w)| g.meets(w));
                        if !same {
                            out.push(format!(
                                "request {id}: expected verdicts [{}], got [{}]",
                                wanted.join(", "),
                                got.join(", ")
                            ));
                        }
                    }
                }
            }
        }
        for k in &expect.violations {
            if !self.has(*k) {
                out.push(format!(
                    "expected a {} violation, none reported",
                    k.as_str()
                ));
            }
        }
        for k in &expect.absent {
            if self.has(*k) {
                out.push(format!(
                    "expected no {} violation, one was reported",
                    k.as_str()
                ));
            }
        }
        for (name, value) in &expect.values {
            match self.resources.iter().find(|r| &r.name == name) {
                Some(r) if &r.value == value => {}
                Some(r) => out.push(format!(
                    "{name}: expected value {value:?}, got {:?}",
                    r.value
                )),
                None => out.push(format!("{name}: no such resource")),
            }
        }
        let metrics = serde_json::to_value(&self.metrics)
            .unwrap_or_else(|e| unreachable!("metrics serialise: {e}"));
        for (name, want) in &expect.metrics {
            let got = metrics.get(name).and_then(|v| v.as_u64());
            if got != Some(*want as u64) {
                out.push(format!("metric {name}: expected {want}, got {got:?}"));
            }
        }
        out
    }
}

impl VerdictReport {
    /// Matches an expectation: the same outcome, and the reason and resource where it names them.
    pub fn meets(&self, want: &ExpectedVerdict) -> bool {
        self.outcome == want.outcome
            && want.reason.is_none_or(|r| self.reason == Some(r))
            && want.resource.as_ref().is_none_or(|r| r == &self.resource)
    }

    /// `accepted`, `rejected (stale)`, with the resource: `rejected (stale) at doc`.
    pub fn word(&self) -> String {
        let mut w = self.outcome.to_string();
        if let Some(r) = self.reason {
            w = format!("{w} ({})", r.as_str());
        }
        format!("{w} at {}", self.resource)
    }
}

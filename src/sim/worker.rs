//! Workers: processes that acquire leases, prepare and send protected writes, and fail.
//!
//! A worker judges its lease by its own clock, and only while it runs: a paused worker
//! executes nothing, so it cannot notice that its lease ran out. When it resumes it
//! carries on exactly where it stopped — including sending a write it had prepared.

use super::effect::{Note, Out};
use super::event::EventKind;
use super::message::{Message, MessageKind, Node};
use super::name::Name;
use super::request::{Op, Request};
use super::time::{Clock, Tick};
use super::token::Token;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Running,
    /// Stop-the-world; `until` is true time, or `None` until resumed.
    Paused {
        until: Option<Tick>,
    },
    Crashed,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Lease {
    pub lock: Name,
    pub token: Token,
    pub generation: u32,
    /// By the worker's own clock.
    pub valid_until_local: i64,
    /// When automatic renewal next sends a renewal, by the worker's own clock.
    pub renew_at_local: Option<i64>,
}

/// What a request to the coordinator asked for.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Asked {
    Acquire,
    /// Renew the lease that carries this token.
    Renew(Token),
}

/// A request to the coordinator still waiting for its answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outstanding {
    /// The number the request carries and its answer echoes.
    pub req: u32,
    pub lock: Name,
    pub asked: Asked,
    /// When it was sent, by the worker's clock: a lease its answer grants or extends is
    /// counted from here, never from the answer's arrival.
    pub sent_local: i64,
}

/// A write as a script or a user asks for it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WriteSpec {
    /// One resource, or several for a multi-object operation.
    pub to: Vec<Name>,
    pub op: Op,
    /// Stable operation id; defaults to the request id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op_id: Option<Name>,
    /// A name for the request; defaults to worker name + sequence number (`A1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Several targets written as one transaction covering all their fences.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub transaction: bool,
    /// A conditional write: apply only if the object's version is still this one, the one
    /// the worker read (S3's If-Match, GCS's ifGenerationMatch, a SQL row version).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub if_version: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Worker {
    pub name: Name,
    pub clock: Clock,
    pub status: Status,
    /// The lock it asks for by default.
    pub lock: Name,
    /// A faulty code path: its writes leave the token out.
    pub omits_token: bool,
    /// Renew automatically every this many ticks of its clock while holding.
    pub renew_every: Option<Tick>,
    pub partitioned: bool,
    /// One lease per lock it holds, in the order they were granted.
    pub leases: Vec<Lease>,
    /// Requests to the coordinator awaiting their answers.
    pub outstanding: Vec<Outstanding>,
    /// The next coordinator request number. Kept across a crash (a real client starts a new
    /// session), so an answer to a request from before the crash matches nothing after it.
    pub next_req: u32,
    /// Writes prepared and about to be sent.
    pub prepared: Vec<Request>,
    /// The last writes sent, for retry. Volatile: lost in a crash unless `durable_retry`.
    pub last_sent: Vec<Request>,
    /// The retry buffer survives a crash (a durable job queue or outbox), as the scenario declares.
    pub durable_retry: bool,
    /// Messages that arrived while paused, handled on resume.
    pub inbox: Vec<Message>,
    /// Request naming (`A1`, `A2`, …); kept across a crash so names stay unique in a run.
    pub seq: u32,
}

impl Worker {
    pub fn local(&self, now: Tick) -> i64 {
        self.clock.read(now)
    }

    pub fn is_running(&self) -> bool {
        self.status == Status::Running
    }

    /// Believes it holds `lock` (a paused worker still believes what it last believed).
    pub fn believes(&self, lock: &str) -> bool {
        self.status != Status::Crashed && self.lease(lock).is_some()
    }

    pub fn lease(&self, lock: &str) -> Option<&Lease> {
        self.leases.iter().find(|l| l.lock == lock)
    }

    pub fn holds_any(&self) -> bool {
        !self.leases.is_empty()
    }

    /// The lease renew and release act on: its own lock's, else the first it holds.
    pub fn main_lease(&self) -> Option<&Lease> {
        self.lease(&self.lock).or(self.leases.first())
    }

    /// Whether an acquire of `lock` is waiting for its answer.
    pub fn acquiring(&self, lock: &str) -> bool {
        self.outstanding
            .iter()
            .any(|o| o.lock == lock && o.asked == Asked::Acquire)
    }

    /// Send a request to the coordinator under a fresh number, remembering it until answered.
    fn ask(&mut self, lock: &str, asked: Asked, now: Tick, out: &mut Out) -> u32 {
        let req = self.next_req;
        self.next_req += 1;
        let sent_local = self.local(now);
        let lock = Name::from(lock);
        let msg = match &asked {
            Asked::Acquire => Message::Acquire {
                lock: lock.clone(),
                req,
            },
            Asked::Renew(token) => Message::Renew {
                lock: lock.clone(),
                token: token.clone(),
                req,
            },
        };
        self.outstanding.push(Outstanding {
            req,
            lock,
            asked,
            sent_local,
        });
        out.send(Node::Coordinator, msg);
        req
    }

    pub fn acquire(&mut self, lock: &str, now: Tick, out: &mut Out) {
        out.emit(Note::new(EventKind::AcquireSent { lock: lock.into() }));
        self.ask(lock, Asked::Acquire, now, out);
    }

    /// The token (and ghost generation) this worker's code attaches for a resource of `lock`:
    /// that lock's if it holds it, else the one of its own lock it carries around — code with
    /// one "current token", which is what binding a token to its scope defends against.
    fn authority_for(&self, lock: &str) -> Option<&Lease> {
        self.lease(lock).or_else(|| self.main_lease())
    }

    /// Build the requests for a write, capturing the tokens held now. `locks[i]` is the lock
    /// guarding `spec.to[i]`: configuration the worker's code knows.
    pub fn prepare(&mut self, spec: &WriteSpec, locks: &[Name], out: &mut Out) {
        self.seq += 1;
        let id: Name = match &spec.label {
            Some(label) => label.as_str().into(),
            None => format!("{}{}", self.name, self.seq).into(),
        };
        let op_id = spec.op_id.clone().unwrap_or_else(|| id.clone());
        let request_for = |targets: Vec<Name>, target_locks: &[Name]| {
            let first = target_locks.first().and_then(|l| self.authority_for(l));
            let mut also: Vec<(Token, u32)> = Vec::new();
            for l in target_locks.iter().skip(1) {
                if let Some(x) = self.lease(l) {
                    let covered = first.is_some_and(|f| f.lock == x.lock)
                        || also.iter().any(|(t, _)| t.lock == x.lock);
                    if !covered {
                        also.push((x.token.clone(), x.generation));
                    }
                }
            }
            if self.omits_token {
                also.clear();
            }
            Request {
                id: id.clone(),
                from: self.name.clone(),
                targets,
                token: first.filter(|_| !self.omits_token).map(|l| l.token.clone()),
                op_id: op_id.clone(),
                op: spec.op.clone(),
                grant: first.map(|l| (l.lock.clone(), l.generation)),
                multi: Vec::new(),
                also,
                if_version: spec.if_version,
            }
        };
        // Added to what is already prepared: a send sends everything prepared since the last.
        let start = self.prepared.len();
        let new: Vec<Request> = if spec.transaction || spec.to.len() == 1 {
            vec![request_for(spec.to.clone(), locks)]
        } else {
            // Separate writes: one request per object, each fenced on its own.
            spec.to
                .iter()
                .zip(locks)
                .map(|(r, l)| Request {
                    id: format!("{id}:{r}").into(),
                    multi: spec.to.clone(),
                    ..request_for(vec![r.clone()], std::slice::from_ref(l))
                })
                .collect()
        };
        self.prepared.extend(new);
        let first = &self.prepared[start];
        let mut note = Note::new(EventKind::Prepared {
            op: spec.op.clone(),
            targets: spec.to.clone(),
        })
        .maybe_token(first.token.as_ref())
        .generation(first.grant.as_ref().map(|g| g.1));
        note.op_id = Some(op_id);
        note.request = Some(id);
        out.emit(note);
    }

    /// Send what was prepared.
    pub fn send_prepared(&mut self, out: &mut Out) {
        let reqs = std::mem::take(&mut self.prepared);
        for r in &reqs {
            out.send(
                Node::Resource(r.targets[0].clone()),
                Message::Write(r.clone()),
            );
        }
        if !reqs.is_empty() {
            self.last_sent = reqs;
        }
    }

    /// Send the last writes again: same operation id, same token as before, a new request name.
    pub fn retry(&mut self, out: &mut Out) {
        self.seq += 1;
        let n = self.seq;
        let again: Vec<Request> = self
            .last_sent
            .iter()
            .map(|r| Request {
                id: (format!("{}{}", self.name, n) + suffix(&r.id)).into(),
                ..r.clone()
            })
            .collect();
        for r in &again {
            out.send(
                Node::Resource(r.targets[0].clone()),
                Message::Write(r.clone()),
            );
        }
        self.last_sent = again;
    }

    pub fn renew(&mut self, now: Tick, out: &mut Out) {
        if let Some(l) = self.main_lease() {
            let (lock, token) = (l.lock.clone(), l.token.clone());
            self.renew_lease(&lock, token, now, out);
        }
    }

    fn renew_lease(&mut self, lock: &str, token: Token, now: Tick, out: &mut Out) {
        self.ask(lock, Asked::Renew(token), now, out);
    }

    pub fn renewing(&self, lock: &str) -> bool {
        self.outstanding
            .iter()
            .any(|o| o.lock == lock && matches!(o.asked, Asked::Renew(_)))
    }

    pub fn release(&mut self, out: &mut Out) {
        let Some(i) = self.main_lease().map(|m| {
            let lock = m.lock.clone();
            self.leases
                .iter()
                .position(|l| l.lock == lock)
                .expect("held")
        }) else {
            return;
        };
        let l = self.leases.remove(i);
        // Done with the lock: no answer to an earlier acquire or renewal of it is wanted now.
        self.outstanding.retain(|o| o.lock != l.lock);
        let req = self.next_req;
        self.next_req += 1;
        out.send(
            Node::Coordinator,
            Message::Release {
                lock: l.lock,
                token: l.token,
                req,
            },
        );
    }

    pub fn pause(&mut self, until: Option<Tick>, out: &mut Out) {
        self.status = Status::Paused { until };
        out.emit(Note::new(EventKind::Paused { until }));
    }

    /// Carry on where it stopped: first the send it was about to make, then its mail, then its clock.
    pub fn resume(&mut self, now: Tick, out: &mut Out) {
        self.status = Status::Running;
        out.emit(Note::new(EventKind::Resumed));
        self.send_prepared(out);
        for msg in std::mem::take(&mut self.inbox) {
            self.handle(now, msg, out);
        }
        self.check_clock(now, out);
    }

    /// Everything in memory is lost: leases, requests awaiting answers, prepared writes,
    /// mail, and the retry buffer unless the scenario declares it durable.
    pub fn crash(&mut self, out: &mut Out) {
        self.status = Status::Crashed;
        self.leases.clear();
        self.outstanding.clear();
        self.prepared.clear();
        self.inbox.clear();
        if !self.durable_retry {
            self.last_sent.clear();
        }
        out.emit(Note::new(EventKind::Crashed));
    }

    pub fn restart(&mut self, out: &mut Out) {
        self.status = Status::Running;
        out.emit(Note::new(EventKind::Restarted));
    }

    /// A message arrives: handled now if running, kept for later if paused, lost if crashed.
    pub fn receive(&mut self, now: Tick, msg: Message, out: &mut Out) {
        match self.status {
            Status::Running => self.handle(now, msg, out),
            Status::Paused { .. } => self.inbox.push(msg),
            Status::Crashed => {}
        }
    }

    /// The outstanding request an answer names, if the worker is still waiting for it.
    fn answered(&mut self, req: u32, lock: &str, renew: bool) -> Option<Outstanding> {
        let at = self.outstanding.iter().position(|o| {
            o.req == req && o.lock == lock && matches!(o.asked, Asked::Renew(_)) == renew
        })?;
        Some(self.outstanding.remove(at))
    }

    fn handle(&mut self, now: Tick, msg: Message, out: &mut Out) {
        let local = self.local(now);
        match msg {
            Message::Granted {
                lock,
                token,
                ttl,
                generation,
                req,
            } => {
                let Some(asked) = self.answered(req, &lock, false) else {
                    return ignore(
                        out,
                        MessageKind::Grant,
                        req,
                        Some(&token),
                        "it answers no acquire this worker is waiting for",
                    );
                };
                // Counted from when it was asked for: the grant may have been on the way for a while.
                let start = asked.sent_local;
                self.outstanding
                    .retain(|o| !(o.lock == lock && o.asked == Asked::Acquire));
                let valid_until_local = start + ttl as i64;
                if local >= valid_until_local {
                    return ignore(out, MessageKind::Grant, req, Some(&token), TOO_LATE);
                }
                let renew_at_local = self.renew_every.map(|every| start + every as i64);
                out.emit(
                    Note::new(EventKind::LeaseAcquired {
                        lock: lock.clone(),
                        valid_until_local,
                    })
                    .token(&token)
                    .generation(Some(generation)),
                );
                let lease = Lease {
                    lock,
                    token,
                    generation,
                    valid_until_local,
                    renew_at_local,
                };
                match self.leases.iter_mut().find(|l| l.lock == lease.lock) {
                    Some(l) => *l = lease,
                    None => self.leases.push(lease),
                }
            }
            Message::Renewed {
                lock,
                token,
                ttl,
                req,
            } => {
                let asked = self.answered(req, &lock, true);
                let lease = self
                    .leases
                    .iter_mut()
                    .find(|l| l.lock == lock && l.token == token);
                let (Some(asked), Some(l)) = (asked, lease) else {
                    return ignore(
                        out,
                        MessageKind::Renewed,
                        req,
                        Some(&token),
                        "it answers no renewal of a lease this worker holds",
                    );
                };
                let start = asked.sent_local;
                if local >= start + ttl as i64 {
                    return ignore(out, MessageKind::Renewed, req, Some(&token), TOO_LATE);
                }
                // An answer to an older renewal never shortens what a newer one established.
                l.valid_until_local = l.valid_until_local.max(start + ttl as i64);
                if let Some(every) = self.renew_every {
                    let next = start + every as i64;
                    l.renew_at_local = Some(l.renew_at_local.map_or(next, |t| t.max(next)));
                }
                out.emit(
                    Note::new(EventKind::LeaseBeliefRenewed {
                        valid_until_local: l.valid_until_local,
                    })
                    .token(&token)
                    .generation(Some(l.generation)),
                );
            }
            Message::RenewDenied { lock, token, req } => {
                let asked = self.answered(req, &lock, true);
                let held = self
                    .leases
                    .iter()
                    .position(|l| l.lock == lock && l.token == token);
                let (Some(_), Some(i)) = (asked, held) else {
                    return ignore(
                        out,
                        MessageKind::RenewDenied,
                        req,
                        Some(&token),
                        "it concerns no lease this worker holds",
                    );
                };
                let l = self.leases.remove(i);
                self.drop_renewals(&l.lock);
                out.emit(
                    Note::new(EventKind::RenewalFailed {
                        why: "the coordinator denied it".into(),
                    })
                    .token(&l.token)
                    .generation(Some(l.generation)),
                );
            }
            Message::Reply { request, outcome } => {
                let mut note = Note::new(EventKind::ReplyReceived {
                    outcome: outcome.word().to_string(),
                });
                note.request = Some(request);
                out.emit(note);
            }
            Message::Available { lock, req } => match self.answered(req, &lock, false) {
                Some(_) => self.acquire(&lock, now, out),
                None => ignore(
                    out,
                    MessageKind::Available,
                    req,
                    None,
                    "it answers no acquire this worker is waiting for",
                ),
            },
            _ => {}
        }
    }

    fn drop_renewals(&mut self, lock: &str) {
        self.outstanding
            .retain(|o| !(o.lock == lock && matches!(o.asked, Asked::Renew(_))));
    }

    /// Time passes for a running worker: its lease may run out by its clock, or be due for renewal.
    /// Whether `tick` would do anything now: a timed pause ending, a lease running out by this
    /// worker's clock, a renewal due. Lets the world skip copying a shared worker (see
    /// `World::tick`); the world checks in debug builds that a skipped tick changes nothing.
    pub fn tick_due(&self, now: Tick) -> bool {
        match self.status {
            Status::Paused { until: Some(t) } => now >= t,
            Status::Running => {
                let local = self.local(now);
                self.leases.iter().any(|l| {
                    local >= l.valid_until_local
                        || (l.renew_at_local.is_some_and(|t| local >= t) && !self.renewing(&l.lock))
                })
            }
            _ => false,
        }
    }

    pub fn tick(&mut self, now: Tick, out: &mut Out) {
        if let Status::Paused { until: Some(t) } = self.status {
            if now >= t {
                self.resume(now, out);
            }
            return;
        }
        if self.is_running() {
            self.check_clock(now, out);
        }
    }

    fn check_clock(&mut self, now: Tick, out: &mut Out) {
        let local = self.local(now);
        let mut i = 0;
        while i < self.leases.len() {
            if local < self.leases[i].valid_until_local {
                i += 1;
                continue;
            }
            let l = self.leases.remove(i);
            let waited = self.renewing(&l.lock);
            self.drop_renewals(&l.lock);
            if waited {
                out.emit(
                    Note::new(EventKind::RenewalFailed {
                        why: "no answer before the lease ran out".into(),
                    })
                    .token(&l.token)
                    .generation(Some(l.generation)),
                );
            }
            out.emit(
                Note::new(EventKind::LeaseBeliefExpired {
                    lock: l.lock.clone(),
                })
                .token(&l.token)
                .generation(Some(l.generation)),
            );
        }
        let due: Vec<(Name, Token)> = self
            .leases
            .iter()
            // One renewal at a time: the next waits for this one's answer or the lease's end.
            .filter(|l| l.renew_at_local.is_some_and(|t| local >= t) && !self.renewing(&l.lock))
            .map(|l| (l.lock.clone(), l.token.clone()))
            .collect();
        for (lock, token) in due {
            self.renew_lease(&lock, token, now, out);
        }
    }
}

const TOO_LATE: &str = "by this worker's clock the lease it grants has already run out";

/// An answer the worker cannot match to anything it is waiting for: logged, never believed.
fn ignore(out: &mut Out, kind: MessageKind, req: u32, token: Option<&Token>, why: &str) {
    out.emit(
        Note::new(EventKind::ReplyIgnored {
            kind,
            req,
            why: why.to_string(),
        })
        .maybe_token(token),
    );
}

/// The `:X` part of a multi-object request id, kept on a retry.
fn suffix(id: &str) -> &str {
    id.find(':').map_or("", |i| &id[i..])
}

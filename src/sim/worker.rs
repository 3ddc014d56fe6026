//! Workers: processes that acquire leases, prepare and send protected writes, and fail.
//!
//! A worker judges its lease by its own clock, and only while it runs: a paused worker
//! executes nothing, so it cannot notice that its lease ran out. When it resumes it
//! carries on exactly where it stopped — including sending a write it had prepared.

use super::effect::{Note, Out};
use super::event::EventKind;
use super::message::{Message, Node};
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
    pub lock: String,
    pub token: Token,
    pub generation: u32,
    /// By the worker's own clock.
    pub valid_until_local: i64,
}

/// A write as a script or a user asks for it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WriteSpec {
    /// One resource, or several for a multi-object operation.
    pub to: Vec<String>,
    pub op: Op,
    /// Stable operation id; defaults to the request id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op_id: Option<String>,
    /// A name for the request; defaults to worker name + sequence number (`A1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Several targets written as one transaction covering all their fences.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub transaction: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Worker {
    pub name: String,
    pub clock: Clock,
    pub status: Status,
    /// The lock it asks for by default.
    pub lock: String,
    /// A faulty code path: its writes leave the token out.
    pub omits_token: bool,
    /// Renew automatically every this many ticks of its clock while holding.
    pub renew_every: Option<Tick>,
    pub partitioned: bool,
    pub lease: Option<Lease>,
    pub acquire_sent_local: Option<i64>,
    pub renew_sent_local: Option<i64>,
    /// When its clock last saw the lease start or extend: the base for automatic renewal.
    pub renewed_at_local: Option<i64>,
    /// Writes prepared and about to be sent.
    pub prepared: Vec<Request>,
    /// The last writes sent, for retry.
    pub last_sent: Vec<Request>,
    /// Messages that arrived while paused, handled on resume.
    pub inbox: Vec<Message>,
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
        self.status != Status::Crashed && self.lease.as_ref().is_some_and(|l| l.lock == lock)
    }

    pub fn acquire(&mut self, lock: &str, now: Tick, out: &mut Out) {
        self.acquire_sent_local = Some(self.local(now));
        out.emit(Note::new(EventKind::AcquireSent {
            lock: lock.to_string(),
        }));
        out.send(
            Node::Coordinator,
            Message::Acquire {
                lock: lock.to_string(),
            },
        );
    }

    /// Build the requests for a write, capturing the token held now.
    pub fn prepare(&mut self, spec: &WriteSpec, out: &mut Out) {
        self.seq += 1;
        let id = spec
            .label
            .clone()
            .unwrap_or_else(|| format!("{}{}", self.name, self.seq));
        let op_id = spec.op_id.clone().unwrap_or_else(|| id.clone());
        let token = if self.omits_token {
            None
        } else {
            self.lease.as_ref().map(|l| l.token.clone())
        };
        let grant = self.lease.as_ref().map(|l| (l.lock.clone(), l.generation));
        let base = Request {
            id: id.clone(),
            from: self.name.clone(),
            targets: spec.to.clone(),
            token: token.clone(),
            op_id: op_id.clone(),
            op: spec.op.clone(),
            grant,
            multi: Vec::new(),
        };
        self.prepared = if spec.transaction || spec.to.len() == 1 {
            vec![base]
        } else {
            // Separate writes: one request per object, each fenced on its own.
            spec.to
                .iter()
                .map(|r| Request {
                    id: format!("{id}:{r}"),
                    targets: vec![r.clone()],
                    multi: spec.to.clone(),
                    ..base.clone()
                })
                .collect()
        };
        let mut note = Note::new(EventKind::Prepared {
            op: spec.op.clone(),
            targets: spec.to.clone(),
        })
        .maybe_token(token.as_ref())
        .generation(self.lease.as_ref().map(|l| l.generation));
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
                id: format!("{}{}", self.name, n) + &suffix(&r.id),
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
        if let Some(l) = &self.lease {
            self.renew_sent_local = Some(self.local(now));
            out.send(
                Node::Coordinator,
                Message::Renew {
                    lock: l.lock.clone(),
                    token: l.token.clone(),
                },
            );
        }
    }

    pub fn release(&mut self, out: &mut Out) {
        if let Some(l) = self.lease.take() {
            out.send(
                Node::Coordinator,
                Message::Release {
                    lock: l.lock,
                    token: l.token,
                },
            );
        }
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

    pub fn crash(&mut self, out: &mut Out) {
        self.status = Status::Crashed;
        self.lease = None;
        self.prepared.clear();
        self.inbox.clear();
        self.acquire_sent_local = None;
        self.renew_sent_local = None;
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

    fn handle(&mut self, now: Tick, msg: Message, out: &mut Out) {
        let local = self.local(now);
        match msg {
            Message::Granted {
                lock,
                token,
                ttl,
                generation,
            } => {
                // Conservative: the lease is counted from when it was asked for.
                let start = self.acquire_sent_local.take().unwrap_or(local);
                let valid_until_local = start + ttl as i64;
                self.renewed_at_local = Some(start);
                out.emit(
                    Note::new(EventKind::LeaseAcquired {
                        lock: lock.clone(),
                        valid_until_local,
                    })
                    .token(&token)
                    .generation(Some(generation)),
                );
                self.lease = Some(Lease {
                    lock,
                    token,
                    generation,
                    valid_until_local,
                });
            }
            Message::Renewed { lock, token, ttl } => {
                let start = self.renew_sent_local.take().unwrap_or(local);
                if let Some(l) = self
                    .lease
                    .as_mut()
                    .filter(|l| l.lock == lock && l.token == token)
                {
                    l.valid_until_local = start + ttl as i64;
                    self.renewed_at_local = Some(start);
                    out.emit(
                        Note::new(EventKind::LeaseBeliefRenewed {
                            valid_until_local: l.valid_until_local,
                        })
                        .token(&token)
                        .generation(Some(l.generation)),
                    );
                }
            }
            Message::RenewDenied { lock } => {
                self.renew_sent_local = None;
                if let Some(l) = self.lease.take().filter(|l| l.lock == lock) {
                    out.emit(
                        Note::new(EventKind::RenewalFailed {
                            why: "the coordinator denied it".into(),
                        })
                        .token(&l.token)
                        .generation(Some(l.generation)),
                    );
                }
            }
            Message::Reply { request, outcome } => {
                let mut note = Note::new(EventKind::ReplyReceived {
                    outcome: outcome.word().to_string(),
                });
                note.request = Some(request);
                out.emit(note);
            }
            // Queued: the grant will come later, unprompted; it can only be counted from when it arrives.
            Message::Queued { .. } => self.acquire_sent_local = None,
            _ => {}
        }
    }

    /// Time passes for a running worker: its lease may run out by its clock, or be due for renewal.
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
        let Some(l) = &self.lease else { return };
        if local >= l.valid_until_local {
            let l = self.lease.take().expect("checked");
            if self.renew_sent_local.take().is_some() {
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
            return;
        }
        if let Some(every) = self.renew_every {
            let due = self.renew_sent_local.is_none()
                && self
                    .renewed_at_local
                    .is_some_and(|t| local >= t + every as i64);
            if due {
                self.renew(now, out);
            }
        }
    }
}

/// The `:X` part of a multi-object request id, kept on a retry.
fn suffix(id: &str) -> String {
    id.find(':').map_or(String::new(), |i| id[i..].to_string())
}

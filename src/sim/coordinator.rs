//! The lease coordinator: named locks, grants with fencing tokens, expiry by its own clock.

use super::effect::{Effect, Note, Out};
use super::event::EventKind;
use super::invariant::{Ghost, GrantFact};
use super::message::{Message, Node};
use super::name::Name;
use super::time::{Clock, Tick};
use super::token::{Issuer, Token};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Holder {
    pub worker: Name,
    pub token: Token,
    /// Ghost: the true order of this grant.
    pub generation: u32,
    /// By the coordinator's clock.
    pub expires_local: i64,
    /// The newest request number its holder sent about it (acquire, renewal): a release sent
    /// before it is older news and frees nothing.
    pub req: u32,
}

/// A grant waiting for fence-on-acquire acknowledgements before it is announced.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PendingGrant {
    /// `None`: a token bumped on expiry (`bump_on_expiry`), which nobody will hold.
    pub worker: Option<Name>,
    /// The acquire it answers.
    pub req: u32,
    pub token: Token,
    pub generation: u32,
    pub awaiting: Vec<Name>,
    /// By the coordinator's clock: when unacknowledged fences are sent again.
    pub retry_at_local: i64,
}

/// A worker waiting for a lock, and the acquire its grant will answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Waiter {
    pub worker: Name,
    pub req: u32,
}

/// Fence-on-acquire sends an unacknowledged fence again after this many ticks of its clock:
/// one lost message must not hold the lock for ever.
pub const FENCE_RETRY: Tick = 3;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LockState {
    pub name: Name,
    pub ttl: Tick,
    pub issuer: Issuer,
    pub holder: Option<Holder>,
    pub pending: Option<PendingGrant>,
    pub queue: Vec<Waiter>,
    /// Resources that must register a new token before its grant is announced.
    pub fenced: Vec<Name>,
    /// Chubby's and Consul's lock-delay: after a holder's lease runs out (not after a clean
    /// release) nobody is granted the lock for this many ticks of the coordinator's clock,
    /// so what the lost holder already sent can land first. A bet on bounded delays, not a fence.
    pub lock_delay: Tick,
    /// By the coordinator's clock: the end of a lock-delay under way.
    pub delayed_until_local: Option<i64>,
    /// Kafka's initTransactions: an acquire from another worker ends the holder's grant
    /// and is granted a new token at once (`LockSpec::takeover`).
    pub takeover: bool,
    /// Kafka's transaction timeout: an expiry mints a token for nobody (`LockSpec::bump_on_expiry`).
    pub bump_on_expiry: bool,
}

impl LockState {
    /// Free to grant now: no holder, no grant waiting for fences, no lock-delay under way.
    fn grantable(&self) -> bool {
        self.holder.is_none() && self.pending.is_none() && self.delayed_until_local.is_none()
    }

    /// A holder was lost (not released): grant to nobody for `lock_delay` from `local`.
    fn start_lock_delay(&mut self, local: i64) {
        self.delayed_until_local = (self.lock_delay > 0).then(|| local + self.lock_delay as i64);
    }
}

/// What a restore brings back.
pub type LockTable = BTreeMap<Name, LockState>;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Coordinator {
    pub clock: Clock,
    /// Restart keeps the lock table and counters.
    pub persist: bool,
    pub replica: usize,
    pub replicas: usize,
    /// A failover promotes a replica that has only the last backup (`CoordinatorSpec::async_replication`).
    pub async_replication: bool,
    pub locks: LockTable,
    /// Shared, immutable once taken: a world clone copies a pointer, not the table.
    pub backup: Option<std::rc::Rc<LockTable>>,
}

impl Coordinator {
    pub fn local(&self, now: Tick) -> i64 {
        self.clock.read(now)
    }

    pub fn holder(&self, lock: &str) -> Option<&Holder> {
        self.locks.get(lock)?.holder.as_ref()
    }

    pub fn receive(&mut self, now: Tick, from: &str, msg: Message, truth: &Ghost, out: &mut Out) {
        let local = self.local(now);
        let replica = self.replica;
        let reply_to = Node::Worker(from.into());
        match msg {
            Message::Acquire { lock, req } => {
                let Some(l) = self.locks.get_mut(&lock) else {
                    return;
                };
                // Under takeover only an acquire the holder sent no later than its grant (a
                // duplicate) is old news; a new one is a new session, as Kafka bumps the epoch
                // of a producer that calls initTransactions again.
                let takeover = l.takeover;
                if let Some(h) = l
                    .holder
                    .as_mut()
                    .filter(|h| h.worker == from && (!takeover || req <= h.req))
                {
                    // Re-entrant: the same grant, the same token (as Hazelcast's fence).
                    h.expires_local = local + l.ttl as i64;
                    h.req = h.req.max(req);
                    let (token, generation, ttl) = (h.token.clone(), h.generation, l.ttl);
                    out.send(
                        reply_to,
                        Message::Granted {
                            lock,
                            token,
                            ttl,
                            generation,
                            req,
                        },
                    );
                } else {
                    if takeover {
                        take_over(l, from, out);
                    }
                    if l.grantable() {
                        l.queue.retain(|w| w.worker != from);
                        grant(l, Some(from), req, local, replica, truth, out);
                    } else {
                        // Waiting already: the newest acquire is the one its grant will answer.
                        l.queue.retain(|w| w.worker != from);
                        l.queue.push(Waiter {
                            worker: from.into(),
                            req,
                        });
                        out.emit(Note::new(EventKind::AcquireQueued { lock }));
                    }
                }
            }
            Message::Renew { lock, token, req } => {
                let Some(l) = self.locks.get_mut(&lock) else {
                    return;
                };
                match l
                    .holder
                    .as_mut()
                    .filter(|h| h.worker == from && h.token == token)
                {
                    Some(h) => {
                        h.expires_local = local + l.ttl as i64;
                        h.req = h.req.max(req);
                        let note = Note::new(EventKind::LeaseRenewed {
                            lock: lock.clone(),
                            expires_local: h.expires_local,
                        });
                        out.emit(note.token(&token).generation(Some(h.generation)));
                        let ttl = l.ttl;
                        out.send(
                            reply_to,
                            Message::Renewed {
                                lock,
                                token,
                                ttl,
                                req,
                            },
                        );
                    }
                    None => {
                        out.emit(
                            Note::new(EventKind::RenewalDenied { lock: lock.clone() })
                                .token(&token),
                        );
                        out.send(reply_to, Message::RenewDenied { lock, token, req });
                    }
                }
            }
            Message::Release { lock, token, req } => {
                let Some(l) = self.locks.get_mut(&lock) else {
                    return;
                };
                // A sender numbers its requests in order, so the coordinator can tell a release
                // overtaken by a later acquire or renewal (the network reorders) from a real one.
                if l.holder
                    .as_ref()
                    .is_some_and(|h| h.worker == from && h.token == token && req > h.req)
                {
                    let h = l.holder.take().expect("checked");
                    out.emit(
                        Note::new(EventKind::LeaseReleased { lock: lock.clone() })
                            .token(&token)
                            .generation(Some(h.generation)),
                    );
                    grant_next(l, out);
                }
            }
            Message::FenceAck { lock, token } => {
                let Some(l) = self.locks.get_mut(&lock) else {
                    return;
                };
                let Some(p) = l.pending.as_mut().filter(|p| p.token == token) else {
                    return;
                };
                p.awaiting.retain(|r| r != from);
                if p.awaiting.is_empty() {
                    let p = l.pending.take().expect("checked");
                    announce(l, p, local, out);
                }
            }
            _ => {}
        }
    }

    /// Expire leases whose time has come by this node's clock, grant to whoever waits, and
    /// send fences again that were not acknowledged in time.
    /// Whether `tick` would do anything now: a fence to send again, a lease to expire, a
    /// lock-delay to end (see `Worker::tick_due`).
    pub fn tick_due(&self, now: Tick) -> bool {
        let local = self.local(now);
        self.locks.values().any(|l| {
            l.pending
                .as_ref()
                .is_some_and(|p| local >= p.retry_at_local)
                || l.holder.as_ref().is_some_and(|h| local >= h.expires_local)
                || l.delayed_until_local.is_some_and(|until| local >= until)
        })
    }

    pub fn tick(&mut self, now: Tick, truth: &Ghost, out: &mut Out) {
        let local = self.local(now);
        for l in self.locks.values_mut() {
            if let Some(p) = l.pending.as_mut().filter(|p| local >= p.retry_at_local) {
                p.retry_at_local = local + FENCE_RETRY as i64;
                out.emit(
                    Note::new(EventKind::FenceRetried {
                        lock: l.name.clone(),
                        resources: p.awaiting.clone(),
                    })
                    .token(&p.token)
                    .generation(Some(p.generation)),
                );
                for r in &p.awaiting {
                    out.send(
                        Node::Resource(r.clone()),
                        Message::Fence {
                            lock: l.name.clone(),
                            token: p.token.clone(),
                        },
                    );
                }
            }
            if l.holder.as_ref().is_some_and(|h| local >= h.expires_local) {
                let h = l.holder.take().expect("checked");
                out.emit(
                    Note::new(EventKind::LeaseExpired {
                        lock: l.name.clone(),
                        holder: h.worker,
                    })
                    .token(&h.token)
                    .generation(Some(h.generation)),
                );
                l.start_lock_delay(local);
                if l.bump_on_expiry {
                    grant(l, None, 0, local, self.replica, truth, out);
                }
                // Waiters stay queued until a lock-delay is over (and a bump is registered).
                if l.grantable() {
                    grant_next(l, out);
                }
            }
            if l.delayed_until_local.is_some_and(|until| local >= until) {
                l.delayed_until_local = None;
                grant_next(l, out);
            }
        }
    }

    pub fn take_backup(&mut self) {
        self.backup = Some(std::rc::Rc::new(self.locks.clone()));
    }

    /// Without persistence the holders are forgotten: each is a lost holder, so a lock with
    /// a lock-delay starts one, as an expiry does.
    pub fn restart(&mut self, persisted: bool, now: Tick) {
        if !persisted {
            let local = self.local(now);
            for l in self.locks.values_mut() {
                l.holder = None;
                l.pending = None;
                l.queue.clear();
                l.start_lock_delay(local);
                l.issuer.forget();
            }
        }
    }

    /// The lock table and counters go back to the snapshot; epoch issuers move to a new epoch.
    /// A restore is an ownership change like any other: the snapshot's holders, pending
    /// grants and waiters are stale news, so none is brought back — every owner asks again.
    pub fn restore(&mut self, now: Tick) {
        let local = self.local(now);
        let Some(b) = self.backup.as_deref().cloned() else {
            return;
        };
        // A list, not a collected map: collecting into a map sorts first, a sort the page's
        // WASM would carry for this alone.
        let epochs: Vec<(Name, u64)> = self
            .locks
            .iter()
            .map(|(k, l)| (k.clone(), l.issuer.epoch))
            .collect();
        self.locks = b;
        for (name, l) in self.locks.iter_mut() {
            // The epoch lives outside the snapshot: that is the point of it.
            if let Some((_, e)) = epochs.iter().find(|(k, _)| k == name) {
                l.issuer.epoch = *e;
            }
            l.issuer.bump_epoch();
            l.holder = None;
            l.pending = None;
            l.queue.clear();
            // The dropped holders are lost holders too.
            l.start_lock_delay(local);
        }
    }

    /// Another replica takes over with the replicated lock table; epoch issuers bump. Under
    /// async replication the replica has the table as of the last backup (the point it caught
    /// up to): what came after is lost as in a restore, holders and counters alike.
    pub fn fail_over(&mut self, now: Tick) {
        self.replica = (self.replica + 1) % self.replicas.max(1);
        if self.async_replication {
            self.restore(now);
            return;
        }
        for l in self.locks.values_mut() {
            l.issuer.bump_epoch();
            l.pending = None;
        }
    }

    pub fn describe_lock(&self, lock: &str, now: Tick) -> String {
        let Some(l) = self.locks.get(lock) else {
            return String::new();
        };
        let holder = match &l.holder {
            Some(h) => format!(
                "held by {} with token {}, expires at {} (its clock {})",
                h.worker,
                h.token,
                h.expires_local,
                self.local(now)
            ),
            None => "free".to_string(),
        };
        format!("{lock}: {holder}; {}", l.issuer.describe())
    }
}

fn grant_next(l: &mut LockState, out: &mut Out) {
    if l.queue.is_empty() {
        return;
    }
    // Every waiter is told, and asks again: its lease will count from that new request, which
    // it can time, never from a grant that arrives unprompted after an unknown delay.
    let waiters = std::mem::take(&mut l.queue);
    out.emit(Note::new(EventKind::WaitersNotified {
        lock: l.name.clone(),
        workers: waiters.iter().map(|w| w.worker.clone()).collect(),
    }));
    for w in waiters {
        out.send(
            Node::Worker(w.worker),
            Message::Available {
                lock: l.name.clone(),
                req: w.req,
            },
        );
    }
}

/// Takeover: a new acquire ends the current grant. Its holder is not told (it learns when a
/// resource or the coordinator refuses its token), and no lock-delay starts: the holder
/// was replaced, not lost.
fn take_over(l: &mut LockState, by: &str, out: &mut Out) {
    let Some(h) = l.holder.take() else {
        return;
    };
    out.emit(
        Note::new(EventKind::LeaseTakenOver {
            lock: l.name.clone(),
            holder: h.worker,
            by: by.into(),
        })
        .token(&h.token)
        .generation(Some(h.generation)),
    );
}

/// Mint a token and grant it to `worker` once every fenced resource registered it; with no
/// worker, a bump on expiry: the token is spent on nobody, so every one before it is older.
fn grant(
    l: &mut LockState,
    worker: Option<&str>,
    req: u32,
    local: i64,
    replica: usize,
    truth: &Ghost,
    out: &mut Out,
) {
    let token = l.issuer.mint(&l.name, replica, local);
    // The grant's true place in grant order, for the checker only: no decision reads it.
    let generation = truth.next_generation(&l.name);
    out.0.push(Effect::Grant(GrantFact::Minted {
        lock: l.name.clone(),
        generation,
    }));
    let p = PendingGrant {
        worker: worker.map(Name::from),
        req,
        token: token.clone(),
        generation,
        awaiting: l.fenced.clone(),
        retry_at_local: local + FENCE_RETRY as i64,
    };
    if worker.is_none() {
        out.emit(
            Note::new(EventKind::TokenBumped {
                lock: l.name.clone(),
                resources: l.fenced.clone(),
            })
            .token(&token)
            .generation(Some(generation)),
        );
    }
    if p.awaiting.is_empty() {
        announce(l, p, local, out);
        return;
    }
    if worker.is_some() {
        out.emit(
            Note::new(EventKind::FenceStarted {
                lock: l.name.clone(),
                resources: l.fenced.clone(),
            })
            .token(&token)
            .generation(Some(generation)),
        );
    }
    for r in &l.fenced {
        out.send(
            Node::Resource(r.clone()),
            Message::Fence {
                lock: l.name.clone(),
                token: token.clone(),
            },
        );
    }
    l.pending = Some(p);
}

/// The grant becomes real: recorded as holder and sent to its owner. A bump has no owner:
/// it only becomes the newest grant, and whoever waits may ask again.
fn announce(l: &mut LockState, p: PendingGrant, local: i64, out: &mut Out) {
    let expires_local = local + l.ttl as i64;
    out.0.push(Effect::Grant(GrantFact::Issued {
        lock: l.name.clone(),
        generation: p.generation,
    }));
    let Some(worker) = p.worker else {
        if l.grantable() {
            grant_next(l, out);
        }
        return;
    };
    out.emit(
        Note::new(EventKind::LeaseGranted {
            lock: l.name.clone(),
            expires_local,
        })
        .token(&p.token)
        .generation(Some(p.generation)),
    );
    out.send(
        Node::Worker(worker.clone()),
        Message::Granted {
            lock: l.name.clone(),
            token: p.token.clone(),
            ttl: l.ttl,
            generation: p.generation,
            req: p.req,
        },
    );
    l.holder = Some(Holder {
        worker,
        token: p.token,
        generation: p.generation,
        expires_local,
        req: p.req,
    });
    // Under takeover whoever queued meanwhile (behind this grant's fences) takes over next.
    if l.takeover {
        grant_next(l, out);
    }
}

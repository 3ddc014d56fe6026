//! The explorer against a peer: the paused-writer preset written by hand as a Stateright
//! model, checked to be the same transition system, then both searched breadth first on one
//! thread in the same run. The ratio (explorer states/s ÷ Stateright's) says how far this
//! project's general explorer is from a model checker running a compact, special-purpose
//! model of the same thing (issue 13; figures in docs/performance.md, "Explorer against a peer").
//!
//! Why believe the two are the same system: `mirror` walks the explorer's own search (the
//! same choices over `World`, the same state key) and maps every state it reaches to a peer
//! state (`abstract_world`). It requires the map to be one to one on state keys, and each
//! state's successors, mapped, to be exactly the peer's successors of its image. Then the
//! peer's search must find the same numbers of distinct and explored states, the same
//! verdicts and the same shortest counterexample and witness lengths as `explore()`, for the
//! preset's policy and each variant's.
//!
//! The timing also runs the peer's model in a plain queue-and-set search, to tell the model's
//! share of Stateright's time from the checker's own.
//!
//! `cargo bench --bench peer` checks and times (several samples, medians); run without
//! `--bench` (as `cargo test --benches` does) it checks and takes one quick sample.

use fencing_lab::presets;
use fencing_lab::sim::explore::{explore, Bounds, ExploreReport};
use fencing_lab::sim::message::{Envelope, Hold, Message, Node};
use fencing_lab::sim::resource::Policy;
use fencing_lab::sim::worker::Status;
use fencing_lab::sim::{Action, MsgSel, Outcome, Scenario, World};
use stateright::{Checker, CheckerVisitor, Model, Path, Property};
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{Hash, Hasher};
use std::hint::black_box;
use std::sync::{Arc, Mutex};

// Each bench uses part of the shared harness.
#[allow(dead_code)]
mod harness;
use harness::{fmt_time, measure};

// ---------------------------------------------------------------------------------------
// The peer: paused-writer as a compact Stateright model.
// ---------------------------------------------------------------------------------------

/// The preset's constants: the lock's TTL, and its counter issuer's tokens (from 41: the grant
/// of generation g carries token `TOKEN_BASE + g`).
const TTL: u8 = 10;
const TOKEN_BASE: i64 = 40;
/// Workers by index: A (who prepares "A's report") and B (who writes "B's report").
const WORKERS: [&str; 2] = ["A", "B"];
const LABELS: [&str; 2] = ["A-stale", "B-write"];
const VALUES: [&str; 3] = ["empty", "A's report", "B's report"];
/// Bits of `violated`, in `ViolationKind::ALL`'s order.
const STALE_OVERWRITE: u8 = 1;
const SUPERSEDED_WRITE: u8 = 2;
const DOUBLE_EXECUTION: u8 = 4;
const OWNER_LOCKED_OUT: u8 = 16;
/// Room for messages on the wire and in a paused worker's mailbox: the most this system ever
/// has (the cross-check asserts it, and a send into a full array panics).
const NET: usize = 2;
const INBOX: usize = 1;

/// A message. Its direction follows from its kind; `w` is the worker at one end. Coordinator
/// request numbers (`req`) are kept as ranks among the worker's live ones, as the explorer's
/// state key hashes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Msg {
    Acquire {
        w: u8,
        req: u8,
    },
    Granted {
        w: u8,
        g: u8,
        req: u8,
    },
    Available {
        w: u8,
        req: u8,
    },
    /// The worker's one write, under the grant of generation `g`.
    Write {
        w: u8,
        g: u8,
    },
    Reply {
        w: u8,
        accepted: bool,
    },
}

impl Msg {
    fn req_mut(&mut self) -> Option<(u8, &mut u8)> {
        match self {
            Msg::Acquire { w, req } | Msg::Granted { w, req, .. } | Msg::Available { w, req } => {
                Some((*w, req))
            }
            _ => None,
        }
    }
}

/// A message in flight: sent at `sent` (due one tick later), or held by the network for ever.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Env {
    msg: Msg,
    sent: u8,
    held: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Holder {
    w: u8,
    g: u8,
    expires: u8,
    req: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Wk {
    paused: bool,
    /// The lease it believes in: (generation, valid until by its clock).
    lease: Option<(u8, u8)>,
    /// The acquire awaiting its answer: (req, sent at).
    asking: Option<(u8, u8)>,
    /// Its write, prepared (A) or last sent, by grant generation.
    prepared: Option<u8>,
    last_sent: Option<u8>,
    inbox: [Option<Msg>; INBOX],
    seq: u8,
    /// The next request number; a function of the rest once ranks are renumbered.
    next_req: u8,
}

/// The whole state: every node, the network, the checker's ghost, and the explorer's own
/// counters (program positions, holds and pauses spent). 71 bytes, `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct St {
    now: u8,
    pcs: [u8; 2],
    holds: u8,
    pauses: u8,
    /// Grants minted (the issuer's counter and the ghost's generation count).
    minted: u8,
    /// Ghost: the newest generation issued (0: none).
    latest: u8,
    holder: Option<Holder>,
    /// Queued acquires in order: (worker, req).
    queue: [Option<(u8, u8)>; 2],
    workers: [Wk; 2],
    /// The resource's highest token, as a generation (0: none), and its value (`VALUES`).
    highest: u8,
    value: u8,
    net: [Option<Env>; NET],
    /// Ghost: the newest generation applied at the resource and whose write it was.
    newest: Option<(u8, u8)>,
    /// Ghost: which workers' writes took effect (bit per worker), and violations seen.
    executed: u8,
    violated: u8,
}

/// What the explorer may choose, as the peer names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Act {
    /// The worker's next scripted action (A: acquire, prepare; B: acquire, write).
    Program(u8),
    Deliver(u8),
    Hold(u8),
    Pause(u8),
    Resume(u8),
    /// Let time run to this tick.
    Advance(u8),
}

/// The model's parameters: the policy's one question (does the resource fence?) and the bounds.
#[derive(Clone, Debug)]
struct Peer {
    fenced: bool,
    max_tick: u8,
    max_holds: u8,
    max_pauses: u8,
}

impl St {
    fn send(&mut self, msg: Msg) {
        let slot = self
            .net
            .iter_mut()
            .find(|e| e.is_none())
            .expect("room on the wire");
        *slot = Some(Env {
            msg,
            sent: self.now,
            held: false,
        });
    }

    /// Take the message in slot `i` off the wire, keeping the others in send order.
    fn take(&mut self, i: usize) -> Env {
        let e = self.net[i].take().expect("in flight");
        self.net[i..].rotate_left(1);
        e
    }

    fn deliver(&mut self, i: usize, fenced: bool) {
        match self.take(i).msg {
            Msg::Acquire { w, req } => self.coordinator_acquire(w, req),
            Msg::Write { w, g } => self.resource_write(w, g, fenced),
            m @ (Msg::Granted { w, .. } | Msg::Available { w, .. } | Msg::Reply { w, .. }) => {
                let wk = &mut self.workers[w as usize];
                if wk.paused {
                    let slot = wk
                        .inbox
                        .iter_mut()
                        .find(|m| m.is_none())
                        .expect("inbox room");
                    *slot = Some(m);
                } else {
                    self.handle(w, m);
                }
            }
        }
    }

    fn coordinator_acquire(&mut self, w: u8, req: u8) {
        let now = self.now;
        match &mut self.holder {
            // Re-entrant: the same grant again.
            Some(h) if h.w == w => {
                h.expires = now + TTL;
                h.req = h.req.max(req);
                let g = h.g;
                self.send(Msg::Granted { w, g, req });
            }
            Some(_) => {
                self.dequeue(w);
                let slot = self.queue.iter_mut().find(|q| q.is_none()).expect("room");
                *slot = Some((w, req));
            }
            None => {
                self.dequeue(w);
                self.minted += 1;
                let g = self.minted;
                self.latest = g;
                self.holder = Some(Holder {
                    w,
                    g,
                    expires: now + TTL,
                    req,
                });
                self.send(Msg::Granted { w, g, req });
            }
        }
    }

    fn dequeue(&mut self, w: u8) {
        if let Some(i) = self.queue.iter().position(|q| q.is_some_and(|q| q.0 == w)) {
            self.queue[i] = None;
            self.queue[i..].rotate_left(1);
        }
    }

    fn handle(&mut self, w: u8, m: Msg) {
        let now = self.now;
        let wk = &mut self.workers[w as usize];
        match m {
            Msg::Granted { g, req, .. } => {
                let Some((asked, sent)) = wk.asking else {
                    return;
                };
                if asked != req {
                    return;
                }
                wk.asking = None;
                // Counted from the acquire's send; a grant that arrives too late is ignored.
                if now < sent + TTL {
                    wk.lease = Some((g, sent + TTL));
                }
            }
            Msg::Available { req, .. } if wk.asking.is_some_and(|(r, _)| r == req) => {
                wk.asking = None;
                self.acquire(w);
            }
            _ => {}
        }
    }

    fn acquire(&mut self, w: u8) {
        let wk = &mut self.workers[w as usize];
        let req = wk.next_req;
        wk.next_req += 1;
        wk.asking = Some((req, self.now));
        self.send(Msg::Acquire { w, req });
    }

    fn resource_write(&mut self, w: u8, g: u8, fenced: bool) {
        if fenced && self.highest != 0 && g < self.highest {
            // Refused as stale; the current holder's own write refused locks it out.
            if self.holder.is_some_and(|h| h.w == w && h.g == g) {
                self.violated |= OWNER_LOCKED_OUT;
            }
            self.send(Msg::Reply { w, accepted: false });
            return;
        }
        if fenced && g > self.highest {
            self.highest = g;
        }
        self.value = w + 1;
        // The checker: an older grant's write after a newer one's, or after a newer grant.
        match self.newest {
            Some((n, _)) if g < n => self.violated |= STALE_OVERWRITE,
            _ if g < self.latest => self.violated |= SUPERSEDED_WRITE,
            _ => {}
        }
        if self.newest.is_none_or(|(n, _)| g > n) {
            self.newest = Some((g, w));
        }
        if self.executed & 1 << w != 0 {
            self.violated |= DOUBLE_EXECUTION;
        }
        self.executed |= 1 << w;
        self.send(Msg::Reply { w, accepted: true });
    }

    /// A worker's own clock says its lease ran out.
    fn check_clock(&mut self, w: u8) {
        let wk = &mut self.workers[w as usize];
        if wk.lease.is_some_and(|(_, until)| self.now >= until) {
            wk.lease = None;
        }
    }

    fn resume(&mut self, w: u8) {
        let wk = &mut self.workers[w as usize];
        wk.paused = false;
        if let Some(g) = wk.prepared.take() {
            wk.last_sent = Some(g);
            self.send(Msg::Write { w, g });
        }
        let inbox = std::mem::take(&mut self.workers[w as usize].inbox);
        for m in inbox.into_iter().flatten() {
            self.handle(w, m);
        }
        self.check_clock(w);
    }

    /// One tick of true time: due messages in send order, the coordinator's expiry (whoever
    /// waits is told to ask again), then each running worker's clock.
    fn tick(&mut self, fenced: bool) {
        self.now += 1;
        while let Some(i) = self
            .net
            .iter()
            .position(|e| e.is_some_and(|e| !e.held && e.sent < self.now))
        {
            self.deliver(i, fenced);
        }
        if self.holder.is_some_and(|h| self.now >= h.expires) {
            self.holder = None;
            for (w, req) in std::mem::take(&mut self.queue).into_iter().flatten() {
                self.send(Msg::Available { w, req });
            }
        }
        for w in 0..2 {
            if !self.workers[w as usize].paused {
                self.check_clock(w);
            }
        }
    }

    /// The next tick at which time passing changes something (`World::next_deadline`).
    fn next_deadline(&self) -> Option<u8> {
        let soon = self.now + 1;
        let due = self
            .net
            .iter()
            .flatten()
            .filter(|e| !e.held)
            .map(|e| e.sent + 1);
        let expiry = self.holder.map(|h| h.expires);
        let leases = self
            .workers
            .iter()
            .filter(|wk| !wk.paused)
            .filter_map(|wk| wk.lease.map(|(_, until)| until));
        due.chain(expiry).chain(leases).min().map(|t| t.max(soon))
    }

    /// Renumber each worker's live request numbers 1, 2, … in order, as the explorer's state
    /// key ranks them: numbers are only compared, and a fresh one exceeds every live one.
    fn renumber(&mut self) {
        for w in 0..2u8 {
            let mut live = [0u8; 8];
            let mut n = 0;
            let mut add = |r: u8| {
                if !live[..n].contains(&r) {
                    live[n] = r;
                    n += 1;
                }
            };
            let wk = &self.workers[w as usize];
            wk.asking.iter().for_each(|a| add(a.0));
            for m in wk
                .inbox
                .iter()
                .flatten()
                .chain(self.net.iter().flatten().map(|e| &e.msg))
            {
                let mut m = *m;
                if let Some((x, r)) = m.req_mut() {
                    if x == w {
                        add(*r);
                    }
                }
            }
            self.holder
                .filter(|h| h.w == w)
                .iter()
                .for_each(|h| add(h.req));
            self.queue
                .iter()
                .flatten()
                .filter(|q| q.0 == w)
                .for_each(|q| add(q.1));
            let live = &mut live[..n];
            live.sort_unstable();
            let rank = |r: u8| live.iter().position(|&x| x == r).expect("live") as u8 + 1;
            let wk = &mut self.workers[w as usize];
            if let Some(a) = &mut wk.asking {
                a.0 = rank(a.0);
            }
            wk.next_req = n as u8 + 1;
            let msgs = wk.inbox.iter_mut().flatten();
            let msgs = msgs.chain(self.net.iter_mut().flatten().map(|e| &mut e.msg));
            for m in msgs {
                if let Some((x, r)) = m.req_mut() {
                    if x == w {
                        *r = rank(*r);
                    }
                }
            }
            if let Some(h) = self.holder.as_mut().filter(|h| h.w == w) {
                h.req = rank(h.req);
            }
            for q in self.queue.iter_mut().flatten().filter(|q| q.0 == w) {
                q.1 = rank(q.1);
            }
        }
    }

    /// The ghost's `stale_refused`: a write sent, no longer on the wire, and not applied was
    /// refused, and stale is the only refusal this system can give.
    fn stale_refused(&self) -> bool {
        (0..2u8).any(|w| {
            let wk = &self.workers[w as usize];
            let on_wire = self
                .net
                .iter()
                .flatten()
                .any(|e| matches!(e.msg, Msg::Write { w: x, .. } if x == w));
            wk.last_sent.is_some() && !on_wire && self.executed & 1 << w == 0
        })
    }
}

impl Peer {
    fn init() -> St {
        let mut s = St {
            now: 0,
            pcs: [0; 2],
            holds: 0,
            pauses: 0,
            minted: 0,
            latest: 0,
            holder: None,
            queue: [None; 2],
            workers: [Wk::default(); 2],
            highest: 0,
            value: 0,
            net: [None; NET],
            newest: None,
            executed: 0,
            violated: 0,
        };
        s.workers.iter_mut().for_each(|w| w.next_req = 1);
        s
    }
}

impl Model for Peer {
    type State = St;
    type Action = Act;

    fn init_states(&self) -> Vec<St> {
        vec![Peer::init()]
    }

    /// The explorer's choices, in its order: each program's next action if it is ready, each
    /// non-reply message delivered now, a write held, a pause or resume, time to the next deadline.
    fn actions(&self, s: &St, out: &mut Vec<Act>) {
        for w in 0..2u8 {
            let wk = &s.workers[w as usize];
            let ready = !wk.paused
                && match s.pcs[w as usize] {
                    0 => wk.lease.is_none() && wk.asking.is_none(),
                    1 => wk.lease.is_some(),
                    _ => false,
                };
            if ready {
                out.push(Act::Program(w));
            }
        }
        for (i, e) in s.net.iter().enumerate() {
            let Some(e) = e else { break };
            if !matches!(e.msg, Msg::Reply { .. }) {
                out.push(Act::Deliver(i as u8));
            }
            if matches!(e.msg, Msg::Write { .. }) && s.holds < self.max_holds && !e.held {
                out.push(Act::Hold(i as u8));
            }
        }
        for w in 0..2u8 {
            let wk = &s.workers[w as usize];
            if wk.paused {
                out.push(Act::Resume(w));
            } else if s.pauses < self.max_pauses && wk.lease.is_some() {
                out.push(Act::Pause(w));
            }
        }
        if let Some(t) = s.next_deadline().filter(|&t| t <= self.max_tick) {
            out.push(Act::Advance(t));
        }
    }

    fn next_state(&self, s: &St, a: Act) -> Option<St> {
        let mut s = *s;
        match a {
            Act::Program(w) => {
                let pc = &mut s.pcs[w as usize];
                if *pc == 0 {
                    *pc = 1;
                    s.acquire(w);
                } else {
                    *pc = 3;
                    let wk = &mut s.workers[w as usize];
                    let g = wk.lease.expect("holds").0;
                    wk.seq += 1;
                    if w == 0 {
                        wk.prepared = Some(g);
                    } else {
                        wk.last_sent = Some(g);
                        s.send(Msg::Write { w, g });
                    }
                }
            }
            Act::Deliver(i) => s.deliver(i as usize, self.fenced),
            Act::Hold(i) => {
                s.holds += 1;
                s.net[i as usize].as_mut().expect("in flight").held = true;
            }
            Act::Pause(w) => {
                s.pauses += 1;
                s.workers[w as usize].paused = true;
            }
            Act::Resume(w) => s.resume(w),
            Act::Advance(t) => {
                while s.now < t {
                    s.tick(self.fenced);
                }
            }
        }
        s.renumber();
        Some(s)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![
            Property::always("stale_overwrite", |_, s: &St| {
                s.violated & STALE_OVERWRITE == 0
            }),
            Property::always("superseded_write", |_, s: &St| {
                s.violated & SUPERSEDED_WRITE == 0
            }),
            Property::always("double_execution", |_, s: &St| {
                s.violated & DOUBLE_EXECUTION == 0
            }),
            // One write per operation to one resource: never a partial multi-object write.
            Property::always("inconsistent_objects", |_, _| true),
            Property::always("owner_locked_out", |_, s: &St| {
                s.violated & OWNER_LOCKED_OUT == 0
            }),
            Property::sometimes("write_applied", |_, s: &St| s.newest.is_some()),
            Property::sometimes("granted_again", |_, s: &St| s.latest >= 2),
            Property::sometimes("stale_refused", |_, s: &St| s.stale_refused()),
        ]
    }
}

// ---------------------------------------------------------------------------------------
// The cross-check: the explorer's search over `World`, mapped onto the peer.
// ---------------------------------------------------------------------------------------

fn worker_index(name: &str) -> u8 {
    WORKERS.iter().position(|w| *w == name).expect("A or B") as u8
}

fn label_index(id: &str) -> u8 {
    LABELS
        .iter()
        .position(|l| *l == id)
        .expect("a scripted write") as u8
}

/// The peer state a world is, with the explorer's own counters beside it. Panics on anything
/// the peer does not model (it would be a difference between the two systems).
fn abstract_world(w: &World, pcs: &[usize], holds: u8, pauses: u8) -> St {
    let c = w.coordinator();
    assert_eq!(c.locks.len(), 1);
    let lock = c.locks.values().next().expect("one lock");
    assert!(lock.pending.is_none() && lock.delayed_until_local.is_none());
    assert_eq!(lock.ttl, TTL as u64);
    let g = w.ghost();
    let minted = g.minted.get(&lock.name).copied().unwrap_or(0) as u8;
    assert_eq!(lock.issuer.next, [TOKEN_BASE + 1 + minted as i64]);
    let gen_of = |t: &fencing_lab::sim::token::Token, gen: u32| {
        assert_eq!(
            t.counter,
            TOKEN_BASE + gen as i64,
            "token and generation in step"
        );
        gen as u8
    };
    // Request numbers as ranks among each worker's live ones (`World::state_key`'s ranks).
    let mut live: Vec<(u8, u32)> = Vec::new();
    for wk in w.workers() {
        let i = worker_index(&wk.name);
        live.extend(wk.outstanding.iter().map(|o| (i, o.req)));
        live.extend(wk.inbox.iter().filter_map(Message::req).map(|r| (i, r)));
    }
    let worker_end = |e: &Envelope| match (&e.from, &e.to) {
        (Node::Worker(n), _) | (_, Node::Worker(n)) => Some(worker_index(n)),
        _ => None,
    };
    for e in &w.network().in_flight {
        if let (Some(i), Some(r)) = (worker_end(e), e.msg.req()) {
            live.push((i, r));
        }
    }
    live.extend(lock.holder.iter().map(|h| (worker_index(&h.worker), h.req)));
    live.extend(lock.queue.iter().map(|q| (worker_index(&q.worker), q.req)));
    live.sort_unstable();
    live.dedup();
    let rank = |i: u8, r: u32| {
        let mine: Vec<u32> = live.iter().filter(|x| x.0 == i).map(|x| x.1).collect();
        mine.iter().position(|&x| x == r).expect("live") as u8 + 1
    };
    let msg = |m: &Message, i: u8| match m {
        Message::Acquire { req, .. } => Msg::Acquire {
            w: i,
            req: rank(i, *req),
        },
        Message::Granted {
            token,
            generation,
            req,
            ttl,
            ..
        } => {
            assert_eq!(*ttl, TTL as u64);
            Msg::Granted {
                w: i,
                g: gen_of(token, *generation),
                req: rank(i, *req),
            }
        }
        Message::Available { req, .. } => Msg::Available {
            w: i,
            req: rank(i, *req),
        },
        Message::Write(r) => {
            assert_eq!(label_index(&r.id), i);
            let gen = r.grant.as_ref().expect("under a grant").1;
            Msg::Write {
                w: i,
                g: gen_of(r.token.as_ref().expect("a token"), gen),
            }
        }
        Message::Reply { request, outcome } => {
            assert_eq!(label_index(request), i);
            Msg::Reply {
                w: i,
                accepted: *outcome == Outcome::Accepted,
            }
        }
        other => panic!("the peer has no {other:?}"),
    };
    let write_gen = |reqs: &[fencing_lab::sim::request::Request], i: u8| {
        assert!(reqs.len() <= 1);
        reqs.first().map(|r| {
            assert_eq!(label_index(&r.id), i);
            gen_of(
                r.token.as_ref().expect("a token"),
                r.grant.as_ref().expect("grant").1,
            )
        })
    };
    let mut workers = [Wk::default(); 2];
    for wk in w.workers() {
        let i = worker_index(&wk.name);
        assert!(wk.clock.is_exact() && wk.renew_every.is_none() && !wk.partitioned);
        assert!(wk.leases.len() <= 1 && wk.outstanding.len() <= 1);
        assert!(wk.inbox.len() <= INBOX);
        let mut inbox = [None; INBOX];
        for (slot, m) in inbox.iter_mut().zip(&wk.inbox) {
            *slot = Some(msg(m, i));
        }
        workers[i as usize] = Wk {
            paused: match wk.status {
                Status::Running => false,
                Status::Paused { until: None } => true,
                ref other => panic!("the peer has no {other:?}"),
            },
            lease: wk.leases.first().map(|l| {
                assert!(l.renew_at_local.is_none());
                (gen_of(&l.token, l.generation), l.valid_until_local as u8)
            }),
            asking: wk.outstanding.first().map(|o| {
                assert_eq!(o.asked, fencing_lab::sim::worker::Asked::Acquire);
                (rank(i, o.req), o.sent_local as u8)
            }),
            prepared: write_gen(&wk.prepared, i),
            last_sent: write_gen(&wk.last_sent, i),
            inbox,
            seq: wk.seq as u8,
            next_req: live.iter().filter(|x| x.0 == i).count() as u8 + 1,
        };
    }
    let mut queue = [None; 2];
    for (slot, q) in queue.iter_mut().zip(&lock.queue) {
        let i = worker_index(&q.worker);
        *slot = Some((i, rank(i, q.req)));
    }
    // The wire in the order time delivers it, as the state key reads it.
    let mut flights: Vec<&Envelope> = w.network().in_flight.iter().map(|e| &**e).collect();
    flights.sort_by_key(|e| (e.due_at, e.id));
    assert!(flights.len() <= NET);
    let mut net = [None; NET];
    for (slot, e) in net.iter_mut().zip(flights) {
        assert_eq!(e.due_at, e.sent_at + 1);
        *slot = Some(Env {
            msg: msg(&e.msg, worker_end(e).expect("a worker at one end")),
            sent: e.sent_at as u8,
            held: match e.hold {
                Hold::No => false,
                Hold::Forever => true,
                Hold::Until(_) => panic!("the peer holds for ever"),
            },
        });
    }
    assert_eq!(w.resources().len(), 1);
    let r = &w.resources()[0];
    assert!(r.checked.is_empty());
    let executed: u8 = (0..2u8)
        .filter(|&i| {
            g.executed
                .contains(&(r.name.clone(), LABELS[i as usize].into()))
        })
        .fold(0, |bits, i| bits | 1 << i);
    assert_eq!(g.executed.len(), executed.count_ones() as usize);
    assert!(g.multi.is_empty());
    assert_eq!(pcs.len(), 2);
    let s = St {
        now: w.now() as u8,
        pcs: [pcs[0] as u8, pcs[1] as u8],
        holds,
        pauses,
        minted,
        latest: g.latest_grant.get(&lock.name).copied().unwrap_or(0) as u8,
        holder: lock.holder.as_ref().map(|h| {
            let i = worker_index(&h.worker);
            Holder {
                w: i,
                g: gen_of(&h.token, h.generation),
                expires: h.expires_local as u8,
                req: rank(i, h.req),
            }
        }),
        queue,
        workers,
        highest: r.data.highest.as_ref().map_or(0, |t| {
            assert!(t.counter > TOKEN_BASE && t.epoch == 0);
            (t.counter - TOKEN_BASE) as u8
        }),
        value: VALUES
            .iter()
            .position(|v| *v == r.data.value)
            .expect("a value") as u8,
        net,
        newest: g
            .newest_applied
            .get(&r.name)
            .map(|(n, by)| (*n as u8, label_index(by))),
        executed,
        violated: g.violated_kinds(),
    };
    assert_eq!(
        s.stale_refused(),
        g.stale_refused,
        "stale_refused is a function of the state"
    );
    s
}

/// A node of the explorer's search, as `Explorer` keeps it.
struct Node0 {
    world: World,
    pcs: Vec<usize>,
    holds: u8,
    pauses: u8,
}

/// The explorer's choices at a node (`Explorer::choices` for these bounds, through `World`'s
/// public interface): each with the program positions and counters after it.
fn mirror_choices(
    n: &Node0,
    programs: &[(fencing_lab::sim::Name, Vec<Action>)],
    b: &Bounds,
) -> Vec<(Action, Vec<usize>, u8, u8)> {
    let w = &n.world;
    let mut out = Vec::new();
    for (pi, (worker, actions)) in programs.iter().enumerate() {
        let wk = w.worker(worker).expect("worker");
        let ready = |a: &Action| match a {
            Action::Await { .. } => wk.is_running() && wk.believes(&wk.lock),
            Action::Acquire { .. } => {
                w.check(a).is_ok() && wk.lease(&wk.lock).is_none() && !wk.acquiring(&wk.lock)
            }
            _ => w.check(a).is_ok() && wk.holds_any(),
        };
        let mut pc = n.pcs[pi];
        while matches!(actions.get(pc), Some(a @ Action::Await { .. }) if ready(a)) {
            pc += 1;
        }
        let Some(a) = actions.get(pc).filter(|a| ready(a)) else {
            continue;
        };
        let mut pcs = n.pcs.clone();
        pcs[pi] = pc + 1;
        out.push((a.clone(), pcs, n.holds, n.pauses));
    }
    for e in &w.network().in_flight {
        let msg = MsgSel::id(e.id);
        use fencing_lab::sim::message::MessageKind;
        if e.msg.kind() != MessageKind::Reply {
            let deliver = Action::Deliver { msg: msg.clone() };
            out.push((deliver, n.pcs.clone(), n.holds, n.pauses));
        }
        if e.msg.kind() == MessageKind::Write && n.holds < b.max_holds && !e.is_held(w.now()) {
            let hold = Action::Hold { msg, until: None };
            out.push((hold, n.pcs.clone(), n.holds + 1, n.pauses));
        }
    }
    for wk in w.workers() {
        let worker = wk.name.clone();
        match wk.status {
            Status::Running if n.pauses < b.max_pauses && wk.holds_any() => {
                let pause = Action::Pause {
                    worker,
                    ticks: None,
                };
                out.push((pause, n.pcs.clone(), n.holds, n.pauses + 1));
            }
            Status::Paused { until: None } => {
                out.push((Action::Resume { worker }, n.pcs.clone(), n.holds, n.pauses))
            }
            _ => {}
        }
    }
    if let Some(t) = w.next_deadline().filter(|t| *t <= b.max_tick) {
        let advance = Action::Advance { ticks: t - w.now() };
        out.push((advance, n.pcs.clone(), n.holds, n.pauses));
    }
    out
}

/// Counts from the mirror: states explored (each arrival) and distinct, and the deepest.
struct Mirrored {
    explored: usize,
    distinct: usize,
    deepest: usize,
}

/// Walk the explorer's search breadth first, keyed as it keys states, and check at every
/// state that the peer's successors are the explorer's, mapped.
fn mirror(s: &Scenario, b: &Bounds, peer: &Peer) -> Mirrored {
    assert!(b.max_drops == 0 && b.max_duplicates == 0 && b.max_crashes == 0 && b.max_moves == 0);
    let mut programs: Vec<(fencing_lab::sim::Name, Vec<Action>)> = Vec::new();
    for (_, a) in s.script_actions() {
        let worker = match a {
            Action::Acquire { worker, .. }
            | Action::Await { worker, .. }
            | Action::Prepare { worker, .. }
            | Action::Write { worker, .. } => worker.clone(),
            // The explorer's own choices in this story: pause, resume, time.
            Action::Pause { .. } | Action::Resume { .. } | Action::Advance { .. } => continue,
            other => panic!("the peer has no scripted {other:?}"),
        };
        match programs.iter_mut().find(|p| p.0 == worker) {
            Some(p) => p.1.push(a.clone()),
            None => programs.push((worker, vec![a.clone()])),
        }
    }
    assert_eq!(
        programs.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(),
        WORKERS
    );
    let key = |n: &Node0| {
        let mut h = fencing_lab::sim::hash::FxHasher::default();
        n.world.state_key().hash(&mut h);
        n.pcs.hash(&mut h);
        // `Used` in its field order: holds, drops, duplicates, pauses, crashes, moves.
        (n.holds, 0u8, 0u8, n.pauses, 0u8, 0u8).hash(&mut h);
        h.finish()
    };
    let root = Node0 {
        world: World::new(s),
        pcs: vec![0, 0],
        holds: 0,
        pauses: 0,
    };
    let mut peer_of: HashMap<u64, St> = HashMap::new();
    let mut key_of: HashMap<St, u64> = HashMap::new();
    let mut same = |k: u64, st: St| {
        assert_eq!(
            *peer_of.entry(k).or_insert(st),
            st,
            "one key, two peer states"
        );
        assert_eq!(
            *key_of.entry(st).or_insert(k),
            k,
            "one peer state, two keys"
        );
    };
    let root_st = abstract_world(&root.world, &root.pcs, 0, 0);
    assert_eq!(root_st, Peer::init());
    same(key(&root), root_st);
    let mut seen = HashSet::from([key(&root)]);
    let mut queue = VecDeque::from([(root, 0usize)]);
    let mut explored = 1;
    let mut deepest = 0;
    let mut acts = Vec::new();
    while let Some((n, depth)) = queue.pop_front() {
        deepest = deepest.max(depth);
        assert!(depth < b.max_depth, "the depth bound never binds");
        let st = abstract_world(&n.world, &n.pcs, n.holds, n.pauses);
        let mut theirs = Vec::new();
        for (a, pcs, holds, pauses) in mirror_choices(&n, &programs, b) {
            let mut world = n.world.clone();
            world.step_quiet(&a).expect("a choice the world takes");
            explored += 1;
            let child = Node0 {
                world,
                pcs,
                holds,
                pauses,
            };
            let k = key(&child);
            let child_st = abstract_world(&child.world, &child.pcs, holds, pauses);
            same(k, child_st);
            theirs.push(child_st);
            if seen.insert(k) {
                queue.push_back((child, depth + 1));
            }
        }
        peer.actions(&st, &mut acts);
        let mut ours: Vec<St> = acts
            .drain(..)
            .map(|a| peer.next_state(&st, a).expect("taken"))
            .collect();
        theirs.sort_unstable();
        ours.sort_unstable();
        assert_eq!(ours, theirs, "successors of {st:?}");
    }
    Mirrored {
        explored,
        distinct: seen.len(),
        deepest,
    }
}

// ---------------------------------------------------------------------------------------
// Verdicts, and the run.
// ---------------------------------------------------------------------------------------

/// Each property of the report in `Property::ALL`'s order, with the length of its shortest
/// counterexample or witness (None: held, or not reached).
fn explorer_verdicts(r: &ExploreReport) -> Vec<(String, Option<usize>)> {
    let inv = r.invariants.iter().map(|i| {
        (
            i.kind.as_str().to_string(),
            i.counterexample.as_ref().map(Vec::len),
        )
    });
    let ms = r.milestones.iter().map(|m| {
        (
            m.kind.as_str().to_string(),
            m.witness.as_ref().map(Vec::len),
        )
    });
    inv.chain(ms).collect()
}

/// Records the first (so, breadth first on one thread, shortest) path to each discovery:
/// Stateright's own record keeps the last.
#[derive(Clone, Default)]
struct FirstFound(Arc<Mutex<HashMap<&'static str, usize>>>);

impl CheckerVisitor<Peer> for FirstFound {
    fn visit(&self, model: &Peer, path: Path<St, Act>) {
        let s = *path.last_state();
        let len = path.into_actions().len();
        let mut found = self.0.lock().expect("not poisoned");
        for p in model.properties() {
            let holds = (p.condition)(model, &s);
            let settled = match p.expectation {
                stateright::Expectation::Always => !holds,
                _ => holds,
            };
            if settled {
                found.entry(p.name).or_insert(len);
            }
        }
    }
}

/// The peer's model in a plain breadth-first search (a queue and a set of 64-bit state
/// hashes, as the explorer keeps them), without Stateright: how much of Stateright's time is
/// the model's. Returns states explored and distinct.
fn plain_bfs(peer: &Peer) -> (usize, usize) {
    let fx = |s: &St| {
        let mut h = fencing_lab::sim::hash::FxHasher::default();
        s.hash(&mut h);
        h.finish()
    };
    let init = Peer::init();
    let mut seen: HashSet<u64, std::hash::BuildHasherDefault<fencing_lab::sim::hash::FxHasher>> =
        HashSet::default();
    seen.insert(fx(&init));
    let mut queue = VecDeque::from([init]);
    let (mut explored, mut acts) = (1, Vec::new());
    while let Some(s) = queue.pop_front() {
        peer.actions(&s, &mut acts);
        for a in acts.drain(..) {
            let next = peer.next_state(&s, a).expect("taken");
            explored += 1;
            if seen.insert(fx(&next)) {
                queue.push_back(next);
            }
        }
    }
    (explored, seen.len())
}

fn peer_for(s: &Scenario, b: &Bounds) -> Peer {
    let fenced = match s.policy {
        Policy::HighestSeen => true,
        Policy::Unfenced => false,
        other => panic!("the peer models highest-seen and unfenced, not {other:?}"),
    };
    Peer {
        fenced,
        max_tick: u8::try_from(b.max_tick).expect("a small bound"),
        max_holds: b.max_holds,
        max_pauses: b.max_pauses,
    }
}

/// Check the peer against the explorer for one policy; returns the explorer's report.
fn check(name: &str, s: &Scenario, b: &Bounds) -> ExploreReport {
    let r = explore(s, None, b.clone());
    assert!(r.complete);
    let peer = peer_for(s, b);
    let m = mirror(s, b, &peer);
    assert_eq!(
        (m.explored, m.distinct),
        (r.states, r.distinct_states),
        "the mirror is the explorer"
    );
    let first = FirstFound::default();
    let c = peer
        .clone()
        .checker()
        .threads(1)
        .target_max_depth(b.max_depth + 1)
        .visitor(first.clone())
        .spawn_bfs()
        .join();
    let found = first.0.lock().expect("not poisoned").clone();
    let ours: Vec<(String, Option<usize>)> = peer
        .properties()
        .iter()
        .map(|p| (p.name.to_string(), found.get(p.name).copied()))
        .collect();
    let discovered: HashSet<&str> = c.discoveries().into_keys().collect();
    assert!(ours
        .iter()
        .all(|(p, len)| len.is_some() == discovered.contains(p.as_str())));
    let theirs = explorer_verdicts(&r);
    println!(
        "{name:<14} explorer {:>5} explored {:>5} distinct | peer {:>5} explored {:>5} distinct | deepest {}",
        r.states,
        r.distinct_states,
        c.state_count(),
        c.unique_state_count(),
        m.deepest
    );
    for ((p, a), (_, b)) in theirs.iter().zip(&ours) {
        let say = |x: &Option<usize>| x.map_or("-".to_string(), |n| format!("{n} steps"));
        println!("  {p:<22} explorer {:<10} peer {}", say(a), say(b));
    }
    assert_eq!(
        (c.state_count(), c.unique_state_count()),
        (r.states, r.distinct_states)
    );
    assert_eq!(theirs, ours, "the same verdicts and shortest runs");
    r
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let base = presets::get("paused-writer").expect("preset");
    let mut cases = vec![(base.policy.as_str().to_string(), base.clone())];
    for v in &base.variants {
        cases.push((format!("variant {}", v.name), base.with_variant(v)));
    }
    for (name, s) in &cases {
        check(name, s, &Bounds::for_scenario(s));
    }

    // Timing: both whole searches, breadth first, one thread, under the preset's own policy.
    // The machine is shared, so the two alternate in rounds, each round a `measure` of each,
    // and the ratio is the median of the rounds' ratios.
    let b = Bounds::for_scenario(&base);
    let peer = peer_for(&base, &b);
    let (rounds, samples) = if full { (7, 5) } else { (1, 1) };
    let mut explored = 0;
    let mut peer_explored = 0;
    let mut plain_counts = (0, 0);
    let (mut ours, mut theirs, mut plain, mut ratios) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let e = measure(samples, || {
            explored = black_box(explore(&base, None, b.clone())).states;
        });
        let p = measure(samples, || {
            let c = peer
                .clone()
                .checker()
                .threads(1)
                .target_max_depth(b.max_depth + 1)
                .spawn_bfs()
                .join();
            peer_explored = black_box(c.state_count());
        });
        let q = measure(samples, || plain_counts = black_box(plain_bfs(&peer)));
        ratios.push(p.median.as_secs_f64() / e.median.as_secs_f64());
        ours.push(e.median);
        theirs.push(p.median);
        plain.push(q.median);
    }
    assert_eq!(explored, peer_explored);
    let r = explore(&base, None, b.clone());
    assert_eq!(plain_counts, (r.states, r.distinct_states));
    let median = |xs: &mut Vec<std::time::Duration>| {
        xs.sort();
        xs[xs.len() / 2]
    };
    let (ours, theirs, plain) = (median(&mut ours), median(&mut theirs), median(&mut plain));
    ratios.sort_by(f64::total_cmp);
    let rate = |d: std::time::Duration| explored as f64 / d.as_secs_f64() / 1e6;
    println!(
        "\npaused-writer, {explored} states explored; {rounds} rounds of {samples} samples each, \
         medians; peer state {} bytes\n  \
         explorer   {:>10}  {:>6.3} M states/s\n  \
         Stateright {:>10}  {:>6.3} M states/s\n  \
         ratio explorer ÷ Stateright: {:.3} (rounds {:.3} to {:.3})\n  \
         (the peer's model in a plain queue-and-set search, no Stateright: {}, {:.3} M states/s)",
        std::mem::size_of::<St>(),
        fmt_time(ours),
        rate(ours),
        fmt_time(theirs),
        rate(theirs),
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1],
        fmt_time(plain),
        rate(plain)
    );
}

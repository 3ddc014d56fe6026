//! The world: every node, the network and the checker's ghost state, as one value.
//!
//! `World::step(action)` is the only way anything happens. It validates the action
//! first, so a refused action leaves the world untouched, then runs node handlers and
//! performs the effects they return, and checks the invariants as resources change.

use super::action::{Action, MsgSel};
use super::coordinator::{Coordinator, LockState};
use super::effect::{Effect, Note, Out};
use super::event::{Event, EventKind, Metrics, Versions};
use super::invariant::{self, Ghost, Judged, Seen};
use super::message::{Envelope, Message, Network, Node};
use super::name::Name;
use super::request::{Outcome, Reason, Request};
use super::resource::{Compared, Policy, Resource, ResourceKind, Verdict};
use super::rng::Rng;
use super::scenario::Scenario;
use super::shared_vec::SharedVec;
use super::time::Tick;
use super::token::Issuer;
use super::worker::{Status, Worker, WriteSpec};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// Two or more workers believing they hold one lock over a span of true time.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Overlap {
    pub lock: Name,
    pub workers: Vec<Name>,
    pub from: Tick,
    pub to: Tick,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct World {
    now: Tick,
    rng: Rng,
    /// Each node and the ghost behind an `Rc`: the explorer clones a world per transition,
    /// and a transition changes one or two of them, so a clone copies pointers and a step
    /// copies only what it writes (`Rc::make_mut`).
    coordinator: Rc<Coordinator>,
    workers: Vec<Rc<Worker>>,
    resources: Vec<Rc<Resource>>,
    network: Network,
    ghost: Rc<Ghost>,
    /// Grows with the run, so shared between snapshots (`SharedVec`).
    overlaps: SharedVec<Overlap>,
    metrics: Metrics,
    /// How many of the ghost's violations are already in the event log.
    violations_logged: usize,
}

/// Where a step's events go. A quiet log keeps none, and the step skips writing the
/// descriptions only a reader needs.
#[derive(Default)]
struct Log {
    events: Vec<Event>,
    quiet: bool,
    /// The step stopped short: it had recorded more than `MAX_STEP_EVENTS`.
    over: bool,
}

impl Log {
    fn quiet() -> Log {
        Log {
            events: Vec::new(),
            quiet: true,
            over: false,
        }
    }
}

/// The most events one step may record. A step of time runs tick by tick, and what a tick
/// records has no bound of its own (64 workers renewing every tick); past this a step stops
/// and is refused, rather than fill memory: a run keeps every event it records. Seven
/// hundred times the busiest preset's step. It also bounds the longest step the page cannot
/// cut into slices (issue 33): 100,000 events kept a 2-core machine's page busy 199 ms in
/// one go; 25,000 take 63–65 ms (the page's re-render after it is issue 37's).
pub const MAX_STEP_EVENTS: usize = 25_000;

/// Why an action was refused. The world is unchanged (but for a step over `MAX_STEP_EVENTS`:
/// see [`World::step`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError(pub String);

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn refuse<T>(why: impl Into<String>) -> Result<T, ActionError> {
    Err(ActionError(why.into()))
}

impl World {
    /// Build the initial world. The scenario must have passed `validate`.
    pub fn new(s: &Scenario) -> World {
        let first_lock = s.locks[0].name.clone();
        let mut locks = BTreeMap::new();
        for l in &s.locks {
            let fenced = s
                .resources
                .iter()
                .filter(|r| r.lock.as_deref().unwrap_or(&first_lock) == l.name)
                .filter(|r| {
                    r.kind.can_fence() && r.policy.unwrap_or(s.policy).registers_on_acquire()
                })
                .map(|r| Name::from(&r.name))
                .collect();
            locks.insert(
                Name::from(&l.name),
                LockState {
                    name: Name::from(&l.name),
                    ttl: l.ttl,
                    issuer: Issuer::new(l.issuer.clone()),
                    holder: None,
                    pending: None,
                    queue: Vec::new(),
                    fenced,
                    lock_delay: l.lock_delay,
                    delayed_until_local: None,
                    takeover: l.takeover,
                    bump_on_expiry: l.bump_on_expiry,
                },
            );
        }
        let replicas = match s.locks[0].issuer {
            super::token::IssuerKind::IndependentCounters { replicas, .. } => {
                replicas.max(s.coordinator.replicas)
            }
            _ => s.coordinator.replicas,
        };
        let mut coordinator = Coordinator {
            clock: s.coordinator.clock.clone(),
            persist: s.coordinator.persist,
            replica: 0,
            replicas: replicas.max(1),
            async_replication: s.coordinator.async_replication,
            locks,
            backup: None,
        };
        coordinator.take_backup();
        let workers = s
            .workers
            .iter()
            .map(|w| {
                Rc::new(Worker {
                    name: Name::from(&w.name),
                    clock: w.clock.clone(),
                    status: Status::Running,
                    lock: Name::from(w.lock.as_ref().unwrap_or(&first_lock)),
                    omits_token: w.omits_token,
                    renew_every: w.renew_every,
                    partitioned: false,
                    leases: Vec::new(),
                    outstanding: Vec::new(),
                    next_req: 1,
                    prepared: Vec::new(),
                    last_sent: Vec::new(),
                    durable_retry: w.durable_retry,
                    inbox: Vec::new(),
                    seq: 0,
                })
            })
            .collect();
        // Objects keep a version only where the story writes conditionally: elsewhere it
        // would tell apart states with the same future and grow the explorer's space.
        let versioned = s.script_actions().any(|(_, a)| {
            matches!(a, Action::Write { write, .. } | Action::Prepare { write, .. } if write.if_version.is_some())
        });
        let resources = s
            .resources
            .iter()
            .map(|r| {
                let policy = if r.kind.can_fence() {
                    r.policy.unwrap_or(s.policy)
                } else {
                    Policy::Unfenced
                };
                let mut res = Resource::new(
                    &r.name,
                    r.lock.as_deref().unwrap_or(&first_lock),
                    r.kind.clone(),
                    policy,
                    r.options.clone(),
                );
                res.versioned = versioned;
                Rc::new(res)
            })
            .collect();
        World {
            now: 0,
            rng: Rng::new(s.seed),
            coordinator: Rc::new(coordinator),
            workers,
            resources,
            network: Network::new(s.network.clone()),
            ghost: Rc::default(),
            overlaps: SharedVec::default(),
            metrics: Metrics::default(),
            violations_logged: 0,
        }
    }

    /// A digest of the whole state (events' metrics and overlaps included), for determinism
    /// checks: the same on every machine and run (`FxHasher`). The explorer deduplicates by
    /// `state_key`, which leaves out what cannot change the future.
    pub fn fingerprint(&self) -> u64 {
        let mut h = super::hash::FxHasher::default();
        self.hash(&mut h);
        h.finish()
    }

    // Read access only: every change to a world goes through `World::step`, so the fields
    // are private and a caller outside this module sees its parts through these.

    /// True time.
    pub fn now(&self) -> Tick {
        self.now
    }

    pub fn rng(&self) -> &Rng {
        &self.rng
    }

    pub fn coordinator(&self) -> &Coordinator {
        &self.coordinator
    }

    pub fn workers(&self) -> &[Rc<Worker>] {
        &self.workers
    }

    pub fn resources(&self) -> &[Rc<Resource>] {
        &self.resources
    }

    pub fn network(&self) -> &Network {
        &self.network
    }

    /// The truth the nodes cannot see: grant order, what was applied, violations.
    pub fn ghost(&self) -> &Ghost {
        &self.ghost
    }

    /// Spans in which two or more workers believed they held one lock.
    pub fn overlaps(&self) -> &SharedVec<Overlap> {
        &self.overlaps
    }

    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    pub fn worker(&self, name: &str) -> Option<&Worker> {
        self.workers.iter().map(|w| &**w).find(|w| w.name == name)
    }

    pub fn resource(&self, name: &str) -> Option<&Resource> {
        self.resources.iter().map(|r| &**r).find(|r| r.name == name)
    }

    /// The lock guarding each named resource (the worker's code knows which lock guards what).
    fn locks_of(&self, targets: &[Name]) -> Vec<Name> {
        targets
            .iter()
            .filter_map(|t| self.resource(t).map(|r| r.lock.clone()))
            .collect()
    }

    fn wi(&self, name: &str) -> Result<usize, ActionError> {
        match self.workers.iter().position(|w| w.name == name) {
            Some(i) => Ok(i),
            None => refuse(format!("no worker named “{name}”")),
        }
    }

    fn ri(&self, name: &str) -> Result<usize, ActionError> {
        match self.resources.iter().position(|r| r.name == name) {
            Some(i) => Ok(i),
            None => refuse(format!("no resource named “{name}”")),
        }
    }

    /// The in-flight message a selector picks.
    pub fn select(&self, sel: &MsgSel) -> Result<u32, ActionError> {
        let found = self.network.in_flight.iter().find(|e| {
            sel.id.is_none_or(|i| e.id == i)
                && sel
                    .request
                    .as_deref()
                    .is_none_or(|r| e.msg.request().is_some_and(|q| q == r))
                && sel.kind.is_none_or(|k| e.msg.kind() == k)
                && sel.from.as_deref().is_none_or(|f| e.from.name() == f)
                && sel.to.as_deref().is_none_or(|t| e.to.name() == t)
        });
        match found {
            Some(e) => Ok(e.id),
            None => refuse(format!("no message in flight matches {sel}")),
        }
    }

    /// Whether `action` may be taken now, and if not, why.
    pub fn check(&self, action: &Action) -> Result<(), ActionError> {
        use Action::*;
        if let Some((_, why)) = action.out_of_range() {
            return refuse(why);
        }
        if let Some(name) = action.worker() {
            let w = &self.workers[self.wi(name)?];
            let needs_running = !matches!(
                action,
                Resume { .. } | Restart { .. } | Crash { .. } | Partition { .. } | Heal { .. }
            );
            match (&w.status, needs_running) {
                (Status::Paused { .. }, true) => {
                    return refuse(format!("{name} is paused and executes nothing"))
                }
                (Status::Crashed, true) => {
                    return refuse(format!("{name} has crashed; restart it first"))
                }
                _ => {}
            }
        }
        match action {
            Acquire { worker, lock } => {
                let lock = lock
                    .clone()
                    .unwrap_or_else(|| self.workers[self.wi(worker).unwrap_or(0)].lock.clone());
                if !self.coordinator.locks.contains_key(lock.as_str()) {
                    return refuse(format!("no lock named “{lock}”"));
                }
            }
            Prepare { write, .. } | Write { write, .. } => self.check_write(write)?,
            Send { worker } if self.worker(worker).is_some_and(|w| w.prepared.is_empty()) => {
                return refuse(format!("{worker} has nothing prepared"));
            }
            Retry { worker } if self.worker(worker).is_some_and(|w| w.last_sent.is_empty()) => {
                return refuse(format!("{worker} has sent nothing to retry"));
            }
            Renew { worker } | Release { worker }
                if self.worker(worker).is_some_and(|w| !w.holds_any()) =>
            {
                return refuse(format!("{worker} holds no lease"));
            }
            Resume { worker }
                if !matches!(
                    self.worker(worker).map(|w| &w.status),
                    Some(Status::Paused { .. })
                ) =>
            {
                return refuse(format!("{worker} is not paused"));
            }
            Restart { worker }
                if self
                    .worker(worker)
                    .is_some_and(|w| w.status != Status::Crashed) =>
            {
                return refuse(format!("{worker} has not crashed"));
            }
            Crash { worker }
                if self
                    .worker(worker)
                    .is_some_and(|w| w.status == Status::Crashed) =>
            {
                return refuse(format!("{worker} has already crashed"));
            }
            ClockJump { node, .. } if node != "coordinator" => {
                self.wi(node)?;
            }
            Deliver { msg } | Hold { msg, .. } | Drop { msg } | Duplicate { msg } => {
                self.select(msg)?;
            }
            Unhold { msg } => {
                let id = self.select(msg)?;
                let held = self
                    .network
                    .in_flight
                    .iter()
                    .any(|e| e.id == id && e.hold != super::message::Hold::No);
                if !held {
                    return refuse(format!("message #{id} is not held"));
                }
            }
            CompleteWrite { resource, .. } => {
                // Nothing waiting is not an error: a script written for check-then-write runs under every policy.
                self.ri(resource)?;
            }
            Await {
                worker,
                lock,
                within,
            } => {
                self.await_ticks(worker, lock.as_deref(), *within)?;
            }
            CoordinatorRestore if self.coordinator.backup.is_none() => {
                return refuse("the coordinator has no backup")
            }
            ResourceBackup { resource }
            | ResourceRestore { resource }
            | ResourceRestart { resource } => {
                self.ri(resource)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// How many ticks an `await` lets pass: time runs on a copy of the world, tick by tick
    /// as `advance` runs it, until the worker believes it holds the lock (0 if it already
    /// does). Refused when that does not happen within the bound.
    fn await_ticks(
        &self,
        worker: &str,
        lock: Option<&str>,
        within: Option<Tick>,
    ) -> Result<Tick, ActionError> {
        let i = self.wi(worker)?;
        let lock = lock.unwrap_or(&self.workers[i].lock).to_string();
        if !self.coordinator.locks.contains_key(lock.as_str()) {
            return refuse(format!("no lock named “{lock}”"));
        }
        let within = within.unwrap_or(super::action::AWAIT_DEFAULT_TICKS);
        if within > 100_000 {
            return refuse("await waits at most 100000 ticks");
        }
        if self.workers[i].believes(&lock) {
            return Ok(0);
        }
        let mut sim = self.clone();
        let mut scratch = Log::quiet();
        for n in 1..=within {
            sim.tick(&mut scratch);
            if sim.workers[i].believes(&lock) {
                return Ok(n);
            }
        }
        let unit = if within == 1 { "tick" } else { "ticks" };
        refuse(format!(
            "{worker} does not hold {lock} within {within} {unit}"
        ))
    }

    fn check_write(&self, write: &WriteSpec) -> Result<(), ActionError> {
        if write.to.is_empty() {
            return refuse("a write needs at least one resource");
        }
        for r in &write.to {
            self.ri(r)?;
        }
        if write.if_version.is_some() && !self.resources.iter().any(|r| r.versioned) {
            return refuse("a conditional write (if_version) needs a scenario whose script writes conditionally: only there do objects keep a version");
        }
        Ok(())
    }

    /// Take one action. Returns the events it caused; on error nothing changed.
    ///
    /// A step of time that would record more than [`MAX_STEP_EVENTS`] stops there and is
    /// refused; unlike other refusals it leaves the world part-way, so a caller discards it
    /// (`Run` steps a copy).
    pub fn step(&mut self, action: &Action) -> Result<Vec<Event>, ActionError> {
        self.check(action)?;
        let mut log = Log::default();
        self.apply(action, &mut log);
        if log.over {
            return refuse(format!(
                "it would record more than {MAX_STEP_EVENTS} events, the most one step may (it had reached t = {} of its time); take the time in shorter steps",
                self.now
            ));
        }
        self.note_overlaps();
        for e in &log.events {
            self.metrics.count(&e.kind);
        }
        Ok(log.events)
    }

    /// The explorer's step: the same change as `step` to everything a state is made of
    /// (what `state_key` hashes, the ghost's verdicts), but no events, metrics or overlap
    /// record, which only a run shows; a counterexample is replayed with `step` to show them.
    pub fn step_quiet(&mut self, action: &Action) -> Result<(), ActionError> {
        self.check(action)?;
        self.apply(action, &mut Log::quiet());
        Ok(())
    }

    fn apply(&mut self, action: &Action, log: &mut Log) {
        use Action::*;
        match action {
            Partition { worker } | Heal { worker } => {
                self.set_partition(worker, matches!(action, Partition { .. }), log)
            }
            ClockJump { node, by } => self.jump_clock(node, *by, log),
            Deliver { .. } | Hold { .. } | Unhold { .. } | Drop { .. } | Duplicate { .. } => {
                self.apply_network(action, log)
            }
            Advance { ticks } => self.run_ticks(*ticks, log),
            Await {
                worker,
                lock,
                within,
            } => {
                let n = self
                    .await_ticks(worker, lock.as_deref(), *within)
                    .expect("checked");
                self.run_ticks(n, log);
            }
            CoordinatorBackup
            | CoordinatorRestart { .. }
            | CoordinatorRestore
            | CoordinatorFailover => self.apply_coordinator(action, log),
            CompleteWrite { .. }
            | ResourceBackup { .. }
            | ResourceRestore { .. }
            | ResourceRestart { .. } => self.apply_resource(action, log),
            _ => self.apply_worker(action, log),
        }
    }

    fn run_ticks(&mut self, ticks: Tick, log: &mut Log) {
        for _ in 0..ticks {
            if log.events.len() > MAX_STEP_EVENTS {
                log.over = true;
                return;
            }
            self.tick(log);
        }
    }

    /// An action of one worker's own: its handler runs with the world's time.
    fn apply_worker(&mut self, action: &Action, log: &mut Log) {
        use Action::*;
        let now = self.now;
        let i = self
            .wi(action.worker().expect("a worker's action"))
            .expect("checked");
        match action {
            Acquire { lock, .. } => {
                let lock = lock.clone().unwrap_or_else(|| self.workers[i].lock.clone());
                self.with_worker(i, log, |w, out| w.acquire(&lock, now, out));
            }
            Prepare { write, .. } => {
                let locks = self.locks_of(&write.to);
                self.with_worker(i, log, |w, out| w.prepare(write, &locks, out));
            }
            Send { .. } => self.with_worker(i, log, |w, out| w.send_prepared(out)),
            Write { write, .. } => {
                let locks = self.locks_of(&write.to);
                self.with_worker(i, log, |w, out| {
                    w.prepare(write, &locks, out);
                    w.send_prepared(out);
                });
            }
            Retry { .. } => self.with_worker(i, log, |w, out| w.retry(out)),
            Renew { .. } => self.with_worker(i, log, |w, out| w.renew(now, out)),
            Release { .. } => self.with_worker(i, log, |w, out| w.release(out)),
            Pause { ticks, .. } => {
                let until = ticks.map(|t| now + t);
                self.with_worker(i, log, |w, out| w.pause(until, out));
            }
            Resume { .. } => self.with_worker(i, log, |w, out| w.resume(now, out)),
            Crash { .. } => self.with_worker(i, log, |w, out| w.crash(out)),
            Restart { .. } => self.with_worker(i, log, |w, out| w.restart(out)),
            other => unreachable!("not a worker's own action: {}", other.name()),
        }
    }

    fn set_partition(&mut self, worker: &str, cut: bool, log: &mut Log) {
        let i = self.wi(worker).expect("checked");
        Rc::make_mut(&mut self.workers[i]).partitioned = cut;
        let kind = if cut {
            EventKind::Partitioned
        } else {
            EventKind::Healed
        };
        self.push(log, worker, Note::new(kind), None);
        if cut {
            // The cut takes what is on the wire with it, both ways, as a broken
            // connection does; later sends across it are dropped as they are made.
            let crossing: Vec<u32> = self
                .network
                .in_flight
                .iter()
                .filter(|e| crosses_cut(e, worker))
                .map(|e| e.id)
                .collect();
            for id in crossing {
                let e = self.network.take(id).expect("in flight");
                self.note_dropped(log, &e, "lost in the partition");
            }
        }
    }

    fn jump_clock(&mut self, node: &str, by: i64, log: &mut Log) {
        let now = self.now;
        let reads = if node == "coordinator" {
            Rc::make_mut(&mut self.coordinator).clock.jump(by);
            self.coordinator.local(now)
        } else {
            let i = self.wi(node).expect("checked");
            Rc::make_mut(&mut self.workers[i]).clock.jump(by);
            self.workers[i].local(now)
        };
        let note = Note::new(EventKind::ClockJumped { by, reads });
        self.push(log, node, note, None);
    }

    /// What the network does to one message in flight.
    fn apply_network(&mut self, action: &Action, log: &mut Log) {
        use Action::*;
        match action {
            Deliver { msg } => {
                let id = self.select(msg).expect("checked");
                self.deliver(id, log);
            }
            Hold { msg, .. } | Unhold { msg } => {
                use super::message::Hold as H;
                let (hold, kind) = match action {
                    Hold { until, .. } => (
                        until.map_or(H::Forever, H::Until),
                        EventKind::Held { until: *until },
                    ),
                    _ => (H::No, EventKind::Released),
                };
                let id = self.select(msg).expect("checked");
                let e = self
                    .network
                    .in_flight
                    .iter_mut()
                    .find(|e| e.id == id)
                    .expect("selected");
                Rc::make_mut(e).hold = hold;
                self.push(log, "network", Note::new(kind), Some(id));
            }
            Drop { msg } => {
                let id = self.select(msg).expect("checked");
                let e = self.network.take(id).expect("selected");
                self.note_dropped(log, &e, "dropped by the network");
            }
            Duplicate { msg } => {
                let id = self.select(msg).expect("checked");
                let copy = self.network.duplicate(id).expect("selected");
                let note = Note::new(EventKind::Duplicated { copy });
                self.push(log, "network", note, Some(id));
            }
            other => unreachable!("not a network action: {}", other.name()),
        }
    }

    fn apply_coordinator(&mut self, action: &Action, log: &mut Log) {
        use Action::*;
        let now = self.now;
        let c = Rc::make_mut(&mut self.coordinator);
        let kind = match action {
            CoordinatorBackup => {
                c.take_backup();
                EventKind::CoordinatorBackedUp
            }
            CoordinatorRestart { persist } => {
                let persisted = persist.unwrap_or(c.persist);
                c.restart(persisted, now);
                EventKind::CoordinatorRestarted { persisted }
            }
            CoordinatorRestore => {
                c.restore(now);
                EventKind::CoordinatorRestored
            }
            CoordinatorFailover => {
                c.fail_over(now);
                EventKind::FailedOver {
                    replica: c.replica,
                    behind: c.async_replication,
                }
            }
            other => unreachable!("not a coordinator action: {}", other.name()),
        };
        self.push(log, "coordinator", Note::new(kind), None);
    }

    fn apply_resource(&mut self, action: &Action, log: &mut Log) {
        use Action::*;
        let (resource, kind) = match action {
            CompleteWrite { resource, request } => {
                let ri = self.ri(resource).expect("checked");
                let waiting = &self.resources[ri].checked;
                let id = match request {
                    Some(id) => waiting
                        .iter()
                        .find(|q| &q.request.id == id)
                        .map(|q| q.request.id.clone()),
                    None => waiting.first().map(|q| q.request.id.clone()),
                };
                if let Some(id) = id {
                    self.complete_write(ri, &id, log);
                }
                return;
            }
            ResourceBackup { resource } => {
                let ri = self.ri(resource).expect("checked");
                Rc::make_mut(&mut self.resources[ri]).take_backup();
                let kind = EventKind::ResourceBackedUp {
                    resource: resource.clone(),
                };
                (resource, kind)
            }
            ResourceRestore { resource } => {
                let ri = self.ri(resource).expect("checked");
                let r = Rc::make_mut(&mut self.resources[ri]);
                r.restore();
                // The checker keeps its memory: the newer owner's write did happen, even if
                // the restore undid it.
                let kind = EventKind::ResourceRestored {
                    resource: resource.clone(),
                    highest: r.data.highest.clone(),
                    value: r.data.value.clone(),
                };
                (resource, kind)
            }
            ResourceRestart { resource } => {
                let ri = self.ri(resource).expect("checked");
                let lost_checks = Rc::make_mut(&mut self.resources[ri]).restart();
                let kind = EventKind::ResourceRestarted {
                    resource: resource.clone(),
                    lost_checks,
                };
                self.push(log, resource, Note::new(kind), None);
                // The relay has lost what it sent and not yet heard answered: every unmarked
                // row goes again (at-least-once).
                let rows = self.resources[ri].data.unsent.clone();
                self.relay(ri, rows, log);
                return;
            }
            other => unreachable!("not a resource action: {}", other.name()),
        };
        self.push(log, resource, Note::new(kind), None);
    }

    /// One tick of true time: deliveries due, unfinished check-then-writes, every clock.
    fn tick(&mut self, log: &mut Log) {
        self.now += 1;
        let now = self.now;
        let finishing: Vec<(usize, Name)> = self
            .resources
            .iter()
            .enumerate()
            .flat_map(|(i, r)| r.checked.iter().map(move |q| (i, q.request.id.clone())))
            .collect();
        for (ri, id) in finishing {
            self.complete_write(ri, &id, log);
        }
        while let Some(id) = self.network.next_due(now) {
            self.deliver(id, log);
        }
        // A node with nothing due is left alone: `make_mut` would copy it whole from the
        // snapshot it shares (the explorer's parent state) to change nothing.
        if self.coordinator.tick_due(now) {
            let mut out = Out::default();
            Rc::make_mut(&mut self.coordinator).tick(now, &self.ghost, &mut out);
            self.perform(Node::Coordinator, out, log);
        } else {
            let ghost = &self.ghost;
            debug_assert!(idle_tick(&*self.coordinator, now, |c, now, out| c
                .tick(now, ghost, out)));
        }
        for i in 0..self.workers.len() {
            if self.workers[i].tick_due(now) {
                self.with_worker(i, log, |w, out| w.tick(now, out));
            } else {
                debug_assert!(idle_tick(&*self.workers[i], now, Worker::tick));
            }
        }
        // Beliefs change inside a long advance too; record them every tick.
        self.note_overlaps();
    }

    fn with_worker(&mut self, i: usize, log: &mut Log, f: impl FnOnce(&mut Worker, &mut Out)) {
        let mut out = Out::default();
        f(Rc::make_mut(&mut self.workers[i]), &mut out);
        let node = Node::Worker(self.workers[i].name.clone());
        self.perform(node, out, log);
    }

    /// Carry out a handler's effects: send its messages, log its notes.
    fn perform(&mut self, from: Node, out: Out, log: &mut Log) {
        for eff in out.0 {
            match eff {
                Effect::Emit(note) => self.push(log, from.name(), note, None),
                Effect::Send { to, msg } => self.send(from.clone(), to, msg, log),
                Effect::Grant(fact) => Rc::make_mut(&mut self.ghost).record(&fact),
            }
        }
    }

    fn send(&mut self, from: Node, to: Node, msg: Message, log: &mut Log) {
        let note = (!log.quiet).then(|| {
            let mut note = Note::new(EventKind::Sent {
                to: to.name().into(),
                kind: msg.kind(),
                what: msg.describe(),
            })
            .maybe_token(msg.token());
            note.request = msg.request().cloned();
            if let Message::Write(r) = &msg {
                note.op_id = Some(r.op_id.clone());
                note.generation = r.grant.as_ref().map(|g| g.1);
            }
            if let Message::Granted { generation, .. } = &msg {
                note.generation = Some(*generation);
            }
            note
        });
        let cut = match (&from, &to) {
            (Node::Worker(w), Node::Coordinator) | (Node::Coordinator, Node::Worker(w)) => {
                self.worker(w).is_some_and(|w| w.partitioned)
            }
            _ => false,
        };
        let id = self
            .network
            .send(from.clone(), to, msg, self.now, &mut self.rng);
        if let Some(note) = note {
            self.push(log, from.name(), note, Some(id));
        }
        if cut {
            let e = self.network.take(id).expect("just sent");
            self.note_dropped(log, &e, "partitioned from the coordinator");
        }
    }

    fn note_dropped(&mut self, log: &mut Log, e: &Envelope, why: &str) {
        let mut note = Note::new(EventKind::Dropped {
            why: why.to_string(),
        })
        .maybe_token(e.msg.token());
        note.request = e.msg.request().cloned();
        self.push(log, "network", note, Some(e.id));
    }

    fn push(&mut self, log: &mut Log, actor: &str, note: Note, message: Option<u32>) {
        if log.quiet {
            return;
        }
        log.events.push(Event {
            tick: self.now,
            actor: actor.into(),
            kind: note.kind,
            token: note.token,
            generation: note.generation,
            op_id: note.op_id,
            request: note.request,
            message,
        });
    }

    fn deliver(&mut self, id: u32, log: &mut Log) {
        let Some(env) = self.network.take(id) else {
            return;
        };
        let now = self.now;
        if !log.quiet {
            let mut note = Note::new(EventKind::Delivered {
                to: env.to.name().into(),
                kind: env.msg.kind(),
                what: env.msg.describe(),
            })
            .maybe_token(env.msg.token());
            note.request = env.msg.request().cloned();
            self.push(log, "network", note, Some(id));
        }
        match env.to {
            Node::Coordinator => {
                let mut out = Out::default();
                Rc::make_mut(&mut self.coordinator).receive(
                    now,
                    env.from.name(),
                    env.msg,
                    &self.ghost,
                    &mut out,
                );
                self.perform(Node::Coordinator, out, log);
            }
            Node::Worker(ref name) => {
                let Some(i) = self.workers.iter().position(|w| &w.name == name) else {
                    return;
                };
                if self.workers[i].status == Status::Crashed {
                    let note = Note::new(EventKind::LostAtCrashedNode { to: name.clone() });
                    self.push(log, "network", note, Some(id));
                    return;
                }
                self.with_worker(i, log, |w, out| w.receive(now, env.msg, out));
            }
            Node::Resource(ref name) => {
                let Some(ri) = self.resources.iter().position(|r| &r.name == name) else {
                    return;
                };
                match env.msg {
                    Message::Write(req) if req.targets.len() > 1 => self.transaction(ri, req, log),
                    Message::Write(req) => {
                        let compared = self.resources[ri].compared_now(&req, now);
                        let v = Rc::make_mut(&mut self.resources[ri]).receive(&req, now);
                        self.settle(ri, &req, v, compared, log);
                    }
                    // An answer to the outbox's relay marks its row sent (`make_mut` only then).
                    Message::Reply { request, .. }
                        if self.resources[ri]
                            .data
                            .unsent
                            .iter()
                            .any(|r| r.id == request) =>
                    {
                        Rc::make_mut(&mut self.resources[ri]).mark_sent(&request);
                    }
                    Message::Fence { lock, token } => {
                        let before = self.resources[ri]
                            .data
                            .highest
                            .clone()
                            .filter(|h| token.order(h) == std::cmp::Ordering::Less);
                        Rc::make_mut(&mut self.resources[ri]).fence(&token);
                        let note = Note::new(EventKind::FenceRegistered {
                            resource: name.clone(),
                            highest: self.resources[ri].data.highest.clone(),
                            before,
                        })
                        .token(&token);
                        self.push(log, name, note, None);
                        let from = Node::Resource(name.clone());
                        self.send(
                            from,
                            Node::Coordinator,
                            Message::FenceAck { lock, token },
                            log,
                        );
                    }
                    _ => {}
                }
            }
        }
    }

    fn complete_write(&mut self, ri: usize, id: &str, log: &mut Log) {
        let now = self.now;
        if let Some((req, v, compared)) = Rc::make_mut(&mut self.resources[ri]).complete(id, now) {
            self.settle(ri, &req, v, compared, log);
        }
    }

    /// One write covering several resources: every fence checked, then all applied or none.
    fn transaction(&mut self, first: usize, req: Request, log: &mut Log) {
        let now = self.now;
        let idx: Vec<usize> = req
            .targets
            .iter()
            .filter_map(|t| self.resources.iter().position(|r| &r.name == t))
            .collect();
        let refusal = idx.iter().find_map(|&i| {
            self.resources[i]
                .judge(&req, self.now)
                .err()
                .map(|v| (i, v))
        });
        match refusal {
            Some((at, v)) => {
                // The refusing object gives the verdict; the others only abandon their part.
                let compared = self.resources[at].compared_now(&req, now);
                self.log_verdict(at, &req, &v, compared, log);
                self.observe(at, &req, &v);
                let because = self.resources[at].name.clone();
                for &i in idx.iter().filter(|&&i| i != at) {
                    let resource = self.resources[i].name.clone();
                    let kind = EventKind::TransactionRefused {
                        resource: resource.clone(),
                        because: because.to_string(),
                    };
                    let mut note =
                        Note::new(kind).maybe_token(req.token_for(&self.resources[i].lock));
                    note.op_id = Some(req.op_id.clone());
                    note.request = Some(req.id.clone());
                    self.push(log, &resource, note, None);
                }
                self.flush_violations(log);
                self.reply(first, &req, v.outcome(), log);
            }
            None => {
                let mut committed = Vec::with_capacity(idx.len());
                for &i in &idx {
                    let compared = self.resources[i].compared_now(&req, now);
                    let v = Rc::make_mut(&mut self.resources[i]).apply(&req);
                    self.log_verdict(i, &req, &v, compared, log);
                    self.observe(i, &req, &v);
                    self.flush_violations(log);
                    Rc::make_mut(&mut self.resources[i]).record(&req, &v, now);
                    committed.push((i, v));
                }
                self.reply(first, &req, Outcome::Accepted, log);
                for (i, v) in committed {
                    self.relay_committed(i, &v, log);
                }
            }
        }
    }

    /// Log a verdict, check the invariants it touches, and answer the sender.
    fn settle(
        &mut self,
        ri: usize,
        req: &Request,
        v: Verdict,
        compared: Option<Compared>,
        log: &mut Log,
    ) {
        self.log_verdict(ri, req, &v, compared, log);
        if v == Verdict::Checked {
            return;
        }
        self.observe(ri, req, &v);
        self.flush_violations(log);
        self.reply(ri, req, v.outcome(), log);
        self.relay_committed(ri, &v, log);
    }

    /// An outbox's relay sends a row as soon as it commits (alone, or as one object of a
    /// transaction).
    fn relay_committed(&mut self, ri: usize, v: &Verdict, log: &mut Log) {
        if *v == (Verdict::Applied { no_op: false })
            && self.resources[ri].options.relay_to.is_some()
        {
            let row = self.resources[ri].data.unsent.last().cloned();
            self.relay(ri, row.into_iter().collect(), log);
        }
    }

    fn relay(&mut self, ri: usize, rows: Vec<Request>, log: &mut Log) {
        let from = Node::Resource(self.resources[ri].name.clone());
        for row in rows {
            let to = Node::Resource(row.targets[0].clone());
            self.send(from.clone(), to, Message::Write(row), log);
        }
    }

    fn reply(&mut self, ri: usize, req: &Request, outcome: Outcome, log: &mut Log) {
        let from = Node::Resource(self.resources[ri].name.clone());
        // A relayed row's answer goes back to the outbox's relay: to a resource of that name
        // only if it relays here (a worker may share a resource's name).
        let here = &self.resources[ri].name;
        let relayed = self
            .ri(&req.from)
            .is_ok_and(|o| self.resources[o].options.relay_to.as_ref() == Some(here));
        let to = if relayed {
            Node::Resource(req.from.clone())
        } else {
            Node::Worker(req.from.clone())
        };
        self.send(
            from,
            to,
            Message::Reply {
                request: req.id.clone(),
                outcome,
            },
            log,
        );
    }

    /// `compared`: the token comparison the decision rests on, as it was made.
    fn log_verdict(
        &mut self,
        ri: usize,
        req: &Request,
        v: &Verdict,
        compared: Option<Compared>,
        log: &mut Log,
    ) {
        let r = &self.resources[ri];
        let resource = r.name.clone();
        let kind = match v {
            Verdict::Applied { no_op } => EventKind::WriteAccepted {
                resource: resource.clone(),
                highest: r.data.highest.clone(),
                value: r.data.value.clone(),
                no_op: *no_op,
                compared,
            },
            Verdict::Rejected(reason) => EventKind::WriteRejected {
                resource: resource.clone(),
                reason: *reason,
                highest: r.data.highest.clone(),
                value: r.data.value.clone(),
                versions: req
                    .if_version
                    .filter(|_| *reason == Reason::PreconditionFailed)
                    .map(|named| Versions {
                        named,
                        found: r.data.version,
                    }),
            },
            Verdict::Replayed(o) => EventKind::WriteReplayed {
                resource: resource.clone(),
                recorded: o.word().into(),
            },
            Verdict::Checked => EventKind::CheckPassed {
                resource: resource.clone(),
                compared,
            },
        };
        let lock = &r.lock;
        let g = req.generation_for(lock);
        let mut note = Note::new(kind)
            .maybe_token(req.token_for(lock))
            .generation((g > 0).then_some(g).or(req.grant.as_ref().map(|g| g.1)));
        note.op_id = Some(req.op_id.clone());
        note.request = Some(req.id.clone());
        self.push(log, &resource, note, None);
    }

    /// Tell the checker what resource `ri` did with `req` (`invariant::observe`).
    fn observe(&mut self, ri: usize, req: &Request, v: &Verdict) {
        let r = &self.resources[ri];
        let seen = match v {
            Verdict::Applied { no_op } => Seen::Applied { no_op: *no_op },
            Verdict::Rejected(reason) => Seen::Refused {
                reason: *reason,
                sender_holds_it: self.coordinator.holder(&r.lock).is_some_and(|h| {
                    h.generation == req.generation_for(&r.lock) && h.worker == req.from
                }),
            },
            Verdict::Replayed(_) | Verdict::Checked => return,
        };
        let judged = Judged {
            tick: self.now,
            resource: &r.name,
            lock: &r.lock,
            adds_only: matches!(r.kind, ResourceKind::ContentStore),
            request: req,
        };
        invariant::observe(&mut self.ghost, &judged, seen);
    }

    fn flush_violations(&mut self, log: &mut Log) {
        let start = self.violations_logged;
        self.violations_logged = self.ghost.violations.len();
        if log.quiet {
            return;
        }
        let ghost = Rc::clone(&self.ghost);
        for v in ghost.violations.iter_from(start) {
            let mut note = Note::new(EventKind::Violation {
                kind: v.kind,
                resource: Name::from(&v.resource),
                detail: v.detail.clone(),
            });
            note.request = Some(Name::from(&v.request));
            self.push(log, &v.resource, note, None);
        }
    }

    fn note_overlaps(&mut self) {
        let now = self.now;
        for lock in self.coordinator.locks.keys() {
            let believers: Vec<Name> = self
                .workers
                .iter()
                .filter(|w| w.believes(lock))
                .map(|w| w.name.clone())
                .collect();
            if believers.len() < 2 {
                continue;
            }
            match self.overlaps.last_mut() {
                Some(o) if &o.lock == lock && o.workers == believers && o.to + 1 >= now => {
                    o.to = now
                }
                _ => self.overlaps.push(Overlap {
                    lock: lock.clone(),
                    workers: believers,
                    from: now,
                    to: now,
                }),
            }
        }
    }

    /// The write a sandbox "Write" button makes: the worker's next numbered value, to the
    /// first resource of its lock. Deterministic, so a link can name it in one byte.
    pub fn default_write(&self, worker: &str) -> Option<WriteSpec> {
        self.write_to(worker, self.home_resource(worker)?)
    }

    /// Where a worker writes unless told otherwise: the resource its lock guards, or the first.
    pub fn home_resource(&self, worker: &str) -> Option<&str> {
        let w = self.worker(worker)?;
        let r = self.resources.iter().find(|r| r.lock == w.lock);
        r.or(self.resources.first()).map(|r| r.name.as_str())
    }

    /// The write a worker's button makes to `resource`: a debit of 10 from an account (a set
    /// would leave its balance alone), its next numbered value anywhere else. The sandbox, the
    /// explorer and a link's short form all take it from here.
    pub fn write_to(&self, worker: &str, resource: &str) -> Option<WriteSpec> {
        let seq = self.worker(worker)?.seq + 1;
        let op = match self.resource_kind(resource)? {
            ResourceKind::Account { .. } => super::request::Op::Debit(10),
            _ => super::request::Op::Set(format!("{worker}'s write {seq}")),
        };
        Some(WriteSpec {
            to: vec![resource.into()],
            op,
            op_id: None,
            label: None,
            transaction: false,
            if_version: None,
        })
    }

    /// Every action that could be taken now, as data: the explorer's choices and the sandbox's buttons.
    pub fn enabled_actions(&self) -> Vec<Action> {
        use Action::*;
        let mut acts = Vec::new();
        for e in &self.network.in_flight {
            let msg = MsgSel::id(e.id);
            acts.push(Deliver { msg: msg.clone() });
            if !e.is_held(self.now) {
                acts.push(Hold {
                    msg: msg.clone(),
                    until: None,
                });
            }
            acts.push(Drop { msg: msg.clone() });
            acts.push(Duplicate { msg });
        }
        for r in &self.resources {
            for q in r.checked.iter().map(|c| &c.request) {
                acts.push(CompleteWrite {
                    resource: r.name.clone(),
                    request: Some(q.id.clone()),
                });
            }
        }
        for w in &self.workers {
            let worker = w.name.clone();
            let mut candidates = vec![
                Acquire {
                    worker: worker.clone(),
                    lock: None,
                },
                Send {
                    worker: worker.clone(),
                },
                Retry {
                    worker: worker.clone(),
                },
                Renew {
                    worker: worker.clone(),
                },
                Release {
                    worker: worker.clone(),
                },
                Pause {
                    worker: worker.clone(),
                    ticks: None,
                },
                Resume {
                    worker: worker.clone(),
                },
                Crash {
                    worker: worker.clone(),
                },
                Restart {
                    worker: worker.clone(),
                },
            ];
            if let Some(write) = self.default_write(&worker) {
                candidates.push(Write {
                    worker: worker.clone(),
                    write,
                });
            }
            acts.extend(candidates.into_iter().filter(|a| self.check(a).is_ok()));
        }
        acts.push(Advance { ticks: 1 });
        acts
    }

    /// The next true tick at which letting time pass would make something happen: a message
    /// falls due, a lease runs out by some clock, a lock-delay ends, an idempotency key is
    /// forgotten, a pause ends, a renewal is due.
    /// Like quinn-proto's `poll_timeout`: the caller decides whether to go there.
    pub fn next_deadline(&self) -> Option<Tick> {
        let soon = self.now + 1;
        let mut times: Vec<Tick> = Vec::new();
        for e in &self.network.in_flight {
            match e.hold {
                super::message::Hold::No => times.push(e.due_at),
                super::message::Hold::Until(t) => times.push(t.max(e.due_at)),
                super::message::Hold::Forever => {}
            }
        }
        if self.resources.iter().any(|r| !r.checked.is_empty()) {
            times.push(soon);
        }
        for r in self.resources.iter().filter(|r| r.options.dedup) {
            if let Some(e) = r.options.key_expiry {
                // A key forgotten: the same request would now run again.
                let ends = r.data.results.values().map(|x| x.at.saturating_add(e));
                times.extend(ends.filter(|&t| t >= soon));
            }
        }
        let c = &self.coordinator;
        for l in c.locks.values() {
            if let Some(h) = &l.holder {
                times.extend(c.clock.first_tick_reading(h.expires_local, soon));
            }
            if let Some(p) = &l.pending {
                times.extend(c.clock.first_tick_reading(p.retry_at_local, soon));
            }
            if let Some(until) = l.delayed_until_local {
                times.extend(c.clock.first_tick_reading(until, soon));
            }
        }
        for w in &self.workers {
            match &w.status {
                Status::Paused { until: Some(t) } => times.push(*t),
                Status::Running => {
                    for l in &w.leases {
                        times.extend(w.clock.first_tick_reading(l.valid_until_local, soon));
                        if let Some(t) = l.renew_at_local.filter(|_| !w.renewing(&l.lock)) {
                            times.extend(w.clock.first_tick_reading(t, soon));
                        }
                    }
                }
                _ => {}
            }
        }
        times.into_iter().min().map(|t| t.max(soon))
    }

    /// A digest of what matters for the future and for the properties, leaving out
    /// bookkeeping that differs between paths to the same state (metrics, overlap history,
    /// violation details): the explorer's deduplication key.
    pub fn state_key(&self) -> u64 {
        let ranks = self.request_ranks();
        let mut h = super::hash::FxHasher::default();
        self.now.hash(&mut h);
        self.rng.hash(&mut h);
        hash_coordinator(&self.coordinator, &ranks, &mut h);
        self.workers.len().hash(&mut h);
        for w in &self.workers {
            hash_worker(w, &ranks, &mut h);
        }
        self.resources.hash(&mut h);
        // Messages in the order time would deliver them (due time, then send order, as
        // `Network::next_due`), without their ids: two paths that put the same messages on
        // the wire in a different order within one due time are different states, since a
        // tick delivers them in that order; ids themselves only name them.
        let flights = &self.network.in_flight;
        let by_due = |e: &Envelope| (e.due_at, e.id);
        let hash_flight = |e: &Envelope, h: &mut super::hash::FxHasher| {
            (&e.from, &e.to, e.sent_at, e.due_at, e.hold).hash(h);
            let worker = match (&e.from, &e.to) {
                (Node::Worker(n), _) | (_, Node::Worker(n)) => n.as_str(),
                _ => "",
            };
            hash_message(&e.msg, worker, &ranks, h);
        };
        flights.len().hash(&mut h);
        // Usually already in that order (sent in order, equal delays): no sort, no copy.
        if flights.is_sorted_by_key(|e| by_due(e)) {
            flights.iter().for_each(|e| hash_flight(e, &mut h));
        } else {
            let mut order: Vec<&Envelope> = flights.iter().map(|e| &**e).collect();
            order.sort_by_key(|e| by_due(e));
            order.into_iter().for_each(|e| hash_flight(e, &mut h));
        }
        self.network.spec.hash(&mut h);
        self.ghost.minted.hash(&mut h);
        self.ghost.latest_grant.hash(&mut h);
        self.ghost.newest_applied.hash(&mut h);
        self.ghost.executed.hash(&mut h);
        self.ghost.multi.hash(&mut h);
        self.ghost.violated_kinds().hash(&mut h);
        h.finish()
    }

    /// Each worker's coordinator request numbers still live: awaiting an answer, on the wire,
    /// in a mailbox, in the coordinator's queue or pending grant. The state key hashes a
    /// number as its rank among these. Numbers are only ever compared for equality and fresh
    /// ones exceed every live one, so renaming them so keeps every future the same, and paths
    /// that sent a different number of requests meet again in one state.
    fn request_ranks(&self) -> Ranks<'_> {
        // One flat, sorted list of (worker, number): no map or list per worker to allocate.
        let mut live: Vec<(&str, u32)> = Vec::with_capacity(16);
        for wk in &self.workers {
            let name = wk.name.as_str();
            live.extend(wk.outstanding.iter().map(|o| (name, o.req)));
            live.extend(wk.inbox.iter().filter_map(Message::req).map(|r| (name, r)));
        }
        for e in &self.network.in_flight {
            if let (Node::Worker(n), _) | (_, Node::Worker(n)) = (&e.from, &e.to) {
                live.extend(e.msg.req().map(|r| (n.as_str(), r)));
            }
        }
        for l in self.coordinator.locks.values() {
            live.extend(l.holder.iter().map(|h| (h.worker.as_str(), h.req)));
            live.extend(l.queue.iter().map(|q| (q.worker.as_str(), q.req)));
            live.extend(
                l.pending
                    .iter()
                    .filter_map(|p| Some((p.worker.as_deref()?, p.req))),
            );
        }
        live.sort_unstable();
        live.dedup();
        Ranks(live)
    }

    /// Whether anything is still to happen without new input: messages in flight, checks unfinished.
    pub fn is_quiet(&self) -> bool {
        self.network.in_flight.is_empty() && self.resources.iter().all(|r| r.checked.is_empty())
    }

    /// The kind of resource, for display.
    pub fn resource_kind(&self, name: &str) -> Option<&ResourceKind> {
        self.resource(name).map(|r| &r.kind)
    }
}

/// A message between `worker` and the coordinator, either way: what a partition cuts.
fn crosses_cut(e: &Envelope, worker: &str) -> bool {
    match (&e.from, &e.to) {
        (Node::Worker(w), Node::Coordinator) | (Node::Coordinator, Node::Worker(w)) => w == worker,
        _ => false,
    }
}

/// Request numbers by rank among the live ones, per worker (`World::request_ranks`).
struct Ranks<'a>(Vec<(&'a str, u32)>);

impl Ranks<'_> {
    /// The number's place among its worker's live numbers.
    fn of(&self, worker: &str, req: u32) -> u32 {
        let first = self.0.partition_point(|(w, _)| *w < worker);
        self.0
            .binary_search(&(worker, req))
            .map_or(u32::MAX, |i| (i - first) as u32)
    }
}

// The hashers below destructure what they hash, so a field added to a worker, the
// coordinator or a lock does not compile until it is hashed here too (or said not to matter).

fn hash_message(m: &Message, worker: &str, ranks: &Ranks, h: &mut impl Hasher) {
    // Field by field, with the request number as its rank, rather than hashing a renumbered
    // clone: the explorer hashes every message of every state it reaches.
    let rank = |req: &u32| ranks.of(worker, *req);
    std::mem::discriminant(m).hash(h);
    match m {
        Message::Acquire { lock, req } | Message::Available { lock, req } => {
            (lock, rank(req)).hash(h)
        }
        Message::Granted {
            lock,
            token,
            ttl,
            generation,
            req,
        } => (lock, token, ttl, generation, rank(req)).hash(h),
        Message::Renew { lock, token, req }
        | Message::RenewDenied { lock, token, req }
        | Message::Release { lock, token, req } => (lock, token, rank(req)).hash(h),
        Message::Renewed {
            lock,
            token,
            ttl,
            req,
        } => (lock, token, ttl, rank(req)).hash(h),
        Message::Write(_)
        | Message::Reply { .. }
        | Message::Fence { .. }
        | Message::FenceAck { .. } => m.hash(h),
    }
}

fn hash_worker(w: &Worker, ranks: &Ranks, h: &mut impl Hasher) {
    let Worker {
        name,
        clock,
        status,
        lock,
        omits_token,
        renew_every,
        partitioned,
        leases,
        outstanding,
        next_req: _,
        prepared,
        last_sent,
        durable_retry,
        inbox,
        seq,
    } = w;
    (name, clock, status, lock, omits_token, renew_every).hash(h);
    (partitioned, leases, prepared, last_sent, durable_retry, seq).hash(h);
    outstanding.len().hash(h);
    for super::worker::Outstanding {
        req,
        lock,
        asked,
        sent_local,
    } in outstanding
    {
        (ranks.of(name, *req), lock, asked, sent_local).hash(h);
    }
    inbox.len().hash(h);
    for m in inbox {
        hash_message(m, name, ranks, h);
    }
}

fn hash_coordinator(c: &Coordinator, ranks: &Ranks, h: &mut impl Hasher) {
    let Coordinator {
        clock,
        persist,
        replica,
        replicas,
        async_replication,
        locks,
        backup,
    } = c;
    (clock, persist, replica, replicas, async_replication, backup).hash(h);
    locks.len().hash(h);
    for (key, l) in locks {
        let LockState {
            name,
            ttl,
            issuer,
            holder,
            pending,
            queue,
            fenced,
            lock_delay,
            delayed_until_local,
            takeover,
            bump_on_expiry,
        } = l;
        (key, name, ttl, issuer, fenced).hash(h);
        (lock_delay, delayed_until_local, takeover, bump_on_expiry).hash(h);
        match holder {
            None => 0u8.hash(h),
            Some(super::coordinator::Holder {
                worker,
                token,
                generation,
                expires_local,
                req,
            }) => {
                1u8.hash(h);
                (worker, token, generation, expires_local).hash(h);
                ranks.of(worker, *req).hash(h);
            }
        }
        queue.len().hash(h);
        for super::coordinator::Waiter { worker, req } in queue {
            (worker, ranks.of(worker, *req)).hash(h);
        }
        match pending {
            None => 0u8.hash(h),
            Some(super::coordinator::PendingGrant {
                worker,
                req,
                token,
                generation,
                awaiting,
                retry_at_local,
            }) => {
                1u8.hash(h);
                let req = worker.as_deref().map(|w| ranks.of(w, *req));
                (worker, req, token, generation, awaiting).hash(h);
                retry_at_local.hash(h);
            }
        }
    }
}

/// Whether a tick the world skipped (`tick_due` false) would indeed have changed nothing and
/// said nothing: checked in debug builds, so every test run holds `tick_due` to `tick`.
fn idle_tick<T: Clone + PartialEq>(
    node: &T,
    now: Tick,
    tick: impl Fn(&mut T, Tick, &mut Out),
) -> bool {
    let mut copy = node.clone();
    let mut out = Out::default();
    tick(&mut copy, now, &mut out);
    copy == *node && out.0.is_empty()
}

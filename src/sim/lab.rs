//! The lease-duration lab: many seeded runs of one workload across lease durations,
//! measuring what the essay says a TTL trades: takeover delay after a crash, false
//! expirations under pauses, renewal traffic, and stale writes (accepted by an unfenced
//! resource; rejected by a fenced one, which still accepts a superseded write). A longer
//! lease makes stale writes rarer and takeover slower; no TTL rules them out.
//!
//! A tick is one second here. Each run is a scenario plus a list of actions, so any
//! plotted run can be opened in the timeline and stepped through.

use super::action::Action;
use super::event::EventKind;
use super::invariant::ViolationKind;
use super::message::MessageKind;
use super::message::NetworkSpec;
use super::request::{Op, Reason};
use super::resource::{Policy, ResourceKind, ResourceOptions};
use super::rng::Rng;
use super::scenario::{
    CoordinatorSpec, LockSpec, ResourceSpec, Scenario, WorkerSpec, FORMAT_VERSION,
};
use super::time::{Clock, Tick};
use super::token::IssuerKind;
use super::worker::{Status, WriteSpec};
use super::world::World;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LabParams {
    /// Lease durations to try (the x axis).
    pub ttls: Vec<Tick>,
    /// Renewal interval as a fraction of the TTL, in thousandths (333: renew every third of it).
    pub renew_permille: u32,
    /// Chance per tick, in thousandths, that a running worker begins a stop-the-world pause.
    pub pause_permille: u32,
    /// Pause lengths are drawn uniformly from 1 to this many ticks.
    pub pause_max: Tick,
    /// Network delay: a fixed part plus uniform jitter.
    pub delay: Tick,
    pub jitter: Tick,
    /// Each worker's clock rate is drawn within ±this many thousandths of true time.
    pub drift_permille: u32,
    /// Each worker's clock starts up to this many ticks ahead of or behind true time.
    /// Leases are durations on one clock, so a constant skew cancels out; drift does not.
    pub skew: Tick,
    /// Writes every this many ticks while a worker believes it holds the lease.
    pub write_every: Tick,
    pub duration: Tick,
    pub runs: u32,
    pub seed: u64,
}

impl Default for LabParams {
    fn default() -> Self {
        LabParams {
            ttls: vec![2, 4, 6, 8, 10, 15, 20, 30, 45, 60],
            renew_permille: 333,
            pause_permille: 8,
            pause_max: 12,
            delay: 1,
            jitter: 1,
            drift_permille: 20,
            skew: 0,
            write_every: 3,
            duration: 300,
            runs: 10,
            seed: 1,
        }
    }
}

/// What one run measured.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LabRun {
    pub ttl: Tick,
    pub index: u32,
    /// Ticks from the holder's crash to the next grant, if both happened.
    pub takeover: Option<Tick>,
    /// Leases expired at the coordinator while their holder was alive (paused or slow).
    pub false_expirations: u32,
    /// Renew messages sent.
    pub renewals: u32,
    /// Acquire messages sent: the first two, and every one that replaces a lease which lapsed
    /// (near the round trip a renewal's answer comes after the lease ran out, and the worker
    /// asks again: keeping a short lease costs these too).
    pub acquires: u32,
    /// Stale writes the unfenced copy applied (stale or superseded writes).
    pub stale_accepted_unfenced: u32,
    /// Stale writes the fenced copy rejected.
    pub stale_rejected_fenced: u32,
    /// Old-owner writes the fenced copy applied before the new owner's first write there:
    /// highest-seen's weak boundary (superseded writes), not a broken fence.
    pub superseded_accepted_fenced: u32,
    /// Stale overwrites at the fenced copy: the fence's promise, so always 0.
    pub stale_overwrites_fenced: u32,
}

/// Averages over the runs at one TTL.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LabPoint {
    pub ttl: Tick,
    pub takeover_mean: Option<f64>,
    pub false_expirations_mean: f64,
    pub renewals_per_minute: f64,
    /// Renewals plus acquires per minute: what keeping the lease costs in messages.
    pub lease_messages_per_minute: f64,
    pub stale_accepted_unfenced_mean: f64,
    pub stale_rejected_fenced_mean: f64,
    pub superseded_accepted_fenced_mean: f64,
    pub stale_overwrites_fenced_total: u32,
    pub runs: Vec<LabRun>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LabResult {
    pub params: LabParams,
    pub points: Vec<LabPoint>,
    /// The longest TTL at which some run applied a stale write without fencing. Not a safe
    /// threshold: above it stale writes were only rarer than these runs could show.
    pub stale_seen_up_to: Option<Tick>,
}

/// The renewal interval at one TTL: `renew_permille` of it, to the nearest tick, at least 1.
pub fn renew_every(p: &LabParams, ttl: Tick) -> Tick {
    ((ttl * p.renew_permille as u64 + 500) / 1000).max(1)
}

pub fn run_seed(p: &LabParams, ttl: Tick, index: u32) -> u64 {
    p.seed ^ (ttl.wrapping_mul(0x9E37_79B9)) ^ ((index as u64) << 32)
}

/// The scenario one run uses: two workers that renew, two copies of one record, one fenced.
pub fn scenario(p: &LabParams, ttl: Tick, index: u32) -> Scenario {
    let mut rng = Rng::new(run_seed(p, ttl, index));
    // Offsets from their own stream, so a skew leaves the drift draws (and runs) as they were.
    let mut skew_rng = Rng::new(run_seed(p, ttl, index).rotate_left(29));
    let mut clock = || {
        let d = p.drift_permille as u64;
        Clock {
            offset: skew_rng.upto(2 * p.skew) as i64 - p.skew as i64,
            rate_permille: (1000 - d as i64 + rng.upto(2 * d) as i64).max(1) as u32,
        }
    };
    let renew = ((ttl * p.renew_permille as u64 + 500) / 1000).max(1);
    let worker = |name: &str, clock: Clock| WorkerSpec {
        name: name.into(),
        clock,
        lock: None,
        omits_token: false,
        renew_every: Some(renew),
        durable_retry: false,
    };
    let copy = |name: &str, policy: Policy| ResourceSpec {
        name: name.into(),
        lock: None,
        kind: ResourceKind::Store {
            value: String::new(),
        },
        policy: Some(policy),
        options: ResourceOptions::default(),
    };
    let (a, b) = (clock(), clock());
    Scenario {
        version: FORMAT_VERSION,
        id: format!("lab-ttl{ttl}-run{index}"),
        title: format!("Lease lab: TTL {ttl}, run {}", index + 1),
        theme: "Lease-duration lab".into(),
        summary: format!(
            "One seeded run of the lease-duration lab with a {ttl}-tick lease renewed every {renew} tick{}. \
             A and B renew, pause at random and write every {} ticks to two copies of one record: \
             “fenced” checks tokens (highest-seen), “unfenced” does not. The holder crashes part way through.",
            if renew == 1 { "" } else { "s" },
            p.write_every
        ),
        seed: run_seed(p, ttl, index),
        policy: Policy::HighestSeen,
        network: NetworkSpec { delay: p.delay.max(1), jitter: p.jitter },
        coordinator: CoordinatorSpec::default(),
        locks: vec![LockSpec { name: "lease".into(), ttl, issuer: IssuerKind::Counter { start: 1 }, lock_delay: 0, takeover: false, bump_on_expiry: false }],
        workers: vec![worker("A", a), worker("B", b)],
        resources: vec![copy("fenced", Policy::HighestSeen), copy("unfenced", Policy::Unfenced)],
        script: Vec::new(),
        variants: Vec::new(),
        open_at: None,
        branches: Vec::new(),
        open_branch: None,
    }
}

/// Drive one run: returns its scenario, the actions taken (replayable with `Run::act`) and what it measured.
pub fn simulate(p: &LabParams, ttl: Tick, index: u32) -> (Scenario, Vec<Action>, LabRun) {
    let s = scenario(p, ttl, index);
    let mut rng = Rng::new(run_seed(p, ttl, index).rotate_left(17));
    let mut driven = Driven {
        world: World::new(&s),
        actions: Vec::new(),
        m: LabRun {
            ttl,
            index,
            ..LabRun::default()
        },
        crashed_at: None,
    };
    for name in ["A", "B"] {
        driven.take(Action::Acquire {
            worker: name.into(),
            lock: None,
        });
    }
    for t in 0..p.duration {
        for name in ["A", "B"] {
            if let Some(a) = driven.next_move(p, ttl, t, name, &mut rng) {
                driven.take(a);
            }
        }
        driven.take(Action::Advance { ticks: 1 });
    }
    (s, driven.actions, driven.m)
}

/// Append `a` to `actions`, merging it into an `advance` just before it: quiet ticks in a
/// row read as one step of time.
pub fn push_merging_time(actions: &mut Vec<Action>, a: Action) {
    match (actions.last_mut(), &a) {
        (Some(Action::Advance { ticks }), Action::Advance { ticks: more }) => *ticks += more,
        _ => actions.push(a),
    }
}

/// A lab run being driven: its world, the actions taken so far, what it has measured, and
/// when the holder crashed.
struct Driven {
    world: World,
    actions: Vec<Action>,
    m: LabRun,
    crashed_at: Option<Tick>,
}

impl Driven {
    /// Take `a` and measure what it caused; an action the world refuses is not taken.
    fn take(&mut self, a: Action) {
        let Ok(events) = self.world.step(&a) else {
            return;
        };
        for e in &events {
            self.measure(&e.kind, e.tick);
        }
        push_merging_time(&mut self.actions, a);
    }

    fn measure(&mut self, kind: &EventKind, tick: Tick) {
        let m = &mut self.m;
        match kind {
            EventKind::LeaseExpired { holder, .. } => {
                // Between the crash and the next grant the lease that runs out is the
                // crashed holder's: no false expiration, even when the holder has restarted
                // by then (it restarts a lease length after the crash, and the coordinator
                // counts from a renewal's arrival, by a clock that may run slow).
                let crashed_lease = self.crashed_at.is_some() && m.takeover.is_none();
                if !crashed_lease
                    && self
                        .world
                        .worker(holder)
                        .is_some_and(|w| w.status != Status::Crashed)
                {
                    m.false_expirations += 1;
                }
            }
            EventKind::LeaseGranted { .. } => {
                if let (Some(c), None) = (self.crashed_at, m.takeover) {
                    m.takeover = Some(tick - c);
                }
            }
            EventKind::Sent {
                kind: MessageKind::Renew,
                ..
            } => m.renewals += 1,
            EventKind::Sent {
                kind: MessageKind::Acquire,
                ..
            } => m.acquires += 1,
            EventKind::WriteRejected {
                resource,
                reason: Reason::Stale,
                ..
            } if resource == "fenced" => m.stale_rejected_fenced += 1,
            EventKind::Violation { kind, resource, .. } => match (resource.as_str(), kind) {
                ("unfenced", ViolationKind::StaleOverwrite | ViolationKind::SupersededWrite) => {
                    m.stale_accepted_unfenced += 1
                }
                ("fenced", ViolationKind::SupersededWrite) => m.superseded_accepted_fenced += 1,
                ("fenced", ViolationKind::StaleOverwrite) => m.stale_overwrites_fenced += 1,
                _ => {}
            },
            _ => {}
        }
    }

    /// What worker `name` does at second `t` of the run, if anything: crash (the holder, 60%
    /// of the way through), pause at random, write while it holds the lease (preparing both
    /// copies' writes here, then sending or pausing first), ask for the lease, or restart a
    /// lease length after its crash.
    fn next_move(
        &mut self,
        p: &LabParams,
        ttl: Tick,
        t: Tick,
        name: &str,
        rng: &mut Rng,
    ) -> Option<Action> {
        let crash_at = p.duration * 6 / 10;
        let w = self.world.worker(name)?;
        let holds = w.holds_any();
        match w.status {
            Status::Running if t == crash_at && holds && self.crashed_at.is_none() => {
                self.crashed_at = Some(self.world.now());
                Some(Action::Crash {
                    worker: name.into(),
                })
            }
            Status::Running if rng.upto(999) < p.pause_permille as u64 => Some(pause(name, p, rng)),
            Status::Running if holds && t.is_multiple_of(p.write_every.max(1)) => {
                // The worker has checked its lease and prepares its write to both copies;
                // a pause may strike before it sends, and on resume it sends anyway.
                for copy in ["fenced", "unfenced"] {
                    let write = WriteSpec {
                        to: vec![copy.into()],
                        op: Op::Set(format!("{name} at t={}", self.world.now())),
                        op_id: None,
                        label: None,
                        transaction: false,
                        if_version: None,
                    };
                    self.take(Action::Prepare {
                        worker: name.into(),
                        write,
                    });
                }
                Some(if rng.upto(999) < p.pause_permille as u64 {
                    pause(name, p, rng)
                } else {
                    Action::Send {
                        worker: name.into(),
                    }
                })
            }
            Status::Running if !holds && !w.acquiring(&w.lock) && t.is_multiple_of(ttl.max(1)) => {
                Some(Action::Acquire {
                    worker: name.into(),
                    lock: None,
                })
            }
            Status::Crashed if self.crashed_at.is_some_and(|c| self.world.now() >= c + ttl) => {
                Some(Action::Restart {
                    worker: name.into(),
                })
            }
            _ => None,
        }
    }
}

/// A stop-the-world pause of a random length, 1 to `pause_max` ticks.
fn pause(name: &str, p: &LabParams, rng: &mut Rng) -> Action {
    Action::Pause {
        worker: name.into(),
        ticks: Some(1 + rng.upto(p.pause_max.max(1) - 1)),
    }
}

/// Everything at one TTL.
pub fn point(p: &LabParams, ttl: Tick) -> LabPoint {
    point_of(p, ttl, (0..p.runs).map(|i| simulate(p, ttl, i).2).collect())
}

/// The averages over runs already simulated at one TTL (a page simulates them a few at a time).
pub fn point_of(p: &LabParams, ttl: Tick, runs: Vec<LabRun>) -> LabPoint {
    let n = runs.len().max(1) as f64;
    let takeovers: Vec<f64> = runs
        .iter()
        .filter_map(|r| r.takeover.map(|t| t as f64))
        .collect();
    let minutes = p.duration.max(1) as f64 / 60.0;
    LabPoint {
        ttl,
        takeover_mean: (!takeovers.is_empty())
            .then(|| takeovers.iter().sum::<f64>() / takeovers.len() as f64),
        false_expirations_mean: runs.iter().map(|r| r.false_expirations as f64).sum::<f64>() / n,
        renewals_per_minute: runs.iter().map(|r| r.renewals as f64).sum::<f64>() / n / minutes,
        lease_messages_per_minute: runs
            .iter()
            .map(|r| (r.renewals + r.acquires) as f64)
            .sum::<f64>()
            / n
            / minutes,
        stale_accepted_unfenced_mean: runs
            .iter()
            .map(|r| r.stale_accepted_unfenced as f64)
            .sum::<f64>()
            / n,
        stale_rejected_fenced_mean: runs
            .iter()
            .map(|r| r.stale_rejected_fenced as f64)
            .sum::<f64>()
            / n,
        superseded_accepted_fenced_mean: runs
            .iter()
            .map(|r| r.superseded_accepted_fenced as f64)
            .sum::<f64>()
            / n,
        stale_overwrites_fenced_total: runs.iter().map(|r| r.stale_overwrites_fenced).sum(),
        runs,
    }
}

/// The whole sweep. (A page computes `point` one TTL at a time to show progress.)
pub fn sweep(p: &LabParams) -> LabResult {
    let points: Vec<LabPoint> = p.ttls.iter().map(|t| point(p, *t)).collect();
    finish(p, points)
}

pub fn finish(p: &LabParams, points: Vec<LabPoint>) -> LabResult {
    let stale_seen_up_to = points
        .iter()
        .filter(|pt| pt.stale_accepted_unfenced_mean > 0.0)
        .map(|pt| pt.ttl)
        .max();
    LabResult {
        params: p.clone(),
        points,
        stale_seen_up_to,
    }
}

//! Scenarios: the versioned, serialisable description of a world and its script.
//!
//! A preset is a scenario; so is a file the CLI reads or the app imports. Variants name
//! the settings a scenario contrasts (a receiver policy, dedup on or off, a persisted
//! coordinator or not) and what the run must show under each.

use super::action::{Action, MAX_AMOUNT, MAX_RUN_TICKS, MAX_TICKS};
use super::invariant::ViolationKind;
use super::message::NetworkSpec;
use super::request::{Fate, Reason};
use super::resource::{Policy, ResourceKind, ResourceOptions};
use super::time::{Clock, Tick};
use super::token::IssuerKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const FORMAT_VERSION: u32 = 1;

/// The most locks, workers or resources a scenario may have.
pub const MAX_NODES: usize = 64;
/// The most replicas a coordinator or an issuer may have.
pub const MAX_REPLICAS: usize = 16;
/// The most steps a script may have, and actions one step may take.
pub const MAX_SCRIPT_STEPS: usize = 10_000;
pub const MAX_STEP_ACTIONS: usize = 1_000;
/// The most branches a run keeps (`branches` in a file, the app's branch list), and the most
/// actions one branch may take after its script steps.
pub const MAX_BRANCHES: usize = 12;
pub const MAX_BRANCH_ACTIONS: usize = 10_000;
/// How far a clock may start from true time, and how fast it may run (in thousandths).
pub const MAX_CLOCK_OFFSET: i64 = 1_000_000_000_000;
pub const MAX_RATE_PERMILLE: u32 = 100_000;
/// How far from zero an issuer's first token may be.
pub const MAX_TOKEN_START: i64 = 1_000_000_000_000_000;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub version: u32,
    pub id: String,
    pub title: String,
    /// The group the scenario picker shows it under.
    #[serde(default)]
    pub theme: String,
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub seed: u64,
    /// The receiver policy of every fenceable resource that does not fix its own.
    #[serde(default = "default_policy")]
    pub policy: Policy,
    #[serde(default)]
    pub network: NetworkSpec,
    #[serde(default)]
    pub coordinator: CoordinatorSpec,
    pub locks: Vec<LockSpec>,
    pub workers: Vec<WorkerSpec>,
    pub resources: Vec<ResourceSpec>,
    #[serde(default)]
    pub script: Vec<Step>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<Variant>,
    /// The step the app opens the scenario at (an exported run: the step it was exported at).
    /// The command line runs the whole script whatever it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_at: Option<usize>,
    /// The ways a run of it went (an exported run the user forked): each the first steps of
    /// `script`, then the user's actions. The app keeps them as its branches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<Branch>,
    /// Which of `branches` is the run (the app opens it, `fencing-lab run` runs it); without
    /// one, the run is the script.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_branch: Option<usize>,
}

/// One way a run went: the first `script_steps` steps of the script, then `actions` as the
/// user's, looked at at step `open_at`. A link carries the same for each branch of a run.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Branch {
    pub script_steps: usize,
    #[serde(default, rename = "do", skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Action>,
    #[serde(default)]
    pub open_at: usize,
}

fn default_policy() -> Policy {
    Policy::HighestSeen
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoordinatorSpec {
    #[serde(default)]
    pub clock: Clock,
    /// Whether a restart keeps the lock table and counters.
    #[serde(default = "yes")]
    pub persist: bool,
    #[serde(default = "one")]
    pub replicas: usize,
    /// Replicas copy the primary asynchronously (Redis): a failover promotes one that has
    /// only what the last `coordinator-backup` took, the point it last caught up to.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub async_replication: bool,
}

fn one() -> usize {
    1
}

impl Default for CoordinatorSpec {
    fn default() -> Self {
        CoordinatorSpec {
            clock: Clock::default(),
            persist: true,
            replicas: 1,
            async_replication: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockSpec {
    pub name: String,
    /// Lease duration, judged by each node's clock.
    pub ttl: Tick,
    #[serde(default)]
    pub issuer: IssuerKind,
    /// Chubby's and Consul's lock-delay: ticks of the coordinator's clock during which a
    /// lock whose lease ran out is granted to nobody (0: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lock_delay: Tick,
    /// Kafka's initTransactions: another worker's acquire does not wait for the holder's
    /// lease to end; the coordinator ends that grant and grants the newcomer a new token.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub takeover: bool,
    /// Kafka's transaction timeout: a lease that runs out moves the lock on to a new token
    /// that nobody holds, so whatever the lost holder still sends is older than it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bump_on_expiry: bool,
}

fn is_zero(t: &Tick) -> bool {
    *t == 0
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkerSpec {
    pub name: String,
    #[serde(default)]
    pub clock: Clock,
    /// The lock it acquires by default (the first lock when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub omits_token: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renew_every: Option<Tick>,
    /// Its retry buffer (the last writes sent) survives a crash, as a durable job queue would;
    /// otherwise a crash loses it with everything else in memory.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub durable_retry: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceSpec {
    pub name: String,
    /// Its authority domain (the first lock when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<String>,
    pub kind: ResourceKind,
    /// A policy of its own, whatever the scenario's policy is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<Policy>,
    #[serde(default)]
    pub options: ResourceOptions,
}

/// One narrated step of a script: what happens, and what to say about it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub say: String,
    /// What to say instead under a named variant or policy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub say_if: Vec<SayIf>,
    #[serde(rename = "do")]
    pub actions: Vec<Action>,
}

/// A step's narration for one variant, or for one receiver policy.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SayIf {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<Policy>,
    pub say: String,
}

impl Step {
    /// The narration for a run under `variant` (its name) and `policy` (the run's effective
    /// policy): an alternative for that variant first, then one for that policy, else `say`.
    pub fn say_for(&self, variant: Option<&str>, policy: Policy) -> &str {
        let by_variant = variant.and_then(|name| {
            self.say_if
                .iter()
                .find(|a| a.variant.as_deref() == Some(name))
        });
        by_variant
            .or_else(|| self.say_if.iter().find(|a| a.policy == Some(policy)))
            .map_or(self.say.as_str(), |a| a.say.as_str())
    }
}

/// A setting the scenario contrasts, and what a run under it must show.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<Policy>,
    #[serde(default, skip_serializing_if = "Settings::is_empty")]
    pub settings: Settings,
    /// The outcome in plain words, shown beside the narration.
    #[serde(default)]
    pub outcome: String,
    #[serde(default)]
    pub expect: Expectation,
}

/// Overrides a variant applies on top of the scenario.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub require_token: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bind_scope: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dedup: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_expiry: Option<Tick>,
    /// `false`: every scripted write drops its `if_version` (a store without conditional
    /// writes, or code that does not use them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conditional: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transaction: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub persist: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub async_replication: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issuer: Option<IssuerKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl: Option<Tick>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lock_delay: Option<Tick>,
    /// How often every worker renews automatically while it holds a lease.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renew_every: Option<Tick>,
}

impl Settings {
    pub fn is_empty(&self) -> bool {
        *self == Settings::default()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Expectation {
    /// Named requests and how each must end.
    pub requests: BTreeMap<String, ExpectedRequest>,
    /// Violations that must be reported.
    pub violations: Vec<ViolationKind>,
    /// Violations that must not be reported.
    pub absent: Vec<ViolationKind>,
    /// Final values of resources.
    pub values: BTreeMap<String, String>,
    /// Final metric counts, by field name of `Metrics` (e.g. `business_failed`).
    pub metrics: BTreeMap<String, u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedRequest {
    /// How its first delivery ended.
    pub outcome: Fate,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// Every verdict, in order, when the story turns on a later copy (a duplicate, a retry).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verdicts: Vec<ExpectedVerdict>,
}

/// One expected decision on one delivery.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedVerdict {
    pub outcome: Fate,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// The resource that decided (any, when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
}

impl ExpectedVerdict {
    /// The same words as `VerdictReport::word`, without the resource when none is named.
    pub fn word(&self) -> String {
        let mut w = self.outcome.to_string();
        if let Some(r) = self.reason {
            w = format!("{w} ({})", r.as_str());
        }
        match &self.resource {
            Some(r) => format!("{w} at {r}"),
            None => w,
        }
    }
}

impl Scenario {
    pub fn variant(&self, name: &str) -> Option<&Variant> {
        self.variants.iter().find(|v| v.name == name)
    }

    /// The variant that stands for plain `policy`: one named after it, or one that runs the
    /// story under it and changes nothing else. The one rule for "this policy" everywhere: the
    /// app's picker offers the variant in its place and a link or `?policy=` opens it, and the
    /// CLI's `--policy` runs it, so each checks the outcome the variant states.
    pub fn variant_for(&self, policy: Policy) -> Option<&Variant> {
        self.variant(policy.as_str()).or_else(|| {
            self.variants
                .iter()
                .find(|v| v.policy.unwrap_or(self.policy) == policy && v.settings.is_empty())
        })
    }

    /// The scenario with a variant's settings applied: what the world is built from.
    pub fn with_variant(&self, v: &Variant) -> Scenario {
        let mut s = self.clone();
        if let Some(p) = v.policy {
            s.policy = p;
        }
        let set = &v.settings;
        for r in &mut s.resources {
            if let Some(x) = set.require_token {
                r.options.require_token = x;
            }
            if let Some(x) = set.bind_scope {
                r.options.bind_scope = x;
            }
            if let Some(x) = set.key_expiry {
                r.options.key_expiry = Some(x);
            }
            if let Some(x) = set.dedup {
                r.options.dedup = x;
            }
        }
        if let Some(x) = set.persist {
            s.coordinator.persist = x;
        }
        if let Some(x) = set.async_replication {
            s.coordinator.async_replication = x;
        }
        if let Some(x) = set.renew_every {
            for w in &mut s.workers {
                w.renew_every = Some(x);
            }
        }
        for l in &mut s.locks {
            if let Some(i) = &set.issuer {
                l.issuer = i.clone();
            }
            if let Some(t) = set.ttl {
                l.ttl = t;
            }
            if let Some(t) = set.lock_delay {
                l.lock_delay = t;
            }
        }
        for step in &mut s.script {
            for a in &mut step.actions {
                if let Action::Write { write, .. } | Action::Prepare { write, .. } = a {
                    if let Some(x) = set.transaction.filter(|_| write.to.len() > 1) {
                        write.transaction = x;
                    }
                    if set.conditional == Some(false) {
                        write.if_version = None;
                    }
                }
            }
        }
        s
    }

    /// Every script action, with the path a file error would name.
    /// Sizes and numbers within the ranges docs/scenario-format.md gives: large enough for
    /// any lesson, small enough that no run can overflow a clock or exhaust memory.
    fn check_ranges(&self) -> Result<(), String> {
        fn within<T: PartialOrd + std::fmt::Display>(
            path: &str,
            x: T,
            lo: T,
            hi: T,
        ) -> Result<(), String> {
            if x < lo || x > hi {
                return Err(format!("{path}: must be from {lo} to {hi}, not {x}"));
            }
            Ok(())
        }
        let t = MAX_TICKS;
        within("locks (how many)", self.locks.len(), 1, MAX_NODES)?;
        within("workers (how many)", self.workers.len(), 0, MAX_NODES)?;
        within("resources (how many)", self.resources.len(), 0, MAX_NODES)?;
        within(
            "script (how many steps)",
            self.script.len(),
            0,
            MAX_SCRIPT_STEPS,
        )?;
        within("network.delay", self.network.delay, 1, t)?;
        within("network.jitter", self.network.jitter, 0, t)?;
        within(
            "coordinator.replicas",
            self.coordinator.replicas,
            1,
            MAX_REPLICAS,
        )?;
        let clock = |path: &str, c: &Clock| -> Result<(), String> {
            within(
                &format!("{path}.offset"),
                c.offset,
                -MAX_CLOCK_OFFSET,
                MAX_CLOCK_OFFSET,
            )?;
            within(
                &format!("{path}.rate_permille"),
                c.rate_permille,
                0,
                MAX_RATE_PERMILLE,
            )
        };
        clock("coordinator.clock", &self.coordinator.clock)?;
        for (i, l) in self.locks.iter().enumerate() {
            within(&format!("locks[{i}].ttl"), l.ttl, 1, t)?;
            within(&format!("locks[{i}].lock_delay"), l.lock_delay, 0, t)?;
            let (start, replicas) = match &l.issuer {
                IssuerKind::Counter { start } | IssuerKind::Epoch { start } => (*start, 1),
                IssuerKind::IndependentCounters { start, replicas } => (*start, *replicas),
                IssuerKind::WallClock | IssuerKind::Random { .. } => (0, 1),
            };
            within(
                &format!("locks[{i}].issuer.start"),
                start,
                -MAX_TOKEN_START,
                MAX_TOKEN_START,
            )?;
            within(
                &format!("locks[{i}].issuer.replicas"),
                replicas,
                1,
                MAX_REPLICAS,
            )?;
        }
        for (i, w) in self.workers.iter().enumerate() {
            clock(&format!("workers[{i}].clock"), &w.clock)?;
            if let Some(r) = w.renew_every {
                within(&format!("workers[{i}].renew_every"), r, 1, t)?;
            }
        }
        for (i, r) in self.resources.iter().enumerate() {
            if let Some(e) = r.options.key_expiry {
                within(&format!("resources[{i}].options.key_expiry"), e, 1, t)?;
            }
            if let ResourceKind::Account { balance } = &r.kind {
                within(
                    &format!("resources[{i}].kind.account.balance"),
                    *balance,
                    -MAX_AMOUNT,
                    MAX_AMOUNT,
                )?;
            }
        }
        for (i, st) in self.script.iter().enumerate() {
            within(
                &format!("script[{i}].do (how many actions)"),
                st.actions.len(),
                0,
                MAX_STEP_ACTIONS,
            )?;
        }
        within("branches (how many)", self.branches.len(), 0, MAX_BRANCHES)?;
        for (i, b) in self.branches.iter().enumerate() {
            within(
                &format!("branches[{i}].script_steps"),
                b.script_steps,
                0,
                self.script.len(),
            )?;
            within(
                &format!("branches[{i}].do (how many actions)"),
                b.actions.len(),
                0,
                MAX_BRANCH_ACTIONS,
            )?;
            let ticks = Action::ticks_asked(
                self.script[..b.script_steps]
                    .iter()
                    .flat_map(|st| st.actions.iter())
                    .chain(&b.actions),
            );
            within(
                &format!("branches[{i}] (ticks of advance and await in all)"),
                ticks,
                0,
                MAX_RUN_TICKS,
            )?;
        }
        if let Some(k) = self.open_branch {
            if k >= self.branches.len() {
                return Err(format!(
                    "open_branch: there is no branch {k} (branches has {})",
                    self.branches.len()
                ));
            }
        }
        for (path, a) in self.all_actions() {
            if let Some((field, why)) = a.out_of_range() {
                return Err(format!("{path}.{field}: {why}"));
            }
        }
        let ticks = Action::ticks_asked(self.script_actions().map(|(_, a)| a));
        within(
            "script (ticks of advance and await in all)",
            ticks,
            0,
            MAX_RUN_TICKS,
        )?;
        Ok(())
    }

    /// Every action of the script and of the branches, with the path a file error would name.
    fn all_actions(&self) -> impl Iterator<Item = (String, &Action)> {
        self.script_actions()
            .chain(self.branches.iter().enumerate().flat_map(|(i, b)| {
                b.actions
                    .iter()
                    .enumerate()
                    .map(move |(j, a)| (format!("branches[{i}].do[{j}]"), a))
            }))
    }

    pub fn script_actions(&self) -> impl Iterator<Item = (String, &Action)> {
        self.script.iter().enumerate().flat_map(|(i, st)| {
            st.actions
                .iter()
                .enumerate()
                .map(move |(j, a)| (format!("script[{i}].do[{j}]"), a))
        })
    }

    /// Checks a parsed scenario for what its types cannot say: version, names, references,
    /// and every number within its documented range (under each variant too).
    pub fn validate(&self) -> Result<(), String> {
        if self.version != FORMAT_VERSION {
            return Err(format!(
                "version: this build reads scenario format {FORMAT_VERSION}, the file says {}",
                self.version
            ));
        }
        self.check_ranges()?;
        for (k, v) in self.variants.iter().enumerate() {
            self.with_variant(v)
                .check_ranges()
                .map_err(|e| format!("variants[{k}] (“{}”) makes {e}", v.name))?;
        }
        if self.locks.is_empty() {
            return Err("locks: a scenario needs at least one lock".into());
        }
        if self.network.delay == 0 {
            return Err("network.delay: must be at least 1 tick".into());
        }
        let lock_ok = |l: &str| self.locks.iter().any(|x| x.name == l);
        let worker_ok = |w: &str| self.workers.iter().any(|x| x.name == w);
        let resource_ok = |r: &str| self.resources.iter().any(|x| x.name == r);
        unique("locks", self.locks.iter().map(|l| &l.name))?;
        unique("workers", self.workers.iter().map(|w| &w.name))?;
        unique("resources", self.resources.iter().map(|r| &r.name))?;
        for (i, w) in self.workers.iter().enumerate() {
            if w.name == "coordinator" || w.name == "network" {
                return Err(format!("workers[{i}].name: “{}” is reserved", w.name));
            }
            if let Some(l) = w.lock.as_deref().filter(|l| !lock_ok(l)) {
                return Err(format!("workers[{i}].lock: no lock named “{l}”"));
            }
        }
        for (i, r) in self.resources.iter().enumerate() {
            if let Some(l) = r.lock.as_deref().filter(|l| !lock_ok(l)) {
                return Err(format!("resources[{i}].lock: no lock named “{l}”"));
            }
            let to = r.options.relay_to.as_deref();
            if let Some(t) = to.filter(|t| !resource_ok(t) || *t == r.name) {
                return Err(format!(
                    "resources[{i}].options.relay_to: no other resource named “{t}”"
                ));
            }
        }
        for (path, a) in self.all_actions() {
            if let Some(w) = a.worker().filter(|w| !worker_ok(w)) {
                return Err(format!("{path}.worker: no worker named “{w}”"));
            }
            match a {
                Action::Acquire { lock: Some(l), .. } | Action::Await { lock: Some(l), .. }
                    if !lock_ok(l) =>
                {
                    return Err(format!("{path}.lock: no lock named “{l}”"));
                }
                Action::Write { write, .. } | Action::Prepare { write, .. } => {
                    if write.to.is_empty() {
                        return Err(format!("{path}.write.to: names no resource"));
                    }
                    for (k, r) in write.to.iter().enumerate() {
                        if !resource_ok(r) {
                            return Err(format!("{path}.write.to[{k}]: no resource named “{r}”"));
                        }
                    }
                }
                Action::ClockJump { node, .. } if node != "coordinator" && !worker_ok(node) => {
                    return Err(format!(
                        "{path}.node: no worker named “{node}” (nor the coordinator)"
                    ));
                }
                Action::CompleteWrite { resource: r, .. }
                | Action::ResourceBackup { resource: r }
                | Action::ResourceRestore { resource: r }
                | Action::ResourceRestart { resource: r }
                    if !resource_ok(r) =>
                {
                    return Err(format!("{path}.resource: no resource named “{r}”"));
                }
                _ => {}
            }
        }
        for (i, st) in self.script.iter().enumerate() {
            for (k, a) in st.say_if.iter().enumerate() {
                let path = format!("script[{i}].say_if[{k}]");
                match (&a.variant, &a.policy) {
                    (Some(v), None) if self.variant(v).is_none() => {
                        return Err(format!("{path}.variant: no variant named “{v}”"));
                    }
                    (Some(_), None) | (None, Some(_)) => {}
                    _ => return Err(format!("{path}: names a variant or a policy (one of them)")),
                }
            }
        }
        for (i, v) in self.variants.iter().enumerate() {
            for m in v.expect.metrics.keys() {
                if !super::event::Metrics::NAMES.contains(&m.as_str()) {
                    return Err(format!(
                        "variants[{i}].expect.metrics.{m}: no metric named “{m}”"
                    ));
                }
            }
            for r in v.expect.values.keys() {
                if !resource_ok(r) {
                    return Err(format!(
                        "variants[{i}].expect.values.{r}: no resource named “{r}”"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Parse and validate a scenario file, naming the JSON path of the first problem.
    pub fn from_json(text: &str) -> Result<Scenario, String> {
        let s: Scenario = super::json_error::from_str(text)?;
        s.validate()?;
        Ok(s)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self)
            .unwrap_or_else(|e| unreachable!("a scenario always serialises: {e}"))
    }
}

fn unique<'a>(what: &str, names: impl Iterator<Item = &'a String>) -> Result<(), String> {
    let mut seen = std::collections::BTreeSet::new();
    for (i, n) in names.enumerate() {
        if n.is_empty() {
            return Err(format!("{what}[{i}].name: must not be empty"));
        }
        if !seen.insert(n) {
            return Err(format!("{what}[{i}].name: “{n}” is used twice"));
        }
    }
    Ok(())
}

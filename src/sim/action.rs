//! Actions: every input the world accepts. A script, a user and the explorer all speak this.

use super::message::MessageKind;
use super::name::Name;
use super::time::Tick;
use super::worker::WriteSpec;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Picks one in-flight message: the first (oldest) matching every field given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MsgSel {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<Name>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<MessageKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<Name>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Name>,
}

impl MsgSel {
    pub fn id(id: u32) -> Self {
        MsgSel {
            id: Some(id),
            ..Default::default()
        }
    }

    pub fn request(r: &str) -> Self {
        MsgSel {
            request: Some(r.into()),
            ..Default::default()
        }
    }
}

impl fmt::Display for MsgSel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(i) = self.id {
            parts.push(format!("#{i}"));
        }
        if let Some(r) = &self.request {
            parts.push(format!("request {r}"));
        }
        if let Some(k) = &self.kind {
            parts.push(k.name().to_string());
        }
        if let Some(x) = &self.from {
            parts.push(format!("from {x}"));
        }
        if let Some(x) = &self.to {
            parts.push(format!("to {x}"));
        }
        f.write_str(&parts.join(" "))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(
    tag = "do",
    rename_all = "kebab-case",
    deny_unknown_fields,
    try_from = "ActionFields"
)]
pub enum Action {
    /// Ask the coordinator for a lock (the worker's own lock when none is named).
    Acquire {
        worker: Name,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lock: Option<Name>,
    },
    /// Build a write, capturing the token held now, without sending it yet.
    Prepare {
        worker: Name,
        write: WriteSpec,
    },
    /// Send what was prepared.
    Send {
        worker: Name,
    },
    /// Prepare and send at once.
    Write {
        worker: Name,
        write: WriteSpec,
    },
    /// Send the last writes again with the same operation id.
    Retry {
        worker: Name,
    },
    Renew {
        worker: Name,
    },
    Release {
        worker: Name,
    },
    /// Stop the world for `ticks`, or until resumed.
    Pause {
        worker: Name,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ticks: Option<Tick>,
    },
    Resume {
        worker: Name,
    },
    Crash {
        worker: Name,
    },
    Restart {
        worker: Name,
    },
    /// Cut the worker off from the coordinator; it still reaches resources.
    Partition {
        worker: Name,
    },
    Heal {
        worker: Name,
    },
    /// Step a clock: `node` is `coordinator` or a worker.
    ClockJump {
        node: Name,
        by: i64,
    },
    Deliver {
        msg: MsgSel,
    },
    /// Keep a message from being delivered until true time `until`, or indefinitely.
    Hold {
        msg: MsgSel,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        until: Option<Tick>,
    },
    Drop {
        msg: MsgSel,
    },
    /// Let a held message travel on: it arrives at its due time (at once, if that has passed).
    Unhold {
        msg: MsgSel,
    },
    Duplicate {
        msg: MsgSel,
    },
    /// Check-then-write: perform the write step of a request that passed its check.
    CompleteWrite {
        resource: Name,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request: Option<Name>,
    },
    /// Let true time pass, delivering what is due and firing every clock.
    Advance {
        ticks: Tick,
    },
    CoordinatorBackup,
    CoordinatorRestart {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        persist: Option<bool>,
    },
    CoordinatorRestore,
    CoordinatorFailover,
    ResourceBackup {
        resource: Name,
    },
    ResourceRestore {
        resource: Name,
    },
    ResourceRestart {
        resource: Name,
    },
    /// A worker action: let true time pass tick by tick until the worker believes it holds the lock (its
    /// own lock when none is named), for at most `within` ticks (20 when not given).
    Await {
        worker: Name,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lock: Option<Name>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        within: Option<Tick>,
    },
}

/// How an action is read: one flat object, then checked against its `do`. Serde's own code
/// for an internally tagged enum of this size is about 50 KB of WASM; this is a tenth of it,
/// and it reports the same errors (missing field, unknown variant, unknown field).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionFields {
    #[serde(rename = "do")]
    kind: String,
    worker: Option<Name>,
    lock: Option<Name>,
    write: Option<WriteSpec>,
    ticks: Option<Tick>,
    node: Option<Name>,
    by: Option<i64>,
    msg: Option<MsgSel>,
    until: Option<Tick>,
    resource: Option<Name>,
    request: Option<Name>,
    persist: Option<bool>,
    within: Option<Tick>,
}

/// Every `do`, in the order of the enum.
pub const ACTION_NAMES: &[&str] = &[
    "acquire",
    "prepare",
    "send",
    "write",
    "retry",
    "renew",
    "release",
    "pause",
    "resume",
    "crash",
    "restart",
    "partition",
    "heal",
    "clock-jump",
    "deliver",
    "hold",
    "drop",
    "duplicate",
    "complete-write",
    "advance",
    "coordinator-backup",
    "coordinator-restart",
    "coordinator-restore",
    "coordinator-failover",
    "resource-backup",
    "resource-restore",
    "resource-restart",
    "await",
    "unhold",
];

/// How long an `await` waits when it does not say.
pub const AWAIT_DEFAULT_TICKS: Tick = 20;

/// The most ticks one `advance` or `await` lets pass: both run time tick by tick.
pub const MAX_STEP_TICKS: Tick = 100_000;

/// The largest span of time a scenario or an action may name (a TTL, a delay, a pause, a
/// hold, a clock jump): far beyond any lesson, and small enough that no clock or deadline
/// arithmetic can overflow.
pub const MAX_TICKS: Tick = 1_000_000_000;

/// The most time a whole run may let pass by `advance` and `await`, which run tick by tick:
/// a scenario's script, or a link's or a file's steps replayed, are refused past it rather
/// than keep a page busy for seconds. Ten thousand times the longest preset.
pub const MAX_RUN_TICKS: Tick = 1_000_000;

/// The largest amount a debit, credit or balance may name.
pub const MAX_AMOUNT: i64 = 1_000_000_000_000;

impl Action {
    /// How many ticks these actions may run, tick by tick, at most: what `MAX_RUN_TICKS`
    /// bounds, for a script, a replay and a link alike.
    pub fn ticks_asked<'a>(actions: impl IntoIterator<Item = &'a Action>) -> Tick {
        actions
            .into_iter()
            .map(Action::ticks_run)
            .fold(0, Tick::saturating_add)
    }

    /// How many ticks this action may run, tick by tick, at most (`advance`, `await`).
    pub fn ticks_run(&self) -> Tick {
        match self {
            Action::Advance { ticks } => *ticks,
            Action::Await { within, .. } => within.unwrap_or(AWAIT_DEFAULT_TICKS),
            _ => 0,
        }
    }

    /// The field of this action outside its documented range (docs/scenario-format.md), and
    /// why; checked when a file is read and again before any action is taken.
    pub fn out_of_range(&self) -> Option<(&'static str, String)> {
        use Action::*;
        let amount = |w: &WriteSpec| match w.op {
            super::request::Op::Debit(n) | super::request::Op::Credit(n)
                if n.unsigned_abs() > MAX_AMOUNT as u64 =>
            {
                Some((
                    "write.op",
                    format!("an amount of at most {MAX_AMOUNT}, not {n}"),
                ))
            }
            _ => None,
        };
        match self {
            Advance { ticks } if *ticks == 0 || *ticks > MAX_STEP_TICKS => Some((
                "ticks",
                format!("advance takes 1 to {MAX_STEP_TICKS} ticks, not {ticks}"),
            )),
            Await {
                within: Some(t), ..
            } if *t > MAX_STEP_TICKS => Some((
                "within",
                format!("await waits at most {MAX_STEP_TICKS} ticks, not {t}"),
            )),
            Pause { ticks: Some(t), .. } if *t > MAX_TICKS => Some((
                "ticks",
                format!("a pause of at most {MAX_TICKS} ticks, not {t}"),
            )),
            Hold { until: Some(t), .. } if *t > MAX_TICKS => Some((
                "until",
                format!("a hold until at most t={MAX_TICKS}, not {t}"),
            )),
            ClockJump { by, .. } if by.unsigned_abs() > MAX_TICKS => Some((
                "by",
                format!("a clock jump of at most {MAX_TICKS} ticks either way, not {by}"),
            )),
            Write { write, .. } | Prepare { write, .. } => amount(write),
            _ => None,
        }
    }
}

impl Action {
    /// Its `do` in a scenario file (`"acquire"`, `"clock-jump"`, …), without serialising it.
    pub fn name(&self) -> &'static str {
        ACTION_NAMES[match self {
            Action::Acquire { .. } => 0,
            Action::Prepare { .. } => 1,
            Action::Send { .. } => 2,
            Action::Write { .. } => 3,
            Action::Retry { .. } => 4,
            Action::Renew { .. } => 5,
            Action::Release { .. } => 6,
            Action::Pause { .. } => 7,
            Action::Resume { .. } => 8,
            Action::Crash { .. } => 9,
            Action::Restart { .. } => 10,
            Action::Partition { .. } => 11,
            Action::Heal { .. } => 12,
            Action::ClockJump { .. } => 13,
            Action::Deliver { .. } => 14,
            Action::Hold { .. } => 15,
            Action::Drop { .. } => 16,
            Action::Duplicate { .. } => 17,
            Action::CompleteWrite { .. } => 18,
            Action::Advance { .. } => 19,
            Action::CoordinatorBackup => 20,
            Action::CoordinatorRestart { .. } => 21,
            Action::CoordinatorRestore => 22,
            Action::CoordinatorFailover => 23,
            Action::ResourceBackup { .. } => 24,
            Action::ResourceRestore { .. } => 25,
            Action::ResourceRestart { .. } => 26,
            Action::Await { .. } => 27,
            Action::Unhold { .. } => 28,
        }]
    }
}

impl Action {
    /// How to make the action named `name` from a worker alone, where it needs nothing else:
    /// an acquire of the worker's own lock, a pause until resumed, send, retry, renew,
    /// release, resume, crash, restart, partition, heal.
    pub fn worker_only(name: &str) -> Option<fn(Name) -> Action> {
        use Action::*;
        Some(match name {
            "acquire" => |worker| Acquire { worker, lock: None },
            "pause" => |worker| Pause {
                worker,
                ticks: None,
            },
            "send" => |worker| Send { worker },
            "retry" => |worker| Retry { worker },
            "renew" => |worker| Renew { worker },
            "release" => |worker| Release { worker },
            "resume" => |worker| Resume { worker },
            "crash" => |worker| Crash { worker },
            "restart" => |worker| Restart { worker },
            "partition" => |worker| Partition { worker },
            "heal" => |worker| Heal { worker },
            _ => return None,
        })
    }
}

fn need<T>(v: &mut Option<T>, name: &str) -> Result<T, String> {
    v.take().ok_or_else(|| format!("missing field `{name}`"))
}

impl TryFrom<ActionFields> for Action {
    type Error = String;

    fn try_from(mut f: ActionFields) -> Result<Action, String> {
        use Action::*;
        let kind = std::mem::take(&mut f.kind);
        let a = match kind.as_str() {
            "acquire" => Acquire {
                worker: need(&mut f.worker, "worker")?,
                lock: f.lock.take(),
            },
            "prepare" => Prepare {
                worker: need(&mut f.worker, "worker")?,
                write: need(&mut f.write, "write")?,
            },
            "write" => Write {
                worker: need(&mut f.worker, "worker")?,
                write: need(&mut f.write, "write")?,
            },
            "await" => Await {
                worker: need(&mut f.worker, "worker")?,
                lock: f.lock.take(),
                within: f.within.take(),
            },
            "pause" => Pause {
                worker: need(&mut f.worker, "worker")?,
                ticks: f.ticks.take(),
            },
            "clock-jump" => ClockJump {
                node: need(&mut f.node, "node")?,
                by: need(&mut f.by, "by")?,
            },
            "hold" => Hold {
                msg: need(&mut f.msg, "msg")?,
                until: f.until.take(),
            },
            "deliver" | "drop" | "duplicate" | "unhold" => {
                let msg = need(&mut f.msg, "msg")?;
                match kind.as_str() {
                    "deliver" => Deliver { msg },
                    "drop" => Drop { msg },
                    "unhold" => Unhold { msg },
                    _ => Duplicate { msg },
                }
            }
            "complete-write" => CompleteWrite {
                resource: need(&mut f.resource, "resource")?,
                request: f.request.take(),
            },
            "advance" => Advance {
                ticks: need(&mut f.ticks, "ticks")?,
            },
            "coordinator-backup" => CoordinatorBackup,
            "coordinator-restart" => CoordinatorRestart {
                persist: f.persist.take(),
            },
            "coordinator-restore" => CoordinatorRestore,
            "coordinator-failover" => CoordinatorFailover,
            "resource-backup" | "resource-restore" | "resource-restart" => {
                let resource = need(&mut f.resource, "resource")?;
                match kind.as_str() {
                    "resource-backup" => ResourceBackup { resource },
                    "resource-restore" => ResourceRestore { resource },
                    _ => ResourceRestart { resource },
                }
            }
            other => match Action::worker_only(other) {
                Some(make) => make(need(&mut f.worker, "worker")?),
                None => {
                    let expected: Vec<String> =
                        ACTION_NAMES.iter().map(|n| format!("`{n}`")).collect();
                    return Err(format!(
                        "unknown variant `{other}`, expected one of {}",
                        expected.join(", ")
                    ));
                }
            },
        };
        // A field the action does not take is as wrong as a field no action takes.
        let left = [
            ("worker", f.worker.is_some()),
            ("lock", f.lock.is_some()),
            ("write", f.write.is_some()),
            ("ticks", f.ticks.is_some()),
            ("node", f.node.is_some()),
            ("by", f.by.is_some()),
            ("msg", f.msg.is_some()),
            ("until", f.until.is_some()),
            ("resource", f.resource.is_some()),
            ("request", f.request.is_some()),
            ("persist", f.persist.is_some()),
            ("within", f.within.is_some()),
        ];
        match left.iter().find(|(_, set)| *set) {
            Some((name, _)) => Err(format!("unknown field `{name}` for `{kind}`")),
            None => Ok(a),
        }
    }
}

impl Action {
    /// The worker this action is about, if any.
    pub fn worker(&self) -> Option<&str> {
        use Action::*;
        match self {
            Acquire { worker, .. }
            | Prepare { worker, .. }
            | Send { worker }
            | Write { worker, .. }
            | Retry { worker }
            | Renew { worker }
            | Release { worker }
            | Await { worker, .. }
            | Pause { worker, .. }
            | Resume { worker }
            | Crash { worker }
            | Restart { worker }
            | Partition { worker }
            | Heal { worker } => Some(worker),
            _ => None,
        }
    }
}

/// "1 tick", "5 ticks".
fn ticks(n: Tick) -> String {
    if n == 1 {
        "1 tick".into()
    } else {
        format!("{n} ticks")
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Action::*;
        match self {
            Acquire { worker, lock } => match lock {
                Some(l) => write!(f, "{worker} acquires {l}"),
                None => write!(f, "{worker} acquires"),
            },
            Prepare { worker, write } => write!(
                f,
                "{worker} prepares {} for {}",
                write.op,
                write.to.join(" + ")
            ),
            Send { worker } => write!(f, "{worker} sends what it prepared"),
            Write { worker, write } => write!(
                f,
                "{worker} writes {} to {}",
                write.op,
                write.to.join(" + ")
            ),
            Retry { worker } => write!(f, "{worker} retries its last write"),
            Renew { worker } => write!(f, "{worker} renews"),
            Release { worker } => write!(f, "{worker} releases"),
            Await {
                worker,
                lock,
                within,
            } => {
                match lock {
                    Some(l) => write!(f, "{worker} waits until it holds {l}")?,
                    None => write!(f, "{worker} waits until it holds its lease")?,
                }
                match within {
                    Some(n) => write!(f, " (at most {})", ticks(*n)),
                    None => Ok(()),
                }
            }
            Pause {
                worker,
                ticks: Some(t),
            } => write!(f, "{worker} pauses for {}", ticks(*t)),
            Pause {
                worker,
                ticks: None,
            } => write!(f, "{worker} pauses"),
            Resume { worker } => write!(f, "{worker} resumes"),
            Crash { worker } => write!(f, "{worker} crashes"),
            Restart { worker } => write!(f, "{worker} restarts"),
            Partition { worker } => write!(f, "{worker} is cut off from the coordinator"),
            Heal { worker } => write!(f, "{worker} reaches the coordinator again"),
            ClockJump { node, by } => write!(f, "{node}'s clock jumps {by:+}"),
            Deliver { msg } => write!(f, "deliver {msg}"),
            Hold {
                msg,
                until: Some(t),
            } => write!(f, "hold {msg} until t={t}"),
            Hold { msg, until: None } => write!(f, "hold {msg}"),
            Drop { msg } => write!(f, "drop {msg}"),
            Unhold { msg } => write!(f, "let {msg} travel on"),
            Duplicate { msg } => write!(f, "duplicate {msg}"),
            CompleteWrite { resource, request } => match request {
                Some(r) => write!(f, "{resource} completes the write of {r}"),
                None => write!(f, "{resource} completes its oldest checked write"),
            },
            Advance { ticks: n } => write!(f, "advance {}", ticks(*n)),
            CoordinatorBackup => write!(f, "back up the coordinator"),
            CoordinatorRestart {
                persist: Some(false),
            } => write!(f, "restart the coordinator without its state"),
            CoordinatorRestart { .. } => write!(f, "restart the coordinator"),
            CoordinatorRestore => write!(f, "restore the coordinator from backup"),
            CoordinatorFailover => write!(f, "fail the coordinator over"),
            ResourceBackup { resource } => write!(f, "back up {resource}"),
            ResourceRestore { resource } => write!(f, "restore {resource} from backup"),
            ResourceRestart { resource } => write!(f, "restart {resource}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::Op;

    #[test]
    fn one_tick_is_singular() {
        assert_eq!(Action::Advance { ticks: 1 }.to_string(), "advance 1 tick");
        assert_eq!(Action::Advance { ticks: 5 }.to_string(), "advance 5 ticks");
        let pause = |t| Action::Pause {
            worker: "A".into(),
            ticks: Some(t),
        };
        assert_eq!(pause(1).to_string(), "A pauses for 1 tick");
        assert_eq!(pause(3).to_string(), "A pauses for 3 ticks");
    }

    fn samples() -> Vec<Action> {
        let w = || Name::from("A");
        let spec = WriteSpec {
            to: vec!["store".into()],
            op: Op::Set("x".into()),
            op_id: Some("op1".into()),
            label: None,
            transaction: false,
            if_version: None,
        };
        let msg = MsgSel::request("A1");
        use Action::*;
        vec![
            Acquire {
                worker: w(),
                lock: Some("l".into()),
            },
            Acquire {
                worker: w(),
                lock: None,
            },
            Prepare {
                worker: w(),
                write: spec.clone(),
            },
            Send { worker: w() },
            Write {
                worker: w(),
                write: spec,
            },
            Retry { worker: w() },
            Renew { worker: w() },
            Release { worker: w() },
            Await {
                worker: w(),
                lock: None,
                within: None,
            },
            Await {
                worker: w(),
                lock: Some("l".into()),
                within: Some(7),
            },
            Pause {
                worker: w(),
                ticks: Some(3),
            },
            Pause {
                worker: w(),
                ticks: None,
            },
            Resume { worker: w() },
            Crash { worker: w() },
            Restart { worker: w() },
            Partition { worker: w() },
            Heal { worker: w() },
            ClockJump {
                node: "coordinator".into(),
                by: -4,
            },
            Deliver { msg: msg.clone() },
            Hold {
                msg: msg.clone(),
                until: Some(9),
            },
            Hold {
                msg: MsgSel::id(2),
                until: None,
            },
            Drop { msg: msg.clone() },
            Unhold { msg: msg.clone() },
            Duplicate { msg },
            CompleteWrite {
                resource: "store".into(),
                request: Some("A1".into()),
            },
            CompleteWrite {
                resource: "store".into(),
                request: None,
            },
            Advance { ticks: 5 },
            CoordinatorBackup,
            CoordinatorRestart {
                persist: Some(false),
            },
            CoordinatorRestart { persist: None },
            CoordinatorRestore,
            CoordinatorFailover,
            ResourceBackup {
                resource: "store".into(),
            },
            ResourceRestore {
                resource: "store".into(),
            },
            ResourceRestart {
                resource: "store".into(),
            },
        ]
    }

    #[test]
    fn every_action_reads_back_as_written() {
        let mut seen = std::collections::BTreeSet::new();
        for a in samples() {
            let json = serde_json::to_value(&a).unwrap();
            assert_eq!(json["do"], a.name(), "{a:?}");
            let name = json["do"].as_str().unwrap().to_string();
            assert!(
                ACTION_NAMES.contains(&name.as_str()),
                "{name} missing from ACTION_NAMES"
            );
            seen.insert(name);
            let back: Action = serde_json::from_value(json.clone()).unwrap();
            assert_eq!(back, a, "{json}");
        }
        assert_eq!(seen.len(), ACTION_NAMES.len(), "a sample of every action");
    }

    fn error(json: &str) -> String {
        serde_json::from_str::<Action>(json)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn bad_actions_say_what_is_wrong() {
        assert!(error(r#"{"do":"acquire"}"#).contains("missing field `worker`"));
        assert!(error(r#"{"do":"advance"}"#).contains("missing field `ticks`"));
        assert!(error(r#"{"do":"teleport","worker":"A"}"#).contains("unknown variant `teleport`"));
        assert!(error(r#"{"worker":"A"}"#).contains("missing field `do`"));
        // A field no action takes, and a field another action takes.
        assert!(
            error(r#"{"do":"crash","worker":"A","colour":1}"#).contains("unknown field `colour`")
        );
        assert!(error(r#"{"do":"crash","worker":"A","ticks":1}"#)
            .contains("unknown field `ticks` for `crash`"));
        assert!(error(r#"{"do":"advance","ticks":"soon"}"#).contains("invalid type"));
        assert!(error(r#"{"do":"await"}"#).contains("missing field `worker`"));
        assert!(error(r#"{"do":"await","worker":"A","ticks":2}"#)
            .contains("unknown field `ticks` for `await`"));
        assert!(error(r#"{"do":"advance","ticks":2,"within":3}"#)
            .contains("unknown field `within` for `advance`"));
    }
}

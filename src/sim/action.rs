//! Actions: every input the world accepts. A script, a user and the explorer all speak this.

use super::message::MessageKind;
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
    pub request: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<MessageKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
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
            request: Some(r.to_string()),
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
            parts.push(format!("{k:?}").to_lowercase());
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
#[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// Ask the coordinator for a lock (the worker's own lock when none is named).
    Acquire {
        worker: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lock: Option<String>,
    },
    /// Build a write, capturing the token held now, without sending it yet.
    Prepare {
        worker: String,
        write: WriteSpec,
    },
    /// Send what was prepared.
    Send {
        worker: String,
    },
    /// Prepare and send at once.
    Write {
        worker: String,
        write: WriteSpec,
    },
    /// Send the last writes again with the same operation id.
    Retry {
        worker: String,
    },
    Renew {
        worker: String,
    },
    Release {
        worker: String,
    },
    /// Stop the world for `ticks`, or until resumed.
    Pause {
        worker: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ticks: Option<Tick>,
    },
    Resume {
        worker: String,
    },
    Crash {
        worker: String,
    },
    Restart {
        worker: String,
    },
    /// Cut the worker off from the coordinator; it still reaches resources.
    Partition {
        worker: String,
    },
    Heal {
        worker: String,
    },
    /// Step a clock: `node` is `coordinator` or a worker.
    ClockJump {
        node: String,
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
    Duplicate {
        msg: MsgSel,
    },
    /// Check-then-write: perform the write step of a request that passed its check.
    CompleteWrite {
        resource: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request: Option<String>,
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
        resource: String,
    },
    ResourceRestore {
        resource: String,
    },
    ResourceRestart {
        resource: String,
    },
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
            Pause {
                worker,
                ticks: Some(t),
            } => write!(f, "{worker} pauses for {t} ticks"),
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
            Duplicate { msg } => write!(f, "duplicate {msg}"),
            CompleteWrite { resource, request } => match request {
                Some(r) => write!(f, "{resource} completes the write of {r}"),
                None => write!(f, "{resource} completes its oldest checked write"),
            },
            Advance { ticks } => write!(f, "advance {ticks} ticks"),
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

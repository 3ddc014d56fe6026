//! Messages and the network that carries them.
//!
//! The network is a value: every message is an envelope in flight with a send time
//! and a default delivery time. Any of them may be delivered early, held, dropped or
//! duplicated by an action, so every delivery order is reachable.

use super::name::Name;
use super::request::{Outcome, Request};
use super::rng::Rng;
use super::time::Tick;
use super::token::Token;
use serde::{Deserialize, Serialize};
use std::fmt;

/// An addressable node.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Node {
    Coordinator,
    Worker(Name),
    Resource(Name),
}

impl Node {
    pub fn name(&self) -> &str {
        match self {
            Node::Coordinator => "coordinator",
            Node::Worker(n) | Node::Resource(n) => n,
        }
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every request to the coordinator carries `req`, a number its sender never reuses (not even
/// across a crash), and every reply echoes the `req` it answers: that is all a worker has to
/// tell a reply to its current request from a late duplicate or an answer to an older one.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Message {
    Acquire {
        lock: Name,
        req: u32,
    },
    /// `generation` is ghost data: the true order of grants, read only by the invariant checker.
    Granted {
        lock: Name,
        token: Token,
        ttl: Tick,
        generation: u32,
        req: u32,
    },
    /// The lock a queued acquire waits for is free: ask again (a watch firing). A queued
    /// acquire gets no other answer: the worker simply keeps waiting for it. The lease then
    /// starts from the new acquire's send time, as every lease does.
    Available {
        lock: Name,
        req: u32,
    },
    Renew {
        lock: Name,
        token: Token,
        req: u32,
    },
    Renewed {
        lock: Name,
        token: Token,
        ttl: Tick,
        req: u32,
    },
    RenewDenied {
        lock: Name,
        token: Token,
        req: u32,
    },
    Release {
        lock: Name,
        token: Token,
        req: u32,
    },
    Write(Request),
    Reply {
        request: Name,
        outcome: Outcome,
    },
    /// Fence-on-acquire: register a new token at the resource before the grant is announced.
    Fence {
        lock: Name,
        token: Token,
    },
    FenceAck {
        lock: Name,
        token: Token,
    },
}

/// What a message is, for selection and display.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MessageKind {
    Acquire,
    Grant,
    Available,
    Renew,
    Renewed,
    RenewDenied,
    Release,
    Write,
    Reply,
    Fence,
    FenceAck,
}

impl MessageKind {
    /// The kind as a scenario file or a link names it (serde's kebab-case name).
    pub fn name(&self) -> &'static str {
        match self {
            MessageKind::Acquire => "acquire",
            MessageKind::Grant => "grant",
            MessageKind::Available => "available",
            MessageKind::Renew => "renew",
            MessageKind::Renewed => "renewed",
            MessageKind::RenewDenied => "renew-denied",
            MessageKind::Release => "release",
            MessageKind::Write => "write",
            MessageKind::Reply => "reply",
            MessageKind::Fence => "fence",
            MessageKind::FenceAck => "fence-ack",
        }
    }

    /// The message as a word in a sentence.
    pub fn word(&self) -> &'static str {
        match self {
            MessageKind::Acquire => "acquire",
            MessageKind::Grant => "grant",
            MessageKind::Available => "lock-free notice",
            MessageKind::Renew => "renewal",
            MessageKind::Renewed => "renewal confirmation",
            MessageKind::RenewDenied => "renewal denial",
            MessageKind::Release => "release",
            MessageKind::Write => "write",
            MessageKind::Reply => "reply",
            MessageKind::Fence => "fence",
            MessageKind::FenceAck => "fence acknowledgement",
        }
    }
}

impl Message {
    pub fn kind(&self) -> MessageKind {
        match self {
            Message::Acquire { .. } => MessageKind::Acquire,
            Message::Granted { .. } => MessageKind::Grant,
            Message::Available { .. } => MessageKind::Available,
            Message::Renew { .. } => MessageKind::Renew,
            Message::Renewed { .. } => MessageKind::Renewed,
            Message::RenewDenied { .. } => MessageKind::RenewDenied,
            Message::Release { .. } => MessageKind::Release,
            Message::Write(_) => MessageKind::Write,
            Message::Reply { .. } => MessageKind::Reply,
            Message::Fence { .. } => MessageKind::Fence,
            Message::FenceAck { .. } => MessageKind::FenceAck,
        }
    }

    /// The token a message carries, if any.
    pub fn token(&self) -> Option<&Token> {
        match self {
            Message::Granted { token, .. }
            | Message::Renew { token, .. }
            | Message::Renewed { token, .. }
            | Message::RenewDenied { token, .. }
            | Message::Release { token, .. }
            | Message::Fence { token, .. }
            | Message::FenceAck { token, .. } => Some(token),
            Message::Write(r) => r.token.as_ref(),
            _ => None,
        }
    }

    /// The request id a message concerns, if any.
    pub fn request(&self) -> Option<&Name> {
        match self {
            Message::Write(r) => Some(&r.id),
            Message::Reply { request, .. } => Some(request),
            _ => None,
        }
    }

    /// The coordinator request a message is or answers (`req`), if any.
    pub fn req(&self) -> Option<u32> {
        match self {
            Message::Acquire { req, .. }
            | Message::Granted { req, .. }
            | Message::Available { req, .. }
            | Message::Release { req, .. }
            | Message::Renew { req, .. }
            | Message::Renewed { req, .. }
            | Message::RenewDenied { req, .. } => Some(*req),
            _ => None,
        }
    }

    /// A short human description: `write A1 (token 41)`.
    pub fn describe(&self) -> String {
        let tok = |t: &Token| format!("token {}", t);
        match self {
            Message::Acquire { lock, req } => format!("acquire {lock} (#{req})"),
            Message::Granted {
                lock, token, req, ..
            } => format!("grant {lock} ({}, answers #{req})", tok(token)),
            Message::Available { lock, req } => {
                format!("available {lock}: ask again (answers #{req})")
            }
            Message::Renew { lock, token, req } => {
                format!("renew {lock} ({}, #{req})", tok(token))
            }
            Message::Renewed {
                lock, token, req, ..
            } => format!("renewed {lock} ({}, answers #{req})", tok(token)),
            Message::RenewDenied { lock, token, req } => {
                format!("renewal of {lock} denied ({}, answers #{req})", tok(token))
            }
            Message::Release { lock, token, req } => {
                format!("release {lock} ({}, #{req})", tok(token))
            }
            Message::Write(r) => match &r.token {
                Some(t) => format!("write {} ({})", r.id, tok(t)),
                None => format!("write {} (no token)", r.id),
            },
            Message::Reply { request, outcome } => format!("reply {request}: {}", outcome.word()),
            Message::Fence { lock, token } => format!("fence {lock} ({})", tok(token)),
            Message::FenceAck { lock, token } => format!("fence ack {lock} ({})", tok(token)),
        }
    }
}

/// Whether an envelope waits past its delivery time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Hold {
    No,
    Until(Tick),
    Forever,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Envelope {
    pub id: u32,
    pub from: Node,
    pub to: Node,
    pub msg: Message,
    pub sent_at: Tick,
    pub due_at: Tick,
    pub hold: Hold,
}

impl Envelope {
    /// Due for automatic delivery at `now`.
    pub fn is_due(&self, now: Tick) -> bool {
        match self.hold {
            Hold::No => self.due_at <= now,
            Hold::Until(t) => t <= now && self.due_at <= now,
            Hold::Forever => false,
        }
    }

    pub fn is_held(&self, now: Tick) -> bool {
        match self.hold {
            Hold::No => false,
            Hold::Until(t) => t > now,
            Hold::Forever => true,
        }
    }
}

/// Delay model of the network, in ticks.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetworkSpec {
    /// Default delivery delay.
    pub delay: Tick,
    /// Extra delay drawn uniformly from `0..=jitter` with the seeded generator.
    pub jitter: Tick,
}

impl Default for NetworkSpec {
    fn default() -> Self {
        NetworkSpec {
            delay: 1,
            jitter: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Network {
    pub spec: NetworkSpec,
    pub next_id: u32,
    /// In flight, in order of sending. Each envelope behind an `Rc`, so a world clone copies
    /// pointers (the explorer clones one per transition).
    pub in_flight: Vec<std::rc::Rc<Envelope>>,
}

impl Network {
    pub fn new(spec: NetworkSpec) -> Self {
        Network {
            spec,
            next_id: 1,
            in_flight: Vec::new(),
        }
    }

    /// Put a message in flight; returns its id.
    pub fn send(&mut self, from: Node, to: Node, msg: Message, now: Tick, rng: &mut Rng) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        let delay = self.spec.delay + rng.upto(self.spec.jitter);
        self.in_flight.push(std::rc::Rc::new(Envelope {
            id,
            from,
            to,
            msg,
            sent_at: now,
            due_at: now + delay,
            hold: Hold::No,
        }));
        id
    }

    pub fn get(&self, id: u32) -> Option<&Envelope> {
        self.in_flight.iter().map(|e| &**e).find(|e| e.id == id)
    }

    pub fn take(&mut self, id: u32) -> Option<Envelope> {
        let at = self.in_flight.iter().position(|e| e.id == id)?;
        Some(std::rc::Rc::unwrap_or_clone(self.in_flight.remove(at)))
    }

    /// A copy of an in-flight message, with its own id and the same delivery time.
    pub fn duplicate(&mut self, id: u32) -> Option<u32> {
        let mut copy = self.get(id)?.clone();
        copy.id = self.next_id;
        self.next_id += 1;
        let new_id = copy.id;
        self.in_flight.push(std::rc::Rc::new(copy));
        Some(new_id)
    }

    /// The next envelope due at `now`: earliest delivery time, then earliest sent.
    pub fn next_due(&self, now: Tick) -> Option<u32> {
        self.in_flight
            .iter()
            .filter(|e| e.is_due(now))
            .min_by_key(|e| (e.due_at, e.id))
            .map(|e| e.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_is_named_as_serde_names_it() {
        use MessageKind::*;
        for k in [
            Acquire,
            Grant,
            Available,
            Renew,
            Renewed,
            RenewDenied,
            Release,
            Write,
            Reply,
            Fence,
            FenceAck,
        ] {
            assert_eq!(
                serde_json::to_string(&k).unwrap(),
                format!("\"{}\"", k.name())
            );
        }
    }
}

//! Effects: what a node handler asks the world to do, as data.
//!
//! Handlers never touch the network or the log; they return effects, and the world
//! performs them. This keeps each node a pure function of (its state, its input).

use super::event::EventKind;
use super::invariant::GrantFact;
use super::message::{Message, Node};
use super::name::Name;
use super::token::Token;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Send {
        to: Node,
        msg: Message,
    },
    Emit(Note),
    /// A fact for the checker's record of grant order (`invariant::GrantFact`); no node
    /// ever receives it.
    Grant(GrantFact),
}

/// An event before the world stamps it with time and actor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub kind: EventKind,
    pub token: Option<Token>,
    pub generation: Option<u32>,
    pub op_id: Option<Name>,
    pub request: Option<Name>,
}

impl Note {
    pub fn new(kind: EventKind) -> Self {
        Note {
            kind,
            token: None,
            generation: None,
            op_id: None,
            request: None,
        }
    }

    pub fn token(mut self, t: &Token) -> Self {
        self.token = Some(t.clone());
        self
    }

    pub fn maybe_token(mut self, t: Option<&Token>) -> Self {
        self.token = t.cloned();
        self
    }

    pub fn generation(mut self, g: Option<u32>) -> Self {
        self.generation = g;
        self
    }
}

/// The effects a handler produced, in order.
#[derive(Default, Debug)]
pub struct Out(pub Vec<Effect>);

impl Out {
    pub fn send(&mut self, to: Node, msg: Message) {
        self.0.push(Effect::Send { to, msg });
    }

    pub fn emit(&mut self, note: Note) {
        self.0.push(Effect::Emit(note));
    }
}

//! The model: a pure, deterministic simulation of leases, fencing tokens and receivers.
//!
//! Nothing here knows about the browser, the wall clock or the OS: time is a tick count
//! and randomness a seed, both inputs. The world is a value (`Clone + Hash + Serialize`)
//! and `World::step(&Action)` is a function of it. See ARCHITECTURE.md.

pub mod action;
pub mod coordinator;
pub mod effect;
pub mod event;
pub mod explore;
pub mod hash;
pub mod invariant;
pub mod json_error;
pub mod lab;
pub mod message;
pub mod name;
pub mod report;
pub mod request;
pub mod resource;
pub mod rng;
pub mod run;
pub mod scenario;
pub mod shared_map;
pub mod shared_set;
pub mod shared_vec;
pub mod time;
pub mod token;
pub mod worker;
pub mod world;

pub use action::{Action, MsgSel};
pub use event::{Event, EventKind, Metrics};
pub use invariant::{Milestone, Violation, ViolationKind};
pub use name::Name;
pub use request::{Fate, Op, Outcome, Reason};
pub use resource::Policy;
pub use run::Run;
pub use scenario::Scenario;
pub use world::World;

//! What the app shows, computed from a [`Run`](crate::sim::Run): pure, deterministic and
//! native-testable. Nothing here knows about yew, web-sys or the browser; `src/ui/` renders
//! these values and dispatches [`state::Msg`]s, and that is all it does.
//!
//! - [`state`]: the app's state machine (`AppState`, `Msg`); every change of the app is a
//!   method here, delegating to `Run`.
//! - [`layout`]: the geometry of the space-time diagram, derived from a run's events and frames.
//! - [`inspect`]: the inspector's rows, with what the last step changed.
//! - [`log`]: the event log's page: the newest lines up to the current step.
//! - [`lab`], [`plot`]: the lease-duration lab's panel state and its charts (geometry, SVG).
//! - [`branches`]: the ways a run went: kept when the user forks it, as a tree.
//! - [`compare`]: the current run under a second receiver choice, aligned, and where they part.
//! - [`explore`]: the explorer panel's session (its search runs in a Web Worker) and its report's rows.
//! - [`search`]: the message protocol with the explorer's Web Worker, and the loop it runs.
//! - [`embed`]: the options of embed mode (`?embed&preset=…`).
//! - [`file`]: a run as a scenario file (Export JSON / Import JSON).
//! - [`svg`]: the timeline as a standalone SVG document (export, `fencing-lab render`).
//! - [`narrate`]: what the narration says of a step, computed from the run: the decision a
//!   resource took and what it means under the chosen policy, and what a user's step caused.
//! - [`text`]: accessible names and short descriptions shared by the components.

pub mod branches;
pub mod compare;
pub mod embed;
pub mod explore;
pub mod file;
pub mod inspect;
pub mod lab;
pub mod layout;
pub mod log;
pub mod narrate;
pub mod plot;
pub mod predict;
pub mod search;
pub mod state;
pub mod svg;
pub mod text;

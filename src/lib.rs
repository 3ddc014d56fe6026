//! Fencing Lab: a deterministic model of leases and fencing tokens, and the app that draws it.
//!
//! - [`sim`]: the pure model (no browser, no clock, no OS randomness).
//! - [`presets`]: the scenarios the app and the docs refer to, as data.
//! - `cli` (native) and `ui` (WASM): two front ends over the same model.

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod link;
pub mod presets;
/// The model, a crate of its own (src/sim/Cargo.toml), named here as it always was.
pub use fencing_sim as sim;
#[cfg(target_arch = "wasm32")]
pub mod ui;
pub mod view;

//! Fencing Lab: a deterministic model of leases and fencing tokens, and the app that draws it.
//!
//! - [`sim`]: the pure model (no browser, no clock, no OS randomness).
//! - [`presets`]: the scenarios the app and the docs refer to, as data.
//! - `cli` (native) and `ui` (WASM): two front ends over the same model.

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod link;
pub mod presets;
pub mod sim;
#[cfg(target_arch = "wasm32")]
pub mod ui;
pub mod view;

//! Fencing Lab: a deterministic model of leases and fencing tokens, and the app that draws it.
pub mod presets;
pub mod sim;

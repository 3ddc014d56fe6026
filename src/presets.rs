//! The preset scenarios, as data: one JSON scenario file each (presets/), embedded at build
//! time without the layout between tokens (build.rs).
//! Their ids are fixed: the app, the docs and the tests refer to them.

use crate::sim::Scenario;

/// (id, file contents), in the order the scenario picker shows them.
const FILES: &[(&str, &str)] = &[
    (
        "happy-takeover",
        include_str!(concat!(env!("OUT_DIR"), "/presets/happy-takeover.json")),
    ),
    (
        "paused-writer",
        include_str!(concat!(env!("OUT_DIR"), "/presets/paused-writer.json")),
    ),
    (
        "delayed-before-new",
        include_str!(concat!(env!("OUT_DIR"), "/presets/delayed-before-new.json")),
    ),
    (
        "renewal-failure",
        include_str!(concat!(env!("OUT_DIR"), "/presets/renewal-failure.json")),
    ),
    (
        "clock-drift-expiry",
        include_str!(concat!(env!("OUT_DIR"), "/presets/clock-drift-expiry.json")),
    ),
    (
        "same-owner-repeats",
        include_str!(concat!(env!("OUT_DIR"), "/presets/same-owner-repeats.json")),
    ),
    (
        "omitted-token",
        include_str!(concat!(env!("OUT_DIR"), "/presets/omitted-token.json")),
    ),
    (
        "check-then-write-race",
        include_str!(concat!(
            env!("OUT_DIR"),
            "/presets/check-then-write-race.json"
        )),
    ),
    (
        "retry-double-debit",
        include_str!(concat!(env!("OUT_DIR"), "/presets/retry-double-debit.json")),
    ),
    (
        "business-failure",
        include_str!(concat!(env!("OUT_DIR"), "/presets/business-failure.json")),
    ),
    (
        "wall-clock-tokens",
        include_str!(concat!(env!("OUT_DIR"), "/presets/wall-clock-tokens.json")),
    ),
    (
        "independent-counters",
        include_str!(concat!(
            env!("OUT_DIR"),
            "/presets/independent-counters.json"
        )),
    ),
    (
        "coordinator-restart",
        include_str!(concat!(
            env!("OUT_DIR"),
            "/presets/coordinator-restart.json"
        )),
    ),
    (
        "coordinator-restore",
        include_str!(concat!(
            env!("OUT_DIR"),
            "/presets/coordinator-restore.json"
        )),
    ),
    (
        "coordinator-restore-epoch",
        include_str!(concat!(
            env!("OUT_DIR"),
            "/presets/coordinator-restore-epoch.json"
        )),
    ),
    (
        "resource-restore",
        include_str!(concat!(env!("OUT_DIR"), "/presets/resource-restore.json")),
    ),
    (
        "cross-object-token",
        include_str!(concat!(env!("OUT_DIR"), "/presets/cross-object-token.json")),
    ),
    (
        "multi-object",
        include_str!(concat!(env!("OUT_DIR"), "/presets/multi-object.json")),
    ),
    (
        "unfenceable-email",
        include_str!(concat!(env!("OUT_DIR"), "/presets/unfenceable-email.json")),
    ),
    (
        "outbox",
        include_str!(concat!(env!("OUT_DIR"), "/presets/outbox.json")),
    ),
    (
        "idempotency-key-api",
        include_str!(concat!(
            env!("OUT_DIR"),
            "/presets/idempotency-key-api.json"
        )),
    ),
    (
        "immutable-thumbnail",
        include_str!(concat!(
            env!("OUT_DIR"),
            "/presets/immutable-thumbnail.json"
        )),
    ),
    (
        "lease-duration-tradeoff",
        include_str!(concat!(
            env!("OUT_DIR"),
            "/presets/lease-duration-tradeoff.json"
        )),
    ),
    (
        "chubby-lock-delay",
        include_str!(concat!(env!("OUT_DIR"), "/presets/chubby-lock-delay.json")),
    ),
    (
        "stripe-idempotency",
        include_str!(concat!(env!("OUT_DIR"), "/presets/stripe-idempotency.json")),
    ),
    (
        "redlock-random-value",
        include_str!(concat!(
            env!("OUT_DIR"),
            "/presets/redlock-random-value.json"
        )),
    ),
    (
        "kafka-producer-epoch",
        include_str!(concat!(
            env!("OUT_DIR"),
            "/presets/kafka-producer-epoch.json"
        )),
    ),
    (
        "redis-incr-token",
        include_str!(concat!(env!("OUT_DIR"), "/presets/redis-incr-token.json")),
    ),
    (
        "sandbox",
        include_str!(concat!(env!("OUT_DIR"), "/presets/sandbox.json")),
    ),
];

pub fn ids() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(id, _)| *id)
}

/// Parse one preset. Presets are checked by the test suite, so a failure here is a build defect.
pub fn get(id: &str) -> Option<Scenario> {
    let (_, text) = FILES.iter().find(|(i, _)| *i == id)?;
    Some(Scenario::from_json(text).unwrap_or_else(|e| panic!("preset {id} is invalid: {e}")))
}

/// The file text of one preset, as embedded (the web app parses it without path tracking,
/// which keeps the WASM smaller; the test suite checks every preset with `get`).
pub fn source(id: &str) -> Option<&'static str> {
    FILES.iter().find(|(i, _)| *i == id).map(|(_, text)| *text)
}

pub fn all() -> Vec<Scenario> {
    ids().filter_map(get).collect()
}

//! The preset scenarios, as data: one JSON scenario file each (presets/), embedded at build
//! time without the layout between tokens (build.rs).
//! Their ids are fixed: the app, the docs and the tests refer to them.
//!
//! The page embeds only the scenario it opens with and the sandbox: the other files are
//! fetched when first opened (`provide`, from `ui::hooks::use_preset_loader`), as 26 files
//! embedded were a tenth of its first load. Its picker lists them all from the `CATALOG`
//! that build.rs writes. Native builds (the command line, the tests) embed every file.

use crate::sim::Scenario;

/// A preset as the picker lists it, before its file is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub id: &'static str,
    pub title: &'static str,
    pub theme: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/catalog.rs"));

/// The ids, in the order the scenario picker shows them.
const ORDER: &[&str] = &[
    "happy-takeover",
    "paused-writer",
    "delayed-before-new",
    "renewal-failure",
    "clock-drift-expiry",
    "same-owner-repeats",
    "omitted-token",
    "check-then-write-race",
    "retry-double-debit",
    "business-failure",
    "wall-clock-tokens",
    "independent-counters",
    "coordinator-restart",
    "coordinator-restore",
    "coordinator-restore-epoch",
    "resource-restore",
    "cross-object-token",
    "multi-object",
    "unfenceable-email",
    "outbox",
    "idempotency-key-api",
    "immutable-thumbnail",
    "lease-duration-tradeoff",
    "chubby-lock-delay",
    "stripe-idempotency",
    "redlock-random-value",
    "kafka-producer-epoch",
    "redis-incr-token",
    "sandbox",
];

/// (id, the file as build.rs wrote it).
macro_rules! file {
    ($id:literal) => {
        (
            $id,
            include_str!(concat!(env!("OUT_DIR"), "/presets/", $id, ".json")),
        )
    };
}

/// The presets in the page's first load, named once: their ids, and in the page their files.
macro_rules! first_load {
    ($($id:literal),*) => {
        /// The presets in the page's first load: the one it opens with and the sandbox.
        pub const IN_FIRST_LOAD: &[&str] = &[$($id),*];

        #[cfg(target_arch = "wasm32")]
        const FILES: &[(&str, &str)] = &[$(file!($id)),*];
    };
}

first_load!("paused-writer", "sandbox");

#[cfg(not(target_arch = "wasm32"))]
const FILES: &[(&str, &str)] = &[
    file!("happy-takeover"),
    file!("paused-writer"),
    file!("delayed-before-new"),
    file!("renewal-failure"),
    file!("clock-drift-expiry"),
    file!("same-owner-repeats"),
    file!("omitted-token"),
    file!("check-then-write-race"),
    file!("retry-double-debit"),
    file!("business-failure"),
    file!("wall-clock-tokens"),
    file!("independent-counters"),
    file!("coordinator-restart"),
    file!("coordinator-restore"),
    file!("coordinator-restore-epoch"),
    file!("resource-restore"),
    file!("cross-object-token"),
    file!("multi-object"),
    file!("unfenceable-email"),
    file!("outbox"),
    file!("idempotency-key-api"),
    file!("immutable-thumbnail"),
    file!("lease-duration-tradeoff"),
    file!("chubby-lock-delay"),
    file!("stripe-idempotency"),
    file!("redlock-random-value"),
    file!("kafka-producer-epoch"),
    file!("redis-incr-token"),
    file!("sandbox"),
];

thread_local! {
    /// The files fetched since the page loaded: like the embedded ones, a file of this
    /// version, never changed once here (leaked: at most one per preset).
    static FETCHED: std::cell::RefCell<Vec<(&'static str, &'static str)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

#[cfg(test)]
thread_local! {
    /// This test thread sees only the page's embedded files (`as_in_the_page`).
    static AS_IN_THE_PAGE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// For a unit test of loading on demand: from now on, this thread has only the files the
/// page embeds, plus those it is given with `provide`.
#[cfg(test)]
pub fn as_in_the_page() {
    AS_IN_THE_PAGE.with(|a| a.set(true));
}

/// Keep a fetched preset file (a preset id of the catalog; anything else is ignored).
pub fn provide(id: &str, text: String) {
    let Some(id) = ORDER.iter().copied().find(|i| *i == id) else {
        return;
    };
    if source(id).is_none() {
        let text: &'static str = Box::leak(text.into_boxed_str());
        FETCHED.with(|f| f.borrow_mut().push((id, text)));
    }
}

/// Whether `id` names a preset of this version (its file here or not).
pub fn listed(id: &str) -> bool {
    ORDER.contains(&id)
}

/// The picker's entry of a preset.
pub fn entry(id: &str) -> Option<&'static Entry> {
    CATALOG.iter().find(|e| e.id == id)
}

pub fn ids() -> impl Iterator<Item = &'static str> {
    ORDER.iter().copied()
}

/// Parse one preset. Presets are checked by the test suite, so a failure here is a build defect.
pub fn get(id: &str) -> Option<Scenario> {
    let text = source(id)?;
    Some(Scenario::from_json(text).unwrap_or_else(|e| panic!("preset {id} is invalid: {e}")))
}

/// The file text of one preset, as embedded or fetched (the web app parses it without path
/// tracking, which keeps the WASM smaller; the test suite checks every preset with `get`).
/// `None` for an id that is not a preset, or (in the page) one not fetched yet.
pub fn source(id: &str) -> Option<&'static str> {
    let embedded = FILES.iter().find(|(i, _)| *i == id).map(|(_, text)| *text);
    #[cfg(test)]
    let embedded =
        embedded.filter(|_| !AS_IN_THE_PAGE.with(|a| a.get()) || IN_FIRST_LOAD.contains(&id));
    embedded
        .or_else(|| FETCHED.with(|f| f.borrow().iter().find(|(i, _)| *i == id).map(|(_, t)| *t)))
}

/// Every preset this build has the file of (natively, every one).
pub fn all() -> Vec<Scenario> {
    ids().filter_map(get).collect()
}

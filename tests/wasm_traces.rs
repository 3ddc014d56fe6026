//! The browser build tells the same story as the native one: every preset's event log under
//! every choice, run in WebAssembly in headless Chromium, matches the fixture the native
//! build is checked against (tests/traces.rs), byte count and digest.
//!
//! Run: `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test wasm_traces`
#![cfg(target_arch = "wasm32")]

#[path = "support/traces.rs"]
mod support;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn every_presets_log_in_the_browser_matches_the_native_one() {
    let got = support::traces();
    assert_eq!(got.len(), support::FIXTURE.lines().count());
    let diff = support::differences(&got);
    assert!(
        diff.is_empty(),
        "the browser's logs differ:\n{}",
        diff.join("\n")
    );
}

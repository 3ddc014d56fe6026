//! The native build's event logs match tests/fixtures/traces.txt, which the browser build
//! is held to as well (tests/wasm_traces.rs). After a change to the model that is meant to
//! change a log, look at the difference and rewrite the file with
//! `BLESS=1 cargo test --test traces`.

#[path = "support/traces.rs"]
mod support;

#[test]
fn every_presets_log_matches_the_fixture_both_builds_are_held_to() {
    let got = support::traces();
    if std::env::var_os("BLESS").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/traces.txt");
        std::fs::write(path, got.join("\n") + "\n").expect("the fixture is written");
        return;
    }
    assert!(
        got.len() > 60,
        "every preset under every choice: {}",
        got.len()
    );
    let diff = support::differences(&got);
    assert!(
        diff.is_empty(),
        "the logs differ from tests/fixtures/traces.txt (BLESS=1 rewrites it once the change is meant):\n{}",
        diff.join("\n")
    );
}

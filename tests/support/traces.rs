//! Every preset's event log under every choice the policy picker offers, run the way the
//! page runs it (`AppState`: load the preset, choose, go to the end), one line each:
//! `preset choice bytes digest`, where bytes and digest are of the log as JSON. The native
//! build checks it against tests/fixtures/traces.txt (tests/traces.rs) and the browser build
//! against the same file (tests/wasm_traces.rs), so the two builds tell the same story.

use fencing_lab::sim::hash::FxHasher;
use fencing_lab::view::state::{load_presets, AppState, Choice, Msg};
use fencing_lab::view::text::policy_options;
use std::hash::Hasher;

pub const FIXTURE: &str = include_str!("../fixtures/traces.txt");

pub fn traces() -> Vec<String> {
    // The page's build embeds two presets and fetches the rest; here they are given.
    #[cfg(target_arch = "wasm32")]
    {
        let all: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/all_presets.rs"));
        for (id, text) in all {
            fencing_lab::presets::provide(id, text.to_string());
        }
    }
    let presets = load_presets();
    assert_eq!(
        presets.len(),
        fencing_lab::presets::ids().count(),
        "every preset is here"
    );
    let mut app = AppState::new(presets.clone());
    let mut lines = Vec::new();
    for s in &presets {
        let o = policy_options(s);
        for (value, _) in o.variants.iter().chain(&o.plain) {
            let choice = Choice::parse(s, value).expect("the picker offers what parses");
            app.apply(Msg::LoadId(s.id.clone()));
            app.apply(Msg::Choose(choice));
            app.apply(Msg::ToEnd);
            let events: Vec<_> = app.run.events().collect();
            let log = serde_json::to_string(&events).expect("events serialise");
            let mut h = FxHasher::default();
            h.write(log.as_bytes());
            lines.push(format!(
                "{} {value} {} {:016x}",
                s.id,
                log.len(),
                h.finish()
            ));
        }
    }
    lines
}

/// The lines of the fixture that differ from `got`, for a readable failure.
pub fn differences(got: &[String]) -> Vec<String> {
    let want: Vec<&str> = FIXTURE.lines().collect();
    let mut out: Vec<String> = got
        .iter()
        .filter(|g| !want.contains(&g.as_str()))
        .map(|g| format!("built:   {g}"))
        .collect();
    out.extend(
        want.iter()
            .filter(|w| !got.iter().any(|g| g == *w))
            .map(|w| format!("fixture: {w}")),
    );
    out
}

//! The explorer in the page gives the command line's figures: the panel's request
//! (`view::explore::request`, as the page sends it to its worker) served by the worker's loop
//! (`view::search::serve`, as the worker runs it) gives the same states, distinct and terminal
//! states, completeness and verdicts as `sim::explore::explore` natively, for presets loaded as
//! the page's Scenario picker loads them (their default receiver choice) under the panel's
//! bounds. `tests/fixtures/explore-page.json` records those figures; `e2e/explore.spec.js`
//! reads the same file and holds the page in Chromium to it, so page = worker = native.
//! `UPDATE_FIXTURES=1 cargo test --test explore_page` writes the file again.

use fencing_lab::sim::explore::explore;
use fencing_lab::view::explore::{main_search, request};
use fencing_lab::view::search::{serve, Reply};
use fencing_lab::view::state::{load_presets, AppState, Msg};
use serde_json::{json, Value};

const PRESETS: [&str; 4] = [
    "paused-writer",
    "check-then-write-race",
    "coordinator-restart",
    "renewal-failure",
];

fn fixture_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/explore-page.json")
}

#[test]
fn the_worker_gives_the_command_lines_figures_as_the_fixture_records_them() {
    let mut rows = Vec::new();
    for id in PRESETS {
        let mut a = AppState::new(load_presets());
        a.apply(Msg::LoadId(id.into()));
        assert_eq!(a.current().id, id);
        let req = request(&a, main_search(&a));
        // The worker, in process.
        let mut t = 0.0;
        let mut last = None;
        serve(
            &req.encode(),
            &mut || {
                t += 1.0;
                t
            },
            &mut |text| last = Some(Reply::decode(&text).unwrap()),
        );
        let Some(Reply::Done { report: page }) = last else {
            panic!("{id}: the worker ended with {last:?}")
        };
        let native = explore(&req.scenario, req.variant.clone(), req.bounds.clone());
        assert_eq!(
            (
                page.states,
                page.distinct_states,
                page.terminal_states,
                page.complete,
                &page.invariants,
                &page.milestones
            ),
            (
                native.states,
                native.distinct_states,
                native.terminal_states,
                native.complete,
                &native.invariants,
                &native.milestones
            ),
            "{id}"
        );
        let broken: Vec<&str> = page
            .invariants
            .iter()
            .filter(|i| !i.held)
            .map(|i| i.kind.as_str())
            .collect();
        rows.push(json!({
            "id": id,
            "choice": a.choice.value(),
            "states": page.states,
            "distinct": page.distinct_states,
            "terminal": page.terminal_states,
            "complete": page.complete,
            "broken": broken,
        }));
    }
    let now = json!({
        "about": "The explorer panel's figures per preset, under the choice the Scenario picker loads it with and the panel's bounds; checked natively by tests/explore_page.rs, in the page by e2e/explore.spec.js.",
        "presets": rows,
    });
    let path = fixture_path();
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(&path, serde_json::to_string_pretty(&now).unwrap() + "\n").unwrap();
    }
    let recorded: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("the fixture")).unwrap();
    assert_eq!(
        recorded, now,
        "tests/fixtures/explore-page.json is out of date: UPDATE_FIXTURES=1 cargo test --test explore_page"
    );
}

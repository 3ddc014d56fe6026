//! The explorer's verdicts: for the small presets, every reachable state under default
//! bounds, and the invariants that must (and must not) break under each variant.

use fencing_lab::presets;
use fencing_lab::sim::explore::{explore, Bounds, ExploreReport};
use fencing_lab::sim::{Action, Run};

fn check(id: &str, variant: &str) -> ExploreReport {
    let s = presets::get(id).expect("preset");
    let v = s.variant(variant).expect("variant");
    let sv = s.with_variant(v);
    explore(&sv, Some(v.name.clone()), Bounds::for_scenario(&sv))
}

fn broken(r: &ExploreReport) -> Vec<&str> {
    r.invariants
        .iter()
        .filter(|i| !i.held)
        .map(|i| i.kind.as_str())
        .collect()
}

#[test]
fn verdicts_per_preset_and_variant() {
    // (preset, variant, invariants broken somewhere in the bounded state space)
    let table: &[(&str, &str, &[&str])] = &[
        ("paused-writer", "highest-seen", &["superseded_write"]),
        (
            "paused-writer",
            "unfenced",
            &["stale_overwrite", "superseded_write"],
        ),
        ("delayed-before-new", "highest-seen", &["superseded_write"]),
        ("delayed-before-new", "fence-on-acquire", &[]),
        ("same-owner-repeats", "highest-seen", &[]),
        ("same-owner-repeats", "strict", &["owner_locked_out"]),
        ("omitted-token", "require-token", &["superseded_write"]),
        (
            "omitted-token",
            "token-optional",
            &["stale_overwrite", "superseded_write"],
        ),
        ("retry-double-debit", "no-dedup", &["double_execution"]),
        ("retry-double-debit", "dedup", &[]),
        ("unfenceable-email", "highest-seen", &["double_execution"]),
        ("unfenceable-email", "provider-idempotency", &[]),
        ("idempotency-key-api", "idempotency-key", &[]),
        ("idempotency-key-api", "no-key", &["double_execution"]),
    ];
    let mut wrong = Vec::new();
    for (id, variant, want) in table {
        let r = check(id, variant);
        assert!(r.complete, "{id}/{variant} hit the state bound");
        if broken(&r) != *want {
            wrong.push(format!(
                "{id}/{variant}: broken {:?}, expected {want:?}",
                broken(&r)
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn the_shortest_stale_overwrite_of_the_paused_writer_is_pinned_and_replays() {
    let r = check("paused-writer", "unfenced");
    let inv = r
        .invariants
        .iter()
        .find(|i| i.kind == "stale_overwrite")
        .unwrap();
    let ce = inv.counterexample.clone().expect("a counterexample");
    let text: Vec<String> = ce.iter().map(Action::to_string).collect();
    assert_eq!(
        text,
        [
            "A acquires",
            "B acquires",
            "advance 1 tick",
            "advance 1 tick",
            "A prepares “A's report” for report",
            "A pauses",
            "advance 9 ticks",
            "deliver #5",
            "B writes “B's report” to report",
            "A resumes",
            "advance 1 tick",
        ]
    );
    // The counterexample loads as a normal run and shows the violation.
    let s = presets::get("paused-writer").unwrap();
    let mut run = Run::new(&s, s.variant("unfenced"));
    for a in ce {
        run.act(a).expect("counterexample replays");
    }
    assert!(run
        .world()
        .ghost
        .violations
        .iter()
        .any(|v| v.kind.as_str() == "stale_overwrite"));
}

#[test]
fn the_explorer_is_not_vacuous_and_reports_its_size() {
    let r = check("paused-writer", "highest-seen");
    assert!(r.distinct_states > 1000 && r.terminal_states > 0 && r.states >= r.distinct_states);
    assert!(
        broken(&r).iter().all(|k| *k != "stale_overwrite"),
        "highest-seen never overwrites stale"
    );
}

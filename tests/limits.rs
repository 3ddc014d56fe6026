//! The work budget (issue 33): inputs within every documented range that once filled memory
//! (64 workers renewing every tick for 30,000 ticks: 1 GB and an abort; one renewing for a
//! million ticks: 1.09 GB) are refused with the budget named, quickly and within a few MB,
//! by the CLI, a link and the app alike; and the run the user had is kept.

use fencing_lab::link::Link;
use fencing_lab::sim::run::MAX_RUN_EVENTS;
use fencing_lab::sim::world::MAX_STEP_EVENTS;
use fencing_lab::sim::{Action, Run, Scenario};
use fencing_lab::view::state::{load_presets, AppState, Msg};
use serde_json::json;

/// `workers` workers, each with a lock of its own and renewing every tick, acquire in step
/// 1; then `steps` steps of `ticks` ticks each.
fn renewers(workers: usize, steps: usize, ticks: u64) -> Scenario {
    let w: Vec<_> = (0..workers)
        .map(|i| json!({ "name": format!("W{i}"), "lock": format!("L{i}"), "renew_every": 1 }))
        .collect();
    let l: Vec<_> = (0..workers)
        .map(|i| json!({ "name": format!("L{i}"), "ttl": 10 }))
        .collect();
    let acquire: Vec<_> = (0..workers)
        .map(|i| json!({ "do": "acquire", "worker": format!("W{i}") }))
        .collect();
    let mut script = vec![json!({ "say": "All acquire.", "do": acquire })];
    for _ in 0..steps {
        script.push(json!({ "say": "Time passes.", "do": [{ "do": "advance", "ticks": ticks }] }));
    }
    let s = json!({
        "version": 1, "id": "renewers", "title": "Renewers",
        "locks": l, "workers": w,
        "resources": [{ "name": "store", "kind": { "store": { "value": "empty" } } }],
        "script": script
    });
    Scenario::from_json(&s.to_string()).expect("every number is in range")
}

#[test]
fn a_step_that_would_record_too_many_events_is_refused_and_the_run_kept() {
    // The repro: 64 renewing workers, 30,000 ticks in one step.
    let s = renewers(64, 1, 30_000);
    let mut run = Run::new(&s, None);
    assert!(run.step_forward().unwrap());
    let before = run.clone();
    let e = run.step_forward().unwrap_err().to_string();
    assert!(
        e.contains(&format!("more than {MAX_STEP_EVENTS} events")),
        "{e}"
    );
    assert_eq!(run, before, "the step is not taken");
    // The same time in steps small enough: each is taken.
    let s = renewers(1, 3, 1_000);
    let mut run = Run::new(&s, None);
    run.run_script().unwrap();
    assert_eq!(run.len(), 4);
}

#[test]
fn a_run_that_would_hold_too_many_events_is_refused_at_the_step_that_passes_it() {
    // One renewer, steps of 5,000 ticks: each well within a step's budget, together past a run's.
    let s = renewers(1, 160, 5_000);
    let mut run = Run::new(&s, None);
    let e = run.run_script().unwrap_err().to_string();
    assert!(
        e.contains(&format!("more than the {MAX_RUN_EVENTS} a run may keep")),
        "{e}"
    );
    assert!(run.event_count() <= MAX_RUN_EVENTS);
    assert!(run.len() >= 2, "the steps within the budget are kept");
}

#[test]
fn the_page_refuses_such_a_run_by_import_and_by_link_and_keeps_what_it_had() {
    let s = renewers(64, 1, 30_000);
    let mut a = AppState::new(load_presets());
    a.apply(Msg::Import(serde_json::to_string(&s).unwrap()));
    assert!(
        a.file_status.as_ref().unwrap().ok,
        "the file itself is valid"
    );
    a.apply(Msg::ToEnd);
    let e = a.error.clone().expect("refused in words");
    assert!(
        e.contains(&format!("more than {MAX_STEP_EVENTS} events")),
        "{e}"
    );
    assert_eq!(
        a.run.cursor(),
        1,
        "the run stays at its last step within the budget"
    );

    // A link to its end: refused when opened, and the view kept.
    let mut run = Run::new(&s, None);
    run.step_forward().unwrap();
    let link = Link::of(
        &run,
        fencing_lab::link::ScenarioRef::Inline(Box::new(s.clone())),
        None,
        None,
    );
    let mut long = link.clone();
    long.script_steps = 2;
    long.cursor = 2;
    let mut b = AppState::new(load_presets());
    let shown = b.run.clone();
    b.apply(Msg::OpenLink(long.encode()));
    let e = b.error.clone().expect("refused in words");
    assert!(
        e.contains(&format!("more than {MAX_STEP_EVENTS} events")),
        "{e}"
    );
    assert_eq!(b.run, shown);
    // Acting past the budget in the sandbox is refused the same way.
    b.apply(Msg::OpenLink(link.encode()));
    assert_eq!(b.error, None);
    b.apply(Msg::Act(Action::Advance { ticks: 30_000 }));
    assert!(b
        .error
        .clone()
        .unwrap()
        .contains(&format!("more than {MAX_STEP_EVENTS} events")));
    assert_eq!(b.run.cursor(), 1);
}

#[test]
fn the_branches_not_shown_are_let_go_past_their_events_budget() {
    use fencing_lab::view::branches::{Branches, MAX_KEPT_EVENTS};
    // One renewer: about 60,000 events in twelve steps of 5,000 ticks.
    let s = renewers(1, 12, 5_000);
    let mut run = Run::new(&s, None);
    run.run_script().unwrap();
    let mut b = Branches::default();
    let mut dropped = Vec::new();
    for k in 0..6 {
        let left = run.clone();
        run.seek(1);
        run.act(Action::Advance { ticks: k + 1 }).unwrap();
        for _ in 0..12 {
            run.act(Action::Advance { ticks: 5_000 }).unwrap();
        }
        dropped.extend(b.fork(left).dropped);
        let kept: usize = b
            .others()
            .map(|(_, r)| r.events_end(r.len()).unwrap())
            .sum();
        assert!(kept <= MAX_KEPT_EVENTS, "fork {k}: {kept} events kept");
    }
    assert!(!dropped.is_empty(), "six heavy branches do not all fit");
    assert_eq!(dropped[0], 1, "the oldest goes first");
    assert!(b.others().count() >= 2, "as many as fit are kept");
}

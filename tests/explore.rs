//! The explorer's verdicts: for every preset and variant, every reachable state under default
//! bounds, and the invariants that must (and must not) break there; the shortest
//! counterexamples pinned as exact action lists.

use fencing_lab::presets;
use fencing_lab::sim::explore::{explore, Bounds, ExploreReport, Explorer};
use fencing_lab::sim::Policy;
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

/// The explorer's verdict for every preset and variant: explored completely or not, and which
/// invariants break somewhere in the bounded state space. A change to the model, a preset
/// or the explorer that changes what can go wrong shows up here.
const VERDICTS: &[(&str, &str, bool, &[&str])] = &[
    // (preset, variant, explored completely?, invariants broken somewhere in the state space)
    // Under default bounds (`Bounds::for_scenario`). `superseded_write` breaks under
    // highest-seen by design: the old holder's request may land before the new owner's
    // first write (the essay's weak boundary); fence-on-acquire closes it.
    (
        "happy-takeover",
        "highest-seen",
        true,
        &["superseded_write"],
    ),
    (
        "happy-takeover",
        "unfenced",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    ("paused-writer", "highest-seen", true, &["superseded_write"]),
    (
        "paused-writer",
        "unfenced",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "delayed-before-new",
        "highest-seen",
        true,
        &["superseded_write"],
    ),
    ("delayed-before-new", "fence-on-acquire", true, &[]),
    (
        "renewal-failure",
        "highest-seen",
        false,
        &["superseded_write"],
    ),
    (
        "renewal-failure",
        "unfenced",
        false,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "clock-drift-expiry",
        "highest-seen",
        true,
        &["superseded_write"],
    ),
    (
        "clock-drift-expiry",
        "unfenced",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    ("same-owner-repeats", "highest-seen", true, &[]),
    ("same-owner-repeats", "strict", true, &["owner_locked_out"]),
    (
        "omitted-token",
        "require-token",
        true,
        &["superseded_write"],
    ),
    (
        "omitted-token",
        "token-optional",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "check-then-write-race",
        "check-then-write",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "check-then-write-race",
        "highest-seen",
        true,
        &["superseded_write"],
    ),
    (
        "retry-double-debit",
        "no-dedup",
        true,
        &["double_execution"],
    ),
    ("retry-double-debit", "dedup", true, &[]),
    (
        "business-failure",
        "highest-seen",
        true,
        &["superseded_write"],
    ),
    (
        "business-failure",
        "unfenced",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "wall-clock-tokens",
        "wall-clock",
        true,
        &["stale_overwrite", "superseded_write", "owner_locked_out"],
    ),
    (
        "wall-clock-tokens",
        "wall-clock-strict",
        true,
        &["stale_overwrite", "superseded_write", "owner_locked_out"],
    ),
    ("wall-clock-tokens", "counter", true, &["superseded_write"]),
    (
        "independent-counters",
        "independent-counters",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "independent-counters",
        "independent-strict",
        true,
        &["superseded_write", "owner_locked_out"],
    ),
    (
        "independent-counters",
        "consistent-counter",
        true,
        &["superseded_write"],
    ),
    (
        "coordinator-restart",
        "persisted",
        true,
        &["superseded_write"],
    ),
    (
        "coordinator-restart",
        "not-persisted",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "coordinator-restart",
        "not-persisted-epoch",
        true,
        &["superseded_write"],
    ),
    (
        "coordinator-restore",
        "counter",
        false,
        &["stale_overwrite", "superseded_write"],
    ),
    ("coordinator-restore", "epoch", false, &["superseded_write"]),
    (
        "coordinator-restore-epoch",
        "epoch",
        false,
        &["superseded_write"],
    ),
    (
        "coordinator-restore-epoch",
        "counter",
        false,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "resource-restore",
        "highest-seen",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "resource-restore",
        "fence-on-acquire",
        false,
        // Within the bound only the superseded write; the whole space (1.5 M states, with
        // --max-states 3000000) also has the stale overwrite a restored highest token lets in.
        &["superseded_write"],
    ),
    ("cross-object-token", "bound-scope", false, &[]),
    (
        "cross-object-token",
        "bare-integer",
        false,
        &["stale_overwrite", "superseded_write", "owner_locked_out"],
    ),
    (
        "multi-object",
        "separate-writes",
        true,
        &["superseded_write", "inconsistent_objects"],
    ),
    ("multi-object", "transaction", true, &["superseded_write"]),
    // The checker judges the inbox by the true grant order too: the superseded holder's email
    // can land after the new owner's (stale) or before it (superseded), whatever the policy.
    // Provider idempotency stops the second copy, not the superseded sender's getting there first.
    (
        "unfenceable-email",
        "highest-seen",
        true,
        &["stale_overwrite", "superseded_write", "double_execution"],
    ),
    (
        "unfenceable-email",
        "strict",
        true,
        &["stale_overwrite", "superseded_write", "double_execution"],
    ),
    (
        "unfenceable-email",
        "fence-on-acquire",
        true,
        &["stale_overwrite", "superseded_write", "double_execution"],
    ),
    (
        "unfenceable-email",
        "provider-idempotency",
        true,
        &["superseded_write"],
    ),
    // The outbox fences the row, at highest-seen with its usual weak boundary: A's row
    // reaching it before B's commits, and the relay sends both, in either order. A restart of
    // the relay between sending and its answer sends a row again, which only the message id
    // keeps from being a second email.
    (
        "outbox",
        "outbox",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "outbox",
        "unfenced",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "outbox",
        "no-message-id",
        true,
        &["stale_overwrite", "superseded_write", "double_execution"],
    ),
    ("idempotency-key-api", "idempotency-key", true, &[]),
    ("idempotency-key-api", "no-key", true, &["double_execution"]),
    // Keyed by delivery order (tests/state_key.rs), the thumbnail's space is 630 k states:
    // past the bound, with these same verdicts when searched whole.
    (
        "immutable-thumbnail",
        "unfenced",
        false,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "immutable-thumbnail",
        "highest-seen",
        false,
        &["superseded_write", "inconsistent_objects"],
    ),
    ("lease-duration-tradeoff", "short-lease", true, &[]),
    ("lease-duration-tradeoff", "long-lease", true, &[]),
    // Lock-delay is a bet that a lost holder's requests land within it: the explorer holds
    // A's update past any delay. Only the sequencer check closes the overwrite.
    (
        "chubby-lock-delay",
        "no-delay",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "chubby-lock-delay",
        "delay-covers",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "chubby-lock-delay",
        "delay-too-short",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "chubby-lock-delay",
        "sequencer",
        true,
        &["superseded_write"],
    ),
    // A key forgotten before the retry runs it again; a key reused with other parameters
    // is refused, never run twice.
    ("stripe-idempotency", "stripe-keys", true, &[]),
    (
        "stripe-idempotency",
        "key-expired",
        true,
        &["double_execution"],
    ),
    ("stripe-idempotency", "no-key", true, &["double_execution"]),
    // Random values compared by size put grants in a random order; check-and-set by
    // equality refuses the paused holder, but a registration held in the network lands
    // after B's and replaces it (the explorer holds registrations at equal-token receivers).
    (
        "redlock-random-value",
        "compared-by-size",
        true,
        &["stale_overwrite", "superseded_write", "owner_locked_out"],
    ),
    (
        "redlock-random-value",
        "check-and-set",
        true,
        &["stale_overwrite", "superseded_write", "owner_locked_out"],
    ),
    (
        "redlock-random-value",
        "registered-by-size",
        true,
        &["superseded_write", "owner_locked_out"],
    ),
    (
        "redlock-random-value",
        "unfenced",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    // Every bump registered before anyone acts on it (Kafka's markers) fences both zombies;
    // a broker that learns epochs from produce requests alone misses the timeout's bump.
    ("kafka-producer-epoch", "kafka", true, &[]),
    (
        "kafka-producer-epoch",
        "requests-only",
        true,
        &["superseded_write"],
    ),
    (
        "kafka-producer-epoch",
        "no-epoch-check",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    // A failover to a replica that never saw the last grant hands its number out again: an
    // equal token passes at highest-seen, and strict locks the new holder out.
    (
        "redis-incr-token",
        "async-failover",
        true,
        &["stale_overwrite", "superseded_write"],
    ),
    (
        "redis-incr-token",
        "wait-for-replica",
        true,
        &["superseded_write"],
    ),
    (
        "redis-incr-token",
        "each-token-once",
        true,
        &["superseded_write", "owner_locked_out"],
    ),
];

fn assert_pinned(id: &str) {
    let mut wrong = Vec::new();
    for (_, variant, complete, want) in VERDICTS.iter().filter(|row| row.0 == id) {
        let r = check(id, variant);
        if (r.complete, broken(&r)) != (*complete, want.to_vec()) {
            wrong.push(format!(
                "{id}/{variant}: complete {}, broken {:?}; pinned complete {complete}, broken {want:?}",
                r.complete,
                broken(&r)
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// One test per preset, so the harness explores them in parallel.
macro_rules! pinned {
    ($name:ident, $id:literal) => {
        #[test]
        fn $name() {
            assert_pinned($id);
        }
    };
}

pinned!(happy_takeover, "happy-takeover");
pinned!(paused_writer, "paused-writer");
pinned!(delayed_before_new, "delayed-before-new");
pinned!(renewal_failure, "renewal-failure");
pinned!(clock_drift_expiry, "clock-drift-expiry");
pinned!(same_owner_repeats, "same-owner-repeats");
pinned!(omitted_token, "omitted-token");
pinned!(check_then_write_race, "check-then-write-race");
pinned!(retry_double_debit, "retry-double-debit");
pinned!(business_failure, "business-failure");
pinned!(wall_clock_tokens, "wall-clock-tokens");
pinned!(independent_counters, "independent-counters");
pinned!(coordinator_restart, "coordinator-restart");
pinned!(coordinator_restore, "coordinator-restore");
pinned!(coordinator_restore_epoch, "coordinator-restore-epoch");
pinned!(resource_restore, "resource-restore");
pinned!(cross_object_token, "cross-object-token");
pinned!(multi_object, "multi-object");
pinned!(unfenceable_email, "unfenceable-email");
pinned!(outbox, "outbox");
pinned!(idempotency_key_api, "idempotency-key-api");
pinned!(immutable_thumbnail, "immutable-thumbnail");
pinned!(lease_duration_tradeoff, "lease-duration-tradeoff");
pinned!(chubby_lock_delay, "chubby-lock-delay");
pinned!(stripe_idempotency, "stripe-idempotency");
pinned!(redlock_random_value, "redlock-random-value");
pinned!(kafka_producer_epoch, "kafka-producer-epoch");
pinned!(redis_incr_token, "redis-incr-token");

#[test]
fn every_preset_and_variant_has_a_pinned_verdict() {
    for id in presets::ids().filter(|id| *id != "sandbox") {
        for v in presets::get(id).unwrap().variants {
            assert!(
                VERDICTS.iter().any(|row| row.0 == id && row.1 == v.name),
                "{id}/{}: no pinned verdict",
                v.name
            );
        }
    }
}

#[test]
fn the_shortest_stale_overwrite_of_the_paused_writer_is_pinned_and_replays() {
    let r = check("paused-writer", "unfenced");
    let inv = r
        .invariants
        .iter()
        .find(|i| i.kind.as_str() == "stale_overwrite")
        .unwrap();
    let ce = inv.counterexample.clone().expect("a counterexample");
    let text: Vec<String> = ce.iter().map(Action::to_string).collect();
    assert_eq!(
        text,
        [
            "A acquires",
            "deliver #1",
            "deliver #2",
            "A prepares “A's report” for report",
            "A pauses",
            "advance 10 ticks",
            "B acquires",
            "deliver #3",
            "deliver #4",
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
        .ghost()
        .violations
        .iter()
        .any(|v| v.kind.as_str() == "stale_overwrite"));
}

#[test]
fn the_shortest_counterexamples_of_the_essays_other_failures_are_pinned_and_replay() {
    let pinned: &[(&str, &str, &str, &[&str])] = &[
        // The weak boundary: A's delayed 41 lands after 42 was granted, before B writes.
        (
            "delayed-before-new",
            "highest-seen",
            "superseded_write",
            &[
                "A acquires",
                "deliver #1",
                "deliver #2",
                "A writes “A's report” to report",
                "hold #3",
                "advance 10 ticks",
                "B acquires",
                "deliver #4",
                "deliver #3",
            ],
        ),
        // A retried debit without an operation id is applied twice.
        (
            "retry-double-debit",
            "no-dedup",
            "double_execution",
            &[
                "A acquires",
                "deliver #1",
                "deliver #2",
                "A writes debit 30 to account",
                "A retries its last write",
                "advance 1 tick",
            ],
        ),
        // Strict `>` locks the holder out of its own second write.
        (
            "same-owner-repeats",
            "strict",
            "owner_locked_out",
            &[
                "A acquires",
                "deliver #1",
                "deliver #2",
                "A writes “A's first edit” to profile",
                "A writes “A's second edit” to profile",
                "advance 1 tick",
            ],
        ),
        // A destination that cannot fence sends the email twice, whatever the receiver policy.
        (
            "unfenceable-email",
            "fence-on-acquire",
            "double_execution",
            &[
                "A acquires",
                "deliver #1",
                "deliver #2",
                "A prepares “Your order 1001 has shipped” for customer-inbox",
                "A pauses",
                "advance 10 ticks",
                "B acquires",
                "deliver #3",
                "deliver #4",
                "B writes “Your order 1001 has shipped” to customer-inbox",
                "A resumes",
                "advance 1 tick",
            ],
        ),
    ];
    for (id, variant, kind, want) in pinned {
        let r = check(id, variant);
        let inv = r
            .invariants
            .iter()
            .find(|i| i.kind.as_str() == *kind)
            .unwrap();
        let ce = inv.counterexample.clone().expect("a counterexample");
        let text: Vec<String> = ce.iter().map(Action::to_string).collect();
        assert_eq!(text, *want, "{id}/{variant} {kind}");
        let s = presets::get(id).unwrap();
        let mut run = Run::new(&s, s.variant(variant));
        for a in ce {
            run.act(a).expect("counterexample replays");
        }
        assert!(
            run.world()
                .ghost()
                .violations
                .iter()
                .any(|v| v.kind.as_str() == *kind),
            "{id}/{variant}: the replay shows {kind}"
        );
    }
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

/// Explore from the current step of `run`, to the end.
fn explore_here(run: &Run, bounds: Bounds) -> ExploreReport {
    let mut e = Explorer::from_here(
        &run.scenario,
        run.variant.clone(),
        run.world().clone(),
        &run.script_to_come(),
        bounds,
    );
    while !e.run(10_000) {}
    e.report()
}

fn breaks(run: &Run, kind: &str) -> bool {
    run.world()
        .ghost()
        .violations
        .iter()
        .any(|v| v.kind.as_str() == kind)
}

#[test]
fn exploring_from_the_first_step_without_moves_is_exploring_from_the_start() {
    let s = presets::get("paused-writer").unwrap();
    let v = s.variant("unfenced");
    let run = Run::new(&s, v);
    let bounds = Bounds::for_scenario(&run.scenario);
    let here = explore_here(&run, bounds.clone());
    let start = explore(&run.scenario, run.variant.clone(), bounds);
    assert_eq!(
        (here.states, here.distinct_states, &here.invariants),
        (start.states, start.distinct_states, &start.invariants)
    );
}

#[test]
fn exploring_from_a_later_step_finds_what_is_still_possible_and_its_runs_replay() {
    // Paused writer, unfenced, after its first three script steps: the rest of the story
    // can still end in a stale overwrite.
    let s = presets::get("paused-writer").unwrap();
    let mut run = Run::new(&s, s.variant("unfenced"));
    for _ in 0..3 {
        assert!(run.step_forward().unwrap());
    }
    let bounds = Bounds::from_here(&run.scenario, run.world(), &run.script_to_come());
    assert_eq!(bounds.max_moves, 0, "the script goes on: it is the story");
    let r = explore_here(&run, bounds);
    assert!(r.complete, "{} distinct states", r.distinct_states);
    let inv = r
        .invariants
        .iter()
        .find(|i| i.kind.as_str() == "stale_overwrite")
        .unwrap();
    let tail = inv
        .counterexample
        .clone()
        .expect("still breakable from here");
    // The run so far, then the counterexample, replays from the start and breaks it.
    let (script_steps, mut actions) = run.branch_to_cursor();
    assert_eq!((script_steps, actions.len()), (3, 0));
    actions.extend(tail);
    let base = presets::get("paused-writer").unwrap();
    let replayed = Run::replay(&base, base.variant("unfenced"), script_steps, &actions)
        .unwrap_or_else(|r| panic!("{}", r.what));
    assert!(breaks(&replayed, "stale_overwrite"));
}

#[test]
fn a_sandbox_session_explores_what_its_buttons_allow() {
    // The blank sandbox has no script: the workers' own moves are the story.
    let s = presets::get("sandbox").unwrap();
    let blank = Run::new(&s, None);
    let r = explore_here(&blank, Bounds::from_here(&s, blank.world(), &[]));
    assert!(
        r.complete && r.distinct_states > 1_000,
        "{}",
        r.distinct_states
    );
    // Once A holds the lock, three moves (A writes, B acquires, B writes) and a held message
    // make the paused writer: a stale overwrite without fencing, none under highest-seen.
    for (policy, stale_possible) in [(Policy::Unfenced, true), (Policy::HighestSeen, false)] {
        let mut sc = s.clone();
        sc.policy = policy;
        let mut run = Run::new(&sc, None);
        let acquire = Action::Acquire {
            worker: "A".into(),
            lock: None,
        };
        run.act(acquire).unwrap();
        run.act(Action::Advance { ticks: 2 }).unwrap();
        assert!(run.world().worker("A").unwrap().holds_any());
        let bounds = Bounds::from_here(&sc, run.world(), &run.script_to_come());
        let r = explore_here(&run, bounds);
        assert!(r.complete, "{policy:?}: {} distinct", r.distinct_states);
        let stale = r
            .invariants
            .iter()
            .find(|i| i.kind.as_str() == "stale_overwrite")
            .unwrap();
        assert_eq!(!stale.held, stale_possible, "{policy:?}");
        if let Some(tail) = &stale.counterexample {
            let (steps, mut actions) = run.branch_to_cursor();
            actions.extend(tail.iter().cloned());
            let replayed =
                Run::replay(&sc, None, steps, &actions).unwrap_or_else(|r| panic!("{}", r.what));
            assert!(breaks(&replayed, "stale_overwrite"));
        }
    }
}

#[test]
fn milestones_say_what_the_search_got_to_and_their_runs_replay() {
    let s = presets::get("paused-writer").unwrap();
    let sv = s.with_variant(s.variant("highest-seen").unwrap());
    let r = explore(&sv, None, Bounds::for_scenario(&sv));
    let reached: Vec<&str> = r
        .milestones
        .iter()
        .filter(|m| m.reached)
        .map(|m| m.kind.as_str())
        .collect();
    assert_eq!(reached, ["write_applied", "granted_again", "stale_refused"]);
    // The shortest run to a stale refusal ends with one.
    let stale = &r.milestones[2];
    let run = Run::replay(
        &s,
        s.variant("highest-seen"),
        0,
        stale.witness.as_ref().unwrap(),
    )
    .unwrap_or_else(|r| panic!("{}", r.what));
    assert!(run.world().ghost().stale_refused);
    let refused_stale = |e: &fencing_lab::sim::Event| {
        matches!(
            e.kind,
            fencing_lab::sim::EventKind::WriteRejected {
                reason: fencing_lab::sim::Reason::Stale,
                ..
            }
        )
    };
    assert!(run.last_step_events().iter().any(refused_stale));
    assert!(!run
        .events()
        .take(run.event_count() - run.last_step_events().len())
        .any(refused_stale));
    // Bounds too tight for the story: nothing breaks, and the milestones say why that means
    // nothing.
    let tight = Bounds {
        max_depth: 4,
        ..Bounds::for_scenario(&sv)
    };
    let r = explore(&sv, None, tight);
    assert!(r.complete && r.invariants.iter().all(|i| i.held));
    assert!(r
        .milestones
        .iter()
        .all(|m| !m.reached && m.witness.is_none()));
}

#[test]
fn a_search_from_after_a_violation_says_it_is_broken_already() {
    // Paused writer, unfenced, played to its end: the stale overwrite has happened. A search
    // from here must not call that property held because no *new* run breaks it again.
    let s = presets::get("paused-writer").unwrap();
    let mut run = Run::new(&s, s.variant("unfenced"));
    while run.step_forward().unwrap() {}
    assert!(breaks(&run, "stale_overwrite"));
    let r = explore_here(
        &run,
        Bounds::from_here(&run.scenario, run.world(), &run.script_to_come()),
    );
    let stale = r
        .invariants
        .iter()
        .find(|i| i.kind.as_str() == "stale_overwrite")
        .unwrap();
    assert!(!stale.held);
    assert_eq!(stale.counterexample.as_deref(), Some(&[][..]));
    let row = fencing_lab::view::explore::invariant_rows(&r)
        .into_iter()
        .find(|row| row.kind.as_str() == "stale_overwrite")
        .unwrap();
    assert_eq!(
        (row.verdict, row.class, row.length),
        ("✗ broken already", "broken", None)
    );
    assert!(row.explain.ends_with("before the search began."));
}

/// Conditional writes (S3's If-Match, GCS's ifGenerationMatch), on a scenario kept as a test
/// fixture until the presets load on demand (its bytes would push the page's first load past
/// its ceiling): each variant meets its stated outcome, and the explorer finds that the check
/// is equality, not order — A's update landing before B's first write is still accepted.
#[test]
fn a_conditional_write_refuses_an_update_to_a_version_no_longer_current() {
    use fencing_lab::sim::report::Report;
    use fencing_lab::sim::Scenario;
    let text = include_str!("fixtures/s3-conditional-write.json");
    let s = Scenario::from_json(text).expect("the fixture is a valid scenario");
    let mut seen = Vec::new();
    for v in &s.variants {
        let mut run = Run::new(&s, Some(v));
        run.run_script().expect("the script runs");
        let mismatches = Report::of(&run).mismatches(&v.expect);
        assert!(mismatches.is_empty(), "{}: {mismatches:?}", v.name);
        let sv = s.with_variant(v);
        let r = explore(&sv, Some(v.name.clone()), Bounds::for_scenario(&sv));
        assert!(r.complete, "{}", v.name);
        seen.push((v.name.clone(), broken(&r).join(" ")));
    }
    let want = [
        ("if-match", "superseded_write"),
        ("plain-put", "stale_overwrite superseded_write"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(seen, want);

    // Where no scripted write is conditional, objects keep no version, and a conditional
    // write is refused with a reason rather than compared with a version never kept.
    let mut w = fencing_lab::sim::World::new(&presets::get("paused-writer").unwrap());
    let mut write = w.default_write("A").unwrap();
    write.if_version = Some(1);
    let refused = w
        .step(&Action::Write {
            worker: "A".into(),
            write,
        })
        .unwrap_err();
    assert!(
        refused.to_string().contains("conditional write"),
        "{refused}"
    );
}

//! Regressions: scenarios written outside the project that once made a node believe what it
//! could not know, or hid what happened from the checker (tests/repro/*.json, kept as found).

use fencing_lab::sim::report::Report;
use fencing_lab::sim::scenario::{Expectation, ExpectedRequest, ExpectedVerdict};
use fencing_lab::sim::{EventKind, Fate, Policy, Reason, Run, Scenario, ViolationKind};

fn load(name: &str) -> Scenario {
    let path = format!("{}/tests/repro/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("repro file");
    Scenario::from_json(&text).expect("repro parses")
}

/// The scenario under `policy`, its whole script run.
fn run(name: &str, policy: Option<Policy>) -> Run {
    let mut s = load(name);
    if let Some(p) = policy {
        s.policy = p;
    }
    let mut r = Run::new(&s, None);
    r.run_script().expect("script runs");
    r
}

fn ignored(r: &Run) -> usize {
    r.events()
        .filter(|e| matches!(e.kind, EventKind::ReplyIgnored { .. }))
        .count()
}

fn request<'a>(rep: &'a Report, id: &str) -> &'a fencing_lab::sim::report::RequestReport {
    rep.request(id)
        .unwrap_or_else(|| panic!("request {id} in the report"))
}

#[test]
fn a_duplicate_grant_after_expiry_revives_no_belief() {
    for p in [Policy::Unfenced, Policy::HighestSeen] {
        let r = run("dup-grant-revives-lease", Some(p));
        assert_eq!(ignored(&r), 1, "the held copy of the grant is ignored");
        let a = r.world().worker("A").expect("A");
        assert!(!a.holds_any(), "A believes nothing after the stale copy");
        assert!(
            r.world().overlaps().is_empty(),
            "A and B never both believe"
        );
        // A's write goes out as what it is: a write without a lease, so without a token.
        assert_eq!(request(&Report::of(&r), "A-late").token, None);
    }
}

#[test]
fn a_late_duplicate_renewal_confirmation_extends_nothing() {
    let r = run("dup-renewed-extends-lease", None);
    assert_eq!(ignored(&r), 1);
    assert!(
        r.world().overlaps().is_empty(),
        "A's belief ends before the coordinator grants B: {:?}",
        r.world().overlaps()
    );
}

#[test]
fn a_renewal_answer_counts_from_the_renewal_it_answers() {
    let r = run("r-renew-reply-credited-to-later-renewal", None);
    // Renewal #1 left A at t=2 with exact clocks: the belief it confirms ends at 2 + 10.
    let renewed: Vec<i64> = r
        .events()
        .filter_map(|e| match &e.kind {
            EventKind::LeaseBeliefRenewed { valid_until_local } => Some(*valid_until_local),
            _ => None,
        })
        .collect();
    assert_eq!(renewed, vec![12]);
    assert!(r.world().overlaps().is_empty());
    let rep = Report::of(&r);
    assert_eq!(
        request(&rep, "A-w").token,
        None,
        "A no longer holds at t=15"
    );
    assert_eq!(request(&rep, "B-w").outcome, Fate::Accepted);
}

#[test]
fn a_denial_for_an_old_token_leaves_the_new_lease_alone() {
    let r = run("r-old-renewal-denial-drops-new-lease", None);
    assert_eq!(ignored(&r), 1);
    let rep = Report::of(&r);
    let w = request(&rep, "A-w");
    assert_eq!(w.token, Some(serde_json::json!(42)));
    assert_eq!(w.outcome, Fate::Accepted);
}

#[test]
fn a_crash_loses_the_retry_buffer_unless_it_is_durable() {
    let s = load("crash-keeps-retry");
    let mut r = Run::new(&s, None);
    let err = r.run_script().expect_err("nothing is left to retry");
    assert!(err.0.contains("has sent nothing to retry"), "{err}");

    let mut durable = s.clone();
    durable.workers[0].durable_retry = true;
    let mut r = Run::new(&durable, None);
    r.run_script().expect("a durable retry buffer survives");
    let retried = r.events().filter(|e| {
        matches!(
            &e.kind,
            EventKind::Sent {
                kind: fencing_lab::sim::message::MessageKind::Write,
                ..
            }
        ) && e.actor == "A"
    });
    assert_eq!(retried.count(), 2, "the first send and the retry");
}

#[test]
fn a_worker_holds_one_lease_per_lock_and_a_transaction_carries_each_token() {
    let r = run("r-second-lock-replaces-first-lease", None);
    let a = r.world().worker("A").expect("A");
    assert!(a.believes("x-lock") && a.believes("y-lock"));
    let rep = Report::of(&r);
    assert_eq!(request(&rep, "A-X").outcome, Fate::Accepted);
    let xy = request(&rep, "A-XY");
    let outcomes: Vec<(&str, Fate)> = xy
        .verdicts
        .iter()
        .map(|v| (v.resource.as_str(), v.outcome))
        .collect();
    assert_eq!(outcomes, vec![("X", Fate::Accepted), ("Y", Fate::Accepted)]);
    let tokens: Vec<String> = r
        .events()
        .filter(|e| matches!(e.kind, EventKind::WriteAccepted { .. }))
        .filter(|e| e.request.as_deref() == Some("A-XY"))
        .map(|e| e.token.as_ref().expect("token").short())
        .collect();
    assert_eq!(
        tokens,
        vec!["42", "7"],
        "each object sees its own lock's token"
    );
}

#[test]
fn a_restore_brings_back_no_lease_and_the_next_owner_is_minted_in_the_new_epoch() {
    let s = load("r-restore-keeps-old-epoch-lease");
    let mut r = Run::new(&s, None);
    // Up to the restore (three script steps), then look at the lock table.
    for _ in 0..3 {
        r.step_forward().expect("step");
    }
    assert!(r.world().coordinator().holder("lock").is_none());
    r.run_script().expect("script runs");
    let rep = Report::of(&r);
    let a2 = request(&rep, "A-2");
    assert_eq!(a2.token, Some(serde_json::json!("e2:42")));
    assert_eq!(a2.outcome, Fate::Accepted);
    assert!(rep.violations.is_empty(), "{:?}", rep.violations);
}

#[test]
fn a_lost_fence_is_sent_again_and_the_grant_goes_through() {
    let r = run("r-fence-on-acquire-lost-fence-blocks-forever", None);
    let retried = r
        .events()
        .filter(|e| matches!(e.kind, EventKind::FenceRetried { .. }))
        .count();
    assert!(retried >= 1);
    let granted: Vec<String> = r
        .events()
        .filter(|e| matches!(e.kind, EventKind::LeaseAcquired { .. }))
        .map(|e| format!("{} {}", e.actor, e.token.as_ref().expect("token").short()))
        .collect();
    assert_eq!(granted, vec!["A 41", "B 42"]);
}

#[test]
fn a_partition_takes_the_messages_on_the_wire_with_it() {
    let r = run("r-partition-passes-inflight", None);
    let renewed = r
        .events()
        .filter(|e| matches!(e.kind, EventKind::LeaseRenewed { .. }))
        .count();
    assert_eq!(renewed, 0, "the renewal in flight is lost in the partition");
    assert!(r
        .events()
        .any(|e| matches!(&e.kind, EventKind::Dropped { why } if why == "lost in the partition")));
}

#[test]
fn a_stale_email_after_the_new_owners_is_a_violation() {
    let r = run("email-stale-unreported", None);
    let rep = Report::of(&r);
    let v: Vec<_> = rep
        .violations
        .iter()
        .filter(|v| v.kind == ViolationKind::StaleOverwrite)
        .collect();
    assert_eq!(v.len(), 1, "{:?}", rep.violations);
    assert_eq!(v[0].request, "A-mail");
    assert_eq!(v[0].conflicts_with.as_deref(), Some("B-mail"));
}

#[test]
fn every_delivery_of_a_duplicated_request_has_its_verdict_in_the_report() {
    let r = run("duplicate-verdict-hidden", Some(Policy::HighestSeen));
    let rep = Report::of(&r);
    let a = request(&rep, "A-first");
    assert_eq!(a.outcome, Fate::Accepted);
    let words: Vec<String> = a.verdicts.iter().map(|v| v.word()).collect();
    assert_eq!(words, vec!["accepted at doc", "rejected (stale) at doc"]);
    let json = serde_json::to_value(&rep).expect("report serialises");
    assert_eq!(json["requests"][0]["verdicts"][1]["reason"], "stale");

    // A variant can name the later verdict, and a wrong one is caught.
    let expect = |reason| {
        let mut e = Expectation::default();
        e.requests.insert(
            "A-first".into(),
            ExpectedRequest {
                outcome: Fate::Accepted,
                reason: None,
                verdicts: vec![
                    ExpectedVerdict {
                        outcome: Fate::Accepted,
                        reason: None,
                        resource: None,
                    },
                    ExpectedVerdict {
                        outcome: Fate::Rejected,
                        reason: Some(reason),
                        resource: Some("doc".into()),
                    },
                ],
            },
        );
        e
    };
    assert!(rep.mismatches(&expect(Reason::Stale)).is_empty());
    assert_eq!(rep.mismatches(&expect(Reason::MissingToken)).len(), 1);
}

#[test]
fn the_unfenceable_email_shows_its_stale_effect_with_distinct_operation_ids_too() {
    // Not only because both workers share an operation id (double execution): give each its
    // own and the superseded holder's email, landing last, is still a violation at the inbox.
    let mut s = fencing_lab::presets::get("unfenceable-email").expect("preset");
    for step in &mut s.script {
        for a in &mut step.actions {
            if let fencing_lab::sim::Action::Write { worker, write }
            | fencing_lab::sim::Action::Prepare { worker, write } = a
            {
                write.op_id = Some(format!("{worker}-notice").into());
            }
        }
    }
    let v = s.variant("highest-seen").expect("variant").clone();
    let mut r = Run::new(&s, Some(&v));
    r.run_script().expect("script runs");
    let rep = Report::of(&r);
    assert!(
        rep.has(ViolationKind::StaleOverwrite),
        "{:?}",
        rep.violations
    );
    assert!(!rep.has(ViolationKind::DoubleExecution));
}

#[test]
fn an_ignored_reply_is_drawn_on_the_timeline_with_its_reason() {
    let r = run("dup-grant-revives-lease", Some(Policy::HighestSeen));
    let tl = fencing_lab::view::layout::layout(&r);
    let m = tl
        .marks
        .iter()
        .find(|m| m.label == "ignored grant")
        .expect("a mark for the ignored grant");
    assert!(m.title.contains("answers no acquire"), "{}", m.title);
}

//! The table: every preset, under every variant it contrasts, must end as it says.

use fencing_lab::presets;
use fencing_lab::sim::report::Report;
use fencing_lab::sim::scenario::Variant;
use fencing_lab::sim::{
    Action, EventKind, Fate, Policy, Reason, Run, Scenario, ViolationKind, World,
};

#[test]
fn every_preset_meets_its_stated_outcome_under_each_variant() {
    let mut failures = Vec::new();
    for s in presets::all() {
        if s.id == "sandbox" {
            continue;
        }
        if s.variants.len() < 2 {
            failures.push(format!(
                "{}: contrasts {} variant(s); a preset contrasts at least two",
                s.id,
                s.variants.len()
            ));
        }
        for v in &s.variants {
            let e = &v.expect;
            if e.requests.is_empty() && e.violations.is_empty() && e.absent.is_empty() {
                failures.push(format!("{} / {}: states no outcome to check", s.id, v.name));
            }
            let mut run = Run::new(&s, Some(v));
            if let Err(err) = run.run_script() {
                failures.push(format!("{} / {}: script failed: {err}", s.id, v.name));
                continue;
            }
            for m in Report::of(&run).mismatches(e) {
                failures.push(format!("{} / {}: {m}", s.id, v.name));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_preset_is_complete_data() {
    for s in presets::all() {
        assert!(
            !s.title.starts_with("PLACEHOLDER"),
            "{} is a placeholder",
            s.id
        );
        assert!(
            !s.summary.is_empty() && !s.theme.is_empty(),
            "{} lacks summary or theme",
            s.id
        );
        if s.id != "sandbox" {
            assert!(!s.script.is_empty(), "{} has no script", s.id);
            assert!(
                s.script.iter().all(|st| !st.say.trim().is_empty()),
                "{} has a step without narration",
                s.id
            );
            assert!(
                s.variants.iter().all(|v| !v.outcome.is_empty()),
                "{} has a variant without an outcome text",
                s.id
            );
        }
    }
}

#[test]
fn preset_files_round_trip_through_the_scenario_format() {
    for s in presets::all() {
        let back =
            fencing_lab::sim::Scenario::from_json(&s.to_json()).expect("exported preset parses");
        assert_eq!(back, s, "{}", s.id);
    }
}

/// The scenario a run under `policy` starts from: the preset as written, or one of its
/// variants with the policy replaced (its other settings kept).
fn under(s: &Scenario, v: Option<&Variant>, policy: Policy) -> Run {
    match v {
        Some(v) => {
            let mut v = v.clone();
            v.policy = Some(policy);
            Run::new(s, Some(&v))
        }
        None => {
            let mut s = s.clone();
            s.policy = policy;
            Run::new(&s, None)
        }
    }
}

#[test]
fn every_preset_runs_under_every_policy() {
    let mut failures = Vec::new();
    for s in presets::all() {
        let variants: Vec<Option<&Variant>> = std::iter::once(None)
            .chain(s.variants.iter().map(Some))
            .collect();
        for p in Policy::ALL {
            for v in &variants {
                let mut run = under(&s, *v, p);
                if let Err(e) = run.run_script() {
                    let name = v.map_or("as written", |v| v.name.as_str());
                    failures.push(format!("{} / {name} under {}: {e}", s.id, p.as_str()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn the_paused_writer_under_fence_on_acquire_keeps_bs_report() {
    let s = presets::get("paused-writer").unwrap();
    let mut run = under(&s, None, Policy::FenceOnAcquire);
    run.run_script().unwrap();
    let r = Report::of(&run);
    let fate = |id: &str| {
        let q = r.requests.iter().find(|q| q.id == id).expect(id);
        (q.outcome, q.reason)
    };
    assert_eq!(fate("B-write"), (Fate::Accepted, None));
    assert_eq!(fate("A-stale"), (Fate::Rejected, Some(Reason::Stale)));
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

/// The grant takes a round trip more under fence-on-acquire. A script that waits for it
/// never sends a write without a token merely because the grant was slower.
#[test]
fn no_preset_writes_without_a_token_because_fence_on_acquire_grants_later() {
    let mut failures = Vec::new();
    for s in presets::all() {
        let fenceable = s.variants.iter().any(|v| {
            World::new(&s.with_variant(v))
                .resources()
                .iter()
                .any(|r| r.kind.can_fence())
        });
        if !fenceable {
            continue;
        }
        // Requests the preset itself expects to go out without a token (omitted-token).
        let expected: Vec<&String> = s
            .variants
            .iter()
            .flat_map(|v| v.expect.requests.iter())
            .filter(|(_, e)| e.reason == Some(Reason::MissingToken))
            .map(|(id, _)| id)
            .collect();
        for v in &s.variants {
            let mut run = under(&s, Some(v), Policy::FenceOnAcquire);
            run.run_script().unwrap();
            for q in Report::of(&run).requests {
                if q.reason == Some(Reason::MissingToken) && !expected.contains(&&q.id) {
                    failures.push(format!(
                        "{} / {} under fence-on-acquire: {} rejected for a missing token",
                        s.id, v.name, q.id
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

fn await_a(within: Option<u64>) -> Action {
    Action::Await {
        worker: "A".into(),
        lock: None,
        within,
    }
}

#[test]
fn await_lets_time_pass_until_the_worker_holds_its_lease() {
    let s = presets::get("paused-writer").unwrap();
    for (policy, ticks) in [(Policy::HighestSeen, 2), (Policy::FenceOnAcquire, 4)] {
        let mut run = under(&s, None, policy);
        run.act(Action::Acquire {
            worker: "A".into(),
            lock: None,
        })
        .unwrap();
        // A bound too short is refused, and the world is as it was.
        let before = run.world().clone();
        let err = run.act(await_a(Some(ticks - 1))).unwrap_err();
        let unit = if ticks - 1 == 1 { "tick" } else { "ticks" };
        assert_eq!(
            err.0,
            format!("A does not hold report-lock within {} {unit}", ticks - 1)
        );
        assert_eq!(run.world(), &before);
        // Tick by tick, exactly as `advance` would have gone.
        let mut by_advance = run.clone();
        by_advance.act(Action::Advance { ticks }).unwrap();
        run.act(await_a(None)).unwrap();
        assert_eq!(run.world().now(), ticks, "{}", policy.as_str());
        assert!(run.world().worker("A").unwrap().believes("report-lock"));
        assert_eq!(run.world(), by_advance.world());
        assert_eq!(run.last_step_events(), by_advance.last_step_events());
        // Already holding it: nothing happens.
        let held = run.world().clone();
        run.act(await_a(None)).unwrap();
        assert_eq!(run.world().now(), held.now());
        assert!(run.last_step_events().is_empty());
    }
}

#[test]
fn await_is_refused_for_a_paused_worker_and_when_nothing_will_grant() {
    let s = presets::get("paused-writer").unwrap();
    let mut run = Run::new(&s, None);
    let before = run.world().clone();
    // Nobody asked: the lease never comes.
    let err = run.act(await_a(None)).unwrap_err();
    assert_eq!(err.0, "A does not hold report-lock within 20 ticks");
    assert_eq!(run.world(), &before);
    run.act(Action::Acquire {
        worker: "A".into(),
        lock: None,
    })
    .unwrap();
    run.act(Action::Pause {
        worker: "A".into(),
        ticks: None,
    })
    .unwrap();
    let err = run.act(await_a(None)).unwrap_err();
    assert!(err.0.contains("paused"), "{err}");
}

/// The narration at each script step of a run, in order.
fn narrations(mut run: Run) -> Vec<String> {
    let mut out = Vec::new();
    while run.step_forward().expect("the script runs") {
        out.push(run.narration().expect("a script step").to_string());
    }
    out
}

#[test]
fn narration_speaks_of_fence_on_acquire_only_under_it() {
    let mut failures = Vec::new();
    for s in presets::all() {
        let variants: Vec<Option<&Variant>> = std::iter::once(None)
            .chain(s.variants.iter().map(Some))
            .collect();
        for p in Policy::ALL
            .into_iter()
            .filter(|p| *p != Policy::FenceOnAcquire)
        {
            for v in &variants {
                for (i, say) in narrations(under(&s, *v, p)).iter().enumerate() {
                    if say.to_lowercase().contains("fence-on-acquire") {
                        let name = v.map_or("as written", |v| v.name.as_str());
                        failures.push(format!(
                            "{} / {name} under {}, step {}: {say}",
                            s.id,
                            p.as_str(),
                            i + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn the_paused_writers_narration_follows_the_policy() {
    let s = presets::get("paused-writer").unwrap();
    let unfenced = narrations(Run::new(&s, s.variant("unfenced")));
    let fenced = narrations(Run::new(&s, s.variant("highest-seen")));
    // Step 8: only a fenced resource records the highest token.
    assert!(fenced[7].contains("records 42"), "{}", fenced[7]);
    assert!(!unfenced[7].contains("records 42"), "{}", unfenced[7]);
    assert_ne!(unfenced[7], fenced[7]);
    // Step 10: the verdict itself.
    assert!(
        unfenced[9].contains("41 is accepted") && unfenced[9].contains("stale overwrite"),
        "{}",
        unfenced[9]
    );
    assert!(
        fenced[9].contains("rejected as stale") && fenced[9].contains("B's report survives"),
        "{}",
        fenced[9]
    );
    // The same words under every fencing policy, as the run shows.
    for p in [
        Policy::Strict,
        Policy::CheckThenWrite,
        Policy::FenceOnAcquire,
    ] {
        let n = narrations(under(&s, None, p));
        assert!(
            n[9].contains("rejected as stale"),
            "{}: {}",
            p.as_str(),
            n[9]
        );
    }
    assert!(narrations(under(&s, None, Policy::Unfenced))[9].contains("41 is accepted"));
}

#[test]
fn say_if_picks_the_variant_then_the_policy_then_say() {
    let json = |say_if: &str| {
        format!(
            r#"{{ "version": 1, "id": "t", "title": "t",
              "locks": [{{ "name": "l", "ttl": 5 }}], "workers": [{{ "name": "A" }}],
              "resources": [{{ "name": "r", "kind": {{ "store": {{}} }} }}],
              "script": [{{ "say": "plain", "say_if": {say_if}, "do": [{{ "do": "advance", "ticks": 1 }}] }}],
              "variants": [{{ "name": "open", "policy": "unfenced" }}, {{ "name": "shut", "policy": "strict" }}] }}"#
        )
    };
    let s = Scenario::from_json(&json(
        r#"[{ "policy": "unfenced", "say": "by policy" }, { "variant": "open", "say": "by variant" }]"#,
    ))
    .unwrap();
    let said = |v: Option<&str>, p: Option<Policy>| {
        let mut base = s.clone();
        if let Some(p) = p {
            base.policy = p;
        }
        let mut run = Run::new(&base, v.and_then(|v| s.variant(v)));
        run.step_forward().unwrap();
        run.narration().unwrap().to_string()
    };
    assert_eq!(said(Some("open"), None), "by variant");
    assert_eq!(said(Some("shut"), None), "plain");
    assert_eq!(said(None, Some(Policy::Unfenced)), "by policy");
    assert_eq!(said(None, None), "plain");
    // The file names what is wrong.
    let e = Scenario::from_json(&json(r#"[{ "variant": "ajar", "say": "x" }]"#)).unwrap_err();
    assert!(e.contains("script[0].say_if[0].variant"), "{e}");
    let e = Scenario::from_json(&json(
        r#"[{ "variant": "open", "policy": "strict", "say": "x" }]"#,
    ))
    .unwrap_err();
    assert!(e.contains("script[0].say_if[0]"), "{e}");
    let e = Scenario::from_json(&json(r#"[{ "say": "x" }]"#)).unwrap_err();
    assert!(e.contains("script[0].say_if[0]"), "{e}");
}

#[test]
fn every_lock_is_named_for_what_it_guards() {
    // A lock named "lease" read "expires A's lease on lease" in the sandbox's log.
    for s in presets::all() {
        for l in &s.locks {
            assert!(
                l.name.ends_with("-lock"),
                "{}: lock “{}” is not named like the others (report-lock, store-lock)",
                s.id,
                l.name
            );
        }
    }
    let s = presets::get("sandbox").unwrap();
    let mut run = Run::new(&s, None);
    run.act(Action::Acquire {
        worker: "A".into(),
        lock: None,
    })
    .unwrap();
    run.act(Action::Advance { ticks: 12 }).unwrap();
    let log: Vec<String> = run.events().map(|e| e.to_string()).collect();
    assert!(
        log.iter().any(|l| l.contains("lease on store-lock")),
        "{log:#?}"
    );
}

/// A worker's write button debits an account (a set would leave the balance alone) and sets
/// anything else: one rule, `World::write_to`, for the sandbox, the explorer and links.
#[test]
fn a_workers_default_write_debits_an_account_and_sets_a_store() {
    use fencing_lab::sim::Op;
    let debit = World::new(&presets::get("retry-double-debit").unwrap());
    let w = debit.workers()[0].name.clone();
    let home = debit.home_resource(&w).unwrap().to_string();
    assert_eq!(debit.default_write(&w).unwrap().op, Op::Debit(10));
    assert_eq!(debit.write_to(&w, &home).unwrap().to[..], [home]);

    let store = World::new(&presets::get("paused-writer").unwrap());
    let op = store.default_write("A").unwrap().op;
    assert_eq!(op, Op::Set("A's write 1".into()));
    assert!(store.write_to("nobody", "doc").is_none());
}

/// Lock-delay (Chubby, Consul) follows a lost holder, not a clean release: after A releases,
/// B is granted at once; after A's lease runs out, B waits out the delay.
#[test]
fn lock_delay_follows_an_expiry_and_never_a_clean_release() {
    let s = presets::get("chubby-lock-delay").unwrap();
    let covers = s.with_variant(s.variant("delay-covers").unwrap());
    assert_eq!(covers.locks[0].lock_delay, 15);
    let holds_b_at = |release: bool| {
        let mut w = World::new(&covers);
        act(&mut w, acquire("A"));
        act(&mut w, Action::Advance { ticks: 3 });
        if release {
            act(&mut w, Action::Release { worker: "A".into() });
        }
        act(&mut w, Action::Advance { ticks: 12 });
        act(&mut w, acquire("B"));
        (0..40)
            .find(|_| {
                let held = w
                    .coordinator()
                    .holder("file-lock")
                    .is_some_and(|h| h.worker == "B");
                w.step(&Action::Advance { ticks: 1 }).unwrap();
                held
            })
            .map(|_| w.now())
            .expect("B is granted in the end")
    };
    let after_release = holds_b_at(true);
    let after_expiry = holds_b_at(false);
    // A's lease ran out at t = 11: with a 15-tick delay B cannot hold it before t = 26.
    assert!(after_release < 20, "granted at t = {after_release}");
    assert!(after_expiry > 26, "granted at t = {after_expiry}");
}

/// The embedded presets (build.rs strips the layout between tokens) are the files in
/// presets/, value for value: nothing inside a string is touched.
#[test]
fn the_embedded_presets_are_the_files_value_for_value() {
    for id in presets::ids() {
        let file = format!("{}/presets/{id}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&file).expect("the preset's file");
        let embedded = presets::source(id).unwrap();
        assert!(embedded.len() < text.len(), "{id}: not stripped");
        let a: serde_json::Value = serde_json::from_str(&text).unwrap();
        let b: serde_json::Value = serde_json::from_str(embedded).unwrap();
        assert_eq!(a, b, "{id}");
    }
}

/// The picker's catalog (build.rs) and its order name every file in presets/ once, with the
/// title and theme the file has: the page lists presets it has not fetched from it.
#[test]
fn the_catalog_lists_every_preset_file_with_its_title_and_theme() {
    let mut files: Vec<String> =
        std::fs::read_dir(format!("{}/presets", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
            .collect();
    files.sort();
    let mut ordered: Vec<String> = presets::ids().map(String::from).collect();
    ordered.sort();
    assert_eq!(ordered, files, "the picker's order names every file once");
    let catalog: Vec<&str> = presets::CATALOG.iter().map(|e| e.id).collect();
    assert_eq!(
        catalog,
        files.iter().map(String::as_str).collect::<Vec<_>>()
    );
    for id in presets::ids() {
        let s = presets::get(id).unwrap();
        let e = presets::entry(id).unwrap();
        assert_eq!(
            (e.title, e.theme),
            (s.title.as_str(), s.theme.as_str()),
            "{id}"
        );
        assert!(presets::listed(id));
    }
    assert!(!presets::listed("no-such-preset") && presets::entry("no-such-preset").is_none());
    for id in presets::IN_FIRST_LOAD {
        assert!(presets::listed(id), "{id}");
    }
}

/// A coordinator restore or a restart without persistence drops its holders: lost holders,
/// so a lock-delay starts there too, and B waits it out.
#[test]
fn lock_delay_follows_a_restore_and_a_restart_that_forget_the_holder() {
    let s = presets::get("chubby-lock-delay").unwrap();
    let covers = s.with_variant(s.variant("delay-covers").unwrap());
    for forget in [
        Action::CoordinatorRestore,
        Action::CoordinatorRestart {
            persist: Some(false),
        },
    ] {
        let mut w = World::new(&covers);
        for a in [
            Action::Acquire {
                worker: "A".into(),
                lock: None,
            },
            Action::Advance { ticks: 3 },
            forget.clone(),
            Action::Acquire {
                worker: "B".into(),
                lock: None,
            },
        ] {
            w.step(&a).unwrap_or_else(|e| panic!("{a}: {e}"));
        }
        let forgotten_at = 3;
        let held = (0..40).find(|_| {
            let b = w
                .coordinator()
                .holder("file-lock")
                .is_some_and(|h| h.worker == "B");
            w.step(&Action::Advance { ticks: 1 }).unwrap();
            b
        });
        let at = held.map(|_| w.now()).expect("B is granted in the end");
        assert!(at > forgotten_at + 15, "{forget}: B holds it at t = {at}");
    }
}

/// kafka-producer-epoch under `variant`, with `change` made to its transactional id's lock,
/// its whole script run.
fn kafka(variant: &str, change: impl Fn(&mut fencing_lab::sim::scenario::LockSpec)) -> Run {
    let s = presets::get("kafka-producer-epoch").unwrap();
    let mut sv = s.with_variant(s.variant(variant).unwrap());
    change(&mut sv.locks[0]);
    let mut run = Run::new(&sv, None);
    run.run_script().unwrap();
    run
}

/// Take one action, or fail the test naming it.
fn act(w: &mut World, a: Action) {
    w.step(&a).unwrap_or_else(|e| panic!("{a}: {e}"));
}

fn acquire(worker: &str) -> Action {
    Action::Acquire {
        worker: worker.into(),
        lock: None,
    }
}

fn fate_of(run: &Run, id: &str) -> (Fate, Option<Reason>, Option<String>) {
    let r = Report::of(run);
    let q = r.request(id).unwrap_or_else(|| panic!("{id} was sent"));
    (q.outcome, q.reason, q.token.as_ref().map(|t| t.to_string()))
}

/// Kafka's producer epoch: the broker refuses a record whose epoch is below the one it holds,
/// and it holds each bump before anyone acts on it (the coordinator's markers). A broker that
/// does not check lets the zombie's record replace the new producer's.
#[test]
fn kafkas_broker_refuses_a_fenced_producers_lower_epoch() {
    let fenced = kafka("kafka", |_| {});
    let stale = (Fate::Rejected, Some(Reason::Stale));
    let (outcome, reason, token) = fate_of(&fenced, "A-zombie");
    assert_eq!(
        (outcome, reason, token.as_deref()),
        (stale.0, stale.1, Some("4"))
    );
    let (outcome, reason, token) = fate_of(&fenced, "B-late");
    assert_eq!(
        (outcome, reason, token.as_deref()),
        (stale.0, stale.1, Some("5"))
    );
    let orders = fenced.world().resource("orders").unwrap();
    assert_eq!(orders.data.value, "order 1001 shipped");
    // The timeout's bump: an epoch nobody holds, and the broker learned it.
    assert_eq!(orders.data.highest.as_ref().map(|t| t.counter), Some(6));
    assert!(fenced
        .world()
        .coordinator()
        .holder("orders-etl-lock")
        .is_none());
    assert!(fenced.world().ghost().violations.is_empty());

    let unchecked = kafka("no-epoch-check", |_| {});
    assert_eq!(fate_of(&unchecked, "A-zombie").0, Fate::Accepted);
    let kinds: Vec<_> = unchecked
        .world()
        .ghost()
        .violations
        .iter()
        .map(|v| v.kind)
        .collect();
    assert!(kinds.contains(&ViolationKind::StaleOverwrite), "{kinds:?}");
}

/// initTransactions takes over at once (A's grant ends when B asks, long before its lease
/// would run out), and the transaction timeout bumps the epoch with nobody asking: without
/// the bump, the timed-out producer's late record gets in.
#[test]
fn kafkas_init_transactions_takes_over_and_its_timeout_bumps_the_epoch() {
    let ended = |run: &Run| {
        run.events()
            .find_map(|e| match &e.kind {
                EventKind::LeaseTakenOver { holder, by, .. } => {
                    Some((holder.to_string(), by.to_string(), e.tick))
                }
                EventKind::LeaseExpired { holder, .. } if holder == "A" => {
                    Some((holder.to_string(), "expiry".into(), e.tick))
                }
                _ => None,
            })
            .expect("A's grant ends")
    };
    // A is granted at t = 3 with a 10-tick lease; B's initTransactions arrives at t = 5.
    assert_eq!(ended(&kafka("kafka", |_| {})), ("A".into(), "B".into(), 5));
    let waits = ended(&kafka("kafka", |l| l.takeover = false));
    assert_eq!(waits, ("A".into(), "expiry".into(), 13));

    let bumps = |run: &Run| {
        run.events()
            .filter(|e| matches!(e.kind, EventKind::TokenBumped { .. }))
            .filter_map(|e| e.token.as_ref().map(|t| t.counter))
            .collect::<Vec<_>>()
    };
    assert_eq!(bumps(&kafka("kafka", |_| {})), [6]);
    let no_bump = kafka("kafka", |l| l.bump_on_expiry = false);
    assert!(bumps(&no_bump).is_empty());
    assert_eq!(fate_of(&no_bump, "B-late").0, Fate::Accepted);
}

/// Under takeover a duplicate of the acquire a grant answered is old news (the same grant
/// again), while a new acquire from the holder itself is a new session with a new token, as a
/// producer that calls initTransactions again gets a new epoch.
#[test]
fn a_takeover_lock_bumps_for_a_new_acquire_and_not_for_a_duplicate() {
    use fencing_lab::sim::message::MessageKind;
    use fencing_lab::sim::MsgSel;
    let s = presets::get("kafka-producer-epoch").unwrap();
    let mut w = World::new(&s.with_variant(s.variant("requests-only").unwrap()));
    let holder = |w: &World| {
        let h = w.coordinator().holder("orders-etl-lock").expect("held");
        (h.worker.to_string(), h.token.counter)
    };
    w.step(&acquire("A")).unwrap();
    let copy = Action::Duplicate {
        msg: MsgSel {
            kind: Some(MessageKind::Acquire),
            ..MsgSel::default()
        },
    };
    w.step(&copy).unwrap();
    w.step(&Action::Advance { ticks: 3 }).unwrap();
    assert_eq!(holder(&w), ("A".into(), 4));
    assert!(w.worker("A").unwrap().believes("orders-etl-lock"));
    w.step(&acquire("A")).unwrap();
    w.step(&Action::Advance { ticks: 2 }).unwrap();
    assert_eq!(holder(&w), ("A".into(), 5));
}

/// `s`'s whole script, run under its variant `variant`.
fn scripted(s: &Scenario, variant: &str) -> Run {
    let mut run = Run::new(s, s.variant(variant));
    run.run_script().unwrap();
    run
}

/// A Redis lock whose acquire INCRs a counter: a failover to a replica that never saw the
/// last grant hands its number out again, and an equal token lets the stale holder's write
/// in after the new holder's. Waiting for the replica (WAIT) keeps the counter.
#[test]
fn a_failover_to_a_replica_behind_hands_the_same_token_out_twice() {
    let s = presets::get("redis-incr-token").unwrap();
    let run = |variant: &str| scripted(&s, variant);
    let behind = run("async-failover");
    let tokens = |run: &Run| ["A1", "B1"].map(|id| fate_of(run, id).2.expect("a token"));
    assert_eq!(tokens(&behind), ["41", "41"]);
    assert_eq!(fate_of(&behind, "A-stale").0, Fate::Accepted);
    let kinds: Vec<_> = behind
        .world()
        .ghost()
        .violations
        .iter()
        .map(|v| v.kind)
        .collect();
    assert_eq!(kinds, [ViolationKind::StaleOverwrite]);

    let waited = run("wait-for-replica");
    assert_eq!(tokens(&waited), ["41", "42"]);
    let (outcome, reason, _) = fate_of(&waited, "A-stale");
    assert_eq!((outcome, reason), (Fate::Rejected, Some(Reason::Stale)));
    assert!(waited.world().ghost().violations.is_empty());
}

/// Under async replication a failover keeps what the last backup took and nothing since: a
/// grant after the backup is lost with its counter value, one before it is not (its holder
/// asks again either way: the failover is an ownership change, as a restore is).
#[test]
fn an_async_failover_keeps_only_what_the_replica_caught_up_to() {
    let s = presets::get("redis-incr-token").unwrap();
    let next_after = |backup_after_grant: bool| {
        let mut w = World::new(&s);
        act(&mut w, acquire("A"));
        act(&mut w, Action::Advance { ticks: 2 });
        if backup_after_grant {
            act(&mut w, Action::CoordinatorBackup);
        }
        act(&mut w, Action::CoordinatorFailover);
        let l = &w.coordinator().locks["report-lock"];
        (l.holder.is_none(), l.issuer.next[0])
    };
    assert_eq!(next_after(false), (true, 41));
    assert_eq!(next_after(true), (true, 42));
}

/// The outbox: the customer gets only what a row that passed the outbox's fence says. Under
/// the fence A's stale row is refused and never sent; without it the relay sends it like any
/// other and it lands after B's. The relay marks a row sent only when its answer comes back,
/// so a restart in between sends the row again: at-least-once, and the message id dedupes.
#[test]
fn the_outbox_fences_the_row_so_the_relay_never_sends_a_stale_email() {
    let s = presets::get("outbox").unwrap();
    let run = |variant: &str| scripted(&s, variant);
    let emails = |run: &Run| {
        let inbox = run.world().resource("inbox").unwrap();
        inbox.data.items.iter().cloned().collect::<Vec<_>>()
    };
    let shipped = "Your order 1001 has shipped";
    let delayed = "Your order 1001 is delayed";

    let fenced = run("outbox");
    assert_eq!(fate_of(&fenced, "A-row").1, Some(Reason::Stale));
    assert!(Report::of(&fenced).request("A-row:inbox").is_none());
    assert_eq!(emails(&fenced), [shipped]);
    assert!(fenced.world().ghost().violations.is_empty());
    // Every row was answered and marked: nothing is left to send.
    assert!(fenced
        .world()
        .resource("outbox")
        .unwrap()
        .data
        .unsent
        .is_empty());

    let unfenced = run("unfenced");
    assert_eq!(fate_of(&unfenced, "A-row:inbox").0, Fate::Accepted);
    assert_eq!(emails(&unfenced), [shipped, delayed]);

    // No message id: the row the relay sent again is sent twice.
    let twice = run("no-message-id");
    assert_eq!(emails(&twice), [shipped, shipped]);

    // Without the restart the relay sends each row once, marked by its answer.
    let mut calm = s.clone();
    for step in &mut calm.script {
        step.actions
            .retain(|a| !matches!(a, Action::ResourceRestart { .. }));
    }
    let mut run = Run::new(&calm, calm.variant("no-message-id"));
    run.run_script().unwrap();
    assert_eq!(emails(&run).len(), 1);
    assert!(run
        .world()
        .resource("outbox")
        .unwrap()
        .data
        .unsent
        .is_empty());
}

/// Review: replies were routed by name, so a worker named like a resource never heard the
/// answers to its writes (they went to the resource). A reply goes to a resource only when it
/// is an outbox relaying there. paused-writer with its resource renamed B: worker B still
/// learns its write was accepted.
#[test]
fn a_worker_named_like_a_resource_hears_its_answers() {
    let text = presets::source("paused-writer")
        .unwrap()
        .replace("\"report\"", "\"B\"");
    let s = Scenario::from_json(&text).expect("a resource may share a worker's name");
    let mut run = Run::new(&s, None);
    run.run_script().unwrap();
    let heard = run
        .events()
        .filter(|e| e.actor == "B" && matches!(e.kind, EventKind::ReplyReceived { .. }))
        .count();
    assert!(heard > 0, "B heard none of its answers");
}

/// Review: an outbox row committed as one object of a transaction was relayed only at the
/// next restart. Now it is sent as it commits, as a row written alone is: before the outbox
/// restarts in the story.
#[test]
fn an_outbox_row_committed_by_a_transaction_is_relayed_at_once() {
    let text = include_str!("../presets/outbox.json")
        .replace(
            r#"{ "name": "inbox","#,
            r#"{ "name": "ledger", "kind": { "store": { "value": "none" } } }, { "name": "inbox","#,
        )
        .replace(
            r#""to": ["outbox"], "op": { "set": "Your order 1001 has shipped" }"#,
            r#""to": ["outbox", "ledger"], "transaction": true, "op": { "set": "Your order 1001 has shipped" }"#,
        );
    let s = Scenario::from_json(&text).unwrap();
    assert!(
        s.resources.iter().any(|r| r.name == "ledger"),
        "the edit took"
    );
    let mut run = Run::new(&s, s.variant("outbox"));
    run.run_script().unwrap();
    let tick_of = |f: &dyn Fn(&EventKind) -> bool| {
        run.events()
            .find(|e| e.actor == "outbox" && f(&e.kind))
            .map(|e| e.tick)
    };
    let sent = tick_of(&|k| matches!(k, EventKind::Sent { to, .. } if to == "inbox"));
    let restarted = tick_of(&|k| matches!(k, EventKind::ResourceRestarted { .. }));
    assert!(
        sent.is_some() && sent < restarted,
        "sent {sent:?}, restarted {restarted:?}"
    );
}

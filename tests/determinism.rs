//! Same scenario, seed and actions give the same event log and the same world, byte for
//! byte; a different seed with jitter gives a different log; and a run's history is exact:
//! stepping back and forward reproduces each frame, acting while stepped back forks.

use fencing_lab::presets;
use fencing_lab::sim::rng::Rng;
use fencing_lab::sim::run::Entry;
use fencing_lab::sim::{Action, Event, Run, Scenario, World};

/// Three workers, one lock, one store, a network with jitter.
fn jittery(seed: u64, jitter: u64) -> Scenario {
    let s = serde_json::json!({
        "version": 1,
        "id": "determinism",
        "title": "jittery network",
        "seed": seed,
        "network": { "delay": 1, "jitter": jitter },
        "locks": [{ "name": "lock", "ttl": 8 }],
        "workers": [{ "name": "A" }, { "name": "B", "renew_every": 3 }, { "name": "C" }],
        "resources": [{ "name": "store", "kind": { "store": { "value": "initial" } }, "options": { "dedup": true } }]
    });
    Scenario::from_json(&s.to_string()).expect("valid scenario")
}

/// `n` actions chosen from the world's own choices by a seeded generator, with the events
/// and the fingerprint after each.
fn random_walk(s: &Scenario, choice_seed: u64, n: usize) -> (Vec<Action>, Vec<Event>, Vec<u64>) {
    let mut world = World::new(s);
    let mut rng = Rng::new(choice_seed);
    let (mut actions, mut events, mut prints) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..n {
        let mut acts = world.enabled_actions();
        acts.push(Action::Advance { ticks: 4 });
        let a = acts[rng.upto(acts.len() as u64 - 1) as usize].clone();
        events.extend(
            world
                .step(&a)
                .unwrap_or_else(|e| panic!("offered action refused: {a}: {e}")),
        );
        prints.push(world.fingerprint());
        actions.push(a);
    }
    (actions, events, prints)
}

/// Replay fixed actions on a fresh world.
fn replay(s: &Scenario, actions: &[Action]) -> (Vec<Event>, World) {
    let mut world = World::new(s);
    let mut events = Vec::new();
    for a in actions {
        events.extend(world.step(a).unwrap_or_else(|e| panic!("{a}: {e}")));
    }
    (events, world)
}

fn log_text(events: &[Event]) -> String {
    serde_json::to_string(events).expect("events serialise")
}

/// A script that is valid whatever the timing: only acquires, writes and advances.
fn timing_free_script() -> Vec<Action> {
    let write = |w: &str, n: u32| -> Action {
        serde_json::from_value(serde_json::json!({
            "do": "write", "worker": w, "write": { "to": ["store"], "op": { "set": format!("{w} {n}") } }
        }))
        .expect("valid action")
    };
    let acquire = |w: &str| Action::Acquire {
        worker: w.into(),
        lock: None,
    };
    let advance = |ticks| Action::Advance { ticks };
    let mut script = Vec::new();
    for round in 0..6 {
        script.extend([
            acquire("A"),
            acquire("B"),
            advance(3),
            write("A", round),
            write("B", round),
            advance(5),
        ]);
        script.extend([acquire("C"), advance(2), write("C", round), advance(9)]);
    }
    script
}

#[test]
fn same_scenario_seed_and_actions_give_the_same_log_and_world() {
    let s = jittery(42, 4);
    let (actions, events, prints) = random_walk(&s, 7, 400);
    assert!(events.len() > 500, "a long walk: {} events", events.len());
    // The same choices again, from scratch: the same log and the same fingerprint at every step.
    let (actions2, events2, prints2) = random_walk(&s, 7, 400);
    assert_eq!(actions, actions2);
    assert_eq!(prints, prints2);
    assert_eq!(events, events2);
    // Replaying the recorded actions gives the same log byte for byte, and an equal world.
    let (replayed, world) = replay(&s, &actions);
    let (_, world2) = replay(&s, &actions);
    assert_eq!(log_text(&replayed), log_text(&events));
    assert_eq!(world, world2);
    assert_eq!(world.fingerprint(), *prints.last().unwrap());
    assert_eq!(
        serde_json::to_string(&world).unwrap(),
        serde_json::to_string(&world2).unwrap()
    );
}

#[test]
fn every_preset_script_runs_the_same_twice() {
    for s in presets::all() {
        let variants: Vec<Option<&fencing_lab::sim::scenario::Variant>> = std::iter::once(None)
            .chain(s.variants.iter().map(Some))
            .collect();
        for v in variants {
            let run = |_: ()| {
                let mut r = Run::new(&s, v);
                let ok = r.run_script().is_ok();
                (
                    ok,
                    log_text(&r.events().cloned().collect::<Vec<_>>()),
                    r.world().fingerprint(),
                )
            };
            assert_eq!(run(()), run(()), "{} / {:?}", s.id, v.map(|v| &v.name));
        }
    }
}

#[test]
fn a_different_seed_with_jitter_gives_a_different_log() {
    let script = timing_free_script();
    let (a, _) = replay(&jittery(1, 3), &script);
    let (a_again, _) = replay(&jittery(1, 3), &script);
    let (b, _) = replay(&jittery(2, 3), &script);
    assert_eq!(log_text(&a), log_text(&a_again));
    assert_ne!(log_text(&a), log_text(&b), "the seed drives the jitter");
    // Only the timing differs: every delivery tick is within the jitter of its send.
    let ticks = |log: &[Event]| log.iter().map(|e| e.tick).collect::<Vec<_>>();
    assert_ne!(ticks(&a), ticks(&b));
}

#[test]
fn without_jitter_the_seed_changes_nothing_that_happens() {
    let script = timing_free_script();
    let (a, wa) = replay(&jittery(1, 0), &script);
    let (b, wb) = replay(&jittery(2, 0), &script);
    assert_eq!(log_text(&a), log_text(&b));
    // The worlds differ only in the generator's state, which nothing drew from.
    assert_ne!(wa.rng(), wb.rng());
    let without_rng = |w: &World| {
        let mut v = serde_json::to_value(w).expect("a world serialises");
        v.as_object_mut().expect("an object").remove("rng");
        v
    };
    assert_eq!(without_rng(&wa), without_rng(&wb));
}

/// A run of user actions on the jittery scenario, with a copy of the world after each.
fn acted_run(steps: usize) -> (Run, Vec<World>) {
    let s = jittery(9, 2);
    let (actions, _, _) = random_walk(&s, 11, steps);
    let mut run = Run::new(&s, None);
    let mut worlds = vec![run.world().clone()];
    for a in actions {
        assert_eq!(run.act(a), Ok(false), "acting at the end does not fork");
        worlds.push(run.world().clone());
    }
    (run, worlds)
}

#[test]
fn stepping_back_and_forward_reproduces_every_frame_exactly() {
    let (mut run, worlds) = acted_run(120);
    let n = run.len();
    assert_eq!(n, 120);
    let logs: Vec<Vec<Event>> = (0..=n)
        .map(|i| {
            run.seek(i);
            run.events().cloned().collect()
        })
        .collect();
    run.seek(n);
    for i in (0..n).rev() {
        assert!(run.step_back());
        assert_eq!(run.cursor(), i);
        assert_eq!(run.world(), &worlds[i], "back to step {i}");
        assert_eq!(run.world().fingerprint(), worlds[i].fingerprint());
        assert_eq!(run.events().cloned().collect::<Vec<_>>(), logs[i]);
    }
    assert!(!run.step_back(), "nothing before the start");
    for i in 1..=n {
        assert_eq!(run.step_forward(), Ok(true));
        assert_eq!(run.world(), &worlds[i], "forward to step {i}");
        assert_eq!(run.events().cloned().collect::<Vec<_>>(), logs[i]);
    }
    assert_eq!(run.len(), n, "redoing steps adds none");
    assert_eq!(run.step_forward(), Ok(false), "no script: nothing further");
    // Frames stepped over are the ones recorded.
    for (i, w) in worlds.iter().enumerate() {
        assert_eq!(run.world_at(i), Some(w));
    }
}

#[test]
fn acting_after_stepping_back_forks_and_the_fork_is_a_fresh_run() {
    let (mut run, worlds) = acted_run(60);
    let fork_at = 25;
    run.seek(fork_at);
    assert_eq!(run.world(), &worlds[fork_at]);
    let a = Action::Advance { ticks: 7 };
    assert_eq!(
        run.act(a.clone()),
        Ok(true),
        "acting while stepped back forks"
    );
    assert_eq!(run.len(), fork_at + 1, "the steps ahead are discarded");
    assert_eq!(run.cursor(), fork_at + 1);
    assert_eq!(run.current_entry(), &Entry::User(a.clone()));
    assert_eq!(
        run.world_at(fork_at),
        Some(&worlds[fork_at]),
        "history before the fork is kept"
    );
    // The fork's world is what stepping a copy of the earlier world gives.
    let mut expect = worlds[fork_at].clone();
    expect.step(&a).unwrap();
    assert_eq!(run.world(), &expect);
    // And replaying the branch's user actions on a fresh run reproduces it.
    let mut again = Run::new(&run.scenario, None);
    for (_, a) in run.user_actions() {
        again.act(a).unwrap();
    }
    assert_eq!(again.world(), run.world());
    assert!(again.events().eq(run.events()));
}

#[test]
fn a_refused_action_leaves_the_run_and_world_untouched() {
    let (mut run, worlds) = acted_run(30);
    let before = run.clone();
    let bad = Action::Resume {
        worker: "nobody".into(),
    };
    assert!(run.act(bad).is_err());
    assert_eq!(run, before);
    let mut w = worlds[30].clone();
    assert!(w.step(&Action::Advance { ticks: 0 }).is_err());
    assert_eq!(w, worlds[30]);
}

#[test]
fn a_preset_run_steps_back_through_its_script_exactly() {
    let s = presets::get("paused-writer").expect("preset");
    let mut run = Run::new(&s, s.variants.first());
    let mut worlds = vec![run.world().clone()];
    while run.step_forward().expect("the script runs") {
        worlds.push(run.world().clone());
    }
    assert_eq!(worlds.len(), s.script.len() + 1);
    while run.step_back() {
        assert_eq!(run.world(), &worlds[run.cursor()]);
        assert_eq!(
            run.entry(run.cursor() + 1),
            Some(&Entry::Script(run.cursor()))
        );
    }
    // Stepping forward redoes the script steps without running them again.
    while run.step_forward().unwrap() {
        assert_eq!(run.world(), &worlds[run.cursor()]);
    }
    // Taking over mid-script forks from there.
    run.seek(3);
    assert_eq!(run.act(Action::Advance { ticks: 1 }), Ok(true));
    assert!(run.taken_over());
    assert_eq!(run.next_script_step(), None);
}

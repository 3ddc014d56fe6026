//! The explorer's deduplication key is sound: two worlds with the same `state_key` have the
//! same futures. Checked the direct way, over every world a bounded search reaches from the
//! presets' starts: the successors of two worlds with one key have the same keys.

use fencing_lab::presets;
use fencing_lab::sim::{Action, World};
use std::collections::{BTreeSet, HashMap, VecDeque};

/// Every action the sandbox offers now, plus advances that make time pass.
fn moves(w: &World) -> Vec<Action> {
    let mut acts = w.enabled_actions();
    acts.push(Action::Advance { ticks: 2 });
    acts
}

fn successor_keys(w: &World) -> BTreeSet<u64> {
    moves(w)
        .iter()
        .filter_map(|a| {
            let mut next = w.clone();
            next.step(a).ok().map(|_| next.state_key())
        })
        .collect()
}

/// Breadth first from `start` to `depth` actions (at most `limit` worlds); whenever a world
/// arrives with a key already seen, its successors must have the same keys as the first's.
fn check_from(start: World, depth: usize, limit: usize) -> (usize, usize) {
    let mut first: HashMap<u64, World> = HashMap::new();
    let mut queue = VecDeque::from([(start, 0usize)]);
    let (mut merged, mut worlds) = (0, 0);
    while let Some((w, d)) = queue.pop_front() {
        let key = w.state_key();
        if let Some(seen) = first.get(&key) {
            if seen != &w {
                merged += 1;
                assert_eq!(
                    successor_keys(seen),
                    successor_keys(&w),
                    "two worlds share key {key:x} but not their futures:\n{seen:#?}\n{w:#?}"
                );
            }
            continue;
        }
        worlds += 1;
        if d < depth && first.len() < limit {
            for a in moves(&w) {
                let mut next = w.clone();
                if next.step(&a).is_ok() {
                    queue.push_back((next, d + 1));
                }
            }
        }
        first.insert(key, w);
    }
    (worlds, merged)
}

#[test]
fn worlds_with_one_key_have_the_same_successors() {
    let mut merged_somewhere = 0;
    for id in ["paused-writer", "delayed-before-new", "renewal-failure"] {
        let s = presets::get(id).expect("preset");
        let (worlds, merged) = check_from(World::new(&s), 6, 1_500);
        assert!(
            worlds > 100,
            "{id}: the search reached only {worlds} worlds"
        );
        merged_somewhere += merged;
    }
    // The key is worth having: different worlds (message ids, request numbers) do merge.
    assert!(merged_somewhere > 0);
}

#[test]
fn the_order_of_two_acquires_in_one_tick_is_part_of_the_state() {
    // A then B, or B then A, in the same tick: the same messages on the wire, but the next
    // tick delivers them in sending order, so a different worker gets the first token.
    let s = presets::get("paused-writer").expect("preset");
    let acquire = |w: &str| Action::Acquire {
        worker: w.into(),
        lock: None,
    };
    let mut ab = World::new(&s);
    ab.step(&acquire("A")).unwrap();
    ab.step(&acquire("B")).unwrap();
    let mut ba = World::new(&s);
    ba.step(&acquire("B")).unwrap();
    ba.step(&acquire("A")).unwrap();
    assert_ne!(ab.state_key(), ba.state_key());
    for w in [&mut ab, &mut ba] {
        w.step(&Action::Advance { ticks: 2 }).unwrap();
    }
    assert!(ab.worker("A").unwrap().holds_any() && ba.worker("B").unwrap().holds_any());
}

#[test]
fn the_explorers_quiet_step_changes_the_state_as_a_step_does() {
    // `step_quiet` skips the log, metrics and overlaps; everything a state is made of must
    // come out the same, over every move of a bounded search of each preset.
    let mut compared = 0;
    for s in presets::all() {
        let mut queue = VecDeque::from([(World::new(&s), 0usize)]);
        let mut budget = 400;
        while let Some((w, d)) = queue.pop_front() {
            for a in moves(&w) {
                let (mut loud, mut quiet) = (w.clone(), w.clone());
                let stepped = loud.step(&a).map(|_| ());
                assert_eq!(stepped, quiet.step_quiet(&a), "{}: {a:?}", s.id);
                if stepped.is_err() {
                    continue;
                }
                compared += 1;
                assert_eq!(loud.state_key(), quiet.state_key(), "{}: {a:?}", s.id);
                assert_eq!(
                    (&loud.coordinator(), &loud.workers(), &loud.resources()),
                    (&quiet.coordinator(), &quiet.workers(), &quiet.resources()),
                    "{}: {a:?}",
                    s.id
                );
                assert_eq!(
                    (&loud.network(), &loud.ghost()),
                    (&quiet.network(), &quiet.ghost())
                );
                if d < 5 && budget > 0 {
                    budget -= 1;
                    queue.push_back((quiet, d + 1));
                }
            }
        }
    }
    assert!(compared > 5_000, "compared only {compared} steps");
}

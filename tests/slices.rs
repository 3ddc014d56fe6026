//! Long work in slices (issue 33): a replay done a slice at a time (`sim::run::Replay`) gives
//! the very run the one-shot replay gives, for every preset and every slice size; a budget
//! bigger than the work finishes in one slice; a refusal is the same refusal.

use fencing_lab::presets;
use fencing_lab::sim::run::{Replay, Replayed};
use fencing_lab::sim::{Action, Run, Scenario};

/// The run a replay must give, built step by step without `Replay`.
fn by_hand(s: &Scenario, script_steps: usize, actions: &[Action]) -> Run {
    let mut run = Run::new(s, s.variants.first());
    for _ in 0..script_steps {
        assert!(run.step_forward().expect("the preset's script runs"));
    }
    for a in actions {
        run.act(a.clone()).expect("the actions are accepted");
    }
    run
}

/// Slices of `budget` until done; how many slices it took.
fn sliced(mut r: Replay, budget: usize) -> (Run, usize) {
    let mut slices = 1;
    while !r.work(budget).expect("nothing refused") {
        let (done, all) = r.progress();
        assert!(done <= all);
        slices += 1;
    }
    assert_eq!(r.progress().0, r.progress().1);
    (r.finish(), slices)
}

#[test]
fn a_sliced_replay_gives_the_one_shot_run_for_every_preset() {
    let actions = [Action::Advance { ticks: 3 }, Action::Advance { ticks: 1 }];
    for s in presets::all() {
        let n = s.script.len();
        let want = by_hand(&s, n, &actions);
        let one_shot = Run::replay(&s, s.variants.first(), n, &actions).unwrap();
        assert_eq!(one_shot, want, "{}", s.id);
        for budget in [1, 2, 7, 100] {
            let r = Replay::new(&s, s.variants.first(), n, &actions).unwrap();
            let (run, slices) = sliced(r, budget);
            assert_eq!(run, want, "{} in slices of {budget}", s.id);
            // A slice of one unit of work takes one step: as many slices as steps, at least.
            if budget == 1 {
                assert!(slices >= n + actions.len(), "{}: {slices} slices", s.id);
            }
        }
        // A budget bigger than the work: one slice.
        let r = Replay::new(&s, s.variants.first(), n, &actions).unwrap();
        assert_eq!(sliced(r, usize::MAX), (want, 1), "{}", s.id);
    }
}

#[test]
fn the_script_played_on_in_slices_is_run_script() {
    for s in presets::all() {
        let mut want = Run::new(&s, s.variants.first());
        want.step_forward().unwrap();
        let from = want.clone();
        want.run_script().unwrap();
        for budget in [1, 3, usize::MAX] {
            let mut back = from.clone();
            back.seek(0);
            let (run, slices) = sliced(Replay::script_on(back, usize::MAX), budget);
            assert_eq!(run, want, "{} in slices of {budget}", s.id);
            if budget == usize::MAX {
                assert_eq!(slices, 1);
            }
        }
        // A few steps on only (scrubbing past the recorded steps).
        let (run, _) = sliced(Replay::script_on(from.clone(), 2), 1);
        assert_eq!(run.len(), (from.len() + 2).min(s.script.len()), "{}", s.id);
    }
}

#[test]
fn a_sliced_replay_refuses_what_the_one_shot_refuses() {
    let s = presets::get("paused-writer").unwrap();
    let too_many = s.script.len() + 3;
    let one = Run::replay(&s, None, too_many, &[]).unwrap_err();
    let mut r = Replay::new(&s, None, too_many, &[]).unwrap();
    let got = loop {
        match r.work(1) {
            Ok(false) => {}
            Ok(true) => panic!("a script too short cannot be replayed"),
            Err(e) => break e,
        }
    };
    assert_eq!(got, one);
    assert!(matches!(got.what, Replayed::ScriptEnded { .. }));
}

//! Two receiver choices side by side: the current run replayed under another policy or
//! variant — the same scenario, seed, script steps and user actions, step for step — and the
//! first step where the two part ways.
//!
//! **Where runs differ.** Step `N` is the first divergent step when, counting from 1:
//! - the other run refused step `N` (an action that makes no sense under that policy), or
//! - the *decisions* of step `N` differ: the resources' verdicts (accepted, no-op, rejected
//!   and why, replayed, check passed, transaction refused) and the violations found, in
//!   order, per resource and request — not the words around them (a verdict's "highest"
//!   token is each policy's own bookkeeping), or
//! - after step `N` a resource's *protected state* differs: its value, balance or items.
//!   Fencing bookkeeping (highest token seen, recorded results) is left out: it differs by
//!   design between policies long before any write is treated differently.
//!
//! Messages, leases and workers are the same in both runs until a decision differs, since
//! only the receivers' policies differ; so these two are what "the runs differ" means.

use super::layout::{self, Spacing, Timeline};
use super::state::{build_run, AppState, Choice};
use super::text::{self, PolicyOptions};
use crate::sim::event::{Event, EventKind};
use crate::sim::run::{Entry, Run};
use crate::sim::scenario::Scenario;
use crate::sim::World;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    pub step: usize,
    /// "The runs first differ at step N: …".
    pub text: String,
}

/// What the current run is compared with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Other {
    /// The same steps replayed under another receiver choice.
    Choice(Choice),
    /// Another branch of the run (`view::branches`), by number.
    Branch(usize),
}

#[derive(Clone, Debug)]
pub struct Comparison {
    /// How each run is named in a sentence: "under highest-seen", "on branch 2".
    pub names: (String, String),
    /// The current run over its whole plan (its steps, then the rest of the script), at
    /// the current step: what the main view shows, and will show.
    pub main: Run,
    /// The same steps under `other_choice`, at the same step (or its last, if it was refused).
    pub other: Run,
    pub divergence: Option<Divergence>,
}

/// A decision, comparable across policies: (resource, request, what was decided).
type Decision = (String, Option<String>, String);

fn decision(e: &Event) -> Option<Decision> {
    use EventKind::*;
    let (resource, what) = match &e.kind {
        WriteAccepted {
            resource, no_op, ..
        } => (
            resource,
            if *no_op { "no-op" } else { "accepted" }.to_string(),
        ),
        WriteRejected {
            resource, reason, ..
        } => (resource, format!("rejected: {}", reason.as_str())),
        WriteReplayed { resource, .. } => (resource, "replayed".into()),
        CheckPassed { resource, .. } => (resource, "check passed".into()),
        TransactionRefused { resource, .. } => (resource, "refused".into()),
        Violation { kind, resource, .. } => (resource, format!("violation {}", kind.as_str())),
        _ => return None,
    };
    Some((
        resource.to_string(),
        e.request.as_deref().map(str::to_string),
        what,
    ))
}

fn decisions(events: &[Event]) -> Vec<Decision> {
    events.iter().filter_map(decision).collect()
}

/// What a step decided, in words (the events' own log lines, tick dropped).
fn decided(events: &[Event]) -> String {
    let lines: Vec<String> = events
        .iter()
        .filter(|e| decision(e).is_some())
        .map(|e| format!("{} {}", e.actor, e.kind))
        .collect();
    if lines.is_empty() {
        "nothing is decided".into()
    } else {
        lines.join("; ")
    }
}

/// The first resource whose protected state differs: its name and each side's state.
fn state_difference(a: &World, b: &World) -> Option<(String, String, String)> {
    a.resources()
        .iter()
        .zip(b.resources())
        .find_map(|(ra, rb)| {
            let (da, db) = (&ra.data, &rb.data);
            let same = da.value == db.value && da.balance == db.balance && da.items == db.items;
            let show = |d: &crate::sim::resource::ResourceData| {
                if d.items.is_empty() {
                    format!("value “{}”, balance {}", d.value, d.balance)
                } else {
                    format!("value “{}”, items {}", d.value, d.items.to_vec().join(", "))
                }
            };
            (!same).then(|| (ra.name.to_string(), show(da), show(db)))
        })
}

/// The current run of `state` replayed under `other`, and where the two first differ.
pub fn compare(state: &AppState, other: &Choice) -> Comparison {
    compare_with(state, &Other::Choice(other.clone()))
}

/// The current run of `state` and `other` (another choice, or another branch), and where
/// the two first differ.
pub fn compare_with(state: &AppState, other: &Other) -> Comparison {
    let mut main = state.run.clone();
    let cursor = main.cursor();
    // The rest of the script too, so the difference is found even ahead of the current step.
    // A refused script step ends the plan there; the main view reports it.
    let _ = main.run_script();
    match other {
        Other::Choice(c) => {
            let names = (
                format!("under {}", state.choice.value()),
                format!("under {}", c.value()),
            );
            with_choice(main, cursor, build_run(state.current(), c), names)
        }
        Other::Branch(n) => {
            let mut twin = state
                .branches
                .get(*n)
                .cloned()
                .unwrap_or_else(|| main.clone());
            let _ = twin.run_script();
            let names = (
                format!("on this branch ({})", state.branches.current()),
                format!("on branch {n}"),
            );
            let divergence =
                first_difference(&main, &twin, &names).or_else(|| parting(&main, &twin, &names));
            at_step(main, twin, cursor, names, divergence)
        }
    }
}

/// Where two branches that decide alike on the steps both took part: the first step they
/// took differently, in words, and how far each goes.
fn parting(main: &Run, twin: &Run, (a, b): &(String, String)) -> Option<Divergence> {
    use crate::view::branches::{shared_steps, step_words};
    let step = shared_steps(main, twin) + 1;
    let (la, lb) = (main.len(), twin.len());
    if step > la.max(lb) {
        return None;
    }
    let took = |r: &Run| step_words(r, step).unwrap_or_else(|| "nothing (it ends)".into());
    let both = la.min(lb);
    let after = match la.cmp(&lb) {
        std::cmp::Ordering::Equal => String::new(),
        std::cmp::Ordering::Less => format!(" The run {b} goes on to step {lb}."),
        std::cmp::Ordering::Greater => format!(" The run {a} goes on to step {la}."),
    };
    Some(Divergence {
        step,
        text: format!(
            "The branches part at step {step}: {a} it takes {}, {b} {}. Up to step {both} they decide the same and leave the resources the same.{after}",
            took(main),
            took(twin)
        ),
    })
}

/// `main` (at `cursor` once done) and its steps replayed in `twin`, a fresh run under
/// another choice.
fn with_choice(main: Run, cursor: usize, mut twin: Run, names: (String, String)) -> Comparison {
    let mut refused = None;
    for s in 1..=main.len() {
        let taken = match main.entry(s) {
            Some(Entry::User(a)) => twin.act(a.clone()).map(|_| ()),
            _ => twin.step_forward().map(|_| ()),
        };
        if let Err(e) = taken {
            refused = Some((s, e));
            break;
        }
    }
    let mut divergence = first_difference(&main, &twin, &names);
    let b = &names.1;
    if divergence.is_none() {
        if let Some((s, e)) = refused {
            divergence = Some(Divergence {
                step: s,
                text: format!(
                    "The runs first differ at step {s}: {b} that step was refused ({e}), so the run {b} stops there."
                ),
            });
        }
    }
    at_step(main, twin, cursor, names, divergence)
}

/// The comparison of two runs, both shown at step `cursor`.
fn at_step(
    mut main: Run,
    mut twin: Run,
    cursor: usize,
    names: (String, String),
    divergence: Option<Divergence>,
) -> Comparison {
    main.seek(cursor);
    twin.seek(cursor);
    Comparison {
        names,
        main,
        other: twin,
        divergence,
    }
}

/// The first step, among those both runs took, where they decide differently or leave a
/// resource's protected state different.
fn first_difference(main: &Run, twin: &Run, (a, b): &(String, String)) -> Option<Divergence> {
    let mut divergence = None;
    for s in 1..=twin.len().min(main.len()) {
        let (ea, eb) = (main.step_events(s), twin.step_events(s));
        if decisions(ea) != decisions(eb) {
            divergence = Some(Divergence {
                step: s,
                text: format!(
                    "The runs first differ at step {s}: {a}, {}; {b}, {}.",
                    decided(ea),
                    decided(eb)
                ),
            });
            break;
        }
        let (wa, wb) = (main.world_at(s), twin.world_at(s));
        if let Some((r, sa, sb)) = wa.zip(wb).and_then(|(x, y)| state_difference(x, y)) {
            divergence = Some(Divergence {
                step: s,
                text: format!(
                    "The runs first differ at step {s}: {r} holds {sa} {a}, and {sb} {b}."
                ),
            });
            break;
        }
    }
    divergence
}

/// Both runs laid out from step `first` with the wider of each step's bands, so step `N` is
/// at the same x in both diagrams.
pub fn aligned(c: &Comparison, first: usize) -> (Timeline, Timeline) {
    let lone = |run| layout::layout_with(run, first, Spacing::Aligned(&[]));
    let (wa, wb) = (
        layout::band_widths(&lone(&c.main)),
        layout::band_widths(&lone(&c.other)),
    );
    let widths: Vec<i32> = (0..wa.len().max(wb.len()))
        .map(|i| wa.get(i).copied().max(wb.get(i).copied()).unwrap_or(0))
        .collect();
    (
        layout::layout_with(&c.main, first, Spacing::Aligned(&widths)),
        layout::layout_with(&c.other, first, Spacing::Aligned(&widths)),
    )
}

/// What the view says about the two runs at the current step. Both runs are compared over
/// the whole plan (the steps taken and the rest of the script), so the sentence says whether
/// they differ up to this step, and whether they differ later.
pub fn summary(c: &Comparison) -> String {
    let (a, b) = &c.names;
    let cursor = c.main.cursor();
    let last = c.main.len();
    match &c.divergence {
        Some(d) if d.step <= cursor => d.text.clone(),
        Some(d) => {
            let here = if cursor == 0 {
                "Up to this step (the start)".to_string()
            } else {
                format!("Up to this step (step {cursor})")
            };
            format!(
                "{here} the runs do not differ, but they do later. {} (Step forward to step {} to see it.)",
                d.text, d.step
            )
        }
        None if cursor < last => format!(
            "The runs do not differ up to this step, nor later: {a} and {b} every step of this run, to its last (step {last}), decides the same and leaves the resources the same."
        ),
        // Nothing planned ahead, but the user may act on: the sandbox, or a branch they took.
        None if c.main.has_user_actions() || c.main.scenario.script.is_empty() => {
            format!(
                "The runs do not differ so far: {a} and {b} every step taken decides the same and leaves the resources the same."
            )
        }
        None => format!(
            "The runs do not differ: {a} and {b} every step of this run decides the same and leaves the resources the same."
        ),
    }
}

/// The choices the compare view offers: the policy picker's, less the current one (comparing
/// a run with itself shows nothing).
fn offered(s: &Scenario, own: &str) -> PolicyOptions {
    let o = text::policy_options(s);
    let keep = |v: Vec<(String, String)>| v.into_iter().filter(|(value, _)| value != own).collect();
    PolicyOptions {
        variants: keep(o.variants),
        plain: keep(o.plain),
    }
}

/// The value compared with: the one the user picked while it is still offered, else the
/// first offered.
fn other_value(offered: &PolicyOptions, picked: Option<&str>) -> Option<String> {
    let mut values = offered
        .variants
        .iter()
        .chain(&offered.plain)
        .map(|(v, _)| v);
    match picked {
        Some(p)
            if offered
                .variants
                .iter()
                .chain(&offered.plain)
                .any(|(v, _)| v == p) =>
        {
            Some(p.to_string())
        }
        _ => values.next().cloned(),
    }
}

/// What the compare view offers, and what it compares the run with.
pub struct Counterpart {
    /// Every receiver choice of the scenario but the current one.
    pub options: PolicyOptions,
    /// The other branches of the run: (`<select>` value, label).
    pub branches: Vec<(String, String)>,
    /// The `<select>` value compared with: the one the user picked while it is still
    /// offered, else the first offered (the current choice itself if none is).
    pub value: String,
    pub other: Other,
}

/// The `<select>` value of branch `n` in the compare view (a policy's name never has a colon).
fn branch_value(n: usize) -> String {
    format!("branch:{n}")
}

/// The compare view's counterpart to the current run, `picked` being the value the user
/// last chose in its select, if any.
pub fn counterpart(state: &AppState, picked: Option<&str>) -> Counterpart {
    let current = state.current();
    let own = state.choice.value();
    let options = offered(current, &own);
    let branches: Vec<(String, String)> = state
        .branches
        .rows(&state.run)
        .iter()
        .filter(|r| !r.current)
        .map(|r| (branch_value(r.number), crate::view::branches::label(r)))
        .collect();
    let branch = picked.and_then(|p| branches.iter().find(|(v, _)| v == p));
    if let Some((value, _)) = branch {
        let n = value["branch:".len()..].parse().unwrap_or(0);
        return Counterpart {
            options,
            value: value.clone(),
            other: Other::Branch(n),
            branches,
        };
    }
    let value = other_value(&options, picked).unwrap_or(own);
    let choice = Choice::parse(current, &value).unwrap_or_else(|| state.choice.clone());
    Counterpart {
        options,
        branches,
        value,
        other: Other::Choice(choice),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::message::MessageKind;
    use crate::sim::request::Op;
    use crate::sim::worker::WriteSpec;
    use crate::sim::{Action, Policy};
    use crate::view::state::{load_presets, Msg};

    fn app(id: &str, choice: Choice) -> AppState {
        crate::view::state::app_on(id, choice)
    }

    fn chosen(c: &Counterpart) -> &Choice {
        match &c.other {
            Other::Choice(c) => c,
            Other::Branch(n) => panic!("offered branch {n}, not a choice"),
        }
    }

    fn variant(n: &str) -> Choice {
        Choice::Variant(n.into())
    }

    /// The step at which a write with token `n` (its short form) reaches a resource.
    fn stale_write_arrives(run: &Run, n: &str) -> usize {
        (1..=run.len())
            .find(|&s| {
                run.step_events(s).iter().any(|e| {
                    matches!(
                        &e.kind,
                        EventKind::Delivered {
                            kind: MessageKind::Write,
                            ..
                        }
                    ) && e.token.as_ref().is_some_and(|t| t.short() == n)
                })
            })
            .expect("A's write arrives")
    }

    #[test]
    fn two_branches_are_compared_step_for_step_and_part_where_they_fork_or_later() {
        let mut a = app("paused-writer", variant("highest-seen"));
        a.apply(Msg::ToEnd);
        let last = a.run.len();
        a.apply(Msg::Seek(3));
        a.apply(Msg::Act(Action::Advance { ticks: 1 }));
        let offered = counterpart(&a, Some("branch:1"));
        assert_eq!(offered.other, Other::Branch(1));
        assert_eq!(offered.branches.len(), 1);
        assert!(
            offered.branches[0].1.starts_with("Branch 1 ("),
            "{:?}",
            offered.branches
        );
        let c = compare_with(&a, &offered.other);
        assert_eq!(c.other.len(), last, "branch 1 whole, as it was");
        assert_eq!(c.main.cursor(), 4);
        let d = c.divergence.clone().expect("they differ");
        assert!(d.step >= 4, "not before the fork: {}", d.text);
        assert!(d.text.contains("on branch 1"), "{}", d.text);
        // The same branch compared with itself: it takes no different step.
        let mut same = a.clone();
        same.apply(Msg::Branch(1));
        same.apply(Msg::Seek(2));
        same.apply(Msg::Act(Action::Advance { ticks: 1 }));
        let c = compare_with(&same, &Other::Branch(2));
        assert_eq!(
            c.divergence.map(|d| d.step),
            Some(3),
            "branches 2 and 3 part at step 3 at the latest"
        );
        // An unknown pick falls back to a receiver choice.
        assert!(matches!(
            counterpart(&a, Some("branch:9")).other,
            Other::Choice(_)
        ));
    }

    #[test]
    fn paused_writer_unfenced_and_highest_seen_part_where_the_stale_write_arrives() {
        let a = app("paused-writer", variant("unfenced"));
        let c = compare(&a, &variant("highest-seen"));
        let d = c.divergence.clone().expect("they differ");
        // Step 10 of the script: "A's delayed write reaches the resource."
        assert_eq!(d.step, 10, "{}", d.text);
        assert_eq!(d.step, stale_write_arrives(&c.main, "41"));
        assert_eq!(
            d.step,
            stale_write_arrives(&c.other, "41"),
            "the same step in both"
        );
        assert!(
            d.text.starts_with(&format!(
                "The runs first differ at step {}: under unfenced, report accepts",
                d.step
            )),
            "{}",
            d.text
        );
        assert!(d.text.contains("VIOLATION stale_overwrite"), "{}", d.text);
        assert!(
            d.text.contains("under highest-seen, report rejects: stale"),
            "{}",
            d.text
        );
        // Found from step 0, ahead of the current step; both runs shown at the current step.
        assert_eq!((c.main.cursor(), c.other.cursor()), (0, 0));
        assert_eq!(c.main.len(), c.other.len());
        // Everything before it decided the same.
        for s in 1..d.step {
            assert_eq!(
                decisions(c.main.step_events(s)),
                decisions(c.other.step_events(s))
            );
        }
    }

    #[test]
    fn identical_choices_never_diverge() {
        let mut a = AppState::new(load_presets());
        for i in 0..a.scenarios.len() {
            a.apply(Msg::Load(i));
            let c = compare(&a, &a.choice.clone());
            assert_eq!(c.divergence, None, "{}", a.current().id);
            assert_eq!(c.other.len(), c.main.len(), "{}", a.current().id);
        }
    }

    #[test]
    fn user_actions_apply_to_both_runs() {
        // The sandbox scripts nothing: A prepares a write, its lease runs out, B takes over
        // and writes, then A sends. Only the user acts, and the two runs part where A's write
        // lands.
        let w = |v: &str| WriteSpec {
            to: vec!["store".into()],
            op: Op::Set(v.into()),
            op_id: None,
            label: None,
            transaction: false,
            if_version: None,
        };
        let acquire = |w: &str| Action::Acquire {
            worker: w.into(),
            lock: None,
        };
        let advance = |ticks| Action::Advance { ticks };
        let mut a = app("sandbox", Choice::Policy(Policy::Unfenced));
        let mut acts = vec![
            acquire("A"),
            advance(2),
            Action::Prepare {
                worker: "A".into(),
                write: w("from A"),
            },
            advance(12),
            acquire("B"),
            advance(2),
            Action::Write {
                worker: "B".into(),
                write: w("from B"),
            },
            advance(2),
        ];
        let before_a_sends = acts.len();
        acts.extend([Action::Send { worker: "A".into() }, advance(2)]);
        for act in acts.iter().take(before_a_sends) {
            a.apply(Msg::Act(act.clone()));
        }
        let c = compare(&a, &Choice::Policy(Policy::HighestSeen));
        assert_eq!(c.other.user_actions(), a.run.user_actions());
        assert_eq!(c.divergence, None, "both accept B's write");
        for act in acts.iter().skip(before_a_sends) {
            a.apply(Msg::Act(act.clone()));
        }
        let c = compare(&a, &Choice::Policy(Policy::HighestSeen));
        assert_eq!(c.other.user_actions(), a.run.user_actions());
        assert_eq!((c.other.len(), c.other.cursor()), (acts.len(), acts.len()));
        let d = c.divergence.expect("A's late write splits them");
        assert_eq!(d.step, stale_write_arrives(&c.main, "1"), "{}", d.text);
        assert!(
            d.text.contains("under highest-seen, store rejects: stale"),
            "{}",
            d.text
        );
        // The resource ends differently: B's value kept under highest-seen only.
        let value = |r: &Run| r.world().resources()[0].data.value.clone();
        assert_eq!(
            (value(&c.main), value(&c.other)),
            ("from A".into(), "from B".into())
        );
    }

    #[test]
    fn aligned_layouts_put_every_step_at_the_same_x() {
        let bands = |t: &Timeline| {
            t.steps
                .iter()
                .map(|b| (b.step, b.x0, b.x1))
                .collect::<Vec<_>>()
        };
        let mut a = AppState::new(load_presets());
        let mut differed_unaligned = 0;
        for i in 0..a.scenarios.len() {
            a.apply(Msg::Load(i));
            a.apply(Msg::ToEnd);
            for p in [Policy::Unfenced, Policy::CheckThenWrite, Policy::Strict] {
                let c = compare(&a, &Choice::Policy(p));
                let first = c.main.cursor().clamp(1, 3); // a window, not only the whole run
                let (ta, tb) = aligned(&c, first);
                let id = &a.current().id;
                if c.other.cursor() == c.main.cursor() {
                    assert_eq!(bands(&ta), bands(&tb), "{id} vs {}", p.as_str());
                    assert_eq!(ta.now_x, tb.now_x, "{id} vs {}", p.as_str());
                }
                let lone = |run| layout::layout_with(run, first, Spacing::Aligned(&[]));
                let (ua, ub) = (lone(&c.main), lone(&c.other));
                differed_unaligned += usize::from(bands(&ua) != bands(&ub));
                // Aligning only widens.
                for (x, y) in bands(&ta).iter().zip(bands(&ua)) {
                    assert!(x.2 - x.1 >= y.2 - y.1, "{id}");
                }
            }
        }
        assert!(
            differed_unaligned > 0,
            "the test would pass without aligning"
        );
    }

    #[test]
    fn before_the_difference_the_view_says_the_runs_agree_so_far_and_differ_later() {
        let mut a = app("paused-writer", variant("unfenced"));
        for _ in 0..3 {
            a.apply(Msg::StepForward);
        }
        let c = compare(&a, &variant("highest-seen"));
        let d = c.divergence.clone().expect("they differ at step 10");
        let text = summary(&c);
        assert!(
            text.starts_with(
                "Up to this step (step 3) the runs do not differ, but they do later. The runs first differ at step 10: "
            ),
            "{text}"
        );
        assert!(
            text.ends_with("(Step forward to step 10 to see it.)"),
            "{text}"
        );
        assert!(text.contains(&d.text), "{text}");
        // From the step where they part, the difference itself.
        a.apply(Msg::Seek(d.step));
        let c = compare(&a, &variant("highest-seen"));
        assert_eq!(summary(&c), d.text);
        a.apply(Msg::ToEnd);
        let c = compare(&a, &variant("highest-seen"));
        assert_eq!(summary(&c), d.text);
    }

    #[test]
    fn runs_that_never_differ_are_said_to_agree_to_their_last_step() {
        // Every preset and choice that agrees over the whole run, looked at mid-way: the
        // sentence covers the steps ahead too.
        let mut a = AppState::new(load_presets());
        let mut seen = 0;
        for i in 0..a.scenarios.len() {
            a.apply(Msg::Load(i));
            if a.current().script.len() < 3 {
                continue;
            }
            a.apply(Msg::Seek(1));
            for p in Policy::ALL {
                let c = compare(&a, &Choice::Policy(p));
                if c.divergence.is_some() || c.names.0 == c.names.1 {
                    continue;
                }
                seen += 1;
                let text = summary(&c);
                assert!(
                    text.starts_with("The runs do not differ up to this step, nor later: ")
                        && text.contains(&format!("to its last (step {})", c.main.len())),
                    "{}: {text}",
                    a.current().id
                );
            }
        }
        assert!(
            seen > 0,
            "no pair of choices agrees: the test checks nothing"
        );
    }

    #[test]
    fn the_sandbox_agrees_so_far() {
        let mut a = app("sandbox", Choice::Policy(Policy::HighestSeen));
        a.apply(Msg::Act(Action::Acquire {
            worker: "A".into(),
            lock: None,
        }));
        let c = compare(&a, &Choice::Policy(Policy::Strict));
        assert_eq!(c.divergence, None);
        assert!(
            summary(&c).starts_with("The runs do not differ so far: "),
            "{}",
            summary(&c)
        );
    }

    #[test]
    fn the_compare_picker_never_offers_the_current_choice() {
        for s in crate::presets::all() {
            let all = text::policy_options(&s);
            for (own, _) in all.variants.iter().chain(&all.plain) {
                let o = offered(&s, own);
                let values: Vec<&String> =
                    o.variants.iter().chain(&o.plain).map(|(v, _)| v).collect();
                assert!(!values.contains(&own), "{}: {own} offered", s.id);
                assert_eq!(
                    values.len() + 1,
                    all.variants.len() + all.plain.len(),
                    "{}",
                    s.id
                );
                // The default is the first other choice; a pick is kept while offered.
                assert_eq!(other_value(&o, None).as_ref(), Some(values[0]));
                assert_eq!(other_value(&o, Some(own)).as_ref(), Some(values[0]));
                let last = values[values.len() - 1];
                assert_eq!(other_value(&o, Some(last)).as_ref(), Some(last));
            }
        }
    }

    #[test]
    fn the_counterpart_is_the_first_other_choice_until_one_is_picked() {
        for s in crate::presets::all() {
            let state = app(&s.id, Choice::default_for(&s));
            let own = state.choice.value();
            let first = counterpart(&state, None);
            let values: Vec<&String> = first
                .options
                .variants
                .iter()
                .chain(&first.options.plain)
                .map(|(v, _)| v)
                .collect();
            assert_eq!(&first.value, values[0], "{}", s.id);
            assert_ne!(first.value, own, "{}", s.id);
            assert_eq!(chosen(&first).value(), first.value, "{}", s.id);
            assert_ne!(*chosen(&first), state.choice, "{}", s.id);
            // A pick the scenario does not offer (the current choice, or a stale one from
            // another scenario) falls back to the first.
            for stale in [own.as_str(), "no-such-choice"] {
                assert_eq!(counterpart(&state, Some(stale)).value, first.value);
            }
            let last = values[values.len() - 1];
            let picked = counterpart(&state, Some(last));
            assert_eq!(
                (&picked.value, chosen(&picked).value()),
                (last, last.clone())
            );
        }
    }
}

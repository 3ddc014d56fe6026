//! The explorer panel's session: a search of the current scenario and receiver choice, run
//! by the explorer's Web Worker (`view::search`: the request it is sent, the replies it
//! posts), cancellable, with the words and figures the panel shows.
//!
//! The model has no clock, so the caller passes one in (`now` in milliseconds); the page
//! gives `Date.now`, the tests a fake. A session lives in the panel, not in `AppState`:
//! only loading a run it found changes the app (`Msg::LoadFound`). The page never searches:
//! its bundle holds no search code, only the request and the report.

use super::search::{Reply, Request, PROTOCOL};
use super::state::AppState;
use crate::sim::explore::{Bounds, ExploreReport, InvariantResult, MilestoneResult};
use crate::sim::{Action, Milestone, ViolationKind};

pub use super::search::Origin;

/// The page stops at fewer distinct states than the command line: a search's frontier is
/// kept in memory (the worker's, given back when it ends). About half the presets finish
/// inside it (docs/performance.md); the others report that they stopped at the bound.
pub const APP_MAX_STATES: usize = 50_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    Running,
    Done,
    Cancelled,
    /// The worker could not run the search: the reason, in words.
    Failed(String),
}

pub struct Session {
    /// Where the search started (0 is the start) and how the run got there, as
    /// `Run::replay` takes it: a counterexample is this, then the search's own actions.
    pub from_step: usize,
    pub origin: Origin,
    prefix: (usize, Vec<Action>),
    /// The request, encoded, for the worker once it says it is ready.
    request: String,
    /// The latest report from the worker (before the first, the start state alone).
    latest: ExploreReport,
    frontier: usize,
    pub phase: Phase,
    started_ms: f64,
    elapsed_ms: f64,
    /// The bound on distinct states: the progress bar's maximum at most.
    cap: usize,
}

/// What the panel does with the worker after a message: send it the request, stop it
/// (`Worker.terminate()`, which frees its memory), or nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Then {
    Send(String),
    Stop,
    Nothing,
}

/// What a session belongs to: the scenario shown and its receiver choice. The panel's body
/// is keyed by it, so another one drops the search and its report.
pub fn key(state: &AppState) -> String {
    format!("{}/{}", state.scenario, state.choice.value())
}

/// The bounds the panel explores within, from the start or from the step on screen.
pub fn bounds(state: &AppState, from: Origin) -> Bounds {
    let run = &state.run;
    let mut b = match from {
        Origin::Start => Bounds::for_scenario(&run.scenario),
        Origin::Here => Bounds::from_here(&run.scenario, run.world(), &run.script_to_come()),
    };
    b.max_states = b.max_states.min(APP_MAX_STATES);
    b
}

/// The search the panel asks its worker for: the run as it stands, from the start or from
/// the step on screen (`Request::explorer` is the one place that turns it into a search).
pub fn request(state: &AppState, from: Origin) -> Request {
    let run = &state.run;
    let (script_steps, actions) = match from {
        Origin::Start => (0, Vec::new()),
        Origin::Here => run.branch_to_cursor(),
    };
    Request {
        protocol: PROTOCOL,
        scenario: run.scenario.clone(),
        variant: run.variant.clone(),
        origin: from,
        script_steps,
        actions,
        bounds: bounds(state, from),
    }
}

/// Where the panel's main search starts: a scenario without a script (the blank sandbox)
/// has no story to explore from its start but the workers' own moves, so it starts there
/// from the step on screen.
pub fn main_search(state: &AppState) -> Origin {
    if state.run.scenario.script_actions().next().is_none() {
        Origin::Here
    } else {
        Origin::Start
    }
}

/// What a search from `origin` covers, in a sentence for the panel.
pub fn origin_note(state: &AppState, origin: Origin) -> String {
    let run = &state.run;
    match origin {
        Origin::Start => "From the start: every order of the scenario's script (each worker's own steps, and the story's faults) and the messages it causes.".to_string(),
        Origin::Here if run.script_to_come().is_empty() => format!(
            "From step {} (t={}), the world as it is now: the script has no more to say, so the search tries what you could do with the buttons — each worker acquiring, writing, retrying, renewing or releasing, up to the bound on the workers' own moves — in every order, with the network's choices.",
            run.cursor(),
            run.world().now()
        ),
        Origin::Here => format!(
            "From step {} (t={}), the world as it is now: every order of the rest of the script and the messages it causes.",
            run.cursor(),
            run.world().now()
        ),
    }
}

/// The bounds as (label, value) rows.
pub fn bounds_rows(b: &Bounds) -> Vec<(&'static str, String)> {
    vec![
        ("Longest run", format!("{} actions", b.max_depth)),
        ("Time up to", format!("t={}", b.max_tick)),
        ("Pauses", b.max_pauses.to_string()),
        ("Held messages", b.max_holds.to_string()),
        ("Duplicates", b.max_duplicates.to_string()),
        ("Drops", b.max_drops.to_string()),
        ("Crashes", b.max_crashes.to_string()),
        ("Workers' own moves", b.max_moves.to_string()),
        ("Distinct states, at most", thousands(b.max_states)),
    ]
}

/// 12345 → "12,345".
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The report before the worker's first: the start state, nothing settled, incomplete.
fn first_report(req: &Request) -> ExploreReport {
    ExploreReport {
        scenario: req.scenario.id.clone(),
        variant: req.variant.clone(),
        policy: req.scenario.policy.as_str().to_string(),
        bounds: req.bounds.clone(),
        states: 1,
        distinct_states: 1,
        terminal_states: 0,
        elapsed_ms: 0,
        complete: false,
        invariants: ViolationKind::ALL
            .iter()
            .map(|&kind| InvariantResult {
                kind,
                held: true,
                counterexample: None,
            })
            .collect(),
        milestones: Milestone::ALL
            .iter()
            .map(|&kind| MilestoneResult {
                kind,
                reached: false,
                witness: None,
            })
            .collect(),
    }
}

impl Session {
    /// A search of the run as it stands; the panel starts a worker and, when it is ready,
    /// sends it the request (`receive` gives `Then::Send`).
    pub fn start(state: &AppState, from: Origin, now_ms: f64) -> Session {
        let req = request(state, from);
        Session {
            from_step: match from {
                Origin::Start => 0,
                Origin::Here => state.run.cursor(),
            },
            origin: from,
            prefix: (req.script_steps, req.actions.clone()),
            latest: first_report(&req),
            frontier: 1,
            cap: req.bounds.max_states,
            request: req.encode(),
            phase: Phase::Running,
            started_ms: now_ms,
            elapsed_ms: 0.0,
        }
    }

    /// The request, as the worker reads it.
    pub fn request(&self) -> &str {
        &self.request
    }

    /// A message from the worker: take its figures, and say what to do with the worker.
    /// Once the search has stopped (done, cancelled, failed) nothing changes any more.
    pub fn receive(&mut self, text: &str, now_ms: f64) -> Then {
        if self.phase != Phase::Running {
            return Then::Stop;
        }
        match Reply::decode(text) {
            Ok(Reply::Ready) => Then::Send(self.request.clone()),
            Ok(Reply::Progress { report, frontier }) => {
                self.latest = report;
                self.latest.complete = false;
                self.frontier = frontier;
                self.elapsed_ms = now_ms - self.started_ms;
                Then::Nothing
            }
            Ok(Reply::Done { report }) => {
                // The worker's own time for the search, as the command line's.
                self.elapsed_ms = report.elapsed_ms as f64;
                self.latest = report;
                self.frontier = 0;
                self.phase = Phase::Done;
                Then::Stop
            }
            Ok(Reply::Failed { error }) => {
                self.fail(error, now_ms);
                Then::Stop
            }
            Err(error) => {
                self.fail(error, now_ms);
                Then::Stop
            }
        }
    }

    /// The worker could not run (it failed to load, or crashed): the search stops, saying why.
    pub fn fail(&mut self, error: String, now_ms: f64) {
        if self.phase == Phase::Running {
            self.phase = Phase::Failed(error);
            self.elapsed_ms = now_ms - self.started_ms;
        }
    }

    /// A counterexample the search found, as the whole run from the scenario's start:
    /// (script steps, then actions), as `Msg::LoadCounterexample` replays it.
    pub fn whole_run(&self, tail: &[Action]) -> (usize, Vec<Action>) {
        let (steps, mut actions) = self.prefix.clone();
        actions.extend(tail.iter().cloned());
        (steps, actions)
    }

    /// Stop a running search (the panel terminates its worker); what it reported so far
    /// stays, marked incomplete.
    pub fn cancel(&mut self, now_ms: f64) {
        if self.phase == Phase::Running {
            self.phase = Phase::Cancelled;
            self.elapsed_ms = now_ms - self.started_ms;
        }
    }

    /// The report so far, timed; anything but done means incomplete.
    pub fn report(&self) -> ExploreReport {
        let mut r = self.latest.clone();
        r.elapsed_ms = self.elapsed_ms.max(0.0) as u64;
        r.complete &= self.phase == Phase::Done;
        r
    }

    /// Distinct states so far, and (distinct + frontier): a progress bar's value and maximum.
    /// The maximum grows as the search finds more, and the bound caps it.
    pub fn progress(&self) -> (usize, usize) {
        let seen = self.latest.distinct_states;
        match self.phase {
            Phase::Running => (seen, (seen + self.frontier).min(self.cap).max(seen)),
            _ => (seen, seen.max(1)),
        }
    }

    /// "N states, M distinct".
    pub fn progress_text(&self) -> String {
        format!(
            "{} states, {} distinct",
            thousands(self.latest.states),
            thousands(self.latest.distinct_states)
        )
    }

    /// States reached per second of search time, for the benchmark (0 before any time passed).
    pub fn states_per_sec(&self) -> u64 {
        if self.elapsed_ms <= 0.0 {
            return 0;
        }
        (self.latest.states as f64 * 1000.0 / self.elapsed_ms) as u64
    }

    /// One sentence on where the search stands.
    pub fn status_text(&self) -> String {
        let r = self.report();
        match &self.phase {
            Phase::Running => "Exploring…".to_string(),
            Phase::Cancelled => format!(
                "Cancelled after {} ms. These figures are incomplete: “held” means only “not broken in the states explored”.",
                r.elapsed_ms
            ),
            Phase::Failed(why) => format!(
                "The search stopped after {} ms: {why}. These figures are incomplete: “held” means only “not broken in the states explored”.",
                r.elapsed_ms
            ),
            Phase::Done if !r.complete => format!(
                "Stopped at the bound of {} distinct states: the search is incomplete, so “held” means only “not broken in the states explored”.",
                thousands(r.bounds.max_states)
            ),
            Phase::Done if self.from_step > 0 => format!(
                "Every order from step {} within the bounds was explored.",
                self.from_step
            ),
            Phase::Done => "Every order within the bounds was explored.".to_string(),
        }
    }
}

/// One invariant's line of the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantRow {
    pub kind: ViolationKind,
    pub held: bool,
    /// "✓ held", "✗ broken", "✗ broken already" (before a search from part-way began), or
    /// for an unfinished search "? not broken so far".
    pub verdict: &'static str,
    /// Its look: `held`, `broken` or `unknown`.
    pub class: &'static str,
    /// What breaking it means, in words.
    pub explain: String,
    /// The shortest counterexample's length, when the search took one.
    pub length: Option<usize>,
}

pub fn invariant_rows(r: &ExploreReport) -> Vec<InvariantRow> {
    r.invariants
        .iter()
        .map(|i| {
            let (verdict, class, explain) = match (&i.counterexample, r.complete) {
                (Some(c), _) if c.is_empty() => (
                    "✗ broken already",
                    "broken",
                    format!("{}, before the search began.", i.kind.explain()),
                ),
                (Some(_), _) => ("✗ broken", "broken", format!("{}.", i.kind.explain())),
                (None, true) => ("✓ held", "held", format!("{}.", i.kind.explain())),
                (None, false) => (
                    "? not broken so far",
                    "unknown",
                    format!("{}.", i.kind.explain()),
                ),
            };
            InvariantRow {
                kind: i.kind,
                held: i.held,
                verdict,
                class,
                explain,
                length: i.counterexample.as_ref().map(Vec::len).filter(|n| *n > 0),
            }
        })
        .collect()
}

/// One milestone's line of the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MilestoneRow {
    pub kind: Milestone,
    pub reached: bool,
    /// "✓ reached", "already so" (before a search from part-way began), "✗ never reached",
    /// or for an unfinished search "not reached so far".
    pub verdict: &'static str,
    /// Its look: `reached`, `already`, `never` or `unknown`.
    pub class: &'static str,
    /// The sentence after the milestone's name.
    pub text: String,
    /// The shortest run to it, when the search took one.
    pub length: Option<usize>,
}

pub fn milestone_rows(r: &ExploreReport) -> Vec<MilestoneRow> {
    r.milestones
        .iter()
        .map(|m| {
            let length = m.witness.as_ref().map(Vec::len).filter(|n| *n > 0);
            let (verdict, class, text) = match (&m.witness, r.complete) {
                (Some(w), _) if w.is_empty() => (
                    "already so",
                    "already",
                    format!("{}, before the search began.", m.kind.explain()),
                ),
                (Some(w), _) => (
                    "✓ reached",
                    "reached",
                    format!("{}. Shortest run there: {} actions.", m.kind.explain(), w.len()),
                ),
                (None, true) => (
                    "✗ never reached",
                    "never",
                    format!(
                        "{}: never, within these bounds — so the verdicts above say nothing about what could follow it.",
                        m.kind.explain()
                    ),
                ),
                (None, false) => (
                    "? not reached so far",
                    "unknown",
                    format!("{}.", m.kind.explain()),
                ),
            };
            MilestoneRow {
                kind: m.kind,
                reached: m.reached,
                verdict,
                class,
                text,
                length,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::explore::Explorer;
    use crate::sim::Policy;
    use crate::view::search::serve;
    use crate::view::state::{Choice, Found, Msg};

    fn app(id: &str, choice: Choice) -> AppState {
        crate::view::state::app_on(id, choice)
    }

    /// A clock that moves `step` ms each time it is read.
    fn clock(step: f64) -> impl FnMut() -> f64 {
        let mut t = 0.0;
        move || {
            t += step;
            t
        }
    }

    /// The worker's replies to the session's request (`view::search::serve`, in process).
    fn worker_replies(s: &mut Session) -> Vec<String> {
        assert_eq!(
            s.receive(&Reply::Ready.encode(), 0.0),
            Then::Send(s.request().to_string()),
            "a ready worker is sent the request"
        );
        let mut replies = Vec::new();
        serve(s.request(), &mut clock(1.0), &mut |r| replies.push(r));
        replies
    }

    /// Run the session's search to its end; returns how many messages the worker sent.
    fn finish(s: &mut Session) -> usize {
        let replies = worker_replies(s);
        let n = replies.len();
        for (i, r) in replies.iter().enumerate() {
            let then = s.receive(r, (i + 1) as f64);
            assert_eq!(
                then == Then::Stop,
                i == n - 1,
                "only the last reply stops the worker"
            );
        }
        n
    }

    #[test]
    fn a_scenario_without_a_script_is_explored_from_the_step_on_screen() {
        let sandbox = app("sandbox", Choice::Policy(Policy::HighestSeen));
        assert_eq!(main_search(&sandbox), Origin::Here);
        let preset = app("paused-writer", Choice::Policy(Policy::Unfenced));
        assert_eq!(main_search(&preset), Origin::Start);
        assert!(origin_note(&sandbox, Origin::Here).contains("buttons"));
        assert!(bounds_rows(&bounds(&sandbox, Origin::Here))
            .contains(&("Workers' own moves", "3".to_string())));
        // The blank sandbox explores more than its first state.
        let mut s = Session::start(&sandbox, Origin::Here, 0.0);
        finish(&mut s);
        let r = s.report();
        assert!(
            r.complete && r.distinct_states > 1_000,
            "{}",
            r.distinct_states
        );
    }

    #[test]
    fn a_search_from_a_sandbox_session_loads_its_counterexample_as_the_whole_run() {
        // A acquires in the sandbox and is told; then from here, unfenced, a stale overwrite.
        let mut a = app("sandbox", Choice::Policy(Policy::Unfenced));
        a.apply(Msg::Act(Action::Acquire {
            worker: "A".into(),
            lock: None,
        }));
        a.apply(Msg::Act(Action::Advance { ticks: 2 }));
        let mut s = Session::start(&a, Origin::Here, 0.0);
        assert_eq!(s.from_step, 2);
        finish(&mut s);
        let r = s.report();
        let stale = r
            .invariants
            .iter()
            .find(|i| i.kind == ViolationKind::StaleOverwrite)
            .unwrap();
        let tail = stale.counterexample.clone().unwrap_or_else(|| {
            panic!(
                "not broken: {} distinct, complete {}",
                r.distinct_states, r.complete
            )
        });
        let (script_steps, actions) = s.whole_run(&tail);
        assert_eq!(
            actions.len(),
            2 + tail.len(),
            "the two sandbox steps come first"
        );
        assert!(s.status_text().contains("from step 2"));
        assert!(a.apply(Msg::LoadFound {
            found: Found::Breaks(ViolationKind::StaleOverwrite),
            script_steps,
            actions,
        }));
        assert_eq!(a.error, None);
        assert!(a.run.world().ghost().has(ViolationKind::StaleOverwrite));
    }

    #[test]
    fn a_session_runs_in_slices_to_the_cli_verdicts() {
        let a = app("paused-writer", Choice::Variant("unfenced".into()));
        let mut s = Session::start(&a, Origin::Start, 0.0);
        let messages = finish(&mut s);
        assert!(messages > 1, "progress comes before the report");
        assert_eq!(s.phase, Phase::Done);
        let r = s.report();
        assert!(r.complete);
        assert!(r.elapsed_ms > 0 && s.states_per_sec() > 0);
        let rows = invariant_rows(&r);
        let broken: Vec<&str> = rows
            .iter()
            .filter(|i| !i.held)
            .map(|i| i.kind.as_str())
            .collect();
        assert_eq!(broken, ["stale_overwrite", "superseded_write"]);
        // The shortest stale overwrite, as tests/explore.rs pins it.
        assert_eq!(rows[0].length, Some(12));
        // The same search as the command line's, apart from the clock.
        let cli = crate::sim::explore::explore(
            &a.run.scenario,
            a.run.variant.clone(),
            bounds(&a, Origin::Start),
        );
        assert_eq!(
            (r.states, r.distinct_states, &r.invariants),
            (cli.states, cli.distinct_states, &cli.invariants)
        );
        let (v, max) = s.progress();
        assert_eq!(v, max, "a finished bar is full");
        assert_eq!(
            s.progress_text(),
            format!(
                "{} states, {} distinct",
                thousands(r.states),
                thousands(r.distinct_states)
            )
        );
    }

    #[test]
    fn highest_seen_holds_stale_overwrite() {
        let a = app("paused-writer", Choice::Variant("highest-seen".into()));
        let mut s = Session::start(&a, Origin::Start, 0.0);
        finish(&mut s);
        let rows = invariant_rows(&s.report());
        let stale = rows
            .iter()
            .find(|i| i.kind == ViolationKind::StaleOverwrite)
            .unwrap();
        assert!(stale.held && stale.length.is_none());
        assert_eq!(stale.verdict, "✓ held");
        assert!(!stale.explain.is_empty());
    }

    #[test]
    fn milestones_read_as_reached_never_or_already() {
        let a = app("paused-writer", Choice::Variant("highest-seen".into()));
        let mut s = Session::start(&a, Origin::Start, 0.0);
        finish(&mut s);
        let rows = milestone_rows(&s.report());
        assert!(rows
            .iter()
            .all(|m| m.verdict == "✓ reached" && m.length.is_some()));
        // At the end of the story a write has long been applied: from there it is already so.
        let mut end = a.clone();
        end.apply(Msg::ToEnd);
        let mut s = Session::start(&end, Origin::Here, 0.0);
        finish(&mut s);
        let rows = milestone_rows(&s.report());
        let applied = &rows[0];
        assert_eq!((applied.verdict, applied.length), ("already so", None));
        assert!(rows.iter().all(|m| m.verdict == "already so"), "{rows:?}");
        // Bounds too tight for the story: what never happened says what that means.
        let tight = Bounds {
            max_depth: 4,
            ..bounds(&a, Origin::Start)
        };
        let r = crate::sim::explore::explore(&a.run.scenario, None, tight);
        let never = &milestone_rows(&r)[1];
        assert_eq!(never.verdict, "✗ never reached");
        assert!(never.text.contains("say nothing"));
    }

    #[test]
    fn cancelling_keeps_partial_figures_marked_incomplete() {
        let a = app(
            "cross-object-token",
            Choice::default_for(&presets_get("cross-object-token")),
        );
        let mut s = Session::start(&a, Origin::Start, 0.0);
        let (v, max) = s.progress();
        assert!(
            v == 1 && max == 2,
            "before the worker's first figures, the start state: {v}/{max}"
        );
        let replies = worker_replies(&mut s);
        assert!(replies.len() > 2, "a big preset reports progress");
        assert_eq!(s.receive(&replies[1], 20.0), Then::Nothing);
        let (v, max) = s.progress();
        assert!(v > 1 && v < max, "{v}/{max}");
        s.cancel(40.0);
        assert_eq!(s.phase, Phase::Cancelled);
        assert_eq!(
            s.receive(replies.last().unwrap(), 50.0),
            Then::Stop,
            "a cancelled session takes no more figures"
        );
        let r = s.report();
        assert!(!r.complete);
        assert_eq!(r.elapsed_ms, 40);
        assert!(s.status_text().starts_with("Cancelled after 40 ms"));
        assert!(s.status_text().contains("incomplete"));
        // Nothing is shown to hold by an unfinished search.
        let rows = invariant_rows(&r);
        assert!(rows.iter().all(|i| i.verdict != "✓ held"));
        assert!(rows.iter().any(|i| i.verdict == "? not broken so far"));
    }

    #[test]
    fn the_key_and_bounds_follow_the_scenario_and_choice() {
        let a = app("paused-writer", Choice::Variant("unfenced".into()));
        let b = app("paused-writer", Choice::Policy(Policy::Strict));
        let c = app("delayed-before-new", Choice::Policy(Policy::Strict));
        assert_ne!(key(&a), key(&b));
        assert_ne!(key(&b), key(&c));
        assert_eq!(bounds(&a, Origin::Start).max_states, APP_MAX_STATES);
        let rows = bounds_rows(&bounds(&a, Origin::Start));
        assert!(rows.contains(&("Distinct states, at most", "50,000".to_string())));
        assert!(rows.iter().any(|(l, _)| *l == "Pauses"));
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn a_worker_that_fails_or_talks_nonsense_stops_the_search_saying_why() {
        let a = app("paused-writer", Choice::Variant("unfenced".into()));
        let mut s = Session::start(&a, Origin::Start, 0.0);
        assert_eq!(s.receive("\"sing\"", 30.0), Then::Stop);
        assert!(matches!(&s.phase, Phase::Failed(e) if e.contains("unknown variant")));
        assert!(s
            .status_text()
            .starts_with("The search stopped after 30 ms: the explorer's worker said"));
        assert!(!s.report().complete);
        let mut s = Session::start(&a, Origin::Start, 0.0);
        s.fail("the worker could not load".into(), 5.0);
        assert!(s.status_text().contains("the worker could not load"));
        assert_eq!(s.receive(&Reply::Ready.encode(), 6.0), Then::Stop);
    }

    /// The request replays, in the worker, to the very search the panel ran on the page
    /// before the worker: `Explorer::from_here` with the run's world and the rest of its
    /// script at the step on screen — after stepping back, after acting, after a fork.
    #[test]
    fn a_request_from_here_is_the_search_of_the_world_on_screen() {
        let on_page = |a: &AppState| {
            let run = &a.run;
            let mut e = Explorer::from_here(
                &run.scenario,
                run.variant.clone(),
                run.world().clone(),
                &run.script_to_come(),
                bounds(a, Origin::Here),
            );
            while !e.run(10_000) {}
            e.report()
        };
        let in_worker = |a: &AppState| {
            let req = Request::decode(&request(a, Origin::Here).encode()).unwrap();
            let mut e = req.explorer().unwrap();
            while !e.run(10_000) {}
            e.report()
        };
        let mut stepped = app("paused-writer", Choice::Variant("unfenced".into()));
        for _ in 0..4 {
            stepped.apply(Msg::StepForward);
        }
        stepped.apply(Msg::StepBack);
        let mut sandbox = app("sandbox", Choice::Policy(Policy::Unfenced));
        sandbox.apply(Msg::Act(Action::Acquire {
            worker: "A".into(),
            lock: None,
        }));
        sandbox.apply(Msg::Act(Action::Advance { ticks: 2 }));
        let mut forked = app("delayed-before-new", Choice::Policy(Policy::Strict));
        for _ in 0..3 {
            forked.apply(Msg::StepForward);
        }
        forked.apply(Msg::Act(Action::Advance { ticks: 1 }));
        for a in [&stepped, &sandbox, &forked] {
            assert!(a.run.cursor() > 0);
            assert_eq!(in_worker(a), on_page(a), "{}", key(a));
        }
    }

    fn presets_get(id: &str) -> crate::sim::Scenario {
        crate::presets::get(id).unwrap()
    }
}

//! A run: a scenario, the steps taken in it, and a snapshot after each, so stepping
//! back is exact and acting while stepped back forks the run from there.
//!
//! Frames are shared (`Rc`): cloning a run of thousands of steps copies pointers, not worlds.
//! The app clones its state on every message, so this is what keeps a step cheap late in a
//! long run. Each frame keeps the events its step caused.

use super::action::{Action, MAX_RUN_TICKS};
use super::event::Event;
use super::scenario::{Branch, Scenario, Variant};
use super::world::{ActionError, World};
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// The most events a run keeps, over all its steps: what bounds its memory (each frame shares
/// the events before it, and a world's size follows what it has recorded). With
/// `World`'s `MAX_STEP_EVENTS` per step, no accepted input runs past it: a step that would is
/// refused, and the run keeps what it had.
pub const MAX_RUN_EVENTS: usize = 300_000;

/// What produced a frame.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Entry {
    Start,
    /// The i-th step of the script.
    Script(usize),
    /// Something the user did.
    User(Action),
}

/// A replay that could not go all the way: what it did replay (`run`, at its last step) and
/// where it stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub run: Run,
    pub what: Replayed,
}

/// Where a replay stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replayed {
    /// The script has fewer steps than the replay takes from it.
    ScriptEnded { wanted: usize, has: usize },
    /// Script step `index` (from 0) was refused.
    Script { index: usize, error: ActionError },
    /// It would let more time pass than a run may (`MAX_RUN_TICKS`).
    TooLong { ticks: u64 },
    /// The user's action `index` (from 0) was refused.
    Action {
        index: usize,
        action: Action,
        error: ActionError,
    },
}

/// Plain words, for callers with nothing more particular to say.
impl std::fmt::Display for Replayed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Replayed::ScriptEnded { wanted, has } => {
                write!(f, "it takes {wanted} script steps; the script has {has}")
            }
            Replayed::Script { index, error } => {
                write!(f, "script step {} was refused: {error}", index + 1)
            }
            Replayed::TooLong { ticks } => write!(
                f,
                "it lets {ticks} ticks pass, more than the {MAX_RUN_TICKS} a run may"
            ),
            Replayed::Action {
                index,
                action,
                error,
            } => write!(f, "action {} ({action}) was refused: {error}", index + 1),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub world: World,
    /// The events this frame's step caused.
    pub events: Vec<Event>,
    /// Events `..events_end` of the run's log happened up to this frame.
    pub events_end: usize,
    pub entry: Entry,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The scenario with the chosen variant's settings applied.
    pub scenario: Scenario,
    pub variant: Option<String>,
    frames: Vec<Rc<Frame>>,
    cursor: usize,
    /// The first frame the user made, if any: before it every frame is a script step in
    /// order, so what the script does next is known without scanning the frames.
    first_user: Option<usize>,
}

impl Run {
    /// A run at step 0. `variant` names one of the scenario's variants (or none: the scenario as written).
    pub fn new(base: &Scenario, variant: Option<&Variant>) -> Run {
        let scenario = match variant {
            Some(v) => base.with_variant(v),
            None => base.clone(),
        };
        let world = World::new(&scenario);
        Run {
            scenario,
            variant: variant.map(|v| v.name.clone()),
            frames: vec![Rc::new(Frame {
                world,
                events: Vec::new(),
                events_end: 0,
                entry: Entry::Start,
            })],
            cursor: 0,
            first_user: None,
        }
    }

    pub fn world(&self) -> &World {
        &self.frames[self.cursor].world
    }

    /// Events up to the current step, in order.
    pub fn events(&self) -> impl DoubleEndedIterator<Item = &Event> + Clone {
        self.frames[1..=self.cursor]
            .iter()
            .flat_map(|f| f.events.iter())
    }

    /// How many events happened up to the current step.
    pub fn event_count(&self) -> usize {
        self.frames[self.cursor].events_end
    }

    /// Events of the current step alone.
    pub fn last_step_events(&self) -> &[Event] {
        &self.frames[self.cursor].events
    }

    /// Events of step `i` alone (none for the start, or past the recorded steps).
    pub fn step_events(&self, i: usize) -> &[Event] {
        self.frames.get(i).map_or(&[], |f| &f.events)
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Steps taken so far (frames after the start), including ones stepped back over.
    pub fn len(&self) -> usize {
        self.frames.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn entry(&self, i: usize) -> Option<&Entry> {
        self.frames.get(i).map(|f| &f.entry)
    }

    pub fn current_entry(&self) -> &Entry {
        &self.frames[self.cursor].entry
    }

    /// Where the events of step `i` end in the log: events `..end` happened up to frame `i`.
    /// With `events_end(i - 1)` it gives the slice of events step `i` caused.
    pub fn events_end(&self, i: usize) -> Option<usize> {
        self.frames.get(i).map(|f| f.events_end)
    }

    /// The world after step `i` (0 is the start).
    pub fn world_at(&self, i: usize) -> Option<&World> {
        self.frames.get(i).map(|f| &f.world)
    }

    /// The user actions of the current branch, in order: with the scenario, they reproduce it.
    pub fn user_actions(&self) -> Vec<(usize, Action)> {
        self.frames[..=self.cursor]
            .iter()
            .enumerate()
            .filter_map(|(i, f)| match &f.entry {
                Entry::User(a) => Some((i, a.clone())),
                _ => None,
            })
            .collect()
    }

    /// The run's current branch as what reproduces it: the number of script steps taken
    /// before the user first acted, then the user's actions (script steps after that never
    /// ran on this branch). Links and exported files carry exactly this.
    pub fn branch(&self) -> (usize, Vec<Action>) {
        self.branch_until(self.len())
    }

    /// `branch` up to the current step only: how the run got to what is on screen.
    pub fn branch_to_cursor(&self) -> (usize, Vec<Action>) {
        self.branch_until(self.cursor)
    }

    fn branch_until(&self, end: usize) -> (usize, Vec<Action>) {
        let mut script_steps = 0;
        let mut actions = Vec::new();
        for i in 1..=end {
            match self.entry(i) {
                Some(Entry::Script(_)) if actions.is_empty() => script_steps += 1,
                Some(Entry::User(a)) => actions.push(a.clone()),
                _ => {}
            }
        }
        (script_steps, actions)
    }

    /// The actions step `i` took: its script step's, or the user's one (none for the start).
    /// Two runs of one scenario whose steps took the same actions reached the same worlds,
    /// the model being deterministic: this is how branches find where they part.
    pub fn step_actions(&self, i: usize) -> &[Action] {
        match self.entry(i) {
            Some(Entry::Script(j)) => &self.scenario.script[*j].actions,
            Some(Entry::User(a)) => std::slice::from_ref(a),
            _ => &[],
        }
    }

    /// This run as a file or a link keeps a branch: [`Run::branch`], and the step shown.
    pub fn as_branch(&self) -> Branch {
        let (script_steps, actions) = self.branch();
        Branch {
            script_steps,
            actions,
            open_at: self.cursor,
        }
    }

    /// The run a [`Branch`] reproduces from `base` (under `variant`), at its step (or its
    /// last, if the branch names a step past it).
    pub fn replay_branch(
        base: &Scenario,
        variant: Option<&Variant>,
        b: &Branch,
    ) -> Result<Run, Box<Refused>> {
        let mut run = Run::replay(base, variant, b.script_steps, &b.actions)?;
        run.seek(b.open_at);
        Ok(run)
    }

    /// Whether the user acted on the current branch, up to the current step.
    pub fn has_user_actions(&self) -> bool {
        self.first_user.is_some_and(|u| u <= self.cursor)
    }

    /// The first step the user took on this run's frames, if any (`branch` is the script
    /// steps before it, then the user's actions).
    pub fn first_user_step(&self) -> Option<usize> {
        self.first_user
    }

    /// The narration of the script step the current frame came from: the step's words for
    /// this run's variant, or else for its receiver policy, or else its plain `say`.
    pub fn narration(&self) -> Option<&str> {
        match self.current_entry() {
            Entry::Script(i) => self.step_narration(*i),
            _ => None,
        }
    }

    /// What script step `i` says in this run (its variant, then its policy).
    pub fn step_narration(&self, i: usize) -> Option<&str> {
        let step = self.scenario.script.get(i)?;
        Some(step.say_for(self.variant.as_deref(), self.scenario.policy))
    }

    /// The next script step, unless the user has taken over on this branch.
    pub fn next_script_step(&self) -> Option<usize> {
        if self.has_user_actions() {
            return None;
        }
        let next = match self.frames[self.cursor].entry {
            Entry::Script(i) => i + 1,
            _ => 0,
        };
        (next < self.scenario.script.len()).then_some(next)
    }

    /// The script's actions still to come from the current step, in order (none once the
    /// user has acted: the script has stopped on this branch).
    pub fn script_to_come(&self) -> Vec<Action> {
        let Some(next) = self.next_script_step() else {
            return Vec::new();
        };
        self.scenario.script[next..]
            .iter()
            .flat_map(|step| step.actions.iter().cloned())
            .collect()
    }

    /// The script has nothing more to say on this branch: the user is in charge.
    pub fn taken_over(&self) -> bool {
        self.next_script_step().is_none() && self.cursor == self.len()
    }

    /// Forward one step: redo a step stepped back over, or run the next script step.
    /// Returns false at the end.
    pub fn step_forward(&mut self) -> Result<bool, ActionError> {
        if self.cursor < self.len() {
            self.cursor += 1;
            return Ok(true);
        }
        let Some(i) = self.next_script_step() else {
            return Ok(false);
        };
        let actions = self.scenario.script[i].actions.clone();
        self.push(&actions, Entry::Script(i)).map(|_| true)
    }

    pub fn step_back(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        self.cursor -= 1;
        true
    }

    pub fn seek(&mut self, i: usize) {
        self.cursor = i.min(self.len());
    }

    /// Run the rest of the script.
    pub fn run_script(&mut self) -> Result<(), ActionError> {
        self.cursor = self.len();
        while self.step_forward()? {}
        Ok(())
    }

    /// A run rebuilt from what reproduces a branch (see [`Run::branch`]): `script_steps` steps of
    /// the script, then `actions` as the user's. Links, files, counterexamples, a policy switch
    /// and the CLI all replay through here; each caller words a refusal its own way.
    pub fn replay(
        base: &Scenario,
        variant: Option<&Variant>,
        script_steps: usize,
        actions: &[Action],
    ) -> Result<Run, Box<Refused>> {
        let mut r = Replay::new(base, variant, script_steps, actions)?;
        r.work(usize::MAX)?;
        Ok(r.run)
    }

    /// A user action at the current step. Returns true when it forked the run (steps ahead discarded).
    pub fn act(&mut self, action: Action) -> Result<bool, ActionError> {
        let entry = Entry::User(action.clone());
        self.push(&[action], entry)
    }

    fn push(&mut self, actions: &[Action], entry: Entry) -> Result<bool, ActionError> {
        let mut world = self.world().clone();
        let mut new_events = Vec::new();
        for (k, a) in actions.iter().enumerate() {
            let evs = world.step(a).map_err(|e| {
                if actions.len() > 1 {
                    ActionError(format!("action {} ({a}): {e}", k + 1))
                } else {
                    e
                }
            })?;
            new_events.extend(evs);
        }
        let events_end = self.frames[self.cursor].events_end + new_events.len();
        if events_end > MAX_RUN_EVENTS {
            return Err(ActionError(format!(
                "the run would hold {events_end} events, more than the {MAX_RUN_EVENTS} a run may keep"
            )));
        }
        let forked = self.cursor < self.len();
        self.frames.truncate(self.cursor + 1);
        self.first_user = self.first_user.filter(|&u| u <= self.cursor);
        if matches!(entry, Entry::User(_)) && self.first_user.is_none() {
            self.first_user = Some(self.cursor + 1);
        }
        self.frames.push(Rc::new(Frame {
            world,
            events: new_events,
            events_end,
            entry,
        }));
        self.cursor += 1;
        Ok(forked)
    }
}

/// A replay done a slice at a time (`work`), so that a caller can let other things happen
/// between slices: the same steps `Run::replay` takes, in the same order, to the same run.
/// The budget is counted in work (a step, and each event it records), never in time.
#[derive(Clone, Debug)]
pub struct Replay {
    run: Run,
    /// Script steps still to take; `up_to`: stop quietly if the script ends first.
    script: usize,
    up_to: bool,
    wanted: usize,
    actions: Rc<[Action]>,
    next: usize,
    total: usize,
}

impl Replay {
    /// What `Run::replay` does, to be done in slices (a run asking too much is refused here).
    pub fn new(
        base: &Scenario,
        variant: Option<&Variant>,
        script_steps: usize,
        actions: &[Action],
    ) -> Result<Replay, Box<Refused>> {
        let run = Run::new(base, variant);
        let ticks = Action::ticks_asked(
            base.script[..script_steps.min(base.script.len())]
                .iter()
                .flat_map(|st| st.actions.iter())
                .chain(actions),
        );
        if ticks > MAX_RUN_TICKS {
            return Err(Box::new(Refused {
                run,
                what: Replayed::TooLong { ticks },
            }));
        }
        Ok(Replay {
            run,
            script: script_steps,
            up_to: false,
            wanted: script_steps,
            actions: actions.into(),
            next: 0,
            total: script_steps.saturating_add(actions.len()),
        })
    }

    /// The script played on from `run`'s last step, `steps` steps at most (fewer if the
    /// script ends, or the user has taken over): `usize::MAX` runs it to its end.
    pub fn script_on(mut run: Run, steps: usize) -> Replay {
        run.seek(run.len());
        let left = run
            .next_script_step()
            .map_or(0, |i| run.scenario.script.len() - i);
        Replay {
            run,
            script: steps.min(left),
            up_to: true,
            wanted: 0,
            actions: Rc::new([]),
            next: 0,
            total: steps.min(left),
        }
    }

    /// Replay until `budget` is spent (one for each step, and one for each event it records)
    /// or the replay is done: `Ok(true)` when done. A refusal stops it, with the run as far
    /// as it got.
    pub fn work(&mut self, budget: usize) -> Result<bool, Box<Refused>> {
        let mut spent = 0usize;
        while spent < budget {
            let before = self.run.event_count();
            if self.script > 0 {
                let index = self.run.next_script_step().unwrap_or(0);
                match self.run.step_forward() {
                    Ok(true) => self.script -= 1,
                    Ok(false) if self.up_to => self.script = 0,
                    Ok(false) => {
                        return Err(self.refused(Replayed::ScriptEnded {
                            wanted: self.wanted,
                            has: self.wanted - self.script,
                        }))
                    }
                    Err(error) => return Err(self.refused(Replayed::Script { index, error })),
                }
            } else if let Some(a) = self.actions.get(self.next) {
                if let Err(error) = self.run.act(a.clone()) {
                    let (index, action) = (self.next, a.clone());
                    return Err(self.refused(Replayed::Action {
                        index,
                        action,
                        error,
                    }));
                }
                self.next += 1;
            } else {
                return Ok(true);
            }
            spent = spent.saturating_add(1 + self.run.event_count() - before);
        }
        Ok(self.script == 0 && self.next == self.actions.len())
    }

    fn refused(&self, what: Replayed) -> Box<Refused> {
        Box::new(Refused {
            run: self.run.clone(),
            what,
        })
    }

    /// Steps done and steps in all.
    pub fn progress(&self) -> (usize, usize) {
        let left = self.script + self.actions.len() - self.next;
        (self.total.saturating_sub(left), self.total)
    }

    /// The run replayed (in full once `work` has said it is done).
    pub fn finish(self) -> Run {
        self.run
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `next_script_step` and `has_user_actions` mean, by scanning every frame.
    fn scanned(run: &Run) -> (Option<usize>, bool) {
        let mut next = 0;
        for f in &run.frames[..=run.cursor] {
            match f.entry {
                Entry::Script(i) => next = i + 1,
                Entry::User(_) => return (None, true),
                Entry::Start => {}
            }
        }
        ((next < run.scenario.script.len()).then_some(next), false)
    }

    #[test]
    fn the_remembered_first_user_step_answers_as_a_scan_would() {
        let s = Scenario::from_json(include_str!("../../presets/paused-writer.json")).unwrap();
        let mut run = Run::new(&s, s.variants.first());
        // A fixed walk: forward, back, acting, forking in the past.
        let mut x: u32 = 7;
        for _ in 0..400 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            match (x >> 16) % 5 {
                0 | 1 => drop(run.step_forward()),
                2 => drop(run.step_back()),
                3 => drop(run.act(Action::Advance { ticks: 1 })),
                _ => run.seek(((x >> 8) as usize) % (run.len() + 1)),
            }
            assert_eq!(
                (run.next_script_step(), run.has_user_actions()),
                scanned(&run)
            );
        }
        assert!(run.first_user_step().is_some());
    }
}

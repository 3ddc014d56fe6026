//! The app's state machine. `src/ui/state.rs` wraps it in yew's `Reducible`; every change the
//! app can make is [`AppState::apply`] of a [`Msg`], and the run itself changes only through
//! `Run`'s own methods.

use crate::link::{Link, ScenarioRef};
use crate::sim::run::{Refused, Replayed, Run};
use crate::sim::scenario::Branch;
use crate::sim::scenario::{Expectation, Scenario};
use crate::sim::{Action, EventKind, Milestone, Policy, ViolationKind};
use crate::view::branches::{Branches, Fork};
use crate::view::file::FileStatus;
use crate::view::predict::{self, Predict, Question, Said};
use std::collections::BTreeMap;
use std::rc::Rc;

/// Which receiver setting the run uses: one of the scenario's variants, or a plain policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    Variant(String),
    Policy(Policy),
}

impl Choice {
    /// The `<select>` value: the variant's name, or the policy's name. No plain policy is
    /// offered under a variant's name (see `text::policy_options`), so values are unique.
    pub fn value(&self) -> String {
        match self {
            Choice::Variant(n) => n.clone(),
            Choice::Policy(p) => p.as_str().to_string(),
        }
    }

    /// Read a `<select>` value, a link's or a `?policy=` back: a variant of `s` by name
    /// first, else a policy — as the variant that stands for it (`Scenario::variant_for`,
    /// the CLI's rule too) when there is one, so it is what the picker shows.
    pub fn parse(s: &Scenario, value: &str) -> Option<Choice> {
        if s.variant(value).is_some() {
            return Some(Choice::Variant(value.to_string()));
        }
        Policy::parse(value).map(|p| Choice::for_policy(s, p))
    }

    /// Plain policy `p` of `s`, as the variant that stands for it when there is one.
    pub fn for_policy(s: &Scenario, p: Policy) -> Choice {
        match s.variant_for(p) {
            Some(v) => Choice::Variant(v.name.clone()),
            None => Choice::Policy(p),
        }
    }

    /// The default for a scenario: its first variant, else its own policy.
    pub fn default_for(s: &Scenario) -> Choice {
        match s.variants.first() {
            Some(v) => Choice::Variant(v.name.clone()),
            None => Choice::Policy(s.policy),
        }
    }
}

/// Playback speeds: (milliseconds per step, label).
pub const SPEEDS: [(u32, &str); 4] = [
    (2000, "Slow (2 s a step)"),
    (1000, "Normal (1 s a step)"),
    (500, "Fast (½ s a step)"),
    (200, "Very fast"),
];

pub const DEFAULT_SPEED: u32 = 1000;

/// The scenario the app opens with.
pub const FIRST_SCENARIO: &str = "paused-writer";

#[derive(Clone, Debug)]
pub struct AppState {
    /// Bumped on every change: equality and memoisation compare this, not the whole run.
    pub version: u64,
    pub scenarios: Rc<Vec<Scenario>>,
    pub scenario: usize,
    pub choice: Choice,
    pub run: Run,
    pub playing: bool,
    /// Milliseconds per step while playing.
    pub speed: u32,
    /// What the last user action did to the run (forked it, took over from the script).
    pub notice: Option<String>,
    /// An action or script step the model refused.
    pub error: Option<String>,
    pub help_open: bool,
    /// What the Export/Import panel last did: a file imported, refused, or saved.
    pub file_status: Option<FileStatus>,
    /// Runs the user acted in and then left for another scenario, by scenario index: picking
    /// the scenario again brings its run back rather than losing the user's work.
    pub kept: BTreeMap<usize, (Choice, Run, Branches)>,
    /// The other ways this run went (`view::branches`): acting in the past keeps the steps it
    /// replaced as a branch, and the user can switch back.
    pub branches: Branches,
    /// Predict mode: on or off, and the answers given, per scenario and choice.
    pub predict: Predict,
    /// What predict mode asks before the next step can run (kept up to date by `apply`).
    pub asking: Option<Question>,
    /// A preset whose file the page is fetching (`crate::presets`), and what waits for it.
    pub loading: Option<Loading>,
}

/// A preset being fetched, and the message that waits for its file: applied again when it is
/// here (`Msg::PresetArrived`), dropped if the user has gone elsewhere meanwhile.
#[derive(Clone, Debug, PartialEq)]
pub struct Loading {
    pub id: String,
    pub then: Box<Msg>,
}

impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version
    }
}

/// What a run the explorer found shows: a safety property broken, or a milestone reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    Breaks(ViolationKind),
    Reaches(Milestone),
}

/// "breaks “stale overwrite”", "reaches “a stale token refused” (a resource refused …)".
impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Found::Breaks(k) => write!(f, "breaks “{}”", k.title()),
            Found::Reaches(m) => write!(f, "reaches “{}” ({})", m.title(), m.explain()),
        }
    }
}

/// Whether two scenarios are the same file: compared as the JSON they write, which the page
/// has code for anyway (export, links), rather than by a derived deep equality (5 KB of WASM
/// for a comparison made only on import and on opening a link).
fn same_scenario(a: &Scenario, b: &Scenario) -> bool {
    serde_json::to_string(a).ok() == serde_json::to_string(b).ok()
}

/// The step by which every request an expectation names has been decided and every
/// violation it names found, among the steps recorded; `None` if it names neither, or the
/// run has not got there yet.
pub fn decisive_step(run: &Run, expect: &Expectation) -> Option<usize> {
    if expect.requests.is_empty() && expect.violations.is_empty() {
        return None;
    }
    let mut requests: Vec<&str> = expect.requests.keys().map(String::as_str).collect();
    let mut violations = expect.violations.clone();
    for i in 1..=run.len() {
        for e in run.step_events(i) {
            match &e.kind {
                EventKind::WriteAccepted { .. }
                | EventKind::WriteRejected { .. }
                | EventKind::WriteReplayed { .. } => {
                    requests.retain(|r| Some(*r) != e.request.as_deref());
                }
                EventKind::Violation { kind, .. } => violations.retain(|v| v != kind),
                _ => {}
            }
        }
        if requests.is_empty() && violations.is_empty() {
            return Some(i);
        }
    }
    None
}

#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// Load a scenario by index, under its default choice, at step 0 — or, if the user acted
    /// in it before leaving it, their run as they left it (`kept`). The run left behind is
    /// kept in turn if the user acted in it. Loading the current scenario starts it over.
    Load(usize),
    /// Load the scenario with this id (used at start-up and from the URL).
    LoadId(String),
    /// The same scenario under another variant or policy: the branch replayed under it, at
    /// the same step.
    Choose(Choice),
    /// The current scenario and choice again, from scratch; a run the user acted in is kept
    /// as a branch.
    Reload,
    /// Show branch `n` (`view::branches`), keeping the one shown.
    Branch(usize),
    StepForward,
    StepBack,
    ToStart,
    ToEnd,
    /// Go to step `i`; beyond the recorded steps the script runs on up to it.
    Seek(usize),
    TogglePlay,
    Stop,
    /// The play timer fired.
    Tick,
    SetSpeed(u32),
    Act(Action),
    Help(bool),
    DismissNotice,
    /// Hide the error message (shown at the top of the page, apart from the notice).
    DismissError,
    /// Open a link's fragment (without `#`): the view it names, or an error that keeps the
    /// current run.
    OpenLink(String),
    /// Show a scenario the app did not list (a lab run) with these actions taken, as a
    /// normal run: listed in the picker, stepped through, shared by link. It opens at its
    /// first violation, else at its end.
    LoadScenario(Box<Scenario>, Vec<Action>),
    /// Replay a run the explorer found (`found`: the invariant it breaks, or the milestone it
    /// reaches) from the start, under the current scenario and choice: `script_steps` of the
    /// script, then the actions as the user's own.
    LoadFound {
        found: Found,
        /// The run from the scenario's start, as `Run::replay` takes it: script steps taken,
        /// then actions (a search from a later step prefixes how the run got there).
        script_steps: usize,
        actions: Vec<Action>,
    },
    /// Import a scenario file's text (an exported run, or any scenario): it becomes the
    /// current scenario at its `open_at` step; a bad file is an error that keeps the run.
    Import(String),
    /// Export SVG/PNG/JSON started a download (the file's name), or could not (why).
    Exported(Result<String, String>),
    /// Predict mode on or off: stepping forward stops before each verdict to ask for one.
    Predict(bool),
    /// The learner's prediction for the question asked; the step runs once every decision
    /// in it has one.
    Answer(Said),
    /// The address's options (`?preset=…&policy=…&step=…`, embed mode's too), applied once
    /// the preset they name is here.
    Options(crate::view::embed::EmbedOptions),
    /// The file of the preset being fetched is here (`crate::presets::provide`): what waited
    /// for it runs.
    PresetArrived(String),
    /// The file of the preset being fetched could not be had (the preset, why): the run on
    /// screen stays.
    PresetFailed(String, String),
}

impl Msg {
    /// What a message that may run long (the whole script, a file, a link) is doing, in
    /// words for the panel a WebAssembly fault shows (static/trap.js); `None` for the rest.
    pub fn long_work(&self) -> Option<&'static str> {
        Some(match self {
            Msg::ToEnd => "jumping to the end of the run",
            Msg::OpenLink(_) => "opening a link",
            Msg::Import(_) => "importing a file",
            Msg::LoadFound { .. } | Msg::LoadScenario(..) => "loading a run",
            Msg::Choose(_) => "replaying the run under another choice",
            _ => return None,
        })
    }
}

impl AppState {
    pub fn new(scenarios: Vec<Scenario>) -> AppState {
        assert!(!scenarios.is_empty(), "no scenarios to show");
        let scenario = scenarios
            .iter()
            .position(|s| s.id == FIRST_SCENARIO)
            .unwrap_or(0);
        let choice = Choice::default_for(&scenarios[scenario]);
        let run = build_run(&scenarios[scenario], &choice);
        AppState {
            version: 0,
            scenarios: Rc::new(scenarios),
            scenario,
            choice,
            run,
            playing: false,
            speed: DEFAULT_SPEED,
            notice: None,
            error: None,
            help_open: false,
            file_status: None,
            kept: BTreeMap::new(),
            branches: Branches::default(),
            predict: Predict::default(),
            asking: None,
            loading: None,
        }
    }

    /// The picker's entries, as (id, title, theme): every preset (loaded or not), then the
    /// scenarios the user brought (imports, links, the lab's runs).
    pub fn listed(&self) -> Vec<(&str, &str, &str)> {
        let presets = crate::presets::ids().filter_map(crate::presets::entry);
        let loaded = self
            .scenarios
            .iter()
            .filter(|s| !crate::presets::listed(&s.id));
        presets
            .map(|e| (e.id, e.title, e.theme))
            .chain(loaded.map(|s| (s.id.as_str(), s.title.as_str(), s.theme.as_str())))
            .collect()
    }

    /// The index of preset `id` in `scenarios`, its file read and listed there if it was not
    /// yet; `None` when it is not a scenario here (or its file is not here yet).
    fn preset(&mut self, id: &str) -> Option<usize> {
        if let Some(i) = self.scenarios.iter().position(|s| s.id == id) {
            return Some(i);
        }
        let s = Scenario::from_json(crate::presets::source(id)?).ok()?;
        Rc::make_mut(&mut self.scenarios).push(s);
        Some(self.scenarios.len() - 1)
    }

    /// When `id` is a preset whose file the page has not fetched yet: ask for it (the page
    /// fetches what `loading` names), `then` to run again once it is here. True if so.
    pub(crate) fn wait_for(&mut self, id: &str, then: Msg) -> bool {
        if !crate::presets::listed(id) || crate::presets::source(id).is_some() {
            return false;
        }
        let title = crate::presets::entry(id).map_or(id, |e| e.title);
        self.notice = Some(format!("Loading “{title}”…"));
        self.loading = Some(Loading {
            id: id.to_string(),
            then: Box::new(then),
        });
        true
    }

    pub fn current(&self) -> &Scenario {
        &self.scenarios[self.scenario]
    }

    /// The expected-outcome text of the chosen variant, if it is one.
    pub fn outcome(&self) -> Option<&str> {
        match &self.choice {
            Choice::Variant(n) => self
                .current()
                .variant(n)
                .map(|v| v.outcome.as_str())
                .filter(|s| !s.is_empty()),
            Choice::Policy(_) => None,
        }
    }

    /// The variant's stated outcome once the story has reached it: from the step where the
    /// last request it names is decided, or the last violation it names is found, or at the
    /// end; never before, which would give the answer away. In predict mode, only at the end;
    /// never on a branch the user acted in, whose story is not the script's.
    pub fn outcome_due(&self) -> Option<&str> {
        // The outcome is the script's; a branch the user acted in is a story of their own.
        if self.run.has_user_actions() {
            return None;
        }
        let o = self.outcome()?;
        if self.at_end() {
            return Some(o);
        }
        if self.predict.on {
            return None;
        }
        let Choice::Variant(n) = &self.choice else {
            return None;
        };
        let step = decisive_step(&self.run, &self.current().variant(n)?.expect)?;
        (self.run.cursor() >= step).then_some(o)
    }

    /// True when Play has something to show: steps recorded or script ahead.
    pub fn can_play(&self) -> bool {
        !self.run.is_empty() || self.run.next_script_step().is_some()
    }

    /// At the end of the branch with no script ahead: forward does nothing.
    pub fn at_end(&self) -> bool {
        self.run.cursor() == self.run.len() && self.run.next_script_step().is_none()
    }

    /// Apply a message. Returns false when nothing changed (so no re-render is needed).
    pub fn apply(&mut self, msg: Msg) -> bool {
        let changed = self.apply_inner(msg);
        if changed {
            self.version += 1;
            self.asking = self.predict.question(&self.key(), &self.run);
        }
        changed
    }

    fn apply_inner(&mut self, msg: Msg) -> bool {
        // Another scenario asked for: a preset still on its way is no longer wanted.
        if matches!(
            msg,
            Msg::Load(_)
                | Msg::LoadId(_)
                | Msg::OpenLink(_)
                | Msg::LoadScenario(..)
                | Msg::Import(_)
                | Msg::Options(_)
        ) && self.loading.take().is_some()
        {
            // Its "Loading…" goes with it.
            self.notice = None;
        }
        match msg {
            Msg::Load(i) => self.load(i),
            Msg::LoadId(id) => match self.preset(&id) {
                Some(i) => self.load(i),
                None => self.wait_for(&id, Msg::LoadId(id.clone())),
            },
            Msg::Options(o) => {
                o.apply(self);
                true
            }
            Msg::PresetArrived(id) => match self.loading.take() {
                Some(l) if l.id == id => {
                    self.notice = None;
                    self.apply_inner(*l.then);
                    true
                }
                other => {
                    self.loading = other;
                    false
                }
            },
            Msg::PresetFailed(id, why) => match self.loading.take() {
                // A preset's own exported file is whole without the preset: it opens as a copy.
                Some(l) if l.id == id && matches!(*l.then, Msg::Import(_)) => {
                    self.notice = None;
                    if let Msg::Import(text) = *l.then {
                        self.import_text(&text);
                    }
                    true
                }
                Some(l) if l.id == id => {
                    let title = crate::presets::entry(&id).map_or(id.as_str(), |e| e.title);
                    self.notice = None;
                    self.error = Some(format!(
                        "“{title}” could not be loaded: {why}. You are still looking at {}.",
                        self.current().title
                    ));
                    true
                }
                other => {
                    self.loading = other;
                    false
                }
            },
            Msg::Choose(c) => self.choose(c),
            Msg::Reload => {
                self.start_over();
                true
            }
            Msg::Branch(n) => {
                if !self.branches.switch(n, &mut self.run) {
                    return false;
                }
                self.playing = false;
                self.error = None;
                self.notice = None;
                true
            }
            Msg::StepForward => {
                self.playing = false;
                self.forward()
            }
            Msg::StepBack => {
                self.playing = false;
                self.error = None;
                self.run.step_back()
            }
            Msg::ToStart => {
                self.playing = false;
                self.error = None;
                let moved = self.run.cursor() != 0;
                self.run.seek(0);
                moved
            }
            Msg::ToEnd => self.run_to_end(),
            Msg::Seek(i) => self.seek(i),
            Msg::TogglePlay => self.toggle_play(),
            Msg::Stop => std::mem::replace(&mut self.playing, false),
            Msg::Tick => self.tick(),
            Msg::SetSpeed(ms) => {
                let ms = ms.clamp(50, 10_000);
                std::mem::replace(&mut self.speed, ms) != ms
            }
            Msg::Act(a) => self.act(a),
            Msg::Help(open) => std::mem::replace(&mut self.help_open, open) != open,
            Msg::DismissNotice => self.notice.take().is_some() || self.error.take().is_some(),
            Msg::DismissError => self.error.take().is_some(),
            Msg::OpenLink(text) => self.open_link(&text),
            Msg::LoadScenario(s, actions) => {
                self.load_scenario(*s, actions);
                true
            }
            Msg::LoadFound {
                found,
                script_steps,
                actions,
            } => self.load_found(found, script_steps, &actions),
            Msg::Import(text) => {
                // A preset's own file (an exported run of it) waits for the preset, so that
                // it opens as the preset rather than as a copy beside it.
                if let Ok(s) = Scenario::from_json(&text) {
                    if self.wait_for(&s.id.clone(), Msg::Import(text.clone())) {
                        return true;
                    }
                }
                self.import_text(&text);
                true
            }
            Msg::Exported(result) => {
                self.file_status = Some(FileStatus::exported(result));
                true
            }
            Msg::Predict(on) => {
                if self.predict.on == on {
                    return false;
                }
                self.playing = false;
                self.predict.on = on;
                true
            }
            Msg::Answer(said) => {
                if !self.predict.answer(&self.key(), &self.run, said) {
                    return false;
                }
                self.forward();
                true
            }
        }
    }

    /// Which run predict mode's answers belong to: the scenario and the receiver choice.
    pub fn key(&self) -> predict::Key {
        (self.current().id.clone(), self.choice.value())
    }

    /// Predict mode waits for an answer before the next step.
    fn blocked(&self) -> bool {
        self.predict.question(&self.key(), &self.run).is_some()
    }

    /// Forward until step `i` (or the end), stopping where predict mode asks if `ask`.
    fn forward_to(&mut self, i: usize, ask: bool) {
        while self.run.cursor() < i && !(ask && self.blocked()) {
            match self.run.step_forward() {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    self.error = Some(format!("The script could not go on: {e}"));
                    break;
                }
            }
        }
    }

    /// Show scenario `i` (the picker): the run the user left in it if they acted there, else
    /// its start under its default choice; picking the one shown starts it over.
    fn load(&mut self, i: usize) -> bool {
        if i >= self.scenarios.len() {
            return false;
        }
        if i == self.scenario {
            self.start_over();
            return true;
        }
        let left = self.leave();
        self.scenario = i;
        match self.kept.remove(&i) {
            Some((choice, run, branches)) => {
                self.choice = choice;
                self.run = run;
                self.branches = branches;
                self.playing = false;
                self.error = None;
                self.notice = Some(format!(
                    "Your own run of “{}” is back as you left it, at step {}. Reload scenario starts it over.",
                    self.current().title,
                    self.run.cursor()
                ));
            }
            None => {
                self.choice = Choice::default_for(self.current());
                self.reload();
            }
        }
        if let Some(left) = left {
            let back = self
                .notice
                .take()
                .map(|n| format!(" {n}"))
                .unwrap_or_default();
            self.notice = Some(format!(
                "Your actions in “{left}” are kept: pick it again to go on from where you were.{back}"
            ));
        }
        true
    }

    /// Another receiver choice, if the scenario has it: the branch replayed under it.
    fn choose(&mut self, c: Choice) -> bool {
        self.choice = match c {
            Choice::Variant(n) if self.current().variant(&n).is_none() => return false,
            Choice::Variant(n) => Choice::Variant(n),
            // A policy a variant stands for is that variant, as the picker shows it.
            Choice::Policy(p) => Choice::for_policy(self.current(), p),
        };
        self.rechoose();
        true
    }

    /// The rest of the script, run to its end.
    fn run_to_end(&mut self) -> bool {
        self.playing = false;
        let before = (self.run.cursor(), self.run.len());
        if self.predict.on {
            self.forward_to(usize::MAX, true);
        } else if let Err(e) = self.run.run_script() {
            self.error = Some(format!("The script could not go on: {e}"));
        }
        before != (self.run.cursor(), self.run.len()) || self.error.is_some()
    }

    fn seek(&mut self, i: usize) -> bool {
        self.playing = false;
        self.error = None;
        let before = self.run.cursor();
        if self.predict.on && i > before {
            self.forward_to(i, true);
        } else {
            self.go_to(i);
        }
        before != self.run.cursor() || self.error.is_some()
    }

    fn toggle_play(&mut self) -> bool {
        if self.playing {
            self.playing = false;
            return true;
        }
        if !self.can_play() || self.asking.is_some() {
            return false;
        }
        if self.at_end() {
            // Like a video player: Play at the end replays from the start.
            self.run.seek(0);
        }
        self.error = None;
        self.playing = true;
        true
    }

    /// The play timer's step: forward, stopping at the end.
    fn tick(&mut self) -> bool {
        if !self.playing {
            return false;
        }
        if !self.forward() || self.at_end() {
            self.playing = false;
        }
        true
    }

    /// The user's own action at the step shown: it forks the run if taken in the past, and
    /// takes over from the script if taken before the script's end.
    fn act(&mut self, a: Action) -> bool {
        self.playing = false;
        let at = self.run.cursor();
        let script_ahead = self.run.next_script_step().is_some() && at == self.run.len();
        let before = (at < self.run.len()).then(|| self.run.clone());
        match self.run.act(a.clone()) {
            Ok(true) => {
                self.error = None;
                let fork = self
                    .branches
                    .fork(before.expect("a fork leaves steps behind"));
                self.notice = Some(format!(
                    "You changed the past: the run forked at step {at}. What came after it is kept as branch {}; this is branch {}, starting with “{a}”. Branches, above the timeline, switches between them.{}",
                    fork.kept,
                    fork.now,
                    let_go(&fork)
                ));
            }
            Ok(false) => {
                self.error = None;
                if script_ahead {
                    self.notice = Some(format!(
                        "You took over from the script at step {at}: from here on the world is yours. Reload the scenario to see its script again."
                    ));
                }
            }
            Err(e) => self.error = Some(format!("Refused: {e}")),
        }
        true
    }

    fn open_link(&mut self, text: &str) -> bool {
        if text == self.link() {
            // Our own link coming back (the page set the hash): nothing to do.
            return false;
        }
        self.playing = false;
        let whole = text;
        let (text, predicting) = predict::split(text);
        if let Some(id) = Link::preset_named(text) {
            if self.wait_for(&id, Msg::OpenLink(whole.to_string())) {
                return true;
            }
        }
        let opened = Link::decode(text).and_then(|l| {
            let run = l.to_run()?;
            let others = l.branch_runs()?;
            Ok((l, run, others))
        });
        match opened {
            Ok((link, run, others)) => {
                let at = link.branch_at;
                self.open(link, run);
                self.branches = Branches::from_runs(others, at);
                if let Some(answers) = predicting {
                    self.predict.open(&self.key(), &self.run, answers);
                }
                self.error = None;
                let branches = if self.branches.any() {
                    format!(
                        " It keeps {} branches; this is branch {}.",
                        self.branches.others().count() + 1,
                        self.branches.current()
                    )
                } else {
                    String::new()
                };
                self.notice = Some(format!(
                    "Opened a link: {}, at step {}.{branches}",
                    self.current().title,
                    self.run.cursor()
                ));
            }
            Err(e) => {
                self.notice = None;
                self.error = Some(format!(
                    "This link could not be opened: {e}. You are still looking at {}; the link itself is unchanged in the address bar.",
                    self.current().title
                ));
            }
        }
        true
    }

    /// A run the explorer found, replayed as the user's own under the current choice.
    fn load_found(&mut self, found: Found, script_steps: usize, actions: &[Action]) -> bool {
        self.playing = false;
        let run = match replay_run(self.current(), &self.choice, script_steps, actions) {
            Ok(run) => run,
            Err(r) => {
                self.notice = None;
                self.error = Some(format!("The run could not be loaded: {}", r.what));
                return true;
            }
        };
        let left = std::mem::replace(&mut self.run, run);
        let kept = if left.is_empty() {
            String::new()
        } else {
            let fork = self.branches.fork(left);
            format!(
                " The run you had is kept as branch {}; this is branch {}.{}",
                fork.kept,
                fork.now,
                let_go(&fork)
            )
        };
        self.error = None;
        self.notice = Some(format!(
            "Loaded the shortest run that {found}: {} steps, replayed as yours. Step back through it, or copy a link to it.{kept}",
            self.run.len()
        ));
        true
    }

    /// Show an imported scenario at the step it names: under its own picker entry (an
    /// identical one if the picker has it; a new one, with an id of its own, if not).
    /// Import a file's text, reported in the file panel, where the user acted; a bad file
    /// changes nothing else.
    fn import_text(&mut self, text: &str) {
        self.file_status = Some(
            match Scenario::from_json(text).and_then(|s| self.import(s)) {
                Ok(()) => FileStatus::imported(&self.current().title, self.run.cursor()),
                Err(e) => FileStatus::not_imported(&e),
            },
        );
    }

    /// List a scenario the user brought (an import, a link's own scenario) and return its
    /// index: under its id, or under `id-2`, `id-3`… when the id is taken, by a scenario
    /// listed here or by a preset (fetched or not), which the picker and links name by id.
    fn list(&mut self, mut s: Scenario) -> usize {
        let id = s.id.clone();
        let mut n = 1;
        while crate::presets::listed(&s.id) || self.scenarios.iter().any(|x| x.id == s.id) {
            n += 1;
            s.id = format!("{id}-{n}");
        }
        Rc::make_mut(&mut self.scenarios).push(s);
        self.scenarios.len() - 1
    }

    fn import(&mut self, mut s: Scenario) -> Result<(), String> {
        let at = s.open_at.take().unwrap_or(0);
        // Its branches become the run's, built before anything changes: one the model
        // refuses is an error, and the run on screen is kept.
        let (specs, open) = (std::mem::take(&mut s.branches), s.open_branch.take());
        let choice = Choice::default_for(&s);
        let mut runs = Vec::with_capacity(specs.len());
        for (i, b) in specs.iter().enumerate() {
            runs.push(
                replay_branch(&s, &choice, b).map_err(|r| format!("branches[{i}]: {}", r.what))?,
            );
        }
        self.leave();
        // A preset of the same id is compared as loaded.
        self.preset(&s.id);
        self.scenario = match self.scenarios.iter().position(|x| same_scenario(x, &s)) {
            Some(i) => i,
            None => self.list(s),
        };
        self.kept.remove(&self.scenario);
        self.choice = Choice::default_for(self.current());
        self.reload();
        match open {
            Some(k) if k < runs.len() => {
                self.run = runs.remove(k);
                self.branches = Branches::from_runs(runs, k);
            }
            _ => {
                self.go_to(at);
                self.branches = Branches::from_runs(runs, 0);
            }
        }
        Ok(())
    }

    /// Step `i`: a step already taken, or the script played on until it (or its end).
    fn go_to(&mut self, i: usize) {
        if i <= self.run.len() {
            self.run.seek(i);
            return;
        }
        self.run.seek(self.run.len());
        self.forward_to(i, false);
    }

    fn load_scenario(&mut self, s: Scenario, actions: Vec<Action>) {
        let choice = Choice::default_for(&s);
        self.error = None;
        // A scripted run (the lab's narrated runs) plays its script, then any actions.
        let mut run = match replay_run(&s, &choice, s.script.len(), &actions) {
            Ok(run) => run,
            Err(r) => {
                self.error = Some(match r.what {
                    Replayed::Action { index, error, .. } => {
                        format!("Step {} of this run was refused: {error}", index + 1)
                    }
                    other => format!("This run could not be replayed: {other}"),
                });
                r.run
            }
        };
        self.leave();
        let first_violation = (1..=run.len()).find(|&i| {
            run.step_events(i)
                .iter()
                .any(|e| matches!(e.kind, crate::sim::EventKind::Violation { .. }))
        });
        run.seek(first_violation.unwrap_or(run.len()));
        // Opening it again (or another run of the same id) replaces its picker entry.
        let listed = self
            .scenarios
            .iter()
            .position(|x| x.id == s.id && !crate::presets::listed(&s.id));
        let title = s.title.clone();
        match listed {
            Some(i) => Rc::make_mut(&mut self.scenarios)[i] = s,
            None => Rc::make_mut(&mut self.scenarios).push(s),
        }
        self.scenario = listed.unwrap_or(self.scenarios.len() - 1);
        self.kept.remove(&self.scenario);
        self.choice = choice;
        self.run = run;
        self.playing = false;
        self.notice = Some(match first_violation {
            Some(i) => format!("Opened “{title}” at step {i}, its first violation. Step back and forth from here; Copy link shares it."),
            None => format!("Opened “{title}” at its end. Step back and forth from here; Copy link shares it."),
        });
    }

    /// The link to this view (the URL fragment, without `#`): scenario, receiver choice,
    /// the steps taken on this branch and the current step.
    pub fn link(&self) -> String {
        let policy = match &self.choice {
            Choice::Policy(p) => Some(*p),
            Choice::Variant(_) => None,
        };
        let id = self.current().id.clone();
        let scenario = match crate::presets::listed(&id) {
            true => ScenarioRef::Preset(id),
            false => ScenarioRef::Inline(Box::new(self.current().clone())),
        };
        let others: Vec<&Run> = self.branches.others().map(|(_, r)| r).collect();
        let link = Link::of(&self.run, scenario, policy, None)
            .with_branches(self.branches.specs(), self.branches.position())
            .encode_from(&self.run, &others);
        link + &self.predict.suffix(&self.key())
    }

    /// Show a decoded link's run.
    fn open(&mut self, link: Link, run: Run) {
        self.leave();
        let base = match &link.scenario {
            ScenarioRef::Preset(id) => self.preset(id),
            ScenarioRef::Inline(s) => self.scenarios.iter().position(|x| same_scenario(x, s)),
        };
        self.scenario = match (base, &link.scenario) {
            (Some(i), _) => i,
            (None, ScenarioRef::Inline(s)) => self.list((**s).clone()),
            // A preset the picker does not list: show it under its own entry.
            (None, ScenarioRef::Preset(_)) => match link.base_scenario() {
                Ok(s) => {
                    Rc::make_mut(&mut self.scenarios).push(s);
                    self.scenarios.len() - 1
                }
                Err(_) => self.scenario,
            },
        };
        self.kept.remove(&self.scenario);
        self.choice = match (&link.variant, link.policy) {
            (Some(v), _) => Choice::Variant(v.clone()),
            (None, Some(p)) => Choice::for_policy(self.current(), p),
            (None, None) => Choice::default_for(self.current()),
        };
        self.run = run;
    }

    /// Before the view moves to another scenario: keep the current run if the user acted in
    /// it. Returns the scenario's title when something was kept.
    fn leave(&mut self) -> Option<String> {
        let branches = std::mem::take(&mut self.branches);
        if self.run.first_user_step().is_none() && !branches.any() {
            return None;
        }
        self.kept.insert(
            self.scenario,
            (self.choice.clone(), self.run.clone(), branches),
        );
        Some(self.current().title.clone())
    }

    /// The scenario again from its start (Reload scenario, or picking the one shown): a run
    /// the user acted in is kept as a branch, not lost.
    fn start_over(&mut self) {
        let acted = self.run.first_user_step().is_some();
        let fresh = build_run(self.current(), &self.choice);
        let left = std::mem::replace(&mut self.run, fresh);
        self.playing = false;
        self.error = None;
        self.notice = acted.then(|| {
            let fork = self.branches.fork(left);
            format!(
                "Started over: your run is kept as branch {}, and this is branch {}. Branches, above the timeline, switches between them.{}",
                fork.kept,
                fork.now,
                let_go(&fork)
            )
        });
    }

    /// The same branch under the newly chosen variant or policy, at the same step: the
    /// script steps and the user's actions replayed, so a learner compares like with like.
    /// If the new setting refuses one, the run keeps what replayed and says where it stopped.
    fn rechoose(&mut self) {
        let cursor = self.run.cursor();
        let (script_steps, actions) = self.run.branch();
        self.playing = false;
        self.error = None;
        self.notice = None;
        match replay_run(self.current(), &self.choice, script_steps, &actions) {
            Ok(run) => self.run = run,
            Err(r) => {
                self.run = r.run;
                self.notice = Some(format!(
                    "Under {}, this run could not be replayed past step {}: {}. The steps after it are gone.",
                    self.choice.value(),
                    self.run.len(),
                    r.what
                ));
            }
        }
        self.run.seek(cursor);
        // Every branch runs under the choice shown, so switching and comparing stay like
        // with like; one the new choice refuses keeps the steps that replayed.
        let (s, choice) = (&self.scenarios[self.scenario], &self.choice);
        self.branches.rebuild(|r| {
            replay_branch(s, choice, &r.as_branch()).unwrap_or_else(|refused| refused.run)
        });
    }

    fn reload(&mut self) {
        self.run = build_run(self.current(), &self.choice);
        self.playing = false;
        self.notice = None;
        self.error = None;
    }

    /// One step forward; false at the end or when the script's next step was refused.
    fn forward(&mut self) -> bool {
        if self.blocked() {
            return false;
        }
        match self.run.step_forward() {
            Ok(moved) => {
                if moved {
                    self.error = None;
                }
                moved
            }
            Err(e) => {
                self.error = Some(format!("The script could not go on: {e}"));
                self.playing = false;
                true
            }
        }
    }
}

/// The keyboard shortcuts, as (keys, what they do), for the help dialog.
pub const SHORTCUTS: [(&str, &str); 7] = [
    ("Space", "Play or pause"),
    ("→ (Arrow right)", "Step forward"),
    ("← (Arrow left)", "Step back"),
    ("Home", "Back to start"),
    ("End", "Jump to end"),
    ("?", "Show these shortcuts (Escape closes)"),
    (
        "A S M W B D K V N I",
        "Predict mode: answer Accepted, or Rejected for a Stale token, Missing token, Wrong scope, Business rule, Duplicate replayed, Key reused, Version changed, Not the registered token or Key in flight (the key is on each button; only the answers the run can give are offered)",
    ),
];

/// What a key press means, if anything. Keys typed into a select, input or text area are
/// theirs (`in_field`); Space and Enter on a focused button press that button (`on_button`);
/// modifier chords are the browser's. While the shortcuts dialog is open only `?` and
/// Escape do anything. While predict mode asks, the letter of each answer `offered` gives it.
pub fn shortcut(
    key: &str,
    in_field: bool,
    on_button: bool,
    modified: bool,
    help_open: bool,
    offered: &[Said],
) -> Option<Msg> {
    if in_field || modified {
        return None;
    }
    if help_open {
        return match key {
            "Escape" | "?" => Some(Msg::Help(false)),
            _ => None,
        };
    }
    match key {
        " " | "Spacebar" if !on_button => Some(Msg::TogglePlay),
        "ArrowRight" => Some(Msg::StepForward),
        "ArrowLeft" => Some(Msg::StepBack),
        "Home" => Some(Msg::ToStart),
        "End" => Some(Msg::ToEnd),
        "?" => Some(Msg::Help(true)),
        k => {
            let mut chars = k.chars();
            let said = chars.next().and_then(Said::from_key);
            said.filter(|s| chars.next().is_none() && offered.contains(s))
                .map(Msg::Answer)
        }
    }
}

/// Every preset that parses, in picker order. Parsed with plain `serde_json` (no path
/// tracking: a smaller WASM); presets are validated by the test suite, and one that does
/// not parse (a file being edited) is left out rather than taking the app down.
pub fn load_presets() -> Vec<Scenario> {
    crate::presets::ids()
        .filter_map(crate::presets::source)
        .filter_map(|text| Scenario::from_json(text).ok())
        .filter(|s| !s.locks.is_empty() && s.network.delay > 0)
        .collect()
}

/// A fresh run of a scenario under a choice.
pub fn build_run(s: &Scenario, choice: &Choice) -> Run {
    // Not `expect`: that would format the refusal with `Debug`, which brings every derived
    // `Debug` of the model (a run, its worlds and events) into the page's WASM.
    replay_run(s, choice, 0, &[])
        .unwrap_or_else(|r| unreachable!("an empty replay refuses nothing: {}", r.what))
}

/// What a fork's notice adds when a branch was let go to stay within the limit.
fn let_go(fork: &Fork) -> String {
    let names: Vec<String> = fork.dropped.iter().map(usize::to_string).collect();
    match names.len() {
        0 => String::new(),
        1 => format!(
            " Branch {}, the oldest, was let go: a run keeps {} branches at most, and {} events in those not shown.",
            names[0],
            crate::view::branches::MAX_BRANCHES,
            crate::view::branches::MAX_KEPT_EVENTS
        ),
        _ => format!(
            " Branches {}, the oldest, were let go: a run keeps {} branches at most, and {} events in those not shown.",
            names.join(", "),
            crate::view::branches::MAX_BRANCHES,
            crate::view::branches::MAX_KEPT_EVENTS
        ),
    }
}

/// A scenario under a choice with a branch replayed, at its step (see `Run::replay_branch`).
pub fn replay_branch(s: &Scenario, choice: &Choice, b: &Branch) -> Result<Run, Box<Refused>> {
    let mut run = replay_run(s, choice, b.script_steps, &b.actions)?;
    run.seek(b.open_at);
    Ok(run)
}

/// A scenario under a choice with a branch replayed (see `Run::replay`).
pub fn replay_run(
    s: &Scenario,
    choice: &Choice,
    script_steps: usize,
    actions: &[Action],
) -> Result<Run, Box<Refused>> {
    match choice {
        Choice::Variant(n) => Run::replay(s, s.variant(n), script_steps, actions),
        Choice::Policy(p) => {
            let mut s = s.clone();
            s.policy = *p;
            Run::replay(&s, None, script_steps, actions)
        }
    }
}

/// The app on a preset under a choice: where the view modules' tests start.
#[cfg(test)]
pub(crate) fn app_on(id: &str, choice: Choice) -> AppState {
    let mut a = AppState::new(load_presets());
    a.apply(Msg::LoadId(id.into()));
    a.apply(Msg::Choose(choice));
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    fn app() -> AppState {
        AppState::new(load_presets())
    }

    #[test]
    fn a_link_reopens_the_same_view_and_a_bad_one_keeps_the_run() {
        let mut a = app();
        assert!(a.apply(Msg::LoadId("sandbox".into())) || a.current().id == "sandbox");
        let w = a.run.world().workers()[0].name.clone();
        a.apply(Msg::Act(Action::Acquire {
            worker: w.clone(),
            lock: None,
        }));
        a.apply(Msg::Act(Action::Advance { ticks: 3 }));
        a.apply(Msg::Act(Action::Pause {
            worker: w,
            ticks: None,
        }));
        a.apply(Msg::StepBack);
        let link = a.link();

        let mut b = app();
        assert!(b.apply(Msg::OpenLink(link.clone())));
        assert_eq!(b.error, None);
        assert_eq!(b.current().id, a.current().id);
        assert_eq!(b.choice, a.choice);
        assert_eq!(b.run.cursor(), a.run.cursor());
        assert_eq!(b.run.world(), a.run.world());
        assert!(b.run.events().eq(a.run.events()));
        assert_eq!(b.link(), link, "the same view gives the same link");
        assert!(
            !b.apply(Msg::OpenLink(link.clone())),
            "its own link changes nothing"
        );

        // Under a plain policy, too.
        let mut c = app();
        c.apply(Msg::Choose(Choice::Policy(Policy::Unfenced)));
        c.apply(Msg::ToEnd);
        let mut d = app();
        d.apply(Msg::OpenLink(c.link()));
        assert_eq!(
            (d.choice.clone(), d.run.cursor()),
            (c.choice.clone(), c.run.cursor())
        );
        assert_eq!(d.run.world(), c.run.world());

        // Truncated, garbage and future links: a message, and the run is kept.
        for bad in [&link[..link.len() / 2], "v1.%%%", "v9.AAAA", ""] {
            let before = b.run.clone();
            assert!(b.apply(Msg::OpenLink(bad.to_string())));
            let e = b.error.clone().expect("an error for a bad link");
            assert!(e.starts_with("This link could not be opened"), "{bad}: {e}");
            assert_eq!(b.run, before, "{bad}: the run is kept");
        }
    }

    /// The page's fetch of preset `id` answered with its file: what `use_preset_loader` does.
    fn arrive(a: &mut AppState, id: &str) -> bool {
        let file = format!("{}/presets/{id}.json", env!("CARGO_MANIFEST_DIR"));
        presets::provide(id, std::fs::read_to_string(file).unwrap());
        a.apply(Msg::PresetArrived(id.into()))
    }

    /// The page holds two presets' files; every other preset waits for its file to be
    /// fetched: a pick, a link and the address's options each wait, then run as they would
    /// have; a failure keeps the run; an answer nobody waits for any more changes nothing.
    #[test]
    fn a_preset_not_in_the_first_load_waits_for_its_file() {
        let mut full = app();
        full.apply(Msg::LoadId("renewal-failure".into()));
        full.apply(Msg::Seek(3));
        let link = full.link();
        presets::as_in_the_page();
        let mut a = AppState::new(load_presets());
        assert_eq!(a.scenarios.len(), presets::IN_FIRST_LOAD.len());
        assert_eq!(
            a.listed().len(),
            presets::ids().count(),
            "the picker lists every preset"
        );
        // A pick waits, with a word on screen, and the run stays.
        let before = a.run.clone();
        assert!(a.apply(Msg::LoadId("happy-takeover".into())));
        assert_eq!(
            a.loading.as_ref().map(|l| l.id.as_str()),
            Some("happy-takeover")
        );
        assert_eq!(a.notice.as_deref(), Some("Loading “A clean handover”…"));
        assert_eq!(
            (a.current().id.as_str(), &a.run),
            ("paused-writer", &before)
        );
        // A failure says so and keeps the run.
        assert!(a.apply(Msg::PresetFailed(
            "happy-takeover".into(),
            "the server answered 404".into()
        )));
        assert_eq!(a.loading, None);
        let e = a.error.clone().unwrap();
        assert!(
            e.contains("“A clean handover” could not be loaded: the server answered 404"),
            "{e}"
        );
        assert_eq!(a.run, before);
        // Asked again, and here this time: the pick runs.
        a.apply(Msg::LoadId("happy-takeover".into()));
        assert!(arrive(&mut a, "happy-takeover"));
        assert_eq!(
            (a.current().id.as_str(), a.run.cursor(), a.loading.clone()),
            ("happy-takeover", 0, None)
        );
        assert_eq!(a.notice, None);
        // A link to another: it waits, then opens at its step, as it would have at once.
        assert!(a.apply(Msg::OpenLink(link.clone())));
        assert_eq!(
            a.loading.as_ref().map(|l| l.id.as_str()),
            Some("renewal-failure")
        );
        arrive(&mut a, "renewal-failure");
        assert_eq!(
            (a.current().id.as_str(), a.run.cursor()),
            ("renewal-failure", 3)
        );
        assert_eq!(a.link(), link);
        // The address's options wait as a whole: policy and step apply to the preset they name.
        let o = crate::view::embed::EmbedOptions::parse_any("?preset=omitted-token&step=2");
        assert!(o.apply(&mut a).is_empty());
        assert_eq!(a.current().id, "renewal-failure");
        arrive(&mut a, "omitted-token");
        assert_eq!(
            (a.current().id.as_str(), a.run.cursor()),
            ("omitted-token", 2)
        );
        // Gone elsewhere while it came: the answer changes nothing.
        a.apply(Msg::LoadId("multi-object".into()));
        a.apply(Msg::LoadId("sandbox".into()));
        assert_eq!(a.loading, None);
        assert!(!arrive(&mut a, "multi-object"));
        assert_eq!(a.current().id, "sandbox");
        // Not a preset at all: nothing to wait for.
        assert!(!a.apply(Msg::LoadId("no-such-preset".into())));
        assert_eq!(a.loading, None);
        // A preset's own file, imported: it waits for the preset; if that cannot be had, the
        // file is whole without it and opens as a copy, under an id no preset has.
        let file = include_str!("../../presets/business-failure.json").to_string();
        assert!(a.apply(Msg::Import(file.clone())));
        assert!(a.loading.is_some() && a.notice.is_some());
        a.apply(Msg::PresetFailed(
            "business-failure".into(),
            "the network did not answer".into(),
        ));
        assert_eq!(
            (a.current().id.as_str(), a.loading.clone(), a.notice.clone()),
            ("business-failure-2", None, None)
        );
        assert!(
            a.link().len() > 200,
            "a copy is linked inline, not as the preset"
        );
        // Something else asked for while a preset loads: its "Loading…" goes too.
        a.apply(Msg::LoadId("stripe-idempotency".into()));
        assert!(a.notice.is_some());
        a.apply(Msg::Import("not json".into()));
        assert_eq!((a.loading.clone(), a.notice.clone()), (None, None));
    }

    /// The variant's stated outcome waits for the story: not at step 0, shown from the step
    /// that decides what it names, and at the end; in predict mode, only at the end.
    #[test]
    fn the_expected_outcome_is_said_once_the_story_reaches_it() {
        let mut a = app();
        a.apply(Msg::LoadId("paused-writer".into()));
        a.apply(Msg::Choose(Choice::Variant("highest-seen".into())));
        assert!(a.outcome().is_some());
        assert_eq!(a.outcome_due(), None, "step 0 gives nothing away");
        let mut steps = Vec::new();
        while !a.at_end() {
            a.apply(Msg::StepForward);
            steps.push(a.outcome_due().is_some());
        }
        let first = steps.iter().position(|&s| s).expect("said by the end");
        assert!(first > 0 && steps[first..].iter().all(|&s| s), "{steps:?}");
        let v = a.current().variant("highest-seen").unwrap().expect.clone();
        assert_eq!(decisive_step(&a.run, &v), Some(first + 1));
        // Stepping back before it hides it again; predict mode holds it to the end.
        a.apply(Msg::Seek(first));
        assert_eq!(a.outcome_due(), None);
        a.apply(Msg::Seek(first + 1));
        assert!(a.outcome_due().is_some());
        a.predict.on = true;
        if first + 1 < a.run.len() {
            assert_eq!(a.outcome_due(), None);
        }
        a.apply(Msg::ToEnd);
        assert!(a.outcome_due().is_some());
        // A branch the user acted in has a story of its own: the script's outcome is not said.
        a.predict.on = false;
        a.apply(Msg::Seek(2));
        a.apply(Msg::Act(Action::Advance { ticks: 1 }));
        assert!(a.at_end());
        assert_eq!(a.outcome_due(), None);
        a.apply(Msg::Branch(1));
        a.apply(Msg::ToEnd);
        assert!(
            a.outcome_due().is_some(),
            "the script's branch says it again"
        );
    }

    /// The shortcuts dialog names every answer predict mode can take, with its key.
    #[test]
    fn the_shortcuts_name_every_predict_answer() {
        let (keys, what) = SHORTCUTS
            .iter()
            .find(|(_, w)| w.starts_with("Predict mode"))
            .expect("a predict line");
        for s in Said::ALL {
            let key = s.key().to_ascii_uppercase().to_string();
            assert!(keys.split(' ').any(|k| k == key), "{s:?}'s key in {keys}");
            assert!(what.to_lowercase().contains(s.reason()), "{s:?} in {what}");
        }
    }

    #[test]
    fn load_presets_matches_the_checked_parse() {
        assert_eq!(load_presets(), presets::all());
    }

    #[test]
    fn opens_paused_writer_at_step_zero() {
        let s = app();
        assert_eq!(s.current().id, "paused-writer");
        assert_eq!(s.run.cursor(), 0);
        assert_eq!(s.choice, Choice::default_for(s.current()));
    }

    #[test]
    fn choice_values_round_trip() {
        let s = presets::get("paused-writer").unwrap();
        for c in [
            Choice::Variant(s.variants[0].name.clone()),
            Choice::Policy(Policy::Strict),
        ] {
            assert_eq!(Choice::parse(&s, &c.value()), Some(c));
        }
        assert_eq!(Choice::parse(&s, "nonsense"), None);
    }

    #[test]
    fn stepping_and_back_are_exact() {
        let mut s = app();
        for _ in 0..4 {
            assert!(s.apply(Msg::StepForward));
        }
        let w4 = s.run.world().clone();
        s.apply(Msg::StepForward);
        s.apply(Msg::StepBack);
        assert_eq!(s.run.world(), &w4);
        s.apply(Msg::ToStart);
        assert_eq!(s.run.cursor(), 0);
        s.apply(Msg::ToEnd);
        assert!(s.at_end());
        assert!(!s.apply(Msg::StepForward), "nothing after the end");
    }

    #[test]
    fn acting_in_the_past_forks_and_says_so() {
        let mut s = app();
        s.apply(Msg::ToEnd);
        s.apply(Msg::Seek(2));
        assert!(s.apply(Msg::Act(Action::Advance { ticks: 1 })));
        let notice = s.notice.clone().unwrap();
        assert!(notice.contains("forked at step 2"), "{notice}");
        assert_eq!(s.run.len(), 3);
    }

    #[test]
    fn acting_mid_script_takes_over() {
        let mut s = app();
        s.apply(Msg::StepForward);
        s.apply(Msg::Act(Action::Advance { ticks: 1 }));
        assert!(s.notice.clone().unwrap().contains("took over"));
        assert!(s.run.taken_over());
    }

    #[test]
    fn refused_actions_report_and_change_nothing() {
        let mut s = app();
        let before = s.run.world().clone();
        s.apply(Msg::Act(Action::Resume { worker: "A".into() }));
        assert!(s.error.clone().unwrap().starts_with("Refused"));
        assert_eq!(s.run.world(), &before);
    }

    #[test]
    fn play_ticks_to_the_end_then_stops() {
        let mut s = app();
        assert!(s.apply(Msg::TogglePlay));
        let mut n = 0;
        while s.playing && n < 1000 {
            s.apply(Msg::Tick);
            n += 1;
        }
        assert!(!s.playing);
        assert!(s.at_end());
        assert_eq!(n, s.current().script.len());
        // Play at the end replays from the start.
        s.apply(Msg::TogglePlay);
        assert_eq!(s.run.cursor(), 0);
        assert!(s.playing);
    }

    #[test]
    fn seeking_past_the_recorded_steps_runs_the_script() {
        let mut s = app();
        s.apply(Msg::Seek(3));
        assert_eq!(s.run.cursor(), 3);
        assert_eq!(s.run.len(), 3);
    }

    #[test]
    fn another_policy_replays_the_branch_and_keeps_the_step() {
        let mut s = app();
        s.apply(Msg::ToEnd);
        let end = s.run.len();
        s.apply(Msg::Seek(7));
        assert!(s.apply(Msg::Choose(Choice::Policy(Policy::Strict))));
        assert_eq!(s.run.scenario.policy, Policy::Strict);
        assert_eq!(
            (s.run.cursor(), s.run.len()),
            (7, end),
            "same step, same steps ahead"
        );
        assert!(s.outcome().is_none());
        // The world is the strict policy's own at that step, not the old one relabelled.
        let mut fresh = app();
        fresh.apply(Msg::Choose(Choice::Policy(Policy::Strict)));
        fresh.apply(Msg::Seek(7));
        assert_eq!(s.run.world(), fresh.run.world());
        assert!(!s.apply(Msg::Choose(Choice::Variant("no such variant".into()))));

        // The user's own actions are replayed too.
        s.apply(Msg::Seek(3));
        s.apply(Msg::Act(Action::Advance { ticks: 2 }));
        s.apply(Msg::Act(Action::Advance { ticks: 1 }));
        s.apply(Msg::StepBack);
        let actions = s.run.branch();
        s.apply(Msg::Choose(Choice::Policy(Policy::Unfenced)));
        assert_eq!(s.run.branch(), actions);
        assert_eq!(s.run.cursor(), 4);
        assert_eq!(s.run.scenario.policy, Policy::Unfenced);
    }

    #[test]
    fn leaving_a_run_with_actions_keeps_it_for_when_the_user_comes_back() {
        let mut a = worked_on();
        let (run, choice) = (a.run.clone(), a.choice.clone());
        let here = a.scenario;
        a.apply(Msg::LoadId("sandbox".into()));
        let n = a.notice.clone().expect("says the actions are kept");
        assert!(n.contains("are kept"), "{n}");
        assert_eq!(a.run.cursor(), 0);
        a.apply(Msg::Load(here));
        assert_eq!((&a.run, &a.choice), (&run, &choice), "back as it was");
        assert!(a.notice.clone().unwrap().contains("is back as you left it"));
        // Starting over keeps the user's run as a branch, and leaving keeps the branches.
        a.apply(Msg::Reload);
        assert!(a.notice.clone().unwrap().contains("kept as branch 1"));
        a.apply(Msg::StepForward);
        a.apply(Msg::LoadId("sandbox".into()));
        a.apply(Msg::Load(here));
        assert_eq!(a.run.cursor(), 1, "the fresh branch, as it was left");
        assert!(a.apply(Msg::Branch(1)));
        assert_eq!(&a.run, &run, "and the run the user acted in, as branch 1");
        // A run without actions of the user's, and no branches, is not kept.
        let other = a
            .scenarios
            .iter()
            .position(|s| s.id == "delayed-before-new")
            .unwrap();
        a.apply(Msg::Load(other));
        a.apply(Msg::StepForward);
        a.apply(Msg::LoadId("sandbox".into()));
        assert_eq!(a.notice, None);
        a.apply(Msg::Load(other));
        assert_eq!(a.run.cursor(), 0);
    }

    /// Three branches of paused-writer, the second shown at step 4: 1 is the script to its
    /// end, 2 forks it at step 3 and 3 forks it at step 5.
    fn three_branches() -> AppState {
        let mut a = app_on("paused-writer", Choice::Variant("highest-seen".into()));
        a.apply(Msg::ToEnd);
        a.apply(Msg::Seek(3));
        a.apply(Msg::Act(Action::Advance { ticks: 2 }));
        a.apply(Msg::Act(Action::Advance { ticks: 1 }));
        a.apply(Msg::Branch(1));
        a.apply(Msg::Seek(5));
        a.apply(Msg::Act(Action::Advance { ticks: 3 }));
        a.apply(Msg::Branch(2));
        a.apply(Msg::StepBack);
        a
    }

    /// The same tree, each branch at the same step with the same world.
    fn same_branches(a: &AppState, b: &AppState) {
        assert_eq!(b.branches.rows(&b.run), a.branches.rows(&a.run));
        assert_eq!(
            (b.run.cursor(), b.run.world()),
            (a.run.cursor(), a.run.world())
        );
        for (n, r) in a.branches.others() {
            let s = b.branches.get(n).expect("kept");
            assert_eq!((s.cursor(), s.len()), (r.cursor(), r.len()), "branch {n}");
            assert_eq!(s.world_at(s.len()), r.world_at(r.len()), "branch {n}");
        }
    }

    #[test]
    fn a_link_carries_every_branch_and_which_is_shown() {
        let a = three_branches();
        let rows = a.branches.rows(&a.run);
        let parents: Vec<_> = rows.iter().map(|r| (r.number, r.parent)).collect();
        assert_eq!(
            parents,
            vec![(1, None), (2, Some((1, 3))), (3, Some((1, 5)))]
        );
        let mut b = AppState::new(load_presets());
        assert!(b.apply(Msg::OpenLink(a.link())));
        assert_eq!(b.error, None);
        same_branches(&a, &b);
        let n = b.notice.clone().unwrap();
        assert!(n.contains("It keeps 3 branches; this is branch 2."), "{n}");
        assert_eq!(b.link(), a.link(), "and the same link again");
        // A link of a run without branches is as it was before branches.
        let plain = app_on("paused-writer", Choice::Variant("highest-seen".into()));
        let text = plain.link();
        assert!(Link::decode(&text).unwrap().branches.is_empty());
        // Damaged branch data is refused in words, and the run on screen kept.
        let mut long = Link::decode(&a.link()).unwrap();
        long.branches[0].open_at = 99;
        let before = b.run.clone();
        b.apply(Msg::OpenLink(long.encode()));
        let e = b.error.clone().unwrap();
        assert!(e.contains("branch 1 of the link points at step 99"), "{e}");
        assert_eq!(b.run, before);
    }

    #[test]
    fn an_exported_file_keeps_every_branch_and_opens_the_one_shown() {
        let a = three_branches();
        let text = crate::view::file::export_json(&a.run, a.current(), &a.branches);
        let s = Scenario::from_json(&text).unwrap();
        assert_eq!(s.branches.len(), 3);
        assert_eq!(s.open_branch, Some(1));
        assert_eq!(s.script, a.run.scenario.script, "the script as written");
        let mut b = AppState::new(load_presets());
        b.apply(Msg::Import(text.clone()));
        assert!(b.file_status.as_ref().unwrap().ok, "{:?}", b.file_status);
        same_branches(&a, &b);
        // A branch the model refuses: not imported, and the run on screen is kept.
        let before = b.run.clone();
        let bad = text.replacen("\"script_steps\": 3", "\"script_steps\": 3000", 1);
        assert_ne!(bad, text);
        b.apply(Msg::Import(bad));
        let status = b.file_status.clone().unwrap();
        assert!(
            !status.ok && status.text.contains("branches[1].script_steps"),
            "{status:?}"
        );
        assert_eq!(b.run, before);
    }

    #[test]
    fn forking_keeps_the_replaced_steps_as_a_branch_to_switch_back_to() {
        let mut a = app_on("paused-writer", Choice::Variant("highest-seen".into()));
        a.apply(Msg::ToEnd);
        let whole = a.run.clone();
        a.apply(Msg::Seek(3));
        a.apply(Msg::Act(Action::Advance { ticks: 2 }));
        let n = a.notice.clone().unwrap();
        assert!(
            n.contains("forked at step 3")
                && n.contains("kept as branch 1")
                && n.contains("this is branch 2"),
            "{n}"
        );
        let mine = a.run.clone();
        assert!(a.apply(Msg::Branch(1)));
        assert_eq!(a.run.len(), whole.len(), "branch 1 has every step it had");
        assert_eq!(a.run.world_at(whole.len()), whole.world_at(whole.len()));
        assert_eq!(a.branches.current(), 1);
        assert!(!a.apply(Msg::Branch(7)), "no such branch: nothing changes");
        assert!(a.apply(Msg::Branch(2)));
        assert_eq!(a.run, mine);
        // Another receiver choice replays every branch under it.
        a.apply(Msg::Choose(Choice::Policy(Policy::Unfenced)));
        let kept = a.branches.get(1).unwrap();
        assert_eq!(kept.scenario.policy, Policy::Unfenced);
        assert_eq!(kept.len(), whole.len());
    }

    #[test]
    fn shortcuts_leave_fields_and_buttons_alone() {
        assert_eq!(
            shortcut(" ", false, false, false, false, &[]),
            Some(Msg::TogglePlay)
        );
        assert_eq!(
            shortcut(" ", false, true, false, false, &[]),
            None,
            "space presses the focused button"
        );
        assert_eq!(
            shortcut("ArrowRight", true, false, false, false, &[]),
            None,
            "a range input keeps its arrows"
        );
        assert_eq!(
            shortcut("ArrowRight", false, true, false, false, &[]),
            Some(Msg::StepForward)
        );
        assert_eq!(shortcut("End", false, false, true, false, &[]), None);
        assert_eq!(
            shortcut("?", false, false, false, false, &[]),
            Some(Msg::Help(true))
        );
        assert_eq!(
            shortcut("Escape", false, false, false, true, &[]),
            Some(Msg::Help(false))
        );
        assert_eq!(
            shortcut("ArrowLeft", false, false, false, true, &[]),
            None,
            "the dialog is modal"
        );
    }

    #[test]
    fn every_preset_loads_and_runs_to_its_end() {
        let mut s = app();
        for i in 0..s.scenarios.len() {
            s.apply(Msg::Load(i));
            s.apply(Msg::ToEnd);
            assert!(s.error.is_none(), "{}: {:?}", s.current().id, s.error);
        }
    }

    #[test]
    fn a_lab_run_loads_as_a_normal_run_at_its_first_violation_and_shares_by_link() {
        use crate::sim::lab::{self, LabParams};
        let p = LabParams::default();
        // The first seeded run at TTL 5 in which a stale write got through unfenced.
        let (scenario, actions, _) = (0..p.runs)
            .map(|i| lab::simulate(&p, 5, i))
            .find(|(_, _, m)| m.stale_accepted_unfenced > 0)
            .expect("a run with a stale write");
        let mut a = app();
        let listed = a.scenarios.len();
        assert!(a.apply(Msg::LoadScenario(
            Box::new(scenario.clone()),
            actions.clone()
        )));
        assert_eq!(a.error, None);
        assert_eq!(a.current(), &scenario);
        assert_eq!(a.scenarios.len(), listed + 1, "listed in the picker");
        assert_eq!(a.run.len(), actions.len(), "one step per action");
        let at = a.run.cursor();
        assert!(at > 0 && at < a.run.len());
        assert!(a
            .run
            .last_step_events()
            .iter()
            .any(|e| matches!(e.kind, crate::sim::EventKind::Violation { .. })));
        assert!(
            (1..at).all(|i| a.run.world_at(i).unwrap().ghost().violations.is_empty()),
            "no violation before it"
        );
        assert!(a.notice.clone().unwrap().contains(&format!("step {at}")));
        // Stepping works as anywhere else.
        assert!(a.apply(Msg::StepForward));
        assert!(a.apply(Msg::ToEnd) || a.at_end());

        // Shared by link: another app opens the same world at the same step.
        let link = a.link();
        let mut b = app();
        assert!(b.apply(Msg::OpenLink(link)));
        assert_eq!(b.error, None);
        assert_eq!(b.current(), &scenario);
        assert_eq!(b.run.world(), a.run.world());

        // Opening it again replaces its entry; a refused action is reported.
        let mut bad = actions.clone();
        bad.insert(0, Action::Resume { worker: "A".into() });
        a.apply(Msg::LoadScenario(Box::new(scenario), bad));
        assert_eq!(a.scenarios.len(), listed + 1);
        assert!(a
            .error
            .clone()
            .unwrap()
            .starts_with("Step 1 of this run was refused"));
        assert!(a.run.is_empty());
    }

    #[test]
    fn a_counterexample_loads_as_a_run_that_steps_and_links() {
        let mut a = app();
        a.apply(Msg::Choose(Choice::Variant("unfenced".into())));
        let b = crate::sim::explore::Bounds::for_scenario(&a.run.scenario);
        let report = crate::sim::explore::explore(&a.run.scenario, a.run.variant.clone(), b);
        let ce = report.invariants[0]
            .counterexample
            .clone()
            .expect("broken under unfenced");
        assert_eq!(report.invariants[0].kind, ViolationKind::StaleOverwrite);
        a.apply(Msg::StepForward);
        assert!(a.apply(Msg::LoadFound {
            found: Found::Breaks(ViolationKind::StaleOverwrite),
            script_steps: 0,
            actions: ce.clone(),
        }));
        assert_eq!(a.error, None);
        assert!(a
            .notice
            .clone()
            .unwrap()
            .contains("breaks “stale overwrite”: 12 steps"));
        // The last step shows the violation; the step before does not.
        assert_eq!(a.run.cursor(), ce.len());
        let violation = |a: &AppState| {
            a.run.last_step_events().iter().any(|e| {
                matches!(&e.kind, crate::sim::EventKind::Violation { kind, .. } if kind.as_str() == "stale_overwrite")
            })
        };
        assert!(violation(&a));
        assert!(a.apply(Msg::StepBack));
        assert!(!violation(&a));
        assert!(a.apply(Msg::StepForward));
        // Copy link carries it: a fresh app opens the same run at the same step.
        let mut other = app();
        assert!(other.apply(Msg::OpenLink(a.link())));
        assert_eq!(other.error, None);
        assert_eq!(other.run.world(), a.run.world());
        assert!(violation(&other));

        // A counterexample from another scenario is refused and the run kept.
        let before = a.run.clone();
        a.apply(Msg::LoadId("sandbox".into()));
        let sandbox = a.run.clone();
        a.apply(Msg::LoadFound {
            found: Found::Breaks(ViolationKind::StaleOverwrite),
            script_steps: 0,
            actions: ce,
        });
        assert!(a
            .error
            .clone()
            .unwrap()
            .starts_with("The run could not be loaded"));
        assert_eq!(a.run, sandbox);
        assert_ne!(a.run, before);
    }

    /// A few sandbox actions on paused-writer, stepped back one: a run only an export that
    /// carries the actions and the step can reproduce.
    fn worked_on() -> AppState {
        let mut a = app();
        a.apply(Msg::Seek(2));
        a.apply(Msg::Act(Action::Advance { ticks: 2 }));
        a.apply(Msg::Act(Action::Pause {
            worker: "B".into(),
            ticks: None,
        }));
        a.apply(Msg::Act(Action::Advance { ticks: 3 }));
        a.apply(Msg::StepBack);
        assert!(a.error.is_none(), "{:?}", a.error);
        a
    }

    #[test]
    fn an_exported_run_imports_as_the_same_world_at_the_same_step() {
        let a = worked_on();
        let text = crate::view::file::export_json(&a.run, a.current(), &a.branches);
        let mut b = app();
        b.apply(Msg::Load(b.scenarios.len() - 1));
        assert!(b.apply(Msg::Import(text.clone())));
        assert_eq!(b.error, None);
        assert_eq!(b.run.cursor(), a.run.cursor());
        assert_eq!(b.run.world().fingerprint(), a.run.world().fingerprint());
        assert!(b.run.events().eq(a.run.events()));
        assert_eq!(b.current().id, "paused-writer-export");
        let st = b.file_status.clone().unwrap();
        assert!(st.ok && st.text.starts_with("Imported"), "{st:?}");
        // Forward still shows the step stepped back over.
        b.apply(Msg::StepForward);
        let mut a2 = a.clone();
        a2.apply(Msg::StepForward);
        assert_eq!(b.run.world(), a2.run.world());
        // The same file again reuses its picker entry; another export gets its own id.
        let n = b.scenarios.len();
        b.apply(Msg::Import(text));
        assert_eq!(b.scenarios.len(), n);
        let mut c = worked_on();
        c.apply(Msg::StepBack);
        c.apply(Msg::Act(Action::Advance { ticks: 1 }));
        b.apply(Msg::Import(crate::view::file::export_json(
            &c.run,
            c.current(),
            &c.branches,
        )));
        assert_eq!(b.scenarios.len(), n + 1);
        assert_eq!(b.current().id, "paused-writer-export-2");
        assert_eq!(b.run.world(), c.run.world());
    }

    #[test]
    fn a_preset_file_imports_at_step_zero() {
        let mut a = app();
        a.apply(Msg::ToEnd);
        assert!(a.apply(Msg::Import(presets::source("sandbox").unwrap().to_string())));
        assert_eq!(a.error, None);
        assert_eq!(a.current().id, "sandbox");
        assert_eq!(a.run.cursor(), 0);
    }

    #[test]
    fn a_bad_file_names_its_path_and_keeps_the_run() {
        let mut a = worked_on();
        let good = crate::view::file::export_json(&a.run, a.current(), &a.branches);
        let mut v: serde_json::Value = serde_json::from_str(&good).unwrap();
        v["network"]["delay"] = "x".into();
        let mut wrong_version = serde_json::from_str::<serde_json::Value>(&good).unwrap();
        wrong_version["version"] = 7.into();
        // Playing on: a refused file stops nothing either.
        a.apply(Msg::TogglePlay);
        assert!(a.playing);
        for (bad, path) in [
            (v.to_string(), "network.delay"),
            (wrong_version.to_string(), "version"),
            ("{ not json".to_string(), "key must be a string"),
            (good.replace("\"advance\"", "\"explode\""), "script["),
        ] {
            let before = (
                a.run.clone(),
                a.scenario,
                a.scenarios.len(),
                a.notice.clone(),
            );
            assert!(a.apply(Msg::Import(bad.clone())));
            let st = a.file_status.clone().expect("a status for a bad file");
            assert!(!st.ok && st.text.starts_with("Not imported"), "{st:?}");
            assert!(st.text.contains(path), "{path}: {st:?}");
            assert_eq!(a.error, None);
            assert_eq!(
                (
                    a.run.clone(),
                    a.scenario,
                    a.scenarios.len(),
                    a.notice.clone()
                ),
                before
            );
            assert!(a.playing);
        }
    }

    #[test]
    fn predict_mode_stops_before_each_verdict_scores_the_run_and_travels_in_its_link() {
        let mut s = app();
        assert!(s.apply(Msg::Predict(true)));
        assert!(s.apply(Msg::ToEnd));
        // B's write is decided in step 8: the run stops before it, and stays there.
        assert_eq!(s.run.cursor(), 7);
        let q = s.asking.clone().expect("a question");
        assert_eq!(q.step, 8);
        assert!(!s.apply(Msg::StepForward));
        assert!(!s.apply(Msg::TogglePlay));
        assert!(!s.apply(Msg::Seek(9)));
        assert_eq!(
            shortcut("A", false, true, false, false, &q.offered),
            Some(Msg::Answer(Said::Accepted))
        );
        assert_eq!(
            shortcut("b", false, false, false, false, &q.offered),
            None,
            "no account here: no business rule to answer"
        );
        assert_eq!(shortcut("a", false, false, false, false, &[]), None);
        // The answer runs the step.
        assert!(s.apply(Msg::Answer(Said::Accepted)));
        assert_eq!((s.run.cursor(), s.asking.clone()), (8, None));
        s.apply(Msg::StepForward);
        assert_eq!(s.asking.as_ref().map(|q| q.step), Some(10));
        // Wrong: A's stale write is refused under highest-seen.
        assert!(s.apply(Msg::Answer(Said::Accepted)));
        assert_eq!(s.run.cursor(), 10);
        s.apply(Msg::ToEnd);
        assert!(s.at_end());
        let score = s.predict.score(&s.key(), &s.run);
        assert_eq!((score.right, score.asked), (1, 2));
        assert_eq!(score.missed[0].step, 10);
        // The missed step is one Seek away, and stepping over answered steps asks nothing.
        assert!(s.apply(Msg::Seek(score.missed[0].step)));
        assert_eq!(s.run.cursor(), 10);
        s.apply(Msg::Seek(0));
        assert!(s.apply(Msg::Seek(11)));
        assert!(s.at_end());

        // The link carries the answers: another page opens the same score.
        let link = s.link();
        assert!(link.ends_with("~predict=8a,10a"), "{link}");
        let mut b = app();
        assert!(b.apply(Msg::OpenLink(link.clone())));
        assert_eq!(b.error, None);
        assert!(b.predict.on);
        assert_eq!(b.predict.score(&b.key(), &b.run), score);
        assert_eq!(b.link(), link);
        // Off, the link is the plain one, and stepping never stops.
        s.apply(Msg::Predict(false));
        assert!(!s.link().contains('~'));
        s.apply(Msg::Reload);
        s.apply(Msg::ToEnd);
        assert!(s.at_end());
    }

    #[test]
    fn the_error_is_dismissed_on_its_own() {
        let mut a = app();
        a.notice = Some("a notice".into());
        a.error = Some("an error".into());
        assert!(a.apply(Msg::DismissError));
        assert_eq!(
            (a.notice.as_deref(), a.error.as_deref()),
            (Some("a notice"), None)
        );
        assert!(!a.apply(Msg::DismissError));
    }
}

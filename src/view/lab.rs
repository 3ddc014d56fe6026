//! The lease-duration lab panel as a state machine: its form, a sweep computed a few runs
//! per slice (so the page stays responsive and can show progress or cancel), the finished
//! charts, the selected point and which run behind it to open.
//!
//! The panel's state is its own (parameters are not part of a link); opening a run is the
//! app's [`Msg::LoadScenario`], built by [`LabPanel::open_run`].

use super::plot::{self, Chart, Metric};
use super::state::Msg;
use crate::sim::event::{Event, EventKind};
use crate::sim::invariant::ViolationKind;
use crate::sim::lab::{self, LabParams, LabPoint, LabResult, LabRun};
use crate::sim::message::MessageKind;
use crate::sim::request::Reason;
use crate::sim::scenario::Step;
use crate::sim::time::Tick;
use crate::sim::{Action, Scenario, World};
use std::rc::Rc;

/// A form field. Each is an integer with a range; `LabForm::shown` says what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    TtlMin,
    TtlMax,
    Steps,
    Renew,
    PauseChance,
    PauseMax,
    Delay,
    Jitter,
    Skew,
    Drift,
    Runs,
}

/// The fields in groups, as the form shows them.
pub const GROUPS: [(&str, &[Field]); 5] = [
    (
        "Lease",
        &[Field::TtlMin, Field::TtlMax, Field::Steps, Field::Renew],
    ),
    ("Pauses", &[Field::PauseChance, Field::PauseMax]),
    ("Network delay", &[Field::Delay, Field::Jitter]),
    ("Clocks", &[Field::Skew, Field::Drift]),
    ("Runs", &[Field::Runs]),
];

impl Field {
    /// The input's id (and its label's `for`).
    pub fn id(self) -> &'static str {
        match self {
            Field::TtlMin => "lab-ttl-min",
            Field::TtlMax => "lab-ttl-max",
            Field::Steps => "lab-steps",
            Field::Renew => "lab-renew",
            Field::PauseChance => "lab-pause-chance",
            Field::PauseMax => "lab-pause-max",
            Field::Delay => "lab-delay",
            Field::Jitter => "lab-jitter",
            Field::Skew => "lab-skew",
            Field::Drift => "lab-drift",
            Field::Runs => "lab-runs",
        }
    }

    /// The accessible name of the input.
    pub fn label(self) -> &'static str {
        match self {
            Field::TtlMin => "Shortest lease TTL",
            Field::TtlMax => "Longest lease TTL",
            Field::Steps => "TTLs to try",
            Field::Renew => "Renewal interval",
            Field::PauseChance => "Pause chance",
            Field::PauseMax => "Longest pause",
            Field::Delay => "Base delay",
            Field::Jitter => "Jitter",
            Field::Skew => "Clock skew",
            Field::Drift => "Clock drift",
            Field::Runs => "Runs per TTL",
        }
    }

    /// Inclusive bounds.
    pub fn range(self) -> (u64, u64) {
        match self {
            Field::TtlMin | Field::TtlMax => (1, 120),
            Field::Steps => (2, 16),
            Field::Renew => (100, 900),
            Field::PauseChance => (0, 50),
            Field::PauseMax => (1, 60),
            Field::Delay => (1, 10),
            Field::Jitter => (0, 10),
            Field::Skew => (0, 60),
            Field::Drift => (0, 200),
            Field::Runs => (1, 100),
        }
    }

    /// A number box rather than a slider: counts people type.
    pub fn typed(self) -> bool {
        matches!(self, Field::Runs)
    }
}

/// The form's values: the lab's parameters plus how to spread TTLs over the range.
#[derive(Clone, Debug, PartialEq)]
pub struct LabForm {
    pub params: LabParams,
    pub ttl_min: Tick,
    pub ttl_max: Tick,
    pub steps: u64,
}

impl Default for LabForm {
    fn default() -> Self {
        LabForm {
            params: LabParams::default(),
            ttl_min: 2,
            ttl_max: 60,
            steps: 10,
        }
    }
}

impl LabForm {
    pub fn get(&self, f: Field) -> u64 {
        let p = &self.params;
        match f {
            Field::TtlMin => self.ttl_min,
            Field::TtlMax => self.ttl_max,
            Field::Steps => self.steps,
            Field::Renew => p.renew_permille as u64,
            Field::PauseChance => p.pause_permille as u64,
            Field::PauseMax => p.pause_max,
            Field::Delay => p.delay,
            Field::Jitter => p.jitter,
            Field::Skew => p.skew,
            Field::Drift => p.drift_permille as u64,
            Field::Runs => p.runs as u64,
        }
    }

    /// Set a field, clamped to its range; moving one end of the TTL range past the other
    /// takes the other along. False when nothing changed.
    pub fn set(&mut self, f: Field, v: u64) -> bool {
        let (lo, hi) = f.range();
        let v = v.clamp(lo, hi);
        if self.get(f) == v {
            return false;
        }
        let p = &mut self.params;
        match f {
            Field::TtlMin => {
                self.ttl_min = v;
                self.ttl_max = self.ttl_max.max(v);
            }
            Field::TtlMax => {
                self.ttl_max = v;
                self.ttl_min = self.ttl_min.min(v);
            }
            Field::Steps => self.steps = v,
            Field::Renew => p.renew_permille = v as u32,
            Field::PauseChance => p.pause_permille = v as u32,
            Field::PauseMax => p.pause_max = v,
            Field::Delay => p.delay = v,
            Field::Jitter => p.jitter = v,
            Field::Skew => p.skew = v,
            Field::Drift => p.drift_permille = v as u32,
            Field::Runs => p.runs = v as u32,
        }
        true
    }

    /// What the value means, shown beside its input (and as its `aria-valuetext`).
    pub fn shown(&self, f: Field) -> String {
        let v = self.get(f);
        match f {
            Field::TtlMin | Field::TtlMax | Field::Delay | Field::PauseMax if v == 1 => {
                "1 s".into()
            }
            Field::TtlMin | Field::TtlMax | Field::Delay => format!("{v} s"),
            Field::Steps => format!("{} TTLs", self.ttls().len()),
            Field::Renew => format!("every {}% of the TTL", plot::num(v as f64 / 10.0, 1)),
            Field::PauseChance if v == 0 => "never".into(),
            Field::PauseChance => format!(
                "{v}‰ a second (one pause per ~{} s)",
                plot::num(1000.0 / v as f64, 0)
            ),
            Field::PauseMax => format!("{v} s (mean {} s)", plot::num((1 + v) as f64 / 2.0, 1)),
            Field::Jitter => format!("+ up to {v} s"),
            Field::Skew => format!("± {v} s (cancels out: a lease is a duration on one clock)"),
            Field::Drift => format!("± {}% rate", plot::num(v as f64 / 10.0, 1)),
            Field::Runs => format!("{v} seeded runs at each TTL"),
        }
    }

    /// The TTLs to try: `steps` of them from `ttl_min` to `ttl_max`, spaced geometrically
    /// (short leases are where the curves bend), whole and distinct.
    pub fn ttls(&self) -> Vec<Tick> {
        let (lo, hi) = (self.ttl_min.max(1), self.ttl_max.max(self.ttl_min.max(1)));
        let n = self.steps.max(2);
        let ratio = hi as f64 / lo as f64;
        let mut out: Vec<Tick> = Vec::new();
        for i in 0..n {
            // lo · ratio^(i/(n-1))
            let f = i as f64 / (n - 1) as f64;
            let t = (lo as f64 * pow(ratio, f)).round() as Tick;
            let t = t.clamp(lo, hi);
            if out.last().is_none_or(|&l| t > l) {
                out.push(t);
            }
        }
        if out.last() != Some(&hi) {
            out.push(hi);
        }
        out
    }

    pub fn lab_params(&self) -> LabParams {
        LabParams {
            ttls: self.ttls(),
            ..self.params.clone()
        }
    }
}

/// `x^f` for `x >= 1`, as `exp(f·ln x)` by short series: no float powers in the WASM.
fn pow(x: f64, f: f64) -> f64 {
    // ln x = k·ln 2 + ln m with m in [1, 2), and ln m = 2·atanh((m-1)/(m+1)), |z| ≤ 1/3.
    let (mut m, mut k) = (x, 0.0);
    while m >= 2.0 {
        m /= 2.0;
        k += 1.0;
    }
    let z = (m - 1.0) / (m + 1.0);
    let (mut ln, mut term) = (0.0, z);
    for i in 0..30 {
        ln += term / (2 * i + 1) as f64;
        term *= z * z;
    }
    let y = (k * std::f64::consts::LN_2 + 2.0 * ln) * f;
    let (mut e, mut t) = (1.0, 1.0);
    for i in 1..60 {
        t *= y / i as f64;
        e += t;
    }
    e
}

/// A sweep under way: the points finished and the runs of the TTL being worked on.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub params: LabParams,
    pub points: Vec<LabPoint>,
    runs: Vec<LabRun>,
}

impl Sweep {
    pub fn new(params: LabParams) -> Sweep {
        Sweep {
            params,
            points: Vec::new(),
            runs: Vec::new(),
        }
    }

    /// Runs to simulate in all.
    pub fn total(&self) -> usize {
        self.params.ttls.len() * self.params.runs as usize
    }

    pub fn done(&self) -> usize {
        self.points.len() * self.params.runs as usize + self.runs.len()
    }

    pub fn finished(&self) -> bool {
        self.points.len() == self.params.ttls.len()
    }

    /// Simulate up to `budget` more runs, averaging each TTL's as soon as they are all in.
    pub fn slice(&mut self, budget: usize) {
        for _ in 0..budget {
            if self.finished() {
                return;
            }
            let ttl = self.params.ttls[self.points.len()];
            if self.runs.len() < self.params.runs as usize {
                let i = self.runs.len() as u32;
                self.runs.push(lab::simulate(&self.params, ttl, i).2);
            }
            if self.runs.len() >= self.params.runs as usize {
                let runs = std::mem::take(&mut self.runs);
                self.points.push(lab::point_of(&self.params, ttl, runs));
            }
        }
    }

    pub fn result(self) -> LabResult {
        lab::finish(&self.params, self.points)
    }
}

/// A finished sweep and its four charts.
#[derive(Debug, PartialEq)]
pub struct Done {
    pub result: LabResult,
    pub charts: Vec<Chart>,
}

/// The point the user picked: which series, which TTL (index into the result's points) and
/// which run behind it to open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selected {
    pub metric: Metric,
    pub point: usize,
    pub run: u32,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabPanel {
    pub form: LabForm,
    pub sweep: Option<Sweep>,
    pub done: Option<Rc<Done>>,
    pub selected: Option<Selected>,
    /// How the last sweep ended ("Cancelled after…"), for the status line.
    pub status: Option<String>,
    /// Bumped by every Run, so a slice scheduled for an earlier sweep is told apart.
    pub generation: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LabMsg {
    Set(Field, u64),
    /// Start a sweep with the form's parameters (restarts one under way).
    Run,
    /// Compute up to this many runs of the sweep under way.
    Slice(usize),
    Cancel,
    /// A point was clicked: (series, index into the result's points).
    Select(Metric, usize),
    /// Which run behind the selected point to open.
    ChooseRun(u32),
}

impl LabPanel {
    /// Apply a message; false when nothing changed.
    pub fn apply(&mut self, msg: LabMsg) -> bool {
        match msg {
            LabMsg::Set(f, v) => self.form.set(f, v),
            LabMsg::Run => {
                self.sweep = Some(Sweep::new(self.form.lab_params()));
                self.status = None;
                self.generation += 1;
                true
            }
            LabMsg::Slice(budget) => {
                let Some(sweep) = self.sweep.as_mut() else {
                    return false;
                };
                sweep.slice(budget);
                if sweep.finished() {
                    let result = self.sweep.take().map(Sweep::result).expect("a sweep");
                    self.status = Some(format!(
                        "Done: {} TTLs × {} runs.",
                        result.points.len(),
                        result.params.runs
                    ));
                    self.selected = None;
                    self.done = Some(Rc::new(Done {
                        charts: plot::charts(&result),
                        result,
                    }));
                }
                true
            }
            LabMsg::Cancel => match self.sweep.take() {
                Some(s) => {
                    self.status = Some(format!(
                        "Cancelled after {} of {} runs.{}",
                        s.done(),
                        s.total(),
                        if self.done.is_some() {
                            " The plots are still the previous run's."
                        } else {
                            ""
                        }
                    ));
                    true
                }
                None => false,
            },
            LabMsg::Select(metric, point) => {
                let Some(done) = &self.done else {
                    return false;
                };
                let Some(p) = done.result.points.get(point) else {
                    return false;
                };
                let minutes = done.result.params.duration.max(1) as f64 / 60.0;
                let sel = Selected {
                    metric,
                    point,
                    run: plot::representative(p, metric, minutes),
                };
                self.selected.replace(sel) != Some(sel)
            }
            LabMsg::ChooseRun(run) => match (&mut self.selected, &self.done) {
                (Some(sel), Some(done)) if run < done.result.params.runs && sel.run != run => {
                    sel.run = run;
                    true
                }
                _ => false,
            },
        }
    }

    /// The sweep's progress as (runs done, runs in all), while one is under way.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.sweep.as_ref().map(|s| (s.done(), s.total()))
    }

    /// The selected point, if any.
    pub fn point(&self) -> Option<&LabPoint> {
        let (sel, done) = (self.selected?, self.done.as_ref()?);
        done.result.points.get(sel.point)
    }

    /// The runs behind the selected point as (index, "Run 3: 2 false expirations").
    pub fn run_options(&self) -> Vec<(u32, String)> {
        let (Some(sel), Some(done), Some(p)) = (self.selected, &self.done, self.point()) else {
            return Vec::new();
        };
        let minutes = done.result.params.duration.max(1) as f64 / 60.0;
        p.runs
            .iter()
            .map(|r| {
                let what = match sel.metric.run_value(r, minutes) {
                    Some(v) => sel.metric.phrase(v),
                    None => "no takeover".into(),
                };
                (r.index, format!("Run {}: {what}", r.index + 1))
            })
            .collect()
    }

    /// The message that opens the selected run in the main timeline: the run as a script
    /// whose steps narrate it (`narrated`), so the timeline tells this run's story.
    pub fn open_run(&self) -> Option<Msg> {
        let (sel, done, p) = (self.selected?, self.done.as_ref()?, self.point()?);
        let scenario = narrated(&done.result.params, p.ttl, sel.run);
        Some(Msg::LoadScenario(Box::new(scenario), Vec::new()))
    }

    /// The stale-writes chart's banner for the finished sweep (`plot::banner`).
    pub fn banner(&self) -> Option<String> {
        self.done.as_ref().map(|d| plot::banner(&d.result))
    }
}

/// "1 renewal", "3 renewals".
fn count(n: u32, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// One lab run as a scripted scenario: the lab's actions grouped into chapters, each ending
/// where something worth telling happened (a pause, a resume, a crash, a restart, a lease
/// expiring at the coordinator, a change of holder, a stale write accepted or rejected),
/// each with a `say` of what happened in it. The first names the TTL, the run and its seed;
/// the last adds up what the lab measured. Replaying the script gives the lab's world.
pub fn narrated(p: &LabParams, ttl: Tick, run: u32) -> Scenario {
    let (mut scenario, actions, m) = lab::simulate(p, ttl, run);
    let mut world = World::new(&scenario);
    let mut narrator = Narrator::default();
    let mut steps: Vec<Step> = Vec::new();
    let mut chunk = Vec::new();
    let mut from = world.now();
    // The lab merges quiet ticks into one advance; taken a tick at a time (and merged again
    // within a chapter), a chapter ends on the tick its event happened.
    let ticks = actions.into_iter().flat_map(|a| match a {
        Action::Advance { ticks } => vec![Action::Advance { ticks: 1 }; ticks as usize],
        a => vec![a],
    });
    for a in ticks {
        let events = world.step(&a).expect("the lab's own actions replay");
        lab::push_merging_time(&mut chunk, a);
        let mut notable = false;
        for e in &events {
            notable |= narrator.hear(e, world.now());
        }
        if notable {
            steps.push(Step {
                say: narrator.chapter(from, world.now()),
                say_if: Vec::new(),
                actions: std::mem::take(&mut chunk),
            });
            from = world.now();
        }
    }
    let total = measured(p, &m);
    let end = format!(
        "The run ends at t={}. {total} {}: a longer lease makes this rarer, never impossible.",
        world.now(),
        plot::NO_SAFE_TTL
    );
    match steps.last_mut() {
        Some(last) if chunk.is_empty() => last.say = format!("{} {end}", last.say),
        _ => steps.push(Step {
            say: format!("t={from}–{}: {end}", world.now()),
            say_if: Vec::new(),
            actions: chunk,
        }),
    }
    steps[0].say = format!(
        "{} {}",
        setting(p, ttl, run, scenario.seed, narrator.crashed.as_ref()),
        steps[0].say
    );
    scenario.summary = format!("{} {total}", scenario.summary);
    scenario.script = steps;
    scenario
}

/// What the narration of a lab run knows as it goes: the story so far (who holds the lease,
/// who has a write prepared, who crashed and when) and, for the chapter being told, what it
/// says and the routine it only counts.
#[derive(Default)]
struct Narrator {
    holder: Option<String>,
    prepared: Vec<String>,
    crashed: Option<(String, Tick)>,
    told: Vec<String>,
    renewals: u32,
    writes: u32,
    lapsed: u32,
    late: u32,
}

impl Narrator {
    /// Take in one event at true time `now`; true if it is worth a sentence (then told).
    fn hear(&mut self, e: &Event, now: Tick) -> bool {
        let line = self.line(e, now);
        let notable = line.is_some();
        self.told.extend(line);
        notable
    }

    /// The sentence an event deserves, if any; routine events are counted instead.
    fn line(&mut self, e: &Event, now: Tick) -> Option<String> {
        let who = e.actor.as_str();
        let token = e.token.as_ref().map(|t| t.to_string()).unwrap_or_default();
        let prepared = self.prepared.iter().any(|w| w == who);
        match &e.kind {
            EventKind::Sent { kind, .. } => {
                match kind {
                    MessageKind::Renew => self.renewals += 1,
                    MessageKind::Write => self.prepared.retain(|w| w != who),
                    _ => {}
                }
                None
            }
            EventKind::WriteAccepted { .. } => {
                self.writes += 1;
                None
            }
            EventKind::LeaseBeliefExpired { .. } => {
                self.lapsed += 1;
                None
            }
            EventKind::ReplyIgnored { .. } => {
                self.late += 1;
                None
            }
            EventKind::Prepared { .. } => {
                self.prepared.push(who.to_string());
                None
            }
            EventKind::LeaseAcquired { .. } if self.holder.as_deref() != Some(who) => {
                let line = match &self.holder {
                    None => format!("{who} holds the lease with token {token}."),
                    Some(h) => format!("{who} now holds the lease with token {token}, after {h}."),
                };
                self.holder = Some(who.to_string());
                Some(line)
            }
            EventKind::LeaseExpired { holder: h, .. } => {
                // Until someone else holds it, the lease that runs out is the crashed one's.
                let crash = self
                    .crashed
                    .as_ref()
                    .filter(|(w, _)| w == h && self.holder.is_none());
                Some(if let Some((_, t)) = crash {
                    format!("The coordinator expires {h}'s lease, {} s after {h} crashed: only now may another worker take over.", now - t)
                } else {
                    format!("The coordinator expires {h}'s lease although {h} is alive (paused, or its renewal came too late): a false expiration.")
                })
            }
            EventKind::Paused { until } => {
                let with = if prepared {
                    ", its write already prepared under the lease it checked"
                } else {
                    ""
                };
                Some(match until {
                    Some(t) => format!("{who} freezes in a stop-the-world pause until t={t}{with}."),
                    None => format!("{who} freezes in a stop-the-world pause{with}."),
                })
            }
            EventKind::Resumed => Some(if prepared {
                format!("{who} resumes and sends the write it prepared before the pause, without checking its lease again.")
            } else {
                format!("{who} resumes.")
            }),
            EventKind::Crashed => {
                self.crashed = Some((who.to_string(), now));
                if self.holder.as_deref() == Some(who) {
                    self.holder = None;
                }
                Some(format!("{who} crashes while it holds the lease; it restarts one lease length later."))
            }
            EventKind::Restarted => Some(format!("{who} restarts and asks for the lease again.")),
            EventKind::WriteRejected { resource, reason: Reason::Stale, .. } => Some(format!(
                "The {resource} copy rejects a write with token {token}: it has seen a newer token."
            )),
            EventKind::Violation { kind, resource, detail } => Some(match (kind, resource.as_str()) {
                (ViolationKind::SupersededWrite, "fenced") => format!(
                    "The fenced copy applies a superseded write ({detail}): it has not yet seen the newer token, so highest-seen cannot tell."
                ),
                (ViolationKind::SupersededWrite, _) => format!(
                    "The {resource} copy applies a superseded write ({detail}): it checks no token."
                ),
                (ViolationKind::StaleOverwrite, _) => format!(
                    "The {resource} copy lets a stale write overwrite the new owner's ({detail})."
                ),
                _ => format!("Violation at {resource}: {detail}."),
            }),
            _ => None,
        }
    }

    /// The `say` of a chapter from `from` to `now`: the routine counted meanwhile, then what
    /// was told. The next chapter starts afresh.
    fn chapter(&mut self, from: Tick, now: Tick) -> String {
        let mut say = if from == now {
            format!("t={now}: ")
        } else {
            format!("t={from}–{now}: ")
        };
        let mut routine = Vec::new();
        if self.renewals > 0 {
            routine.push(count(self.renewals, "renewal"));
        }
        if self.writes > 0 {
            routine.push(count(self.writes, "write") + " accepted");
        }
        if self.lapsed > 0 {
            routine.push(count(self.lapsed, "lease") + " run out by a worker's clock");
        }
        if self.late > 0 {
            routine.push(count(self.late, "answer") + " arriving too late to believe");
        }
        if !routine.is_empty() {
            say.push_str(&format!("Meanwhile {}. ", routine.join(", ")));
        }
        say.push_str(&self.told.join(" "));
        self.told.clear();
        (self.renewals, self.writes, self.lapsed, self.late) = (0, 0, 0, 0);
        say
    }
}

/// What the lab measured in a run, in one sentence ("In all: …").
fn measured(p: &LabParams, m: &LabRun) -> String {
    let minutes = p.duration.max(1) as f64 / 60.0;
    let takeover = match m.takeover {
        Some(t) => format!("another worker took over {t} s after the crash"),
        None => "no takeover after a crash was measured".into(),
    };
    format!(
        "In all: {} through the unfenced copy; the fenced copy applied {} and rejected {}; {}; {} and {} ({} per minute); {takeover}.",
        count(m.stale_accepted_unfenced, "stale write"),
        count(m.superseded_accepted_fenced, "superseded write"),
        count(m.stale_rejected_fenced, "stale write"),
        count(m.false_expirations, "false expiration"),
        count(m.renewals, "renewal"),
        count(m.acquires, "acquire"),
        plot::num((m.renewals + m.acquires) as f64 / minutes, 1),
    )
}

/// The first chapter's opening: the TTL, the run and its seed, the workload, and the crash.
fn setting(
    p: &LabParams,
    ttl: Tick,
    run: u32,
    seed: u64,
    crashed: Option<&(String, Tick)>,
) -> String {
    format!(
        "Lease lab, TTL {ttl} s, run {} (seed {seed}): A and B share one {ttl}-second lease, each renewing every {} s while it holds it, and write every {} s to two copies of one record, “fenced” (highest-seen) and “unfenced”. Pauses strike at random; {}.",
        run + 1,
        lab::renew_every(p, ttl),
        p.write_every,
        match crashed {
            Some((w, t)) => format!("{w} crashes at t={t}, holding the lease"),
            None => format!(
                "the lab crashes the holder at t={}, but no worker held the lease then",
                p.duration * 6 / 10
            ),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::state::{load_presets, AppState};

    fn small() -> LabPanel {
        let mut p = LabPanel::default();
        p.apply(LabMsg::Set(Field::Runs, 3));
        p.apply(LabMsg::Set(Field::Steps, 4));
        p.apply(LabMsg::Set(Field::TtlMax, 30));
        p
    }

    #[test]
    fn ttls_spread_from_the_shortest_to_the_longest() {
        let f = LabForm::default();
        let t = f.ttls();
        assert_eq!((t[0], *t.last().unwrap(), t.len()), (2, 60, 10));
        assert!(t.windows(2).all(|w| w[0] < w[1]), "{t:?}");
        assert!(
            t[1] - t[0] <= t[9] - t[8],
            "denser where leases are short: {t:?}"
        );
        // A range narrower than the steps: every whole TTL once.
        let narrow = LabForm {
            ttl_min: 5,
            ttl_max: 7,
            ..LabForm::default()
        };
        assert_eq!(narrow.ttls(), [5, 6, 7]);
        let one = LabForm {
            ttl_min: 9,
            ttl_max: 9,
            ..LabForm::default()
        };
        assert_eq!(one.ttls(), [9]);
        for (x, f) in [(30.0, 0.5), (120.0, 1.0), (1.0, 0.3), (7.5, 0.25)] {
            assert!((pow(x, f) - f64::powf(x, f)).abs() < 1e-9 * x, "{x}^{f}");
        }
    }

    #[test]
    fn fields_clamp_and_keep_the_ttl_range_in_order() {
        let mut f = LabForm::default();
        assert!(f.set(Field::Runs, 0));
        assert_eq!(f.get(Field::Runs), 1, "at least one run");
        assert!(!f.set(Field::Runs, 1), "unchanged");
        f.set(Field::TtlMin, 80);
        assert_eq!((f.ttl_min, f.ttl_max), (80, 80));
        f.set(Field::TtlMax, 10);
        assert_eq!((f.ttl_min, f.ttl_max), (10, 10));
        f.set(Field::PauseMax, 12);
        assert_eq!(f.shown(Field::PauseMax), "12 s (mean 6.5 s)");
        assert_eq!(f.shown(Field::Renew), "every 33.3% of the TTL");
        for (_, fields) in GROUPS {
            for &field in fields {
                let (lo, hi) = field.range();
                assert!((lo..=hi).contains(&f.get(field)), "{field:?}");
            }
        }
    }

    #[test]
    fn a_sweep_in_slices_gives_the_whole_sweep_and_reports_progress() {
        let mut p = small();
        assert!(!p.apply(LabMsg::Slice(5)), "no sweep before Run");
        p.apply(LabMsg::Run);
        let total = 4 * 3;
        assert_eq!(p.progress(), Some((0, total)));
        p.apply(LabMsg::Slice(5));
        assert_eq!(p.progress(), Some((5, total)));
        assert!(p.done.is_none());
        while p.sweep.is_some() {
            p.apply(LabMsg::Slice(5));
        }
        let done = p.done.clone().expect("finished");
        assert_eq!(done.result, lab::sweep(&p.form.lab_params()));
        assert_eq!(done.charts.len(), 4);
        assert_eq!(p.status.as_deref(), Some("Done: 4 TTLs × 3 runs."));
    }

    #[test]
    fn cancel_stops_the_sweep_and_keeps_the_last_plots() {
        let mut p = small();
        p.apply(LabMsg::Run);
        while p.sweep.is_some() {
            p.apply(LabMsg::Slice(100));
        }
        let before = p.done.clone();
        p.apply(LabMsg::Set(Field::Runs, 5));
        p.apply(LabMsg::Run);
        p.apply(LabMsg::Slice(2));
        assert!(p.apply(LabMsg::Cancel));
        assert!(p.sweep.is_none());
        assert_eq!(p.done, before);
        let s = p.status.clone().unwrap();
        assert!(s.starts_with("Cancelled after 2 of 20 runs"), "{s}");
        assert!(!p.apply(LabMsg::Slice(2)), "a late slice does nothing");
        assert!(!p.apply(LabMsg::Cancel));
    }

    #[test]
    fn a_selected_point_opens_its_run_in_the_app() {
        let mut p = small();
        assert!(
            !p.apply(LabMsg::Select(Metric::StaleUnfenced, 0)),
            "no plots yet"
        );
        p.apply(LabMsg::Run);
        p.apply(LabMsg::Slice(1000));
        assert!(p.apply(LabMsg::Select(Metric::StaleUnfenced, 0)));
        assert!(!p.apply(LabMsg::Select(Metric::StaleUnfenced, 99)));
        let sel = p.selected.unwrap();
        let pt = p.point().unwrap().clone();
        let options = p.run_options();
        assert_eq!(options.len(), 3);
        assert!(options[0].1.starts_with("Run 1: "), "{options:?}");
        assert!(!p.apply(LabMsg::ChooseRun(3)), "only the runs there are");
        let other = (sel.run + 1) % 3;
        assert!(p.apply(LabMsg::ChooseRun(other)));

        let msg = p.open_run().expect("a run to open");
        let mut app = AppState::new(load_presets());
        assert!(app.apply(msg));
        assert_eq!(app.current().id, format!("lab-ttl{}-run{other}", pt.ttl));
        // It is the run measured for that point: the same world as replaying the lab's run
        // (tests/lab.rs checks that a replay measures what the lab plotted).
        let params = &p.done.as_ref().unwrap().result.params;
        let (scenario, actions, measured) = lab::simulate(params, pt.ttl, other);
        assert_eq!(measured, pt.runs[other as usize]);
        let mut replay = crate::sim::Run::new(&scenario, None);
        for a in actions {
            replay.act(a).unwrap();
        }
        assert_eq!(app.run.world_at(app.run.len()).unwrap(), replay.world());
        // It opens as a story of this run, not the Sandbox's blank page.
        assert!(!app.current().script.is_empty(), "a script narrates it");
        let first = app.run.step_narration(0).unwrap();
        assert!(
            first.starts_with(&format!(
                "Lease lab, TTL {} s, run {} (seed {})",
                pt.ttl,
                other + 1,
                scenario.seed
            )),
            "{first}"
        );
    }

    #[test]
    fn an_opened_run_narrates_what_happens_in_it() {
        use crate::sim::EventKind;
        let p = LabParams::default();
        // The default sweep's first run at TTL 4 with a stale write through the unfenced copy.
        let (run, measured) = (0..p.runs)
            .map(|i| (i, lab::simulate(&p, 4, i).2))
            .find(|(_, m)| m.stale_accepted_unfenced > 0 && m.superseded_accepted_fenced > 0)
            .expect("a run with a stale write");
        let s = narrated(&p, 4, run);
        let (plain, actions, _) = lab::simulate(&p, 4, run);
        // The lab's actions, chaptered: chapters split an advance where an event happened.
        let mut scripted: Vec<Action> = Vec::new();
        for a in s.script.iter().flat_map(|st| st.actions.clone()) {
            match (scripted.last_mut(), &a) {
                (Some(Action::Advance { ticks }), Action::Advance { ticks: more }) => {
                    *ticks += more
                }
                _ => scripted.push(a),
            }
        }
        assert_eq!(scripted, actions, "the script is the lab's run, chaptered");
        assert_eq!((s.id.as_str(), s.seed), (plain.id.as_str(), plain.seed));
        assert!(s.script.len() > 2 && s.script.len() < actions.len());
        assert!(s.summary.contains(&format!(
            "In all: {} through the unfenced copy",
            count(measured.stale_accepted_unfenced, "stale write")
        )));

        let mut app = AppState::new(load_presets());
        assert!(app.apply(Msg::LoadScenario(Box::new(s.clone()), Vec::new())));
        assert_eq!(app.error, None);
        assert_eq!(app.run.len(), s.script.len(), "every chapter played");
        // It opens at its first violation, and the narration there tells it.
        let at = app.run.cursor();
        assert!(app
            .run
            .last_step_events()
            .iter()
            .any(|e| matches!(e.kind, EventKind::Violation { .. })));
        let say = app.run.narration().expect("a script step's words");
        assert!(say.contains("a superseded write (A") || say.contains("lets a stale write"));
        // Its two copies' writes travel apart: within a few steps both are told.
        let next: Vec<&str> = (at - 1..(at + 3).min(s.script.len()))
            .filter_map(|i| app.run.step_narration(i))
            .collect();
        assert!(
            next.iter().any(
                |t| t.contains("The unfenced copy applies a superseded write")
                    || t.contains("The unfenced copy lets a stale write overwrite")
            ),
            "{next:#?}"
        );
        assert!(
            next.iter()
                .any(|t| t.contains("The fenced copy applies a superseded write")),
            "{next:#?}"
        );
        // The write was prepared before a pause and sent on resume, earlier in the story.
        let before: Vec<&str> = (0..at - 1)
            .filter_map(|i| app.run.step_narration(i))
            .collect();
        assert!(
            before
                .iter()
                .any(|t| t.contains("its write already prepared under the lease it checked")),
            "{before:#?}"
        );
        assert!(before
            .iter()
            .any(|t| t.contains("resumes and sends the write it prepared before the pause")));
        assert!(app.notice.clone().unwrap().contains(&format!("step {at}")));
        // The last chapter adds up what the lab measured.
        let last = app.run.step_narration(s.script.len() - 1).unwrap();
        assert!(last.contains(&format!(
            "the fenced copy applied {}",
            count(measured.superseded_accepted_fenced, "superseded write")
        )));
        assert!(last.contains("No TTL is safe without fencing"), "{last}");
        // A link to it reopens the same world at the same step.
        let mut b = AppState::new(load_presets());
        assert!(b.apply(Msg::OpenLink(app.link())));
        assert_eq!(b.error, None);
        assert_eq!(b.run.world(), app.run.world());
        assert_eq!(b.run.narration(), Some(say));
    }
}

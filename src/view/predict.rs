//! Predict mode: stepping forward stops before each step in which a protected resource
//! decides a write, the learner says what it will do (accepted, or rejected and why), then
//! the step runs and the narration says whether they were right, with the essay's reason in
//! one sentence. Which steps ask, the right answer, the choices offered, the sentences, the
//! score and the URL form are all decided here; `src/ui/components/predict.rs` renders them.
//!
//! The right answer is what the model decided, read from the step's own events (a step not
//! yet taken is taken on a copy of the run). The sentences are derived from the verdict, the
//! resource's kind and policy and the violations the checker found in the step, so they hold
//! under every policy or variant the learner can pick.
//!
//! Answers are kept per scenario and receiver choice, in the page's memory and in the view's
//! link (`~predict=8a,10s` after the `#v1.…` fragment; [`Predict::suffix`]); nothing is stored.

use super::narrate::{request_name, request_words, under};
use crate::sim::event::{Event, EventKind};
use crate::sim::resource::{Policy, Resource, ResourceKind};
use crate::sim::run::Run;
use crate::sim::{Reason, ViolationKind};

/// What the learner says a resource will do with a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Said {
    Accepted,
    /// Rejected: the token is older than (under strict, not newer than) one it has seen.
    Stale,
    MissingToken,
    WrongScope,
    /// Rejected by the operation's own rule, not by the fence.
    Business,
    /// A duplicate: the recorded result is returned and the operation is not done again.
    Replayed,
    /// An idempotency key used before for another operation.
    KeyReused,
    /// A conditional write naming a version the object is no longer at.
    Precondition,
    /// Not the token the latest grant registered (equal-token).
    NotRegistered,
    /// Its idempotency key's first request is still executing (a conflict).
    InFlight,
}

impl Said {
    pub const ALL: [Said; 10] = [
        Said::Accepted,
        Said::Stale,
        Said::MissingToken,
        Said::WrongScope,
        Said::Business,
        Said::Replayed,
        Said::KeyReused,
        Said::Precondition,
        Said::NotRegistered,
        Said::InFlight,
    ];

    /// Its key on the keyboard, and its letter in a link.
    pub fn key(self) -> char {
        match self {
            Said::Accepted => 'a',
            Said::Stale => 's',
            Said::MissingToken => 'm',
            Said::WrongScope => 'w',
            Said::Business => 'b',
            Said::Replayed => 'd',
            Said::KeyReused => 'k',
            Said::Precondition => 'v',
            Said::NotRegistered => 'n',
            Said::InFlight => 'i',
        }
    }

    pub fn from_key(c: char) -> Option<Said> {
        let c = c.to_ascii_lowercase();
        Said::ALL.into_iter().find(|s| s.key() == c)
    }

    /// In words: "accepted", or the reason of a rejection ("stale token").
    pub fn reason(self) -> &'static str {
        match self {
            Said::Accepted => "accepted",
            Said::Stale => "stale token",
            Said::MissingToken => "missing token",
            Said::WrongScope => "wrong scope",
            Said::Business => "business rule",
            Said::Replayed => "duplicate replayed",
            Said::KeyReused => "key reused",
            Said::Precondition => "version changed",
            Said::NotRegistered => "not the registered token",
            Said::InFlight => "key in flight",
        }
    }

    /// What its button shows: "Accepted", "Stale token".
    pub fn label(self) -> String {
        let r = self.reason();
        r[..1].to_ascii_uppercase() + &r[1..]
    }

    /// In a sentence: "accepted", "rejected: stale token".
    pub fn words(self) -> String {
        match self {
            Said::Accepted => "accepted".into(),
            s => format!("rejected: {}", s.reason()),
        }
    }

    /// The answer a decision event is, if it is one.
    fn of(kind: &EventKind) -> Option<Said> {
        Some(match kind {
            EventKind::WriteAccepted { .. } => Said::Accepted,
            EventKind::WriteReplayed { .. } => Said::Replayed,
            EventKind::WriteRejected { reason, .. } => match reason {
                Reason::Stale => Said::Stale,
                Reason::MissingToken => Said::MissingToken,
                Reason::WrongScope => Said::WrongScope,
                Reason::Business => Said::Business,
                Reason::KeyReused => Said::KeyReused,
                Reason::PreconditionFailed => Said::Precondition,
                Reason::NotRegistered => Said::NotRegistered,
                Reason::InFlight => Said::InFlight,
            },
            _ => return None,
        })
    }
}

/// The answers a run's resources can give: a choice is offered when some resource of the
/// run could decide that way under some policy (not-registered: under its own), so the set
/// neither leaves the right answer out nor gives it away. Accepted is always offered.
pub fn offered(resources: &[&Resource]) -> Vec<Said> {
    let any = |f: &dyn Fn(&Resource) -> bool| resources.iter().any(|r| f(r));
    Said::ALL
        .into_iter()
        .filter(|s| match s {
            Said::Accepted => true,
            Said::Stale => any(&|r| r.kind.can_fence()),
            // Only a receiver that compares for equality refuses so; this one choice follows
            // the chosen policy (which the learner picked and can see), and stale stays
            // offered beside it.
            Said::NotRegistered => any(&|r| r.kind.can_fence() && r.policy == Policy::EqualToken),
            Said::Precondition => any(&|r| r.versioned),
            Said::MissingToken => any(&|r| r.kind.can_fence() && r.options.require_token),
            Said::WrongScope => any(&|r| r.kind.can_fence() && r.options.bind_scope),
            Said::Business => any(&|r| matches!(r.kind, ResourceKind::Account { .. })),
            Said::Replayed | Said::KeyReused => any(&|r| r.options.dedup),
            // Only a split check and write leaves a request executing while another arrives.
            Said::InFlight => any(&|r| {
                r.options.dedup && r.policy == Policy::CheckThenWrite && r.kind.can_fence()
            }),
        })
        .collect()
}

fn run_offers(run: &Run) -> Vec<Said> {
    let resources: Vec<&Resource> = run.world().resources().iter().map(|r| &**r).collect();
    offered(&resources)
}

/// One decision a resource took in a step: the question's subject, and its right answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub resource: String,
    pub request: String,
    pub truth: Said,
    /// Its event's index among the step's events.
    event: usize,
}

/// The decisions of recorded step `i`, in the order they were taken.
pub fn decisions(run: &Run, i: usize) -> Vec<Decision> {
    if i == 0 {
        return Vec::new();
    }
    run.step_events(i)
        .iter()
        .enumerate()
        .filter_map(|(event, e)| {
            let truth = Said::of(&e.kind)?;
            let resource = match &e.kind {
                EventKind::WriteAccepted { resource, .. }
                | EventKind::WriteRejected { resource, .. }
                | EventKind::WriteReplayed { resource, .. } => resource.to_string(),
                _ => return None,
            };
            Some(Decision {
                resource,
                request: match (run.world_at(i - 1), run.world_at(i)) {
                    (Some(b), Some(a)) => request_name([b, a], e.request.as_deref().unwrap_or("?")),
                    _ => String::new(),
                },
                truth,
                event,
            })
        })
        .collect()
}

/// What the learner is asked before the next step runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// The step about to run, and which of its decisions this is (of how many).
    pub step: usize,
    pub index: usize,
    pub of: usize,
    /// "Under highest-seen, report is about to decide A-stale, carrying token 41."
    pub text: String,
    pub offered: Vec<Said>,
    /// The decision asked about.
    about: Decision,
}

/// A prediction given, as the narration says it once its step has run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feedback {
    pub right: bool,
    /// "Right: report rejected A's write “A's report”: stale token." or "Wrong: you said accepted; …".
    pub text: String,
    /// The essay's reason for the verdict, in one sentence.
    pub why: String,
}

/// A prediction that was wrong: where, and what was said against what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missed {
    pub step: usize,
    pub text: String,
}

/// The score of a run's predictions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub right: usize,
    pub asked: usize,
    /// Decisions on the branch that were never predicted (taken while predict mode was off,
    /// by a link that opened past them, or by the user's own action).
    pub unasked: usize,
    pub missed: Vec<Missed>,
}

impl Score {
    /// "Run over: you predicted 1 of 2 verdicts right." (at the end; "So far" before it),
    /// and how many verdicts ran without a prediction.
    pub fn summary(&self, at_end: bool) -> String {
        let mut s = if self.asked == 0 {
            "You have predicted no verdicts in this run yet.".to_string()
        } else {
            format!(
                "{} you predicted {} of {} verdict{} right.",
                if at_end { "Run over:" } else { "So far" },
                self.right,
                self.asked,
                if self.asked == 1 { "" } else { "s" }
            )
        };
        if self.unasked > 0 {
            s.push_str(&format!(
                " {} other{} ran without a prediction.",
                self.unasked,
                if self.unasked == 1 { "" } else { "s" }
            ));
        }
        s
    }
}

/// Which run a set of answers belongs to: the scenario's id and the receiver choice's value.
pub type Key = (String, String);

#[derive(Clone, Debug, PartialEq, Eq)]
struct Answer {
    key: Key,
    /// Decision `k` of step `step`.
    step: usize,
    k: usize,
    said: Said,
    /// What it was about, so that an answer left on a step whose decision has since changed
    /// (the run forked, another run loaded) is not held against the new one.
    resource: String,
    request: String,
}

/// Predict mode's state: on or off, and the answers given, per run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Predict {
    pub on: bool,
    /// In the order given (a short list: a plain `Vec` keeps the bundle small).
    answers: Vec<Answer>,
}

impl Predict {
    /// The answer given for decision `k` of step `i`, if it is about that decision.
    fn given(&self, key: &Key, i: usize, k: usize, d: &Decision) -> Option<Said> {
        self.answers
            .iter()
            .find(|a| a.step == i && a.k == k && a.key == *key)
            .filter(|a| a.resource == d.resource && a.request == d.request)
            .map(|a| a.said)
    }

    /// Keep `said` as the answer for decision `k` (`d`) of step `i`, in place of any other.
    fn put(&mut self, key: &Key, i: usize, k: usize, d: Decision, said: Said) {
        self.answers
            .retain(|a| !(a.step == i && a.k == k && a.key == *key));
        self.answers.push(Answer {
            key: key.clone(),
            step: i,
            k,
            said,
            resource: d.resource,
            request: d.request,
        });
    }

    /// What to ask before the next step, if predict mode is on and that step decides a write
    /// not yet predicted.
    pub fn question(&self, key: &Key, run: &Run) -> Option<Question> {
        if !self.on {
            return None;
        }
        let step = run.cursor() + 1;
        let mut probe;
        let ahead = if step <= run.len() {
            run
        } else {
            probe = run.clone();
            if !probe.step_forward().unwrap_or(false) {
                return None;
            }
            &probe
        };
        let all = decisions(ahead, step);
        let (index, d) = all
            .iter()
            .enumerate()
            .find(|(k, d)| self.given(key, step, *k, d).is_none())?;
        let e = &ahead.step_events(step)[d.event];
        let res = ahead.world_at(step)?.resource(&d.resource)?;
        Some(Question {
            step,
            index,
            of: all.len(),
            text: format!(
                "{}, {} is about to decide {}",
                under(res, ahead.variant.as_deref()),
                d.resource,
                request_words(e, [ahead.world_at(step - 1)?, ahead.world_at(step)?])
                    .trim_end_matches(',')
            ) + ". What will it do?",
            offered: run_offers(run),
            about: d.clone(),
        })
    }

    /// Record an answer to the question now asked. False when nothing is asked or the
    /// answer is not one of those offered.
    pub fn answer(&mut self, key: &Key, run: &Run, said: Said) -> bool {
        let Some(q) = self.question(key, run) else {
            return false;
        };
        if !q.offered.contains(&said) {
            return false;
        }
        self.put(key, q.step, q.index, q.about, said);
        true
    }

    /// The predictions given for recorded step `i`, judged, with the reason for each verdict.
    pub fn feedback(&self, key: &Key, run: &Run, i: usize) -> Vec<Feedback> {
        decisions(run, i)
            .iter()
            .enumerate()
            .filter_map(|(k, d)| {
                let said = self.given(key, i, k, d)?;
                let right = said == d.truth;
                let what = outcome(d);
                let text = if right {
                    format!("Right: {what}.")
                } else {
                    format!("Wrong: you said {}; {what}.", said.words())
                };
                Some(Feedback {
                    right,
                    text,
                    why: why(run, i, d),
                })
            })
            .collect()
    }

    /// Every decision of the run's branch, judged against the answers given.
    pub fn score(&self, key: &Key, run: &Run) -> Score {
        let mut score = Score::default();
        for i in 1..=run.len() {
            for (k, d) in decisions(run, i).iter().enumerate() {
                match self.given(key, i, k, d) {
                    None => score.unasked += 1,
                    Some(said) => {
                        score.asked += 1;
                        if said == d.truth {
                            score.right += 1;
                        } else {
                            score.missed.push(Missed {
                                step: i,
                                text: format!(
                                    "Step {i}: you said {}; {}.",
                                    said.words(),
                                    outcome(d)
                                ),
                            });
                        }
                    }
                }
            }
        }
        score
    }

    /// The link's suffix for predict mode: empty when off, else `~predict`, and the answers
    /// given for this run as `=STEP[.K]LETTER,…` (`~predict=8a,10.1s`: step 8, accepted;
    /// the second decision of step 10, stale).
    pub fn suffix(&self, key: &Key) -> String {
        if !self.on {
            return String::new();
        }
        let list: Vec<String> = self
            .answers
            .iter()
            .filter(|a| a.key == *key)
            .map(|a| match a.k {
                0 => format!("{}{}", a.step, a.said.key()),
                k => format!("{}.{k}{}", a.step, a.said.key()),
            })
            .collect();
        if list.is_empty() {
            SUFFIX.to_string()
        } else {
            format!("{SUFFIX}={}", list.join(","))
        }
    }

    /// Open a link's suffix (after [`split`]) for `run`: predict mode on, with the answers
    /// it carries that name a decision of the run. Returns how many it could not place.
    pub fn open(&mut self, key: &Key, run: &Run, suffix: &str) -> usize {
        self.on = true;
        let list = suffix.strip_prefix('=').unwrap_or("");
        let mut refused = 0;
        for item in list.split(',').filter(|s| !s.is_empty()) {
            let placed = parse_item(item).and_then(|(i, k, said)| {
                let d = decisions(run, i).into_iter().nth(k)?;
                self.put(key, i, k, d, said);
                Some(())
            });
            refused += usize::from(placed.is_none());
        }
        refused
    }
}

const SUFFIX: &str = "~predict";

/// A link fragment split into the run's link and predict mode's part (after `~predict`).
pub fn split(fragment: &str) -> (&str, Option<&str>) {
    match fragment.find(SUFFIX) {
        Some(at) => (&fragment[..at], Some(&fragment[at + SUFFIX.len()..])),
        None => (fragment, None),
    }
}

/// "10.1s" → (10, 1, Stale).
fn parse_item(item: &str) -> Option<(usize, usize, Said)> {
    let said = Said::from_key(item.chars().last()?)?;
    let place = &item[..item.len() - 1];
    let (i, k) = place.split_once('.').unwrap_or((place, "0"));
    let (i, k) = (i.parse().ok()?, k.parse().ok()?);
    (i > 0).then_some((i, k, said))
}

/// What the resource did: "report rejected A-stale: stale token".
fn outcome(d: &Decision) -> String {
    let (res, req) = (&d.resource, &d.request);
    match d.truth {
        Said::Accepted => format!("{res} accepted {req}"),
        Said::Replayed => format!("{res} replayed its recorded result to {req}, a duplicate"),
        s => format!("{res} rejected {req}: {}", s.reason()),
    }
}

/// The essay's reason for decision `d` of step `i`, in one sentence: from the verdict, the
/// resource's kind and policy, and what the checker found in the step.
pub fn why(run: &Run, i: usize, d: &Decision) -> String {
    let events = run.step_events(i);
    let Some((e, res)) = events
        .get(d.event)
        .zip(run.world_at(i).and_then(|w| w.resource(&d.resource)))
    else {
        return String::new();
    };
    let broke = |kind: ViolationKind| {
        events.iter().any(|v| {
            matches!(&v.kind, EventKind::Violation { kind: k, resource, .. }
                if *k == kind && resource.as_str() == d.resource && v.request == e.request)
        })
    };
    let token = e.token.as_ref().map(|t| t.to_string());
    let t = token.as_deref().unwrap_or("its token");
    match &e.kind {
        EventKind::WriteAccepted { no_op, .. } => accepted(res, e, t, *no_op, &broke),
        EventKind::WriteRejected {
            reason, highest, ..
        } => {
            let h = highest.as_ref().map(|h| h.to_string());
            let h = h.as_deref().unwrap_or("a newer token");
            match reason {
                Reason::Stale if h == t => format!(
                    "Strict refuses a token equal to the highest it has seen, {h}: each token number writes once, so a second write under it is refused, whoever sends it."
                ),
                Reason::Stale if broke(ViolationKind::OwnerLockedOut) => format!(
                    "The resource has seen {h}, above {t}, and cannot know the issuer's order went backwards: a legitimate new owner is locked out, which is why the issuer must never move back."
                ),
                Reason::Stale => format!(
                    "The resource has already seen {h}, newer than {t}, so the lease behind {t} was superseded: the comparison at the resource, not the lease, is what stops the old writer."
                ),
                Reason::MissingToken => "The write carries no token, and a resource that requires one refuses it: without a token it cannot tell the current owner's write from anyone else's.".into(),
                Reason::WrongScope => format!(
                    "Token {t} was minted for another lock, not for {}, the one this resource honours: a token is authority only in the domain that issued it.",
                    res.lock
                ),
                Reason::Business => "This is not fencing: the operation itself breaks the resource's own rule (an account may not go below zero), a business failure to count apart from a fencing rejection.".into(),
                Reason::KeyReused => "The idempotency key was already used for a different operation, so the API refuses it: a key names one operation; it is no fence against another writer.".into(),
                Reason::InFlight => "A request under the same idempotency key has been checked and is still executing, so this one is refused with a conflict: the key is taken when execution starts, not when it ends, or a concurrent duplicate would run twice.".into(),
                Reason::PreconditionFailed => "The write names a version of the object that is no longer current: someone wrote since it was read, and a conditional write refuses to replace what it never saw.".into(),
                Reason::NotRegistered => format!(
                    "{t} is not {h}, the token the latest grant registered here: a receiver that can only compare for equality refuses any other value, though it cannot say which of two is newer."
                ),
            }
        }
        EventKind::WriteReplayed { .. } => "The resource has already done this operation and returns the recorded result instead of doing it again: a stable operation id, not the token, is what makes a retry safe.".into(),
        _ => String::new(),
    }
}

fn accepted(
    res: &Resource,
    e: &Event,
    t: &str,
    no_op: bool,
    broke: &dyn Fn(ViolationKind) -> bool,
) -> String {
    match &res.kind {
        ResourceKind::Email => return "An email service cannot compare tokens and delivers whatever arrives: a destination that cannot fence gets no protection from the lease.".into(),
        ResourceKind::IdempotentApi => return "A third-party API cannot check a token; its idempotency key stops a repeat of one operation, not a writer whose lease has run out.".into(),
        ResourceKind::ContentStore if no_op => return "The store is immutable and content-addressed: the same content again changes nothing, so duplicate work is harmless without any fence.".into(),
        ResourceKind::ContentStore => return "A content-addressed store writes each key once and never replaces it, so concurrent workers cannot overwrite each other: a contract that needs no fence.".into(),
        _ => {}
    }
    if res.policy == Policy::Unfenced {
        return "Unfenced, the resource never looks at the token: the last write wins, whoever sent it, so only the timing keeps an expired holder's write out.".into();
    }
    if res.policy == Policy::CheckThenWrite {
        return "Under check-then-write the write goes ahead on the strength of a check made earlier, whatever arrived since: the comparison and the mutation must be one atomic step.".into();
    }
    if e.token.is_none() {
        return "It carries no token and this resource lets a tokenless write through unchecked: a fence protects only the paths that present a token.".into();
    }
    if broke(ViolationKind::StaleOverwrite) || broke(ViolationKind::SupersededWrite) {
        format!("The resource has not heard of any token newer than {t}, so nothing it knows says the lease behind it was superseded: a fence refuses only what it can tell is stale.")
    } else if broke(ViolationKind::DoubleExecution) {
        format!("Token {t} is current, and a token cannot tell a retry from a new request: only an operation id with a recorded result makes a retry safe.")
    } else if broke(ViolationKind::InconsistentObjects) {
        "Each object judges its own token alone, so one part of a multi-object operation lands while another is refused: the objects need one transaction or one authority.".into()
    } else {
        format!("{t} is not older than any token the resource has seen, so as far as it can tell this is the current owner's write.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::state::{build_run, load_presets, Choice};

    fn run(id: &str, p: Policy) -> (Key, Run) {
        let s = crate::presets::get(id).unwrap();
        let c = Choice::for_policy(&s, p);
        ((id.to_string(), c.value()), build_run(&s, &c))
    }

    /// Step forward as a learner in predict mode, answering each question with `answer`;
    /// returns the questions asked, as (step, resource, request).
    fn play(
        p: &mut Predict,
        key: &Key,
        r: &mut Run,
        answer: impl Fn(&Question) -> Said,
    ) -> Vec<(usize, String)> {
        let mut asked = Vec::new();
        loop {
            while let Some(q) = p.question(key, r) {
                asked.push((q.step, q.text.clone()));
                assert!(p.answer(key, r, answer(&q)), "{q:?}");
            }
            if !r.step_forward().unwrap() {
                return asked;
            }
        }
    }

    #[test]
    fn paused_writer_asks_at_the_two_writes_and_judges_under_each_policy() {
        for (policy, stale_truth) in [
            (Policy::HighestSeen, Said::Stale),
            (Policy::Unfenced, Said::Accepted),
            (Policy::Strict, Said::Stale),
        ] {
            let (key, mut r) = run("paused-writer", policy);
            let mut p = Predict {
                on: true,
                ..Predict::default()
            };
            // Everything said "accepted": right for B's write, and for A's only unfenced.
            let asked = play(&mut p, &key, &mut r, |_| Said::Accepted);
            let steps: Vec<usize> = asked.iter().map(|(s, _)| *s).collect();
            assert_eq!(steps, vec![8, 10], "{policy:?}: {asked:?}");
            assert!(asked[1]
                .1
                .contains("report is about to decide A's write “A's report”, carrying token 41"));
            assert!(asked[1]
                .1
                .starts_with(&format!("Under {}", policy.as_str())));
            assert_eq!(decisions(&r, 10)[0].truth, stale_truth);

            let score = p.score(&key, &r);
            let right = if stale_truth == Said::Accepted { 2 } else { 1 };
            assert_eq!((score.right, score.asked, score.unasked), (right, 2, 0));
            let fb = p.feedback(&key, &r, 10);
            assert_eq!(fb.len(), 1);
            assert_eq!(fb[0].right, stale_truth == Said::Accepted, "{fb:?}");
            if stale_truth == Said::Stale {
                assert_eq!(score.missed.len(), 1);
                assert_eq!(score.missed[0].step, 10);
                assert_eq!(
                    fb[0].text,
                    "Wrong: you said accepted; report rejected A's write “A's report”: stale token."
                );
                assert!(
                    fb[0].why.contains("seen 42, newer than 41"),
                    "{}",
                    fb[0].why
                );
            } else {
                assert_eq!(fb[0].text, "Right: report accepted A's write “A's report”.");
                assert!(fb[0].why.starts_with("Unfenced"), "{}", fb[0].why);
            }
        }
    }

    #[test]
    fn delayed_before_new_the_old_request_is_accepted_or_refused_by_the_policy() {
        for (policy, truth, why) in [
            (
                Policy::HighestSeen,
                Said::Accepted,
                "has not heard of any token newer than 41",
            ),
            (
                Policy::FenceOnAcquire,
                Said::Stale,
                "already seen 42, newer than 41",
            ),
            (Policy::Unfenced, Said::Accepted, "Unfenced"),
        ] {
            let (key, mut r) = run("delayed-before-new", policy);
            let mut p = Predict {
                on: true,
                ..Predict::default()
            };
            let asked = play(&mut p, &key, &mut r, |_| Said::Stale);
            assert_eq!(
                asked[0].0, 7,
                "{policy:?}: the delayed request is delivered"
            );
            assert!(asked[0].1.contains("A's write"), "{asked:?}");
            let fb = p.feedback(&key, &r, 7);
            assert_eq!(fb[0].right, truth == Said::Stale, "{policy:?}");
            assert!(fb[0].why.contains(why), "{policy:?}: {}", fb[0].why);
            // B's write is asked too, and accepted under every policy.
            let b = asked.iter().find(|(_, t)| t.contains("B's write")).unwrap();
            let d = decisions(&r, b.0);
            assert_eq!(d[0].truth, Said::Accepted);
        }
    }

    #[test]
    fn a_step_is_asked_only_until_answered_and_only_in_predict_mode() {
        let (key, mut r) = run("paused-writer", Policy::HighestSeen);
        let mut p = Predict::default();
        r.seek(0);
        for _ in 0..7 {
            r.step_forward().unwrap();
        }
        assert_eq!(p.question(&key, &r), None, "off: nothing asked");
        assert!(!p.answer(&key, &r, Said::Accepted));
        p.on = true;
        let q = p
            .question(&key, &r)
            .expect("B's write is decided in step 8");
        assert_eq!((q.step, q.index, q.of), (8, 0, 1));
        assert_eq!(r.len(), 7, "asking took no step");
        assert!(
            !p.answer(&key, &r, Said::Business),
            "not offered: no account here"
        );
        assert!(p.answer(&key, &r, Said::Accepted));
        assert_eq!(p.question(&key, &r), None);
        // Another receiver choice is another run, asked afresh.
        let other = (key.0.clone(), "unfenced".to_string());
        assert!(p.question(&other, &r).is_some());
    }

    #[test]
    fn offered_answers_always_include_the_truth_and_only_what_the_run_can_produce() {
        for s in load_presets() {
            for policy in Policy::ALL {
                let mut r = build_run(&s, &Choice::Policy(policy));
                r.run_script().unwrap();
                let offered = run_offers(&r);
                for i in 1..=r.len() {
                    for d in decisions(&r, i) {
                        assert!(
                            offered.contains(&d.truth),
                            "{} {policy:?} step {i}: {d:?} not in {offered:?}",
                            s.id
                        );
                        assert!(!why(&r, i, &d).is_empty(), "{} step {i}", s.id);
                    }
                }
            }
        }
        let offered = |id: &str| run_offers(&run(id, Policy::HighestSeen).1);
        assert_eq!(
            offered("paused-writer"),
            vec![
                Said::Accepted,
                Said::Stale,
                Said::MissingToken,
                Said::WrongScope
            ]
        );
        assert!(offered("retry-double-debit").contains(&Said::Business));
        assert!(!offered("unfenceable-email").contains(&Said::Stale));
    }

    #[test]
    fn the_link_suffix_round_trips_and_a_bad_one_places_nothing() {
        let (key, mut r) = run("paused-writer", Policy::HighestSeen);
        let mut p = Predict {
            on: true,
            ..Predict::default()
        };
        play(&mut p, &key, &mut r, |q| {
            if q.step == 8 {
                Said::Accepted
            } else {
                Said::WrongScope
            }
        });
        let suffix = p.suffix(&key);
        assert_eq!(suffix, "~predict=8a,10w");
        let fragment = format!("v1.AAAA{suffix}");
        let (link, rest) = split(&fragment);
        assert_eq!(link, "v1.AAAA");
        let mut q = Predict::default();
        assert_eq!(q.open(&key, &r, rest.unwrap()), 0);
        assert_eq!(q, p);
        assert_eq!(q.score(&key, &r), p.score(&key, &r));
        assert_eq!(split("v1.AAAA"), ("v1.AAAA", None));
        // On with nothing answered; and answers that name no decision, or no answer at all.
        let mut off = Predict::default();
        assert_eq!(off.suffix(&key), "");
        off.on = true;
        assert_eq!(off.suffix(&key), "~predict");
        let mut bad = Predict::default();
        assert_eq!(bad.open(&key, &r, "=3a,8x,0a,a,.a,99a,8.7a,10.1s"), 8);
        assert!(bad.on && bad.score(&key, &r).asked == 0);
        // An answer opened for a decision that changed is not held against the new one.
        let mut cut = p.clone();
        r.seek(6);
        r.act(crate::sim::Action::Advance { ticks: 3 }).unwrap();
        assert_eq!(cut.score(&key, &r).asked, 0);
        assert!(!cut.feedback(&key, &r, 8).iter().any(|f| f.right));
        cut.on = true;
        assert!(cut.suffix(&key).contains("10w"), "kept in memory");
    }
}

//! What the narration says about a step, in words computed from the run itself, so that it
//! is true under whatever policy or variant the learner picked:
//!
//! - [`verdicts`]: one sentence per decision a resource took in the step (accepted, rejected
//!   and why, replayed, checked) and what it means — the violation it caused, or the state it
//!   kept. The script's own narration sets the scene; this line says how it came out.
//! - [`say`]: the step's main text: the script's narration, or for a step of the user's own
//!   (a sandbox action, a loaded counterexample) what the action was and what followed.

use crate::sim::event::{Event, EventKind};
use crate::sim::message::Message;
use crate::sim::request::Op;
use crate::sim::resource::{Compared, Policy, Resource, ResourceKind};
use crate::sim::run::{Entry, Run};
use crate::sim::token::Token;
use crate::sim::{Reason, ViolationKind, World};

/// The step's main text. `None` only for a step past the recorded ones.
pub fn say(run: &Run, i: usize) -> String {
    match run.entry(i) {
        None | Some(Entry::Start) => {
            if run.scenario.script.is_empty() {
                "Nothing has happened yet. Act with the buttons below: every step you take is drawn here.".into()
            } else {
                "Nothing has happened yet. Press Play or Step forward to begin.".into()
            }
        }
        Some(Entry::Script(k)) => run.step_narration(*k).unwrap_or_default().to_string(),
        Some(Entry::User(a)) => {
            let what = consequences(run.step_events(i));
            let mut text = if what.is_empty() {
                format!("You: {a}. Nothing else happens in this step.")
            } else {
                format!("You: {a}. {what}")
            };
            if let Some(why) = run
                .world_at(i.saturating_sub(1))
                .and_then(|before| tokenless(before, run.step_events(i)))
            {
                text.push(' ');
                text.push_str(&why);
            }
            text
        }
    }
}

/// Why a write the user built in this step carries no token, if one does: the worker held no
/// lease (there is nothing to fence with), or its code path leaves the token out.
fn tokenless(before: &World, events: &[Event]) -> Option<String> {
    let e = events
        .iter()
        .find(|e| matches!(e.kind, EventKind::Prepared { .. }) && e.token.is_none())?;
    let w = before.worker(&e.actor)?;
    let request = e.request.as_deref().unwrap_or("the write");
    Some(if w.omits_token && w.holds_any() {
        format!(
            "{} holds a lease, but this code path leaves its token out, so {request} carries no token: a resource that fences refuses it as missing one; one that does not fence cannot tell it from a current write.",
            w.name
        )
    } else {
        format!(
            "{} holds no lease, so {request} carries no token — there is nothing to fence with. A resource that fences refuses it as missing a token; one that does not fence takes it.",
            w.name
        )
    })
}

/// The events of a user's step that say what followed from it, as sentences. Deliveries and
/// decisions are named; the resource's decision gets its own line from [`verdicts`].
fn consequences(events: &[Event]) -> String {
    const MOST: usize = 4;
    let notable: Vec<String> = events
        .iter()
        .filter(|e| {
            !matches!(
                e.kind,
                EventKind::WriteAccepted { .. }
                    | EventKind::WriteRejected { .. }
                    | EventKind::WriteReplayed { .. }
                    | EventKind::Violation { .. }
            )
        })
        .map(|e| {
            let mut s = format!("{} {}", actor(e), e.kind);
            if let Some(t) = &e.token {
                if !matches!(e.kind, EventKind::Sent { .. } | EventKind::Delivered { .. }) {
                    s.push_str(&format!(" (token {t})"));
                }
            }
            format!("At t={}, {s}.", e.tick)
        })
        .collect();
    let mut text = notable
        .iter()
        .take(MOST)
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    if notable.len() > MOST {
        text.push_str(&format!(
            " And {} more events (see the event log).",
            notable.len() - MOST
        ));
    }
    text
}

fn actor(e: &Event) -> &str {
    match e.actor.as_str() {
        "network" => "the network",
        "coordinator" => "the coordinator",
        a => a,
    }
}

/// What one decision came to, in words, and whether it broke a safety property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub text: String,
    pub violation: bool,
}

/// One sentence per decision a resource took in step `i`, with what it means.
pub fn verdicts(run: &Run, i: usize) -> Vec<Verdict> {
    let (Some(before), Some(after)) = (run.world_at(i.saturating_sub(1)), run.world_at(i)) else {
        return Vec::new();
    };
    if i == 0 {
        return Vec::new();
    }
    let events = run.step_events(i);
    let mut said_violations = vec![false; events.len()];
    let mut out = Vec::new();
    for e in events {
        let Some(sentence) = decision(e, before, after, run.variant.as_deref()) else {
            continue;
        };
        // The violations this decision caused: the checker's events for the same request
        // at the same resource, in this step.
        let caused: Vec<ViolationKind> = events
            .iter()
            .enumerate()
            .filter_map(|(k, v)| match &v.kind {
                EventKind::Violation { kind, resource, .. }
                    if Some(resource.as_str()) == decided_at(e)
                        && v.request == e.request
                        && !said_violations[k] =>
                {
                    said_violations[k] = true;
                    Some(*kind)
                }
                _ => None,
            })
            .collect();
        out.push(match caused.as_slice() {
            [] => Verdict {
                text: format!("{sentence}.{}", kept(e, after)),
                violation: false,
            },
            kinds => Verdict {
                text: format!(
                    "{sentence}. That is {}.{}",
                    violation_words(kinds),
                    kept(e, after)
                ),
                violation: true,
            },
        });
    }
    // Violations found apart from a decision of this step (a part of a multi-object write
    // left behind, say) still get said.
    for (k, v) in events.iter().enumerate() {
        if let (EventKind::Violation { kind, resource, .. }, false) = (&v.kind, said_violations[k])
        {
            out.push(Verdict {
                text: format!(
                    "The checker finds a violation at {resource}: {}.",
                    violation_words(&[*kind])
                ),
                violation: true,
            });
        }
    }
    out
}

/// The resource a decision event was taken at.
fn decided_at(e: &Event) -> Option<&str> {
    match &e.kind {
        EventKind::WriteAccepted { resource, .. }
        | EventKind::WriteRejected { resource, .. }
        | EventKind::WriteReplayed { resource, .. }
        | EventKind::CheckPassed { resource, .. }
        | EventKind::TransactionRefused { resource, .. } => Some(resource),
        _ => None,
    }
}

fn violation_words(kinds: &[ViolationKind]) -> String {
    kinds
        .iter()
        .map(|k| format!("{}: {}", violation_name(*k), k.explain()))
        .collect::<Vec<_>>()
        .join("; and ")
}

/// A violation kind in plain words, for a sentence.
pub fn violation_name(k: ViolationKind) -> &'static str {
    match k {
        ViolationKind::StaleOverwrite => "a stale overwrite",
        ViolationKind::SupersededWrite => "a superseded write",
        ViolationKind::DoubleExecution => "a double execution",
        ViolationKind::InconsistentObjects => "inconsistent objects",
        ViolationKind::OwnerLockedOut => "the owner locked out",
    }
}

/// "A-stale, carrying token 41", "A1, carrying no token".
pub(crate) fn request_words(e: &Event, worlds: [&World; 2]) -> String {
    let name = request_name(worlds, e.request.as_deref().unwrap_or("?"));
    match &e.token {
        Some(t) => format!("{name}, carrying token {t},"),
        None => format!("{name}, carrying no token,"),
    }
}

/// A request in words, as a reader of the story knows it: whose it is and what it asks —
/// "A's write “A's report”", "B's debit of 10" — found in the worlds before and after the
/// step that decided it: on its way, checked and waiting to be written, or among its
/// sender's prepared and last-sent writes. The label a scenario gave it (`A-stale`) is for
/// the diagram, the log and the JSON; "request A-stale" only when it cannot be found.
pub(crate) fn request_name(worlds: [&World; 2], id: &str) -> String {
    let found = worlds.iter().find_map(|w| {
        let on_the_way = w
            .network()
            .in_flight
            .iter()
            .filter_map(|env| match &env.msg {
                Message::Write(r) => Some(r),
                _ => None,
            });
        let checked = w
            .resources()
            .iter()
            .flat_map(|r| r.checked.iter().map(|c| &c.request));
        let senders = w
            .workers()
            .iter()
            .flat_map(|k| k.prepared.iter().chain(&k.last_sent));
        // An outbox's rows are the relay's requests until their answers mark them sent.
        let rows = w.resources().iter().flat_map(|r| &r.data.unsent);
        on_the_way
            .chain(checked)
            .chain(senders)
            .chain(rows)
            .find(|r| r.id.as_str() == id)
    });
    match found {
        Some(r) => match &r.op {
            Op::Set(v) => format!("{}'s write “{v}”", r.from),
            Op::Debit(n) => format!("{}'s debit of {n}", r.from),
            Op::Credit(n) => format!("{}'s credit of {n}", r.from),
        },
        None => format!("request {id}"),
    }
}

/// The sentence for one decision event, without its consequence or final stop; `None` for
/// other events.
fn decision(e: &Event, before: &World, after: &World, variant: Option<&str>) -> Option<String> {
    let name = decided_at(e)?;
    let res = after.resource(name).or_else(|| before.resource(name))?;
    let under = under(res, variant);
    let what = request_words(e, [before, after]);
    Some(match &e.kind {
        EventKind::WriteAccepted {
            no_op, compared, ..
        } => {
            let why = accept_reason(res, e.token.as_ref(), compared.as_ref());
            let done = if *no_op {
                ". It already held what the write asked for, so nothing changed"
            } else {
                ""
            };
            format!("{under}, {name} accepted {what} {why}{done}")
        }
        EventKind::WriteRejected {
            reason,
            highest,
            versions,
            ..
        } => {
            let why = match versions {
                Some(v) => format!(
                    "a failed precondition: the write names version {} of the object, which is at version {}: someone wrote since it was read",
                    v.named, v.found
                ),
                None => reject_reason(*reason, res, e.token.as_ref(), highest.as_ref()),
            };
            format!("{under}, {name} rejected {what} as {why}")
        }
        EventKind::WriteReplayed { recorded, .. } => format!(
            "{name} has already done operation {} and replays its recorded result ({recorded}) to {} instead of doing it again",
            e.op_id.as_deref().unwrap_or("?"),
            what.trim_end_matches(',')
        ),
        EventKind::CheckPassed { compared, .. } => format!(
            "{under}, {name} checked {what} and it passes {}. The write itself is a separate, later step, and another write can slip in between",
            compared.as_ref().and_then(|c| e.token.as_ref().map(|t| comparison(res, t, c))).map_or_else(
                || "with no token to compare".to_string(),
                |c| format!("because {c}")
            )
        ),
        EventKind::TransactionRefused { because, .. } => format!(
            "{name} left its part of {} undone: the transaction was refused at {because}, so no object changed",
            what.trim_end_matches(',')
        ),
        _ => return None,
    })
}

/// "Under highest-seen"; "In “no-delay”, under highest-seen" for a variant named for what it
/// changes (the issuer, a delay); or what the destination is when it cannot fence at all.
pub(crate) fn under(res: &Resource, variant: Option<&str>) -> String {
    if res.kind.can_fence() {
        let policy = res.policy.as_str();
        match variant {
            Some(v) if v != policy => format!("In “{v}”, under {policy}"),
            _ => format!("Under {policy}"),
        }
    } else {
        format!("As {} (which cannot fence)", kind_words(&res.kind))
    }
}

fn kind_words(k: &ResourceKind) -> &'static str {
    match k {
        ResourceKind::Store { .. } => "a store",
        ResourceKind::Account { .. } => "an account",
        ResourceKind::Email => "an email service",
        ResourceKind::IdempotentApi => "a third-party API",
        ResourceKind::ContentStore => "a content store",
    }
}

/// Why a write was accepted, from the comparison it recorded as it was decided (or, under
/// check-then-write, at its earlier check), never from the state after the step.
fn accept_reason(res: &Resource, token: Option<&Token>, compared: Option<&Compared>) -> String {
    if !res.kind.can_fence() {
        return "because it has no way to compare tokens: it acts on whatever arrives".into();
    }
    if res.policy == Policy::Unfenced {
        return "because, unfenced, it never looks at the token".into();
    }
    let (Some(t), Some(c)) = (token, compared) else {
        return "because this resource lets a write without a token through unchecked".into();
    };
    let why = comparison(res, t, c);
    if !c.earlier {
        return format!("because {why}");
    }
    let mut s = format!(
        "without comparing tokens again: it passed its check at t={}, when {why}",
        c.at
    );
    if let Some(k) = &c.overtaken_by {
        if t.order(k) == std::cmp::Ordering::Less {
            s.push_str(&format!(
                ". Since that check {k} was recorded, and this write sets the highest back to {t}"
            ));
        } else {
            s.push_str(&format!(". Since that check {k} was recorded"));
        }
    }
    s
}

/// What a passed comparison found: "41 is above the highest it had seen, 40".
fn comparison(res: &Resource, t: &Token, c: &Compared) -> String {
    match &c.against {
        None => format!("{t} is the first token it had seen"),
        Some(h) if res.policy.registration_replaces() => {
            format!("{t} is the token registered there, {h}")
        }
        Some(h) if h == t => {
            format!("{t} equals the highest it had seen, and an equal token passes")
        }
        Some(h) => format!("{t} is above the highest it had seen, {h}"),
    }
}

fn reject_reason(
    reason: Reason,
    res: &Resource,
    token: Option<&Token>,
    highest: Option<&Token>,
) -> String {
    match (reason, token, highest) {
        (Reason::Stale, Some(t), Some(h)) if t == h => {
            format!("stale: {t} is not above the highest it has seen, {h}, and strict refuses an equal token")
        }
        (Reason::Stale, Some(t), Some(h)) => {
            format!("stale: {t} is below the highest it has seen, {h}")
        }
        (Reason::Stale, _, _) => "stale: its token is older than one it has already seen".into(),
        (Reason::MissingToken, _, _) => {
            "missing its token: this resource requires one".into()
        }
        (Reason::WrongScope, Some(t), _) => format!(
            "out of scope: token {t} was minted for {}, not for {}, the lock this resource honours",
            t.lock, res.lock
        ),
        (Reason::WrongScope, None, _) => "out of scope".into(),
        (Reason::Business, _, _) => {
            "against a business rule: the operation itself is refused (this is not a fencing decision)".into()
        }
        (Reason::PreconditionFailed, _, _) => {
            "a failed precondition: the write names a version of the object that is no longer current: someone wrote since it was read".into()
        }
        (Reason::NotRegistered, Some(t), Some(h)) => format!(
            "not the registered token: {t} is not {h}, the token the latest grant registered here (it can only compare for equality, not say which is newer)"
        ),
        (Reason::NotRegistered, _, _) => {
            "not the registered token: only the token the latest grant registered here passes".into()
        }
        (Reason::InFlight, _, _) => {
            "in flight: a request under the same idempotency key is still executing (checked, not yet written), so this one is refused with a conflict instead of running the operation twice (this is not a fencing decision)".into()
        }
        (Reason::KeyReused, _, _) => {
            "its idempotency key was already used for a different operation: a key may only be reused with the same parameters (this is not a fencing decision)".into()
        }
    }
}

/// What an accepted write left, or what a refusal kept: the value
/// the decision itself recorded, so two writes in one step each say their own.
fn kept(e: &Event, after: &World) -> String {
    let Some(res) = decided_at(e).and_then(|name| after.resource(name)) else {
        return String::new();
    };
    let (said, value) = match &e.kind {
        EventKind::WriteRejected { value, .. } => ("still holds", value),
        EventKind::WriteAccepted {
            no_op: false,
            value,
            ..
        } => ("now holds", value),
        _ => return String::new(),
    };
    match &res.kind {
        ResourceKind::Store { .. } => format!(" It {said} “{value}”."),
        ResourceKind::Account { .. } => format!(" It {said} a balance of {value}."),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Action;
    use crate::view::state::{build_run, load_presets, Choice};

    fn texts(v: Vec<Verdict>) -> String {
        v.into_iter().map(|v| v.text).collect::<Vec<_>>().join(" ")
    }

    fn run(id: &str, p: Policy) -> Run {
        let s = crate::presets::get(id).unwrap();
        let mut r = build_run(&s, &Choice::Policy(p));
        r.run_script().unwrap();
        r
    }

    /// The step whose events include `A-stale` reaching the resource.
    fn decisive(r: &Run, request: &str) -> usize {
        (1..=r.len())
            .find(|&i| {
                r.step_events(i)
                    .iter()
                    .any(|e| decided_at(e).is_some() && e.request.as_deref() == Some(request))
            })
            .expect("the request is decided")
    }

    #[test]
    fn the_paused_writers_decisive_step_says_its_verdict_under_each_policy() {
        let r = run("paused-writer", Policy::Unfenced);
        let v = texts(verdicts(&r, decisive(&r, "A-stale")));
        assert!(
            v.starts_with(
                "Under unfenced, report accepted A's write “A's report”, carrying token 41"
            ),
            "{v}"
        );
        assert!(v.contains("That is a stale overwrite"), "{v}");

        for p in [Policy::HighestSeen, Policy::Strict, Policy::FenceOnAcquire] {
            let r = run("paused-writer", p);
            let v = texts(verdicts(&r, decisive(&r, "A-stale")));
            assert!(
                v.contains(&format!("Under {}, report rejected A's write “A's report”, carrying token 41, as stale: 41 is below the highest it has seen, 42.", p.as_str())),
                "{v}"
            );
            assert!(v.ends_with("It still holds “B's report”."), "{v}");
            assert!(
                !v.contains("That is"),
                "no violation under {}: {v}",
                p.as_str()
            );
        }
    }

    /// Every decision a resource takes, in every preset under every policy, is said in its
    /// step, with the word of the outcome the model recorded, and names its request in words
    /// (whose, asking what), never by the scenario's label alone.
    #[test]
    fn every_decision_in_every_preset_is_said() {
        for s in load_presets() {
            for p in Policy::ALL {
                let mut r = build_run(&s, &Choice::Policy(p));
                r.run_script().unwrap();
                for i in 1..=r.len() {
                    let said = verdicts(&r, i);
                    let events = r.step_events(i);
                    let decisions: Vec<&Event> =
                        events.iter().filter(|e| decided_at(e).is_some()).collect();
                    assert!(
                        said.len() >= decisions.len(),
                        "{} {} step {i}",
                        s.id,
                        p.as_str()
                    );
                    for (e, line) in decisions.iter().zip(&said) {
                        let word = match e.kind {
                            EventKind::WriteAccepted { .. } => " accepted ",
                            EventKind::WriteRejected { .. } => " rejected ",
                            EventKind::WriteReplayed { .. } => " replays ",
                            EventKind::CheckPassed { .. } => " checked ",
                            _ => " left ",
                        };
                        let line = &line.text;
                        assert!(
                            line.contains(word),
                            "{} {} step {i}: {line}",
                            s.id,
                            p.as_str()
                        );
                        let id = e.request.as_deref().unwrap();
                        let name =
                            request_name([r.world_at(i - 1).unwrap(), r.world_at(i).unwrap()], id);
                        assert!(!name.starts_with("request "), "{} step {i}: {name}", s.id);
                        assert!(line.contains(&name), "{line}");
                    }
                    for e in events {
                        if let EventKind::Violation { kind, .. } = e.kind {
                            assert!(
                                said.iter()
                                    .any(|l| l.violation && l.text.contains(violation_name(kind))),
                                "{} {} step {i}: {kind:?} unsaid in {said:?}",
                                s.id,
                                p.as_str()
                            );
                        }
                    }
                }
            }
        }
    }

    /// Check-then-write's race: A's stale write passed its check before 42 was recorded and
    /// is written without comparing again. The sentence says so, from the comparison the
    /// check recorded, and never that 41 is above 42.
    #[test]
    fn a_write_on_an_earlier_check_says_when_and_against_what_it_was_checked() {
        let r = run("check-then-write-race", Policy::CheckThenWrite);
        let v = texts(verdicts(&r, decisive_accept(&r, "A-stale")));
        assert!(!v.contains("above the highest it had seen, 42"), "{v}");
        assert!(
            v.contains("accepted A's write “A's report”, carrying token 41, without comparing tokens again: it passed its check at t="),
            "{v}"
        );
        assert!(
            v.contains(
                "Since that check 42 was recorded, and this write sets the highest back to 41"
            ),
            "{v}"
        );
    }

    /// The step in which `request` is accepted.
    fn decisive_accept(r: &Run, request: &str) -> usize {
        (1..=r.len())
            .find(|&i| {
                r.step_events(i).iter().any(|e| {
                    matches!(e.kind, EventKind::WriteAccepted { .. })
                        && e.request.as_deref() == Some(request)
                })
            })
            .expect("the request is accepted")
    }

    /// Two writes landing in one step: each sentence says the value that write left, in
    /// their order, not the value after the whole step.
    #[test]
    fn each_write_of_a_step_says_the_value_it_left() {
        let s = crate::presets::get("chubby-lock-delay").unwrap();
        let mut r = build_run(&s, &Choice::Variant("no-delay".into()));
        r.run_script().unwrap();
        let i = (1..=r.len())
            .find(|&i| {
                r.step_events(i)
                    .iter()
                    .filter(|e| matches!(e.kind, EventKind::WriteAccepted { .. }))
                    .count()
                    == 2
            })
            .expect("a step where both writes land");
        let said: Vec<String> = verdicts(&r, i).into_iter().map(|v| v.text).collect();
        let values: Vec<&str> = r
            .step_events(i)
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::WriteAccepted { value, .. } => Some(value.as_str()),
                _ => None,
            })
            .collect();
        assert_ne!(values[0], values[1], "{values:?}");
        for (line, value) in said.iter().zip(&values) {
            assert!(line.contains(&format!("“{value}”")), "{line} / {value}");
        }
    }

    /// Every accepted or checked write, in every preset under every variant and policy, says
    /// the comparison it recorded: the token it was compared against (or that it was the
    /// first), when, if that was at an earlier check, and the value that write left; and
    /// never claims a token is above one it is not above.
    #[test]
    fn every_decision_sentence_says_its_recorded_comparison() {
        for s in load_presets() {
            let choices = Policy::ALL
                .into_iter()
                .map(Choice::Policy)
                .chain(s.variants.iter().map(|v| Choice::Variant(v.name.clone())));
            for choice in choices {
                let mut r = build_run(&s, &choice);
                r.run_script().unwrap();
                for i in 1..=r.len() {
                    let said = verdicts(&r, i);
                    let decisions = r.step_events(i).iter().filter(|e| decided_at(e).is_some());
                    for (e, line) in decisions.zip(&said) {
                        let at = format!("{} {} step {i}: {}", s.id, choice.value(), line.text);
                        let (compared, value) = match &e.kind {
                            EventKind::WriteAccepted {
                                compared,
                                value,
                                no_op: false,
                                ..
                            } => (compared, Some(value)),
                            EventKind::CheckPassed { compared, .. } => (compared, None),
                            _ => continue,
                        };
                        if let Some(value) = value {
                            let store = line.text.contains("now holds “");
                            assert!(!store || line.text.contains(&format!("“{value}”")), "{at}");
                        }
                        let (Some(c), Some(t)) = (compared, &e.token) else {
                            continue;
                        };
                        match &c.against {
                            None => assert!(line.text.contains("first token"), "{at}"),
                            Some(h) => {
                                assert!(line.text.contains(&h.to_string()), "{at}");
                                if line.text.contains("above the highest") {
                                    assert_eq!(t.order(h), std::cmp::Ordering::Greater, "{at}");
                                }
                            }
                        }
                        if c.earlier {
                            let when = format!("passed its check at t={}", c.at);
                            assert!(line.text.contains(&when), "{at}");
                        }
                    }
                }
            }
        }
    }

    /// A variant named for something other than the policy is said by its name too.
    #[test]
    fn a_variants_decisions_are_said_under_its_own_name() {
        let s = crate::presets::get("chubby-lock-delay").unwrap();
        let mut r = build_run(&s, &Choice::Variant("no-delay".into()));
        r.run_script().unwrap();
        let v = texts(verdicts(&r, decisive(&r, "A-late")));
        assert!(v.starts_with("In “no-delay”, under "), "{v}");
        // A variant named for its policy, and a plain policy, say just the policy.
        let r = run("paused-writer", Policy::HighestSeen);
        let v = texts(verdicts(&r, decisive(&r, "A-stale")));
        assert!(v.starts_with("Under highest-seen, "), "{v}");
    }

    /// Whether `text` says that a resource keeps a token: a highest it records, remembers,
    /// compares against, or a token registered there. False under unfenced, where a resource
    /// ignores tokens and records none; "it has no highest token" is not such a claim.
    fn claims_a_kept_token(text: &str) -> Option<&'static str> {
        const CLAIMS: [&str; 16] = [
            "highest token is",
            "its highest token",
            "as its highest",
            "as the highest",
            "its highest is",
            "whose highest is",
            "against the highest",
            "below the highest",
            "restored highest",
            "equals the highest",
            "the highest token to",
            "highest token back",
            "still remembers",
            "memory of 4",
            "registers token",
            "has registered",
        ];
        let lower = text.to_lowercase();
        if let Some(c) = CLAIMS.iter().find(|c| lower.contains(*c)) {
            return Some(c);
        }
        // "records 42", "records e1:42": a token recorded (not "records nothing").
        lower.match_indices("records ").find_map(|(k, m)| {
            let rest = &lower.as_bytes()[k + m.len()..];
            let token = match rest {
                [d, ..] if d.is_ascii_digit() => true,
                [b'e', d, ..] if d.is_ascii_digit() => true,
                _ => false,
            };
            token.then_some("records <token>")
        })
    }

    #[test]
    fn the_kept_token_claims_are_told_apart_from_their_denials() {
        for yes in [
            "The resource's highest token is now 43.",
            "X accepts it and records 42 as its highest.",
            "A fenced resource records 42 as the highest token it has seen.",
            "and X records 42. Y has never heard of 42; its highest is still 41.",
            "The resource accepts it and records e1:42 as its highest.",
        ] {
            assert!(claims_a_kept_token(yes).is_some(), "{yes}");
        }
        for no in [
            "The resource accepts B's write. Unfenced, it ignores tokens and records nothing: it has no highest token to compare a later write with.",
            "The file accepts B's write. Unfenced, it ignores the values and records none.",
            "The inbox displays it: it has nowhere to keep a highest token, and no policy of ours runs there.",
            "The coordinator records A's release, grants the lease to B with token 42.",
        ] {
            assert_eq!(claims_a_kept_token(no), None, "{no}");
        }
    }

    /// Under unfenced a resource ignores tokens and keeps none, so no step of any preset may
    /// say that it records, remembers or compares against a highest (or registered) token —
    /// under the plain policy the app offers, and under every variant that runs unfenced.
    #[test]
    fn no_step_says_an_unfenced_resource_keeps_a_token() {
        let mut wrong = Vec::new();
        for s in load_presets() {
            let choices = std::iter::once(Choice::Policy(Policy::Unfenced))
                .chain(s.variants.iter().map(|v| Choice::Variant(v.name.clone())));
            for choice in choices {
                let mut r = build_run(&s, &choice);
                if r.scenario.policy != Policy::Unfenced {
                    continue;
                }
                r.run_script().unwrap();
                for i in 1..=r.len() {
                    let text = say(&r, i);
                    if let Some(claim) = claims_a_kept_token(&text) {
                        let line = format!("{} step {}: “{claim}” in: {text}", s.id, i - 1);
                        if !wrong.contains(&line) {
                            wrong.push(line);
                        }
                    }
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "{} steps say an unfenced resource keeps a token:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    /// Where a step says what a resource's highest token is ("its highest token is now 42",
    /// "the snapshot holds … the highest token 41", "its highest token is 41 again"), the
    /// number is a highest that a resource or its backup really keeps after the step — under
    /// every policy and variant the picker offers. (Resource-restore under check-then-write
    /// said the snapshot held 41 when A's draft had only passed its check: it held none.)
    #[test]
    fn a_step_that_names_a_highest_token_names_one_that_is_kept() {
        const PHRASES: [&str; 5] = [
            "highest token is now ",
            "highest token is ",
            "the highest token ",
            "highest token to ",
            "highest is now ",
        ];
        let mut wrong = Vec::new();
        for s in load_presets() {
            let choices = Policy::ALL
                .iter()
                .map(|p| Choice::Policy(*p))
                .chain(s.variants.iter().map(|v| Choice::Variant(v.name.clone())));
            for choice in choices {
                let mut r = build_run(&s, &choice);
                r.run_script().unwrap();
                for i in 1..=r.len() {
                    let Some(Entry::Script(_)) = r.entry(i) else {
                        continue;
                    };
                    let text = say(&r, i);
                    let w = r.world_at(i).unwrap();
                    let kept: Vec<String> = w
                        .resources()
                        .iter()
                        .flat_map(|res| {
                            std::iter::once(res.data.highest.as_ref())
                                .chain(res.backup.as_ref().map(|b| b.highest.as_ref()))
                        })
                        .flatten()
                        .map(|t| t.short())
                        .collect();
                    for p in PHRASES {
                        for (k, _) in text.match_indices(p) {
                            let rest = &text[k + p.len()..];
                            let n: String = rest
                                .chars()
                                .take_while(|c| c.is_ascii_alphanumeric() || *c == ':')
                                .collect();
                            // 43 in an epoch issuer's e1:43 is its counter, as the story
                            // tells it before epochs matter.
                            let is_kept = kept
                                .iter()
                                .any(|k| *k == n || k.ends_with(&format!(":{n}")));
                            if n.starts_with(|c: char| c.is_ascii_digit() || c == 'e')
                                && n.chars().any(|c| c.is_ascii_digit())
                                && !is_kept
                            {
                                wrong.push(format!(
                                    "{} ({}) step {}: says {p}{n}, kept {kept:?}: {text}",
                                    s.id,
                                    choice.value(),
                                    i
                                ));
                            }
                        }
                    }
                }
            }
        }
        wrong.dedup();
        assert!(wrong.is_empty(), "{}:\n{}", wrong.len(), wrong.join("\n"));
    }

    #[test]
    fn a_users_step_says_what_followed() {
        let s = crate::presets::get("paused-writer").unwrap();
        let mut r = build_run(&s, &Choice::Policy(Policy::HighestSeen));
        r.step_forward().unwrap(); // A asks
        r.act(Action::Advance { ticks: 1 }).unwrap();
        let text = say(&r, r.cursor());
        assert!(
            text.starts_with(
                "You: advance 1 tick. At t=1, the network delivers acquire report-lock"
            ),
            "{text}"
        );
        assert!(
            text.contains("the coordinator grants report-lock"),
            "{text}"
        );
    }

    #[test]
    fn a_write_without_a_lease_says_why_it_carries_no_token() {
        use crate::sim::request::Op;
        use crate::sim::worker::WriteSpec;
        let s = crate::presets::get("sandbox").unwrap();
        let write = |w: &str| Action::Write {
            worker: w.into(),
            write: WriteSpec {
                to: vec!["store".into()],
                op: Op::Set("x".into()),
                op_id: None,
                label: None,
                transaction: false,
                if_version: None,
            },
        };
        let mut r = build_run(&s, &Choice::Policy(Policy::HighestSeen));
        r.act(write("A")).unwrap();
        let text = say(&r, r.cursor());
        assert!(
            text.contains("A holds no lease, so A1 carries no token"),
            "{text}"
        );
        // With a lease its write carries the token, and nothing is said about a missing one.
        r.act(Action::Acquire {
            worker: "B".into(),
            lock: None,
        })
        .unwrap();
        r.act(Action::Advance { ticks: 5 }).unwrap();
        assert!(r.world().worker("B").unwrap().holds_any());
        r.act(write("B")).unwrap();
        let text = say(&r, r.cursor());
        assert!(!text.contains("no token"), "{text}");
    }

    #[test]
    fn the_blank_sandbox_does_not_ask_for_play() {
        let s = crate::presets::get("sandbox").unwrap();
        let r = build_run(&s, &Choice::default_for(&s));
        assert!(!say(&r, 0).contains("Press Play"));
    }
}

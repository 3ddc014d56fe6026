//! Words the app shows and the accessible names of its controls, as plain functions.

use crate::sim::message::Envelope;
use crate::sim::run::{Entry, Run};
use crate::sim::scenario::Scenario;
use crate::sim::worker::Status;
use crate::sim::Policy;

/// A pending message as people read it: `write A1 (token 41) to report`.
pub fn message(e: &Envelope) -> String {
    format!("{} to {}", e.msg.describe(), e.to.name())
}

/// The accessible names of the four buttons on every in-flight message, in order
/// Deliver, Hold, Drop, Duplicate: the verb (the button's visible text) first, then what the
/// message is, its number and its sender — two workers' identical requests, or a duplicate
/// and its original, still get names of their own.
pub fn message_actions(e: &Envelope) -> [String; 5] {
    let what = format!("{}, message #{} from {}", message(e), e.id, e.from.name());
    ["Deliver", "Hold", "Release", "Drop", "Duplicate"].map(|verb| format!("{verb} {what}"))
}

pub fn status(s: &Status) -> String {
    match s {
        Status::Running => "running".into(),
        Status::Paused { until: Some(t) } => format!("paused until t={t}"),
        Status::Paused { until: None } => "paused".into(),
        Status::Crashed => "crashed".into(),
    }
}

/// The picker's entries (id, title, theme: `AppState::listed`) grouped by theme, groups in
/// order of first appearance: (theme, [(id, title)]).
pub fn scenario_groups(entries: &[(&str, &str, &str)]) -> Vec<(String, Vec<(String, String)>)> {
    let mut groups: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for &(id, title, theme) in entries {
        let theme = if theme.is_empty() { "Other" } else { theme };
        let item = (id.to_string(), title.to_string());
        match groups.iter_mut().find(|(t, _)| t == theme) {
            Some((_, v)) => v.push(item),
            None => groups.push((theme.to_string(), vec![item])),
        }
    }
    groups
}

/// The receiver-policy choices for a scenario: its own contrasted variants first, then
/// every plain policy no variant already stands for, as (`<option>` value, label). A variant's
/// value is its name and a plain policy's its name; a policy named like a variant is left out.
pub struct PolicyOptions {
    pub variants: Vec<(String, String)>,
    pub plain: Vec<(String, String)>,
}

pub fn policy_options(s: &Scenario) -> PolicyOptions {
    let variants = s
        .variants
        .iter()
        .map(|v| {
            let label = match v.policy {
                Some(p) if p.as_str() != v.name => format!("{} ({})", v.name, p.as_str()),
                _ => v.name.clone(),
            };
            (v.name.clone(), label)
        })
        .collect();
    let plain = Policy::ALL
        .into_iter()
        .filter(|p| s.variant_for(*p).is_none())
        .map(|p| {
            let label = if s.variants.is_empty() && p == s.policy {
                format!("{} (default)", p.as_str())
            } else {
                p.as_str().to_string()
            };
            (p.as_str().to_string(), label)
        })
        .collect();
    PolicyOptions { variants, plain }
}

/// "Stale overwrite" from "stale overwrite": a name at the head of a line. ASCII only:
/// `char::to_uppercase` would bring Unicode's case tables into the page (about 8 KB gzip).
pub fn upper_first(s: &str) -> String {
    let mut out = s.to_string();
    if let Some(first) = out.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    out
}

/// How many steps the current branch will have once its script has run out: the scrub range.
pub fn planned_len(run: &Run) -> usize {
    match run.first_user_step() {
        Some(_) => run.len(),
        // Every step so far is a script step.
        None => run.len() + run.scenario.script.len().saturating_sub(run.len()),
    }
}

/// What produced the current step, in words: `Script step 3 of 11`, `Your action: …`.
pub fn entry(run: &Run) -> String {
    match run.current_entry() {
        Entry::Start => "The start, before anything happens".into(),
        Entry::Script(i) => format!("Script step {} of {}", i + 1, run.scenario.script.len()),
        // The narration below says what the action was: here, only where it stands.
        Entry::User(_) => format!("Your action, step {}", run.cursor()),
    }
}

/// The narration at step 0, before anything has happened. It points only at controls that
/// can start something: Play and Step forward when there is something to play
/// (`AppState::can_play`), else the sandbox buttons when they are on the page (`hands`).
pub fn at_start(can_play: bool, hands: bool) -> &'static str {
    match (can_play, hands) {
        (true, _) => "Nothing has happened yet. Press Play or Step forward to begin.",
        (false, true) => {
            "Nothing has happened yet, and nothing is scripted: begin with the sandbox buttons — acquire a lease for a worker, or let time pass."
        }
        (false, false) => "Nothing has happened yet, and nothing is scripted here.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    #[test]
    fn policy_options_list_variants_then_the_rest() {
        let s = presets::get("paused-writer").unwrap();
        let o = policy_options(&s);
        let names: Vec<&str> = s.variants.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(o.variants.len(), names.len());
        for (value, _) in &o.plain {
            assert!(
                !names.contains(&value.as_str()),
                "{value} is both a variant and a plain policy"
            );
        }
        assert!(o.variants.len() + o.plain.len() >= 5);
        let sandbox = presets::get("sandbox").unwrap();
        let o = policy_options(&sandbox);
        assert_eq!(o.plain.len(), Policy::ALL.len());
        assert!(o.plain.iter().any(|(_, l)| l.ends_with("(default)")));
    }

    #[test]
    fn the_policy_picker_offers_every_policy_for_every_preset() {
        for s in presets::all() {
            let o = policy_options(&s);
            for p in Policy::ALL {
                let plain = o.plain.iter().any(|(value, _)| value == p.as_str());
                let variant = o.variants.iter().any(|(value, _)| {
                    s.variant(value)
                        .is_some_and(|v| v.policy.unwrap_or(s.policy) == p)
                });
                assert!(plain || variant, "{}: {} is not offered", s.id, p.as_str());
            }
        }
    }

    #[test]
    fn every_in_flight_button_has_a_name_of_its_own() {
        use crate::sim::{Action, MsgSel};
        let s = presets::get("sandbox").unwrap();
        let mut run = Run::new(&s, None);
        for w in ["A", "B"] {
            run.act(Action::Acquire {
                worker: w.into(),
                lock: None,
            })
            .unwrap();
        }
        let first = run.world().network().in_flight[0].id;
        run.act(Action::Duplicate {
            msg: MsgSel::id(first),
        })
        .unwrap();
        let msgs = &run.world().network().in_flight;
        assert_eq!(msgs.len(), 3);
        let names: Vec<String> = msgs.iter().flat_map(|e| message_actions(e)).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:#?}");
        // The verb leads (it is the visible text), the number and sender follow.
        assert!(names[0].starts_with("Deliver acquire"), "{}", names[0]);
        assert!(
            names[0].ends_with(&format!("message #{first} from A")),
            "{}",
            names[0]
        );
    }

    #[test]
    fn groups_keep_every_scenario_once() {
        let app = crate::view::state::AppState::new(crate::view::state::load_presets());
        let groups = scenario_groups(&app.listed());
        let mut ids: Vec<String> = groups
            .into_iter()
            .flat_map(|(_, v)| v)
            .map(|(id, _)| id)
            .collect();
        assert_eq!(ids.len(), presets::ids().count());
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), presets::ids().count());
    }

    #[test]
    fn planned_len_counts_the_script_ahead() {
        let s = presets::get("paused-writer").unwrap();
        let mut run = Run::new(&s, s.variants.first());
        assert_eq!(planned_len(&run), s.script.len());
        run.step_forward().unwrap();
        assert_eq!(planned_len(&run), s.script.len());
        run.act(crate::sim::Action::Advance { ticks: 1 }).unwrap();
        assert_eq!(planned_len(&run), 2);
    }

    #[test]
    fn a_users_step_is_named_by_its_place_not_repeated() {
        let s = presets::get("paused-writer").unwrap();
        let mut run = Run::new(&s, s.variants.first());
        assert_eq!(entry(&run), "The start, before anything happens");
        run.step_forward().unwrap();
        assert_eq!(entry(&run), format!("Script step 1 of {}", s.script.len()));
        run.act(crate::sim::Action::Advance { ticks: 1 }).unwrap();
        // the narration says "You: advance 1 tick."; the line above it does not repeat it
        assert_eq!(entry(&run), "Your action, step 2");
    }

    #[test]
    fn the_start_points_only_at_buttons_that_work() {
        use crate::view::state::{AppState, Msg};
        let mut a = AppState::new(crate::view::state::load_presets());
        // A scripted scenario: Play and Step forward are enabled.
        assert!(a.can_play());
        assert!(at_start(a.can_play(), true).contains("Press Play or Step forward"));
        // The blank sandbox: every playback button is disabled, so neither is named.
        a.apply(Msg::LoadId("sandbox".into()));
        assert_eq!(a.current().id, "sandbox");
        assert!(!a.can_play() && a.at_end() && a.run.cursor() == 0);
        for hands in [true, false] {
            let said = at_start(a.can_play(), hands);
            assert!(!said.contains("Play") && !said.contains("Step"), "{said}");
        }
        assert!(at_start(a.can_play(), true).contains("sandbox buttons"));
        // Once the user has acted and stepped back to the start, there is something to play.
        a.apply(Msg::Act(crate::sim::Action::Advance { ticks: 1 }));
        a.apply(Msg::ToStart);
        assert!(at_start(a.can_play(), true).contains("Press Play or Step forward"));
    }
}

//! What is happening and why: the step's narration, the variant's expected outcome, and the
//! take-over message once the script has nothing more to say.

use crate::sim::run::Entry;
use crate::ui::state::use_app;
use crate::view::state::{Choice, Msg};
use crate::view::{narrate, text};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct NarrationProps {
    /// Whether the sandbox buttons are on the page (not in an embed without `sandbox`):
    /// the take-over text only points at buttons the reader can see.
    #[prop_or(true)]
    pub hands: bool,
}

#[component]
pub fn Narration(props: &NarrationProps) -> Html {
    let state = use_app();
    let run = &state.run;
    let scenario = state.current();
    let say = match run.current_entry() {
        Entry::Start => text::at_start(state.can_play(), props.hands).to_string(),
        _ => narrate::say(run, run.cursor()),
    };
    let verdicts = narrate::verdicts(run, run.cursor());
    let predictions = if state.predict.on {
        state.predict.feedback(&state.key(), run, run.cursor())
    } else {
        Vec::new()
    };
    let sandbox = scenario.script.is_empty();
    let take_over = run.next_script_step().is_none();
    let takeover_text = if sandbox {
        "Sandbox: build a story from nothing. Acquire leases, write, pause and crash workers, let time pass, and deliver, hold, drop or duplicate each message in any order."
    } else if !props.hands {
        "The script ends here. Step back or scrub to watch any step again."
    } else {
        "Take over: the script has nothing more to say on this branch. Keep acting in the same world with the sandbox buttons — deliver, hold or drop messages, pause or crash workers, let time pass."
    };
    // Said once the story has reached it (`outcome_due`), so it never gives the answer away.
    let outcome = match (&state.choice, state.outcome_due()) {
        (Choice::Variant(n), Some(o)) => Some((format!("Expected under “{n}”: "), o.to_string())),
        (Choice::Policy(p), _) => Some((
            format!("Plain policy {}: ", p.as_str()),
            format!(
                "{}. The scenario states no expected outcome for it: watch what happens.",
                p.describe()
            ),
        )),
        _ => None,
    };
    let dismiss = {
        let d = state.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::DismissNotice))
    };
    let reload = {
        let d = state.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::Reload))
    };

    html! {
        <section class="panel narration" aria-labelledby="narration-h" aria-live="polite">
            <h2 id="narration-h">{"Narration"}</h2>
            <p class="entry">{text::entry(run)}</p>
            <p class="say">{say}</p>
            for f in predictions {
                <p class={classes!("prediction", if f.right { "right" } else { "wrong" })}>
                    <span aria-hidden="true">{if f.right { "✓ " } else { "✗ " }}</span>
                    <strong>{f.text}</strong>{" "}{f.why}
                </p>
            }
            for v in verdicts {
                <p class={classes!("verdict", v.violation.then_some("broken"))}>
                    <strong>{"Verdict: "}</strong>{v.text}
                </p>
            }
            if let Some((lead, o)) = outcome {
                <p class="outcome"><strong>{lead}</strong>{o}</p>
            }
            if take_over && run.cursor() > 0 || sandbox {
                <p class="takeover"><strong>{"Your turn. "}</strong>{takeover_text}</p>
            }
            if let Some(n) = &state.notice {
                <div class="notice" role="status">
                    <p>{n.clone()}</p>
                    // While a preset loads, the notice says so; there is nothing to reload yet.
                    if state.loading.is_none() {
                        <button type="button" class="small" onclick={reload}>{"Reload scenario"}</button>
                        <button type="button" class="small" onclick={dismiss}>{"Dismiss"}</button>
                    }
                </div>
            }
        </section>
    }
}

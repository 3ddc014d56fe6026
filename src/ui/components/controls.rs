//! Playback: the bar that steps the run (play/pause, step, jump and the scrub slider over
//! steps), kept in sight above the timeline, and the options beside the story (speed,
//! predict mode).

use super::msg_button;
use crate::ui::state::use_app;
use crate::view::branches;
use crate::view::state::{Msg, SPEEDS};
use crate::view::text;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The bar: sticky at the top of the page (style.css, `.playbar`), so that stepping is
/// always within reach of the timeline, on a phone as on a desktop.
#[component]
pub fn Controls() -> Html {
    let state = use_app();
    let run = &state.run;
    let cursor = run.cursor();
    let planned = text::planned_len(run);
    let at_start = cursor == 0;
    let at_end = state.at_end();
    let pure_script = !run.has_user_actions() && !run.scenario.script.is_empty();
    let position = if pure_script {
        format!("Step {cursor} of {planned}")
    } else {
        format!("Step {cursor}")
    };
    let on_scrub = {
        let d = state.dispatcher();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(i) = input.value().parse() {
                d.dispatch(Msg::Seek(i));
            }
        })
    };
    // Predict mode asks before the next step: forward waits for the answer.
    let asking = state.asking.is_some();
    let (play_icon, play_text) = if state.playing {
        ("❚❚", "Pause")
    } else {
        ("▶", "Play")
    };

    html! {
        <section class="controls playbar" aria-labelledby="controls-h">
            <h2 id="controls-h" class="visually-hidden">{"Playback"}</h2>
            <div class="buttons">
                {msg_button(&state, Msg::ToStart, "«", "Back to start", at_start, "ctl")}
                {msg_button(&state, Msg::StepBack, "‹", "Step back", at_start, "ctl")}
                {msg_button(&state, Msg::TogglePlay, play_icon, play_text, !state.playing && (!state.can_play() || asking), "ctl play")}
                {msg_button(&state, Msg::StepForward, "›", "Step forward", at_end || asking, "ctl")}
                {msg_button(&state, Msg::ToEnd, "»", "Jump to end", at_end || asking, "ctl")}
            </div>
            <div class="scrub">
                <label for="scrub">{position}<span class="time">{format!(" · t = {}", run.world().now())}</span></label>
                <input id="scrub" type="range" aria-label="Scrub" min="0" max={planned.max(cursor).to_string()}
                    step="1" value={cursor.to_string()} oninput={on_scrub} />
            </div>
            if state.branches.any() {
                <BranchPick />
            }
        </section>
    }
}

/// How the run plays: its speed, and predict mode (which stops before each verdict).
#[component]
pub fn PlayOptions() -> Html {
    let state = use_app();
    let speed_ref = use_node_ref();
    {
        let r = speed_ref.clone();
        use_effect_with(state.speed, move |speed| {
            if let Some(s) = r.cast::<HtmlSelectElement>() {
                s.set_value(&speed.to_string());
            }
        });
    }
    let on_speed = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(ms) = sel.value().parse() {
                d.dispatch(Msg::SetSpeed(ms));
            }
        })
    };
    let on_predict = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            d.dispatch(Msg::Predict(input.checked()));
        })
    };
    html! {
        <section class="panel play-options" aria-label="Playback options">
            <label class="check predict-toggle">
                <input type="checkbox" checked={state.predict.on} onchange={on_predict} />
                {" Predict mode: stop before each verdict and guess it"}
            </label>
            <div class="field speed">
                <label for="speed">{"Speed"}</label>
                <select id="speed" ref={speed_ref} onchange={on_speed}>
                    for (ms, label) in SPEEDS {
                        <option value={ms.to_string()} selected={ms == state.speed}>{label}</option>
                    }
                </select>
            </div>
        </section>
    }
}

/// The branches of the run (`view::branches`), as a tree in a select: shown once the user
/// has forked the run, so switching back is one choice away from the steps.
#[component]
fn BranchPick() -> Html {
    let state = use_app();
    let rows = state.branches.rows(&state.run);
    // The select shows the branch on screen after every switch, as the speed select does.
    let select = use_node_ref();
    {
        let r = select.clone();
        use_effect_with(state.branches.current(), move |n| {
            if let Some(s) = r.cast::<HtmlSelectElement>() {
                s.set_value(&n.to_string());
            }
        });
    }
    let onchange = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(n) = sel.value().parse() {
                d.dispatch(Msg::Branch(n));
            }
        })
    };
    html! {
        <div class="field branch-pick">
            <label for="branch">{"Branch"}</label>
            <select id="branch" ref={select} {onchange}>
                for r in rows.iter() {
                    <option value={r.number.to_string()} selected={r.current}>{branches::label(r)}</option>
                }
            </select>
        </div>
    }
}

//! One file per panel. Every component reads the shared `AppCtx` and dispatches `Msg`s.

mod alert;
pub mod app;
mod compare;
mod controls;
mod embed_dialog;
mod event_log;
mod explorer;
mod export;
mod in_flight;
mod inspector;
pub(crate) mod lab;
mod narration;
mod picker;
mod predict;
mod sandbox;
mod share;
mod shortcuts;
mod timeline;
mod tool_slot;

use crate::sim::Action;
use crate::ui::state::AppCtx;
use crate::view::state::Msg;
use yew::prelude::*;

/// A button that takes one model action; disabled, with the model's reason as its tooltip,
/// when `World::check` refuses the action now. `text` is what it shows, `name` its
/// accessible name (which contains `text`).
pub(crate) fn act_button(state: &AppCtx, action: Action, text: &str, name: String) -> Html {
    act_button_unless(state, action, text, name, None)
}

/// As `act_button`, also disabled for a reason of the view's own (`refuse`): the model would
/// take the action, but it would change nothing (holding a message already held).
pub(crate) fn act_button_unless(
    state: &AppCtx,
    action: Action,
    text: &str,
    name: String,
    refuse: Option<&str>,
) -> Html {
    let check = state.run.world().check(&action).map_err(|e| e.to_string());
    let check = match refuse {
        Some(why) if check.is_ok() => Err(why.to_string()),
        _ => check,
    };
    let disabled = check.is_err();
    let title = match check {
        Err(e) => format!("Not now: {e}"),
        Ok(()) => name.clone(),
    };
    let d = state.dispatcher();
    let onclick = Callback::from(move |_: MouseEvent| d.dispatch(Msg::Act(action.clone())));
    html! {
        <button type="button" class="act" aria-label={name} {title} {disabled} {onclick}>{text.to_string()}</button>
    }
}

/// After a tool replaced the run (a counterexample loaded, a lab run opened): bring the
/// timeline into view, where the change is, rather than leave the reader at the tool.
pub(crate) fn show_timeline() {
    if let Some(h) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("timeline-h"))
    {
        h.scroll_into_view();
    }
}

/// The always-visible line of a tool section below the main grid (`<details class="tool">`):
/// its heading, and one sentence saying what it is for, so a closed section still explains
/// itself.
pub(crate) fn tool_summary(title: &str, about: &str) -> Html {
    html! {
        <summary>
            <h2>{title.to_string()}</h2>
            <span class="summary-note">{about.to_string()}</span>
        </summary>
    }
}

/// A button that dispatches a message.
pub(crate) fn msg_button(
    state: &AppCtx,
    msg: Msg,
    icon: &str,
    text: &str,
    disabled: bool,
    class: &'static str,
) -> Html {
    let d = state.dispatcher();
    let onclick = Callback::from(move |_: MouseEvent| d.dispatch(msg.clone()));
    html! {
        <button type="button" {class} aria-label={text.to_string()} title={text.to_string()} {disabled} {onclick}>
            <span class="icon" aria-hidden="true">{icon.to_string()}</span>
            <span class="label">{text.to_string()}</span>
        </button>
    }
}

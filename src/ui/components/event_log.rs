//! The event log: every event up to the current step, one line each — the accessible twin
//! of the timeline. The last step's lines are marked.
//!
//! A long run shows a page of its newest lines (`view::log`), with a button for earlier ones.

use crate::ui::state::use_app;
use crate::view::log::{event_class, LogPage, LOG_MORE, LOG_PAGE};
use web_sys::Element;
use yew::prelude::*;

#[component]
pub fn EventLog() -> Html {
    let state = use_app();
    let log_ref = use_node_ref();
    let shown = use_state_eq(|| LOG_PAGE);
    {
        let r = log_ref.clone();
        // Keep the newest lines in view.
        use_effect_with(state.version, move |_| {
            if let Some(el) = r.cast::<Element>() {
                el.set_scroll_top(el.scroll_height());
            }
        });
    }
    let LogPage {
        total,
        first,
        lines,
    } = LogPage::of(&state.run, *shown);
    let more = {
        let shown = shown.clone();
        Callback::from(move |_| shown.set(*shown + LOG_MORE))
    };
    html! {
        <section class="panel log-panel" aria-labelledby="log-h">
            <h2 id="log-h">{"Event log"} if total > 0 { <small class="count">{format!(" · {total} events")}</small> }</h2>
            <div class="log" role="log" aria-label="Event log" tabindex="0" ref={log_ref} data-events={total.to_string()}>
                if total == 0 {
                    <p class="empty">{"No events yet."}</p>
                } else {
                    if first > 0 {
                        <p class="log-more">
                            <button type="button" class="small" onclick={more}>
                                {format!("Show earlier events ({first} not shown)")}
                            </button>
                        </p>
                    }
                    <ol start={(first + 1).to_string()}>
                        for line in lines {
                            <li key={line.index.to_string()}
                                class={classes!("ev", line.recent.then_some("recent"), line.step_start.then_some("step-start"), event_class(&line.event.kind))}
                                aria-current={line.recent.then_some("step")}>
                                {line.event.to_string()}
                            </li>
                        }
                    </ol>
                }
            </div>
        </section>
    }
}

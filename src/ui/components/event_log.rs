//! The event log: every event up to the current step, one line each — the accessible twin
//! of the timeline. The last step's lines are marked.
//!
//! A long run shows its newest `LOG_PAGE` lines, with a button for earlier ones: a log of
//! thousands of lines re-rendered on every step would make each step slow.

use crate::sim::Event;
use crate::ui::state::use_app;
use web_sys::Element;
use yew::prelude::*;

/// Lines shown at first, and added by each "Show earlier events".
const LOG_PAGE: usize = 200;

#[component]
pub fn EventLog() -> Html {
    let state = use_app();
    let run = &state.run;
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
    let total = run.event_count();
    let first = total.saturating_sub(*shown);
    // Walk the steps backwards from the present, only as far as the lines shown.
    let mut lines: Vec<(usize, &Event, bool, bool)> = Vec::new(); // (index, event, recent, step start)
    let mut s = run.cursor();
    while s > 0 {
        let end = run.events_end(s).unwrap_or(0);
        let evs = run.step_events(s);
        let start = end - evs.len();
        for (i, e) in evs.iter().enumerate().rev() {
            let k = start + i;
            if k < first {
                break;
            }
            lines.push((k, e, s == run.cursor(), i == 0));
        }
        if start <= first {
            break;
        }
        s -= 1;
    }
    lines.reverse();
    let more = {
        let shown = shown.clone();
        Callback::from(move |_| shown.set(*shown + 5 * LOG_PAGE))
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
                        for (k, e, recent, start) in lines {
                            <li key={k.to_string()}
                                class={classes!("ev", recent.then_some("recent"), start.then_some("step-start"), event_class(&e.kind))}
                                aria-current={recent.then_some("step")}>
                                {e.to_string()}
                            </li>
                        }
                    </ol>
                }
            </div>
        </section>
    }
}

fn event_class(k: &crate::sim::EventKind) -> &'static str {
    use crate::sim::EventKind::*;
    match k {
        Violation { .. } => "ev-violation",
        WriteRejected { .. } => "ev-rejected",
        WriteAccepted { .. } => "ev-accepted",
        _ => "ev-plain",
    }
}

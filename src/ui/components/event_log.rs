//! The event log: every event up to the current step, one line each — the accessible twin
//! of the timeline. The last step's lines are marked.

use crate::ui::state::use_app;
use web_sys::Element;
use yew::prelude::*;

#[component]
pub fn EventLog() -> Html {
    let state = use_app();
    let run = &state.run;
    let log_ref = use_node_ref();
    {
        let r = log_ref.clone();
        // Keep the newest lines in view.
        use_effect_with(state.version, move |_| {
            if let Some(el) = r.cast::<Element>() {
                el.set_scroll_top(el.scroll_height());
            }
        });
    }
    let events = run.events();
    let recent_from = if run.cursor() == 0 {
        events.len()
    } else {
        run.events_end(run.cursor() - 1).unwrap_or(0)
    };
    // The step each event belongs to, to mark where steps begin.
    let mut starts = Vec::new();
    for s in 1..=run.cursor() {
        starts.push(run.events_end(s - 1).unwrap_or(0));
    }
    html! {
        <section class="panel log-panel" aria-labelledby="log-h">
            <h2 id="log-h">{"Event log"}</h2>
            <div class="log" role="log" aria-label="Event log" tabindex="0" ref={log_ref}>
                if events.is_empty() {
                    <p class="empty">{"No events yet."}</p>
                } else {
                    <ol>
                        for (i, e) in events.iter().enumerate() {
                            <li key={i.to_string()}
                                class={classes!("ev", (i >= recent_from).then_some("recent"), starts.contains(&i).then_some("step-start"), event_class(&e.kind))}
                                aria-current={(i >= recent_from).then_some("step")}>
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

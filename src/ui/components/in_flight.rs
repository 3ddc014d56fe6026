//! Every pending message with its own Deliver / Hold (Release, once held) / Drop / Duplicate, so any delivery
//! order is reachable; and check-then-write requests waiting for their write step.

use super::act_button;
use crate::sim::{Action, MsgSel, Name};
use crate::ui::state::use_app;
use crate::view::text;
use yew::prelude::*;

#[component]
pub fn InFlight() -> Html {
    let state = use_app();
    let w = state.run.world();
    let now = w.now();
    let msgs = &w.network().in_flight;
    let rows = msgs.iter().map(|e| {
        let [deliver, hold, release, drop, dup] = text::message_actions(e);
        let sel = || MsgSel::id(e.id);
        let held = e.is_held(now);
        let when = if held {
            "held".to_string()
        } else if e.due_at <= now {
            "due now".to_string()
        } else {
            format!("due t={}", e.due_at)
        };
        html! {
            <li class={classes!("msg", held.then_some("is-held"))} key={e.id.to_string()}>
                <p class="what">
                    <span class="id">{format!("#{}", e.id)}</span>
                    <span class="route">{format!("{} → {}", e.from.name(), e.to.name())}</span>
                    <span class="desc">{e.msg.describe()}</span>
                    <span class="when">{format!("sent t={} · {when}", e.sent_at)}</span>
                </p>
                <div class="row">
                    {act_button(&state, Action::Deliver { msg: sel() }, "Deliver", deliver)}
                    if held {
                        {act_button(&state, Action::Unhold { msg: sel() }, "Release", release)}
                    } else {
                        {act_button(&state, Action::Hold { msg: sel(), until: None }, "Hold", hold)}
                    }
                    {act_button(&state, Action::Drop { msg: sel() }, "Drop", drop)}
                    {act_button(&state, Action::Duplicate { msg: sel() }, "Duplicate", dup)}
                </div>
            </li>
        }
    });
    let checked: Vec<(Name, Name)> = w
        .resources()
        .iter()
        .flat_map(|r| {
            r.checked
                .iter()
                .map(move |q| (r.name.clone(), q.request.id.clone()))
        })
        .collect();
    html! {
        <section class="panel in-flight" aria-labelledby="inflight-h">
            <h2 id="inflight-h">{"In flight"}</h2>
            if msgs.is_empty() {
                <p class="empty">{"No messages in flight."}</p>
            } else {
                <ul class="msgs">{for rows}</ul>
            }
            if !checked.is_empty() {
                <h3>{"Checked, not yet written"}</h3>
                <p class="note">{"Check-then-write: these requests passed the token check; their write is a separate step."}</p>
                <ul class="msgs">
                    for (r, id) in checked {
                        <li class="msg" key={format!("{r}/{id}")}>
                            <p class="what"><span class="desc">{format!("{id} at {r}")}</span></p>
                            {act_button(&state, Action::CompleteWrite { resource: r.clone(), request: Some(id.clone()) }, "Complete write", format!("Complete write {id} at {r}"))}
                        </li>
                    }
                </ul>
            }
        </section>
    }
}

//! "Explore every order": the exhaustive explorer over the current scenario and policy, run
//! in a Web Worker (`use_worker`, `view::search`) so the page never waits on it; Cancel
//! terminates the worker. The session is the panel's own (`view::explore::Session`); loading
//! a counterexample is the app's `Msg`.

use super::tool_summary;
use crate::ui::hooks::use_worker;
use crate::ui::state::use_app;
use crate::view::explore::{
    self, invariant_rows, milestone_rows, thousands, Origin, Phase, Session, Then,
};
use crate::view::search::WORKER_URL;
use crate::view::state::{Found, Msg};
use crate::view::text::upper_first;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The section; its body is keyed by the scenario and receiver choice (`explore::key`), so
/// another one mounts a fresh body: the old search (its worker terminated), and its report,
/// no longer apply.
#[component]
pub fn ExplorePanel() -> Html {
    let state = use_app();
    html! {
        <details class="panel tool explorer">
            {tool_summary("Explore every order", "Let the computer try every order of events in this scenario and find the shortest run that breaks a safety property.")}
            <ExploreBody key={explore::key(&state)} />
        </details>
    }
}

/// The bounds, Explore / Explore from here / Cancel, and the search's progress and report.
#[component]
fn ExploreBody() -> Html {
    let state = use_app();
    let session: Rc<RefCell<Option<Session>>> = use_mut_ref(|| None);
    let redraw = use_force_update();
    // The worker's messages and failures go to the session, which says what to do next.
    let then: Rc<RefCell<Option<Callback<Then>>>> = use_mut_ref(|| None);
    let on_message = {
        let (session, redraw, then) = (session.clone(), redraw.clone(), then.clone());
        Callback::from(move |text: String| {
            let next = session
                .borrow_mut()
                .as_mut()
                .map_or(Then::Stop, |s| s.receive(&text, js_sys::Date::now()));
            let act = then.borrow().clone();
            if let Some(act) = act {
                act.emit(next);
            }
            redraw.force_update();
        })
    };
    let on_error = {
        let (session, redraw, then) = (session.clone(), redraw.clone(), then.clone());
        Callback::from(move |why: String| {
            if let Some(s) = session.borrow_mut().as_mut() {
                s.fail(why, js_sys::Date::now());
            }
            let act = then.borrow().clone();
            if let Some(act) = act {
                act.emit(Then::Stop);
            }
            redraw.force_update();
        })
    };
    let worker = use_worker(WORKER_URL, on_message, on_error);
    *then.borrow_mut() = Some({
        let worker = worker.clone();
        Callback::from(move |next: Then| match next {
            Then::Send(request) => worker.post.emit(request),
            Then::Stop => worker.stop.emit(()),
            Then::Nothing => {}
        })
    });
    let explore_from = |from: Origin| {
        let (session, state, start, redraw) = (
            session.clone(),
            state.clone(),
            worker.start.clone(),
            redraw.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            *session.borrow_mut() = Some(Session::start(&state, from, js_sys::Date::now()));
            start.emit(());
            redraw.force_update();
        })
    };
    let main = explore::main_search(&state);
    let on_explore = explore_from(main);
    let on_explore_here = explore_from(Origin::Here);
    let on_cancel = {
        let (session, stop, redraw) = (session.clone(), worker.stop.clone(), redraw.clone());
        Callback::from(move |_: MouseEvent| {
            stop.emit(());
            if let Some(s) = session.borrow_mut().as_mut() {
                s.cancel(js_sys::Date::now());
            }
            redraw.force_update();
        })
    };

    let guard = session.borrow();
    let running = guard.as_ref().is_some_and(|s| s.phase == Phase::Running);
    let shown = guard.as_ref().map_or(main, |s| s.origin);
    let bounds = explore::bounds(&state, shown);
    let about = format!(
        "Tries every order of deliveries, held messages, pauses, steps of time and moves that the bounds below allow — for “{}” under {} — and reports each safety property: held, or broken with the shortest run that breaks it.",
        state.current().title,
        state.choice.value()
    );
    let cursor = state.run.cursor();
    // From the start is the main search; from this step is offered once there is a step
    // other than the start to search from (in a scenario without a script they are one).
    let offer_here = main == Origin::Start && cursor > 0;

    html! {
        <>
            <p class="note">{about}</p>
            <p class="note">{explore::origin_note(&state, shown)}</p>
            <dl class="bounds" aria-label="Bounds of the search">
                for (label, value) in explore::bounds_rows(&bounds) {
                    <div><dt>{label}</dt><dd>{value}</dd></div>
                }
            </dl>
            <div class="tool-actions">
                <button type="button" disabled={running} onclick={on_explore}>{"Explore"}</button>
                if offer_here {
                    <button type="button" disabled={running} onclick={on_explore_here}>{format!("Explore from step {cursor}")}</button>
                }
                <button type="button" disabled={!running} onclick={on_cancel}>{"Cancel"}</button>
            </div>
            if let Some(s) = guard.as_ref() {
                {progress(s)}
                if s.phase != Phase::Running {
                    {report(s, &state)}
                }
            }
        </>
    }
}

fn progress(s: &Session) -> Html {
    let (value, max) = s.progress();
    html! {
        <div class="explore-progress">
            <progress aria-label="Exploration progress" value={value.to_string()} max={max.to_string()}></progress>
            <p class="explore-count">{s.progress_text()}</p>
            <p role="status" class={if s.phase == Phase::Done { "explore-status" } else { "explore-status partial" }}>{s.status_text()}</p>
        </div>
    }
}

fn report(s: &Session, state: &crate::ui::state::AppCtx) -> Html {
    let r = s.report();
    let complete = if r.complete { "true" } else { "false" };
    let figures = [
        ("States explored", thousands(r.states)),
        ("Distinct", thousands(r.distinct_states)),
        ("Terminal", thousands(r.terminal_states)),
        ("Time taken", format!("{} ms", r.elapsed_ms)),
    ];
    let invariants = r.invariants.clone();
    html! {
        <section class="explore-report" aria-label="Exploration report"
            data-states-per-sec={s.states_per_sec().to_string()} data-complete={complete}>
            <dl class="figures">
                for (label, value) in figures {
                    <div><dt>{label}</dt><dd>{value}</dd></div>
                }
            </dl>
            <ul class="invariants">
                for (row, inv) in invariant_rows(&r).into_iter().zip(invariants) {
                    <li key={row.kind.as_str()} class={row.class}>
                        <span class="inv-verdict">{row.verdict}</span>
                        {" "}<span class="inv-name" title={row.kind.as_str()}>{upper_first(row.kind.title())}</span>
                        <span class="inv-explain">{format!(" — {}", row.explain)}</span>
                        if let (Some(n), Some(actions)) = (row.length, inv.counterexample) {
                            {" "}<span class="inv-len">{format!("Shortest counterexample: {n} actions.")}</span>
                            {" "}{load_button(state, Found::Breaks(row.kind), s.whole_run(&actions))}
                        }
                    </li>
                }
            </ul>
            <p class="milestones-head" id="milestones-head">{"Milestones: what the search got to"}</p>
            <ul class="invariants milestones" aria-labelledby="milestones-head">
                for (row, m) in milestone_rows(&r).into_iter().zip(r.milestones.clone()) {
                    <li key={row.kind.as_str()} class={row.class}>
                        <span class="inv-verdict">{row.verdict}</span>
                        {" "}<span class="inv-name" title={row.kind.as_str()}>{upper_first(row.kind.title())}</span>
                        <span class="inv-explain">{format!(" — {}", row.text)}</span>
                        if let (Some(_), Some(witness)) = (row.length, m.witness) {
                            {" "}{load_button(state, Found::Reaches(row.kind), s.whole_run(&witness))}
                        }
                    </li>
                }
            </ul>
        </section>
    }
}

fn load_button(
    state: &crate::ui::state::AppCtx,
    found: Found,
    (script_steps, actions): (usize, Vec<crate::sim::Action>),
) -> Html {
    let d = state.dispatcher();
    let (label, name) = match found {
        Found::Breaks(k) => (
            "Load counterexample",
            format!("Load counterexample for {}", k.title()),
        ),
        Found::Reaches(m) => (
            "Load the run",
            format!("Load the run that reaches {}", m.title()),
        ),
    };
    let onclick = Callback::from(move |_: MouseEvent| {
        d.dispatch(Msg::LoadFound {
            found,
            script_steps,
            actions: actions.clone(),
        });
        super::show_timeline();
    });
    html! { <button type="button" class="small" aria-label={name} {onclick}>{label}</button> }
}

//! Predict mode's panel: the question asked before a verdict, with a button (and a key) per
//! answer offered; otherwise the score so far, and at the end of the run, with a button to
//! each step missed. What is asked, the answers and the score are `view::predict`'s.

use crate::ui::state::use_app;
use crate::view::predict::Said;
use crate::view::state::Msg;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

#[component]
pub fn Predict() -> Html {
    let state = use_app();
    let first = use_node_ref();
    let heading = use_node_ref();
    {
        // A question appearing takes the focus to its first answer; answered, the focus goes
        // on to Step forward (or, at the end, to this panel). Nothing on mount: a page, or
        // an embedded frame, must not take the reader's focus by loading.
        let (first, heading) = (first.clone(), heading.clone());
        let mounted = use_mut_ref(|| false);
        let asked = state.asking.as_ref().map(|q| (q.step, q.index));
        use_effect_with(asked, move |asked| {
            if std::mem::replace(&mut *mounted.borrow_mut(), true) {
                move_focus(asked.is_some(), &first, &heading);
            }
        });
    }
    if !state.predict.on {
        return html! {};
    }
    let d = state.dispatcher();
    let answer = |said: Said, node: Option<NodeRef>| {
        let d = d.clone();
        let onclick = Callback::from(move |_: MouseEvent| d.dispatch(Msg::Answer(said)));
        let key = said.key().to_ascii_uppercase().to_string();
        // Named by its text ("Rejected: Stale token"; the key is hidden from the name), so
        // the name holds what is seen.
        html! {
            <button type="button" class="answer" ref={node.unwrap_or_default()}
                aria-keyshortcuts={key.clone()} {onclick}>
                if said != Said::Accepted {
                    <span class="visually-hidden">{"Rejected: "}</span>
                }
                {said.label()}<kbd aria-hidden="true">{key}</kbd>
            </button>
        }
    };
    let body = match &state.asking {
        Some(q) => {
            let of = if q.of > 1 {
                format!(" (verdict {} of {})", q.index + 1, q.of)
            } else {
                String::new()
            };
            html! {
                <>
                    <p class="question"><strong>{format!("Before step {}{of}: ", q.step)}</strong>{q.text.clone()}</p>
                    <div class="answers">
                        {answer(Said::Accepted, Some(first.clone()))}
                        <div class="reasons" role="group" aria-labelledby="rejected-h">
                            <span id="rejected-h" class="reasons-label">{"Rejected — why?"}</span>
                            for s in q.offered.iter().filter(|s| **s != Said::Accepted) {
                                {answer(*s, None)}
                            }
                        </div>
                    </div>
                </>
            }
        }
        None => {
            let at_end = state.at_end();
            let score = state.predict.score(&state.key(), &state.run);
            let cursor = state.run.cursor();
            html! {
                <>
                    if !at_end {
                        <p class="note">{"Step forward: the run stops before each verdict and asks what the resource will do."}</p>
                    }
                    <p class="score" role="status">{score.summary(at_end)}</p>
                    if !score.missed.is_empty() {
                        <p class="note">{"Look again at a verdict you missed:"}</p>
                        <ul class="missed" aria-label="Verdicts you missed">
                            for m in score.missed {
                                <li>
                                    <button type="button" class="small"
                                        aria-current={(m.step == cursor).then_some("step")}
                                        onclick={let d = d.clone(); Callback::from(move |_: MouseEvent| d.dispatch(Msg::Seek(m.step)))}>
                                        {m.text}
                                    </button>
                                </li>
                            }
                        </ul>
                    }
                </>
            }
        }
    };
    html! {
        <section class="panel predict" aria-labelledby="predict-h">
            <h2 id="predict-h" ref={heading} tabindex="-1">{"Predict the verdict"}</h2>
            {body}
        </section>
    }
}

/// Where the focus goes when a question appears (`asking`) or has been answered.
fn move_focus(asking: bool, first: &NodeRef, heading: &NodeRef) {
    if asking {
        if let Some(b) = first.cast::<HtmlElement>() {
            let _ = b.focus();
        }
        return;
    }
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    // Only when the answer's button took the focus away with it.
    if doc
        .active_element()
        .is_some_and(|a| !a.tag_name().eq_ignore_ascii_case("body"))
    {
        return;
    }
    let forward = doc
        .query_selector("button[aria-label='Step forward']:not([disabled])")
        .ok()
        .flatten()
        .and_then(|b| b.dyn_into::<HtmlElement>().ok());
    if let Some(b) = forward.or_else(|| heading.cast::<HtmlElement>()) {
        let _ = b.focus();
    }
}

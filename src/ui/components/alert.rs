//! The error message (a broken link, bad embed options, a refused step), at the top of the
//! page or the frame and announced to screen readers (`role="alert"`): first in the page, so
//! it is in the first screenful at any width, and sticky, so an error caused further down
//! stays in view.

use crate::ui::state::use_app;
use crate::view::state::Msg;
use yew::prelude::*;

#[component]
pub fn ErrorBar() -> Html {
    let state = use_app();
    let dismiss = {
        let d = state.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::DismissError))
    };
    let Some(e) = &state.error else {
        return html! {};
    };
    html! {
        // An element with role="alert" is announced when it is added to the page.
        <div class="error-bar" role="alert">
            <p>{e.clone()}</p>
            <button type="button" class="small" onclick={dismiss}>{"Dismiss"}</button>
        </div>
    }
}

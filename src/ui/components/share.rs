//! "Copy link": the whole view in the URL hash (src/link.rs). Setting the hash adds a
//! history entry, so back and forward move between the views the user chose to link.

use crate::ui::state::use_app;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[component]
pub fn Share() -> Html {
    let state = use_app();
    let shown = use_state_eq(|| None::<String>);
    let input = use_node_ref();
    let on_copy = {
        let state = state.clone();
        let shown = shown.clone();
        Callback::from(move |_| {
            let Some(window) = web_sys::window() else {
                return;
            };
            let link = state.link();
            let _ = window.location().set_hash(&link);
            let href = window
                .location()
                .href()
                .unwrap_or_else(|_| format!("#{link}"));
            copy_to_clipboard(&window, &href);
            shown.set(Some(href));
        })
    };
    {
        // Select the link so it can be copied by hand where the clipboard is not allowed.
        let input = input.clone();
        use_effect_with((*shown).clone(), move |_| {
            if let Some(i) = input.cast::<HtmlInputElement>() {
                i.select();
            }
        });
    }
    // A link shown for an earlier view would be stale: show it only for this one.
    let current = (*shown)
        .as_ref()
        .filter(|h| h.ends_with(&state.link()))
        .cloned();
    html! {
        <div class="share">
            <button type="button" class="small" onclick={on_copy}>{"Copy link"}</button>
            if let Some(href) = current {
                <input class="share-link" ref={input} type="text" readonly=true value={href} aria-label="Link to this view" />
                <span class="share-note" role="status">{"Link copied: it opens this scenario at this step."}</span>
            }
        </div>
    }
}

/// `navigator.clipboard.writeText`, where the page may use it (a secure context; an iframe
/// may be denied): failing is fine, the link is shown selected beside the button.
pub(crate) fn copy_to_clipboard(window: &web_sys::Window, text: &str) {
    let navigator = window.navigator();
    let clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"));
    if let Ok(c) = clipboard {
        if let Ok(write) = js_sys::Reflect::get(&c, &JsValue::from_str("writeText")) {
            if let Ok(f) = write.dyn_into::<js_sys::Function>() {
                // The promise may reject (no permission): nothing depends on it, but an
                // unhandled rejection is an error in the console, so it is caught.
                if let Ok(promise) = f.call1(&c, &JsValue::from_str(text)) {
                    let ignore = wasm_bindgen::closure::Closure::once_into_js(|_: JsValue| {});
                    if let Ok(catch) = js_sys::Reflect::get(&promise, &JsValue::from_str("catch"))
                        .and_then(|f| f.dyn_into::<js_sys::Function>())
                    {
                        let _ = catch.call1(&promise, &ignore);
                    }
                }
            }
        }
    }
}

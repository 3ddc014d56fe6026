//! "Embed": a dialog with the iframe snippet that shows the current view in another page
//! (docs/embedding.md). The snippet itself is `view::embed::snippet`.

use super::share::copy_to_clipboard;
use crate::ui::hooks::{trap_tab, use_dialog_focus};
use crate::ui::state::use_app;
use crate::view::embed::{guide_page, snippet};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

/// This page's address without its query and hash: where the iframe points.
fn app_url() -> String {
    web_sys::window()
        .map(|w| w.location())
        .and_then(|l| Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?)))
        .unwrap_or_default()
}

/// This page's path (`/app/index.html`): where the guide's page on embedding is found.
fn app_path() -> String {
    web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_default()
}

#[component]
pub fn EmbedDialog() -> Html {
    let state = use_app();
    let open = use_state_eq(|| false);
    let autoplay = use_state_eq(|| false);
    let sandbox = use_state_eq(|| false);
    let copied = use_state_eq(|| false);
    let opener = use_node_ref();
    let area = use_node_ref();
    use_dialog_focus(*open, area.clone(), opener.clone());
    {
        // The snippet is selected whenever it changes, ready to copy by hand.
        let area = area.clone();
        use_effect_with((*open, *autoplay, *sandbox, state.version), move |_| {
            if let Some(a) = area.cast::<HtmlTextAreaElement>() {
                a.select();
            }
        });
    }
    let set = |flag: &UseStateHandle<bool>, to: bool| {
        let flag = flag.clone();
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            flag.set(to);
            copied.set(false);
        })
    };
    let toggle = |flag: &UseStateHandle<bool>| {
        let flag = flag.clone();
        let copied = copied.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            flag.set(on);
            copied.set(false);
        })
    };
    if !*open {
        return html! {
            <button type="button" class="small" ref={opener} onclick={set(&open, true)} aria-haspopup="dialog">{"Embed"}</button>
        };
    }
    // Only while open: the frame's height comes from the timeline's layout.
    let snip = snippet(&state, &app_url(), *autoplay, *sandbox);
    let copy = {
        let html = snip.html.clone();
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(w) = web_sys::window() {
                copy_to_clipboard(&w, &html);
            }
            copied.set(true);
        })
    };
    let close = set(&open, false);
    let onkeydown = {
        let open = open.clone();
        Callback::from(move |e: KeyboardEvent| {
            // No key reaches the page's shortcuts: arrows and Space would step or play the
            // run behind the backdrop.
            e.stop_propagation();
            if e.key() == "Escape" {
                open.set(false);
            }
            trap_tab(&e);
        })
    };
    html! {
        <>
            <button type="button" class="small" ref={opener} onclick={set(&open, true)} aria-haspopup="dialog">{"Embed"}</button>
            <div class="backdrop">
                <div class="dialog embed-dialog" role="dialog" aria-modal="true" aria-labelledby="embed-h" {onkeydown}>
                    <h2 id="embed-h">{"Embed this view"}</h2>
                    <p>{"Paste this into a documentation page: it shows the timeline, the controls and the narration of "}<strong>{state.current().title.clone()}</strong>{", at this step, under this policy."}</p>
                    <label class="check"><input type="checkbox" checked={*autoplay} onchange={toggle(&autoplay)} />{" Play automatically"}</label>
                    <label class="check"><input type="checkbox" checked={*sandbox} onchange={toggle(&sandbox)} />{" Show the sandbox buttons"}</label>
                    <label class="field" for="embed-snippet"><b>{"Embed snippet"}</b></label>
                    <textarea id="embed-snippet" class="snippet" ref={area} readonly=true rows="6" value={snip.html} />
                    <p class="note">{"Options and how to size the frame: "}
                        <a href={guide_page(&app_path())} target="_blank" rel="noopener">{"Embedding Fencing Lab"}</a>
                        {" (docs/embedding.md). "}
                        <a href={snip.src} target="_blank" rel="noopener">{"Preview the embed"}</a></p>
                    <div class="dialog-actions">
                        <button type="button" onclick={copy}>{"Copy snippet"}</button>
                        <button type="button" onclick={close}>{"Close"}</button>
                        if *copied { <span role="status" class="share-note">{"Snippet copied (or select it above and copy)."}</span> }
                    </div>
                </div>
            </div>
        </>
    }
}

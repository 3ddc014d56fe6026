//! The app's timers (the play timer; slices of long work; a one-off cleanup), the explorer's
//! Web Worker (`use_worker`) and the keyboard shortcuts. Components own no timers (`tests/tidy.rs` holds it).

use crate::ui::state::AppCtx;
use crate::view::state::{shortcut, Msg};
use gloo_events::{EventListener, EventListenerOptions};
use gloo_timers::callback::{Interval, Timeout};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::HtmlElement;
use yew::prelude::*;

/// While playing, one step every `speed` ms. The interval lives exactly as long as
/// (playing, speed) stay the same: a change drops it and, if still playing, starts another.
#[hook]
pub fn use_player(state: &AppCtx) {
    let dispatcher = state.dispatcher();
    use_effect_with((state.playing, state.speed), move |&(playing, speed)| {
        let interval =
            playing.then(|| Interval::new(speed, move || dispatcher.dispatch(Msg::Tick)));
        move || drop(interval)
    });
}

/// Space, arrows, Home, End, `?` and Escape on the whole document, and predict mode's answer
/// letters while it asks (see `view::state::shortcut`).
#[hook]
pub fn use_keyboard(state: &AppCtx) {
    let dispatcher = state.dispatcher();
    let offered = state
        .asking
        .as_ref()
        .map(|q| q.offered.clone())
        .unwrap_or_default();
    use_effect_with((state.help_open, offered), move |(help_open, offered)| {
        let (help_open, offered) = (*help_open, offered.clone());
        // Removed when the effect is cleaned up (the listener is dropped).
        let listener = web_sys::window().and_then(|w| w.document()).map(|d| {
            EventListener::new_with_options(
                &d,
                "keydown",
                EventListenerOptions::enable_prevent_default(),
                move |e| {
                    let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                        return;
                    };
                    let tag = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .map(|el| el.tag_name().to_ascii_lowercase())
                        .unwrap_or_default();
                    let in_field = matches!(tag.as_str(), "input" | "select" | "textarea");
                    let on_button = matches!(tag.as_str(), "button" | "a" | "summary");
                    let modified = e.ctrl_key() || e.meta_key() || e.alt_key();
                    if let Some(msg) =
                        shortcut(&e.key(), in_field, on_button, modified, help_open, &offered)
                    {
                        e.prevent_default();
                        dispatcher.dispatch(msg);
                    }
                },
            )
        });
        move || drop(listener)
    });
}

/// The URL hash: a link (`#v1.…`) in it is opened at start-up and whenever the hash changes
/// (back and forward between linked views); anything else there but `#panic` is a link that
/// could not be read, and says so (`link::fragment_to_open`).
#[hook]
pub fn use_link(state: &AppCtx) {
    let dispatcher = state.dispatcher();
    use_effect_with((), move |_| {
        let open = move || {
            let hash = web_sys::window()
                .and_then(|w| w.location().hash().ok())
                .unwrap_or_default();
            if let Some(link) = crate::link::fragment_to_open(&hash) {
                dispatcher.dispatch(Msg::OpenLink(link));
            }
        };
        open();
        let open = Rc::new(open);
        // Back and Forward between the entries `navigate` pushed fire popstate (and, the
        // fragment having changed, hashchange too: opening our own link again is a no-op).
        let listeners = web_sys::window().map(|w| {
            ["hashchange", "popstate"].map(|kind| {
                let open = open.clone();
                EventListener::new(&w, kind, move |_| open())
            })
        });
        move || drop(listeners)
    });
}

/// The preset file the state waits for (`AppState::loading`), fetched from the `presets/`
/// folder beside the page (trunk copies it there) and checked before it is kept
/// (`presets::provide`). A pick in the picker becomes a step in the browser's history once
/// its file is here; a failure is an error that keeps the run on screen.
#[hook]
pub fn use_preset_loader(state: &AppCtx) {
    let id = state.loading.as_ref().map(|l| l.id.clone());
    let state = state.clone();
    use_effect_with(id, move |id| {
        // Cleared when another preset is asked for or none is: a late answer is then only kept.
        let wanted = Rc::new(std::cell::Cell::new(true));
        if let Some(id) = id.clone() {
            let still = wanted.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let fetched = fetch_text(&format!("presets/{id}.json"))
                    .await
                    .and_then(|text| match crate::sim::Scenario::from_json(&text) {
                        Ok(_) => Ok(text),
                        Err(e) => Err(format!("its file is not a scenario: {e}")),
                    });
                let picked = state
                    .loading
                    .as_ref()
                    .is_some_and(|l| matches!(*l.then, Msg::LoadId(_)));
                match fetched {
                    Ok(text) => {
                        crate::presets::provide(&id, text);
                        match (still.get(), picked) {
                            (true, true) => navigate(&state, Msg::PresetArrived(id)),
                            (true, false) => state.dispatch(Msg::PresetArrived(id)),
                            (false, _) => {}
                        }
                    }
                    Err(why) if still.get() => state.dispatch(Msg::PresetFailed(id, why)),
                    Err(_) => {}
                }
            });
        }
        move || wanted.set(false)
    });
}

/// The text of a file of the page's own site, or why not.
async fn fetch_text(url: &str) -> Result<String, String> {
    use wasm_bindgen_futures::JsFuture;
    let window = web_sys::window().ok_or("the page has no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| "the network did not answer".to_string())?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| "the answer was not a response".to_string())?;
    if !response.ok() {
        return Err(format!("the server answered {}", response.status()));
    }
    let text = response
        .text()
        .map_err(|_| "its body could not be read".to_string())?;
    JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| "its body could not be read".to_string())
}

/// Change the view (another scenario or policy) as a step in the browser's history: the
/// current entry is rewritten to the view as it is now (its step, its actions), and the new
/// view gets an entry of its own, so Back returns to exactly where the reader was.
pub fn navigate(state: &AppCtx, msg: Msg) {
    let history = web_sys::window().and_then(|w| w.history().ok());
    if let Some(h) = history {
        let mut next = (**state).clone();
        // A preset still to be fetched: the step is taken when it is here (`use_preset_loader`).
        if next.apply(msg.clone()) && next.loading.is_none() {
            let here = format!("#{}", state.link());
            let there = format!("#{}", next.link());
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&here));
            let _ = h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&there));
        }
    }
    state.dispatch(msg);
}

/// The `onkeydown` of a modal dialog (`aria-modal="true"`): Tab from its last control goes to
/// its first, Shift+Tab from its first to its last, so the keyboard cannot wander into the
/// page behind the backdrop.
pub fn trap_tab(e: &KeyboardEvent) {
    if e.key() != "Tab" {
        return;
    }
    // Yew delegates events, so the current target is the app's root: find the dialog from
    // the focused element.
    let Some(dialog) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|t| t.closest("[role=dialog]").ok().flatten())
    else {
        return;
    };
    let Ok(list) = dialog.query_selector_all(
        "button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea, [tabindex]:not([tabindex='-1'])",
    ) else {
        return;
    };
    let n = list.length();
    let (Some(first), Some(last)) = (list.item(0), list.item(n.saturating_sub(1))) else {
        return;
    };
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
    let is = |node: &web_sys::Node| active.as_ref().is_some_and(|a| node.is_same_node(Some(a)));
    let to = if e.shift_key() && is(&first) {
        last
    } else if !e.shift_key() && is(&last) {
        first
    } else {
        return;
    };
    if let Ok(el) = to.dyn_into::<HtmlElement>() {
        e.prevent_default();
        let _ = el.focus();
    }
}

/// A dialog's focus: into `inside` when it opens, back to its `opener` button when it closes
/// (unless the user already moved focus somewhere else). Nothing on mount: a page — or an
/// embedded frame — must not take the reader's focus by loading.
#[hook]
pub fn use_dialog_focus(open: bool, inside: NodeRef, opener: NodeRef) {
    let was_open = use_mut_ref(|| false);
    use_effect_with(open, move |&open| {
        let closed = std::mem::replace(&mut *was_open.borrow_mut(), open) && !open;
        if open {
            if let Some(el) = inside.cast::<HtmlElement>() {
                let _ = el.focus();
            }
        } else if let Some(el) = opener.cast::<HtmlElement>().filter(|_| closed) {
            let active = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element());
            if active.is_none_or(|a| a.tag_name().eq_ignore_ascii_case("body")) {
                let _ = el.focus();
            }
        }
    });
}

/// Long work in slices: while started, `work` runs once per turn of the event loop, from a
/// chain of zero-delay timeouts, until it returns false; the page repaints and handles input
/// between slices. Returns (start, stop). The component re-renders after every slice.
#[hook]
pub fn use_slices(work: Rc<dyn Fn() -> bool>) -> (Callback<()>, Callback<()>) {
    // 0: idle; otherwise the slice to run next, numbered so each one re-arms the effect.
    let turn = use_state_eq(|| 0u64);
    let next = use_mut_ref(|| 0u64);
    let latest = use_mut_ref(|| work.clone());
    *latest.borrow_mut() = work;
    {
        let (turn, next) = (turn.clone(), next.clone());
        use_effect_with(*turn, move |&n| {
            let timer = (n > 0).then(|| {
                Timeout::new(0, move || {
                    let go = (latest.borrow().clone())();
                    let mut k = next.borrow_mut();
                    *k += 1;
                    turn.set(if go { *k } else { 0 });
                })
            });
            move || drop(timer)
        });
    }
    let start = {
        let (turn, next) = (turn.clone(), next.clone());
        Callback::from(move |_| {
            let mut k = next.borrow_mut();
            *k += 1;
            turn.set(*k);
        })
    };
    let stop = Callback::from(move |_| turn.set(0));
    (start, stop)
}

/// A Web Worker a component talks to: `start` starts a fresh one at `url` (ending the one
/// before), `post` sends it a message, `stop` terminates it at once — the way to cancel, and
/// what frees its memory. Its messages (text) go to `on_message`; a failure to load or a
/// crash in it, in words, to `on_error`. It is terminated when the component unmounts.
#[derive(Clone)]
pub struct WorkerLink {
    pub start: Callback<()>,
    pub post: Callback<String>,
    pub stop: Callback<()>,
}

/// A running worker and the handlers it calls, which must outlive every call into them.
struct LiveWorker {
    worker: web_sys::Worker,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl LiveWorker {
    fn end(self) {
        self.worker.terminate();
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        // A handler may be what stopped it (a final message): drop the closures after it
        // has returned, not inside it.
        Timeout::new(0, move || drop(self)).forget();
    }
}

#[hook]
pub fn use_worker(
    url: &'static str,
    on_message: Callback<String>,
    on_error: Callback<String>,
) -> WorkerLink {
    let live: Rc<RefCell<Option<LiveWorker>>> = use_mut_ref(|| None);
    let latest = use_mut_ref(|| (on_message.clone(), on_error.clone()));
    *latest.borrow_mut() = (on_message, on_error);
    {
        let live = live.clone();
        use_effect_with((), move |_| {
            move || {
                if let Some(w) = live.borrow_mut().take() {
                    w.end();
                }
            }
        });
    }
    let stop = {
        let live = live.clone();
        Callback::from(move |_: ()| {
            let w = live.borrow_mut().take();
            if let Some(w) = w {
                w.end();
            }
        })
    };
    let post = {
        let live = live.clone();
        Callback::from(move |text: String| {
            if let Some(w) = live.borrow().as_ref() {
                let _ = w.worker.post_message(&JsValue::from_str(&text));
            }
        })
    };
    let start = {
        let stop = stop.clone();
        Callback::from(move |_: ()| {
            stop.emit(());
            let said = {
                let latest = latest.clone();
                Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                    let text = e.data().as_string().unwrap_or_default();
                    let cb = latest.borrow().0.clone();
                    cb.emit(text);
                })
            };
            let failed = {
                let latest = latest.clone();
                Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
                    let what = e.message();
                    let cb = latest.borrow().1.clone();
                    cb.emit(if what.is_empty() {
                        "the explorer's worker could not be loaded".to_string()
                    } else {
                        format!("the explorer's worker failed ({what})")
                    });
                })
            };
            match web_sys::Worker::new(url) {
                Ok(worker) => {
                    worker.set_onmessage(Some(said.as_ref().unchecked_ref()));
                    worker.set_onerror(Some(failed.as_ref().unchecked_ref()));
                    *live.borrow_mut() = Some(LiveWorker {
                        worker,
                        _on_message: said,
                        _on_error: failed,
                    });
                }
                Err(e) => {
                    let what = e.as_string().unwrap_or_else(|| "refused".to_string());
                    let cb = latest.borrow().1.clone();
                    cb.emit(format!(
                        "the explorer's worker could not be started ({what})"
                    ));
                }
            }
        })
    };
    WorkerLink { start, post, stop }
}

/// Work kept in a component's own state, done in slices: each time `turn` changes to a
/// `Some`, `next` runs once from a zero-delay timeout, so the page repaints and handles input
/// between slices. The slice's re-render brings the next turn; `None` (done, cancelled)
/// drops the one pending.
#[hook]
pub fn use_slice_chain<T: PartialEq + 'static>(turn: Option<T>, next: Callback<()>) {
    use_effect_with(turn, move |turn| {
        let timer = turn
            .is_some()
            .then(|| Timeout::new(0, move || next.emit(())));
        move || drop(timer)
    });
}

/// Run `f` once after `ms` milliseconds, tied to no component: the cleanup of a browser
/// resource that outlives the click that made it (an exported file's object URL).
pub fn after(ms: u32, f: impl FnOnce() + 'static) {
    Timeout::new(ms, f).forget();
}

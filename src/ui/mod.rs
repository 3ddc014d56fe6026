//! The Yew single-page app. It renders what `crate::view` computes from a `Run` and
//! dispatches `view::state::Msg`s; it holds no logic of its own.
//!
//! - [`state`]: `AppState` as yew's `Reducible`, shared through a context.
//! - `hooks`: the one play timer and the keyboard shortcuts.
//! - `components`: one file per panel.
//!
//! A panic shows the fixed `#error-panel` of index.html, filled in with plain DOM calls
//! (Yew is gone by then). Opening the app with the URL hash `#panic` (or the query
//! `?panic`) panics on purpose right after mount: the end-to-end tests use it to check that
//! a panic never leaves a blank page.

mod components;
mod hooks;
pub mod state;

pub use components::app::{App, EmbedApp};

use wasm_bindgen::JsCast;

/// Mount the whole page into `#app` (or the body), or embed mode when the address asks for
/// it, and install the panic hook. The page's loader starts embed mode from its own module
/// (`start_embed`); this covers a page built without it.
pub fn start() {
    let search = web_sys::window().and_then(|w| w.location().search().ok());
    if crate::view::embed::EmbedOptions::parse(&search.unwrap_or_default()).is_some() {
        start_embed();
    } else {
        install_panic_hook();
        yew::Renderer::<App>::with_root(root()).render();
    }
}

/// Mount embed mode (`src/bin/embed.rs`: a module without the full page's panels).
pub fn start_embed() {
    install_panic_hook();
    yew::Renderer::<EmbedApp>::with_root(root()).render();
}

/// Mount a tool's body (`kind`) in `host`, for the tools module (`src/bin/tools.rs`): the
/// page's `ToolSlot` asks for it when its section is first opened. `open_run` gets a run to
/// show in the page's timeline, as a scenario file's text and its actions' JSON. False for
/// a kind this module does not have.
pub fn mount_tool(
    kind: &str,
    host: web_sys::Element,
    open_run: impl Fn(String, String) + 'static,
) -> bool {
    use crate::view::state::Msg;
    let on_open = yew::Callback::from(move |m: Msg| {
        if let Msg::LoadScenario(s, actions) = m {
            let actions = serde_json::to_string(&actions);
            if let (Ok(scenario), Ok(actions)) = (serde_json::to_string(&*s), actions) {
                open_run(scenario, actions);
            }
        }
    });
    keep_clear_of_the_page();
    match kind {
        "lab" => {
            use components::lab::{LabBody, LabBodyProps};
            yew::Renderer::<LabBody>::with_root_and_props(host, LabBodyProps { on_open }).render();
            true
        }
        _ => false,
    }
}

/// How many Yew roots the page's module may make: one, `App` (it renders no portals; a
/// test in tests/tidy.rs holds it to that).
const PAGE_ROOTS: usize = 1;

/// Yew finds which app an event belongs to by a subtree id written on elements
/// (`__yew_subtree_id`), counted from 1 in each WASM module. The tools module's apps sit
/// inside the page's: had they the page's id, the page would take their events for its own
/// and run its handler of the same number (a lab button pressing a sandbox button). So before
/// its first app, this module spends the ids the page uses, on roots that render nothing.
fn keep_clear_of_the_page() {
    #[yew::component]
    fn Nothing() -> yew::Html {
        yew::Html::default()
    }
    thread_local! {
        static CLEAR: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if CLEAR.with(|c| c.replace(true)) {
        return;
    }
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    for _ in 0..PAGE_ROOTS {
        if let Ok(spare) = document.create_element("div") {
            yew::Renderer::<Nothing>::with_root(spare).render();
        }
    }
}

/// `#app`, or the body.
fn root() -> web_sys::Element {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .expect("a document");
    document
        .get_element_by_id("app")
        .or_else(|| document.body().map(|b| b.unchecked_into()))
        .expect("a body")
}

/// Log a panic to the console and show it in the error panel.
pub fn install_panic_hook() {
    yew::set_custom_panic_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_error(&info.to_string());
    }));
}

/// Write the message into `#error-panel` (creating it if the page has none) and show it.
fn show_error(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let panel = match document.get_element_by_id("error-panel") {
        Some(p) => p,
        None => {
            let Ok(p) = document.create_element("div") else {
                return;
            };
            p.set_id("error-panel");
            let _ = p.set_attribute("role", "alert");
            p.set_text_content(Some("Fencing Lab has stopped: the app hit a bug (a panic). Reload the page to start again."));
            if let Some(body) = document.body() {
                let _ = body.append_child(&p);
            }
            p
        }
    };
    let text = format!("panic: {message}");
    match document.get_element_by_id("error-message") {
        Some(m) => m.set_text_content(Some(&text)),
        None => {
            if let Ok(pre) = document.create_element("pre") {
                pre.set_text_content(Some(&text));
                let _ = panel.append_child(&pre);
            }
        }
    }
    let _ = panel.remove_attribute("hidden");
}

/// Before work that may run long: tell the fault panel (static/trap.js) what is being done
/// and the link to the view as it is now, so that a WebAssembly fault (out of memory, say,
/// which no panic hook sees) names what it stopped and offers the run the user had.
/// `?trap` in the address faults here on purpose, for the end-to-end tests.
pub(crate) fn before_long_work(what: &str, link: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(panel) = document.get_element_by_id("error-panel") {
        let _ = panel.set_attribute("data-doing", what);
        let _ = panel.set_attribute("data-link", &format!("#{link}"));
    }
    if query_has("trap") {
        core::arch::wasm32::unreachable();
    }
}

/// Whether the address's query names `flag` (`?panic`, `?trap`).
fn query_has(flag: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|s| s.trim_start_matches('?').split('&').any(|p| p == flag))
}

/// True when the page asks for a deliberate panic (`#panic` or `?panic`).
pub(crate) fn panic_requested() -> bool {
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return false;
    };
    loc.hash().unwrap_or_default() == "#panic" || query_has("panic")
}

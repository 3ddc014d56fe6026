//! A tool section whose body is not in the page's first load: the `<details>` and its summary
//! are the page's; when the section is first opened, the tools module (`src/bin/tools.rs`) is
//! fetched (the page's loader, scripts/loader.js: `fencingLabTools`) and mounts the body
//! inside (`ui::mount_tool`). Until then it says "Loading…"; a failure says so, keeps the
//! run, and opening the section again tries again. What the body sends back (a run to
//! open) comes as text and is read as an import is.

use super::{show_timeline, tool_summary};
use crate::sim::{Action, Scenario};
use crate::ui::state::use_app;
use crate::view::state::Msg;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::Element;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ToolSlotProps {
    /// Which body the tools module mounts (`ui::mount_tool`).
    pub kind: AttrValue,
    pub title: AttrValue,
    /// The summary's sentence: what the tool is for.
    pub about: AttrValue,
    /// The section's classes besides `tool panel`.
    pub class: AttrValue,
}

#[derive(Clone, PartialEq)]
enum Body {
    Closed,
    Loading,
    Shown,
    Failed(String),
}

#[component]
pub fn ToolSlot(props: &ToolSlotProps) -> Html {
    let state = use_app();
    let body = use_state_eq(|| Body::Closed);
    let host = use_node_ref();
    let ontoggle = {
        let (body, host, d) = (body.clone(), host.clone(), state.dispatcher());
        let kind = props.kind.to_string();
        Callback::from(move |e: Event| {
            let el: Element = e.target_unchecked_into();
            let reopened = matches!(*body, Body::Closed | Body::Failed(_));
            if !el.has_attribute("open") || !reopened {
                return;
            }
            body.set(Body::Loading);
            let (body, host, d, kind) = (body.clone(), host.clone(), d.clone(), kind.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let open_run = move |scenario: String, actions: String| {
                    let run = Scenario::from_json(&scenario).and_then(|s| {
                        serde_json::from_str::<Vec<Action>>(&actions)
                            .map(|a| (s, a))
                            .map_err(|e| e.to_string())
                    });
                    if let Ok((s, a)) = run {
                        d.dispatch(Msg::LoadScenario(Box::new(s), a));
                        show_timeline();
                    }
                };
                match mount(&kind, host.cast::<Element>(), open_run).await {
                    Ok(()) => body.set(Body::Shown),
                    Err(why) => body.set(Body::Failed(why)),
                }
            });
        })
    };
    html! {
        <details class={classes!("tool", "panel", props.class.to_string())} {ontoggle}>
            {tool_summary(&props.title, &props.about)}
            if *body == Body::Loading {
                <p class="note" role="status">{format!("Loading the {}…", props.title.to_lowercase())}</p>
            }
            if let Body::Failed(why) = &*body {
                <p class="tool-error" role="alert">
                    {format!("The {} could not be loaded: {why}. Your run is as it was; close this section and open it again to try again.", props.title.to_lowercase())}
                </p>
            }
            // The tools module renders here; the page renders nothing inside it.
            <div class="tool-body" ref={host}></div>
        </details>
    }
}

/// Fetch the tools module (once: the loader keeps its promise) and mount `kind` in `host`.
async fn mount(
    kind: &str,
    host: Option<Element>,
    open_run: impl Fn(String, String) + 'static,
) -> Result<(), String> {
    let host = host.ok_or("the page has no place for it")?;
    let window = web_sys::window().ok_or("the page has no window")?;
    let load: js_sys::Function = js_sys::Reflect::get(&window, &"fencingLabTools".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or("this page was built without the tools module's loader")?;
    let promise: js_sys::Promise = load
        .call0(&JsValue::NULL)
        .ok()
        .and_then(|p| p.dyn_into().ok())
        .ok_or("its loader did not start")?;
    let tools = JsFuture::from(promise).await.map_err(|e| {
        e.as_string()
            .unwrap_or_else(|| "its files could not be fetched".into())
    })?;
    let mount: js_sys::Function = js_sys::Reflect::get(&tools, &"mount_tool".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or("the tools module has no mount_tool")?;
    // Lives as long as the page: the body keeps calling it.
    let open_run = Closure::<dyn Fn(String, String)>::new(open_run).into_js_value();
    let mounted = mount
        .call3(&JsValue::NULL, &kind.into(), &host, &open_run)
        .map_err(|_| "it failed to start".to_string())?;
    match mounted.as_bool() {
        Some(true) => Ok(()),
        _ => Err(format!("the tools module has no “{kind}”")),
    }
}

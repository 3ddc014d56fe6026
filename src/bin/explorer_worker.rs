//! The explorer's Web Worker: trunk builds this binary as a worker (index.html,
//! `data-type="worker"`), loaded only when a search starts. It is the model and the codec of
//! `view::search` and nothing else: no Yew, no DOM. It says it is ready, runs the one search
//! it is asked for (`view::search::serve`, posting progress and the report) and is then
//! terminated by the page, which is also how Cancel stops it at once.

#[cfg(target_arch = "wasm32")]
fn main() {
    use fencing_lab::view::search::{serve, Reply};
    use wasm_bindgen::{closure::Closure, JsCast, JsValue};
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let replies = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let text = e.data().as_string().unwrap_or_default();
        serve(&text, &mut js_sys::Date::now, &mut |reply: String| {
            let _ = replies.post_message(&JsValue::from_str(&reply));
        });
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as its handler: the page terminates it.
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(&Reply::Ready.encode()));
}

/// Natively there is no worker: the command line's `check` runs the same search.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("explorer-worker runs in a browser (a Web Worker of the app); natively, run `fencing-lab check`");
    std::process::exit(2);
}

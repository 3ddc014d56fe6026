//! The tools module: the bodies of the page's tool sections that are not in its first load
//! (today the lease-duration lab), mounted when a section is first opened. trunk builds it
//! beside the app as it builds a worker (index.html: no loader of its own); the page's loader
//! (scripts/loader.js, `fencingLabTools`) fetches it on demand and calls `mount_tool`.

#[cfg(target_arch = "wasm32")]
mod web {
    use wasm_bindgen::prelude::*;

    /// Mount the body of tool `kind` in `host`; `open_run(scenario, actions)` shows a run in
    /// the page (`ui::mount_tool`). False for a kind this module does not have.
    #[wasm_bindgen]
    pub fn mount_tool(kind: &str, host: web_sys::Element, open_run: js_sys::Function) -> bool {
        fencing_lab::ui::mount_tool(kind, host, move |scenario, actions| {
            let _ = open_run.call2(&JsValue::NULL, &scenario.into(), &actions.into());
        })
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    fencing_lab::ui::install_panic_hook();
}

/// Natively there is no page.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("fencing-lab-tools runs in a browser (the app's tool sections); natively, run `fencing-lab`");
    std::process::exit(2);
}

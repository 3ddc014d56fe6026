//! Embed mode's own module (`?embed…`, docs/embedding.md): the timeline, the controls, the
//! narration, predict mode and the sandbox, without the full page's panels (compare, explore,
//! the lab, export and import, the embed dialog). trunk builds it beside the app (index.html)
//! and the page's loader (scripts/loader.js) starts it instead of the app when the address
//! asks for embed mode, so a documentation page's frame loads only what it shows.

#[cfg(target_arch = "wasm32")]
fn main() {
    fencing_lab::ui::start_embed();
}

/// Natively there is no page: the command line is `fencing-lab`.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "fencing-lab-embed runs in a browser (embed mode of the app); natively, run `fencing-lab`"
    );
    std::process::exit(2);
}

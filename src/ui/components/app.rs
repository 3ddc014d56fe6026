//! The whole page: the state, its context, the timer and keyboard hooks, and the panels.

use super::alert::ErrorBar;
use super::compare::Compare;
use super::controls::{Controls, PlayOptions};
use super::embed_dialog::EmbedDialog;
use super::event_log::EventLog;
use super::explorer::ExplorePanel;
use super::export::Export;
use super::in_flight::InFlight;
use super::inspector::Inspector;
use super::narration::Narration;
use super::picker::Picker;
use super::predict::Predict;
use super::sandbox::Sandbox;
use super::share::Share;
use super::shortcuts::Shortcuts;
use super::timeline::Timeline;
use super::tool_slot::ToolSlot;
use crate::ui::hooks::{use_keyboard, use_link, use_player, use_preset_loader};
use crate::ui::state::AppCtx;
use crate::view::embed::EmbedOptions;
use crate::view::state::{load_presets, AppState};
use yew::prelude::*;

/// The address's options (`?preset=…&policy=…&step=…`, with `embed` or without) and the app
/// state they open, with the timers, keys, links and preset loading every page has.
#[hook]
fn use_page() -> (std::rc::Rc<EmbedOptions>, AppCtx) {
    let options = use_memo((), |_| {
        let search = web_sys::window().and_then(|w| w.location().search().ok());
        EmbedOptions::parse_any(&search.unwrap_or_default())
    });
    let state = {
        let options = options.clone();
        use_reducer(move || {
            let mut state = AppState::new(load_presets());
            options.apply(&mut state);
            state
        })
    };
    use_player(&state);
    use_keyboard(&state);
    use_link(&state);
    use_preset_loader(&state);
    use_effect_with((), |_| {
        // `#panic` in the URL: panic on purpose after mount, so the e2e tests can check the
        // error panel (see src/ui/mod.rs).
        if crate::ui::panic_requested() {
            panic!("deliberate panic requested by the URL (#panic), to test the error panel");
        }
    });
    (options, state)
}

/// Embed mode (`?embed…`, docs/embedding.md): only the timeline, the controls and the
/// narration, with predict mode and the sandbox when asked for. The page's loader starts it
/// from a module of its own (`src/bin/embed.rs`), which carries none of the full page's panels.
#[component]
pub fn EmbedApp() -> Html {
    let (options, state) = use_page();
    // The frame's own page: one main landmark, with a heading that names what it shows
    // (the frame's title says the same to the page around it).
    let title = format!("Fencing Lab: {}", state.current().title);
    let busy = state.loading.is_some().to_string();
    html! {
        <ContextProvider<AppCtx> context={state}>
            <ErrorBar />
            <main class={classes!("app", "embed", options.sandbox.then_some("with-hands"))}
                aria-busy={busy}>
                <h1 class="visually-hidden">{title}</h1>
                <Controls />
                <Timeline />
                <div class="story">
                    <Narration hands={options.sandbox} />
                    <Predict />
                    <PlayOptions />
                </div>
                if options.sandbox {
                    <div class="hands">
                        <InFlight />
                        <Sandbox unfolded=true />
                    </div>
                }
                <Shortcuts />
            </main>
        </ContextProvider<AppCtx>>
    }
}

/// The whole page.
#[component]
pub fn App() -> Html {
    let (_, state) = use_page();
    // On a phone the first screen is the question, the bar and the timeline: the page's tools
    // (share, keys, files) move after the main view, in the document as on the screen, so the
    // keyboard meets them in the order they are seen.
    let narrow = web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w < 760.0);
    let tools = html! {
        <>
            <div class="share-row">
                <Share />
                <EmbedDialog />
            </div>
            <Shortcuts />
            <Export />
        </>
    };
    html! {
        <ContextProvider<AppCtx> context={state}>
            <div class="app">
                <ErrorBar />
                <header class="top">
                    <div class="brand">
                        <h1>{"Fencing Lab"}</h1>
                        <p class="tagline">{"Why a lease is not enough to protect a resource, and what a fencing token does."}</p>
                    </div>
                    <Picker />
                    if !narrow {
                        {tools.clone()}
                    }
                </header>
                // Stepping first, sticky above the timeline: on the first screen at any width.
                <Controls />
                <main>
                    <div class="grid">
                        <Timeline />
                        <div class="story">
                            <Narration />
                            <Predict />
                            <PlayOptions />
                        </div>
                        <div class="hands">
                            <InFlight />
                            <Sandbox />
                        </div>
                        <Inspector />
                        <EventLog />
                    </div>
                    // Tools on the scenario above first (the same steps under another policy,
                    // then every order of them), then the lab, which runs its own workload.
                    <Compare />
                    <ExplorePanel />
                    <ToolSlot kind="lab" class="lab" title="Lease-duration lab"
                        about="How long should a lease be? Sweep the TTL over many random runs and chart what it costs — and see that no length makes it safe without fencing." />
                </main>
                if narrow {
                    <section class="top page-tools" aria-label="Share, keys and files">{tools}</section>
                }
            </div>
        </ContextProvider<AppCtx>>
    }
}

//! Export and import: the timeline as SVG or PNG, the run as a scenario file (JSON), and a
//! scenario file back in by picker or by dropping it on the page. What is written and what
//! the panel says come from `view::svg` and `view::file`; this file only moves bytes.
//!
//! Downloads are a Blob behind an object URL clicked through an `<a download>`: no popup and
//! no navigation, so they work in a sandboxed iframe that allows downloads.

use crate::ui::state::use_app;
use crate::view::file;
use crate::view::state::Msg;
use crate::view::svg;
use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Blob, BlobPropertyBag, CanvasRenderingContext2d, DragEvent, HtmlAnchorElement,
    HtmlCanvasElement, HtmlImageElement, HtmlInputElement, Url,
};
use yew::prelude::*;

/// The PNG is drawn at twice the SVG's size, so it stays sharp on a slide.
const PNG_SCALE: u32 = 2;

#[component]
pub fn Export() -> Html {
    let state = use_app();
    let d = state.dispatcher();
    let svg_of = {
        let state = state.clone();
        move || {
            let (id, title) = (&state.current().id, &state.current().title);
            svg::run_svg(&state.run, id, title, &page_sheets())
        }
    };
    let name_of = {
        let state = state.clone();
        move |ext: &str| file::file_name(&state.run, state.current(), ext)
    };
    let on_svg = {
        let (d, svg_of, name_of) = (d.clone(), svg_of.clone(), name_of.clone());
        Callback::from(move |_: MouseEvent| {
            let name = name_of("svg");
            let r = download_text(&svg_of(), "image/svg+xml", &name).map(|_| name);
            d.dispatch(Msg::Exported(r));
        })
    };
    let on_png = {
        let (d, name_of) = (d.clone(), name_of.clone());
        Callback::from(move |_: MouseEvent| {
            let d = d.clone();
            let done = move |r: Result<String, String>| d.dispatch(Msg::Exported(r));
            if let Err(e) = export_png(&svg_of(), name_of("png"), done.clone()) {
                done(Err(e));
            }
        })
    };
    let on_json = {
        let (d, state) = (d.clone(), state.clone());
        Callback::from(move |_: MouseEvent| {
            let name = name_of("json");
            let text = file::export_json(&state.run, state.current(), &state.branches);
            let r = download_text(&text, "application/json", &name).map(|_| name);
            d.dispatch(Msg::Exported(r));
        })
    };
    let on_pick = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<HtmlInputElement>() else {
                return;
            };
            if let Some(f) = input.files().and_then(|fs| fs.get(0)) {
                read_and_import(f.into(), d.clone());
            }
            // The same file can be picked again (after editing it, say).
            input.set_value("");
        })
    };
    {
        // A file dropped anywhere on the page is imported; without this the browser would
        // open the file in place of the app, and the run would be lost.
        let d = d.clone();
        use_effect_with((), move |_| {
            let listeners = web_sys::window().and_then(|w| w.document()).map(|doc| {
                let active = EventListenerOptions::enable_prevent_default();
                let over = EventListener::new_with_options(&doc, "dragover", active, |e| {
                    e.prevent_default()
                });
                let drop = EventListener::new_with_options(&doc, "drop", active, move |e| {
                    e.prevent_default();
                    let file = e
                        .dyn_ref::<DragEvent>()
                        .and_then(|e| e.data_transfer())
                        .and_then(|t| t.files())
                        .and_then(|f| f.get(0));
                    if let Some(f) = file {
                        read_and_import(f.into(), d.clone());
                    }
                });
                (over, drop)
            });
            move || drop(listeners)
        });
    }
    let (status_class, status) = match &state.file_status {
        Some(s) if s.ok => ("file-status", s.text.clone()),
        Some(s) => ("file-status bad", s.text.clone()),
        None => ("file-status", String::new()),
    };
    html! {
        <section class="files" aria-label="Export and import">
            <div class="row">
                <button type="button" class="small" onclick={on_svg}>{"Export SVG"}</button>
                <button type="button" class="small" onclick={on_png}>{"Export PNG"}</button>
                <button type="button" class="small" onclick={on_json}>{"Export JSON"}</button>
                <label class="file-pick">
                    {"Import JSON"}
                    <input class="visually-hidden" type="file" accept=".json,application/json" onchange={on_pick} />
                </label>
            </div>
            <p class="file-hint">{"or drop a .json file on the page"}</p>
            // Always in the page, so a screen reader announces each new message.
            <p class={status_class} role="status" aria-live="polite">{status}</p>
        </section>
    }
}

/// The stylesheets the page linked (static/palette.css, timeline.css, plot.css; trunk adds
/// a hash to each name), as the browser gives their rules back: what an exported file
/// carries, read from the page so the WASM holds no second copy.
pub fn page_sheets() -> svg::Sheets {
    let mut sheets = svg::Sheets::default();
    let Some(list) = web_sys::window()
        .and_then(|w| w.document())
        .map(|d| d.style_sheets())
    else {
        return sheets;
    };
    for sheet in (0..list.length()).filter_map(|i| list.item(i)) {
        let href = sheet.href().ok().flatten().unwrap_or_default();
        let file = href.rsplit('/').next().unwrap_or_default();
        let slot = if file.starts_with("palette") {
            &mut sheets.palette
        } else if file.starts_with("timeline") {
            &mut sheets.timeline
        } else if file.starts_with("plot") {
            &mut sheets.plot
        } else {
            continue;
        };
        let Ok(rules) = sheet.unchecked_into::<web_sys::CssStyleSheet>().css_rules() else {
            continue;
        };
        let text: Vec<String> = (0..rules.length())
            .filter_map(|i| rules.item(i))
            .map(|r| r.css_text())
            .collect();
        *slot = text.join("\n");
    }
    sheets
}

/// Download `blob` as `name`: an object URL clicked through a detached `<a download>`.
fn download_blob(blob: &Blob, name: &str) -> Result<(), String> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let url = Url::create_object_url_with_blob(blob).map_err(js_text)?;
    let a: HtmlAnchorElement = document
        .create_element("a")
        .map_err(js_text)?
        .unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // The download has its own reference by the time this runs.
    crate::ui::hooks::after(10_000, move || {
        let _ = Url::revoke_object_url(&url);
    });
    Ok(())
}

fn text_blob(text: &str, mime: &str) -> Result<Blob, String> {
    let opts = BlobPropertyBag::new();
    opts.set_type(mime);
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(js_text)
}

/// Download `text` as a file `name` of type `mime` (also the lab's chart export).
pub(super) fn download_text(text: &str, mime: &str, name: &str) -> Result<(), String> {
    download_blob(&text_blob(text, mime)?, name)
}

/// Draw the SVG on a canvas through an image, then download the canvas as PNG. `done` gets
/// the outcome of the asynchronous part; an `Err` returned here means nothing started.
fn export_png(
    svg: &str,
    name: String,
    done: impl Fn(Result<String, String>) + Clone + 'static,
) -> Result<(), String> {
    let url =
        Url::create_object_url_with_blob(&text_blob(svg, "image/svg+xml")?).map_err(js_text)?;
    let img = HtmlImageElement::new().map_err(js_text)?;
    let on_error = {
        let (done, url) = (done.clone(), url.clone());
        Closure::once_into_js(move || {
            let _ = Url::revoke_object_url(&url);
            done(Err("the browser could not draw the SVG".into()));
        })
    };
    let on_load = {
        let (img, url) = (img.clone(), url.clone());
        Closure::once_into_js(move || {
            let _ = Url::revoke_object_url(&url);
            if let Err(e) = draw_and_save(&img, name, done.clone()) {
                done(Err(e));
            }
        })
    };
    img.set_onerror(Some(on_error.unchecked_ref()));
    img.set_onload(Some(on_load.unchecked_ref()));
    img.set_src(&url);
    Ok(())
}

fn draw_and_save(
    img: &HtmlImageElement,
    name: String,
    done: impl Fn(Result<String, String>) + 'static,
) -> Result<(), String> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let canvas: HtmlCanvasElement = document
        .create_element("canvas")
        .map_err(js_text)?
        .unchecked_into();
    let (w, h) = (img.natural_width(), img.natural_height());
    canvas.set_width(w * PNG_SCALE);
    canvas.set_height(h * PNG_SCALE);
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .map_err(js_text)?
        .ok_or("no 2d canvas")?
        .unchecked_into();
    // Opaque from the start, as the light theme's panel the SVG paints under its drawing
    // (`svg::written_out`): no pixel of the PNG is transparent, so it reads the same on a
    // dark slide.
    ctx.set_fill_style_str("#fff");
    ctx.fill_rect(0.0, 0.0, f64::from(w * PNG_SCALE), f64::from(h * PNG_SCALE));
    ctx.draw_image_with_html_image_element_and_dw_and_dh(
        img,
        0.0,
        0.0,
        f64::from(w * PNG_SCALE),
        f64::from(h * PNG_SCALE),
    )
    .map_err(js_text)?;
    let on_blob = Closure::once_into_js(move |blob: JsValue| {
        let r = match blob.dyn_into::<Blob>() {
            Ok(b) => download_blob(&b, &name).map(|_| name),
            Err(_) => Err("the canvas gave no PNG".into()),
        };
        done(r);
    });
    canvas.to_blob(on_blob.unchecked_ref()).map_err(js_text)
}

/// Read a picked or dropped file as text and import it; a file that cannot be read is
/// reported like any other bad file.
fn read_and_import(blob: Blob, d: UseReducerDispatcher<crate::view::state::AppState>) {
    wasm_bindgen_futures::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(blob.text()).await;
        // An unreadable file imports as an empty one: refused, the run kept.
        d.dispatch(Msg::Import(
            text.ok().and_then(|t| t.as_string()).unwrap_or_default(),
        ));
    });
}

fn js_text(e: JsValue) -> String {
    e.as_string()
        .or_else(|| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| "the browser refused".into())
}

//! The app mounted in a real browser (wasm-bindgen-test, headless Chromium): stepping,
//! policies, the sandbox, forking and the keyboard, read back from the DOM.
//!
//! Run: `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test wasm_app`
#![cfg(target_arch = "wasm32")]

use fencing_lab::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh app in its own div; every query below stays inside it.
async fn mount() -> Element {
    let doc = gloo_document();
    let root = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<App>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    root
}

fn gloo_document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn q(root: &Element, sel: &str) -> Option<Element> {
    root.query_selector(sel).unwrap()
}

fn all(root: &Element, sel: &str) -> Vec<Element> {
    let list = root.query_selector_all(sel).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .collect()
}

fn text(root: &Element, sel: &str) -> String {
    q(root, sel)
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

/// The button whose accessible name (aria-label) is exactly `name`.
fn button(root: &Element, name: &str) -> HtmlElement {
    all(root, "button")
        .into_iter()
        .find(|b| {
            b.get_attribute("aria-label").as_deref() == Some(name)
                || b.text_content().as_deref() == Some(name)
        })
        .unwrap_or_else(|| panic!("no button named “{name}”"))
        .unchecked_into()
}

fn disabled(b: &HtmlElement) -> bool {
    b.has_attribute("disabled")
}

async fn click(root: &Element, name: &str) {
    button(root, name).click();
    yew::scheduler::flush().await;
}

async fn choose(root: &Element, select_id: &str, value: &str) {
    let sel: HtmlSelectElement = q(root, &format!("#{select_id}")).unwrap().unchecked_into();
    sel.set_value(value);
    assert_eq!(sel.value(), value, "{select_id} offers {value}");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::Event::new_with_event_init_dict("change", &init).unwrap();
    sel.dispatch_event(&ev).unwrap();
    yew::scheduler::flush().await;
}

fn log_lines(root: &Element) -> Vec<String> {
    all(root, "[role=log] li")
        .iter()
        .filter_map(|li| li.text_content())
        .collect()
}

#[wasm_bindgen_test]
async fn stepping_paused_writer_narrates_and_logs() {
    let root = mount().await;
    choose(&root, "scenario-select", "paused-writer").await;
    let log = q(&root, "[role=log]").unwrap();
    assert_eq!(
        log.get_attribute("aria-label").as_deref(),
        Some("Event log")
    );
    assert!(log_lines(&root).is_empty(), "no events at step 0");
    assert!(disabled(&button(&root, "Step back")));

    let first = text(&root, ".narration .say");
    click(&root, "Step forward").await;
    let second = text(&root, ".narration .say");
    assert_ne!(first, second, "the narration follows the step");
    assert!(second.contains("asks the coordinator"), "{second}");
    let n1 = log_lines(&root).len();
    assert!(n1 > 0);

    click(&root, "Step forward").await;
    click(&root, "Step forward").await;
    let lines = log_lines(&root);
    assert!(lines.len() > n1, "the log grows");
    assert!(
        lines.iter().any(|l| l.contains("grants report-lock")),
        "{lines:?}"
    );
    // The last step's lines are marked; earlier ones are not.
    let recent = all(&root, "[role=log] li.recent");
    assert!(!recent.is_empty() && recent.len() < lines.len());
    assert_eq!(
        text(&root, ".scrub label").split(" ·").next(),
        Some("Step 3 of 11")
    );
    let scrub: HtmlInputElement = q(&root, "input[aria-label=Scrub]")
        .unwrap()
        .unchecked_into();
    assert_eq!(scrub.value(), "3");

    // Step back is exact: the log returns to what it was.
    click(&root, "Step back").await;
    click(&root, "Step back").await;
    assert_eq!(log_lines(&root).len(), n1);
    root.remove();
}

#[wasm_bindgen_test]
async fn unfenced_marks_the_violation_and_highest_seen_rejects() {
    let root = mount().await;
    choose(&root, "scenario-select", "paused-writer").await;
    choose(&root, "policy-select", "unfenced").await;
    click(&root, "Jump to end").await;
    assert!(disabled(&button(&root, "Step forward")));
    let marks = all(&root, "svg .violation");
    assert_eq!(marks.len(), 1, "one violation marker");
    let label = marks[0].get_attribute("aria-label").unwrap();
    assert!(label.contains("stale overwrite"), "{label}");
    assert_eq!(
        marks[0].get_attribute("tabindex").as_deref(),
        Some("0"),
        "focusable"
    );
    assert!(log_lines(&root)
        .iter()
        .any(|l| l.contains("VIOLATION stale_overwrite")));
    assert!(all(&root, "svg .v-rejected").is_empty());

    choose(&root, "policy-select", "highest-seen").await;
    click(&root, "Jump to end").await;
    assert!(all(&root, "svg .violation").is_empty());
    let rejected = all(&root, "svg .v-rejected");
    assert_eq!(rejected.len(), 1);
    let words = rejected[0].text_content().unwrap();
    assert!(
        words.contains("✗")
            && words.contains("41")
            && words.contains("stale")
            && words.contains("highest 42"),
        "{words}"
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn sandbox_messages_can_be_delivered_in_any_order() {
    let root = mount().await;
    choose(&root, "scenario-select", "sandbox").await;
    assert!(
        text(&root, ".narration").contains("Sandbox"),
        "the sandbox says what it is"
    );
    assert!(disabled(&button(&root, "Resume A")), "A is not paused");
    click(&root, "Acquire A").await;
    let region = q(&root, "section[aria-labelledby=inflight-h]").unwrap();
    assert_eq!(text(&region, "h2"), "In flight");
    let deliver = all(&region, "button")
        .into_iter()
        .find(|b| {
            b.get_attribute("aria-label")
                .is_some_and(|l| l.starts_with("Deliver acquire"))
        })
        .expect("a Deliver button for the acquire request");
    assert_eq!(
        deliver.text_content().as_deref(),
        Some("Deliver"),
        "short visible text"
    );
    deliver.unchecked_ref::<HtmlElement>().click();
    yew::scheduler::flush().await;
    // The grant is now in flight back to A; deliver it too, then A holds a token.
    let grant = all(&region, "button")
        .into_iter()
        .find(|b| {
            b.get_attribute("aria-label")
                .is_some_and(|l| l.starts_with("Deliver grant"))
        })
        .expect("the grant in flight");
    grant.unchecked_ref::<HtmlElement>().click();
    yew::scheduler::flush().await;
    assert!(
        log_lines(&root).iter().any(|l| l.contains("holds")),
        "{:?}",
        log_lines(&root)
    );
    click(&root, "Pause A").await;
    assert!(!disabled(&button(&root, "Resume A")));
    assert!(
        disabled(&button(&root, "Write A")),
        "a paused worker executes nothing"
    );
    assert!(
        // One band: its rectangle (the band's text is a group of the same class).
        all(&root, "svg .band-paused .bar-rect").len() == 1,
        "the pause is drawn"
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn acting_in_the_past_forks_and_says_so() {
    let root = mount().await;
    choose(&root, "scenario-select", "paused-writer").await;
    for _ in 0..4 {
        click(&root, "Step forward").await;
    }
    click(&root, "Step back").await;
    click(&root, "Advance 1 tick").await;
    let notice = text(&root, ".notice");
    assert!(
        notice.contains("You changed the past: the run forked at step 3"),
        "{notice}"
    );
    assert!(
        text(&root, ".narration").contains("Your turn"),
        "the user is in charge now"
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn keyboard_steps_and_opens_the_shortcuts() {
    let root = mount().await;
    choose(&root, "scenario-select", "paused-writer").await;
    // Focus out of the select, which keeps its own keys.
    if let Some(el) = gloo_document().active_element() {
        if let Ok(h) = el.dyn_into::<HtmlElement>() {
            h.blur().unwrap();
        }
    }
    let key = |k: &str| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(k);
        init.set_bubbles(true);
        let ev =
            web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        gloo_document().body().unwrap().dispatch_event(&ev).unwrap();
    };
    key("ArrowRight");
    key("ArrowRight");
    yew::scheduler::flush().await;
    assert!(
        text(&root, ".scrub label").starts_with("Step 2 of"),
        "{}",
        text(&root, ".scrub label")
    );
    key("ArrowLeft");
    yew::scheduler::flush().await;
    assert!(text(&root, ".scrub label").starts_with("Step 1 of"));
    key("End");
    yew::scheduler::flush().await;
    assert!(disabled(&button(&root, "Step forward")));
    key("Home");
    yew::scheduler::flush().await;
    assert!(disabled(&button(&root, "Step back")));
    key("?");
    yew::scheduler::flush().await;
    let dialog = q(&root, "[role=dialog]").expect("the shortcuts dialog");
    assert!(dialog
        .text_content()
        .unwrap()
        .contains("Keyboard shortcuts"));
    key("ArrowRight");
    yew::scheduler::flush().await;
    assert!(
        disabled(&button(&root, "Step back")),
        "keys other than Escape wait while the dialog is open"
    );
    key("Escape");
    yew::scheduler::flush().await;
    assert!(q(&root, "[role=dialog]").is_none());
    root.remove();
}

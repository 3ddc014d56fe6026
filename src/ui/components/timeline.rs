//! The space-time diagram: hand-written SVG drawn from `view::layout::Timeline`.
//!
//! Every element keeps one fixed set of attributes whatever its state (state lives in the
//! class), so the DOM after stepping forward and back is the DOM that was there before.

use crate::ui::state::use_app;
use crate::view::layout::{self, with_recent, Arrow, Bar, Mark, Shape, Timeline as Tl, Verdict};
use gloo_events::EventListener;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

fn s(v: i32) -> String {
    v.to_string()
}

// Leaf elements, each with one fixed set of attributes. Kept out of line: the diagram uses
// them dozens of times, and one copy of each is much less WASM than the macro expanded per use.

#[inline(never)]
fn text(class: &'static str, x: i32, y: i32, anchor: &'static str, body: String) -> Html {
    html! { <text {class} x={s(x)} y={s(y)} text-anchor={anchor}>{body}</text> }
}

/// A text the layout placed.
#[inline(never)]
fn placed(t: &layout::Text) -> Html {
    text(t.class, t.x, t.y, t.anchor.as_str(), t.body.clone())
}

#[inline(never)]
fn rect(class: &'static str, x: i32, y: i32, w: i32, h: i32, rx: i32) -> Html {
    html! { <rect {class} x={s(x)} y={s(y)} width={s(w)} height={s(h)} rx={s(rx)} /> }
}

#[inline(never)]
fn line(class: &'static str, x1: i32, y1: i32, x2: i32, y2: i32, marker: Option<&str>) -> Html {
    let marker = marker.map_or_else(|| "none".to_string(), |m| format!("url(#{m})"));
    html! { <line {class} x1={s(x1)} y1={s(y1)} x2={s(x2)} y2={s(y2)} marker-end={marker} /> }
}

#[inline(never)]
fn circle(class: &'static str, cx: i32, cy: i32, r: i32) -> Html {
    html! { <circle {class} cx={s(cx)} cy={s(cy)} r={s(r)} /> }
}

/// A shape the layout decided.
#[inline(never)]
fn shape(class: &'static str, sh: &Shape) -> Html {
    match sh {
        Shape::Circle { cx, cy, r } => circle(class, *cx, *cy, *r),
        Shape::Rect { x, y, w, h, rx } => rect(class, *x, *y, *w, *h, *rx),
        Shape::Line { x1, y1, x2, y2 } => line(class, *x1, *y1, *x2, *y2, None),
        Shape::Path { d } => path(class, d.clone()),
    }
}

#[inline(never)]
fn path(class: &'static str, d: String) -> Html {
    html! { <path {class} {d} /> }
}

#[inline(never)]
fn title(t: String) -> Html {
    html! { <title>{t}</title> }
}

/// A group with a key, a class and children.
#[inline(never)]
fn group(key: String, class: String, children: Vec<Html>) -> Html {
    html! { <g {key} {class}>{for children}</g> }
}

#[component]
pub fn Timeline() -> Html {
    let state = use_app();
    let run = &state.run;
    // A long run is drawn from a window of recent steps, so a step costs the same late in the
    // run; "Show earlier steps" widens it.
    let window = use_state_eq(|| layout::WINDOW_EVENTS);
    let first = layout::window_start(run, *window);
    let compact = narrow();
    let tl = use_memo((state.version, first, compact), |&(_, first, compact)| {
        layout::layout_for(run, first, compact)
    });
    let earlier = {
        let window = window.clone();
        Callback::from(move |_| window.set(window.saturating_mul(4)))
    };
    let desc = describe(run.cursor(), &tl);

    html! {
        <section class="panel timeline" aria-labelledby="timeline-h">
            <div class="panel-head">
                <h2 id="timeline-h">{"Timeline"}</h2>
                if first > 1 {
                    <p class="tl-window">
                        {format!("Showing steps {first}–{} of this long run. ", run.cursor())}
                        <button type="button" class="small" onclick={earlier}>{"Show earlier steps"}</button>
                    </p>
                }
                {legend()}
            </div>
            <Diagram tl={tl} label="timeline-h" desc_id="tl-desc" {desc} defs=true />
        </section>
    }
}

/// The widest window (CSS px) drawn compact (`layout::Spacing::Compact`): a phone's, where
/// the full drawing showed two steps at most (static/style.css narrows the gutter there too).
const COMPACT_MAX: f64 = 520.0;

/// Whether to draw compact: the window's width at this render, as the legend's fold reads it
/// (a phone turned on its side is drawn for its new width from the next step on).
fn narrow() -> bool {
    window_width().is_some_and(|w| w <= COMPACT_MAX)
}

/// The window's width in CSS px.
fn window_width() -> Option<f64> {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
}

/// The diagram's description for screen readers.
pub(crate) fn describe(step: usize, tl: &Tl) -> String {
    format!(
        "Space-time diagram up to step {step} (t = {}): one lane per node, time running to the right. {} messages, {} verdicts, {} violations.",
        tl.now_tick,
        tl.arrows.len(),
        tl.verdicts.len(),
        tl.violations.len()
    )
}

#[derive(Properties)]
pub(crate) struct DiagramProps {
    pub tl: Rc<Tl>,
    /// The id of the heading that names the diagram.
    pub label: AttrValue,
    /// A page-unique id for its description.
    pub desc_id: AttrValue,
    pub desc: AttrValue,
    /// Whether this diagram carries the arrowheads and hatch patterns. Once per page (the main
    /// timeline): other diagrams use the same ids, and ids must be unique.
    #[prop_or(false)]
    pub defs: bool,
    /// A step to mark as the first where two runs differ.
    #[prop_or_default]
    pub mark: Option<usize>,
    /// An x to keep in the middle of the view instead of following the present.
    #[prop_or_default]
    pub focus: Option<i32>,
    /// The horizontal scroller, for a parent that keeps two diagrams scrolled together.
    #[prop_or_default]
    pub scroller: NodeRef,
    #[prop_or_default]
    pub onscroll: Option<Callback<Event>>,
}

// By pointer: every new layout is a new `Rc`, and comparing two layouts field by field
// would cost about as much as drawing one.
impl PartialEq for DiagramProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.tl, &o.tl)
            && (
                &self.label,
                &self.desc_id,
                &self.desc,
                self.defs,
                self.mark,
                self.focus,
            ) == (&o.label, &o.desc_id, &o.desc, o.defs, o.mark, o.focus)
            && self.scroller == o.scroller
            && self.onscroll == o.onscroll
    }
}

/// One space-time diagram from a layout: lane labels, and the SVG in its own scroller that
/// follows the present.
#[component]
pub(crate) fn Diagram(p: &DiagramProps) -> Html {
    let tl = &p.tl;
    let scroller = p.scroller.clone();
    // The verdict or violation focused or clicked: its explanation is shown under the diagram
    // (for this layout only: a new step starts without one).
    let shown = use_state_eq(|| None::<(usize, String)>);
    let key = Rc::as_ptr(tl) as usize;
    let explanation = shown
        .as_ref()
        .filter(|(k, _)| *k == key)
        .map(|(_, t)| t.clone());
    let show = {
        let shown = shown.clone();
        move |t: String| {
            let shown = shown.clone();
            Callback::from(move |()| shown.set(Some((key, t.clone()))))
        }
    };
    let hide = {
        let shown = shown.clone();
        Callback::from(move |_: FocusEvent| shown.set(None))
    };
    {
        let r = scroller.clone();
        let tl = tl.clone();
        // Follow the present: the current step is always at the diagram's right end, so
        // scroll until "now" (and a little room for messages in flight) is in view. Every new
        // layout (every change of the app) scrolls it again.
        use_effect_with((Rc::as_ptr(&tl) as usize, p.focus), move |&(_, focus)| {
            if let Some(el) = r.cast::<Element>() {
                let left = match focus {
                    Some(x) => x - el.client_width() / 2,
                    // The present and everything drawn right of it (messages in
                    // flight and their labels), whole.
                    None => layout::follow_left(&tl, el.client_width()),
                };
                el.set_scroll_left(left.max(0));
            }
        });
    }
    // The gutter's geometry set through the CSSOM, not `style` attributes: a strict
    // Content-Security-Policy refuses inline style attributes, not style set by script.
    let gutter = use_node_ref();
    {
        let (gutter, tl) = (gutter.clone(), tl.clone());
        use_effect_with(Rc::as_ptr(&tl) as usize, move |_| {
            if let Some(g) = gutter.cast::<web_sys::HtmlElement>() {
                let _ = g
                    .style()
                    .set_property("height", &format!("{}px", tl.height));
                let labels = g.children();
                for (i, l) in tl.lanes.iter().enumerate() {
                    if let Some(el) = labels
                        .item(i as u32)
                        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                    {
                        let _ = el.style().set_property("top", &format!("{}px", l.y));
                        let _ = el.style().set_property("height", &format!("{}px", l.h));
                    }
                }
            }
        });
    }
    let drag = drag_to_scroll();
    html! {
        <>
        <div class="tl-wrap">
            <div class="tl-gutter" aria-hidden="true" ref={gutter.clone()}>
                for l in tl.lanes.iter() {
                    <div class={format!("lane-label lane-{}", l.kind.class())} key={l.name.clone()}>
                        <b>{l.name.clone()}</b><small>{l.detail.clone()}</small>
                    </div>
                }
            </div>
            // Focusable, so a keyboard can scroll it (axe: scrollable-region-focusable).
            <div class="tl-scroll" tabindex="0" ref={scroller.clone()} onscroll={p.onscroll.clone()}
                onpointerdown={drag.0} onpointermove={drag.1} onpointerup={drag.2.clone()} onpointercancel={drag.2}>
                <svg class="tl-svg" xmlns="http://www.w3.org/2000/svg" width={s(tl.width)} height={s(tl.height)}
                    viewBox={format!("0 0 {} {}", tl.width, tl.height)} role="group" aria-labelledby={p.label.clone()} aria-describedby={p.desc_id.clone()}>
                    <desc id={p.desc_id.clone()}>{p.desc.clone()}</desc>
                    if p.defs { {Html::from_html_unchecked(AttrValue::Static(layout::DEFS))} }
                    {lanes(tl)}
                    {steps(tl, p.mark)}
                    {ruler(tl)}
                    <g class="bars">{for tl.bars.iter().enumerate().map(|(i, b)| bar(i, b))}</g>
                    <BarTexts tl={tl.clone()} scroller={scroller.clone()} />
                    <g class="overlaps">
                        for (i, o) in tl.overlaps.iter().enumerate() {
                            {group(format!("o{i}"), "overlap".into(), vec![
                                title(o.title.clone()),
                                shape("hatch", &o.rect()),
                                o.text.as_ref().map_or_else(Html::default, placed),
                            ])}
                        }
                    </g>
                    <g class="arrows">{for tl.arrows.iter().map(arrow)}</g>
                    <g class="marks">{for tl.marks.iter().enumerate().map(|(i, m)| mark(i, m))}</g>
                    <g class="verdicts">
                        for (i, v) in tl.verdicts.iter().enumerate() {
                            {verdict(i, v, show(v.explain()), hide.clone())}
                        }
                    </g>
                    <g class="violations">
                        for (i, v) in tl.violations.iter().enumerate() {
                            <g class={with_recent("violation", v.recent)} key={format!("x{i}")} tabindex="0" role="img" aria-label={v.aria_label()}
                                onfocus={show(v.aria_label()).reform(|_: FocusEvent| ())}
                                onclick={show(v.aria_label()).reform(|_: MouseEvent| ())}
                                onblur={hide.clone()}>
                                {title(v.aria_label())}
                                {shape("ring", &v.ring())}
                                {shape("shape", &v.shape())}
                                {placed(&v.glyph_text())}
                            </g>
                        }
                    </g>
                    {now_line(tl)}
                    {placed(&layout::now_text(tl))}
                </svg>
            </div>
        </div>
        <p class={if explanation.is_some() { "tl-explain shown" } else { "tl-explain" }}>
            {explanation.unwrap_or_else(|| layout::FOCUS_HINT.to_string())}
        </p>
        </>
    }
}

/// Dragging the diagram with a mouse or a pen moves it in time, as a finger already does: a
/// story wider than the view is one gesture from its start. A drag of a few pixels is still
/// a click (on a verdict, say). The cursor and selection while dragging are style.css's
/// (`.tl-scroll:active`).
fn drag_to_scroll() -> (
    Callback<PointerEvent>,
    Callback<PointerEvent>,
    Callback<PointerEvent>,
) {
    use std::cell::Cell;
    // Where the drag began: the pointer's x and the scroller's scroll then.
    let from: Rc<Cell<Option<(i32, i32)>>> = Rc::default();
    let scroller = |e: &PointerEvent| {
        e.current_target()
            .and_then(|t| t.dyn_into::<Element>().ok())
    };
    let down = {
        let from = from.clone();
        Callback::from(move |e: PointerEvent| {
            if e.pointer_type() != "touch" && e.button() == 0 {
                from.set(scroller(&e).map(|el| (e.client_x(), el.scroll_left())));
            }
        })
    };
    let moved = {
        let from = from.clone();
        Callback::from(move |e: PointerEvent| {
            // Released outside the diagram: the drag ended there.
            if e.buttons() & 1 == 0 {
                from.set(None);
            }
            if let (Some((x, left)), Some(el)) = (from.get(), scroller(&e)) {
                let dx = e.client_x() - x;
                if dx.abs() > 4 {
                    el.set_scroll_left(left - dx);
                }
            }
        })
    };
    let up = Callback::from(move |_: PointerEvent| from.set(None));
    (down, moved, up)
}

#[derive(Properties)]
struct BarTextsProps {
    tl: Rc<Tl>,
    scroller: NodeRef,
}

impl PartialEq for BarTextsProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.tl, &o.tl) && self.scroller == o.scroller
    }
}

/// The bars' own text, kept in sight as the diagram scrolls (`layout::bar_text_in_view`):
/// a component of its own, so that scrolling redraws these few texts and nothing else.
#[component]
fn BarTexts(p: &BarTextsProps) -> Html {
    let view = use_state_eq(|| None::<(i32, i32)>);
    {
        let (view, scroller) = (view.clone(), p.scroller.clone());
        use_effect_with(Rc::as_ptr(&p.tl) as usize, move |_| {
            let el = scroller.cast::<Element>();
            let read: Rc<dyn Fn()> = Rc::new(move || {
                if let Some(el) = scroller.cast::<Element>() {
                    let left = el.scroll_left();
                    view.set(Some((left, left + el.client_width())));
                }
            });
            read();
            let mut listeners = Vec::new();
            if let Some(el) = el {
                let r = read.clone();
                listeners.push(EventListener::new(&el, "scroll", move |_| r()));
            }
            if let Some(w) = web_sys::window() {
                listeners.push(EventListener::new(&w, "resize", move |_| read()));
            }
            move || drop(listeners)
        });
    }
    let texts: Vec<Html> =
        p.tl.bars
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let t = match *view {
                    Some((l, r)) => layout::bar_text_in_view(b, l, r),
                    None => b.text.clone(),
                }?;
                Some(group(
                    format!("bt{i}"),
                    format!("bar {}", b.kind.class()),
                    vec![placed(&t)],
                ))
            })
            .collect();
    html! { <g class="bar-texts">{for texts}</g> }
}

fn now_line(tl: &Tl) -> Html {
    let (x, y0, y1) = tl.now_line();
    line("now", x, y0, x, y1, None)
}

/// The legend, folded on a narrow screen (where it took eight lines above the diagram) and
/// open on a wide one; either way the reader can toggle it.
fn legend() -> Html {
    let wide = window_width().is_none_or(|w| w >= 760.0);
    html! {
        <details class="legend-fold" open={wide}>
        <summary>{"Legend"}</summary>
        <ul class="legend" aria-label="Legend">
            for (sw, words) in layout::LEGEND {
                <li>
                    if let Some(glyph) = sw.glyph() {
                        <span class={format!("g g-{}", sw.name())}>{glyph}</span>
                    } else {
                        <span class={format!("sw sw-{}", sw.name())}></span>
                    }
                    {words}
                </li>
            }
        </ul>
        </details>
    }
}

fn lanes(tl: &Tl) -> Html {
    html! {
        <g class="lanes">
            for (i, l) in tl.lanes.iter().enumerate() {
                {group(l.name.clone(), tl.lane_class(i),
                    tl.lane_shapes(i, tl.width).iter().map(|(class, sh)| shape(class, sh)).collect())}
            }
        </g>
    }
}

fn steps(tl: &Tl, marked: Option<usize>) -> Html {
    html! {
        <g class="steps">
            for b in tl.steps.iter() {
                {group(format!("s{}", b.step), "step-band".into(), vec![
                    shape(b.class(marked), &b.rect(tl.height)),
                    if Some(b.step) == marked {
                        placed(&b.diverge_text(tl.height))
                    } else {
                        Html::default()
                    },
                ])}
            }
        </g>
    }
}

fn ruler(tl: &Tl) -> Html {
    html! {
        <g class="ruler">
            {placed(&layout::ruler_title())}
            for (n, t) in tl.step_numbers() {
                {group(format!("n{n}"), "step-no-g".into(), vec![placed(&t)])}
            }
            for t in tl.ticks.iter() {
                {group(format!("t{}", t.tick), "tick".into(), vec![
                    {
                        let (x, y0) = t.grid_top();
                        line("grid", x, y0, x, tl.height, None)
                    },
                    placed(&layout::tick_text(t)),
                ])}
            }
            for g in tl.gaps.iter() {
                {group(format!("g{}", g.x0), "gap".into(), vec![
                    title(g.title()),
                    shape("gap-bg", &g.rect(tl.height)),
                    placed(&g.text()),
                ])}
            }
        </g>
    }
}

fn bar(i: usize, b: &Bar) -> Html {
    group(
        format!("b{i}"),
        with_recent(&b.class(), b.recent),
        vec![title(b.title.clone()), shape("bar-rect", &b.rect())],
    )
}

fn arrow(a: &Arrow) -> Html {
    let mut parts = vec![
        title(a.title.clone()),
        line("shaft", a.x0, a.y0, a.x1, a.y1, a.marker()),
    ];
    if let Some(head) = a.head() {
        parts.push(shape("head", &head));
    }
    if let Some(t) = &a.text {
        parts.push(placed(t));
    }
    group(
        format!("a{}", a.id),
        with_recent(&a.class(), a.recent),
        parts,
    )
}

fn mark(i: usize, m: &Mark) -> Html {
    let mut parts = vec![
        title(m.title.clone()),
        shape("dot", &m.dot()),
        placed(&m.glyph_text()),
    ];
    if let Some(t) = &m.text {
        parts.push(placed(t));
    }
    group(
        format!("m{i}"),
        with_recent(&m.group_class(), m.recent),
        parts,
    )
}

/// A verdict: focusable, and focusing or clicking it shows its explanation.
fn verdict(i: usize, v: &Verdict, show: Callback<()>, hide: Callback<FocusEvent>) -> Html {
    let explain = v.explain();
    html! {
        <g key={format!("v{i}")} class={with_recent(&v.class(), v.recent)}
            tabindex="0" role="img" aria-label={explain.clone()}
            onfocus={show.reform(|_: FocusEvent| ())}
            onclick={show.reform(|_: MouseEvent| ())}
            onblur={hide}>
            {title(explain)}
            {circle("halo", v.x, v.y, 16)}
            {shape("shape", &v.shape())}
            {placed(&v.glyph_text())}
            {for v.drawn_lines().iter().map(placed)}
        </g>
    }
}

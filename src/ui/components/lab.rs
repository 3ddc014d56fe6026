//! The lease-duration lab: a form of parameters, a sweep computed a few runs at a time from a
//! `Timeout(0)` chain (progress bar, Cancel), four charts drawn by `view::plot` with Export SVG,
//! the stale-writes chart's banner, and "Open run" for the run behind a clicked point. All state is `view::lab::LabPanel`.

use super::tool_summary;
use crate::ui::state::{reduce_with, use_app};
use crate::view::lab::{Field, LabMsg, LabPanel, GROUPS};
use crate::view::plot::{self, Chart, ChartKind, Mode};
use gloo_timers::callback::Timeout;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Runs per slice: a few milliseconds of work, then the page gets a turn.
const SLICE: usize = 4;

impl Reducible for LabPanel {
    type Action = LabMsg;

    fn reduce(self: Rc<Self>, msg: LabMsg) -> Rc<Self> {
        reduce_with(self, |s| s.apply(msg))
    }
}

/// The point under a click or key press inside a chart, from its `data-pt`.
fn picked(target: Option<web_sys::EventTarget>) -> Option<LabMsg> {
    let el: Element = target?.dyn_into().ok()?;
    let pt = el.closest("[data-pt]").ok()??;
    let (m, i) = plot::parse_point_id(&pt.get_attribute("data-pt")?)?;
    Some(LabMsg::Select(m, i))
}

fn field(lab: &UseReducerHandle<LabPanel>, f: Field) -> Html {
    let (lo, hi) = f.range();
    let d = lab.dispatcher();
    let set = move |e: &Event| {
        let el: HtmlInputElement = e.target_unchecked_into();
        if let Ok(v) = el.value().trim().parse::<u64>() {
            d.dispatch(LabMsg::Set(f, v));
        }
    };
    let shown = lab.form.shown(f);
    let value = lab.form.get(f).to_string();
    let out = format!("{}-out", f.id());
    let input = if f.typed() {
        let onchange = Callback::from(move |e: Event| set(&e));
        html! { <input type="number" id={f.id()} min={lo.to_string()} max={hi.to_string()} {value} {onchange} aria-describedby={out.clone()} /> }
    } else {
        let oninput = Callback::from(move |e: InputEvent| set(&e));
        html! { <input type="range" id={f.id()} min={lo.to_string()} max={hi.to_string()} {value} {oninput} aria-valuetext={shown.clone()} /> }
    };
    html! {
        <div class="lab-field">
            <label for={f.id()}>{f.label()}</label>
            {input}
            // A plain span, not <output>: its implicit status role would announce every drag,
            // and the slider's aria-valuetext already says it.
            <span class="lab-value" id={out}>{shown}</span>
        </div>
    }
}

#[component]
pub fn Lab() -> Html {
    let app = use_app();
    let lab = use_reducer(LabPanel::default);

    // The chain: each slice's re-render schedules the next; Cancel or the end drops it.
    {
        let d = lab.dispatcher();
        let running = lab.progress().map(|(done, _)| (lab.generation, done));
        use_effect_with(running, move |running| {
            let t = running.map(|_| Timeout::new(0, move || d.dispatch(LabMsg::Slice(SLICE))));
            move || drop(t)
        });
    }
    // The charts' markup only changes when a sweep finishes.
    let svgs = {
        let done = lab.done.clone();
        use_memo(done.as_ref().map(|d| Rc::as_ptr(d) as usize), move |_| {
            done.map_or_else(Vec::new, |d| {
                d.charts
                    .iter()
                    .map(|c| AttrValue::from(plot::svg(c, Mode::Page)))
                    .collect::<Vec<_>>()
            })
        })
    };

    let onsubmit = {
        let d = lab.dispatcher();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            d.dispatch(LabMsg::Run);
        })
    };
    let cancel = {
        let d = lab.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(LabMsg::Cancel))
    };
    let onclick = {
        let d = lab.dispatcher();
        Callback::from(move |e: MouseEvent| {
            if let Some(m) = picked(e.target()) {
                d.dispatch(m);
            }
        })
    };
    let onkeydown = {
        let d = lab.dispatcher();
        Callback::from(move |e: KeyboardEvent| {
            if matches!(e.key().as_str(), "Enter" | " ") {
                if let Some(m) = picked(e.target()) {
                    // A point is a button: Space presses it rather than playing the run.
                    e.prevent_default();
                    e.stop_propagation();
                    d.dispatch(m);
                }
            }
        })
    };
    let open = {
        let (app, lab) = (app.dispatcher(), lab.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(m) = lab.open_run() {
                app.dispatch(m);
                super::show_timeline();
            }
        })
    };
    let choose = {
        let d = lab.dispatcher();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(i) = sel.value().parse() {
                d.dispatch(LabMsg::ChooseRun(i));
            }
        })
    };

    let pick = |c: &Chart| -> Html {
        let (Some(sel), Some(p)) = (lab.selected, lab.point()) else {
            return Html::default();
        };
        if !c.kind.metrics().contains(&sel.metric) {
            return Html::default();
        }
        let v = sel.metric.value(p).unwrap_or(0.0);
        html! {
            <div class="lab-pick" role="group" aria-label="Selected point">
                <p><b>{format!("TTL {}: {}", p.ttl, sel.metric.phrase(v))}</b>
                   {format!(" (mean of {} runs).", p.runs.len())}</p>
                <label>{"Run behind this point "}
                    <select onchange={choose.clone()}>
                        {for lab.run_options().into_iter().map(|(i, text)| html! {
                            <option value={i.to_string()} selected={i == sel.run}>{text}</option>
                        })}
                    </select>
                </label>
                <button type="button" onclick={open.clone()}>{"Open run"}</button>
            </div>
        }
    };

    let figures = lab.done.as_ref().map(|done| {
        done.charts.iter().zip(svgs.iter()).map(|(c, svg)| {
            let export = {
                let (name, text) = (plot::file_name(c), plot::plot_svg(c));
                Callback::from(move |_: MouseEvent| {
                    let _ = super::export::download_text(&text, "image/svg+xml", &name);
                })
            };
            let h = format!("lab-{}-h", c.kind.id());
            html! {
                <figure class="lab-chart" key={c.kind.id()} aria-labelledby={h.clone()}>
                    <div class="lab-chart-head">
                        <h3 id={h}>{c.kind.title()}</h3>
                        <button type="button" class="small" onclick={export}
                            aria-label={format!("Export SVG: {}", c.kind.title())}>{"Export SVG"}</button>
                    </div>
                    <p class="note">{c.kind.caption()}</p>
                    if c.kind == ChartKind::StaleWrites {
                        <p class="lab-banner">{lab.banner().unwrap_or_default()}</p>
                    }
                    <div class="lab-svg" onclick={onclick.clone()} onkeydown={onkeydown.clone()}>
                        {Html::from_html_unchecked(svg.clone())}
                    </div>
                    {pick(c)}
                </figure>
            }
        }).collect::<Html>()
    });

    let progress = lab.progress();
    html! {
        <details class="tool lab panel">
            {tool_summary("Lease-duration lab", "How long should a lease be? Sweep the TTL over many random runs and chart what it costs — and see that no length makes it safe without fencing.")}
            <p class="note">
                {"Each point is N seeded runs of one workload at one lease TTL: workers A and B renew, pause at random and write every 3 s to two copies of one record, “fenced” (highest-seen) and “unfenced”; the holder crashes 60% of the way through a 5-minute run. Click a point to open a run behind it in the timeline."}
            </p>
            <form class="lab-form" {onsubmit}>
                {for GROUPS.iter().map(|(name, fields)| html! {
                    <fieldset key={*name}>
                        <legend>{*name}</legend>
                        {for fields.iter().map(|&f| field(&lab, f))}
                    </fieldset>
                })}
                <div class="lab-actions">
                    <button type="submit" class="primary">{"Run"}</button>
                    <button type="button" onclick={cancel} disabled={progress.is_none()}>{"Cancel"}</button>
                    if let Some((done, total)) = progress {
                        <progress aria-label="Lab progress" max={total.to_string()} value={done.to_string()}></progress>
                        <span class="note">{format!("{done} of {total} runs")}</span>
                    }
                    <span class="lab-status" role="status">{lab.status.clone().unwrap_or_default()}</span>
                </div>
            </form>
            if let Some(figures) = figures {
                <div class="lab-plots">{figures}</div>
            }
        </details>
    }
}

//! The lease-duration lab: a form of parameters, a sweep computed a few runs at a time
//! (`use_slice_chain`; progress bar, Cancel), four charts drawn by `view::plot` with Export SVG,
//! the stale-writes chart's banner, and "Open run" for the run behind a clicked point. All state is `view::lab::LabPanel`.
//! It is not in the page's first load: the tools module mounts it (`ui::mount_tool`).

use crate::ui::hooks::use_slice_chain;
use crate::ui::state::reduce_with;
use crate::view::lab::{Field, LabMsg, LabPanel, GROUPS};
use crate::view::plot::{self, Chart, ChartKind, Mode};
use crate::view::state::Msg;
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

#[derive(Properties, PartialEq)]
pub struct LabBodyProps {
    /// "Open run": the message that shows the run behind the selected point
    /// (`Msg::LoadScenario`), for the page that shows runs.
    pub on_open: Callback<Msg>,
}

/// The lab inside its section: the tools module (`src/bin/tools.rs`) mounts it when the
/// section is first opened (`ToolSlot`), and "Open run" goes to the page through `on_open`.
#[component]
pub fn LabBody(LabBodyProps { on_open }: &LabBodyProps) -> Html {
    let lab = use_reducer(LabPanel::default);

    // Each slice's re-render schedules the next; Cancel or the end drops it.
    let running = lab.progress().map(|(done, _)| (lab.generation, done));
    let d = lab.dispatcher();
    use_slice_chain(
        running,
        Callback::from(move |()| d.dispatch(LabMsg::Slice(SLICE))),
    );
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
    let open = {
        let (on_open, lab) = (on_open.clone(), lab.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(m) = lab.open_run() {
                on_open.emit(m);
            }
        })
    };

    html! {
        <>
            <p class="note">
                {"Each point is N seeded runs of one workload at one lease TTL: workers A and B renew, pause at random and write every 3 s to two copies of one record, “fenced” (highest-seen) and “unfenced”; the holder crashes 60% of the way through a 5-minute run. Click a point to open a run behind it in the timeline."}
            </p>
            <LabParamsForm lab={lab.clone()} />
            if let Some(done) = lab.done.as_ref() {
                <div class="lab-plots">
                    for (chart, svg) in (0..done.charts.len()).zip(svgs.iter()) {
                        <LabChart key={done.charts[chart].kind.id()} lab={lab.clone()} {chart}
                            svg={svg.clone()} open={open.clone()} />
                    }
                </div>
            }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct LabProps {
    lab: UseReducerHandle<LabPanel>,
}

/// The parameters, grouped, with Run, Cancel, the sweep's progress and how the last one ended.
#[component]
fn LabParamsForm(LabProps { lab }: &LabProps) -> Html {
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
    let progress = lab.progress();
    html! {
        <form class="lab-form" {onsubmit}>
            {for GROUPS.iter().map(|(name, fields)| html! {
                <fieldset key={*name}>
                    <legend>{*name}</legend>
                    {for fields.iter().map(|&f| field(lab, f))}
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
    }
}

#[derive(Properties, PartialEq)]
struct LabChartProps {
    lab: UseReducerHandle<LabPanel>,
    /// Which of the finished sweep's charts.
    chart: usize,
    /// Its markup (`plot::svg`), made once per sweep.
    svg: AttrValue,
    /// Opens the run behind the selected point.
    open: Callback<MouseEvent>,
}

/// One chart: its title, Export SVG, caption, the stale-writes banner, the plot (whose points
/// are buttons) and, under the chart the selected point belongs to, that point.
#[component]
fn LabChart(props: &LabChartProps) -> Html {
    let LabChartProps {
        lab,
        chart,
        svg,
        open,
    } = props;
    let Some(c) = lab.done.as_ref().and_then(|d| d.charts.get(*chart)) else {
        return Html::default();
    };
    let export = {
        let (c, name) = (c.clone(), plot::file_name(c));
        Callback::from(move |_: MouseEvent| {
            let text = plot::plot_svg(&c, &super::export::page_sheets());
            let _ = super::export::download_text(&text, "image/svg+xml", &name);
        })
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
    let h = format!("lab-{}-h", c.kind.id());
    html! {
        <figure class="lab-chart" aria-labelledby={h.clone()}>
            <div class="lab-chart-head">
                <h3 id={h}>{c.kind.title()}</h3>
                <button type="button" class="small" onclick={export}
                    aria-label={format!("Export SVG: {}", c.kind.title())}>{"Export SVG"}</button>
            </div>
            <p class="note">{c.kind.caption()}</p>
            if c.kind == ChartKind::StaleWrites {
                <p class="lab-banner">{lab.banner().unwrap_or_default()}</p>
            }
            <div class="lab-svg" {onclick} {onkeydown}>
                {Html::from_html_unchecked(svg.clone())}
            </div>
            {selected_point(lab, c, open)}
        </figure>
    }
}

/// The selected point, if it is on this chart: its value, the run behind it to open.
fn selected_point(
    lab: &UseReducerHandle<LabPanel>,
    c: &Chart,
    open: &Callback<MouseEvent>,
) -> Html {
    let (Some(sel), Some(p)) = (lab.selected, lab.point()) else {
        return Html::default();
    };
    if !c.kind.metrics().contains(&sel.metric) {
        return Html::default();
    }
    let choose = {
        let d = lab.dispatcher();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(i) = sel.value().parse() {
                d.dispatch(LabMsg::ChooseRun(i));
            }
        })
    };
    let v = sel.metric.value(p).unwrap_or(0.0);
    html! {
        <div class="lab-pick" role="group" aria-label="Selected point">
            <p><b>{format!("TTL {}: {}", p.ttl, sel.metric.phrase(v))}</b>
               {format!(" (mean of {} runs).", p.runs.len())}</p>
            <label>{"Run behind this point "}
                <select onchange={choose}>
                    {for lab.run_options().into_iter().map(|(i, text)| html! {
                        <option value={i.to_string()} selected={i == sel.run}>{text}</option>
                    })}
                </select>
            </label>
            <button type="button" onclick={open.clone()}>{"Open run"}</button>
        </div>
    }
}

//! Which scenario, under which receiver policy; and what the scenario is about.

use crate::sim::Scenario;
use crate::ui::hooks::navigate;
use crate::ui::state::use_app;
use crate::view::state::{Choice, Msg};
use crate::view::text::{self, PolicyOptions};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[component]
pub fn Picker() -> Html {
    let state = use_app();
    let scenario_ref = use_node_ref();
    let policy_ref = use_node_ref();
    let current = state.current().clone();
    let choice_value = state.choice.value();

    // Keep each select showing the state's value even after the user touched it (and after
    // a pick whose preset could not be loaded).
    {
        let (r1, r2) = (scenario_ref.clone(), policy_ref.clone());
        // The preset on its way is shown as picked; once it is here, or could not be had,
        // the one on screen.
        let id = match &state.loading {
            Some(l) if matches!(*l.then, Msg::LoadId(_)) => l.id.clone(),
            _ => current.id.clone(),
        };
        use_effect_with(
            (id, choice_value.clone(), state.loading.is_some()),
            move |(id, choice, _)| {
                if let Some(s) = r1.cast::<HtmlSelectElement>() {
                    s.set_value(id);
                }
                if let Some(s) = r2.cast::<HtmlSelectElement>() {
                    s.set_value(choice);
                }
            },
        );
    }

    // Each choice is a step in the browser's history (`navigate`): Back returns to the view
    // before it.
    let on_scenario = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            navigate(&state, Msg::LoadId(sel.value()));
        })
    };
    let on_policy = {
        let state = state.clone();
        let scenario = current.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            if let Some(c) = Choice::parse(&scenario, &sel.value()) {
                navigate(&state, Msg::Choose(c));
            }
        })
    };

    // A long question is cut to four lines (style.css), so the bar and the timeline are on
    // the first screen; this button shows it whole. A desktop's four lines hold more: the
    // button is shown there only for a question longer than they hold ("long").
    let whole = use_state_eq(|| false);
    let long = current.summary.len() > 440;
    let on_whole = {
        let whole = whole.clone();
        Callback::from(move |_: MouseEvent| whole.set(!*whole))
    };
    let groups = text::scenario_groups(&state.listed());
    let policy_note = match &state.choice {
        Choice::Variant(n) => format!("“{n}” is one of the settings this scenario contrasts."),
        Choice::Policy(p) => format!("Plain policy {}: {}.", p.as_str(), p.describe()),
    };

    html! {
        // Which scenario is shown, and whether another is on its way (`data-scenario` and
        // `aria-busy`: the end-to-end tests wait on them).
        <div class="picker" data-scenario={current.id.clone()} aria-busy={state.loading.is_some().to_string()}>
            <div class="field">
                <label for="scenario-select">{"Scenario"}</label>
                <select id="scenario-select" ref={scenario_ref} onchange={on_scenario}>
                    for (theme, items) in groups {
                        <optgroup label={theme}>
                            for (id, title) in items {
                                <option selected={id == current.id} value={id.clone()}>{title}</option>
                            }
                        </optgroup>
                    }
                </select>
            </div>
            <div class="field">
                <label for="policy-select">{"Receiver policy"}</label>
                <select id="policy-select" ref={policy_ref} onchange={on_policy} aria-describedby="policy-note">
                    {policy_groups(&current, &text::policy_options(&current), &choice_value)}
                </select>
                <p id="policy-note" class="note">{policy_note}</p>
            </div>
            <p id="scenario-summary" class={classes!("summary", (!*whole).then_some("clamped"))}>{current.summary.clone()}</p>
            // Four lines at a phone's width hold about 160 characters; on a desktop, about 440.
            if current.summary.len() > 160 {
                <button type="button" class={classes!("small", "more", long.then_some("long"))} aria-controls="scenario-summary"
                    aria-expanded={whole.to_string()} onclick={on_whole}>
                    {if *whole { "Less" } else { "Read it all" }}
                </button>
            }
        </div>
    }
}

/// The options of a receiver-policy select: the scenario's variants, then the other plain
/// policies (`text::policy_options`, or the compare view's `compare::counterpart`), with
/// `selected` chosen. The policy picker and the compare view share it.
pub(crate) fn policy_groups(current: &Scenario, options: &PolicyOptions, selected: &str) -> Html {
    let plain = if current.variants.is_empty() {
        "Receiver policies"
    } else {
        "Other receiver policies"
    };
    html! {
        <>
            {option_group("Contrasted in this scenario", &options.variants, selected)}
            {option_group(plain, &options.plain, selected)}
        </>
    }
}

/// One `<optgroup>` of (value, label) options, `selected` chosen; nothing for no options.
/// Every select of receiver choices and branches builds its groups here.
pub(crate) fn option_group(label: &str, options: &[(String, String)], selected: &str) -> Html {
    if options.is_empty() {
        return Html::default();
    }
    html! {
        <optgroup label={label.to_string()}>
            for (value, text) in options.iter() {
                <option selected={value == selected} value={value.clone()}>{text.clone()}</option>
            }
        </optgroup>
    }
}

//! "Compare policies": the current run and the same run under another receiver choice, one
//! diagram above the other, aligned step for step, with the first step where they differ
//! (`view::compare`). Nothing is computed while the section is closed.

use super::picker::{option_group, policy_groups};
use super::timeline::{describe, Diagram};
use super::tool_summary;
use crate::ui::state::use_app;
use crate::view::compare::{aligned, compare_with, counterpart, summary, Counterpart, Other};
use crate::view::layout;
use std::rc::Rc;
use web_sys::{Element, HtmlSelectElement};
use yew::prelude::*;

#[component]
pub fn Compare() -> Html {
    let state = use_app();
    let open = use_state_eq(|| false);
    // The value last picked in the select; `counterpart` keeps it while the scenario offers it.
    let picked = use_state_eq(|| None::<String>);
    let own = state.choice.value();
    let Counterpart {
        options,
        branches,
        value: other_value,
        other,
    } = counterpart(&state, picked.as_deref());
    let (this_title, other_title) = match &other {
        Other::Choice(_) => (
            format!("This run — {own}"),
            format!("The same steps — {other_value}"),
        ),
        Other::Branch(n) => (
            format!("This branch ({}) — {own}", state.branches.current()),
            format!("Branch {n} — {own}"),
        ),
    };

    let shown = use_memo(
        (state.version, other_value.clone(), *open),
        |(_, _, open)| {
            open.then(|| {
                let c = compare_with(&state, &other);
                let first = layout::window_start(&c.main, layout::WINDOW_EVENTS);
                let (ta, tb) = aligned(&c, first);
                (c, Rc::new(ta), Rc::new(tb))
            })
        },
    );

    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let el: Element = e.target_unchecked_into();
            open.set(el.has_attribute("open"));
        })
    };
    let onchange = {
        let picked = picked.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            picked.set(Some(sel.value()));
        })
    };
    // The two scrollers move together.
    let (ra, rb) = (use_node_ref(), use_node_ref());
    let follow = |to: NodeRef| {
        Callback::from(move |e: Event| {
            let from: Element = e.target_unchecked_into();
            if let Some(el) = to.cast::<Element>() {
                if el.scroll_left() != from.scroll_left() {
                    el.set_scroll_left(from.scroll_left());
                }
            }
        })
    };

    // Once drawn, the first difference is kept in view in both diagrams.
    let mark = shown
        .as_ref()
        .as_ref()
        .and_then(|(c, _, _)| c.divergence.as_ref().map(|d| d.step));
    let focus = shown.as_ref().as_ref().and_then(|(_, ta, _)| {
        ta.steps
            .iter()
            .find(|b| Some(b.step) == mark)
            .map(|b| (b.x0 + b.x1) / 2)
    });

    html! {
        <details class="panel tool compare" {ontoggle}>
            {tool_summary("Compare policies", "Replay this run's steps under another receiver policy, or take another branch of it, side by side, and see the first step where the two differ.")}
            <div class="field compare-pick">
                <label for="compare-select">{"Compare with"}</label>
                <select id="compare-select" {onchange}>
                    {policy_groups(state.current(), &options, &other_value)}
                    {option_group("Other branches of this run", &branches, &other_value)}
                </select>
            </div>
            if let Some((c, ta, tb)) = shown.as_ref() {
                <p class="compare-result" role="status">{summary(c)}</p>
                <h3 id="cmp-a-h">{this_title}</h3>
                <Diagram tl={ta.clone()} label="cmp-a-h" desc_id="cmp-a-desc"
                    desc={describe(c.main.cursor(), ta)} {mark} {focus}
                    scroller={ra.clone()} onscroll={follow(rb.clone())} />
                <h3 id="cmp-b-h">{other_title}</h3>
                <Diagram tl={tb.clone()} label="cmp-b-h" desc_id="cmp-b-desc"
                    desc={describe(c.other.cursor(), tb)} {mark} {focus}
                    scroller={rb.clone()} onscroll={follow(ra.clone())} />
            }
        </details>
    }
}

//! Every node's state, with what the last step changed highlighted.

use crate::ui::state::use_app;
use crate::view::inspect;
use yew::prelude::*;

#[component]
pub fn Inspector() -> Html {
    let state = use_app();
    let run = &state.run;
    let sections = use_memo(state.version, |_| inspect::sections(run));
    html! {
        <section class="panel inspector" aria-labelledby="inspector-h">
            <h2 id="inspector-h">{"Inspector"}</h2>
            <p class="note">{format!("True time t = {}. ", run.world().now())}<span class="changed-key">{"Highlighted"}</span>{": changed by the last step."}</p>
            <div class="cards">
                for s in sections.iter() {
                    <div class={classes!("card", format!("card-{}", s.kind.class()))} key={s.title.clone()}>
                        <h3>{s.title.clone()}<small>{s.subtitle.clone()}</small></h3>
                        <dl>
                            for r in &s.rows {
                                <div class={classes!("kv", r.changed.then_some("changed"))} key={r.label.clone()}>
                                    <dt>{r.label.clone()}</dt>
                                    <dd>{r.value.clone()}if r.changed {<span class="visually-hidden">{" (changed)"}</span>}</dd>
                                </div>
                            }
                        </dl>
                    </div>
                }
            </div>
        </section>
    }
}

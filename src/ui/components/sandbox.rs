//! Hands on the world: every worker, the coordinator and each resource, plus time itself.
//! Each button is one model action, disabled when the world refuses it now.

use super::act_button;
use crate::sim::{Action, World};
use crate::ui::state::use_app;
use crate::view::text;
use yew::prelude::*;

/// The write the sandbox's "Write" button sends from `worker` to `resource`: the model's
/// rule (`World::write_to`), which the buttons only offer.
fn write_for(w: &World, worker: &str, resource: &str) -> Option<Action> {
    Some(Action::Write {
        worker: worker.into(),
        write: w.write_to(worker, resource)?,
    })
}

/// What "Prepare" builds without sending: the same write, its token captured now — the
/// paused writer's request, sent later by "Send prepared".
fn prepare_for(w: &World, worker: &str, resource: &str) -> Option<Action> {
    Some(Action::Prepare {
        worker: worker.into(),
        write: w.write_to(worker, resource)?,
    })
}

/// What the worker would put on a write now, in its legend: the token, or why there is none.
fn token_note(wk: &crate::sim::worker::Worker) -> String {
    match (wk.main_lease(), wk.omits_token) {
        (Some(_), true) => "its code omits the token".into(),
        (Some(l), false) => format!("believes it holds token {}", l.token),
        (None, _) => "no lease: its writes carry no token".into(),
    }
}

#[derive(Properties, PartialEq)]
pub struct SandboxProps {
    /// Open whatever the run: an embed that asked for the sandbox (`&sandbox`) wants it.
    #[prop_or(false)]
    pub unfolded: bool,
}

#[component]
pub fn Sandbox(props: &SandboxProps) -> Html {
    let state = use_app();
    let w = state.run.world();
    let a = |action: Action, text: &str, name: String| act_button(&state, action, text, name);

    // Each button as data — (action, visible text, accessible name) — rendered by one loop.
    let buttons = |list: Vec<(Action, String, String)>| -> Html {
        html! { <div class="row">{for list.into_iter().map(|(act, text, name)| a(act, &text, name))}</div> }
    };
    let workers = w.workers().iter().map(|wk| {
        let n = wk.name.clone();
        let worker = || n.clone();
        let b = |act: Action, text: &str, verb: &str| (act, text.to_string(), format!("{verb} {n}"));
        let target = w.home_resource(&n);
        let mut main = vec![b(Action::Acquire { worker: worker(), lock: None }, "Acquire", "Acquire")];
        if let Some(t) = target {
            main.extend(write_for(w, &n, t).map(|act| b(act, "Write", "Write")));
            main.extend(prepare_for(w, &n, t).map(|act| (act, "Prepare".into(), format!("Prepare {n}: build a write to {t} with the token held now, not sent yet"))));
        }
        for r in w.resources().iter().map(|r| r.name.as_str()).filter(|r| Some(*r) != target) {
            main.extend(write_for(w, &n, r).map(|act| (act, format!("Write → {r}"), format!("Write {n} to {r}"))));
        }
        main.push(b(Action::Renew { worker: worker() }, "Renew", "Renew"));
        main.push(b(Action::Release { worker: worker() }, "Release", "Release"));
        main.push(b(Action::Retry { worker: worker() }, "Retry", "Retry"));
        main.push(b(Action::Send { worker: worker() }, "Send prepared", "Send prepared"));
        let cut = if wk.partitioned {
            b(Action::Heal { worker: worker() }, "Reconnect", "Reconnect")
        } else {
            // The cut loses what is on the wire between them too (docs/scenario-format.md).
            (Action::Partition { worker: worker() }, "Cut off".into(), format!("Cut off {n} from the coordinator, losing messages in flight between them"))
        };
        let faults = vec![
            b(Action::Pause { worker: worker(), ticks: None }, "Pause", "Pause"),
            // Resuming carries on where the worker stopped: a prepared write goes out at once,
            // so the button says so rather than leave "Send prepared" to grey out unexplained.
            if wk.prepared.is_empty() {
                b(Action::Resume { worker: worker() }, "Resume", "Resume")
            } else {
                (Action::Resume { worker: worker() }, "Resume and send".into(), format!("Resume and send {n}: it carries on where it stopped, sending its prepared write"))
            },
            b(Action::Crash { worker: worker() }, "Crash", "Crash"),
            b(Action::Restart { worker: worker() }, "Restart", "Restart"),
            cut,
            (Action::ClockJump { node: worker(), by: 5 }, "Clock +5".into(), format!("Clock +5 {n}: jump its clock forward")),
            (Action::ClockJump { node: worker(), by: -5 }, "Clock −5".into(), format!("Clock −5 {n}: jump its clock back")),
        ];
        html! {
            <fieldset class="node worker" key={n.as_str()}>
                <legend>{format!("Worker {n}")}<span class="status">{text::status(&wk.status)}</span><span class="status token-note">{token_note(wk)}</span></legend>
                {buttons(main)}
                <div class="faults">{buttons(faults)}</div>
            </fieldset>
        }
    });

    let resources = w.resources().iter().map(|r| {
        let n = r.name.clone();
        html! {
            <fieldset class="node resource" key={n.as_str()}>
                <legend>{n.clone()}<span class="status">{r.kind.name()}</span></legend>
                {buttons(vec![
                    (Action::ResourceBackup { resource: n.clone() }, "Back up".into(), format!("Back up {n}")),
                    (Action::ResourceRestore { resource: n.clone() }, "Restore from backup".into(), format!("Restore from backup: {n}")),
                    (Action::ResourceRestart { resource: n.clone() }, "Restart".into(), format!("Restart {n}")),
                ])}
            </fieldset>
        }
    });

    // Folded beside a scripted story until the reader takes over: when the script has nothing
    // more to say, or once they have acted. A reader can open it at any time.
    let run = &state.run;
    let open = props.unfolded
        || run.scenario.script.is_empty()
        || run.has_user_actions()
        || run.next_script_step().is_none();
    html! {
        <details class="panel sandbox tool" {open}>
            <summary>
                <h2 id="sandbox-h">{"Sandbox"}</h2>
                <span class="summary-note">{"Take over: act on the world at the current step."}</span>
            </summary>
            <p class="note">{"Acting after stepping back forks the run from there; the steps it replaces are kept as a branch."}</p>
            <div class="time">{buttons(vec![
                (Action::Advance { ticks: 1 }, "Advance 1 tick".into(), "Advance 1 tick".into()),
                (Action::Advance { ticks: 5 }, "Advance 5 ticks".into(), "Advance 5 ticks".into()),
            ])}</div>
            {for workers}
            <fieldset class="node coordinator">
                <legend>{"Coordinator"}</legend>
                {buttons(vec![
                    (Action::CoordinatorBackup, "Back up".into(), "Back up coordinator".into()),
                    (Action::CoordinatorRestart { persist: None }, "Restart".into(), "Restart coordinator".into()),
                    (Action::CoordinatorRestart { persist: Some(false) }, "Restart, losing state".into(), "Restart, losing state: the coordinator forgets its leases and counters".into()),
                    (Action::CoordinatorRestore, "Restore from backup".into(), "Restore from backup: coordinator".into()),
                    (Action::CoordinatorFailover, "Fail over".into(), "Fail over coordinator".into()),
                    (Action::ClockJump { node: "coordinator".into(), by: 5 }, "Clock +5".into(), "Clock +5 coordinator: jump its clock forward".into()),
                ])}
            </fieldset>
            {for resources}
        </details>
    }
}

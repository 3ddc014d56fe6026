//! `AppState` (src/view/state.rs) as yew's `Reducible`: the reducer only delegates to
//! `AppState::apply`, which delegates to `Run`.

use crate::view::state::{AppState, Msg};
use std::rc::Rc;
use yew::prelude::*;

/// What every component reads and dispatches to.
pub type AppCtx = UseReducerHandle<AppState>;

impl Reducible for AppState {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        if let Some(what) = msg.long_work() {
            // Written before the work, as a fault leaves nothing to write with afterwards.
            crate::ui::before_long_work(what, &self.link());
        }
        reduce_with(self, |s| s.apply(msg))
    }
}

/// A reducer over a state machine whose `apply` says whether anything changed.
pub(crate) fn reduce_with<T: Clone>(state: Rc<T>, apply: impl FnOnce(&mut T) -> bool) -> Rc<T> {
    let mut next = (*state).clone();
    if apply(&mut next) {
        Rc::new(next)
    } else {
        // The same Rc: yew skips the re-render.
        state
    }
}

/// The app state from the context the `App` provides.
#[hook]
pub fn use_app() -> AppCtx {
    use_context::<AppCtx>().expect("components are rendered inside App's ContextProvider")
}

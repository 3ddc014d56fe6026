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
        let mut next = (*self).clone();
        if next.apply(msg) {
            Rc::new(next)
        } else {
            // The same Rc: yew skips the re-render.
            self
        }
    }
}

/// The app state from the context the `App` provides.
#[hook]
pub fn use_app() -> AppCtx {
    use_context::<AppCtx>().expect("components are rendered inside App's ContextProvider")
}

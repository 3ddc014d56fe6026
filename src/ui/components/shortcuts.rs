//! The keyboard-shortcuts button and dialog (`?` opens it, Escape closes it).

use crate::ui::hooks::{trap_tab, use_dialog_focus};
use crate::ui::state::use_app;
use crate::view::state::{Msg, SHORTCUTS};
use yew::prelude::*;

#[component]
pub fn Shortcuts() -> Html {
    let state = use_app();
    let open = state.help_open;
    let close_ref = use_node_ref();
    let opener_ref = use_node_ref();
    use_dialog_focus(open, close_ref.clone(), opener_ref.clone());
    let d = state.dispatcher();
    let show = {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::Help(true)))
    };
    let hide = Callback::from(move |_: MouseEvent| d.dispatch(Msg::Help(false)));
    html! {
        <>
            <button type="button" class="small shortcuts-button" ref={opener_ref} onclick={show} aria-haspopup="dialog">
                {"Keyboard shortcuts "}<kbd aria-hidden="true">{"?"}</kbd>
            </button>
            if open {
                <div class="backdrop">
                    <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="shortcuts-h" onkeydown={Callback::from(|e: KeyboardEvent| trap_tab(&e))}>
                        <h2 id="shortcuts-h">{"Keyboard shortcuts"}</h2>
                        <table>
                            <tbody>
                                for (keys, what) in SHORTCUTS {
                                    <tr><th scope="row"><kbd>{keys}</kbd></th><td>{what}</td></tr>
                                }
                            </tbody>
                        </table>
                        <p class="note">{"Keys are ignored while a menu, slider or text field has focus."}</p>
                        <button type="button" ref={close_ref} onclick={hide}>{"Close"}</button>
                    </div>
                </div>
            }
        </>
    }
}

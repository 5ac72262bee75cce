//! "Copy link" and "Embed": two buttons that open `crate::share_dialog` (the permalink, copied
//! to the clipboard and put in the address bar, or the `<iframe>` snippet with its controls)
//! under the button pressed; the app draws the open dialog.

use crate::components::share_dialog::open_share;
use crate::hooks::use_share_dialog::ShareOpen;
use crate::share::{ShareSession, Which};
use crate::state::Msg;
use yew::prelude::*;

/// The session as the share dialog needs it (its scenario, steps, preset, title and lesson),
/// computed when a button is pressed.
pub type Session = Callback<(), ShareSession>;

/// The two buttons; `on_open` receives the dialog to draw. (A plain function rather than a
/// component: it has no state.)
pub fn share_buttons(
    session: &Session,
    on_open: &Callback<ShareOpen>,
    on_msg: &Callback<Msg>,
) -> Html {
    let open = |which: Which| {
        let (session, on_open, on_msg) = (session.clone(), on_open.clone(), on_msg.clone());
        Callback::from(move |e: MouseEvent| {
            let session = session.emit(());
            // The button (Yew delegates events, so the current target is not the button).
            let Some(anchor) = e
                .target_dyn_into::<web_sys::Element>()
                .and_then(|el| el.closest("button").ok().flatten())
            else {
                return;
            };
            match open_share(which, &anchor, &session) {
                Ok(open) => on_open.emit(open),
                Err(e) => on_msg.emit(Msg::Notice(format!("Could not open that: {e}"))),
            }
        })
    };
    html! {
        <div class="share-tools">
            <button type="button" class="btn" data-testid="copy-link-button" aria-haspopup="dialog"
                onclick={open(Which::Link)} title="Copy a link that restores this session at this step">
                { "Copy link" }
            </button>
            <button type="button" class="btn" data-testid="embed-button" aria-haspopup="dialog"
                onclick={open(Which::Embed)} title="An iframe snippet for your own page">
                { "Embed" }
            </button>
        </div>
    }
}

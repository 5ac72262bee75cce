//! "Copy link" and "Embed": two buttons. What they open (the permalink, copied to the clipboard
//! and put in the address bar, and the `<iframe>` snippet with its controls) is drawn by the
//! rollout-lab module (`crate::share_dialog`), loaded on the first click, which keeps the app
//! page's own module small.

use crate::lazy;
use crate::state::Msg;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

/// The session as the share dialog needs it: its scenario as JSON, the steps taken, the preset
/// it started from, and a title for an embed; computed when a button is pressed.
pub type Session = Callback<(), (String, usize, String, String)>;

/// The two buttons. (A plain function rather than a component: it has no state, and a
/// component type costs the app page's module more.)
pub fn share_buttons(session: &Session, on_msg: &Callback<Msg>) -> Html {
    let open = |which: &'static str| {
        let (session, on_msg) = (session.clone(), on_msg.clone());
        Callback::from(move |e: MouseEvent| {
            let (json, steps, preset, title) = session.emit(());
            // The button (Yew delegates events, so the current target is not the button).
            let anchor = e
                .target_dyn_into::<web_sys::Element>()
                .and_then(|el| el.closest("button").ok().flatten())
                .map(JsValue::from)
                .unwrap_or_default();
            let args = [
                which.into(),
                anchor,
                json.into(),
                (steps as f64).into(),
                preset.into(),
                title.into(),
            ];
            let on_msg = on_msg.clone();
            spawn_local(async move {
                if let Err(e) = lazy::call_lab("openShare", &args).await {
                    on_msg.emit(Msg::Notice(format!("Could not open that: {e}")));
                }
            });
        })
    };
    html! {
        <div class="share-tools">
            <button type="button" class="btn" data-testid="copy-link-button" aria-haspopup="dialog"
                onclick={open("link")} title="Copy a link that restores this session at this step">
                { "Copy link" }
            </button>
            <button type="button" class="btn" data-testid="embed-button" aria-haspopup="dialog"
                onclick={open("embed")} title="An iframe snippet for your own page">
                { "Embed" }
            </button>
        </div>
    }
}

//! The "Inside the controllers" section of the app page. Closed, it says what is inside; open,
//! it draws `crate::components::inside_panel::InsidePanel` for the app's own simulation at its step (the frame is
//! computed by the app, see `App`), and the panel's requests go to the reducer as
//! [`Msg::Inside`].
//!
//! Plain functions rather than a component with hooks: the section has no state of its own.

use crate::components::inside_panel::{inside_panel, InsidePanelProps};
use crate::inside::InsideFrame;
use crate::state::Msg;
use std::rc::Rc;
use yew::prelude::*;

/// The id of the element the panel is drawn in.
pub const HOST_ID: &str = "inside-host";
/// The id of the section.
pub const SECTION_ID: &str = "inside-section";

fn element(id: &str) -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// Brings the section into view when it starts below the fold (after a click on a pod or a
/// ReplicaSet far above it).
pub fn reveal() {
    let (Some(el), Some(window)) = (element(SECTION_ID), web_sys::window()) else {
        return;
    };
    let fold = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(800.0);
    if el.get_bounding_client_rect().top() > fold * 0.6 {
        el.scroll_into_view();
    }
}

/// The section: closed (`frame` is `None`) or open with the panel for `frame`.
pub fn inside_section(frame: Option<Rc<InsideFrame>>, on_msg: &Callback<Msg>) -> Html {
    let open = frame.is_some();
    let toggle = on_msg.reform(|_: MouseEvent| Msg::ToggleInside);
    html! {
        <section class="panel inside-section" id={SECTION_ID} aria-labelledby="inside-title" data-testid="inside-section">
            <div class="panel-head">
                <h2 class="panel-title" id="inside-title">{ "Inside the controllers" }</h2>
                <button type="button" class="btn btn-small" data-testid="inside-toggle"
                    aria-expanded={if open { "true" } else { "false" }} aria-controls={HOST_ID}
                    onclick={toggle}>
                    { if open { "Hide" } else { "Show" } }
                </button>
            </div>
            if let Some(frame) = frame {
                <div class="inside-host" id={HOST_ID}>
                    { inside_panel(&InsidePanelProps { frame, on_request: on_msg.reform(Msg::Inside) }) }
                </div>
            } else {
                <p class="panel-sub">
                    { "Any object as kubectl get -o yaml prints it at this step, with what the step changed; the decision flow of each sync; and the ReplicaSet controller's slow start, expectations and why it deleted the pods it deleted. Click a ReplicaSet or a pod to inspect it." }
                </p>
            }
        </section>
    }
}

//! The "Inside the controllers" section of the app page. Closed, it says what is inside; open,
//! it holds the element the public rollout-lab module draws `crate::inside::InsidePanel` into
//! ([`draw_inside`], run by the app after each render; the module loads on first use), and the
//! panel's requests come back as a DOM event on that element.
//!
//! Plain functions rather than a component with hooks: the app page's module is near its size
//! budget, and every component type and hook instantiation costs kilobytes there.

use crate::lazy;
use crate::state::Msg;
use gloo_events::EventListener;
use wasm_bindgen::JsValue;
use yew::prelude::*;

/// The id of the element the panel is drawn into.
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

/// Draws the panel for the session (`json` at `steps`, inspecting `selected`) and listens
/// for its requests until the returned listener is dropped. Nothing when the section is closed.
pub fn draw_inside(
    json: String,
    steps: usize,
    selected: &str,
    on_msg: &Callback<Msg>,
) -> Option<EventListener> {
    let host = element(HOST_ID)?;
    let target = host.clone();
    let on_request = on_msg.clone();
    let listener = EventListener::new(&host, crate::inside::REQUEST_EVENT, move |_| {
        if let Some(text) = target.get_attribute("data-request") {
            on_request.emit(Msg::Inside(text));
        }
    });
    let args = [
        JsValue::from(host),
        JsValue::from(json),
        JsValue::from(steps as u32),
        JsValue::from(selected),
    ];
    let on_msg = on_msg.clone();
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = lazy::call_lab("renderInside", &args).await {
            on_msg.emit(Msg::Notice(format!("Inside the controllers: {e}")));
        }
    });
    Some(listener)
}

/// The section.
pub fn inside_section(open: bool, on_msg: &Callback<Msg>) -> Html {
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
            if open {
                // Drawn into by the rollout-lab module: this element has no children of its own.
                <div class="inside-host" id={HOST_ID} />
            } else {
                <p class="panel-sub">
                    { "Any object as kubectl get -o yaml prints it at this step, with what the step changed; the decision flow of each sync; and the ReplicaSet controller's slow start, expectations and why it deleted the pods it deleted. Click a ReplicaSet or a pod to inspect it." }
                </p>
            }
        </section>
    }
}

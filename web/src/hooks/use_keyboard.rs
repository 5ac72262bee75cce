//! The app's keyboard: Space plays and pauses, the arrows step (Shift: a whole round), Page
//! Up/Down move through a lesson, P presents and Esc leaves presentation mode.

use crate::hooks::use_presentation::Presenting;
use crate::state::{Lab, Msg};
use gloo_events::{EventListener, EventListenerOptions};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};
use yew::prelude::*;

/// What Step does (Compare's `route_step` once Compare is known), shared with the listener.
pub type Route = Rc<RefCell<Option<Rc<dyn Fn(Msg) -> Msg>>>>;

/// Whether a key press is meant for the element that has focus rather than for the app.
pub fn key_belongs_to_target(e: &KeyboardEvent, space: bool) -> bool {
    let Some(el) = e.target().and_then(|t| t.dyn_into::<HtmlElement>().ok()) else {
        return false;
    };
    if el.is_content_editable() {
        return true;
    }
    // A pod token on the stage: the arrow keys move between pods, Enter and Space inspect.
    if el.has_attribute("data-pod") {
        return true;
    }
    match el.tag_name().as_str() {
        "INPUT" | "SELECT" | "TEXTAREA" => true,
        "BUTTON" | "A" | "SUMMARY" => space,
        _ => false,
    }
}

/// Listens for the app's keys on the whole document while `on`.
#[hook]
pub fn use_keyboard(
    on: bool,
    d: UseReducerDispatcher<Lab>,
    route: Route,
    present: UseReducerDispatcher<Presenting>,
) {
    use_effect_with(on, move |on| {
        let listener = on.then(gloo_utils_document).flatten().map(|doc| {
            let options = EventListenerOptions::enable_prevent_default();
            EventListener::new_with_options(&doc, "keydown", options, move |event| {
                let Some(e) = event.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                if e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                let key = e.key();
                let msg = match key.as_str() {
                    " " | "Spacebar" if !key_belongs_to_target(e, true) => Msg::TogglePlay,
                    "ArrowRight" if !key_belongs_to_target(e, false) => {
                        if e.shift_key() {
                            Msg::StepRound
                        } else {
                            Msg::Step
                        }
                    }
                    "PageDown" if !key_belongs_to_target(e, false) => Msg::LessonNext,
                    "PageUp" if !key_belongs_to_target(e, false) => Msg::LessonBack,
                    "ArrowLeft" if !key_belongs_to_target(e, false) => {
                        if e.shift_key() {
                            Msg::BackRound
                        } else {
                            Msg::StepBack
                        }
                    }
                    "p" | "P" if !key_belongs_to_target(e, false) => {
                        e.prevent_default();
                        present.dispatch(None);
                        return;
                    }
                    "Escape" => {
                        present.dispatch(Some(false));
                        return;
                    }
                    _ => return,
                };
                e.prevent_default();
                let msg = match route.borrow().as_ref() {
                    Some(r) => r(msg),
                    None => msg,
                };
                d.dispatch(msg);
            })
        });
        move || drop(listener)
    });
}

pub fn gloo_utils_document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

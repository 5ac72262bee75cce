//! The Races view's keys, on the whole document while it is shown on the app page: N the
//! walk-through's next step, B or Backspace back, 1–6 the step kinds
//! (`crate::state::races::KINDS`). Keys typed into a field or a menu stay there.

use crate::hooks::use_keyboard::{gloo_utils_document, key_belongs_to_target};
use crate::state::races::{RaceMsg, KINDS};
use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// The message a key asks for, if any.
pub fn race_key(key: &str) -> Option<RaceMsg> {
    Some(match key {
        "n" | "N" => RaceMsg::Next,
        "b" | "B" | "Backspace" => RaceMsg::Back,
        _ => {
            let i = key.parse::<usize>().ok()?.checked_sub(1)?;
            RaceMsg::Step(KINDS.get(i)?.clone())
        }
    })
}

/// Listens for the Races view's keys while `on`.
#[hook]
pub fn use_race_keys(on: bool, d: UseReducerDispatcher<crate::state::races::RaceLab>) {
    use_effect_with(on, move |on| {
        let doc = on.then(gloo_utils_document).flatten();
        let listener = doc.map(|doc| {
            let options = EventListenerOptions::enable_prevent_default();
            EventListener::new_with_options(&doc, "keydown", options, move |event| {
                let Some(e) = event.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                if e.ctrl_key() || e.meta_key() || e.alt_key() || key_belongs_to_target(e, false) {
                    return;
                }
                if let Some(msg) = race_key(&e.key()) {
                    e.prevent_default();
                    d.dispatch(msg);
                }
            })
        });
        move || drop(listener)
    });
}

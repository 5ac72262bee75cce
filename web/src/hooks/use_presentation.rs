//! Presentation mode: the stage fills the screen (full screen when the browser allows).

use gloo_events::EventListener;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Presentation mode: on or off (a reducer, so the document's key listener toggles the
/// current value, not the one it was created with).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Presenting(pub bool);

impl Reducible for Presenting {
    type Action = Option<bool>;
    /// `Some(on)` sets it, `None` toggles.
    fn reduce(self: Rc<Self>, action: Option<bool>) -> Rc<Self> {
        let on = action.unwrap_or(!self.0);
        if on == self.0 {
            self
        } else {
            Rc::new(Presenting(on))
        }
    }
}

thread_local! {
    /// Whether presentation mode asked for full screen (so leaving full screen leaves it too).
    static FULLSCREEN: RefCell<bool> = const { RefCell::new(false) };
}

/// Calls a method that returns a promise and ignores its refusal (the Fullscreen API refuses
/// without a user gesture, in a frame that does not allow it, or with a permission policy).
fn call_quietly(target: &wasm_bindgen::JsValue, method: &str) {
    let Ok(f) = js_sys::Reflect::get(target, &method.into()) else {
        return;
    };
    let Some(f) = f.dyn_ref::<js_sys::Function>() else {
        return;
    };
    if let Ok(p) = f
        .call0(target)
        .and_then(|p| p.dyn_into::<js_sys::Promise>())
    {
        // Awaiting the promise handles its rejection (no "uncaught in promise").
        wasm_bindgen_futures::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(p).await;
        });
    }
}

/// Enters or leaves the browser's full screen with presentation mode, when the browser allows.
pub fn fullscreen(on: bool) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if on {
        if doc.fullscreen_element().is_none() {
            if let Some(el) = doc.document_element() {
                FULLSCREEN.with(|f| *f.borrow_mut() = true);
                call_quietly(&el, "requestFullscreen");
            }
        }
    } else {
        FULLSCREEN.with(|f| *f.borrow_mut() = false);
        if doc.fullscreen_element().is_some() {
            call_quietly(&doc, "exitFullscreen");
        }
    }
}

/// Whether full screen was left by the browser (Esc) while presentation mode had asked for it.
pub fn fullscreen_left() -> bool {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    doc.fullscreen_element().is_none() && FULLSCREEN.with(|f| std::mem::take(&mut *f.borrow_mut()))
}

/// Presentation mode's state, with its effect: full screen when the browser allows; leaving it
/// (the button, P, Esc or the browser's own Esc out of full screen) restores the page where it
/// was.
#[hook]
pub fn use_presentation() -> UseReducerHandle<Presenting> {
    let presenting = use_reducer(Presenting::default);
    let present = presenting.dispatcher();
    let scroll = use_mut_ref(|| 0.0f64);
    use_effect_with(presenting.0, move |on| {
        let window = web_sys::window();
        if *on {
            *scroll.borrow_mut() = window
                .as_ref()
                .and_then(|w| w.scroll_y().ok())
                .unwrap_or(0.0);
            fullscreen(true);
        } else {
            fullscreen(false);
            if let Some(w) = &window {
                w.scroll_to_with_x_and_y(0.0, *scroll.borrow());
            }
        }
        let listener = on.then(gloo_utils_document).flatten().map(|doc| {
            EventListener::new(&doc, "fullscreenchange", move |_| {
                if fullscreen_left() {
                    present.dispatch(Some(false));
                }
            })
        });
        move || drop(listener)
    });
    presenting
}

fn gloo_utils_document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

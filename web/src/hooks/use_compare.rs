//! Compare's hook: its reducer (`crate::state::compare`) wired to the page's lab, and what
//! Step does while comparing.

use crate::settings::Settings;
use crate::state::compare::{decode, param_of, with_param, Compare, CompareMsg, Moment};
use std::rc::Rc;
use yew::prelude::*;

/// Compare's reducer for the app, wired to the page's lab: opened from a permalink's `cmp=`,
/// told every move of A, and written into the address bar while on.
#[hook]
pub fn use_compare(lab: &UseReducerHandle<crate::state::Lab>) -> UseReducerHandle<Compare> {
    let compare = {
        let lab = lab.clone();
        use_reducer(move || {
            let hash = web_sys::window()
                .and_then(|w| w.location().hash().ok())
                .unwrap_or_default();
            let a = Settings::from_scenario(lab.sim().scenario())
                .map(|(s, _)| s)
                .unwrap_or_default();
            match param_of(&hash).and_then(|v| decode(v, &a)) {
                Some(variant) => Compare::starting(variant, true),
                None => Compare::starting(a, false),
            }
        })
    };
    // A moved (or Compare opened): B follows to A's time.
    {
        let (lab, d) = (lab.clone(), compare.dispatcher());
        use_effect_with((lab.version, compare.on), move |(_, on)| {
            if *on {
                let at = Moment::of(&lab.session());
                d.dispatch(CompareMsg::Follow(
                    Rc::new(lab.sim().scenario().clone()),
                    at,
                ));
            }
        });
    }
    // The address bar carries B's settings while Compare is on (`&cmp=…`).
    use_effect_with((compare.on, compare.variant.clone()), |(on, variant)| {
        let Some(w) = web_sys::window() else { return };
        let hash = w.location().hash().unwrap_or_default();
        let next = with_param(&hash, on.then_some(variant));
        if next != hash.trim_start_matches('#') {
            if let Ok(h) = w.history() {
                let url = if next.is_empty() {
                    w.location().pathname().unwrap_or_default()
                        + &w.location().search().unwrap_or_default()
                } else {
                    format!("#{next}")
                };
                h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
                    .ok();
            }
        }
    });
    compare
}

/// What Step does while comparing: both stages go to the next moment either of them changes
/// (`Session::next_moment`: the earlier of A's and B's), through the whole of it, so at the
/// same clock each shows what its own settings made of that moment (B follows A there). Other
/// messages, and Step with Compare off, pass unchanged.
pub fn route_step(
    lab: &UseReducerHandle<crate::state::Lab>,
    compare: &UseReducerHandle<Compare>,
) -> Rc<dyn Fn(crate::state::Msg) -> crate::state::Msg> {
    use crate::state::Msg;
    let (lab, compare) = (lab.clone(), compare.clone());
    Rc::new(move |m: Msg| {
        if m != Msg::Step || !compare.on {
            return m;
        }
        let a = lab.session().next_moment();
        let b = compare
            .session
            .as_ref()
            .and_then(|s| s.borrow().next_moment());
        match a.into_iter().chain(b).min() {
            Some(t) => Msg::StepTo(t),
            None => m,
        }
    })
}

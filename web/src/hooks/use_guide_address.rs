//! The address follows the lesson: closing a lesson or challenge takes `lesson`, `step` and
//! `challenge` out of the address bar (`crate::share::without_guide`), so a reload or a copied
//! address opens what the page shows rather than the lesson again.

use yew::prelude::*;

/// Clears the guide's parameters from the address once no lesson or challenge is open
/// (`open` false). The full page only: an embed's host page keeps its address.
#[hook]
pub fn use_guide_address(open: bool) {
    use_effect_with(open, |open| {
        if *open {
            return;
        }
        let Some(w) = web_sys::window() else { return };
        let location = w.location();
        let (search, hash) = (
            location.search().unwrap_or_default(),
            location.hash().unwrap_or_default(),
        );
        let (clean_search, clean_hash) = (
            crate::share::without_guide(&search, '?'),
            crate::share::without_guide(&hash, '#'),
        );
        if clean_search == search && clean_hash == hash {
            return;
        }
        let url = location.pathname().unwrap_or_default() + &clean_search + &clean_hash;
        if let Ok(h) = w.history() {
            h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
                .ok();
        }
    });
}

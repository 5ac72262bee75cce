//! Rollout Lab's browser front end: Yew function components over `rollout-core`.
//!
//! All state lives in one reducer ([`state::Lab`]): the settings as typed, the simulation (in
//! place, with its history), playback and the kubectl console. Components render props and
//! dispatch [`state::Msg`]s; what the page shows is [`state::Frame`], a function of the
//! simulation. Everything that can be computed without a browser (settings and validation,
//! the reducer, explanations, image names, bounds, chart geometry) is tested natively.
//!
//! The crate is also the page's one wasm module (`dist/rollout-lab.js`, the `rollout-lab`
//! binary): [`api`] holds its exports (the JavaScript API, `mount`, the `<rollout-lab>`
//! element's `mountElement`, and `mountPage`, which the app page and `?embed` boot from).

// No function over 120 lines (web/clippy.toml), except table-shaped data (allowed where it is).
#![warn(clippy::too_many_lines)]

pub mod api;
pub mod boot;
pub mod bounds;
pub mod chart;
pub mod components;
pub mod explain;
pub mod export;
pub mod files;
pub mod hooks;
pub mod images;
pub mod inside;
pub mod js_input;
pub mod lesson;
pub mod plan_api;
pub mod plan_source;
pub mod plan_worker;
pub mod race_search;
pub mod settings;
pub mod share;
pub mod state;
pub mod yaml_reader;

pub use components::app::{App, AppProps};

/// Replaces Yew's panic hook: the message still goes to the console, and the page says that
/// something went wrong instead of silently freezing. (Release builds abort on panic, so a
/// panic cannot be caught; the app validates its inputs so that none should happen.)
pub fn install_panic_hook() {
    yew::set_custom_panic_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            if let (Ok(banner), Some(body)) = (document.create_element("div"), document.body()) {
                banner.set_class_name("crash-banner");
                banner.set_attribute("role", "alert").ok();
                banner.set_text_content(Some(
                    "Rollout Lab hit an internal error and stopped. Reload the page to start \
                     again; the browser console has the details.",
                ));
                body.prepend_with_node_1(&banner).ok();
            }
        }
    }));
}

/// Adds a stylesheet to the page once (what only a dialog or an opened section needs is not
/// loaded up front). `href` is relative to the page.
pub fn load_stylesheet(id: &str, href: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if document.get_element_by_id(id).is_some() {
        return;
    }
    if let (Ok(link), Some(head)) = (document.create_element("link"), document.head()) {
        link.set_id(id);
        link.set_attribute("rel", "stylesheet").ok();
        link.set_attribute("href", href).ok();
        head.append_child(&link).ok();
    }
}

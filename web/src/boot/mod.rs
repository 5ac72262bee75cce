//! Booting a lab into a page, one place for the three ways in: the app page (`mountPage`:
//! the full [`App`], or the embed layout for `?embed`), a `mount()`ed element and a
//! `<rollout-lab>` element ([`element`]: its shadow root). The JavaScript surface that calls
//! these is `crate::api`.

pub mod element;

use crate::components::app::{App, AppProps};
use crate::components::embed::{EmbedApp, EmbedAppProps};
use crate::hooks::use_controller::Controller;
use crate::share::app_address;
use crate::state::{Lab, Msg};
use rollout_facade::embed::{is_on, EmbedOptions};
use wasm_bindgen::prelude::*;
use yew::AppHandle;

/// Draws the embed layout of `lab` into `root`, with the controls of `options`, "Open in
/// Rollout Lab" going to `app_url` and the panels' headings at `heading`; returns the
/// controller that drives it and the handle that unmounts it.
pub fn mount_embed(
    root: web_sys::Element,
    lab: Lab,
    options: EmbedOptions,
    app_url: Option<String>,
    heading: u8,
) -> (Controller, AppHandle<EmbedApp>) {
    let controller = Controller::new();
    controller.stage(lab);
    let handle = yew::Renderer::<EmbedApp>::with_root_and_props(
        root,
        EmbedAppProps {
            options,
            app_url: app_url.map(Into::into),
            controller: Some(controller.clone()),
            heading,
            ..EmbedAppProps::default()
        },
    )
    .render();
    (controller, handle)
}

/// What the app's page (`index.html`) runs once the module is instantiated: with `?embed` in
/// the address, the embed layout with the controls the query asks for; otherwise the full app.
/// Either starts from the permalink in the fragment, if any (a damaged one: what could be
/// read, and a notice). A different link pasted into the address bar later reloads the page.
pub fn start_page() -> Result<(), String> {
    crate::install_panic_hook();
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let body = document.body().ok_or("no <body>")?;
    let location = window.location();
    let hash = location.hash().unwrap_or_default();
    let search = location.search().unwrap_or_default();
    let href = location.href().unwrap_or_default();
    match EmbedOptions::from_query(&search) {
        Some(options) => {
            // `&theme=light|dark|auto`: the page's colours (app.css, `html[data-theme]`).
            let (theme, autoplay) = page_extras(&search);
            if let Some(root) = document.document_element() {
                root.class_list().add_1("embed-page").ok();
                root.set_attribute("data-theme", theme).ok();
            }
            // `?embed&lesson=ID[&step=N]`: the lesson, staged for the embed layout.
            let controller = Controller::new();
            // `&k8s=1.28`: the Kubernetes version of what it starts (a link holds its own).
            let lesson = crate::share::lab_from_query(&search);
            let staged = if hash.is_empty() || lesson.is_some() {
                crate::share::with_query_kubernetes(lesson, &search)
            } else {
                None
            };
            if let Some(lab) = staged {
                controller.stage(lab);
            }
            yew::Renderer::<EmbedApp>::with_root_and_props(
                body.clone().into(),
                EmbedAppProps {
                    link: (!hash.is_empty()).then(|| hash.into()),
                    options,
                    app_url: Some(app_address(&href).into()),
                    controller: Some(controller.clone()),
                    page: true,
                    heading: 2,
                    ..EmbedAppProps::default()
                },
            )
            .render();
            // The parent page can size the iframe to its content (README, "Embedding").
            element::post_height_to_parent();
            // `&autoplay`: plays once the iframe is scrolled into view.
            if autoplay {
                let play = Closure::once_into_js(move || {
                    if controller.with_lab(|l| !l.playing) == Some(true) {
                        controller.dispatch(Msg::TogglePlay);
                    }
                });
                let _ = element::when_seen(&body, play.unchecked_ref());
            }
        }
        None => start_app(&hash, &search),
    }
    reload_on_new_links();
    Ok(())
}

/// The full app in the page's `<body>`, from the lab `crate::share::page_lab` reads in the
/// fragment `hash` and the query `search` (the default without one).
pub fn start_app(hash: &str, search: &str) {
    let props = AppProps {
        start: crate::share::page_lab(hash, search).map(std::rc::Rc::new),
        ..AppProps::default()
    };
    yew::Renderer::<App>::with_props(props).render();
}

/// Reloads the page when the address bar's fragment changes (a permalink pasted into the
/// address bar of an open page), so that the page starts from it. (The page itself only ever
/// replaces its address with `history.replaceState`, which fires no `hashchange`.)
pub fn reload_on_new_links() {
    let Some(window) = web_sys::window() else {
        return;
    };
    gloo_events::EventListener::new(&window, "hashchange", |_| {
        if let Some(w) = web_sys::window() {
            w.location().reload().ok();
        }
    })
    .forget();
}

/// The directory of the page's address ("Open in Rollout Lab" of a `mount()`ed lab).
pub fn page_directory() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .map(|u| {
            let base = app_address(&u);
            match base.rfind('/') {
                Some(i) => base[..=i].to_string(),
                None => base,
            }
        })
        .unwrap_or_default()
}

/// What an ?embed page's query says beyond the layout: its theme (`&theme=light|dark|auto`,
/// default auto) and whether it plays once seen (`&autoplay`, `&autoplay=1`; `0`, `false`,
/// `no` and `off` do not).
pub fn page_extras(search: &str) -> (&'static str, bool) {
    let mut theme = "auto";
    let mut autoplay = false;
    for part in search.trim_start_matches('?').split('&') {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        match key {
            "theme" => theme = element::theme(value),
            "autoplay" => autoplay = is_on(value),
            _ => {}
        }
    }
    (theme, autoplay)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_embed_page_reads_its_theme_and_autoplay() {
        assert_eq!(page_extras("?embed"), ("auto", false));
        assert_eq!(page_extras("?embed&theme=dark&autoplay"), ("dark", true));
        assert_eq!(
            page_extras("?embed&autoplay=0&theme=light"),
            ("light", false)
        );
        assert_eq!(page_extras("?embed&theme=neon&autoplay=1"), ("auto", true));
    }
}

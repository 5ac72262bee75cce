//! Share and embed in a real browser: the embed layout with chosen controls, and a permalink
//! restored and copied through the App. (The JavaScript API has its own tests in api.rs.)
//!
//! Runs under `wasm-bindgen-test-runner` in headless Chromium:
//! `cargo test -p rollout-web --target wasm32-unknown-unknown`. Natively this file is empty.
#![cfg(target_arch = "wasm32")]

use rollout_facade::embed::EmbedOptions;
use rollout_web::components::embed::{EmbedApp, EmbedAppProps};
use rollout_web::share::{lab_from_link, link_of};
use rollout_web::state::{Lab, Msg};
use rollout_web::{App, AppProps};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

#[path = "support/dom.rs"]
mod dom;
use dom::{attr, find, new_root, settle};

async fn click(root: &Element, testid: &str) {
    let el: HtmlElement = find(root, testid).unwrap().dyn_into().unwrap();
    el.click();
    settle().await;
}

#[wasm_bindgen_test]
async fn the_embed_shows_only_the_chosen_controls_and_steps() {
    let root = new_root();
    let options = EmbedOptions::from_query("?embed&controls=step,replicas").unwrap();
    let handle = yew::Renderer::<EmbedApp>::with_root_and_props(
        root.clone(),
        EmbedAppProps {
            link: Some("#p=rolling-basic&at=2".into()),
            options,
            app_url: Some("https://example.com/lab/".into()),
            ..EmbedAppProps::default()
        },
    )
    .render();
    settle().await;
    assert!(find(&root, "embed").is_some());
    assert!(find(&root, "play-button").is_none());
    assert!(find(&root, "max-surge-slider").is_none());
    assert!(find(&root, "replicas-slider").is_some());
    // A link without a version counts single syncs: `at=2` opens after two.
    assert_eq!(attr(&root, "round", "data-steps"), "2");
    click(&root, "step-button").await;
    // A Step goes to the next change, taking at least one sync.
    let steps: u64 = attr(&root, "round", "data-steps").parse().unwrap();
    assert!(steps >= 3, "{steps}");
    // "Open in Rollout Lab" carries a version-2 link that reopens this moment.
    let open = attr(&root, "open-in-lab", "href");
    let fragment = open
        .strip_prefix("https://example.com/lab/")
        .unwrap_or_else(|| panic!("{open}"));
    assert!(fragment.contains("v=2"), "{open}");
    assert!(fragment.contains("p=rolling-basic"), "{open}");
    let restored = lab_from_link(fragment).unwrap();
    assert_eq!(
        restored.sim().round().to_string(),
        attr(&root, "round", "data-round")
    );
    assert_eq!(
        restored.sim().now().to_string(),
        attr(&root, "round", "data-time")
    );
    handle.destroy();
    root.remove();
}

#[wasm_bindgen_test]
async fn the_app_starts_from_a_restored_permalink() {
    let mut lab = Lab::from_preset("rolling-basic").unwrap();
    for _ in 0..4 {
        lab.update(Msg::StepRound);
    }
    // A step to the next change: in round 4, or later when round 4 changes nothing.
    lab.update(Msg::Step);
    let (round, now, steps) = (lab.sim().round(), lab.sim().now(), lab.sim().steps_taken());
    assert!(round >= 4);
    let link = link_of(&lab);
    let restored = lab_from_link(&format!("#{link}")).unwrap();
    let root = new_root();
    let handle = yew::Renderer::<App>::with_root_and_props(
        root.clone(),
        AppProps {
            keyboard: false,
            start: Some(Rc::new(restored)),
            ..AppProps::default()
        },
    )
    .render();
    settle().await;
    assert_eq!(attr(&root, "round", "data-round"), round.to_string());
    // The same moment: round, clock and the single syncs taken (the link carries their count,
    // so the idle syncs the original spent in whole Rounds are spent again).
    assert_eq!(attr(&root, "round", "data-time"), now.to_string());
    assert_eq!(attr(&root, "round", "data-steps"), steps.to_string());
    assert!(find(&root, "notice").is_none());
    let select: web_sys::HtmlSelectElement =
        find(&root, "preset-select").unwrap().dyn_into().unwrap();
    assert_eq!(select.value(), "rolling-basic");
    assert!(find(&root, "copy-link-button").is_some());
    handle.destroy();
    root.remove();
}

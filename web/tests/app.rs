//! The App in a real browser: render it, type into the inputs like a user, read the DOM.
//!
//! Runs under `wasm-bindgen-test-runner` in headless Chromium:
//! `cargo test -p rollout-web --target wasm32-unknown-unknown`. Natively this file is empty.
#![cfg(target_arch = "wasm32")]

use rollout_web::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, InputEvent, InputEventInit};

wasm_bindgen_test_configure!(run_in_browser);

/// A rendered App in its own `<div>`, removed again on drop.
struct Mounted {
    root: Element,
}

impl Mounted {
    async fn new() -> Self {
        let document = document();
        let root = document.create_element("div").unwrap();
        document.body().unwrap().append_child(&root).unwrap();
        yew::Renderer::<App>::with_root(root.clone()).render();
        settle().await;
        Mounted { root }
    }

    fn find(&self, testid: &str) -> Option<Element> {
        self.root
            .query_selector(&format!("[data-testid=\"{testid}\"]"))
            .unwrap()
    }

    fn text(&self, testid: &str) -> String {
        self.find(testid)
            .unwrap_or_else(|| panic!("no element with data-testid={testid}"))
            .text_content()
            .unwrap_or_default()
    }

    fn input(&self, testid: &str) -> HtmlInputElement {
        self.find(testid)
            .unwrap_or_else(|| panic!("no input with data-testid={testid}"))
            .dyn_into()
            .unwrap()
    }

    /// Replaces an input's text the way typing does: set the value, fire a bubbling `input`.
    async fn type_into(&self, testid: &str, text: &str) {
        let input = self.input(testid);
        input.set_value(text);
        let init = InputEventInit::new();
        init.set_bubbles(true);
        init.set_data(Some(text));
        let event = InputEvent::new_with_event_init_dict("input", &init).unwrap();
        input.dispatch_event(&event).unwrap();
        settle().await;
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// Yew renders on its scheduler, after the current task: give it a moment (a 30 ms timeout).
async fn settle() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 30)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

#[wasm_bindgen_test]
async fn first_render_shows_the_title_and_the_default_bounds() {
    let app = Mounted::new().await;
    let h1 = app.root.query_selector("h1").unwrap().unwrap();
    assert_eq!(h1.text_content().unwrap(), "Rollout Lab");
    assert_eq!(app.input("replicas-input").value(), "3");
    assert_eq!(app.input("max-surge-input").value(), "25%");
    assert_eq!(app.input("max-unavailable-input").value(), "25%");
    assert_eq!(
        app.text("bounds-summary"),
        "maxSurge 25% of 3 → 1 (rounded up) · maxUnavailable 25% of 3 → 0 (rounded down) \
         · pods stay between 3 and 4"
    );
    assert!(app.find("validation-message").is_none());
    assert!(app.find("zero-rule-note").is_none());
}

#[wasm_bindgen_test]
async fn typing_replicas_updates_the_readout() {
    let app = Mounted::new().await;
    let before = app.text("bounds-summary");
    app.type_into("replicas-input", "10").await;
    let after = app.text("bounds-summary");
    assert_ne!(before, after);
    assert_eq!(
        after,
        "maxSurge 25% of 10 → 3 (rounded up) · maxUnavailable 25% of 10 → 2 (rounded down) \
         · pods stay between 8 and 13"
    );
    assert_eq!(app.text("surge-value"), "3");
    assert_eq!(app.text("unavailable-value"), "2");
    assert_eq!(app.text("range-value"), "8–13");
    assert!(app.text("surge-stat").contains("25% of 10, rounded up"));
    // One box a pod: 8 available + 2 that may be down + 3 surge.
    assert_eq!(app.root.query_selector_all(".pod").unwrap().length(), 13);
}

#[wasm_bindgen_test]
async fn zero_and_zero_explains_the_fallback_to_one() {
    let app = Mounted::new().await;
    app.type_into("replicas-input", "10").await;
    app.type_into("max-surge-input", "0").await;
    app.type_into("max-unavailable-input", "0").await;
    assert!(app.text("zero-rule-note").contains("maxUnavailable = 1"));
    assert!(app
        .text("bounds-summary")
        .contains("pods stay between 9 and 10"));
    assert_eq!(app.text("unavailable-value"), "1");
    assert!(app.text("unavailable-stat").contains("both were 0"));
}

#[wasm_bindgen_test]
async fn a_malformed_value_shows_a_validation_message_and_recovers() {
    let app = Mounted::new().await;
    app.type_into("max-surge-input", "abc").await;
    let message = app.text("validation-message");
    assert!(message.contains("maxSurge"), "{message}");
    assert!(app.find("bounds-summary").is_none());
    assert_eq!(
        app.input("max-surge-input")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    assert_eq!(
        app.input("replicas-input")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("false")
    );

    app.type_into("max-surge-input", "2").await;
    assert!(app.find("validation-message").is_none());
    assert!(app.text("bounds-summary").starts_with("maxSurge 2 pods"));
}

#[wasm_bindgen_test]
async fn a_preset_sets_both_strategy_fields() {
    let app = Mounted::new().await;
    let button: HtmlElement = app
        .root
        .query_selector(".presets button:nth-child(2)")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    button.click();
    settle().await;
    assert_eq!(app.input("max-surge-input").value(), "1");
    assert_eq!(app.input("max-unavailable-input").value(), "0");
    assert_eq!(
        button.get_attribute("aria-pressed").as_deref(),
        Some("true")
    );
    assert!(app
        .text("bounds-summary")
        .ends_with("pods stay between 3 and 4"));
}

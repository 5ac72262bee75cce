//! The App in a real browser: mount it, type and click like a user, read the DOM.
//!
//! Runs under `wasm-bindgen-test-runner` in headless Chromium:
//! `cargo test -p rollout-web --target wasm32-unknown-unknown`. Natively this file is empty.
#![cfg(target_arch = "wasm32")]

use rollout_web::{App, AppProps};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, InputEvent, InputEventInit};
use yew::AppHandle;

wasm_bindgen_test_configure!(run_in_browser);

/// A rendered App in its own `<div>`, destroyed and removed on drop.
struct Mounted {
    root: Element,
    handle: Option<AppHandle<App>>,
}

impl Mounted {
    /// The full app on the custom scenario (the settings panel's Deployment, its create
    /// pending: a first visit opens on a rollout instead, `first_visit`), without
    /// document-wide keyboard shortcuts (tests may run concurrently, and only the keyboard
    /// test should hear its keys).
    async fn new() -> Self {
        Mounted::with(AppProps {
            preset: Some("custom".into()),
            keyboard: false,
            ..AppProps::default()
        })
        .await
    }

    async fn with(props: AppProps) -> Self {
        let document = document();
        let root = document.create_element("div").unwrap();
        document.body().unwrap().append_child(&root).unwrap();
        let handle = yew::Renderer::<App>::with_root_and_props(root.clone(), props).render();
        settle().await;
        Mounted {
            root,
            handle: Some(handle),
        }
    }

    fn find(&self, testid: &str) -> Option<Element> {
        self.root
            .query_selector(&format!("[data-testid=\"{testid}\"]"))
            .unwrap()
    }

    fn get(&self, testid: &str) -> Element {
        self.find(testid)
            .unwrap_or_else(|| panic!("no element with data-testid={testid}"))
    }

    fn text(&self, testid: &str) -> String {
        self.get(testid).text_content().unwrap_or_default()
    }

    fn attr(&self, testid: &str, name: &str) -> String {
        self.get(testid).get_attribute(name).unwrap_or_default()
    }

    fn input(&self, testid: &str) -> HtmlInputElement {
        self.get(testid).dyn_into().unwrap()
    }

    fn count(&self, testid: &str) -> u32 {
        self.root
            .query_selector_all(&format!("[data-testid=\"{testid}\"]"))
            .unwrap()
            .length()
    }

    /// The simulation version the page was last drawn for (`data-version` on `.app`).
    fn version(&self) -> String {
        self.root
            .query_selector(".app")
            .unwrap()
            .and_then(|e| e.get_attribute("data-version"))
            .unwrap_or_default()
    }

    /// Runs `act`, then waits until the page has been redrawn for a new simulation version
    /// (tests run concurrently, so a fixed pause is not always long enough).
    async fn acting(&self, act: impl FnOnce()) {
        let before = self.version();
        act();
        // Not every action changes the simulation (an invalid edit does not): give up after
        // about 0.6 s and let the assertions speak.
        for _ in 0..20 {
            settle().await;
            if self.version() != before {
                break;
            }
        }
        settle().await;
    }

    async fn click(&self, testid: &str) {
        let el: HtmlElement = self.get(testid).dyn_into().unwrap();
        self.acting(|| el.click()).await;
    }

    /// Replaces an input's text the way typing does: set the value, fire a bubbling `input`.
    async fn type_into(&self, testid: &str, text: &str) {
        let input = self.input(testid);
        input.set_value(text);
        let init = InputEventInit::new();
        init.set_bubbles(true);
        init.set_data(Some(text));
        let event = InputEvent::new_with_event_init_dict("input", &init).unwrap();
        self.acting(|| {
            input.dispatch_event(&event).unwrap();
        })
        .await;
    }

    /// `data-desired` etc. of every ReplicaSet card.
    fn cards(&self) -> Vec<(String, i32, i32, i32, i32)> {
        let list = self
            .root
            .query_selector_all("[data-testid=\"rs-card\"]")
            .unwrap();
        (0..list.length())
            .map(|i| {
                let el: Element = list.item(i).unwrap().dyn_into().unwrap();
                let n = |a: &str| el.get_attribute(a).unwrap().parse::<i32>().unwrap();
                (
                    el.get_attribute("data-name").unwrap(),
                    n("data-desired"),
                    n("data-current"),
                    n("data-ready"),
                    n("data-available"),
                )
            })
            .collect()
    }

    fn round(&self) -> u32 {
        self.attr("round", "data-round").parse().unwrap()
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            h.destroy();
        }
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

/// Settles until `done` holds (tests run concurrently, and a busy neighbour can delay Yew's
/// render past one settle), failing after about three seconds.
async fn until(what: &str, done: impl Fn() -> bool) {
    for _ in 0..100 {
        if done() {
            return;
        }
        settle().await;
    }
    panic!("timed out waiting for {what}");
}

fn key(k: &str, shift: bool) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(k);
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_shift_key(shift);
    let e = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    document().body().unwrap().dispatch_event(&e).unwrap();
}

#[wasm_bindgen_test]
async fn first_render_shows_the_settings_the_pending_create_and_the_bounds() {
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
    assert_eq!(app.round(), 0);
    assert_eq!(app.attr("pending-action", "data-type"), "create");
    assert_eq!(app.count("rs-card"), 0);
    assert!(app.find("validation-message").is_none());
    assert_eq!(
        app.text("rollout-status"),
        "Error from server (NotFound): deployments.apps \"web\" not found\n"
    );
}

#[wasm_bindgen_test]
async fn typing_replicas_before_the_first_step_recreates_the_simulation() {
    let app = Mounted::new().await;
    app.type_into("replicas-input", "10").await;
    assert!(app
        .text("bounds-summary")
        .ends_with("pods stay between 8 and 13"));
    assert_eq!(app.attr("replicas-slider", "aria-valuetext"), "10");
    assert!(app.text("pending-actions").contains("--replicas=10"));
    app.click("step-button").await;
    app.click("step-button").await;
    app.click("step-button").await;
    assert_eq!(app.cards(), vec![("web-rev1".to_string(), 10, 0, 0, 0)]);
    assert_eq!(app.count("pending-action"), 0);
}

#[wasm_bindgen_test]
async fn zero_and_zero_shows_the_api_message_and_is_not_applied() {
    let app = Mounted::new().await;
    app.type_into("max-unavailable-input", "0").await;
    app.type_into("max-surge-input", "0").await;
    let message = app.text("validation-message");
    assert!(
        message.ends_with("may not be 0 when `maxSurge` is 0"),
        "{message}"
    );
    assert_eq!(app.attr("max-unavailable-input", "aria-invalid"), "true");
    assert!(app.find("bounds-summary").is_none());
    app.type_into("max-surge-input", "1").await;
    assert!(app.find("validation-message").is_none());
    assert!(app.text("bounds-summary").starts_with("maxSurge 1 pod"));
}

#[wasm_bindgen_test]
async fn steps_explain_themselves_and_step_back_undoes_them() {
    let app = Mounted::new().await;
    app.click("step-button").await;
    assert!(app
        .text("explanation-headline")
        .contains("kubectl create deployment web"));
    app.click("step-button").await;
    assert_eq!(app.text("actor"), "Deployment controller");
    assert_eq!(
        app.text("explanation-headline"),
        "Scaled up replica set web-rev1 to 3"
    );
    // The stage caption announces a step; the explanation is not a second live region.
    assert_eq!(app.attr("explanation", "aria-live"), "");
    let pods = || {
        app.root
            .query_selector_all(".pod-grid .pod")
            .unwrap()
            .length()
    };
    let before = (app.cards(), pods(), app.text("explanation-headline"));
    app.click("step-button").await;
    assert_eq!(pods(), 3, "the ReplicaSet controller created three pods");
    app.click("step-back-button").await;
    assert_eq!(
        (app.cards(), pods(), app.text("explanation-headline")),
        before
    );
}

#[wasm_bindgen_test]
async fn a_new_image_is_pending_until_the_next_round() {
    let app = Mounted::new().await;
    app.click("step-round-button").await;
    app.click("step-round-button").await;
    app.click("update-image-button").await;
    assert_eq!(app.attr("pending-action", "data-type"), "setImage");
    assert_eq!(app.attr("pending-action", "data-round"), "2");
    assert!(app
        .text("kubectl-console")
        .contains("deployment.apps/web image updated"));
    app.click("step-round-button").await;
    assert_eq!(app.count("pending-action"), 0);
    let names: Vec<String> = app.cards().into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["web-rev2", "web-rev1"], "newest first");
}

#[wasm_bindgen_test]
async fn the_keyboard_steps_and_plays() {
    let app = Mounted::with(AppProps {
        preset: Some("custom".into()),
        ..AppProps::default()
    })
    .await;
    // The listener is attached by an effect after the first render; concurrent tests can
    // delay that render, and a key pressed before it is simply not heard.
    until("the first render", || app.find("round").is_some()).await;
    settle().await;
    key("ArrowRight", true);
    until("Shift+→ to run round 0", || app.round() == 1).await;
    key("ArrowLeft", false);
    until("← to step back into round 0", || app.round() == 0).await;
    key(" ", false);
    until("Space to play", || {
        app.attr("play-button", "aria-pressed") == "true"
    })
    .await;
    key(" ", false);
    until("Space to pause", || {
        app.attr("play-button", "aria-pressed") == "false"
    })
    .await;
}

#[wasm_bindgen_test]
async fn an_app_can_start_from_a_preset() {
    let app = Mounted::with(AppProps {
        preset: Some("recreate".into()),
        keyboard: false,
        ..AppProps::default()
    })
    .await;
    assert_eq!(
        app.attr("preset-description", "data-testid"),
        "preset-description"
    );
    assert!(app.text("preset-description").contains("Recreate"));
    // The preset's own cluster model, as the core defines it.
    let recreate = rollout_facade::presets::preset("recreate")
        .unwrap()
        .scenario;
    assert_eq!(
        app.input("termination-input").value(),
        recreate.termination_rounds.to_string()
    );
    // Without keyboard shortcuts, keys do nothing.
    key("ArrowRight", false);
    settle().await;
    assert_eq!(app.round(), 0);
    assert_eq!(app.attr("round", "data-steps"), "0");
}

#[wasm_bindgen_test]
async fn a_big_deployment_draws_a_density_bar() {
    let app = Mounted::new().await;
    app.type_into("replicas-input", "600").await;
    for _ in 0..3 {
        app.click("step-round-button").await;
    }
    assert_eq!(app.count("pod-density"), 1);
    assert_eq!(
        app.root
            .query_selector_all(".pod-grid .pod")
            .unwrap()
            .length(),
        0
    );
    let label = app
        .root
        .query_selector(".density-bar")
        .unwrap()
        .unwrap()
        .get_attribute("aria-label")
        .unwrap();
    // burstReplicas = 500: 500 pods in round 0, the other 100 in round 1.
    let pods: usize = label.split(' ').next().unwrap().parse().unwrap();
    assert_eq!(pods, 600, "{label}");
}

#[wasm_bindgen_test]
async fn inside_the_controllers_shows_the_apps_own_step_and_queues_its_requests() {
    let app = Mounted::new().await;
    for _ in 0..5 {
        app.click("step-button").await;
    }
    // A pod picked from the stage opens the section on that pod, at the app's step.
    let pod: HtmlElement = app
        .root
        .query_selector("[data-pod]")
        .unwrap()
        .expect("a pod on the stage")
        .dyn_into()
        .unwrap();
    let name = pod.get_attribute("data-pod").unwrap();
    pod.click();
    until("the panel", || app.find("inside-panel").is_some()).await;
    // Five steps to the next change: five or more single syncs, the same in both.
    let synced = app.attr("round", "data-steps");
    assert!(synced.parse::<usize>().unwrap() >= 5, "{synced}");
    assert_eq!(app.attr("inside-panel", "data-steps"), synced);
    let yaml = app.text("object-inspector");
    assert!(yaml.starts_with("apiVersion: v1\nkind: Pod\n"), "{yaml}");
    assert!(yaml.contains(&format!("name: {name}")), "{yaml}");
    // The panel follows the app: one step more, one step more here.
    app.click("step-button").await;
    until("the next step", || {
        let now = app.attr("round", "data-steps");
        now != synced && app.attr("inside-panel", "data-steps") == now
    })
    .await;
    // Its restart button queues the action in the app's own reducer.
    app.click("restart-pod-button").await;
    until("the pending restart", || {
        app.root
            .query_selector("[data-testid=\"pending-action\"][data-type=\"restartPod\"]")
            .unwrap()
            .is_some()
    })
    .await;
    app.click("inside-toggle").await;
    assert!(app.find("inside-panel").is_none());
}

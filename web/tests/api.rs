//! The JavaScript API in a real browser, called as JavaScript calls it: values in and out as
//! plain objects (JSON text read by JSON.parse), errors as thrown `Error`s, `mount()` driven through its
//! handle, and the `<rollout-lab>` element's shadow root. Runs under `wasm-bindgen-test-runner`
//! in headless Chromium: `cargo test -p rollout-web --target wasm32-unknown-unknown`. Natively
//! this file is empty.
#![cfg(target_arch = "wasm32")]

use rollout_web::api;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[path = "support/dom.rs"]
mod dom;
use dom::{attr, find, new_root, settle};

fn js(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap()
}

fn error_message(e: JsValue) -> String {
    let e: js_sys::Error = e.dyn_into().expect("a JS Error");
    e.message().into()
}

const SCENARIO: &str = r#"{"name":"t","rounds":8,"nodes":2,"actions":[
    {"round":0,"type":"create","deployment":{"name":"web","replicas":3,"image":"nginx:1.14.2"}},
    {"round":3,"type":"setImage","image":"nginx:1.16.1"}]}"#;

#[wasm_bindgen_test]
fn trace_takes_plain_objects_and_json_and_throws_validation_messages() {
    let t = api::trace(js(SCENARIO)).unwrap();
    let rounds = js_sys::Reflect::get(&t, &"rounds".into()).unwrap();
    assert_eq!(js_sys::Array::from(&rounds).length(), 8);
    let same = api::trace(JsValue::from_str(SCENARIO)).unwrap();
    assert_eq!(
        js_sys::JSON::stringify(&t).unwrap(),
        js_sys::JSON::stringify(&same).unwrap()
    );
    // JS numbers come in as the integers the scenario format wants.
    let e = api::trace(js(r#"{"rounds":2.5,"actions":[]}"#)).unwrap_err();
    assert!(
        error_message(e.into()).starts_with("Invalid scenario: rounds: invalid type"),
        "a fraction is not a round count"
    );
    let e = api::trace(js(r#"{"actions":[{"round":0,"type":"nope"}]}"#)).unwrap_err();
    assert_eq!(
        error_message(e.into()),
        "Invalid scenario: actions[0] (round 0): unknown action type `nope`; expected one of create, setImage, scale, pause, resume, rollback, undo, setStrategy, setMinReadySeconds, setProgressDeadlineSeconds, setRevisionHistoryLimit, setPodQuota, setPodDeletionCost, restartPod"
    );
}

#[wasm_bindgen_test]
fn a_simulation_steps_back_and_forth_and_takes_actions() {
    let sim = api::JsSimulation::new(js(SCENARIO)).unwrap();
    assert!(sim.step().unwrap().is_object());
    sim.run_round().unwrap();
    assert_eq!(sim.round(), 1);
    assert!(sim.step_back());
    assert_eq!(sim.round(), 0);
    sim.run_round().unwrap();
    let round = sim
        .push_action(js(r#"{"type":"scale","replicas":5}"#))
        .unwrap();
    assert_eq!(round, 1);
    sim.run().unwrap();
    assert!(sim.finished());
    assert!(sim.step().unwrap().is_undefined());
    let state = sim.state().unwrap();
    let rs = js_sys::Reflect::get(&state, &"replicaSets".into()).unwrap();
    assert_eq!(js_sys::Array::from(&rs).length(), 2);
    let e = sim.push_action(js(r#"{"type":"teleport"}"#)).err().unwrap();
    assert!(error_message(e.into()).starts_with("Invalid action: actions[3] (round 8)"));
    // A session replayed to a step, and its files.
    let again = api::JsSimulation::new(JsValue::from_str(SCENARIO)).unwrap();
    assert_eq!(again.advance(5.into()).unwrap(), 5);
    assert!(again.advance(1000.into()).unwrap() > 0);
    // Steps are whole numbers up to a link's 50,000, checked before they become a u32.
    for bad in [JsValue::from(-1), JsValue::from(1.5), JsValue::from(50_001)] {
        assert!(again.advance(bad).is_err());
    }
    assert!(again.finished(), "then to the end");
    let trace: serde_json::Value = serde_json::from_str(&again.trace_json()).unwrap();
    assert_eq!(trace["rounds"].as_array().unwrap().len(), 8);
    assert!(again.chart_svg().starts_with("<svg xmlns="));
}

#[wasm_bindgen_test]
async fn mount_gives_a_handle_that_works_before_and_after_the_first_render() {
    let root = new_root();
    let lab = api::mount(
        root.clone().into(),
        js(r#"{"preset":"rolling-basic","controls":["step"],"appUrl":false}"#),
    )
    .unwrap();
    // Before Yew has drawn anything the handle already steps and reads.
    lab.step().unwrap();
    let state = lab.state().unwrap();
    assert_eq!(
        js_sys::Reflect::get(&state, &"step".into())
            .unwrap()
            .as_f64(),
        Some(1.0)
    );
    settle().await;
    assert_eq!(attr(&root, "round", "data-steps"), "1");
    assert!(find(&root, "open-in-lab").is_none());
    lab.step_round().unwrap();
    settle().await;
    assert_eq!(attr(&root, "round", "data-round"), "1");
    let problem = lab.set("replicas".into(), "abc".into()).unwrap();
    assert!(problem.is_some());
    lab.unmount();
    settle().await;
    assert_eq!(root.child_element_count(), 0);
    assert_eq!(
        error_message(lab.step().unwrap_err().into()),
        "this lab has been unmounted"
    );
    root.remove();
}

#[wasm_bindgen_test]
fn manifests_and_links_through_the_api() {
    let json = r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"api"},
        "spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"a","image":"api:1"},{"name":"b","image":"b:1"}]}}}}"#;
    let got = api::import_manifest(json.into(), None).unwrap();
    let unsupported = js_sys::Reflect::get(&got, &"unsupported".into()).unwrap();
    assert_eq!(js_sys::Array::from(&unsupported).length(), 1);
    let scenario = js_sys::Reflect::get(&got, &"scenario".into()).unwrap();
    let link = api::encode_link_js(scenario, 4.into(), JsValue::UNDEFINED).unwrap();
    let back = api::decode_link_js(format!("#{link}").into()).unwrap();
    assert_eq!(
        js_sys::Reflect::get(&back, &"step".into())
            .unwrap()
            .as_f64(),
        Some(4.0)
    );
    assert!(api::decode_link_js("#nothing-here".into())
        .unwrap()
        .is_undefined());
    // Not text: an Error naming the argument, never a trap.
    assert_eq!(
        error_message(api::decode_link_js(5.into()).unwrap_err().into()),
        "decodeLink takes the link's fragment as text, not a number"
    );
    assert!(api::import_manifest(JsValue::UNDEFINED, None).is_err());
    let yaml = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: y\nspec:\n  template:\n    spec:\n      containers:\n      - name: y\n        image: y:2\n";
    assert!(
        api::import_manifest(yaml.into(), None).is_ok(),
        "YAML is read too"
    );
}

#[wasm_bindgen_test]
async fn an_element_draws_its_lab_in_a_labelled_shadow_root() {
    let host: web_sys::HtmlElement = dom::document()
        .create_element("section")
        .unwrap()
        .dyn_into()
        .unwrap();
    host.set_attribute("preset", "recreate").unwrap();
    host.set_attribute("controls", "step,round").unwrap();
    host.set_attribute("chart", "0").unwrap();
    dom::document().body().unwrap().append_child(&host).unwrap();
    let lab = api::mount_element(host.clone().into()).unwrap();
    settle().await;
    let shadow = host.shadow_root().expect("an open shadow root");
    let region = shadow
        .query_selector("[role=region]")
        .unwrap()
        .expect("a region");
    assert_eq!(region.get_attribute("aria-label").unwrap(), "Rollout Lab");
    assert!(shadow.query_selector("main, h1").unwrap().is_none());
    // The embed's hooks are inside, and clicks reach Yew's handlers through the shadow root.
    assert_eq!(attr(&region, "round", "data-steps"), "0");
    assert!(find(&region, "chart").is_none(), "chart=\"0\"");
    assert!(
        find(&region, "play-button").is_none(),
        "only the controls asked for"
    );
    let step: web_sys::HtmlElement = find(&region, "step-button").unwrap().dyn_into().unwrap();
    step.click();
    step.click();
    settle().await;
    assert_eq!(attr(&region, "round", "data-steps"), "2");
    let state = lab.state().unwrap();
    assert_eq!(
        js_sys::Reflect::get(&state, &"preset".into())
            .unwrap()
            .as_string()
            .as_deref(),
        Some("recreate")
    );
    // Nothing outside the element changed.
    assert_eq!(host.child_element_count(), 0);
    lab.unmount();
    host.remove();

    // A bad attribute is an error, not a panic.
    let bad: web_sys::HtmlElement = dom::document()
        .create_element("div")
        .unwrap()
        .dyn_into()
        .unwrap();
    bad.set_attribute("controls", "step,teleport").unwrap();
    let e = api::mount_element(bad.into()).err().unwrap();
    assert!(error_message(e.into()).contains("teleport"));
}

#[wasm_bindgen_test]
fn find_race_reports_as_rollout_races_json_and_throws_on_bad_options() {
    // Without expectations the walk-through's configuration has the 5-pod race.
    let report =
        api::find_race("expectations".into(), Some(js(r#"{"mode":"noexp"}"#)), None).unwrap();
    let get = |v: &JsValue, k: &str| js_sys::Reflect::get(v, &k.into()).unwrap();
    let violation = get(&report, "violation");
    let schedule = js_sys::Array::from(&get(&violation, "schedule"));
    assert_eq!(
        schedule.get(0).as_string().as_deref(),
        Some("setImage web:2")
    );
    assert_eq!(
        f64::from(schedule.length()),
        get(&report, "depth").as_f64().unwrap() + 1.0
    );
    let broken = js_sys::Array::from(&get(&violation, "violations"));
    assert!(broken.get(0).as_string().unwrap().starts_with("maxSurge: "));
    // The real controllers, shallow: none; the progress callback hears every depth.
    let calls = std::rc::Rc::new(std::cell::Cell::new(0));
    let seen = calls.clone();
    let progress = wasm_bindgen::closure::Closure::<dyn FnMut(u32, u32)>::new(move |_, _| {
        seen.set(seen.get() + 1)
    });
    let none = api::find_race(
        "expectations".into(),
        Some(js(r#"{"depth":3}"#)),
        Some(progress.as_ref().clone()),
    )
    .unwrap();
    assert!(get(&none, "violation").is_null());
    assert_eq!(calls.get(), 3);
    // Refusals are thrown Errors with the message, never a trap.
    let err = |options: &str| {
        error_message(
            api::find_race("expectations".into(), Some(js(options)), None)
                .map(|_| ())
                .unwrap_err()
                .into(),
        )
    };
    assert_eq!(
        err(r#"{"maxStates":20000001}"#),
        "a state cap of 20000001 is above the limit of 20000000 states"
    );
    assert_eq!(
        err(r#"{"depth":-1}"#),
        "findRace: depth -1 is not a whole number of at least 0"
    );
    // A caller's number is quoted as JavaScript writes it.
    let count = |n: f64| {
        rollout_web::js_input::count(&JsValue::from(n), "advance", "step", 50_000, "").unwrap_err()
    };
    assert_eq!(count(1e21), "advance: step 1e+21 is more than 50,000");
    assert_eq!(
        count(0.1 + 0.2),
        "advance: step 0.30000000000000004 is not a whole number of at least 0"
    );
    let written: Vec<String> = [-0.0, 2.5, 1e-7, 123_456_789.125, f64::INFINITY, f64::NAN]
        .into_iter()
        .map(rollout_web::js_input::number)
        .collect();
    assert_eq!(
        written,
        ["0", "2.5", "1e-7", "123456789.125", "Infinity", "NaN"]
    );
    let not_a_function =
        api::find_race("expectations".into(), None, Some(JsValue::from(5))).unwrap_err();
    assert_eq!(
        error_message(not_a_function.into()),
        "findRace's onProgress takes a function, not a number"
    );
}

//! DOM helpers shared by the wasm tests (web/tests/*.rs include this file by path): a fresh
//! root element, a pause for Yew's scheduler, lookups by `data-testid`.
#![allow(dead_code)]

use web_sys::Element;

/// The page's document.
pub fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A new `<div>` at the end of `<body>`, to mount into.
pub fn new_root() -> Element {
    let root = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    root
}

/// Yew renders on its scheduler, after the current task: give it a moment (30 ms).
pub async fn settle() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 30)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// The element with this `data-testid` under `root`, if any.
pub fn find(root: &Element, testid: &str) -> Option<Element> {
    root.query_selector(&format!("[data-testid=\"{testid}\"]"))
        .unwrap()
}

/// An attribute of the element with this `data-testid` (empty when absent).
pub fn attr(root: &Element, testid: &str, name: &str) -> String {
    find(root, testid)
        .unwrap_or_else(|| panic!("no {testid}"))
        .get_attribute(name)
        .unwrap_or_default()
}

//! The public module `dist/rollout-lab.js`, loaded by the app page the first time it needs
//! something rarely used (a manifest import, YAML, the trace or the chart as a file), so that
//! the app page's own module stays small. `index.html` defines `window.rolloutLab()`, which
//! imports and initialises the module once and returns a promise of it.

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The message of a thrown value (an `Error`'s message, or the value as text).
pub fn message(e: &JsValue) -> String {
    match e.dyn_ref::<js_sys::Error>() {
        Some(err) => err.message().into(),
        None => e.as_string().unwrap_or_else(|| "unknown error".into()),
    }
}

fn function(target: &JsValue, name: &str) -> Result<Function, String> {
    Reflect::get(target, &name.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| format!("the rollout-lab module is not available here ({name})"))
}

/// Calls `name(...args)` of the rollout-lab module (loading it on first use) and waits for its
/// promise, if it returns one. What it throws or rejects with becomes the error message.
pub async fn call_lab(name: &str, args: &[JsValue]) -> Result<JsValue, String> {
    let window: JsValue = web_sys::window().ok_or("no window")?.into();
    let load = function(&window, "rolloutLab")?;
    let module = JsFuture::from(Promise::from(load.call0(&window).map_err(|e| message(&e))?))
        .await
        .map_err(|e| format!("the rollout-lab module did not load: {}", message(&e)))?;
    let f = function(&module, name)?;
    let list: Array = args.iter().collect();
    let result = f.apply(&module, &list).map_err(|e| message(&e))?;
    match result.dyn_into::<Promise>() {
        Ok(p) => JsFuture::from(p).await.map_err(|e| message(&e)),
        Err(v) => Ok(v),
    }
}

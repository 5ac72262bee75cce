//! Arguments from JavaScript, checked before they become Rust values: every export of the
//! module reads its arguments through these, so a wrong type, a number out of range, a
//! cyclic object or an array nested 100,000 deep is refused with an `Error` that names the
//! argument, and never reaches code that would trap (a trap in wasm32 cannot be caught, and
//! a stack overflow leaves the module's stack pointer where it failed).
//!
//! Objects are read as JSON: `JSON.stringify` (which throws on a cycle or a BigInt, and on
//! deep nesting before the engine's own stack runs out) and then serde_json's reader, which
//! refuses nesting deeper than 128 levels before it recurses further. For example
//! `const o = {a: 1}; o.self = o; trace(o)` throws `the scenario cannot be read as JSON:
//! TypeError: Converting circular structure to JSON …`.

use rollout_facade::limits;
use wasm_bindgen::{JsCast, JsValue};

/// A number as JavaScript writes it (`String(n)`: `3.5`, `-1`, `1e+21`, `NaN`, `Infinity`):
/// what a message quotes of a caller's number, and what `set(name, 5)` types, is written as
/// the caller's own language writes it (and the module links no float formatting of its own).
pub fn number(n: f64) -> String {
    js_sys::Number::from(n)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}

/// What a value is, for a message: `a number`, `undefined`, `an object`.
pub fn kind(value: &JsValue) -> String {
    if value.is_undefined() {
        return "undefined".into();
    }
    if value.is_null() {
        return "null".into();
    }
    if js_sys::Array::is_array(value) {
        return "an array".into();
    }
    let t = value.js_typeof().as_string().unwrap_or_default();
    match t.as_str() {
        "object" | "undefined" => format!("an {t}"),
        other => format!("a {other}"),
    }
}

/// The message of a thrown JavaScript value.
pub fn thrown(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| format!("{}: {}", String::from(e.name()), String::from(e.message())))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "an exception".into())
}

/// An object (or array) as JSON, through `JSON.stringify`; `what` names it in errors. Text
/// longer than [`limits::MAX_DOCUMENT_BYTES`] is refused before it is parsed.
pub fn json_of_object(value: &JsValue, what: &str) -> Result<serde_json::Value, String> {
    let text = js_sys::JSON::stringify(value)
        .map_err(|e| format!("{what} cannot be read as JSON: {}", thrown(&e)))?
        .as_string()
        .ok_or_else(|| format!("{what} cannot be read as JSON ({})", kind(value)))?;
    json_of_text(&text, what)
}

/// JSON text, within [`limits::MAX_DOCUMENT_BYTES`] and serde_json's 128 levels of nesting.
pub fn json_of_text(text: &str, what: &str) -> Result<serde_json::Value, String> {
    limits::check_text(what, text)?;
    serde_json::from_str(text).map_err(|e| format!("{what} is not valid JSON: {e}"))
}

/// A string argument of `function`, e.g. `decodeLink takes the link's fragment as text, not a
/// number`.
pub fn text(value: &JsValue, function: &str, what: &str) -> Result<String, String> {
    value
        .as_string()
        .ok_or_else(|| format!("{function} takes {what} as text, not {}", kind(value)))
}

/// An optional string argument (`undefined` or `null`: none).
pub fn optional_text(
    value: &JsValue,
    function: &str,
    what: &str,
) -> Result<Option<String>, String> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    text(value, function, what).map(Some)
}

/// A whole number from 0 to `max` (`undefined` or `null`: none). `3.5`, `-1`, `NaN`, `"3"`
/// and numbers past `max` are refused with the limit, e.g. `encodeLink: step 50001 is more
/// than 50,000, the most steps a link replays`.
pub fn count(
    value: &JsValue,
    function: &str,
    what: &str,
    max: u64,
    why: &str,
) -> Result<Option<u64>, String> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let Some(n) = value.as_f64() else {
        return Err(format!(
            "{function}: {what} must be a whole number, not {}",
            kind(value)
        ));
    };
    if !n.is_finite() || n.fract() != 0.0 || n < 0.0 {
        return Err(format!(
            "{function}: {what} {} is not a whole number of at least 0",
            number(n)
        ));
    }
    if n > max as f64 {
        return Err(format!(
            "{function}: {what} {} is more than {}{why}",
            number(n),
            limits::group(max as i64)
        ));
    }
    Ok(Some(n as u64))
}

/// A function argument, e.g. `onStep takes a function, not a number`.
pub fn function(value: &JsValue, function: &str) -> Result<js_sys::Function, String> {
    value
        .dyn_ref::<js_sys::Function>()
        .cloned()
        .ok_or_else(|| format!("{function} takes a function, not {}", kind(value)))
}

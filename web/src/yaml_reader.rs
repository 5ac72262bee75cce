//! Reading YAML in the browser: the app's module parses JSON only; YAML goes through the YAML
//! reader's own small module (web/yaml, dist/rollout-yaml.js), loaded the first time it is
//! needed (js/yaml.js). Issue #16 lets "a rarely used pure function with a large dependency and
//! no UI" live there: yaml-rust2 is about 50 KB of code that no page needs before its first
//! render (ARCHITECTURE.md, "The YAML reader's module").
//!
//! Everything that hands manifest text to the core goes through [`to_json`] first, so the core
//! sees JSON: `replicas: 3` arrives as `{"replicas":3}`, read exactly as the CLI reads it.

use std::borrow::Cow;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/yaml.js")]
extern "C" {
    #[wasm_bindgen(js_name = loadYamlReader)]
    fn load_yaml_reader() -> js_sys::Promise;
    #[wasm_bindgen(js_name = yamlReaderLoaded)]
    fn yaml_reader_loaded() -> bool;
    #[wasm_bindgen(js_name = yamlToJson, catch)]
    fn yaml_to_json(text: &str, name: Option<String>, how: &str) -> Result<String, JsValue>;
    #[wasm_bindgen(js_name = deploymentNames)]
    fn yaml_names(text: &str) -> Vec<String>;
}

/// What reading YAML says before the reader's module has loaded.
pub const NOT_LOADED: &str =
    "the YAML reader is still loading; try again in a moment (or paste the manifest as JSON)";

/// Whether YAML can be read now, without waiting.
pub fn loaded() -> bool {
    !needs_module() || yaml_reader_loaded()
}

/// Loads the reader's module (once; at once when it is loaded). `Err` says why it could not be.
pub async fn load() -> Result<(), String> {
    if loaded() {
        return Ok(());
    }
    wasm_bindgen_futures::JsFuture::from(load_yaml_reader())
        .await
        .map(|_| ())
        .map_err(|e| {
            format!(
                "the YAML reader could not be loaded ({})",
                e.as_string()
                    .or_else(|| js_sys::Error::from(e).message().as_string())
                    .unwrap_or_default()
            )
        })
}

/// Whether `text` is YAML for the reader rather than JSON (a JSON manifest or scenario starts
/// with `{`, after blanks).
pub fn is_yaml(text: &str) -> bool {
    let t = text.trim_start();
    !t.is_empty() && !t.starts_with('{')
}

/// The manifest `text` as JSON text, for the core: a plain JSON object as it is
/// (`import::is_plain_json`), anything else (YAML, several documents, a List, an old API group,
/// placeholders) read by the reader's module (the CLI's whole reader), which hands on the
/// Deployment `pick` chooses, already read; errors are the reader's (`… yaml: line 2, column
/// 3: …`). [`NOT_LOADED`] when the reader's module has not loaded yet (see [`load`]).
pub fn read<'a>(
    text: &'a str,
    pick: rollout_facade::import::Pick<'_>,
) -> Result<Cow<'a, str>, String> {
    if rollout_facade::import::is_plain_json(text) {
        return Ok(Cow::Borrowed(text));
    }
    if !needs_module() {
        // This build links the core's own reader (its `yaml` feature): the wasm tests, which
        // have no dist/ to load a module from.
        return rollout_facade::import::reading_json(text, pick).map(Cow::Owned);
    }
    if !yaml_reader_loaded() {
        return Err(NOT_LOADED.into());
    }
    yaml_to_json(text, pick.name.map(str::to_string), pick.how)
        .map(Cow::Owned)
        .map_err(|e| e.as_string().unwrap_or_else(|| "not valid YAML".into()))
}

/// [`read`] with no Deployment named.
pub fn to_json(text: &str) -> Result<Cow<'_, str>, String> {
    read(text, rollout_facade::import::Pick::default())
}

/// The names of the Deployments in `text` (none when it is a plain JSON object, cannot be read,
/// or the reader has not loaded yet).
pub fn names(text: &str) -> Vec<String> {
    if rollout_facade::import::is_plain_json(text) || !loaded() {
        return Vec::new();
    }
    if !needs_module() {
        return rollout_facade::import::deployment_names(text).unwrap_or_default();
    }
    yaml_names(text)
}

/// Whether YAML must go through the reader's module: when the core was built without its own
/// reader, as in the app's release and dev builds.
fn needs_module() -> bool {
    !rollout_facade::import::READS_YAML
}

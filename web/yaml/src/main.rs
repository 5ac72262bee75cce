//! The YAML reader's wasm module: `kubectl get deployment NAME -o yaml` text (or a file of
//! several objects) in, the Deployment read by the core's whole reader (the CLI's) out as JSON.
//! The app's module reads JSON only; it loads this one the first time it is handed YAML
//! (web/js/yaml.js, web/src/yaml_reader.rs).

use wasm_bindgen::prelude::*;

/// The Deployment `name` chooses in the manifest file `text` (YAML, or JSON), read by the
/// core's whole reader (`import::reading_json`: several documents, Lists, old API groups,
/// placeholders), as JSON text the app's module reads as it is. Throws the reader's message,
/// e.g. `error converting YAML to JSON: yaml: line 2, column 3: …`, that it is a Helm template,
/// or the names of several Deployments and `how` to choose one.
#[wasm_bindgen(js_name = yamlToJson)]
pub fn yaml_to_json(text: &str, name: Option<String>, how: &str) -> Result<String, String> {
    let pick = rollout_facade::import::Pick {
        name: name.as_deref(),
        how,
    };
    rollout_facade::import::reading_json(text, pick)
}

/// The names of the Deployments in the manifest file `text`, in order (none when it cannot be
/// read).
#[wasm_bindgen(js_name = deploymentNames)]
pub fn deployment_names(text: &str) -> Vec<String> {
    rollout_facade::import::deployment_names(text).unwrap_or_default()
}

/// A binary's entry point, which does nothing: the exports above are the module.
fn main() {}

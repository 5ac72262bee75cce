//! The YAML reader's wasm module: `kubectl get deployment NAME -o yaml` text in, the same
//! object as JSON text out, read by the core's `import::parse_manifest` (the CLI's reader).
//! The app's module reads JSON only; it loads this one the first time it is handed YAML
//! (web/js/yaml.js, web/src/yaml_reader.rs).

use wasm_bindgen::prelude::*;

/// The manifest `text` (YAML, or JSON) as JSON text, one document per line (`null` for an
/// empty one): `replicas: 3` becomes `{"replicas":3}`. Throws the reader's message, e.g.
/// `error converting YAML to JSON: yaml: line 2, column 3: …`, or that it is a Helm template.
#[wasm_bindgen(js_name = yamlToJson)]
pub fn yaml_to_json(text: &str) -> Result<String, String> {
    rollout_core::import::documents_json(text)
}

/// A binary's entry point, which does nothing: the export above is the module's one function.
fn main() {}

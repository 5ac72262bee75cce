// Loads the YAML reader's module (dist/rollout-yaml.js, web/yaml) the first time the app's
// module is handed YAML, and calls it. wasm-bindgen copies this file to
// snippets/<crate>/js/yaml.js beside the glue (three levels down from it), so the reader is
// found relative to wherever rollout-lab.js was loaded from, in a page or in a worker. Nothing
// is fetched until `loadYamlReader` is called (web/src/yaml_reader.rs).

let reader = null;
let loading = null;

/** Starts loading the reader (once); resolves when `yamlToJson` can be called. */
export function loadYamlReader() {
  // Resolved here, not when this file is evaluated: in an iife bundle of the module (which
  // never instantiates it) `import.meta.url` is undefined and `new URL` would throw.
  loading ??= (async () => import(new URL("../../../rollout-yaml.js", import.meta.url).href))().then(
    async (m) => {
      await m.default();
      reader = m;
    },
    (e) => {
      loading = null; // a later call tries again
      throw e;
    },
  );
  return loading;
}

/** Whether the reader is loaded. */
export function yamlReaderLoaded() {
  return reader !== null;
}

/** The Deployment `name` (or the only one) of the YAML text, read, as JSON text; throws the reader's message (a string). */
export function yamlToJson(text, name, how) {
  return reader.yamlToJson(text, name, how);
}

/** The names of the Deployments in the text (none when it cannot be read). */
export function deploymentNames(text) {
  return reader.deploymentNames(text);
}

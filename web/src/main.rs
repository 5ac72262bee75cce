//! The binary that trunk turns into the page's one wasm module, `dist/rollout-lab.js`.
//! Instantiating the module (its default export, `init()`) starts nothing: the app page calls
//! `mountPage`, documentation pages `mount()` or the `<rollout-lab>` element, scripts the API
//! (`web/src/api.rs`; README, "One module").

// The library's exports (`#[wasm_bindgen]` items of `rollout_web::api`) are the module's.
use rollout_web as _;

fn main() {}

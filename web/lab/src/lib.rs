//! `rollout-lab`: Rollout Lab's public WebAssembly module, built by trunk into
//! `dist/rollout-lab.js` (an ES module whose default export instantiates the wasm),
//! `dist/rollout-lab_bg.wasm` and `dist/rollout-lab.d.ts`. There is no start function:
//! importing the module and calling `init()` starts nothing.
//!
//! It holds the JavaScript API ([`api`]): `trace`, the `Simulation` class, `mount` (the
//! embeddable lab of `rollout_web::embed`), manifest import with YAML, permalinks. The
//! `?embed` page boots from it (`mountPage`), and the app page loads it lazily for what it
//! rarely needs (YAML and manifest import, trace and chart export).

pub mod api;

#[cfg(all(test, target_arch = "wasm32"))]
mod tests;

//! Rollout Lab's browser front end: Yew function components over `rollout-core`.
//!
//! The app keeps all of its state in one reducer ([`state::Settings`]); components only
//! render props and dispatch [`state::Action`]s. Everything that can be computed without a
//! browser (the resolved rolling-update bounds and their wording) lives in [`bounds`] and is
//! tested natively.

pub mod app;
pub mod bounds;
pub mod components;
pub mod state;

pub use app::App;

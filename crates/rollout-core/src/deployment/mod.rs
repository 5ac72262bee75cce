//! `pkg/controller/deployment`: the Deployment controller.

pub mod util;

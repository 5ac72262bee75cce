//! Rollout Lab's core: the Kubernetes Deployment and ReplicaSet controllers (v1.28.4, and
//! v1.37.0's changes since, see [`version`]) ported to Rust, an in-memory API server, a kubelet and clock model, and a stepper that runs them in
//! the rounds of `../shared/conformance/README.md`: lock-step (one pass of every controller a
//! round) or settled (passes repeat within a round until nothing changes).
//!
//! Pure Rust with no web dependencies: time, randomness and I/O come in from outside, so a
//! simulation is deterministic and runs the same natively and in wasm.

pub mod api;
pub mod deployment;
pub mod embed;
pub mod endpoints;
pub mod flow;
pub mod images;
pub mod import;
pub mod kubectl;
pub mod kubelet;
pub mod lessons;
pub mod limits;
pub mod order;
pub mod plan;
pub mod presets;
pub mod races;
pub mod record;
pub mod replicaset;
pub mod scenario;
pub mod scheduler;
pub mod session;
pub mod share;
pub mod sim;
pub mod store;
pub mod trace;
pub mod traffic;
pub mod ui_support;
pub mod validation;
pub mod version;
pub mod view;
pub mod yaml;
pub mod yaml_edit;
#[cfg(feature = "yaml")]
pub mod yaml_guard;

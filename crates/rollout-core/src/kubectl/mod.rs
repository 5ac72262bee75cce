//! What `kubectl` prints about a Deployment (`k8s.io/kubectl`).

pub mod check_err;
pub mod rollout_status;
pub mod undo;

pub use rollout_status::{
    rollout_status, rollout_status_of, RolloutStatus, RolloutStatusInput, StatusCondition,
};
pub use undo::{rollout_undo, UndoPlan};

//! What `kubectl` prints about a Deployment (`k8s.io/kubectl`).

pub mod check_err;
pub mod get_pods;
pub mod rollout_status;
pub mod undo;

pub use get_pods::{describe_pod_of, get_pods_of, pod_rows, PodRow};
pub use rollout_status::{
    rollout_status, rollout_status_of, RolloutStatus, RolloutStatusInput, StatusCondition,
};
pub use undo::{rollout_undo, UndoPlan};

//! `v1.ContainerStatus` and `v1.ContainerState` (`k8s.io/api/core/v1/types.go`), reduced to what
//! `kubectl get pods` and `kubectl describe pod` print of a container the kubelet restarts.
//! Only pods whose app fails (a scenario's `model.failures`) carry one: every other pod's
//! container is described by `Pod::restart_count` and its conditions, as before.

use crate::api::{Text, Time};
use serde::{Deserialize, Serialize};

/// `v1.ContainerState`: exactly one of waiting, running and terminated.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ContainerState {
    /// `waiting`: not running; `reason` is `ContainerCreating`, `CrashLoopBackOff`,
    /// `ErrImagePull` or `ImagePullBackOff`.
    Waiting {
        /// The reason kubectl prints as the pod's STATUS.
        reason: Text,
        /// The kubelet's message (`back-off 40s restarting failed container=app pod=…`).
        message: String,
    },
    /// `running`, since `startedAt`.
    Running {
        /// `startedAt`.
        started_at: Time,
    },
    /// `terminated`: the container exited.
    Terminated {
        /// `Error` (a non-zero exit) or `Completed`.
        reason: Text,
        /// `exitCode`: 1 for an app that crashes, 137 for one the kubelet killed.
        exit_code: i32,
        /// `startedAt`.
        started_at: Time,
        /// `finishedAt`: the back-off is measured from here.
        finished_at: Time,
    },
}

impl ContainerState {
    /// The reason of a waiting or terminated state.
    pub fn reason(&self) -> Option<&str> {
        match self {
            ContainerState::Waiting { reason, .. } | ContainerState::Terminated { reason, .. } => {
                Some(reason)
            }
            ContainerState::Running { .. } => None,
        }
    }
}

/// `v1.ContainerStatus` of the pod's container, as the kubelet last wrote it, with the
/// kubelet's own back-off deadline beside it (not an API field: what a stage counts down).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStatus {
    /// `name`.
    pub name: String,
    /// `ready`: running and passing its readiness probe.
    pub ready: bool,
    /// `restartCount`.
    pub restart_count: i32,
    /// `state`.
    pub state: ContainerState,
    /// `lastState`: the previous instance's termination, once there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_state: Option<ContainerState>,
    /// The kubelet's model, not an API field: while the state is `CrashLoopBackOff` or
    /// `ImagePullBackOff`, when the back-off ends (the next start or pull attempt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back_off_until: Option<Time>,
    /// The kubelet's model, not an API field: when the first container started (the timeline
    /// of restarts is worked out from here).
    pub first_started: Time,
    /// The kubelet's model, not an API field: the last moment the kubelet synced this status
    /// (its events up to here are recorded).
    pub synced_at: Time,
}

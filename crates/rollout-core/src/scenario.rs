//! The scenario format of `../shared/conformance/README.md`: a Deployment to create, the
//! cluster model, and the user actions (`kubectl set image`, `scale`, `rollout pause` ...)
//! applied at the start of given rounds.

use crate::api::{IntOrString, StringMap};
use serde::{Deserialize, Serialize};

/// A Deployment as the scenario `create` action (and the API validation vectors) write it:
/// the fields a user sets, before the API server's defaulting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeploymentInput {
    /// `metadata.name`.
    pub name: String,
    /// `spec.replicas` (absent: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// The one container's image.
    pub image: String,
    /// `spec.strategy` (absent: RollingUpdate 25% / 25%).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<StrategyInput>,
    /// `spec.minReadySeconds` (absent: 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_ready_seconds: Option<i32>,
    /// `spec.progressDeadlineSeconds` (absent: 600).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress_deadline_seconds: Option<i32>,
    /// `spec.revisionHistoryLimit` (absent: 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision_history_limit: Option<i32>,
    /// `spec.paused` (absent: false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
    /// `spec.selector.matchLabels` (absent: `app: <name>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<StringMap>,
    /// `spec.template.metadata.labels` (absent: `app: <name>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_labels: Option<StringMap>,
}

/// `spec.strategy` as a user writes it: `{"type": "Recreate"}` or
/// `{"type": "RollingUpdate", "maxSurge": 1, "maxUnavailable": "25%"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StrategyInput {
    /// `Recreate`, `RollingUpdate`, or absent (defaulted to `RollingUpdate`).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// `rollingUpdate.maxSurge`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<IntOrString>,
    /// `rollingUpdate.maxUnavailable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
    /// Send a `rollingUpdate` block even when both values are absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with_rolling_update: Option<bool>,
}

impl StrategyInput {
    /// Whether the request carries a `rollingUpdate` block.
    pub fn has_rolling_update_block(&self) -> bool {
        self.max_surge.is_some()
            || self.max_unavailable.is_some()
            || self.with_rolling_update == Some(true)
    }
}

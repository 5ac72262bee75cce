//! `pkg/controller/replicaset/replica_set_utils.go`: the ReplicaSet status and its
//! ReplicaFailure condition.

use crate::api::{ConditionStatus, Pod, ReplicaSet, ReplicaSetCondition, ReplicaSetStatus, Time};
use crate::store::{ApiError, ApiServer};
use std::sync::Arc;

/// `ReplicaFailure`.
pub const REPLICA_FAILURE: &str = "ReplicaFailure";

/// `calculateStatus`: counts of the active pods the sync started from; a ReplicaFailure
/// condition set by the first error (and kept until a sync without error removes it).
pub fn calculate_status(
    rs: &ReplicaSet,
    filtered: &[Arc<Pod>],
    manage_err: Option<&str>,
    now: Time,
) -> ReplicaSetStatus {
    let mut status = rs.status.clone();
    let fully_labeled = filtered
        .iter()
        .filter(|p| {
            let template = &rs.spec.template.labels;
            // `labels.Set(template).AsSelectorPreValidated().Matches(pod labels)`.
            p.metadata.labels == *template
                || template
                    .iter()
                    .all(|(k, v)| p.metadata.labels.get(k) == Some(v))
        })
        .count();
    let ready = filtered.iter().filter(|p| p.is_ready()).count();
    let available = filtered
        .iter()
        .filter(|p| p.is_available(rs.spec.min_ready_seconds, now))
        .count();
    let failure = status.conditions.iter().any(|c| c.type_ == REPLICA_FAILURE);
    match manage_err {
        Some(err) if !failure => {
            let diff = filtered.len() as i64 - i64::from(rs.spec.replicas);
            let reason = match diff {
                d if d < 0 => "FailedCreate",
                d if d > 0 => "FailedDelete",
                _ => "",
            };
            status.conditions.push(ReplicaSetCondition {
                type_: REPLICA_FAILURE.to_string(),
                status: ConditionStatus::True,
                reason: reason.to_string(),
                message: err.to_string(),
                last_transition_time: now,
            });
        }
        None if failure => status.conditions.retain(|c| c.type_ != REPLICA_FAILURE),
        _ => {}
    }
    status.replicas = filtered.len() as i32;
    status.fully_labeled_replicas = fully_labeled as i32;
    status.ready_replicas = ready as i32;
    status.available_replicas = available as i32;
    status
}

/// `updateReplicaSetStatus`: write the status (with observedGeneration) unless nothing changed.
pub fn update_replica_set_status(
    api: &mut ApiServer,
    rs: &ReplicaSet,
    mut new_status: ReplicaSetStatus,
) -> Result<(), ApiError> {
    let s = &rs.status;
    if s.replicas == new_status.replicas
        && s.fully_labeled_replicas == new_status.fully_labeled_replicas
        && s.ready_replicas == new_status.ready_replicas
        && s.available_replicas == new_status.available_replicas
        && rs.metadata.generation == s.observed_generation
        && s.conditions == new_status.conditions
    {
        return Ok(());
    }
    new_status.observed_generation = rs.metadata.generation;
    let mut copy = rs.clone();
    copy.status = new_status;
    api.update_replica_set_status(&copy).map(|_| ())
}

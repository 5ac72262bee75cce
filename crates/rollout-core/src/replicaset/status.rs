//! `pkg/controller/replicaset/replica_set_utils.go`: the ReplicaSet status and its
//! ReplicaFailure condition.

use crate::api::{
    ready_long_enough, ConditionStatus, Pod, ReplicaSet, ReplicaSetCondition, ReplicaSetStatus,
    Time,
};
use crate::store::{ApiError, ApiServer};

/// `ReplicaFailure`.
pub const REPLICA_FAILURE: &str = "ReplicaFailure";

/// `calculateStatus`: from the number of active pods the sync started from and their
/// counts ([`PodCounts::of`], read before the sync wrote anything); a ReplicaFailure condition
/// set by the first error (and kept until a sync without error removes it).
pub(crate) fn calculate_status(
    rs: &ReplicaSet,
    active: usize,
    counts: &PodCounts,
    manage_err: Option<&str>,
    now: Time,
) -> ReplicaSetStatus {
    let mut status = rs.status.clone();
    let failure = status.conditions.iter().any(|c| c.type_ == REPLICA_FAILURE);
    match manage_err {
        Some(err) if !failure => {
            let diff = active as i64 - i64::from(rs.spec.replicas);
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
    status.replicas = active as i32;
    status.fully_labeled_replicas = counts.fully_labeled as i32;
    status.ready_replicas = counts.ready as i32;
    status.available_replicas = counts.available as i32;
    status
}

/// What `calculateStatus` counts among a ReplicaSet's active pods.
pub(crate) struct PodCounts {
    /// Labels matching the template's (`fullyLabeledReplicasCount`).
    fully_labeled: usize,
    /// `podutil.IsPodReady` (`readyReplicasCount`).
    ready: usize,
    /// `podutil.IsPodAvailable` with the ReplicaSet's minReadySeconds
    /// (`availableReplicasCount`).
    available: usize,
}

impl PodCounts {
    /// The counts in one pass over the pods, each pod's Ready condition looked up once.
    pub(crate) fn of<'p>(
        rs: &ReplicaSet,
        filtered: impl IntoIterator<Item = &'p Pod>,
        now: Time,
    ) -> PodCounts {
        let template = &rs.spec.template.labels;
        let min_ready = rs.spec.min_ready_seconds;
        let mut counts = PodCounts {
            fully_labeled: 0,
            ready: 0,
            available: 0,
        };
        for p in filtered {
            // `labels.Set(template).AsSelectorPreValidated().Matches(pod labels)`.
            let labeled = p.metadata.labels == *template
                || template
                    .iter()
                    .all(|(k, v)| p.metadata.labels.get(k) == Some(v));
            counts.fully_labeled += usize::from(labeled);
            if let Some(ready_time) = p.ready_time() {
                counts.ready += 1;
                counts.available += usize::from(ready_long_enough(ready_time, min_ready, now));
            }
        }
        counts
    }
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
    match api.update_replica_set_status(&copy) {
        Ok(_) => Ok(()),
        // `statusUpdateRetries` = 1: refused as stale (a race schedule's cache), it GETs the
        // ReplicaSet from the API server and writes the same status onto it once more.
        Err(e) if e.is_conflict() => {
            let Some(live) = api.replica_set(&rs.metadata.name) else {
                return Err(e);
            };
            let mut live = (**live).clone();
            live.status = copy.status;
            api.update_replica_set_status(&live).map(|_| ())
        }
        Err(e) => Err(e),
    }
}

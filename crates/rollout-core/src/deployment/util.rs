//! `pkg/controller/deployment/util/deployment_util.go`: the arithmetic and bookkeeping the
//! Deployment controller shares between its strategies.

use crate::api::intstr::{get_scaled_value_from_int_or_percent, go_atoi};
use crate::api::{
    ConditionStatus, Deployment, DeploymentCondition, DeploymentStatus, DeploymentStrategy,
    IntOrString, ReplicaSet, ReplicaSetCondition, Time, DEPRECATED_ROLLBACK_TO,
    DESIRED_REPLICAS_ANNOTATION, LAST_APPLIED_CONFIG_ANNOTATION, MAX_REPLICAS_ANNOTATION,
    REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION,
};
use std::sync::Arc;

/// Condition reasons of `deployment_util.go`.
pub mod reason {
    /// Progressing: the new ReplicaSet was scaled or its pods progressed.
    pub const REPLICA_SET_UPDATED: &str = "ReplicaSetUpdated";
    /// Progressing=False: the new ReplicaSet could not be created.
    pub const FAILED_RS_CREATE: &str = "ReplicaSetCreateError";
    /// Progressing: a new ReplicaSet was created.
    pub const NEW_REPLICA_SET: &str = "NewReplicaSetCreated";
    /// Progressing: an existing ReplicaSet matches the template.
    pub const FOUND_NEW_RS: &str = "FoundNewReplicaSet";
    /// Progressing: the rollout is complete.
    pub const NEW_RS_AVAILABLE: &str = "NewReplicaSetAvailable";
    /// Progressing=False: the progress deadline passed.
    pub const TIMED_OUT: &str = "ProgressDeadlineExceeded";
    /// Progressing=Unknown: paused.
    pub const PAUSED: &str = "DeploymentPaused";
    /// Progressing=Unknown: resumed.
    pub const RESUMED: &str = "DeploymentResumed";
    /// Available=True.
    pub const MINIMUM_REPLICAS_AVAILABLE: &str = "MinimumReplicasAvailable";
    /// Available=False.
    pub const MINIMUM_REPLICAS_UNAVAILABLE: &str = "MinimumReplicasUnavailable";
    /// Rollback event: the revision does not exist.
    pub const ROLLBACK_REVISION_NOT_FOUND: &str = "DeploymentRollbackRevisionNotFound";
    /// Rollback event: the template is the same.
    pub const ROLLBACK_TEMPLATE_UNCHANGED: &str = "DeploymentRollbackTemplateUnchanged";
    /// Rollback event: done.
    pub const ROLLBACK_DONE: &str = "DeploymentRollback";
}

/// Condition types.
pub mod condition {
    /// `Available`.
    pub const AVAILABLE: &str = "Available";
    /// `Progressing`.
    pub const PROGRESSING: &str = "Progressing";
    /// `ReplicaFailure`.
    pub const REPLICA_FAILURE: &str = "ReplicaFailure";
}

/// `NewDeploymentCondition`: both timestamps are now.
pub fn new_deployment_condition(
    type_: &str,
    status: ConditionStatus,
    reason: &str,
    message: impl Into<String>,
    now: Time,
) -> DeploymentCondition {
    DeploymentCondition {
        type_: type_.to_string(),
        status,
        reason: reason.to_string(),
        message: message.into(),
        last_update_time: now,
        last_transition_time: now,
    }
}

/// `GetDeploymentCondition`.
pub fn get_deployment_condition<'a>(
    status: &'a DeploymentStatus,
    type_: &str,
) -> Option<&'a DeploymentCondition> {
    status.conditions.iter().find(|c| c.type_ == type_)
}

/// `SetDeploymentCondition`: no-op when status and reason are unchanged; keeps the transition
/// time when only the reason changes; the condition moves to the end of the list.
pub fn set_deployment_condition(status: &mut DeploymentStatus, mut condition: DeploymentCondition) {
    if let Some(current) = get_deployment_condition(status, &condition.type_) {
        if current.status == condition.status && current.reason == condition.reason {
            return;
        }
        if current.status == condition.status {
            condition.last_transition_time = current.last_transition_time;
        }
    }
    remove_deployment_condition(status, &condition.type_);
    status.conditions.push(condition);
}

/// `RemoveDeploymentCondition`.
pub fn remove_deployment_condition(status: &mut DeploymentStatus, type_: &str) {
    status.conditions.retain(|c| c.type_ != type_);
}

/// `ReplicaSetToDeploymentCondition`.
pub fn replica_set_to_deployment_condition(cond: &ReplicaSetCondition) -> DeploymentCondition {
    DeploymentCondition {
        type_: cond.type_.clone(),
        status: cond.status,
        reason: cond.reason.clone(),
        message: cond.message.clone(),
        last_update_time: cond.last_transition_time,
        last_transition_time: cond.last_transition_time,
    }
}

/// `SetDeploymentRevision`: whether the annotation changed.
pub fn set_deployment_revision(d: &mut Deployment, revision: &str) -> bool {
    let annotations = &mut d.metadata.annotations;
    if annotations.get(REVISION_ANNOTATION).map(String::as_str) != Some(revision) {
        annotations.insert(REVISION_ANNOTATION.to_string(), revision.to_string());
        true
    } else {
        false
    }
}

/// `Revision`: the revision annotation (absent = 0, malformed = error).
pub fn revision(rs: &ReplicaSet) -> Result<i64, std::num::ParseIntError> {
    match rs.metadata.annotations.get(REVISION_ANNOTATION) {
        None => Ok(0),
        Some(v) => v.parse::<i64>(),
    }
}

/// `MaxRevision`: the highest revision among the ReplicaSets.
pub fn max_revision(rss: &[Arc<ReplicaSet>]) -> i64 {
    rss.iter()
        .filter_map(|rs| revision(rs).ok())
        .fold(0, i64::max)
}

/// `LastRevision`: the second highest revision (what `rollback to 0` means).
pub fn last_revision(rss: &[Arc<ReplicaSet>]) -> i64 {
    let (mut max, mut sec_max) = (0, 0);
    for v in rss.iter().filter_map(|rs| revision(rs).ok()) {
        if v >= max {
            sec_max = max;
            max = v;
        } else if v > sec_max {
            sec_max = v;
        }
    }
    sec_max
}

/// Annotations never copied from a Deployment to its ReplicaSets (`annotationsToSkip`).
pub fn skip_copy_annotation(key: &str) -> bool {
    matches!(
        key,
        LAST_APPLIED_CONFIG_ANNOTATION
            | REVISION_ANNOTATION
            | REVISION_HISTORY_ANNOTATION
            | DESIRED_REPLICAS_ANNOTATION
            | MAX_REPLICAS_ANNOTATION
            | DEPRECATED_ROLLBACK_TO
    )
}

/// `copyDeploymentAnnotationsToReplicaSet`.
fn copy_deployment_annotations_to_replica_set(d: &Deployment, rs: &mut ReplicaSet) -> bool {
    let mut changed = false;
    for (k, v) in &d.metadata.annotations {
        if skip_copy_annotation(k) || rs.metadata.annotations.get(k) == Some(v) {
            continue;
        }
        rs.metadata.annotations.insert(k.clone(), v.clone());
        changed = true;
    }
    changed
}

/// `SetNewReplicaSetAnnotations`: copies the Deployment's annotations, raises the revision
/// (recording the old one in `revision-history`), and for a ReplicaSet being created sets
/// `desired-replicas` / `max-replicas`. Returns whether anything changed.
pub fn set_new_replica_set_annotations(
    d: &Deployment,
    rs: &mut ReplicaSet,
    new_revision: &str,
    exists: bool,
    rev_history_limit_in_chars: usize,
) -> bool {
    let mut changed = copy_deployment_annotations_to_replica_set(d, rs);
    let old_revision = rs.metadata.annotations.get(REVISION_ANNOTATION).cloned();
    let old_revision_int = match old_revision.as_deref().map(str::parse::<i64>) {
        None | Some(Err(_)) if old_revision.as_deref().unwrap_or("").is_empty() => 0,
        Some(Ok(v)) => v,
        _ => return false,
    };
    let Ok(new_revision_int) = new_revision.parse::<i64>() else {
        return false;
    };
    if old_revision_int < new_revision_int {
        rs.metadata
            .annotations
            .insert(REVISION_ANNOTATION.to_string(), new_revision.to_string());
        changed = true;
    }
    if let (Some(old_revision), true) = (old_revision, old_revision_int < new_revision_int) {
        let history = rs
            .metadata
            .annotations
            .get(REVISION_HISTORY_ANNOTATION)
            .cloned()
            .unwrap_or_default();
        let old_revisions: Vec<&str> = history.split(',').collect();
        if old_revisions[0].is_empty() {
            rs.metadata
                .annotations
                .insert(REVISION_HISTORY_ANNOTATION.to_string(), old_revision);
        } else {
            let mut total_len = history.len() + old_revision.len() + 1;
            let mut start = 0;
            while total_len > rev_history_limit_in_chars && start < old_revisions.len() {
                total_len = total_len - old_revisions[start].len() - 1;
                start += 1;
            }
            if total_len <= rev_history_limit_in_chars {
                let mut kept: Vec<&str> = old_revisions[start..].to_vec();
                kept.push(&old_revision);
                rs.metadata
                    .annotations
                    .insert(REVISION_HISTORY_ANNOTATION.to_string(), kept.join(","));
            }
        }
    }
    if !exists && set_replicas_annotations(rs, d.spec.replicas, d.spec.replicas + max_surge(d)) {
        changed = true;
    }
    changed
}

/// `SetDeploymentAnnotationsTo`: on rollback, the Deployment takes the ReplicaSet's
/// annotations (except the controller's own).
pub fn set_deployment_annotations_to(d: &mut Deployment, rollback_to: &ReplicaSet) {
    d.metadata
        .annotations
        .retain(|k, _| skip_copy_annotation(k));
    for (k, v) in &rollback_to.metadata.annotations {
        if !skip_copy_annotation(k) {
            d.metadata.annotations.insert(k.clone(), v.clone());
        }
    }
}

/// `getIntFromAnnotation` with Go's `strconv.Atoi`.
fn int_annotation(rs: &ReplicaSet, key: &str) -> Option<i32> {
    rs.metadata
        .annotations
        .get(key)
        .and_then(|v| go_atoi(v))
        .map(|v| v as i32)
}

/// `GetDesiredReplicasAnnotation`.
pub fn get_desired_replicas_annotation(rs: &ReplicaSet) -> Option<i32> {
    int_annotation(rs, DESIRED_REPLICAS_ANNOTATION)
}

/// `getMaxReplicasAnnotation`.
pub fn get_max_replicas_annotation(rs: &ReplicaSet) -> Option<i32> {
    int_annotation(rs, MAX_REPLICAS_ANNOTATION)
}

/// `SetReplicasAnnotations`: whether either annotation changed.
pub fn set_replicas_annotations(rs: &mut ReplicaSet, desired: i32, max: i32) -> bool {
    let mut updated = false;
    for (key, value) in [
        (DESIRED_REPLICAS_ANNOTATION, desired),
        (MAX_REPLICAS_ANNOTATION, max),
    ] {
        let value = value.to_string();
        if rs.metadata.annotations.get(key) != Some(&value) {
            rs.metadata.annotations.insert(key.to_string(), value);
            updated = true;
        }
    }
    updated
}

/// `ReplicasAnnotationsNeedUpdate`.
pub fn replicas_annotations_need_update(rs: &ReplicaSet, desired: i32, max: i32) -> bool {
    rs.metadata.annotations.get(DESIRED_REPLICAS_ANNOTATION) != Some(&desired.to_string())
        || rs.metadata.annotations.get(MAX_REPLICAS_ANNOTATION) != Some(&max.to_string())
}

/// `ResolveFenceposts`: maxSurge rounded up, maxUnavailable rounded down, and if both come
/// to 0, maxUnavailable becomes 1 (absent values count as 0).
///
/// With 10 replicas and 25% for both, 25% is 2.5 pods: maxSurge 3, maxUnavailable 2, so the
/// rollout may run 13 pods and must keep 8 available. 1% of 10 is 0.1 pod: maxSurge 1,
/// maxUnavailable 0. 0 and 0 would allow no step at all (no extra pod, none missing), so
/// they become maxSurge 0, maxUnavailable 1: one old pod goes before its replacement comes.
pub fn resolve_fenceposts(
    max_surge: Option<&IntOrString>,
    max_unavailable: Option<&IntOrString>,
    desired: i32,
) -> Result<(i32, i32), String> {
    let zero = IntOrString::Int(0);
    let surge = get_scaled_value_from_int_or_percent(max_surge.unwrap_or(&zero), desired, true)?;
    let mut unavailable =
        get_scaled_value_from_int_or_percent(max_unavailable.unwrap_or(&zero), desired, false)?;
    if surge == 0 && unavailable == 0 {
        unavailable = 1;
    }
    Ok((surge, unavailable))
}

fn rolling_params(d: &Deployment) -> Option<(Option<&IntOrString>, Option<&IntOrString>)> {
    match &d.spec.strategy {
        DeploymentStrategy::RollingUpdate {
            max_surge,
            max_unavailable,
        } => Some((max_surge.as_ref(), max_unavailable.as_ref())),
        DeploymentStrategy::Recreate => None,
    }
}

/// `MaxUnavailable`: resolved, capped at replicas; 0 for Recreate or 0 replicas.
///
/// 3 replicas with maxUnavailable 5: 3 (every pod may be down, no more). With "50%": 1
/// (1.5 rounded down). With maxSurge 0 and maxUnavailable 0: 1 (`resolve_fenceposts`).
pub fn max_unavailable(d: &Deployment) -> i32 {
    match rolling_params(d) {
        Some((surge, unavailable)) if d.spec.replicas != 0 => {
            let (_, u) = resolve_fenceposts(surge, unavailable, d.spec.replicas).unwrap_or((0, 0));
            u.min(d.spec.replicas)
        }
        _ => 0,
    }
}

/// `MinAvailable`: replicas − maxUnavailable (0 for Recreate): 10 − 2 = 8 for 10 replicas
/// with maxUnavailable 2.
pub fn min_available(d: &Deployment) -> i32 {
    if is_rolling_update(d) {
        d.spec.replicas - max_unavailable(d)
    } else {
        0
    }
}

/// `MaxSurge`: resolved (0 for Recreate), and not capped: 10 replicas with "25%" give 3
/// (2.5 rounded up), with "200%" 20, so up to 30 pods.
pub fn max_surge(d: &Deployment) -> i32 {
    match rolling_params(d) {
        Some((surge, unavailable)) => resolve_fenceposts(surge, unavailable, d.spec.replicas)
            .map(|(s, _)| s)
            .unwrap_or(0),
        None => 0,
    }
}

/// `IsRollingUpdate`.
pub fn is_rolling_update(d: &Deployment) -> bool {
    matches!(d.spec.strategy, DeploymentStrategy::RollingUpdate { .. })
}

/// `GetProportion`: how many of the replicas to add (or remove, when negative) this
/// ReplicaSet takes in a proportional scale: its fraction (`get_replica_set_fraction`), but
/// no more than is left. With 10 to add and 6 already given to a larger ReplicaSet, a
/// fraction of 4 or more gets 4; with 5 to remove and 3 already taken, a fraction of −3 is
/// held to −2.
pub fn get_proportion(
    rs: &ReplicaSet,
    d: &Deployment,
    deployment_replicas_to_add: i32,
    deployment_replicas_added: i32,
) -> i32 {
    if rs.spec.replicas == 0
        || deployment_replicas_to_add == 0
        || deployment_replicas_to_add == deployment_replicas_added
    {
        return 0;
    }
    let fraction = get_replica_set_fraction(rs, d);
    let allowed = deployment_replicas_to_add - deployment_replicas_added;
    if deployment_replicas_to_add > 0 {
        fraction.min(allowed)
    } else {
        fraction.max(allowed)
    }
}

/// `getReplicaSetFraction`: the ReplicaSet's share of the new size, from its `max-replicas`
/// annotation (or the Deployment's status.replicas), rounded half away from zero.
///
/// A ReplicaSet of 8 pods, annotated max-replicas 13 (10 replicas + maxSurge 3), when the
/// Deployment is scaled to 20 (with maxSurge 3, 23 pods): 8 × 23 / 13 = 14.15, rounded 14,
/// so +6. Scaled to 5 instead (8 pods): 8 × 8 / 13 = 4.92, rounded 5, so −3. Scaled to 0:
/// −8, every pod.
pub fn get_replica_set_fraction(rs: &ReplicaSet, d: &Deployment) -> i32 {
    if d.spec.replicas == 0 {
        return -rs.spec.replicas;
    }
    let deployment_replicas = d.spec.replicas.wrapping_add(max_surge(d));
    let annotated = get_max_replicas_annotation(rs).unwrap_or(d.status.replicas);
    let new_size =
        f64::from(rs.spec.replicas.wrapping_mul(deployment_replicas)) / f64::from(annotated);
    round_to_i32(new_size).wrapping_sub(rs.spec.replicas)
}

/// `integer.RoundToInt32`: add or subtract one half, then truncate: 2.5 → 3, 2.49 → 2,
/// −2.5 → −3.
fn round_to_i32(v: f64) -> i32 {
    go_f64_to_i32(if v < 0.0 { v - 0.5 } else { v + 0.5 })
}

/// Go's `int32(f)` on amd64: truncation, and the "integer indefinite" value `MinInt32` for
/// NaN and anything out of range (a `max-replicas` annotation of 0 divides by zero).
fn go_f64_to_i32(v: f64) -> i32 {
    if v.is_nan() || v >= 2_147_483_648.0 || v <= -2_147_483_649.0 {
        i32::MIN
    } else {
        v as i32
    }
}

/// `GetReplicaCountForReplicaSets`: the sum of spec.replicas.
pub fn get_replica_count_for_replica_sets<'a>(
    rss: impl IntoIterator<Item = &'a Arc<ReplicaSet>>,
) -> i32 {
    rss.into_iter().map(|rs| rs.spec.replicas).sum()
}

/// `GetActualReplicaCountForReplicaSets`: the sum of status.replicas.
pub fn get_actual_replica_count_for_replica_sets<'a>(
    rss: impl IntoIterator<Item = &'a Arc<ReplicaSet>>,
) -> i32 {
    rss.into_iter().map(|rs| rs.status.replicas).sum()
}

/// `GetReadyReplicaCountForReplicaSets`.
pub fn get_ready_replica_count_for_replica_sets<'a>(
    rss: impl IntoIterator<Item = &'a Arc<ReplicaSet>>,
) -> i32 {
    rss.into_iter().map(|rs| rs.status.ready_replicas).sum()
}

/// `GetAvailableReplicaCountForReplicaSets`.
pub fn get_available_replica_count_for_replica_sets<'a>(
    rss: impl IntoIterator<Item = &'a Arc<ReplicaSet>>,
) -> i32 {
    rss.into_iter().map(|rs| rs.status.available_replicas).sum()
}

/// `GetTerminatingReplicaCountForReplicaSets` (1.37's `deployment_util.go`, KEP-3973): the
/// sum of `status.terminatingReplicas`, or `None` as soon as one ReplicaSet that has synced
/// (observedGeneration > 0) has not reported it (a controller without the feature). One not
/// yet synced counts as 0: old 3 terminating + new, just created, none reported: 3.
pub fn get_terminating_replica_count_for_replica_sets<'a>(
    rss: impl IntoIterator<Item = &'a Arc<ReplicaSet>>,
) -> Option<i32> {
    let mut terminating = 0;
    for rs in rss {
        match rs.status.terminating_replicas {
            Some(n) => terminating += n,
            // Not synced yet: it cannot have terminating pods.
            None if rs.status.observed_generation == 0 => {}
            None => return None,
        }
    }
    Some(terminating)
}

/// `DeploymentComplete`: every replica updated and available, and the generation observed.
pub fn deployment_complete(d: &Deployment, status: &DeploymentStatus) -> bool {
    status.updated_replicas == d.spec.replicas
        && status.replicas == d.spec.replicas
        && status.available_replicas == d.spec.replicas
        && status.observed_generation >= d.metadata.generation
}

/// `DeploymentProgressing`: more updated, fewer old, more ready or more available pods than
/// the stored status says.
pub fn deployment_progressing(d: &Deployment, new_status: &DeploymentStatus) -> bool {
    let old = &d.status;
    let old_old_replicas = old.replicas - old.updated_replicas;
    let new_old_replicas = new_status.replicas - new_status.updated_replicas;
    new_status.updated_replicas > old.updated_replicas
        || new_old_replicas < old_old_replicas
        || new_status.ready_replicas > old.ready_replicas
        || new_status.available_replicas > old.available_replicas
}

/// `DeploymentTimedOut`: the Progressing condition was last updated more than
/// progressDeadlineSeconds ago (strictly).
pub fn deployment_timed_out(d: &Deployment, new_status: &DeploymentStatus, now: Time) -> bool {
    if !has_progress_deadline(d) {
        return false;
    }
    let Some(cond) = get_deployment_condition(new_status, condition::PROGRESSING) else {
        return false;
    };
    if cond.reason == reason::NEW_RS_AVAILABLE {
        return false;
    }
    if cond.reason == reason::TIMED_OUT {
        return true;
    }
    let deadline = i64::from(d.spec.progress_deadline_seconds.unwrap_or(0));
    cond.last_update_time + deadline < now
}

/// The numbers `NewRSNewReplicas` worked with, for the step explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewReplicasArithmetic {
    /// replicas + maxSurge (rolling only).
    pub max_total_pods: i32,
    /// Sum of spec.replicas over all ReplicaSets.
    pub current_pod_count: i32,
    /// What the new ReplicaSet may grow by.
    pub scale_up_count: i32,
    /// The result.
    pub new_replicas: i32,
}

/// `NewRSNewReplicas`: how big the new ReplicaSet may be now. Rolling: as far as
/// replicas + maxSurge allows, capped at replicas. Recreate: replicas.
///
/// With 10 replicas and maxSurge 3 (13 pods at most), summing spec.replicas over every
/// ReplicaSet: old 10 and new 0 make 10, so the new one grows by min(13 − 10, 10 − 0) = 3
/// to 3; old 10 and new 3 make 13, so it stays at 3; old 8 and new 3 make 11, so it grows
/// by min(2, 7) = 2 to 5; old 1 and new 9 make 10, and it grows by min(3, 1) = 1, to 10
/// and not past it.
pub fn new_rs_new_replicas(
    d: &Deployment,
    all_rss: &[Arc<ReplicaSet>],
    new_rs: &ReplicaSet,
) -> Result<NewReplicasArithmetic, String> {
    match &d.spec.strategy {
        DeploymentStrategy::RollingUpdate { max_surge, .. } => {
            let zero = IntOrString::Int(0);
            let surge = get_scaled_value_from_int_or_percent(
                max_surge.as_ref().unwrap_or(&zero),
                d.spec.replicas,
                true,
            )?;
            let current_pod_count = get_replica_count_for_replica_sets(all_rss);
            let max_total_pods = d.spec.replicas + surge;
            if current_pod_count >= max_total_pods {
                return Ok(NewReplicasArithmetic {
                    max_total_pods,
                    current_pod_count,
                    scale_up_count: 0,
                    new_replicas: new_rs.spec.replicas,
                });
            }
            let scale_up_count =
                (max_total_pods - current_pod_count).min(d.spec.replicas - new_rs.spec.replicas);
            Ok(NewReplicasArithmetic {
                max_total_pods,
                current_pod_count,
                scale_up_count,
                new_replicas: new_rs.spec.replicas + scale_up_count,
            })
        }
        DeploymentStrategy::Recreate => Ok(NewReplicasArithmetic {
            max_total_pods: d.spec.replicas,
            current_pod_count: get_replica_count_for_replica_sets(all_rss),
            scale_up_count: d.spec.replicas - new_rs.spec.replicas,
            new_replicas: d.spec.replicas,
        }),
    }
}

/// `IsSaturated`: the new ReplicaSet has exactly the desired replicas, all available.
pub fn is_saturated(d: &Deployment, rs: Option<&ReplicaSet>) -> bool {
    let Some(rs) = rs else { return false };
    let Some(desired) = rs
        .metadata
        .annotations
        .get(DESIRED_REPLICAS_ANNOTATION)
        .and_then(|v| go_atoi(v))
    else {
        return false;
    };
    rs.spec.replicas == d.spec.replicas
        && desired as i32 == d.spec.replicas
        && rs.status.available_replicas == d.spec.replicas
}

/// `HasProgressDeadline`: set and not MaxInt32.
pub fn has_progress_deadline(d: &Deployment) -> bool {
    d.spec
        .progress_deadline_seconds
        .is_some_and(|s| s != i32::MAX)
}

/// `HasRevisionHistoryLimit`: set and not MaxInt32.
pub fn has_revision_history_limit(d: &Deployment) -> bool {
    d.spec.revision_history_limit.is_some_and(|s| s != i32::MAX)
}

/// `FilterActiveReplicaSets`: ReplicaSets with spec.replicas > 0.
pub fn filter_active_replica_sets(rss: &[Arc<ReplicaSet>]) -> Vec<Arc<ReplicaSet>> {
    rss.iter()
        .filter(|rs| rs.spec.replicas > 0)
        .cloned()
        .collect()
}

/// Sorts ReplicaSets by one of the orders below, as Go's `sort.Sort(controller.ReplicaSetsByX(rss))`
/// does with a type per order. Here the order is a plain function passed in, and the sort is
/// [`crate::order::sort_by`], the one copy of the standard sort the whole module shares
/// (BENCHMARKS.md, "One sort"). The sort is stable; each order ends in the name, so no two
/// ReplicaSets tie.
pub fn sort_replica_sets<R: AsRef<ReplicaSet>>(
    rss: &mut [R],
    order: fn(&ReplicaSet, &ReplicaSet) -> std::cmp::Ordering,
) {
    crate::order::sort_by(rss, |a, b| order(a.as_ref(), b.as_ref()));
}

/// `sort.Reverse(ReplicaSetsByCreationTimestamp)`: newer first.
pub fn by_creation_timestamp_newest_first(a: &ReplicaSet, b: &ReplicaSet) -> std::cmp::Ordering {
    by_creation_timestamp(b, a)
}

/// `ReplicaSetsByCreationTimestamp`: older first, ties by name.
pub fn by_creation_timestamp(a: &ReplicaSet, b: &ReplicaSet) -> std::cmp::Ordering {
    a.metadata
        .creation_timestamp
        .cmp(&b.metadata.creation_timestamp)
        .then_with(|| a.metadata.name.cmp(&b.metadata.name))
}

/// `ReplicaSetsBySizeOlder`: larger first, then older first.
pub fn by_size_older(a: &ReplicaSet, b: &ReplicaSet) -> std::cmp::Ordering {
    b.spec
        .replicas
        .cmp(&a.spec.replicas)
        .then_with(|| by_creation_timestamp(a, b))
}

/// `ReplicaSetsBySizeNewer`: larger first, then newer first.
pub fn by_size_newer(a: &ReplicaSet, b: &ReplicaSet) -> std::cmp::Ordering {
    b.spec
        .replicas
        .cmp(&a.spec.replicas)
        .then_with(|| by_creation_timestamp(b, a))
}

/// `ReplicaSetsByRevision`: lower revision first; equal or malformed revisions by creation.
pub fn by_revision(a: &ReplicaSet, b: &ReplicaSet) -> std::cmp::Ordering {
    match (revision(a), revision(b)) {
        (Ok(ra), Ok(rb)) if ra != rb => ra.cmp(&rb),
        _ => by_creation_timestamp(a, b),
    }
}

/// `FindNewReplicaSet`: the oldest ReplicaSet whose template equals the Deployment's.
/// Sorts `rs_list` by creation time, as Kubernetes does.
pub fn find_new_replica_set(
    d: &Deployment,
    rs_list: &mut [Arc<ReplicaSet>],
) -> Option<Arc<ReplicaSet>> {
    sort_replica_sets(rs_list, by_creation_timestamp);
    rs_list
        .iter()
        .find(|rs| rs.spec.template.equal_ignore_hash(&d.spec.template))
        .cloned()
}

/// `FindOldReplicaSets` (the "all old" half): every ReplicaSet but the new one.
pub fn find_old_replica_sets(
    d: &Deployment,
    rs_list: &mut [Arc<ReplicaSet>],
) -> Vec<Arc<ReplicaSet>> {
    let new_rs = find_new_replica_set(d, rs_list);
    rs_list
        .iter()
        .filter(|rs| {
            new_rs
                .as_ref()
                .is_none_or(|n| n.metadata.uid != rs.metadata.uid)
        })
        .cloned()
        .collect()
}

/// `FindActiveOrLatest`: the one ReplicaSet with pods, or the latest when none has any;
/// `None` when several have pods. Sorts `old_rss` newest first, as Kubernetes does.
pub fn find_active_or_latest(
    new_rs: Option<&Arc<ReplicaSet>>,
    old_rss: &mut [Arc<ReplicaSet>],
) -> Option<Arc<ReplicaSet>> {
    if new_rs.is_none() && old_rss.is_empty() {
        return None;
    }
    sort_replica_sets(old_rss, by_creation_timestamp_newest_first);
    let active: Vec<&Arc<ReplicaSet>> = old_rss
        .iter()
        .chain(new_rs)
        .filter(|rs| rs.spec.replicas > 0)
        .collect();
    match active.len() {
        0 => new_rs.cloned().or_else(|| old_rss.first().cloned()),
        1 => Some(active[0].clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fenceposts_round_surge_up_and_unavailable_down() {
        let s = IntOrString::from("25%");
        assert_eq!(resolve_fenceposts(Some(&s), Some(&s), 10), Ok((3, 2)));
        let zero = IntOrString::Int(0);
        assert_eq!(resolve_fenceposts(Some(&zero), Some(&zero), 10), Ok((0, 1)));
        assert_eq!(
            resolve_fenceposts(Some(&"1%".into()), Some(&"1%".into()), 10),
            Ok((1, 0))
        );
    }

    /// A ReplicaSet with these spec and status figures (the rest as rolling-basic's first).
    fn rs_with(
        spec: i32,
        replicas: i32,
        observed: i64,
        terminating: Option<i32>,
    ) -> Arc<ReplicaSet> {
        let mut s = crate::presets::preset("rolling-basic").unwrap().scenario;
        s.actions.truncate(1);
        s.rounds = 2;
        let mut sim = crate::sim::Simulation::new(s).without_history();
        sim.run();
        let mut rs = (**sim.api().replica_sets().next().unwrap()).clone();
        rs.spec.replicas = spec;
        rs.status.replicas = replicas;
        rs.status.observed_generation = observed;
        rs.status.terminating_replicas = terminating;
        Arc::new(rs)
    }

    /// 1.37 `deployment_util_test.go` `TestGetReplicaCountForReplicaSets`, all six cases:
    /// rs1 (spec 1, 2 pods, 3 terminating), rs2 (spec 2, 3 pods, 1 terminating; never synced
    /// in the upstream table, which sets rs1's observedGeneration twice), rs3 (spec 3, not
    /// synced, terminating not reported: counts 0), rs4 (spec 1, 1 pod, synced, terminating
    /// not reported: the sum is unknown, nil).
    #[test]
    fn get_terminating_replica_count_for_replica_sets_upstream_cases() {
        let rs1 = rs_with(1, 2, 1, Some(3));
        let rs2 = rs_with(2, 3, 0, Some(1));
        let rs3 = rs_with(3, 0, 0, None);
        let rs4 = rs_with(1, 1, 1, None);
        // (name, sets, GetReplicaCount…, GetActualReplicaCount…, GetTerminatingReplicaCount…)
        type Case<'a> = (&'a str, Vec<&'a Arc<ReplicaSet>>, i32, i32, Option<i32>);
        let cases: [Case; 6] = [
            ("scaling down rs1", vec![&rs1], 1, 2, Some(3)),
            ("scaling down rs1 and rs2", vec![&rs1, &rs2], 3, 5, Some(4)),
            ("scaling up rs3", vec![&rs3], 3, 0, Some(0)),
            (
                "scaling down rs1 and rs2 and scaling up rs3",
                vec![&rs1, &rs2, &rs3],
                6,
                5,
                Some(4),
            ),
            (
                "invalid/unknown terminating status for rs4",
                vec![&rs4],
                1,
                1,
                None,
            ),
            (
                "invalid/unknown terminating status for rs4 with rs1, rs2 and rs3",
                vec![&rs1, &rs2, &rs3, &rs4],
                7,
                6,
                None,
            ),
        ];
        for (name, sets, count, actual, terminating) in cases {
            assert_eq!(
                get_replica_count_for_replica_sets(sets.iter().copied()),
                count,
                "{name}"
            );
            assert_eq!(
                get_actual_replica_count_for_replica_sets(sets.iter().copied()),
                actual,
                "{name}"
            );
            assert_eq!(
                get_terminating_replica_count_for_replica_sets(sets.iter().copied()),
                terminating,
                "{name}"
            );
        }
    }
}

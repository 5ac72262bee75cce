//! `pkg/controller/replicaset/replica_set_utils.go`: the ReplicaSet status and its
//! ReplicaFailure condition.

use crate::api::{
    ready_long_enough, ConditionStatus, Pod, PodPhase, ReplicaSet, ReplicaSetCondition,
    ReplicaSetStatus, Time,
};
use crate::store::{ApiError, ApiServer};

/// `ReplicaFailure`.
pub const REPLICA_FAILURE: &str = "ReplicaFailure";

/// `calculateStatus`: from the number of active pods the sync started from and their
/// counts ([`PodCounts::of`], read before the sync wrote anything); a ReplicaFailure condition
/// set by the first error (and kept until a sync without error removes it).
///
/// Since 1.35 (1.37's `replica_set_utils.go` `calculateStatus`, KEP-3973) it also writes
/// `terminatingReplicas`: the ReplicaSet's pods with a deletionTimestamp that are not
/// terminal (`controller.FilterTerminatingPods`, then `FilterClaimedPods`). A ReplicaSet of 3
/// scaled to 1 with a 30 s grace period reports `replicas: 1, terminatingReplicas: 2` until the
/// kubelet removes the two pods. Under 1.28 the field stays absent (`counts.terminating` is
/// `None`).
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
    status.terminating_replicas = counts.terminating.map(|n| n as i32);
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
    /// Its pods with a deletionTimestamp (`terminatingReplicasCount`; `None` when the
    /// release does not report them, see [`PodCounts::with_terminating`]).
    terminating: Option<usize>,
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
            terminating: None,
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

    /// The same counts with `terminatingReplicasCount` (1.35+, `reports` true): `pods`, the
    /// ReplicaSet's pods of every kind, counted when they have a deletionTimestamp and are
    /// neither Succeeded nor Failed (`controller.FilterTerminatingPods`).
    pub(crate) fn with_terminating<'p>(
        mut self,
        reports: bool,
        pods: impl IntoIterator<Item = &'p Pod>,
    ) -> PodCounts {
        self.terminating = reports.then(|| {
            pods.into_iter()
                .filter(|p| {
                    p.metadata.deletion_timestamp.is_some()
                        && p.phase != PodPhase::Succeeded
                        && p.phase != PodPhase::Failed
                })
                .count()
        });
        self
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
        && s.terminating_replicas == new_status.terminating_replicas
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A ReplicaSet of 2 ready pods (rolling-basic's first ReplicaSet, scaled to 2, after its
    /// pods started), as `newReplicaSet(2, fullLabelMap)` and `newPod(…, PodRunning, …, true)`
    /// give it in 1.37's `replica_set_utils_test.go`.
    fn two_ready_pods() -> (ReplicaSet, Vec<Pod>, Time) {
        let mut s = crate::presets::preset("rolling-basic").unwrap().scenario;
        s.actions.truncate(1);
        if let crate::scenario::ActionKind::Create { deployment } = &mut s.actions[0].kind {
            deployment.replicas = Some(2);
        }
        s.rounds = 9;
        let mut sim = crate::sim::Simulation::new(s).without_history();
        sim.run();
        let api = sim.api();
        let rs = api.replica_sets().next().unwrap();
        let pods: Vec<Pod> = api.pods_of(rs).iter().map(|p| (**p).clone()).collect();
        assert_eq!(pods.len(), 2);
        assert!(pods.iter().all(|p| p.is_ready()));
        ((**rs).clone(), pods, api.now())
    }

    fn terminating(mut pod: Pod, now: Time) -> Pod {
        pod.metadata.deletion_timestamp = Some(now);
        pod
    }

    /// `calculateStatus` over active and terminating pods, with the terminating count
    /// reported or not (the feature gate of the upstream cases).
    fn status(
        rs: &ReplicaSet,
        active: &[Pod],
        terminating: &[Pod],
        gate: bool,
        now: Time,
    ) -> ReplicaSetStatus {
        let counts =
            PodCounts::of(rs, active, now).with_terminating(gate, active.iter().chain(terminating));
        calculate_status(rs, active.len(), &counts, None, now)
    }

    /// 1.37 `replica_set_utils_test.go` `TestCalculateStatus`, the cases about
    /// `TerminatingReplicas`: "2 fully labelled pods" (nil without the gate, 0 with it),
    /// "1 fully labelled pod and 1 terminating" without the gate (nil), "1 fully labelled
    /// pods and 2 terminating" with it (2). The terminating pods are not in `replicas`.
    #[test]
    fn calculate_status_counts_terminating_pods_only_when_the_release_reports_them() {
        let (rs, pods, now) = two_ready_pods();
        let (p1, p2) = (pods[0].clone(), pods[1].clone());
        let two = [p1.clone(), p2.clone()];
        let s = status(&rs, &two, &[], false, now);
        assert_eq!(
            (
                s.replicas,
                s.fully_labeled_replicas,
                s.ready_replicas,
                s.available_replicas
            ),
            (2, 2, 2, 2)
        );
        assert_eq!(s.terminating_replicas, None, "2 fully labelled pods");
        let s = status(&rs, &two, &[], true, now);
        assert_eq!(
            s.terminating_replicas,
            Some(0),
            "2 fully labelled pods, with the gate"
        );

        let one = [p1.clone()];
        let s = status(&rs, &one, &[terminating(p2.clone(), now)], false, now);
        assert_eq!(
            (s.replicas, s.ready_replicas, s.available_replicas),
            (1, 1, 1)
        );
        assert_eq!(
            s.terminating_replicas, None,
            "1 pod and 1 terminating, without the gate"
        );

        let mut p3 = p2.clone();
        p3.metadata.name.push('x');
        let s = status(
            &rs,
            &one,
            &[terminating(p2, now), terminating(p3, now)],
            true,
            now,
        );
        assert_eq!(
            (s.replicas, s.ready_replicas, s.available_replicas),
            (1, 1, 1)
        );
        assert_eq!(
            s.terminating_replicas,
            Some(2),
            "1 pod and 2 terminating, with the gate"
        );
    }

    /// 1.37 `controller_utils_test.go` `TestCountTerminatingPods`: of Succeeded, Failed,
    /// Pending-and-deleted and Running-and-deleted pods, the last two are terminating (a
    /// terminal pod is not, deleted or not).
    #[test]
    fn terminal_pods_are_not_terminating() {
        let (rs, pods, now) = two_ready_pods();
        let mut all = Vec::new();
        for (i, phase) in [
            PodPhase::Succeeded,
            PodPhase::Failed,
            PodPhase::Pending,
            PodPhase::Running,
        ]
        .into_iter()
        .enumerate()
        {
            let mut p = pods[0].clone();
            p.metadata.name = format!("pod-{i}");
            p.phase = phase;
            if i >= 2 {
                p.metadata.deletion_timestamp = Some(now);
            }
            all.push(p);
        }
        // A Failed pod being deleted is terminal, not terminating.
        let mut failed_deleted = all[1].clone();
        failed_deleted.metadata.deletion_timestamp = Some(now);
        all.push(failed_deleted);
        let counts = PodCounts::of(&rs, std::iter::empty(), now).with_terminating(true, &all);
        assert_eq!(counts.terminating, Some(2));
    }

    /// `updateReplicaSetStatus` writes when only `terminatingReplicas` changed (1.37 compares
    /// it with `ptr.Equal`), and not when nothing did.
    #[test]
    fn a_changed_terminating_count_alone_is_written() {
        let mut s = crate::presets::preset("rolling-basic").unwrap().scenario;
        s.actions.truncate(1);
        s.rounds = 9;
        s.kubernetes_version = crate::version::KubernetesVersion::V1_37;
        let mut sim = crate::sim::Simulation::new(s).without_history();
        sim.run();
        let mut api = sim.api().clone();
        let rs = api.replica_sets().next().unwrap().clone();
        assert_eq!(rs.status.terminating_replicas, Some(0));
        let version = api
            .replica_set(&rs.metadata.name)
            .unwrap()
            .metadata
            .resource_version;
        update_replica_set_status(&mut api, &rs, rs.status.clone()).unwrap();
        let same = api
            .replica_set(&rs.metadata.name)
            .unwrap()
            .metadata
            .resource_version;
        assert_eq!(same, version, "nothing changed: no write");
        let mut changed = rs.status.clone();
        changed.terminating_replicas = Some(1);
        update_replica_set_status(&mut api, &rs, changed).unwrap();
        let stored = api.replica_set(&rs.metadata.name).unwrap();
        assert_eq!(stored.status.terminating_replicas, Some(1));
        assert!(stored.metadata.resource_version > version);
    }
}

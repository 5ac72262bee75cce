//! When the ReplicaSet controller comes back to a ReplicaSet to count a pod available: the
//! availability re-queue at the end of `syncReplicaSet` (`replica_set.go`), which changed in
//! kubernetes/kubernetes PR #132121 (1.34).
//!
//! A pod is available `minReadySeconds` after it became Ready, and nothing happens to the pod
//! at that moment: no informer event wakes the controller. So after writing the status the
//! controller re-queues the ReplicaSet itself:
//!
//! * **1.28** (v1.28.4 `syncReplicaSet`): only when the sync had no error, a positive
//!   `minReadySeconds`, every wanted pod is ready (`readyReplicas == spec.replicas`) and not all are
//!   available, after `minReadySeconds`. With 3 wanted, 2 ready and 1 starting, it does not
//!   re-queue: the pods' own Ready events (`updatePod`'s `enqueueRSAfter(minReadySeconds + 1 s)`)
//!   are what bring it back, a second late.
//! * **1.37** (`syncReplicaSet` with `controller.FindMinNextPodAvailabilityCheck`): whenever
//!   `minReadySeconds` > 0 and some ready pod is not yet available (`readyReplicas !=
//!   availableReplicas`), at the first moment one of them becomes available (ready at 12 s,
//!   `minReadySeconds` 10, synced at 15 s: in 7 s), or after `minReadySeconds` when no such
//!   moment is ahead.
//!
//! **What Rollout Lab shows of it.** The simulation has no work queue: in a settled round
//! every controller syncs in every pass, and idle rounds are skipped only up to the next moment
//! a pod becomes available (`Simulation::next_due_round`); a lock-step round and a race
//! schedule's `sync-rs` sync every ReplicaSet too. So the status counts a pod available in the
//! first round after its moment under either release, and no trace differs (the test
//! `availability_is_counted_in_the_same_round_under_both_releases`). What differs is when the
//! real controller would come back by itself; each `syncReplicaSet` step says it, with the
//! live numbers, in its explanation ([`explain`]).

use crate::api::{Pod, ReplicaSet, Time};
use crate::version::KubernetesVersion;

/// When the controller syncs the ReplicaSet again by itself after this sync, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requeue {
    /// Seconds until the re-queued sync (`queue.AddAfter`); `None`: not re-queued.
    pub after: Option<Time>,
    /// The rule and the numbers that decided, in a sentence.
    pub why: String,
}

/// `nextPodAvailabilityCheck`: seconds until a ready pod becomes available, if that is still
/// ahead (`None` for a pod not ready, `minReadySeconds` 0, or a moment already reached).
pub fn next_pod_availability_check(pod: &Pod, min_ready_seconds: i32, now: Time) -> Option<Time> {
    if min_ready_seconds <= 0 {
        return None;
    }
    let ready = pod.ready_time()?;
    let next = ready + i64::from(min_ready_seconds) - now;
    (next > 0).then_some(next)
}

/// `FindMinNextPodAvailabilityCheck` on a clock that has not moved since the status was
/// computed: the soonest [`next_pod_availability_check`] of the pods.
pub fn find_min_next_pod_availability_check<'p>(
    pods: impl IntoIterator<Item = &'p Pod>,
    min_ready_seconds: i32,
    now: Time,
) -> Option<Time> {
    pods.into_iter()
        .filter_map(|p| next_pod_availability_check(p, min_ready_seconds, now))
        .min()
}

/// The re-queue at the end of `syncReplicaSet` for `rs` as its status was just written
/// (`updatedRS`), under `version`: `next_check` is [`find_min_next_pod_availability_check`]
/// of the active pods the sync started from, `manage_failed` whether `manageReplicas` failed.
pub fn availability_requeue(
    version: KubernetesVersion,
    rs: &ReplicaSet,
    next_check: Option<Time>,
    manage_failed: bool,
) -> Requeue {
    let min_ready = rs.spec.min_ready_seconds;
    let (spec, ready, available) = (
        rs.spec.replicas,
        rs.status.ready_replicas,
        rs.status.available_replicas,
    );
    if min_ready <= 0 {
        return Requeue {
            after: None,
            why: "minReadySeconds is 0: a pod is available once Ready, nothing to wait for"
                .to_string(),
        };
    }
    if version.requeues_for_any_ready_pod() {
        if ready == available {
            return Requeue {
                after: None,
                why: format!(
                    "not re-queued: readyReplicas {ready} = availableReplicas {available}, no ready pod is waiting out minReadySeconds {min_ready}"
                ),
            };
        }
        return match next_check {
            Some(next) => Requeue {
                after: Some(next),
                why: format!(
                    "{} ready pods not yet available (readyReplicas {ready} ≠ availableReplicas {available}): re-queued in {next} s, when the first of them has been Ready for minReadySeconds {min_ready} (FindMinNextPodAvailabilityCheck)",
                    ready - available
                ),
            },
            None => Requeue {
                after: Some(i64::from(min_ready)),
                why: format!(
                    "readyReplicas {ready} ≠ availableReplicas {available} and no pod's moment is ahead: re-queued after minReadySeconds {min_ready} s"
                ),
            },
        };
    }
    if manage_failed {
        return Requeue {
            after: None,
            why: "not re-queued for availability: manageReplicas failed (the error re-queues it)"
                .to_string(),
        };
    }
    if ready == spec && available != spec {
        Requeue {
            after: Some(i64::from(min_ready)),
            why: format!(
                "all {spec} wanted pods ready, {available} available: re-queued after minReadySeconds {min_ready} s"
            ),
        }
    } else {
        Requeue {
            after: None,
            why: if ready != spec {
                format!(
                    "not re-queued: readyReplicas {ready} ≠ spec.replicas {spec} (1.28 re-queues only when every wanted pod is ready; each pod's Ready event brings it back after minReadySeconds {min_ready} + 1 s)"
                )
            } else {
                format!("not re-queued: all {spec} wanted pods available")
            },
        }
    }
}

/// The sentence the step's explanation gives (`syncReplicaSet`'s last decision).
pub fn explain(r: &Requeue) -> String {
    r.why.clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ConditionStatus, PodCondition, PodConditionType};
    use crate::scenario::ActionKind;
    use crate::sim::Simulation;
    use crate::version::KubernetesVersion::{V1_28, V1_37};

    const NOW: Time = 1_000;

    /// A ReplicaSet of 3 with minReadySeconds 10 and its 3 pods, run until they started.
    fn fixture() -> (ReplicaSet, Vec<Pod>) {
        let mut s = crate::presets::preset("rolling-basic").unwrap().scenario;
        s.actions.truncate(1);
        if let ActionKind::Create { deployment } = &mut s.actions[0].kind {
            deployment.min_ready_seconds = Some(10);
        }
        s.rounds = 7;
        let mut sim = Simulation::new(s).without_history();
        sim.run();
        let api = sim.api();
        let rs = (**api.replica_sets().next().unwrap()).clone();
        let pods: Vec<Pod> = api.pods_of(&rs).iter().map(|p| (**p).clone()).collect();
        assert_eq!(pods.len(), 3);
        (rs, pods)
    }

    /// `newPodWithReadyCond(now, ready, beforeSec)` of the upstream tests: the pod's Ready
    /// condition True or False since `before` seconds before [`NOW`].
    fn ready_since(mut pod: Pod, ready: bool, before: Time) -> Pod {
        pod.conditions
            .retain(|c| c.type_ != PodConditionType::Ready);
        pod.conditions.push(PodCondition {
            type_: PodConditionType::Ready,
            status: if ready {
                ConditionStatus::True
            } else {
                ConditionStatus::False
            },
            last_transition_time: NOW - before,
            reason: String::new(),
            message: String::new(),
        });
        pod
    }

    /// 1.37 `controller_utils_test.go` `TestNextPodAvailabilityCheck` (PR #132121), in
    /// whole seconds: "not ready", "no minReadySeconds defined", "just became ready -
    /// available in 1s", "ready for 20s - available in 10s", "available".
    #[test]
    fn next_pod_availability_check_upstream_cases() {
        let pod = fixture().1.remove(0);
        let cases = [
            ("not ready", false, 0, 0, None),
            ("no minReadySeconds defined", true, 0, 0, None),
            ("just became ready - available in 1s", true, 0, 1, Some(1)),
            ("ready for 20s - available in 10s", true, 20, 30, Some(10)),
            ("available", true, 51, 50, None),
        ];
        for (name, ready, before, min_ready, want) in cases {
            let p = ready_since(pod.clone(), ready, before);
            assert_eq!(
                next_pod_availability_check(&p, min_ready, NOW),
                want,
                "{name}"
            );
        }
    }

    /// 1.37 `controller_utils_test.go` `TestFindMinNextPodAvailabilitySimpleCheck`: "no
    /// pods", "unready pods", "ready pods with no minReadySeconds", "unready and ready pods
    /// should find min next availability check" (6 s, the pod ready 4 s ago), "unready and
    /// available pods do not require min next availability check".
    #[test]
    fn find_min_next_pod_availability_check_upstream_cases() {
        let pod = fixture().1.remove(0);
        let pods = |spec: &[(bool, Time)]| -> Vec<Pod> {
            spec.iter()
                .map(|&(ready, before)| ready_since(pod.clone(), ready, before))
                .collect()
        };
        let cases: [(&str, Vec<Pod>, i32, Option<Time>); 5] = [
            ("no pods", vec![], 0, None),
            ("unready pods", pods(&[(false, 0), (false, 0)]), 0, None),
            (
                "ready pods with no minReadySeconds",
                pods(&[(true, 0), (true, 0)]),
                0,
                None,
            ),
            (
                "unready and ready pods should find min next availability check",
                pods(&[(false, 0), (true, 2), (true, 0), (true, 4), (false, 0)]),
                10,
                Some(6),
            ),
            (
                "unready and available pods do not require min next availability check",
                pods(&[(false, 0), (true, 15), (true, 11), (true, 10), (false, 0)]),
                10,
                None,
            ),
        ];
        for (name, pods, min_ready, want) in cases {
            assert_eq!(
                find_min_next_pod_availability_check(&pods, min_ready, NOW),
                want,
                "{name}"
            );
        }
    }

    /// `syncReplicaSet`'s re-queue, 1.28 against 1.37: 2 of 3 pods ready (3 s ago) and
    /// neither available is re-queued under 1.37 in 7 s, when the first becomes available,
    /// and not at all under 1.28, which waits for all 3 to be ready; with all 3 ready both
    /// re-queue, 1.28 after the whole minReadySeconds; after a failed manageReplicas only 1.37.
    #[test]
    fn ready_but_unavailable_pods_are_re_queued_sooner_since_1_34() {
        let (mut rs, pods) = fixture();
        let check = |pods: &[Pod]| find_min_next_pod_availability_check(pods, 10, NOW);
        let two: Vec<Pod> = pods
            .iter()
            .enumerate()
            .map(|(i, p)| ready_since(p.clone(), i < 2, 3))
            .collect();
        rs.status.ready_replicas = 2;
        rs.status.available_replicas = 0;
        let new = availability_requeue(V1_37, &rs, check(&two), false);
        assert_eq!(new.after, Some(7), "{}", new.why);
        let old = availability_requeue(V1_28, &rs, check(&two), false);
        assert_eq!(old.after, None, "{}", old.why);
        assert!(
            old.why.contains("readyReplicas 2 ≠ spec.replicas 3"),
            "{}",
            old.why
        );

        let three: Vec<Pod> = pods
            .iter()
            .map(|p| ready_since(p.clone(), true, 3))
            .collect();
        rs.status.ready_replicas = 3;
        assert_eq!(
            availability_requeue(V1_37, &rs, check(&three), false).after,
            Some(7)
        );
        assert_eq!(
            availability_requeue(V1_28, &rs, check(&three), false).after,
            Some(10)
        );
        assert_eq!(
            availability_requeue(V1_28, &rs, check(&three), true).after,
            None
        );
        assert_eq!(
            availability_requeue(V1_37, &rs, check(&three), true).after,
            Some(7)
        );

        // All available: neither re-queues.
        rs.status.available_replicas = 3;
        let done: Vec<Pod> = pods
            .iter()
            .map(|p| ready_since(p.clone(), true, 30))
            .collect();
        assert_eq!(
            availability_requeue(V1_37, &rs, check(&done), false).after,
            None
        );
        assert_eq!(
            availability_requeue(V1_28, &rs, check(&done), false).after,
            None
        );
    }

    /// No model of Rollout Lab has a work queue, so the re-queue changes no trace: a rollout
    /// with minReadySeconds counts each pod available in the same round under both releases,
    /// settled or lock-step.
    #[test]
    fn availability_is_counted_in_the_same_round_under_both_releases() {
        let run = |v: KubernetesVersion, settle: bool| {
            let mut s = crate::presets::preset("rolling-basic").unwrap().scenario;
            if let ActionKind::Create { deployment } = &mut s.actions[0].kind {
                deployment.min_ready_seconds = Some(7);
            }
            s.settle = settle;
            s.kubernetes_version = v;
            let mut sim = Simulation::new(s).without_history();
            sim.run();
            sim.trace_rounds()
                .map(|r| {
                    r.replica_sets
                        .iter()
                        .map(|rs| (rs.name.clone(), rs.ready_replicas, rs.available_replicas))
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        };
        for settle in [true, false] {
            let (old, new) = (run(V1_28, settle), run(V1_37, settle));
            assert_eq!(old, new, "settle {settle}");
            // The wait is there: some round has a ready pod not yet available.
            assert!(old.iter().flatten().any(|(_, r, a)| r > a));
        }
    }
}

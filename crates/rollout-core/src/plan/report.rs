//! What a forecast report shows besides the figures: the pod counts over time, the Deployment
//! controller's events (`kubectl describe deployment`), and warnings about settings that do
//! something people do not expect.

use super::{Forecast, RolloutTarget};
use crate::api::{DeploymentStrategy, IntOrString};
use crate::deployment::util::resolve_fenceposts;
use crate::sim::{LoggedEvent, Simulation};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The rollout's pods at one moment (a round-end snapshot).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sample {
    /// Seconds since the image was set.
    pub seconds: i64,
    /// The snapshot's round.
    pub round: u32,
    /// Active pods of the ReplicaSet with the Deployment's current image.
    pub new_pods: i32,
    /// Active pods of the other ReplicaSets.
    pub old_pods: i32,
    /// Pods of any of its ReplicaSets that are terminating.
    pub terminating: i32,
    /// Sum of the ReplicaSets' availableReplicas.
    pub available: i32,
}

/// The pods every `step` seconds from the start of the rollout to its last simulated round
/// (each sample is the last snapshot at or before its moment).
pub fn samples(sim: &Simulation, target: &RolloutTarget, step: i64) -> Vec<Sample> {
    let rounds: Vec<_> = sim
        .trace_rounds()
        .filter(|r| r.round >= target.start_round)
        .collect();
    let (Some(first), Some(last)) = (rounds.first(), rounds.last()) else {
        return Vec::new();
    };
    let start = first.time;
    let mut out = Vec::new();
    let mut at = start;
    let mut i = 0;
    loop {
        while i + 1 < rounds.len() && rounds[i + 1].time <= at {
            i += 1;
        }
        let r = rounds[i];
        let mut s = Sample {
            seconds: at - start,
            round: r.round,
            new_pods: 0,
            old_pods: 0,
            terminating: 0,
            available: 0,
        };
        let image = r
            .deployments
            .iter()
            .find(|d| d.name == target.deployment)
            .map(|d| d.image.as_str());
        for rs in r
            .replica_sets
            .iter()
            .filter(|rs| rs.deployment == target.deployment)
        {
            if Some(rs.image.as_str()) == image {
                s.new_pods += rs.pods.active;
            } else {
                s.old_pods += rs.pods.active;
            }
            s.terminating += rs.pods.terminating;
            s.available += rs.available_replicas;
        }
        out.push(s);
        if at >= last.time {
            return out;
        }
        at = (at + step.max(1)).min(last.time);
    }
}

/// The Deployment controller's events about the rollout's Deployment from the start round on
/// (`ScalingReplicaSet` and the like), oldest first.
pub fn rollout_events(sim: &Simulation, target: &RolloutTarget) -> Vec<Arc<LoggedEvent>> {
    sim.events()
        .filter(|e| {
            e.round >= target.start_round
                && e.phase == "deployment"
                && e.event.name == target.deployment
        })
        .cloned()
        .collect()
}

/// Plain-language warnings about the forecast: percentages that round to nothing, availability
/// reaching 0, more pods than replicas + maxSurge (terminating pods, which the v1.28
/// controller does not count), more than the pod quota, a rollout that never completes.
pub fn warnings(sim: &Simulation, target: &RolloutTarget, forecast: &Forecast) -> Vec<String> {
    let mut out = Vec::new();
    let Some(d) = sim.api().deployment(&target.deployment) else {
        out.push(format!(
            "deployment {:?} does not exist when the image is set",
            target.deployment
        ));
        return out;
    };
    let replicas = d.spec.replicas;
    let mut surge = 0;
    if let DeploymentStrategy::RollingUpdate {
        max_surge,
        max_unavailable,
    } = &d.spec.strategy
    {
        let percent = |v: &Option<IntOrString>| match v {
            Some(IntOrString::String(s)) => Some(s.clone()),
            _ => None,
        };
        if let Ok((s, u)) =
            resolve_fenceposts(max_surge.as_ref(), max_unavailable.as_ref(), replicas)
        {
            surge = s;
            // Before ResolveFenceposts turns "both 0" into maxUnavailable 1.
            let literal_u = max_unavailable.as_ref().map_or(Ok(0), |v| {
                crate::api::intstr::get_scaled_value_from_int_or_percent(v, replicas, false)
            });
            let literal_u = literal_u.unwrap_or(u);
            if let Some(p) = percent(max_unavailable) {
                if literal_u == 0 && p != "0%" && replicas > 0 {
                    out.push(format!(
                        "maxUnavailable {p} of {replicas} rounds down to 0: no old pod goes before a new one is available"
                    ));
                }
            }
            if s == 0 && literal_u == 0 {
                out.push(format!(
                    "maxSurge and maxUnavailable both come to 0 for {replicas} replicas: the controller uses maxUnavailable 1"
                ));
            }
        }
    }
    if forecast.min_available == Some(0) && replicas > 0 {
        out.push(format!(
            "availability drops to 0: at some moment none of the {replicas} replicas is available"
        ));
    }
    if forecast.peak_pods > replicas + surge {
        out.push(format!(
            "peak of {} pods exceeds replicas + maxSurge = {}: terminating pods are not counted by the controller (Kubernetes {})",
            forecast.peak_pods,
            replicas + surge,
            sim.scenario().kubernetes_version.release()
        ));
    }
    let quotas = std::iter::once(sim.scenario().pod_quota)
        .chain(sim.scenario().actions.iter().map(|a| match &a.kind {
            crate::scenario::ActionKind::SetPodQuota { value } => *value,
            _ => None,
        }))
        .flatten();
    if let Some(q) = quotas.min() {
        if forecast.peak_pods > q {
            out.push(format!(
                "peak of {} pods exceeds the pod quota of {q} (the quota does not count terminating pods)",
                forecast.peak_pods
            ));
        }
        let refused = sim
            .events()
            .filter(|e| e.round >= target.start_round && e.event.reason == "FailedCreate")
            .count();
        if refused > 0 {
            out.push(format!(
                "the pod quota of {q} refused {refused} pod creations (FailedCreate events)"
            ));
        }
    }
    if let Some(r) = forecast.deadline_exceeded_round {
        out.push(format!(
            "the progress deadline is exceeded in round {r}, {} s after the image was set",
            i64::from(r - target.start_round) * sim.scenario().seconds_per_round
        ));
    }
    if forecast.complete_round.is_none() {
        out.push(if sim.finished() {
            format!(
                "the rollout does not complete within the scenario's {} rounds",
                sim.scenario().rounds
            )
        } else {
            format!(
                "the rollout never completes: nothing changes any more after round {}",
                sim.round().saturating_sub(1)
            )
        });
    }
    out
}

/// The Deployment's rollout settings in one line, percentages resolved as
/// `ResolveFenceposts` resolves them: "10 replicas, RollingUpdate maxSurge 25% (3 pods),
/// maxUnavailable 25% (2 pods): at most 13 pods, at least 8 available; minReadySeconds 0,
/// progressDeadlineSeconds 600".
pub fn describe_deployment(d: &crate::api::Deployment) -> String {
    let replicas = d.spec.replicas;
    let pods = |n: i32| {
        if n == 1 {
            "1 pod".to_string()
        } else {
            format!("{n} pods")
        }
    };
    let strategy = match &d.spec.strategy {
        DeploymentStrategy::Recreate => {
            "Recreate: every old pod goes before the new ones are created".to_string()
        }
        DeploymentStrategy::RollingUpdate {
            max_surge,
            max_unavailable,
        } => {
            let show = |v: &Option<IntOrString>| v.as_ref().map_or("0".into(), |v| v.to_string());
            match resolve_fenceposts(max_surge.as_ref(), max_unavailable.as_ref(), replicas) {
                Ok((s, u)) => format!(
                    "RollingUpdate maxSurge {} ({}), maxUnavailable {} ({}): at most {} pods, at least {} available",
                    show(max_surge),
                    pods(s),
                    show(max_unavailable),
                    pods(u),
                    replicas + s,
                    (replicas - u).max(0)
                ),
                Err(e) => format!("RollingUpdate ({e})"),
            }
        }
    };
    format!(
        "{replicas} replicas, {strategy}; minReadySeconds {}, progressDeadlineSeconds {}",
        d.spec.min_ready_seconds,
        d.spec
            .progress_deadline_seconds
            .map_or("none".to_string(), |s| s.to_string())
    )
}

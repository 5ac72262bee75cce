//! A lesson's text with `{placeholders}` filled from the simulation at run time, so every
//! number a lesson states is the core's.
//!
//! `{name}` or `{field:rs}`, where `rs` is `newRs`, `oldRs` or `rsN` (the N-th ReplicaSet).
//!
//! * The Deployment: `deployment`, `replicas`, `image`, `strategy`, `surgeSpec` and
//!   `unavailableSpec` (as written: `25%`), `surgeExact` and `unavailableExact` (the
//!   percentage of replicas before rounding: `0.75`), `maxSurge` and `maxUnavailable`
//!   (resolved: maxSurge rounds up, maxUnavailable down), `maxTotal` (replicas + maxSurge),
//!   `minAvailable` (replicas − maxUnavailable), `minReadySeconds`, `progressDeadline`,
//!   `revisionHistoryLimit`, `revision`, `generation`, `observedGeneration`,
//!   `updatedReplicas`, `status` (what `kubectl rollout status` prints), `progressing` (the
//!   Progressing condition as `status/reason: message`), `history` (`kubectl rollout
//!   history`), `undo` (what `kubectl rollout undo` prints), `rsCount`, `oldRsCount`.
//! * All pods: `totalPods` (with terminating ones), `readyPods`, `availablePods`.
//! * A ReplicaSet: `newRs`, `oldRs`, `rsN` (its name), `desired:RS` (spec.replicas),
//!   `pods:RS` (active pods), `ready:RS`, `available:RS`, `terminating:RS`, `revision:RS`,
//!   `image:RS`, `readyAt:RS` (when its first ready pod became ready), `hash:RS` (the pod-template-hash label),
//!   `restarts:RS` (the most restarts of one of its pods), `lastExit:RS` (when its last
//!   container exited), `backOffUntil:RS` (when the kubelet's back-off lets one start again).
//!   `terminatingStatus:RS` (what its status says of its terminating pods, by release:
//!   `status.terminatingReplicas` since 1.35).
//! * The release: `k8s` (`1.37`), `ownWrites` (the ReplicaSet controller's guards against a
//!   lagging cache, by release: its own writes awaited since 1.36).
//! * The Service and its requests: see [`super::traffic_text`] (`load`, `why`,
//!   `failedAfter:scale/readinessProbe` …).
//! * The clock: `now` (seconds).
//! * The last step: `round`, `time` (its seconds), `decision` (its first decision's sentence) or
//!   `decision:FUNCTION`, `value:NAME` (a named number of its decisions), `event` (its last
//!   event's message) or `event:REASON`, `created` (pods created), `batches` (slow-start
//!   batch sizes), `expectations`, `deletedPod`, `criterion` (why it went first), `keptPod`.

use super::moment::{self, Rs};
use crate::api::{DeploymentStrategy, IntOrString, POD_TEMPLATE_HASH_LABEL, REVISION_ANNOTATION};
use crate::deployment::util;
use crate::kubectl::rollout_status::rollout_status_of;
use crate::sim::{Simulation, StepRecord};

/// Fills every placeholder of `text`. `Err` names the first placeholder that cannot be filled
/// now (unknown, or about something that does not exist yet).
pub fn fill(text: &str, sim: &Simulation) -> Result<String, String> {
    fill_with(text, |key| value(key, sim))
}

/// Fills every placeholder of `text` with `value(key)`. `Err` names the first that fails.
pub fn fill_with(
    text: &str,
    mut value: impl FnMut(&str) -> Result<String, String>,
) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("unclosed placeholder in {text:?}"))?;
        let key = &after[..close];
        let v = value(key).map_err(|e| format!("{{{key}}}: {e}"))?;
        out.push_str(&v);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The placeholders of `text`, in order.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        out.push(&after[..close]);
        rest = &after[close + 1..];
    }
    out
}

fn rs_ref(s: &str) -> Option<Rs> {
    match s {
        "newRs" => Some(Rs::New),
        "oldRs" => Some(Rs::Old),
        _ => s.strip_prefix("rs")?.parse().ok().map(Rs::Nth),
    }
}

/// A percentage of `replicas` before rounding, as a short decimal (`25%` of 3 = `0.75`).
fn exact(v: &IntOrString, replicas: i32) -> Result<String, String> {
    match v {
        IntOrString::Int(n) => Ok(n.to_string()),
        IntOrString::String(s) => {
            let pct: i64 = s
                .strip_suffix('%')
                .and_then(|p| p.parse().ok())
                .ok_or_else(|| format!("{s:?} is not a percentage"))?;
            let hundredths = pct * i64::from(replicas);
            let (whole, frac) = (hundredths / 100, hundredths % 100);
            Ok(match frac {
                0 => whole.to_string(),
                f if f % 10 == 0 => format!("{whole}.{}", f / 10),
                f => format!("{whole}.{f:02}"),
            })
        }
    }
}

fn last_step(sim: &Simulation) -> Result<&StepRecord, String> {
    sim.last_step()
        .ok_or_else(|| "no step taken yet".to_string())
}

fn value(key: &str, sim: &Simulation) -> Result<String, String> {
    let api = sim.api();
    let (name, arg) = match key.split_once(':') {
        Some((n, a)) => (n, Some(a)),
        None => (key, None),
    };
    if let Some(v) = super::traffic_text::value(name, arg, sim) {
        return v;
    }
    if arg.is_none() {
        if let Some(rs) = rs_ref(name) {
            return moment::resolve(api, rs)
                .map(|r| r.metadata.name.clone())
                .ok_or_else(|| "no such ReplicaSet now".to_string());
        }
    }
    if let Some(rs) = arg.and_then(rs_ref) {
        let r = moment::resolve(api, rs).ok_or_else(|| "no such ReplicaSet now".to_string())?;
        let (ready, available) = moment::ready_and_available(api, &r);
        let pods = api.pods_of_iter(&r);
        return Ok(match name {
            "name" => r.metadata.name.clone(),
            "desired" => r.spec.replicas.to_string(),
            "pods" => pods.filter(|p| p.is_active()).count().to_string(),
            "terminating" => pods
                .filter(|p| p.metadata.deletion_timestamp.is_some())
                .count()
                .to_string(),
            "ready" => ready.to_string(),
            "available" => available.to_string(),
            "revision" => r
                .metadata
                .annotations
                .get(REVISION_ANNOTATION)
                .cloned()
                .unwrap_or_default(),
            "image" => r.spec.template.image.clone(),
            "readyAt" => pods
                .filter(|p| p.is_active())
                .filter_map(|p| p.ready_time())
                .min()
                .ok_or("no pod of it is ready")?
                .to_string(),
            "hash" => r
                .metadata
                .labels
                .get(POD_TEMPLATE_HASH_LABEL)
                .cloned()
                .ok_or("no pod-template-hash label")?,
            // The kubelet's restarts (issue #34): the most restarts of one of its pods, when its
            // last container exited, and when the back-off ends (the next start).
            "restarts" => pods
                .filter(|p| p.is_active())
                .map(|p| p.restart_count)
                .max()
                .unwrap_or(0)
                .to_string(),
            "lastExit" => pods
                .filter(|p| p.is_active())
                .filter_map(|p| match p.container.as_ref()?.last_state.as_ref()? {
                    crate::api::ContainerState::Terminated { finished_at, .. } => {
                        Some(*finished_at)
                    }
                    _ => None,
                })
                .max()
                .ok_or("no pod of it has exited")?
                .to_string(),
            // What the ReplicaSet's status says of its terminating pods, by release: since
            // 1.35 `status.terminatingReplicas` (KEP-3973), before that nothing.
            "terminatingStatus" => {
                let k8s = sim.scenario().kubernetes_version;
                if k8s.reports_terminating_replicas() {
                    match r.status.terminating_replicas {
                        Some(n) => format!("Since Kubernetes 1.35 its status counts them too: status.terminatingReplicas is {n}."),
                        None => "Since Kubernetes 1.35 its status counts them too, once the ReplicaSet controller has synced it (status.terminatingReplicas).".to_string(),
                    }
                } else {
                    format!("Kubernetes {k8s} does not count them in the ReplicaSet's status (status.terminatingReplicas came in 1.35): only the pods say so.")
                }
            }
            "unhealthy" => {
                let prefix = format!("{}-", r.metadata.name);
                sim.events()
                    .filter(|e| e.event.reason.as_ref() as &str == "Unhealthy")
                    .filter(|e| e.event.name.starts_with(&prefix))
                    .count()
                    .to_string()
            }
            "backOffUntil" => pods
                .filter(|p| p.is_active())
                .filter_map(|p| p.container.as_ref()?.back_off_until)
                .min()
                .ok_or("no pod of it backs off")?
                .to_string(),
            _ => return Err(format!("unknown ReplicaSet field {name:?}")),
        });
    }
    let k8s = sim.scenario().kubernetes_version;
    match (name, arg) {
        ("k8s", None) => return Ok(k8s.to_string()),
        // The ReplicaSet controller's guards against a cache that lags, by release.
        ("ownWrites", None) if k8s.rs_waits_for_own_writes() => {
            return Ok("Since Kubernetes 1.36 it also waits until its cache holds its own last writes (KEP-5647), so a cache that lags cannot make it act twice.".to_string())
        }
        ("ownWrites", None) => {
            return Ok("Before Kubernetes 1.36 these expectations are its only guard against a cache that has not caught up with its own writes.".to_string())
        }
        _ => {}
    }
    let step_value = |sim: &Simulation| -> Result<String, String> {
        let step = last_step(sim)?;
        let manage = || {
            step.manage
                .as_ref()
                .ok_or("the last step did not manage pods")
        };
        let first_deletion = || {
            manage()?
                .deletions
                .first()
                .ok_or("the last step deleted no pod")
        };
        Ok(match (name, arg) {
            ("round", None) => step.round.to_string(),
            ("now", None) => sim.now().to_string(),
            ("time", None) => step.time.to_string(),
            ("decision", None) => step
                .decisions
                .first()
                .map(|d| d.text.clone())
                .ok_or("the last step took no decision")?,
            ("decision", Some(f)) => step
                .decisions
                .iter()
                .find(|d| d.function == f)
                .map(|d| d.text.clone())
                .ok_or("the last step took no decision there")?,
            ("value", Some(v)) => step
                .decisions
                .iter()
                .flat_map(|d| d.values.iter())
                .find(|(k, _)| k == v)
                .map(|(_, n)| n.to_string())
                .ok_or("the last step's decisions have no such value")?,
            ("event", None) => step
                .events
                .last()
                .map(|e| e.message.clone())
                .ok_or("the last step recorded no event")?,
            ("event", Some(reason)) => step
                .events
                .iter()
                .find(|e| e.reason.as_ref() as &str == reason)
                .map(|e| e.message.clone())
                .ok_or("the last step recorded no such event")?,
            ("created", None) => manage()?
                .slow_start
                .as_ref()
                .map(|s| s.successes.to_string())
                .ok_or("the last step created no pod")?,
            ("batches", None) => manage()?
                .slow_start
                .as_ref()
                .map(|s| {
                    s.batch_sizes
                        .iter()
                        .map(|b| b.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .ok_or("the last step created no pod")?,
            ("expectations", None) => manage()?
                .expectations
                .as_ref()
                .map(|e| format!("{} creations and {} deletions", e.add, e.del))
                .ok_or("the last step set no expectations")?,
            ("deletedPod", None) => first_deletion()?.pod.name.clone(),
            ("criterion", None) => first_deletion()?.criterion.describe().to_string(),
            ("keptPod", None) => first_deletion()?
                .kept
                .as_ref()
                .map(|k| k.name.clone())
                .ok_or("every pod went")?,
            _ => return Err(format!("unknown placeholder {key:?}")),
        })
    };
    let Some(d) = moment::deployment(api) else {
        return step_value(sim).map_err(|e| format!("{e} (and no Deployment exists)"));
    };
    let rolling = match &d.spec.strategy {
        DeploymentStrategy::RollingUpdate {
            max_surge,
            max_unavailable,
        } => Some((max_surge.clone(), max_unavailable.clone())),
        DeploymentStrategy::Recreate => None,
    };
    let need_rolling = || rolling.clone().ok_or("the strategy is Recreate");
    let pods: Vec<_> = moment::replica_sets(api)
        .iter()
        .flat_map(|r| api.pods_of(r))
        .collect();
    Ok(match (name, arg) {
        ("deployment", None) => d.metadata.name.clone(),
        ("replicas", None) => d.spec.replicas.to_string(),
        ("image", None) => d.spec.template.image.clone(),
        ("strategy", None) => d.spec.strategy.type_name().to_string(),
        ("surgeSpec", None) => need_rolling()?.0.ok_or("maxSurge is not set")?.to_string(),
        ("unavailableSpec", None) => need_rolling()?
            .1
            .ok_or("maxUnavailable is not set")?
            .to_string(),
        ("surgeExact", None) => exact(
            &need_rolling()?.0.ok_or("maxSurge is not set")?,
            d.spec.replicas,
        )?,
        ("unavailableExact", None) => exact(
            &need_rolling()?.1.ok_or("maxUnavailable is not set")?,
            d.spec.replicas,
        )?,
        ("maxSurge", None) => util::max_surge(d).to_string(),
        ("maxUnavailable", None) => util::max_unavailable(d).to_string(),
        ("maxTotal", None) => (d.spec.replicas + util::max_surge(d)).to_string(),
        ("minAvailable", None) => util::min_available(d).to_string(),
        ("minReadySeconds", None) => d.spec.min_ready_seconds.to_string(),
        ("progressDeadline", None) => d
            .spec
            .progress_deadline_seconds
            .ok_or("no progress deadline")?
            .to_string(),
        ("revisionHistoryLimit", None) => d
            .spec
            .revision_history_limit
            .ok_or("no revisionHistoryLimit")?
            .to_string(),
        ("revision", None) => d
            .metadata
            .annotations
            .get(REVISION_ANNOTATION)
            .cloned()
            .ok_or("no revision yet")?,
        ("generation", None) => d.metadata.generation.to_string(),
        ("observedGeneration", None) => d.status.observed_generation.to_string(),
        ("updatedReplicas", None) => d.status.updated_replicas.to_string(),
        ("status", None) => {
            let s = rollout_status_of(d, 0);
            match s.error {
                Some(e) => crate::kubectl::check_err::client_error(&e),
                None => s.message.trim_end().to_string(),
            }
        }
        ("progressing", None) => util::get_deployment_condition(&d.status, "Progressing")
            .map(|c| {
                format!(
                    "{}, reason {}: {}",
                    c.status.as_str(),
                    c.reason,
                    c.message.trim_end_matches('.')
                )
            })
            .ok_or("no Progressing condition yet")?,
        ("history", None) => crate::ui_support::rollout_history(api, &d.metadata.name)
            .iter()
            .map(|h| format!("{} ({}, {})", h.revision, h.replica_set, h.image))
            .collect::<Vec<_>>()
            .join("; "),
        ("undo", None) => crate::kubectl::undo::rollout_undo(api, &d.metadata.name, 0)?.message,
        ("rsCount", None) => moment::replica_sets(api).len().to_string(),
        ("oldRsCount", None) => {
            let all = moment::replica_sets(api).len();
            let new = usize::from(moment::resolve(api, Rs::New).is_some());
            (all - new).to_string()
        }
        // The kubelet's view of the template's app and probes (issue #34): when a slow app
        // answers, and the probes that judge it.
        ("answersAfter", None) => {
            let failures = sim.kubelet_model().failures.as_ref();
            match failures.and_then(|f| f.of(&d.spec.template.image)) {
                Some(crate::kubelet::failures::AppFailure::Slow { ready }) => ready.to_string(),
                _ => return Err("the template's app is not slow (slow:ready=N)".into()),
            }
        }
        ("livenessPeriod" | "livenessThreshold" | "livenessPatience" | "readinessPeriod", None) => {
            let model = sim.kubelet_model().probes_of(&d.spec.template.image);
            let probe = |f: fn(
                &crate::kubelet::probes::ContainerProbes,
            ) -> Option<&crate::kubelet::probes::Probe>| {
                model
                    .and_then(|m| m.containers.iter().find_map(f))
                    .ok_or("the template has no such probe")
            };
            let liveness = || probe(|c| c.liveness_probe.as_ref());
            match name {
                "livenessPeriod" => liveness()?.period_seconds.to_string(),
                "livenessThreshold" => liveness()?.failure_threshold.to_string(),
                "livenessPatience" => {
                    let p = liveness()?;
                    (p.period_seconds * p.failure_threshold).to_string()
                }
                _ => probe(|c| c.readiness_probe.as_ref())?
                    .period_seconds
                    .to_string(),
            }
        }
        ("totalPods", None) => pods.len().to_string(),
        ("readyPods", None) => pods
            .iter()
            .filter(|p| p.is_active() && p.is_ready())
            .count()
            .to_string(),
        ("availablePods", None) => moment::replica_sets(api)
            .iter()
            .map(|r| moment::ready_and_available(api, r).1)
            .sum::<i32>()
            .to_string(),
        _ => step_value(sim)?,
    })
}

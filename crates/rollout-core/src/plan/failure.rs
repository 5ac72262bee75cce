//! The failure question: what the rollout does if the new version's app fails in a given way
//! ([`AppFailure`]: `crash:after=5s`, `probe:after=5s`, `readiness:from=30s,to=90s`,
//! `slow:ready=45s`, `pull`),
//! beside the forecast of the one that succeeds. The same scenario is run with the new image
//! failing (`model.failures`), under the kubelet's restart rules (`kubelet::container_life`):
//!
//! * `minAvailable`, `capacityLost` (replicas − minAvailable) and `lowestSeconds` (how long
//!   availability stayed at its lowest) from the image being set until the progress deadline
//!   is reported (or, if it never is, for the Deployment's `progressDeadlineSeconds` after
//!   completion or after the start);
//! * `podsStuck`: the new ReplicaSet's pods not available when the deadline is reported, and
//!   `restarts`, their containers' restarts by then;
//! * `deadlineExceededSeconds`: seconds from the image being set to the round whose snapshot
//!   first has Progressing=False, `ProgressDeadlineExceeded`;
//! * `undoSeconds`: `kubectl rollout undo` run in the round after that one, the seconds from
//!   the undo until `kubectl rollout status` succeeds again (every replica available).
//!
//! Worked example (3 replicas, maxSurge 1, maxUnavailable 0, progressDeadlineSeconds 600, the
//! new version crashing 5 s after each start, never ready): the surge pod crash-loops; no old
//! pod may go, so nothing is lost (capacityLost 0); the deadline is reported 601 s after the
//! last progress (strictly more than 600 s); after the undo the surge pod is deleted and the
//! 3 old pods were available all along: full availability at once. With maxUnavailable 25 %
//! (0 of 3 rounds down … 25 % of 4 replicas is 1) one old pod goes at once: capacity lost 1.

use super::{rollout_complete, rollout_target, RolloutTarget};
use crate::kubelet::failures::AppFailure;
use crate::scenario::{Action, ActionKind, Scenario};
use crate::sim::Simulation;
use crate::trace::TraceRound;
use serde::{Deserialize, Serialize};

/// The rollout where the new version fails (`rollout plan --fail`'s `ifItFails`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FailureForecast {
    /// The failure, as `--fail` names it.
    pub failure: String,
    /// `spec.replicas`.
    pub replicas: i32,
    /// The fewest available pods from the start to the deadline.
    pub min_available: i32,
    /// replicas − minAvailable (0 when none was lost).
    pub capacity_lost: i32,
    /// Seconds spent at `minAvailable` over that time.
    pub lowest_seconds: i64,
    /// The new ReplicaSet's pods not available when the deadline is reported (or at the end).
    pub pods_stuck: i32,
    /// Their containers' restarts by then.
    pub restarts: i32,
    /// Seconds from the image being set to ProgressDeadlineExceeded (`None`: never reported).
    pub deadline_exceeded_seconds: Option<i64>,
    /// Seconds from `kubectl rollout undo` (the round after the deadline is reported) until
    /// every replica is available again (`None`: no deadline, or never).
    pub undo_seconds: Option<i64>,
    /// Seconds from the image being set to the rollout's completion, if it completes anyway
    /// (an app that is Ready before it fails counts as available).
    pub completes_after_seconds: Option<i64>,
    /// What the model assumed, or why nothing noticed the failure.
    pub notes: Vec<String>,
    /// The requests a Service in front of it fails from the image being set to the deadline
    /// (or the end of the watch), under the scenario's traffic model (`model.traffic`, a
    /// manifest's flags; absent: the defaults): `crate::traffic`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_requests: Option<u64>,
    /// The requests sent over that time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent_requests: Option<u64>,
}

/// The assumptions behind a failure forecast: the probes that judge the app.
fn notes(scenario: &Scenario, failure: &AppFailure) -> Vec<String> {
    let probes = scenario.model.as_ref().and_then(|m| m.probes.as_ref());
    let has = |f: fn(&crate::kubelet::probes::ContainerProbes) -> bool| {
        probes.is_some_and(|p| p.containers.iter().any(f))
    };
    let mut out = Vec::new();
    match (failure, probes) {
        (
            AppFailure::Probe { .. } | AppFailure::Readiness { .. } | AppFailure::Slow { .. },
            None,
        ) => out.push(
            "the pods' start-up is not timed by probes: the model assumes Kubernetes' default readinessProbe and livenessProbe (every 10 s from admission, failureThreshold 3, successThreshold 1)".to_string(),
        ),
        (AppFailure::Probe { .. }, Some(_))
            if !has(|c| c.liveness_probe.is_some() || c.startup_probe.is_some()) =>
        {
            out.push(if has(|c| c.readiness_probe.is_some()) {
                "no livenessProbe or startupProbe: the kubelet never restarts an app that stops answering; its readinessProbe only takes it out of Ready".to_string()
            } else {
                "no probe at all: Kubernetes does not notice an app that stops answering".to_string()
            })
        }
        (AppFailure::Slow { .. }, Some(_))
            if !has(|c| c.liveness_probe.is_some() || c.startup_probe.is_some()) =>
        {
            out.push(if has(|c| c.readiness_probe.is_some()) {
                "no livenessProbe or startupProbe: nothing kills the slow app; its readinessProbe holds each pod out of Ready until it answers".to_string()
            } else {
                "no probe at all: Kubernetes counts the slow app Ready as soon as its container runs, before it answers".to_string()
            })
        }
        (AppFailure::Readiness { .. }, Some(_)) if !has(|c| c.readiness_probe.is_some()) => out
            .push("no readinessProbe: Kubernetes does not notice an app that fails readiness".to_string()),
        _ => {}
    }
    out
}

/// The new image: the last `setImage`'s.
fn new_image(scenario: &Scenario, target: &RolloutTarget) -> Option<String> {
    scenario.actions.iter().rev().find_map(|a| match &a.kind {
        ActionKind::SetImage { image, .. } if a.round == target.start_round => Some(image.clone()),
        _ => None,
    })
}

/// `scenario` with `image`'s app failing as `failure` (the model's restart back-off kept).
pub fn with_failure(scenario: &Scenario, image: &str, failure: &AppFailure) -> Scenario {
    let mut s = scenario.clone();
    let mut extras = s.model.take().unwrap_or_default();
    let mut f = extras.failures.take().unwrap_or_default();
    f.images.retain(|(i, _)| i != image);
    f.images.push((image.to_string(), failure.clone()));
    extras.failures = Some(f);
    s.model = Some(extras);
    s
}

/// Runs `scenario` round by round, skipping idle rounds as the forecast does, handing each
/// round's snapshot to `observe` until it says stop; `Err` past the limits' work.
fn run(
    scenario: &Scenario,
    limits: &crate::limits::Limits,
    mut observe: impl FnMut(&TraceRound, &Simulation) -> bool,
) -> Result<Simulation, String> {
    crate::limits::check_scenario_with(scenario, &limits.without_work())?;
    let mut pod_rounds: i64 = 0;
    let mut sim = Simulation::new(scenario.clone())
        .without_history()
        .without_trace_events()
        .without_explanations();
    while !sim.finished() {
        sim.run_round();
        pod_rounds = pod_rounds.saturating_add(sim.api().pod_count() as i64);
        if pod_rounds > limits.pod_rounds {
            return Err(format!(
                "the failing rollout has run {} pod-rounds and has not finished; Rollout Lab simulates at most {} pod-rounds in one run (the CLI's --large lifts it)",
                crate::limits::group(pod_rounds),
                crate::limits::group(limits.pod_rounds)
            ));
        }
        let Some(round) = sim.trace_rounds().last().cloned() else {
            continue;
        };
        if observe(&round, &sim) {
            break;
        }
        let at_rest = if sim.settled() {
            round.errors.is_empty()
        } else {
            sim.last_round_idle()
        };
        if at_rest {
            match sim.next_due_round() {
                Some(due) => sim.skip_to_round(due),
                None => break,
            }
        }
    }
    Ok(sim)
}

/// What one round's snapshot says of the Deployment: available pods (all its ReplicaSets),
/// spec.replicas, whether the deadline is reported, whether complete, and the new
/// ReplicaSet's pods not available.
fn read(round: &TraceRound, deployment: &str, image: &str) -> Option<(i32, i32, bool, bool, i32)> {
    let d = round.deployments.iter().find(|d| d.name == deployment)?;
    let mine = || {
        round
            .replica_sets
            .iter()
            .filter(|rs| rs.deployment == deployment)
    };
    let available = mine().map(|rs| rs.available_replicas).sum();
    let stuck = mine()
        .filter(|rs| rs.image == image)
        .map(|rs| (rs.pods.active - rs.available_replicas).max(0))
        .sum();
    let deadline = d
        .conditions
        .iter()
        .any(|c| c.type_ == "Progressing" && c.reason == super::TIMED_OUT_REASON);
    Some((
        available,
        d.spec_replicas,
        deadline,
        rollout_complete(d),
        stuck,
    ))
}

/// The rollout of `scenario`'s last `setImage` with the new image failing as `failure`.
pub fn failure_forecast(
    scenario: &Scenario,
    failure: &AppFailure,
    limits: &crate::limits::Limits,
) -> Result<FailureForecast, String> {
    let target = rollout_target(scenario)?;
    let image = new_image(scenario, &target).unwrap_or_default();
    let failing = with_failure(scenario, &image, failure);
    let spr = scenario.seconds_per_round.max(1);
    let start = target.start_round;
    let deadline_seconds = scenario
        .actions
        .iter()
        .find_map(|a| match &a.kind {
            ActionKind::Create { deployment } if deployment.name == target.deployment => {
                deployment.progress_deadline_seconds
            }
            _ => None,
        })
        .unwrap_or(600);
    // A rollout that never reports its deadline is watched this long after the start or its
    // completion (an app that fails after it was Ready shows it then).
    let watch_rounds = u32::try_from((i64::from(deadline_seconds) + spr) / spr).unwrap_or(u32::MAX);
    let mut samples: Vec<(u32, i32)> = Vec::new();
    let (mut replicas, mut stuck) = (0, 0);
    let mut deadline_round: Option<u32> = None;
    let mut complete_round: Option<u32> = None;
    let traffic = scenario
        .model
        .as_ref()
        .and_then(|m| m.traffic.clone())
        .unwrap_or_default();
    let mut requests: Option<crate::traffic::TrafficTracker> = None;
    let sim = run(&failing, limits, |round, sim| {
        requests
            .get_or_insert_with(|| {
                crate::traffic::TrafficTracker::new(
                    sim.kubelet_model().clone(),
                    traffic.clone(),
                    &target.deployment,
                )
                .warm_from(i64::from(start) * spr)
            })
            .observe_at(sim.api(), round.time);
        if round.round < start {
            return false;
        }
        let Some((available, spec, deadline, complete, s)) =
            read(round, &target.deployment, &image)
        else {
            return false;
        };
        replicas = spec;
        stuck = s;
        samples.push((round.round, available));
        if complete && round.round > start && complete_round.is_none() {
            complete_round = Some(round.round);
        }
        if deadline {
            deadline_round = Some(round.round);
            return true;
        }
        let from = complete_round.unwrap_or(start);
        round.round >= from.saturating_add(watch_rounds)
    })?;
    let end = samples.last().map_or(start, |(r, _)| *r);
    let requests = requests.map(|mut r| {
        let to = super::traffic::window_end(&r, i64::from(end) * spr);
        r.finish(to);
        r.totals(i64::from(start) * spr, to)
    });
    let min_available = samples.iter().map(|(_, a)| *a).min().unwrap_or(replicas);
    // Each sample holds until the next (skipped rounds repeat it); the last one ends the
    // watch (the deadline's round).
    let lowest_rounds: u32 = samples
        .iter()
        .enumerate()
        .filter(|(_, (_, a))| *a == min_available)
        .map(|(i, (r, _))| samples.get(i + 1).map_or(end, |(n, _)| *n) - r)
        .sum();
    let restarts = sim
        .api()
        .pods()
        .filter(|p| p.image == image)
        .map(|p| p.restart_count)
        .sum();
    let undo_seconds = match deadline_round {
        Some(d) => {
            undo_after(&failing, &target, d + 1, limits)?.map(|c| i64::from(c - (d + 1)) * spr)
        }
        None => None,
    };
    Ok(FailureForecast {
        failure: failure.text(),
        replicas,
        min_available,
        capacity_lost: (replicas - min_available).max(0),
        lowest_seconds: i64::from(lowest_rounds) * spr,
        pods_stuck: stuck,
        restarts,
        deadline_exceeded_seconds: deadline_round.map(|d| i64::from(d - start) * spr),
        undo_seconds,
        completes_after_seconds: complete_round.map(|c| i64::from(c - start) * spr),
        notes: notes(scenario, failure),
        failed_requests: requests.as_ref().map(|t| t.failed),
        sent_requests: requests.as_ref().map(|t| t.sent),
    })
}

/// The round in which `kubectl rollout status` succeeds again after `kubectl rollout undo` at
/// the start of `undo_round` (`None`: not within the scenario's rounds).
fn undo_after(
    failing: &Scenario,
    target: &RolloutTarget,
    undo_round: u32,
    limits: &crate::limits::Limits,
) -> Result<Option<u32>, String> {
    let mut s = failing.clone();
    s.actions.push(Action {
        round: undo_round,
        kind: ActionKind::Undo {
            name: Some(target.deployment.clone()),
            to_revision: 0,
        },
    });
    s.rounds = s.rounds.max(undo_round.saturating_add(1));
    let mut done = None;
    run(&s, limits, |round, _| {
        if round.round < undo_round {
            return false;
        }
        let complete = round
            .deployments
            .iter()
            .find(|d| d.name == target.deployment)
            .is_some_and(rollout_complete);
        if complete {
            done = Some(round.round);
        }
        complete
    })?;
    Ok(done)
}

#[cfg(test)]
mod tests;

//! The rolling-update budget as two gauges: pods in total against replicas + maxSurge, and
//! available pods against replicas − maxUnavailable.
//!
//! The figures are the Deployment's status (`status.replicas`, `status.availableReplicas`):
//! what the Deployment controller last wrote, and what `kubectl get deployment` prints. A
//! status is written at a sync, so it lags the pods: the ReplicaSet controller counts its
//! pods into the ReplicaSet's status at its next sync, and the Deployment controller sums the
//! ReplicaSets' status into the Deployment's at its own. Between the two a learner sees, say,
//! 3 pending pods on the stage while the status still counts 0; each gauge says so, with the
//! controller that has not caught up, instead of a verdict on a stale figure.

use super::{DeploymentView, PodState, ReplicaSetView};
use serde::{Deserialize, Serialize};

/// One gauge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GaugeView {
    /// What the Deployment's status counts.
    pub status: i32,
    /// What the pods count now (the stage): active pods, or available ones.
    pub live: i32,
    /// The limit: replicas + maxSurge (at most) or replicas − maxUnavailable (at least).
    pub limit: i32,
    /// The arithmetic, e.g. `at most 3 + maxSurge 1 = 4`.
    pub rule: String,
    /// The status against the limit, e.g. `room for 1`, `none spare`, `3 short`; when the
    /// status lags the pods, `status not synced yet`.
    pub verdict: String,
    /// The status is past the limit and the pods agree (a warning colour).
    pub over: bool,
    /// Why the status differs from the pods, when it does, e.g. `The Deployment's status
    /// counts 0 yet, the stage shows 3: the ReplicaSet controller has not synced since these
    /// pods were created (the Deployment's status is summed from the ReplicaSets').`
    pub behind: Option<String>,
}

/// Both gauges of a Deployment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BudgetView {
    /// RollingUpdate (gauges with limits) or not (Recreate: [`BudgetView::note`]).
    pub rolling: bool,
    /// spec.replicas.
    pub replicas: i32,
    /// Pods in total (terminating pods not counted, as status.replicas does not).
    pub total: GaugeView,
    /// Available pods.
    pub available: GaugeView,
    /// Terminating pods on the stage (they still run, and are not counted).
    pub terminating: i32,
    /// Why the rollout waits on a new pod whose app fails (`kubelet::failures`), e.g. `The new
    /// pod web-rev2-00001 restarted 3 times and is waiting 20 s (CrashLoopBackOff): it is not
    /// available, so maxUnavailable 0 holds the old pods.`; `None` when no new pod fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<String>,
}

/// What a failing pod is doing, in words: `restarted 3 times and is waiting 20 s
/// (CrashLoopBackOff)`, `was killed by its liveness probe, restarted once and is not ready`, `cannot pull its image (ImagePullBackOff, next attempt in 40 s)`,
/// `is out of Ready`; `None` for a pod that does not fail.
fn failing(p: &super::PodView) -> Option<String> {
    let reason = p.reason.as_deref();
    let times = |n: i32| {
        if n == 1 {
            "once".to_string()
        } else {
            format!("{n} times")
        }
    };
    // A container its liveness probe killed: the kill is the news, not a crash.
    let killed = if p.killed {
        "was killed by its liveness probe, "
    } else {
        ""
    };
    Some(match (reason, p.restarts, p.back_off_left) {
        (Some(r @ ("ErrImagePull" | "ImagePullBackOff")), _, Some(left)) if left > 0 => {
            format!("cannot pull its image ({r}, next attempt in {left} s)")
        }
        (Some(r @ ("ErrImagePull" | "ImagePullBackOff")), _, _) => {
            format!("cannot pull its image ({r})")
        }
        (Some(r), n, Some(left)) if n > 0 && left > 0 => {
            format!(
                "{killed}restarted {} and is waiting {left} s ({r})",
                times(n)
            )
        }
        (Some(r), n, _) if n > 0 => format!("{killed}restarted {} ({r})", times(n)),
        (None, n, _) if n > 0 && p.state == PodState::Running => {
            format!("{killed}restarted {} and is not ready", times(n))
        }
        (Some(r), _, _) => format!("is waiting ({r})"),
        _ => return None,
    })
}

/// [`BudgetView::waiting`]: the new ReplicaSet's first pod that fails and is not available,
/// and what the available gauge makes of it. With 3 replicas and maxUnavailable 0 (at least
/// 3 available) and the 3 old pods available, the gauge has 0 spare: no old pod may go until
/// a new one is available, so the old pods are held.
fn waiting<'a>(
    d: &DeploymentView,
    mut ours: impl Iterator<Item = &'a ReplicaSetView>,
    available: &GaugeView,
) -> Option<String> {
    let new = ours.find(|rs| rs.is_new)?;
    let stuck: Vec<(&super::PodView, String)> = new
        .pods
        .iter()
        .filter(|p| !matches!(p.state, PodState::Available | PodState::Terminating))
        .filter_map(|p| failing(p).map(|w| (p, w)))
        .collect();
    let (first, words) = stuck.first()?;
    let who = if stuck.len() == 1 {
        format!("The new pod {} {words}", first.name)
    } else {
        format!(
            "{} new pods fail; the first, {}, {words}",
            stuck.len(),
            first.name
        )
    };
    let not = if stuck.len() == 1 {
        "it is"
    } else {
        "they are"
    };
    let max_unavailable = d.object.spec.replicas - d.lower_bound;
    let consequence = if available.status <= available.limit {
        format!("{not} not available, so maxUnavailable {max_unavailable} holds the old pods")
    } else {
        format!("{not} not available")
    };
    Some(format!("{who}: {consequence}."))
}

/// `4 pods` / `1 pod`.
fn pods(n: i32) -> String {
    if n == 1 {
        "1 pod".to_string()
    } else {
        format!("{n} pods")
    }
}

/// Why a status figure differs from the pods: which controller has not synced since what.
/// `rs_status` is the ReplicaSets' status summed, `live` what the pods count.
fn behind(status: i32, rs_status: i32, live: i32, available: bool) -> Option<String> {
    if status == live {
        return None;
    }
    let since = match (available, live > status) {
        (false, true) => "these pods were created",
        (false, false) => "pods were deleted",
        (true, true) => "these pods became available",
        (true, false) => "pods stopped being available",
    };
    let who = if rs_status == live {
        format!("the Deployment controller has not synced since {since}")
    } else {
        format!(
            "the ReplicaSet controller has not synced since {since} (the Deployment's status is summed from the ReplicaSets')"
        )
    };
    Some(format!(
        "The Deployment's status counts {status} yet, the stage shows {live}: {who}."
    ))
}

fn gauge(
    status: i32,
    rs_status: i32,
    live: i32,
    limit: i32,
    ceiling: bool,
    rule: String,
) -> GaugeView {
    let behind = behind(status, rs_status, live, !ceiling);
    // e.g. 4 pods of at most 4: "full: no room to surge"; 3 available of at least 3: "none spare".
    let margin = if ceiling {
        limit - status
    } else {
        status - limit
    };
    let verdict = match (behind.is_some(), ceiling, margin) {
        (true, _, _) => "status not synced yet".to_string(),
        (_, true, 0) => "full: no room to surge".to_string(),
        (_, true, m) if m > 0 => format!("room for {m}"),
        (_, true, m) => format!("{} over", -m),
        (_, false, 0) => "none spare".to_string(),
        (_, false, m) if m > 0 => format!("{m} spare"),
        (_, false, m) => format!("{} short", -m),
    };
    GaugeView {
        status,
        live,
        limit,
        rule,
        verdict,
        over: margin < 0 && behind.is_none(),
        behind,
    }
}

/// The budget of `d`, its ReplicaSets among `replica_sets` (a cluster's, as
/// [`super::cluster_view`] lists them). For example 3 replicas at 25% / 25% right after the
/// new ReplicaSet created its surge pod: total `3 / 4` from the status, the stage shows 4
/// ("the ReplicaSet controller has not synced since these pods were created").
pub fn budget_view<'a>(
    d: &DeploymentView,
    replica_sets: impl Iterator<Item = &'a ReplicaSetView> + Clone,
) -> BudgetView {
    let ours = || replica_sets.clone().filter(|rs| rs.deployment == d.name);
    let count = |f: &dyn Fn(PodState) -> bool| -> i32 {
        ours()
            .flat_map(|rs| rs.pods.iter())
            .filter(|p| f(p.state))
            .count() as i32
    };
    let live_total = count(&|s| s != PodState::Terminating);
    let live_available = count(&|s| s == PodState::Available);
    let terminating = count(&|s| s == PodState::Terminating);
    let rs_total: i32 = ours().map(|rs| rs.current).sum();
    let rs_available: i32 = ours().map(|rs| rs.available).sum();
    let replicas = d.object.spec.replicas;
    let status = &d.object.status;
    let (max, min) = (d.upper_bound, d.lower_bound);
    let not_counted = if terminating > 0 {
        format!(" (terminating pods not counted: {terminating})")
    } else {
        String::new()
    };
    let available = gauge(
        status.available_replicas,
        rs_available,
        live_available,
        min,
        false,
        format!(
            "at least {replicas} − maxUnavailable {} = {min}",
            replicas - min
        ),
    );
    BudgetView {
        rolling: d.strategy == "RollingUpdate",
        replicas,
        waiting: waiting(d, ours(), &available),
        total: gauge(
            status.replicas,
            rs_total,
            live_total,
            max,
            true,
            format!(
                "at most {replicas} + maxSurge {} = {max}{not_counted}",
                max - replicas
            ),
        ),
        available,
        terminating,
    }
}

impl BudgetView {
    /// What a Recreate Deployment shows instead of gauges, e.g. `Recreate: all old pods go
    /// before any new one is created. 3 of 3 pods available now.`
    pub fn recreate_note(&self) -> String {
        format!(
            "Recreate: all old pods go before any new one is created. {} of {} available now.",
            self.available.status,
            pods(self.replicas)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Simulation;
    use crate::view::cluster_view;

    /// 1 replica of web:1, then web:2 crashing 5 s after each start, maxUnavailable 0
    /// (at least 1 − 0 = 1 available). The new pod starts at 10 s and exits at 15 (restarted
    /// at once), 20 (back-off 10 s → 30), 35 (20 s → 55), 60 (40 s → 100): at 80 s, 3
    /// restarts, 100 − 80 = 20 s to wait, and the old pod, the 1 available, cannot go.
    #[test]
    fn a_crash_loop_says_why_the_rollout_waits() {
        let s = crate::kubelet::failures::fixtures::rollout_to_a_crashing_version();
        let mut sim = Simulation::new(s).without_history();
        let waiting_at = |sim: &mut Simulation, round: u32| {
            while sim.round() < round {
                sim.run_round();
                sim.skip_idle_rounds_until(round);
            }
            let view = cluster_view(sim);
            budget_view(&view.deployments[0], view.replica_sets.iter()).waiting
        };
        assert_eq!(waiting_at(&mut sim, 5), None, "before the rollout");
        assert_eq!(
            waiting_at(&mut sim, 80).as_deref(),
            Some("The new pod web-rev2-00001 restarted 3 times and is waiting 20 s (CrashLoopBackOff): it is not available, so maxUnavailable 0 holds the old pods.")
        );
    }

    /// 3 replicas of web:1, then web:2 at 10 s, whose app answers only 45 s after each start,
    /// under a livenessProbe (every 10 s, failureThreshold 3) and a readinessProbe: failures
    /// at 20, 30, 40 s, killed and restarted at 40 s; at 45 s it runs, not ready, and the 3 old
    /// pods, the 3 maxUnavailable 0 requires, cannot go.
    #[test]
    fn a_liveness_kill_says_why_the_rollout_waits() {
        let s = crate::scenario::Scenario::from_json(
            r#"{"name":"k","rounds":100,"secondsPerRound":1,"readyAfterRounds":5,
                "terminationRounds":0,"nodes":1,"settle":true,
                "model":{"failures":{"web:2":"slow:ready=45s"},
                  "templateProbes":{"web:2":{"containers":[{"name":"web",
                    "readinessProbe":{},"livenessProbe":{}}]}}},
                "actions":[
                  {"round":0,"type":"create","deployment":{"name":"web","replicas":3,
                    "image":"web:1","strategy":{"type":"RollingUpdate","maxSurge":1,
                    "maxUnavailable":0}}},
                  {"round":10,"type":"setImage","image":"web:2"}]}"#,
        )
        .unwrap();
        let mut sim = Simulation::new(s).without_history();
        while sim.round() <= 45 {
            sim.run_round();
        }
        let view = cluster_view(&sim);
        let b = budget_view(&view.deployments[0], view.replica_sets.iter());
        assert_eq!(
            b.waiting.as_deref(),
            Some("The new pod web-rev2-00001 was killed by its liveness probe, restarted once and is not ready: it is not available, so maxUnavailable 0 holds the old pods.")
        );
    }

    /// rolling-basic, step by step through its rollout: wherever the status and the pods
    /// disagree, the gauge says so and gives no verdict on the stale figure; where they agree
    /// the verdict is the status's against the limit.
    #[test]
    fn a_lagging_status_is_said_never_judged() {
        let mut sim = Simulation::new(crate::presets::preset("rolling-basic").unwrap().scenario);
        let (mut lagged_total, mut lagged_available) = (false, false);
        while sim.step().is_some() {
            let view = cluster_view(&sim);
            let Some(d) = view.deployments.first() else {
                continue;
            };
            let b = budget_view(d, view.replica_sets.iter());
            assert!(b.rolling);
            assert_eq!(b.waiting, None, "no app fails here");
            assert_eq!((b.total.limit, b.available.limit), (4, 3));
            for g in [&b.total, &b.available] {
                match &g.behind {
                    Some(why) => {
                        assert_ne!(g.status, g.live);
                        assert!(!g.over && !g.verdict.contains("short"), "{g:?}");
                        assert!(why.contains(&format!("counts {} yet", g.status)), "{why}");
                        assert!(why.contains(&format!("shows {}", g.live)), "{why}");
                    }
                    None => assert_eq!(g.status, g.live),
                }
            }
            // Never "short" while the stage shows as many available pods as required.
            if b.available.live >= b.available.limit {
                assert!(!b.available.verdict.contains("short"), "{:?}", b.available);
            }
            lagged_total |= b.total.behind.is_some();
            lagged_available |= b.available.behind.is_some();
        }
        assert!(
            lagged_total && lagged_available,
            "the status lags somewhere"
        );
    }

    #[test]
    fn the_arithmetic_is_spelled_out() {
        let mut sim = Simulation::new(crate::presets::preset("rolling-basic").unwrap().scenario);
        sim.run();
        let view = cluster_view(&sim);
        let b = budget_view(&view.deployments[0], view.replica_sets.iter());
        assert_eq!(b.total.rule, "at most 3 + maxSurge 1 = 4");
        assert_eq!(b.available.rule, "at least 3 − maxUnavailable 0 = 3");
        assert_eq!(
            (b.total.verdict.as_str(), b.available.verdict.as_str()),
            ("room for 1", "none spare")
        );
        assert_eq!(
            behind(0, 3, 3, false).unwrap(),
            "The Deployment's status counts 0 yet, the stage shows 3: the Deployment controller has not synced since these pods were created."
        );
    }
}

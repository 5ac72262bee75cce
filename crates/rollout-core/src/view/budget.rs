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
    BudgetView {
        rolling: d.strategy == "RollingUpdate",
        replicas,
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
        available: gauge(
            status.available_replicas,
            rs_available,
            live_available,
            min,
            false,
            format!(
                "at least {replicas} − maxUnavailable {} = {min}",
                replicas - min
            ),
        ),
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

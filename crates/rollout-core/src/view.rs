//! Plain data for a front end: the cluster at this step as `kubectl get deploy,rs`,
//! `kubectl describe deployment` and `kubectl rollout status` would show it, with every pod's
//! state. The UI renders this and nothing else, so it stays a function of the simulation.

use crate::api::{Deployment, Pod, ReplicaSet, Time, REVISION_ANNOTATION};
use crate::deployment::util;
use crate::kubectl::{rollout_status_of, RolloutStatus};
use crate::sim::Simulation;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

mod bounds;
mod budget;
pub use bounds::{parse_rolling_bounds, pods, rolling_bounds, BoundsRefused, RollingBounds};
pub use budget::{budget_view, BudgetView, GaugeView};

/// What a pod looks like to a learner, in the order a pod goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PodState {
    /// Created, not scheduled or not started.
    Pending,
    /// Running but not ready.
    Running,
    /// Ready, but not yet for minReadySeconds.
    Ready,
    /// Ready for minReadySeconds: counts as available.
    Available,
    /// Being deleted (graceful termination).
    Terminating,
}

impl PodState {
    /// A word for the UI.
    pub fn label(self) -> &'static str {
        match self {
            PodState::Pending => "Pending",
            PodState::Running => "Running, not ready",
            PodState::Ready => "Ready",
            PodState::Available => "Available",
            PodState::Terminating => "Terminating",
        }
    }

    /// The state of a pod now, for a ReplicaSet with `min_ready_seconds`.
    pub fn of(pod: &Pod, min_ready_seconds: i32, now: Time) -> PodState {
        if pod.metadata.deletion_timestamp.is_some() {
            PodState::Terminating
        } else if pod.is_available(min_ready_seconds, now) {
            PodState::Available
        } else if pod.is_ready() {
            PodState::Ready
        } else if pod.phase == crate::api::PodPhase::Running {
            PodState::Running
        } else {
            PodState::Pending
        }
    }
}

/// One pod in a ReplicaSet card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodView {
    /// The pod's name.
    pub name: String,
    /// Its state.
    pub state: PodState,
    /// Its node ("" until scheduled).
    pub node: String,
    /// When it was created.
    pub created: Time,
    /// Why its container is waiting, as `kubectl get pods` shows it in the STATUS column
    /// (`ErrImagePull`, then `ImagePullBackOff`); `None` when it is not waiting for a reason
    /// the model knows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The ReplicaSet controller's next sync deletes it (its ReplicaSet has more active pods
    /// than spec.replicas and `getPodsToDelete` ranks it among the first to go):
    /// [`crate::replicaset::pods_deleted_next`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub next_deletion: bool,
    /// `restartCount` (the RESTARTS column; 0 for a pod whose app does not fail).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub restarts: i32,
    /// While the kubelet backs off (`CrashLoopBackOff`, `ImagePullBackOff`), when it tries again
    /// (the container's restart, the next pull): a stage counts down to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back_off_until: Option<Time>,
    /// The same as seconds left at the view's moment: with a 40 s back-off from an exit at
    /// 50 s, at 70 s it reads 20 (what the stage's token counts down and the budget words).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back_off_left: Option<Time>,
    /// Its container's last end was a kill by its liveness or startup probe (the kubelet's
    /// `Killing`, exit code 137), not a crash of its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub killed: bool,
    /// Why the scheduler placed it nowhere (PodScheduled=False, `Unschedulable`): its
    /// `FailedScheduling` text; `None` for a pod bound or not yet tried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unschedulable: Option<String>,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// The reason the kubelet gives for a container that cannot start, for a pod whose image is
/// one of the cluster model's `neverReadyImages`: the pull fails as soon as the pod is on a
/// node (`ErrImagePull`, through the round it was scheduled in), and from then on the kubelet
/// backs off between retries (`ImagePullBackOff`). A pod not yet scheduled, or terminating,
/// has no such reason (kubectl shows `Pending` or `Terminating`).
///
/// The clock reads the next round's time as soon as a round ends, so "through the round" is
/// `now ≤ scheduled + secondsPerRound`. For example with 5 s rounds, a pod of `nginx:bad`
/// scheduled in round 6 (t = 30 s) reads `ErrImagePull` during round 6 and at its end (the
/// clock at 35 s), and `ImagePullBackOff` from the end of round 7 (40 s) on.
pub fn waiting_reason(
    pod: &Pod,
    never_ready_images: &[String],
    seconds_per_round: Time,
    now: Time,
) -> Option<&'static str> {
    if pod.metadata.deletion_timestamp.is_some() || !never_ready_images.contains(&pod.image) {
        return None;
    }
    let scheduled = pod.conditions.iter().find(|c| {
        c.type_ == crate::api::PodConditionType::PodScheduled
            && c.status == crate::api::ConditionStatus::True
    })?;
    Some(
        if now <= scheduled.last_transition_time + seconds_per_round {
            "ErrImagePull"
        } else {
            "ImagePullBackOff"
        },
    )
}

/// A ReplicaSet as its card shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetView {
    /// Name.
    pub name: String,
    /// The owning Deployment.
    pub deployment: String,
    /// The revision annotation.
    pub revision: String,
    /// The template's image.
    pub image: String,
    /// Whether its template is the Deployment's (the "new" ReplicaSet).
    pub is_new: bool,
    /// `kubectl get rs` DESIRED (spec.replicas).
    pub desired: i32,
    /// CURRENT (status.replicas).
    pub current: i32,
    /// READY (status.readyReplicas).
    pub ready: i32,
    /// status.availableReplicas.
    pub available: i32,
    /// status.terminatingReplicas: its pods with a deletionTimestamp as the ReplicaSet
    /// controller last counted them (since 1.35; `None` under 1.28, which does not report it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminating: Option<i32>,
    /// The desired-replicas annotation.
    pub desired_annotation: Option<String>,
    /// The max-replicas annotation.
    pub max_annotation: Option<String>,
    /// When it was created.
    pub created: Time,
    /// Its pods, by name.
    pub pods: Vec<PodView>,
    /// ReplicaFailure condition message, if any.
    pub failure: Option<String>,
}

impl ReplicaSetView {
    /// What the ReplicaSet controller's next `manageReplicas` would do: spec.replicas minus its
    /// active pods (those not terminating), positive to create and negative to delete. With
    /// desired 3 and pods Available, Available, Terminating: 3 - 2 = +1, one to create; scaled
    /// down to 1 with three Available: 1 - 3 = -2, two to delete.
    pub fn pods_to_create(&self) -> i32 {
        let active = self
            .pods
            .iter()
            .filter(|p| p.state != PodState::Terminating)
            .count();
        self.desired - i32::try_from(active).unwrap_or(i32::MAX)
    }
}

/// A condition row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionView {
    /// Type.
    #[serde(rename = "type")]
    pub type_: String,
    /// True / False / Unknown.
    pub status: String,
    /// Reason.
    pub reason: String,
    /// Message.
    pub message: String,
    /// Last update.
    pub last_update_time: Time,
    /// Last transition.
    pub last_transition_time: Time,
}

/// A Deployment with what kubectl would print about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentView {
    /// Name.
    pub name: String,
    /// The object itself.
    pub object: Deployment,
    /// `kubectl get deploy`: READY column, e.g. `2/3`.
    pub ready_column: String,
    /// `N desired | N updated | N total | N available | N unavailable`.
    pub replicas_line: String,
    /// Conditions in stored order.
    pub conditions: Vec<ConditionView>,
    /// `kubectl rollout status`.
    pub rollout_status: RolloutStatus,
    /// replicas + maxSurge: the most pods a rolling update may have.
    pub upper_bound: i32,
    /// replicas − maxUnavailable: the fewest available pods it keeps.
    pub lower_bound: i32,
    /// The strategy's name.
    pub strategy: String,
    /// status.terminatingReplicas: the terminating pods of all its ReplicaSets (since 1.35;
    /// `None` under 1.28, and while a synced ReplicaSet has not reported its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminating: Option<i32>,
}

/// The whole picture at one step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterView {
    /// Round of the next step.
    pub round: u32,
    /// Simulated seconds.
    pub time: Time,
    /// Steps taken.
    pub step: usize,
    /// Deployments by name.
    pub deployments: Vec<DeploymentView>,
    /// ReplicaSets in creation order.
    pub replica_sets: Vec<ReplicaSetView>,
    /// The release whose controllers run (the scenario's `kubernetesVersion`).
    pub kubernetes_version: crate::version::KubernetesVersion,
}

fn rs_view(
    rs: &ReplicaSet,
    pods: Vec<Arc<Pod>>,
    deleted_next: &[String],
    d: Option<&Deployment>,
    never_ready_images: &[String],
    seconds_per_round: Time,
    now: Time,
) -> ReplicaSetView {
    ReplicaSetView {
        name: rs.metadata.name.clone(),
        deployment: rs
            .metadata
            .owner
            .as_ref()
            .map(|o| o.name.clone())
            .unwrap_or_default(),
        revision: rs
            .metadata
            .annotations
            .get(REVISION_ANNOTATION)
            .cloned()
            .unwrap_or_default(),
        image: rs.spec.template.image.clone(),
        is_new: d.is_some_and(|d| rs.spec.template.equal_ignore_hash(&d.spec.template)),
        desired: rs.spec.replicas,
        current: rs.status.replicas,
        ready: rs.status.ready_replicas,
        available: rs.status.available_replicas,
        terminating: rs.status.terminating_replicas,
        desired_annotation: util::get_desired_replicas_annotation(rs).map(|v| v.to_string()),
        max_annotation: util::get_max_replicas_annotation(rs).map(|v| v.to_string()),
        created: rs.metadata.creation_timestamp,
        pods: pods
            .iter()
            .map(|p| PodView {
                name: p.metadata.name.clone(),
                state: PodState::of(p, rs.spec.min_ready_seconds, now),
                node: p.node_name.clone(),
                created: p.metadata.creation_timestamp,
                reason: match &p.container {
                    // A failing app's container (`kubelet::restarts`): its own reason.
                    Some(c) if p.metadata.deletion_timestamp.is_none() => {
                        c.state.reason().map(str::to_string)
                    }
                    _ => waiting_reason(p, never_ready_images, seconds_per_round, now)
                        .map(str::to_string),
                },
                next_deletion: deleted_next.contains(&p.metadata.name),
                restarts: p.restart_count,
                back_off_until: p.container.as_ref().and_then(|c| c.back_off_until),
                back_off_left: p
                    .container
                    .as_ref()
                    .filter(|_| p.metadata.deletion_timestamp.is_none())
                    .and_then(|c| c.back_off_until)
                    .map(|t| (t - now).max(0)),
                killed: p.container.as_ref().is_some_and(|c| {
                    [Some(&c.state), c.last_state.as_ref()]
                        .into_iter()
                        .flatten()
                        .any(|s| {
                            matches!(
                                s,
                                crate::api::ContainerState::Terminated { exit_code: 137, .. }
                            )
                        })
                }),
                unschedulable: p.unschedulable_message().map(str::to_string),
            })
            .collect(),
        failure: rs
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "ReplicaFailure")
            .map(|c| c.message.clone()),
    }
}

/// The Deployment's view.
pub fn deployment_view(d: &Deployment) -> DeploymentView {
    let s = &d.status;
    DeploymentView {
        name: d.metadata.name.clone(),
        object: d.clone(),
        ready_column: format!("{}/{}", s.ready_replicas, d.spec.replicas),
        replicas_line: format!(
            "{} desired | {} updated | {} total | {} available | {} unavailable",
            d.spec.replicas,
            s.updated_replicas,
            s.replicas,
            s.available_replicas,
            s.unavailable_replicas
        ),
        conditions: s
            .conditions
            .iter()
            .map(|c| ConditionView {
                type_: c.type_.clone(),
                status: c.status.as_str().to_string(),
                reason: c.reason.clone(),
                message: c.message.clone(),
                last_update_time: c.last_update_time,
                last_transition_time: c.last_transition_time,
            })
            .collect(),
        rollout_status: rollout_status_of(d, 0),
        upper_bound: d.spec.replicas.saturating_add(util::max_surge(d)),
        lower_bound: d.spec.replicas - util::max_unavailable(d),
        strategy: d.spec.strategy.type_name().to_string(),
        terminating: s.terminating_replicas,
    }
}

/// The picture of the cluster now.
pub fn cluster_view(sim: &Simulation) -> ClusterView {
    let api = sim.api();
    let now = api.now();
    let mut rss: Vec<_> = api.replica_sets().cloned().collect();
    util::sort_replica_sets(&mut rss, util::by_creation_timestamp);
    ClusterView {
        round: sim.round(),
        time: now,
        step: sim.steps_taken(),
        deployments: api.deployments().map(|d| deployment_view(d)).collect(),
        replica_sets: rss
            .iter()
            .map(|rs| {
                let owner = rs
                    .metadata
                    .owner
                    .as_ref()
                    .and_then(|o| api.deployment(&o.name))
                    .map(|d| &**d);
                rs_view(
                    rs,
                    api.pods_of(rs),
                    &crate::replicaset::pods_deleted_next(api, rs),
                    owner,
                    &sim.scenario().never_ready_images,
                    sim.scenario().seconds_per_round.max(1),
                    now,
                )
            })
            .collect(),
        kubernetes_version: sim.scenario().kubernetes_version,
    }
}

/// `kubectl describe`'s AGE column (`duration.HumanDuration`): `5s`, `3m20s`, `15m`, `3h5m`.
pub fn age(seconds: Time) -> String {
    let s = seconds.max(0);
    match s {
        0..=119 => format!("{s}s"),
        120..=599 => {
            if s % 60 == 0 {
                format!("{}m", s / 60)
            } else {
                format!("{}m{}s", s / 60, s % 60)
            }
        }
        600..=10_799 => format!("{}m", s / 60),
        10_800..=28_799 if (s / 60) % 60 != 0 => format!("{}h{}m", s / 3600, (s / 60) % 60),
        10_800..=172_799 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crash loop on the stage: 1 replica of web:1, then web:2 crashing 5 s after each
    /// start (maxUnavailable 0, 1 s settled rounds, pods ready after 10 s). The new pod starts
    /// at 10 s and exits at 15 (restarted at once), 20 (back-off 10 s → 30), 35 (20 s → 55),
    /// 60 (40 s → 100): at 80 s it has restarted 3 times and waits 20 s more.
    #[test]
    fn a_crash_looping_pod_shows_its_restarts_and_the_back_off_left() {
        let s = crate::kubelet::failures::fixtures::rollout_to_a_crashing_version();
        let mut sim = Simulation::new(s).without_history();
        while sim.round() < 80 {
            sim.run_round();
            sim.skip_idle_rounds_until(80);
        }
        let view = cluster_view(&sim);
        let new = &view.replica_sets[1].pods[0];
        assert_eq!(new.reason.as_deref(), Some("CrashLoopBackOff"));
        assert_eq!((new.restarts, new.back_off_left), (3, Some(20)));
        assert_eq!(new.state, PodState::Running);
        let old = &view.replica_sets[0].pods[0];
        assert_eq!(
            (old.reason.as_deref(), old.restarts, old.back_off_left),
            (None, 0, None)
        );
        // Running again at 100 s: no reason, no back-off, 4 restarts.
        while sim.round() < 101 {
            sim.run_round();
            sim.skip_idle_rounds_until(101);
        }
        let new = &cluster_view(&sim).replica_sets[1].pods[0];
        assert_eq!(
            (new.reason.as_deref(), new.restarts, new.back_off_left),
            (None, 4, None)
        );
    }

    #[test]
    fn a_lane_says_what_manage_replicas_will_do() {
        // 3 replicas, terminating pods linger a round: scaled to 1, two pods are to go until
        // the ReplicaSet controller deletes them, and the terminating ones no longer count.
        let scenario = crate::scenario::Scenario::from_json(
            r#"{"name":"t","rounds":10,"secondsPerRound":5,"readyAfterRounds":1,
                "terminationRounds":2,"nodes":1,"neverReadyImages":[],"actions":[
                {"round":0,"type":"create","deployment":{"name":"web","replicas":3,"image":"nginx:1"}},
                {"round":3,"type":"scale","replicas":1}]}"#,
        )
        .unwrap();
        let mut sim = Simulation::new(scenario).without_history();
        let lane = |sim: &Simulation| cluster_view(sim).replica_sets[0].clone();
        while cluster_view(&sim).replica_sets.is_empty() {
            sim.step();
        }
        assert_eq!(lane(&sim).pods_to_create(), 3, "created with no pods yet");
        while sim.round() < 3 || lane(&sim).desired != 1 {
            sim.step();
        }
        assert_eq!(
            lane(&sim).pods_to_create(),
            -2,
            "scaled down, three pods still running"
        );
        while lane(&sim).pods_to_create() < 0 {
            sim.step();
        }
        let after = lane(&sim);
        assert_eq!(after.pods_to_create(), 0, "{:?}", after.pods);
        assert_eq!(after.pods.len(), 3, "two of them terminating");
    }

    #[test]
    fn ages_read_like_kubectl() {
        assert_eq!(age(5), "5s");
        assert_eq!(age(200), "3m20s");
        assert_eq!(age(240), "4m");
        assert_eq!(age(900), "15m");
        assert_eq!(age(7300), "121m");
        assert_eq!(age(11000), "3h3m");
        assert_eq!(age(10800), "3h");
    }

    #[test]
    fn a_pod_of_a_never_ready_image_shows_err_image_pull_then_back_off() {
        let scenario = crate::scenario::Scenario::from_json(
            r#"{"name":"t","rounds":10,"secondsPerRound":5,"readyAfterRounds":1,
                "terminationRounds":0,"nodes":1,"neverReadyImages":["nginx:bad"],"actions":[
                {"round":0,"type":"create","deployment":{"name":"web","replicas":2,"image":"nginx:1.14",
                  "strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}},
                {"round":3,"type":"setImage","image":"nginx:bad"}]}"#,
        )
        .unwrap();
        let mut sim = Simulation::new(scenario).without_history();
        let pods_of = |sim: &Simulation, image: &str| -> Vec<PodView> {
            cluster_view(sim)
                .replica_sets
                .into_iter()
                .filter(|rs| rs.image == image)
                .flat_map(|rs| rs.pods)
                .collect()
        };
        // The new ReplicaSet's pod is created in round 3 (t = 15 s) and scheduled by that
        // round's kubelet; until then it is Pending with no reason.
        while sim.round() < 3 {
            sim.run_round();
        }
        while sim.last_step().map(|s| &s.kind)
            != Some(&crate::sim::StepKind::SyncDeployment { name: "web".into() })
        {
            sim.step();
        }
        sim.step(); // the old ReplicaSet
        sim.step(); // the new one creates its pod
        let bad = pods_of(&sim, "nginx:bad");
        assert_eq!((bad.len(), bad[0].reason.as_deref()), (1, None));
        // The kubelet schedules it; the pull fails: ErrImagePull at the round's end.
        sim.step();
        assert_eq!(sim.round(), 4);
        let bad = pods_of(&sim, "nginx:bad");
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].reason.as_deref(), Some("ErrImagePull"));
        // Healthy pods have no reason.
        assert!(pods_of(&sim, "nginx:1.14")
            .iter()
            .all(|p| p.reason.is_none()));
        // From the end of the next round on the kubelet backs off.
        sim.run_round();
        let bad = pods_of(&sim, "nginx:bad");
        assert_eq!(bad[0].reason.as_deref(), Some("ImagePullBackOff"));
        assert_eq!(bad[0].state, PodState::Pending);
    }
}

/// One point of the pod-count chart: the cluster after a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartPoint {
    /// The round.
    pub round: u32,
    /// Its time.
    pub time: Time,
    /// Active pods of ReplicaSets whose image is not the Deployment's.
    pub old: i32,
    /// Active pods of the ReplicaSet with the Deployment's image.
    pub new: i32,
    /// Available pods (the ReplicaSets' status).
    pub available: i32,
    /// Every pod, terminating ones included.
    pub total: i32,
    /// spec.replicas + maxSurge at that round.
    pub upper: i32,
    /// spec.replicas − maxUnavailable at that round.
    pub lower: i32,
}

/// The chart's series for one Deployment: a point per completed round.
pub fn chart_series(sim: &Simulation, deployment: &str) -> Vec<ChartPoint> {
    // Bounds depend on the spec at each round; replay them from the trace's spec fields and
    // the strategy actions (the trace keeps replicas but not the strategy).
    let mut strategy = None;
    let scenario = sim.scenario();
    sim.trace_rounds()
        .filter_map(|r| {
            for a in scenario.actions.iter().filter(|a| a.round == r.round) {
                match &a.kind {
                    crate::scenario::ActionKind::Create { deployment: d }
                        if d.name == deployment =>
                    {
                        strategy = d.defaulted_strategy();
                    }
                    crate::scenario::ActionKind::SetStrategy { name, strategy: s }
                        if name.as_deref().is_none_or(|n| n == deployment) =>
                    {
                        if let Some(s) = crate::scenario::defaulted_strategy(Some(s)) {
                            strategy = Some(s);
                        }
                    }
                    _ => {}
                }
            }
            let d = r.deployments.iter().find(|d| d.name == deployment)?;
            let (surge, unavailable) = match &strategy {
                Some(crate::api::DeploymentStrategy::RollingUpdate {
                    max_surge,
                    max_unavailable,
                }) => util::resolve_fenceposts(
                    max_surge.as_ref(),
                    max_unavailable.as_ref(),
                    d.spec_replicas,
                )
                .map(|(s, u)| (s, u.min(d.spec_replicas)))
                .unwrap_or((0, 0)),
                _ => (0, 0),
            };
            let mut p = ChartPoint {
                round: r.round,
                time: r.time,
                old: 0,
                new: 0,
                available: 0,
                total: 0,
                upper: d.spec_replicas.saturating_add(surge),
                lower: d.spec_replicas - unavailable,
            };
            for rs in r
                .replica_sets
                .iter()
                .filter(|rs| rs.deployment == deployment)
            {
                if rs.image == d.image {
                    p.new += rs.pods.active;
                } else {
                    p.old += rs.pods.active;
                }
                p.available += rs.available_replicas;
                p.total += rs.pods.active + rs.pods.terminating;
            }
            Some(p)
        })
        .collect()
}

#[cfg(test)]
mod chart_tests {
    use super::*;

    #[test]
    fn the_basic_rollout_stays_inside_its_band() {
        let mut sim = Simulation::new(crate::presets::preset("rolling-basic").unwrap().scenario)
            .without_history();
        sim.run();
        let series = chart_series(&sim, "web");
        assert_eq!(series.len(), 40);
        let last = series.last().unwrap();
        assert_eq!((last.old, last.new, last.available), (0, 3, 3));
        for p in &series[5..] {
            assert_eq!((p.upper, p.lower), (4, 3));
            // Active pods stay within replicas + maxSurge; terminating ones are not counted
            // (Kubernetes v1.28), so the total may go beyond it while old pods shut down.
            assert!(p.old + p.new <= p.upper, "{p:?}");
            assert!(p.available >= p.lower, "{p:?}");
        }
        assert!(series.iter().any(|p| p.total > p.upper));
    }
}

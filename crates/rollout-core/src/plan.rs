//! The rollout forecast: what a `kubectl set image` will do to a Deployment, in the figures of
//! `../shared/plan/plan_metrics.py` (its docstring is the definition; this is a port of it,
//! computed from the simulation's round snapshots as they are made, without any JSON).
//!
//! The rollout is the scenario's last `setImage` action: it starts at that action's round and
//! concerns the Deployment the action names (unnamed: the first by name of those the scenario
//! creates by then). Over the round-end snapshots from the start round on in which that
//! Deployment exists:
//! * `completeRound`: the first round after the start whose snapshot is what
//!   `kubectl rollout status` calls success (observedGeneration ≥ generation, updatedReplicas ≥
//!   spec.replicas, status.replicas ≤ updatedReplicas, availableReplicas ≥ updatedReplicas);
//! * `durationSeconds`: (completeRound − startRound) × secondsPerRound;
//! * `peakPods`: the most pods (active + terminating, all its ReplicaSets) from the start to the
//!   completion (or the end); in settled rounds the Deployment's `peakPods`, which also counts the
//!   moments between passes;
//! * `minAvailable`: the least sum of its ReplicaSets' `availableReplicas` over those snapshots;
//! * `deadlineExceededRound`: the first round ≥ start whose Progressing condition has reason
//!   `ProgressDeadlineExceeded`.
//!
//! Worked example (`01-rolling-3-surge25-unavail25`, 3 replicas, 5 s rounds, lock-step): the
//! image is set in round 6; round 19 is the first whose Deployment status says 3 updated, 3
//! total, 3 available, so the rollout takes (19 − 6) × 5 = 65 s; at most 3 + maxSurge 1 = 4
//! pods exist, and availability never drops below 3 − maxUnavailable 0 (25 % of 3 rounds
//! down) = 3.

pub mod change;
pub mod constraints;
pub mod failure;
pub mod input;
pub mod manifest;
pub mod markdown;
pub mod report;
pub mod scheduling;
pub mod startup;
pub mod sweep;
pub mod traffic;

use crate::scenario::{ActionKind, DeploymentInput, Scenario};
use crate::sim::Simulation;
use crate::trace::{TraceDeployment, TraceRound};
use serde::{Deserialize, Serialize};

/// The reason on the Progressing condition once `progressDeadlineSeconds` has passed without
/// progress (`deploymentutil.TimedOutReason`).
const TIMED_OUT_REASON: &str = "ProgressDeadlineExceeded";

/// The rollout a forecast follows: the scenario's last `setImage`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RolloutTarget {
    /// The round of the last `setImage` action.
    pub start_round: u32,
    /// The Deployment it concerns.
    pub deployment: String,
}

/// Finds the rollout: the last `setImage` (the last in file order among those of the latest
/// round) and its Deployment (unnamed: the least name among the `create` actions of rounds up
/// to the start, as the scenario format applies an unnamed action).
pub fn rollout_target(scenario: &Scenario) -> Result<RolloutTarget, String> {
    let start_round = scenario
        .actions
        .iter()
        .filter(|a| matches!(a.kind, ActionKind::SetImage { .. }))
        .map(|a| a.round)
        .max()
        .ok_or_else(|| {
            format!(
                "scenario {:?} has no setImage action: a forecast follows the rollout a setImage starts",
                scenario.name
            )
        })?;
    let last = scenario
        .actions
        .iter()
        .rev()
        .find(|a| a.round == start_round && matches!(a.kind, ActionKind::SetImage { .. }));
    let named = last.and_then(|a| a.kind.target()).map(str::to_string);
    let deployment = match named {
        Some(name) => name,
        None => scenario
            .actions
            .iter()
            .filter(|a| a.round <= start_round)
            .filter_map(|a| match &a.kind {
                ActionKind::Create { deployment } => Some(deployment.name.as_str()),
                _ => None,
            })
            .min()
            .map(str::to_string)
            .ok_or_else(|| {
                format!(
                    "scenario {:?}: the setImage of round {start_round} names no Deployment and none is created by then",
                    scenario.name
                )
            })?,
    };
    Ok(RolloutTarget {
        start_round,
        deployment,
    })
}

/// The forecast figures (`--json` of `rollout plan`; `null` where there is nothing to say).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Forecast {
    /// The round the image is set in.
    pub start_round: u32,
    /// The first later round whose snapshot `kubectl rollout status` calls complete.
    pub complete_round: Option<u32>,
    /// (completeRound − startRound) × secondsPerRound.
    pub duration_seconds: Option<i64>,
    /// The most pods (active + terminating) the Deployment's ReplicaSets had.
    pub peak_pods: i32,
    /// The fewest available pods (sum of the ReplicaSets' availableReplicas).
    pub min_available: Option<i32>,
    /// The first round whose Progressing condition says ProgressDeadlineExceeded.
    pub deadline_exceeded_round: Option<u32>,
}

/// The figures' keys in a forecast's JSON (`rollout plan --json`, plan_metrics.py), in
/// order.
pub const FIGURES: [&str; 6] = [
    "startRound",
    "completeRound",
    "durationSeconds",
    "peakPods",
    "minAvailable",
    "deadlineExceededRound",
];

/// What `kubectl rollout status` waits for (`DeploymentStatusViewer.Status` returning done),
/// read from a snapshot: the controller has seen the latest spec, every replica is updated, no
/// old pod is left and every updated pod is available. For 3 replicas, status {replicas 4,
/// updated 3, available 3} is not done (an old pod is still counted); {3, 3, 3} is.
pub fn rollout_complete(d: &TraceDeployment) -> bool {
    d.observed_generation >= d.generation
        && d.updated_replicas >= d.spec_replicas
        && d.replicas <= d.updated_replicas
        && d.available_replicas >= d.updated_replicas
}

/// Folds round snapshots, in order, into the forecast figures. The one place the figures are
/// computed: the CLI, sweeps and the app feed it the rounds their simulation makes.
#[derive(Clone, Debug)]
pub struct ForecastTracker {
    target: RolloutTarget,
    seconds_per_round: i64,
    peak_pods: i32,
    min_available: Option<i32>,
    complete_round: Option<u32>,
    deadline_exceeded_round: Option<u32>,
}

impl ForecastTracker {
    /// A tracker for `target` in a scenario whose rounds are `seconds_per_round` long.
    pub fn new(target: RolloutTarget, seconds_per_round: i64) -> ForecastTracker {
        ForecastTracker {
            target,
            seconds_per_round,
            peak_pods: 0,
            min_available: None,
            complete_round: None,
            deadline_exceeded_round: None,
        }
    }

    /// The rollout followed.
    pub fn target(&self) -> &RolloutTarget {
        &self.target
    }

    /// Whether the rollout has completed (later rounds change nothing).
    pub fn complete(&self) -> bool {
        self.complete_round.is_some()
    }

    /// Takes one round's snapshot into account; rounds before the start, rounds without the
    /// Deployment and every round after completion are ignored.
    pub fn observe(&mut self, round: &TraceRound) {
        if self.complete() || round.round < self.target.start_round {
            return;
        }
        let Some(d) = round
            .deployments
            .iter()
            .find(|d| d.name == self.target.deployment)
        else {
            return;
        };
        let (mut pods, mut available) = (0i32, 0i32);
        for rs in round
            .replica_sets
            .iter()
            .filter(|rs| rs.deployment == d.name)
        {
            pods += rs.pods.active + rs.pods.terminating;
            available += rs.available_replicas;
        }
        // Settled rounds record the most pods at any moment of the round (between passes too).
        self.peak_pods = self.peak_pods.max(d.peak_pods.unwrap_or(pods));
        self.min_available = Some(self.min_available.map_or(available, |m| m.min(available)));
        if self.deadline_exceeded_round.is_none()
            && d.conditions
                .iter()
                .any(|c| c.type_ == "Progressing" && c.reason == TIMED_OUT_REASON)
        {
            self.deadline_exceeded_round = Some(round.round);
        }
        if round.round > self.target.start_round && rollout_complete(d) {
            self.complete_round = Some(round.round);
        }
    }

    /// The figures so far.
    pub fn forecast(&self) -> Forecast {
        Forecast {
            start_round: self.target.start_round,
            complete_round: self.complete_round,
            duration_seconds: self
                .complete_round
                .map(|r| i64::from(r - self.target.start_round) * self.seconds_per_round),
            peak_pods: self.peak_pods,
            min_available: self.min_available,
            deadline_exceeded_round: self.deadline_exceeded_round,
        }
    }
}

/// Simulates `scenario` until its rollout completes, nothing more can happen, or the
/// scenario's rounds run out, returning the forecast and the simulation (its rounds, events
/// and objects, for a report). Rounds in which nothing is due are skipped once the controllers
/// are at rest, up to [`Simulation::next_due_round`] (they would repeat the last snapshot), so
/// the figures are those of every round; the simulation keeps no step history, its trace
/// lacks the skipped rounds, and its rounds carry no events (they are in
/// [`Simulation::events`]; see [`Simulation::without_trace_events`]).
pub fn simulate(scenario: &Scenario) -> Result<(Forecast, Simulation), String> {
    simulate_with(scenario, &crate::limits::Limits::PAGE)
}

/// [`simulate`] within `limits` (the CLI's `--large` passes [`crate::limits::Limits::LARGE`]):
/// a scenario beyond them is refused with the limit, before anything runs. The work limit
/// ([`crate::limits::MAX_POD_ROUNDS`]) is counted as the forecast runs instead: it stops at
/// completion, long before the rounds a manifest's scenario allows for a rollout of one pod
/// per wave, so it is refused only once the rounds it has run, times the pods each held, pass
/// the limit.
pub fn simulate_with(
    scenario: &Scenario,
    limits: &crate::limits::Limits,
) -> Result<(Forecast, Simulation), String> {
    simulate_traffic(scenario, limits, None).map(|(f, _, sim)| (f, sim))
}

/// [`simulate_with`], with the requests to the Service in front of the Deployment under
/// `traffic` (`None`: not followed) counted from the image being set to
/// [`traffic::window_end`] ([`crate::traffic`], `plan::traffic`). The simulation is the same:
/// the traffic model only reads its rounds.
pub fn simulate_traffic(
    scenario: &Scenario,
    limits: &crate::limits::Limits,
    traffic: Option<&crate::traffic::TrafficModel>,
) -> Result<(Forecast, Option<traffic::TrafficForecast>, Simulation), String> {
    crate::limits::check_scenario_with(scenario, &limits.without_work())?;
    if let Some(t) = traffic {
        t.check()?;
    }
    let mut pod_rounds: i64 = 0;
    let mut most_pods: i64 = 0;
    let target = rollout_target(scenario)?;
    let target_start = target.start_round;
    let mut tracker = ForecastTracker::new(target, scenario.seconds_per_round);
    let mut sim = Simulation::new(scenario.clone())
        .without_history()
        .without_trace_events()
        .without_explanations();
    let mut requests = traffic.map(|t| {
        crate::traffic::TrafficTracker::new(
            sim.kubelet_model().clone(),
            t.clone(),
            &tracker.target().deployment,
        )
        .warm_from(i64::from(target_start) * scenario.seconds_per_round)
    });
    let mut last_time: crate::api::Time = 0;
    while !sim.finished() {
        sim.run_round();
        let pods = sim.api().pod_count() as i64;
        most_pods = most_pods.max(pods);
        pod_rounds = pod_rounds.saturating_add(pods);
        if pod_rounds > limits.pod_rounds {
            return Err(format!(
                "the forecast has run {} rounds with up to {} pods at once, {} pod-rounds, and has not finished; Rollout Lab simulates at most {} pod-rounds in one run, a limit for the page's speed, not Kubernetes' (the CLI's --large lifts it)",
                crate::limits::group(i64::from(sim.round())),
                crate::limits::group(most_pods),
                crate::limits::group(pod_rounds),
                crate::limits::group(limits.pod_rounds)
            ));
        }
        let Some(round) = sim.trace_rounds().last().cloned() else {
            continue;
        };
        if let Some(r) = &mut requests {
            r.observe_at(sim.api(), round.time);
        }
        last_time = round.time;
        tracker.observe(&round);
        if tracker.complete() {
            break;
        }
        // A settled round ends with a pass that changed nothing, so the controllers are at
        // rest; a lock-step round must change nothing at all (status still trails the pods).
        let at_rest = if sim.settled() {
            round.errors.is_empty()
        } else {
            sim.last_round_idle()
        };
        if at_rest {
            // The round after the start is looked at even when it repeats the start's snapshot:
            // a rollout that changes nothing completes there.
            let first_after_start = target_start + 1;
            let look = (sim.round() <= first_after_start).then_some(first_after_start);
            match sim.next_due_round().into_iter().chain(look).min() {
                Some(due) => sim.skip_to_round(due),
                None => break,
            }
        }
    }
    let forecast = tracker.forecast();
    let traffic = requests.map(|mut r| {
        let from = i64::from(forecast.start_round) * scenario.seconds_per_round;
        let last = forecast
            .complete_round
            .map_or(last_time, |c| i64::from(c) * scenario.seconds_per_round);
        let to = traffic::window_end(&r, last);
        r.finish(to);
        traffic::TrafficForecast {
            assumptions: r.model().clone(),
            totals: r.totals(from, to),
        }
    });
    Ok((forecast, traffic, sim))
}

/// The forecast of `scenario`'s last `setImage` (see the module's definitions).
pub fn forecast(scenario: &Scenario) -> Result<Forecast, String> {
    simulate(scenario).map(|(f, _)| f)
}

/// What a plan is made for: a scenario as given, or a manifest in a cluster model.
#[derive(Clone, Debug)]
pub enum Subject {
    /// A scenario (conformance format), run as it is.
    Scenario(Scenario),
    /// A Deployment manifest, planned as [`manifest::manifest_scenario`] sets it up.
    Manifest {
        /// The manifest's Deployment.
        manifest: Box<manifest::ManifestDeployment>,
        /// The cluster model, defaults filled in.
        model: manifest::ResolvedModel,
    },
}

impl Subject {
    /// The Deployment the rollout concerns, as the scenario creates it (a sweep's settings are
    /// applied to this).
    pub fn deployment(&self) -> Result<DeploymentInput, String> {
        match self {
            Subject::Manifest { manifest, .. } => Ok(manifest.deployment.clone()),
            Subject::Scenario(s) => {
                let target = rollout_target(s)?;
                create_of(s, &target)
                    .map(|i| match &s.actions[i].kind {
                        ActionKind::Create { deployment } => deployment.clone(),
                        _ => unreachable!("create_of finds create actions"),
                    })
                    .ok_or_else(|| {
                        format!(
                            "scenario {:?} does not create deployment {:?} before round {}",
                            s.name, target.deployment, target.start_round
                        )
                    })
            }
        }
    }

    /// One row of a sweep: the forecast with `settings` applied, or the API server's refusal.
    /// The CLI's `--sweep` and the JavaScript `sweep()` both fill their tables with it.
    pub fn sweep_row(&self, settings: sweep::Settings) -> sweep::SweepRow {
        self.sweep_row_with(settings, &crate::limits::Limits::PAGE)
    }

    /// [`Subject::sweep_row`] within `limits`.
    pub fn sweep_row_with(
        &self,
        settings: sweep::Settings,
        limits: &crate::limits::Limits,
    ) -> sweep::SweepRow {
        let traffic = self.traffic_model();
        match self
            .scenario(&settings)
            .and_then(|s| simulate_traffic(&s, limits, Some(&traffic)).map(|(f, t, _)| (f, t)))
        {
            Ok((f, t)) => sweep::SweepRow {
                settings,
                forecast: Some(f),
                refused: None,
                failed_requests: t.map(|t| t.totals.failed),
                if_it_fails: None,
            },
            Err(e) => sweep::SweepRow {
                settings,
                forecast: None,
                refused: Some(e),
                failed_requests: None,
                if_it_fails: None,
            },
        }
    }

    /// The traffic assumptions of its plan: a manifest's model (the flags over the defaults
    /// and its `preStop`), a scenario's `model.traffic`, else the defaults.
    pub fn traffic_model(&self) -> crate::traffic::TrafficModel {
        match self {
            Subject::Manifest { model, .. } => model.traffic.clone(),
            Subject::Scenario(s) => s
                .model
                .as_ref()
                .and_then(|m| m.traffic.clone())
                .unwrap_or_default(),
        }
    }

    /// The scenario to simulate with `settings` applied to the Deployment as it is created;
    /// `Err` is the API server's refusal of that Deployment (or of the manifest itself).
    pub fn scenario(&self, settings: &sweep::Settings) -> Result<Scenario, String> {
        match self {
            Subject::Manifest { manifest, model } => {
                manifest::manifest_scenario(&settings.apply(&manifest.deployment), model)
            }
            Subject::Scenario(s) if *settings == sweep::Settings::default() => Ok(s.clone()),
            Subject::Scenario(s) => {
                let deployment = self.deployment()?;
                if let Some(refusal) = settings.refusal(&deployment) {
                    return Err(refusal);
                }
                let target = rollout_target(s)?;
                let mut s = s.clone();
                if let Some(i) = create_of(&s, &target) {
                    s.actions[i].kind = ActionKind::Create {
                        deployment: settings.apply(&deployment),
                    };
                }
                Ok(s)
            }
        }
    }
}

/// The index of the first action that creates the rollout's Deployment by its start.
fn create_of(s: &Scenario, target: &RolloutTarget) -> Option<usize> {
    s.actions.iter().position(|a| {
        a.round <= target.start_round
            && matches!(&a.kind, ActionKind::Create { deployment } if deployment.name == target.deployment)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(actions: &str) -> Scenario {
        Scenario::from_json(&format!(
            r#"{{"name":"t","rounds":40,"secondsPerRound":5,"readyAfterRounds":1,
                "terminationRounds":0,"nodes":1,"actions":[
                {{"round":0,"type":"create","deployment":{{"name":"web","replicas":3,"image":"a"}}}},
                {{"round":0,"type":"create","deployment":{{"name":"api","replicas":2,"image":"a"}}}}
                {actions}]}}"#
        ))
        .unwrap()
    }

    #[test]
    fn without_set_image_there_is_nothing_to_forecast() {
        let e = forecast(&scenario("")).unwrap_err();
        assert!(e.contains("no setImage action"), "{e}");
    }

    #[test]
    fn an_unnamed_set_image_concerns_the_first_deployment_by_name() {
        let s = scenario(
            r#",{"round":3,"type":"setImage","name":"web","image":"b"},
               {"round":5,"type":"setImage","image":"c"}"#,
        );
        let t = rollout_target(&s).unwrap();
        assert_eq!((t.start_round, t.deployment.as_str()), (5, "api"));
        let f = forecast(&s).unwrap();
        // api: 2 replicas, 25 % surge rounds up to 1, 25 % unavailable rounds down to 0.
        assert_eq!(f.start_round, 5);
        assert_eq!(f.peak_pods, 3);
        assert_eq!(f.min_available, Some(2));
        assert!(f.complete_round.is_some());
        assert_eq!(
            f.duration_seconds,
            Some(i64::from(f.complete_round.unwrap() - 5) * 5)
        );
    }

    #[test]
    fn a_never_ready_image_stalls_at_the_progress_deadline() {
        let mut s = scenario(
            r#",{"round":3,"type":"setImage","name":"web","image":"bad"},
               {"round":0,"type":"setProgressDeadlineSeconds","name":"web","value":20}"#,
        );
        s.never_ready_images = vec!["bad".into()];
        s.rounds = 1000;
        let (f, sim) = simulate(&s).unwrap();
        assert_eq!(f.complete_round, None);
        assert_eq!(f.duration_seconds, None);
        let exceeded = f.deadline_exceeded_round.unwrap();
        // Progress stops at round 3 (t = 15 s); the deadline passes strictly after t = 35 s.
        assert!(exceeded * 5 > 35, "{f:?}");
        assert!(
            sim.round() < 20,
            "the planner stops once nothing more can happen"
        );
        assert_eq!(f.peak_pods, 4);
        assert_eq!(f.min_available, Some(3));
    }

    /// The figures of every round of the full trace, without skipping anything.
    fn forecast_of_full_trace(s: &Scenario) -> Forecast {
        let mut tracker = ForecastTracker::new(rollout_target(s).unwrap(), s.seconds_per_round);
        for round in crate::sim::run_trace(s.clone()).rounds {
            tracker.observe(&round);
        }
        tracker.forecast()
    }

    #[test]
    fn skipping_idle_rounds_changes_no_figure() {
        let mut scenarios: Vec<Scenario> = crate::presets::presets()
            .into_iter()
            .map(|p| p.scenario)
            .filter(|s| rollout_target(s).is_ok())
            .collect();
        assert!(scenarios.len() >= 5);
        let manifest = manifest::ManifestDeployment {
            deployment: DeploymentInput {
                name: "web".into(),
                replicas: Some(7),
                image: "app:v1".into(),
                ..DeploymentInput::default()
            },
            termination_grace_period_seconds: Some(20),
            unsupported: Vec::new(),
            container: String::new(),
            notes: Vec::new(),
            startup: Default::default(),
            scheduling: Default::default(),
            pre_stop_sleep_seconds: 0,
        };
        for (spr, min_ready, bad, quota) in [
            (1, 0, false, None),
            (5, 12, false, None),
            (2, 0, true, None),
            (3, 4, false, Some(8)),
        ] {
            let model = manifest::resolve(
                &manifest,
                &manifest::ClusterModel {
                    seconds_per_round: spr,
                    pull_seconds: 9,
                    bad_image: bad,
                    pod_quota: quota,
                    ..manifest::ClusterModel::default()
                },
            );
            let mut d = manifest.deployment.clone();
            d.min_ready_seconds = Some(min_ready);
            d.progress_deadline_seconds = Some(40);
            let mut s = manifest::manifest_scenario(&d, &model).unwrap();
            s.rounds = s.actions[1].round + 120;
            scenarios.push(s.clone());
            s.settle = false;
            scenarios.push(s);
        }
        for s in &scenarios {
            assert_eq!(
                forecast(s).unwrap(),
                forecast_of_full_trace(s),
                "{}",
                s.name
            );
        }
    }

    #[test]
    fn sweep_settings_apply_to_the_deployment_the_scenario_creates() {
        use crate::api::IntOrString;
        let s = scenario(r#",{"round":3,"type":"setImage","name":"web","image":"b"}"#);
        let subject = Subject::Scenario(s.clone());
        assert_eq!(subject.deployment().unwrap().name, "web");
        let faster = sweep::Settings {
            max_surge: Some(IntOrString::Int(3)),
            ..sweep::Settings::default()
        };
        let changed = subject.scenario(&faster).unwrap();
        let ActionKind::Create { deployment } = &changed.actions[0].kind else {
            panic!("the create stays first");
        };
        assert_eq!(
            deployment.strategy.as_ref().unwrap().max_surge,
            Some(IntOrString::Int(3))
        );
        assert_eq!(
            changed.actions[1..],
            s.actions[1..],
            "the rest stays as it is"
        );
        // 3 replicas, maxSurge 3: the whole new ReplicaSet at once.
        assert_eq!(forecast(&changed).unwrap().peak_pods, 6);
        let both_zero = sweep::Settings {
            max_surge: Some(IntOrString::Int(0)),
            max_unavailable: Some(IntOrString::Int(0)),
            ..sweep::Settings::default()
        };
        assert!(subject
            .scenario(&both_zero)
            .unwrap_err()
            .contains("may not be 0 when `maxSurge` is 0"));
    }

    #[test]
    fn a_forecast_counts_the_pod_rounds_it_runs_rather_than_its_rounds() {
        // 2,000 replicas for 100,000 rounds: 250,000,000 pod-rounds before anything runs,
        // which trace() refuses; the forecast completes in a few dozen rounds.
        let big = Scenario::from_json(
            r#"{"rounds":100000,"secondsPerRound":5,"readyAfterRounds":2,"actions":[
            {"round":0,"type":"create","deployment":{"name":"web","image":"a","replicas":2000}},
            {"round":10,"type":"setImage","image":"b"}]}"#,
        )
        .unwrap();
        assert!(crate::limits::check_scenario(&big)
            .unwrap_err()
            .contains("make 250,000,000 pod-rounds"));
        let (f, sim) = simulate(&big).unwrap();
        assert!(f.complete_round.is_some(), "{f:?}");
        assert!(sim.round() < 100, "{}", sim.round());
        // One pod a wave with a budget of 20,000 pod-rounds: refused as it passes it.
        let mut slow = big.clone();
        if let ActionKind::Create { deployment } = &mut slow.actions[0].kind {
            deployment.replicas = Some(200);
            deployment.strategy = Some(crate::scenario::StrategyInput {
                type_: Some("RollingUpdate".into()),
                max_surge: Some(crate::api::IntOrString::Int(1)),
                max_unavailable: Some(crate::api::IntOrString::Int(0)),
                with_rolling_update: None,
            });
        }
        let small = crate::limits::Limits {
            pod_rounds: 20_000,
            ..crate::limits::Limits::PAGE
        };
        let e = simulate_with(&slow, &small).unwrap_err();
        assert!(
            e.starts_with("the forecast has run ")
                && e.contains("rounds with up to 201 pods at once, 20,")
                && e.contains("pod-rounds, and has not finished; Rollout Lab simulates at most 20,000 pod-rounds in one run, a limit for the page's speed, not Kubernetes' (the CLI's --large lifts it)"),
            "{e}"
        );
        // The page's budget lets it finish: 200 waves of a few rounds, about 200,000.
        assert!(simulate(&slow).unwrap().0.complete_round.is_some());
    }
}

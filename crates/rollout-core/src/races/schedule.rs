//! A race schedule (`../shared/races/README.md`): the steps, the scenario that carries them,
//! the runner that takes them one by one, and the trace it writes.
//!
//! For example `race-teach-conflict-real`: after `setImage web:2` and `deliver-dc`, the first
//! `sync-dc` creates `web-rev2` and writes the Deployment's revision (its returned object is
//! discarded, as `getNewReplicaSet` does), so its own `syncRolloutStatus` writes from the copy
//! it read and is refused with 409 Conflict; the second `sync-dc`, its cache still without
//! `web-rev2`, creates it again (AlreadyExists), looks it up in the cache and reports
//! `replicaset.apps "web-rev2" not found`.

use super::cache::{self, InformerCache};
use super::consistency::ConsistencyStore;
use super::expectations::{ControllerExpectations, Pending};
use crate::deployment::{util, DeploymentController};
use crate::kubelet::{kubelet_pass, KubeletModel};
use crate::record::Recorder;
use crate::replicaset::ReplicaSetController;
use crate::scenario::{ActionKind, Scenario, ScenarioError};
use crate::sim::apply_action;
use crate::store::ApiServer;
use crate::trace::{self, PodCounts, TraceDeployment, TraceEvent, TraceReplicaSet};
use crate::version::KubernetesVersion;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The most fair rounds of the setup before the schedule (README: "at most 50").
pub const MAX_SETUP_ROUNDS: u32 = 50;

/// The longest schedule read (each step is a trace entry with three copies of the cluster).
pub const MAX_SCHEDULE_STEPS: usize = 10_000;

/// One step of a schedule.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// `setImage IMAGE`: the user's `kubectl set image` (an update through validation).
    SetImage(String),
    /// `sync-dc`: `syncDeployment` for every Deployment on the API server, by name, reading
    /// the Deployment controller's caches.
    SyncDc,
    /// `sync-rs`: `syncReplicaSet` for every ReplicaSet on the API server, in creation order,
    /// reading the ReplicaSet controller's caches and expectations.
    SyncRs,
    /// `deliver-dc`: the Deployment controller's caches catch up with the API server.
    DeliverDc,
    /// `deliver-rs`: the ReplicaSet controller's caches catch up and its pod handlers run.
    DeliverRs,
    /// `kubelet`: one pass of the kubelet model over the API server's pods.
    Kubelet,
    /// `tick`: the clock moves 1 s.
    Tick,
}

impl Step {
    /// The six steps a search tries at every state (all but `setImage`).
    pub const SEARCHED: [Step; 6] = [
        Step::SyncDc,
        Step::SyncRs,
        Step::DeliverDc,
        Step::DeliverRs,
        Step::Kubelet,
        Step::Tick,
    ];

    /// Reads a step as a schedule writes it (`sync-dc`, `setImage web:2`, …).
    pub fn parse(text: &str) -> Result<Step, String> {
        let step = match text {
            "sync-dc" => Step::SyncDc,
            "sync-rs" => Step::SyncRs,
            "deliver-dc" => Step::DeliverDc,
            "deliver-rs" => Step::DeliverRs,
            "kubelet" => Step::Kubelet,
            "tick" => Step::Tick,
            _ => match text.strip_prefix("setImage ") {
                Some(image) if !image.trim().is_empty() => Step::SetImage(image.trim().into()),
                _ => {
                    return Err(format!(
                        "unknown step {text:?}; expected sync-dc, sync-rs, deliver-dc, deliver-rs, kubelet, tick or setImage IMAGE"
                    ))
                }
            },
        };
        Ok(step)
    }
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::SetImage(image) => write!(f, "setImage {image}"),
            Step::SyncDc => f.write_str("sync-dc"),
            Step::SyncRs => f.write_str("sync-rs"),
            Step::DeliverDc => f.write_str("deliver-dc"),
            Step::DeliverRs => f.write_str("deliver-rs"),
            Step::Kubelet => f.write_str("kubelet"),
            Step::Tick => f.write_str("tick"),
        }
    }
}

/// A conformance scenario with a `schedule` and the two counterfactual switches.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceScenario {
    /// The cluster model and the round-0 actions (`rounds` is 0).
    pub scenario: Scenario,
    /// The steps after the setup.
    pub schedule: Vec<Step>,
    /// `expectations` (default true); false: the ReplicaSet controller's expectations are
    /// deleted before each of its syncs.
    pub expectations: bool,
    /// `conflicts` (default true); false: last write wins.
    pub conflicts: bool,
    /// The scenario as read (the trace's header).
    pub source: serde_json::Value,
}

impl RaceScenario {
    /// Whether a scenario's JSON is a race schedule (it has a `schedule`).
    pub fn is_race(value: &serde_json::Value) -> bool {
        value.get("schedule").is_some()
    }

    /// Reads a race scenario from JSON text.
    pub fn from_json(text: &str) -> Result<RaceScenario, ScenarioError> {
        crate::limits::check_text("the race scenario", text).map_err(|message| ScenarioError {
            path: String::new(),
            message,
        })?;
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ScenarioError {
            path: String::new(),
            message: format!("not valid JSON: {e}"),
        })?;
        RaceScenario::from_value(&value)
    }

    /// Reads a race scenario from a parsed JSON value: the three race fields here, the rest
    /// as a conformance scenario.
    pub fn from_value(value: &serde_json::Value) -> Result<RaceScenario, ScenarioError> {
        let err = |path: &str, message: String| ScenarioError {
            path: path.to_string(),
            message,
        };
        let mut rest = value.clone();
        let obj = rest
            .as_object_mut()
            .ok_or_else(|| err("", "a scenario must be a JSON object".to_string()))?;
        let flag = |obj: &mut serde_json::Map<String, serde_json::Value>, key: &str| match obj
            .remove(key)
        {
            None => Ok(true),
            Some(serde_json::Value::Bool(b)) => Ok(b),
            Some(_) => Err(err(key, "must be true or false".to_string())),
        };
        let expectations = flag(obj, "expectations")?;
        let conflicts = flag(obj, "conflicts")?;
        let steps = match obj.remove("schedule") {
            Some(serde_json::Value::Array(steps)) => steps,
            _ => return Err(err("schedule", "must be a list of steps".to_string())),
        };
        if steps.len() > MAX_SCHEDULE_STEPS {
            return Err(err(
                "schedule",
                format!("{} steps; at most {MAX_SCHEDULE_STEPS}", steps.len()),
            ));
        }
        let schedule = steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                s.as_str()
                    .ok_or_else(|| "a step must be a string".to_string())
                    .and_then(Step::parse)
                    .map_err(|m| err(&format!("schedule[{i}]"), m))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let scenario = Scenario::from_value(&rest)?;
        Ok(RaceScenario {
            scenario,
            schedule,
            expectations,
            conflicts,
            source: value.clone(),
        })
    }

    /// The steps after the schedule's leading `setImage` steps (where a search starts).
    pub fn leading_actions(&self) -> usize {
        self.schedule
            .iter()
            .take_while(|s| matches!(s, Step::SetImage(_)))
            .count()
    }
}

/// Everything a schedule step can change: the API server's truth, each controller's caches,
/// and the ReplicaSet controller's expectations.
#[derive(Clone, Debug)]
pub struct RaceState {
    /// The API server.
    pub truth: ApiServer,
    /// The Deployment controller's caches (Deployments, ReplicaSets, pods).
    pub dc: InformerCache,
    /// The ReplicaSet controller's caches (ReplicaSets, pods).
    pub rs: InformerCache,
    /// The ReplicaSet controller's expectations.
    pub expectations: ControllerExpectations,
    /// The ReplicaSet controller's record of its own writes (used under 1.37 only).
    pub consistency: ConsistencyStore,
}

/// What one step returned and emitted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepOutcome {
    /// The syncs' or the action's errors, as trace lines (`syncDeployment web: …`).
    pub errors: Vec<String>,
    /// The events, as in the conformance traces.
    pub events: Vec<TraceEvent>,
}

/// A race being run: the model and the state.
#[derive(Clone, Debug)]
pub struct Race {
    model: KubeletModel,
    expectations: bool,
    /// Whether the API server keeps resourceVersions (false: `conflicts: false`).
    versions: bool,
    /// The release the controllers behave as (1.37: `terminatingReplicas`, and the
    /// ReplicaSet controller waits for its own writes, [`ConsistencyStore`]).
    version: KubernetesVersion,
    /// The state now.
    pub state: RaceState,
    /// The clock after the setup.
    pub setup_ticks: i64,
}

impl Race {
    /// The race after its setup: the round-0 actions, then fair rounds (`deliver-dc, sync-dc,
    /// deliver-rs, sync-rs, kubelet, tick`) until the first rollout is complete.
    pub fn new(rs: &RaceScenario) -> Race {
        let s = &rs.scenario;
        let model = KubeletModel {
            seconds_per_round: 1,
            ready_after_rounds: s.ready_after_rounds,
            termination_rounds: s.termination_rounds,
            never_ready_images: s.never_ready_images.clone(),
            nodes: s.nodes.max(1),
            ready_jitter_rounds: s.model.as_ref().map_or(0, |m| m.ready_jitter_rounds),
            seed: s.model.as_ref().map_or(0, |m| m.seed),
            // Race schedules time pods by readyAfterRounds alone (../shared/races/README.md).
            probes: None,
            failures: None,
            template_probes: Vec::new(),
            scheduling: None,
        };
        let mut truth = ApiServer::new();
        truth.set_pod_quota(s.pod_quota);
        truth.set_conflict_checks(rs.conflicts);
        let state = RaceState {
            dc: InformerCache::of(&truth),
            rs: InformerCache::of_replica_sets_and_pods(&truth),
            truth,
            expectations: ControllerExpectations::new(),
            consistency: ConsistencyStore::default(),
        };
        let mut race = Race {
            model,
            expectations: rs.expectations,
            versions: rs.conflicts,
            version: s.kubernetes_version,
            state,
            setup_ticks: 0,
        };
        for action in s.actions.iter().filter(|a| a.round == 0) {
            let _ = apply_action(&mut race.state.truth, &action.kind);
        }
        const FAIR: [Step; 6] = [
            Step::DeliverDc,
            Step::SyncDc,
            Step::DeliverRs,
            Step::SyncRs,
            Step::Kubelet,
            Step::Tick,
        ];
        for _ in 0..MAX_SETUP_ROUNDS {
            for step in &FAIR {
                race.step_quietly(step);
            }
            if race.rollout_complete() {
                break;
            }
        }
        race.setup_ticks = race.state.truth.now();
        race
    }

    /// Whether every Deployment's rollout is complete on the API server: observedGeneration
    /// ≥ generation, all replicas updated, available and ready, and no other pod.
    fn rollout_complete(&self) -> bool {
        let api = &self.state.truth;
        let wanted: i32 = api.deployments().map(|d| d.spec.replicas).sum();
        api.pods().count() as i32 == wanted
            && api.deployments().all(|d| {
                let s = &d.status;
                let n = d.spec.replicas;
                s.observed_generation >= d.metadata.generation
                    && s.replicas == n
                    && s.updated_replicas == n
                    && s.available_replicas == n
                    && s.ready_replicas == n
            })
    }

    /// The clock now (seconds).
    pub fn now(&self) -> i64 {
        self.state.truth.now()
    }

    /// Takes one step, keeping what it returned and emitted.
    pub fn step(&mut self, step: &Step) -> StepOutcome {
        let mut out = StepOutcome::default();
        self.run(step, Some(&mut out));
        out
    }

    /// Takes one step, keeping nothing of what it emitted (the search).
    pub fn step_quietly(&mut self, step: &Step) {
        self.run(step, None);
    }

    fn run(&mut self, step: &Step, mut out: Option<&mut StepOutcome>) {
        let st = &mut self.state;
        match step {
            Step::SetImage(image) => {
                let kind = ActionKind::SetImage {
                    name: None,
                    image: image.clone(),
                };
                if let (Err(e), Some(out)) = (apply_action(&mut st.truth, &kind), out) {
                    out.errors.push(e.to_string());
                }
            }
            Step::SyncDc => {
                let names: Vec<String> = st
                    .truth
                    .deployments()
                    .map(|d| d.metadata.name.clone())
                    .collect();
                for name in names {
                    let mut rec = Recorder::quiet();
                    let result = DeploymentController::new(&mut st.truth, &mut rec)
                        .kubernetes(self.version)
                        .with_lister(st.dc.listers())
                        .sync_deployment(&name);
                    record(
                        out.as_deref_mut(),
                        "deployment",
                        "syncDeployment",
                        &name,
                        rec,
                        result,
                    );
                }
            }
            Step::SyncRs => {
                let mut rss: Vec<_> = st.truth.replica_sets().cloned().collect();
                util::sort_replica_sets(&mut rss, util::by_creation_timestamp);
                let graceful = self.model.termination_rounds > 0;
                for rs in rss {
                    let name = &rs.metadata.name;
                    if !self.expectations {
                        st.expectations.delete(name);
                    }
                    let mut rec = Recorder::quiet();
                    let guarded = self.version.rs_waits_for_own_writes();
                    // `consistencyStore.EnsureReady`: the sync returns before it reads anything.
                    let result = match st.consistency.ensure_ready(name, st.rs.listers()) {
                        Err(e) if guarded => Err(e),
                        _ => {
                            let status_before = st
                                .truth
                                .replica_set(name)
                                .map(|r| r.metadata.resource_version);
                            let pods_before = st.truth.last_resource_version();
                            let mut ctl =
                                ReplicaSetController::new(&mut st.truth, &mut rec, graceful)
                                    .kubernetes(self.version)
                                    .with_caches(st.rs.listers(), &mut st.expectations);
                            let result = ctl.sync_replica_set(name);
                            let created = ctl.report.slow_start.as_ref().map_or(0, |s| s.successes);
                            if guarded {
                                // `WroteAt`: its creates, then its status write, each at the
                                // resourceVersion the API server returned.
                                if created > 0 {
                                    let newest = st
                                        .truth
                                        .pods_of_iter(&rs)
                                        .map(|p| p.metadata.resource_version)
                                        .filter(|rv| *rv > pods_before)
                                        .max();
                                    if let Some(rv) = newest {
                                        st.consistency.wrote_pod(name, rv);
                                    }
                                }
                                let status_after = st
                                    .truth
                                    .replica_set(name)
                                    .map(|r| r.metadata.resource_version);
                                if let Some(rv) =
                                    status_after.filter(|_| status_after != status_before)
                                {
                                    st.consistency.wrote_replica_set(name, rv);
                                }
                            }
                            result
                        }
                    };
                    record(
                        out.as_deref_mut(),
                        "replicaset",
                        "syncReplicaSet",
                        name,
                        rec,
                        result,
                    );
                }
            }
            Step::DeliverDc => {
                st.dc.deliver(&st.truth);
            }
            Step::DeliverRs => {
                cache::deliver_rs(&mut st.rs, &st.truth, &mut st.expectations, self.versions)
            }
            Step::Kubelet => {
                kubelet_pass(&mut st.truth, &self.model);
            }
            Step::Tick => {
                let now = st.truth.now();
                st.truth.set_now(now + 1);
            }
        }
    }

    /// The rolling update's promises broken on the API server's truth now, worded as the
    /// trace words them: for each Deployment, its non-terminating pods against replicas +
    /// maxSurge, its ready ones against replicas − maxUnavailable, and the sum of its
    /// ReplicaSets' spec.replicas against replicas + maxSurge.
    pub fn violations(&self) -> Vec<String> {
        let api = &self.state.truth;
        let mut out = Vec::new();
        for d in api.deployments() {
            let n = d.spec.replicas;
            let surge = util::max_surge(d);
            let unavailable = util::max_unavailable(d);
            let rss = api.replica_sets_of(d);
            let (mut pods, mut ready, mut specs) = (0, 0, 0);
            for rs in &rss {
                specs += rs.spec.replicas;
                for p in api.pods_of_iter(rs) {
                    if p.metadata.deletion_timestamp.is_none() {
                        pods += 1;
                        ready += i32::from(p.is_ready());
                    }
                }
            }
            if pods > n + surge {
                out.push(format!("maxSurge: {pods} pods > {n} + {surge}"));
            }
            if ready < n - unavailable {
                out.push(format!(
                    "maxUnavailable: {ready} ready < {n} - {unavailable}"
                ));
            }
            if specs > n + surge {
                out.push(format!("specs: {specs} > {n} + {surge}"));
            }
        }
        out
    }

    /// The trace entry of the step just taken.
    pub fn trace_step(&self, index: usize, step: &Step, outcome: StepOutcome) -> RaceTraceStep {
        let (deployments, replica_sets) = trace::snapshot(&self.state.truth, None);
        let dc = self.state.dc.listers();
        let expectations: BTreeMap<String, Pending> = self
            .state
            .expectations
            .pending()
            .map(|(k, p)| (k.clone(), *p))
            .collect();
        RaceTraceStep {
            index,
            step: step.to_string(),
            time: self.now(),
            errors: outcome.errors,
            events: outcome.events,
            deployments,
            replica_sets,
            caches: Caches {
                deployment: DeploymentCaches {
                    deployments: dc
                        .deployments()
                        .map(|d| CachedDeployment {
                            name: d.metadata.name.clone(),
                            generation: d.metadata.generation,
                            observed_generation: d.status.observed_generation,
                            spec_replicas: d.spec.replicas,
                            updated_replicas: d.status.updated_replicas,
                            available_replicas: d.status.available_replicas,
                        })
                        .collect(),
                    replica_sets: cached_replica_sets(dc),
                },
                replicaset: ReplicaSetCaches {
                    replica_sets: cached_replica_sets(self.state.rs.listers()),
                },
            },
            expectations: (!expectations.is_empty()).then_some(expectations),
            violations: self.violations(),
        }
    }
}

/// Records a sync's events and error into the step's outcome (when one is kept).
fn record(
    out: Option<&mut StepOutcome>,
    phase: &'static str,
    function: &str,
    name: &str,
    rec: Recorder,
    result: Result<(), String>,
) {
    let Some(out) = out else { return };
    for e in &rec.events {
        out.events.push(TraceEvent::of(phase, e, None));
    }
    if let Err(e) = result {
        out.errors.push(format!(
            "{function} {name}: {}",
            trace::normalise_in_text(&e)
        ));
    }
}

/// A cache's ReplicaSets in brief, by creation then name, with pods counted from the cache's
/// own pods.
pub(crate) fn cached_replica_sets(cache: &ApiServer) -> Vec<CachedReplicaSet> {
    let mut rss: Vec<_> = cache.replica_sets().collect();
    util::sort_replica_sets(&mut rss, util::by_creation_timestamp);
    rss.into_iter()
        .map(|rs| CachedReplicaSet {
            name: rs.metadata.name.clone(),
            spec_replicas: rs.spec.replicas,
            available_replicas: rs.status.available_replicas,
            pods: cache
                .pods_of_iter(rs)
                .fold(PodCounts::default(), |mut c, p| {
                    if p.metadata.deletion_timestamp.is_some() {
                        c.terminating += 1;
                    } else {
                        c.active += 1;
                        c.ready += i32::from(p.is_ready());
                    }
                    c
                }),
        })
        .collect()
}

/// A race schedule's trace (README "Trace").
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RaceTrace {
    /// Who made it.
    pub oracle: serde_json::Value,
    /// The scenario as read.
    pub scenario: serde_json::Value,
    /// The clock after the setup.
    pub setup_ticks: i64,
    /// One entry per schedule step.
    pub steps: Vec<RaceTraceStep>,
}

/// One schedule step in the trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RaceTraceStep {
    /// The step's position.
    pub index: usize,
    /// Its text.
    pub step: String,
    /// The clock (seconds).
    pub time: i64,
    /// What its syncs or action returned.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
    /// The events it emitted.
    pub events: Vec<TraceEvent>,
    /// The API server's Deployments after the step.
    pub deployments: Vec<TraceDeployment>,
    /// The API server's ReplicaSets after the step.
    pub replica_sets: Vec<TraceReplicaSet>,
    /// Each controller's caches, in brief.
    pub caches: Caches,
    /// Pending expectations per ReplicaSet (absent when none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expectations: Option<BTreeMap<String, Pending>>,
    /// The promises broken on the truth after the step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<String>,
}

/// Both controllers' caches in brief.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Caches {
    /// The Deployment controller's.
    pub deployment: DeploymentCaches,
    /// The ReplicaSet controller's.
    pub replicaset: ReplicaSetCaches,
}

/// The Deployment controller's caches in brief.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentCaches {
    /// Its Deployments.
    pub deployments: Vec<CachedDeployment>,
    /// Its ReplicaSets.
    pub replica_sets: Vec<CachedReplicaSet>,
}

/// The ReplicaSet controller's caches in brief.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetCaches {
    /// Its ReplicaSets.
    pub replica_sets: Vec<CachedReplicaSet>,
}

/// A Deployment as a cache sees it, in brief.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CachedDeployment {
    /// Its name.
    pub name: String,
    /// metadata.generation.
    pub generation: i64,
    /// status.observedGeneration.
    pub observed_generation: i64,
    /// spec.replicas.
    pub spec_replicas: i32,
    /// status.updatedReplicas.
    pub updated_replicas: i32,
    /// status.availableReplicas.
    pub available_replicas: i32,
}

/// A ReplicaSet as a cache sees it, in brief, its pods counted from the cache's pods.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CachedReplicaSet {
    /// Its name.
    pub name: String,
    /// spec.replicas.
    pub spec_replicas: i32,
    /// status.availableReplicas.
    pub available_replicas: i32,
    /// Its pods in the cache.
    pub pods: PodCounts,
}

/// Runs a race scenario's setup and schedule and returns its trace (what `rollout trace`
/// prints for a scenario with a `schedule`).
pub fn run_race_trace(rs: &RaceScenario) -> RaceTrace {
    let mut race = Race::new(rs);
    let steps = rs
        .schedule
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let outcome = race.step(step);
            race.trace_step(i, step, outcome)
        })
        .collect();
    RaceTrace {
        oracle: trace::oracle(rs.scenario.kubernetes_version),
        scenario: rs.source.clone(),
        setup_ticks: race.setup_ticks,
        steps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 3 replicas, maxSurge 1, maxUnavailable 0, pods ready after 2 ticks.
    fn three_replicas(schedule: &[&str], extra: &str) -> RaceScenario {
        RaceScenario::from_json(&format!(
            r#"{{"name":"t","rounds":0,"secondsPerRound":1,"readyAfterRounds":2,
                "terminationRounds":0,"nodes":2,{extra}"actions":[{{"round":0,"type":"create",
                "deployment":{{"name":"web","replicas":3,"image":"web:1","strategy":
                {{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}}}}}],
                "schedule":{}}}"#,
            serde_json::to_string(schedule).unwrap()
        ))
        .unwrap()
    }

    #[test]
    fn steps_read_and_print_as_schedules_write_them() {
        for text in [
            "sync-dc",
            "sync-rs",
            "deliver-dc",
            "deliver-rs",
            "kubelet",
            "tick",
        ] {
            assert_eq!(Step::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(
            Step::parse("setImage web:2").unwrap(),
            Step::SetImage("web:2".into())
        );
        assert!(Step::parse("sync-everything")
            .unwrap_err()
            .contains("unknown step"));
        let bad = RaceScenario::from_json(r#"{"rounds":0,"actions":[],"schedule":["tock"]}"#);
        assert_eq!(bad.unwrap_err().path, "schedule[0]");
    }

    /// The race reader keeps the scenario reader's size limit: a text of 3 MiB is read, one
    /// byte more is refused by its size before it is parsed (the CLI refuses a larger file
    /// unread, `crates/rollout-cli/tests/limits.rs`).
    #[test]
    fn a_race_scenario_past_the_document_limit_is_refused_by_its_size() {
        let text = r#"{"rounds":0,"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"web:1"}}],"schedule":["tick"]}"#;
        let max = crate::limits::MAX_DOCUMENT_BYTES;
        let at_limit = format!("{text}{}", " ".repeat(max - text.len()));
        assert_eq!(at_limit.len(), max);
        assert!(RaceScenario::from_json(&at_limit).is_ok());
        let e = RaceScenario::from_json(&format!("{at_limit} ")).unwrap_err();
        assert_eq!(
            e.message,
            "the race scenario is 3,145,729 bytes; Rollout Lab reads at most 3,145,728, the API server's limit on a request body"
        );
    }

    /// The README's teach-conflict: a second sync-dc on a cache that has not seen the first
    /// one's writes is refused twice over, and last write wins removes the first refusal.
    #[test]
    fn a_stale_deployment_cache_conflicts_then_misses_its_own_replica_set() {
        let steps = ["setImage web:2", "deliver-dc", "sync-dc", "sync-dc"];
        let trace = run_race_trace(&three_replicas(&steps, ""));
        assert_eq!(trace.setup_ticks, 5);
        assert_eq!(
            trace.steps[2].errors,
            [
                r#"syncDeployment web: Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again"#
            ]
        );
        assert_eq!(trace.steps[2].replica_sets.len(), 2, "web-rev2 was created");
        assert_eq!(
            trace.steps[3].errors,
            [r#"syncDeployment web: replicaset.apps "web-rev2" not found"#]
        );
        let last_write_wins = run_race_trace(&three_replicas(&steps, r#""conflicts":false,"#));
        assert!(last_write_wins.steps[2].errors.is_empty());
    }

    /// The README's teach-expectations: with expectations the second sync-rs waits for the
    /// pod the first created; without, it creates another and breaks maxSurge.
    #[test]
    fn expectations_keep_a_second_sync_from_creating_again() {
        let steps = [
            "setImage web:2",
            "deliver-dc",
            "sync-dc",
            "deliver-rs",
            "sync-rs",
            "sync-rs",
            "deliver-rs",
        ];
        let real = run_race_trace(&three_replicas(&steps, ""));
        let pending = |t: &RaceTrace, i: usize| t.steps[i].expectations.clone();
        let want = BTreeMap::from([("web-rev2".to_string(), Pending { add: 1, del: 0 })]);
        assert_eq!(pending(&real, 5), Some(want.clone()));
        assert!(real.steps[5].events.is_empty(), "the second sync waits");
        assert!(real.steps.iter().all(|s| s.violations.is_empty()));
        assert_eq!(pending(&real, 6), None, "addPod observed the creation");

        let noexp = run_race_trace(&three_replicas(&steps, r#""expectations":false,"#));
        assert_eq!(noexp.steps[5].events.len(), 1, "a second create");
        assert_eq!(noexp.steps[5].violations, ["maxSurge: 5 pods > 3 + 1"]);
        let over = BTreeMap::from([("web-rev2".to_string(), Pending { add: -1, del: 0 })]);
        assert_eq!(
            pending(&noexp, 6),
            Some(over),
            "two observed for one expected"
        );
    }
}

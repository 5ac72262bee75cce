//! The stepper: runs the controllers in the rounds of `../shared/conformance/README.md`, one
//! controller sync (or kubelet pass) per step, and keeps what the UI needs to explain a step
//! and to step back.
//!
//! A round: 0. the user's actions of the round; then a pass: 1. every Deployment synced once,
//! by name; 2. every ReplicaSet that exists at the start of this phase synced once, in
//! creation order; 3. one kubelet pass over the pods. Lock-step rounds run one pass; settled
//! rounds (`"settle": true`) repeat the pass while the previous one changed an object's
//! content, at most [`MAX_PASSES`] times. 4. A snapshot for the trace; then the clock advances.
//!
//! For example in `01-rolling-3-surge25-unavail25-settle`, round 7 (t = 35 s): pass 1's
//! kubelet makes the new pod ready; pass 2's ReplicaSet sync counts it; pass 3's Deployment
//! sync scales the old ReplicaSet down 3 → 2 and its ReplicaSet sync deletes a pod; pass 4
//! scales the new one up 1 → 2 and creates a pod that its kubelet schedules; passes 5 and 6
//! record the statuses; pass 7 changes nothing, so the round ends after 7 passes.

use crate::api::{Deployment, Event, Time, DEPRECATED_ROLLBACK_TO};
use crate::deployment::DeploymentController;
use crate::kubelet::{kubelet_pass_recording, KubeletModel, PodChange};
use crate::record::{Decision, Recorder};
use crate::replicaset::{ManageReport, ReplicaSetController};
use crate::scenario::{defaulted_strategy, Action, ActionKind, DeploymentInput, Scenario};
use crate::store::ApiServer;
use crate::trace::{self, Trace, TraceEvent, TraceRound};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most passes a settled round runs; a round still changing after them ends with the
/// error [`NOT_SETTLED`].
pub const MAX_PASSES: u32 = 50;

/// The error line of a settled round that still changed after [`MAX_PASSES`] passes.
pub const NOT_SETTLED: &str = "round did not settle in 50 passes";

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum StepKind {
    /// The user's actions of the round were applied.
    Actions,
    /// The Deployment controller synced one Deployment.
    SyncDeployment {
        /// The Deployment.
        name: String,
    },
    /// The ReplicaSet controller synced one ReplicaSet.
    SyncReplicaSet {
        /// The ReplicaSet.
        name: String,
    },
    /// The kubelet and scheduler model ran over every pod.
    Kubelet,
}

impl StepKind {
    /// Which part of the cluster acted: `user`, `deployment-controller`,
    /// `replicaset-controller` or `kubelet`.
    pub fn actor(&self) -> &'static str {
        match self {
            StepKind::Actions => "user",
            StepKind::SyncDeployment { .. } => "deployment-controller",
            StepKind::SyncReplicaSet { .. } => "replicaset-controller",
            StepKind::Kubelet => "kubelet",
        }
    }
}

/// One step's record, for the UI's explanation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepRecord {
    /// The round the step belongs to.
    pub round: u32,
    /// The round's time.
    pub time: Time,
    /// The pass of the round the step belongs to (1-based; always 1 in lock-step rounds; the
    /// round's actions count with its first pass).
    pub pass: u32,
    /// Index of the step within the whole run (0-based).
    pub index: usize,
    /// What ran.
    pub kind: StepKind,
    /// The Kubernetes functions it went through, in order.
    pub path: Vec<String>,
    /// The decisions with their numbers.
    pub decisions: Vec<Decision>,
    /// The branches of the decision flow, in order.
    pub branches: Vec<crate::record::Branch>,
    /// Events it recorded.
    pub events: Vec<Arc<Event>>,
    /// The error the sync returned (or the API's refusal of an action).
    pub errors: Vec<String>,
    /// The actions applied (for an Actions step), as scenario JSON.
    pub actions: Vec<serde_json::Value>,
    /// What `manageReplicas` did (ReplicaSet steps).
    pub manage: Option<ManageReport>,
    /// What the kubelet did (kubelet steps).
    pub pod_changes: Vec<PodChange>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    Start,
    Deployments(Arc<Vec<String>>, usize),
    ReplicaSets(Arc<Vec<String>>, usize),
    Kubelet,
}

/// What the current round has gathered for its trace entry so far.
#[derive(Clone, Debug, Default)]
struct RoundAcc {
    actions: Vec<serde_json::Value>,
    errors: Vec<String>,
    events: Vec<TraceEvent>,
    /// Events recorded this round, whether or not they were kept as trace events.
    event_count: usize,
    /// The API server's content version when the round started.
    start_version: u64,
    /// The API server's content version when the current pass started.
    pass_start_version: u64,
    /// Settled rounds: each Deployment's most pods (active + terminating) so far this round.
    peak_pods: imbl::OrdMap<String, i32>,
}

/// Everything that changes as the simulation steps; cheap to clone (persistent maps), so
/// keeping one per step makes stepping back O(1).
#[derive(Clone, Debug)]
pub struct SimState {
    /// The API server with every object.
    pub api: ApiServer,
    round: u32,
    /// Whether the last completed round changed nothing.
    last_round_idle: bool,
    /// The current pass of the round (1-based).
    pass: u32,
    phase: Phase,
    acc: RoundAcc,
    trace: imbl::Vector<Arc<TraceRound>>,
    steps_taken: usize,
    last_step: Option<Arc<StepRecord>>,
    events: imbl::Vector<Arc<LoggedEvent>>,
}

/// An event with the round it was recorded in and the controller that recorded it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoggedEvent {
    /// The round.
    pub round: u32,
    /// The pass of the round (1-based; always 1 in lock-step rounds).
    pub pass: u32,
    /// `deployment` or `replicaset`.
    pub phase: &'static str,
    /// The event.
    pub event: Arc<Event>,
}

/// A scenario being simulated.
#[derive(Clone, Debug)]
pub struct Simulation {
    scenario: Scenario,
    model: KubeletModel,
    state: SimState,
    history: Vec<SimState>,
    keep_history: bool,
    /// Whether round snapshots carry their events (see [`Simulation::without_trace_events`]).
    trace_events: bool,
    /// Whether steps keep their decisions and branches (see
    /// [`Simulation::without_explanations`]).
    explain: bool,
}

impl Simulation {
    /// A simulation of `scenario` at the start of round 0, keeping every step for stepping
    /// back.
    pub fn new(scenario: Scenario) -> Simulation {
        let model = KubeletModel {
            seconds_per_round: scenario.seconds_per_round.max(1),
            ready_after_rounds: scenario.ready_after_rounds,
            termination_rounds: scenario.termination_rounds,
            never_ready_images: scenario.never_ready_images.clone(),
            nodes: scenario.nodes.max(1),
            ready_jitter_rounds: scenario.model.as_ref().map_or(0, |m| m.ready_jitter_rounds),
            seed: scenario.model.as_ref().map_or(0, |m| m.seed),
            probes: scenario.model.as_ref().and_then(|m| m.probes.clone()),
            failures: scenario.model.as_ref().and_then(|m| m.failures.clone()),
            template_probes: scenario
                .model
                .as_ref()
                .map(|m| m.template_probes.clone())
                .unwrap_or_default(),
            scheduling: scenario
                .model
                .as_ref()
                .and_then(|m| m.scheduling.as_ref())
                .map(|s| std::sync::Arc::new(s.resolve(scenario.nodes.max(1)))),
        };
        let mut api = ApiServer::new();
        api.set_pod_quota(scenario.pod_quota);
        Simulation {
            scenario,
            model,
            state: SimState {
                api,
                round: 0,
                last_round_idle: false,
                pass: 1,
                phase: Phase::Start,
                acc: RoundAcc::default(),
                trace: imbl::Vector::new(),
                steps_taken: 0,
                last_step: None,
                events: imbl::Vector::new(),
            },
            history: Vec::new(),
            keep_history: true,
            trace_events: true,
            explain: true,
        }
    }

    /// Stop keeping history (for batch runs: traces and benchmarks).
    pub fn without_history(mut self) -> Simulation {
        self.keep_history = false;
        self.history.clear();
        self
    }

    /// Leave the events out of the round snapshots ([`Simulation::trace_rounds`]), for a
    /// caller that reads only their objects (the planner's forecast): each event is still
    /// recorded in [`Simulation::events`] and still makes its round not idle, so the run and
    /// every other figure stay the same, but the trace's copy of it (its pod names
    /// normalised, about 8 % of a 5,000-replica forecast) is not made.
    pub fn without_trace_events(mut self) -> Simulation {
        self.trace_events = false;
        self
    }

    /// Steps keep no decisions or branches (their sentences with live numbers are not even
    /// written: about a fifth of a 100-replica forecast), for a caller that reads only the
    /// objects, the trace's snapshots and the events, such as the planner. The run itself is
    /// the same.
    pub fn without_explanations(mut self) -> Simulation {
        self.explain = false;
        self
    }

    /// The recorder of one controller sync.
    fn recorder(&self) -> Recorder {
        if self.explain {
            Recorder::default()
        } else {
            Recorder::quiet()
        }
    }

    /// A copy of the simulation as it is now, without its history and not keeping any: for
    /// probes that run ahead and are thrown away (`Session::can_step`, a lesson's question).
    /// `clone().without_history()` would first copy the history, one state per step taken.
    pub fn clone_without_history(&self) -> Simulation {
        Simulation {
            scenario: self.scenario.clone(),
            model: self.model.clone(),
            state: self.state.clone(),
            history: Vec::new(),
            keep_history: false,
            trace_events: self.trace_events,
            explain: self.explain,
        }
    }

    /// The scenario, including actions added while running.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The current state.
    pub fn state(&self) -> &SimState {
        &self.state
    }

    /// The API server as it is now.
    pub fn api(&self) -> &ApiServer {
        &self.state.api
    }

    /// The kubelet model the scenario's cluster settings make (read by models beside the
    /// controllers, such as [`crate::traffic`]).
    pub fn kubelet_model(&self) -> &KubeletModel {
        &self.model
    }

    /// The round the next step belongs to.
    pub fn round(&self) -> u32 {
        self.state.round
    }

    /// The pass of the round the next step belongs to (1-based); at a round's start, 1.
    pub fn pass(&self) -> u32 {
        self.state.pass
    }

    /// Whether rounds are settled (`"settle": true`) rather than lock-step.
    pub fn settled(&self) -> bool {
        self.scenario.settle
    }

    /// Whether the next step starts a new round (nothing of it has run yet).
    pub fn at_round_start(&self) -> bool {
        self.state.phase == Phase::Start
    }

    /// The simulated time now.
    pub fn now(&self) -> Time {
        self.state.api.now()
    }

    /// The record of the last step taken.
    pub fn last_step(&self) -> Option<&StepRecord> {
        self.state.last_step.as_deref()
    }

    /// Steps taken since the start.
    pub fn steps_taken(&self) -> usize {
        self.state.steps_taken
    }

    /// Whether every round of the scenario has run.
    pub fn finished(&self) -> bool {
        self.state.round >= self.scenario.rounds
    }

    /// Every event recorded so far, oldest first.
    pub fn events(&self) -> impl DoubleEndedIterator<Item = &Arc<LoggedEvent>> {
        self.state.events.iter()
    }

    /// The completed rounds of the trace.
    pub fn trace_rounds(&self) -> impl Iterator<Item = &Arc<TraceRound>> {
        self.state.trace.iter()
    }

    /// The trace so far, in the conformance format.
    pub fn trace(&self) -> Trace {
        Trace {
            oracle: trace::oracle(self.scenario.kubernetes_version),
            scenario: serde_json::to_value(&self.scenario).unwrap_or_default(),
            rounds: self.state.trace.iter().cloned().collect(),
        }
    }

    /// Lets the scenario run longer (interactive use).
    pub fn extend_rounds(&mut self, rounds: u32) {
        self.scenario.rounds = self.scenario.rounds.max(rounds);
    }

    /// Sets the scenario's traffic model (`model.traffic`), which no controller and no kubelet
    /// pass reads: the run so far stays as it is, only what a traffic view derives changes.
    pub fn set_traffic_model(&mut self, traffic: Option<crate::traffic::TrafficModel>) {
        match (traffic, self.scenario.model.as_mut()) {
            (None, None) => {}
            (traffic, Some(m)) => m.traffic = traffic,
            (traffic, None) => {
                self.scenario.model = Some(crate::scenario::ModelExtras {
                    traffic,
                    ..Default::default()
                })
            }
        }
    }

    /// The round a new action would take effect in: this round if it has not started,
    /// otherwise the next one.
    pub fn next_action_round(&self) -> u32 {
        if self.at_round_start() {
            self.state.round
        } else {
            self.state.round + 1
        }
    }

    /// Queues an action for the start of the next round; it is pending until then.
    pub fn push_action(&mut self, kind: ActionKind) -> u32 {
        let round = self.next_action_round();
        self.scenario.actions.push(Action { round, kind });
        round
    }

    /// Actions queued for rounds that have not started.
    pub fn pending_actions(&self) -> impl Iterator<Item = &Action> {
        let from = self.next_action_round();
        self.scenario
            .actions
            .iter()
            .filter(move |a| a.round >= from)
    }

    /// The first round, from the next one to start, in which something is due: a queued
    /// action, a kubelet change (a pod scheduled, becoming ready, or removed when its graceful
    /// termination ends), a pod becoming available once ready for strictly more than its
    /// ReplicaSet's minReadySeconds, or a Deployment's progress deadline passing (strictly).
    /// `None` when nothing will ever be due: the cluster stays as it is until the user acts.
    ///
    /// Everything the controllers decide depends on the objects and on the clock only through
    /// these moments, so a round that changed nothing is followed by rounds that change nothing
    /// until this one. For example a pod ready at t = 30 s under minReadySeconds 10 with 5 s
    /// rounds becomes available in round 9 (45 s > 40 s; at 40 s it is not yet).
    pub fn next_due_round(&self) -> Option<u32> {
        let from = self.next_action_round();
        let spr = self.model.seconds_per_round.max(1);
        // The first round whose time is strictly after `t`.
        let round_after = |t: Time| -> u32 {
            let r = if t < 0 { 0 } else { t / spr + 1 };
            u32::try_from(r).unwrap_or(u32::MAX)
        };
        let api = &self.state.api;
        let mut due = crate::kubelet::next_due_round(api, &self.model, from);
        let mut consider = |round: u32| {
            if round >= from {
                due = Some(due.map_or(round, |d| d.min(round)));
            }
        };
        for action in &self.scenario.actions {
            consider(action.round);
        }
        for pod in api.pods() {
            let (Some(ready), None) = (pod.ready_time(), pod.metadata.deletion_timestamp) else {
                continue;
            };
            let Some(owner) = &pod.metadata.owner else {
                continue;
            };
            let min_ready = api
                .replica_set(&owner.name)
                .filter(|rs| rs.metadata.uid == owner.uid)
                .map_or(0, |rs| rs.spec.min_ready_seconds);
            if min_ready > 0 {
                consider(round_after(ready + i64::from(min_ready)));
            }
        }
        for d in api.deployments() {
            use crate::deployment::util::{self, condition, reason};
            if !util::has_progress_deadline(d) {
                continue;
            }
            if let Some(c) = util::get_deployment_condition(&d.status, condition::PROGRESSING) {
                if c.reason != reason::NEW_RS_AVAILABLE && c.reason != reason::TIMED_OUT {
                    let deadline = i64::from(d.spec.progress_deadline_seconds.unwrap_or(0));
                    consider(round_after(c.last_update_time + deadline));
                }
            }
        }
        due
    }

    /// Whether the last round that ran changed nothing: no object's content, no event, no
    /// error, no action. (False before the first round.)
    pub fn last_round_idle(&self) -> bool {
        self.state.last_round_idle
    }

    /// After a round that changed nothing, moves on to the next round in which something is
    /// due ([`Simulation::next_due_round`]), or to the scenario's end, without running the
    /// controllers: each round skipped gets the last round's snapshot with its round and time
    /// moved, exactly what running it would have recorded. Returns the rounds skipped (0 when
    /// the last round changed something, or a round is under way).
    pub fn skip_idle_rounds(&mut self) -> u32 {
        self.skip_idle_rounds_until(u32::MAX)
    }

    /// [`Simulation::skip_idle_rounds`], but not past the start of round `limit` (a caller
    /// that wants the clock at a given time, e.g. Compare's second stage at the first's).
    pub fn skip_idle_rounds_until(&mut self, limit: u32) -> u32 {
        if !self.at_round_start() || !self.state.last_round_idle || self.finished() {
            return 0;
        }
        let Some(last) = self.state.trace.last().cloned() else {
            return 0;
        };
        let to = self
            .next_due_round()
            .map_or(self.scenario.rounds, |r| r.min(self.scenario.rounds))
            .min(limit);
        let from = self.state.round;
        for round in from..to {
            let mut copy = (*last).clone();
            copy.round = round;
            copy.time = i64::from(round) * self.model.seconds_per_round;
            self.state.trace.push_back(Arc::new(copy));
        }
        if to > from {
            self.state.round = to;
            let now = i64::from(to) * self.model.seconds_per_round;
            self.state.api.set_now(now);
        }
        to.saturating_sub(from)
    }

    /// Goes back one step. False at the start.
    pub fn step_back(&mut self) -> bool {
        match self.history.pop() {
            Some(prev) => {
                self.state = prev;
                true
            }
            None => false,
        }
    }

    /// The API server as it was before the last step (`None` at the start, or without
    /// history): what "changed in this step" is measured against.
    pub fn previous_api(&self) -> Option<&ApiServer> {
        self.history.last().map(|s| &s.api)
    }

    /// The records of the steps taken so far, newest first (only the last one without
    /// history).
    pub fn past_steps(&self) -> impl Iterator<Item = &StepRecord> {
        self.state.last_step.as_deref().into_iter().chain(
            self.history
                .iter()
                .rev()
                .filter_map(|s| s.last_step.as_deref()),
        )
    }

    /// Whether there is a step to go back to.
    pub fn can_step_back(&self) -> bool {
        !self.history.is_empty()
    }

    /// Takes one step: one controller sync, the round's actions, or a kubelet pass. `None`
    /// when the scenario has run all its rounds.
    pub fn step(&mut self) -> Option<&StepRecord> {
        if self.finished() {
            return None;
        }
        if self.keep_history {
            self.history.push(self.state.clone());
        }
        let record = self.advance();
        self.state.steps_taken += 1;
        self.state.last_step = Some(Arc::new(record));
        self.state.last_step.as_deref()
    }

    /// Runs to the end of the current round.
    pub fn run_round(&mut self) {
        let round = self.state.round;
        while !self.finished() && self.state.round == round {
            self.step();
        }
    }

    /// Moves to the start of `round` without running the rounds before it, for a caller that
    /// knows nothing is due in them (the planner: their snapshots would repeat the last one).
    /// Only at a round's start; the trace then lacks the skipped rounds.
    pub fn skip_to_round(&mut self, round: u32) {
        if self.at_round_start() && round > self.state.round {
            self.state.round = round.min(self.scenario.rounds);
            let now = i64::from(self.state.round) * self.model.seconds_per_round;
            self.state.api.set_now(now);
        }
    }

    /// Runs every remaining round.
    ///
    /// Idle rounds are skipped ([`Simulation::skip_idle_rounds`]): the trace is the same as
    /// running each of them.
    pub fn run(&mut self) {
        while !self.finished() {
            self.run_round();
            self.skip_idle_rounds();
        }
    }

    fn new_record(&self, kind: StepKind) -> StepRecord {
        StepRecord {
            round: self.state.round,
            time: self.state.api.now(),
            pass: self.state.pass,
            index: self.state.steps_taken,
            kind,
            path: Vec::new(),
            decisions: Vec::new(),
            branches: Vec::new(),
            events: Vec::new(),
            errors: Vec::new(),
            actions: Vec::new(),
            manage: None,
            pod_changes: Vec::new(),
        }
    }

    fn advance(&mut self) -> StepRecord {
        loop {
            match self.state.phase.clone() {
                Phase::Start => {
                    let now = i64::from(self.state.round) * self.model.seconds_per_round;
                    self.state.api.set_now(now);
                    self.state.pass = 1;
                    self.state.acc = RoundAcc::default();
                    if self.scenario.settle {
                        for name in &self.deployment_names() {
                            self.sample_peak_pods(name);
                        }
                    }
                    let round = self.state.round;
                    let actions: Vec<Action> = self
                        .scenario
                        .actions
                        .iter()
                        .filter(|a| a.round == round)
                        .cloned()
                        .collect();
                    if actions.is_empty() {
                        self.start_pass();
                        continue;
                    }
                    let mut record = self.new_record(StepKind::Actions);
                    for action in &actions {
                        let echo = serde_json::to_value(action).unwrap_or_default();
                        if let Err(e) = apply_action(&mut self.state.api, &action.kind) {
                            let e = e.to_string();
                            record.errors.push(e.clone());
                            self.state.acc.errors.push(e);
                        }
                        record.actions.push(echo.clone());
                        self.state.acc.actions.push(echo);
                    }
                    self.start_pass();
                    return record;
                }
                Phase::Deployments(queue, i) => {
                    let Some(name) = queue.get(i).cloned() else {
                        let mut rss: Vec<_> = self.state.api.replica_sets().cloned().collect();
                        crate::deployment::util::sort_replica_sets(
                            &mut rss,
                            crate::deployment::util::by_creation_timestamp,
                        );
                        let names = rss.iter().map(|rs| rs.metadata.name.clone()).collect();
                        self.state.phase = Phase::ReplicaSets(Arc::new(names), 0);
                        continue;
                    };
                    self.state.phase = Phase::Deployments(queue, i + 1);
                    let mut record =
                        self.new_record(StepKind::SyncDeployment { name: name.clone() });
                    let mut rec = self.recorder();
                    let result = DeploymentController::new(&mut self.state.api, &mut rec)
                        .kubernetes(self.scenario.kubernetes_version)
                        .sync_deployment(&name);
                    self.finish_sync(
                        &mut record,
                        rec,
                        "deployment",
                        "syncDeployment",
                        &name,
                        result,
                    );
                    return record;
                }
                Phase::ReplicaSets(queue, i) => {
                    let Some(name) = queue.get(i).cloned() else {
                        self.state.phase = Phase::Kubelet;
                        continue;
                    };
                    self.state.phase = Phase::ReplicaSets(queue, i + 1);
                    if self.state.api.replica_set(&name).is_none() {
                        continue;
                    }
                    let mut record =
                        self.new_record(StepKind::SyncReplicaSet { name: name.clone() });
                    let mut rec = self.recorder();
                    let graceful = self.model.termination_rounds > 0;
                    let mut ctl =
                        ReplicaSetController::new(&mut self.state.api, &mut rec, graceful)
                            .kubernetes(self.scenario.kubernetes_version);
                    let result = ctl.sync_replica_set(&name);
                    record.manage = Some(std::mem::take(&mut ctl.report));
                    if self.scenario.settle {
                        if let Some(owner) = self.owning_deployment(&name) {
                            self.sample_peak_pods(&owner);
                        }
                    }
                    self.finish_sync(
                        &mut record,
                        rec,
                        "replicaset",
                        "syncReplicaSet",
                        &name,
                        result,
                    );
                    return record;
                }
                Phase::Kubelet => {
                    let mut record = self.new_record(StepKind::Kubelet);
                    let mut events = Vec::new();
                    record.pod_changes =
                        kubelet_pass_recording(&mut self.state.api, &self.model, &mut events);
                    if !events.is_empty() {
                        self.log_events("kubelet", &events);
                        record.events = events;
                    }
                    record.path.push("kubelet".to_string());
                    self.log_scheduler_events(&mut record);
                    if self.scenario.settle {
                        let changed =
                            self.state.api.content_version() != self.state.acc.pass_start_version;
                        if changed && self.state.pass < MAX_PASSES {
                            self.state.pass += 1;
                            self.start_pass();
                            return record;
                        }
                        if changed {
                            record.errors.push(NOT_SETTLED.to_string());
                            self.state.acc.errors.push(NOT_SETTLED.to_string());
                        }
                    }
                    let settle = self.scenario.settle;
                    let acc = std::mem::take(&mut self.state.acc);
                    self.state.last_round_idle = acc.actions.is_empty()
                        && acc.errors.is_empty()
                        && acc.event_count == 0
                        && self.state.api.content_version() == acc.start_version;
                    let api = &self.state.api;
                    let peak = |name: &str| {
                        acc.peak_pods
                            .get(name)
                            .copied()
                            .unwrap_or_else(|| deployment_pods(api, name))
                    };
                    let (deployments, replica_sets) =
                        trace::snapshot(api, settle.then_some(&peak as &dyn Fn(&str) -> i32));
                    self.state.trace.push_back(Arc::new(TraceRound {
                        round: self.state.round,
                        time: self.state.api.now(),
                        actions: acc.actions,
                        errors: acc.errors,
                        passes: settle.then_some(self.state.pass),
                        events: acc.events,
                        deployments,
                        replica_sets,
                    }));
                    self.state.round += 1;
                    self.state.pass = 1;
                    self.state.phase = Phase::Start;
                    let next = i64::from(self.state.round) * self.model.seconds_per_round;
                    self.state.api.set_now(next);
                    return record;
                }
            }
        }
    }

    /// Every Deployment's name, in the API server's (name) order.
    fn deployment_names(&self) -> Vec<String> {
        self.state
            .api
            .deployments()
            .map(|d| d.metadata.name.clone())
            .collect()
    }

    /// Starts a pass: the Deployment controller's queue is every Deployment, by name.
    fn start_pass(&mut self) {
        let names = self.deployment_names();
        self.state.acc.pass_start_version = self.state.api.content_version();
        if self.state.pass == 1 {
            self.state.acc.start_version = self.state.acc.pass_start_version;
        }
        self.state.phase = Phase::Deployments(Arc::new(names), 0);
    }

    /// The Deployment a ReplicaSet belongs to (its controller owner reference).
    fn owning_deployment(&self, rs_name: &str) -> Option<String> {
        let rs = self.state.api.replica_set(rs_name)?;
        let owner = rs.metadata.owner.as_ref()?;
        let d = self.state.api.deployment(&owner.name)?;
        (d.metadata.uid == owner.uid).then(|| owner.name.clone())
    }

    /// Records the pods a Deployment's ReplicaSets have now toward its `peakPods`.
    fn sample_peak_pods(&mut self, deployment: &str) {
        let count = deployment_pods(&self.state.api, deployment);
        let peak = self
            .state
            .acc
            .peak_pods
            .entry(deployment.to_string())
            .or_insert(count);
        *peak = (*peak).max(count);
    }

    /// The scheduler's `FailedScheduling` events for the pass's unschedulable pods (Warning,
    /// on the pod, from `default-scheduler`), logged as a sync's events are.
    fn log_scheduler_events(&mut self, record: &mut StepRecord) {
        let now = self.state.api.now();
        let events: Vec<Arc<Event>> = record
            .pod_changes
            .iter()
            .filter_map(|c| match c {
                PodChange::Unschedulable { pod, message } => Some(Arc::new(Event {
                    type_: "Warning".into(),
                    reason: "FailedScheduling".into(),
                    message: message.clone(),
                    kind: "Pod".into(),
                    name: pod.clone(),
                    pod: Some(pod.clone()),
                    time: now,
                })),
                _ => None,
            })
            .collect();
        if !events.is_empty() {
            self.log_events("scheduler", &events);
            record.events.extend(events);
        }
    }

    /// Logs the events a step recorded (`phase`: the controller, or the kubelet for pods whose
    /// app fails): counted for the round, kept as trace events when they are, and in the log.
    fn log_events(&mut self, phase: &'static str, events: &[Arc<crate::api::Event>]) {
        let pass = self.scenario.settle.then_some(self.state.pass);
        self.state.acc.event_count += events.len();
        if self.trace_events {
            self.state.acc.events.reserve(events.len());
        }
        for e in events {
            if self.trace_events {
                self.state.acc.events.push(TraceEvent::of(phase, e, pass));
            }
            self.state.events.push_back(Arc::new(LoggedEvent {
                round: self.state.round,
                pass: self.state.pass,
                phase,
                event: Arc::clone(e),
            }));
        }
    }

    fn finish_sync(
        &mut self,
        record: &mut StepRecord,
        rec: Recorder,
        phase: &'static str,
        function: &str,
        name: &str,
        result: Result<(), String>,
    ) {
        self.log_events(phase, &rec.events);
        if let Err(e) = result {
            let line = format!("{function} {name}: {}", trace::normalise_in_text(&e));
            record.errors.push(line.clone());
            self.state.acc.errors.push(line);
        }
        record.path = rec.path.iter().map(|s| s.to_string()).collect();
        record.decisions = rec.decisions;
        record.branches = rec.branches;
        record.events = rec.events;
    }
}

/// An action the API server (or kubectl, for `undo`) refused: the object it was for and the
/// message a client sees. Displayed as the round's error line, `setImage web: <message>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRefused {
    /// The action's `type`.
    pub type_name: &'static str,
    /// The Deployment or pod it named (empty when there was none to name).
    pub target: String,
    /// The error's message (`err.Error()`).
    pub message: String,
    /// What kubectl prints for it (`kubectl::check_err`): `The Deployment "web" is invalid:
    /// …`, `Error from server (NotFound): …` or `error: …`.
    pub printed: String,
}

impl std::fmt::Display for ActionRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.type_name, self.target, self.message)
    }
}

/// Applies one action as `kubectl` would: an update through the API server, refused with
/// the API's message when validation fails. The one interpreter of actions: the stepper runs
/// it at the start of an action's round, and a session runs it on a copy of the API server to
/// see what pending actions will do.
pub fn apply_action(api: &mut ApiServer, kind: &ActionKind) -> Result<(), ActionRefused> {
    use crate::kubectl::check_err;
    let refused = |target: &str, message: String, printed: String| ActionRefused {
        type_name: kind.type_name(),
        target: target.to_string(),
        message,
        printed,
    };
    // The API server's StatusError, as kubectl prints it.
    let fail = |target: &str, e: crate::store::ApiError| {
        let printed = check_err::server_error(e.code, &e.message);
        refused(target, e.message, printed)
    };
    // A validation refusal (422 Invalid).
    let invalid = |target: &str, outcome: crate::validation::ValidationOutcome| {
        let message = crate::validation::status_message(&outcome)
            .unwrap_or_default()
            .to_string();
        let printed = check_err::invalid("Deployment", target, &outcome).unwrap_or_default();
        refused(target, message, printed)
    };
    let not_found = |resource: &str, target: &str| {
        let message = format!("{resource} {} not found", crate::api::go_quote(target));
        fail(target, crate::store::ApiError { code: 404, message })
    };
    match kind {
        ActionKind::Create { deployment } => {
            check_create(deployment).map_err(|o| invalid(&deployment.name, o))?;
            api.create_deployment(deployment.to_deployment())
                .map(|_| ())
                .map_err(|e| fail(&deployment.name, e))
        }
        ActionKind::SetPodQuota { value } => {
            api.set_pod_quota(*value);
            Ok(())
        }
        ActionKind::SetPodDeletionCost { pod, value } => api
            .set_pod_deletion_cost(pod, *value)
            .map_err(|e| fail(pod, e)),
        ActionKind::RestartPod { pod } => api.restart_pod(pod).map_err(|e| fail(pod, e)),
        _ => {
            let target = match kind.target() {
                Some(n) => n.to_string(),
                None => match api.deployments().next() {
                    Some(d) => d.metadata.name.clone(),
                    None => {
                        let message = "no deployment exists".to_string();
                        let printed = check_err::client_error(&message);
                        return Err(refused("", message, printed));
                    }
                },
            };
            let Some(stored) = api.deployment(&target) else {
                return Err(not_found("deployments.apps", &target));
            };
            let old: Deployment = (**stored).clone();
            let mut new = old.clone();
            match kind {
                ActionKind::SetImage { image, .. } => new.spec.template.image = image.clone(),
                ActionKind::Scale { replicas, .. } => new.spec.replicas = *replicas,
                ActionKind::Pause { .. } => new.spec.paused = true,
                ActionKind::Resume { .. } => new.spec.paused = false,
                ActionKind::Rollback { revision, .. } => {
                    new.metadata
                        .annotations
                        .insert(DEPRECATED_ROLLBACK_TO.to_string(), revision.to_string());
                }
                ActionKind::Undo { to_revision, .. } => {
                    let plan = crate::kubectl::rollout_undo(api, &target, *to_revision)
                        .map_err(|m| refused(&target, m.clone(), check_err::client_error(&m)))?;
                    if let Some(template) = plan.template {
                        new.spec.template = template;
                    }
                }
                ActionKind::SetStrategy { strategy, .. } => {
                    let mut input = DeploymentInput::from_deployment(&old);
                    input.strategy = Some(strategy.clone());
                    check_update(&input, &old).map_err(|o| invalid(&target, o))?;
                    new.spec.strategy = defaulted_strategy(Some(strategy)).ok_or_else(|| {
                        let message = "unsupported strategy".to_string();
                        let printed = check_err::client_error(&message);
                        refused(&target, message, printed)
                    })?;
                }
                ActionKind::SetMinReadySeconds { value, .. } => new.spec.min_ready_seconds = *value,
                ActionKind::SetProgressDeadlineSeconds { value, .. } => {
                    new.spec.progress_deadline_seconds = Some(*value)
                }
                ActionKind::SetRevisionHistoryLimit { value, .. } => {
                    new.spec.revision_history_limit = Some(*value)
                }
                ActionKind::Create { .. }
                | ActionKind::SetPodQuota { .. }
                | ActionKind::SetPodDeletionCost { .. }
                | ActionKind::RestartPod { .. } => {}
            }
            check_update(&DeploymentInput::from_deployment(&new), &old)
                .map_err(|o| invalid(&target, o))?;
            if new == old {
                return Ok(());
            }
            api.update_deployment(&new)
                .map(|_| ())
                .map_err(|e| fail(&target, e))
        }
    }
}

/// Pods (active and terminating) of the ReplicaSets a Deployment controls.
fn deployment_pods(api: &ApiServer, deployment: &str) -> i32 {
    let Some(d) = api.deployment(deployment) else {
        return 0;
    };
    api.replica_sets_of(d)
        .iter()
        .map(|rs| api.pod_count_of(rs) as i32)
        .sum()
}

/// The API server's create validation; `Err` is its refusal.
fn check_create(input: &DeploymentInput) -> Result<(), crate::validation::ValidationOutcome> {
    let outcome = crate::validation::validate_create(input);
    if outcome.is_valid() {
        Ok(())
    } else {
        Err(outcome)
    }
}

/// The API server's update validation; `Err` is its refusal.
fn check_update(
    new: &DeploymentInput,
    old: &Deployment,
) -> Result<(), crate::validation::ValidationOutcome> {
    let outcome = crate::validation::validate_update(new, &DeploymentInput::from_deployment(old));
    if outcome.is_valid() {
        Ok(())
    } else {
        Err(outcome)
    }
}

/// Runs a whole scenario and returns its trace (what `rollout trace` prints).
pub fn run_trace(scenario: Scenario) -> Trace {
    let mut sim = Simulation::new(scenario).without_history();
    sim.run();
    sim.trace()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(actions: &str) -> Scenario {
        Scenario::from_json(&format!(
            r#"{{"name":"t","rounds":6,"secondsPerRound":5,"readyAfterRounds":1,
                "terminationRounds":0,"nodes":1,"actions":[
                {{"round":0,"type":"create","deployment":{{"name":"web","replicas":3,"image":"a"}}}}
                {actions}]}}"#
        ))
        .unwrap()
    }

    /// A probe's copy has the state but not the steps behind it, keeps none, and runs on
    /// exactly as the original does.
    #[test]
    fn a_history_less_clone_runs_on_like_the_original() {
        let mut sim = Simulation::new(scenario(r#",{"round":2,"type":"setImage","image":"b"}"#));
        for _ in 0..12 {
            sim.step();
        }
        let mut probe = sim.clone_without_history();
        assert_eq!(probe.steps_taken(), sim.steps_taken());
        assert_eq!(probe.round(), sim.round());
        assert!(probe.history.is_empty() && !probe.keep_history);
        assert_eq!(sim.history.len(), 12, "the original keeps its own");
        while probe.step().is_some() {
            sim.step();
        }
        assert!(sim.step().is_none());
        assert!(probe.history.is_empty());
        assert!(!probe.step_back());
        assert_eq!(
            serde_json::to_string(&probe.trace_rounds().collect::<Vec<_>>()).unwrap(),
            serde_json::to_string(&sim.trace_rounds().collect::<Vec<_>>()).unwrap()
        );
    }

    #[test]
    fn refused_action_changes_nothing_and_reports_the_api_message() {
        let mut sim = Simulation::new(scenario(
            r#",{"round":2,"type":"setStrategy","strategy":{"type":"RollingUpdate","maxSurge":0,"maxUnavailable":0}}"#,
        ))
        .without_history();
        sim.run();
        let rounds: Vec<_> = sim.trace_rounds().cloned().collect();
        assert_eq!(
            rounds[2].errors,
            vec!["setStrategy web: Deployment.apps \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}: may not be 0 when `maxSurge` is 0".to_string()]
        );
        assert_eq!(
            rounds[2].deployments[0].generation, 1,
            "the refused update must not land"
        );
        let d = sim.api().deployment("web").unwrap();
        assert_eq!(
            d.spec.strategy,
            crate::api::DeploymentStrategy::default_rolling()
        );
    }

    #[test]
    fn step_back_restores_the_exact_previous_state() {
        let mut sim = Simulation::new(scenario(r#",{"round":3,"type":"setImage","image":"b"}"#));
        for _ in 0..9 {
            sim.step();
        }
        let before = (
            sim.steps_taken(),
            sim.round(),
            format!("{:?}", sim.api().replica_sets().collect::<Vec<_>>()),
        );
        sim.step();
        sim.step();
        assert!(sim.step_back());
        assert!(sim.step_back());
        let after = (
            sim.steps_taken(),
            sim.round(),
            format!("{:?}", sim.api().replica_sets().collect::<Vec<_>>()),
        );
        assert_eq!(before, after);
    }

    #[test]
    fn past_steps_run_newest_first_and_previous_api_is_one_step_back() {
        let mut sim = Simulation::new(scenario(""));
        assert!(sim.previous_api().is_none());
        assert_eq!(sim.past_steps().count(), 0);
        let mut kinds = Vec::new();
        for _ in 0..5 {
            kinds.push(sim.step().unwrap().kind.clone());
        }
        let indices: Vec<usize> = sim.past_steps().map(|s| s.index).collect();
        assert_eq!(indices, vec![4, 3, 2, 1, 0]);
        kinds.reverse();
        let seen: Vec<StepKind> = sim.past_steps().map(|s| s.kind.clone()).collect();
        assert_eq!(seen, kinds);
        // The API before the last step is the API after the step before it.
        let before = format!(
            "{:?}",
            sim.previous_api()
                .unwrap()
                .replica_sets()
                .collect::<Vec<_>>()
        );
        sim.step_back();
        assert_eq!(
            before,
            format!("{:?}", sim.api().replica_sets().collect::<Vec<_>>())
        );
        assert_eq!(sim.past_steps().next().unwrap().index, 3);
    }

    #[test]
    fn a_step_is_one_controller_sync() {
        let mut sim = Simulation::new(scenario(""));
        let kinds: Vec<StepKind> = (0..4).map(|_| sim.step().unwrap().kind.clone()).collect();
        assert_eq!(
            kinds,
            vec![
                StepKind::Actions,
                StepKind::SyncDeployment { name: "web".into() },
                StepKind::SyncReplicaSet {
                    name: "web-rev1".into()
                },
                StepKind::Kubelet,
            ]
        );
        let next = sim.step().unwrap();
        assert_eq!(next.kind, StepKind::SyncDeployment { name: "web".into() });
        assert_eq!(next.round, 1);
    }

    fn run_to_round(sim: &mut Simulation, round: u32) {
        while sim.round() < round {
            sim.run_round();
        }
    }

    fn deletion_reasons(sim: &mut Simulation) -> Vec<crate::replicaset::DeletionReason> {
        let mut found = Vec::new();
        let round = sim.round();
        while sim.round() == round {
            if let Some(step) = sim.step() {
                if let Some(m) = &step.manage {
                    found.extend(m.deletions.clone());
                }
            }
        }
        found
    }

    #[test]
    fn a_pod_with_a_lower_deletion_cost_goes_first() {
        let mut sim = Simulation::new(scenario(""));
        run_to_round(&mut sim, 3);
        sim.push_action(ActionKind::SetPodDeletionCost {
            pod: "web-rev1-00003".into(),
            value: Some(-5),
        });
        sim.push_action(ActionKind::Scale {
            name: None,
            replicas: 2,
        });
        let reasons = deletion_reasons(&mut sim);
        assert_eq!(reasons.len(), 1);
        assert_eq!(reasons[0].pod.name, "web-rev1-00003");
        assert_eq!(
            reasons[0].criterion,
            crate::replicaset::ranking::Criterion::DeletionCost
        );
    }

    #[test]
    fn a_restarted_pod_is_unready_then_ready_again_and_is_deleted_first() {
        let mut sim = Simulation::new(scenario(""));
        run_to_round(&mut sim, 3);
        sim.push_action(ActionKind::RestartPod {
            pod: "web-rev1-00001".into(),
        });
        sim.run_round();
        let pod = sim.api().pod("web-rev1-00001").unwrap().clone();
        assert_eq!(pod.restart_count, 1);
        assert!(
            !pod.is_ready(),
            "a restarted container is not ready: {pod:?}"
        );
        sim.push_action(ActionKind::Scale {
            name: None,
            replicas: 2,
        });
        let reasons = deletion_reasons(&mut sim);
        assert_eq!(reasons[0].pod.name, "web-rev1-00001");
        assert_eq!(
            reasons[0].criterion,
            crate::replicaset::ranking::Criterion::Readiness
        );
        let mut sim = Simulation::new(scenario(""));
        run_to_round(&mut sim, 3);
        sim.push_action(ActionKind::RestartPod {
            pod: "web-rev1-00002".into(),
        });
        sim.run_round();
        sim.run_round();
        assert!(sim.api().pod("web-rev1-00002").unwrap().is_ready());
    }

    #[test]
    fn start_up_jitter_is_deterministic_and_bounded() {
        let model = KubeletModel {
            seconds_per_round: 5,
            ready_after_rounds: 1,
            termination_rounds: 0,
            never_ready_images: vec![],
            nodes: 1,
            ready_jitter_rounds: 3,
            seed: 42,
            probes: None,
            failures: None,
            template_probes: Vec::new(),
            scheduling: None,
        };
        let delays: Vec<u32> = (1..=40)
            .map(|i| model.ready_after(&format!("web-rev1-{i:05}")))
            .collect();
        assert!(delays.iter().all(|d| (1..=4).contains(d)));
        assert!(
            delays
                .iter()
                .collect::<std::collections::BTreeSet<_>>()
                .len()
                > 1
        );
        let again: Vec<u32> = (1..=40)
            .map(|i| model.ready_after(&format!("web-rev1-{i:05}")))
            .collect();
        assert_eq!(delays, again);
    }

    fn settled(spr: i64, ready_after: u32, rounds: u32, image_round: u32) -> Scenario {
        Scenario::from_json(&format!(
            r#"{{"name":"t","rounds":{rounds},"secondsPerRound":{spr},"readyAfterRounds":{ready_after},
                "terminationRounds":0,"nodes":1,"settle":true,"actions":[
                {{"round":0,"type":"create","deployment":{{"name":"web","replicas":10,"image":"a",
                  "strategy":{{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}}}}},
                {{"round":{image_round},"type":"setImage","image":"b"}}]}}"#
        ))
        .unwrap()
    }

    #[test]
    fn settled_durations_do_not_depend_on_the_round_size() {
        // Pods ready 30 s after creation; the image changes at t = 600 s. Lock-step charges a
        // round per hop (331, 362, 455, 610 s); settled rounds take the real cluster's 300 s.
        for (spr, lock_step) in [(1, 331), (2, 362), (5, 455), (10, 610)] {
            let ready_after = (30 / spr) as u32;
            let start = (600 / spr) as u32;
            let rounds = start + 700 / spr as u32;
            let mut s = settled(spr, ready_after, rounds, start);
            assert_eq!(
                rollout_duration(s.clone(), start),
                Some(300),
                "{spr} s rounds"
            );
            s.settle = false;
            assert_eq!(
                rollout_duration(s, start),
                Some(lock_step),
                "{spr} s rounds"
            );
        }
    }

    /// Seconds from the start of round `start` to the end of the first later round after which
    /// `kubectl rollout status` reports success.
    fn rollout_duration(s: Scenario, start: u32) -> Option<i64> {
        let spr = s.seconds_per_round;
        let mut sim = Simulation::new(s).without_history();
        run_to_round(&mut sim, start);
        while !sim.finished() {
            sim.run_round();
            let d = sim.api().deployment("web").unwrap();
            if crate::kubectl::rollout_status::rollout_status_of(d, 0).done {
                return Some(i64::from(sim.round() - 1 - start) * spr);
            }
        }
        None
    }

    #[test]
    fn a_settled_round_runs_passes_until_nothing_changes() {
        // Ready at once: the whole rollout of round 0 happens in round 0.
        let mut sim = Simulation::new(settled(5, 0, 3, 2));
        let mut passes = Vec::new();
        while sim.round() == 0 {
            let step = sim.step().unwrap();
            passes.push((step.pass, step.kind.actor()));
        }
        let round0 = sim.trace_rounds().next().unwrap().clone();
        let last = round0.passes.unwrap();
        assert!(last > 1);
        assert_eq!(passes.last(), Some(&(last, "kubelet")));
        assert!(passes.windows(2).all(|w| w[0].0 <= w[1].0));
        assert_eq!(round0.deployments[0].available_replicas, 10);
        assert_eq!(round0.deployments[0].peak_pods, Some(10));
        assert!(round0.events.iter().all(|e| e.pass.is_some()));
        // Stepping back crosses passes and rounds.
        let taken = sim.steps_taken();
        for _ in 0..taken {
            assert!(sim.step_back());
        }
        assert_eq!((sim.round(), sim.pass(), sim.steps_taken()), (0, 1, 0));
        assert_eq!(sim.api().content_version(), 0);
    }

    #[test]
    fn a_round_still_changing_after_50_passes_ends_with_the_error() {
        // 25,600 replicas: the ReplicaSet controller creates at most burstReplicas = 500 pods
        // a sync, so filling the ReplicaSet takes 52 passes; round 0 stops after 50 with the
        // error, and round 1 finishes the job.
        let mut s = settled(5, 1, 2, 1);
        s.actions.truncate(1);
        if let ActionKind::Create { deployment } = &mut s.actions[0].kind {
            deployment.replicas = Some(25_600);
        }
        let mut sim = Simulation::new(s).without_history();
        sim.run();
        let rounds: Vec<_> = sim.trace_rounds().cloned().collect();
        assert_eq!(rounds[0].passes, Some(MAX_PASSES));
        assert_eq!(rounds[0].errors, vec![NOT_SETTLED.to_string()]);
        assert_eq!(rounds[0].replica_sets[0].pods.active, 500 * 50);
        assert!(rounds[1].errors.is_empty());
        assert_eq!(rounds[1].replica_sets[0].pods.active, 25_600);
    }

    #[test]
    fn lock_step_traces_have_no_settled_fields() {
        let mut sim = Simulation::new(scenario("")).without_history();
        sim.run();
        let json = serde_json::to_string(&sim.trace()).unwrap();
        assert!(
            !json.contains("passes") && !json.contains("peakPods") && !json.contains("\"pass\"")
        );
        assert!(!json.contains("settle"));
    }

    /// Every round run, none skipped.
    fn run_every_round(s: Scenario) -> Simulation {
        let mut sim = Simulation::new(s).without_history();
        while !sim.finished() {
            sim.run_round();
        }
        sim
    }

    #[test]
    fn idle_rounds_are_skipped_with_the_same_trace() {
        // A rollout that is over by round 10, a scale at round 1500 and a minReadySeconds of
        // 12 s: 2,000 rounds of which only a few dozen have anything to do.
        for settle in [false, true] {
            let mut s = scenario(
                r#",{"round":6,"type":"setImage","image":"b"},
                   {"round":1500,"type":"scale","replicas":5},
                   {"round":1600,"type":"setMinReadySeconds","value":12}"#,
            );
            s.rounds = 2000;
            s.settle = settle;
            s.termination_rounds = 2;
            let every = run_every_round(s.clone());
            let mut skipping = Simulation::new(s).without_history();
            skipping.run();
            assert_eq!(
                serde_json::to_value(skipping.trace()).unwrap(),
                serde_json::to_value(every.trace()).unwrap()
            );
            // Lock-step: 4 steps a round (actions, Deployment, ReplicaSet, kubelet).
            assert!(every.steps_taken() > 2000 * 3, "{}", every.steps_taken());
            assert!(
                skipping.steps_taken() < 200,
                "settle {settle}: {} steps run",
                skipping.steps_taken()
            );
        }
    }

    #[test]
    fn next_due_round_names_each_kind_of_moment() {
        // Pods ready 2 rounds after creation (5 s rounds), minReadySeconds 12.
        let mut s = scenario(r#",{"round":40,"type":"scale","replicas":1}"#);
        s.ready_after_rounds = 2;
        s.rounds = 60;
        s.termination_rounds = 3;
        if let ActionKind::Create { deployment } = &mut s.actions[0].kind {
            deployment.min_ready_seconds = Some(12);
        }
        let mut sim = Simulation::new(s).without_history();
        assert_eq!(sim.next_due_round(), Some(0), "the create action");
        sim.run_round();
        // Created at 0 s: ready in round 2 (10 s).
        assert_eq!(sim.next_due_round(), Some(2));
        run_to_round(&mut sim, 3);
        // Ready at 10 s: available when now > 22 s, round 5 (25 s).
        assert_eq!(sim.next_due_round(), Some(5));
        run_to_round(&mut sim, 8);
        // Nothing until the scale action of round 40 (the rollout is complete).
        assert!(sim.last_round_idle());
        assert_eq!(sim.next_due_round(), Some(40));
        run_to_round(&mut sim, 41);
        // Two pods deleted at 200 s, gone 3 rounds later: round 43.
        assert_eq!(sim.next_due_round(), Some(43));
        run_to_round(&mut sim, 45);
        assert_eq!(sim.next_due_round(), None);
    }

    #[test]
    fn a_progress_deadline_is_due_strictly_after_it_passes() {
        let mut s = scenario(
            r#",{"round":2,"type":"setImage","image":"bad"},
               {"round":2,"type":"setProgressDeadlineSeconds","value":30}"#,
        );
        s.never_ready_images = vec!["bad".into()];
        s.rounds = 20;
        let mut sim = Simulation::new(s).without_history();
        run_to_round(&mut sim, 6);
        let reason = |sim: &Simulation| {
            let d = sim.api().deployment("web").unwrap();
            let c = d
                .status
                .conditions
                .iter()
                .find(|c| c.type_ == "Progressing");
            c.map(|c| (c.reason.clone(), c.last_update_time)).unwrap()
        };
        let (why, updated) = reason(&sim);
        assert_eq!(why, "ReplicaSetUpdated");
        // Timed out once now > updated + 30 s: with 5 s rounds the first round after it.
        let due = sim.next_due_round().unwrap();
        assert_eq!(i64::from(due), (updated + 30) / 5 + 1);
        run_to_round(&mut sim, due);
        assert_eq!(
            reason(&sim).0,
            "ReplicaSetUpdated",
            "not at {} s",
            (due - 1) * 5
        );
        sim.run_round();
        assert_eq!(reason(&sim).0, "ProgressDeadlineExceeded");
        assert_eq!(sim.next_due_round(), None);
    }

    #[test]
    fn pod_actions_on_missing_pods_are_reported() {
        let mut sim = Simulation::new(scenario(""));
        run_to_round(&mut sim, 1);
        sim.push_action(ActionKind::RestartPod { pod: "nope".into() });
        sim.run_round();
        let errors = sim.trace_rounds().last().unwrap().errors.clone();
        assert_eq!(
            errors,
            vec!["restartPod nope: pods \"nope\" not found".to_string()]
        );
    }
}

//! Everything the page shows, computed once per simulation version.

use super::*;

/// One row of the events table (`kubectl describe`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// Normal or Warning.
    pub type_: String,
    /// Reason.
    pub reason: String,
    /// AGE.
    pub age: String,
    /// FROM.
    pub from: &'static str,
    /// Message.
    pub message: String,
    /// `Deployment/web`, `ReplicaSet/web-rev1`.
    pub object: String,
    /// The round it was recorded in.
    pub round: u32,
}

/// One pending action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingRow {
    /// Index in the scenario's actions (for cancelling).
    pub index: usize,
    /// The round it takes effect in.
    pub round: u32,
    /// The scenario's type name.
    pub type_name: &'static str,
    /// As a kubectl command.
    pub command: String,
}

/// Everything the page shows, computed once per simulation version.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The cluster now (its ReplicaSets are in [`Frame::replica_sets`]).
    pub cluster: ClusterView,
    /// The ReplicaSets in creation order, shared with the cards (no deep copies of pods).
    pub replica_sets: Rc<Vec<Rc<ReplicaSetView>>>,
    /// The rolling-update budget of the first Deployment (the stage's gauges).
    pub budget: Option<rollout_facade::view::BudgetView>,
    /// `kubectl get pods` as the core's printer prints it (`kubectl::get_pods_of`), while
    /// there are at most [`GET_PODS_UP_TO`] pods; otherwise how many there are.
    pub get_pods: Result<String, usize>,
    /// The pod-count chart of the Deployment.
    pub chart: Vec<ChartPoint>,
    /// Pods the last step removed.
    pub departed: Vec<DepartedPod>,
    /// The last step, explained.
    pub explanation: Option<Explanation>,
    /// Events about the Deployment (oldest first, the newest [`EVENT_ROWS`]).
    pub deployment_events: Vec<EventRow>,
    /// Events about everything (oldest first, the newest [`EVENT_ROWS`]).
    pub all_events: Vec<EventRow>,
    /// Events recorded in total.
    pub event_count: usize,
    /// `kubectl rollout history`.
    pub history: Vec<HistoryEntry>,
    /// Actions that have not been applied yet.
    pub pending: Vec<PendingRow>,
    /// Rounds with actions (for the timeline).
    pub action_rounds: Vec<u32>,
    /// The round of the next step.
    pub round: u32,
    /// The clock.
    pub time: Time,
    /// Nothing of this round has run yet.
    pub at_round_start: bool,
    /// Every round has run.
    pub finished: bool,
    /// There is a step to go back to.
    pub can_back: bool,
    /// Steps taken.
    pub steps: usize,
    /// The scenario's rounds.
    pub horizon: u32,
    /// The Deployment's name.
    pub deployment: String,
    /// Why nothing more will happen (`None`: a step would still change something).
    pub settled: Option<Settled>,
    /// What the last step to a change said beyond the sync that made it (`None` after a round,
    /// a run or a restored link).
    pub step_note: Option<StepNote>,
    /// The Service's requests at the clock, when the scenario models them (`model.traffic`);
    /// `Err`: the core refused to run them.
    pub traffic: Option<Result<Rc<super::traffic::TrafficFrame>, String>>,
}

/// Up to this many pods the status panel prints `kubectl get pods` (beyond, a count).
pub const GET_PODS_UP_TO: usize = 40;

impl Frame {
    /// The frame of a lab now.
    pub fn of(lab: &Lab) -> Frame {
        let (settled, step_note) = {
            let session = lab.session();
            (session.settled(), session.last_result().map(StepNote::of))
        };
        let sim = lab.sim();
        let deployment = lab.deployment();
        let now = sim.now();
        let row = |e: &rollout_facade::sim::LoggedEvent| EventRow {
            type_: e.event.type_.to_string(),
            reason: e.event.reason.to_string(),
            age: age(now - e.event.time),
            from: event_source(e.phase),
            message: e.event.message.clone(),
            object: format!("{}/{}", e.event.kind, e.event.name),
            round: e.round,
        };
        let mut deployment_events: Vec<EventRow> = sim
            .events()
            .rev()
            .filter(|e| e.event.kind == "Deployment" && e.event.name == deployment)
            .take(EVENT_ROWS)
            .map(|e| row(e))
            .collect();
        deployment_events.reverse();
        let mut all_events: Vec<EventRow> = sim
            .events()
            .rev()
            .take(EVENT_ROWS)
            .map(|e| row(e))
            .collect();
        all_events.reverse();
        let from = sim.next_action_round();
        let scenario = sim.scenario();
        let pending = scenario
            .actions
            .iter()
            .enumerate()
            .filter(|(_, a)| a.round >= from)
            .map(|(index, a)| PendingRow {
                index,
                round: a.round,
                type_name: a.kind.type_name(),
                command: kubectl_command(&a.kind, &deployment),
            })
            .collect();
        let mut action_rounds: Vec<u32> = scenario.actions.iter().map(|a| a.round).collect();
        action_rounds.dedup();
        let mut cluster = cluster_view(&sim);
        let replica_sets: Rc<Vec<Rc<ReplicaSetView>>> = Rc::new(
            std::mem::take(&mut cluster.replica_sets)
                .into_iter()
                .map(Rc::new)
                .collect(),
        );
        let budget = cluster.deployments.first().map(|d| {
            rollout_facade::view::budget_view(
                d,
                replica_sets.iter().map(|rs: &Rc<ReplicaSetView>| &**rs),
            )
        });
        let pod_count = sim.api().pods().count();
        let get_pods = if pod_count <= GET_PODS_UP_TO {
            Ok(rollout_facade::kubectl::get_pods_of(&sim))
        } else {
            Err(pod_count)
        };
        Frame {
            budget,
            get_pods,
            cluster,
            replica_sets,
            chart: chart_series(&sim, &deployment),
            departed: departed_pods(&sim),
            explanation: sim.last_step().map(|r| explain(r, &deployment)),
            deployment_events,
            all_events,
            event_count: sim.events().count(),
            history: rollout_history(sim.api(), &deployment),
            pending,
            action_rounds,
            round: sim.round(),
            time: now,
            at_round_start: sim.at_round_start(),
            finished: sim.finished(),
            can_back: sim.can_step_back(),
            steps: sim.steps_taken(),
            horizon: scenario.rounds,
            traffic: super::traffic::traffic_frame(
                scenario,
                &deployment,
                rollout_facade::lessons::moment::clock_second(&sim),
            ),
            deployment,
            settled,
            step_note,
        }
    }
}

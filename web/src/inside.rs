//! "Inside the controllers" for the app's current step: the selected object as
//! `kubectl get -o yaml` prints it (with what the step changed), the decision flow of the
//! step's sync, and each ReplicaSet's last `manageReplicas` (slow start, deletion ranking,
//! expectations). [`InsideFrame`] is computed from the app's own simulation (the one in the
//! reducer) at its step; `components/inside_panel.rs` draws it in the app's section
//! (`components/inside_section.rs`) and sends its requests back as [`Request`]s.

use rollout_facade::api::Time;
use rollout_facade::flow::{flow_of, Flow};
use rollout_facade::report::ManageReport;
use rollout_facade::scenario::ActionKind;
use rollout_facade::sim::{Simulation, StepKind, StepRecord};
use rollout_facade::yaml::{self, ChangedLine, YamlLine};
use std::collections::HashMap;
use std::rc::Rc;

/// How many pods the object picker lists (a grid click selects any pod).
const PICKER_PODS: usize = 200;
/// How far back (in steps) the panel looks for a ReplicaSet's last sync or the last flow.
const LOOK_BACK: usize = 5_000;

/// What the panel asks the app to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Inspect another object (`deployment/web`, `replicaset/…`, `pod/…`).
    Select(String),
    /// Queue an action on a pod (`setPodDeletionCost` or `restartPod`) for the next round.
    Act(ActionKind),
}

/// A pod the user can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodFacts {
    /// Its name.
    pub name: String,
    /// `controller.kubernetes.io/pod-deletion-cost` (0 when absent).
    pub deletion_cost: i32,
    /// Whether the annotation is set.
    pub annotated: bool,
    /// `restartCount`.
    pub restarts: i32,
    /// Why its container waits, as `kubectl get pods` says it (`ErrImagePull`,
    /// `ImagePullBackOff`), when it does.
    pub reason: Option<&'static str>,
    /// The scheduler's `FailedScheduling` text when it placed the pod nowhere.
    pub unschedulable: Option<String>,
    /// `kubectl describe pod NAME` as the core prints it from the pod's status and the events
    /// recorded about it (`kubectl::describe_pod_of`): State, Last State, Restart Count,
    /// Events.
    pub describe: String,
}

/// One ReplicaSet's last `manageReplicas`.
#[derive(Clone, Debug, PartialEq)]
pub struct LastSync {
    /// The ReplicaSet.
    pub name: String,
    /// What that sync did; `None` when it has not synced yet.
    pub report: Option<Rc<ManageReport>>,
    /// When (the step's time).
    pub time: Time,
    /// The step's index (0-based); meaningful with a report.
    pub step: usize,
    /// Whether it is the current step.
    pub now: bool,
}

/// Everything the panel shows, computed from the session at its step.
#[derive(Clone, Debug, PartialEq)]
pub struct InsideFrame {
    /// The steps taken.
    pub steps: usize,
    /// What is inspected (`kind/name`).
    pub selected: String,
    /// The objects to choose from: (`kind/name`, label).
    pub objects: Vec<(String, String)>,
    /// The selected object's YAML (empty when it does not exist at this step).
    pub lines: Rc<Vec<YamlLine>>,
    /// The lines this step changed.
    pub changed: Rc<Vec<ChangedLine>>,
    /// Why there is no YAML.
    pub missing: Option<String>,
    /// The selected pod, if a pod is selected and exists.
    pub pod: Option<PodFacts>,
    /// The flow of the latest sync (this step's when it was one) and a caption saying which.
    pub flow: Option<(Rc<Flow>, String)>,
    /// Each ReplicaSet's last sync, newest ReplicaSet first.
    pub syncs: Vec<LastSync>,
}

/// `syncDeployment web` or `syncReplicaSet web-6b7c8d` of a step (None for the rest).
fn sync_name(kind: &StepKind) -> Option<String> {
    match kind {
        StepKind::SyncDeployment { name } => Some(format!("syncDeployment {name}")),
        StepKind::SyncReplicaSet { name } => Some(format!("syncReplicaSet {name}")),
        _ => None,
    }
}

fn step_caption(step: &StepRecord, current: bool) -> String {
    let what = sync_name(&step.kind).unwrap_or_default();
    if current {
        format!(
            "This step ({}, round {}): {what}",
            step.index + 1,
            step.round
        )
    } else {
        format!(
            "This step synced nothing; the last sync was step {} (round {}): {what}",
            step.index + 1,
            step.round
        )
    }
}

/// The selected pod's own facts (`None` unless a pod is selected and exists).
fn pod_facts(sim: &Simulation, selected: &str) -> Option<PodFacts> {
    selected
        .strip_prefix("pod/")
        .and_then(|n| sim.api().pod(n))
        .map(|p| PodFacts {
            name: p.metadata.name.clone(),
            deletion_cost: p.deletion_cost(),
            annotated: p
                .metadata
                .annotations
                .contains_key(rollout_facade::api::POD_DELETION_COST_ANNOTATION),
            restarts: p.restart_count,
            unschedulable: p.unschedulable_message().map(str::to_string),
            describe: rollout_facade::kubectl::describe_pod_of(sim, &p.metadata.name)
                .unwrap_or_default(),
            reason: rollout_facade::view::waiting_reason(
                p,
                &sim.scenario().never_ready_images,
                sim.scenario().seconds_per_round,
                sim.now(),
            ),
        })
}

impl InsideFrame {
    /// The panel for `selected` (`kind/name`; anything else inspects the first Deployment).
    pub fn of(sim: &Simulation, selected: &str) -> InsideFrame {
        let api = sim.api();
        let deployment = api.deployments().next().map(|d| d.metadata.name.clone());
        let selected = if selected.split_once('/').is_some() {
            selected.to_string()
        } else {
            format!("deployment/{}", deployment.as_deref().unwrap_or("web"))
        };

        let mut objects: Vec<(String, String)> = api
            .deployments()
            .map(|d| {
                let n = &d.metadata.name;
                (format!("deployment/{n}"), format!("Deployment {n}"))
            })
            .collect();
        let mut replica_sets: Vec<_> = api.replica_sets().collect();
        rollout_facade::order::sort_by_key(&mut replica_sets, |rs| {
            std::cmp::Reverse(rs.metadata.creation_timestamp)
        });
        for rs in &replica_sets {
            let n = &rs.metadata.name;
            let revision = rs
                .metadata
                .annotations
                .get(rollout_facade::api::REVISION_ANNOTATION)
                .map(|r| format!(", revision {r}"))
                .unwrap_or_default();
            objects.push((
                format!("replicaset/{n}"),
                format!("ReplicaSet {n}{revision}"),
            ));
        }
        for p in api.pods().take(PICKER_PODS) {
            let n = &p.metadata.name;
            objects.push((format!("pod/{n}"), format!("Pod {n}")));
        }
        if !objects.iter().any(|(r, _)| *r == selected) {
            objects.push((selected.clone(), selected.clone()));
        }

        let now_lines = yaml::object_lines(api, &selected);
        let before_lines = sim
            .previous_api()
            .and_then(|a| yaml::object_lines(a, &selected));
        let (lines, changed, missing) = match (now_lines, before_lines) {
            (Some(now), before) => {
                // An object the step created: every line is new.
                let changed = yaml::changed_lines(before.as_deref().unwrap_or(&[]), &now);
                (now, changed, None)
            }
            // Gone in this step: shown as it was just before.
            (None, Some(before)) => (
                before,
                Vec::new(),
                Some(format!(
                    "{selected} was deleted in this step; this is how it looked just before."
                )),
            ),
            (None, None) => (
                Vec::new(),
                Vec::new(),
                Some(format!("{selected} does not exist at this step.")),
            ),
        };
        let pod = pod_facts(sim, &selected);

        // One walk back through the steps finds the latest flow and each ReplicaSet's last
        // sync.
        let current = sim.steps_taken().checked_sub(1);
        let mut flow = None;
        let mut last: HashMap<&str, &StepRecord> = HashMap::new();
        for step in sim.past_steps().take(LOOK_BACK) {
            if flow.is_none() {
                if let Some(f) = flow_of(step) {
                    flow = Some((Rc::new(f), step_caption(step, Some(step.index) == current)));
                }
            }
            if let StepKind::SyncReplicaSet { name } = &step.kind {
                last.entry(name.as_str()).or_insert(step);
            }
            if flow.is_some()
                && replica_sets
                    .iter()
                    .all(|rs| last.contains_key(rs.metadata.name.as_str()))
            {
                break;
            }
        }
        let syncs = replica_sets
            .iter()
            .map(|rs| {
                let name = rs.metadata.name.clone();
                match last.get(name.as_str()) {
                    Some(step) => LastSync {
                        report: step.manage.clone().map(Rc::new),
                        time: step.time,
                        step: step.index,
                        now: Some(step.index) == current,
                        name,
                    },
                    None => LastSync {
                        name,
                        report: None,
                        time: sim.now(),
                        step: 0,
                        now: false,
                    },
                }
            })
            .collect();

        InsideFrame {
            steps: sim.steps_taken(),
            selected,
            objects,
            lines: Rc::new(lines),
            changed: Rc::new(changed),
            missing,
            pod,
            flow,
            syncs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rollout_facade::presets::preset;

    #[test]
    fn the_frame_shows_the_selection_the_latest_flow_and_each_replica_sets_last_sync() {
        let mut sim = Simulation::new(preset("rolling-basic").unwrap().scenario);
        // Round 0: actions, syncDeployment, syncReplicaSet (creates the pods), kubelet.
        let mut names = Vec::new();
        while let Some(step) = sim.step() {
            if let StepKind::SyncReplicaSet { name } = &step.kind {
                names.push(name.clone());
                break;
            }
        }
        let rs = names.pop().expect("a ReplicaSet sync");
        let frame = InsideFrame::of(&sim, "nonsense");
        assert_eq!(frame.selected, "deployment/web");
        assert!(frame.missing.is_none());
        assert!(yaml::text(&frame.lines).starts_with("apiVersion: apps/v1"));
        let (flow, caption) = frame.flow.clone().expect("a flow");
        assert_eq!(flow.title, "syncReplicaSet");
        assert!(caption.starts_with("This step"), "{caption}");
        assert_eq!(frame.syncs.len(), 1);
        assert!(frame.syncs[0].now);
        assert!(frame.syncs[0].report.as_ref().unwrap().diff > 0);
        assert!(frame
            .objects
            .iter()
            .any(|(r, _)| *r == format!("replicaset/{rs}")));

        // The next step (the kubelet) syncs nothing: the flow is the last sync's.
        sim.step();
        let frame = InsideFrame::of(&sim, &format!("replicaset/{rs}"));
        let (_, caption) = frame.flow.clone().unwrap();
        assert!(caption.contains("last sync"), "{caption}");
        assert!(!frame.syncs[0].now);
        assert!(frame.missing.is_none());

        let pod = sim.api().pods().next().unwrap().metadata.name.clone();
        let frame = InsideFrame::of(&sim, &format!("pod/{pod}"));
        assert_eq!(frame.pod.as_ref().unwrap().name, pod);
        let frame = InsideFrame::of(&sim, "pod/nope");
        assert_eq!(
            frame.missing.as_deref(),
            Some("pod/nope does not exist at this step.")
        );
        assert!(frame.objects.iter().any(|(r, _)| r == "pod/nope"));
    }
}

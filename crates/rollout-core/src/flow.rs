//! The decision flow of `syncDeployment` and `syncReplicaSet` as a diagram: fixed nodes and
//! edges laid out on a grid, with the path a step took and the live values of each branch.
//! A front end draws it; the text equivalent is [`Flow::describe`].

use crate::record::Branch;
use crate::sim::{StepKind, StepRecord};
use serde::{Deserialize, Serialize};

/// A box (an action) or a diamond (a question).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum NodeKind {
    /// Does something.
    Step,
    /// Asks a question; its outgoing edges are labelled yes / no.
    Decision,
}

/// One node of the diagram.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlowNode {
    /// Stable id (`paused`, `scale-up-new`, …).
    pub id: &'static str,
    /// What the box says.
    pub label: &'static str,
    /// The Kubernetes function it stands for.
    pub function: &'static str,
    /// Box or diamond.
    pub kind: NodeKind,
    /// Grid row (top to bottom).
    pub row: u8,
    /// Grid column (0 = main path).
    pub col: u8,
    /// On the path this step took.
    pub active: bool,
    /// For a decision on the path: the answer.
    pub answer: Option<bool>,
    /// The condition with its live values, or what the step did.
    pub detail: Option<String>,
}

/// One arrow.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlowEdge {
    /// From node id.
    pub from: &'static str,
    /// To node id.
    pub to: &'static str,
    /// `yes`, `no` or empty.
    pub label: &'static str,
    /// Taken in this step.
    pub active: bool,
}

/// A whole diagram.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Flow {
    /// `syncDeployment` or `syncReplicaSet`.
    pub title: &'static str,
    /// Nodes.
    pub nodes: Vec<FlowNode>,
    /// Edges.
    pub edges: Vec<FlowEdge>,
}

type NodeSpec = (&'static str, &'static str, &'static str, NodeKind, u8, u8);
/// (from, to, label, when): `when` says from the step's branches whether this way was taken
/// (for arrows out of a step box that continue in more than one place).
type EdgeSpec = (
    &'static str,
    &'static str,
    &'static str,
    fn(&[Branch]) -> bool,
);

fn always(_: &[Branch]) -> bool {
    true
}

fn answered(branches: &[Branch], id: &str) -> Option<bool> {
    branches.iter().find(|b| b.id == id).map(|b| b.taken)
}

use NodeKind::{Decision, Step};

const DEPLOYMENT_NODES: &[NodeSpec] = &[
    (
        "list-replicasets",
        "List ReplicaSets",
        "getReplicaSetsForDeployment",
        Step,
        0,
        0,
    ),
    (
        "list-pods",
        "List pods",
        "getPodMapForDeployment",
        Step,
        1,
        0,
    ),
    (
        "deleting",
        "Being deleted?",
        "syncDeployment",
        Decision,
        2,
        0,
    ),
    ("paused", "Paused?", "syncDeployment", Decision, 3, 0),
    (
        "rollback",
        "Rollback requested?",
        "getRollbackTo",
        Decision,
        4,
        0,
    ),
    (
        "scaling-event",
        "Scaling event?",
        "isScalingEvent",
        Decision,
        5,
        0,
    ),
    (
        "recreate",
        "Strategy Recreate?",
        "syncDeployment",
        Decision,
        6,
        0,
    ),
    (
        "scale-up-new",
        "Scale up new RS",
        "reconcileNewReplicaSet",
        Step,
        7,
        0,
    ),
    (
        "scale-down-old",
        "Scale down old RSs",
        "reconcileOldReplicaSets",
        Step,
        8,
        0,
    ),
    (
        "cleanup",
        "Clean up history",
        "cleanupDeployment",
        Step,
        9,
        0,
    ),
    (
        "sync-rollout-status",
        "Sync rollout status",
        "syncRolloutStatus",
        Step,
        10,
        0,
    ),
    (
        "sync-status-only",
        "Sync status only",
        "syncStatusOnly",
        Step,
        2,
        1,
    ),
    ("scale", "Scale (proportionally)", "scale", Step, 4, 1),
    (
        "sync-status",
        "Sync status",
        "syncDeploymentStatus",
        Step,
        5,
        1,
    ),
    ("do-rollback", "Roll back template", "rollback", Step, 4, 2),
    (
        "recreate-scale-down",
        "Scale old RSs to 0",
        "scaleDownOldReplicaSetsForRecreate",
        Step,
        7,
        1,
    ),
    (
        "wait-old-pods",
        "Old pods running?",
        "oldPodsRunning",
        Decision,
        8,
        1,
    ),
    (
        "recreate-scale-up",
        "Scale up new RS",
        "scaleUpNewReplicaSetForRecreate",
        Step,
        9,
        1,
    ),
];

const DEPLOYMENT_EDGES: &[EdgeSpec] = &[
    ("list-replicasets", "list-pods", "", always),
    ("list-pods", "deleting", "", always),
    ("deleting", "sync-status-only", "yes", always),
    ("deleting", "paused", "no", always),
    ("paused", "scale", "yes", always),
    ("paused", "rollback", "no", always),
    ("rollback", "do-rollback", "yes", always),
    ("rollback", "scaling-event", "no", always),
    ("scaling-event", "scale", "yes", always),
    ("scaling-event", "recreate", "no", always),
    ("scale", "sync-status", "", always),
    ("recreate", "scale-up-new", "no", always),
    ("recreate", "recreate-scale-down", "yes", always),
    ("scale-up-new", "scale-down-old", "", |b| {
        answered(b, "scaled-up") == Some(false)
    }),
    ("scale-up-new", "sync-rollout-status", "scaled", |b| {
        answered(b, "scaled-up") == Some(true)
    }),
    ("scale-down-old", "cleanup", "complete", |b| {
        answered(b, "scaled-down") == Some(false) && answered(b, "complete") == Some(true)
    }),
    ("scale-down-old", "sync-rollout-status", "", |b| {
        answered(b, "scaled-down") == Some(true) || answered(b, "complete") == Some(false)
    }),
    ("cleanup", "sync-rollout-status", "", always),
    ("recreate-scale-down", "wait-old-pods", "", |b| {
        answered(b, "scaled-down") == Some(false)
    }),
    (
        "recreate-scale-down",
        "sync-rollout-status",
        "scaled",
        |b| answered(b, "scaled-down") == Some(true),
    ),
    ("wait-old-pods", "recreate-scale-up", "no", always),
    ("wait-old-pods", "sync-rollout-status", "yes", always),
    ("recreate-scale-up", "sync-rollout-status", "", always),
];

const REPLICASET_NODES: &[NodeSpec] = &[
    (
        "get-replicaset",
        "Get ReplicaSet and its pods",
        "syncReplicaSet",
        Step,
        0,
        0,
    ),
    (
        "expectations",
        "Expectations satisfied?",
        "SatisfiedExpectations",
        Decision,
        1,
        0,
    ),
    (
        "too-few",
        "Fewer pods than replicas?",
        "manageReplicas",
        Decision,
        2,
        0,
    ),
    (
        "create",
        "Create pods in slow-start batches",
        "slowStartBatch",
        Step,
        2,
        1,
    ),
    (
        "too-many",
        "More pods than replicas?",
        "manageReplicas",
        Decision,
        3,
        0,
    ),
    (
        "delete",
        "Delete the lowest-ranked pods",
        "getPodsToDelete",
        Step,
        3,
        1,
    ),
    (
        "calculate-status",
        "Calculate status",
        "calculateStatus",
        Step,
        4,
        0,
    ),
    (
        "update-status",
        "Update status",
        "updateReplicaSetStatus",
        Step,
        5,
        0,
    ),
];

const REPLICASET_EDGES: &[EdgeSpec] = &[
    ("get-replicaset", "expectations", "", always),
    ("expectations", "too-few", "yes", always),
    ("expectations", "calculate-status", "no", always),
    ("too-few", "create", "yes", always),
    ("too-few", "too-many", "no", always),
    ("too-many", "delete", "yes", always),
    ("too-many", "calculate-status", "no", always),
    ("create", "calculate-status", "", always),
    ("delete", "calculate-status", "", always),
    ("calculate-status", "update-status", "", always),
];

fn branch<'a>(branches: &'a [Branch], id: &str) -> Option<&'a Branch> {
    branches.iter().find(|b| b.id == id)
}

fn build(
    title: &'static str,
    nodes: &[NodeSpec],
    edges: &[EdgeSpec],
    step: &StepRecord,
    is_active: impl Fn(&str, &StepRecord) -> bool,
) -> Flow {
    let nodes: Vec<FlowNode> = nodes
        .iter()
        .map(|&(id, label, function, kind, row, col)| {
            let b = branch(&step.branches, id);
            let active = match kind {
                Decision => b.is_some(),
                Step => is_active(id, step),
            };
            let detail = match (kind, b) {
                (Decision, Some(b)) => Some(b.detail.clone()),
                _ => step
                    .decisions
                    .iter()
                    .find(|d| d.function == function)
                    .filter(|_| active)
                    .map(|d| d.text.clone()),
            };
            FlowNode {
                id,
                label,
                function,
                kind,
                row,
                col,
                active,
                answer: b.map(|b| b.taken),
                detail,
            }
        })
        .collect();
    let node = |id: &str| nodes.iter().find(|n| n.id == id);
    let edges = edges
        .iter()
        .map(|&(from, to, label, when)| {
            let (f, t) = (node(from), node(to));
            let active = f.is_some_and(|f| f.active)
                && t.is_some_and(|t| t.active)
                && when(&step.branches)
                && match (f.map(|f| f.answer), label) {
                    (Some(Some(answer)), "yes") => answer,
                    (Some(Some(answer)), "no") => !answer,
                    _ => true,
                };
            FlowEdge {
                from,
                to,
                label,
                active,
            }
        })
        .collect();
    Flow {
        title,
        nodes,
        edges,
    }
}

/// The diagram of the controller that ran in `step` (`None` for user actions and the
/// kubelet).
pub fn flow_of(step: &StepRecord) -> Option<Flow> {
    let has = |f: &str| step.path.iter().any(|p| p == f);
    match step.kind {
        StepKind::SyncDeployment { .. } => Some(build(
            "syncDeployment",
            DEPLOYMENT_NODES,
            DEPLOYMENT_EDGES,
            step,
            |id, _| match id {
                "list-replicasets" | "list-pods" => true,
                "sync-status-only" => has("syncStatusOnly"),
                "scale" => has("scale"),
                "sync-status" => has("syncDeploymentStatus"),
                "do-rollback" => has("rollback"),
                "scale-up-new" => has("reconcileNewReplicaSet"),
                "scale-down-old" => has("reconcileOldReplicaSets"),
                "cleanup" => {
                    has("cleanupDeployment") || answered(&step.branches, "complete") == Some(true)
                }
                "sync-rollout-status" => has("syncRolloutStatus"),
                "recreate-scale-down" => has("scaleDownOldReplicaSetsForRecreate"),
                "recreate-scale-up" => has("scaleUpNewReplicaSetForRecreate"),
                _ => false,
            },
        )),
        StepKind::SyncReplicaSet { .. } => Some(build(
            "syncReplicaSet",
            REPLICASET_NODES,
            REPLICASET_EDGES,
            step,
            |id, s| match id {
                "get-replicaset" | "calculate-status" | "update-status" => true,
                "create" => branch(&s.branches, "too-few").is_some_and(|b| b.taken),
                "delete" => branch(&s.branches, "too-many").is_some_and(|b| b.taken),
                _ => false,
            },
        )),
        _ => None,
    }
}

impl Flow {
    /// The path as text, for screen readers, in the order the step took it: `syncDeployment:
    /// List ReplicaSets → … → Paused? no (spec.paused is false) → …`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        let mut current = self.nodes.iter().find(|n| n.active);
        let mut seen = std::collections::HashSet::new();
        while let Some(n) = current {
            if !seen.insert(n.id) {
                break;
            }
            parts.push(match (n.kind, n.answer) {
                (NodeKind::Decision, Some(a)) => format!(
                    "{} {}{}",
                    n.label,
                    if a { "yes" } else { "no" },
                    n.detail
                        .as_ref()
                        .map(|d| format!(" ({d})"))
                        .unwrap_or_default()
                ),
                _ => n.label.to_string(),
            });
            current = self
                .edges
                .iter()
                .find(|e| e.active && e.from == n.id)
                .and_then(|e| self.nodes.iter().find(|m| m.id == e.to));
        }
        format!("{}: {}", self.title, parts.join(" → "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::preset;
    use crate::sim::Simulation;

    fn deployment_flows(preset_id: &str, round: u32) -> Vec<Flow> {
        let mut sim = Simulation::new(preset(preset_id).unwrap().scenario).without_history();
        while sim.round() < round {
            sim.run_round();
        }
        let mut flows = Vec::new();
        while sim.round() == round {
            if let Some(f) = sim.step().and_then(flow_of) {
                flows.push(f);
            }
        }
        flows
    }

    fn active(flow: &Flow) -> Vec<&'static str> {
        flow.nodes
            .iter()
            .filter(|n| n.active)
            .map(|n| n.id)
            .collect()
    }

    #[test]
    fn an_image_change_takes_the_rolling_path() {
        let flows = deployment_flows("rolling-basic", 10);
        let d = flows.iter().find(|f| f.title == "syncDeployment").unwrap();
        let path = active(d);
        assert!(path.contains(&"scale-up-new"), "{path:?}");
        assert!(!path.contains(&"scale"), "{path:?}");
        let scaling = d.nodes.iter().find(|n| n.id == "scaling-event").unwrap();
        assert_eq!(scaling.answer, Some(false));
        assert!(
            d.describe().contains("Scaling event? no"),
            "{}",
            d.describe()
        );
    }

    #[test]
    fn recreate_scaling_down_goes_straight_to_the_status() {
        let flows = deployment_flows("recreate", 10);
        let d = flows.iter().find(|f| f.title == "syncDeployment").unwrap();
        assert!(d
            .edges
            .iter()
            .any(|e| e.from == "recreate-scale-down" && e.to == "sync-rollout-status" && e.active));
        assert!(!active(d).contains(&"wait-old-pods"), "{:?}", active(d));
        assert!(
            d.describe()
                .ends_with("Scale old RSs to 0 → Sync rollout status"),
            "{}",
            d.describe()
        );
    }

    #[test]
    fn a_scale_takes_the_scaling_event_path_with_its_values() {
        let flows = deployment_flows("proportional-scaling", 20);
        let d = flows.iter().find(|f| f.title == "syncDeployment").unwrap();
        let scaling = d.nodes.iter().find(|n| n.id == "scaling-event").unwrap();
        assert_eq!(scaling.answer, Some(true));
        assert!(
            scaling
                .detail
                .as_deref()
                .unwrap()
                .contains("annotation 10 ≠ spec.replicas 15"),
            "{:?}",
            scaling.detail
        );
        assert!(active(d).contains(&"scale"));
        let text = d.describe();
        let (q, s) = (
            text.find("Scaling event? yes").unwrap(),
            text.find("Scale (proportionally)").unwrap(),
        );
        assert!(q < s, "the question comes before the answer's step: {text}");
        assert!(d
            .edges
            .iter()
            .any(|e| e.from == "scaling-event" && e.to == "scale" && e.active));
        let rs = flows.iter().find(|f| f.title == "syncReplicaSet").unwrap();
        assert!(active(rs).contains(&"create"));
    }
}

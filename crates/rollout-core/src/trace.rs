//! The conformance trace format of `../shared/conformance/README.md`: what the cluster looks
//! like after each round, with names normalised (`<deployment>-rev<N>`, `<replicaset>-pod`).

use crate::api::{ConditionStatus, Event, Text, REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION};
use crate::api::{DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION};
use crate::store::ApiServer;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A whole trace.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Trace {
    /// Where the trace came from.
    pub oracle: serde_json::Value,
    /// The scenario, as given.
    pub scenario: serde_json::Value,
    /// One entry per round.
    pub rounds: Vec<Arc<TraceRound>>,
}

/// One round of a trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceRound {
    /// Round number.
    pub round: u32,
    /// Seconds since the start.
    pub time: i64,
    /// The actions applied this round, as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<serde_json::Value>,
    /// Errors returned by syncs or by the API server for an action.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
    /// Settled rounds only: the passes run (at least 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passes: Option<u32>,
    /// Every event recorded this round, in order.
    pub events: Vec<TraceEvent>,
    /// Deployments, by name.
    pub deployments: Vec<TraceDeployment>,
    /// ReplicaSets, in creation order.
    pub replica_sets: Vec<TraceReplicaSet>,
}

/// An event as the trace lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceEvent {
    /// `deployment` or `replicaset`: the controller that recorded it.
    pub phase: Text,
    /// Normal or Warning.
    #[serde(rename = "type")]
    pub type_: Text,
    /// The reason.
    pub reason: Text,
    /// The message, pod names normalised.
    pub message: String,
    /// The involved object's kind.
    pub kind: Text,
    /// The involved object's name.
    pub name: String,
    /// Settled rounds only: the 1-based pass that recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass: Option<u32>,
}

impl TraceEvent {
    /// The trace form of an event recorded by `phase` (in `pass` of a settled round).
    pub fn of(phase: &'static str, e: &Event, pass: Option<u32>) -> TraceEvent {
        TraceEvent {
            pass,
            phase: phase.into(),
            type_: e.type_.clone(),
            reason: e.reason.clone(),
            message: normalise_pod_names(&e.message, e.pod.as_deref()),
            kind: e.kind.clone(),
            name: e.name.clone(),
        }
    }
}

/// Replaces a pod's name (`web-rev1-00003`) by `<replicaset>-pod` (`web-rev1-pod`).
pub fn normalise_pod_names(message: &str, pod: Option<&str>) -> String {
    match pod {
        Some(pod) if !pod.is_empty() => match pod.rsplit_once('-') {
            // Pod events end with the pod's name ("Created pod: web-rev1-00003").
            Some((rs, _)) => match message.strip_suffix(pod) {
                // Concatenated rather than formatted: one event per pod created or deleted
                // (10,000 in the 5,000-replica benchmark).
                // A head shorter than the name cannot hold it, so the substring search (which
                // first studies the name) is skipped for "Created pod: " and "Deleted pod: ".
                Some(head) if head.len() < pod.len() || !head.contains(pod) => {
                    [head, rs, "-pod"].concat()
                }
                _ => message.replace(pod, &[rs, "-pod"].concat()),
            },
            None => message.to_string(),
        },
        _ => message.to_string(),
    }
}

/// A condition as the trace lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceCondition {
    /// Type.
    #[serde(rename = "type")]
    pub type_: String,
    /// True / False / Unknown.
    pub status: String,
    /// Reason.
    pub reason: String,
    /// Message.
    pub message: String,
    /// Only for Deployment conditions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_update_time: Option<i64>,
    /// Last transition.
    pub last_transition_time: i64,
}

/// A Deployment in a trace round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceDeployment {
    /// Name.
    pub name: String,
    /// metadata.generation.
    pub generation: i64,
    /// The revision annotation.
    pub revision: String,
    /// spec.replicas.
    pub spec_replicas: i32,
    /// The template's image.
    pub image: String,
    /// spec.paused.
    pub paused: bool,
    /// status.observedGeneration.
    pub observed_generation: i64,
    /// status.replicas.
    pub replicas: i32,
    /// status.updatedReplicas.
    pub updated_replicas: i32,
    /// status.readyReplicas.
    pub ready_replicas: i32,
    /// status.availableReplicas.
    pub available_replicas: i32,
    /// status.unavailableReplicas.
    pub unavailable_replicas: i32,
    /// status.terminatingReplicas: only under 1.37 (an extra field the conformance format
    /// does not have; absent from 1.28 traces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminating_replicas: Option<i32>,
    /// status.collisionCount, only when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i32>,
    /// status.conditions in stored order.
    pub conditions: Vec<TraceCondition>,
    /// Settled rounds only: the most pods (active + terminating) its ReplicaSets had at any
    /// moment of the round (its start and after every ReplicaSet sync of every pass).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_pods: Option<i32>,
}

/// Pod counts of a ReplicaSet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct PodCounts {
    /// Pods without a deletionTimestamp.
    pub active: i32,
    /// Active pods that are ready.
    pub ready: i32,
    /// Pods with a deletionTimestamp.
    pub terminating: i32,
}

/// A ReplicaSet in a trace round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceReplicaSet {
    /// Name.
    pub name: String,
    /// The owning Deployment.
    pub deployment: String,
    /// The current revision annotation.
    pub revision: String,
    /// The revision-history annotation, only when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision_history: Option<String>,
    /// The template's image.
    pub image: String,
    /// creationTimestamp.
    pub created_at: i64,
    /// metadata.generation.
    pub generation: i64,
    /// spec.replicas.
    pub spec_replicas: i32,
    /// status.replicas.
    pub status_replicas: i32,
    /// status.fullyLabeledReplicas.
    pub fully_labeled_replicas: i32,
    /// status.readyReplicas.
    pub ready_replicas: i32,
    /// status.availableReplicas.
    pub available_replicas: i32,
    /// status.terminatingReplicas: only under 1.37 (an extra field the conformance format
    /// does not have; absent from 1.28 traces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminating_replicas: Option<i32>,
    /// status.observedGeneration.
    pub observed_generation: i64,
    /// desired-replicas annotation.
    pub desired_replicas_annotation: Option<String>,
    /// max-replicas annotation.
    pub max_replicas_annotation: Option<String>,
    /// status.conditions, only when there are any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<TraceCondition>,
    /// Pods it controls.
    pub pods: PodCounts,
}

fn status_str(s: ConditionStatus) -> String {
    s.as_str().to_string()
}

/// The Deployments and ReplicaSets of the cluster as a trace round lists them; `peak_pods`
/// gives each Deployment's `peakPods` (settled rounds; `None` for lock-step).
pub fn snapshot(
    api: &ApiServer,
    peak_pods: Option<&dyn Fn(&str) -> i32>,
) -> (Vec<TraceDeployment>, Vec<TraceReplicaSet>) {
    let deployments = api
        .deployments()
        .map(|d| TraceDeployment {
            peak_pods: peak_pods.map(|f| f(&d.metadata.name)),
            name: d.metadata.name.clone(),
            generation: d.metadata.generation,
            revision: d
                .metadata
                .annotations
                .get(REVISION_ANNOTATION)
                .cloned()
                .unwrap_or_default(),
            spec_replicas: d.spec.replicas,
            image: d.spec.template.image.clone(),
            paused: d.spec.paused,
            observed_generation: d.status.observed_generation,
            replicas: d.status.replicas,
            updated_replicas: d.status.updated_replicas,
            ready_replicas: d.status.ready_replicas,
            available_replicas: d.status.available_replicas,
            unavailable_replicas: d.status.unavailable_replicas,
            terminating_replicas: d.status.terminating_replicas,
            collision_count: d.status.collision_count,
            conditions: d
                .status
                .conditions
                .iter()
                .map(|c| TraceCondition {
                    type_: c.type_.clone(),
                    status: status_str(c.status),
                    reason: c.reason.clone(),
                    message: normalise_in_text(&c.message),
                    last_update_time: Some(c.last_update_time),
                    last_transition_time: c.last_transition_time,
                })
                .collect(),
        })
        .collect();

    let mut rss: Vec<_> = api.replica_sets().collect();
    crate::deployment::util::sort_replica_sets(
        &mut rss,
        crate::deployment::util::by_creation_timestamp,
    );
    let replica_sets = rss
        .into_iter()
        .map(|rs| {
            let ann = |k: &str| rs.metadata.annotations.get(k).cloned();
            TraceReplicaSet {
                name: rs.metadata.name.clone(),
                deployment: rs
                    .metadata
                    .owner
                    .as_ref()
                    .map(|o| o.name.clone())
                    .unwrap_or_default(),
                revision: ann(REVISION_ANNOTATION).unwrap_or_default(),
                revision_history: ann(REVISION_HISTORY_ANNOTATION),
                image: rs.spec.template.image.clone(),
                created_at: rs.metadata.creation_timestamp,
                generation: rs.metadata.generation,
                spec_replicas: rs.spec.replicas,
                status_replicas: rs.status.replicas,
                fully_labeled_replicas: rs.status.fully_labeled_replicas,
                ready_replicas: rs.status.ready_replicas,
                available_replicas: rs.status.available_replicas,
                terminating_replicas: rs.status.terminating_replicas,
                observed_generation: rs.status.observed_generation,
                desired_replicas_annotation: ann(DESIRED_REPLICAS_ANNOTATION),
                max_replicas_annotation: ann(MAX_REPLICAS_ANNOTATION),
                conditions: rs
                    .status
                    .conditions
                    .iter()
                    .map(|c| TraceCondition {
                        type_: c.type_.clone(),
                        status: status_str(c.status),
                        reason: c.reason.clone(),
                        message: normalise_in_text(&c.message),
                        last_update_time: None,
                        last_transition_time: c.last_transition_time,
                    })
                    .collect(),
                pods: api.pods_of_iter(rs).fold(PodCounts::default(), |mut c, p| {
                    if p.metadata.deletion_timestamp.is_some() {
                        c.terminating += 1;
                    } else {
                        c.active += 1;
                        c.ready += i32::from(p.is_ready());
                    }
                    c
                }),
            }
        })
        .collect();
    (deployments, replica_sets)
}

/// Normalises the pod name quoted in an API error (`pods "web-rev2-00004" is forbidden`).
pub fn normalise_in_text(text: &str) -> String {
    let Some(start) = text.find("pods \"") else {
        return text.to_string();
    };
    let rest = &text[start + 6..];
    match rest.find('"') {
        Some(end) => normalise_pod_names(text, Some(&rest[..end])),
        None => text.to_string(),
    }
}

/// The `oracle` header of traces this crate writes for controllers of `version`.
pub fn oracle(version: crate::version::KubernetesVersion) -> serde_json::Value {
    serde_json::json!({
        "harness": "rollout-lab",
        "kubernetesVersion": version.release(),
        "note": "produced by rollout-core's port of the controllers, not by Kubernetes"
    })
}

//! The kubelet and scheduler model: what happens to pods between controller syncs.
//!
//! For each pod, by name: a terminating pod whose deletion is `terminationRounds` rounds old
//! goes away; an unscheduled pod is bound to `node-(serial mod nodes)` and becomes Pending
//! with PodScheduled=True; a pod that is not ready, whose image can start, and that was created
//! `readyAfterRounds` rounds ago becomes Running and Ready.

use crate::api::{ConditionStatus, PodCondition, PodConditionType, PodPhase, Time};
use crate::store::ApiServer;
use serde::{Deserialize, Serialize};

/// The cluster model's settings that the kubelet reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KubeletModel {
    /// Seconds the clock moves per round.
    pub seconds_per_round: i64,
    /// Rounds from creation to Ready.
    pub ready_after_rounds: u32,
    /// Rounds a deleted pod lingers as Terminating (0 = removed at once).
    pub termination_rounds: u32,
    /// Images whose pods never become ready.
    pub never_ready_images: Vec<String>,
    /// Nodes the pods are spread over.
    pub nodes: u32,
}

/// One thing the kubelet did to a pod.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "camelCase")]
pub enum PodChange {
    /// Bound to a node.
    Scheduled {
        /// The pod.
        pod: String,
        /// The node.
        node: String,
    },
    /// Running and Ready.
    BecameReady {
        /// The pod.
        pod: String,
    },
    /// Graceful termination over, removed.
    Removed {
        /// The pod.
        pod: String,
    },
}

/// Whole rounds between two times.
fn rounds_between(from: Time, to: Time, seconds_per_round: i64) -> i64 {
    (to - from) / seconds_per_round.max(1)
}

/// One kubelet pass over every pod.
pub fn kubelet_pass(api: &mut ApiServer, model: &KubeletModel) -> Vec<PodChange> {
    let now = api.now();
    let pods: Vec<_> = api.pods().cloned().collect();
    let mut changes = Vec::new();
    for pod in pods {
        if let Some(deleted) = pod.metadata.deletion_timestamp {
            if rounds_between(deleted, now, model.seconds_per_round)
                >= i64::from(model.termination_rounds)
            {
                api.remove_pod(&pod.metadata.name);
                changes.push(PodChange::Removed {
                    pod: pod.metadata.name.clone(),
                });
            }
            continue;
        }
        let needs_scheduling = pod.node_name.is_empty();
        let becomes_ready = !pod.is_ready()
            && !model.never_ready_images.contains(&pod.image)
            && rounds_between(
                pod.metadata.creation_timestamp,
                now,
                model.seconds_per_round,
            ) >= i64::from(model.ready_after_rounds);
        let changed = needs_scheduling || becomes_ready;
        if !changed {
            continue;
        }
        let mut p = (*pod).clone();
        if needs_scheduling {
            p.node_name = format!("node-{}", p.serial % model.nodes.max(1));
            p.phase = PodPhase::Pending;
            set_condition(&mut p.conditions, PodConditionType::PodScheduled, now);
            changes.push(PodChange::Scheduled {
                pod: p.metadata.name.clone(),
                node: p.node_name.clone(),
            });
        }
        if becomes_ready {
            p.phase = PodPhase::Running;
            for c in [
                PodConditionType::PodScheduled,
                PodConditionType::Initialized,
                PodConditionType::ContainersReady,
                PodConditionType::Ready,
            ] {
                set_condition(&mut p.conditions, c, now);
            }
            changes.push(PodChange::BecameReady {
                pod: p.metadata.name.clone(),
            });
        }
        api.update_pod(p);
    }
    changes
}

fn set_condition(conditions: &mut Vec<PodCondition>, type_: PodConditionType, now: Time) {
    let c = PodCondition {
        type_,
        status: ConditionStatus::True,
        last_transition_time: now,
    };
    match conditions.iter_mut().find(|c| c.type_ == type_) {
        Some(existing) => *existing = c,
        None => conditions.push(c),
    }
}

//! The kubelet and scheduler model: what happens to pods between controller syncs.
//!
//! For each pod, by name: a terminating pod whose deletion is `terminationRounds` rounds old
//! goes away; an unscheduled pod is bound to `node-(serial mod nodes)` and becomes Pending
//! with PodScheduled=True (with a scheduling model, where [`crate::scheduler`]'s filters allow,
//! or it stays unbound with PodScheduled=False); a pod that is not ready, whose image can start, and that was created
//! `readyAfterRounds` rounds ago becomes Running and Ready. Beyond the conformance model, a
//! pod's start-up may be jittered per pod, and a restarted container counts from its restart.
//! A scenario may select the kubelet's probe rules instead (`model.probes`, see [`probes`]).

pub mod backoff;
pub mod container_life;
pub mod failures;
pub mod probes;
pub mod restarts;

use crate::api::Time;
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
    /// Extra rounds, up to this many, a pod may take to become ready (per pod, from `seed`).
    #[serde(default)]
    pub ready_jitter_rounds: u32,
    /// Seed of the jitter.
    #[serde(default)]
    pub seed: u64,
    /// The kubelet's probe rules time the pods instead of `readyAfterRounds` (and the jitter).
    #[serde(
        default,
        deserialize_with = "probes::deserialize_optional",
        skip_serializing_if = "Option::is_none"
    )]
    pub probes: Option<probes::ProbeModel>,
    /// The probes of the pod templates of some failing images (`model.templateProbes`): their
    /// pods are judged by these instead of `probes`.
    #[serde(skip)]
    pub template_probes: Vec<(String, probes::ProbeModel)>,
    /// How the apps of some images fail (`model.failures`), and the restart back-off: their
    /// pods are led by [`restarts`] once bound to a node.
    #[serde(skip)]
    pub failures: Option<failures::FailureModel>,
    /// The scheduler's filters place the pods instead of the round-robin alone (absent: every
    /// pod fits every node); see [`crate::scheduler`].
    #[serde(skip)]
    pub scheduling: Option<std::sync::Arc<crate::scheduler::Scheduling>>,
}

impl KubeletModel {
    /// The probe model that judges a pod of `image`: its template's (`model.templateProbes`),
    /// else the scenario's (`model.probes`).
    pub fn probes_of(&self, image: &str) -> Option<&probes::ProbeModel> {
        self.template_probes
            .iter()
            .find(|(i, _)| i == image)
            .map(|(_, p)| p)
            .or(self.probes.as_ref())
    }

    /// Rounds from a container start to Ready for this pod: `readyAfterRounds` plus its
    /// deterministic jitter.
    pub fn ready_after(&self, pod_name: &str) -> u32 {
        if self.ready_jitter_rounds == 0 {
            return self.ready_after_rounds;
        }
        // FNV-1a over the seed and the name, then a splitmix64 finaliser.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ self.seed;
        for b in pod_name.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= h >> 30;
        h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^= h >> 27;
        let extra = h % (u64::from(self.ready_jitter_rounds) + 1);
        self.ready_after_rounds + extra as u32
    }
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
    /// Its container exited (an app that crashes, or one a probe got killed) and waits to be
    /// restarted (`restarts`; a restart at once shows as the container's `Started` event).
    ContainerExited {
        /// The pod.
        pod: String,
        /// The exit code: 1 for a crash, 137 for a kill.
        exit_code: i32,
    },
    /// Out of Ready while its container runs (its readiness probe failed).
    BecameNotReady {
        /// The pod.
        pod: String,
    },
    /// The scheduler found no node for it (first time, or with another message): it stays
    /// Pending with the `FailedScheduling` message.
    Unschedulable {
        /// The pod.
        pod: String,
        /// `0/3 nodes are available: …`.
        message: String,
    },
}

impl PodChange {
    /// The pod it happened to.
    pub fn pod(&self) -> &str {
        match self {
            PodChange::Scheduled { pod, .. }
            | PodChange::BecameReady { pod }
            | PodChange::Removed { pod }
            | PodChange::ContainerExited { pod, .. }
            | PodChange::BecameNotReady { pod }
            | PodChange::Unschedulable { pod, .. } => pod,
        }
    }
}

/// Whole rounds between two times.
fn rounds_between(from: Time, to: Time, seconds_per_round: i64) -> i64 {
    (to - from) / seconds_per_round.max(1)
}

/// The first round, at or after `from`, in which a kubelet pass will change a pod: bind an
/// unscheduled pod (due at once), make a pod ready (`readyAfterRounds` after its container
/// started), or remove a pod whose graceful termination is over (`terminationRounds` after
/// its deletion). `None` when no pod is waiting for the kubelet.
///
/// For example with 5 s rounds and `readyAfterRounds` 6, a pod created at t = 40 s is ready in
/// the first round at or after 40 + 6 × 5 = 70 s: round 14. Under the probe model the probes
/// say when a pod becomes ready ([`probes::ProbeModel::ready_at`]; never, for an app that does
/// not answer them).
pub fn next_due_round(api: &ApiServer, model: &KubeletModel, from: u32) -> Option<u32> {
    let spr = model.seconds_per_round.max(1);
    // The first round whose time is at or after `t` (never before `from`).
    let round_at = |t: Time| -> u32 {
        let r = if t <= 0 { 0 } else { (t + spr - 1) / spr };
        u32::try_from(r).unwrap_or(u32::MAX).max(from)
    };
    let mut due: Option<u32> = None;
    for pod in api.pods() {
        let round = if let Some(deleted) = pod.metadata.deletion_timestamp {
            round_at(deleted + i64::from(model.termination_rounds) * spr)
        } else if pod.node_name.is_empty() {
            // Unschedulable: tried again in every pass, due when something else changes.
            if pod.unschedulable_message().is_some() {
                continue;
            }
            from
        } else if restarts::handles(model, pod) {
            continue;
        } else if !pod.is_ready() && !model.never_ready_images.contains(&pod.image) {
            let ready_at = match &model.probes {
                Some(p) => p.ready_at(pod),
                None => {
                    let k = i64::from(model.ready_after(&pod.metadata.name));
                    Some(pod.started_at + k * spr)
                }
            };
            match ready_at {
                Some(t) => round_at(t),
                None => continue,
            }
        } else {
            continue;
        };
        due = Some(due.map_or(round, |d| d.min(round)));
        if due == Some(from) {
            break;
        }
    }
    if due != Some(from) {
        if let Some(r) = restarts::next_due_round(api, model, from, &round_at) {
            due = Some(due.map_or(r, |d| d.min(r)));
        }
    }
    due
}

/// One kubelet pass over every pod.
pub fn kubelet_pass(api: &mut ApiServer, model: &KubeletModel) -> Vec<PodChange> {
    kubelet_pass_recording(api, model, &mut Vec::new())
}

/// One kubelet pass over every pod, the events the kubelet records (those of pods whose app
/// fails: `restarts`) appended to `events`.
pub fn kubelet_pass_recording(
    api: &mut ApiServer,
    model: &KubeletModel,
    events: &mut Vec<std::sync::Arc<crate::api::Event>>,
) -> Vec<PodChange> {
    let mut changes = match &model.probes {
        Some(p) => probes::kubelet_pass(api, model, p),
        None => simple_pass(api, model),
    };
    if model.failures.is_some() {
        changes.extend(restarts::pass(api, model, events));
    }
    changes
}

/// The conformance model's pass (`readyAfterRounds`).
fn simple_pass(api: &mut ApiServer, model: &KubeletModel) -> Vec<PodChange> {
    let now = api.now();
    let mut changes = Vec::new();
    // Indices in `changes` of the removals, and of each updated pod's first change with the
    // node it is bound to and whether it becomes ready: the pod names are read back from
    // `changes` rather than copied again.
    let mut removed: Vec<usize> = Vec::new();
    let mut updates: Vec<(usize, Option<String>, bool)> = Vec::new();
    let nodes = model.nodes.max(1);
    let mut cycle = scheduling_cycle(api, model);
    let mut unschedulable: Vec<(String, String)> = Vec::new();
    for pod in api.pods() {
        let name = &pod.metadata.name;
        if let Some(deleted) = pod.metadata.deletion_timestamp {
            if rounds_between(deleted, now, model.seconds_per_round)
                >= i64::from(model.termination_rounds)
            {
                removed.push(changes.len());
                changes.push(PodChange::Removed { pod: name.clone() });
            }
            continue;
        }
        // Only the node this pod goes to is named: `nodes` may be large (5,000 nodes is
        // `node-0` … `node-4999`), and naming them all on each pass would cost as much.
        let node = match (&mut cycle, pod.node_name.is_empty()) {
            (_, false) => None,
            (None, true) => Some(format!("node-{}", pod.serial % nodes)),
            (Some(c), true) => place(c, pod, &mut unschedulable),
        };
        if pod.node_name.is_empty() && node.is_none() {
            continue;
        }
        // A pod bound later than its creation (it was unschedulable) starts now.
        let started = match (&cycle, &node) {
            (Some(_), Some(_)) => now,
            _ => pod.started_at,
        };
        let becomes_ready = !pod.is_ready()
            && !model.never_ready_images.contains(&pod.image)
            && !restarts::handles(model, pod)
            && rounds_between(started, now, model.seconds_per_round)
                >= i64::from(model.ready_after(name));
        let first = changes.len();
        if let Some(node) = &node {
            changes.push(PodChange::Scheduled {
                pod: name.clone(),
                node: node.clone(),
            });
        }
        if becomes_ready {
            changes.push(PodChange::BecameReady { pod: name.clone() });
        }
        if node.is_some() || becomes_ready {
            updates.push((first, node, becomes_ready));
        }
    }
    // Every write goes through the API server's named operations. The pods were listed just
    // above, so none of them can answer NotFound.
    for at in removed {
        api.remove_pod(changes[at].pod());
    }
    for (at, node, becomes_ready) in updates {
        let name = changes[at].pod();
        if let Some(node) = node {
            if model.scheduling.is_some() {
                let _ = api.schedule_pod_running_from(name, &node, now);
            } else {
                let _ = api.schedule_pod(name, &node);
            }
        }
        if becomes_ready {
            let _ = api.mark_pod_ready(name);
        }
    }
    mark_unschedulable(api, unschedulable, &mut changes);
    changes
}

/// The scheduling cycle of a pass, when the model has the scheduler: its cache holds the bound
/// pods but those whose termination this pass ends.
pub(crate) fn scheduling_cycle<'a>(
    api: &ApiServer,
    model: &'a KubeletModel,
) -> Option<crate::scheduler::Cycle<'a>> {
    let sched = model.scheduling.as_deref()?;
    let now = api.now();
    let gone = |p: &crate::api::Pod| {
        p.metadata.deletion_timestamp.is_some_and(|d| {
            rounds_between(d, now, model.seconds_per_round) >= i64::from(model.termination_rounds)
        })
    };
    Some(crate::scheduler::Cycle::new(
        sched,
        api.pods().map(|p| &**p),
        &gone,
    ))
}

/// The scheduler's answer for one pending pod: its node, or `None` with its message noted
/// when it is new for that pod.
pub(crate) fn place(
    cycle: &mut crate::scheduler::Cycle<'_>,
    pod: &crate::api::Pod,
    unschedulable: &mut Vec<(String, String)>,
) -> Option<String> {
    match cycle.place(pod) {
        Ok(node) => Some(node),
        Err(message) => {
            if pod.unschedulable_message() != Some(message.as_str()) {
                unschedulable.push((pod.metadata.name.clone(), message));
            }
            None
        }
    }
}

/// Writes each new `FailedScheduling` outcome (PodScheduled=False) and reports it.
pub(crate) fn mark_unschedulable(
    api: &mut ApiServer,
    unschedulable: Vec<(String, String)>,
    changes: &mut Vec<PodChange>,
) {
    for (pod, message) in unschedulable {
        let _ = api.mark_pod_unschedulable(&pod, &message);
        changes.push(PodChange::Unschedulable { pod, message });
    }
}

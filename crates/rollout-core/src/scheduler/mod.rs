//! The kube-scheduler's part that decides whether a rollout can progress: its filter plugins
//! (`filters`), ported from v1.28.4 `pkg/scheduler`, over nodes with allocatable CPU, memory,
//! pods and labels (`nodes`), for pods with requests and required placement rules
//! (`pod_spec`). A pod that fits no node stays Pending, unbound, with PodScheduled=False,
//! reason `Unschedulable`, and the `FailedScheduling` message (`schedule_one.go`,
//! `handleSchedulingFailure`; `FitError.Error()`); it is tried again in every kubelet pass,
//! so it is bound once a pod goes away or the cluster changes.
//!
//! Which feasible node: scoring is not modelled. The pod goes to the round-robin node the
//! model always used, `node-(serial mod nodes)`, when it is feasible (so a scenario whose pods
//! fit everywhere runs exactly as without a scheduler), else to the first feasible node after
//! it, in the nodes' order, wrapping round: with 3 nodes, pod serial 4 tries node-1, node-2,
//! node-0. Preemption is not modelled either (a Deployment's pods share one priority, so it
//! finds no victim among them; the message says so, as the real scheduler's does).
//!
//! Pending pods are placed one at a time in name order, each seeing the ones placed before it
//! in the same pass.

pub mod filters;
pub mod nodes;
pub mod pod_spec;
pub mod quantity;
pub mod selector;

use crate::api::Pod;
use filters::{AffinityState, BoundPod, Failure, Requested, SpreadState};
use nodes::Node;
use pod_spec::PodScheduling;
use serde_json::{json, Value};
use std::collections::HashMap;

/// A scenario's `model.scheduling`: the nodes (one size for all, over `zones`, or a list) and
/// what the pods ask of them. Read with [`SchedulingModel::from_value`].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SchedulingModel {
    /// `nodeCpu`: each node's allocatable CPU in millicores (absent: 4 cores).
    pub node_cpu_millis: Option<i64>,
    /// `nodeMemory`: each node's allocatable memory in bytes (absent: 16 GiB).
    pub node_memory_bytes: Option<i64>,
    /// `zones`: the nodes take turns in this many zones (absent: 1).
    pub zones: Option<u32>,
    /// `nodeList`: the nodes one by one (then the scenario's `nodes` must be their count).
    pub node_list: Option<Vec<Node>>,
    /// `pod`: the template's requests and placement rules, in a pod spec's shape.
    pub pod: PodScheduling,
}

/// The scheduler's inputs once resolved: the nodes and the pods' requirements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduling {
    /// The nodes, in their order (`node-0` first by default).
    pub nodes: Vec<Node>,
    /// What every pod asks.
    pub pod: PodScheduling,
}

impl SchedulingModel {
    /// The nodes: the list, or `count` nodes of the one size over the zones.
    pub fn nodes(&self, count: u32) -> Vec<Node> {
        match &self.node_list {
            Some(list) => list.clone(),
            None => nodes::uniform(
                count,
                self.node_cpu_millis.unwrap_or(nodes::DEFAULT_CPU_MILLIS),
                self.node_memory_bytes
                    .unwrap_or(nodes::DEFAULT_MEMORY_BYTES),
                self.zones.unwrap_or(1),
            ),
        }
    }

    /// Resolved for a cluster of `count` nodes.
    pub fn resolve(&self, count: u32) -> Scheduling {
        Scheduling {
            nodes: self.nodes(count),
            pod: self.pod.clone(),
        }
    }

    /// Reads `{"nodeCpu": "1", "nodeMemory": "4Gi", "zones": 2, "nodeList": [...], "pod":
    /// {"containers": [{"resources": {"requests": {"cpu": "600m"}}}], "affinity": {...}}}`,
    /// every field optional; unknown fields and malformed values are refused by name.
    pub fn from_value(v: &Value) -> Result<SchedulingModel, String> {
        const KEYS: [&str; 5] = ["nodeCpu", "nodeMemory", "zones", "nodeList", "pod"];
        let Some(obj) = v.as_object() else {
            return Err("scheduling: expected an object".into());
        };
        if let Some(k) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(format!(
                "scheduling: unknown field `{k}`, expected one of {}",
                KEYS.join(", ")
            ));
        }
        let size = |key: &str, millis: bool| -> Result<Option<i64>, String> {
            let Some(x) = v.get(key).filter(|x| !x.is_null()) else {
                return Ok(None);
            };
            let text = quantity::text_of(x)
                .ok_or_else(|| format!("scheduling.{key}: {}", quantity::FORMAT_WRONG))?;
            let n = if millis {
                quantity::parse_millis(&text)
            } else {
                quantity::parse_bytes(&text)
            };
            n.map(Some).map_err(|e| format!("scheduling.{key}: {e}"))
        };
        let zones = match v.get("zones").filter(|x| !x.is_null()) {
            None => None,
            Some(z) => Some(
                z.as_u64()
                    .filter(|n| (1..=u64::from(nodes::MAX_ZONES)).contains(n))
                    .ok_or_else(|| {
                        format!(
                            "scheduling.zones: expected 1 to {} zones, not {z}",
                            nodes::MAX_ZONES
                        )
                    })? as u32,
            ),
        };
        let node_list = match v.get("nodeList").filter(|x| !x.is_null()) {
            None => None,
            Some(l) => Some(nodes::read_node_list(l, "scheduling.nodeList")?),
        };
        let pod = match v.get("pod").filter(|x| !x.is_null()) {
            None => PodScheduling::default(),
            Some(p) if p.is_object() => pod_spec::read_pod_scheduling(p, "scheduling.pod")?.0,
            Some(_) => return Err("scheduling.pod: expected an object (a pod spec)".into()),
        };
        Ok(SchedulingModel {
            node_cpu_millis: size("nodeCpu", true)?,
            node_memory_bytes: size("nodeMemory", false)?,
            zones,
            node_list,
            pod,
        })
    }

    /// The model as [`SchedulingModel::from_value`] reads it.
    pub fn to_json(&self) -> Value {
        let mut v = json!({});
        if let Some(c) = self.node_cpu_millis {
            v["nodeCpu"] = json!(quantity::millis_text(c));
        }
        if let Some(m) = self.node_memory_bytes {
            v["nodeMemory"] = json!(quantity::bytes_text(m));
        }
        if let Some(z) = self.zones {
            v["zones"] = json!(z);
        }
        if let Some(l) = &self.node_list {
            v["nodeList"] = Value::Array(l.iter().map(Node::to_json).collect());
        }
        if self.pod.constrains() {
            v["pod"] = self.pod.to_json();
        }
        v
    }
}

impl serde::Serialize for SchedulingModel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

/// One scheduling cycle over a kubelet pass's pending pods: the scheduler's cache (what each
/// node has taken, the pods bound) built from the API server, and each pod's PreFilter state
/// per label set (a rollout has two: the old and the new `pod-template-hash`), kept up to date
/// as pods are bound.
pub struct Cycle<'a> {
    sched: &'a Scheduling,
    requested: Vec<Requested>,
    bound: Vec<BoundPod>,
    index: HashMap<&'a str, usize>,
    states: Vec<(crate::api::StringMap, SpreadState, AffinityState)>,
}

impl<'a> Cycle<'a> {
    /// The cache of `pods` bound to a node (`gone`: pods this pass removes, not counted).
    pub fn new<'p>(
        sched: &'a Scheduling,
        pods: impl Iterator<Item = &'p Pod>,
        gone: &dyn Fn(&Pod) -> bool,
    ) -> Cycle<'a> {
        let index: HashMap<&str, usize> = sched
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name.as_str(), i))
            .collect();
        let mut c = Cycle {
            sched,
            requested: vec![Requested::default(); sched.nodes.len()],
            bound: Vec::new(),
            index,
            states: Vec::new(),
        };
        for p in pods.filter(|p| !p.node_name.is_empty() && !gone(p)) {
            if let Some(&i) = c.index.get(p.node_name.as_str()) {
                c.take(i, p);
            }
        }
        c
    }

    fn take(&mut self, node: usize, pod: &Pod) {
        let r = &mut self.requested[node];
        r.cpu_millis = r.cpu_millis.saturating_add(self.sched.pod.cpu_millis);
        r.memory_bytes = r.memory_bytes.saturating_add(self.sched.pod.memory_bytes);
        r.pods += 1;
        let b = BoundPod {
            node,
            labels: pod.metadata.labels.clone(),
            terminating: pod.metadata.deletion_timestamp.is_some(),
        };
        for (labels, spread, affinity) in &mut self.states {
            spread.add(&b, &self.sched.nodes);
            affinity.add(&self.sched.pod, labels, &b, &self.sched.nodes);
        }
        self.bound.push(b);
    }

    /// The node's verdict for `pod`: the first failing filter in the default profile's order.
    fn verdict(&self, state: usize, node: usize) -> Option<Failure> {
        let (labels, spread, affinity) = &self.states[state];
        let (pod, n) = (&self.sched.pod, &self.sched.nodes[node]);
        filters::node_affinity(pod, n)
            .or_else(|| filters::resources_fit(pod, n, &self.requested[node]))
            .or_else(|| spread.filter(n))
            .or_else(|| affinity.filter(pod, labels, n))
    }

    /// Schedules one pending pod: the node's name, recorded as taken, or the
    /// `FailedScheduling` message.
    pub fn place(&mut self, pod: &Pod) -> Result<String, String> {
        let labels = &pod.metadata.labels;
        let state = match self.states.iter().position(|(l, _, _)| l == labels) {
            Some(i) => i,
            None => {
                let s = &self.sched;
                self.states.push((
                    labels.clone(),
                    SpreadState::new(&s.pod, labels, &s.nodes, &self.bound),
                    AffinityState::new(&s.pod, labels, &s.nodes, &self.bound),
                ));
                self.states.len() - 1
            }
        };
        let n = self.sched.nodes.len();
        let first = pod.serial as usize % n.max(1);
        let mut failures = Vec::new();
        for k in 0..n {
            let i = (first + k) % n;
            match self.verdict(state, i) {
                None => {
                    self.take(i, pod);
                    return Ok(self.sched.nodes[i].name.clone());
                }
                Some(f) => failures.push(f),
            }
        }
        Err(filters::fit_error(&failures))
    }
}

#[cfg(test)]
mod tests;

/// Serde for the scheduling types, through their JSON readers and writers (hand-written, as the
/// probe model's are, so the app's module carries no derived code for them).
mod serde_impls {
    use super::nodes::{read_node, Node};
    use super::pod_spec::{read_pod_scheduling, PodScheduling};
    use super::SchedulingModel;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::Value;

    impl<'de> Deserialize<'de> for SchedulingModel {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            SchedulingModel::from_value(&Value::deserialize(d)?).map_err(serde::de::Error::custom)
        }
    }

    impl Serialize for PodScheduling {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            self.to_json().serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for PodScheduling {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            read_pod_scheduling(&Value::deserialize(d)?, "scheduling")
                .map(|(p, _)| p)
                .map_err(serde::de::Error::custom)
        }
    }

    impl Serialize for Node {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            self.to_json().serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for Node {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            read_node(&Value::deserialize(d)?, "node", 0).map_err(serde::de::Error::custom)
        }
    }
}

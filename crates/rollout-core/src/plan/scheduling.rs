//! The planner's scheduler part: the nodes a manifest's rollout is forecast on (`--nodes 3
//! --node-cpu 4 --node-memory 16Gi --zones 1`, or `--nodes-file`), what the manifest's pod
//! spec asks of them (`scheduler::pod_spec`), and a rollout that cannot finish because a pod
//! fits no node: its `FailedScheduling` text and the progress deadline instead of a duration.
//!
//! The scheduler joins the forecast only when it can matter: the pod spec has requests or
//! placement rules, or a node flag was given. Otherwise every pod fits every node and the
//! forecast is the one without it.

use super::Forecast;
use crate::scheduler::nodes::{self, Node};
use crate::scheduler::quantity;
use crate::scheduler::{pod_spec::PodScheduling, SchedulingModel};
use crate::sim::Simulation;
use serde::{Deserialize, Serialize};

/// The nodes given by the planner's flags (each absent: the default).
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeFlags {
    /// `--node-cpu`: each node's allocatable CPU in millicores (default 4 cores).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_millis: Option<i64>,
    /// `--node-memory`: each node's allocatable memory in bytes (default 16 GiB).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_bytes: Option<i64>,
    /// `--zones`: the nodes take turns in this many zones (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zones: Option<u32>,
    /// `--nodes-file`: the nodes one by one (replaces `--nodes` and the sizes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<Vec<Node>>,
}

impl NodeFlags {
    /// Whether any was given.
    pub fn given(&self) -> bool {
        *self != NodeFlags::default()
    }
}

/// The scenario's `model.scheduling` for a manifest's pods on these nodes, or `None` when the
/// scheduler cannot change the forecast (no requests, no rules, no node flag).
pub fn scheduling_model(pod: &PodScheduling, flags: &NodeFlags) -> Option<SchedulingModel> {
    (pod.constrains() || flags.given()).then(|| SchedulingModel {
        node_cpu_millis: flags.cpu_millis,
        node_memory_bytes: flags.memory_bytes,
        zones: flags.zones,
        node_list: flags.list.clone(),
        pod: pod.clone(),
    })
}

/// The scenario `model` of an imported Deployment's pods on the default nodes (`None` when they
/// ask nothing of a node): what the import box puts on the stage.
pub fn imported_model(pod: &PodScheduling) -> Option<crate::scenario::ModelExtras> {
    scheduling_model(pod, &NodeFlags::default()).map(|s| crate::scenario::ModelExtras {
        scheduling: Some(s),
        ..Default::default()
    })
}

/// `--node-cpu 1`, `--node-memory 4Gi`: a quantity, named by its flag when malformed.
pub fn parse_size(flag: &str, text: &str, millis: bool) -> Result<i64, String> {
    let n = if millis {
        quantity::parse_millis(text)
    } else {
        quantity::parse_bytes(text)
    };
    match n {
        Ok(n) if n > 0 => Ok(n),
        Ok(_) => Err(format!("{flag} {text:?}: a node needs more than 0")),
        Err(e) => Err(format!("{flag} {text:?}: {e}")),
    }
}

/// `--zones N`: 1 to 26.
pub fn parse_zones(flag: &str, text: &str) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=nodes::MAX_ZONES).contains(n))
        .ok_or_else(|| format!("{flag} {text:?}: expected 1 to {} zones", nodes::MAX_ZONES))
}

/// A pod the scheduler could place nowhere when the forecast ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Unschedulable {
    /// Why the rollout stops, in a sentence.
    pub reason: String,
    /// The pod (the first by name).
    pub pod: String,
    /// How many of the Deployment's pods are Pending for want of a node.
    pub pods: usize,
    /// The scheduler's `FailedScheduling` event text.
    pub message: String,
}

/// The rollout's unschedulable pods at the end of a forecast that did not complete.
pub fn unschedulable(
    sim: &Simulation,
    deployment: &str,
    forecast: &Forecast,
) -> Option<Unschedulable> {
    if forecast.complete_round.is_some() {
        return None;
    }
    let prefix = format!("{deployment}-");
    let stuck: Vec<_> = sim
        .api()
        .pods()
        .filter(|p| p.metadata.name.starts_with(&prefix) && p.metadata.deletion_timestamp.is_none())
        .filter_map(|p| {
            p.unschedulable_message()
                .map(|m| (p.metadata.name.clone(), m.to_string()))
        })
        .collect();
    let (pod, message) = stuck.first()?.clone();
    let deadline = match forecast.deadline_exceeded_round {
        Some(r) => format!("; the progress deadline is exceeded in round {r}"),
        None => String::new(),
    };
    Some(Unschedulable {
        reason: format!(
            "the rollout never completes: {} cannot be scheduled (FailedScheduling){deadline}",
            if stuck.len() == 1 {
                format!("pod {pod}")
            } else {
                format!("{} pods ({pod} …)", stuck.len())
            }
        ),
        pods: stuck.len(),
        pod,
        message,
    })
}

/// What the manifest's pods ask of a node, one line each (`requests cpu 600m, memory 1Gi`,
/// `podAntiAffinity (required) topologyKey kubernetes.io/hostname`, …); none when nothing.
pub fn pod_lines(pod: &PodScheduling) -> Vec<String> {
    let mut out = Vec::new();
    if pod.cpu_millis > 0 || pod.memory_bytes > 0 {
        out.push(format!(
            "requests cpu {}, memory {} (a pod: its containers' sum, at least each init container's)",
            if pod.cpu_millis > 0 { quantity::millis_text(pod.cpu_millis) } else { "-".into() },
            if pod.memory_bytes > 0 { quantity::bytes_text(pod.memory_bytes) } else { "-".into() },
        ));
    }
    if !pod.node_selector.is_empty() {
        let pairs: Vec<String> = pod
            .node_selector
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        out.push(format!("nodeSelector {}", pairs.join(", ")));
    }
    if !pod.node_affinity.is_empty() {
        out.push(format!(
            "nodeAffinity (required): {} term(s)",
            pod.node_affinity.len()
        ));
    }
    for (what, terms) in [
        ("podAffinity", &pod.pod_affinity),
        ("podAntiAffinity", &pod.pod_anti_affinity),
    ] {
        for t in terms {
            out.push(format!("{what} (required) topologyKey {}", t.topology_key));
        }
    }
    for c in &pod.spread {
        out.push(format!(
            "topologySpreadConstraint maxSkew {} topologyKey {} DoNotSchedule",
            c.max_skew, c.topology_key
        ));
    }
    out
}

/// The nodes in a line: `3 nodes of 4 CPU, 16Gi memory, 110 pods, 1 zone`, or the list's.
pub fn nodes_line(model: &SchedulingModel, count: u32) -> String {
    match &model.node_list {
        Some(list) => {
            let names: Vec<String> = list
                .iter()
                .take(5)
                .map(|n| {
                    format!(
                        "{} ({} CPU, {})",
                        n.name,
                        quantity::millis_text(n.cpu_millis),
                        quantity::bytes_text(n.memory_bytes)
                    )
                })
                .collect();
            format!(
                "{} nodes from --nodes-file: {}{}",
                list.len(),
                names.join(", "),
                if list.len() > 5 { ", …" } else { "" }
            )
        }
        None => {
            let zones = model.zones.unwrap_or(1);
            format!(
                "{count} nodes of {} CPU, {} memory, {} pods each, in {zones} zone{}",
                quantity::millis_text(model.node_cpu_millis.unwrap_or(nodes::DEFAULT_CPU_MILLIS)),
                quantity::bytes_text(
                    model
                        .node_memory_bytes
                        .unwrap_or(nodes::DEFAULT_MEMORY_BYTES)
                ),
                nodes::DEFAULT_PODS,
                if zones == 1 { "" } else { "s" }
            )
        }
    }
}

impl NodeFlags {
    /// None given (for serde's `skip_serializing_if`).
    pub fn is_empty(&self) -> bool {
        !self.given()
    }
}

/// Reads a `--nodes-file`: `kubectl get nodes -o yaml|json` (a List, or Node documents one
/// after another), or a list of `{name, cpu, memory, pods, labels}`.
pub fn read_nodes_text(text: &str) -> Result<Vec<Node>, String> {
    let docs: Vec<serde_json::Value> = crate::import::parse_documents(text)?
        .into_iter()
        .filter(|d| !d.is_null())
        .collect();
    match docs.as_slice() {
        [one] => nodes::read_node_list(one, "nodes"),
        [] => Err("nodes: the file holds no nodes".into()),
        many => nodes::read_node_list(&serde_json::Value::Array(many.to_vec()), "nodes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::manifest::{manifest_scenario, read_manifest, resolve, ClusterModel};

    const HA: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"api"},
      "spec":{"replicas":3,"selector":{"matchLabels":{"app":"api"}},
        "strategy":{"rollingUpdate":{"maxSurge":1,"maxUnavailable":0}},
        "template":{"metadata":{"labels":{"app":"api"}},"spec":{
          "affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
            {"labelSelector":{"matchLabels":{"app":"api"}},"topologyKey":"kubernetes.io/hostname"}]}},
          "containers":[{"name":"api","image":"api:1.0","resources":{"requests":{"cpu":"250m"}}}]}}}}"#;

    #[test]
    fn a_manifest_with_rules_gets_the_scheduler_and_one_without_does_not() {
        let m = read_manifest(HA).unwrap();
        assert!(
            m.unsupported.iter().all(|u| !u.contains("affinity")),
            "{:?}",
            m.unsupported
        );
        let r = resolve(&m, &ClusterModel::default());
        let s = manifest_scenario(&m.deployment, &r).unwrap();
        let sched = s
            .model
            .and_then(|m| m.scheduling)
            .expect("a scheduling model");
        assert_eq!(sched.pod.cpu_millis, 250);
        assert_eq!(sched.pod.pod_anti_affinity.len(), 1);
        let plain = read_manifest(
            &HA.replace("\"affinity\"", "\"x-affinity\"")
                .replace("\"resources\"", "\"x-resources\""),
        )
        .unwrap();
        let r = resolve(&plain, &ClusterModel::default());
        assert!(r.scheduling.is_none());
    }

    #[test]
    fn the_ha_rollout_on_three_nodes_is_forecast_as_stuck_with_the_deadline() {
        // 3 pods, one a node; the surge pod fits nowhere. Pods without probes are Ready once
        // their containers start (pull 0 s): available in round 0, so the image is set in
        // round 1; the Deployment's progress deadline (600 s) is exceeded once
        // now > 1 + 600 = 601 s: round 602.
        let m = read_manifest(HA).unwrap();
        let subject = crate::plan::Subject::Manifest {
            model: resolve(&m, &ClusterModel::default()),
            manifest: Box::new(m),
        };
        let (out, _, _) = crate::plan::input::plan_subject(&subject, &[]).unwrap();
        assert_eq!(out.forecast.complete_round, None);
        assert_eq!(out.forecast.deadline_exceeded_round, Some(602));
        let u = out.unschedulable.expect("the reason");
        assert_eq!(u.pod, "api-rev2-00001");
        assert_eq!(u.message, "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..");
        assert!(
            u.reason
                .contains("progress deadline is exceeded in round 602"),
            "{}",
            u.reason
        );
        // With 4 nodes the surge pod has a node of its own, and the rollout completes.
        let m = read_manifest(HA).unwrap();
        let subject = crate::plan::Subject::Manifest {
            model: resolve(
                &m,
                &ClusterModel {
                    nodes: 4,
                    ..ClusterModel::default()
                },
            ),
            manifest: Box::new(m),
        };
        let (out, _, _) = crate::plan::input::plan_subject(&subject, &[]).unwrap();
        assert!(out.forecast.complete_round.is_some() && out.unschedulable.is_none());
    }

    #[test]
    fn a_nodes_file_reads_kubectl_output() {
        let nodes = read_nodes_text(r#"{"kind":"List","items":[
            {"kind":"Node","metadata":{"name":"n1","labels":{"topology.kubernetes.io/zone":"eu-1a"}},
             "status":{"allocatable":{"cpu":"1930m","memory":"7Gi","pods":"58"}}}]}"#).unwrap();
        assert_eq!((nodes[0].cpu_millis, nodes[0].pods), (1930, 58));
        let e = read_nodes_text(r#"{"kind":"List","items":[]}"#).unwrap_err();
        assert_eq!(e, "nodes: no nodes; a cluster needs at least one");
    }
}

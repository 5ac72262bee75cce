//! What the scheduler reads from a pod template's spec (`v1.PodSpec`): the pod's resource
//! requests as `NodeResourcesFit` computes them, `nodeSelector` and required node affinity,
//! required pod affinity and anti-affinity terms, and topology spread constraints. What
//! changes placement but is not modelled (preferred terms, `ScheduleAnyway` spreads,
//! extended resources) is named in a note.
//!
//! Requests, as `computePodResourceRequest` (`noderesources/fit.go`) after the API server's
//! defaulting (a container's missing request defaults to its limit): the sum over the
//! containers, raised to the largest init container's. Containers asking 250m and 100m with an
//! init container asking 500m make a pod of max(350m, 500m) = 500m.

use super::quantity;
use super::selector::{
    read_label_selector, read_node_selector_term, read_string_map, LabelSelector, NodeSelectorTerm,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// A required pod (anti-)affinity term (`v1.PodAffinityTerm`). The pods of a scenario share
/// one namespace, so a term is taken to select in it (`namespaces` is not read).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AffinityTerm {
    /// `labelSelector` (absent: matches no pod).
    pub selector: Option<LabelSelector>,
    /// `topologyKey`: the node label whose value is the domain (`kubernetes.io/hostname`).
    pub topology_key: String,
}

/// A `DoNotSchedule` topology spread constraint (`v1.TopologySpreadConstraint`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpreadConstraint {
    /// `maxSkew`: the most a domain's matching pods may exceed the least-filled domain's.
    pub max_skew: i32,
    /// `topologyKey`.
    pub topology_key: String,
    /// `labelSelector` (absent: matches no pod).
    pub selector: Option<LabelSelector>,
    /// `minDomains` (absent: 1).
    pub min_domains: Option<i32>,
    /// `matchLabelKeys`: the incoming pod's values of these labels join the selector.
    pub match_label_keys: Vec<String>,
    /// `nodeAffinityPolicy: Ignore` (the default, Honor, counts only nodes the pod's
    /// nodeSelector and node affinity allow).
    pub ignore_node_affinity: bool,
}

/// What the scheduler's filters read from the pod (every pod of the scenario has it: the
/// template's).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct PodScheduling {
    /// The pod's CPU request in millicores.
    pub cpu_millis: i64,
    /// The pod's memory request in bytes.
    pub memory_bytes: i64,
    /// `nodeSelector`.
    pub node_selector: BTreeMap<String, String>,
    /// `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`
    /// (ORed; none: no requirement).
    pub node_affinity: Vec<NodeSelectorTerm>,
    /// `affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution`.
    pub pod_affinity: Vec<AffinityTerm>,
    /// `affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution`.
    pub pod_anti_affinity: Vec<AffinityTerm>,
    /// The `DoNotSchedule` `topologySpreadConstraints`.
    pub spread: Vec<SpreadConstraint>,
}

impl PodScheduling {
    /// Whether it asks anything of a node (a pod without requests or constraints fits
    /// everywhere, and the scheduler's model is not needed).
    pub fn constrains(&self) -> bool {
        *self != PodScheduling::default()
    }
}

/// One container's request for `resource`, defaulted to its limit.
fn request(c: &Value, resource: &str, path: &str) -> Result<i64, String> {
    let r = c.get("resources");
    let v = r
        .and_then(|r| r.pointer(&format!("/requests/{resource}")))
        .or_else(|| r.and_then(|r| r.pointer(&format!("/limits/{resource}"))));
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(0);
    };
    let text = quantity::text_of(v).ok_or_else(|| {
        format!(
            "{path}.resources.requests[{resource}]: {}",
            quantity::FORMAT_WRONG
        )
    })?;
    let parsed = if resource == "cpu" {
        quantity::parse_millis(&text)
    } else {
        quantity::parse_bytes(&text)
    };
    parsed
        .map_err(|e| format!("{path}.resources.requests[{resource}]: Invalid value: {text:?}: {e}"))
}

fn containers<'a>(spec: &'a Value, key: &str) -> impl Iterator<Item = (usize, &'a Value)> {
    spec.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}

/// The pod's requests: Σ containers, raised to each init container's.
fn read_requests(spec: &Value, path: &str, notes: &mut Vec<String>) -> Result<(i64, i64), String> {
    let mut pod = (0i64, 0i64);
    for (i, c) in containers(spec, "containers") {
        let p = format!("{path}.containers[{i}]");
        pod.0 = pod.0.saturating_add(request(c, "cpu", &p)?);
        pod.1 = pod.1.saturating_add(request(c, "memory", &p)?);
    }
    for (i, c) in containers(spec, "initContainers") {
        let p = format!("{path}.initContainers[{i}]");
        pod.0 = pod.0.max(request(c, "cpu", &p)?);
        pod.1 = pod.1.max(request(c, "memory", &p)?);
    }
    let mut other: Vec<String> = Vec::new();
    for key in ["containers", "initContainers"] {
        for (_, c) in containers(spec, key) {
            for part in ["requests", "limits"] {
                if let Some(m) = c
                    .pointer(&format!("/resources/{part}"))
                    .and_then(Value::as_object)
                {
                    for k in m.keys().filter(|k| *k != "cpu" && *k != "memory") {
                        if !other.contains(k) {
                            other.push(k.clone());
                        }
                    }
                }
            }
        }
    }
    if !other.is_empty() {
        notes.push(format!(
            "{path}: resources {} not modelled (nodes are assumed to have enough), only cpu and memory are",
            other.join(", ")
        ));
    }
    Ok(pod)
}

fn read_terms(v: Option<&Value>, path: &str) -> Result<Vec<AffinityTerm>, String> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let list = v
        .as_array()
        .ok_or_else(|| format!("{path}: expected a list"))?;
    list.iter()
        .enumerate()
        .map(|(i, t)| {
            let p = format!("{path}[{i}]");
            let topology_key = t
                .get("topologyKey")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if topology_key.is_empty() {
                return Err(format!("{p}.topologyKey: Required value: can not be empty"));
            }
            Ok(AffinityTerm {
                selector: read_label_selector(
                    t.get("labelSelector"),
                    &format!("{p}.labelSelector"),
                )?,
                topology_key: topology_key.to_string(),
            })
        })
        .collect()
}

fn read_spread(
    spec: &Value,
    path: &str,
    notes: &mut Vec<String>,
) -> Result<Vec<SpreadConstraint>, String> {
    let mut out = Vec::new();
    for (i, c) in containers(spec, "topologySpreadConstraints") {
        let p = format!("{path}.topologySpreadConstraints[{i}]");
        let max_skew = c.get("maxSkew").and_then(Value::as_i64).unwrap_or(0);
        if max_skew <= 0 || max_skew > i64::from(i32::MAX) {
            return Err(format!(
                "{p}.maxSkew: Invalid value: {max_skew}: must be greater than zero"
            ));
        }
        let topology_key = c
            .get("topologyKey")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if topology_key.is_empty() {
            return Err(format!("{p}.topologyKey: Required value: can not be empty"));
        }
        let min_domains = match c.get("minDomains").filter(|v| !v.is_null()) {
            None => None,
            Some(v) => match v.as_i64() {
                Some(n) if n > 0 && n <= i64::from(i32::MAX) => Some(n as i32),
                _ => {
                    return Err(format!(
                        "{p}.minDomains: Invalid value: {v}: must be greater than zero"
                    ))
                }
            },
        };
        match c.get("whenUnsatisfiable").and_then(Value::as_str).unwrap_or_default() {
            "DoNotSchedule" => {}
            "ScheduleAnyway" => {
                notes.push(format!(
                    "{p}: a ScheduleAnyway spread only scores nodes (scoring is not modelled), dropped"
                ));
                continue;
            }
            other => {
                return Err(format!(
                    "{p}.whenUnsatisfiable: Unsupported value: {other:?}: supported values: \"DoNotSchedule\", \"ScheduleAnyway\""
                ))
            }
        }
        out.push(SpreadConstraint {
            max_skew: max_skew as i32,
            topology_key: topology_key.to_string(),
            selector: read_label_selector(c.get("labelSelector"), &format!("{p}.labelSelector"))?,
            min_domains,
            match_label_keys: c
                .get("matchLabelKeys")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|k| k.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            ignore_node_affinity: c.get("nodeAffinityPolicy").and_then(Value::as_str)
                == Some("Ignore"),
        });
    }
    Ok(out)
}

/// Reads the scheduling part of a pod spec (`path` names it in messages:
/// `spec.template.spec`). `Err` is the API server's validation message for a malformed
/// field; the notes name what changes placement but is not modelled.
pub fn read_pod_scheduling(
    spec: &Value,
    path: &str,
) -> Result<(PodScheduling, Vec<String>), String> {
    let mut notes = Vec::new();
    let (cpu_millis, memory_bytes) = read_requests(spec, path, &mut notes)?;
    let node_selector = match spec.get("nodeSelector").filter(|v| !v.is_null()) {
        Some(v) => read_string_map(v, &format!("{path}.nodeSelector"))?,
        None => BTreeMap::new(),
    };
    let null = Value::Null;
    let affinity = spec.get("affinity").unwrap_or(&null);
    let req = "requiredDuringSchedulingIgnoredDuringExecution";
    let pref = "preferredDuringSchedulingIgnoredDuringExecution";
    let ap = format!("{path}.affinity");
    let node_affinity = match affinity.pointer(&format!("/nodeAffinity/{req}/nodeSelectorTerms")) {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(terms)) => terms
            .iter()
            .enumerate()
            .map(|(i, t)| {
                read_node_selector_term(
                    t,
                    &format!("{ap}.nodeAffinity.{req}.nodeSelectorTerms[{i}]"),
                )
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(format!(
                "{ap}.nodeAffinity.{req}.nodeSelectorTerms: expected a list"
            ))
        }
    };
    if affinity
        .pointer(&format!("/nodeAffinity/{req}"))
        .is_some_and(|v| !v.is_null())
        && node_affinity.is_empty()
    {
        return Err(format!(
            "{ap}.nodeAffinity.{req}.nodeSelectorTerms: Required value: must have at least one node selector term"
        ));
    }
    let pod_affinity = read_terms(
        affinity.pointer(&format!("/podAffinity/{req}")),
        &format!("{ap}.podAffinity.{req}"),
    )?;
    let pod_anti_affinity = read_terms(
        affinity.pointer(&format!("/podAntiAffinity/{req}")),
        &format!("{ap}.podAntiAffinity.{req}"),
    )?;
    for kind in ["nodeAffinity", "podAffinity", "podAntiAffinity"] {
        if affinity
            .pointer(&format!("/{kind}/{pref}"))
            .is_some_and(|v| !v.is_null())
        {
            notes.push(format!("{ap}.{kind}.{pref}: preferred terms only score nodes (scoring is not modelled), dropped"));
        }
    }
    let spread = read_spread(spec, path, &mut notes)?;
    for (key, what) in [
        (
            "tolerations",
            "tolerations are not modelled (the nodes have no taints)",
        ),
        (
            "nodeName",
            "a nodeName binds the pods without the scheduler; not modelled, dropped",
        ),
        (
            "priorityClassName",
            "priority is not modelled (preemption stays out)",
        ),
    ] {
        if spec.get(key).is_some_and(|v| !v.is_null()) {
            notes.push(format!("{path}.{key}: {what}"));
        }
    }
    Ok((
        PodScheduling {
            cpu_millis,
            memory_bytes,
            node_selector,
            node_affinity,
            pod_affinity,
            pod_anti_affinity,
            spread,
        },
        notes,
    ))
}

fn terms_json(terms: &[AffinityTerm]) -> Value {
    Value::Array(
        terms
            .iter()
            .map(|t| {
                let mut v = json!({ "topologyKey": t.topology_key });
                if let Some(s) = &t.selector {
                    v["labelSelector"] = s.to_json();
                }
                v
            })
            .collect(),
    )
}

impl PodScheduling {
    /// The pod as a scenario's `model.scheduling.pod` writes it: a pod spec of one container
    /// holding the pod's requests, and the constraints in the API's own shape, which
    /// [`read_pod_scheduling`] reads back to the same value.
    pub fn to_json(&self) -> Value {
        let mut v = json!({});
        let mut requests = json!({});
        if self.cpu_millis > 0 {
            requests["cpu"] = json!(quantity::millis_text(self.cpu_millis));
        }
        if self.memory_bytes > 0 {
            requests["memory"] = json!(quantity::bytes_text(self.memory_bytes));
        }
        if requests.as_object().is_some_and(|m| !m.is_empty()) {
            v["containers"] = json!([{ "resources": { "requests": requests } }]);
        }
        if !self.node_selector.is_empty() {
            v["nodeSelector"] = json!(self.node_selector);
        }
        let req = "requiredDuringSchedulingIgnoredDuringExecution";
        let mut affinity = json!({});
        if !self.node_affinity.is_empty() {
            affinity["nodeAffinity"] = json!({ req: { "nodeSelectorTerms":
                self.node_affinity.iter().map(NodeSelectorTerm::to_json).collect::<Vec<_>>() } });
        }
        if !self.pod_affinity.is_empty() {
            affinity["podAffinity"] = json!({ req: terms_json(&self.pod_affinity) });
        }
        if !self.pod_anti_affinity.is_empty() {
            affinity["podAntiAffinity"] = json!({ req: terms_json(&self.pod_anti_affinity) });
        }
        if affinity.as_object().is_some_and(|m| !m.is_empty()) {
            v["affinity"] = affinity;
        }
        if !self.spread.is_empty() {
            v["topologySpreadConstraints"] = Value::Array(
                self.spread
                    .iter()
                    .map(|c| {
                        let mut x = json!({ "maxSkew": c.max_skew, "topologyKey": c.topology_key,
                            "whenUnsatisfiable": "DoNotSchedule" });
                        if let Some(s) = &c.selector {
                            x["labelSelector"] = s.to_json();
                        }
                        if let Some(m) = c.min_domains {
                            x["minDomains"] = json!(m);
                        }
                        if !c.match_label_keys.is_empty() {
                            x["matchLabelKeys"] = json!(c.match_label_keys);
                        }
                        if c.ignore_node_affinity {
                            x["nodeAffinityPolicy"] = json!("Ignore");
                        }
                        x
                    })
                    .collect(),
            );
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_sum_containers_and_rise_to_init_containers() {
        // Containers 250m + 100m = 350m, init 500m: max(350m, 500m) = 500m. Memory: the first
        // container's request defaults to its limit 256Mi, + 64Mi = 320Mi, init 128Mi.
        let spec = json!({
            "containers": [
                {"resources": {"requests": {"cpu": "250m"}, "limits": {"memory": "256Mi"}}},
                {"resources": {"requests": {"cpu": 0.1, "memory": "64Mi"}}}],
            "initContainers": [{"resources": {"requests": {"cpu": "500m", "memory": "128Mi"}}}]
        });
        let (p, notes) = read_pod_scheduling(&spec, "spec").unwrap();
        assert_eq!((p.cpu_millis, p.memory_bytes), (500, 320 << 20));
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn constraints_read_back_from_their_json() {
        let spec = json!({
            "containers": [{"resources": {"requests": {"cpu": "600m", "memory": "1Gi"}}}],
            "nodeSelector": {"kubernetes.io/os": "linux"},
            "affinity": {
                "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                    {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["zone-a"]}]}]}},
                "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                    {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}],
                    "preferredDuringSchedulingIgnoredDuringExecution": []}},
            "topologySpreadConstraints": [
                {"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule",
                 "labelSelector": {"matchLabels": {"app": "web"}}},
                {"maxSkew": 1, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "ScheduleAnyway"}]
        });
        let (p, notes) = read_pod_scheduling(&spec, "spec.template.spec").unwrap();
        assert_eq!(p.pod_anti_affinity.len(), 1);
        assert_eq!(p.spread.len(), 1);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("ScheduleAnyway")));
        assert!(notes
            .iter()
            .any(|n| n.contains("podAntiAffinity.preferred")));
        let (back, _) = read_pod_scheduling(&p.to_json(), "pod").unwrap();
        assert_eq!(back, p);
    }

    #[test]
    fn malformed_constraints_get_the_api_messages() {
        let e = read_pod_scheduling(
            &json!({"topologySpreadConstraints": [{"maxSkew": 0, "topologyKey": "k", "whenUnsatisfiable": "DoNotSchedule"}]}),
            "spec.template.spec",
        )
        .unwrap_err();
        assert_eq!(e, "spec.template.spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero");
        let e = read_pod_scheduling(
            &json!({"containers": [{"resources": {"requests": {"cpu": "lots"}}}]}),
            "spec.template.spec",
        )
        .unwrap_err();
        assert!(e.starts_with("spec.template.spec.containers[0].resources.requests[cpu]: Invalid value: \"lots\": quantities must match"), "{e}");
    }
}

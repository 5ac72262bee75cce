//! `kubectl get -o yaml`: the objects as a user of a real cluster would read them (keys
//! sorted, zero values left out, apps/v1 and v1 shapes), line by line with the field path of
//! each line, so a front end can highlight what a step changed.

use crate::api::{
    ConditionStatus, Deployment, DeploymentStrategy, ObjectMeta, Pod, PodTemplate, ReplicaSet,
    StringMap, Time,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// One line of YAML.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct YamlLine {
    /// The field path, e.g. `status.conditions[1].reason` (a mapping's own line has its path
    /// too).
    pub path: String,
    /// The scalar value on this line, if it has one (`None` for `key:` opening a block).
    pub value: Option<String>,
    /// The whole line as printed, indentation included.
    pub text: String,
}

/// A line that differs from the previous rendering of the same object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedLine {
    /// Index into the current lines.
    pub line: usize,
    /// The value before (`None`: the field is new).
    pub previous: Option<String>,
}

/// The wall-clock base the simulation's second 0 is shown as.
const EPOCH_DAYS: i64 = 20_454; // 2026-01-01

/// RFC 3339 for a simulated time (`2026-01-01T00:00:05Z` for second 5).
pub fn timestamp(t: Time) -> String {
    let days = EPOCH_DAYS + t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        (secs / 60) % 60,
        secs % 60
    )
}

/// Howard Hinnant's days-to-civil conversion.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn map(m: &StringMap) -> Value {
    Value::Object(m.iter().map(|(k, v)| (k.clone(), json!(v))).collect())
}

fn put(o: &mut Map<String, Value>, k: &str, v: Value) {
    let empty = match &v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_i64() == Some(0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
    };
    if !empty {
        o.insert(k.to_string(), v);
    }
}

fn metadata(m: &ObjectMeta, kind_owner: &str) -> Value {
    let mut o = Map::new();
    put(&mut o, "annotations", map(&m.annotations));
    put(
        &mut o,
        "creationTimestamp",
        json!(timestamp(m.creation_timestamp)),
    );
    if let Some(t) = m.deletion_timestamp {
        put(&mut o, "deletionGracePeriodSeconds", json!(30));
        put(&mut o, "deletionTimestamp", json!(timestamp(t + 30)));
    }
    put(&mut o, "generation", json!(m.generation));
    put(&mut o, "labels", map(&m.labels));
    put(&mut o, "name", json!(m.name));
    put(&mut o, "namespace", json!(m.namespace));
    if let Some(owner) = &m.owner {
        put(
            &mut o,
            "ownerReferences",
            json!([{
                "apiVersion": kind_owner,
                "blockOwnerDeletion": true,
                "controller": true,
                "kind": owner.kind,
                "name": owner.name,
                "uid": owner.uid.to_string(),
            }]),
        );
    }
    put(
        &mut o,
        "resourceVersion",
        json!(m.resource_version.to_string()),
    );
    put(&mut o, "uid", json!(m.uid.to_string()));
    Value::Object(o)
}

fn template(t: &PodTemplate) -> Value {
    json!({
        "metadata": {"labels": map(&t.labels)},
        "spec": {"containers": [{"image": t.image, "name": "app"}]},
    })
}

fn status_str(s: ConditionStatus) -> &'static str {
    s.as_str()
}

/// The Deployment as `kubectl get deployment -o yaml` prints it.
pub fn deployment_value(d: &Deployment) -> Value {
    let mut spec = Map::new();
    put(
        &mut spec,
        "minReadySeconds",
        json!(d.spec.min_ready_seconds),
    );
    put(&mut spec, "paused", json!(d.spec.paused));
    if let Some(p) = d.spec.progress_deadline_seconds {
        spec.insert("progressDeadlineSeconds".into(), json!(p));
    }
    spec.insert("replicas".into(), json!(d.spec.replicas));
    if let Some(r) = d.spec.revision_history_limit {
        spec.insert("revisionHistoryLimit".into(), json!(r));
    }
    spec.insert(
        "selector".into(),
        json!({"matchLabels": map(&d.spec.selector)}),
    );
    spec.insert(
        "strategy".into(),
        match &d.spec.strategy {
            DeploymentStrategy::Recreate => json!({"type": "Recreate"}),
            DeploymentStrategy::RollingUpdate {
                max_surge,
                max_unavailable,
            } => json!({
                "rollingUpdate": {"maxSurge": max_surge, "maxUnavailable": max_unavailable},
                "type": "RollingUpdate",
            }),
        },
    );
    spec.insert("template".into(), template(&d.spec.template));
    let s = &d.status;
    let mut status = Map::new();
    put(
        &mut status,
        "availableReplicas",
        json!(s.available_replicas),
    );
    put(&mut status, "collisionCount", json!(s.collision_count));
    put(
        &mut status,
        "conditions",
        Value::Array(
            s.conditions
                .iter()
                .map(|c| {
                    json!({
                        "lastTransitionTime": timestamp(c.last_transition_time),
                        "lastUpdateTime": timestamp(c.last_update_time),
                        "message": c.message,
                        "reason": c.reason,
                        "status": status_str(c.status),
                        "type": c.type_,
                    })
                })
                .collect(),
        ),
    );
    put(
        &mut status,
        "observedGeneration",
        json!(s.observed_generation),
    );
    put(&mut status, "readyReplicas", json!(s.ready_replicas));
    put(&mut status, "replicas", json!(s.replicas));
    // `*int32` with omitempty (since 1.35): absent when nil, printed when 0.
    if let Some(t) = s.terminating_replicas {
        status.insert("terminatingReplicas".into(), json!(t));
    }
    put(
        &mut status,
        "unavailableReplicas",
        json!(s.unavailable_replicas),
    );
    put(&mut status, "updatedReplicas", json!(s.updated_replicas));
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": metadata(&d.metadata, "apps/v1"),
        "spec": spec,
        "status": status,
    })
}

/// The ReplicaSet as `kubectl get rs -o yaml` prints it.
pub fn replica_set_value(rs: &ReplicaSet) -> Value {
    let mut spec = Map::new();
    put(
        &mut spec,
        "minReadySeconds",
        json!(rs.spec.min_ready_seconds),
    );
    spec.insert("replicas".into(), json!(rs.spec.replicas));
    spec.insert(
        "selector".into(),
        json!({"matchLabels": map(&rs.spec.selector)}),
    );
    spec.insert("template".into(), template(&rs.spec.template));
    let s = &rs.status;
    let mut status = Map::new();
    put(
        &mut status,
        "availableReplicas",
        json!(s.available_replicas),
    );
    put(
        &mut status,
        "conditions",
        Value::Array(
            s.conditions
                .iter()
                .map(|c| {
                    json!({
                        "lastTransitionTime": timestamp(c.last_transition_time),
                        "message": c.message,
                        "reason": c.reason,
                        "status": status_str(c.status),
                        "type": c.type_,
                    })
                })
                .collect(),
        ),
    );
    put(
        &mut status,
        "fullyLabeledReplicas",
        json!(s.fully_labeled_replicas),
    );
    put(
        &mut status,
        "observedGeneration",
        json!(s.observed_generation),
    );
    put(&mut status, "readyReplicas", json!(s.ready_replicas));
    // `replicas` has no omitempty in ReplicaSetStatus.
    status.insert("replicas".into(), json!(s.replicas));
    // `*int32` with omitempty (since 1.35): absent when nil (under 1.28), printed when 0.
    if let Some(t) = s.terminating_replicas {
        status.insert("terminatingReplicas".into(), json!(t));
    }
    json!({
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "metadata": metadata(&rs.metadata, "apps/v1"),
        "spec": spec,
        "status": status,
    })
}

/// The pod as `kubectl get pod -o yaml` prints it.
pub fn pod_value(p: &Pod) -> Value {
    let mut spec = Map::new();
    spec.insert(
        "containers".into(),
        json!([{"image": p.image, "name": "app"}]),
    );
    put(&mut spec, "nodeName", json!(p.node_name));
    let mut status = Map::new();
    put(
        &mut status,
        "conditions",
        Value::Array(
            p.conditions
                .iter()
                .map(|c| {
                    json!({
                        "lastTransitionTime": timestamp(c.last_transition_time),
                        "status": status_str(c.status),
                        "type": c.type_.as_str(),
                    })
                })
                .collect(),
        ),
    );
    if !p.node_name.is_empty() {
        status.insert(
            "containerStatuses".into(),
            json!([{
                "image": p.image,
                "name": "app",
                "ready": p.is_ready(),
                "restartCount": p.restart_count,
                "started": p.phase == crate::api::PodPhase::Running,
            }]),
        );
    }
    status.insert("phase".into(), json!(p.phase.as_str()));
    if !p.node_name.is_empty() {
        status.insert(
            "startTime".into(),
            json!(timestamp(p.metadata.creation_timestamp)),
        );
    }
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": metadata(&p.metadata, "apps/v1"),
        "spec": spec,
        "status": status,
    })
}

/// Whether a string must be quoted in YAML to stay a string (`"2"`, `"yes"`, `": x"`), not
/// `nginx:1.14.2` or `25%`.
pub fn needs_quotes(s: &str) -> bool {
    s.is_empty()
        || s.parse::<f64>().is_ok()
        || matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~" | "y" | "n"
        )
        || s.starts_with([
            ' ', '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"',
            '%', '@', '`',
        ])
        || s.ends_with(' ')
        || s.contains(": ")
        || s.contains(" #")
        || s.contains('\n')
        || (s.len() >= 10 && s.as_bytes()[4] == b'-' && s.as_bytes()[7] == b'-')
}

/// A string as a YAML scalar: plain when it reads back as the same string, else JSON's
/// double-quoted form (`25%` stays `25%`, `2` becomes `"2"`).
pub fn string_scalar(s: &str) -> String {
    if needs_quotes(s) {
        serde_json::to_string(s).unwrap_or_default()
    } else {
        s.to_string()
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) if needs_quotes(s) => serde_json::to_string(s).unwrap_or_default(),
        Value::String(s) => s.clone(),
        Value::Null => "null".into(),
        other => other.to_string(),
    }
}

fn emit(v: &Value, path: &str, indent: usize, out: &mut Vec<YamlLine>) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match child {
                    Value::Object(c) if !c.is_empty() => {
                        out.push(YamlLine {
                            path: p.clone(),
                            value: None,
                            text: format!("{pad}{k}:"),
                        });
                        emit(child, &p, indent + 2, out);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        out.push(YamlLine {
                            path: p.clone(),
                            value: None,
                            text: format!("{pad}{k}:"),
                        });
                        emit(child, &p, indent, out);
                    }
                    Value::Object(_) => out.push(YamlLine {
                        path: p,
                        value: Some("{}".into()),
                        text: format!("{pad}{k}: {{}}"),
                    }),
                    Value::Array(_) => out.push(YamlLine {
                        path: p,
                        value: Some("[]".into()),
                        text: format!("{pad}{k}: []"),
                    }),
                    scalar_value => {
                        let s = scalar(scalar_value);
                        out.push(YamlLine {
                            path: p,
                            value: Some(s.clone()),
                            text: format!("{pad}{k}: {s}"),
                        });
                    }
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let p = format!("{path}[{i}]");
                let mut sub = Vec::new();
                emit(item, &p, indent + 2, &mut sub);
                match item {
                    Value::Object(_) | Value::Array(_) => {
                        // The first line of the item carries the dash.
                        for (j, mut line) in sub.into_iter().enumerate() {
                            if j == 0 {
                                line.text = format!("{pad}- {}", line.text.trim_start());
                            }
                            out.push(line);
                        }
                    }
                    s => {
                        let s = scalar(s);
                        out.push(YamlLine {
                            path: p,
                            value: Some(s.clone()),
                            text: format!("{pad}- {s}"),
                        });
                    }
                }
            }
        }
        s => {
            let s = scalar(s);
            out.push(YamlLine {
                path: path.to_string(),
                value: Some(s.clone()),
                text: format!("{pad}{s}"),
            });
        }
    }
}

/// The lines of an object's YAML.
pub fn lines(v: &Value) -> Vec<YamlLine> {
    let mut out = Vec::new();
    emit(v, "", 0, &mut out);
    out
}

/// `deployment/NAME`, `replicaset/NAME` or `pod/NAME` in `api` as YAML lines (the object
/// inspector's); `None` for another kind or an object that is not there.
pub fn object_lines(api: &crate::store::ApiServer, selected: &str) -> Option<Vec<YamlLine>> {
    let (kind, name) = selected.split_once('/')?;
    let value = match kind {
        "deployment" => deployment_value(api.deployment(name)?),
        "replicaset" => replica_set_value(api.replica_set(name)?),
        "pod" => pod_value(api.pod(name)?),
        _ => return None,
    };
    Some(lines(&value))
}

/// The YAML text.
pub fn text(lines: &[YamlLine]) -> String {
    let mut s = String::new();
    for l in lines {
        s.push_str(&l.text);
        s.push('\n');
    }
    s
}

/// The lines of `current` whose value differs from the same path in `previous`.
pub fn changed_lines(previous: &[YamlLine], current: &[YamlLine]) -> Vec<ChangedLine> {
    let before: std::collections::HashMap<&str, &Option<String>> = previous
        .iter()
        .map(|l| (l.path.as_str(), &l.value))
        .collect();
    current
        .iter()
        .enumerate()
        .filter(|(_, l)| l.value.is_some())
        .filter_map(|(i, l)| match before.get(l.path.as_str()) {
            Some(v) if **v == l.value => None,
            Some(v) => Some(ChangedLine {
                line: i,
                previous: (*v).clone(),
            }),
            None => Some(ChangedLine {
                line: i,
                previous: None,
            }),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::preset;
    use crate::sim::Simulation;

    #[test]
    fn timestamps_are_rfc3339_from_2026() {
        assert_eq!(timestamp(0), "2026-01-01T00:00:00Z");
        assert_eq!(timestamp(3_725), "2026-01-01T01:02:05Z");
        assert_eq!(timestamp(86_400 * 31), "2026-02-01T00:00:00Z");
    }

    /// `status.terminatingReplicas` (1.35+, `*int32` with omitempty): printed under 1.37, 0
    /// included, on the ReplicaSet and the Deployment; never under 1.28.
    #[test]
    fn terminating_replicas_are_printed_since_1_35() {
        use crate::version::KubernetesVersion;
        for k in KubernetesVersion::ALL {
            let mut s = preset("rolling-basic").unwrap().scenario;
            s.kubernetes_version = k;
            let mut sim = Simulation::new(s).without_history();
            let (mut most, mut printed) = (0, false);
            for _ in 0..40 {
                sim.run_round();
                for rs in sim.api().replica_sets() {
                    let yaml = text(&lines(&replica_set_value(rs)));
                    if let Some(line) = yaml
                        .lines()
                        .find(|l| l.starts_with("  terminatingReplicas: "))
                    {
                        printed = true;
                        let n: i32 = line["  terminatingReplicas: ".len()..].parse().unwrap();
                        assert_eq!(Some(n), rs.status.terminating_replicas);
                        most = most.max(n);
                    }
                }
                let d = sim.api().deployment("web").unwrap();
                let yaml = text(&lines(&deployment_value(d)));
                assert_eq!(
                    yaml.contains("\n  terminatingReplicas: "),
                    d.status.terminating_replicas.is_some(),
                    "{yaml}"
                );
            }
            assert_eq!(printed, k.reports_terminating_replicas(), "{k}");
            assert_eq!(
                most > 0,
                k.reports_terminating_replicas(),
                "{k}: a deleted pod counted"
            );
        }
    }

    #[test]
    fn a_deployment_reads_like_kubectl_and_changes_are_found() {
        let mut sim = Simulation::new(preset("rolling-basic").unwrap().scenario).without_history();
        for _ in 0..8 {
            sim.run_round();
        }
        let d = sim.api().deployment("web").unwrap().clone();
        let before = lines(&deployment_value(&d));
        let yaml = text(&before);
        assert!(yaml.starts_with("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  annotations:\n    deployment.kubernetes.io/revision: \"1\"\n"), "{yaml}");
        assert!(yaml.contains("\n  strategy:\n    rollingUpdate:\n      maxSurge: 25%\n      maxUnavailable: 25%\n    type: RollingUpdate\n"), "{yaml}");
        assert!(
            yaml.contains("\n  - lastTransitionTime: \"2026-01-01T00:00:"),
            "{yaml}"
        );
        assert!(yaml.contains("\n    status: \"True\"\n"), "{yaml}");
        assert!(
            !yaml.contains("unavailableReplicas"),
            "zero values are left out: {yaml}"
        );
        sim.push_action(crate::scenario::ActionKind::Scale {
            name: None,
            replicas: 5,
        });
        sim.run_round();
        let d = sim.api().deployment("web").unwrap().clone();
        let after = lines(&deployment_value(&d));
        let changed = changed_lines(&before, &after);
        let replicas = changed
            .iter()
            .find(|c| after[c.line].path == "spec.replicas")
            .expect("spec.replicas changed");
        assert_eq!(replicas.previous.as_deref(), Some("3"));
        assert!(changed
            .iter()
            .any(|c| after[c.line].path == "metadata.generation"));
    }

    #[test]
    fn a_replica_set_shows_its_annotations() {
        let mut sim = Simulation::new(preset("rolling-basic").unwrap().scenario).without_history();
        sim.run_round();
        let rs = sim.api().replica_set("web-rev1").unwrap().clone();
        let yaml = text(&lines(&replica_set_value(&rs)));
        assert!(
            yaml.contains("    deployment.kubernetes.io/desired-replicas: \"3\"\n"),
            "{yaml}"
        );
        assert!(
            yaml.contains("    deployment.kubernetes.io/max-replicas: \"4\"\n"),
            "{yaml}"
        );
        assert!(
            yaml.contains("  ownerReferences:\n  - apiVersion: apps/v1\n"),
            "{yaml}"
        );
        assert!(yaml.contains("    pod-template-hash: "), "{yaml}");
    }
}

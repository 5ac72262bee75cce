//! Reading a real Deployment manifest, as `kubectl get deployment NAME -o yaml` (or `-o json`)
//! prints it, into the scenario's `create` input. What the controllers do not read (status,
//! managedFields, ports, resources …) is ignored; what would change a rollout but is not
//! modelled (a second container, matchExpressions, init containers …) is reported.

use crate::api::{IntOrString, StringMap};
use crate::scenario::{DeploymentInput, StrategyInput};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A manifest turned into a Deployment to create, with what could not be carried over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Imported {
    /// The Deployment, in the scenario's create format.
    pub deployment: DeploymentInput,
    /// One line per unsupported field that was dropped, naming the field.
    pub unsupported: Vec<String>,
}

/// Whether [`parse_manifest`] reads YAML in this build (the `yaml` feature): the CLI's does; the
/// web app's module does not, and hands YAML to a small module of its own first (web/yaml).
pub const READS_YAML: bool = cfg!(feature = "yaml");

/// Parses JSON, or YAML when the `yaml` feature is on.
pub fn parse_manifest(text: &str) -> Result<Value, String> {
    crate::limits::check_text("the manifest", text)?;
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        return serde_json::from_str(trimmed).map_err(|e| format!("not valid JSON: {e}"));
    }
    #[cfg(feature = "yaml")]
    {
        yaml_to_json(text)
    }
    #[cfg(not(feature = "yaml"))]
    {
        Err("only JSON manifests can be read here (kubectl get deployment NAME -o json)".into())
    }
}

#[cfg(feature = "yaml")]
fn yaml_to_json(text: &str) -> Result<Value, String> {
    use yaml_rust2::{Yaml, YamlLoader};
    fn convert(y: &Yaml) -> Result<Value, String> {
        Ok(match y {
            Yaml::Real(r) => r
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number)
                .unwrap_or_else(|| Value::String(r.clone())),
            Yaml::Integer(i) => Value::from(*i),
            Yaml::String(s) => Value::String(s.clone()),
            Yaml::Boolean(b) => Value::Bool(*b),
            Yaml::Array(a) => Value::Array(a.iter().map(convert).collect::<Result<_, _>>()?),
            Yaml::Hash(h) => {
                let mut m = serde_json::Map::new();
                for (k, v) in h {
                    let key = match k {
                        Yaml::String(s) => s.clone(),
                        Yaml::Integer(i) => i.to_string(),
                        Yaml::Boolean(b) => b.to_string(),
                        other => return Err(format!("unsupported YAML key {other:?}")),
                    };
                    m.insert(key, convert(v)?);
                }
                Value::Object(m)
            }
            Yaml::Null => Value::Null,
            Yaml::Alias(_) => return Err("YAML aliases are not supported".into()),
            Yaml::BadValue => return Err("malformed YAML value".into()),
        })
    }
    // Aliases, depth and documents bounded before yaml-rust2 expands anything.
    crate::yaml_guard::check(text)?;
    let docs = YamlLoader::load_from_str(text).map_err(|e| format!("not valid YAML: {e}"))?;
    match docs.as_slice() {
        [one] => convert(one),
        [] => Err("the manifest is empty".into()),
        _ => Err(format!(
            "the manifest holds {} documents; paste one Deployment",
            docs.len()
        )),
    }
}

fn str_map(v: &Value, path: &str, unsupported: &mut Vec<String>) -> Option<StringMap> {
    let obj = v.as_object()?;
    let mut m = StringMap::new();
    for (k, val) in obj {
        match val.as_str() {
            Some(s) => {
                m.insert(k.clone(), s.to_string());
            }
            None => unsupported.push(format!("{path}.{k}: not a string, dropped")),
        }
    }
    Some(m)
}

fn int_field(v: &Value, key: &str, path: &str, unsupported: &mut Vec<String>) -> Option<i32> {
    let x = v.get(key)?;
    if x.is_null() {
        return None;
    }
    match x.as_i64().and_then(|n| i32::try_from(n).ok()) {
        Some(n) => Some(n),
        None => {
            unsupported.push(format!(
                "{path}.{key}: {x} is not a 32-bit integer, dropped"
            ));
            None
        }
    }
}

fn int_or_string(v: &Value) -> Option<IntOrString> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .map(IntOrString::Int),
        Value::String(s) => Some(IntOrString::String(s.clone())),
        _ => None,
    }
}

/// Reads a Deployment manifest (a `kubectl get -o yaml|json` object, or a `List` holding
/// exactly one Deployment).
pub fn import_deployment(text: &str) -> Result<Imported, String> {
    let mut v = parse_manifest(text)?;
    if v.get("kind").and_then(Value::as_str) == Some("List") {
        let items = v
            .get("items")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        v = match items.as_slice() {
            [one] => one.clone(),
            _ => {
                return Err(format!(
                    "the List holds {} items; paste one Deployment",
                    items.len()
                ))
            }
        };
    }
    match v.get("kind").and_then(Value::as_str) {
        Some("Deployment") => {}
        Some(other) => return Err(format!("kind is {other}; Rollout Lab reads a Deployment")),
        None => return Err("the manifest has no `kind`; expected kind: Deployment".into()),
    }
    if let Some(api) = v.get("apiVersion").and_then(Value::as_str) {
        if api != "apps/v1" && api != "extensions/v1beta1" && api != "apps/v1beta2" {
            return Err(format!(
                "apiVersion {api} is not a Deployment version Rollout Lab reads"
            ));
        }
    }
    let mut unsupported = Vec::new();
    let name = v
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .ok_or("metadata.name is missing")?
        .to_string();
    let null = Value::Null;
    let spec = v.get("spec").unwrap_or(&null);
    let template = spec.get("template").unwrap_or(&null);
    let containers = template
        .pointer("/spec/containers")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let image = match containers.first() {
        Some(c) => c
            .get("image")
            .and_then(Value::as_str)
            .ok_or("spec.template.spec.containers[0].image is missing")?
            .to_string(),
        None => return Err("spec.template.spec.containers is empty".into()),
    };
    if containers.len() > 1 {
        let names: Vec<&str> = containers
            .iter()
            .skip(1)
            .filter_map(|c| c.get("name").and_then(Value::as_str))
            .collect();
        unsupported.push(format!(
            "spec.template.spec.containers: {} containers; Rollout Lab models one, so only the first ({}) is used and {} dropped",
            containers.len(),
            containers[0].get("name").and_then(Value::as_str).unwrap_or("?"),
            names.join(", ")
        ));
    }
    for (pointer, what) in [
        ("/spec/initContainers", "init containers"),
        ("/spec/affinity", "affinity"),
        ("/spec/nodeSelector", "a node selector"),
        (
            "/spec/topologySpreadConstraints",
            "topology spread constraints",
        ),
        ("/spec/tolerations", "tolerations"),
    ] {
        if template.pointer(pointer).is_some_and(|x| !x.is_null()) {
            unsupported.push(format!(
                "spec.template{}: {what} are not modelled (pods are spread round-robin), dropped",
                pointer.replace('/', ".")
            ));
        }
    }
    if containers
        .first()
        .and_then(|c| c.get("readinessProbe"))
        .is_some()
    {
        unsupported.push(
            "spec.template.spec.containers[0].readinessProbe: readiness is modelled by the pod ready delay instead".into(),
        );
    }
    let selector = spec.get("selector").unwrap_or(&null);
    if selector
        .get("matchExpressions")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
    {
        unsupported
            .push("spec.selector.matchExpressions: only matchLabels is modelled, dropped".into());
    }
    let strategy = spec.get("strategy").map(|s| StrategyInput {
        type_: s.get("type").and_then(Value::as_str).map(str::to_string),
        max_surge: s.pointer("/rollingUpdate/maxSurge").and_then(int_or_string),
        max_unavailable: s
            .pointer("/rollingUpdate/maxUnavailable")
            .and_then(int_or_string),
        with_rolling_update: s.get("rollingUpdate").map(|_| true),
    });
    let deployment = DeploymentInput {
        name,
        replicas: int_field(spec, "replicas", "spec", &mut unsupported),
        image,
        strategy,
        min_ready_seconds: int_field(spec, "minReadySeconds", "spec", &mut unsupported),
        progress_deadline_seconds: int_field(
            spec,
            "progressDeadlineSeconds",
            "spec",
            &mut unsupported,
        ),
        revision_history_limit: int_field(spec, "revisionHistoryLimit", "spec", &mut unsupported),
        paused: spec.get("paused").and_then(Value::as_bool),
        selector: selector
            .get("matchLabels")
            .and_then(|m| str_map(m, "spec.selector.matchLabels", &mut unsupported)),
        template_labels: template
            .pointer("/metadata/labels")
            .and_then(|m| str_map(m, "spec.template.metadata.labels", &mut unsupported)),
    };
    Ok(Imported {
        deployment,
        unsupported,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const KUBECTL_JSON: &str = r#"{
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"annotations": {"deployment.kubernetes.io/revision": "1"},
            "creationTimestamp": "2024-05-01T10:00:00Z", "generation": 1,
            "labels": {"app": "shop"}, "name": "shop", "namespace": "default",
            "managedFields": [{"manager": "kubectl-create", "operation": "Update"}],
            "resourceVersion": "4242", "uid": "0b1c"},
        "spec": {"progressDeadlineSeconds": 600, "replicas": 4, "revisionHistoryLimit": 10,
            "selector": {"matchLabels": {"app": "shop"}},
            "strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": "25%"}, "type": "RollingUpdate"},
            "template": {"metadata": {"labels": {"app": "shop"}},
                "spec": {"containers": [{"image": "shop:2.1", "name": "shop", "ports": [{"containerPort": 80}]},
                                         {"image": "envoy:1.30", "name": "sidecar"}],
                         "dnsPolicy": "ClusterFirst", "restartPolicy": "Always"}}},
        "status": {"availableReplicas": 4, "observedGeneration": 1, "readyReplicas": 4, "replicas": 4}
    }"#;

    #[test]
    fn reads_kubectl_json_and_reports_the_second_container() {
        let got = import_deployment(KUBECTL_JSON).unwrap();
        let d = &got.deployment;
        assert_eq!(
            (d.name.as_str(), d.replicas, d.image.as_str()),
            ("shop", Some(4), "shop:2.1")
        );
        let s = d.strategy.as_ref().unwrap();
        assert_eq!(s.max_surge, Some(IntOrString::Int(1)));
        assert_eq!(s.max_unavailable, Some(IntOrString::from("25%")));
        assert_eq!(got.unsupported.len(), 1, "{:?}", got.unsupported);
        assert!(
            got.unsupported[0].contains("sidecar"),
            "{:?}",
            got.unsupported
        );
        assert!(crate::validation::validate_create(d).is_valid());
    }

    #[test]
    fn refuses_what_is_not_a_deployment() {
        let e =
            import_deployment(r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"x"}}"#)
                .unwrap_err();
        assert_eq!(e, "kind is Service; Rollout Lab reads a Deployment");
        assert!(import_deployment("{nope")
            .unwrap_err()
            .starts_with("not valid JSON"));
    }

    #[cfg(feature = "yaml")]
    #[test]
    fn reads_kubectl_yaml() {
        let yaml = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    deployment.kubernetes.io/revision: "3"
  creationTimestamp: "2024-05-01T10:00:00Z"
  generation: 3
  labels:
    app: nginx
  managedFields:
  - apiVersion: apps/v1
    fieldsType: FieldsV1
    manager: kubectl-client-side-apply
    operation: Update
  name: nginx-deployment
  namespace: default
  resourceVersion: "1034"
  uid: 2f6a2b1e-1c1d-4bd4-9e0f-7c1b5a0e9d11
spec:
  progressDeadlineSeconds: 600
  replicas: 3
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: nginx
  strategy:
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 25%
    type: RollingUpdate
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: nginx
    spec:
      containers:
      - image: nginx:1.16.1
        imagePullPolicy: IfNotPresent
        name: nginx
        ports:
        - containerPort: 80
          protocol: TCP
        resources: {}
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      terminationGracePeriodSeconds: 30
status:
  availableReplicas: 3
  conditions:
  - lastTransitionTime: "2024-05-01T10:00:05Z"
    message: Deployment has minimum availability.
    reason: MinimumReplicasAvailable
    status: "True"
    type: Available
  observedGeneration: 3
  readyReplicas: 3
  replicas: 3
  updatedReplicas: 3
"#;
        let got = import_deployment(yaml).unwrap();
        assert!(got.unsupported.is_empty(), "{:?}", got.unsupported);
        let d = got.deployment;
        assert_eq!(d.name, "nginx-deployment");
        assert_eq!(d.image, "nginx:1.16.1");
        assert_eq!(d.replicas, Some(3));
        assert_eq!(
            d.selector.unwrap().get("app").map(String::as_str),
            Some("nginx")
        );
    }
}

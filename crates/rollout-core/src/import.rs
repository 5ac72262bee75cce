//! Reading a real Deployment manifest, as `kubectl get deployment NAME -o yaml` (or `-o json`)
//! prints it or as people keep it (several documents, a `List`, an old API group: see
//! `documents` and `legacy`), into the scenario's `create` input. What the controllers do not
//! read (status, managedFields, ports, resources …) is ignored; what would change a rollout but
//! is not modelled (a second container, matchExpressions, init containers …) is reported.
//!
//! The whole reading is in builds with the `yaml` feature: the CLI, and the web's YAML reader
//! module, which hands the app's module the one Deployment already read ([`reading_json`]). The
//! app's own module (no `yaml` feature, for size) reads that, and a single plain JSON object.

#[cfg(feature = "yaml")]
mod documents;
#[cfg(feature = "yaml")]
mod helm;
mod kustomize;
#[cfg(feature = "yaml")]
mod legacy;
mod pick;
#[cfg(feature = "yaml")]
mod templates;
#[cfg(feature = "yaml")]
mod yaml_errors;

pub use pick::{drop_nulls, Pick};

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
    /// How the file was read: what was skipped beside the Deployment, an old API group
    /// converted, unresolved placeholders (one line each).
    #[serde(default)]
    pub notes: Vec<String>,
    /// What the pods ask of a node (requests, nodeSelector, required affinity, DoNotSchedule
    /// spreads), for the scheduler (`scheduler::pod_spec`); what of placement is not modelled
    /// is in `unsupported`.
    #[serde(default)]
    pub scheduling: crate::scheduler::pod_spec::PodScheduling,
}

/// Whether [`parse_manifest`] reads YAML in this build (the `yaml` feature): the CLI's does; the
/// web app's module does not, and hands YAML to a small module of its own first (web/yaml).
pub const READS_YAML: bool = cfg!(feature = "yaml");

/// Whether `text` (trimmed at the start) is JSON: an object, or a stream of them as
/// [`documents_json`] writes (`null` for an empty document).
fn is_json(trimmed: &str) -> bool {
    trimmed.starts_with('{')
        || trimmed
            .strip_prefix("null")
            .is_some_and(|r| r.is_empty() || r.starts_with(char::is_whitespace))
}

/// The documents of a manifest file, in order, `Null` for an empty one: a JSON object (or a
/// stream of them, as kubectl accepts, with the `yaml` feature), or YAML with `---` between
/// documents when the `yaml` feature is on. A Helm template is refused with how to render it
/// first.
pub fn parse_documents(text: &str) -> Result<Vec<Value>, String> {
    let docs = parse_documents_unchecked(text)?;
    // The API server's 3 MiB is per object (kubectl apply sends each in a request of its own).
    let several = docs.len() > 1;
    for (i, doc) in docs.iter().enumerate() {
        let place = if several {
            format!("document {}", i + 1)
        } else {
            "the manifest".to_string()
        };
        match doc.get("items").and_then(Value::as_array) {
            Some(items)
                if doc
                    .get("kind")
                    .and_then(Value::as_str)
                    .is_some_and(|k| k.ends_with("List")) =>
            {
                for (j, item) in items.iter().enumerate() {
                    crate::limits::check_object_size(&format!("{place}, items[{j}]"), item)?;
                }
            }
            _ => crate::limits::check_object_size(&place, doc)?,
        }
    }
    Ok(docs)
}

fn parse_documents_unchecked(text: &str) -> Result<Vec<Value>, String> {
    crate::limits::check_manifest_text("the manifest", text)?;
    let trimmed = text.trim_start();
    #[cfg(feature = "yaml")]
    {
        // Before the JSON test: a template's usual first line, `{{- if .Values.create }}`,
        // starts with `{` too (and `{{` outside a string is never JSON).
        if let Some(line) = helm::helm_action_line(text) {
            return Err(helm::helm_message(line));
        }
        if is_json(trimmed) {
            return serde_json::Deserializer::from_str(trimmed)
                .into_iter::<Value>()
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("not valid JSON: {e}"));
        }
        yaml_to_json(text)
    }
    #[cfg(not(feature = "yaml"))]
    {
        if is_json(trimmed) {
            return serde_json::from_str(trimmed)
                .map(|v| vec![v])
                .map_err(|e| format!("not valid JSON: {e}"));
        }
        Err("only JSON manifests can be read here (kubectl get deployment NAME -o json)".into())
    }
}

/// The documents of a manifest file as JSON text, one per line (`null` for an empty one).
#[cfg(feature = "yaml")]
pub fn documents_json(text: &str) -> Result<String, String> {
    let docs = parse_documents(text)?;
    Ok(docs
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Parses a manifest of one object (JSON, or YAML when the `yaml` feature is on); empty
/// documents around it are ignored, and a [`reading_json`] is its Deployment.
pub fn parse_manifest(text: &str) -> Result<Value, String> {
    let mut docs: Vec<Value> = parse_documents(text)?
        .into_iter()
        .filter(|d| !d.is_null())
        .collect();
    match docs.len() {
        1 => Ok(match reading(&docs[0]) {
            Some((v, _, _)) => v,
            None => docs.remove(0),
        }),
        0 => Err("the manifest is empty".into()),
        n => Err(format!(
            "the manifest holds {n} documents; expected one object"
        )),
    }
}

#[cfg(feature = "yaml")]
fn yaml_to_json(text: &str) -> Result<Vec<Value>, String> {
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
    let docs = YamlLoader::load_from_str(text)
        .map_err(|e| yaml_errors::message(text, e.info(), e.marker().line(), e.marker().col()))?;
    // An empty document (`---` with nothing after it) is the loader's BadValue.
    docs.iter()
        .map(|d| match d {
            Yaml::BadValue => Ok(Value::Null),
            other => convert(other),
        })
        .collect()
}

/// The `kind` of [`reading_json`]'s object: not a Kubernetes kind.
const READING_KIND: &str = "RolloutLabReading";

/// The Deployment, notes and place of a [`reading_json`] object, if `v` is one.
fn reading(v: &Value) -> Option<(Value, Vec<String>, String)> {
    if v.get("kind")?.as_str()? != READING_KIND {
        return None;
    }
    let notes = v
        .get("notes")?
        .as_array()?
        .iter()
        .filter_map(|n| n.as_str().map(str::to_string))
        .collect();
    let place = v.get("place")?.as_str()?.to_string();
    Some((v.get("deployment")?.clone(), notes, place))
}

/// The one Deployment `pick` chooses in a manifest file, read as the API server reads it
/// (`null` fields absent, an old API group converted with its defaults), with notes on how it
/// was read (what was skipped, the old group, unresolved placeholders), and where it is in the
/// file (`document 3`; empty for the only object). A [`reading_json`] is read as it is.
pub fn read_deployment(text: &str, pick: Pick<'_>) -> Result<(Value, Vec<String>, String), String> {
    let docs = parse_documents(text)?;
    if let [one] = docs.as_slice() {
        if let Some(read) = reading(one) {
            return Ok(read);
        }
    }
    read_documents(docs, pick)
}

/// The whole reading: documents, Lists, the chosen Deployment, its old API group, placeholders.
#[cfg(feature = "yaml")]
fn read_documents(
    docs: Vec<Value>,
    pick: Pick<'_>,
) -> Result<(Value, Vec<String>, String), String> {
    let (entries, empty) = documents::entries(docs);
    let chosen = documents::choose(entries, empty, pick)?;
    let at = |e: String| {
        if chosen.place.is_empty() {
            e
        } else {
            format!("{}: {e}", chosen.place)
        }
    };
    let mut v = chosen.value;
    drop_nulls(&mut v);
    let mut notes: Vec<String> = chosen.duplicate.into_iter().collect();
    notes.extend(chosen.skipped);
    notes.extend(legacy::convert(&mut v).map_err(at)?);
    notes.extend(templates::placeholder_warning(&v));
    Ok((v, notes, chosen.place))
}

/// Without the YAML reader: one plain object (the web hands anything else to the reader's
/// module first, `web/src/yaml_reader.rs`), read as the whole reading reads it.
#[cfg(not(feature = "yaml"))]
fn read_documents(
    docs: Vec<Value>,
    pick: Pick<'_>,
) -> Result<(Value, Vec<String>, String), String> {
    let mut v = docs.into_iter().next().unwrap_or_default();
    drop_nulls(&mut v);
    let name = v.pointer("/metadata/name").and_then(Value::as_str);
    if let (Some(want), Some("Deployment")) = (pick.name, v.get("kind").and_then(Value::as_str)) {
        if name != Some(want) {
            return Err(format!(
                "the manifest holds no Deployment named {want:?}; its Deployments: {}",
                name.unwrap_or("(no name)")
            ));
        }
    }
    Ok((v, Vec::new(), String::new()))
}

/// The Deployment `pick` chooses in a manifest file, read, as JSON text that a build without
/// the `yaml` feature reads as it is: what the web's YAML reader module hands the app's module.
pub fn reading_json(text: &str, pick: Pick<'_>) -> Result<String, String> {
    let (deployment, notes, place) = read_deployment(text, pick)?;
    Ok(serde_json::json!({
        "kind": READING_KIND, "deployment": deployment, "notes": notes, "place": place
    })
    .to_string())
}

/// The names of the Deployments in a manifest file, in order (several: the user chooses one).
pub fn deployment_names(text: &str) -> Result<Vec<String>, String> {
    #[cfg(feature = "yaml")]
    {
        parse_documents(text).map(documents::deployment_names)
    }
    #[cfg(not(feature = "yaml"))]
    {
        let v = parse_manifest(text)?;
        Ok(
            match (
                v.get("kind").and_then(Value::as_str),
                v.pointer("/metadata/name"),
            ) {
                (Some("Deployment"), Some(Value::String(name))) => vec![name.clone()],
                _ => Vec::new(),
            },
        )
    }
}

/// Whether `text` is a Kubernetes manifest (it reads as objects with a `kind`, a Deployment
/// among them, or a Helm template) rather than a scenario: what a command that takes a scenario
/// tells its user to hand to `rollout plan` instead.
pub fn is_manifest(text: &str) -> bool {
    match parse_documents(text) {
        Ok(docs) => docs
            .iter()
            .any(|d| d.get("kind").and_then(Value::as_str).is_some() && d.get("actions").is_none()),
        Err(e) => e.contains("Helm template"),
    }
}

/// Whether a build without the `yaml` feature reads `text` as the whole reading would: one
/// JSON object, not a List, of no old API group, without `$` placeholders. Anything else goes
/// to the YAML reader first in the web.
pub fn is_plain_json(text: &str) -> bool {
    let t = text.trim_start();
    // `{{- if … }}`: a Helm template, which the whole reading names as one.
    if !t.starts_with('{') || t.starts_with("{{") || t.contains('$') {
        return false;
    }
    match serde_json::from_str::<Value>(t) {
        Ok(v) => {
            let api = v
                .get("apiVersion")
                .and_then(Value::as_str)
                .unwrap_or("apps/v1");
            let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
            v.is_object()
                && !kind.ends_with("List")
                && !matches!(api, "extensions/v1beta1" | "apps/v1beta1" | "apps/v1beta2")
        }
        Err(_) => true,
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

/// An `int32` field of the Deployment's spec. A number that is not one is refused as the API
/// server's decoder refuses it (`kubectl apply` prints `Deployment in version "v1" cannot be
/// handled as a Deployment: json: cannot unmarshal number 2147483648 into Go struct field
/// DeploymentSpec.spec.replicas of type int32`); anything else (a string, e.g. a placeholder
/// left in) is dropped with a note.
fn int_field(
    v: &Value,
    key: &str,
    path: &str,
    unsupported: &mut Vec<String>,
) -> Result<Option<i32>, String> {
    let Some(x) = v.get(key).filter(|x| !x.is_null()) else {
        return Ok(None);
    };
    match x {
        Value::Number(n) => n
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| int32_refusal(&format!("{path}.{key}"), &n.to_string())),
        _ => {
            unsupported.push(format!(
                "{path}.{key}: {x} is not a 32-bit integer, dropped"
            ));
            Ok(None)
        }
    }
}

/// The API server's refusal of a number that does not fit a Deployment's `int32` field at
/// `path` (`spec.replicas`), as its JSON decoder words it.
pub fn int32_refusal(path: &str, number: &str) -> String {
    format!(
        "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal number {number} into Go struct field DeploymentSpec.{path} of type int32"
    )
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

/// Reads a Deployment manifest (a `kubectl get -o yaml|json` object, or a file holding exactly
/// one Deployment among other objects).
pub fn import_deployment(text: &str) -> Result<Imported, String> {
    import_named(text, Pick::default())
}

/// Reads the Deployment `pick` chooses in a manifest file (see [`read_deployment`]).
pub fn import_named(text: &str, pick: Pick<'_>) -> Result<Imported, String> {
    let (v, notes, place) = read_deployment(text, pick)?;
    let mut imported = import_value(&v).map_err(|e| {
        if place.is_empty() {
            e
        } else {
            format!("{place}: {e}")
        }
    })?;
    imported.notes.splice(0..0, notes);
    Ok(imported)
}

/// Reads one Deployment object, already read as `apps/v1` (see [`read_deployment`]).
pub fn import_value(v: &Value) -> Result<Imported, String> {
    match v.get("kind").and_then(Value::as_str) {
        Some("Deployment") => {}
        Some(other) => return Err(format!("kind is {other}; Rollout Lab reads a Deployment")),
        None => return Err("the manifest has no `kind`; expected kind: Deployment".into()),
    }
    let mut unsupported = Vec::new();
    let name = v
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .ok_or("metadata.name: Required value: name is required")?
        .to_string();
    let null = Value::Null;
    let spec = v.get("spec").unwrap_or(&null);
    let template = spec.get("template").unwrap_or(&null);
    let containers = template
        .pointer("/spec/containers")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    // A partial Deployment (no containers, a container without its image, a patch's
    // `$patch` directives) is a kustomize patch far more often than a mistake: say so.
    if kustomize::has_patch_directive(v) {
        return Err(kustomize::patch_message(
            "the manifest holds strategic-merge-patch directives ($patch, $setElementOrder …)",
        ));
    }
    let image = match containers.first() {
        Some(c) => c
            .get("image")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                kustomize::patch_message("spec.template.spec.containers[0].image: Required value")
            })?
            .to_string(),
        None => {
            return Err(kustomize::patch_message(
                "spec.template.spec.containers: Required value",
            ))
        }
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
    // Placement (affinity, nodeSelector, topologySpreadConstraints, tolerations) is the
    // scheduler's: read below, its own reader naming what is not modelled.
    for (pointer, what, why) in [(
        "/spec/initContainers",
        "init containers are",
        "(the pod's start-up time stands for them)",
    )] {
        if template.pointer(pointer).is_some_and(|x| !x.is_null()) {
            unsupported.push(format!(
                "spec.template{}: {what} not modelled {why}, dropped",
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
    // The scenario format defaults a missing selector (and template labels) to `app: NAME`;
    // the API server refuses an apps/v1 Deployment without a selector. A kustomize base
    // leaves both to its overlays: it is planned, and says so.
    let mut notes = Vec::new();
    if v.get("apiVersion").and_then(Value::as_str) == Some("apps/v1")
        && spec.get("selector").is_none()
    {
        notes.push(format!(
            "spec.selector is missing, which the API server refuses for apps/v1 (spec.selector: Required value); planned with the selector app: {name}"
        ));
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
        replicas: int_field(spec, "replicas", "spec", &mut unsupported)?,
        image,
        strategy,
        min_ready_seconds: int_field(spec, "minReadySeconds", "spec", &mut unsupported)?,
        progress_deadline_seconds: int_field(
            spec,
            "progressDeadlineSeconds",
            "spec",
            &mut unsupported,
        )?,
        revision_history_limit: int_field(spec, "revisionHistoryLimit", "spec", &mut unsupported)?,
        paused: spec.get("paused").and_then(Value::as_bool),
        selector: selector
            .get("matchLabels")
            .and_then(|m| str_map(m, "spec.selector.matchLabels", &mut unsupported)),
        template_labels: template
            .pointer("/metadata/labels")
            .and_then(|m| str_map(m, "spec.template.metadata.labels", &mut unsupported)),
    };
    // The API server validates the whole object, the Deployment's own fields first.
    let (scheduling, placement) = match template.get("spec").filter(|s| s.is_object()) {
        Some(s) => crate::scheduler::pod_spec::read_pod_scheduling(s, "spec.template.spec")
            .map_err(|e| {
                let outcome = crate::validation::validate_create(&deployment);
                crate::validation::status_message(&outcome).map_or_else(
                    || format!("Deployment.apps {:?} is invalid: {e}", deployment.name),
                    str::to_string,
                )
            })?,
        None => Default::default(),
    };
    unsupported.extend(placement);
    Ok(Imported {
        deployment,
        unsupported,
        notes,
        scheduling,
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

    #[cfg(feature = "yaml")]
    const TWO_DOCS: &str = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  strategy: {type: Recreate, rollingUpdate: null}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: ${REGISTRY}/web:1.0\n---\n";

    #[cfg(feature = "yaml")]
    #[test]
    fn a_file_of_documents_is_read_as_kubectl_apply_reads_it() {
        let got = import_deployment(TWO_DOCS).unwrap();
        assert_eq!(got.deployment.name, "web");
        assert_eq!(
            got.notes[0],
            "read Deployment \"web\" (document 2); skipped 1 other object: 1 × Service and 1 empty document"
        );
        assert!(
            got.notes[1].starts_with(
                "unresolved placeholder ${REGISTRY} in spec.template.spec.containers[0].image"
            ),
            "{:?}",
            got.notes
        );
        // `rollingUpdate: null` is absent, so Recreate is valid.
        let s = got.deployment.strategy.as_ref().unwrap();
        assert_eq!(
            (s.type_.as_deref(), s.with_rolling_update),
            (Some("Recreate"), None)
        );
        assert!(crate::validation::validate_create(&got.deployment).is_valid());
        // The same file as the web's YAML reader hands it on: one JSON document per line.
        let json = documents_json(TWO_DOCS).unwrap();
        assert_eq!(json.lines().count(), 3);
        assert_eq!(import_deployment(&json).unwrap(), got);
    }

    #[cfg(feature = "yaml")]
    #[test]
    fn templates_and_broken_yaml_are_named_by_line() {
        let e = import_deployment("kind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n")
            .unwrap_err();
        assert!(
            e.starts_with("line 3: `{{` outside a string: this is a Helm template"),
            "{e}"
        );
        let e = import_deployment(
            "kind: Deployment\nspec:\n  selector: {}\n  replicas: 1\n  selector: {}\n",
        )
        .unwrap_err();
        assert_eq!(e, "error converting YAML to JSON: yaml: line 5: key \"selector\" already set in map (first at line 3)");
        let e = import_deployment("kind: Deployment\nspec:\n  replicas: 1\n bad: 2\n").unwrap_err();
        assert!(
            e.starts_with("error converting YAML to JSON: yaml: line 4"),
            "{e}"
        );
    }

    #[cfg(feature = "yaml")]
    #[test]
    fn an_extensions_v1beta1_deployment_gets_its_groups_defaults() {
        let yaml = "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: web:1\n";
        let got = import_deployment(yaml).unwrap();
        let d = &got.deployment;
        assert_eq!(
            d.selector.as_ref().unwrap().get("app").map(String::as_str),
            Some("web")
        );
        let s = d.strategy.as_ref().unwrap();
        assert_eq!(
            (s.max_surge.clone(), s.max_unavailable.clone()),
            (Some(IntOrString::Int(1)), Some(IntOrString::Int(1)))
        );
        assert_eq!(d.progress_deadline_seconds, Some(i32::MAX));
        assert!(
            got.notes[0].contains("removed from this group in Kubernetes 1.16"),
            "{:?}",
            got.notes
        );
        assert!(crate::validation::validate_create(d).is_valid());
    }
}

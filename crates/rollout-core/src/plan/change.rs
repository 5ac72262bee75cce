//! Planning a change: what the API server and the controllers do when `kubectl apply -f
//! NEW.yaml` is run over the Deployment OLD.yaml made, and its forecast.
//!
//! `kubectl apply` of a whole manifest makes the stored spec NEW's (fields NEW leaves out are
//! removed and the API server defaults them again: a `replicas` left out becomes 1). Then:
//! * the pod template changed (its content after the API server's defaults, e.g. an env var,
//!   resources, a probe, the image; not the Deployment's own labels): `pod-template-hash`
//!   changes and the Deployment controller rolls the pods (`getNewReplicaSet` finds no
//!   ReplicaSet with an equal template, `EqualIgnoreHash`);
//! * `spec.replicas` changed alone: a scale (`isScalingEvent`: `sync` scales the ReplicaSets,
//!   proportionally when a rollout is under way, `scale` in sync.go), no new pods but the
//!   added ones;
//! * both at once: the rollout to the new replica count;
//! * only the strategy, `minReadySeconds`, `progressDeadlineSeconds`, `revisionHistoryLimit`:
//!   the spec is stored, the generation bumps, no pod is replaced (they matter to the next
//!   rollout);
//! * nothing: `kubectl apply` says `deployment.apps/web unchanged`.
//!
//! A changed selector is refused, as the API server refuses it (`field is immutable`).
//!
//! Example: OLD 3 replicas of `nginx:1.14.2`, NEW the same with `env: [{name: A, value: "1"}]`
//! added to its container: a rollout, because `spec.template.spec.containers[web].env`
//! changed; with `replicas: 5` as well, a rollout and a scale to 5 together.
//!
//! The forecast creates OLD, waits until it is available, applies NEW in one round (its
//! replicas, its strategy and the template) and follows the rollout as `plan` does; the pods
//! start as NEW's manifest says (its probes, its grace period). The simulation's pod template
//! is labels and one image: a template change that keeps the image is simulated as the image
//! `IMAGE (pod template edited)`, which changes the hash as the real edit does.

use super::input::PlanOutput;
use super::manifest::{self, ClusterModel, ManifestDeployment};
use super::Subject;
use crate::scenario::{Action, ActionKind, DeploymentInput, Scenario, StrategyInput};
use serde::Serialize;
use serde_json::Value;

/// What applying NEW over OLD does, in the API server's and the controllers' terms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    /// `nothing`, `scale`, `rollout`, `rolloutAndScale` or `spec` (stored, no pod replaced).
    pub kind: String,
    /// One sentence: what happens and why.
    pub summary: String,
    /// Whether the pod template (hence `pod-template-hash`) changes: a new ReplicaSet.
    pub pod_template_hash_changes: bool,
    /// The pod template's fields that differ (after defaulting), e.g.
    /// `spec.template.spec.containers[web].env`.
    pub template_fields: Vec<String>,
    /// The Deployment spec's own fields that differ, `spec.replicas: 3 → 5`.
    pub spec_fields: Vec<String>,
}

/// The Deployment's spec fields outside the template that a change may set.
const SPEC_FIELDS: [&str; 6] = [
    "replicas",
    "strategy",
    "minReadySeconds",
    "progressDeadlineSeconds",
    "revisionHistoryLimit",
    "paused",
];

/// A pod template with the API server's defaults filled in where it leaves them out
/// (`pkg/apis/core/v1/defaults.go`: `SetDefaults_PodSpec`, `SetDefaults_Container`,
/// `SetDefaults_Probe`, `SetDefaults_ContainerPort`), so that `kubectl get -o yaml` output and
/// the manifest it came from compare equal.
fn defaulted_template(template: &Value) -> Value {
    let mut t = template.clone();
    let set = |o: &mut serde_json::Map<String, Value>, k: &str, v: Value| {
        o.entry(k.to_string()).or_insert(v);
    };
    if let Some(meta) = t.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("creationTimestamp");
    }
    if let Some(spec) = t.get_mut("spec").and_then(Value::as_object_mut) {
        set(spec, "dnsPolicy", Value::from("ClusterFirst"));
        set(spec, "restartPolicy", Value::from("Always"));
        set(spec, "schedulerName", Value::from("default-scheduler"));
        set(spec, "securityContext", serde_json::json!({}));
        set(spec, "terminationGracePeriodSeconds", Value::from(30));
        for key in ["containers", "initContainers"] {
            let Some(list) = spec.get_mut(key).and_then(Value::as_array_mut) else {
                continue;
            };
            for c in list.iter_mut().filter_map(Value::as_object_mut) {
                let image = c.get("image").and_then(Value::as_str).unwrap_or_default();
                // SetDefaults_Container: Always for `:latest` or no tag, else IfNotPresent.
                let tag = image.rsplit('/').next().unwrap_or("");
                let latest = !tag.contains(':') || tag.ends_with(":latest");
                let policy = if latest && !image.contains('@') {
                    "Always"
                } else {
                    "IfNotPresent"
                };
                set(c, "imagePullPolicy", Value::from(policy));
                set(
                    c,
                    "terminationMessagePath",
                    Value::from("/dev/termination-log"),
                );
                set(c, "terminationMessagePolicy", Value::from("File"));
                set(c, "resources", serde_json::json!({}));
                for probe in ["readinessProbe", "livenessProbe", "startupProbe"] {
                    if let Some(p) = c.get_mut(probe).and_then(Value::as_object_mut) {
                        set(p, "timeoutSeconds", Value::from(1));
                        set(p, "periodSeconds", Value::from(10));
                        set(p, "successThreshold", Value::from(1));
                        set(p, "failureThreshold", Value::from(3));
                    }
                }
                if let Some(ports) = c.get_mut("ports").and_then(Value::as_array_mut) {
                    for p in ports.iter_mut().filter_map(Value::as_object_mut) {
                        set(p, "protocol", Value::from("TCP"));
                    }
                }
            }
        }
    }
    t
}

/// How an element of a list is named in a path: `containers[web]` by its `name`, else its
/// index.
fn element_name(v: &Value, i: usize) -> String {
    v.get("name")
        .and_then(Value::as_str)
        .map_or_else(|| i.to_string(), str::to_string)
}

/// The paths under `path` where `a` and `b` differ: objects key by key, lists of named
/// elements (containers, env, ports) element by name, anything else as a whole.
fn differences(path: &str, a: Option<&Value>, b: Option<&Value>, out: &mut Vec<String>) {
    match (a, b) {
        (Some(x), Some(y)) if x == y => {}
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                differences(&format!("{path}.{k}"), x.get(k), y.get(k), out);
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y)))
            if x.iter().chain(y).all(|e| e.get("name").is_some()) =>
        {
            let names = |l: &Vec<Value>| -> Vec<String> {
                l.iter()
                    .enumerate()
                    .map(|(i, e)| element_name(e, i))
                    .collect()
            };
            let (nx, ny) = (names(x), names(y));
            let mut all = nx.clone();
            all.extend(ny.iter().filter(|n| !nx.contains(n)).cloned());
            for n in &all {
                let find = |l: &Vec<Value>, ns: &Vec<String>| {
                    ns.iter().position(|m| m == n).map(|i| l[i].clone())
                };
                let (ex, ey) = (find(x, &nx), find(y, &ny));
                differences(&format!("{path}[{n}]"), ex.as_ref(), ey.as_ref(), out);
            }
            if nx
                .iter()
                .filter(|n| ny.contains(n))
                .ne(ny.iter().filter(|n| nx.contains(n)))
            {
                out.push(format!("{path} (order)"));
            }
        }
        _ => out.push(path.to_string()),
    }
}

/// A field's value as written, for `spec.replicas: 3 → 5`; `absent` when left out.
fn shown(v: Option<&Value>) -> String {
    v.map_or_else(|| "absent".to_string(), Value::to_string)
}

/// The spec field `key` of a Deployment as the API server stores it: `replicas` left out is 1,
/// `paused` false, the strategy defaulted (RollingUpdate 25 %/25 %), the rest as their
/// defaults (`SetDefaults_Deployment`).
fn stored(d: &DeploymentInput, key: &str) -> Value {
    match key {
        "replicas" => Value::from(d.replicas.unwrap_or(1)),
        "strategy" => serde_json::to_value(d.defaulted_strategy()).unwrap_or(Value::Null),
        "minReadySeconds" => Value::from(d.min_ready_seconds.unwrap_or(0)),
        "progressDeadlineSeconds" => Value::from(d.progress_deadline_seconds.unwrap_or(600)),
        "revisionHistoryLimit" => Value::from(d.revision_history_limit.unwrap_or(10)),
        _ => Value::from(d.paused.unwrap_or(false)),
    }
}

/// Compares OLD's and NEW's Deployments (the objects as read, and their imports) as `kubectl
/// apply` and the API server would. `Err`: the API server's refusal of the update.
pub fn compare(
    old: (&Value, &DeploymentInput),
    new: (&Value, &DeploymentInput),
) -> Result<Change, String> {
    let outcome = crate::validation::validate_update(new.1, old.1);
    if let Some(m) = crate::validation::status_message(&outcome) {
        return Err(m.to_string());
    }
    let null = Value::Null;
    let template = |v: &Value| defaulted_template(v.pointer("/spec/template").unwrap_or(&null));
    let mut template_fields = Vec::new();
    differences(
        "spec.template",
        Some(&template(old.0)),
        Some(&template(new.0)),
        &mut template_fields,
    );
    let mut spec_fields = Vec::new();
    for key in SPEC_FIELDS {
        let (a, b) = (stored(old.1, key), stored(new.1, key));
        if a != b {
            let written = |v: &Value| shown(v.pointer(&format!("/spec/{key}")));
            let note = if new.0.pointer(&format!("/spec/{key}")).is_none() {
                " (left out of NEW: the API server defaults it)"
            } else {
                ""
            };
            spec_fields.push(if key == "strategy" {
                format!(
                    "spec.strategy: {} → {}{note}",
                    written(old.0),
                    written(new.0)
                )
            } else {
                format!("spec.{key}: {a} → {b}{note}")
            });
        }
    }
    let rolls = !template_fields.is_empty();
    let scales = spec_fields.iter().any(|f| f.starts_with("spec.replicas"));
    let name = &new.1.name;
    let (kind, summary) = match (rolls, scales, spec_fields.is_empty()) {
        (true, true, _) => ("rolloutAndScale", format!(
            "a rollout and a scale together: the pod template changed ({}), so pod-template-hash changes and the Deployment controller creates a new ReplicaSet, rolling the pods to {} replicas",
            template_fields.join(", "), stored(new.1, "replicas")
        )),
        (true, false, _) => ("rollout", format!(
            "a rollout: the pod template changed ({}), so pod-template-hash changes and the Deployment controller creates a new ReplicaSet and replaces every pod",
            template_fields.join(", ")
        )),
        (false, true, _) => ("scale", format!(
            "a scale, no rollout: the pod template is unchanged (pod-template-hash stays), the Deployment controller scales the current ReplicaSet from {} to {} replicas",
            stored(old.1, "replicas"), stored(new.1, "replicas")
        )),
        (false, false, false) => ("spec", format!(
            "no pod is replaced: the pod template is unchanged; the API server stores the new spec ({}) and bumps the generation, which the next rollout uses",
            spec_fields.join(", ")
        )),
        (false, false, true) => ("nothing", format!(
            "nothing: the Deployment's spec is unchanged after the API server's defaults (kubectl apply prints deployment.apps/{name} unchanged, or configured for metadata alone)"
        )),
    };
    Ok(Change {
        kind: kind.to_string(),
        summary,
        pod_template_hash_changes: rolls,
        template_fields,
        spec_fields,
    })
}

/// A scale during the rollout: `--scale-at 30s=10`, seconds after NEW is applied (or after the
/// image is set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScaleAt {
    /// Seconds after the rollout starts.
    pub seconds: i64,
    /// The new `spec.replicas`.
    pub replicas: i32,
}

/// Reads `30s=10` (a duration, `=`, a replica count); errors name `what` (`--scale-at`).
pub fn parse_scale_at(what: &str, text: &str) -> Result<ScaleAt, String> {
    let (t, n) = text
        .split_once('=')
        .ok_or_else(|| format!("{what} {text:?}: expected TIME=REPLICAS, such as 30s=10"))?;
    let seconds = super::input::parse_duration(what, t)?;
    let replicas = n
        .trim()
        .parse::<i32>()
        .ok()
        .filter(|r| *r >= 0)
        .ok_or_else(|| {
            format!("{what} {text:?}: expected a replica count of at least 0 after =")
        })?;
    Ok(ScaleAt { seconds, replicas })
}

/// `scenario` with a `kubectl scale` for each of `scales`, in the round `seconds` after its
/// rollout starts (its last `setImage`): at 1 s rounds, `30s=10` from a start in round 11 is
/// `scale --replicas=10` in round 41.
pub fn add_scales(scenario: &mut Scenario, scales: &[ScaleAt]) -> Result<(), String> {
    if scales.is_empty() {
        return Ok(());
    }
    let target = super::rollout_target(scenario)?;
    for s in scales {
        let round = target
            .start_round
            .saturating_add(manifest::rounds_for(s.seconds, scenario.seconds_per_round));
        scenario.actions.push(Action {
            round,
            kind: ActionKind::Scale {
                name: Some(target.deployment.clone()),
                replicas: s.replicas,
            },
        });
        scenario.rounds = scenario.rounds.max(round.saturating_add(scenario.rounds));
    }
    scenario.rounds = scenario.rounds.min(crate::limits::MAX_ROUNDS);
    scenario.actions.sort_by_key(|a| a.round);
    Ok(())
}

/// A warning for each scale of `scales` that comes after the rollout completes: the forecast
/// ends at completion (`kubectl rollout status` succeeds), so it leaves that scale out.
pub fn late_scales(plan: &PlanOutput, scales: &[ScaleAt]) -> Vec<String> {
    let Some(done) = plan.forecast.duration_seconds else {
        return Vec::new();
    };
    scales
        .iter()
        .filter(|s| s.seconds >= done)
        .map(|s| {
            format!(
                "the scale to {} replicas at {} s comes after the rollout completes ({done} s): the forecast ends there and leaves it out",
                s.replicas, s.seconds
            )
        })
        .collect()
}

/// A planned change: what it does and its forecast (`rollout plan OLD NEW --json`,
/// `plan({before, after})`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeOutput {
    /// The forecast, as for one manifest; the rollout starts when NEW is applied.
    #[serde(flatten)]
    pub plan: PlanOutput,
    /// What applying NEW does.
    pub change: Change,
}

/// The image the simulation sets for NEW: NEW's own when it differs from OLD's; for a
/// template edit that keeps the image, a name that differs (see the module's comment); for no
/// template change, OLD's (a write that changes nothing).
fn simulated_image(change: &Change, old: &DeploymentInput, new: &DeploymentInput) -> String {
    if !change.pod_template_hash_changes || new.image != old.image {
        new.image.clone()
    } else {
        format!("{} (pod template edited)", new.image)
    }
}

/// The actions that apply NEW's spec over OLD's in round `round`, the template last.
fn apply_actions(
    old: &DeploymentInput,
    new: &DeploymentInput,
    image: &str,
    round: u32,
) -> Vec<Action> {
    let name = Some(new.name.clone());
    let mut kinds = Vec::new();
    if stored(old, "replicas") != stored(new, "replicas") {
        kinds.push(ActionKind::Scale {
            name: name.clone(),
            replicas: new.replicas.unwrap_or(1),
        });
    }
    if stored(old, "strategy") != stored(new, "strategy") {
        kinds.push(ActionKind::SetStrategy {
            name: name.clone(),
            strategy: new.strategy.clone().unwrap_or_else(|| StrategyInput {
                type_: Some("RollingUpdate".into()),
                ..StrategyInput::default()
            }),
        });
    }
    for (key, make) in [
        (
            "minReadySeconds",
            (|n, v| ActionKind::SetMinReadySeconds { name: n, value: v })
                as fn(Option<String>, i32) -> ActionKind,
        ),
        ("progressDeadlineSeconds", |n, v| {
            ActionKind::SetProgressDeadlineSeconds { name: n, value: v }
        }),
        ("revisionHistoryLimit", |n, v| {
            ActionKind::SetRevisionHistoryLimit { name: n, value: v }
        }),
    ] {
        let v = stored(new, key);
        if stored(old, key) != v {
            kinds.push(make(
                name.clone(),
                v.as_i64().and_then(|v| i32::try_from(v).ok()).unwrap_or(0),
            ));
        }
    }
    if stored(old, "paused") != stored(new, "paused") {
        kinds.push(if new.paused == Some(true) {
            ActionKind::Pause { name: name.clone() }
        } else {
            ActionKind::Resume { name: name.clone() }
        });
    }
    kinds.push(ActionKind::SetImage {
        name,
        image: image.to_string(),
    });
    kinds
        .into_iter()
        .map(|kind| Action { round, kind })
        .collect()
}

/// The forecast of applying `new` over `old` in `model`, with `scales` during it: the change,
/// the output object, the scenario run and its simulation (for a report).
pub fn plan_change(
    old: &ManifestDeployment,
    old_value: &Value,
    new: &ManifestDeployment,
    new_value: &Value,
    model: &ClusterModel,
    scales: &[ScaleAt],
    limits: &crate::limits::Limits,
) -> Result<(ChangeOutput, Scenario, crate::sim::Simulation), String> {
    let change = compare((old_value, &old.deployment), (new_value, &new.deployment))?;
    let image = simulated_image(&change, &old.deployment, &new.deployment);
    // NEW's pods, NEW's probes and grace period; the image rolled out is the simulated one.
    // A template edit that keeps the image pulls nothing: OLD's pods have it on their nodes
    // (the simulated image's other name must not cost a pull).
    let keeps_image = image != new.deployment.image;
    let mut model = ClusterModel {
        image: Some(image.clone()),
        ..model.clone()
    };
    if keeps_image {
        model.pull_seconds = 0;
        model.ready_after_seconds = None;
    }
    let mut resolved = manifest::resolve(new, &model);
    resolved.old_image = old.deployment.image.clone();
    let mut scenario = manifest::manifest_scenario(&old.deployment, &resolved)?;
    let start = scenario.actions[1].round;
    scenario.actions.truncate(1);
    scenario.actions.extend(apply_actions(
        &old.deployment,
        &new.deployment,
        &image,
        start,
    ));
    scenario.description = format!(
        "kubectl apply -f NEW over deployment/{}",
        new.deployment.name
    );
    // A longer rollout than OLD's allows for: NEW's replicas (and any scale) in the limit.
    let most = scales
        .iter()
        .map(|s| s.replicas)
        .chain([new.deployment.replicas.unwrap_or(1)])
        .max()
        .unwrap_or(1);
    if most > old.deployment.replicas.unwrap_or(1) {
        let grown = DeploymentInput {
            replicas: Some(most),
            ..old.deployment.clone()
        };
        let limit = manifest::manifest_scenario(&grown, &resolved)?.rounds;
        scenario.rounds = scenario.rounds.max(limit);
    }
    add_scales(&mut scenario, scales)?;
    resolved.new_image = new.deployment.image.clone();
    let subject = Subject::Scenario(scenario.clone());
    let mut notes: Vec<String> = new.notes.clone();
    notes.extend(new.unsupported.iter().map(|u| format!("not modelled: {u}")));
    notes.extend(resolved.notes.iter().cloned());
    if keeps_image {
        notes.push(format!(
            "the pod template changes but not the image: simulated as the image {image:?} (the simulation's template is labels and one image), with no pull, since OLD's pods have the image on their nodes"
        ));
    }
    let (mut plan, scenario, sim) = super::input::plan_subject_with(&subject, &notes, limits)?;
    plan.model = Some(resolved);
    let late = late_scales(&plan, scales);
    plan.warnings.extend(late);
    Ok((ChangeOutput { plan, change }, scenario, sim))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deployment(v: &Value) -> DeploymentInput {
        crate::import::import_value(v).unwrap().deployment
    }

    fn web(extra: Value) -> Value {
        let mut v = serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web"},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
              "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx:1.14.2",
                  "ports": [{"containerPort": 80}]}]}}}});
        if let (Value::Object(spec), Value::Object(extra)) = (&mut v["spec"], extra) {
            for (k, x) in extra {
                spec.insert(k, x);
            }
        }
        v
    }

    fn change(a: &Value, b: &Value) -> Change {
        compare((a, &deployment(a)), (b, &deployment(b))).unwrap()
    }

    #[test]
    fn the_kind_of_change_follows_the_template_and_replicas() {
        let old = web(serde_json::json!({}));
        assert_eq!(change(&old, &old).kind, "nothing");
        // The API server's defaults written out (kubectl get -o yaml) change nothing.
        let mut got = old.clone();
        got["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"] = "IfNotPresent".into();
        got["spec"]["template"]["spec"]["containers"][0]["ports"][0]["protocol"] = "TCP".into();
        got["spec"]["template"]["spec"]["dnsPolicy"] = "ClusterFirst".into();
        got["spec"]["strategy"] = serde_json::json!({"type": "RollingUpdate",
            "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}});
        assert_eq!(
            change(&got, &old).kind,
            "nothing",
            "{:?}",
            change(&got, &old)
        );
        let mut env = old.clone();
        env["spec"]["template"]["spec"]["containers"][0]["env"] =
            serde_json::json!([{"name": "A", "value": "1"}]);
        let c = change(&old, &env);
        assert_eq!(c.kind, "rollout");
        assert_eq!(
            c.template_fields,
            vec!["spec.template.spec.containers[web].env"]
        );
        assert!(c.pod_template_hash_changes);
        let mut five = old.clone();
        five["spec"]["replicas"] = 5.into();
        let c = change(&old, &five);
        assert_eq!(
            (c.kind.as_str(), c.spec_fields.clone()),
            ("scale", vec!["spec.replicas: 3 → 5".to_string()])
        );
        let mut both = env.clone();
        both["spec"]["replicas"] = 5.into();
        assert_eq!(change(&old, &both).kind, "rolloutAndScale");
        let mut recreate = old.clone();
        recreate["spec"]["strategy"] = serde_json::json!({"type": "Recreate"});
        let c = change(&old, &recreate);
        assert_eq!(c.kind, "spec");
        assert!(
            c.spec_fields[0].starts_with("spec.strategy: absent → {\"type\":\"Recreate\"}"),
            "{c:?}"
        );
        // replicas left out of NEW: the API server defaults it to 1.
        let mut none = old.clone();
        none["spec"].as_object_mut().unwrap().remove("replicas");
        let c = change(&old, &none);
        assert_eq!(
            c.spec_fields,
            vec!["spec.replicas: 3 → 1 (left out of NEW: the API server defaults it)".to_string()]
        );
    }

    #[test]
    fn a_changed_selector_is_refused_as_immutable() {
        let old = web(serde_json::json!({}));
        let mut new = old.clone();
        new["spec"]["selector"]["matchLabels"]["tier"] = "front".into();
        new["spec"]["template"]["metadata"]["labels"]["tier"] = "front".into();
        let e = compare((&old, &deployment(&old)), (&new, &deployment(&new))).unwrap_err();
        assert!(
            e.contains("spec.selector") && e.contains("field is immutable"),
            "{e}"
        );
    }

    #[test]
    fn scale_at_reads_a_time_and_a_count() {
        assert_eq!(
            parse_scale_at("--scale-at", "30s=10"),
            Ok(ScaleAt {
                seconds: 30,
                replicas: 10
            })
        );
        assert_eq!(
            parse_scale_at("--scale-at", "1m=0"),
            Ok(ScaleAt {
                seconds: 60,
                replicas: 0
            })
        );
        for bad in ["30s", "30s=-1", "x=3", "30s=ten"] {
            assert!(
                parse_scale_at("--scale-at", bad)
                    .unwrap_err()
                    .starts_with("--scale-at"),
                "{bad}"
            );
        }
    }
}

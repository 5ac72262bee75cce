//! A manifest's rollout as a scenario: `kubectl apply` of the Deployment, time for it to become
//! available, then `kubectl set image` to the new image, in a cluster model given in seconds
//! (how long a pod takes to become ready, how long a deleted pod terminates) and run in
//! settled rounds, so the controllers react as fast as a real cluster's do.
//!
//! Example: 10 replicas, pods ready 30 s after creation, 1 s rounds: the pods created in round 0
//! are ready and available in round 30, so the image is set in round 31; with 5 s rounds they
//! are ready in round 6 and the image is set in round 7. Either way each wave takes 30 s.
//!
//! A manifest with readiness or startup probes is timed by the kubelet's probe rules instead
//! (`plan::startup`, `kubelet::probes`): podinfo's `initialDelaySeconds: 5` (period 10) makes
//! a pod Ready 10 s after its admission, so its image is set in round 11.

use super::startup::{Startup, StartupRead};
use crate::scenario::{Action, ActionKind, DeploymentInput, Scenario};
use crate::version::KubernetesVersion;
use serde::{Deserialize, Serialize};

/// The cluster a manifest's rollout is forecast in (the `rollout plan` flags).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterModel {
    /// Deprecated (`--ready-after`, `readyAfter`): it once timed a pod without probes from
    /// creation to Ready. Such a pod is Ready when its containers have started, as the kubelet
    /// rules, so the value is read as the image pull ([`ClusterModel::pull_seconds`]), with a
    /// note saying so ([`ready_after_note`]).
    #[serde(default)]
    pub ready_after_seconds: Option<i64>,
    /// Seconds to pull the image onto a node that lacks it (`--pull`, default 0).
    #[serde(default)]
    pub pull_seconds: i64,
    /// Seconds from a container's start until the app answers its probes (`--app-ready`,
    /// default 0).
    #[serde(default)]
    pub app_ready_seconds: i64,
    /// Simulated seconds per round (`--seconds-per-round`, default 1).
    pub seconds_per_round: i64,
    /// Nodes the pods are spread over (`--nodes`, default 3).
    pub nodes: u32,
    /// Seconds a deleted pod stays Terminating (`--termination`; absent: the manifest's
    /// `terminationGracePeriodSeconds`, which Kubernetes defaults to 30).
    pub termination_seconds: Option<i64>,
    /// The new image never becomes ready (`--bad-image`).
    pub bad_image: bool,
    /// The image to roll out (`--image`; absent: the next version of the current one).
    pub image: Option<String>,
    /// A pods quota in the namespace (`--pod-quota`; absent: none).
    pub pod_quota: Option<i32>,
    /// The nodes' sizes, zones or list (`--node-cpu`, `--node-memory`, `--zones`,
    /// `--nodes-file`; see `plan::scheduling`).
    #[serde(
        default,
        skip_serializing_if = "super::scheduling::NodeFlags::is_empty"
    )]
    pub node_sizes: super::scheduling::NodeFlags,
    /// The requests to the Service in front of the Deployment (`--load`, `--pod-capacity`,
    /// `--endpoint-delay`, `--exit-after-sigterm`, `--pre-stop`; see `plan::traffic`).
    #[serde(default)]
    pub traffic: super::traffic::TrafficFlags,
    /// The Kubernetes release whose controllers run the rollout (`--kubernetes`,
    /// `kubernetesVersion`; default 1.37, [`KubernetesVersion::DEFAULT`]).
    #[serde(
        default = "default_kubernetes",
        skip_serializing_if = "is_default_kubernetes"
    )]
    pub kubernetes_version: KubernetesVersion,
}

/// A forecast's release when none is named: the newest, 1.37.
fn default_kubernetes() -> KubernetesVersion {
    KubernetesVersion::DEFAULT
}

/// Whether it is that default (then it is not written).
fn is_default_kubernetes(v: &KubernetesVersion) -> bool {
    *v == KubernetesVersion::DEFAULT
}

impl Default for ClusterModel {
    fn default() -> Self {
        ClusterModel {
            ready_after_seconds: None,
            pull_seconds: 0,
            app_ready_seconds: 0,
            seconds_per_round: 1,
            nodes: 3,
            termination_seconds: None,
            bad_image: false,
            image: None,
            pod_quota: None,
            node_sizes: Default::default(),
            traffic: Default::default(),
            kubernetes_version: KubernetesVersion::DEFAULT,
        }
    }
}

/// What the deprecated `--ready-after T` (`readyAfter`) is read as, in words: the pull.
pub fn ready_after_note(seconds: i64) -> String {
    format!(
        "--ready-after (plan()'s readyAfter) is deprecated: a pod is Ready once its containers have started and its readiness probes, if any, succeed (the kubelet's rule), so {seconds} s is read as the image pull: --pull {seconds}s (plan()'s pull)"
    )
}

/// `terminationGracePeriodSeconds` when a pod spec leaves it out.
pub const DEFAULT_TERMINATION_GRACE_SECONDS: i64 = 30;

/// A Deployment manifest read for planning.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ManifestDeployment {
    /// The Deployment as the scenario's `create` action writes it.
    pub deployment: DeploymentInput,
    /// `spec.template.spec.terminationGracePeriodSeconds`, when the manifest sets it.
    pub termination_grace_period_seconds: Option<i64>,
    /// Fields that change a rollout but are not modelled (one line each).
    pub unsupported: Vec<String>,
    /// The name of the (first) container, which `kubectl set image deployment/NAME
    /// CONTAINER=IMAGE` names; empty when the manifest gives none.
    #[serde(default)]
    pub container: String,
    /// How the file was read (what was skipped beside the Deployment, an old API group,
    /// unresolved placeholders), one line each.
    #[serde(default)]
    pub notes: Vec<String>,
    /// The pods' start-up as the manifest gives it: containers, probes, init containers.
    #[serde(skip_deserializing)]
    pub startup: StartupRead,
    /// What the pods ask of a node: requests, nodeSelector, required (anti-)affinity, spreads.
    #[serde(default)]
    pub scheduling: crate::scheduler::pod_spec::PodScheduling,
    /// The first container's `lifecycle.preStop` sleep, in seconds (0: none, or a hook the
    /// model cannot time, with a note; `crate::traffic::pre_stop`).
    #[serde(default)]
    pub pre_stop_sleep_seconds: i64,
}

impl ManifestDeployment {
    /// The container `kubectl set image` names: the manifest's, else the scenarios' `app`.
    pub fn container_name(&self) -> &str {
        if self.container.is_empty() {
            "app"
        } else {
            &self.container
        }
    }
}

/// Reads `kubectl get deployment -o yaml|json` output (or a plain manifest) for planning:
/// the import's Deployment plus the pods' termination grace period.
pub fn read_manifest(text: &str) -> Result<ManifestDeployment, String> {
    read_manifest_named(text, crate::import::Pick::default())
}

/// [`read_manifest`] of the Deployment `pick` chooses in a file of several objects.
pub fn read_manifest_named(
    text: &str,
    pick: crate::import::Pick<'_>,
) -> Result<ManifestDeployment, String> {
    let (value, mut notes, place) = crate::import::read_deployment(text, pick)?;
    let imported = crate::import::import_value(&value).map_err(|e| {
        if place.is_empty() {
            e
        } else {
            format!("{place}: {e}")
        }
    })?;
    let spec = value.pointer("/spec/template/spec");
    let (termination_grace_period_seconds, grace_note) = read_grace_period(spec)?;
    notes.extend(grace_note);
    let (pre_stop_sleep_seconds, pre_stop_note) = spec
        .and_then(|s| s.pointer("/containers/0"))
        .map_or((0, None), crate::traffic::pre_stop::read_pre_stop);
    notes.extend(pre_stop_note);
    let container = spec
        .and_then(|s| s.pointer("/containers/0/name"))
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default()
        .to_string();
    // The API server validates the whole object and the Deployment's own fields come first in
    // its message: a manifest refused for its name (file 31 of ../shared/manifests) says so,
    // not that a probe further down is invalid.
    let startup = read_startup(
        spec,
        termination_grace_period_seconds,
        &imported.deployment.name,
    )
    .map_err(|probe| {
        let outcome = crate::validation::validate_create(&imported.deployment);
        crate::validation::status_message(&outcome).map_or(probe, str::to_string)
    })?;
    Ok(ManifestDeployment {
        pre_stop_sleep_seconds,
        scheduling: imported.scheduling,
        startup,
        deployment: imported.deployment,
        termination_grace_period_seconds,
        // The probes, init containers and native sidecars are modelled now (`plan::startup`):
        // the import's notes on them are not.
        unsupported: imported
            .unsupported
            .into_iter()
            .filter(|u| !u.contains("readinessProbe") && !u.contains("initContainers"))
            .collect(),
        container,
        notes: {
            notes.extend(imported.notes);
            notes
        },
    })
}

/// `terminationGracePeriodSeconds` as the API server takes it: a number that is no `int64` is
/// refused as its decoder refuses it; a negative one is accepted (v1.28's validation does not
/// check it) and a pod deleted with it gets 1 s (`pkg/registry/core/pod/strategy.go`,
/// `CheckGracefulDelete`: `if period < 0 { period = 1 }`), with a note saying so.
fn read_grace_period(
    spec: Option<&serde_json::Value>,
) -> Result<(Option<i64>, Option<String>), String> {
    let Some(x) = spec.and_then(|s| s.get("terminationGracePeriodSeconds")) else {
        return Ok((None, None));
    };
    let Some(n) = x.as_i64() else {
        return Err(format!(
            "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal {} into Go struct field PodSpec.spec.template.spec.terminationGracePeriodSeconds of type int64",
            match x {
                serde_json::Value::Number(n) => format!("number {n}"),
                serde_json::Value::String(_) => "string".to_string(),
                serde_json::Value::Bool(_) => "bool".to_string(),
                serde_json::Value::Array(_) => "array".to_string(),
                _ => "object".to_string(),
            }
        ));
    };
    if n < 0 {
        return Ok((
            Some(1),
            Some(format!(
                "terminationGracePeriodSeconds {n}: the API server accepts a negative grace period and deletes the pods with 1 s instead (CheckGracefulDelete)"
            )),
        ));
    }
    Ok((Some(n), None))
}

/// The pods' start-up in a pod spec: its probes, read as the API server defaults them (a
/// negative value is refused with its message).
fn read_startup(
    spec: Option<&serde_json::Value>,
    termination_grace_period_seconds: Option<i64>,
    name: &str,
) -> Result<StartupRead, String> {
    let probes = match spec {
        Some(spec) => crate::kubelet::probes::read_pod_probes(spec, "spec.template.spec")
            .map_err(|e| format!("Deployment.apps {name:?} is invalid: {e}"))?,
        None => Default::default(),
    };
    let sidecars = spec
        .and_then(|s| s.get("initContainers"))
        .and_then(serde_json::Value::as_array)
        .map(|list| {
            list.iter()
                .filter(|c| {
                    c.get("restartPolicy").and_then(serde_json::Value::as_str) == Some("Always")
                })
                .filter_map(|c| c.get("name").and_then(serde_json::Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    Ok(StartupRead {
        containers: probes.containers,
        init_containers: probes.init_containers,
        sidecars,
        termination_grace_period_seconds,
    })
}

/// Rounds that cover `seconds` in `seconds_per_round` steps, rounding up (30 s in 7 s rounds:
/// 5 rounds, i.e. 35 s).
pub fn rounds_for(seconds: i64, seconds_per_round: i64) -> u32 {
    let spr = seconds_per_round.max(1);
    u32::try_from((seconds.max(0) + spr - 1) / spr).unwrap_or(u32::MAX)
}

/// The cluster model with every default filled in, and what was rounded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedModel {
    /// Seconds from creation to Ready, as simulated (a whole number of rounds): with probes, a
    /// new pod's on a node without its image.
    pub ready_after_seconds: i64,
    /// How the pods start: what was read from the manifest, what was assumed, and a new pod's
    /// start-up that follows.
    #[serde(skip_deserializing)]
    pub startup: Startup,
    /// Seconds per round.
    pub seconds_per_round: i64,
    /// Nodes.
    pub nodes: u32,
    /// Seconds a deleted pod terminates, as simulated (a whole number of rounds).
    pub termination_seconds: i64,
    /// Where the termination time came from: `--termination`, the manifest, or the default.
    pub termination_from: String,
    /// The current image.
    pub old_image: String,
    /// The image rolled out.
    pub new_image: String,
    /// Whether the new image never becomes ready.
    pub bad_image: bool,
    /// The pods quota, if any.
    pub pod_quota: Option<i32>,
    /// One line per value that had to be rounded up to whole rounds.
    pub notes: Vec<String>,
    /// The scheduler's model: the nodes and what the pods ask (absent: every pod fits every
    /// node).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduling: Option<crate::scheduler::SchedulingModel>,
    /// The traffic model's assumptions: the flags over the defaults and the manifest's
    /// `preStop` sleep.
    #[serde(skip_deserializing)]
    pub traffic: crate::traffic::TrafficModel,
    /// A traffic flag out of range (the forecast is then refused with it).
    #[serde(skip)]
    pub traffic_refused: Option<String>,
    /// The Kubernetes release whose controllers run the rollout.
    #[serde(
        default = "default_kubernetes",
        skip_serializing_if = "is_default_kubernetes"
    )]
    pub kubernetes_version: KubernetesVersion,
}

impl ResolvedModel {
    /// What follows from the manifest and the assumptions for a new pod, in a sentence for a
    /// front end: "A new pod on a node without its image: containers running from 12 s, Ready
    /// at 20 s (its probes)."
    pub fn pod_summary(&self) -> String {
        let s = &self.startup;
        format!(
            "A new pod on a node without its image: containers running from {} s, {} ({}).",
            s.running_seconds,
            s.ready_seconds
                .map_or("never Ready".to_string(), |r| format!("Ready at {r} s")),
            if s.by_probes() {
                "its readiness and startup probes"
            } else {
                "no probe: Ready once its containers run"
            }
        )
    }

    /// Where the termination comes from: "Deleted pods terminate for 30 s
    /// (terminationGracePeriodSeconds)."
    pub fn termination_summary(&self) -> String {
        format!(
            "Deleted pods terminate for {} s ({}).",
            self.termination_seconds, self.termination_from
        )
    }

    /// [`ResolvedModel::pod_summary`] and [`ResolvedModel::termination_summary`].
    pub fn summary(&self) -> String {
        format!("{} {}", self.pod_summary(), self.termination_summary())
    }
}

/// Fills in the model's defaults for `manifest`.
pub fn resolve(manifest: &ManifestDeployment, model: &ClusterModel) -> ResolvedModel {
    let spr = model.seconds_per_round.max(1);
    let mut notes = Vec::new();
    let mut whole = |what: &str, seconds: i64| {
        let rounded = i64::from(rounds_for(seconds, spr)) * spr;
        if rounded != seconds {
            notes.push(format!(
                "{what} {seconds} s is not a whole number of {spr} s rounds: simulated as {rounded} s"
            ));
        }
        rounded
    };
    let (termination, termination_from) = match (
        model.termination_seconds,
        manifest.termination_grace_period_seconds,
    ) {
        (Some(s), _) => (s, "--termination".to_string()),
        (None, Some(s)) => (s, "terminationGracePeriodSeconds".to_string()),
        (None, None) => (
            DEFAULT_TERMINATION_GRACE_SECONDS,
            "Kubernetes' default terminationGracePeriodSeconds".to_string(),
        ),
    };
    let old_image = manifest.deployment.image.clone();
    let pull = model.ready_after_seconds.unwrap_or(model.pull_seconds);
    let startup = Startup::new(manifest.startup.clone(), pull, model.app_ready_seconds);
    let ready_after = startup.ready_seconds.unwrap_or(0);
    let ready_after_seconds = whole("the pod start-up", ready_after);
    let termination_seconds = whole("the termination", termination);
    if let Some(t) = model.ready_after_seconds {
        notes.insert(0, ready_after_note(t));
    }
    let traffic = model.traffic.model(manifest.pre_stop_sleep_seconds);
    ResolvedModel {
        ready_after_seconds,
        startup,
        seconds_per_round: spr,
        nodes: match &model.node_sizes.list {
            Some(list) => u32::try_from(list.len()).unwrap_or(u32::MAX),
            None => model.nodes.max(1),
        },
        scheduling: super::scheduling::scheduling_model(&manifest.scheduling, &model.node_sizes),
        termination_seconds,
        termination_from,
        new_image: model
            .image
            .clone()
            .unwrap_or_else(|| crate::images::next_version(&old_image)),
        old_image,
        bad_image: model.bad_image,
        pod_quota: model.pod_quota,
        notes,
        traffic: traffic.clone().unwrap_or_default(),
        traffic_refused: traffic.err(),
        kubernetes_version: model.kubernetes_version,
    }
}

/// The round `kubectl set image` runs in: one round after the pods the `create` made are
/// available. They are ready in round k = readyAfterRounds; with minReadySeconds m > 0 they
/// count as available only once now > readyTime + m, i.e. ⌊m / secondsPerRound⌋ + 1 rounds
/// later (settled rounds show that in the Deployment's status in the same round).
pub fn set_image_round(deployment: &DeploymentInput, model: &ResolvedModel) -> u32 {
    let k = rounds_for(model.ready_after_seconds, model.seconds_per_round);
    let m = i64::from(deployment.min_ready_seconds.unwrap_or(0).max(0));
    let available = if m == 0 {
        k
    } else {
        k.saturating_add(u32::try_from(m / model.seconds_per_round).unwrap_or(u32::MAX))
            .saturating_add(1)
    };
    available.saturating_add(1)
}

/// The most rounds a manifest's scenario may run. The planner stops at completion, or once a
/// rollout is stalled for good, long before; this bounds pathological cases: a rollout of one
/// pod per wave, each wave waiting for start-up, availability and termination, or twice the
/// progress deadline.
fn round_limit(deployment: &DeploymentInput, model: &ResolvedModel, start: u32) -> u32 {
    let spr = model.seconds_per_round;
    let wave = i64::from(rounds_for(model.ready_after_seconds, spr))
        + i64::from(rounds_for(
            i64::from(deployment.min_ready_seconds.unwrap_or(0)),
            spr,
        ))
        + i64::from(rounds_for(model.termination_seconds, spr))
        + 3;
    let replicas = i64::from(deployment.replicas.unwrap_or(1).max(0));
    let deadline = i64::from(rounds_for(
        2 * i64::from(deployment.progress_deadline_seconds.unwrap_or(600).max(0)),
        spr,
    ));
    let limit = i64::from(start) + ((replicas + 2) * wave).max(deadline + 10);
    u32::try_from(limit.min(100_000)).unwrap_or(100_000)
}

/// A scenario's Deployment as the manifest `kubectl apply -f` would take (apps/v1, the
/// strategy defaulted as the API server stores it): 3 replicas of nginx:1.14.2 with no strategy
/// give `replicas: 3`, `maxSurge: 25%`, `maxUnavailable: 25%`. The Plan page plans the settings'
/// own manifest from it, so its first forecast needs no YAML reader.
pub fn manifest_value(d: &DeploymentInput) -> serde_json::Value {
    let map = |m: Option<&crate::api::StringMap>| match m {
        Some(m) if !m.is_empty() => serde_json::json!(m),
        _ => serde_json::json!({ "app": d.name }),
    };
    let selector = map(d.selector.as_ref().or(d.template_labels.as_ref()));
    let mut spec = serde_json::json!({ "replicas": d.replicas.unwrap_or(1) });
    if let Some(m) = d.min_ready_seconds {
        spec["minReadySeconds"] = serde_json::json!(m);
    }
    if let Some(p) = d.progress_deadline_seconds {
        spec["progressDeadlineSeconds"] = serde_json::json!(p);
    }
    spec["selector"] = serde_json::json!({ "matchLabels": selector });
    spec["strategy"] = match d.defaulted_strategy() {
        Some(crate::api::DeploymentStrategy::RollingUpdate {
            max_surge,
            max_unavailable,
        }) => serde_json::json!({ "type": "RollingUpdate", "rollingUpdate": {
            "maxSurge": max_surge, "maxUnavailable": max_unavailable } }),
        _ => serde_json::json!({ "type": d.strategy.as_ref().and_then(|s| s.type_.clone()) }),
    };
    spec["template"] = serde_json::json!({
        "metadata": { "labels": map(d.template_labels.as_ref()) },
        "spec": { "containers": [{ "name": d.name, "image": d.image }] },
    });
    serde_json::json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": { "name": d.name },
        "spec": spec,
    })
}

/// The scenario a manifest's forecast runs: create the Deployment in round 0, set the new
/// image once it is available, settled rounds of the model's length. `Err` is the API's
/// message when the Deployment itself would be refused.
pub fn manifest_scenario(
    deployment: &DeploymentInput,
    model: &ResolvedModel,
) -> Result<Scenario, String> {
    let outcome = crate::validation::validate_create(deployment);
    if let Some(message) = crate::validation::status_message(&outcome) {
        return Err(message.to_string());
    }
    if let Some(why) = model.startup.never_ready_because() {
        return Err(why);
    }
    if let Some(refused) = &model.traffic_refused {
        return Err(refused.clone());
    }
    let spr = model.seconds_per_round;
    let start = set_image_round(deployment, model);
    // Refused up front rather than run to the end of the rounds: pods that start 1000h
    // after creation in 1 s rounds would have the image set in round 3,600,001.
    if start >= crate::limits::MAX_ROUNDS {
        return Err(format!(
            "the new image would be set in round {} (pods ready {} s after creation, then minReadySeconds {}, in {} s rounds); a forecast runs at most {} rounds",
            crate::limits::group(i64::from(start)),
            crate::limits::group(model.ready_after_seconds),
            deployment.min_ready_seconds.unwrap_or(0),
            spr,
            crate::limits::group(i64::from(crate::limits::MAX_ROUNDS))
        ));
    }
    Ok(Scenario {
        name: deployment.name.clone(),
        description: format!(
            "kubectl set image deployment/{} to {}",
            deployment.name, model.new_image
        ),
        rounds: round_limit(deployment, model, start),
        seconds_per_round: spr,
        ready_after_rounds: rounds_for(model.ready_after_seconds, spr),
        termination_rounds: rounds_for(model.termination_seconds, spr),
        never_ready_images: if model.bad_image {
            vec![model.new_image.clone()]
        } else {
            Vec::new()
        },
        nodes: model.nodes,
        pod_quota: model.pod_quota,
        settle: true,
        kubernetes_version: model.kubernetes_version,
        actions: vec![
            Action {
                round: 0,
                kind: ActionKind::Create {
                    deployment: deployment.clone(),
                },
            },
            Action {
                round: start,
                kind: ActionKind::SetImage {
                    name: Some(deployment.name.clone()),
                    image: model.new_image.clone(),
                },
            },
        ],
        // The traffic model rides along (the controllers never read it), so that every run
        // of this scenario (the failing rollout, a sweep's rows) counts requests alike.
        model: Some(crate::scenario::ModelExtras {
            probes: model.startup.probe_model(),
            scheduling: model.scheduling.clone(),
            traffic: Some(model.traffic.clone()),
            ..Default::default()
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scenarios_deployment_becomes_the_manifest_that_creates_it() {
        let preset = crate::presets::preset("rolling-basic").unwrap().scenario;
        let ActionKind::Create { deployment } = &preset.actions[0].kind else {
            panic!("rolling-basic starts with its create");
        };
        let v = manifest_value(deployment);
        assert_eq!(v["spec"]["replicas"], 3);
        assert_eq!(v["spec"]["strategy"]["rollingUpdate"]["maxSurge"], "25%");
        assert_eq!(
            v["spec"]["template"]["spec"]["containers"][0]["image"],
            "nginx:1.14.2"
        );
        // Read back as a manifest, it is the same Deployment with its strategy defaulted.
        let back = crate::import::import_value(&v).unwrap().deployment;
        assert_eq!(
            (&back.name, back.replicas, &back.image),
            (&deployment.name, deployment.replicas, &deployment.image)
        );
        assert_eq!(back.defaulted_strategy(), deployment.defaulted_strategy());
    }

    const MANIFEST: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment",
        "metadata":{"name":"web"},
        "spec":{"replicas":10,"selector":{"matchLabels":{"app":"web"}},
          "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1,"maxUnavailable":0}},
          "template":{"metadata":{"labels":{"app":"web"}},
            "spec":{"terminationGracePeriodSeconds":45,
                    "containers":[{"name":"web","image":"nginx:1.14.2"}]}}}}"#;

    #[test]
    fn reads_the_grace_period_and_defaults_the_new_image() {
        let m = read_manifest(MANIFEST).unwrap();
        assert_eq!(m.termination_grace_period_seconds, Some(45));
        let r = resolve(&m, &ClusterModel::default());
        assert_eq!(r.termination_seconds, 45);
        assert_eq!(r.termination_from, "terminationGracePeriodSeconds");
        assert_eq!(r.new_image, "nginx:1.16.1");
        let s = manifest_scenario(&m.deployment, &r).unwrap();
        // No probes, pull 0: Ready once the containers run, in the round the pods are
        // created (0); the image is set one round later.
        assert_eq!(s.ready_after_rounds, 0);
        assert_eq!(s.termination_rounds, 45);
        assert_eq!(s.actions[1].round, 1);
    }

    #[test]
    fn seconds_round_up_to_whole_rounds_and_say_so() {
        let m = read_manifest(MANIFEST).unwrap();
        let model = ClusterModel {
            seconds_per_round: 7,
            pull_seconds: 30,
            termination_seconds: Some(0),
            ..ClusterModel::default()
        };
        let r = resolve(&m, &model);
        // Pull 30 s, no probes: Ready at 30 s, i.e. 5 rounds of 7 s = 35 s.
        assert_eq!((r.ready_after_seconds, r.termination_seconds), (35, 0));
        assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
        assert!(r.notes[0].contains("30 s"), "{:?}", r.notes);
        // The deprecated --ready-after 30s is the same pull, and says so.
        let old = ClusterModel {
            ready_after_seconds: Some(30),
            pull_seconds: 0,
            ..model
        };
        let r = resolve(&m, &old);
        assert_eq!(r.startup.assumed.pull_seconds, 30);
        assert!(
            r.notes
                .iter()
                .any(|n| n.contains("deprecated") && n.contains("--pull 30s")),
            "{:?}",
            r.notes
        );
    }

    #[test]
    fn the_image_is_set_after_the_pods_are_available() {
        let mut m = read_manifest(MANIFEST).unwrap();
        m.deployment.min_ready_seconds = Some(10);
        let model = ClusterModel {
            pull_seconds: 30,
            ..ClusterModel::default()
        };
        let r = resolve(&m, &model);
        // Pulled and Ready in round 30 (t = 30 s), available once now > 40 s: round 41; set
        // image in 42.
        assert_eq!(set_image_round(&m.deployment, &r), 42);
    }

    #[test]
    fn an_invalid_deployment_gets_the_api_message() {
        let mut m = read_manifest(MANIFEST).unwrap();
        m.deployment.replicas = Some(-1);
        let r = resolve(&m, &ClusterModel::default());
        let e = manifest_scenario(&m.deployment, &r).unwrap_err();
        assert!(
            e.starts_with("Deployment.apps \"web\" is invalid: spec.replicas"),
            "{e}"
        );
    }
}

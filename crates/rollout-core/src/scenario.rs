//! The scenario format of `../shared/conformance/README.md`: a Deployment to create, the
//! cluster model, and the user actions (`kubectl set image`, `scale`, `rollout pause` ...)
//! applied at the start of given rounds.

use crate::api::{IntOrString, StringMap};
use serde::{Deserialize, Serialize};

/// A Deployment as the scenario `create` action (and the API validation vectors) write it:
/// the fields a user sets, before the API server's defaulting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeploymentInput {
    /// `metadata.name`.
    pub name: String,
    /// `spec.replicas` (absent: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// The one container's image.
    pub image: String,
    /// `spec.strategy` (absent: RollingUpdate 25% / 25%).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<StrategyInput>,
    /// `spec.minReadySeconds` (absent: 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_ready_seconds: Option<i32>,
    /// `spec.progressDeadlineSeconds` (absent: 600).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress_deadline_seconds: Option<i32>,
    /// `spec.revisionHistoryLimit` (absent: 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision_history_limit: Option<i32>,
    /// `spec.paused` (absent: false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
    /// `spec.selector.matchLabels` (absent: `app: <name>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<StringMap>,
    /// `spec.template.metadata.labels` (absent: `app: <name>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_labels: Option<StringMap>,
}

/// `spec.strategy` as a user writes it: `{"type": "Recreate"}` or
/// `{"type": "RollingUpdate", "maxSurge": 1, "maxUnavailable": "25%"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StrategyInput {
    /// `Recreate`, `RollingUpdate`, or absent (defaulted to `RollingUpdate`).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// `rollingUpdate.maxSurge`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<IntOrString>,
    /// `rollingUpdate.maxUnavailable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
    /// Send a `rollingUpdate` block even when both values are absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with_rolling_update: Option<bool>,
}

impl StrategyInput {
    /// Whether the request carries a `rollingUpdate` block.
    pub fn has_rolling_update_block(&self) -> bool {
        self.max_surge.is_some()
            || self.max_unavailable.is_some()
            || self.with_rolling_update == Some(true)
    }
}

/// A whole scenario: the cluster model and the actions, round by round (read by
/// [`Scenario::from_value`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Scenario {
    /// A short name.
    pub name: String,
    /// What it shows.
    #[serde(default)]
    pub description: String,
    /// Rounds simulated: 0 .. rounds-1.
    pub rounds: u32,
    /// The clock advances this much at the end of each round (≥ 1).
    pub seconds_per_round: i64,
    /// A pod created in round r becomes Ready in the kubelet step of round r + k.
    pub ready_after_rounds: u32,
    /// 0: a deleted pod disappears at once; T > 0: it lingers T rounds as Terminating.
    pub termination_rounds: u32,
    /// Images whose pods never become ready.
    #[serde(default)]
    pub never_ready_images: Vec<String>,
    /// Pods are spread round-robin over node-0 .. node-(nodes-1).
    pub nodes: u32,
    /// At most this many non-terminating pods (absent: unlimited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_quota: Option<i32>,
    /// The user's actions in file order.
    pub actions: Vec<Action>,
    /// Cluster-model settings beyond the conformance format (absent: none of them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelExtras>,
    /// Settled rounds (`"settle": true`): within a round the controllers and the kubelet run
    /// pass after pass until nothing changes, as a real cluster's controllers react within
    /// milliseconds. False (absent from the JSON) is the lock-step round, one pass a round.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub settle: bool,
    /// `kubernetesVersion`: the release whose controllers run (`"1.28"` or `"1.37"`; absent:
    /// 1.28, the release `../shared` was recorded from, so its files keep their meaning).
    #[serde(default, skip_serializing_if = "is_scenario_default")]
    pub kubernetes_version: crate::version::KubernetesVersion,
}

/// Whether a version is what an absent `kubernetesVersion` means (it is then not written).
fn is_scenario_default(v: &crate::version::KubernetesVersion) -> bool {
    *v == crate::version::KubernetesVersion::SCENARIO_DEFAULT
}

/// Cluster-model settings that the conformance format does not have.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ModelExtras {
    /// Each pod becomes ready up to this many rounds later than `readyAfterRounds`, chosen
    /// per pod from `seed` (deterministic start-up jitter).
    #[serde(default)]
    pub ready_jitter_rounds: u32,
    /// Seed of the jitter.
    #[serde(default)]
    pub seed: u64,
    /// The kubelet's probe rules instead of `readyAfterRounds` and the jitter (absent: not
    /// selected): the pods' containers and probes, the image pull and when the app answers.
    /// Read by [`Scenario::from_value`], not by serde.
    #[serde(skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub probes: Option<crate::kubelet::probes::ProbeModel>,
    /// How the apps of some images fail (`"failures": {"web:2": "crash:after=5s"}`; absent:
    /// none fails), with the kubelet's restart back-off (`restartBackOff`, written beside it
    /// when not v1.28's). Read by [`Scenario::from_value`], not by serde.
    #[serde(
        skip_deserializing,
        skip_serializing_if = "Option::is_none",
        serialize_with = "serialize_failures"
    )]
    pub failures: Option<crate::kubelet::failures::FailureModel>,
    /// The probes of the pod template whose image this is, for images `failures` names
    /// (`"templateProbes": {"shop:2": {"containers": [{"name": "shop", "livenessProbe": {}}]}}`,
    /// each as `probes` reads it): a pod of that image is judged by them instead of `probes`.
    /// The simulation's pod template is its image, so two templates that differ only in their
    /// probes are two images. Read by [`Scenario::from_value`], not by serde.
    #[serde(
        skip_deserializing,
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "serialize_template_probes"
    )]
    pub template_probes: Vec<(String, crate::kubelet::probes::ProbeModel)>,
    /// `restartBackOff`, as written (`failures` carries what the kubelet uses).
    #[serde(skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub restart_back_off: Option<crate::kubelet::backoff::BackOffPolicy>,
    /// The scheduler's filters over nodes with sizes and labels (absent: every pod fits every
    /// node, placed round-robin). Read by [`Scenario::from_value`], not by serde.
    #[serde(skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub scheduling: Option<crate::scheduler::SchedulingModel>,
    /// The requests sent to the Service in front of the Deployment (`crate::traffic`:
    /// `{"load": 40, "podCapacity": 20, "endpointDelaySeconds": 1,
    /// "exitAfterSigtermSeconds": 0, "preStopSleepSeconds": 5}`; absent: the defaults when a
    /// front end asks). The controllers and the kubelet never read it.
    #[serde(skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub traffic: Option<crate::traffic::TrafficModel>,
}

/// `failures` as the scenario writes it: image → `crash:after=5s`.
fn serialize_failures<S: serde::Serializer>(
    f: &Option<crate::kubelet::failures::FailureModel>,
    s: S,
) -> Result<S::Ok, S::Error> {
    f.as_ref()
        .and_then(crate::kubelet::failures::FailureModel::failures_json)
        .serialize(s)
}

/// `templateProbes` as the scenario writes it: image → probe model.
fn serialize_template_probes<S: serde::Serializer>(
    t: &[(String, crate::kubelet::probes::ProbeModel)],
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serde_json::Map::new();
    for (image, p) in t {
        map.insert(image.clone(), p.to_json());
    }
    map.serialize(s)
}

/// One user action, applied at the start of its round (read by [`Action::from_value`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Action {
    /// The round it takes effect in.
    pub round: u32,
    /// What it does.
    #[serde(flatten)]
    pub kind: ActionKind,
}

/// What a user can do, as `kubectl` would do it: the scenario format's `type` and fields
/// (written by serde's derive, read by [`Action::from_value`]), applied by
/// `sim::apply_action`, and shown as a kubectl command by `ui_support::kubectl_command`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ActionKind {
    /// `kubectl create deployment` / `apply`.
    Create {
        /// The Deployment.
        deployment: DeploymentInput,
    },
    /// `kubectl set image`.
    SetImage {
        /// The Deployment (absent: the first by name).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// The new image.
        image: String,
    },
    /// `kubectl scale`.
    Scale {
        /// The Deployment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// The new spec.replicas.
        replicas: i32,
    },
    /// `kubectl rollout pause`.
    Pause {
        /// The Deployment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// `kubectl rollout resume`.
    Resume {
        /// The Deployment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// The legacy server-side rollback: sets `deprecated.deployment.rollback.to`.
    Rollback {
        /// The Deployment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// The revision (0 = the previous one).
        revision: i64,
    },
    /// `kubectl rollout undo [--to-revision=N]`: kubectl copies that revision's pod template
    /// into the Deployment (client-side, `kubectl::rollout_undo`), an ordinary update.
    Undo {
        /// The Deployment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// `--to-revision` (0 or absent: the previous revision).
        #[serde(default, skip_serializing_if = "is_zero")]
        to_revision: i64,
    },
    /// Replaces the whole strategy.
    SetStrategy {
        /// The Deployment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// The new strategy.
        strategy: StrategyInput,
    },
    /// Sets spec.minReadySeconds.
    SetMinReadySeconds {
        /// The Deployment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// Seconds.
        value: i32,
    },
    /// Sets spec.progressDeadlineSeconds.
    SetProgressDeadlineSeconds {
        /// The Deployment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// Seconds.
        value: i32,
    },
    /// Sets spec.revisionHistoryLimit.
    SetRevisionHistoryLimit {
        /// The Deployment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// How many old ReplicaSets to keep.
        value: i32,
    },
    /// `kubectl annotate pod <pod> controller.kubernetes.io/pod-deletion-cost=<value>`
    /// (`null`: remove the annotation).
    SetPodDeletionCost {
        /// The pod.
        pod: String,
        /// The cost.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<i32>,
    },
    /// The pod's container restarts: not ready until it has run `readyAfterRounds` again.
    RestartPod {
        /// The pod.
        pod: String,
    },
    /// Replaces the pod quota (`null` or absent: unlimited).
    SetPodQuota {
        /// The quota.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<i32>,
    },
}

impl ActionKind {
    /// The action's `type` as the scenario format spells it.
    pub fn type_name(&self) -> &'static str {
        match self {
            ActionKind::Create { .. } => "create",
            ActionKind::SetImage { .. } => "setImage",
            ActionKind::Scale { .. } => "scale",
            ActionKind::Pause { .. } => "pause",
            ActionKind::Resume { .. } => "resume",
            ActionKind::Rollback { .. } => "rollback",
            ActionKind::Undo { .. } => "undo",
            ActionKind::SetStrategy { .. } => "setStrategy",
            ActionKind::SetMinReadySeconds { .. } => "setMinReadySeconds",
            ActionKind::SetProgressDeadlineSeconds { .. } => "setProgressDeadlineSeconds",
            ActionKind::SetRevisionHistoryLimit { .. } => "setRevisionHistoryLimit",
            ActionKind::SetPodQuota { .. } => "setPodQuota",
            ActionKind::SetPodDeletionCost { .. } => "setPodDeletionCost",
            ActionKind::RestartPod { .. } => "restartPod",
        }
    }

    /// The Deployment the action names, if it names one.
    pub fn target(&self) -> Option<&str> {
        match self {
            ActionKind::Create { deployment } => Some(&deployment.name),
            ActionKind::SetImage { name, .. }
            | ActionKind::Scale { name, .. }
            | ActionKind::Pause { name }
            | ActionKind::Resume { name }
            | ActionKind::Rollback { name, .. }
            | ActionKind::Undo { name, .. }
            | ActionKind::SetStrategy { name, .. }
            | ActionKind::SetMinReadySeconds { name, .. }
            | ActionKind::SetProgressDeadlineSeconds { name, .. }
            | ActionKind::SetRevisionHistoryLimit { name, .. } => name.as_deref(),
            ActionKind::SetPodQuota { .. }
            | ActionKind::SetPodDeletionCost { .. }
            | ActionKind::RestartPod { .. } => None,
        }
    }
}

/// A scenario that could not be read, with the place it went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// e.g. `actions[3] (round 6)` or `secondsPerRound`.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

/// Every action `type` the scenario format has ([`ActionKind::type_name`]).
pub const ACTION_TYPES: &[&str] = &[
    "create",
    "setImage",
    "scale",
    "pause",
    "resume",
    "rollback",
    "undo",
    "setStrategy",
    "setMinReadySeconds",
    "setProgressDeadlineSeconds",
    "setRevisionHistoryLimit",
    "setPodQuota",
    "setPodDeletionCost",
    "restartPod",
];
/// Reads `model`: its `probes` by hand ([`crate::kubelet::probes::ProbeModel::from_value`]),
/// the rest by serde.
fn model_extras(v: &serde_json::Value) -> Result<ModelExtras, String> {
    let mut v = v.clone();
    let probes = v.as_object_mut().and_then(|m| m.remove("probes"));
    let failures = v.as_object_mut().and_then(|m| m.remove("failures"));
    let back_off = v.as_object_mut().and_then(|m| m.remove("restartBackOff"));
    let scheduling = v.as_object_mut().and_then(|m| m.remove("scheduling"));
    let template_probes = v.as_object_mut().and_then(|m| m.remove("templateProbes"));
    let traffic = v.as_object_mut().and_then(|m| m.remove("traffic"));
    let mut extras: ModelExtras = serde_json::from_value(v).map_err(|e| e.to_string())?;
    extras.traffic = match traffic {
        None | Some(serde_json::Value::Null) => None,
        Some(t) => {
            Some(crate::traffic::TrafficModel::from_value(&t).map_err(|e| format!("traffic.{e}"))?)
        }
    };
    extras.scheduling = match scheduling {
        None | Some(serde_json::Value::Null) => None,
        Some(s) => Some(crate::scheduler::SchedulingModel::from_value(&s)?),
    };
    if failures.is_some() || back_off.is_some() {
        let f = crate::kubelet::failures::FailureModel::from_values(
            failures.as_ref(),
            back_off.as_ref(),
        )?;
        extras.restart_back_off = back_off
            .filter(|b| !b.is_null())
            .map(|_| f.restart_back_off);
        extras.failures = (!f.images.is_empty() || extras.restart_back_off.is_some()).then_some(f);
    }
    extras.probes = match probes {
        None | Some(serde_json::Value::Null) => None,
        Some(p) => Some(crate::kubelet::probes::ProbeModel::from_value(&p)?),
    };
    if let Some(t) = template_probes.filter(|t| !t.is_null()) {
        let obj = t.as_object().ok_or_else(|| {
            "templateProbes: expected an object of image: probes (e.g. {\"shop:2\": {\"containers\": [{\"name\": \"shop\", \"livenessProbe\": {}}]}})".to_string()
        })?;
        for (image, p) in obj {
            if extras.failures.as_ref().and_then(|f| f.of(image)).is_none() {
                return Err(format!(
                    "templateProbes.{image}: only an image model.failures names has probes of its own (the kubelet leads those pods container by container)"
                ));
            }
            let model = crate::kubelet::probes::ProbeModel::from_value(p)
                .map_err(|e| format!("templateProbes.{image}: {e}"))?;
            extras.template_probes.push((image.clone(), model));
        }
    }
    Ok(extras)
}

/// The fields of the scenario format, in the conformance README's order; any other key is
/// refused by [`Scenario::from_value`].
pub const SCENARIO_KEYS: &[&str] = &[
    "name",
    "description",
    "rounds",
    "secondsPerRound",
    "readyAfterRounds",
    "terminationRounds",
    "neverReadyImages",
    "nodes",
    "podQuota",
    "actions",
    "model",
    "settle",
    "kubernetesVersion",
];

impl Scenario {
    /// Reads a scenario from JSON text, naming the field (and the action's index and round)
    /// of whatever is wrong.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        crate::limits::check_text("the scenario", text).map_err(|message| ScenarioError {
            path: String::new(),
            message,
        })?;
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ScenarioError {
            path: String::new(),
            message: format!("not valid JSON: {e}"),
        })?;
        Scenario::from_value(&value)
    }

    /// Reads a scenario from a parsed JSON value.
    pub fn from_value(value: &serde_json::Value) -> Result<Scenario, ScenarioError> {
        let err = |path: &str, message: String| ScenarioError {
            path: path.to_string(),
            message,
        };
        let obj = value
            .as_object()
            .ok_or_else(|| err("", "a scenario must be a JSON object".to_string()))?;
        for key in obj.keys() {
            if !SCENARIO_KEYS.contains(&key.as_str()) {
                return Err(err(
                    key,
                    format!(
                        "unknown field; expected one of {}",
                        SCENARIO_KEYS.join(", ")
                    ),
                ));
            }
        }
        fn field<T: serde::de::DeserializeOwned>(
            obj: &serde_json::Map<String, serde_json::Value>,
            key: &str,
            default: Option<T>,
        ) -> Result<T, ScenarioError> {
            match obj.get(key) {
                None => default.ok_or_else(|| ScenarioError {
                    path: key.to_string(),
                    message: "missing field".to_string(),
                }),
                Some(v) => serde_json::from_value(v.clone()).map_err(|e| ScenarioError {
                    path: key.to_string(),
                    message: e.to_string(),
                }),
            }
        }
        let mut s = Scenario {
            name: field(obj, "name", Some("scenario".to_string()))?,
            description: field(obj, "description", Some(String::new()))?,
            rounds: field(obj, "rounds", Some(30))?,
            seconds_per_round: field(obj, "secondsPerRound", Some(5))?,
            ready_after_rounds: field(obj, "readyAfterRounds", Some(1))?,
            termination_rounds: field(obj, "terminationRounds", Some(0))?,
            never_ready_images: field(obj, "neverReadyImages", Some(Vec::new()))?,
            nodes: field(obj, "nodes", Some(1))?,
            pod_quota: field(obj, "podQuota", Some(None))?,
            actions: Vec::new(),
            model: match obj.get("model") {
                None | Some(serde_json::Value::Null) => None,
                Some(v) => Some(model_extras(v).map_err(|message| ScenarioError {
                    path: "model".to_string(),
                    message,
                })?),
            },
            settle: field(obj, "settle", Some(false))?,
            kubernetes_version: field(
                obj,
                "kubernetesVersion",
                Some(crate::version::KubernetesVersion::SCENARIO_DEFAULT),
            )?,
        };
        if s.seconds_per_round < 1 {
            return Err(err("secondsPerRound", "must be at least 1".to_string()));
        }
        if s.nodes < 1 {
            return Err(err("nodes", "must be at least 1".to_string()));
        }
        if let Some(list) = s
            .model
            .as_ref()
            .and_then(|m| m.scheduling.as_ref())
            .and_then(|m| m.node_list.as_ref())
        {
            if list.len() != s.nodes as usize {
                return Err(err(
                    "model.scheduling.nodeList",
                    format!("{} nodes listed, but `nodes` is {}", list.len(), s.nodes),
                ));
            }
        }
        // The cluster model within Rollout Lab's limits (`rounds: 100001 is more than …`).
        crate::limits::check_model(&s).map_err(|e| err("", e))?;
        let actions = match obj.get("actions") {
            None => return Err(err("actions", "missing field".to_string())),
            Some(serde_json::Value::Array(a)) => a,
            Some(_) => return Err(err("actions", "must be an array".to_string())),
        };
        if actions.len() > crate::limits::MAX_ACTIONS {
            return Err(err(
                "actions",
                format!(
                    "{} actions; Rollout Lab reads at most {}",
                    actions.len(),
                    crate::limits::group(crate::limits::MAX_ACTIONS as i64)
                ),
            ));
        }
        for (i, a) in actions.iter().enumerate() {
            s.actions.push(Action::from_value(i, a)?);
        }
        // Again with the actions: their images.
        crate::limits::check_model(&s).map_err(|e| err("", e))?;
        Ok(s)
    }
}

impl Action {
    /// Reads one action; errors name `actions[i] (round r)`.
    pub fn from_value(index: usize, value: &serde_json::Value) -> Result<Action, ScenarioError> {
        let mut obj = value.as_object().cloned().ok_or_else(|| ScenarioError {
            path: format!("actions[{index}]"),
            message: "an action must be a JSON object".to_string(),
        })?;
        let round_value = obj.remove("round");
        let path_with = |round: Option<u32>| match round {
            Some(r) => format!("actions[{index}] (round {r})"),
            None => format!("actions[{index}]"),
        };
        let round = match round_value {
            None => {
                return Err(ScenarioError {
                    path: path_with(None),
                    message: "missing field `round`".to_string(),
                })
            }
            Some(v) => serde_json::from_value::<u32>(v).map_err(|e| ScenarioError {
                path: path_with(None),
                message: format!("round: {e}"),
            })?,
        };
        // `null` means absent (the trace echoes actions without null keys).
        obj.retain(|_, v| !v.is_null());
        // A `type` that is not text, or a `deployment` or `strategy` that is not an object:
        // serde's words for a string or a map, rather than for a tag or a Rust struct.
        let wrong_shape = |key: &str| -> Option<String> {
            let v = obj.get(key)?.clone();
            let e = if key == "type" {
                serde_json::from_value::<String>(v).err()
            } else {
                serde_json::from_value::<serde_json::Map<String, serde_json::Value>>(v).err()
            };
            e.map(|e| e.to_string())
        };
        for key in ["type", "deployment", "strategy"] {
            if let Some(message) = wrong_shape(key) {
                return Err(ScenarioError {
                    path: format!("{}.{key}", path_with(Some(round))),
                    message,
                });
            }
        }
        // The `type` (text by now, or absent); the rest of the object is the action's fields.
        let type_ = match obj.remove("type") {
            Some(serde_json::Value::String(t)) => Some(t),
            _ => None,
        };
        // An unknown `type`, quoted only as a short prefix (a 2 MB type is not echoed whole).
        if let Some(t) = &type_ {
            if !ACTION_TYPES.contains(&t.as_str()) {
                return Err(ScenarioError {
                    path: path_with(Some(round)),
                    message: format!(
                        "unknown action type `{}`; expected one of {}",
                        crate::limits::prefix(t, 40),
                        ACTION_TYPES.join(", ")
                    ),
                });
            }
        }
        let kind = match &type_ {
            Some(t) => ActionKind::read(t, obj.clone()),
            None => Err(serde::de::Error::missing_field("type")),
        };
        let kind = kind.map_err(|e| ScenarioError {
            path: match mistyped_field(&obj) {
                Some(field) => format!("{}.{field}", path_with(Some(round))),
                None => path_with(Some(round)),
            },
            message: e.to_string(),
        })?;
        Ok(Action { round, kind })
    }
}

impl ActionKind {
    /// Reads the action of type `t` from its fields (its JSON object without `round` and
    /// `type`) with serde's derive for that type's fields ([`fields`]): what serde's derive
    /// for `#[serde(tag = "type")]` read, in its words. That derive buffered the object as
    /// serde's `Content` and read the fields (a `create`'s Deployment too) through a second
    /// deserializer, about 10 KB (gzip) of the app's module.
    fn read(
        t: &str,
        fields: serde_json::Map<String, serde_json::Value>,
    ) -> Result<ActionKind, serde_json::Error> {
        fn read<T: serde::de::DeserializeOwned>(
            fields: serde_json::Map<String, serde_json::Value>,
        ) -> Result<T, serde_json::Error> {
            // The object itself as the deserializer (rather than a `Value`), so serde's
            // derived code for reading the fields from an array is never instantiated.
            T::deserialize(fields)
        }
        Ok(match t {
            "create" => {
                let f: fields::Create = read(fields)?;
                ActionKind::Create {
                    deployment: f.deployment,
                }
            }
            "setImage" => {
                let f: fields::SetImage = read(fields)?;
                ActionKind::SetImage {
                    name: f.name,
                    image: f.image,
                }
            }
            "scale" => {
                let f: fields::Scale = read(fields)?;
                ActionKind::Scale {
                    name: f.name,
                    replicas: f.replicas,
                }
            }
            "pause" => ActionKind::Pause {
                name: read::<fields::Name>(fields)?.name,
            },
            "resume" => ActionKind::Resume {
                name: read::<fields::Name>(fields)?.name,
            },
            "rollback" => {
                let f: fields::Rollback = read(fields)?;
                ActionKind::Rollback {
                    name: f.name,
                    revision: f.revision,
                }
            }
            "undo" => {
                let f: fields::Undo = read(fields)?;
                ActionKind::Undo {
                    name: f.name,
                    to_revision: f.to_revision,
                }
            }
            "setStrategy" => {
                let f: fields::SetStrategy = read(fields)?;
                ActionKind::SetStrategy {
                    name: f.name,
                    strategy: f.strategy,
                }
            }
            "setMinReadySeconds" => {
                let f: fields::NameValue = read(fields)?;
                ActionKind::SetMinReadySeconds {
                    name: f.name,
                    value: f.value,
                }
            }
            "setProgressDeadlineSeconds" => {
                let f: fields::NameValue = read(fields)?;
                ActionKind::SetProgressDeadlineSeconds {
                    name: f.name,
                    value: f.value,
                }
            }
            "setRevisionHistoryLimit" => {
                let f: fields::NameValue = read(fields)?;
                ActionKind::SetRevisionHistoryLimit {
                    name: f.name,
                    value: f.value,
                }
            }
            "setPodDeletionCost" => {
                let f: fields::SetPodDeletionCost = read(fields)?;
                ActionKind::SetPodDeletionCost {
                    pod: f.pod,
                    value: f.value,
                }
            }
            "restartPod" => ActionKind::RestartPod {
                pod: read::<fields::RestartPod>(fields)?.pod,
            },
            "setPodQuota" => ActionKind::SetPodQuota {
                value: read::<fields::SetPodQuota>(fields)?.value,
            },
            _ => return Err(serde::de::Error::unknown_variant(t, ACTION_TYPES)),
        })
    }
}

/// The fields of each action `type` as the scenario format writes them, read by serde's
/// derive ([`ActionKind::read`]); types with the same fields share a struct. Each refuses a
/// field it does not have, naming its own, as the variant of [`ActionKind`] would.
mod fields {
    use super::{DeploymentInput, StrategyInput};
    use serde::Deserialize;

    /// `create`.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Create {
        pub deployment: DeploymentInput,
    }

    /// `setImage`.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct SetImage {
        #[serde(default)]
        pub name: Option<String>,
        pub image: String,
    }

    /// `scale`.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Scale {
        #[serde(default)]
        pub name: Option<String>,
        pub replicas: i32,
    }

    /// `pause` and `resume`.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Name {
        #[serde(default)]
        pub name: Option<String>,
    }

    /// `rollback`.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Rollback {
        #[serde(default)]
        pub name: Option<String>,
        pub revision: i64,
    }

    /// `undo`.
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct Undo {
        #[serde(default)]
        pub name: Option<String>,
        #[serde(default)]
        pub to_revision: i64,
    }

    /// `setStrategy`.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct SetStrategy {
        #[serde(default)]
        pub name: Option<String>,
        pub strategy: StrategyInput,
    }

    /// `setMinReadySeconds`, `setProgressDeadlineSeconds` and `setRevisionHistoryLimit`.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct NameValue {
        #[serde(default)]
        pub name: Option<String>,
        pub value: i32,
    }

    /// `setPodDeletionCost`.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct SetPodDeletionCost {
        pub pod: String,
        #[serde(default)]
        pub value: Option<i32>,
    }

    /// `restartPod`.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct RestartPod {
        pub pod: String,
    }

    /// `setPodQuota`.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct SetPodQuota {
        #[serde(default)]
        pub value: Option<i32>,
    }
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// The field of an action whose JSON type cannot be right, e.g. `replicas` or
/// `deployment.replicas` (serde's message does not say which field it was).
fn mistyped_field(obj: &serde_json::Map<String, serde_json::Value>) -> Option<String> {
    use serde_json::Value;
    let is_i32 = |v: &Value| v.as_i64().is_some_and(|n| i32::try_from(n).is_ok());
    for (key, v) in obj {
        let ok = match key.as_str() {
            "type" | "name" | "image" | "pod" => v.is_string(),
            "replicas" | "value" => is_i32(v),
            "revision" | "toRevision" => v.as_i64().is_some(),
            "deployment" | "strategy" => v.is_object(),
            _ => true,
        };
        if !ok {
            return Some(key.clone());
        }
        let unreadable = match key.as_str() {
            "deployment" => serde_json::from_value::<DeploymentInput>(v.clone()).is_err(),
            "strategy" => serde_json::from_value::<StrategyInput>(v.clone()).is_err(),
            _ => false,
        };
        if unreadable {
            let inner = v.as_object().and_then(|d| {
                d.iter().find(|(k, dv)| match k.as_str() {
                    "name" | "image" | "type" => !dv.is_string(),
                    "replicas"
                    | "minReadySeconds"
                    | "progressDeadlineSeconds"
                    | "revisionHistoryLimit" => !is_i32(dv),
                    "paused" => !dv.is_boolean(),
                    "strategy" => !dv.is_object(),
                    _ => false,
                })
            });
            // One level deeper for a strategy's maxSurge or maxUnavailable (`1.5`).
            let strategy_field = |st: &Value| {
                st.as_object().and_then(|st| {
                    ["maxSurge", "maxUnavailable"].into_iter().find(|f| {
                        st.get(*f).is_some_and(|x| {
                            serde_json::from_value::<crate::api::IntOrString>(x.clone()).is_err()
                        })
                    })
                })
            };
            let strategy = if key == "strategy" {
                Some(v)
            } else {
                v.get("strategy")
            };
            if let Some(f) = strategy.and_then(strategy_field) {
                return Some(if key == "strategy" {
                    format!("strategy.{f} (spec.strategy.rollingUpdate.{f})")
                } else {
                    format!("{key}.strategy.{f} (spec.strategy.rollingUpdate.{f})")
                });
            }
            return Some(match inner {
                Some((k, _)) => format!("{key}.{k}"),
                None => key.clone(),
            });
        }
    }
    None
}

impl DeploymentInput {
    /// The strategy after apps/v1 defaulting (absent or untyped: RollingUpdate; absent
    /// rolling values: 25%). `None` for a strategy type the API does not know.
    pub fn defaulted_strategy(&self) -> Option<crate::api::DeploymentStrategy> {
        defaulted_strategy(self.strategy.as_ref())
    }

    /// The Deployment object the API server stores for this input (after defaulting; call
    /// only for input that validation accepted).
    pub fn to_deployment(&self) -> crate::api::Deployment {
        use crate::api::{Deployment, DeploymentSpec, ObjectMeta, PodTemplate};
        let default_labels = || {
            let mut m = StringMap::new();
            m.insert("app".to_string(), self.name.clone());
            m
        };
        Deployment {
            metadata: ObjectMeta {
                name: self.name.clone(),
                labels: default_labels(),
                ..Default::default()
            },
            spec: DeploymentSpec {
                replicas: self.replicas.unwrap_or(1),
                selector: self.selector.clone().unwrap_or_else(default_labels),
                template: PodTemplate {
                    labels: self.template_labels.clone().unwrap_or_else(default_labels),
                    image: self.image.clone(),
                },
                strategy: self
                    .defaulted_strategy()
                    .unwrap_or_else(crate::api::DeploymentStrategy::default_rolling),
                min_ready_seconds: self.min_ready_seconds.unwrap_or(0),
                revision_history_limit: Some(self.revision_history_limit.unwrap_or(10)),
                progress_deadline_seconds: Some(self.progress_deadline_seconds.unwrap_or(600)),
                paused: self.paused.unwrap_or(false),
            },
            status: Default::default(),
        }
    }

    /// The input that describes a stored Deployment (for validating an update).
    pub fn from_deployment(d: &crate::api::Deployment) -> DeploymentInput {
        use crate::api::DeploymentStrategy;
        DeploymentInput {
            name: d.metadata.name.clone(),
            replicas: Some(d.spec.replicas),
            image: d.spec.template.image.clone(),
            strategy: Some(match &d.spec.strategy {
                DeploymentStrategy::Recreate => StrategyInput {
                    type_: Some("Recreate".to_string()),
                    ..Default::default()
                },
                DeploymentStrategy::RollingUpdate {
                    max_surge,
                    max_unavailable,
                } => StrategyInput {
                    type_: Some("RollingUpdate".to_string()),
                    max_surge: max_surge.clone(),
                    max_unavailable: max_unavailable.clone(),
                    with_rolling_update: Some(true),
                },
            }),
            min_ready_seconds: Some(d.spec.min_ready_seconds),
            progress_deadline_seconds: d.spec.progress_deadline_seconds,
            revision_history_limit: d.spec.revision_history_limit,
            paused: Some(d.spec.paused),
            selector: Some(d.spec.selector.clone()),
            template_labels: Some(d.spec.template.labels.clone()),
        }
    }
}

/// apps/v1 defaulting of a strategy; `None` for an unknown type.
pub fn defaulted_strategy(s: Option<&StrategyInput>) -> Option<crate::api::DeploymentStrategy> {
    use crate::api::{DeploymentStrategy, DEFAULT_ROLLING_PERCENT};
    let Some(s) = s else {
        return Some(DeploymentStrategy::default_rolling());
    };
    match s.type_.as_deref().unwrap_or("") {
        "" | "RollingUpdate" => Some(DeploymentStrategy::RollingUpdate {
            max_surge: Some(
                s.max_surge
                    .clone()
                    .unwrap_or_else(|| DEFAULT_ROLLING_PERCENT.into()),
            ),
            max_unavailable: Some(
                s.max_unavailable
                    .clone()
                    .unwrap_or_else(|| DEFAULT_ROLLING_PERCENT.into()),
            ),
        }),
        "Recreate" => Some(DeploymentStrategy::Recreate),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_action_and_round() {
        let text = r#"{"name":"x","rounds":3,"secondsPerRound":5,"readyAfterRounds":1,
            "terminationRounds":0,"neverReadyImages":[],"nodes":1,
            "actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a"}},
                       {"round":2,"type":"setImage","imagee":"b"}]}"#;
        let e = Scenario::from_json(text).unwrap_err();
        assert_eq!(e.path, "actions[1] (round 2)");
        assert!(e.message.contains("imagee"), "{}", e.message);
    }

    #[test]
    fn type_errors_name_the_field() {
        let text = r#"{"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a"}},
                       {"round":1,"type":"scale","replicas":"x"},
                       {"round":2,"type":"create","deployment":{"name":"w","image":"a","replicas":true}}]}"#;
        let e = Scenario::from_json(text).unwrap_err();
        assert_eq!(e.path, "actions[1] (round 1).replicas");
        let text = text.replace(r#""replicas":"x""#, r#""replicas":2"#);
        let e = Scenario::from_json(&text).unwrap_err();
        assert_eq!(e.path, "actions[2] (round 2).deployment.replicas");
    }

    #[test]
    fn action_errors_say_what_is_wrong_in_serdes_words() {
        let read = |action: &str| {
            let text = format!(r#"{{"actions":[{action}]}}"#);
            Scenario::from_json(&text).map(|s| s.actions[0].kind.clone())
        };
        let err = |action: &str| {
            let e = read(action).unwrap_err();
            (e.path, e.message)
        };
        assert_eq!(
            err(r#"{"round":1,"type":"setImage"}"#),
            (
                "actions[0] (round 1)".into(),
                "missing field `image`".into()
            )
        );
        let (path, message) = err(r#"{"round":1,"type":"explode"}"#);
        assert_eq!(path, "actions[0] (round 1)");
        assert!(
            message.starts_with("unknown action type `explode`; expected one of create, setImage"),
            "{message}"
        );
        // A long type is quoted as a short prefix.
        let long = format!(r#"{{"round":1,"type":"{}"}}"#, "x".repeat(100_000));
        let (_, message) = err(&long);
        assert!(message.len() < 400, "{message}");
        assert!(message.starts_with(&format!("unknown action type `{}…`", "x".repeat(40))));
        assert_eq!(
            err(r#"{"round":1,"type":"restartPod","pod":"p","x":1}"#).1,
            "unknown field `x`, expected `pod`"
        );
        assert_eq!(
            err(r#"{"round":1,"type":"scale","replicas":3000000000}"#),
            (
                "actions[0] (round 1).replicas".into(),
                "invalid value: integer `3000000000`, expected i32".into()
            )
        );
        assert_eq!(
            err(r#"{"round":1,"type":"setImage","image":5}"#).1,
            "invalid type: integer `5`, expected a string"
        );
        assert_eq!(err(r#"{"round":1,"image":"a"}"#).1, "missing field `type`");
        // null is absent; optional values may be left out.
        assert_eq!(
            read(r#"{"round":1,"type":"setPodQuota","value":null}"#).unwrap(),
            ActionKind::SetPodQuota { value: None }
        );
        assert_eq!(
            read(r#"{"round":1,"type":"rollback","revision":0,"name":"web"}"#).unwrap(),
            ActionKind::Rollback {
                name: Some("web".into()),
                revision: 0
            }
        );
        // Every kind reads back what it writes.
        let all = [
            r#"{"round":0,"type":"create","deployment":{"name":"web","image":"a"}}"#,
            r#"{"round":0,"type":"setStrategy","strategy":{"type":"Recreate"}}"#,
            r#"{"round":0,"type":"setPodDeletionCost","pod":"p","value":-3}"#,
            r#"{"round":0,"type":"setRevisionHistoryLimit","value":2}"#,
            r#"{"round":0,"type":"pause"}"#,
        ];
        for a in all {
            let kind = read(a).unwrap();
            let written = serde_json::to_value(Action {
                round: 0,
                kind: kind.clone(),
            })
            .unwrap();
            let back = Action::from_value(0, &written).unwrap();
            assert_eq!(back.kind, kind, "{a}");
        }
    }

    #[test]
    fn shapes_are_named_in_serdes_words_for_strings_and_maps() {
        let err = |action: &str| {
            let e = Scenario::from_json(&format!(r#"{{"actions":[{action}]}}"#)).unwrap_err();
            (e.path, e.message)
        };
        assert_eq!(
            err(r#"{"round":1,"type":5}"#),
            (
                "actions[0] (round 1).type".into(),
                "invalid type: integer `5`, expected a string".into()
            )
        );
        assert_eq!(
            err(r#"{"round":0,"type":"create","deployment":5}"#),
            (
                "actions[0] (round 0).deployment".into(),
                "invalid type: integer `5`, expected a map".into()
            )
        );
        assert_eq!(
            err(r#"{"round":0,"type":"setStrategy","strategy":{"type":3}}"#).0,
            "actions[0] (round 0).strategy.type"
        );
        assert_eq!(
            err(r#"{"round":0,"type":"scale","replicas":3,"value":1}"#).1,
            "unknown field `value`, expected `name` or `replicas`"
        );
    }

    #[test]
    fn undo_is_an_action() {
        let s = Scenario::from_json(
            r#"{"actions":[{"round":2,"type":"undo"},{"round":3,"type":"undo","toRevision":1,"name":"web"}]}"#,
        )
        .unwrap();
        assert_eq!(
            s.actions[0].kind,
            ActionKind::Undo {
                name: None,
                to_revision: 0
            }
        );
        assert_eq!(s.actions[1].kind.target(), Some("web"));
        assert_eq!(
            serde_json::to_string(&s.actions[0]).unwrap(),
            r#"{"round":2,"type":"undo"}"#
        );
        assert_eq!(
            serde_json::to_string(&s.actions[1]).unwrap(),
            r#"{"round":3,"type":"undo","name":"web","toRevision":1}"#
        );
    }

    #[test]
    fn unknown_top_level_keys_are_refused() {
        let e = Scenario::from_json(r#"{"actions":[],"roundz":3}"#).unwrap_err();
        assert_eq!(e.path, "roundz");
    }
}

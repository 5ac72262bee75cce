//! The API objects the controllers work on, reduced to the fields the Deployment and
//! ReplicaSet controllers read or write (`k8s.io/api/apps/v1`, `k8s.io/api/core/v1`).
//!
//! Times are whole seconds of the simulated clock (0 = the start of the scenario); a time that
//! Kubernetes may leave unset is an `Option`.

pub mod container;
pub mod intstr;

pub use container::{ContainerState, ContainerStatus};

pub use intstr::IntOrString;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Seconds on the simulated clock.
pub type Time = i64;

/// Labels, annotations or a selector: `map[string]string`, kept sorted for stable output.
///
/// Shared copy-on-write: a pod's labels are the template's until someone changes them, so the
/// thousands of pods of a ReplicaSet share one map and comparing them with the template is a
/// pointer check.
#[derive(Clone, Debug, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StringMap(std::sync::Arc<BTreeMap<String, String>>);

impl StringMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Default for StringMap {
    /// The empty map, shared: most objects have no annotations.
    fn default() -> Self {
        static EMPTY: std::sync::OnceLock<std::sync::Arc<BTreeMap<String, String>>> =
            std::sync::OnceLock::new();
        StringMap(std::sync::Arc::clone(EMPTY.get_or_init(Default::default)))
    }
}

impl PartialEq for StringMap {
    // Inlined: `calculateStatus` compares every pod's labels with the template's, and they
    // are nearly always the same shared map, so the call would cost more than the check.
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl std::hash::Hash for StringMap {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl std::ops::Deref for StringMap {
    type Target = BTreeMap<String, String>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for StringMap {
    fn deref_mut(&mut self) -> &mut Self::Target {
        std::sync::Arc::make_mut(&mut self.0)
    }
}

impl<const N: usize> From<[(String, String); N]> for StringMap {
    fn from(pairs: [(String, String); N]) -> Self {
        pairs.into_iter().collect()
    }
}

impl FromIterator<(String, String)> for StringMap {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(iter: I) -> Self {
        StringMap(std::sync::Arc::new(iter.into_iter().collect()))
    }
}

impl<'a> IntoIterator for &'a StringMap {
    type Item = (&'a String, &'a String);
    type IntoIter = std::collections::btree_map::Iter<'a, String, String>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// `deployment.kubernetes.io/revision`.
pub const REVISION_ANNOTATION: &str = "deployment.kubernetes.io/revision";
/// `deployment.kubernetes.io/revision-history`.
pub const REVISION_HISTORY_ANNOTATION: &str = "deployment.kubernetes.io/revision-history";
/// `deployment.kubernetes.io/desired-replicas`.
pub const DESIRED_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/desired-replicas";
/// `deployment.kubernetes.io/max-replicas`.
pub const MAX_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/max-replicas";
/// `deprecated.deployment.rollback.to` (apps.DeprecatedRollbackTo).
pub const DEPRECATED_ROLLBACK_TO: &str = "deprecated.deployment.rollback.to";
/// `kubectl.kubernetes.io/last-applied-configuration` (never copied to ReplicaSets).
pub const LAST_APPLIED_CONFIG_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";
/// `controller.kubernetes.io/pod-deletion-cost`.
pub const POD_DELETION_COST_ANNOTATION: &str = "controller.kubernetes.io/pod-deletion-cost";
/// `pod-template-hash` (apps.DefaultDeploymentUniqueLabelKey).
pub const POD_TEMPLATE_HASH_LABEL: &str = "pod-template-hash";

/// Go's `%q` for a string: a double-quoted literal with Go's escapes.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `metadata.uid`: unique over the simulation's lifetime, handed out in creation order. Shown
/// like a real UUID; the trailing hex digits carry the counter, so uids sort in creation order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Uid(pub u64);

impl std::fmt::Display for Uid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0 >> 48 != 0 {
            return write!(f, "5e1f0c3a-7d2b-4c1e-9a00-{:012x}", self.0);
        }
        // The same text, its twelve hex digits written by hand: the ReplicaSet controller
        // ranks every pod of a scale-down by uid, and `{:012x}` is slow to pad.
        let mut text = *b"5e1f0c3a-7d2b-4c1e-9a00-000000000000";
        let mut v = self.0;
        for digit in text[24..].iter_mut().rev() {
            *digit = b"0123456789abcdef"[(v & 0xf) as usize];
            v >>= 4;
        }
        f.write_str(std::str::from_utf8(&text).unwrap_or_default())
    }
}

impl Uid {
    /// The order of the two uids' texts (Go compares uid strings), without writing them out:
    /// below 2^48 both texts are the same prefix and twelve hex digits, so they sort as the
    /// numbers do (`…-00000000000a` < `…-000000000010`, as 10 < 16).
    pub fn cmp_text(self, other: Uid) -> std::cmp::Ordering {
        const TWELVE_HEX_DIGITS: u64 = 1 << 48;
        if self.0 < TWELVE_HEX_DIGITS && other.0 < TWELVE_HEX_DIGITS {
            self.0.cmp(&other.0)
        } else {
            self.to_string().cmp(&other.to_string())
        }
    }
}

impl Serialize for Uid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Uid {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let tail = text.rsplit('-').next().unwrap_or("");
        u64::from_str_radix(tail, 16)
            .map(Uid)
            .map_err(|_| serde::de::Error::custom(format!("not a uid: {text}")))
    }
}

/// `metav1.OwnerReference` with `controller: true`: the object that owns this one.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReference {
    /// `Deployment` or `ReplicaSet`.
    pub kind: String,
    /// The owner's name.
    pub name: String,
    /// The owner's uid.
    pub uid: Uid,
}

/// `metav1.ObjectMeta`: the metadata every object carries.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    /// Unique within the namespace and kind.
    pub name: String,
    /// Always `default` in the simulation.
    pub namespace: String,
    /// Set by the API server on create; pod uids sort in creation order.
    pub uid: Uid,
    /// Bumped by the API server when the spec (for Deployments also the annotations) changes.
    pub generation: i64,
    /// Bumped on every write.
    pub resource_version: u64,
    /// Set by the API server on create.
    pub creation_timestamp: Time,
    /// Set when a graceful deletion starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<Time>,
    /// `metadata.labels`.
    #[serde(default)]
    pub labels: StringMap,
    /// `metadata.annotations`.
    #[serde(default)]
    pub annotations: StringMap,
    /// The controller owner reference, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<OwnerReference>,
}

/// `v1.PodTemplateSpec`, reduced to labels and the one container's image.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct PodTemplate {
    /// `template.metadata.labels` (ReplicaSets add `pod-template-hash`).
    pub labels: StringMap,
    /// `template.spec.containers[0].image` (the container is named `app`).
    pub image: String,
}

impl PodTemplate {
    /// `deploymentutil.EqualIgnoreHash`: templates equal apart from the `pod-template-hash` label.
    pub fn equal_ignore_hash(&self, other: &PodTemplate) -> bool {
        if self.image != other.image {
            return false;
        }
        let strip = |m: &StringMap| {
            m.iter()
                .filter(|(k, _)| k.as_str() != POD_TEMPLATE_HASH_LABEL)
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect::<Vec<_>>()
        };
        strip(&self.labels) == strip(&other.labels)
    }
}

/// `EqualIgnoreHash` as a free function.
pub fn equal_ignore_hash_templates(a: &PodTemplate, b: &PodTemplate) -> bool {
    a.equal_ignore_hash(b)
}

/// `apps.DeploymentStrategy`.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum DeploymentStrategy {
    /// Kill all existing pods before creating new ones.
    Recreate,
    /// Replace the old ReplicaSet by the new one using rolling update.
    #[serde(rename_all = "camelCase")]
    RollingUpdate {
        /// `rollingUpdate.maxSurge` (defaulted to 25%).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_surge: Option<IntOrString>,
        /// `rollingUpdate.maxUnavailable` (defaulted to 25%).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_unavailable: Option<IntOrString>,
    },
}

/// apps/v1's default for an unset maxSurge and an unset maxUnavailable alike
/// (`SetDefaults_Deployment`): with 10 replicas, a surge of 3 (rounded up) and 2 unavailable
/// (rounded down).
pub const DEFAULT_ROLLING_PERCENT: &str = "25%";

impl DeploymentStrategy {
    /// `RollingUpdate` with the apps/v1 defaults, 25% / 25%.
    pub fn default_rolling() -> Self {
        DeploymentStrategy::RollingUpdate {
            max_surge: Some(DEFAULT_ROLLING_PERCENT.into()),
            max_unavailable: Some(DEFAULT_ROLLING_PERCENT.into()),
        }
    }

    /// The strategy as the stage's chip shows it: `RollingUpdate maxSurge 25% maxUnavailable 25%`
    /// or `Recreate`; a value left unset reads as the API server's default
    /// ([`DEFAULT_ROLLING_PERCENT`]), which a stored Deployment always has.
    pub fn text(&self) -> String {
        match self {
            DeploymentStrategy::Recreate => "Recreate".to_string(),
            DeploymentStrategy::RollingUpdate {
                max_surge,
                max_unavailable,
            } => {
                let show = |v: &Option<IntOrString>| {
                    v.as_ref()
                        .map_or(DEFAULT_ROLLING_PERCENT.to_string(), IntOrString::to_string)
                };
                format!(
                    "RollingUpdate maxSurge {} maxUnavailable {}",
                    show(max_surge),
                    show(max_unavailable)
                )
            }
        }
    }

    /// The strategy type's name as the API spells it.
    pub fn type_name(&self) -> &'static str {
        match self {
            DeploymentStrategy::Recreate => "Recreate",
            DeploymentStrategy::RollingUpdate { .. } => "RollingUpdate",
        }
    }
}

/// `apps.DeploymentSpec`.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentSpec {
    /// Desired pods (defaulted to 1).
    pub replicas: i32,
    /// `selector.matchLabels`.
    pub selector: StringMap,
    /// The pod template.
    pub template: PodTemplate,
    /// The update strategy.
    pub strategy: DeploymentStrategy,
    /// Seconds a ready pod must stay ready before it counts as available.
    pub min_ready_seconds: i32,
    /// Old ReplicaSets to keep (defaulted to 10; `None` = keep all).
    pub revision_history_limit: Option<i32>,
    /// Seconds without progress before `ProgressDeadlineExceeded` (defaulted to 600).
    pub progress_deadline_seconds: Option<i32>,
    /// `kubectl rollout pause`.
    pub paused: bool,
}

/// A condition's status (`v1.ConditionStatus`).
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
pub enum ConditionStatus {
    /// "True"
    True,
    /// "False"
    False,
    /// "Unknown"
    Unknown,
}

impl ConditionStatus {
    /// The API's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ConditionStatus::True => "True",
            ConditionStatus::False => "False",
            ConditionStatus::Unknown => "Unknown",
        }
    }
}

/// `apps.DeploymentCondition`.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentCondition {
    /// `Available`, `Progressing` or `ReplicaFailure`.
    #[serde(rename = "type")]
    pub type_: String,
    /// True, False or Unknown.
    pub status: ConditionStatus,
    /// A CamelCase reason such as `NewReplicaSetAvailable`.
    pub reason: String,
    /// A human-readable message.
    pub message: String,
    /// The last time this condition was updated.
    pub last_update_time: Time,
    /// The last time the status changed.
    pub last_transition_time: Time,
}

/// `apps.DeploymentStatus`.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentStatus {
    /// The generation the controller last acted on.
    pub observed_generation: i64,
    /// Pods of all ReplicaSets (their `status.replicas`).
    pub replicas: i32,
    /// Pods of the new ReplicaSet.
    pub updated_replicas: i32,
    /// Ready pods.
    pub ready_replicas: i32,
    /// Available pods (ready for at least minReadySeconds).
    pub available_replicas: i32,
    /// Spec replicas of all ReplicaSets minus available pods.
    pub unavailable_replicas: i32,
    /// Terminating pods of all ReplicaSets (`status.terminatingReplicas`, KEP-3973, since
    /// 1.35; `None` under 1.28, and under 1.37 while a ReplicaSet that has synced has not
    /// reported it: `GetTerminatingReplicaCountForReplicaSets`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminating_replicas: Option<i32>,
    /// Hash-collision counter (never set in the simulation: names cannot collide).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i32>,
    /// Conditions in stored order.
    pub conditions: Vec<DeploymentCondition>,
}

/// `apps.Deployment`.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
pub struct Deployment {
    /// Metadata.
    pub metadata: ObjectMeta,
    /// Spec.
    pub spec: DeploymentSpec,
    /// Status.
    pub status: DeploymentStatus,
}

/// `apps.ReplicaSetSpec`.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetSpec {
    /// Desired pods.
    pub replicas: i32,
    /// Copied from the Deployment.
    pub min_ready_seconds: i32,
    /// `selector.matchLabels` (the Deployment's plus `pod-template-hash`).
    pub selector: StringMap,
    /// The pod template.
    pub template: PodTemplate,
}

/// `apps.ReplicaSetCondition`.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetCondition {
    /// `ReplicaFailure`.
    #[serde(rename = "type")]
    pub type_: String,
    /// True, False or Unknown.
    pub status: ConditionStatus,
    /// `FailedCreate` or `FailedDelete`.
    pub reason: String,
    /// The first error's message.
    pub message: String,
    /// When the condition was set.
    pub last_transition_time: Time,
}

/// `apps.ReplicaSetStatus`.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetStatus {
    /// Active pods the ReplicaSet controls.
    pub replicas: i32,
    /// Pods whose labels match the template's.
    pub fully_labeled_replicas: i32,
    /// Ready pods.
    pub ready_replicas: i32,
    /// Available pods.
    pub available_replicas: i32,
    /// Its pods with a deletionTimestamp (`status.terminatingReplicas`, KEP-3973, since 1.35;
    /// `None` under 1.28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminating_replicas: Option<i32>,
    /// The generation the ReplicaSet controller last acted on.
    pub observed_generation: i64,
    /// Conditions (only `ReplicaFailure` exists).
    pub conditions: Vec<ReplicaSetCondition>,
}

/// `apps.ReplicaSet`.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
pub struct ReplicaSet {
    /// Metadata.
    pub metadata: ObjectMeta,
    /// Spec.
    pub spec: ReplicaSetSpec,
    /// Status.
    pub status: ReplicaSetStatus,
}

/// `v1.PodPhase`.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
pub enum PodPhase {
    /// Accepted, not all containers running.
    Pending,
    /// Bound to a node, containers running.
    Running,
    /// All containers terminated successfully.
    Succeeded,
    /// All containers terminated, at least one in failure.
    Failed,
    /// State could not be obtained.
    Unknown,
}

impl PodPhase {
    /// `podPhaseToOrdinal` of `controller_utils.go` (Pending < Unknown < Running).
    pub fn ordinal(self) -> i32 {
        match self {
            PodPhase::Pending => 0,
            PodPhase::Unknown => 1,
            PodPhase::Running => 2,
            _ => 0,
        }
    }

    /// The API's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            PodPhase::Pending => "Pending",
            PodPhase::Running => "Running",
            PodPhase::Succeeded => "Succeeded",
            PodPhase::Failed => "Failed",
            PodPhase::Unknown => "Unknown",
        }
    }
}

/// `v1.PodConditionType`: the conditions the kubelet model sets.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
pub enum PodConditionType {
    /// Bound to a node.
    PodScheduled,
    /// Init containers done.
    Initialized,
    /// All containers ready.
    ContainersReady,
    /// The pod can serve (what the controllers count).
    Ready,
}

impl PodConditionType {
    /// The API's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            PodConditionType::PodScheduled => "PodScheduled",
            PodConditionType::Initialized => "Initialized",
            PodConditionType::ContainersReady => "ContainersReady",
            PodConditionType::Ready => "Ready",
        }
    }
}

/// `v1.PodCondition`.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodCondition {
    /// PodScheduled, Initialized, ContainersReady or Ready.
    #[serde(rename = "type")]
    pub type_: PodConditionType,
    /// True or False.
    pub status: ConditionStatus,
    /// When the status last changed.
    pub last_transition_time: Time,
    /// A one-word reason (`Unschedulable` on PodScheduled=False; empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// What the component that set it says (the scheduler's `FailedScheduling` text).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

impl Pod {
    /// PodScheduled=False's message when the scheduler could not place the pod
    /// (`0/3 nodes are available: …`); `None` for a pod bound or not yet tried.
    pub fn unschedulable_message(&self) -> Option<&str> {
        self.conditions
            .iter()
            .find(|c| {
                c.type_ == PodConditionType::PodScheduled && c.status == ConditionStatus::False
            })
            .map(|c| c.message.as_str())
    }
}

/// `v1.Pod`, reduced to what the controllers and the kubelet model use.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pod {
    /// Metadata (labels from the template, owner = the ReplicaSet).
    pub metadata: ObjectMeta,
    /// The container's image.
    pub image: String,
    /// `spec.nodeName` ("" until scheduled).
    pub node_name: String,
    /// `status.phase`.
    pub phase: PodPhase,
    /// `status.conditions`.
    pub conditions: Vec<PodCondition>,
    /// `status.containerStatuses[0].restartCount`.
    pub restart_count: i32,
    /// The pod's per-ReplicaSet serial (its name suffix).
    pub serial: u32,
    /// When its container last started (creation, or the last restart): readiness counts
    /// from here.
    pub started_at: Time,
    /// `status.containerStatuses[0]` in full, for a pod whose app fails (the kubelet's
    /// restarts, back-off and probes: `kubelet::failures`); `None` for every other pod.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<std::sync::Arc<ContainerStatus>>,
}

impl Pod {
    /// `podutil.IsPodReady`.
    pub fn is_ready(&self) -> bool {
        self.ready_condition().is_some()
    }

    /// The Ready=True condition's transition time (`podReadyTime`).
    pub fn ready_time(&self) -> Option<Time> {
        self.ready_condition().map(|c| c.last_transition_time)
    }

    fn ready_condition(&self) -> Option<&PodCondition> {
        self.conditions
            .iter()
            .find(|c| c.type_ == PodConditionType::Ready)
            .filter(|c| c.status == ConditionStatus::True)
    }

    /// `podutil.IsPodAvailable`: ready for strictly more than `min_ready_seconds`.
    pub fn is_available(&self, min_ready_seconds: i32, now: Time) -> bool {
        self.ready_time()
            .is_some_and(|t| ready_long_enough(t, min_ready_seconds, now))
    }

    /// `controller.IsPodActive`: not finished and not being deleted.
    pub fn is_active(&self) -> bool {
        self.phase != PodPhase::Succeeded
            && self.phase != PodPhase::Failed
            && self.metadata.deletion_timestamp.is_none()
    }

    /// `helper.GetDeletionCostFromPodAnnotations` (0 when absent or malformed).
    pub fn deletion_cost(&self) -> i32 {
        self.metadata
            .annotations
            .get(POD_DELETION_COST_ANNOTATION)
            .and_then(|v| intstr::go_atoi(v))
            .and_then(|v| i32::try_from(v).ok())
            .unwrap_or(0)
    }
}

/// The rest of `podutil.IsPodAvailable` for a pod ready since `ready_time`: true when
/// `min_ready_seconds` is 0, else ready for strictly longer than it (ready at 10 s with
/// minReadySeconds 5: available from 16 s on).
pub fn ready_long_enough(ready_time: Time, min_ready_seconds: i32, now: Time) -> bool {
    min_ready_seconds == 0 || ready_time + i64::from(min_ready_seconds) < now
}

/// A string that is usually a literal (a reason, a kind): no allocation for those.
pub type Text = std::borrow::Cow<'static, str>;

/// A recorded event (`record.EventRecorder.Eventf`), as `kubectl describe` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// `Normal` or `Warning`.
    #[serde(rename = "type")]
    pub type_: Text,
    /// e.g. `ScalingReplicaSet`.
    pub reason: Text,
    /// e.g. `Scaled up replica set web-rev2 to 1`.
    pub message: String,
    /// The involved object's kind.
    pub kind: Text,
    /// The involved object's name.
    pub name: String,
    /// The pod named in the message, if any (for normalising traces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod: Option<String>,
    /// When it was recorded.
    pub time: Time,
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_strategy_reads_as_the_stage_shows_it() {
        let stored = DeploymentStrategy::RollingUpdate {
            max_surge: Some(IntOrString::Int(1)),
            max_unavailable: Some("10%".into()),
        };
        assert_eq!(stored.text(), "RollingUpdate maxSurge 1 maxUnavailable 10%");
        let unset = DeploymentStrategy::RollingUpdate {
            max_surge: None,
            max_unavailable: Some(IntOrString::Int(0)),
        };
        assert_eq!(unset.text(), "RollingUpdate maxSurge 25% maxUnavailable 0");
        assert_eq!(
            DeploymentStrategy::default_rolling().text(),
            "RollingUpdate maxSurge 25% maxUnavailable 25%"
        );
        assert_eq!(DeploymentStrategy::Recreate.text(), "Recreate");
    }

    use super::{DeploymentStrategy, IntOrString, Uid};

    #[test]
    fn uids_print_as_the_padded_hex_they_sort_by() {
        for v in [0, 1, 0xabc, 0xffff_ffff_ffff, 1 << 48, u64::MAX] {
            assert_eq!(
                Uid(v).to_string(),
                format!("5e1f0c3a-7d2b-4c1e-9a00-{v:012x}")
            );
        }
    }
}

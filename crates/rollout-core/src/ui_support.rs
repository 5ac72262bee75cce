//! Small pure helpers for a front end that are about Kubernetes or kubectl rather than about
//! drawing: where a controller function lives in the Kubernetes source, the kubectl command
//! and output for a scenario action, `kubectl rollout history`, and the pods a step removed
//! (so a UI can let them fade out).

use crate::api::Time;
use crate::deployment::util;
use crate::kubelet::PodChange;
use crate::scenario::ActionKind;
use crate::sim::{Simulation, StepKind};
use crate::store::ApiServer;
use serde::{Deserialize, Serialize};

/// The Kubernetes tree the controllers were ported from.
pub const KUBERNETES_SOURCE: &str = "https://github.com/kubernetes/kubernetes/blob/v1.28.4/";

/// Where a Kubernetes function is defined in v1.28.4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceRef {
    /// The Go function (or method) name.
    pub function: &'static str,
    /// Path in the Kubernetes repository.
    pub file: &'static str,
    /// Line of its `func` declaration.
    pub line: u32,
}

impl SourceRef {
    /// The file's base name, e.g. `rolling.go`.
    pub fn file_name(&self) -> &'static str {
        self.file.rsplit('/').next().unwrap_or(self.file)
    }

    /// A link to the declaration on GitHub.
    pub fn url(&self) -> String {
        format!("{KUBERNETES_SOURCE}{}#L{}", self.file, self.line)
    }
}

const DEPLOYMENT: &str = "pkg/controller/deployment/";
const CONTROLLER: &str = "pkg/controller/deployment/deployment_controller.go";
const SYNC: &str = "pkg/controller/deployment/sync.go";
const ROLLING: &str = "pkg/controller/deployment/rolling.go";
const RECREATE: &str = "pkg/controller/deployment/recreate.go";
const ROLLBACK: &str = "pkg/controller/deployment/rollback.go";
const PROGRESS: &str = "pkg/controller/deployment/progress.go";
const UTIL: &str = "pkg/controller/deployment/util/deployment_util.go";
const RS: &str = "pkg/controller/replicaset/replica_set.go";
const RS_UTILS: &str = "pkg/controller/replicaset/replica_set_utils.go";
const CONTROLLER_UTILS: &str = "pkg/controller/controller_utils.go";

/// (function, file, line) of the functions the stepper reports, for v1.28.4.
const SOURCES: &[(&str, &str, u32)] = &[
    ("syncDeployment", CONTROLLER, 581),
    ("getReplicaSetsForDeployment", CONTROLLER, 516),
    ("sync", SYNC, 49),
    ("checkPausedConditions", SYNC, 74),
    ("getAllReplicaSetsAndSyncRevision", SYNC, 116),
    ("getNewReplicaSet", SYNC, 138),
    ("scale", SYNC, 299),
    ("scaleReplicaSetAndRecordEvent", SYNC, 398),
    ("cleanupDeployment", SYNC, 438),
    ("syncDeploymentStatus", SYNC, 476),
    ("isScalingEvent", SYNC, 532),
    ("rolloutRolling", ROLLING, 32),
    ("reconcileNewReplicaSet", ROLLING, 69),
    ("reconcileOldReplicaSets", ROLLING, 87),
    ("cleanupUnhealthyReplicas", ROLLING, 156),
    ("scaleDownOldReplicaSetsForRollingUpdate", ROLLING, 194),
    ("rolloutRecreate", RECREATE, 29),
    ("scaleDownOldReplicaSetsForRecreate", RECREATE, 78),
    ("oldPodsRunning", RECREATE, 99),
    ("scaleUpNewReplicaSetForRecreate", RECREATE, 129),
    ("rollback", ROLLBACK, 33),
    ("rollbackToTemplate", ROLLBACK, 77),
    ("syncRolloutStatus", PROGRESS, 36),
    ("getReplicaFailures", PROGRESS, 122),
    ("GetProportion", UTIL, 470),
    ("MaxUnavailable", UTIL, 437),
    ("MaxSurge", UTIL, 458),
    ("DeploymentComplete", UTIL, 708),
    ("DeploymentProgressing", UTIL, 719),
    ("DeploymentTimedOut", UTIL, 738),
    ("NewRSNewReplicas", UTIL, 784),
    ("ResolveFenceposts", UTIL, 851),
    ("manageReplicas", RS, 566),
    ("syncReplicaSet", RS, 672),
    ("slowStartBatch", RS, 768),
    ("getPodsToDelete", RS, 822),
    ("ActivePodsWithRanks", CONTROLLER_UTILS, 827),
];

/// Where `function` is defined. `calculateStatus` exists in both controllers: `replicaset`
/// picks the ReplicaSet controller's (`replica_set_utils.go`) over the Deployment
/// controller's (`sync.go`). `None` for names that are not Kubernetes functions (e.g. the
/// kubelet model).
pub fn source_of(function: &str, replicaset: bool) -> Option<SourceRef> {
    if function == "calculateStatus" {
        return Some(if replicaset {
            SourceRef {
                function: "calculateStatus",
                file: RS_UTILS,
                line: 86,
            }
        } else {
            SourceRef {
                function: "calculateStatus",
                file: SYNC,
                line: 490,
            }
        });
    }
    SOURCES
        .iter()
        .find(|(f, _, _)| *f == function)
        .map(|&(function, file, line)| SourceRef {
            function,
            file,
            line,
        })
}

/// [`source_of`] for a function entered during `step`.
pub fn source_in_step(function: &str, step: &StepKind) -> Option<SourceRef> {
    source_of(function, matches!(step, StepKind::SyncReplicaSet { .. }))
}

/// The Deployment controller's directory, for a general link.
pub fn deployment_controller_dir() -> String {
    format!("{KUBERNETES_SOURCE}{DEPLOYMENT}")
}

/// The kubectl command a user would type for an action (`default_name`: the Deployment an
/// action without a `name` applies to).
pub fn kubectl_command(kind: &ActionKind, default_name: &str) -> String {
    let name = kind.target().unwrap_or(default_name);
    match kind {
        ActionKind::Create { deployment } => format!(
            "kubectl create deployment {} --image={} --replicas={}",
            deployment.name,
            deployment.image,
            deployment.replicas.unwrap_or(1)
        ),
        ActionKind::SetImage { image, .. } => set_image_command(name, "app", image),
        ActionKind::Scale { replicas, .. } => {
            format!("kubectl scale deployment/{name} --replicas={replicas}")
        }
        ActionKind::Pause { .. } => format!("kubectl rollout pause deployment/{name}"),
        ActionKind::Resume { .. } => format!("kubectl rollout resume deployment/{name}"),
        ActionKind::Rollback { revision, .. } => format!(
            "kubectl annotate deployment/{name} deprecated.deployment.rollback.to={revision}"
        ),
        ActionKind::Undo { to_revision: 0, .. } => {
            format!("kubectl rollout undo deployment/{name}")
        }
        ActionKind::Undo { to_revision, .. } => {
            format!("kubectl rollout undo deployment/{name} --to-revision={to_revision}")
        }
        ActionKind::SetStrategy { strategy, .. } => format!(
            "kubectl patch deployment/{name} -p '{{\"spec\":{{\"strategy\":{}}}}}'",
            strategy_json(strategy)
        ),
        ActionKind::SetMinReadySeconds { value, .. } => format!(
            "kubectl patch deployment/{name} -p '{{\"spec\":{{\"minReadySeconds\":{value}}}}}'"
        ),
        ActionKind::SetProgressDeadlineSeconds { value, .. } => format!(
            "kubectl patch deployment/{name} -p '{{\"spec\":{{\"progressDeadlineSeconds\":{value}}}}}'"
        ),
        ActionKind::SetRevisionHistoryLimit { value, .. } => format!(
            "kubectl patch deployment/{name} -p '{{\"spec\":{{\"revisionHistoryLimit\":{value}}}}}'"
        ),
        ActionKind::SetPodDeletionCost { pod, value } => match value {
            Some(v) => format!(
                "kubectl annotate --overwrite pod/{pod} controller.kubernetes.io/pod-deletion-cost={v}"
            ),
            None => {
                format!("kubectl annotate pod/{pod} controller.kubernetes.io/pod-deletion-cost-")
            }
        },
        ActionKind::RestartPod { pod } => {
            format!("# the container of pod/{pod} restarts (kubelet)")
        }
        ActionKind::SetPodQuota { value } => match value {
            Some(q) => format!("kubectl create quota pods-quota --hard=pods={q}"),
            None => "kubectl delete quota pods-quota".to_string(),
        },
    }
}

/// `kubectl set image deployment/<name> <container>=<image>`: a scenario's Deployment has one
/// container, `app`; a planned manifest names its own (`ManifestDeployment::container_name`).
pub fn set_image_command(deployment: &str, container: &str, image: &str) -> String {
    format!("kubectl set image deployment/{deployment} {container}={image}")
}

/// `kubectl apply -f <file>`: a manifest applied (a Deployment created from its YAML, or NEW
/// applied over the live Deployment in `rollout plan OLD NEW`).
pub fn apply_command(file: &str) -> String {
    format!("kubectl apply -f {file}")
}

/// The file `kubectl apply -f` is shown with for a Deployment the lab made: `web.yaml`.
pub fn manifest_file_name(deployment: &str) -> String {
    format!("{deployment}.yaml")
}

/// `kubectl rollout status deployment/<name>`, the command whose output
/// `kubectl::rollout_status_of` prints.
pub fn rollout_status_command(deployment: &str) -> String {
    format!("kubectl rollout status deployment/{deployment}")
}

/// The strategy as the API would store it in a patch: `{"type":"RollingUpdate",
/// "rollingUpdate":{"maxSurge":1,"maxUnavailable":"25%"}}` or `{"type":"Recreate"}`.
fn strategy_json(s: &crate::scenario::StrategyInput) -> String {
    let json = |v: &crate::api::IntOrString| serde_json::to_string(v).unwrap_or_default();
    let mut parts = Vec::new();
    if let Some(t) = &s.type_ {
        parts.push(format!("\"type\":{}", serde_json::Value::String(t.clone())));
    }
    if s.has_rolling_update_block() {
        let mut ru = Vec::new();
        if let Some(v) = &s.max_surge {
            ru.push(format!("\"maxSurge\":{}", json(v)));
        }
        if let Some(v) = &s.max_unavailable {
            ru.push(format!("\"maxUnavailable\":{}", json(v)));
        }
        parts.push(format!("\"rollingUpdate\":{{{}}}", ru.join(",")));
    }
    format!("{{{}}}", parts.join(","))
}

/// What kubectl prints when the request for `kind` succeeds, e.g.
/// `deployment.apps/web image updated`.
pub fn kubectl_output(kind: &ActionKind, default_name: &str) -> String {
    let name = kind.target().unwrap_or(default_name);
    match kind {
        ActionKind::Create { deployment } => format!("deployment.apps/{} created", deployment.name),
        ActionKind::SetImage { .. } => format!("deployment.apps/{name} image updated"),
        ActionKind::Scale { .. } => format!("deployment.apps/{name} scaled"),
        ActionKind::Pause { .. } => format!("deployment.apps/{name} paused"),
        ActionKind::Resume { .. } => format!("deployment.apps/{name} resumed"),
        ActionKind::Rollback { .. } => format!("deployment.apps/{name} annotated"),
        ActionKind::Undo { .. } => format!("deployment.apps/{name} rolled back"),
        ActionKind::SetStrategy { .. }
        | ActionKind::SetMinReadySeconds { .. }
        | ActionKind::SetProgressDeadlineSeconds { .. }
        | ActionKind::SetRevisionHistoryLimit { .. } => format!("deployment.apps/{name} patched"),
        ActionKind::SetPodDeletionCost { pod, .. } => format!("pod/{pod} annotated"),
        ActionKind::RestartPod { .. } => String::new(),
        ActionKind::SetPodQuota { value } => match value {
            Some(_) => "resourcequota/pods-quota created".to_string(),
            None => "resourcequota \"pods-quota\" deleted".to_string(),
        },
    }
}

/// One line of `kubectl rollout history deployment/<name>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    /// The revision.
    pub revision: i64,
    /// The ReplicaSet that holds it.
    pub replica_set: String,
    /// Its template's image.
    pub image: String,
    /// Whether it is the Deployment's current template.
    pub current: bool,
}

/// The revisions `kubectl rollout history` lists for a Deployment (its ReplicaSets with a
/// revision annotation), oldest first. Empty when the Deployment does not exist.
pub fn rollout_history(api: &ApiServer, name: &str) -> Vec<HistoryEntry> {
    let Some(d) = api.deployment(name) else {
        return Vec::new();
    };
    let mut out: Vec<HistoryEntry> = api
        .replica_sets_of(d)
        .iter()
        .filter_map(|rs| {
            let revision = util::revision(rs).ok()?;
            Some(HistoryEntry {
                revision,
                replica_set: rs.metadata.name.clone(),
                image: rs.spec.template.image.clone(),
                current: rs.spec.template.equal_ignore_hash(&d.spec.template),
            })
        })
        .collect();
    crate::order::sort_by_key(&mut out, |e| e.revision);
    out
}

/// A pod that the last step removed from the API server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DepartedPod {
    /// The ReplicaSet it belonged to.
    pub replica_set: String,
    /// The pod's name.
    pub name: String,
}

/// The ReplicaSet a pod name `<replicaset>-NNNNN` belongs to.
pub fn replica_set_of_pod(pod: &str) -> &str {
    pod.rsplit_once('-').map_or(pod, |(rs, _)| rs)
}

/// The pods the last step deleted outright (`manageReplicas` without graceful termination) or
/// removed after their grace period (the kubelet), in the order they went.
pub fn departed_pods(sim: &Simulation) -> Vec<DepartedPod> {
    let Some(step) = sim.last_step() else {
        return Vec::new();
    };
    let api = sim.api();
    let mut out = Vec::new();
    if let (StepKind::SyncReplicaSet { name }, Some(manage)) = (&step.kind, &step.manage) {
        for d in &manage.deletions {
            if api.pod(&d.pod.name).is_none() {
                out.push(DepartedPod {
                    replica_set: name.clone(),
                    name: d.pod.name.clone(),
                });
            }
        }
    }
    for change in &step.pod_changes {
        if let PodChange::Removed { pod } = change {
            out.push(DepartedPod {
                replica_set: replica_set_of_pod(pod).to_string(),
                name: pod.clone(),
            });
        }
    }
    out
}

/// `kubectl describe`'s FROM column for an event recorded in a phase of the round.
pub fn event_source(phase: &str) -> &'static str {
    match phase {
        "deployment" => "deployment-controller",
        "replicaset" => "replicaset-controller",
        _ => "kubelet",
    }
}

/// Seconds since `then`, never negative (for AGE columns).
pub fn since(now: Time, then: Time) -> Time {
    (now - then).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Scenario, StrategyInput};

    #[test]
    fn every_function_the_controllers_enter_has_a_source() {
        for f in [
            "syncDeployment",
            "getReplicaSetsForDeployment",
            "sync",
            "checkPausedConditions",
            "getNewReplicaSet",
            "scale",
            "isScalingEvent",
            "cleanupDeployment",
            "syncDeploymentStatus",
            "rolloutRolling",
            "reconcileNewReplicaSet",
            "reconcileOldReplicaSets",
            "cleanupUnhealthyReplicas",
            "scaleDownOldReplicaSetsForRollingUpdate",
            "rolloutRecreate",
            "oldPodsRunning",
            "scaleUpNewReplicaSetForRecreate",
            "scaleDownOldReplicaSetsForRecreate",
            "rollback",
            "rollbackToTemplate",
            "syncRolloutStatus",
            "syncReplicaSet",
            "manageReplicas",
            "calculateStatus",
        ] {
            assert!(source_of(f, false).is_some(), "{f}");
        }
        assert_eq!(source_of("kubelet", false), None);
        let rs = source_in_step(
            "calculateStatus",
            &StepKind::SyncReplicaSet { name: "x".into() },
        )
        .unwrap();
        assert_eq!(rs.file_name(), "replica_set_utils.go");
        assert_eq!(
            source_of("reconcileNewReplicaSet", false).unwrap().url(),
            "https://github.com/kubernetes/kubernetes/blob/v1.28.4/pkg/controller/deployment/rolling.go#L69"
        );
    }

    #[test]
    fn kubectl_words_for_actions() {
        let set = ActionKind::SetImage {
            name: None,
            image: "nginx:1.16.1".into(),
        };
        assert_eq!(
            kubectl_command(&set, "web"),
            "kubectl set image deployment/web app=nginx:1.16.1"
        );
        assert_eq!(
            kubectl_output(&set, "web"),
            "deployment.apps/web image updated"
        );
        let strategy = ActionKind::SetStrategy {
            name: None,
            strategy: StrategyInput {
                type_: Some("RollingUpdate".into()),
                max_surge: Some(0.into()),
                max_unavailable: Some("25%".into()),
                with_rolling_update: None,
            },
        };
        assert_eq!(
            kubectl_command(&strategy, "web"),
            r#"kubectl patch deployment/web -p '{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":0,"maxUnavailable":"25%"}}}}'"#
        );
        assert_eq!(
            kubectl_output(&strategy, "web"),
            "deployment.apps/web patched"
        );
    }

    fn scenario(extra: &str, termination: u32) -> Scenario {
        Scenario::from_json(&format!(
            r#"{{"rounds":12,"terminationRounds":{termination},"actions":[{{"round":0,"type":"create",
            "deployment":{{"name":"web","replicas":2,"image":"v1"}}}}{extra}]}}"#
        ))
        .unwrap()
    }

    #[test]
    fn history_lists_revisions_oldest_first() {
        let mut sim = Simulation::new(scenario(
            r#",{"round":2,"type":"setImage","image":"v2"}"#,
            0,
        ))
        .without_history();
        sim.run();
        let h = rollout_history(sim.api(), "web");
        let brief: Vec<_> = h
            .iter()
            .map(|e| (e.revision, e.image.as_str(), e.current))
            .collect();
        assert_eq!(brief, vec![(1, "v1", false), (2, "v2", true)]);
        assert!(rollout_history(sim.api(), "nope").is_empty());
    }

    #[test]
    fn departed_pods_are_the_deleted_and_the_removed() {
        for termination in [0, 1] {
            let mut sim = Simulation::new(scenario(
                r#",{"round":3,"type":"scale","replicas":1}"#,
                termination,
            ));
            let mut gone = Vec::new();
            while !sim.finished() {
                sim.step();
                gone.extend(departed_pods(&sim));
            }
            assert_eq!(
                gone.len(),
                1,
                "termination {termination}: one pod leaves: {gone:?}"
            );
            assert_eq!(gone[0].replica_set, "web-rev1");
            assert_eq!(replica_set_of_pod(&gone[0].name), "web-rev1");
        }
    }
}

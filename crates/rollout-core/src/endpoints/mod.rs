//! A Service's endpoints: the EndpointSlice controller's rules for which pods are endpoints and
//! with which conditions (`pkg/controller/endpointslice`, and `staging/src/k8s.io/endpointslice`
//! of v1.28.4: `util/controller_utils.go` `ShouldPodBeInEndpoints`, `utils.go` `podToEndpoint`),
//! and which of them kube-proxy sends new connections to (`pkg/proxy/topology.go`
//! `CategorizeEndpoints`, with `ProxyTerminatingEndpoints`, GA in 1.28).
//!
//! The Service is modelled as the one a Deployment is usually exposed by: its selector is the
//! Deployment's, `publishNotReadyAddresses` false, `internalTrafficPolicy` and
//! `externalTrafficPolicy` `Cluster`, no topology hints. A pod "has an IP" once it is bound to a
//! node (the kubelet writes `podIP` when the pod's sandbox is up, before its containers start;
//! the model folds that moment into the binding).
//!
//! Example: three pods of `web`. `web-rev1-00000` is Ready; `web-rev1-00001` is Ready and being
//! deleted; `web-rev2-00000` is bound but not Ready yet. The slice holds all three: ready
//! `true/false/false`, serving `true/true/false`, terminating `false/true/false`. kube-proxy
//! sends new connections to `web-rev1-00000` only; were it not there, to the serving
//! terminating `web-rev1-00001` rather than to nothing.

use crate::api::{Pod, PodPhase};
use serde::Serialize;

/// `discovery.EndpointConditions` of one endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct EndpointConditions {
    /// `ready`: serving and not terminating (`publishNotReadyAddresses` is false here).
    pub ready: bool,
    /// `serving`: the pod's Ready condition, terminating or not.
    pub serving: bool,
    /// `terminating`: the pod has a `deletionTimestamp`.
    pub terminating: bool,
}

/// One `discovery.Endpoint` of the Service's slice: the pod it targets and its conditions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    /// `targetRef.name`: the pod.
    pub pod: String,
    /// Its conditions.
    pub conditions: EndpointConditions,
}

/// `ShouldPodBeInEndpoints(pod, includeTerminating: true)` as the EndpointSlice controller
/// calls it: not terminal (phase Succeeded or Failed) and with an IP (here: bound to a node).
/// Terminating pods stay in the slice.
pub fn should_pod_be_in_endpoints(pod: &Pod) -> bool {
    let terminal = matches!(pod.phase, PodPhase::Succeeded | PodPhase::Failed);
    !terminal && !pod.node_name.is_empty()
}

/// `podToEndpoint`'s conditions for a pod: serving = `IsPodReady`, terminating =
/// `deletionTimestamp != nil`, ready = serving and not terminating. `serving` is the Ready
/// condition as the kubelet last wrote it; `app_exited` says the kubelet has since seen the
/// container exit (a terminating pod whose app stopped on SIGTERM), which it reports as not
/// ready: the model folds that status write into the exit.
pub fn pod_to_endpoint(pod: &Pod, app_exited: bool) -> Endpoint {
    let serving = pod.is_ready() && !app_exited;
    let terminating = pod.metadata.deletion_timestamp.is_some();
    Endpoint {
        pod: pod.metadata.name.clone(),
        conditions: EndpointConditions {
            ready: serving && !terminating,
            serving,
            terminating,
        },
    }
}

/// Whether the pod's labels match the Service's selector (every key with its value; an empty
/// selector selects nothing, as a Service without a selector has no controller-made slices).
pub fn selects(selector: &crate::api::StringMap, pod: &Pod) -> bool {
    !selector.is_empty()
        && selector
            .iter()
            .all(|(k, v)| pod.metadata.labels.get(k) == Some(v))
}

/// Which endpoints kube-proxy sends new connections to (`CategorizeEndpoints`'
/// `clusterEndpoints` for a `Cluster` traffic policy without topology): the ready ones; if none
/// is ready, the serving terminating ones (ProxyTerminatingEndpoints); else none, and the
/// Service rejects the connection.
pub fn categorize_endpoints(endpoints: &[Endpoint]) -> Vec<&Endpoint> {
    let ready: Vec<&Endpoint> = endpoints.iter().filter(|e| e.conditions.ready).collect();
    if !ready.is_empty() {
        return ready;
    }
    endpoints
        .iter()
        .filter(|e| e.conditions.serving && e.conditions.terminating)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ConditionStatus, PodCondition, PodConditionType};

    fn pod(name: &str, node: &str, ready: bool, deleted: Option<i64>) -> Pod {
        let mut p: Pod = serde_json::from_value(serde_json::json!({
            "metadata": {"name": name, "namespace": "default",
                "uid": serde_json::to_value(crate::api::Uid(1)).unwrap(), "generation": 0,
                "resourceVersion": 1, "creationTimestamp": 0,
                "labels": {"app": "web"}, "annotations": {}},
            "image": "web:1", "nodeName": node, "phase": "Running", "conditions": [],
            "restartCount": 0, "serial": 0, "startedAt": 0
        }))
        .unwrap();
        if ready {
            p.conditions.push(PodCondition {
                type_: PodConditionType::Ready,
                status: ConditionStatus::True,
                last_transition_time: 0,
                reason: String::new(),
                message: String::new(),
            });
        }
        p.metadata.deletion_timestamp = deleted;
        p
    }

    #[test]
    fn the_slice_and_the_proxy_follow_the_example() {
        let pods = [
            pod("web-rev1-00000", "node-0", true, None),
            pod("web-rev1-00001", "node-1", true, Some(5)),
            pod("web-rev2-00000", "node-2", false, None),
            pod("web-rev2-00001", "", false, None),
        ];
        let slice: Vec<Endpoint> = pods
            .iter()
            .filter(|p| should_pod_be_in_endpoints(p))
            .map(|p| pod_to_endpoint(p, false))
            .collect();
        assert_eq!(slice.len(), 3, "the unbound pod has no IP");
        let c = |i: usize| slice[i].conditions;
        assert_eq!((c(0).ready, c(1).ready, c(2).ready), (true, false, false));
        assert_eq!(
            (c(0).serving, c(1).serving, c(2).serving),
            (true, true, false)
        );
        assert_eq!(
            (c(0).terminating, c(1).terminating, c(2).terminating),
            (false, true, false)
        );
        let chosen = categorize_endpoints(&slice);
        assert_eq!(chosen.len(), 1);
        assert_eq!(chosen[0].pod, "web-rev1-00000");
        // Without the ready one: the serving terminating one rather than nothing.
        let chosen = categorize_endpoints(&slice[1..]);
        assert_eq!(chosen.len(), 1);
        assert_eq!(chosen[0].pod, "web-rev1-00001");
        // Its app exited: not serving any more, nothing left.
        let exited = [pod_to_endpoint(&pods[1], true), slice[2].clone()];
        assert!(categorize_endpoints(&exited).is_empty());
    }

    #[test]
    fn terminal_pods_are_not_endpoints_and_selectors_match_labels() {
        let mut p = pod("a", "node-0", true, None);
        p.phase = PodPhase::Failed;
        assert!(!should_pod_be_in_endpoints(&p));
        let sel: crate::api::StringMap =
            serde_json::from_value(serde_json::json!({"app": "web"})).unwrap();
        assert!(selects(&sel, &p));
        let other: crate::api::StringMap =
            serde_json::from_value(serde_json::json!({"app": "api"})).unwrap();
        assert!(!selects(&other, &p));
        assert!(!selects(&crate::api::StringMap::new(), &p));
    }
}

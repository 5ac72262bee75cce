//! The hand-worked cases of issue #37: each runs a scenario with `model.scheduling` and checks
//! where the pods went, the `FailedScheduling` text and what the forecast says.

use crate::plan;
use crate::scenario::Scenario;
use crate::sim::Simulation;
use serde_json::{json, Value};

const ANTI: &str = "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..";

/// 3 nodes, 5 s settled rounds, pods ready 1 round after they start, the image set in round 3.
fn scenario(strategy: Value, termination_rounds: u32, nodes: u32, scheduling: Value) -> Scenario {
    Scenario::from_value(&json!({
        "name": "sched", "rounds": 60, "secondsPerRound": 5, "readyAfterRounds": 1,
        "terminationRounds": termination_rounds, "nodes": nodes, "settle": true,
        "model": { "scheduling": scheduling },
        "actions": [
            {"round": 0, "type": "create", "deployment": {"name": "web", "replicas": 3,
             "image": "nginx:1.14", "progressDeadlineSeconds": 60, "strategy": strategy}},
            {"round": 3, "type": "setImage", "image": "nginx:1.16"}
        ]
    }))
    .unwrap()
}

fn anti_affinity() -> Value {
    json!({ "pod": { "affinity": { "podAntiAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}]}}}})
}

fn failed_scheduling(sim: &Simulation) -> Vec<String> {
    sim.events()
        .filter(|e| e.event.reason == "FailedScheduling")
        .map(|e| e.event.message.clone())
        .collect()
}

fn nodes_of(sim: &Simulation) -> Vec<(String, String)> {
    sim.api()
        .pods()
        .map(|p| (p.metadata.name.clone(), p.node_name.clone()))
        .collect()
}

#[test]
fn a_surge_pod_with_hostname_anti_affinity_on_full_nodes_stays_pending() {
    // 3 replicas, one on each of 3 nodes (hostname anti-affinity). maxSurge 1, maxUnavailable
    // 0: the rollout needs a 4th pod before it may delete an old one, and every hostname
    // domain holds a pod its term matches, so it fits nowhere. The new ReplicaSet is made in
    // round 3 (t = 15 s); the Progressing condition's last update is then, and the controller
    // times out once now > 15 + 60 = 75 s: round 16 (t = 80 s). The rollout never completes.
    let s = scenario(
        json!({"type": "RollingUpdate", "maxSurge": 1, "maxUnavailable": 0}),
        0,
        3,
        anti_affinity(),
    );
    let (f, sim) = plan::simulate(&s).unwrap();
    assert_eq!(f.complete_round, None);
    assert_eq!(f.deadline_exceeded_round, Some(16));
    let pending = sim.api().pod("web-rev2-00001").unwrap();
    assert!(pending.node_name.is_empty());
    assert_eq!(pending.phase, crate::api::PodPhase::Pending);
    assert_eq!(pending.unschedulable_message(), Some(ANTI));
    let c = &pending.conditions[0];
    assert_eq!(
        (c.reason.as_str(), c.status),
        ("Unschedulable", crate::api::ConditionStatus::False)
    );
    // One event when it first fails: the message does not change after.
    assert_eq!(failed_scheduling(&sim), vec![ANTI.to_string()]);
    // The old pods went to node-(serial mod 3), as without the scheduler.
    let old: Vec<_> = nodes_of(&sim)
        .into_iter()
        .filter(|(p, _)| p.starts_with("web-rev1"))
        .collect();
    assert_eq!(
        old.iter().map(|(_, n)| n.as_str()).collect::<Vec<_>>(),
        ["node-1", "node-2", "node-0"]
    );
}

#[test]
fn with_max_unavailable_the_same_rollout_completes_after_each_old_pod_is_gone() {
    // maxSurge 0, maxUnavailable 1: an old pod is deleted first; it terminates for 2 rounds
    // and the scheduler still counts it, so its replacement is Pending (the same message)
    // until it is gone, then goes to the freed node. Three waves, and it completes.
    let s = scenario(
        json!({"type": "RollingUpdate", "maxSurge": 0, "maxUnavailable": 1}),
        2,
        3,
        anti_affinity(),
    );
    let (f, sim) = plan::simulate(&s).unwrap();
    assert!(f.complete_round.is_some(), "{f:?}");
    assert_eq!(f.deadline_exceeded_round, None);
    assert_eq!(
        f.peak_pods, 4,
        "3 pods and 1 pending replacement, the old one terminating"
    );
    let messages = failed_scheduling(&sim);
    assert!(
        !messages.is_empty() && messages.iter().all(|m| m == ANTI),
        "{messages:?}"
    );
    let mut nodes: Vec<String> = nodes_of(&sim).into_iter().map(|(_, n)| n).collect();
    nodes.sort();
    assert_eq!(nodes, ["node-0", "node-1", "node-2"]);
}

#[test]
fn requests_of_600m_on_nodes_of_one_cpu_put_one_pod_on_each() {
    // 1000m allocatable, 600m a pod: after one pod 400m is left, less than 600m. 4 replicas on
    // 3 nodes: pods 1, 2, 3 take node-1, node-2, node-0; pod 4 tries node-1 first (4 mod 3),
    // then node-2, node-0, and every one answers "Insufficient cpu".
    let mut s = scenario(
        json!({"type": "RollingUpdate", "maxSurge": 1, "maxUnavailable": 0}),
        0,
        3,
        json!({"nodeCpu": "1", "pod": {"containers": [{"resources": {"requests": {"cpu": "600m"}}}]}}),
    );
    if let crate::scenario::ActionKind::Create { deployment } = &mut s.actions[0].kind {
        deployment.replicas = Some(4);
    }
    s.actions.truncate(1);
    s.rounds = 3;
    let sim = crate::sim::Simulation::new(s).without_history();
    let mut sim = sim;
    sim.run();
    let msg = "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..";
    let nodes: Vec<(String, String)> = nodes_of(&sim);
    assert_eq!(
        nodes.iter().map(|(_, n)| n.as_str()).collect::<Vec<_>>(),
        ["node-1", "node-2", "node-0", ""]
    );
    assert_eq!(
        sim.api()
            .pod("web-rev1-00004")
            .unwrap()
            .unschedulable_message(),
        Some(msg)
    );
    assert_eq!(failed_scheduling(&sim), vec![msg.to_string()]);
    // The stage's pod card carries the text (its tooltip and the inspector show it).
    let view = crate::view::cluster_view(&sim);
    let pods = &view.replica_sets[0].pods;
    assert_eq!(pods[3].unschedulable.as_deref(), Some(msg));
    assert!(pods[..3].iter().all(|p| p.unschedulable.is_none()));
}

#[test]
fn a_zone_spread_of_max_skew_1_blocks_the_zone_that_is_ahead() {
    // Two nodes: node-0 in zone-a with 4 CPU, node-1 in zone-b with 1 CPU; pods ask 600m and
    // spread over zones with maxSkew 1. Pod 1 → node-1 (zone-b). Pod 2 → node-0 (a: 0 + 1 − 0
    // = 1). Pod 3 tries node-1: 400m left, Insufficient cpu; node-0: a 1 + 1 − min 1 = 1, fits.
    // Zones hold a 2, b 1. The surge pod (maxSurge 1) tries node-1: Insufficient cpu; node-0:
    // 2 + 1 − 1 = 2 > 1, the spread refuses. Stuck, with both reasons counted.
    let s = scenario(
        json!({"type": "RollingUpdate", "maxSurge": 1, "maxUnavailable": 0}),
        0,
        2,
        json!({
            "nodeList": [
                {"name": "node-0", "cpu": "4", "labels": {"topology.kubernetes.io/zone": "zone-a"}},
                {"name": "node-1", "cpu": "1", "labels": {"topology.kubernetes.io/zone": "zone-b"}}],
            "pod": {"containers": [{"resources": {"requests": {"cpu": "600m"}}}],
                "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                    "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "web"}}}]}
        }),
    );
    let (f, sim) = plan::simulate(&s).unwrap();
    assert_eq!(f.complete_round, None);
    assert_eq!(f.deadline_exceeded_round, Some(16));
    let msg = "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod topology spread constraints. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod..";
    assert_eq!(failed_scheduling(&sim), vec![msg.to_string()]);
    let old: Vec<String> = nodes_of(&sim)
        .into_iter()
        .filter(|(p, _)| p.starts_with("web-rev1"))
        .map(|(_, n)| n)
        .collect();
    assert_eq!(old, ["node-1", "node-0", "node-0"]);
}

#[test]
fn a_node_selector_no_node_has_is_not_helped_by_preemption() {
    let s = scenario(
        json!({"type": "RollingUpdate", "maxSurge": 1, "maxUnavailable": 0}),
        0,
        3,
        json!({"pod": {"nodeSelector": {"disktype": "ssd"}}}),
    );
    let (f, sim) = plan::simulate(&s).unwrap();
    assert_eq!((f.complete_round, f.min_available), (None, Some(0)));
    let first = failed_scheduling(&sim)[0].clone();
    assert_eq!(first, "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..");
}

#[test]
fn without_constraints_the_scheduler_places_pods_as_the_round_robin_did() {
    // The same scenario with and without an empty scheduling model: the same trace.
    let with = scenario(
        json!({"type": "RollingUpdate", "maxSurge": 1, "maxUnavailable": 0}),
        1,
        3,
        json!({}),
    );
    let mut without = with.clone();
    without.model = None;
    let a = plan::simulate(&with).unwrap();
    let b = plan::simulate(&without).unwrap();
    assert_eq!(a.0, b.0);
    assert_eq!(nodes_of(&a.1), nodes_of(&b.1));
}

#[test]
fn the_scenario_format_names_bad_scheduling_fields() {
    let bad = |m: Value| {
        let mut v = json!({"name": "x", "nodes": 2, "actions": [], "model": {"scheduling": m}});
        v["rounds"] = json!(3);
        Scenario::from_value(&v).unwrap_err().to_string()
    };
    assert!(bad(json!({"nodeCPU": "1"})).contains("scheduling: unknown field `nodeCPU`"));
    assert!(bad(json!({"zones": 0})).contains("scheduling.zones: expected 1 to 26 zones"));
    assert!(bad(json!({"nodeList": [{"name": "a"}]}))
        .contains("model.scheduling.nodeList: 1 nodes listed, but `nodes` is 2"));
    assert!(bad(json!({"pod": {"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "k", "whenUnsatisfiable": "Maybe"}]}}))
        .contains("scheduling.pod.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: \"Maybe\""));
    // Written back, a model reads as itself.
    let s = scenario(json!(null), 0, 3, anti_affinity());
    let again = Scenario::from_value(&serde_json::to_value(&s).unwrap()).unwrap();
    assert_eq!(again, s);
}

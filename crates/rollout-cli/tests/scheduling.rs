//! `rollout plan` with the scheduler: an HA Deployment whose surge pod fits no node, node sizes
//! and zones from flags, a nodes file, and bad node flags.

mod common;
use common::{json, refused, rollout};

/// 3 replicas of an HA service: one per node (required anti-affinity on the hostname),
/// maxUnavailable 0, and the rules the scheduler only scores with (named, not modelled).
const HA: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: checkout
spec:
  replicas: 3
  progressDeadlineSeconds: 120
  selector:
    matchLabels:
      app: checkout
  strategy:
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  template:
    metadata:
      labels:
        app: checkout
    spec:
      nodeSelector:
        kubernetes.io/os: linux
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector:
              matchExpressions:
              - key: app
                operator: In
                values: [checkout]
            topologyKey: kubernetes.io/hostname
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 100
            podAffinityTerm:
              labelSelector:
                matchLabels:
                  app: checkout
              topologyKey: topology.kubernetes.io/zone
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: ScheduleAnyway
        labelSelector:
          matchLabels:
            app: checkout
      containers:
      - name: checkout
        image: shop/checkout:2.3.0
        resources:
          requests:
            cpu: 300m
            memory: 256Mi
          limits:
            memory: 512Mi
";

const STUCK: &str = "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..";

#[test]
fn the_ha_surge_pod_on_three_nodes_never_schedules_and_the_deadline_fires() {
    let path = common::write("sched", "ha.yaml", HA);
    let file = path.to_str().unwrap();
    // Pods without probes are Ready once their containers start (pull 0 s): the image is set
    // in round 1 (1 s rounds); the surge pod is Pending from then, and the deadline of 120 s
    // passes once now > 121 s: round 122. No duration.
    let f = json(&rollout(&["plan", file, "--json"]));
    assert_eq!(f["completeRound"], serde_json::Value::Null, "{f}");
    assert_eq!(f["durationSeconds"], serde_json::Value::Null);
    assert_eq!(f["deadlineExceededRound"], 122);
    assert_eq!(f["unschedulable"]["message"], STUCK);
    assert_eq!(f["unschedulable"]["pod"], "checkout-rev2-00001");
    let warnings = f["warnings"].to_string();
    assert!(
        warnings.contains(
            "preferredDuringSchedulingIgnoredDuringExecution: preferred terms only score nodes"
        ),
        "{warnings}"
    );
    assert!(warnings.contains("ScheduleAnyway"), "{warnings}");
    assert!(!warnings.contains("affinity is not modelled"), "{warnings}");
    // The text says the same in words.
    let out = rollout(&["plan", file]);
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "never completes: pod checkout-rev2-00001 cannot be scheduled",
        "progress deadline is exceeded in round 122",
        STUCK,
        "podAntiAffinity (required) topologyKey kubernetes.io/hostname",
        "requests cpu 300m, memory 256Mi",
        "3 nodes of 4 CPU, 16Gi memory, 110 pods each, in 1 zone",
    ] {
        assert!(text.contains(needle), "no {needle:?} in\n{text}");
    }
}

#[test]
fn a_fourth_node_or_room_to_drop_a_pod_lets_it_complete() {
    let path = common::write("sched", "ha4.yaml", HA);
    let file = path.to_str().unwrap();
    let f = json(&rollout(&["plan", file, "--json", "--nodes", "4"]));
    assert!(f["completeRound"].is_u64(), "{f}");
    assert!(f.get("unschedulable").is_none());
    // Nodes of 500m CPU hold one 300m pod each: with 4 nodes, the surge pod fits node 4 only.
    let f = json(&rollout(&[
        "plan",
        file,
        "--json",
        "--nodes",
        "4",
        "--node-cpu",
        "500m",
    ]));
    assert!(f["completeRound"].is_u64(), "{f}");
    // 3 nodes of 500m: a node holding a 300m pod has 200m left, and NodeResourcesFit runs
    // before InterPodAffinity, so all 3 answer "Insufficient cpu".
    let f = json(&rollout(&["plan", file, "--json", "--node-cpu", "500m"]));
    assert_eq!(
        f["unschedulable"]["message"],
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.."
    );
}

#[test]
fn a_nodes_file_of_kubectl_output_gives_the_nodes() {
    let nodes = r#"{"apiVersion":"v1","kind":"List","items":[
      {"kind":"Node","metadata":{"name":"ip-10-0-1-5","labels":{"topology.kubernetes.io/zone":"eu-west-1a"}},
       "status":{"allocatable":{"cpu":"1930m","memory":"7Gi","pods":"29"}}},
      {"kind":"Node","metadata":{"name":"ip-10-0-2-7","labels":{"topology.kubernetes.io/zone":"eu-west-1b"}},
       "status":{"allocatable":{"cpu":"1930m","memory":"7Gi","pods":"29"}}}]}"#;
    let n = common::write("sched", "nodes.json", nodes);
    let m = common::write("sched", "ha-file.yaml", HA);
    let f = json(&rollout(&[
        "plan",
        m.to_str().unwrap(),
        "--json",
        "--nodes-file",
        n.to_str().unwrap(),
    ]));
    // 2 nodes for 3 pods, one a node: the third old pod is already Pending.
    assert_eq!(f["model"]["nodes"], 2);
    assert_eq!(
        f["unschedulable"]["message"],
        "0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.."
    );
    let e = refused(&rollout(&[
        "plan",
        m.to_str().unwrap(),
        "--nodes",
        "3",
        "--nodes-file",
        n.to_str().unwrap(),
    ]));
    assert!(e.contains("--nodes and --nodes-file"), "{e}");
}

#[test]
fn bad_node_flags_are_named() {
    let m = common::write("sched", "ha-bad.yaml", HA);
    let file = m.to_str().unwrap();
    let e = refused(&rollout(&["plan", file, "--node-cpu", "lots"]));
    assert!(
        e.contains("--node-cpu \"lots\": quantities must match"),
        "{e}"
    );
    let e = refused(&rollout(&["plan", file, "--zones", "0"]));
    assert!(e.contains("--zones \"0\": expected 1 to 26 zones"), "{e}");
    let e = refused(&rollout(&["plan", file, "--node-memory", "0"]));
    assert!(
        e.contains("--node-memory \"0\": a node needs more than 0"),
        "{e}"
    );
    let bad = common::write(
        "sched",
        "bad-nodes.json",
        r#"[{"name": "a", "cpu": "2", "gpus": 1}]"#,
    );
    let e = refused(&rollout(&[
        "plan",
        file,
        "--nodes-file",
        bad.to_str().unwrap(),
    ]));
    assert!(e.contains("nodes[0]: unknown field `gpus`"), "{e}");
}

#[test]
fn import_carries_the_placement_rules_into_the_scenario() {
    let m = common::write("sched", "ha-import.yaml", HA);
    let out = rollout(&["import", m.to_str().unwrap()]);
    let s = json(&out);
    let pod = &s["model"]["scheduling"]["pod"];
    assert_eq!(
        pod["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]
            ["topologyKey"],
        "kubernetes.io/hostname"
    );
    assert_eq!(pod["containers"][0]["resources"]["requests"]["cpu"], "300m");
    assert_eq!(pod["nodeSelector"]["kubernetes.io/os"], "linux");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("affinity is not modelled"), "{stderr}");
    assert!(
        stderr.contains("ScheduleAnyway spread only scores nodes"),
        "{stderr}"
    );
    // The scenario reads back, and its surge pod fits nowhere once the image changes.
    let mut s = s;
    s["rounds"] = serde_json::json!(20);
    s["actions"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"round": 3, "type": "setImage", "image": "shop/checkout:2.3.1"}));
    let path = common::write("sched", "ha-scenario.json", &s.to_string());
    let f = json(&rollout(&["plan", path.to_str().unwrap(), "--json"]));
    assert_eq!(f["completeRound"], serde_json::Value::Null);
    assert_eq!(f["unschedulable"]["message"], STUCK);
}

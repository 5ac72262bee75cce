//! Forecasts of manifests whose probes time the pods, against figures worked by hand from the
//! kubelet's rules (README, "How pods start"). Every manifest here has 1 replica, maxSurge 1,
//! maxUnavailable 0 and a 0 s grace period, so the rollout is one wave: the new pod is
//! admitted when the image is set, the old one goes once it is Ready, and `durationSeconds` is
//! the new pod's time from admission to Ready. The first pod of the `create` is timed the same
//! way, so the image is set one round after it is Ready: `startRound` = Ready + 1 (1 s rounds).

use rollout_core::plan::forecast;
use rollout_core::plan::manifest::{manifest_scenario, read_manifest, resolve, ClusterModel};
use serde_json::json;

/// A one-replica manifest with this container (name `web`, image `web:1`).
fn manifest(container: serde_json::Value, replicas: i32) -> String {
    let mut c = container;
    c["name"] = json!("web");
    c["image"] = json!("web:1");
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "web"}},
            "strategy": {"type": "RollingUpdate",
                "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"terminationGracePeriodSeconds": 0, "containers": [c]}}}})
    .to_string()
}

/// (startRound, durationSeconds) of the manifest's forecast in `model`.
fn figures(text: &str, model: &ClusterModel) -> (u32, Option<i64>) {
    let m = read_manifest(text).unwrap();
    let r = resolve(&m, model);
    let f = forecast(&manifest_scenario(&m.deployment, &r).unwrap()).unwrap();
    (f.start_round, f.duration_seconds)
}

fn readiness(probe: serde_json::Value) -> String {
    manifest(json!({"readinessProbe": probe}), 1)
}

#[test]
fn initial_delay_5_with_the_default_period_is_ready_at_10_s() {
    // The worker ticks at 0, 10, 20 s; the run the container's start triggers (0 s) is inside
    // the delay (int(0) < 5); the tick at 10 s succeeds.
    let text = readiness(json!({"httpGet": {"path": "/"}, "initialDelaySeconds": 5}));
    assert_eq!(figures(&text, &ClusterModel::default()), (11, Some(10)));
}

#[test]
fn initial_delay_20_period_5_is_ready_at_20_s() {
    // Ticks at 0, 5, 10, 15 s are inside the delay; at 20 s int(20) ≥ 20.
    let text = readiness(json!({"initialDelaySeconds": 20, "periodSeconds": 5}));
    assert_eq!(figures(&text, &ClusterModel::default()), (21, Some(20)));
}

#[test]
fn no_delay_is_ready_at_once() {
    // The run the container's start triggers succeeds: Ready in the round it is created, so
    // the first pod is Ready in round 0 and the image is set in round 1. The rollout is done
    // in that round too, but `completeRound` is the first round after the start
    // (plan_metrics.py): 1 s.
    let text = readiness(json!({"exec": {"command": ["true"]}}));
    let m = read_manifest(&text).unwrap();
    assert_eq!(
        resolve(&m, &ClusterModel::default()).startup.ready_seconds,
        Some(0)
    );
    assert_eq!(figures(&text, &ClusterModel::default()), (1, Some(1)));
}

#[test]
fn success_threshold_3_period_5_is_ready_at_10_s() {
    // Successes at 0 s (the container's start), 5 s and 10 s.
    let text = readiness(json!({"successThreshold": 3, "periodSeconds": 5}));
    assert_eq!(figures(&text, &ClusterModel::default()), (11, Some(10)));
}

#[test]
fn a_startup_probe_on_an_app_answering_from_45_s_is_started_and_ready_at_50_s() {
    // Startup runs at 10, 20, 30, 40 s fail (4 < 30), 50 s succeeds; the status update it
    // causes triggers a readiness run, which succeeds: Ready at 50 s.
    let text = manifest(
        json!({"startupProbe": {"periodSeconds": 10, "failureThreshold": 30},
               "readinessProbe": {"periodSeconds": 10}}),
        1,
    );
    let model = ClusterModel {
        app_ready_seconds: 45,
        ..ClusterModel::default()
    };
    assert_eq!(figures(&text, &model), (51, Some(50)));
    let m = read_manifest(&text).unwrap();
    let s = resolve(&m, &model).startup;
    assert_eq!(
        (s.container_starts[0].started, s.ready_seconds),
        (Some(50), Some(50))
    );
    // An app answering from 301 s: the 30th failing run (at 300 s) restarts the container,
    // again and again; the forecast says so instead of running.
    let late = ClusterModel {
        app_ready_seconds: 301,
        ..ClusterModel::default()
    };
    let r = resolve(&m, &late);
    let e = manifest_scenario(&m.deployment, &r).unwrap_err();
    assert!(e.contains("startupProbe fails 30 times"), "{e}");
}

#[test]
fn a_12_s_pull_delays_the_container_not_the_ticks() {
    // Ticks at 0, 10, 20 s from admission; the container runs from 12 s, the run its start
    // triggers is inside the 5 s delay, the tick at 20 s (int(8) ≥ 5) succeeds. The new
    // image is pulled too: the new pod is Ready 20 s after it is admitted.
    let text = readiness(json!({"initialDelaySeconds": 5}));
    let model = ClusterModel {
        pull_seconds: 12,
        ..ClusterModel::default()
    };
    assert_eq!(figures(&text, &model), (21, Some(20)));
}

#[test]
fn an_image_already_on_the_node_is_not_pulled_again() {
    // 3 replicas on 1 node, one pod a wave: the first new pod pulls (Ready 20 s after its
    // admission, as above); the next ones find the image there: running at admission, the run
    // at their start is inside the delay, Ready at the tick 10 s later. 20 + 10 + 10 = 40 s.
    let text = manifest(json!({"readinessProbe": {"initialDelaySeconds": 5}}), 3);
    let one_node = ClusterModel {
        pull_seconds: 12,
        nodes: 1,
        ..ClusterModel::default()
    };
    assert_eq!(figures(&text, &one_node).1, Some(40));
    // On 3 nodes each new pod lands on a node without the new image: 3 × 20 s.
    let three = ClusterModel {
        nodes: 3,
        ..one_node
    };
    assert_eq!(figures(&text, &three).1, Some(60));
}

#[test]
fn without_probes_the_pull_times_the_pods_and_app_ready_is_not_used() {
    let text = manifest(json!({}), 1);
    let model = ClusterModel {
        pull_seconds: 12,
        app_ready_seconds: 40,
        ..ClusterModel::default()
    };
    // No probe: the kubelet marks the container ready once it runs, after the 12 s pull (the
    // app's 40 s play no part). The first pod is Ready at 12 s, the image set in round 13;
    // the new pod lands on a node without the new image: 12 s again.
    assert_eq!(figures(&text, &model), (13, Some(12)));
    // The deprecated readyAfter is that pull.
    let old = ClusterModel {
        ready_after_seconds: Some(12),
        ..ClusterModel::default()
    };
    assert_eq!(figures(&text, &old), (13, Some(12)));
    // Pull 0 s: Ready as they start; the rollout completes in the round after the image.
    assert_eq!(figures(&text, &ClusterModel::default()), (1, Some(1)));
}

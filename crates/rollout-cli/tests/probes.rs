//! `rollout plan` of a real manifest with probes (`../shared/manifests`): the forecast follows
//! its probes, prints what it read and what it assumed, and each assumption is a flag.

use std::path::PathBuf;
use std::process::{Command, Output};

/// podinfo from its kustomize base: 1 replica, maxUnavailable 0 (maxSurge 25 % → 1),
/// minReadySeconds 3, readiness and liveness probes with `initialDelaySeconds: 5` (period 10),
/// no grace period (30 s).
fn podinfo() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/manifests/08-podinfo-kustomize-deployment.yaml");
    path.to_str().unwrap().to_string()
}

fn rollout(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rollout"))
        .args(args)
        .output()
        .expect("rollout runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = rollout(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON value")
}

#[test]
fn podinfo_is_forecast_by_its_probes() {
    let file = podinfo();
    let f = json(&["plan", &file, "--json"]);
    // A new pod: the readiness run at its start (0 s) is inside the 5 s delay, the tick at
    // 10 s succeeds; available once ready for more than 3 s: at 14 s. The first pod's so, the
    // image is set in round 15; the new pod is available 14 s later and the old one goes.
    assert_eq!(f["startRound"], 15, "{f}");
    assert_eq!(f["durationSeconds"], 14, "{f}");
    let startup = &f["model"]["startup"];
    assert_eq!(startup["timing"], "probes");
    assert_eq!(startup["readySeconds"], 10);
    let read = &startup["read"]["containers"][0];
    assert_eq!(read["name"], "podinfod");
    assert_eq!(read["readinessProbe"]["initialDelaySeconds"], 5);
    assert_eq!(read["readinessProbe"]["periodSeconds"], 10);
    assert_eq!(read["livenessProbe"]["failureThreshold"], 3);
    assert_eq!(
        startup["read"]["terminationGracePeriodSeconds"],
        serde_json::Value::Null
    );
    assert_eq!(startup["assumed"]["pullSeconds"], 0);
    assert_eq!(startup["assumed"]["appReadySeconds"], 0);
    assert_eq!(
        startup["assumed"]["readyAfterSeconds"],
        serde_json::Value::Null
    );

    // The app answering from 20 s: liveness fails once (10 s), readiness succeeds at 20 s.
    let f = json(&["plan", &file, "--json", "--app-ready", "20s"]);
    assert_eq!(f["model"]["startup"]["readySeconds"], 20);
    assert_eq!(f["durationSeconds"], 24);
    // A 12 s pull: running from 12 s, the tick at 20 s succeeds.
    let f = json(&["plan", &file, "--json", "--pull=12s"]);
    assert_eq!(f["model"]["startup"]["runningSeconds"], 12);
    assert_eq!(
        (f["startRound"].clone(), f["durationSeconds"].clone()),
        (25.into(), 24.into())
    );
}

#[test]
fn a_liveness_probe_that_fails_first_is_refused_with_the_reason() {
    // The app answering from 40 s: liveness fails at 10, 20 and 30 s, the kubelet restarts it.
    let out = rollout(&["plan", &podinfo(), "--app-ready", "40s"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let e = String::from_utf8(out.stderr).unwrap();
    assert!(e.contains("livenessProbe fails 3 times"), "{e}");
}

#[test]
fn the_text_says_what_was_read_and_what_was_assumed() {
    let out = rollout(&["plan", &podinfo()]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "--pull 0s",
        "--app-ready 0s",
        "assumed: pulling the image onto a node that lacks it",
        "assumed: the app answers its probes this long after its container starts",
        "container podinfod: readinessProbe initialDelaySeconds 5, periodSeconds 10, successThreshold 1, failureThreshold 3; livenessProbe initialDelaySeconds 5",
        "terminationGracePeriodSeconds absent (Kubernetes' default 30 s)",
        "containers running from 0 s, Ready at 10 s",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
    }
    // The deprecated --ready-after is the pull, and says so: with 1m, the container runs from
    // 60 s and the probe's tick at 70 s (int(10) ≥ 5) makes the pod Ready.
    let out = rollout(&["plan", &podinfo(), "--ready-after", "1m"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "--pull 60s",
        "--ready-after (plan()'s readyAfter) is deprecated",
        "so 60 s is read as the image pull: --pull 60s",
        "containers running from 60 s, Ready at 70 s",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
    }
}

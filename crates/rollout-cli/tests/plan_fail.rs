//! `rollout plan --fail`: the rollout where the new version fails, as a user runs it.

mod common;
use common::{json, refused, rollout};

/// 4 replicas, maxSurge 1, maxUnavailable as given, a readiness probe 10 s after the
/// container starts (`initialDelaySeconds: 10`, period 10).
fn manifest(max_unavailable: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 4
  selector:
    matchLabels:
      app: web
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: {max_unavailable}
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.14.2
        readinessProbe:
          initialDelaySeconds: 10
"
    )
}

fn plan(name: &str, max_unavailable: &str, extra: &[&str]) -> serde_json::Value {
    let path = common::write("plan_fail", name, &manifest(max_unavailable));
    let mut args = vec![
        "plan",
        path.to_str().unwrap(),
        "--json",
        "--fail",
        "crash:after=5s",
    ];
    args.extend(extra);
    json(&rollout(&args))
}

#[test]
fn max_unavailable_0_loses_no_capacity_and_reports_the_deadline() {
    // The surge pod crashes 5 s after each start, before its readiness probe's first run past
    // its 10 s delay (a run at 10 s finds the container restarted at 5 s, 5 s old): never
    // Ready, never available,
    // and maxUnavailable 0 keeps all 4 old pods. Progressing was last updated when the image
    // was set; ProgressDeadlineExceeded is reported strictly after 600 s: 601 s later. The
    // undo the round after deletes the surge pod: the 4 old pods are all available at once.
    let p = plan("zero.yaml", "0", &[]);
    let f = &p["ifItFails"];
    assert_eq!(f["failure"], "crash:after=5s");
    assert_eq!(f["capacityLost"], 0, "{f}");
    assert_eq!(f["minAvailable"], 4);
    assert_eq!(f["podsStuck"], 1);
    assert_eq!(f["deadlineExceededSeconds"], 601);
    assert_eq!(f["undoSeconds"], 0);
    // The successful forecast is still there.
    assert!(p["durationSeconds"].is_number(), "{p}");
}

#[test]
fn max_unavailable_25_percent_loses_a_pod_until_the_undo() {
    // 25 % of 4 = 1 old pod goes at once: 3 available for the 601 s to the deadline; 2 new
    // pods crash-loop. The undo scales the old ReplicaSet back to 4: its new pod's readiness
    // probe first runs past its delay 10 s later, and it is available then.
    let p = plan("quarter.yaml", "25%", &[]);
    let f = &p["ifItFails"];
    assert_eq!(
        (f["capacityLost"].as_i64(), f["minAvailable"].as_i64()),
        (Some(1), Some(3)),
        "{f}"
    );
    assert_eq!(f["lowestSeconds"], 601);
    assert_eq!(f["podsStuck"], 2);
    assert_eq!(f["deadlineExceededSeconds"], 601);
    assert_eq!(f["undoSeconds"], 10);
}

#[test]
fn the_text_and_the_sweep_say_it_too() {
    let path = common::write("plan_fail", "text.yaml", &manifest("0"));
    let file = path.to_str().unwrap();
    let out = rollout(&["plan", file, "--fail", "crash:after=5s"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "If it fails (--fail crash:after=5s: the new version crashes 5 s after each start):"
        ),
        "{text}"
    );
    assert!(
        text.contains("  deadlineExceededSeconds   601   ProgressDeadlineExceeded"),
        "{text}"
    );
    let out = rollout(&[
        "plan",
        file,
        "--fail",
        "crash:after=5s",
        "--sweep",
        "maxUnavailable=0,1,2",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("lost if it fails"), "{text}");
    // maxUnavailable 0, 1, 2 of 4: 0, 1 and 2 pods lost.
    for lost in ["0 of 4", "1 of 4", "2 of 4"] {
        assert!(text.contains(lost), "{lost}: {text}");
    }
    let out = rollout(&[
        "plan",
        file,
        "--fail",
        "pull",
        "--sweep",
        "maxUnavailable=0,1",
        "--csv",
    ]);
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .contains("capacityLostIfFails,lowestSecondsIfFails"),
        "{csv}"
    );
}

#[test]
fn a_bad_failure_is_refused_by_name() {
    let path = common::write("plan_fail", "bad.yaml", &manifest("0"));
    let file = path.to_str().unwrap();
    let e = refused(&rollout(&["plan", file, "--fail", "crash:every=5s"]));
    assert!(
        e.contains("--fail \"crash:every=5s\": `crash` has no `every`, expected after"),
        "{e}"
    );
    let e = refused(&rollout(&["plan", file, "--fail", "explode"]));
    assert!(e.contains("unknown failure `explode`"), "{e}");
}

#[test]
fn without_a_readiness_probe_the_crashing_version_takes_every_pod() {
    // No probe and no pull time: the kubelet marks each new container Ready as soon as it
    // starts, so every new pod is available at once; the controllers, reacting at once, replace
    // all 4 old pods before the first exit 5 s later and `rollout status` succeeds. Then every
    // new pod crash-loops: 0 of 4 available (all 4 lost), and no deadline is ever reported,
    // since the rollout completed.
    let path = common::write(
        "plan_fail",
        "noprobe.yaml",
        &manifest("0").replace(
            "        readinessProbe:\n          initialDelaySeconds: 10\n",
            "",
        ),
    );
    let p = json(&rollout(&[
        "plan",
        path.to_str().unwrap(),
        "--json",
        "--fail",
        "crash:after=5s",
    ]));
    let f = &p["ifItFails"];
    assert_eq!(f["capacityLost"], 4, "{f}");
    assert_eq!(f["minAvailable"], 0, "{f}");
    assert!(f["completesAfterSeconds"].is_number(), "{f}");
    assert!(f["deadlineExceededSeconds"].is_null(), "{f}");
}

//! `rollout plan OLD NEW` (issue #37, items 3 and 4): pairs made from the real manifests of
//! `../shared/manifests` (OLD the file as it is, NEW its Deployment edited as an engineer edits
//! it in a pull request), with what `kubectl apply` does asserted; hand-worked forecasts; the
//! Markdown summary and the exit codes of the checks; `--scale-at`.

mod common;
use common::{json, refused, rollout, write};
use rollout_facade::import::Pick;
use serde_json::{json as j, Value};
use std::path::{Path, PathBuf};

fn shared(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/manifests")
        .join(name)
}

/// The files planned (one Deployment each, or the one named), read in place.
const FILES: [(&str, Option<&str>); 10] = [
    ("05-microservices-demo-frontend.yaml", None),
    ("08-podinfo-kustomize-deployment.yaml", None),
    ("10-argocd-guestbook-ui-deployment.yaml", None),
    (
        "14-k8s-examples-guestbook-all-in-one.yaml",
        Some("frontend"),
    ),
    ("20-ingress-nginx-cloud-deploy.yaml", None),
    ("22-kube-prometheus-grafana.yaml", None),
    ("25-kube-state-metrics-standard-deployment.yaml", None),
    ("28-kubectl-blame-get-o-json-managedfields.json", None),
    ("33-kubectl-testdata-get-o-yaml-lastapplied.yaml", None),
    (
        "42-kube-prometheus-blackbox-exporter-3containers.yaml",
        None,
    ),
];

/// The Deployment of `file` as the API server reads it (the object NEW is made from).
fn deployment_of(file: &str, name: Option<&str>) -> Value {
    let text = std::fs::read_to_string(shared(file)).unwrap();
    let pick = Pick { name, how: "" };
    rollout_facade::import::read_deployment(&text, pick)
        .unwrap()
        .0
}

/// `rollout plan OLD NEW --json` with NEW the edited object.
fn plan(file: &str, name: Option<&str>, new: &Value, extra: &[&str]) -> Value {
    let tag = file.replace('.', "-");
    let path = write("change", &format!("{tag}-new.json"), &new.to_string());
    let old = shared(file);
    let mut args = vec![
        "plan",
        old.to_str().unwrap(),
        path.to_str().unwrap(),
        "--json",
    ];
    if let Some(n) = name {
        args.extend(["--deployment", n]);
    }
    args.extend(extra);
    json(&rollout(&args))
}

fn replicas(d: &Value) -> i64 {
    d.pointer("/spec/replicas")
        .and_then(Value::as_i64)
        .unwrap_or(1)
}

#[test]
fn the_api_servers_answer_for_each_kind_of_edit() {
    for (file, name) in FILES {
        let old = deployment_of(file, name);
        let container = old["spec"]["template"]["spec"]["containers"][0]["name"]
            .as_str()
            .unwrap()
            .to_string();
        // Nothing: the Deployment as read, written back as JSON.
        let out = plan(file, name, &old, &[]);
        assert_eq!(
            out["change"]["kind"], "nothing",
            "{file}: {}",
            out["change"]
        );
        // An environment variable added: the template changes, a rollout.
        let mut env = old.clone();
        let c = &mut env["spec"]["template"]["spec"]["containers"][0];
        match c.get_mut("env").and_then(Value::as_array_mut) {
            Some(list) => list.push(j!({"name": "ROLLOUT_LAB_TEST", "value": "1"})),
            None => c["env"] = j!([{"name": "ROLLOUT_LAB_TEST", "value": "1"}]),
        }
        let out = plan(file, name, &env, &[]);
        assert_eq!(
            out["change"]["kind"], "rollout",
            "{file}: {}",
            out["change"]
        );
        assert_eq!(out["change"]["podTemplateHashChanges"], true);
        let field = out["change"]["templateFields"][0].as_str().unwrap();
        assert!(
            field.starts_with(&format!("spec.template.spec.containers[{container}].env")),
            "{file}: {field}"
        );
        assert!(out["completeRound"].is_number(), "{file}: {out}");
        // The replicas changed: a scale, and no new ReplicaSet.
        let n = replicas(&old);
        let mut more = old.clone();
        more["spec"]["replicas"] = j!(n + 2);
        let out = plan(file, name, &more, &[]);
        assert_eq!(out["change"]["kind"], "scale", "{file}: {}", out["change"]);
        assert_eq!(
            out["change"]["specFields"],
            j!([format!("spec.replicas: {n} → {}", n + 2)])
        );
        assert_eq!(out["change"]["podTemplateHashChanges"], false);
        // Both.
        let mut both = env.clone();
        both["spec"]["replicas"] = j!(n + 2);
        let out = plan(file, name, &both, &[]);
        assert_eq!(
            out["change"]["kind"], "rolloutAndScale",
            "{file}: {}",
            out["change"]
        );
        // The strategy only: stored, no pod replaced.
        let mut strategy = old.clone();
        let recreate =
            old.pointer("/spec/strategy/type").and_then(Value::as_str) == Some("Recreate");
        strategy["spec"]["strategy"] = if recreate {
            j!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}})
        } else {
            j!({"type": "Recreate"})
        };
        let out = plan(file, name, &strategy, &[]);
        assert_eq!(out["change"]["kind"], "spec", "{file}: {}", out["change"]);
        assert!(
            out["change"]["specFields"][0]
                .as_str()
                .unwrap()
                .starts_with("spec.strategy: "),
            "{file}: {}",
            out["change"]
        );
    }
}

const WEB: &str = r#"{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
  "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
    "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
    "template": {"metadata": {"labels": {"app": "web"}},
      "spec": {"terminationGracePeriodSeconds": 0,
        "containers": [{"name": "web", "image": "nginx:1.14.2",
          "readinessProbe": {"initialDelaySeconds": 10, "periodSeconds": 10}}]}}}}"#;

fn web_files(tag: &str, edit: impl Fn(&mut Value)) -> (PathBuf, PathBuf) {
    let old: Value = serde_json::from_str(WEB).unwrap();
    let mut new = old.clone();
    edit(&mut new);
    (
        write("change", &format!("{tag}-old.json"), &old.to_string()),
        write("change", &format!("{tag}-new.json"), &new.to_string()),
    )
}

#[test]
fn a_template_edit_is_forecast_by_hand() {
    let (old, new) = web_files("edit", |d| {
        d["spec"]["template"]["spec"]["containers"][0]["env"] = j!([{"name": "A", "value": "1"}]);
    });
    let out = json(&rollout(&[
        "plan",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--json",
    ]));
    // OLD's 2 pods: readiness delay 10 s, period 10: Ready at 10 s, NEW applied in round 11.
    // maxSurge 1, maxUnavailable 0, no grace period: the surge pod is Ready 10 s later, an
    // old pod goes at once and the second new pod is Ready 10 s after that: 20 s, at most
    // 3 pods, never fewer than 2 available.
    assert_eq!(out["startRound"], 11, "{out}");
    assert_eq!(out["durationSeconds"], 20, "{out}");
    assert_eq!(out["peakPods"], 3);
    assert_eq!(out["minAvailable"], 2);
    // The text says what kubectl apply does, with the command.
    let text = rollout(&["plan", old.to_str().unwrap(), new.to_str().unwrap()]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("a rollout: the pod template changed (spec.template.spec.containers[web].env), so pod-template-hash changes"), "{text}");
    assert!(
        text.contains(&format!("$ kubectl apply -f {}", new.display())),
        "{text}"
    );
}

#[test]
fn a_scale_during_a_rollout_is_proportional() {
    // An image change and 2 → 4 replicas in one apply. Hand-worked from the controller
    // (t = 0 the apply; pods Ready 10 s after creation; no grace period):
    // * 0 s: a scaling event (isScalingEvent: the old ReplicaSet's desired-replicas says 2, the
    //   Deployment 4), and `sync` runs before any new ReplicaSet exists: sync.go `scale` gives
    //   the one active ReplicaSet the full count, old 2 → 4; then the rollout creates the new
    //   one with the room maxSurge leaves, 4 + 1 − 4 = 1: 5 pods, 2 of them available;
    // * 10 s: 5 available, 4 needed: old 4 → 3, new 1 → 2; 20 s: old → 2, new → 3; 30 s: old
    //   → 1, new → 4; 40 s: old → 0. Done in 40 s, at most 5 pods, at least 2 available.
    let (old, new) = web_files("scale", |d| {
        d["spec"]["replicas"] = j!(4);
        d["spec"]["template"]["spec"]["containers"][0]["image"] = j!("nginx:1.16.1");
    });
    let out = json(&rollout(&[
        "plan",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(out["change"]["kind"], "rolloutAndScale");
    assert_eq!(out["peakPods"], 5, "{out}");
    assert_eq!(out["durationSeconds"], 40, "{out}");
    assert_eq!(out["minAvailable"], 2, "{out}");
    // `--scale-at 5s=6` on one manifest: at 5 s the old ReplicaSet has 2 pods and the new one
    // 1 (not Ready until 10 s) when the Deployment is scaled to 6: proportional scaling
    // (sync.go `scale`, `GetProportion`) shares the 4 pods now allowed (6 + maxSurge 1 − 3)
    // by the ReplicaSets' sizes, the larger first: old 2 → 5, new 1 → 2, 7 pods. The rollout
    // then goes on one pod at a time (Ready 10 s after creation): five more waves, 5 + 50 = 55 s.
    let o = old.to_str().unwrap();
    let out = json(&rollout(&["plan", o, "--json", "--scale-at", "5s=6"]));
    assert_eq!(out["durationSeconds"], 55, "{out}");
    assert_eq!(out["peakPods"], 7, "{out}");
    let text = String::from_utf8(rollout(&["plan", o, "--scale-at", "5s=6"]).stdout).unwrap();
    assert!(
        text.contains("Scaled up replica set web-rev1 to 5 from 2"),
        "{text}"
    );
    assert!(
        text.contains("Scaled up replica set web-rev2 to 2 from 1"),
        "{text}"
    );
    // A scale after the rollout is done is left out, and the warning says so.
    let out = json(&rollout(&[
        "plan",
        old.to_str().unwrap(),
        "--json",
        "--scale-at",
        "5m=6",
    ]));
    let w = out["warnings"].to_string();
    assert!(
        w.contains("the scale to 6 replicas at 300 s comes after the rollout completes"),
        "{w}"
    );
}

#[test]
fn a_changed_selector_is_refused_as_the_api_server_refuses_it() {
    let (old, new) = web_files("selector", |d| {
        d["spec"]["selector"]["matchLabels"]["tier"] = j!("front");
        d["spec"]["template"]["metadata"]["labels"]["tier"] = j!("front");
    });
    let e = refused(&rollout(&[
        "plan",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
    ]));
    assert!(
        e.contains("spec.selector: Invalid value") && e.contains("field is immutable"),
        "{e}"
    );
}

#[test]
fn markdown_and_the_checks_exit_codes() {
    let (old, new) = web_files("markdown", |d| {
        d["spec"]["template"]["spec"]["containers"][0]["env"] = j!([{"name": "A", "value": "1"}]);
    });
    let (o, n) = (old.to_str().unwrap(), new.to_str().unwrap());
    // The forecast (20 s, peak 3, lowest 2) keeps every check: exit 0.
    let out = rollout(&[
        "plan",
        o,
        n,
        "--format",
        "markdown",
        "--max-peak",
        "3",
        "--min-available",
        "2",
        "--max-duration",
        "20s",
        "--link-base",
        "https://lab.example/",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let md = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "### Rollout Lab: deployment/web",
        "**What the change does:** a rollout: the pod template changed",
        "- `spec.template.spec.containers[web].env`",
        "| duration | 20 s until `kubectl rollout status` succeeds |",
        "| peak pods | 3 (terminating included) |",
        "| lowest availability | 2 pods |",
        "**Assumed:** image pull 0 s, app ready 0 s, termination 0 s (terminationGracePeriodSeconds)",
        "- ✅ peakPods 3 ≤ 3 (`--max-peak`)",
        "- ✅ minAvailable 2 ≥ 2 (`--min-available`)",
        "- ✅ durationSeconds 20 ≤ 20 (`--max-duration`)",
        "[Open this forecast on the Plan page](https://lab.example/?view=plan#plan=",
    ] {
        assert!(md.contains(needle), "{needle:?} missing from:\n{md}");
    }
    // The link holds NEW and OLD, read back by the core as the page reads it.
    let link = md
        .split("](")
        .nth(1)
        .unwrap()
        .trim_end()
        .trim_end_matches(')');
    let fragment = link.split_once('#').unwrap().1;
    let back = rollout_facade::share::decode_plan_link(fragment).unwrap();
    assert_eq!(back.after, std::fs::read_to_string(&new).unwrap());
    assert_eq!(
        back.before.as_deref(),
        Some(std::fs::read_to_string(&old).unwrap().as_str())
    );
    // Each broken check: exit 1, the output printed, the reason on standard error.
    for (flag, value, reason) in [
        (
            "--max-peak",
            "2",
            "check failed: peakPods 3 is more than --max-peak 2",
        ),
        (
            "--min-available",
            "3",
            "check failed: minAvailable 2 is less than --min-available 3",
        ),
        (
            "--max-duration",
            "19s",
            "check failed: durationSeconds 20 is more than --max-duration 19 s",
        ),
    ] {
        let out = rollout(&["plan", o, n, "--format", "markdown", flag, value]);
        assert_eq!(out.status.code(), Some(1), "{flag}: {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("- ❌ "),
            "{flag}"
        );
        let e = String::from_utf8(out.stderr).unwrap();
        assert!(e.contains(reason), "{flag}: {e}");
    }
    // A rollout that never completes breaks --max-duration.
    let out = rollout(&["plan", o, "--bad-image", "--max-duration", "10m"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("the rollout never completes"));
    // Bad input is still exit 2.
    let e = refused(&rollout(&["plan", o, "--max-peak", "many"]));
    assert!(e.contains("--max-peak \"many\""), "{e}");
}
